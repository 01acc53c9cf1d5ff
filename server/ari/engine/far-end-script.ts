import type { ModelOf } from '../../../protocol/model.js';
import type { HeardItem } from '../../../protocol/sim/heard.js';
import { mediaOf, stepEntry, type ScriptStep } from '../../../protocol/sim/script.js';
import { badRequest, DomainError, notFound } from '../../errors.js';
import { audioMs, soundAudio, type EndpointFixture } from '../fixtures.js';
import { slinBytes } from '../media/pcm.js';
import type { InboundRequest } from './call-requests.js';
import type { Channel, ScriptRun } from './channel.js';
import type { EndpointScripts } from './endpoint-scripts.js';
import type { Engine } from './engine.js';
import type { FarEnd } from './far-end.js';
import { checkScriptFor, toneList } from './script-check.js';

/** Why a script's timer fires: its first step, a wait that ran out, digits or a sound finished, a prompt heard, silence long enough. */
interface Wake {
  position: number;
  why: 'start' | 'wait' | 'dtmf' | 'play' | 'heard' | 'silence';
}

/** Stored recordings, as far as a script needs them. */
export interface ScriptRecordings {
  exists(name: string): boolean;
  audio(name: string): Int16Array | undefined;
}

/** How long each scripted digit lasts, and the gap between two (the defaults of POST /sim/channels/{id}/dtmf). */
const DIGIT_MS = 100;
const GAP_MS = 100;

/**
 * Runs far-end scripts: each step, in order, on the engine's clock (so a
 * virtual clock runs them as it advances). Actions go through FarEnd, the
 * code the simulation API's own far-end actions use. The script and its
 * position live in the channel's record and its pending step is a channel
 * timer, so a restart goes on where it was (a prompt in progress at the
 * kill ends failed, so a wait_heard for it waits for the next one).
 */
export class FarEndScripts {
  /** Channels whose script waits for silence: looked at after every commit. */
  private readonly silence = new Set<Channel>();
  /** Channels whose script is carrying out a step right now (its own hangup is not the call ending under it). */
  private readonly acting = new Set<Channel>();

  constructor(
    private readonly eng: Engine,
    private readonly farEnd: FarEnd,
    /** Whether the channel's far end hears nothing now (HeardLog.quiet). */
    private readonly quiet: (ch: Channel) => boolean,
    private readonly endpoints: EndpointScripts,
    private readonly recordings: ScriptRecordings,
  ) {
    eng.onTimer('script', (ch, data) => this.wake(ch, data as Wake));
    eng.onHangup((ch) => this.hungUp(ch));
    eng.onCommitted(() => this.checkSilence());
    for (const ch of eng.all()) if (this.waitsForSilence(ch)) this.silence.add(ch);
  }

  /** Checks a script for a call: 400 naming the first bad step. */
  check(raw: unknown, places: boolean): ScriptStep[] {
    const r = checkScriptFor(raw, { ...this.eng.fixtures, recording: (name) => this.recordings.exists(name) }, places);
    if (!r.ok) throw badRequest(r.message);
    return r.steps;
  }

  /** POST /sim/calls: an inbound call whose caller follows `script` when one is given (checked before anything is made). */
  call(req: InboundRequest & { redirectingFrom?: string | undefined; script?: unknown }): Channel {
    const steps = req.script === undefined ? undefined : this.check(req.script, true);
    const ch = this.farEnd.call(req);
    if (steps) this.start(ch, steps);
    return ch;
  }

  /** PUT /sim/endpoints/{tech}/{resource}/script. */
  setForEndpoint(e: EndpointFixture, raw: unknown, calls: number | undefined): ReturnType<EndpointScripts['put']> {
    if (raw === undefined) throw badRequest('script is required: {"script": [{"wait_ms": 1000}, {"answer": true}]}');
    return this.endpoints.put(e, this.check(raw, false), calls ?? null);
  }

  /** We dial a fixture endpoint: its far end follows a script for this call if it has one (true: the script answers or refuses). */
  dialed(ch: Channel): boolean {
    const f = this.eng.fixtures.endpoints.get(ch.d.endpoint.toLowerCase());
    const steps = f && this.endpoints.claim(f);
    if (!steps) return false;
    this.start(ch, steps);
    return true;
  }

  /** A heard item ended on a channel: a wait_heard for that media moves on when it played out. */
  heardEnded(ch: Channel, item: ModelOf<typeof HeardItem>): void {
    const s = ch.d.script;
    if (s?.state !== 'waiting' || item.completed !== true) return;
    const [key, value] = stepEntry(s.steps[s.position]!);
    if (key !== 'wait_heard' || value !== item.media) return;
    s.state = 'running';
    delete s.waitingFor;
    this.eng.schedule(ch, 'script', 0, { position: s.position, why: 'heard' } satisfies Wake);
  }

  private start(ch: Channel, steps: ScriptStep[]): void {
    ch.d.script = { steps, position: 0, state: 'running' };
    this.eng.touch(ch);
    // The first step runs on a later turn, after what placed the call has been answered and announced.
    this.eng.schedule(ch, 'script', 0, { position: 0, why: 'start' } satisfies Wake);
  }

  private wake(ch: Channel, w: Wake): void {
    const s = ch.d.script;
    if (!s || s.position !== w.position || s.state === 'done' || s.state === 'ended') return;
    // Silence broken since the timer was set: the commit hook sets it again once it is quiet.
    if (w.why === 'silence' && !this.quiet(ch)) return;
    // The last digit's own timer is due at the same instant but was set later: let it go first.
    if (w.why === 'dtmf' && this.eng.hasTimer(ch, 'farDtmf')) {
      this.eng.schedule(ch, 'script', 0, w);
      return;
    }
    if (w.why !== 'start') s.position++;
    this.run(ch, s);
  }

  /** Carries out steps from the current position until one has to wait, or none is left. */
  private run(ch: Channel, s: ScriptRun): void {
    this.silence.delete(ch);
    delete s.waitingFor;
    s.state = 'running';
    this.eng.touch(ch);
    for (; s.position < s.steps.length; s.position++) {
      if (ch.d.ended !== null || ch.rt.hangingUp) return this.end(ch, s, 'The call has ended');
      let waits: boolean;
      this.acting.add(ch);
      try {
        waits = this.act(ch, s, s.steps[s.position]!);
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        return this.end(ch, s, err.message);
      } finally {
        this.acting.delete(ch);
      }
      if (waits) return;
    }
    s.state = 'done';
  }

  /** Carries out one step; true when the script waits for a timer or an event before the next. */
  private act(ch: Channel, s: ScriptRun, step: ScriptStep): boolean {
    const [key, value] = stepEntry(step);
    const wait = (why: Wake['why'], ms: number | null, state: ScriptRun['state'], what?: string): true => {
      s.state = state;
      if (what !== undefined) s.waitingFor = what;
      if (ms !== null) this.eng.schedule(ch, 'script', ms, { position: s.position, why } satisfies Wake);
      return true;
    };
    const id = ch.id;
    switch (key) {
      case 'wait_ms':
        return wait('wait', value as number, 'waiting', `${value as number} ms`);
      case 'wait_heard':
        return wait('heard', null, 'waiting', value as string);
      case 'wait_silence_ms':
        this.silence.add(ch);
        return wait('silence', this.quiet(ch) ? (value as number) : null, 'waiting', `${value as number} ms of silence`);
      case 'answer':
        this.farEnd.answer(id);
        return false;
      case 'reject':
        this.farEnd.reject(id, value as number);
        return false;
      case 'hangup':
        this.farEnd.hangup(id, value as number, undefined);
        return false;
      case 'dtmf': {
        const digits = value as string;
        this.farEnd.dtmf(id, digits, DIGIT_MS, DIGIT_MS);
        return wait('dtmf', digits.length * DIGIT_MS + (digits.length - 1) * GAP_MS, 'running');
      }
      case 'play':
        return this.play(ch, value as string, wait);
      case 'talk':
        this.farEnd.talk(id, value as boolean);
        // A tone the far end plays goes on until its next play, or until it stops talking.
        if (value === false && ch.d.far.audio.kind === 'tone') this.farEnd.setAudio(id, 'silence', { loop: false });
        return false;
      case 'hold':
        this.farEnd.hold(id, value as boolean);
        return false;
    }
  }

  /** The far end speaks a sound or a recording (the next step waits until it is spoken), or starts a tone (it goes on). */
  private play(ch: Channel, uri: string, wait: (why: Wake['why'], ms: number | null, state: ScriptRun['state']) => true): boolean {
    const { scheme, id } = mediaOf(uri);
    if (scheme === 'tone') {
      this.farEnd.setAudio(ch.id, 'tone', { tone: toneList(this.eng.fixtures, id), loop: false });
      return false;
    }
    let samples: Int16Array | undefined;
    if (scheme === 'sound') {
      this.farEnd.setAudio(ch.id, 'sound', { sound: id, loop: false });
      samples = soundAudio(this.eng.fixtures.sounds.get(id), ch.d.language);
    } else {
      samples = this.recordings.audio(id);
      if (!samples) throw notFound(`Recording not found: ${id}`);
      this.farEnd.uploadAudio(ch.id, { contentType: 'audio/x-sln', data: slinBytes(samples) }, false);
    }
    return wait('play', Math.round(audioMs(samples ?? new Int16Array(0))), 'running');
  }

  private end(ch: Channel, s: ScriptRun, reason: string): void {
    s.state = 'ended';
    s.reason = reason;
    this.silence.delete(ch);
    this.eng.touch(ch);
  }

  private hungUp(ch: Channel): void {
    const s = ch.d.script;
    if (s && !this.acting.has(ch) && (s.state === 'running' || s.state === 'waiting')) this.end(ch, s, 'The call has ended');
  }

  private waitsForSilence(ch: Channel): boolean {
    const s = ch.d.script;
    return s?.state === 'waiting' && stepEntry(s.steps[s.position]!)[0] === 'wait_silence_ms';
  }

  /** After each commit: a script waiting for silence starts counting once it is quiet, and starts over when it is not. */
  private checkSilence(): void {
    for (const ch of this.silence) {
      if (ch.d.ended !== null || !this.waitsForSilence(ch)) {
        this.silence.delete(ch);
        continue;
      }
      const quiet = this.quiet(ch);
      const counting = this.eng.hasTimer(ch, 'script');
      if (quiet && !counting) {
        const ms = stepEntry(ch.d.script!.steps[ch.d.script!.position]!)[1] as number;
        this.eng.schedule(ch, 'script', ms, { position: ch.d.script!.position, why: 'silence' } satisfies Wake);
      } else if (!quiet && counting) this.eng.cancel(ch, 'script');
    }
  }
}
