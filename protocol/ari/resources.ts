import type { Model } from '../model.js';
import type { Operation } from '../operation.js';
import { Application } from './models/application.js';
import { AsteriskInfo, AsteriskPing, BuildInfo, ConfigInfo, SetId, StatusInfo, SystemInfo, Variable } from './models/asterisk.js';
import { CallerID, Channel, Dialed, DialplanCEP, RTPstat } from './models/channel.js';
import { Endpoint } from './models/endpoint.js';
import { Bridge } from './models/bridge.js';
import { FormatLangPair, LiveRecording, Playback, Sound, StoredRecording } from './models/media.js';
import { bridgeOperations } from './operations/bridges.js';
import { playbackOperations } from './operations/playbacks.js';
import { recordingOperations } from './operations/recordings.js';
import { soundOperations } from './operations/sounds.js';
import { applicationOperations } from './operations/applications.js';
import { asteriskOperations } from './operations/asterisk.js';
import { channelOperations } from './operations/channels.js';
import { endpointOperations } from './operations/endpoints.js';
import { eventOperations } from './operations/events.js';

export interface AriResource {
  /** The api-docs file name (`channels` → `/api-docs/channels.{format}`). */
  name: string;
  description: string;
  /** Description of each path, shown once per `apis[]` entry. */
  paths: Record<string, string>;
  operations: readonly Operation[];
  /** Models this declaration defines (events.json's are added by the generator). */
  models: readonly Model[];
}

/** In the order Asterisk lists its api-docs. Resources without served operations are left out of the listing. */
export const ARI_RESOURCES: readonly AriResource[] = [
  {
    name: 'asterisk', description: 'Asterisk resources',
    paths: { '/asterisk/info': 'Asterisk system information (similar to core show settings)', '/asterisk/ping': 'Asterisk ping', '/asterisk/variable': 'Global variables' },
    operations: asteriskOperations,
    models: [BuildInfo, SystemInfo, SetId, ConfigInfo, StatusInfo, AsteriskInfo, AsteriskPing, Variable],
  },
  {
    name: 'endpoints', description: 'Endpoint resources',
    paths: { '/endpoints': 'Asterisk endpoints', '/endpoints/{tech}': 'Asterisk endpoints', '/endpoints/{tech}/{resource}': 'Single endpoint' },
    operations: endpointOperations, models: [Endpoint],
  },
  {
    name: 'channels', description: 'Channel resources',
    paths: {
      '/channels': 'Active channels', '/channels/create': 'Create a channel and place it in a Stasis app, but do not dial the channel yet.',
      '/channels/{channelId}': 'Active channel', '/channels/{channelId}/continue': 'Exit application; continue execution in the dialplan',
      '/channels/{channelId}/move': 'Move the channel from one Stasis application to another.',
      '/channels/{channelId}/redirect': 'Inform the channel that it should redirect itself to a different location. Note that this will almost certainly cause the channel to exit the application.',
      '/channels/{channelId}/answer': 'Answer a channel', '/channels/{channelId}/ring': 'Send a ringing indication to a channel',
      '/channels/{channelId}/dtmf': 'Send DTMF to a channel', '/channels/{channelId}/mute': 'Mute a channel',
      '/channels/{channelId}/hold': 'Put a channel on hold', '/channels/{channelId}/moh': 'Play music on hold to a channel',
      '/channels/{channelId}/silence': 'Play silence to a channel', '/channels/{channelId}/play': 'Play media to a channel',
      '/channels/{channelId}/play/{playbackId}': 'Play media to a channel', '/channels/{channelId}/record': 'Record audio from a channel',
      '/channels/{channelId}/variable': 'Variables on a channel', '/channels/{channelId}/snoop': 'Snoop (spy/whisper) on a channel',
      '/channels/{channelId}/snoop/{snoopId}': 'Snoop (spy/whisper) on a channel', '/channels/{channelId}/dial': 'Dial a channel',
      '/channels/{channelId}/rtp_statistics': 'Get RTP statistics information for RTP on a channel',
      '/channels/externalMedia': 'Create a channel to an External Media source/sink.',
    },
    operations: channelOperations, models: [Dialed, DialplanCEP, CallerID, RTPstat, Channel],
  },
  {
    name: 'bridges', description: 'Bridge resources',
    paths: {
      '/bridges': 'Active bridges', '/bridges/{bridgeId}': 'Individual bridge', '/bridges/{bridgeId}/addChannel': 'Add a channel to a bridge',
      '/bridges/{bridgeId}/removeChannel': 'Remove a channel from a bridge', '/bridges/{bridgeId}/moh': 'Play music on hold to a bridge',
      '/bridges/{bridgeId}/play': 'Play media to the participants of a bridge', '/bridges/{bridgeId}/play/{playbackId}': 'Play media to the participants of a bridge',
      '/bridges/{bridgeId}/record': 'Record audio on a bridge',
    },
    operations: bridgeOperations, models: [Bridge],
  },
  {
    name: 'recordings', description: 'Recording resources',
    paths: {
      '/recordings/stored': 'Recordings', '/recordings/stored/{recordingName}': 'Individual recording',
      '/recordings/stored/{recordingName}/file': 'The actual file associated with the stored recording',
      '/recordings/stored/{recordingName}/copy': 'Copy an individual recording', '/recordings/live/{recordingName}': 'A recording that is in progress',
      '/recordings/live/{recordingName}/stop': '', '/recordings/live/{recordingName}/pause': '', '/recordings/live/{recordingName}/mute': '',
    },
    operations: recordingOperations, models: [StoredRecording, LiveRecording],
  },
  {
    name: 'sounds', description: 'Sound resources',
    paths: { '/sounds': 'Sounds', '/sounds/{soundId}': 'Individual sound' },
    operations: soundOperations, models: [FormatLangPair, Sound],
  },
  {
    name: 'playbacks', description: 'Playback control resources',
    paths: { '/playbacks/{playbackId}': 'Control object for a playback operation.', '/playbacks/{playbackId}/control': 'Control object for a playback operation.' },
    operations: playbackOperations, models: [Playback],
  },
  { name: 'events', description: 'WebSocket resource', paths: { '/events': 'Events from Asterisk to applications' }, operations: eventOperations, models: [] },
  {
    name: 'applications', description: 'Stasis application resources',
    paths: { '/applications': 'Stasis applications', '/applications/{applicationName}': 'Stasis application', '/applications/{applicationName}/subscription': 'Stasis application' },
    operations: applicationOperations, models: [Application],
  },
];
