import type { TappedEvent } from './tap-stream.js';

/** How one expectation fared. */
export interface ExpectationResult {
  kind: 'event' | 'heard' | 'variable';
  /** How the report and JUnit name it: `events[2] greeting: PlaybackFinished (call caller)`. */
  label: string;
  pass: boolean;
  /** One line: why it failed (or what it found, when it passed). */
  reason: string;
  /** More lines for a failure: the nearest candidates and why each did not count. */
  details: string[];
  /** Around where it went wrong in the event stream (failures of event expectations). */
  window?: TappedEvent[];
}
