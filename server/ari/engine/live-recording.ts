import { closeSync, existsSync, openSync, statSync, writeSync } from 'node:fs';
import type { RECORDING_STATES } from '../../../protocol/ari/models/media.js';
import type { RecordingRepo } from '../../db/repos/recording-repo.js';
import type { Logger } from '../../log.js';
import type { Clock, TimerHandle } from '../time/clock.js';
import type { FrameConsumer } from '../media/media-clock.js';
import type { Codec, Codecs } from '../media/codec.js';
import { FRAME_MS, FRAME_SAMPLES, level, SILENCE_THRESHOLD } from '../media/pcm.js';
import type { Channel } from './channel.js';
import { QUOTA_CAUSE } from './recording-quota.js';
import type { RecordRequest } from './record-request.js';
import type { AriLiveRecording } from './ari-models.js';

type RecordingState = (typeof RECORDING_STATES)[number];

/** What a recording captures, frame by frame. */
export interface RecordSource {
  targetUri: string;
  /** The channel recorded (its DTMF can end the recording; its hangup ends it). */
  channel?: Channel;
  frame(tick: number): Int16Array;
  /** Plays the beep before capture starts (on the recorded channel). */
  beep?: (samples: Int16Array) => void;
  /** Runs when the recording starts; a returned text fails the recording with that cause (Asterisk answers the channel first). */
  start?: () => string | undefined;
}

export const WAV_HEADER = 44;

/** The port through which a live recording reports its end and charges its writes, implemented by Recordings. */
export interface RecordingOwner {
  /** Disk quota shared by every recording file. */
  readonly quota: { reserve(bytes: number): boolean };
  /** Ends the recording ('done', 'canceled' or 'failed' with a cause). */
  end(rec: LiveRecording, state: 'done' | 'canceled' | 'failed', cause?: string): void;
}
/** What a muted recording captures: shared, read and never written. */
const SILENT_FRAME = new Int16Array(FRAME_SAMPLES);
/** Frames buffered before a write: one second of audio per recording per syscall. */
const FLUSH_FRAMES = 50;
/** Spreads first flushes over a second, so recordings started together do not all write in the same tick. */
let flushPhase = 0;

/** A recording in progress: a frame consumer on the media clock writing a real file. */
export class LiveRecording implements FrameConsumer {
  state: RecordingState = 'queued';
  frames = 0;
  silentFrames = 0;
  silenceRun = 0;
  muted = false;
  cause: string | undefined;
  fd: number | null = null;
  /** Encoded bytes already in the file before this recording (ifExists=append). */
  priorBytes = 0;
  dataBytes = 0;
  /** Where the next write lands in the file. */
  writePos = 0;
  pending: Buffer[] = [];
  pendingFrames = 0;
  /** Frames to buffer before the next write (the first one is staggered). */
  flushAfter = 1 + (flushPhase++ % FLUSH_FRAMES);
  finish: (() => void) | null = null;
  startedAt = 0;
  /** Encodes the frames as one stream (resampling across frame edges). */
  readonly encoder: ReturnType<Codec['encoder']>;
  /** The beep is playing: the recording is `recording` (as RecordingStarted said) but captures nothing yet. */
  beeping = false;
  /** The last media tick captured (ticks are processed once, in order). */
  lastTick = -1;
  /** Ends the recording when maxDurationSeconds is up, on time rather than at the next 20 ms tick. */
  endTimer: TimerHandle | null = null;

  constructor(
    readonly name: string,
    readonly codec: Codec,
    readonly file: string,
    readonly source: RecordSource,
    readonly opts: RecordRequest,
    private readonly owner: RecordingOwner,
  ) {
    this.encoder = codec.encoder();
  }

  /** The recording as an ARI LiveRecording. */
  json(): AriLiveRecording {
    const out: AriLiveRecording = { name: this.name, format: this.codec.name, target_uri: this.source.targetUri, state: this.state };
    if (this.state !== 'queued') out.duration = Math.floor((this.frames * FRAME_MS) / 1000);
    if (this.opts.maxSilenceSeconds > 0 && this.state !== 'queued') {
      out.talking_duration = Math.floor(((this.frames - this.silentFrames) * FRAME_MS) / 1000);
      out.silence_duration = Math.floor((this.silentFrames * FRAME_MS) / 1000);
    }
    if (this.cause) out.cause = this.cause;
    return out;
  }

  /** Frames in maxDurationSeconds (Infinity without a limit). */
  get maxFrames(): number {
    return this.opts.maxDurationSeconds > 0 ? (this.opts.maxDurationSeconds * 1000) / FRAME_MS : Infinity;
  }

  onFrame(tick: number): void {
    if (tick <= this.lastTick) return;
    this.lastTick = tick;
    // Full length reached: the end timer ends it when this last frame's time is over.
    if (this.state !== 'recording' || this.beeping || this.frames >= this.maxFrames) return;
    const frame = this.muted ? SILENT_FRAME : this.source.frame(tick);
    const bytes = this.encoder.push(frame);
    if (bytes.length) this.pending.push(bytes);
    this.pendingFrames++;
    this.frames++;
    if (level(frame) < SILENCE_THRESHOLD) {
      this.silentFrames++;
      this.silenceRun++;
    } else this.silenceRun = 0;
    if (this.pendingFrames >= this.flushAfter && !this.flush()) return this.owner.end(this, 'failed', QUOTA_CAUSE);
    if (this.opts.maxSilenceSeconds > 0 && this.silenceRun * FRAME_MS >= this.opts.maxSilenceSeconds * 1000) this.owner.end(this, 'done');
  }

  /** Writes the buffered frames; false when the recordings quota has no room for them (they are dropped). */
  flush(): boolean {
    if (this.fd === null || !this.pending.length) return true;
    const buf = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingFrames = 0;
    this.flushAfter = FLUSH_FRAMES;
    if (!this.owner.quota.reserve(buf.length)) return false;
    writeSync(this.fd, buf, 0, buf.length, this.writePos);
    this.writePos += buf.length;
    this.dataBytes += buf.length;
    return true;
  }
}

/** Live rows left by a crash or kill: their files are finalised (WAV header sizes) and kept as stored recordings. */
export function keepInterrupted(repo: RecordingRepo, codecs: Codecs, path: (file: string) => string, log: Logger, clock: Clock): void {
  for (const row of repo.live()) {
    const p = path(row.file);
    const codec = codecs.get(row.format);
    let bytes = 0;
    if (existsSync(p) && codec) {
      const size = statSync(p).size;
      bytes = codec.header ? Math.max(0, size - WAV_HEADER) : size;
      if (codec.header && size >= WAV_HEADER) {
        const fd = openSync(p, 'r+');
        writeSync(fd, codec.header(bytes), 0, WAV_HEADER, 0);
        closeSync(fd);
      }
    }
    const ms = codec ? Math.floor((bytes / codec.bytesPerSample / codec.rate) * 1000) : 0;
    repo.save({ ...row, state: 'stored', ended_at: clock.now(), duration_ms: ms });
    log.warn({ recording: row.name }, 'recording interrupted by a restart kept as stored');
  }
}
