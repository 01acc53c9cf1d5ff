import type { FrameConsumer, MediaClock } from '../media/media-clock.js';
import { FRAME_MS, RATE } from '../media/pcm.js';
import type { AudioRouter } from './audio.js';
import type { Channel, ToneDetectState } from './channel.js';
import type { Engine } from './engine.js';
import { progressState, type ProgressState } from './call-progress.js';

/** Why a TONE_DETECT argument list was refused. */
export class ToneDetectError extends Error {}

/** Default minimum tone length and threshold, as Asterisk's TONE_DETECT documents them. */
const DEFAULT_DURATION_MS = 500;
const DEFAULT_DB = 16;
/** A frame quieter than this (RMS, about -50 dBFS) holds no tone, whatever its spectrum. */
const MIN_RMS = 100;

/** Splits `ab(1)c(x,y)` into option letters with their parenthesised arguments. */
function parseOptions(s: string): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < s.length; i++) {
    const letter = s[i]!;
    let arg = '';
    if (s[i + 1] === '(') {
      const close = s.indexOf(')', i + 2);
      if (close < 0) throw new ToneDetectError(`Unterminated argument for option '${letter}'`);
      arg = s.slice(i + 2, close);
      i = close;
    }
    out.set(letter, arg);
  }
  return out;
}

/** The option letters TONE_DETECT takes. */
const OPTIONS = 'abcdeghnrstx';

/**
 * Reads `TONE_DETECT(freq[,duration_ms,options])` as written: the detector
 * it sets up, or null for option x (remove). A frequency of 0 listens for
 * call-progress signals only. Options: r and t (direction: without any
 * option Asterisk listens to received audio only, with options but neither
 * letter to both, and r wins over t), d (threshold in dB), n (hits) with e
 * (end after them), g and h (dialplan jumps), a, b and c (match at once on
 * a Special Information Tone, a busy tone, a dial tone), s (squelch:
 * accepted and without effect, as in Asterisk, whose detector works on a
 * copy of each frame), x. Hit counts carry over from the detector it
 * replaces, as Asterisk keeps them while the detector exists.
 */
export function parseToneDetect(args: string[], previous?: ToneDetectState | null): ToneDetectState | null {
  const [freqArg = '', durArg = '', optArg = ''] = args;
  const opts = parseOptions(optArg);
  if (opts.has('x')) return null;
  for (const o of opts.keys()) {
    if (!OPTIONS.includes(o)) throw new ToneDetectError(`TONE_DETECT option '${o}' is not supported here`);
  }
  const freq = Number(freqArg.trim());
  if (!/^\d+$/.test(freqArg.trim()) || freq >= RATE / 2) throw new ToneDetectError(`Invalid frequency '${freqArg}'`);
  const durationMs = durArg ? Number(durArg) : DEFAULT_DURATION_MS;
  if (!Number.isInteger(durationMs) || durationMs <= 0) throw new ToneDetectError(`Invalid duration '${durArg}'`);
  const db = opts.has('d') && opts.get('d') ? Number(opts.get('d')) : DEFAULT_DB;
  if (!Number.isInteger(db) || db < 1) throw new ToneDetectError(`Invalid decibel threshold '${opts.get('d')}'`);
  const times = opts.has('n') && opts.get('n') ? Number(opts.get('n')) : 1;
  if (!Number.isInteger(times) || times < 1) throw new ToneDetectError(`Invalid number of hits '${opts.get('n')}'`);
  const none = !optArg;
  const rx = none || opts.has('r') || !opts.has('t');
  const tx = !none && !opts.has('r');
  const jump = (o: string) => {
    const spec = opts.get(o);
    if (spec === undefined) return null;
    if (!spec.trim()) throw new ToneDetectError(`Option '${o}' needs a dialplan location`);
    return spec;
  };
  return {
    freq, durationMs, db, rx, tx, times, end: opts.has('e'), gotoRx: jump('g'), gotoTx: jump('h'),
    signals: { sit: opts.has('a'), busy: opts.has('b'), dial: opts.has('c') },
    hits: previous ? { ...previous.hits } : { rx: 0, tx: 0 },
  };
}

/**
 * Whether one frame carries the tone: the Goertzel energy at `freq` must
 * stand `db` decibels above the energy of everything else in the frame.
 */
export function frameHasTone(frame: Int16Array, freq: number, db: number): boolean {
  const coeff = 2 * Math.cos((2 * Math.PI * freq) / RATE);
  let s1 = 0;
  let s2 = 0;
  let energy = 0;
  for (let i = 0; i < frame.length; i++) {
    const x = frame[i]!;
    energy += x * x;
    const s0 = x + coeff * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  if (Math.sqrt(energy / frame.length) < MIN_RMS) return false;
  const power = s1 * s1 + s2 * s2 - coeff * s1 * s2;
  const tone = (2 * power) / frame.length;
  const rest = Math.max(0, energy - tone);
  return tone >= rest * 10 ** (db / 10);
}

/**
 * Per direction: how long the tone has lasted, and whether that run was
 * counted already; the call-progress state of the last frame, and the last
 * one heard (kept across a few frames that mix two steps of a tone).
 */
interface Run {
  ms: number;
  counted: boolean;
  progress: ProgressState | null;
  heard: ProgressState | null;
  quiet: number;
}

/** Frames a call-progress step is remembered through while nothing is recognised. */
const PROGRESS_GAP_FRAMES = 3;
/** Which option's signal each progress state completes. */
const SIGNAL_OF: Partial<Record<ProgressState, 'sit' | 'busy' | 'dial'>> = { special3: 'sit', busy: 'busy', dial: 'dial' };
const freshRuns = () => ({ rx: freshRun(), tx: freshRun() });
const freshRun = (): Run => ({ ms: 0, counted: false, progress: null, heard: null, quiet: 0 });

/**
 * TONE_DETECT on the media clock: while a channel has a detector, each
 * 20 ms frame it receives (rx) and sends (tx) is checked, and a tone that
 * lasts the minimum duration counts one hit and raises ChannelToneDetected.
 * The tone must stop before it can count again.
 */
export class ToneDetectors {
  private readonly active = new Map<Channel, FrameConsumer & { runs: { rx: Run; tx: Run } }>();

  constructor(
    private readonly eng: Engine,
    private readonly router: AudioRouter,
    private readonly clock: MediaClock,
    /** Sends the channel to a dialplan location (option g or h), as an asynchronous goto does. */
    private readonly jump: (ch: Channel, location: string) => void,
  ) {
    eng.onHangup((ch) => this.stop(ch));
    // Detectors on channels restored after a restart listen again.
    for (const ch of eng.all()) if (ch.d.toneDetect) this.sync(ch);
  }

  /** Starts or stops listening on a channel to match its detector (after TONE_DETECT was written, or a restart). */
  sync(ch: Channel): void {
    if (!ch.d.toneDetect || ch.d.ended !== null) return this.stop(ch);
    const existing = this.active.get(ch);
    if (existing) {
      existing.runs = freshRuns();
      return;
    }
    const consumer = { runs: freshRuns(), onFrame: (tick: number) => this.frame(ch, tick) };
    this.active.set(ch, consumer);
    this.clock.add(consumer);
  }

  private stop(ch: Channel): void {
    const c = this.active.get(ch);
    if (!c) return;
    this.active.delete(ch);
    this.clock.delete(c);
  }

  private frame(ch: Channel, tick: number): void {
    const det = ch.d.toneDetect;
    const c = this.active.get(ch);
    if (!det || !c || ch.d.ended !== null) return this.stop(ch);
    for (const dir of ['rx', 'tx'] as const) {
      if (!det[dir]) continue;
      const frame = dir === 'rx' ? this.router.inbound(ch, tick) : this.router.outbound(ch, tick);
      const run = c.runs[dir];
      if (det.freq > 0) this.frequency(ch, det, run, dir, frame);
      if (ch.d.toneDetect === det && det.signals) this.signal(ch, det, run, dir, frame);
      if (!ch.d.toneDetect) return this.stop(ch);
    }
  }

  /** The frequency asked for: a tone lasting the minimum duration counts one hit and raises ChannelToneDetected. */
  private frequency(ch: Channel, det: ToneDetectState, run: Run, dir: 'rx' | 'tx', frame: Int16Array): void {
    if (!frameHasTone(frame, det.freq, det.db)) {
      run.ms = 0;
      run.counted = false;
      return;
    }
    run.ms += FRAME_MS;
    if (run.counted || run.ms < det.durationMs) return;
    run.counted = true;
    det.hits[dir]++;
    const matched = det.hits[dir] === det.times;
    if (matched && det.end) ch.d.toneDetect = null;
    this.eng.touch(ch);
    this.eng.emitChannel(ch, 'ChannelToneDetected', {});
    const location = dir === 'rx' ? det.gotoRx : det.gotoTx;
    if (matched && location) this.jump(ch, location);
  }

  /**
   * Options a, b and c: the signal matches as soon as it is recognised (no
   * minimum duration, no hit counted), once for each time it starts. It
   * raises ChannelToneDetected and takes the jump; as in Asterisk, a
   * received signal without a g location takes the h one.
   */
  private signal(ch: Channel, det: ToneDetectState, run: Run, dir: 'rx' | 'tx', frame: Int16Array): void {
    const state = progressState(frame, run.heard);
    if (state) {
      run.heard = state;
      run.quiet = 0;
    } else if (++run.quiet >= PROGRESS_GAP_FRAMES) run.heard = null;
    const was = run.progress;
    run.progress = state;
    const which = state ? SIGNAL_OF[state] : undefined;
    if (!which || state === was || !det.signals![which]) return;
    this.eng.emitChannel(ch, 'ChannelToneDetected', {});
    const location = dir === 'rx' && det.gotoRx ? det.gotoRx : det.gotoTx;
    if (location) this.jump(ch, location);
  }
}
