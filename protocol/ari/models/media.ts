import { defineModel, f, optional } from '../../model.js';

/** `paused` is not in Asterisk's documented list, but GET reports it for a paused playback. */
export const PLAYBACK_STATES = ['queued', 'playing', 'paused', 'continuing', 'done', 'failed'] as const;

export const Playback = defineModel('Playback', 'Object representing the playback of media to a channel', {
  id: f.string('ID for this playback operation'),
  media_uri: f.string('The URI for the media currently being played back.'),
  next_media_uri: optional(f.string('If a list of URIs is being played, the next media URI to be played back.')),
  target_uri: f.string('URI for the channel or bridge to play the media on'),
  language: optional(f.string('For media types that support multiple languages, the language requested for playback.')),
  state: f.enum(PLAYBACK_STATES, 'Current state of the playback operation.'),
});

export const RECORDING_STATES = ['queued', 'recording', 'paused', 'done', 'failed', 'canceled'] as const;

export const LiveRecording = defineModel('LiveRecording', 'A recording that is in progress', {
  name: f.string('Base name for the recording'),
  format: f.string('Recording format (wav, gsm, etc.)'),
  target_uri: f.string('URI for the channel or bridge being recorded'),
  state: f.enum(RECORDING_STATES),
  duration: optional(f.int('Duration in seconds of the recording')),
  talking_duration: optional(f.int('Duration of talking, in seconds, detected in the recording. This is only available if the recording was initiated with a non-zero maxSilenceSeconds.')),
  silence_duration: optional(f.int('Duration of silence, in seconds, detected in the recording. This is only available if the recording was initiated with a non-zero maxSilenceSeconds.')),
  cause: optional(f.string('Cause for recording failure if failed')),
});

export const StoredRecording = defineModel('StoredRecording', 'A past recording that may be played back.', {
  name: f.string(),
  format: f.string(),
});

export const FormatLangPair = defineModel('FormatLangPair', 'Identifies the format and language of a sound file', {
  language: f.string(),
  format: f.string(),
});

export const Sound = defineModel('Sound', 'A media file that may be played back.', {
  id: f.string('Sound\'s identifier.'),
  text: optional(f.string('Text description of the sound, usually the words spoken.')),
  formats: f.list(f.ref(FormatLangPair), 'The formats and languages in which this sound is available.'),
});
