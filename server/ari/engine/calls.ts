import type { EndpointState } from '../../../protocol/ari/models/endpoint.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { EndpointFixture } from '../fixtures.js';
import { parseCallerId } from './callerid.js';
import { splitAppArgs, type HangupRequest, type InboundRequest, type NewCallRequest, type OriginateRequest, type Target } from './call-requests.js';
import { CAUSE, SOFTHANGUP_EXPLICIT, causeText, dialStatusForCause, sipStatusForCause } from './causes.js';
import type { EventProps } from './ari-models.js';
import type { AfterAnswer, Channel } from './channel.js';
import { EMPTY_PARTY, type ChannelFactory } from './channel-factory.js';
import { findExtension, resolveLabel } from './dialplan.js';
import type { DialplanStarter } from './dialplan-starter.js';
import type { Engine } from './engine.js';
import type { ChannelDriver } from './media-socket.js';
import { enterPerCallStasis } from './per-call-stasis.js';
import { noteDialResponse } from './sip-cause-codes.js';
import type { Variables } from './variables.js';

/**
 * Channel lifecycles: creating channels, dialing far ends (with real
 * timing from the endpoint fixtures), answering, entering and leaving
 * Stasis, and hanging up with the events Asterisk sends for each step.
 */
export class Calls {
  constructor(
    private readonly eng: Engine,
    private readonly vars: Variables,
    /** Where a channel goes when it runs dialplan (the Pbx). */
    private readonly pbx: DialplanStarter,
    /** Builds channels and runs the checks on their ids and formats. */
    private readonly make: ChannelFactory,
    /** Channels whose far end is a driver of ours (a media WebSocket) rather than an endpoint fixture. */
    private readonly driver: ChannelDriver,
    /** Whether an endpoint can be reached now (its registrations); the fixture's state by default. */
    private readonly endpointState: (f: EndpointFixture) => EndpointState = (f) => f.state,
    /** Whether an endpoint's calls fail to reach us (the endpoint_unreachable fault). */
    private readonly unreachable: (f: EndpointFixture) => boolean = () => false,
    /** Starts the script the endpoint's far end follows for this call, if it has one: true when it did (it answers or refuses then). */
    private readonly scripted: (ch: Channel) => boolean = () => false,
  ) {
    eng.onTimer('dialStart', (ch, data) => this.startDial(ch, (data as { timeoutMs: number | null }).timeoutMs));
    eng.onTimer('stasisStart', (ch, data) => this.createdEnterStasis(ch, data as { app: string; args: string[]; varsets: string[] }));
    eng.onTimer('ring', (ch) => this.farRinging(ch));
    eng.onTimer('answer', (ch) => this.farAnswered(ch));
    eng.onTimer('reject', (ch, cause) => this.farRejected(ch, cause as number));
    eng.onTimer('dialTimeout', (ch) => this.dialTimedOut(ch));
    eng.onTimer('farHangup', (ch, cause) => this.hangup(ch, { by: 'far', cause: cause as number }));
    eng.onTimer('stasisEnter', (ch, data) => {
      const { app, args } = data as { app: string; args: string[] };
      this.setLocation(ch, { appName: 'Stasis', appData: [app, ...args].join(',') });
      if (!this.enterStasis(ch, app, args)) this.hangup(ch, { by: 'none', cause: CAUSE.NORMAL });
    });
  }

  /** Resolves `TECH/resource` (see ChannelFactory). */
  resolve(endpoint: string): Target {
    return this.make.resolve(endpoint);
  }

  /** A channel that exists only inside the server and starts answered (see ChannelFactory). */
  createInternal(p: Parameters<ChannelFactory['createInternal']>[0]): Channel {
    return this.make.createInternal(p);
  }

  peerOf(ch: Channel): Channel | undefined {
    return ch.d.peer ? this.eng.find(ch.d.peer) : undefined;
  }

  /** POST /channels: validates in Asterisk's order, creates the channel, and dials it once the answer is sent. */
  originate(req: OriginateRequest): Channel {
    this.make.checkIds(req.channelId, req.otherChannelId);
    if (!req.endpoint) throw badRequest('Endpoint must be specified');
    const formats = this.make.checkOriginatorAndFormats(req);
    const dialplanParams = [req.extension, req.context, req.priority, req.label].some((x) => x !== undefined && x !== '');
    // The spec makes these exclusive; Asterisk silently prefers app.
    if (req.app && dialplanParams) throw badRequest('\'app\' is mutually exclusive with \'extension\', \'context\', \'priority\' and \'label\'');
    if (req.appArgs && dialplanParams) throw badRequest('\'appArgs\' is mutually exclusive with \'extension\', \'context\', \'priority\' and \'label\'');
    if (req.timeout < -1) throw badRequest('timeout must be -1 (no timeout) or a number of seconds');
    const target = this.make.resolve(req.endpoint);
    let after: AfterAnswer;
    if (req.app) after = { kind: 'app', app: req.app, args: splitAppArgs(req.appArgs) };
    else if (req.extension) {
      const context = req.context || 'default';
      let priority = req.priority && req.priority > 0 ? req.priority : 1;
      if (req.label) {
        priority = resolveLabel(this.eng.fixtures.dialplan, context, req.extension, req.label);
      }
      after = { kind: 'dialplan', context, exten: req.extension, priority };
    } else throw badRequest('Application or extension must be specified');
    this.make.checkDuplicates(target, req.channelId, req.otherChannelId);

    const caller = req.callerId ? parseCallerId(req.callerId) : { ...EMPTY_PARTY };
    const ch = this.make.allocate(target, req.channelId, req.otherChannelId, formats, caller);
    if (req.callerId) ch.d.connected = { ...caller };
    this.make.applyVariables(ch, req.variables);
    if (req.app) {
      this.eng.subscribe(ch, req.app);
      const peer = this.peerOf(ch);
      if (peer) this.eng.subscribe(peer, req.app);
    }
    const timeoutMs = req.timeout === -1 ? null : (req.timeout > 0 ? req.timeout : 30) * 1000;
    ch.d.dialing = { dialstring: target.resource, caller: null, after };
    this.eng.schedule(ch, 'dialStart', 0, { timeoutMs });
    return ch;
  }

  /** POST /channels/create: the channel enters the app at once (still Down) and waits for /dial. */
  create(req: NewCallRequest & { app: string; appArgs?: string | undefined }): Channel {
    this.make.checkIds(req.channelId, req.otherChannelId);
    if (!req.endpoint) throw badRequest('Endpoint must be specified');
    if (!req.app) throw badRequest('Application must be specified');
    const formats = this.make.checkOriginatorAndFormats(req);
    const target = this.make.resolve(req.endpoint);
    this.make.checkDuplicates(target, req.channelId, req.otherChannelId);
    const ch = this.make.allocate(target, req.channelId, req.otherChannelId, formats, { ...EMPTY_PARTY });
    ch.d.dialable = true;
    ch.d.dialResource = target.resource;
    this.eng.subscribe(ch, req.app);
    if (req.originator) {
      const o = this.eng.find(req.originator);
      if (o) this.eng.subscribe(o, req.app);
    }
    // Variables are set now (the answer shows them); their ChannelVarset events follow the 200, as in Asterisk.
    const varsets = (req.variables ?? []).map((v) => v.name);
    for (const v of req.variables ?? []) {
      if (v.name.endsWith(')')) {
        try {
          this.vars.write(ch, v.name, v.value, v.reportEvents);
        } catch (err) {
          throw badRequest((err as Error).message);
        }
      } else {
        ch.d.vars[v.name] = v.value;
        if (v.reportEvents) ch.d.reported.push(v.name);
      }
    }
    this.eng.touch(ch);
    this.eng.schedule(ch, 'stasisStart', 0, { app: req.app, args: splitAppArgs(req.appArgs), varsets });
    return ch;
  }

  private createdEnterStasis(ch: Channel, data: { app: string; args: string[]; varsets: string[] }): void {
    for (const name of data.varsets) if (!name.endsWith(')')) this.eng.emitChannel(ch, 'ChannelVarset', { variable: name, value: ch.d.vars[name] ?? '' });
    this.setLocation(ch, { appName: 'Stasis', appData: [data.app, ...data.args].join(',') });
    this.enterOrHangup(ch, data.app, data.args);
  }

  /** Stasis for an originate or create (both run Stasis() in Asterisk): the app, else a per-call connection opened for the channel, else it is hung up. */
  private enterOrHangup(ch: Channel, app: string, args: string[]): void {
    const fail = () => {
      this.eng.log.warn({ channel: ch.id, name: ch.d.name, app }, 'channel hung up: its Stasis application has no WebSocket connected');
      this.hangup(ch, { by: 'none', cause: CAUSE.NORMAL });
    };
    if (!this.enterStasis(ch, app, args) && !enterPerCallStasis(this.eng, (...a) => this.enterStasis(...a), ch, app, args, () => true, fail)) fail();
  }

  /** POST /channels/{id}/dial for a channel made by create. */
  dial(ch: Channel, callerId: string | undefined, timeoutS: number): void {
    if (ch.d.state !== 'Down' && ch.d.state !== 'Rsrved') throw conflict('Channel is not in the \'Down\' state');
    if (!ch.d.dialable) throw conflict('Dialing a channel not created by ARI');
    const caller = callerId ? this.eng.find(callerId) : undefined;
    if (caller) {
      for (const [k, val] of Object.entries(caller.d.vars)) if (k.startsWith('_')) ch.d.vars[k] = val;
      ch.d.connected = { ...caller.d.caller };
      ch.d.language = caller.d.language;
    }
    ch.d.dialable = false;
    ch.d.dialing = { dialstring: ch.d.dialResource ?? ch.d.endpoint.slice(ch.d.endpoint.indexOf('/') + 1), caller: caller?.id ?? null, after: { kind: 'stay' } };
    this.eng.touch(ch);
    this.startDial(ch, timeoutS > 0 ? timeoutS * 1000 : null);
  }

  // ---- dialing ---------------------------------------------------------------------

  private dialEvent(ch: Channel, dialstatus: string): void {
    const d = ch.d.dialing;
    if (noteDialResponse(ch, dialstatus)) this.eng.touch(ch);
    if (d?.quiet) return;
    const caller = d?.caller ? this.eng.find(d.caller) : undefined;
    const peer = this.eng.snapshot(ch);
    const dialstring = d?.dialstring ?? '';
    // The frame keeps its key order: caller (when there is one) first.
    const props: EventProps<'Dial'> = caller
      ? { caller: this.eng.snapshot(caller), peer, dialstatus, forward: '', dialstring }
      : { peer, dialstatus, forward: '', dialstring };
    const to = this.eng.recipients(ch);
    if (caller) for (const app of this.eng.recipients(caller)) to.add(app);
    this.eng.emit('Dial', props, to);
  }

  /** Starts ringing the far end: Dial "" now, then the endpoint's ring/answer/reject times. */
  private startDial(ch: Channel, timeoutMs: number | null): void {
    if (!ch.d.dialing) return;
    this.dialEvent(ch, '');
    const peer = this.peerOf(ch);
    if (ch.d.tech === 'Local' && peer) {
      // The other half runs the dialplan with a copy of our variables, as chan_local does.
      for (const [k, val] of Object.entries(ch.d.vars)) peer.d.vars[k] = val;
      peer.d.caller = { ...ch.d.caller };
      this.eng.touch(peer);
      this.pbx.start(peer, peer.d.dialplan.context, peer.d.dialplan.exten, 1);
    } else if (this.driver.dial(ch)) {
      // The driver answers (farAnswered) or fails (farRejected) the channel itself.
    } else {
      const f = this.eng.fixtures.endpoints.get(ch.d.endpoint.toLowerCase());
      if (!f || this.endpointState(f) === 'offline') return this.farRejected(ch, CAUSE.SUBSCRIBER_ABSENT);
      if (f.ringAfterMs !== null) this.eng.schedule(ch, 'ring', f.ringAfterMs);
      const byFixture = !this.scripted(ch);
      if (f.answerAfterMs !== null && byFixture) this.eng.schedule(ch, 'answer', f.answerAfterMs);
      if (f.rejectAfterMs !== null && byFixture) this.eng.schedule(ch, 'reject', f.rejectAfterMs, f.rejectCause);
    }
    if (timeoutMs !== null && ch.d.dialing) this.eng.schedule(ch, 'dialTimeout', timeoutMs);
  }

  /** The far end signals ringing. */
  farRinging(ch: Channel): void {
    if (!ch.d.dialing || ch.d.state === 'Up') return;
    if (ch.d.state !== 'Ringing') {
      ch.d.state = 'Ringing';
      this.eng.touch(ch);
      this.eng.emitChannel(ch, 'ChannelStateChange', {});
    }
    this.dialEvent(ch, 'RINGING');
  }

  /** The far end sends early media (Local: Progress()). */
  farProgress(ch: Channel): void {
    if (ch.d.dialing && ch.d.state !== 'Up') this.dialEvent(ch, 'PROGRESS');
  }

  isAwaitingAnswer(ch: Channel): boolean {
    return ch.d.dialing !== null && ch.d.state !== 'Up';
  }

  /** The far end answers: Up, Dial ANSWER, then the app or dialplan the originate asked for. */
  farAnswered(ch: Channel): void {
    const dialing = ch.d.dialing;
    if (!dialing) return;
    this.stopDialTimers(ch);
    ch.d.state = 'Up';
    ch.d.answered = this.eng.clock.now();
    ch.d.far.answered = true;
    this.eng.touch(ch);
    this.eng.emitChannel(ch, 'ChannelStateChange', {});
    this.dialEvent(ch, 'ANSWER');
    ch.d.dialing = null;
    this.eng.touch(ch);
    const after = dialing.after;
    if (after.kind === 'app') {
      this.setLocation(ch, { appName: 'Stasis', appData: [after.app, ...after.args].join(',') });
      this.enterOrHangup(ch, after.app, after.args);
    } else if (after.kind === 'dialplan') {
      this.pbx.start(ch, after.context, after.exten, after.priority);
    }
  }

  /** The far end refuses the call with a cause: Dial <status>, then the channel ends. */
  farRejected(ch: Channel, cause: number): void {
    if (!ch.d.dialing) return;
    this.stopDialTimers(ch);
    // A SIP far end refuses with a failure response, which the hangup events report as tech_cause.
    if (ch.d.tech === 'PJSIP') ch.d.techCause = sipStatusForCause(cause);
    this.dialEvent(ch, dialStatusForCause(cause));
    ch.d.dialing = null;
    // A channel already in Stasis (create + dial) is hung up like any other; an originate simply fails.
    this.hangup(ch, ch.inStasis ? { by: 'far', cause } : { by: 'none', cause });
  }

  private dialTimedOut(ch: Channel): void {
    if (!ch.d.dialing) return;
    this.stopDialTimers(ch);
    this.dialEvent(ch, 'NOANSWER');
    ch.d.dialing = null;
    this.hangup(ch, ch.inStasis ? { by: 'far', cause: CAUSE.NO_ANSWER } : { by: 'none', cause: CAUSE.NO_ANSWER });
  }

  private stopDialTimers(ch: Channel): void {
    for (const k of ['ring', 'answer', 'reject', 'dialTimeout'] as const) this.eng.cancel(ch, k);
  }

  // ---- inbound ------------------------------------------------------------------

  /** The simulation's inbound call: the endpoint calls an extension; the dialplan runs from priority 1. */
  inbound(req: InboundRequest): Channel {
    this.make.checkIds(req.channelId);
    const target = this.make.resolve(req.endpoint);
    if (target.kind !== 'fixture') throw badRequest('Inbound calls come from a fixture endpoint, not a Local channel');
    const f = target.fixture;
    if (this.unreachable(f)) throw conflict(`Endpoint ${f.key} is unreachable: its calls do not get through`);
    const context = req.context || f.context;
    if (!this.eng.fixtures.dialplan.contexts.has(context)) throw badRequest(`No such context '${context}'`);
    if (!findExtension(this.eng.fixtures.dialplan, context, req.extension)) throw badRequest(`No such extension '${req.extension}' in context '${context}'`);
    if (req.channelId !== undefined && this.eng.hasId(req.channelId)) throw conflict('Channel with given unique ID already exists');
    const caller = req.callerId ? parseCallerId(req.callerId) : f.callerid ? parseCallerId(f.callerid) : { ...EMPTY_PARTY };
    const ch = this.make.newChannel({
      id: req.channelId, endpoint: f.key, tech: f.tech, nameBase: f.key, direction: 'inbound', caller,
      accountcode: f.accountcode, language: f.language, context, exten: req.extension, formats: ['ulaw', 'alaw', 'slin'],
    });
    this.make.applyVariables(ch, req.variables);
    this.pbx.startSoon(ch, context, req.extension, 1);
    return ch;
  }

  // ---- our side -------------------------------------------------------------------

  /** Answers an inbound channel (ARI answer, dialplan Answer/Playback). Up already: nothing to do. */
  answer(ch: Channel): void {
    if (ch.d.state === 'Up') return;
    ch.d.state = 'Up';
    ch.d.answered = this.eng.clock.now();
    ch.d.media.ringing = false;
    this.eng.touch(ch);
    this.eng.emitChannel(ch, 'ChannelStateChange', {});
    const peer = this.peerOf(ch);
    // Answering the dialplan half of a Local pair answers the call the first half placed.
    if (peer && ch.d.localHalf === 2) this.farAnswered(peer);
  }

  /** Updates the dialplan location (and the app running there); raises ChannelDialplan as Asterisk does. */
  setLocation(ch: Channel, loc: Partial<Channel['d']['dialplan']>): void {
    const dp = ch.d.dialplan;
    const moved = (loc.context !== undefined && loc.context !== dp.context) || (loc.exten !== undefined && loc.exten !== dp.exten) || (loc.priority !== undefined && loc.priority !== dp.priority);
    const appSet = dp.appName === '' && !!loc.appName;
    Object.assign(dp, loc);
    this.eng.touch(ch);
    if (moved || appSet || loc.priority !== undefined) {
      this.eng.emitChannel(ch, 'ChannelDialplan', { dialplan_app: dp.appName, dialplan_app_data: dp.appData });
    }
  }

  // ---- Stasis -------------------------------------------------------------------------

  /** Puts a channel in an app; false when the app has no WebSocket (Stasis fails at once, as Asterisk's). `perCall`: the configured app whose per-call connection was opened for this channel. */
  enterStasis(ch: Channel, app: string, args: string[], perCall?: string): boolean {
    if (!this.eng.apps.isActive(app)) return false;
    ch.d.stasis = perCall ? { app, args, perCall } : { app, args };
    ch.d.lastApp = app;
    this.eng.subscribe(ch, app);
    this.eng.emitChannel(ch, 'StasisStart', { args }, [app]);
    return true;
  }

  /** Takes a channel out of its app: StasisEnd goes to that app only. */
  leaveStasis(ch: Channel): void {
    const s = ch.d.stasis;
    if (!s) return;
    this.eng.emitChannel(ch, 'StasisEnd', {}, [s.app]);
    ch.d.stasis = null;
    this.eng.abortQueue(ch, () => conflict('Channel not in Stasis application'));
    this.eng.unsubscribe(ch, s.app);
    // Stasis() returned: a connection opened for this call closes once StasisEnd has gone out on it.
    if (s.perCall) void this.eng.commit().then(() => this.eng.apps.perCallDone(s.app));
  }

  /** ARI move: to an active app, StasisEnd then StasisStart; otherwise ApplicationMoveFailed and it stays. */
  move(ch: Channel, app: string, args: string[]): void {
    const from = ch.d.stasis;
    if (!from) return;
    if (!this.eng.apps.isActive(app)) {
      this.eng.emit('ApplicationMoveFailed', { channel: this.eng.snapshot(ch), destination: app, args }, [from.app]);
      return;
    }
    this.leaveStasis(ch);
    this.enterStasis(ch, app, args);
  }

  // ---- hangup ------------------------------------------------------------------------

  /**
   * Ends a channel. ARI's DELETE raises ChannelHangupRequest{cause:32, soft}
   * and the far end's hangup raises it with the Q.850 cause; then StasisEnd,
   * ChannelDestroyed, and the other half of a Local pair follows.
   */
  hangup(ch: Channel, req: HangupRequest): void {
    if (ch.rt.hangingUp || ch.d.ended !== null) return;
    ch.rt.hangingUp = true;
    const tech = ch.d.techCause ? { tech_cause: ch.d.techCause } : {};
    if (req.by === 'api') this.eng.emitChannel(ch, 'ChannelHangupRequest', { cause: SOFTHANGUP_EXPLICIT, soft: true });
    else if (req.by === 'far') this.eng.emitChannel(ch, 'ChannelHangupRequest', { cause: req.cause, ...tech });
    ch.d.hangupCause = req.cause;
    this.eng.abortQueue(ch, () => notFound('Channel not found'));
    // Media stops before the channel leaves its app: PlaybackFinished, RecordingFinished, ChannelLeftBridge come before StasisEnd.
    this.eng.runHangupHooks(ch);
    this.leaveStasis(ch);
    ch.rt.dtmfDone?.();
    ch.rt.dtmfDone = null;
    this.eng.emitChannel(ch, 'ChannelDestroyed', { cause: req.cause, cause_txt: causeText(req.cause), ...tech });
    ch.d.ended = this.eng.clock.now();
    ch.d.dialing = null;
    ch.d.pbx = false;
    this.eng.remove(ch);
    const peer = this.peerOf(ch);
    if (peer && peer.d.ended === null) {
      // The first half still waiting for an answer sees a failed dial, not a hangup.
      if (this.isAwaitingAnswer(peer)) this.farRejected(peer, req.cause);
      else this.hangup(peer, { by: 'far', cause: req.cause });
    }
  }
}
