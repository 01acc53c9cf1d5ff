import type { ChannelRow } from '../../db/repos/channel-repo.js';
import type { Logger } from '../../log.js';
import type { AppRegistry } from '../apps.js';
import { Channel, normalizeChannelData, type ChannelData } from './channel.js';
import type { ChannelRegistry } from './channel-registry.js';
import type { ChannelTimers } from './channel-timers.js';
import type { GroupCommit } from './group-commit.js';
import type { StoredCommands } from './stored-commands.js';
import type { Subscriptions } from './subscriptions.js';

/** The parts a restart puts channels back into. */
export interface RestoredChannelsDeps {
  apps: AppRegistry;
  log: Logger;
  /** After a restart, how long (wall ms) restored channels wait for their applications to reconnect. */
  graceMs: number;
  registry: ChannelRegistry;
  subscriptions: Subscriptions;
  timers: ChannelTimers;
  commands: StoredCommands;
  commits: GroupCommit;
}

/**
 * Channels that were live at the last stop: rebuilt from SQLite, then held
 * (timers and queued commands paused) until their applications reconnect
 * or the grace runs out.
 */
export class RestoredChannels {
  /** Restored channels whose timers and queued commands wait until their applications reconnect (or the grace ends). */
  private readonly held = new Set<Channel>();
  private graceTimer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: RestoredChannelsDeps) {}

  /** Rebuilds the live channels from their stored records; `resume` sets them going once every module is wired. */
  load(rows: ChannelRow[]): number {
    for (const row of rows) {
      const ch = new Channel(normalizeChannelData(JSON.parse(row.data) as ChannelData));
      ch.rt.dirty = false;
      this.deps.registry.put(ch);
      this.deps.subscriptions.track(ch);
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
  resume(): void {
    const { apps, graceMs } = this.deps;
    // Wall-clock I/O: the grace (APP_RECONNECT_GRACE_MS, wall ms) is how long we wait for clients to
    // reconnect over the network, not simulated time; it is measured on the system clock.
    const now = Date.now();
    const until = now + graceMs;
    const restored = [...this.deps.registry.all()];
    for (const ch of restored) for (const app of this.appsOf(ch)) apps.expect(app, until);
    for (const ch of restored) {
      if (this.waitsForApps(ch, now)) this.held.add(ch);
      else this.setGoing(ch);
    }
    if (!this.held.size) return;
    this.deps.log.info({ channels: this.held.size, graceMs }, 'restored channels wait for their applications to reconnect');
    apps.onActivate(() => {
      const t = Date.now(); // wall-clock I/O: the reconnect grace (see above)
      for (const ch of [...this.held]) if (!this.waitsForApps(ch, t)) this.release(ch);
    });
    // Wall-clock I/O: the reconnect grace runs on the system clock (see above).
    this.graceTimer = setTimeout(() => {
      for (const ch of [...this.held]) this.release(ch);
    }, graceMs);
  }

  /** Forgets a channel that ended while held. */
  forget(ch: Channel): void {
    this.held.delete(ch);
  }

  /** Stops waiting for the grace (the server stops). */
  stop(): void {
    clearTimeout(this.graceTimer);
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
    const { apps } = this.deps;
    for (const app of this.appsOf(ch)) if (apps.isAwaited(app, now)) return true;
    // Dialplan may run Stasis() with any application: it waits for all of them.
    return ch.d.pbx && apps.anyAwaited(now);
  }

  private release(ch: Channel): void {
    if (!this.held.delete(ch)) return;
    if (ch.d.ended === null && !this.deps.commits.stopped) this.setGoing(ch);
  }

  private setGoing(ch: Channel): void {
    // A sendDTMF under way at the kill still holds the queue until its last digit.
    if (ch.d.timers.some((t) => t.kind === 'dtmf')) void ch.rt.queue.enqueue(() => new Promise<void>((resolve) => (ch.rt.dtmfDone = resolve))).catch(() => {});
    for (const cmd of ch.d.queued) this.deps.commands.requeue(ch, cmd);
    for (const t of ch.d.timers) this.deps.timers.arm(ch, t);
  }
}
