import { audioMs, soundAudio } from '../fixtures.js';
import type { Broadcasts, ClaimedCallPort } from './broadcasts.js';
import type { Calls } from './calls.js';
import { CAUSE } from './causes.js';
import type { Channel } from './channel.js';
import type { DialplanStarter } from './dialplan-starter.js';
import { findExtension, findLabel, type Priority } from './dialplan.js';
import type { DialplanTransfers } from './dialplan-transfers.js';
import type { Engine } from './engine.js';
import { enterPerCallStasis } from './per-call-stasis.js';
import { dialplanUserEvent } from './user-events.js';
import { splitArgs, type Variables } from './variables.js';

/** What a dialplan application tells the interpreter to do next. */
type Step =
  | { next: true }
  | { goto: { context: string; exten: string; priority: number } }
  | { wait: true } // something else (a timer, Stasis, a hangup) resumes or ends the channel
  | { hangup: number };

/**
 * After a timed app finishes, what to do (kept in the timer so a restart
 * resumes it); `set` writes a status variable first (PLAYBACKSTATUS is set
 * when the playback ends, as app_playback does).
 */
type Resume = {
  then: 'next' | 'stopMoh' | 'same' | 'broadcastTimeout';
  /** The step was a Playback(): its sound ends now. */
  endSound?: boolean;
  set?: [string, string];
  /** Several status variables, written in order (Transfer()). */
  sets?: Array<[string, string]>;
  /** The far end hangs up with this cause once the dialplan has moved on (after a transfer sent it elsewhere). */
  farHangup?: number;
};

/** How the dialplan's Playback() sounds on a channel (the playbacks' quiet kind, wired in telephony.ts). */
export interface DialplanSound {
  /** The sounds (media URIs) start now, one after another, towards the channel's far end. */
  play(ch: Channel, uris: string[]): void;
  /** The Playback()'s time is up: what still sounds ends, played out. */
  end(ch: Channel): void;
}

/** Priorities run in one go before yielding to the event loop, so a Goto loop cannot starve it. */
const STEPS_PER_TURN = 1000;
const NEXT: Step = { next: true };
const WAIT: Step = { wait: true };

/**
 * The dialplan interpreter: runs a channel from context/exten/priority,
 * one application at a time, with the timing of the apps that take time.
 */
export class Pbx implements DialplanStarter, ClaimedCallPort {
  constructor(
    private readonly eng: Engine,
    private readonly vars: Variables,
    private readonly calls: Calls,
    private readonly broadcasts: Pick<Broadcasts, 'offer' | 'end'>,
    private readonly transfers: Pick<DialplanTransfers, 'transfer' | 'blindTransfer'>,
    private readonly sound: DialplanSound,
  ) {
    eng.onTimer('pbx', (ch, data) => this.resume(ch, (data ?? { then: 'next' }) as Resume));
  }

  /** Starts (or restarts) the dialplan at a location. */
  start(ch: Channel, context: string, exten: string, priority: number): void {
    ch.d.pbx = true;
    ch.d.dialplan.context = context;
    ch.d.dialplan.exten = exten;
    this.run(ch, priority);
  }

  /** Starts the dialplan on the next turn, so the caller's answer (e.g. an inbound call's 200 in Ring) goes first. */
  startSoon(ch: Channel, context: string, exten: string, priority: number): void {
    ch.d.pbx = true;
    ch.d.dialplan.context = context;
    ch.d.dialplan.exten = exten;
    ch.d.dialplan.priority = priority;
    this.eng.schedule(ch, 'pbx', 0, { then: 'same' } satisfies Resume);
  }

  private resume(ch: Channel, r: Resume): void {
    if (r.endSound) this.sound.end(ch);
    if (!ch.d.pbx || ch.inStasis) return;
    if (r.set) this.vars.write(ch, r.set[0], r.set[1]);
    for (const [k, val] of r.sets ?? []) this.vars.write(ch, k, val);
    if (r.farHangup !== undefined) this.eng.schedule(ch, 'farHangup', 0, r.farHangup);
    if (r.then === 'broadcastTimeout') {
      // Nobody claimed the call in time: the offer ends and the dialplan goes on.
      this.broadcasts.end(ch);
      this.vars.write(ch, 'STASISSTATUS', 'TIMEOUT');
    }
    if (r.then === 'stopMoh') {
      ch.d.media.moh = null;
      this.eng.touch(ch);
    }
    this.run(ch, r.then === 'same' ? ch.d.dialplan.priority : ch.d.dialplan.priority + 1);
  }

  /** Continues after Stasis returns (ARI continue): runs from wherever the location now points. */
  continueAt(ch: Channel, context: string, exten: string, priority: number): void {
    // A call that came through StasisBroadcast() is no longer on offer once back in the dialplan.
    this.broadcasts.end(ch);
    this.vars.write(ch, 'STASISSTATUS', 'SUCCESS');
    this.start(ch, context, exten, priority);
  }

  /**
   * A call StasisBroadcast() offered was claimed: it enters the winner as
   * Stasis() would put it there. When it cannot (the winner has no socket)
   * the offer ends and the dialplan goes on with STASISSTATUS=FAILED.
   */
  claimed(ch: Channel, app: string, args: string[]): void {
    this.eng.cancel(ch, 'pbx');
    if (this.calls.enterStasis(ch, app, args)) return;
    this.broadcasts.end(ch);
    this.eng.schedule(ch, 'pbx', 0, { then: 'next', set: ['STASISSTATUS', 'FAILED'] } satisfies Resume);
  }

  private run(ch: Channel, priority: number): void {
    let prio = priority;
    for (let i = 0; i < STEPS_PER_TURN; i++) {
      if (ch.d.ended !== null || !ch.d.pbx) return;
      const { context, exten } = ch.d.dialplan;
      const p = findExtension(this.eng.fixtures.dialplan, context, exten)?.priorities.get(prio);
      if (!p) {
        // Falling off the end of an extension hangs up, as Asterisk's autofallthrough.
        return this.calls.hangup(ch, { by: 'none', cause: ch.d.hangupCause ?? CAUSE.NORMAL });
      }
      const data = this.vars.substitute(ch, p.data);
      this.calls.setLocation(ch, { priority: prio, appName: p.app, appData: data });
      const step = this.exec(ch, p, data);
      if ('next' in step) prio++;
      else if ('goto' in step) {
        const g = step.goto;
        ch.d.dialplan.context = g.context;
        ch.d.dialplan.exten = g.exten;
        prio = g.priority;
      } else if ('hangup' in step) return this.calls.hangup(ch, { by: 'none', cause: step.hangup });
      else return;
    }
    ch.d.dialplan.priority = prio;
    this.eng.schedule(ch, 'pbx', 0, { then: 'same' } satisfies Resume);
  }

  /** Waits `simMs` then carries on (the timer is stored, so a restart resumes the wait). */
  private after(ch: Channel, simMs: number, then: Resume = { then: 'next' }): Step {
    this.eng.schedule(ch, 'pbx', simMs, then);
    return WAIT;
  }

  /** `[[context,]exten,]priority|label` relative to where the channel is. */
  private target(ch: Channel, spec: string): Step {
    const parts = splitArgs(spec).map((s) => s.trim());
    let { context, exten } = ch.d.dialplan;
    let label: string;
    if (parts.length >= 3) [context, exten, label] = parts as [string, string, string];
    else if (parts.length === 2) [exten, label] = parts as [string, string];
    else label = parts[0] ?? '';
    const priority = label ? findLabel(this.eng.fixtures.dialplan, context, exten, label) : undefined;
    if (priority === undefined || priority < 1) return { hangup: CAUSE.NORMAL };
    return { goto: { context, exten, priority } };
  }

  private soundsDuration(ch: Channel, files: string[]): number | undefined {
    let total = 0;
    for (const f of files) {
      const audio = soundAudio(this.eng.fixtures.sounds.get(f.trim()), ch.d.language);
      if (!audio) return undefined;
      total += audioMs(audio);
    }
    return total;
  }

  /** Indicates busy/congestion: a Local first half sees its dial fail; a real far end hangs up shortly. */
  private refuse(ch: Channel, cause: number): Step {
    const peer = this.calls.peerOf(ch);
    if (peer && ch.d.localHalf === 2 && this.calls.isAwaitingAnswer(peer)) {
      this.calls.farRejected(peer, cause);
      return WAIT;
    }
    this.eng.schedule(ch, 'farHangup', 500, cause);
    return WAIT;
  }

  private exec(ch: Channel, p: Priority, data: string): Step {
    const args = splitArgs(data);
    switch (p.app) {
      case 'Answer':
        this.calls.answer(ch);
        return NEXT;
      case 'Wait': {
        const s = Number(args[0]);
        return Number.isFinite(s) && s > 0 ? this.after(ch, s * 1000) : NEXT;
      }
      case 'Playback': {
        const files = (args[0] ?? '').split('&').filter(Boolean);
        const options = args[1] ?? '';
        if (!options.includes('noanswer')) this.calls.answer(ch);
        const ms = this.soundsDuration(ch, files);
        if (ms === undefined || ms === 0) {
          this.vars.write(ch, 'PLAYBACKSTATUS', ms === undefined ? 'FAILED' : 'SUCCESS');
          return NEXT;
        }
        this.sound.play(ch, files.map((f) => `sound:${f.trim()}`));
        return this.after(ch, ms, { then: 'next', set: ['PLAYBACKSTATUS', 'SUCCESS'], endSound: true });
      }
      case 'Stasis': {
        const [app = '', ...appArgs] = args;
        if (this.calls.enterStasis(ch, app.trim(), appArgs)) return WAIT;
        // An app served by per-call connections: the channel waits while one opens, then enters it;
        // when none can be opened the dialplan goes on as below.
        const { priority } = ch.d.dialplan;
        const waiting = () => ch.d.pbx && ch.d.dialplan.priority === priority;
        const notConnected = () => this.eng.log.warn({ channel: ch.id, name: ch.d.name, app: app.trim() }, 'Stasis() failed: the application has no WebSocket connected; the dialplan goes on');
        const failed = () => {
          notConnected();
          this.vars.write(ch, 'STASISSTATUS', 'FAILED');
          this.run(ch, priority + 1);
        };
        if (enterPerCallStasis(this.eng, (...a) => this.calls.enterStasis(...a), ch, app.trim(), appArgs, waiting, failed)) return WAIT;
        notConnected();
        this.vars.write(ch, 'STASISSTATUS', 'FAILED');
        return NEXT;
      }
      case 'StasisBroadcast':
        // STASISSTATUS is emptied first; TIMEOUT is set when the window closes unclaimed.
        this.vars.write(ch, 'STASISSTATUS', '');
        return this.after(ch, this.broadcasts.offer(ch, args), { then: 'broadcastTimeout' });
      case 'Hangup': {
        const cause = Number(args[0]);
        return { hangup: Number.isInteger(cause) && cause > 0 ? cause : ch.d.hangupCause ?? CAUSE.NORMAL };
      }
      case 'Goto':
        return this.target(ch, data);
      case 'GotoIf': {
        const q = data.indexOf('?');
        if (q < 0) return NEXT;
        const cond = data.slice(0, q).trim();
        const [ifTrue = '', ifFalse = ''] = data.slice(q + 1).split(':');
        const dest = cond !== '' && cond !== '0' ? ifTrue : ifFalse;
        return dest.trim() ? this.target(ch, dest) : NEXT;
      }
      case 'Set': {
        const eq = data.indexOf('=');
        if (eq > 0) {
          try {
            this.vars.write(ch, data.slice(0, eq).trim(), data.slice(eq + 1));
          } catch (err) {
            this.eng.log.warn({ channel: ch.id, err: (err as Error).message }, 'Set() failed');
          }
        }
        return NEXT;
      }
      case 'UserEvent':
        // Without arguments the application fails, which ends the call (app_userevent returns -1).
        if (!data) return { hangup: ch.d.hangupCause ?? CAUSE.NORMAL };
        this.eng.emitChannel(ch, 'ChannelUserevent', dialplanUserEvent(args));
        return NEXT;
      case 'NoOp':
      case 'Verbose':
      case 'Log':
        return NEXT;
      case 'Echo':
        this.calls.answer(ch);
        return WAIT;
      case 'Ringing': {
        const peer = this.calls.peerOf(ch);
        if (peer && ch.d.localHalf === 2) this.calls.farRinging(peer);
        else if (ch.d.state !== 'Up') {
          ch.d.media.ringing = true;
          this.eng.touch(ch);
        }
        return NEXT;
      }
      case 'Progress': {
        const peer = this.calls.peerOf(ch);
        if (peer && ch.d.localHalf === 2) this.calls.farProgress(peer);
        return NEXT;
      }
      case 'Transfer': {
        // The application waits for the far end's answer to the REFER; the variables are set when it comes.
        const out = this.transfers.transfer(ch, data);
        return this.after(ch, out.afterMs, { then: 'next', sets: out.sets, ...(out.farHangup !== undefined ? { farHangup: out.farHangup } : {}) });
      }
      case 'BlindTransfer':
        this.vars.write(ch, 'BLINDTRANSFERSTATUS', this.transfers.blindTransfer(ch, data));
        return NEXT;
      case 'Busy':
        return this.refuse(ch, CAUSE.BUSY);
      case 'Congestion':
        return this.refuse(ch, CAUSE.CONGESTION);
      case 'MusicOnHold': {
        this.calls.answer(ch);
        const cls = args[0]?.trim() || 'default';
        ch.d.media.moh = this.eng.fixtures.mohClasses.has(cls) ? cls : 'default';
        ch.d.media.silence = false;
        this.eng.touch(ch);
        const s = Number(args[1]);
        return Number.isFinite(s) && s > 0 ? this.after(ch, s * 1000, { then: 'stopMoh' }) : WAIT;
      }
    }
  }
}
