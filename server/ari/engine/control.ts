import { badRequest, conflict, invalidState, notFound, unprocessable } from '../../errors.js';
import { REASON_CAUSE } from './causes.js';
import type { Calls } from './calls.js';
import { resolveLabel } from './dialplan.js';
import type { Channel, DtmfStep, QueuedCommand } from './channel.js';
import type { Engine } from './engine.js';
import type { Pbx } from './pbx.js';
import type { Variables } from './variables.js';
import { VariableAccess } from './variable-access.js';
import { pushFarDtmf } from './far-dtmf.js';

export interface DtmfTiming {
  before: number;
  between: number;
  duration: number;
  after: number;
}

const DTMF_DIGIT = /^[0-9*#A-Da-d]$/;

/** The SIP status of the NOTIFY each transfer_progress state sends: trying, success, unavailable, declined. */
const TRANSFER_NOTIFY_STATUS: Record<string, number> = { channel_progress: 100, channel_answered: 200, channel_unavailable: 503, channel_declined: 603 };

/** Validates a DTMF string (digits, plus `w`/`W` pauses of 500/1000 ms as Asterisk's DTMF streamer). */
export function checkDtmf(dtmf: string, pauses: boolean): void {
  for (const c of dtmf) {
    if (!DTMF_DIGIT.test(c) && !(pauses && (c === 'w' || c === 'W'))) throw badRequest(`Invalid DTMF character '${c}' (0-9, A-D, *, #${pauses ? ', w, W' : ''} allowed)`);
  }
}

/**
 * ARI operations on existing channels: the 404/409/412 guards exactly as
 * Asterisk orders them, then a command on the channel's control queue.
 */
export class Control {
  /** Reading and writing channel variables through ARI, behind this class's guards. */
  readonly variables: VariableAccess;

  constructor(
    private readonly eng: Engine,
    private readonly calls: Calls,
    private readonly pbx: Pbx,
    vars: Variables,
    /** Runs before a channel goes back to the dialplan (it leaves its bridge first, as Asterisk's continue departs it). */
    private readonly beforeContinue: (ch: Channel) => void,
    /** Most variables setChannelVar may leave on one channel (ARI_MAX_CHANNEL_VARIABLES); replacing one is always allowed. */
    maxChannelVariables: number,
    /** Where transfer_progress reports go: the far end's NOTIFY list, then (with a state) a transfer left to the application. */
    private readonly transferReports: { notified(ch: Channel, status: number): void; reported(ch: Channel, state: string): void },
  ) {
    this.variables = new VariableAccess(eng, vars, this, maxChannelVariables);
    eng.onTimer('dtmf', (ch, data) => this.dtmfStep(ch, data as DtmfStep[]));
    eng.onCommand((ch, cmd) => this.run(ch, cmd));
  }

  /** Runs a queued command when its turn comes (also after a restart, from the channel's record). */
  private run(ch: Channel, cmd: QueuedCommand): void | Promise<void> {
    switch (cmd.kind) {
      case 'ring':
        ch.d.media.ringing = cmd.on;
        this.eng.touch(ch);
        return;
      case 'hold':
        return this.indicateHold(ch, cmd.on);
      case 'mute':
        if (cmd.direction !== 'out') ch.d.media.mutedIn = cmd.on;
        if (cmd.direction !== 'in') ch.d.media.mutedOut = cmd.on;
        this.eng.touch(ch);
        return;
      case 'moh':
        ch.d.media.moh = cmd.mohClass;
        if (cmd.mohClass !== null) ch.d.media.silence = false;
        this.eng.touch(ch);
        return;
      case 'silence':
        ch.d.media.silence = cmd.on;
        if (cmd.on) ch.d.media.moh = null;
        this.eng.touch(ch);
        return;
      case 'dtmf':
        return new Promise<void>((resolve) => {
          ch.rt.dtmfDone = resolve;
          this.eng.schedule(ch, 'dtmf', cmd.steps[0]!.delay, cmd.steps);
        });
      case 'move':
        return this.calls.move(ch, cmd.app, cmd.args);
      case 'continue':
        this.beforeContinue(ch);
        this.calls.leaveStasis(ch);
        this.pbx.continueAt(ch, cmd.context, cmd.exten, cmd.priority);
        return;
      case 'progress': {
        ch.d.far.progress = true;
        this.eng.touch(ch);
        // The dialplan half of a Local pair passes it on: the half that placed the call sees Dial PROGRESS.
        const peer = this.calls.peerOf(ch);
        if (peer && ch.d.localHalf === 2) this.calls.farProgress(peer);
        return;
      }
      case 'transferProgress':
        this.transferReports.notified(ch, cmd.status);
        if (cmd.state) this.transferReports.reported(ch, cmd.state);
        return;
    }
  }

  // ---- guards ---------------------------------------------------------------------

  /** Any live channel, by id or name. */
  channel(id: string): Channel {
    const ch = this.eng.find(id);
    if (!ch) throw notFound('Channel not found');
    return ch;
  }

  /** A channel in a Stasis application (404, else 409). */
  controlled(id: string): Channel {
    const ch = this.channel(id);
    if (!ch.inStasis) throw conflict('Channel not in Stasis application');
    return ch;
  }

  /** A controlled channel whose state allows media and dialplan operations (Down, Rsrvd and Ringing do not: 412). */
  ready(id: string): Channel {
    const ch = this.controlled(id);
    if (ch.state === 'Down' || ch.state === 'Rsrved' || ch.state === 'Ringing') throw invalidState('Channel in invalid state');
    return ch;
  }

  // ---- operations -------------------------------------------------------------------

  /** Current Asterisk's order and texts: the channel first, then exclusivity, then the code (any integer) or the reason. */
  hangup(id: string, reason: string | undefined, reasonCode: string | undefined): void {
    const ch = this.channel(id);
    if (reason && reasonCode) throw badRequest('The reason and reason_code can\'t both be specified');
    let cause = REASON_CAUSE.normal!;
    if (reasonCode) {
      const m = /^\s*([-+]?\d+)/.exec(reasonCode);
      if (!m || !Number.isSafeInteger(Number(m[1]))) throw badRequest('Invalid reason for hangup reason code provided');
      cause = Number(m[1]);
    } else if (reason) {
      const c = Object.hasOwn(REASON_CAUSE, reason) ? REASON_CAUSE[reason] : undefined;
      if (c === undefined) throw badRequest('Invalid reason for hangup reason provided');
      cause = c;
    }
    this.calls.hangup(ch, { by: 'api', cause });
  }

  /** Answer waits for the command queue (it is synchronous in Asterisk). */
  answer(id: string): Promise<void> {
    const ch = this.ready(id);
    return this.eng.enqueue(ch, () => this.calls.answer(ch));
  }

  ring(id: string, on: boolean): void {
    this.eng.enqueueCommand(this.ready(id), { kind: 'ring', on });
  }

  /** Early media indication (183) toward the far end; guarded like ring. */
  progress(id: string): void {
    this.eng.enqueueCommand(this.ready(id), { kind: 'progress' });
  }

  /**
   * Reports a transfer's progress to the far end that asked for it: the
   * SIP status its NOTIFY carries (our simulation's choice of codes, see
   * TRANSFER_NOTIFY_STATUS). Only the 404/409 guards apply, not the state one.
   */
  transferProgress(id: string, states: string | undefined): void {
    const ch = this.controlled(id);
    if (!states) throw badRequest('states is required');
    const status = Object.hasOwn(TRANSFER_NOTIFY_STATUS, states) ? TRANSFER_NOTIFY_STATUS[states] : undefined;
    if (status === undefined) throw badRequest(`Invalid states value '${states}'`);
    this.eng.enqueueCommand(ch, { kind: 'transferProgress', status, state: states });
  }

  /**
   * Hold indicates hold to the far end. With HOLD_INTERCEPT(set) the
   * indication is intercepted and raised as ChannelHold/Unhold instead; the
   * second half of a Local pair receives it as its own far end's hold.
   */
  hold(id: string, on: boolean): void {
    this.eng.enqueueCommand(this.ready(id), { kind: 'hold', on });
  }

  private indicateHold(ch: Channel, on: boolean): void {
    if (ch.d.flags.holdIntercept) {
      this.eng.emitChannel(ch, on ? 'ChannelHold' : 'ChannelUnhold', on ? { musicclass: 'N/A' } : {});
      return;
    }
    ch.d.media.hold = on;
    this.eng.touch(ch);
    const peer = this.calls.peerOf(ch);
    if (peer) this.receiveHold(peer, on, undefined);
  }

  /** The far end put this channel on hold (or took it off). */
  receiveHold(ch: Channel, on: boolean, musicclass: string | undefined): void {
    ch.d.far.holding = on;
    this.eng.touch(ch);
    this.eng.emitChannel(ch, on ? 'ChannelHold' : 'ChannelUnhold', on ? { musicclass: musicclass || 'N/A' } : {});
  }

  mute(id: string, direction: string, on: boolean): void {
    const ch = this.ready(id);
    if (!direction) throw badRequest('Direction is required');
    if (direction !== 'both' && direction !== 'in' && direction !== 'out') throw badRequest('Invalid direction specified');
    this.eng.enqueueCommand(ch, { kind: 'mute', direction: direction as 'in' | 'out' | 'both', on });
  }

  /** Music on hold replaces silence; an unknown class falls back to "default", as Asterisk's res_musiconhold. */
  moh(id: string, mohClass: string | undefined, on: boolean): void {
    const ch = this.ready(id);
    const cls = !on ? null : mohClass && this.eng.fixtures.mohClasses.has(mohClass) ? mohClass : 'default';
    this.eng.enqueueCommand(ch, { kind: 'moh', mohClass: cls });
  }

  silence(id: string, on: boolean): void {
    this.eng.enqueueCommand(this.ready(id), { kind: 'silence', on });
  }

  /**
   * Sends DTMF to the far end: `before`, then each digit for `duration`
   * followed by `between`, then `after` (all simulated ms). The command holds
   * the control queue for that long, as Asterisk's does; the answer is 204 at once.
   */
  sendDtmf(id: string, dtmf: string | undefined, t: DtmfTiming): void {
    const ch = this.ready(id);
    if (!dtmf) throw badRequest('DTMF is required');
    checkDtmf(dtmf, true);
    const steps: DtmfStep[] = [];
    let pending = t.before;
    for (const c of dtmf) {
      if (c === 'w' || c === 'W') {
        pending += c === 'w' ? 500 : 1000;
        continue;
      }
      steps.push({ at: 'start', digit: c.toUpperCase(), duration: t.duration, delay: pending });
      steps.push({ at: 'end', digit: c.toUpperCase(), duration: t.duration, delay: t.duration });
      pending = t.between;
    }
    steps.push({ at: 'done', delay: pending + t.after });
    this.eng.enqueueCommand(ch, { kind: 'dtmf', steps });
  }

  private dtmfStep(ch: Channel, steps: DtmfStep[]): void {
    const [step, ...rest] = steps;
    if (!step) return;
    if (step.at === 'start') {
      pushFarDtmf(ch.d.far, { digit: step.digit, duration_ms: step.duration, offset_ms: Math.round(this.eng.clock.simSince(ch.d.created)) });
      this.eng.touch(ch);
    } else if (step.at === 'end') {
      // The other half of a Local pair receives what we send as its own DTMF.
      const peer = this.calls.peerOf(ch);
      if (peer) this.eng.dtmfReceived(peer, step.digit, step.duration);
    } else {
      ch.rt.dtmfDone?.();
      ch.rt.dtmfDone = null;
      return;
    }
    this.eng.schedule(ch, 'dtmf', rest[0]!.delay, rest);
  }

  /** ARI continue: the location rules of Asterisk's handler, then StasisEnd and the dialplan runs there. */
  continueInDialplan(id: string, a: { context?: string | undefined; extension?: string | undefined; priority?: number | undefined; label?: string | undefined }): void {
    const ch = this.ready(id);
    const cur = ch.d.dialplan;
    let context: string;
    let exten: string;
    if (!a.context) {
      context = cur.context;
      exten = a.extension || cur.exten;
    } else {
      context = a.context;
      exten = a.extension || 's';
    }
    let priority: number;
    if (a.label) priority = resolveLabel(this.eng.fixtures.dialplan, context, exten, a.label);
    else if (a.priority) {
      if (a.priority < 0) throw badRequest('Requested priority is illegal');
      priority = a.priority;
    } else if (!a.context && !a.extension) priority = cur.priority + 1;
    else priority = 1;
    this.eng.enqueueCommand(ch, { kind: 'continue', context, exten, priority });
  }

  /**
   * An asynchronous goto (TONE_DETECT's g and h): `[[context,]exten,]priority`
   * relative to where the channel is. A channel in an application leaves it
   * as with continue; one running the dialplan drops what it was doing. A
   * location that does not resolve is ignored, as Asterisk only logs it.
   */
  asyncGoto(ch: Channel, location: string): void {
    const parts = location.split(',').map((x) => x.trim());
    const [priorityOrLabel = '', exten = ch.d.dialplan.exten, context = ch.d.dialplan.context] = [...parts].reverse();
    let priority: number;
    try {
      priority = resolveLabel(this.eng.fixtures.dialplan, context, exten, priorityOrLabel);
    } catch {
      return;
    }
    if (ch.inStasis) this.eng.enqueueCommand(ch, { kind: 'continue', context, exten, priority });
    else if (ch.d.pbx) {
      this.eng.cancel(ch, 'pbx');
      this.pbx.start(ch, context, exten, priority);
    }
  }

  move(id: string, app: string, appArgs: string | undefined): void {
    // `app=` names no application: refused like a missing one (it would otherwise move the channel into "").
    if (!app) throw badRequest('Application name is required');
    const ch = this.controlled(id);
    const args = appArgs ? appArgs.split(',').filter(Boolean) : [];
    this.eng.enqueueCommand(ch, { kind: 'move', app, args });
  }

  /**
   * ARI redirect. A SIP far end is sent elsewhere (302/REFER) and then
   * leaves the call; for a Local channel the dialplan half is sent to the new
   * extension.
   */
  redirect(id: string, endpoint: string | undefined): Promise<void> {
    const ch = this.ready(id);
    if (!endpoint) throw badRequest('Required parameter \'endpoint\' not provided.');
    const slash = endpoint.indexOf('/');
    if (slash <= 0) throw unprocessable(`Endpoint parameter '${endpoint}' does not contain tech/resource`);
    const tech = endpoint.slice(0, slash);
    if (!endpoint.slice(slash + 1)) throw unprocessable(`No resource provided in endpoint parameter '${endpoint}'`);
    if (tech.toLowerCase() !== ch.d.tech.toLowerCase()) {
      throw unprocessable(`Endpoint technology '${tech}' does not match channel technology '${ch.d.tech}'`);
    }
    let target;
    try {
      target = this.calls.resolve(endpoint);
    } catch {
      throw notFound('Endpoint not found');
    }
    return this.eng.enqueue(ch, () => {
      ch.d.far.redirectedTo = endpoint;
      this.eng.touch(ch);
      const peer = this.calls.peerOf(ch);
      if (target.kind === 'local' && peer) {
        this.calls.leaveStasis(peer);
        this.pbx.start(peer, target.context, target.exten, 1);
      } else {
        this.eng.schedule(ch, 'farHangup', 200, ch.d.state === 'Up' ? 16 : 23);
      }
    });
  }

  dial(id: string, caller: string | undefined, timeout: number): void {
    const ch = this.controlled(id);
    this.calls.dial(ch, caller, timeout);
  }
}
