import type { EventType } from '../../../protocol/ari/events/index.js';
import type { ChannelRepo, ChannelRow } from '../../db/repos/channel-repo.js';
import type { MetaRepo } from '../../db/repos/meta-repo.js';
import type { Logger } from '../../log.js';
import type { Clock } from '../time/clock.js';
import type { IdSource } from '../time/id-source.js';
import { AppRegistry } from '../apps.js';
import type { Fixtures } from '../fixtures.js';
import type { AriChannel, ChannelEventProps, ChannelEventType, EventProps } from './ari-models.js';
import type { Channel, QueuedCommand, Timer, TimerKind } from './channel.js';
import { ChannelRegistry } from './channel-registry.js';
import { channelSnapshot, type ChannelVariableReader } from './channel-snapshot.js';
import { ChannelTimers, type TimerHandler } from './channel-timers.js';
import { EngineCounters } from './engine-counters.js';
import { EngineHooks } from './engine-hooks.js';
import { loadEntityId } from './entity-id.js';
import { EventFilters } from './event-filters.js';
import { EventOutbox } from './event-outbox.js';
import type { EventDelay } from './event-delays.js';
import { EventTaps } from './event-taps.js';
import { loadGlobals, setGlobal } from './globals.js';
import { GroupCommit } from './group-commit.js';
import { RestoredChannels } from './restored-channels.js';
import { StoredCommands, type CommandRunner } from './stored-commands.js';
import { Subscriptions } from './subscriptions.js';

export type { ChannelVariableReader } from './channel-snapshot.js';
export type { TimerHandler } from './channel-timers.js';
export type { CommandRunner } from './stored-commands.js';

/** What the engine is built from: fixtures, storage, the clock and its limits. */
export interface EngineOptions {
  fixtures: Fixtures;
  repo: ChannelRepo;
  meta: MetaRepo;
  log: Logger;
  /** The one time source: timestamps, and every timer of the engine and its media. */
  clock: Clock;
  /** Made-up identifiers: random on the real clock, a seeded sequence on the virtual one. */
  ids: IdSource;
  /** ari.conf-style channelvars shown on every channel snapshot. */
  channelVars: string[];
  historyLimit: number;
  /** Test mode: every outgoing event is checked against protocol/. */
  checkEvents: boolean;
  /** After a restart, how long (wall ms) restored channels wait for their applications to reconnect. */
  appReconnectGraceMs: number;
}

/**
 * The simulated telephony core: the live channels, their persistence and
 * timers, and the event stream to Stasis applications, each kept by its own
 * part (registry, subscriptions, outbox, group commit, timers, commands,
 * hooks, restore). Behaviour (calls, dialplan, Stasis control) lives in
 * modules that register with it.
 */
export class Engine {
  readonly apps = new AppRegistry();
  /** Read-only copies of what applications' sockets are sent (GET /sim/events). */
  readonly taps = new EventTaps();
  readonly fixtures: Fixtures;
  readonly log: Logger;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly entityId: string;
  readonly startedAt: number;
  readonly globals: Map<string, string>;
  /** Contract violations seen in test mode (events that do not match protocol/). */
  readonly violations: string[];
  /** Applications' event type filters (the outbox applies them). */
  readonly filters: EventFilters;

  private readonly registry = new ChannelRegistry();
  private readonly counters: EngineCounters;
  private readonly outbox: EventOutbox;
  private readonly commits: GroupCommit;
  private readonly subscriptions: Subscriptions;
  private readonly timers: ChannelTimers;
  private readonly commands: StoredCommands;
  private readonly hooks: EngineHooks;
  private readonly restored: RestoredChannels;

  constructor(
    private readonly opts: EngineOptions,
    private readonly variables: ChannelVariableReader,
    /** Holds some applications' events back (injected faults); none by default. */
    delay?: EventDelay,
  ) {
    this.fixtures = opts.fixtures;
    this.log = opts.log;
    this.clock = opts.clock;
    this.ids = opts.ids;
    this.startedAt = opts.clock.now();
    this.entityId = loadEntityId(opts.meta, opts.ids);
    this.globals = loadGlobals(opts.fixtures, opts.meta);
    this.counters = new EngineCounters(opts.meta, opts.clock);
    const { apps, log, clock } = this;
    // The outbox wakes the commit and the commit delivers the outbox: each reaches the other once both exist.
    this.outbox = new EventOutbox({ apps, clock, log, entityId: this.entityId, checkEvents: opts.checkEvents, wake: () => this.commits.queue(), delay, taps: this.taps });
    this.commits = new GroupCommit({
      repo: opts.repo, meta: opts.meta, historyLimit: opts.historyLimit, counters: this.counters,
      committed: (changed) => this.hooks.runCommitted(changed), deliver: () => this.outbox.deliver(),
    });
    this.violations = this.outbox.violations;
    this.subscriptions = new Subscriptions(apps, opts.meta, this.commits);
    this.filters = new EventFilters(apps, opts.meta, this.commits);
    this.timers = new ChannelTimers(clock, log, this.commits);
    this.commands = new StoredCommands(log, this.commits);
    this.hooks = new EngineHooks(log);
    this.restored = new RestoredChannels({
      apps, log, graceMs: opts.appReconnectGraceMs, registry: this.registry, subscriptions: this.subscriptions,
      timers: this.timers, commands: this.commands, commits: this.commits,
    });
  }

  // ---- channels -------------------------------------------------------------

  /** A live channel by unique id or by name (ARI accepts both). */
  find(idOrName: string): Channel | undefined {
    return this.registry.find(idOrName);
  }

  /** True when a live channel has this unique id. */
  hasId(id: string): boolean {
    return this.registry.hasId(id);
  }

  /** Every live channel. */
  all(): IterableIterator<Channel> {
    return this.registry.all();
  }

  /** How many channels are live. */
  get size(): number {
    return this.registry.size;
  }

  /** The next channel sequence number. */
  nextSeq(): number {
    return this.counters.nextSeq();
  }

  /** Asterisk's default unique id: `<epoch seconds>.<counter>`. */
  nextUniqueId(): string {
    return this.counters.nextUniqueId();
  }

  /** Channel names carry a per-technology sequence in 8 hex digits: `PJSIP/alice-0000000a`. */
  nextNameSuffix(tech: string): string {
    return this.counters.nextNameSuffix(tech);
  }

  /** Adds a new channel to the live set. */
  add(ch: Channel): void {
    this.registry.put(ch);
    this.subscriptions.track(ch);
    this.commits.touch(ch);
  }

  /** Takes an ended channel out of the live set; its final record is written on the next flush. */
  remove(ch: Channel): void {
    this.restored.forget(ch);
    this.timers.cancelAll(ch);
    this.registry.delete(ch);
    this.subscriptions.dropAll(ch);
    this.commits.touch(ch);
    this.commits.ended();
  }

  /** Marks a channel changed: its snapshot is rebuilt and its record written before the next announcement. */
  touch(ch: Channel): void {
    this.commits.touch(ch);
  }

  // ---- subscriptions ----------------------------------------------------------

  /** Adds `n` subscriptions of `app` to a channel. */
  subscribe(ch: Channel, app: string, n = 1): void {
    this.subscriptions.subscribe(ch, app, n);
  }

  /** Removes `n` subscriptions of `app` from a channel. */
  unsubscribe(ch: Channel, app: string, n = 1): void {
    this.subscriptions.unsubscribe(ch, app, n);
  }

  /** Subscribes an app to an endpoint or a whole technology. */
  subscribeEndpoint(app: string, endpoint: string): void {
    this.subscriptions.subscribeEndpoint(app, endpoint);
  }

  /** Ends an app's subscription to an endpoint or technology. */
  unsubscribeEndpoint(app: string, endpoint: string): void {
    this.subscriptions.unsubscribeEndpoint(app, endpoint);
  }

  /** Who hears ChannelCreated: only subscribeAll and endpoint subscribers. */
  creationRecipients(ch: Channel): Set<string> {
    return this.subscriptions.creationRecipients(ch);
  }

  /** Apps that hear about a channel: its subscribers plus every subscribeAll app. */
  recipients(ch: Channel): Set<string> {
    return this.subscriptions.recipients(ch);
  }

  // ---- events -----------------------------------------------------------------

  /** ARI's view of a channel, cached until the channel next changes. */
  snapshot(ch: Channel): AriChannel {
    return channelSnapshot(ch, this.opts.channelVars, this.variables);
  }

  /** One event as a frame for one app (for a socket that is no longer the app's, e.g. ApplicationReplaced). */
  frame<T extends EventType>(type: T, props: EventProps<T>, app: string): string {
    return this.outbox.frame(type, props, app);
  }

  /** Emits a channel event to its recipients (or to `only`). */
  emitChannel<T extends ChannelEventType>(ch: Channel, type: T, props: ChannelEventProps<T>, only?: Iterable<string>): void {
    this.outbox.emit(type, { ...props, channel: this.snapshot(ch) }, only ?? this.recipients(ch));
  }

  /** Queues an event for each active recipient; it leaves in `flush()`, after the state it announces is committed. */
  emit<T extends EventType>(type: T, props: EventProps<T>, to: Iterable<string>): void {
    this.outbox.emit(type, props, to);
  }

  // ---- group commit -------------------------------------------------------------

  /** Runs a write inside the next group commit, before the events that announce it. */
  deferWrite(write: () => void): void {
    this.commits.deferWrite(write);
  }

  /** Resolves once everything changed so far is committed; an HTTP answer waits for it before it leaves. */
  commit(): Promise<void> {
    return this.commits.commit();
  }

  /** Commits every changed channel in one transaction, then delivers the queued events and releases waiting answers. */
  flush(): void {
    this.commits.flush();
  }

  /** True while a group commit is queued: changes or events wait for the end of the turn. */
  get commitPending(): boolean {
    return this.commits.pending;
  }

  /** How many group commits have run: a count that moves while work is going on. */
  get flushes(): number {
    return this.commits.flushes;
  }

  // ---- timers -------------------------------------------------------------------

  /** Registers the handler of a timer kind. */
  onTimer(kind: TimerKind, handler: TimerHandler): void {
    this.timers.on(kind, handler);
  }

  /** Schedules `kind` after `simMs` simulated milliseconds; the timer is part of the channel's stored record. */
  schedule(ch: Channel, kind: TimerKind, simMs: number, data?: unknown): Timer {
    return this.timers.schedule(ch, kind, simMs, data);
  }

  /** True when the channel has a pending timer of this kind. */
  hasTimer(ch: Channel, kind: TimerKind): boolean {
    return this.timers.has(ch, kind);
  }

  /** Cancels the channel's timers of one kind. */
  cancel(ch: Channel, kind: TimerKind): void {
    this.timers.cancel(ch, kind);
  }

  /** Cancels every timer of a channel. */
  cancelTimers(ch: Channel): void {
    this.timers.cancelAll(ch);
  }

  // ---- control queue --------------------------------------------------------------

  /** Queues a Stasis control command whose answer waits for it (see CommandQueue). */
  enqueue(ch: Channel, cmd: () => void | Promise<void>): Promise<void> {
    return this.commands.enqueue(ch, cmd);
  }

  /** Who runs stored commands (the control module). */
  onCommand(runner: CommandRunner): void {
    this.commands.onCommand(runner);
  }

  /** Queues a command whose answer leaves before it runs; it is committed with the answer and a restart runs it. */
  enqueueCommand(ch: Channel, cmd: QueuedCommand): void {
    this.commands.enqueueCommand(ch, cmd);
  }

  /** Fails every command still waiting in the channel's queue (it left the app, or hung up). */
  abortQueue(ch: Channel, makeError: () => unknown): void {
    this.commands.abort(ch, makeError);
  }

  // ---- hooks ----------------------------------------------------------------------

  /** Runs when a channel is hanging up, after ChannelHangupRequest and before StasisEnd (media stops there). */
  onHangup(hook: (ch: Channel) => void): void {
    this.hooks.onHangup(hook);
  }

  /** Runs at each group commit with the channels it wrote; events it emits leave with the turn's (device states). */
  onCommitted(hook: (changed: readonly Channel[]) => void): void {
    this.hooks.onCommitted(hook);
  }

  /** Runs every hangup hook. */
  runHangupHooks(ch: Channel): void {
    this.hooks.runHangup(ch);
  }

  /** Runs when a channel receives a digit. */
  onDtmf(hook: (ch: Channel, digit: string) => void): void {
    this.hooks.onDtmf(hook);
  }

  /** A digit the channel received (from its far end): ChannelDtmfReceived, then whoever waits for digits. */
  dtmfReceived(ch: Channel, digit: string, durationMs: number): void {
    this.emitChannel(ch, 'ChannelDtmfReceived', { digit, duration_ms: durationMs });
    this.hooks.runDtmf(ch, digit);
  }

  // ---- restart and stop -------------------------------------------------------------

  /** Rebuilds the live channels from SQLite; `resumeRestored` sets them going once every module is wired. */
  restore(rows: ChannelRow[]): number {
    const n = this.restored.load(rows);
    this.filters.pruneRestored();
    return n;
  }

  /** Re-arms restored timers and commands, holding channels whose applications have not reconnected yet. */
  resumeRestored(): void {
    this.restored.resume();
  }

  /** Test mode's crash points: from now on nothing is committed, delivered or run. */
  freeze(): void {
    this.commits.freeze();
  }

  /** Stops timers and flushes; the engine does nothing afterwards. */
  stop(): void {
    this.commits.stop();
    this.restored.stop();
    for (const ch of this.registry.all()) this.timers.disarm(ch);
  }

  /** Sets (or, with null, unsets) a global variable and stores it. */
  setGlobal(name: string, value: string | null): void {
    setGlobal(this.globals, this.opts.meta, name, value);
  }
}
