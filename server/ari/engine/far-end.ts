import { badRequest, conflict, notFound } from '../../errors.js';
import { REASON_CAUSE } from './causes.js';
import type { Calls, InboundRequest } from './calls.js';
import type { Channel } from './channel.js';
import { checkDtmf, type Control } from './control.js';
import type { Engine } from './engine.js';

type FarDtmfStep = { digit: string; duration: number; delay: number };

/**
 * What only the far end of a call can do (the simulation API): place
 * inbound calls, answer, reject or hang up, press DTMF, hold, talk; and how
 * the far end perceives what we do to it.
 */
export class FarEnd {
  constructor(private readonly eng: Engine, private readonly calls: Calls, private readonly control: Control) {
    eng.onTimer('farDtmf', (ch, data) => this.dtmfStep(ch, data as FarDtmfStep[]));
  }

  private channel(id: string): Channel {
    const ch = this.eng.find(id);
    if (!ch) throw notFound('Channel not found');
    return ch;
  }

  call(req: InboundRequest): Channel {
    return this.calls.inbound(req);
  }

  /** The SimChannel view: the ARI snapshot plus the far end's perception. */
  view(id: string): Record<string, unknown> {
    const ch = this.channel(id);
    const { media, far } = ch.d;
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
      },
    };
  }

  answer(id: string): void {
    const ch = this.channel(id);
    if (ch.d.tech === 'Local' || !this.calls.isAwaitingAnswer(ch)) throw conflict('Channel is not an outgoing call waiting for an answer');
    this.calls.farAnswered(ch);
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
    this.eng.emitChannel(ch, 'ChannelDtmfReceived', { digit: step.digit, duration_ms: step.duration });
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
      far.talkSince = Date.now();
      this.eng.touch(ch);
      if (ch.d.flags.talkDetect) this.eng.emitChannel(ch, 'ChannelTalkingStarted');
    } else {
      const duration = Math.round((Date.now() - (far.talkSince ?? Date.now())) * this.eng.timeScale);
      far.talkSince = null;
      this.eng.touch(ch);
      if (ch.d.flags.talkDetect) this.eng.emitChannel(ch, 'ChannelTalkingFinished', { duration });
    }
  }
}
