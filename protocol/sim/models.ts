import { defineModel, f, optional } from '../model.js';
import { CallerID, Channel } from '../ari/models/channel.js';
import { SimScript } from './script.js';

/** DTMF digits we sent that a far end's list keeps (the newest). */
export const FAR_DTMF_KEEP = 1000;

export const FarEndDtmf = defineModel('FarEndDtmf', 'A DTMF digit the far end heard from us.', {
  digit: f.string('The digit.'),
  duration_ms: f.int('How long the digit lasted, in simulated milliseconds.'),
  offset_ms: f.int('When the digit started, in simulated milliseconds after the channel was created.'),
});

export const FarEnd = defineModel('FarEnd', 'What the far end of a channel perceives, and what it is doing.', {
  answered: f.boolean('The call is answered.'),
  ringing: f.boolean('We are indicating ringing to the far end (ARI ring).'),
  on_hold: f.boolean('We have indicated hold to the far end (ARI hold).'),
  hearing: f.oneOf(['nothing', 'moh', 'silence'] as const, 'What we are sending: music on hold, silence, or nothing in particular.'),
  moh_class: optional(f.string('Music on hold class being played, when hearing is moh.')),
  muted_in: f.boolean('Audio from the far end is muted.'),
  muted_out: f.boolean('Audio to the far end is muted.'),
  dtmf_received: f.list(f.ref(FarEndDtmf), `The DTMF digits we sent, in order: the newest ${FAR_DTMF_KEEP} of them.`),
  holding: f.boolean('The far end has put us on hold.'),
  talking: f.boolean('The far end is talking.'),
  redirected_to: optional(f.string('Where the far end was last told to go (a 302 or a REFER): the endpoint of ARI redirect, or the destination written in Transfer().')),
  progress: f.boolean('We have indicated progress (early media, a 183) to the far end (ARI progress).'),
  transfer_notify: f.list(f.int(), 'SIP status of each transfer progress report the far end was sent, in order (ARI transfer_progress): 100, 200, 503 or 603; the newest SIM_FAR_END_KEEP of them.'),
});

export const SimChannel = defineModel('SimChannel', 'A live channel as the simulator sees it.', {
  channel: f.ref(Channel),
  endpoint: f.string('Endpoint at the far end (tech/resource).'),
  direction: f.oneOf(['inbound', 'outbound'] as const, 'Who placed the call.'),
  far_end: f.ref(FarEnd),
  script: optional(f.ref(SimScript, 'The script its far end follows, when it follows one (POST /sim/calls with script, or a script of the endpoint we called).')),
});

export const CallRecord = defineModel('CallRecord', 'A channel that has ended, as kept in the history.', {
  id: f.string('Id the channel had.'),
  name: f.string('Channel name.'),
  endpoint: f.string('Endpoint at the far end.'),
  direction: f.oneOf(['inbound', 'outbound'] as const),
  caller: f.ref(CallerID),
  connected: f.ref(CallerID),
  creationtime: f.date('When the channel was created.'),
  answertime: optional(f.date('When the channel was answered.')),
  endtime: f.date('When the channel was destroyed.'),
  cause: f.int('Q.850 cause the channel ended with.'),
  cause_txt: f.string('That cause in words.'),
  app: optional(f.string('Last Stasis application the channel was in.')),
  dialplan: f.object('Last dialplan location.'),
  variables: f.object('Channel variables at the end (within the answer\'s size bound: see variables_truncated).'),
  variables_truncated: optional(f.boolean('Present and true when some variables were left out to keep the answer within its size bound.')),
});
