import type { PLAYBACK_STATES } from '../../../protocol/ari/models/media.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { checkMediaUri, resolveMedia, type ItemAudio } from '../media/media-uri.js';
import { RATE } from '../media/pcm.js';
import { Tone } from '../media/tones.js';
import type { TimerHandle } from '../time/clock.js';
import type { AudioRouter } from './audio.js';
import type { Channel } from './channel.js';
import type { CommandQueue } from './command-queue.js';
import type { Engine } from './engine.js';
import type { AriPlayback } from './ari-models.js';

type PlaybackState = (typeof PLAYBACK_STATES)[number];
export type PlaybackOperation = 'restart' | 'pause' | 'unpause' | 'reverse' | 'forward';

export interface PlaybackRequest {
  media: string[] | undefined;
  lang?: string | undefined;
  offsetms: number;
  skipms: number;
  playbackId?: string | undefined;
}

/** One playback: a list of media URIs played in turn on a channel or a bridge. */
export class Playback {
  state: PlaybackState = 'queued';
  index = 0;
  audio: ItemAudio | undefined;
  /** The next item's audio, resolved ahead so the sound runs on into it at the exact boundary. */
  next: ItemAudio | undefined;
  /** Samples in the current item (Infinity for a tone that repeats). */
  length = 0;
  /** Position (samples) at the instant `baseAt`; while playing it advances with simulated time. */
  basePos = 0;
  baseAt = 0;
  timer: TimerHandle | null = null;
  canceled = false;
  /** A dialplan Playback()'s sound: no application hears of it and ARI cannot see it. */
  quiet = false;
  finish: (() => void) | null = null;

  constructor(
    readonly id: string,
    readonly target: string,
    readonly uris: string[],
    readonly language: string,
    readonly skipms: number,
    readonly offsetms: number,
  ) {}

  /** The playback as an ARI Playback. */
  json(): AriPlayback {
    return {
      id: this.id,
      media_uri: this.uris[this.index]!,
      ...(this.index < this.uris.length - 1 ? { next_media_uri: this.uris[this.index + 1]! } : {}),
      target_uri: this.target,
      language: this.language,
      state: this.state,
    };
  }
}

/** What playbacks need to know about their targets (channels and bridges), given by the wiring. */
export interface PlaybackTargets {
  /** The command queue a target's playbacks run on (the channel's control queue, or the bridge's). */
  queue(target: string): CommandQueue | undefined;
  /** Applications that hear about a target's playbacks. */
  recipients(target: string): Iterable<string>;
  /** The channel of a `channel:` target, to suspend its music on hold. */
  channel(target: string): Channel | undefined;
  /** Audio of a stored recording, for `recording:` URIs. */
  recording(name: string): Int16Array | undefined;
}

/** Who lists what a playback's listeners heard (the heard log): each item's start, and its end. */
export interface PlaybackHearing {
  playbackStarted(target: string, playbackId: string, media: string, lang: string, at: number): void;
  playbackEnded(playbackId: string, completed: boolean, at?: number): void;
}

/**
 * Playbacks on channels and bridges. A playback is a command on its
 * target's queue, so plays queue behind each other; its progress is time
 * arithmetic (audio is only rendered for listeners), and timers end items.
 */
export class Playbacks {
  private readonly byId = new Map<string, Playback>();
  /** The playback now sounding on each target. */
  private readonly current = new Map<string, Playback>();

  constructor(
    private readonly eng: Engine,
    private readonly router: AudioRouter,
    private readonly targets: PlaybackTargets,
    private readonly heard: PlaybackHearing,
  ) {
    eng.onHangup((ch) => this.endTarget(`channel:${ch.id}`));
  }

  get(id: string): Playback {
    const pb = this.byId.get(id);
    if (!pb) throw notFound('Playback not found');
    return pb;
  }

  /** Validates and queues a playback; the answer shows it `queued`, events follow. */
  play(target: string, req: PlaybackRequest, defaultLanguage: string): Playback {
    if (req.skipms < 0) throw badRequest('skipms cannot be negative');
    if (req.offsetms < 0) throw badRequest('offsetms cannot be negative');
    if (!req.media?.length) throw badRequest('Missing parameter media');
    for (const uri of req.media) checkMediaUri(uri, this.eng.fixtures);
    const id = req.playbackId || this.eng.ids.uuid();
    if (this.byId.has(id)) throw conflict(`Playback with id '${id}' already exists`);
    const queue = this.targets.queue(target);
    if (!queue) throw notFound('Target not found');
    // skipms 0 means the default, as Asterisk treats it.
    const pb = new Playback(id, target, [...req.media!], req.lang || defaultLanguage, req.skipms || 3000, req.offsetms);
    this.byId.set(id, pb);
    queue.enqueue(() => this.run(pb)).catch(() => this.byId.delete(id));
    return pb;
  }

  private run(pb: Playback): Promise<void> {
    return new Promise((resolve) => {
      pb.finish = resolve;
      // Starts on the next turn, after the 201 that shows it queued has been prepared.
      setImmediate(() => {
        // A channel that hung up drops its queued playbacks silently, cancelled ones too (endTarget).
        const ch = this.targets.channel(pb.target);
        if (pb.target.startsWith('channel:') && (!ch || ch.d.ended !== null)) {
          this.byId.delete(pb.id);
          return resolve();
        }
        if (pb.canceled) return this.finishWith(pb, 'done');
        if (ch && (ch.d.media.moh || ch.d.media.silence)) {
          // A playback suspends music on hold and silence; they do not come back by themselves.
          ch.d.media.moh = null;
          ch.d.media.silence = false;
          this.eng.touch(ch);
        }
        this.startItem(pb, 0, Math.round((pb.offsetms * RATE) / 1000));
      });
    });
  }

  /**
   * A dialplan Playback() on a channel: the sounds reach its far end (audio, and the heard
   * list) at once, one after another, and no application hears of them (as Asterisk, which
   * makes no ARI playback for it). The dialplan keeps its own timer and calls endSound when
   * that runs out; a hangup ends the sound too.
   */
  sound(target: string, uris: string[], language: string): void {
    const pb = new Playback(this.eng.ids.uuid(), target, uris, language, 3000, 0);
    pb.quiet = true;
    this.startItem(pb, 0, 0);
  }

  /** The dialplan moved on when its Playback() was due to end: a sound still listed as playing ends there, played out. */
  endSound(target: string): void {
    const pb = this.current.get(target);
    if (!pb?.quiet) return;
    this.heard.playbackEnded(pb.id, true);
    this.finishWith(pb, 'done');
  }

  private emit(pb: Playback, type: 'PlaybackStarted' | 'PlaybackContinuing' | 'PlaybackFinished'): void {
    if (pb.quiet) return;
    this.eng.emit(type, { playback: pb.json() }, this.targets.recipients(pb.target));
  }

  /**
   * Starts item `index`. `at` is when its audio starts: the exact end of the
   * previous item in a list, so that late timers never accumulate across
   * items; by default, now (after PlaybackStarted is out).
   */
  private startItem(pb: Playback, index: number, startPos: number, at?: number): void {
    pb.index = index;
    const ch = this.targets.channel(pb.target);
    const resolve = (i: number) => resolveMedia(pb.uris[i]!, pb.language, this.eng.fixtures, (n) => this.targets.recording(n));
    pb.audio = at !== undefined && index > 0 ? pb.next : resolve(index);
    pb.next = index < pb.uris.length - 1 ? resolve(index + 1) : undefined;
    pb.length = pb.audio instanceof Tone ? pb.audio.length : pb.audio?.length ?? 0;
    pb.state = 'playing';
    pb.basePos = Math.min(startPos, pb.length);
    this.current.set(pb.target, pb);
    this.emit(pb, 'PlaybackStarted');
    // The first item's audio starts once PlaybackStarted is out (Asterisk publishes, then streams), so
    // no listener sees it end sooner than its length after the event, however slow the emit.
    pb.baseAt = at ?? this.eng.clock.now();
    this.heard.playbackStarted(pb.target, pb.id, pb.uris[index]!, pb.language, pb.baseAt);
    if (ch) this.eng.touch(ch);
    if (!pb.audio) return this.endItem(pb, true);
    this.armTimer(pb);
  }

  private armTimer(pb: Playback): void {
    this.eng.clock.cancel(pb.timer);
    pb.timer = null;
    if (pb.state !== 'playing' || !Number.isFinite(pb.length)) return;
    const endsAt = this.eng.clock.instantAfter(((pb.length - pb.basePos) * 1000) / RATE, pb.baseAt);
    pb.timer = this.eng.clock.at(endsAt, () => {
      pb.timer = null;
      // Node times from the event loop's cached clock, which can lag the system clock: a timer that
      // fires before the item's last sample has played is re-armed, so no item is cut short.
      if (this.position(pb) < pb.length) this.armTimer(pb);
      else this.endItem(pb, false, endsAt);
    });
  }

  private endItem(pb: Playback, failed: boolean, endedAt?: number): void {
    this.eng.clock.cancel(pb.timer);
    pb.timer = null;
    this.heard.playbackEnded(pb.id, !failed, endedAt);
    if (pb.index < pb.uris.length - 1) {
      pb.state = 'continuing';
      this.emit(pb, 'PlaybackContinuing');
      this.startItem(pb, pb.index + 1, 0, endedAt);
    } else this.finishWith(pb, failed ? 'failed' : 'done');
  }

  private finishWith(pb: Playback, state: 'done' | 'failed'): void {
    this.eng.clock.cancel(pb.timer);
    pb.timer = null;
    pb.state = state;
    // Still sounding (not ended by endItem): it was cut short.
    this.heard.playbackEnded(pb.id, false);
    if (this.current.get(pb.target) === pb) this.current.delete(pb.target);
    this.byId.delete(pb.id);
    this.emit(pb, 'PlaybackFinished');
    pb.finish?.();
    pb.finish = null;
  }

  /** Samples played so far in the current item. */
  private position(pb: Playback, at = this.eng.clock.now()): number {
    if (pb.state !== 'playing') return pb.basePos;
    // A tick the media clock renders late may lie before the item started: it hears the start, never a negative position.
    return Math.min(pb.length, pb.basePos + Math.max(0, Math.floor((this.eng.clock.simSince(pb.baseAt, at) * RATE) / 1000)));
  }

  /** DELETE /playbacks/{id}: a queued playback is cancelled (it finishes when its turn comes); a running one ends now. */
  stop(id: string): void {
    const pb = this.get(id);
    // Already cancelled: Asterisk's stop in a terminal state is a no-op.
    if (pb.canceled) return;
    if (pb.state === 'queued') {
      // Asterisk's CANCELED state, which it reports as done (GET, and 409 for every control operation).
      pb.canceled = true;
      pb.state = 'done';
    } else this.finishWith(pb, 'done');
  }

  /** POST /playbacks/{id}/control, with Asterisk's per-state rules. */
  control(id: string, operation: string | undefined): void {
    if (!operation) throw badRequest('Missing operation');
    if (!['restart', 'pause', 'unpause', 'reverse', 'forward'].includes(operation)) throw badRequest(`Invalid operation ${operation}`);
    const pb = this.get(id);
    const op = operation as PlaybackOperation;
    const notNow = () => conflict(`Can only ${op} while media is playing`);
    const tone = pb.audio instanceof Tone;
    switch (pb.state) {
      case 'queued':
        if (op === 'restart') return;
        throw notNow();
      case 'paused':
        if (op === 'pause') return;
        if (op !== 'unpause') throw notNow();
        pb.state = 'playing';
        if (tone) pb.basePos = 0;
        this.emit(pb, 'PlaybackStarted');
        // As in startItem: the audio resumes once PlaybackStarted is out.
        pb.baseAt = this.eng.clock.now();
        this.armTimer(pb);
        return;
      case 'playing':
      case 'continuing': {
        const pos = this.position(pb);
        const skip = Math.round((pb.skipms * RATE) / 1000);
        if (op === 'unpause') return;
        if (op === 'pause') {
          pb.basePos = tone ? 0 : pos;
          pb.state = 'paused';
          this.armTimer(pb);
          return;
        }
        if (tone && (op === 'reverse' || op === 'forward')) return;
        pb.basePos = op === 'restart' ? 0 : op === 'reverse' ? Math.max(0, pos - skip) : Math.min(pb.length, pos + skip);
        pb.baseAt = this.eng.clock.now();
        if (pb.basePos >= pb.length) return this.endItem(pb, false);
        this.armTimer(pb);
        return;
      }
      default:
        throw notNow();
    }
  }

  /** Renders what plays on a target at a tick; false when nothing plays there. */
  /**
   * Renders what plays on a target at a tick; false when nothing plays
   * there. Past the current item's end the sound runs on into the next item
   * (whose events follow when its timer fires), so items play back to back
   * on an exact timeline with nothing skipped or doubled.
   */
  render(target: string, tick: number, out: Int16Array): boolean {
    const pb = this.current.get(target);
    if (!pb || !pb.audio || (pb.state !== 'playing' && pb.state !== 'paused')) return false;
    if (pb.state === 'paused') return true; // a paused playback sends silence
    const at = this.router.clock.instantOf(tick);
    const pos = pb.basePos + Math.max(0, Math.floor((this.eng.clock.simSince(pb.baseAt, at) * RATE) / 1000));
    if (pb.audio instanceof Tone) {
      pb.audio.render(pos, out.length, out);
      return true;
    }
    const cur = pb.audio;
    const head = Math.max(0, Math.min(out.length, cur.length - pos));
    if (head > 0) out.set(cur.subarray(pos, pos + head));
    if (head < out.length && pb.next && !(pb.next instanceof Tone)) {
      const from = Math.max(0, pos - cur.length);
      out.set(pb.next.subarray(from, from + out.length - head), head);
    }
    return true;
  }

  /** Whether something plays on a target now. */
  playing(target: string): boolean {
    return this.current.has(target);
  }

  /** A target went away (hangup, bridge destroyed): its running playback finishes, queued ones are dropped. */
  endTarget(target: string): void {
    const pb = this.current.get(target);
    if (pb) this.finishWith(pb, 'done');
    for (const [id, p] of this.byId) if (p.target === target && (p.state === 'queued' || p.canceled)) this.byId.delete(id);
  }
}
