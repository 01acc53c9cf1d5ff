import type { Model } from '../model.js';
import type { Operation } from '../operation.js';
import { Application } from './models/application.js';
import { AsteriskInfo, AsteriskPing, BuildInfo, ConfigInfo, ConfigTuple, LogChannel, Module, SetId, StatusInfo, SystemInfo, Variable, Variables } from './models/asterisk.js';
import { CallerID, Channel, Dialed, DialplanCEP, RTPstat } from './models/channel.js';
import { DeviceState } from './models/device-state.js';
import { Endpoint, TextMessage } from './models/endpoint.js';
import { Mailbox } from './models/mailbox.js';
import { Bridge } from './models/bridge.js';
import { FormatLangPair, LiveRecording, Playback, Sound, StoredRecording } from './models/media.js';
import { bridgeOperations } from './operations/bridges.js';
import { bridgeVariableOperations } from './operations/bridge-variables.js';
import { playbackOperations } from './operations/playbacks.js';
import { recordingOperations } from './operations/recordings.js';
import { soundOperations } from './operations/sounds.js';
import { applicationOperations } from './operations/applications.js';
import { asteriskOperations } from './operations/asterisk.js';
import { channelOperations } from './operations/channels.js';
import { endpointOperations } from './operations/endpoints.js';
import { eventOperations } from './operations/events.js';
import { deviceStateOperations } from './operations/device-states.js';
import { mailboxOperations } from './operations/mailboxes.js';

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
    name: 'asterisk', description: 'The server itself: information, modules, log channels, configuration objects, ping, global variables',
    paths: {
      '/asterisk/info': 'What the server reports about itself', '/asterisk/ping': 'Liveness check', '/asterisk/variable': 'Variables shared by all channels',
      '/asterisk/config/dynamic/{configClass}/{objectType}/{id}': 'Configuration objects made at run time', '/asterisk/modules': 'The module catalogue',
      '/asterisk/modules/{moduleName}': 'One module: load, unload, reload', '/asterisk/logging': 'Log channels',
      '/asterisk/logging/{logChannelName}': 'Adding and removing a log channel', '/asterisk/logging/{logChannelName}/rotate': 'Rotating a log file',
    },
    operations: asteriskOperations,
    models: [BuildInfo, SystemInfo, SetId, ConfigInfo, StatusInfo, AsteriskInfo, AsteriskPing, Module, LogChannel, Variable, Variables, ConfigTuple],
  },
  {
    name: 'endpoints', description: 'The simulated far ends calls can reach',
    paths: {
      '/endpoints': 'Every endpoint', '/endpoints/{tech}': 'Endpoints of one technology', '/endpoints/{tech}/{resource}': 'One endpoint',
      '/endpoints/sendMessage': 'Text messages to a far end', '/endpoints/refer': 'REFERs to a far end',
      '/endpoints/{tech}/{resource}/sendMessage': 'Text messages to one endpoint', '/endpoints/{tech}/{resource}/refer': 'REFERs to one endpoint',
    },
    operations: endpointOperations, models: [Endpoint, TextMessage],
  },
  {
    name: 'channels', description: 'Calls in progress and what can be done with them',
    paths: {
      '/channels': 'Live channels; originate', '/channels/create': 'A channel placed in an application, dialled later',
      '/channels/{channelId}': 'One channel; originate with an id; hang up', '/channels/{channelId}/continue': 'Back to the dialplan',
      '/channels/{channelId}/move': 'Hand over to another application',
      '/channels/{channelId}/redirect': 'Send the far end elsewhere',
      '/channels/{channelId}/answer': 'Answering', '/channels/{channelId}/ring': 'Ringing indication',
      '/channels/{channelId}/dtmf': 'DTMF toward the far end', '/channels/{channelId}/mute': 'Muting',
      '/channels/{channelId}/hold': 'Hold indication', '/channels/{channelId}/moh': 'Music on hold',
      '/channels/{channelId}/silence': 'Silence', '/channels/{channelId}/play': 'Playbacks on the channel',
      '/channels/{channelId}/play/{playbackId}': 'A playback on the channel, with its id', '/channels/{channelId}/record': 'Recording the channel',
      '/channels/{channelId}/variable': 'Channel variables and functions', '/channels/{channelId}/snoop': 'Listening to or speaking into the channel',
      '/channels/{channelId}/snoop/{snoopId}': 'A snoop channel, with its id', '/channels/{channelId}/dial': 'Dialling a created channel',
      '/channels/{channelId}/rtp_statistics': 'RTP counters',
      '/channels/externalMedia': 'A channel streaming to and from an outside host',
      '/channels/{channelId}/progress': 'Early media indication', '/channels/{channelId}/variables': 'Several variables at once',
      '/channels/{channelId}/transfer_progress': 'How a transfer the far end asked for is going',
    },
    operations: channelOperations, models: [Dialed, DialplanCEP, CallerID, RTPstat, Channel],
  },
  {
    name: 'bridges', description: 'Channels joined so they hear each other, or hear the bridge',
    paths: {
      '/bridges': 'Bridges; create one', '/bridges/{bridgeId}': 'One bridge', '/bridges/{bridgeId}/addChannel': 'Adding members',
      '/bridges/{bridgeId}/removeChannel': 'Removing members', '/bridges/{bridgeId}/moh': 'Music on hold for the members',
      '/bridges/{bridgeId}/play': 'Playbacks for the members', '/bridges/{bridgeId}/play/{playbackId}': 'A playback for the members, with its id',
      '/bridges/{bridgeId}/record': 'Recording the mix',
      '/bridges/{bridgeId}/videoSource/{channelId}': 'Choosing the video source', '/bridges/{bridgeId}/videoSource': 'The chosen video source',
      '/bridges/{bridgeId}/variable': 'Bridge variables', '/bridges/{bridgeId}/variables': 'Several bridge variables at once',
    },
    operations: [...bridgeOperations, ...bridgeVariableOperations], models: [Bridge],
  },
  {
    name: 'recordings', description: 'Recordings in progress and recording files',
    paths: {
      '/recordings/stored': 'Finished recordings', '/recordings/stored/{recordingName}': 'One finished recording',
      '/recordings/stored/{recordingName}/file': 'Its audio file',
      '/recordings/stored/{recordingName}/copy': 'Copying it', '/recordings/live/{recordingName}': 'A recording in progress',
      '/recordings/live/{recordingName}/stop': 'Finishing it', '/recordings/live/{recordingName}/pause': 'Pausing it', '/recordings/live/{recordingName}/mute': 'Muting it',
    },
    operations: recordingOperations, models: [StoredRecording, LiveRecording],
  },
  {
    name: 'sounds', description: 'The sound catalogue',
    paths: { '/sounds': 'Every sound', '/sounds/{soundId}': 'One sound' },
    operations: soundOperations, models: [FormatLangPair, Sound],
  },
  {
    name: 'playbacks', description: 'Playbacks started on channels and bridges',
    paths: { '/playbacks/{playbackId}': 'One playback', '/playbacks/{playbackId}/control': 'Pause, resume, rewind, skip' },
    operations: playbackOperations, models: [Playback],
  },
  {
    name: 'deviceStates', description: 'Device states: endpoints as their calls go, and Stasis: devices applications set',
    paths: { '/deviceStates': 'Stasis: devices', '/deviceStates/{deviceName}': 'One device' },
    operations: deviceStateOperations, models: [DeviceState],
  },
  {
    name: 'mailboxes', description: 'Message-waiting counts applications keep',
    paths: { '/mailboxes': 'Every mailbox', '/mailboxes/{mailboxName}': 'One mailbox' },
    operations: mailboxOperations, models: [Mailbox],
  },
  {
    name: 'events', description: 'The event WebSocket and user events',
    paths: { '/events': 'Events for applications, one JSON frame each', '/events/user/{eventName}': 'Events raised by a client', '/events/claim': 'Claiming a broadcast call' },
    operations: eventOperations, models: [],
  },
  {
    name: 'applications', description: 'Applications and what they are subscribed to',
    paths: {
      '/applications': 'Known applications', '/applications/{applicationName}': 'One application',
      '/applications/{applicationName}/subscription': 'Its subscriptions', '/applications/{applicationName}/eventFilter': 'Which event types it is sent',
    },
    operations: applicationOperations, models: [Application],
  },
];
