import { defineModel, f, optional } from '../../model.js';

/** Channel states as the spec lists them (Asterisk's docs spell the reserved state `Rsrved`). */
export const CHANNEL_STATES = [
  'Down', 'Rsrved', 'OffHook', 'Dialing', 'Ring', 'Ringing', 'Up', 'Busy', 'Dialing Offhook', 'Pre-ring', 'Unknown',
] as const;
export type ChannelState = (typeof CHANNEL_STATES)[number];

export const CallerID = defineModel('CallerID', 'A party as shown to the other side: name and number.', {
  name: f.string(),
  number: f.string(),
});

export const DialplanCEP = defineModel('DialplanCEP', 'Where a channel is in the dialplan, and what runs there.', {
  context: f.string('Dialplan context.'),
  exten: f.string('Extension within the context.'),
  priority: f.long('Step within the extension.'),
  app_name: f.string('Application running at that step (Stasis while the channel is in an ARI application); empty before any has run.'),
  app_data: f.string('Its argument string.'),
});

export const Dialed = defineModel('Dialed', 'A model without fields, declared because Asterisk declares it.', {});

export const Channel = defineModel('Channel', 'One leg of a call between this server and an endpoint, as it was when the answer or event was made.', {
  id: f.string('Unique id: the one given at creation, or one we make up (<epoch seconds>.<sequence>).'),
  protocol_id: f.string('SIP Call-ID for PJSIP channels (made up here, unique per channel); empty for other technologies.'),
  name: f.string('Channel name: the endpoint, a dash and a hex sequence (PJSIP/alice-00000001); the halves of a Local pair end in ;1 and ;2.'),
  state: f.enum(CHANNEL_STATES),
  caller: f.ref(CallerID),
  connected: f.ref(CallerID),
  accountcode: f.string(),
  dialplan: f.ref(DialplanCEP, 'Where the channel is in the dialplan.'),
  creationtime: f.date('When the channel was created.'),
  language: f.string('Language of sounds played to it (the endpoint one, en by default).'),
  channelvars: optional(f.object('Variables set with report_events, present once there is one.')),
  caller_rdnis: optional(f.string('Number the call was redirected from (REDIRECTING(from-num)): given by the far end of an inbound call, or written in the dialplan; absent when empty.')),
  tenantid: optional(f.string('Tenant the channel belongs to (CHANNEL(tenantid)); absent when empty.')),
});

const rtpDouble = (d: string) => optional(f.double(d));

export const RTPstat = defineModel('RTPstat', 'Counters of the RTP stream of a channel.', {
  txcount: f.int('Packets sent.'),
  rxcount: f.int('Packets received.'),
  txjitter: rtpDouble('Jitter of the packets we send.'),
  rxjitter: rtpDouble('Jitter of the packets we receive.'),
  remote_maxjitter: rtpDouble('Largest jitter the peer reported.'),
  remote_minjitter: rtpDouble('Smallest jitter the peer reported.'),
  remote_normdevjitter: rtpDouble('Mean jitter the peer reported.'),
  remote_stdevjitter: rtpDouble('Spread (standard deviation) of the jitter the peer reported.'),
  local_maxjitter: rtpDouble('Largest jitter we measured.'),
  local_minjitter: rtpDouble('Smallest jitter we measured.'),
  local_normdevjitter: rtpDouble('Mean jitter we measured.'),
  local_stdevjitter: rtpDouble('Spread (standard deviation) of the jitter we measured.'),
  txploss: f.int('Packets we sent that were lost.'),
  rxploss: f.int('Packets we expected and never got.'),
  remote_maxrxploss: rtpDouble('Largest loss the peer reported.'),
  remote_minrxploss: rtpDouble('Smallest loss the peer reported.'),
  remote_normdevrxploss: rtpDouble('Mean loss the peer reported.'),
  remote_stdevrxploss: rtpDouble('Spread (standard deviation) of the loss the peer reported.'),
  local_maxrxploss: rtpDouble('Largest loss we measured.'),
  local_minrxploss: rtpDouble('Smallest loss we measured.'),
  local_normdevrxploss: rtpDouble('Mean loss we measured.'),
  local_stdevrxploss: rtpDouble('Spread (standard deviation) of the loss we measured.'),
  rtt: rtpDouble('Round trip to the peer.'),
  maxrtt: rtpDouble('Longest round trip.'),
  minrtt: rtpDouble('Shortest round trip.'),
  normdevrtt: rtpDouble('Mean round trip.'),
  stdevrtt: rtpDouble('Spread (standard deviation) of the round trips.'),
  local_ssrc: f.int('SSRC of the packets we send.'),
  remote_ssrc: f.int('SSRC of the packets we receive.'),
  txoctetcount: f.int('Payload bytes sent.'),
  rxoctetcount: f.int('Payload bytes received.'),
  channel_uniqueid: f.string('Id of the channel the stream belongs to.'),
});
