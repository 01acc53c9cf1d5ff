import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { EVENTS_BY_TYPE, type EventType } from '../../../protocol/ari/events/index.js';
import type { ChannelRepo, ChannelRow } from '../../db/repos/channel-repo.js';
import type { MetaRepo } from '../../db/repos/meta-repo.js';
import type { Logger } from '../../log.js';
import { ariTimestamp } from '../../util/timestamp.js';
import type { Clock } from '../time/clock.js';
import { AppRegistry, type EventSink } from '../apps.js';
import type { Fixtures } from '../fixtures.js';
import { Channel, normalizeChannelData, type ChannelData, type QueuedCommand, type Timer, type TimerKind } from './channel.js';

export interface EngineOptions {
  fixtures: Fixtures;
  repo: ChannelRepo;
  meta: MetaRepo;
  log: Logger;
  /** The one time source: timestamps, and every timer of the engine and its media. */
  clock: Clock;
  /** ari.conf-style channelvars shown on every channel snapshot. */
  channelVars: string[];
  historyLimit: number;
  /** Test mode: every outgoing event is checked against protocol/. */
  checkEvents: boolean;
  /** After a restart, how long (wall ms) restored channels wait for their applications to reconnect. */
  appReconnectGraceMs: number;
}

/** The port through which snapshots read channelvars (variables and functions), implemented by Variables. */
export interface ChannelVariableReader {
  /** A variable or function's value on a channel; undefined when unset or failing. */
  readForSnapshot(ch: Channel, name: string): string | undefined;
}

export type TimerHandler = (ch: Channel, data: unknown) => void;
export type CommandRunner = (ch: Channel, cmd: QueuedCommand) => void | Promise<void>;

const PRUNE_EVERY = 500;

/**
 * The simulated telephony core: owns the live channels, their persistence and
 * timers, and the event stream to Stasis applications. Behaviour (calls,
 * dialplan, Stasis control) lives in modules that register with it.
 */
export class Engine {
  readonly apps = new AppRegistry();
  readonly fixtures: Fixtures;
  readonly log: Logger;
  readonly clock: Clock;
  readonly entityId: string;
  readonly startedAt: number;
  readonly globals = new Map<string, string>();
  /** Contract violations seen in test mode (events that do not match protocol/). */
  readonly violations: string[] = [];

  private readonly byId = new Map<string, Channel>();
  /** applications/subscribe to `endpoint:TECH[/resource]`, keyed lower-case. */
  private readonly endpointSubs = new Map<string, Set<string>>();
  private readonly byName = new Map<string, Channel>();
  private readonly dirty = new Set<Channel>();
  private outbox: Array<{ sink: EventSink; json: string }> = [];
  private flushQueued = false;
  /** Answers waiting for the next commit (group commit: one transaction serves them all). */
  private commitWaiters: Array<() => void> = [];
  /** Other modules' writes (recording rows, …) that join the next commit. */
  private deferred: Array<() => void> = [];
  private readonly timerHandlers = new Map<TimerKind, TimerHandler>();
  private commandRunner: CommandRunner | undefined;
  /** Restored channels whose timers and queued commands wait until their applications reconnect (or the grace ends). */
  private readonly held = new Set<Channel>();
  private graceTimer: NodeJS.Timeout | undefined;
  private counters = { seq: 0, uniqueid: 0, names: {} as Record<string, number> };
  private countersDirty = false;
  private endedSincePrune = 0;
  private stopped = false;

  constructor(
    private readonly opts: EngineOptions,
    private readonly variables: ChannelVariableReader,
  ) {
    this.fixtures = opts.fixtures;
    this.log = opts.log;
    this.clock = opts.clock;
    this.startedAt = opts.clock.now();
    let eid = opts.meta.get('entity_id');
    if (!eid) {
      // Asterisk's EID looks like a MAC address; a locally administered one is ours to make up.
      const b = randomBytes(6);
      b[0] = (b[0]! & 0xfe) | 0x02;
      eid = [...b].map((x) => x.toString(16).padStart(2, '0')).join(':');
      opts.meta.set('entity_id', eid);
    }
    this.entityId = eid;
    for (const [k, val] of Object.entries(opts.fixtures.globals)) this.globals.set(k, val);
    for (const [k, val] of opts.meta.globals()) {
      if (val === null) this.globals.delete(k);
      else this.globals.set(k, val);
    }
    const c = opts.meta.get('counters');
    if (c) this.counters = JSON.parse(c) as typeof this.counters;
    const subs = opts.meta.get('endpoint_subscriptions');
    if (subs) for (const [app, endpoint] of JSON.parse(subs) as Array<[string, string]>) this.subscribeEndpoint(app, endpoint, false);
  }

  // ---- lookup -------------------------------------------------------------

  /** A live channel by unique id or by name (ARI accepts both). */
  find(idOrName: string): Channel | undefined {
    return this.byId.get(idOrName) ?? this.byName.get(idOrName);
  }

  hasId(id: string): boolean {
    return this.byId.has(id);
  }

  all(): IterableIterator<Channel> {
    return this.byId.values();
  }

  get size(): number {
    return this.byId.size;
  }

  // ---- identity ------------------------------------------------------------

  nextSeq(): number {
    this.countersDirty = true;
    return ++this.counters.seq;
  }

  /** Asterisk's default unique id: `<epoch seconds>.<counter>`. */
  nextUniqueId(): string {
    this.countersDirty = true;
    return `${Math.floor(this.clock.now() / 1000)}.${++this.counters.uniqueid}`;
  }

  /** Channel names carry a per-technology sequence in 8 hex digits: `PJSIP/alice-0000000a`. */
  nextNameSuffix(tech: string): string {
    const n = (this.counters.names[tech] ?? 0) + 1;
    this.counters.names[tech] = n;
    this.countersDirty = true;
    return n.toString(16).padStart(8, '0');
  }

  // ---- registry ------------------------------------------------------------

  add(ch: Channel): void {
    this.byId.set(ch.id, ch);
    this.byName.set(ch.name, ch);
    for (const [app, n] of Object.entries(ch.d.subs)) if (n > 0) this.apps.ensure(app).channels.add(ch.id);
    this.touch(ch);
  }

  /** Takes an ended channel out of the live set; its final record is written on the next flush. */
  remove(ch: Channel): void {
    this.held.delete(ch);
    this.cancelTimers(ch);
    this.byId.delete(ch.id);
    this.byName.delete(ch.name);
    for (const app of Object.keys(ch.d.subs)) this.dropSubscription(ch, app);
    this.touch(ch);
    this.endedSincePrune++;
  }

  /** Marks a channel changed: its snapshot is rebuilt and its record written before the next announcement. */
  touch(ch: Channel): void {
    ch.rt.snapshot = null;
    if (!ch.rt.dirty) {
      ch.rt.dirty = true;
      this.dirty.add(ch);
    }
    this.queueFlush();
  }

  // ---- subscriptions ------------------------------------------------------

  subscribe(ch: Channel, app: string, n = 1): void {
    ch.d.subs[app] = (ch.d.subs[app] ?? 0) + n;
    this.apps.ensure(app).channels.add(ch.id);
    this.touch(ch);
  }

  unsubscribe(ch: Channel, app: string, n = 1): void {
    const left = (ch.d.subs[app] ?? 0) - n;
    if (left > 0) ch.d.subs[app] = left;
    else this.dropSubscription(ch, app);
    this.touch(ch);
  }

  private dropSubscription(ch: Channel, app: string): void {
    delete ch.d.subs[app];
    const a = this.apps.get(app);
    if (a) {
      a.channels.delete(ch.id);
      this.apps.forgetIfIdle(a);
    }
  }

  subscribeEndpoint(app: string, endpoint: string, store = true): void {
    const key = endpoint.toLowerCase();
    const set = this.endpointSubs.get(key) ?? new Set<string>();
    set.add(app);
    this.endpointSubs.set(key, set);
    this.apps.ensure(app).endpoints.add(endpoint);
    if (store) this.storeEndpointSubs();
  }

  unsubscribeEndpoint(app: string, endpoint: string): void {
    const key = endpoint.toLowerCase();
    this.endpointSubs.get(key)?.delete(app);
    if (this.endpointSubs.get(key)?.size === 0) this.endpointSubs.delete(key);
    const a = this.apps.get(app);
    if (a) {
      a.endpoints.delete(endpoint);
      this.apps.forgetIfIdle(a);
    }
    this.storeEndpointSubs();
  }

  /** Endpoint subscriptions are kept with the next commit, so they outlive a restart as channel subscriptions do. */
  private storeEndpointSubs(): void {
    const list = this.apps.list().flatMap((a) => [...a.endpoints].map((e) => [a.name, e]));
    this.deferWrite(() => this.opts.meta.set('endpoint_subscriptions', JSON.stringify(list)));
  }

  private addEndpointSubscribers(ch: Channel, to: Set<string>): Set<string> {
    if (this.endpointSubs.size) {
      for (const key of [ch.d.endpoint.toLowerCase(), ch.d.tech.toLowerCase()]) for (const app of this.endpointSubs.get(key) ?? []) to.add(app);
    }
    return to;
  }

  /** Who hears ChannelCreated: per-channel subscriptions start after creation, so only subscribeAll and endpoint subscribers. */
  creationRecipients(ch: Channel): Set<string> {
    return this.addEndpointSubscribers(ch, new Set(this.apps.subscribedToAll));
  }

  // ---- events ---------------------------------------------------------------

  /** ARI's view of a channel, cached until the channel next changes. */
  snapshot(ch: Channel): Record<string, unknown> {
    if (ch.rt.snapshot) return ch.rt.snapshot;
    const d = ch.d;
    const s: Record<string, unknown> = {
      id: d.id,
      protocol_id: d.protocolId,
      name: d.name,
      state: d.state,
      caller: { name: d.caller.name, number: d.caller.number },
      connected: { name: d.connected.name, number: d.connected.number },
      accountcode: d.accountcode,
      dialplan: { context: d.dialplan.context, exten: d.dialplan.exten, priority: d.dialplan.priority, app_name: d.dialplan.appName, app_data: d.dialplan.appData },
      creationtime: ariTimestamp(d.created),
      language: d.language,
    };
    const names = this.opts.channelVars.length ? [...new Set([...this.opts.channelVars, ...d.reported])] : d.reported;
    if (names.length) {
      const vars: Record<string, string> = {};
      for (const n of names) vars[n] = this.variables.readForSnapshot(ch, n) ?? '';
      s.channelvars = vars;
    }
    ch.rt.snapshot = s;
    return s;
  }

  /** Apps that hear about a channel: its subscribers plus every subscribeAll app. */
  recipients(ch: Channel): Set<string> {
    const to = new Set<string>();
    for (const [app, n] of Object.entries(ch.d.subs)) if (n > 0) to.add(app);
    for (const app of this.apps.subscribedToAll) to.add(app);
    return this.addEndpointSubscribers(ch, to);
  }

  /** One event as a frame for one app (for a socket that is no longer the app's, e.g. ApplicationReplaced). */
  frame(type: EventType, props: Record<string, unknown>, app: string): string {
    const obj = { type, timestamp: ariTimestamp(this.clock.now()), ...props, asterisk_id: this.entityId, application: app };
    if (this.opts.checkEvents) this.checkEvent(type, obj);
    return JSON.stringify(obj);
  }

  /** Emits a channel event to its recipients (or to `only`). */
  emitChannel(ch: Channel, type: EventType, props: Record<string, unknown> = {}, only?: Iterable<string>): void {
    this.emit(type, { ...props, channel: this.snapshot(ch) }, only ?? this.recipients(ch));
  }

  /**
   * Serialises an event once and queues it for each active recipient. Events
   * leave in `flush()`, after the state they announce is committed.
   */
  emit(type: EventType, props: Record<string, unknown>, to: Iterable<string>): void {
    let base: string | undefined;
    let obj: Record<string, unknown> | undefined;
    for (const app of to) {
      const sink = this.apps.get(app)?.sink;
      const watchers = this.apps.watchersOf(app);
      if (!sink && !watchers) continue;
      if (base === undefined) {
        obj = { type, timestamp: ariTimestamp(this.clock.now()), ...props };
        base = JSON.stringify(obj).slice(0, -1);
      }
      if (this.opts.checkEvents) this.checkEvent(type, { ...obj, asterisk_id: this.entityId, application: app });
      const json = `${base},"asterisk_id":${JSON.stringify(this.entityId)},"application":${JSON.stringify(app)}}`;
      if (sink) this.outbox.push({ sink, json });
      // Read-only sockets watching the app get the same frames, in the same flush.
      if (watchers) for (const w of watchers) this.outbox.push({ sink: w, json });
    }
    if (base !== undefined) this.queueFlush();
  }

  private checkEvent(type: string, event: unknown): void {
    const def = EVENTS_BY_TYPE.get(type);
    const r = def ? v.safeParse(def.schema, event) : undefined;
    if (!r?.success) {
      const msg = `event ${type} does not match protocol/: ${r ? r.issues.map((i) => `${i.path?.map((p) => String(p.key)).join('.') ?? ''} ${i.message}`).join('; ') : 'undeclared type'}`;
      this.violations.push(msg);
      this.log.error({ event }, msg);
    }
  }

  /**
   * Flushes once per event-loop turn: every change made while handling the
   * I/O of one turn (many requests, timers and far-end actions under load)
   * shares one SQLite transaction.
   */
  private queueFlush(): void {
    if (this.flushQueued || this.stopped) return;
    this.flushQueued = true;
    setImmediate(() => this.flush());
  }

  /**
   * Runs a write inside the next group commit, so it is committed with the
   * channel changes of the same turn and before the events that announce it.
   */
  deferWrite(write: () => void): void {
    this.deferred.push(write);
    this.queueFlush();
  }

  /** Resolves once everything changed so far is committed; an HTTP answer waits for it before it leaves. */
  commit(): Promise<void> {
    if (!this.flushQueued) return Promise.resolve();
    return new Promise((resolve) => this.commitWaiters.push(resolve));
  }

  /** Commits every changed channel in one transaction, then delivers the queued events and releases waiting answers. */
  flush(): void {
    this.flushQueued = false;
    if (this.stopped) return;
    if (this.dirty.size || this.countersDirty || this.deferred.length) {
      const rows: ChannelRow[] = [];
      for (const ch of this.dirty) {
        ch.rt.dirty = false;
        rows.push({
          seq: ch.d.seq,
          id: ch.d.id,
          name: ch.d.name,
          state: ch.d.state,
          created_at: ch.d.created,
          ended_at: ch.d.ended,
          cause: ch.d.ended !== null ? ch.d.hangupCause ?? 0 : null,
          data: JSON.stringify(ch.d),
        });
      }
      this.dirty.clear();
      const counters = this.countersDirty ? JSON.stringify(this.counters) : null;
      this.countersDirty = false;
      const deferred = this.deferred;
      this.deferred = [];
      this.opts.repo.transaction(() => {
        for (const r of rows) this.opts.repo.save(r);
        if (counters) this.opts.meta.set('counters', counters);
        for (const w of deferred) w();
      });
      if (this.endedSincePrune >= PRUNE_EVERY) {
        this.endedSincePrune = 0;
        this.opts.repo.prune(this.opts.historyLimit);
      }
    }
    if (this.outbox.length) {
      const out = this.outbox;
      this.outbox = [];
      const corked = new Set<EventSink>();
      for (const { sink, json } of out) {
        if (sink.cork && !corked.has(sink)) {
          corked.add(sink);
          sink.cork();
        }
        sink.deliver(json);
      }
      for (const sink of corked) sink.uncork!();
    }
    if (this.commitWaiters.length) {
      const waiters = this.commitWaiters;
      this.commitWaiters = [];
      for (const w of waiters) w();
    }
  }

  // ---- timers -----------------------------------------------------------------

  onTimer(kind: TimerKind, handler: TimerHandler): void {
    this.timerHandlers.set(kind, handler);
  }

  /** Schedules `kind` after `simMs` simulated milliseconds; the timer is part of the channel's stored record. */
  schedule(ch: Channel, kind: TimerKind, simMs: number, data?: unknown): Timer {
    const t: Timer = { kind, due: this.clock.instantAfter(simMs), ...(data !== undefined ? { data } : {}) };
    ch.d.timers.push(t);
    this.arm(ch, t);
    this.touch(ch);
    return t;
  }

  private arm(ch: Channel, t: Timer): void {
    ch.rt.handles.set(t, this.clock.at(t.due, () => this.fire(ch, t)));
  }

  private fire(ch: Channel, t: Timer): void {
    ch.rt.handles.delete(t);
    const i = ch.d.timers.indexOf(t);
    if (i < 0) return;
    ch.d.timers.splice(i, 1);
    this.touch(ch);
    if (ch.d.ended !== null || this.stopped) return;
    try {
      this.timerHandlers.get(t.kind)?.(ch, t.data);
    } catch (err) {
      this.log.error({ err, channel: ch.id, timer: t.kind }, 'timer handler failed');
    }
  }

  hasTimer(ch: Channel, kind: TimerKind): boolean {
    return ch.d.timers.some((t) => t.kind === kind);
  }

  cancel(ch: Channel, kind: TimerKind): void {
    const keep: Timer[] = [];
    for (const t of ch.d.timers) {
      if (t.kind === kind) {
        this.clock.cancel(ch.rt.handles.get(t));
        ch.rt.handles.delete(t);
      } else keep.push(t);
    }
    if (keep.length !== ch.d.timers.length) {
      ch.d.timers = keep;
      this.touch(ch);
    }
  }

  cancelTimers(ch: Channel): void {
    for (const h of ch.rt.handles.values()) this.clock.cancel(h);
    ch.rt.handles.clear();
    ch.d.timers = [];
  }

  // ---- control queue ------------------------------------------------------------

  /** Queues a Stasis control command whose answer waits for it (see CommandQueue). */
  enqueue(ch: Channel, cmd: () => void | Promise<void>): Promise<void> {
    return ch.rt.queue.enqueue(cmd);
  }

  /** Who runs stored commands (the control module). */
  onCommand(runner: CommandRunner): void {
    this.commandRunner = runner;
  }

  /**
   * Queues a command whose answer leaves before it runs. It is part of the
   * channel's record until it starts, so it is committed with the answer and
   * a restart runs it.
   */
  enqueueCommand(ch: Channel, cmd: QueuedCommand): void {
    ch.d.queued.push(cmd);
    this.touch(ch);
    this.queueStored(ch, cmd);
  }

  private queueStored(ch: Channel, cmd: QueuedCommand): void {
    ch.rt.queue
      .enqueue(() => {
        const i = ch.d.queued.indexOf(cmd);
        if (i >= 0) {
          ch.d.queued.splice(i, 1);
          this.touch(ch);
        }
        return this.commandRunner?.(ch, cmd);
      })
      .catch((err: unknown) => {
        // Dropped because the channel left its app or hung up (as Asterisk drops its queue), or it failed: nobody waits for it.
        if (ch.d.ended === null && ch.inStasis) this.log.warn({ err, channel: ch.id, command: cmd.kind }, 'queued command failed');
      });
  }

  /** Fails every command still waiting in the channel's queue (it left the app, or hung up). */
  abortQueue(ch: Channel, makeError: () => unknown): void {
    ch.rt.queue.abort(makeError);
    if (ch.d.queued.length) {
      ch.d.queued = [];
      this.touch(ch);
    }
  }

  // ---- hooks ----------------------------------------------------------------------

  private readonly hangupHooks: Array<(ch: Channel) => void> = [];
  private readonly dtmfHooks: Array<(ch: Channel, digit: string) => void> = [];

  /** Runs when a channel is hanging up, after ChannelHangupRequest and before StasisEnd (media stops there). */
  onHangup(hook: (ch: Channel) => void): void {
    this.hangupHooks.push(hook);
  }

  runHangupHooks(ch: Channel): void {
    for (const h of this.hangupHooks) {
      try {
        h(ch);
      } catch (err) {
        this.log.error({ err, channel: ch.id }, 'hangup hook failed');
      }
    }
  }

  onDtmf(hook: (ch: Channel, digit: string) => void): void {
    this.dtmfHooks.push(hook);
  }

  /** A digit the channel received (from its far end): ChannelDtmfReceived, then whoever waits for digits. */
  dtmfReceived(ch: Channel, digit: string, durationMs: number): void {
    this.emitChannel(ch, 'ChannelDtmfReceived', { digit, duration_ms: durationMs });
    for (const h of this.dtmfHooks) h(ch, digit);
  }

  // ---- restart ------------------------------------------------------------------

  /** Rebuilds the live channels from SQLite; `resumeRestored` sets them going once every module is wired. */
  restore(rows: ChannelRow[]): number {
    for (const row of rows) {
      const ch = new Channel(normalizeChannelData(JSON.parse(row.data) as ChannelData));
      ch.rt.dirty = false;
      this.byId.set(ch.id, ch);
      this.byName.set(ch.name, ch);
      for (const [app, n] of Object.entries(ch.d.subs)) if (n > 0) this.apps.ensure(app).channels.add(ch.id);
    }
    return rows.length;
  }

  /**
   * Re-arms the restored channels' timers and re-queues their acknowledged
   * commands. Nothing is connected yet after a restart, so a channel bound
   * to an application (in it, subscribed, about to enter it, or running
   * dialplan that may send it there) waits until its applications have
   * reconnected, or until the grace runs out: an acknowledged channel is
   * not hung up merely because its app had no time to come back.
   */
  resumeRestored(): void {
    // Wall-clock I/O: the grace (APP_RECONNECT_GRACE_MS, wall ms) is how long we wait for clients to
    // reconnect over the network, not simulated time; it is measured on the system clock.
    const now = Date.now();
    const until = now + this.opts.appReconnectGraceMs;
    const restored = [...this.byId.values()];
    for (const ch of restored) for (const app of this.appsOf(ch)) this.apps.expect(app, until);
    for (const ch of restored) {
      if (this.waitsForApps(ch, now)) this.held.add(ch);
      else this.setGoing(ch);
    }
    if (!this.held.size) return;
    this.log.info({ channels: this.held.size, graceMs: this.opts.appReconnectGraceMs }, 'restored channels wait for their applications to reconnect');
    this.apps.onActivate(() => {
      const t = Date.now(); // wall-clock I/O: the reconnect grace (see above)
      for (const ch of [...this.held]) if (!this.waitsForApps(ch, t)) this.release(ch);
    });
    // Wall-clock I/O: the reconnect grace runs on the system clock (see above).
    this.graceTimer = setTimeout(() => {
      for (const ch of [...this.held]) this.release(ch);
    }, this.opts.appReconnectGraceMs);
  }

  /** The applications a restored channel depends on. */
  private appsOf(ch: Channel): Set<string> {
    const d = ch.d;
    const apps = new Set<string>(Object.keys(d.subs));
    if (d.stasis) apps.add(d.stasis.app);
    if (d.dialing?.after.kind === 'app') apps.add(d.dialing.after.app);
    for (const t of d.timers) {
      const app = (t.data as { app?: unknown } | undefined)?.app;
      if (typeof app === 'string') apps.add(app);
    }
    for (const c of d.queued) if (c.kind === 'move') apps.add(c.app);
    return apps;
  }

  private waitsForApps(ch: Channel, now: number): boolean {
    for (const app of this.appsOf(ch)) if (this.apps.isAwaited(app, now)) return true;
    // Dialplan may run Stasis() with any application: it waits for all of them.
    return ch.d.pbx && this.apps.anyAwaited(now);
  }

  private release(ch: Channel): void {
    if (!this.held.delete(ch)) return;
    if (ch.d.ended === null && !this.stopped) this.setGoing(ch);
  }

  private setGoing(ch: Channel): void {
    // A sendDTMF under way at the kill still holds the queue until its last digit.
    if (ch.d.timers.some((t) => t.kind === 'dtmf')) void ch.rt.queue.enqueue(() => new Promise<void>((resolve) => (ch.rt.dtmfDone = resolve))).catch(() => {});
    for (const cmd of ch.d.queued) this.queueStored(ch, cmd);
    for (const t of ch.d.timers) this.arm(ch, t);
  }

  /**
   * Test mode's crash points: from now on nothing is committed, delivered or
   * run, so a kill that follows leaves exactly what was committed before.
   */
  freeze(): void {
    this.stopped = true;
  }

  /** Stops timers and flushes; the engine does nothing afterwards. */
  stop(): void {
    this.flush();
    this.stopped = true;
    clearTimeout(this.graceTimer);
    for (const w of this.commitWaiters.splice(0)) w();
    for (const ch of this.byId.values()) {
      for (const h of ch.rt.handles.values()) this.clock.cancel(h);
      ch.rt.handles.clear();
    }
  }

  setGlobal(name: string, value: string | null): void {
    if (value === null) this.globals.delete(name);
    else this.globals.set(name, value);
    this.opts.meta.setGlobal(name, value);
  }
}
