import { defineModel, f, optional } from '../../model.js';

/** `paused` is not in Asterisk's documented list, but GET reports it for a paused playback. */
export const PLAYBACK_STATES = ['queued', 'playing', 'paused', 'continuing', 'done', 'failed'] as const;

export const Playback = defineModel('Playback', 'Media played to a channel or a bridge, one URI after another.', {
  id: f.string('Id of the playback.'),
  media_uri: f.string('URI playing now, or the last one played.'),
  next_media_uri: optional(f.string('URI that plays next, when there is one.')),
  target_uri: f.string('channel:<id> or bridge:<id>.'),
  language: optional(f.string('Language used for sound: URIs.')),
  state: f.enum(PLAYBACK_STATES, 'queued, playing, paused, continuing (between two URIs), done or failed.'),
});

export const RECORDING_STATES = ['queued', 'recording', 'paused', 'done', 'failed', 'canceled'] as const;

export const LiveRecording = defineModel('LiveRecording', 'A recording while it runs, and as reported when it ends.', {
  name: f.string('Name it is stored under.'),
  format: f.string('Audio format of the file (wav, ulaw, …).'),
  target_uri: f.string('channel:<id> or bridge:<id> being recorded.'),
  state: f.enum(RECORDING_STATES),
  duration: optional(f.int('Seconds captured so far.')),
  talking_duration: optional(f.int('Seconds of sound captured; only when maxSilenceSeconds is above 0.')),
  silence_duration: optional(f.int('Seconds of silence captured; only when maxSilenceSeconds is above 0.')),
  cause: optional(f.string('Why the recording failed, when it did.')),
});

export const StoredRecording = defineModel('StoredRecording', 'A finished recording file, playable as recording:<name>.', {
  name: f.string(),
  format: f.string(),
});

export const FormatLangPair = defineModel('FormatLangPair', 'One language a sound exists in, with its format.', {
  language: f.string(),
  format: f.string(),
});

export const Sound = defineModel('Sound', 'A sound of the catalogue, playable as sound:<id>.', {
  id: f.string('Id used in sound: URIs.'),
  text: optional(f.string('What it says, in English.')),
  formats: f.list(f.ref(FormatLangPair), 'Languages it exists in, each with its format (wav).'),
});
