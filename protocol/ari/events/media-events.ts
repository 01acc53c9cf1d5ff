import { f } from '../../model.js';
import { Bridge } from '../models/bridge.js';
import { Channel } from '../models/channel.js';
import { LiveRecording, Playback } from '../models/media.js';
import { defineEvent } from './define-event.js';

const playback = f.ref(Playback, 'The playback as it is now.');
const recording = f.ref(LiveRecording, 'The recording as it is now.');

export const PlaybackStarted = defineEvent('PlaybackStarted', 'A playback began a URI, or resumed after a pause.', { playback });
export const PlaybackContinuing = defineEvent('PlaybackContinuing', 'A playback finished one URI and goes on with the next.', { playback });
export const PlaybackFinished = defineEvent('PlaybackFinished', 'A playback ended, done or failed.', { playback });
export const RecordingStarted = defineEvent('RecordingStarted', 'A recording began capturing.', { recording });
export const RecordingFinished = defineEvent('RecordingFinished', 'A recording ended: done (file kept) or canceled (file deleted).', { recording });
export const RecordingFailed = defineEvent('RecordingFailed', 'A recording failed; its cause says why.', { recording });

export const BridgeCreated = defineEvent('BridgeCreated', 'A new bridge exists.', { bridge: f.ref(Bridge) });
export const BridgeDestroyed = defineEvent('BridgeDestroyed', 'A bridge is gone.', { bridge: f.ref(Bridge) });
export const ChannelEnteredBridge = defineEvent('ChannelEnteredBridge', 'A channel joined a bridge.', {
  bridge: f.ref(Bridge),
  channel: f.ref(Channel),
});
export const ChannelLeftBridge = defineEvent('ChannelLeftBridge', 'A channel left a bridge.', {
  bridge: f.ref(Bridge),
  channel: f.ref(Channel),
});
