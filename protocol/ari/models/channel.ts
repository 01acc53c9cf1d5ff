import { defineModel, f, optional } from '../../model.js';

/** Channel states as the spec lists them (Asterisk's docs spell the reserved state `Rsrved`). */
export const CHANNEL_STATES = [
  'Down', 'Rsrved', 'OffHook', 'Dialing', 'Ring', 'Ringing', 'Up', 'Busy', 'Dialing Offhook', 'Pre-ring', 'Unknown',
] as const;
export type ChannelState = (typeof CHANNEL_STATES)[number];

export const CallerID = defineModel('CallerID', 'Caller identification', {
  name: f.string(),
  number: f.string(),
});

export const DialplanCEP = defineModel('DialplanCEP', 'Dialplan location (context/extension/priority)', {
  context: f.string('Context in the dialplan'),
  exten: f.string('Extension in the dialplan'),
  priority: f.long('Priority in the dialplan'),
  app_name: f.string('Name of current dialplan application'),
  app_data: f.string('Parameter of current dialplan application'),
});

export const Dialed = defineModel('Dialed', 'Dialed channel information.', {});

export const Channel = defineModel('Channel', 'A specific communication connection between the server and an Endpoint.', {
  id: f.string('Unique identifier of the channel. This is the same as the Uniqueid field in AMI.'),
  protocol_id: f.string('Protocol id from underlying channel driver (i.e. Call-ID for PJSIP); empty when not applicable or not implemented by the driver.'),
  name: f.string('Name of the channel (i.e. SIP/foo-0000a7e3)'),
  state: f.enum(CHANNEL_STATES),
  caller: f.ref(CallerID),
  connected: f.ref(CallerID),
  accountcode: f.string(),
  dialplan: f.ref(DialplanCEP, 'Current location in the dialplan'),
  creationtime: f.date('Timestamp when channel was created'),
  language: f.string('The default spoken language'),
  channelvars: optional(f.object('Channel variables')),
});

const rtpDouble = (d: string) => optional(f.double(d));

export const RTPstat = defineModel('RTPstat', 'A statistics of a RTP.', {
  txcount: f.int('Number of packets transmitted.'),
  rxcount: f.int('Number of packets received.'),
  txjitter: rtpDouble('Jitter on transmitted packets.'),
  rxjitter: rtpDouble('Jitter on received packets.'),
  remote_maxjitter: rtpDouble('Maximum jitter on remote side.'),
  remote_minjitter: rtpDouble('Minimum jitter on remote side.'),
  remote_normdevjitter: rtpDouble('Average jitter on remote side.'),
  remote_stdevjitter: rtpDouble('Standard deviation jitter on remote side.'),
  local_maxjitter: rtpDouble('Maximum jitter on local side.'),
  local_minjitter: rtpDouble('Minimum jitter on local side.'),
  local_normdevjitter: rtpDouble('Average jitter on local side.'),
  local_stdevjitter: rtpDouble('Standard deviation jitter on local side.'),
  txploss: f.int('Number of transmitted packets lost.'),
  rxploss: f.int('Number of received packets lost.'),
  remote_maxrxploss: rtpDouble('Maximum number of packets lost on remote side.'),
  remote_minrxploss: rtpDouble('Minimum number of packets lost on remote side.'),
  remote_normdevrxploss: rtpDouble('Average number of packets lost on remote side.'),
  remote_stdevrxploss: rtpDouble('Standard deviation packets lost on remote side.'),
  local_maxrxploss: rtpDouble('Maximum number of packets lost on local side.'),
  local_minrxploss: rtpDouble('Minimum number of packets lost on local side.'),
  local_normdevrxploss: rtpDouble('Average number of packets lost on local side.'),
  local_stdevrxploss: rtpDouble('Standard deviation packets lost on local side.'),
  rtt: rtpDouble('Total round trip time.'),
  maxrtt: rtpDouble('Maximum round trip time.'),
  minrtt: rtpDouble('Minimum round trip time.'),
  normdevrtt: rtpDouble('Average round trip time.'),
  stdevrtt: rtpDouble('Standard deviation round trip time.'),
  local_ssrc: f.int('Our SSRC.'),
  remote_ssrc: f.int('Their SSRC.'),
  txoctetcount: f.int('Number of octets transmitted.'),
  rxoctetcount: f.int('Number of octets received.'),
  channel_uniqueid: f.string('The Asterisk channel\'s unique ID that owns this instance.'),
});
