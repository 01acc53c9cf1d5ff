import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { soundAudio } from '../fixtures.js';
import type { MediaClock } from '../media/media-clock.js';
import { FRAME_MS, FRAME_SAMPLES, mixInto, RATE, slinFromBytes } from '../media/pcm.js';
import { Tone } from '../media/tones.js';
import type { Channel, FarAudio } from './channel.js';
import type { Engine } from './engine.js';
import { lostPacket } from './packet-loss.js';

/** Who can contribute audio to a channel or bridge besides its far end. */
export interface AudioProviders {
  /** Writes the current playback on a target (`channel:<id>` / `bridge:<id>`) into `out`; false when nothing plays. */
  playback(target: string, tick: number, out: Int16Array): boolean;
  /** Who the channel hears in its bridge (when it is in one: the other members, or a holding bridge's announcers) and what the bridge itself plays. */
  bridge(ch: Channel): { members: Channel[]; render: (tick: number, out: Int16Array) => void } | undefined;
  /** Snoop channels spying on / whispering to a channel. */
  whisperers(ch: Channel): Channel[];
  /** Audio received from an external media stream, for its channel. */
  external(ch: Channel, tick: number, out: Int16Array): void;
  /** Share of the packets between the channel and its far end that are lost, each way (the media_loss fault); undefined for none. */
  lossPercent(ch: Channel): number | undefined;
}

const MAX_DEPTH = 6;
/** A frame of silence, shared: read, never written. */
const SILENT_FRAME = new Int16Array(FRAME_SAMPLES);

/**
 * One channel's frames at the tick last asked for. Each direction renders into
 * a buffer the channel keeps, so a frame costs no allocation: a frame handed
 * out is valid until the channel's next tick is rendered, and every consumer
 * reads or copies it at once. A render that comes back round to its own
 * channel and direction (a loop of bridges, snoops and Local halves) gets a
 * fresh buffer instead of writing into the one being filled.
 */
class FrameEntry {
  inbound: Int16Array | undefined;
  outbound: Int16Array | undefined;
  private readonly buffers = { in: new Int16Array(FRAME_SAMPLES), out: new Int16Array(FRAME_SAMPLES) };
  private readonly busy = { in: false, out: false };

  constructor(public tick: number) {}

  take(dir: 'in' | 'out'): Int16Array {
    if (this.busy[dir]) return new Int16Array(FRAME_SAMPLES);
    this.busy[dir] = true;
    return this.buffers[dir].fill(0);
  }

  release(dir: 'in' | 'out', buf: Int16Array): void {
    if (buf === this.buffers[dir]) this.busy[dir] = false;
  }
}

/**
 * Computes each channel's audio on the media clock: what it receives from
 * its far end (inbound) and what it sends (outbound). A frame is computed
 * at most once per channel and tick, and only when a consumer (a
 * recording, an RTP sender) asks.
 */
export class AudioRouter {
  private readonly cache = new Map<Channel, FrameEntry>();
  /** Where a bridge's own audio is rendered before it joins a member's mix (read right away, never kept). */
  private readonly scratch = new Int16Array(FRAME_SAMPLES);
  private readonly tones = new Map<string, Tone>();
  private readonly uploads = new Map<string, Int16Array>();
  /** Short sounds played over a channel's outbound audio (the recorder's beep). */
  private readonly overlays = new Map<Channel, { samples: Int16Array; since: number }>();

  constructor(
    private readonly eng: Engine,
    readonly clock: MediaClock,
    private readonly uploadDir: string,
    private readonly providers: AudioProviders,
  ) {}

  /**
   * Samples elapsed (at 8 kHz) between an instant and a tick;
   * negative for a tick before it (a late tick rendered after a source
   * started must not replay the source's beginning).
   */
  samplesSince(instant: number, tick: number): number {
    return Math.floor((this.eng.clock.simSince(instant, this.clock.instantOf(tick)) * RATE) / 1000);
  }

  /** Copies samples [pos, pos + out.length) into out; before 0 and past the end (unless looping) is silence. */
  private copyAt(samples: Int16Array, pos: number, out: Int16Array, loop = false): void {
    const n = samples.length;
    if (!n) return;
    // Whole spans at a time (this runs for every frame of every far end that talks): what lies
    // before 0 stays silent, then the samples from pos on, wrapping to the start when looping.
    let i = Math.max(0, -pos);
    let p = pos + i;
    if (p >= n) {
      if (!loop) return;
      p %= n;
    }
    while (i < out.length) {
      const span = Math.min(out.length - i, n - p);
      out.set(samples.subarray(p, p + span), i);
      i += span;
      if (!loop) return;
      p = 0;
    }
  }

  private tone(spec: string): Tone {
    let t = this.tones.get(spec);
    if (!t) {
      t = Tone.parse(spec);
      this.tones.set(spec, t);
    }
    return t;
  }

  /** Decoded samples of an uploaded far-end audio file (raw slin stored under the data dir). */
  upload(file: string): Int16Array | undefined {
    let a = this.uploads.get(file);
    if (!a) {
      const path = join(this.uploadDir, file);
      if (!existsSync(path)) return undefined;
      a = slinFromBytes(readFileSync(path));
      this.uploads.set(file, a);
    }
    return a;
  }

  forgetUpload(file: string): void {
    this.uploads.delete(file);
  }

  private entry(ch: Channel, tick: number): FrameEntry {
    let e = this.cache.get(ch);
    if (!e) {
      e = new FrameEntry(tick);
      this.cache.set(ch, e);
    } else if (e.tick !== tick) {
      e.tick = tick;
      e.inbound = undefined;
      e.outbound = undefined;
    }
    return e;
  }

  /** Drops cached frames of channels that ended. */
  forget(ch: Channel): void {
    this.cache.delete(ch);
    this.overlays.delete(ch);
  }

  /** Plays `samples` once over the channel's outbound audio, starting now. */
  overlay(ch: Channel, samples: Int16Array): void {
    this.overlays.set(ch, { samples, since: this.eng.clock.now() });
  }

  private renderOverlay(ch: Channel, tick: number, out: Int16Array): boolean {
    const o = this.overlays.get(ch);
    if (!o) return false;
    const pos = this.samplesSince(o.since, tick);
    if (pos >= o.samples.length) {
      this.overlays.delete(ch);
      return false;
    }
    if (pos + out.length <= 0) return false;
    this.copyAt(o.samples, pos, out);
    return true;
  }

  /** What the far end sends, as set through the simulation API. */
  private far(ch: Channel, tick: number, out: Int16Array): void {
    const a: FarAudio = ch.d.far.audio;
    if (a.kind === 'silence' || this.lost(ch, tick)) return;
    const pos = this.samplesSince(a.since, tick);
    if (a.kind === 'tone') {
      if (pos + out.length <= 0) return;
      const skip = Math.max(0, -pos);
      this.tone(a.tone).render(Math.max(0, pos), out.length - skip, out, skip);
      return;
    }
    const samples = a.kind === 'sound' ? soundAudio(this.eng.fixtures.sounds.get(a.sound), a.lang) : this.upload(a.file);
    if (samples?.length) this.copyAt(samples, pos, out, a.loop);
  }

  /** What the channel's far end receives at a tick: its outbound audio, or silence for a packet lost on the way there. */
  toFarEnd(ch: Channel, tick: number): Int16Array {
    return this.lost(ch, tick) ? SILENT_FRAME : this.outbound(ch, tick);
  }

  /** A packet lost between us and the far end (the same packets each way): its frame is silent (packets count from the answer). */
  private lost(ch: Channel, tick: number): boolean {
    const percent = this.providers.lossPercent(ch);
    if (!percent || ch.d.answered === null) return false;
    const n = Math.floor(this.eng.clock.simSince(ch.d.answered, this.clock.instantOf(tick)) / FRAME_MS);
    return n >= 0 && lostPacket(n, percent);
  }

  /** The channel's inbound audio at a tick: its far end (or the other Local half, a spied channel, a stream), plus whispers. */
  inbound(ch: Channel, tick: number, depth = 0): Int16Array {
    const e = this.entry(ch, tick);
    if (e.inbound) return e.inbound;
    const out = e.take('in');
    try {
      this.renderInbound(ch, tick, depth, out);
    } finally {
      e.release('in', out);
    }
    e.inbound = out;
    return out;
  }

  private renderInbound(ch: Channel, tick: number, depth: number, out: Int16Array): void {
    if (depth <= MAX_DEPTH && !ch.d.media.mutedIn && ch.d.ended === null) {
      const peer = ch.d.peer ? this.eng.find(ch.d.peer) : undefined;
      if (peer) out.set(this.outbound(peer, tick, depth + 1));
      else if (ch.d.snoop) {
        const target = this.eng.find(ch.d.snoop.target);
        const spy = ch.d.snoop.spy;
        if (target && (spy === 'in' || spy === 'both')) mixInto(out, this.inbound(target, tick, depth + 1));
        if (target && (spy === 'out' || spy === 'both')) mixInto(out, this.outbound(target, tick, depth + 1));
      } else if (ch.d.external) this.providers.external(ch, tick, out);
      else this.far(ch, tick, out);
      for (const w of this.providers.whisperers(ch)) {
        const dir = w.d.snoop!.whisper;
        if (dir === 'in' || dir === 'both') mixInto(out, this.outbound(w, tick, depth + 1));
      }
    }
  }

  /**
   * The channel's outbound audio at a tick: its playback, or else what its
   * bridge carries (the other members and the bridge's own playback or music
   * on hold), or its music on hold or ringback; plus whispers.
   */
  outbound(ch: Channel, tick: number, depth = 0): Int16Array {
    const e = this.entry(ch, tick);
    if (e.outbound) return e.outbound;
    const out = e.take('out');
    try {
      this.renderOutbound(ch, tick, depth, out);
    } finally {
      e.release('out', out);
    }
    e.outbound = out;
    return out;
  }

  private renderOutbound(ch: Channel, tick: number, depth: number, out: Int16Array): void {
    if (depth <= MAX_DEPTH && !ch.d.media.mutedOut && ch.d.ended === null) {
      const media = ch.d.media;
      if (this.renderOverlay(ch, tick, out) || this.providers.playback(`channel:${ch.id}`, tick, out)) {
        // A playback is all the channel hears while it runs, as a bridged channel's queued playback in Asterisk.
      } else if (ch.d.bridge) {
        const b = this.providers.bridge(ch);
        if (b) {
          for (const m of b.members) mixInto(out, this.inbound(m, tick, depth + 1));
          // The bridge's own audio (its playback, music on hold) renders nothing through the router, so one scratch frame serves.
          const extra = this.scratch.fill(0);
          b.render(tick, extra);
          mixInto(out, extra);
        }
      } else if (media.moh) {
        const cls = this.eng.fixtures.mohClasses.get(media.moh) ?? this.eng.fixtures.mohClasses.get('default')!;
        this.tone(cls.tones).render(tick * FRAME_SAMPLES, out.length, out);
      } else if (media.ringing && ch.d.state !== 'Up') {
        const zone = this.eng.fixtures.tonezones.zones[this.eng.fixtures.tonezones.default]!;
        if (zone.ring) this.tone(zone.ring).render(tick * FRAME_SAMPLES, out.length, out);
      }
      for (const w of this.providers.whisperers(ch)) {
        const dir = w.d.snoop!.whisper;
        if (dir === 'out' || dir === 'both') mixInto(out, this.outbound(w, tick, depth + 1));
      }
    }
  }
}
