import { closeSync, copyFileSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, rmSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import type { RecordingRepo, RecordingRow } from '../../db/repos/recording-repo.js';
import { badRequest, conflict, forbidden, notFound, unprocessable } from '../../errors.js';
import type { MediaClock } from '../media/media-clock.js';
import type { Codec, Codecs } from '../media/codec.js';
import { WavError } from '../media/wav.js';
import { FRAME_MS, RATE } from '../media/pcm.js';
import type { Engine } from './engine.js';
import { keepInterrupted, LiveRecording, WAV_HEADER, type RecordingOwner, type RecordSource } from './live-recording.js';
import type { RecordRequest } from './record-request.js';
import { QUOTA_CAUSE, RecordingQuota } from './recording-quota.js';

export type { RecordSource } from './live-recording.js';
export type { RecordRequest } from './record-request.js';

/**
 * Recording names may contain `/` (subdirectories) but never reach outside
 * the recordings directory: no empty, `.` or `..` segment, no backslash or
 * control character, no leading slash.
 */
export function validRecordingName(name: string): boolean {
  if (!name || name.length > 255 || name.startsWith('/') || /[\\\u0000-\u001f\u007f]/.test(name)) return false;
  return name.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}

/**
 * Live and stored recordings. A channel recording is a command on the
 * channel's queue (as in Asterisk); frames come from the media clock; the
 * file is flushed every second and its row is in SQLite, so a crash keeps
 * what was written.
 */
export class Recordings implements RecordingOwner {
  private readonly live = new Map<string, LiveRecording>();
  readonly dir: string;
  /** Disk used by recording files against RECORDINGS_MAX_BYTES. */
  readonly quota: RecordingQuota;

  constructor(
    private readonly eng: Engine,
    private readonly clock: MediaClock,
    private readonly codecs: Codecs,
    private readonly repo: RecordingRepo,
    dataDir: string,
    private readonly limits: { recordingsMaxBytes: number; recordingMaxSeconds: number },
    /** Who hears about a recording of a bridge (its members' apps). */
    private readonly targetRecipients: (targetUri: string) => Iterable<string>,
  ) {
    this.quota = new RecordingQuota(limits.recordingsMaxBytes);
    this.dir = join(dataDir, 'recordings');
    mkdirSync(this.dir, { recursive: true });
    eng.onHangup((ch) => {
      for (const rec of this.live.values()) if (rec.source.channel === ch) this.end(rec, rec.state === 'queued' ? 'canceled' : 'done');
    });
    eng.onDtmf((ch, digit) => {
      for (const rec of this.live.values()) {
        if (rec.source.channel !== ch || rec.state !== 'recording') continue;
        const t = rec.opts.terminateOn;
        if (t === 'any' || t === digit) this.end(rec, 'done');
      }
    });
    this.recover();
    for (const row of this.repo.stored()) this.quota.add(this.fileSize(row.file));
  }

  private fileSize(file: string): number {
    const p = this.path(file);
    return existsSync(p) ? statSync(p).size : 0;
  }

  /** Room for at least a second of `codec` audio (and a header): less, and a recording is refused or fails. */
  private hasRoom(codec: Codec, freed = 0): boolean {
    return this.quota.max - this.quota.usedBytes + freed >= codec.rate * codec.bytesPerSample + (codec.header ? WAV_HEADER : 0);
  }

  /** Absolute path of a recording file, checked to stay inside the recordings directory. */
  private path(file: string): string {
    const p = resolve(this.dir, file);
    if (p !== this.dir && !p.startsWith(this.dir + sep)) throw forbidden('Recording path is outside the recordings directory');
    return p;
  }

  /** Recordings cut off by a crash or kill are kept as stored; no channel is recording any more. */
  private recover(): void {
    keepInterrupted(this.repo, this.codecs, (file) => this.path(file), this.eng.log, this.eng.clock);
    for (const ch of this.eng.all()) {
      if (ch.d.recording) {
        ch.d.recording = null;
        this.eng.touch(ch);
      }
    }
  }

  // ---- live -------------------------------------------------------------------

  /**
   * Validates and starts (or queues) a recording. `queue` is the channel's
   * control queue for channel recordings; bridge recordings start at once.
   */
  record(source: RecordSource, req: RecordRequest, queue?: { enqueue(cmd: () => Promise<void>): Promise<void> }, precheck?: () => void): LiveRecording {
    // Asterisk parses both case-insensitively, and an empty value is the default.
    const terminateOn = (req.terminateOn || 'none').toLowerCase();
    const ifExists = (req.ifExists || 'fail').toLowerCase();
    if (!['none', 'any', '*', '#'].includes(terminateOn)) throw badRequest('terminateOn invalid');
    if (!['fail', 'overwrite', 'append'].includes(ifExists)) throw badRequest('ifExists invalid');
    const codec = this.codecs.get(req.format);
    if (!codec) throw unprocessable('specified format is unknown on this system');
    if (!validRecordingName(req.name)) throw badRequest('Recording name invalid');
    const exists = this.repo.get(req.name);
    if (this.live.has(req.name) || (exists && ifExists === 'fail') || (exists?.state === 'live')) {
      throw conflict(`Recording '${req.name}' already exists and can not be overwritten`);
    }
    const file = `${req.name}.${codec.extension}`;
    this.path(file);
    precheck?.();
    if (!this.hasRoom(codec)) throw conflict(QUOTA_CAUSE);
    // RECORDING_MAX_SECONDS bounds every recording, one without maxDurationSeconds included.
    const cap = this.limits.recordingMaxSeconds;
    const maxDurationSeconds = req.maxDurationSeconds > 0 ? Math.min(req.maxDurationSeconds, cap) : cap;
    const rec = new LiveRecording(req.name, codec, file, source, { ...req, ifExists, terminateOn, maxDurationSeconds }, this);
    this.live.set(req.name, rec);
    if (source.channel) {
      source.channel.d.recording = req.name;
      this.eng.touch(source.channel);
    }
    const run = () => new Promise<void>((done) => {
      rec.finish = done;
      setImmediate(() => this.begin(rec, exists));
    });
    if (queue) queue.enqueue(run).catch(() => this.end(rec, 'canceled'));
    else void run();
    return rec;
  }

  private begin(rec: LiveRecording, existing: RecordingRow | undefined): void {
    if (rec.state !== 'queued') return rec.finish?.();
    const failure = rec.source.start?.();
    if (failure) {
      rec.state = 'recording';
      return this.end(rec, 'failed', failure);
    }
    const path = this.path(rec.file);
    mkdirSync(dirname(path), { recursive: true });
    // ifExists: overwrite replaces whatever was there; append continues a same-format file.
    const append = rec.opts.ifExists === 'append' && existing?.file === rec.file && existsSync(path);
    const other = existing && existing.file !== rec.file ? existing.file : undefined;
    const freed = (other ? this.fileSize(other) : 0) + (append ? 0 : this.fileSize(rec.file));
    if (!this.hasRoom(rec.codec, freed)) {
      // The quota ran out while this one waited its turn: it fails as a recording that cannot start, and replaces nothing.
      rec.state = 'recording';
      return this.end(rec, 'failed', QUOTA_CAUSE);
    }
    if (other) this.removeFile(other);
    if (!append) this.quota.releaseFile(path);
    rec.fd = openSync(path, append ? 'r+' : 'w');
    if (append) {
      // Appends go after the existing data; a WAV header is rewritten with the new size at the end.
      const size = fstatSync(rec.fd).size;
      rec.priorBytes = rec.codec.header ? Math.max(0, size - WAV_HEADER) : size;
      rec.writePos = size;
    } else if (rec.codec.header) {
      writeSync(rec.fd, rec.codec.header(0), 0, WAV_HEADER, 0);
      this.quota.add(WAV_HEADER);
      rec.writePos = WAV_HEADER;
    }
    rec.startedAt = this.eng.clock.now();
    const live: RecordingRow = { name: rec.name, format: rec.codec.name, state: 'live', target_uri: rec.source.targetUri, file: rec.file, created_at: rec.startedAt, ended_at: null, duration_ms: 0 };
    this.eng.deferWrite(() => this.repo.save(live));
    rec.state = 'recording';
    this.emit(rec, 'RecordingStarted');
    // Capture works in whole 20 ms frames. It starts at the frame boundary nearest to
    // RecordingStarted, so the recording's span is within half a frame of the event's time.
    const now = this.clock.now();
    const into = this.eng.clock.simSince(this.clock.instantOf(now)) / FRAME_MS;
    rec.lastTick = into < 0.5 ? now - 1 : now;
    this.clock.add(rec);
    const beep = rec.opts.beep ? this.beep() : undefined;
    if (beep && rec.source.beep) {
      // A flag, not the state: the recording reads `recording` meanwhile, and a pause/stop given during the beep holds.
      rec.source.beep(beep);
      rec.beeping = true;
      this.eng.clock.after((beep.length * 1000) / RATE, () => {
        rec.beeping = false;
        rec.lastTick = Math.max(rec.lastTick, this.clock.now());
        this.armEnd(rec);
      });
    } else this.armEnd(rec);
  }

  /**
   * maxDurationSeconds ends a recording when the audio time of its last
   * frame is over — on time, not a frame early at the start of that frame's
   * 20 ms (when the clock processes it) nor late at the next tick.
   */
  private armEnd(rec: LiveRecording): void {
    this.eng.clock.cancel(rec.endTimer);
    rec.endTimer = null;
    if (!Number.isFinite(rec.maxFrames) || this.live.get(rec.name) !== rec) return;
    const remaining = rec.maxFrames - rec.frames;
    const endsAt = this.clock.instantOf(rec.lastTick + 1 + remaining);
    rec.endTimer = this.eng.clock.at(endsAt, () => this.endOnTime(rec));
  }

  private endOnTime(rec: LiveRecording): void {
    rec.endTimer = null;
    if (this.live.get(rec.name) !== rec) return;
    // Frames already due are captured first (the media clock may be a slice behind).
    const now = this.clock.now();
    for (let t = rec.lastTick + 1; t < now; t++) rec.onFrame(t);
    if (rec.frames >= rec.maxFrames) this.end(rec, 'done');
    else this.armEnd(rec); // paused for a while: still short of its length
  }

  private beep(): Int16Array | undefined {
    const s = this.eng.fixtures.sounds.get('beep');
    return s?.audio.get('en');
  }

  private emit(rec: LiveRecording, type: 'RecordingStarted' | 'RecordingFinished' | 'RecordingFailed'): void {
    const ch = rec.source.channel;
    const to = ch ? this.eng.recipients(ch) : this.targetRecipients(rec.source.targetUri);
    this.eng.emit(type, { recording: rec.json() }, to);
  }

  /** Ends a recording: the file is completed and stored ('done'), or discarded ('canceled'), or kept as failed. */
  end(rec: LiveRecording, state: 'done' | 'canceled' | 'failed', cause?: string): void {
    if (!this.live.has(rec.name) || this.live.get(rec.name) !== rec) return;
    this.clock.delete(rec);
    this.eng.clock.cancel(rec.endTimer);
    rec.endTimer = null;
    const wasQueued = rec.fd === null;
    if (!wasQueued) {
      // The stream encoder holds back the last frame (it waits for the next one's samples).
      const last = rec.encoder.end();
      if (last.length) rec.pending.push(last);
    }
    // The last frames may not fit either: a recording stopped then still fails for want of room.
    if (!rec.flush() && state === 'done') {
      state = 'failed';
      cause = QUOTA_CAUSE;
    }
    if (rec.fd !== null) {
      if (rec.codec.header) writeSync(rec.fd, rec.codec.header(rec.priorBytes + rec.dataBytes), 0, WAV_HEADER, 0);
      closeSync(rec.fd);
      rec.fd = null;
    }
    this.live.delete(rec.name);
    if (rec.source.channel?.d.recording === rec.name) {
      rec.source.channel.d.recording = null;
      this.eng.touch(rec.source.channel);
    }
    rec.state = state;
    if (cause) rec.cause = cause;
    // Rows change in the engine's group commit: committed before the event below leaves.
    if (state === 'canceled') {
      if (!wasQueued) {
        this.removeFile(rec.file);
        this.eng.deferWrite(() => this.repo.remove(rec.name));
      }
    } else if (!wasQueued) {
      const total = rec.priorBytes + rec.dataBytes;
      const ms = Math.floor((total / rec.codec.bytesPerSample / rec.codec.rate) * 1000);
      const stored: RecordingRow = { name: rec.name, format: rec.codec.name, state: 'stored', target_uri: rec.source.targetUri, file: rec.file, created_at: rec.startedAt, ended_at: this.eng.clock.now(), duration_ms: ms };
      this.eng.deferWrite(() => this.repo.save(stored));
    }
    this.emit(rec, state === 'failed' ? 'RecordingFailed' : 'RecordingFinished');
    rec.finish?.();
    rec.finish = null;
  }

  getLive(name: string): LiveRecording {
    const rec = this.live.get(name);
    if (!rec) throw notFound('Recording not found');
    return rec;
  }

  /** stop / cancel / pause / unpause / mute / unmute with Asterisk's per-state rules (409 "Recording not in session"). */
  control(name: string, op: 'stop' | 'cancel' | 'pause' | 'unpause' | 'mute' | 'unmute'): void {
    const rec = this.getLive(name);
    const notInSession = () => conflict('Recording not in session');
    if (rec.state === 'queued') {
      if (op === 'stop' || op === 'cancel') return this.end(rec, 'canceled');
      throw notInSession();
    }
    if (rec.state !== 'recording' && rec.state !== 'paused') throw notInSession();
    switch (op) {
      case 'stop':
        return this.end(rec, 'done');
      case 'cancel':
        return this.end(rec, 'canceled');
      case 'pause':
        rec.state = 'paused';
        return;
      case 'unpause':
        rec.state = 'recording';
        return;
      case 'mute':
      case 'unmute':
        rec.muted = op === 'mute';
    }
  }

  // ---- stored -------------------------------------------------------------------

  private stored(name: string): RecordingRow {
    const row = this.repo.get(name);
    if (!row || row.state !== 'stored' || !existsSync(this.path(row.file))) throw notFound('Recording not found');
    return row;
  }

  listStored(): Array<{ name: string; format: string }> {
    return this.repo.stored().map((r) => ({ name: r.name, format: r.format }));
  }

  getStored(name: string): { name: string; format: string } {
    const r = this.stored(name);
    return { name: r.name, format: r.format };
  }

  deleteStored(name: string): void {
    const r = this.stored(name);
    this.quota.releaseFile(this.path(r.file));
    unlinkSync(this.path(r.file));
    this.repo.remove(name);
  }

  /** Removes a recording file (if there) and releases its bytes. */
  private removeFile(file: string): void {
    const p = this.path(file);
    this.quota.releaseFile(p);
    rmSync(p, { force: true });
  }

  file(name: string): { data: Uint8Array; contentType: string } {
    const r = this.stored(name);
    const codec = this.codecs.get(r.format);
    if (!codec) throw forbidden('Recording could not be opened');
    try {
      return { data: readFileSync(this.path(r.file)), contentType: codec.contentType };
    } catch {
      throw forbidden('Recording could not be opened');
    }
  }

  copy(name: string, destination: string): { name: string; format: string } {
    const r = this.stored(name);
    if (!validRecordingName(destination)) throw badRequest('Invalid destination recording name');
    if (this.repo.get(destination) || this.live.has(destination)) throw conflict('A recording with the same name already exists on the system');
    const codec = this.codecs.get(r.format)!;
    const file = `${destination}.${codec.extension}`;
    const to = this.path(file);
    if (!this.quota.reserve(this.fileSize(r.file))) throw conflict(QUOTA_CAUSE);
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(this.path(r.file), to);
    const now = this.eng.clock.now();
    this.repo.save({ ...r, name: destination, file, created_at: now, ended_at: now });
    return { name: destination, format: r.format };
  }

  /** Decoded audio of a stored recording (for `recording:` playback). */
  audio(name: string): Int16Array | undefined {
    const row = this.repo.get(name);
    if (!row || row.state !== 'stored') return undefined;
    const codec = this.codecs.get(row.format);
    const path = this.path(row.file);
    if (!codec || !existsSync(path)) return undefined;
    try {
      return codec.decodeFile(readFileSync(path), { maxSeconds: this.limits.recordingMaxSeconds });
    } catch (err) {
      // A file changed behind our back (or one we cannot decode) fails the playback item, as a missing one does.
      if (err instanceof WavError) return undefined;
      throw err;
    }
  }

  /** Ends every recording of a target (a bridge that goes away). */
  endTarget(targetUri: string): void {
    for (const rec of [...this.live.values()]) if (rec.source.targetUri === targetUri) this.end(rec, rec.state === 'queued' ? 'canceled' : 'done');
  }

  /** Live recordings, for stop at shutdown. */
  stopAll(): void {
    for (const rec of [...this.live.values()]) this.end(rec, 'done');
  }
}
