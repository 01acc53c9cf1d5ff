import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RawBody } from '../../../protocol/operation.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { RATE, slinBytes, slinFromBytes } from '../media/pcm.js';
import { Tone, ToneError } from '../media/tones.js';
import { WavError, wavToSlin } from '../media/wav.js';
import type { AudioRouter } from './audio.js';
import { REASON_CAUSE } from './causes.js';
import type { InboundRequest } from './call-requests.js';
import type { Calls } from './calls.js';
import type { Channel } from './channel.js';
import { checkDtmf, type Control } from './control.js';
import type { Engine } from './engine.js';
import type { SimChannelView } from './ari-models.js';
import { emptyRedirecting } from './redirecting.js';

type FarDtmfStep = { digit: string; duration: number; delay: number };

/**
 * What only the far end of a call can do (the simulation API): place
 * inbound calls, answer, reject or hang up, press DTMF, hold, talk; and how
 * the far end perceives what we do to it.
 */
export class FarEnd {
  constructor(
    private readonly eng: Engine,
    private readonly calls: Calls,
    private readonly control: Control,
    private readonly router: AudioRouter,
    private readonly uploadDir: string,
    /** Longest uploaded audio accepted (SIM_AUDIO_MAX_SECONDS). */
    private readonly maxUploadSeconds: number,
  ) {
    eng.onTimer('farDtmf', (ch, data) => this.dtmfStep(ch, data as FarDtmfStep[]));
    mkdirSync(uploadDir, { recursive: true });
    eng.onHangup((ch) => this.dropUpload(ch));
  }

  private dropUpload(ch: Channel): void {
    const a = ch.d.far.audio;
    if (a.kind !== 'upload') return;
    this.router.forgetUpload(a.file);
    rmSync(join(this.uploadDir, a.file), { force: true });
  }

  /** What the far end sends from now on: silence, a tone (a tone-zone name or a tone list) or a catalogue sound. */
  setAudio(id: string, source: string, opts: { tone?: string | undefined; sound?: string | undefined; lang?: string | undefined; loop: boolean }): void {
    const ch = this.channel(id);
    const since = this.eng.clock.now();
    let audio: Channel['d']['far']['audio'];
    if (source === 'tone') {
      if (!opts.tone) throw badRequest('tone is required when source=tone');
      const zone = this.eng.fixtures.tonezones.zones[this.eng.fixtures.tonezones.default]!;
      const list = zone[opts.tone] ?? opts.tone;
      try {
        Tone.parse(list);
      } catch (err) {
        if (err instanceof ToneError) throw badRequest(`Invalid tone: ${err.message}`);
        throw err;
      }
      audio = { kind: 'tone', tone: list, since };
    } else if (source === 'sound') {
      if (!opts.sound) throw badRequest('sound is required when source=sound');
      if (!this.eng.fixtures.sounds.has(opts.sound)) throw badRequest(`Unknown sound '${opts.sound}'`);
      audio = { kind: 'sound', sound: opts.sound, lang: opts.lang || ch.d.language, loop: opts.loop, since };
    } else audio = { kind: 'silence' };
    this.dropUpload(ch);
    ch.d.far.audio = audio;
    this.eng.touch(ch);
  }

  /** The far end speaks uploaded audio: WAV (a standard rate, 8 to 48 kHz; PCM or G.711) or raw 8 kHz slin, at most maxUploadSeconds long. */
  uploadAudio(id: string, body: RawBody, loop: boolean): void {
    const ch = this.channel(id);
    if (!body.data.length) throw badRequest('The request body holds no audio');
    const type = body.contentType.split(';')[0]!.trim().toLowerCase();
    let pcm: Int16Array;
    if (type === 'audio/wav' || type === 'audio/x-wav' || type === 'audio/wave' || body.data.subarray(0, 4).toString('ascii') === 'RIFF') {
      try {
        pcm = wavToSlin(body.data, RATE, { maxSeconds: this.maxUploadSeconds });
      } catch (err) {
        if (err instanceof WavError) throw badRequest(`Invalid WAV: ${err.message}`);
        throw err;
      }
    } else if (type === 'audio/x-sln' || type === 'audio/sln' || type === 'application/octet-stream') {
      if (body.data.length % 2) throw badRequest('Raw 16-bit audio must have an even number of bytes');
      const seconds = body.data.length / 2 / RATE;
      if (seconds > this.maxUploadSeconds) throw badRequest(`Audio is ${Math.ceil(seconds)} s long; at most ${this.maxUploadSeconds} s is accepted`);
      pcm = slinFromBytes(body.data);
    } else throw badRequest(`Unsupported audio type '${type}' (send audio/wav, audio/x-sln or application/octet-stream)`);
    this.dropUpload(ch);
    const file = `${ch.d.seq}-${this.eng.clock.now()}.sln`;
    writeFileSync(join(this.uploadDir, file), slinBytes(pcm));
    ch.d.far.audio = { kind: 'upload', file, loop, since: this.eng.clock.now() };
    this.eng.touch(ch);
  }

  private channel(id: string): Channel {
    const ch = this.eng.find(id);
    if (!ch) throw notFound('Channel not found');
    return ch;
  }

  /** An inbound call; a redirecting number is what the far end's INVITE says it was diverted from. */
  call(req: InboundRequest & { redirectingFrom?: string | undefined }): Channel {
    const ch = this.calls.inbound(req);
    if (req.redirectingFrom) {
      ch.d.redirecting = { ...emptyRedirecting(), from: { name: '', number: req.redirectingFrom }, count: 1 };
      this.eng.touch(ch);
    }
    return ch;
  }

  /** The SimChannel view: the ARI snapshot plus the far end's perception. */
  view(id: string): SimChannelView {
    const ch = this.channel(id);
    const { media, far, script: s } = ch.d;
    return {
      channel: this.eng.snapshot(ch),
      endpoint: ch.d.endpoint,
      direction: ch.d.direction,
      far_end: {
        answered: ch.d.direction === 'outbound' ? far.answered : ch.d.state === 'Up',
        ringing: media.ringing,
        on_hold: media.hold,
        hearing: media.moh ? 'moh' : media.silence ? 'silence' : 'nothing',
        ...(media.moh ? { moh_class: media.moh } : {}),
        muted_in: media.mutedIn,
        muted_out: media.mutedOut,
        dtmf_received: far.dtmf,
        holding: far.holding,
        talking: far.talking,
        ...(far.redirectedTo ? { redirected_to: far.redirectedTo } : {}),
        progress: far.progress ?? false,
        transfer_notify: far.transferNotify ?? [],
      },
      ...(s ? { script: { steps: s.steps, position: s.position, state: s.state, ...(s.waitingFor ? { waiting_for: s.waitingFor } : {}), ...(s.reason ? { reason: s.reason } : {}) } } : {}),
    };
  }

  answer(id: string): void {
    const ch = this.channel(id);
    if (ch.d.tech === 'Local' || !this.calls.isAwaitingAnswer(ch)) throw conflict('Channel is not an outgoing call waiting for an answer');
    this.calls.farAnswered(ch);
  }

  /** The far end refuses a call we placed to it that it has not answered (Dial BUSY, CONGESTION, …). */
  reject(id: string, cause: number): void {
    const ch = this.channel(id);
    if (ch.d.tech === 'Local' || !this.calls.isAwaitingAnswer(ch)) throw conflict('Channel is not an outgoing call waiting for an answer');
    this.calls.farRejected(ch, cause);
  }

  /** Hangs up from the far end; before an answer this is a rejection (Dial BUSY, CONGESTION, …). */
  hangup(id: string, cause: number | undefined, reason: string | undefined): void {
    if (cause !== undefined && reason !== undefined) throw badRequest('cause and reason are mutually exclusive');
    const ch = this.channel(id);
    const c = cause ?? (reason !== undefined ? REASON_CAUSE[reason]! : REASON_CAUSE.normal!);
    if (this.calls.isAwaitingAnswer(ch)) this.calls.farRejected(ch, c);
    else this.calls.hangup(ch, { by: 'far', cause: c });
  }

  /** The far end presses digits: each raises ChannelDtmfReceived when it ends. */
  dtmf(id: string, digits: string, duration: number, between: number): void {
    const ch = this.channel(id);
    if (!digits) throw badRequest('dtmf is required');
    checkDtmf(digits, false);
    if (ch.state === 'Down') throw conflict('Channel has no media yet');
    const steps = [...digits].map((d, i) => ({ digit: d.toUpperCase(), duration, delay: i === 0 ? duration : between + duration }));
    this.eng.schedule(ch, 'farDtmf', steps[0]!.delay, steps);
  }

  private dtmfStep(ch: Channel, steps: FarDtmfStep[]): void {
    const [step, ...rest] = steps;
    if (!step) return;
    this.eng.dtmfReceived(ch, step.digit, step.duration);
    if (rest.length) this.eng.schedule(ch, 'farDtmf', rest[0]!.delay, rest);
  }

  hold(id: string, on: boolean, musicclass?: string): void {
    this.control.receiveHold(this.channel(id), on, musicclass);
  }

  /** Talking start/stop; ChannelTalkingStarted/Finished only while TALK_DETECT is set, as Asterisk's. */
  talk(id: string, on: boolean): void {
    const ch = this.channel(id);
    const far = ch.d.far;
    if (far.talking === on) return;
    far.talking = on;
    if (on) {
      far.talkSince = this.eng.clock.now();
      this.eng.touch(ch);
      if (ch.d.flags.talkDetect) this.eng.emitChannel(ch, 'ChannelTalkingStarted', {});
    } else {
      const duration = Math.round(this.eng.clock.simSince(far.talkSince ?? this.eng.clock.now()));
      far.talkSince = null;
      this.eng.touch(ch);
      if (ch.d.flags.talkDetect) this.eng.emitChannel(ch, 'ChannelTalkingFinished', { duration });
    }
  }
}
