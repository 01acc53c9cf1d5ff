import { f } from '../../model.js';
import { Bridge } from '../models/bridge.js';
import { Channel } from '../models/channel.js';
import { LiveRecording, Playback } from '../models/media.js';
import { defineEvent } from './define-event.js';

const playback = f.ref(Playback, 'Playback control object');
const recording = f.ref(LiveRecording, 'Recording control object');

export const PlaybackStarted = defineEvent('PlaybackStarted', 'Event showing the start of a media playback operation.', { playback });
export const PlaybackContinuing = defineEvent('PlaybackContinuing', 'Event showing the continuation of a media playback operation from one media URI to the next in the list.', { playback });
export const PlaybackFinished = defineEvent('PlaybackFinished', 'Event showing the completion of a media playback operation.', { playback });
export const RecordingStarted = defineEvent('RecordingStarted', 'Event showing the start of a recording operation.', { recording });
export const RecordingFinished = defineEvent('RecordingFinished', 'Event showing the completion of a recording operation.', { recording });
export const RecordingFailed = defineEvent('RecordingFailed', 'Event showing failure of a recording operation.', { recording });

export const BridgeCreated = defineEvent('BridgeCreated', 'Notification that a bridge has been created.', { bridge: f.ref(Bridge) });
export const BridgeDestroyed = defineEvent('BridgeDestroyed', 'Notification that a bridge has been destroyed.', { bridge: f.ref(Bridge) });
export const ChannelEnteredBridge = defineEvent('ChannelEnteredBridge', 'Notification that a channel has entered a bridge.', {
  bridge: f.ref(Bridge),
  channel: f.ref(Channel),
});
export const ChannelLeftBridge = defineEvent('ChannelLeftBridge', 'Notification that a channel has left a bridge.', {
  bridge: f.ref(Bridge),
  channel: f.ref(Channel),
});
