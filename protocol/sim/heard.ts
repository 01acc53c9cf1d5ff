import { defineModel, f, optional } from '../model.js';
import { defineOperation, path } from '../operation.js';

// What the far end of a channel was sent: a list of what reached it, in order, and the audio itself.

/** How many items one channel's heard list keeps: the newest ones (older items drop off the front). */
export const HEARD_MAX_ITEMS = 200;

export const HEARD_KINDS = ['ringing', 'playback', 'moh', 'silence', 'tone', 'dtmf', 'bridge', 'hold'] as const;

export const HeardItem = defineModel('HeardItem', 'One thing the far end of a channel was sent, from the instant it began.', {
  at: f.date('When it began reaching the far end, in the form of event timestamps.'),
  kind: f.oneOf(HEARD_KINDS, 'ringing: ringback we indicated while unanswered; playback: a prompt (sound:, recording:, number:, …) played on the channel or its bridge; moh: music on hold; silence: silence generation; tone: a tone: playback; dtmf: a digit we sent; bridge: the channel heard the other members of its bridge; hold: we indicated hold.'),
  media: optional(f.string('playback and tone: the media URI of the item.')),
  lang: optional(f.string('playback: the language it was played in.')),
  class: optional(f.string('moh: the music class.')),
  digit: optional(f.string('dtmf: the digit sent.')),
  peers: optional(f.list(f.string(), 'bridge: ids of the other channels in the bridge, in the order they joined (empty when alone in it). A new item starts whenever they change.')),
  duration_ms: optional(f.int('Simulated milliseconds it lasted; absent while it still goes on (a dtmf item carries the digit\'s length).')),
  completed: optional(f.boolean('playback and tone: true when the item played to its end, false when it was stopped, cut short or ended by hangup; absent while it plays.')),
});

export const HeardList = defineModel('HeardList', 'What the far end of a channel was sent, oldest first.', {
  items: f.list(f.ref(HeardItem), `In the order they began; the newest ${HEARD_MAX_ITEMS} per channel.`),
});

const channelId = path.string({ description: 'Id or name of a live channel, or id of one in the history.' });

export const getHeard = defineOperation({
  resource: 'sim', method: 'GET', path: '/channels/{channelId}/heard', nickname: 'heard',
  summary: 'What the far end of a channel was sent, in order: ringing, prompts, music on hold, silence, tones, DTMF, bridging and hold.',
  notes: `Served for live channels and for ended ones while they are in the history (the list is kept with the channel's record). Each channel keeps its newest ${HEARD_MAX_ITEMS} items.`,
  params: { channelId },
  responseClass: 'HeardList', response: HeardList.schema, success: 200,
  errors: [{ code: 404, reason: 'Channel not found' }],
});

export const getHeardAudio = defineOperation({
  resource: 'sim', method: 'GET', path: '/channels/{channelId}/heard.wav', nickname: 'heardAudio',
  summary: 'The audio the far end of a channel was sent, as a WAV file (8 kHz, 16-bit signed linear, mono), from the channel\'s creation (or the start of the kept window) until now or its end.',
  notes: 'Audio is captured each 20 ms media frame while something is sent (a prompt, a tone, ringback, music on hold, a bridge); the rest is silence. At most SIM_HEARD_MAX_SECONDS of the newest audio is kept per channel (0 turns capture off: the file is then all silence), and the audio of ended channels is kept in memory for the newest few of them only, not across restarts.',
  params: { channelId },
  responseClass: 'binary', response: null, success: 200,
  errors: [{ code: 404, reason: 'Channel not found, or its audio is no longer kept' }],
});

export const simHeardOperations = [getHeard, getHeardAudio] as const;
