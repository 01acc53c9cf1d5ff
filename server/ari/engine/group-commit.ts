import type { ChannelRepo, ChannelRow } from '../../db/repos/channel-repo.js';
import type { MetaRepo } from '../../db/repos/meta-repo.js';
import type { Channel } from './channel.js';
import type { EngineCounters } from './engine-counters.js';

const PRUNE_EVERY = 500;

/** What the group commit writes to, and who it hands the turn's events to once they may leave. */
export interface GroupCommitDeps {
  repo: ChannelRepo;
  meta: MetaRepo;
  historyLimit: number;
  counters: EngineCounters;
  /** Runs after the commit with the channels it wrote, before delivery (their events join the turn's). */
  committed?: (changed: readonly Channel[]) => void;
  /** Sends the events queued during the turn; runs after their state is committed. */
  deliver: () => void;
}

/**
 * Commits once per event-loop turn: every change made while handling the
 * I/O of one turn (many requests, timers and far-end actions under load)
 * shares one SQLite transaction, and events and waiting answers leave after it.
 */
export class GroupCommit {
  private readonly dirty = new Set<Channel>();
  private queued = false;
  /** Answers waiting for the next commit (one transaction serves them all). */
  private waiters: Array<() => void> = [];
  /** Other modules' writes (recording rows, …) that join the next commit. */
  private deferred: Array<() => void> = [];
  private endedSincePrune = 0;
  private frozen = false;
  private flushCount = 0;

  constructor(private readonly deps: GroupCommitDeps) {}

  /** Flushes run so far (an advance of the virtual clock watches it to see whether work is still going on). */
  get flushes(): number {
    return this.flushCount;
  }

  /** True while a flush is queued for the end of this turn (something changed, or an answer waits). */
  get pending(): boolean {
    return this.queued;
  }

  /** True once frozen or stopped: nothing is committed, delivered or run any more. */
  get stopped(): boolean {
    return this.frozen;
  }

  /** Marks a channel changed: its snapshot is rebuilt and its record written before the next announcement. */
  touch(ch: Channel): void {
    ch.rt.snapshot = null;
    if (!ch.rt.dirty) {
      ch.rt.dirty = true;
      this.dirty.add(ch);
    }
    this.queue();
  }

  /** Counts an ended channel; the history is pruned every PRUNE_EVERY of them. */
  ended(): void {
    this.endedSincePrune++;
  }

  /** Makes sure a flush runs at the end of this turn. */
  queue(): void {
    if (this.queued || this.frozen) return;
    this.queued = true;
    setImmediate(() => this.flush());
  }

  /** Runs a write inside the next commit, so it is committed with the channel changes of the same turn and before the events that announce it. */
  deferWrite(write: () => void): void {
    this.deferred.push(write);
    this.queue();
  }

  /** Resolves once everything changed so far is committed; an HTTP answer waits for it before it leaves. */
  commit(): Promise<void> {
    if (!this.queued) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Commits every changed channel in one transaction, then delivers the queued events and releases waiting answers. */
  flush(): void {
    this.flushCount++;
    this.queued = false;
    if (this.frozen) return;
    const { repo, meta, counters } = this.deps;
    if (this.dirty.size || counters.changed || this.deferred.length) {
      const rows: ChannelRow[] = [];
      const changed: Channel[] = [];
      for (const ch of this.dirty) {
        ch.rt.dirty = false;
        changed.push(ch);
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
      const stored = counters.take();
      const deferred = this.deferred;
      this.deferred = [];
      repo.transaction(() => {
        for (const r of rows) repo.save(r);
        if (stored) meta.set('counters', stored);
        for (const w of deferred) w();
      });
      if (this.endedSincePrune >= PRUNE_EVERY) {
        this.endedSincePrune = 0;
        repo.prune(this.deps.historyLimit);
      }
      if (changed.length) this.deps.committed?.(changed);
    }
    this.deps.deliver();
    if (this.waiters.length) {
      const waiters = this.waiters;
      this.waiters = [];
      for (const w of waiters) w();
    }
  }

  /** Test mode's crash points: from now on nothing is committed or delivered. */
  freeze(): void {
    this.frozen = true;
  }

  /** Flushes what is pending, then stops; answers still waiting are released. */
  stop(): void {
    this.flush();
    this.frozen = true;
    for (const w of this.waiters.splice(0)) w();
  }
}
