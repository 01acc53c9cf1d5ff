import { RATE } from '../media/pcm.js';

/**
 * The call-progress tone a frame carries, as Asterisk's DSP tells them
 * apart in its default (US) zone whatever the channel's tone zone: dial
 * tone 350+440 Hz, busy (and congestion) 480+620 Hz, and the three rising
 * tones of a Special Information Tone, 950 then 1400 then 1800 Hz: a
 * special tone only counts as the next step when the one before it was
 * heard just before.
 */
export type ProgressState = 'dial' | 'busy' | 'special1' | 'special2' | 'special3';

/** Below this RMS a frame is silence, whatever its spectrum. */
const MIN_RMS = 100;
/** Share of a frame's energy each component of a two-frequency tone must hold, and a single tone. */
const PAIR_SHARE = 0.2;
const SINGLE_SHARE = 0.5;
/** What a component a tone must not contain may hold at most (a 40 Hz neighbour leaks about 5 %). */
const ABSENT_SHARE = 0.1;

/** The share of the frame's energy at `freq` (Goertzel). */
function share(frame: Int16Array, freq: number, energy: number): number {
  const coeff = 2 * Math.cos((2 * Math.PI * freq) / RATE);
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < frame.length; i++) {
    const s0 = frame[i]! + coeff * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return (2 * (s1 * s1 + s2 * s2 - coeff * s1 * s2)) / frame.length / energy;
}

/** The state of this frame, given the state of the frame before it. */
export function progressState(frame: Int16Array, prev: ProgressState | null): ProgressState | null {
  let energy = 0;
  for (let i = 0; i < frame.length; i++) energy += frame[i]! * frame[i]!;
  if (Math.sqrt(energy / frame.length) < MIN_RMS) return null;
  const at = (f: number) => share(frame, f, energy);
  const [f350, f440, f480, f620] = [at(350), at(440), at(480), at(620)];
  if (f350 >= PAIR_SHARE && f440 >= PAIR_SHARE && f620 < ABSENT_SHARE) return 'dial';
  if (f480 >= PAIR_SHARE && f620 >= PAIR_SHARE && f350 < ABSENT_SHARE) return 'busy';
  if (at(950) >= SINGLE_SHARE) return 'special1';
  if (at(1400) >= SINGLE_SHARE) return prev === 'special1' || prev === 'special2' ? 'special2' : null;
  if (at(1800) >= SINGLE_SHARE) return prev === 'special2' || prev === 'special3' ? 'special3' : null;
  return null;
}
