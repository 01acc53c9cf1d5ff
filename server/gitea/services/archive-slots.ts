/** How many archives may be made at once, per client, and how many may wait. */
export interface ArchiveLimits {
  /** Archives (git processes) made at once, in all. */
  maxConcurrent: number;
  /** Archives one client (a user, or an address for anonymous callers) makes at once; as many more may wait. */
  maxPerClient: number;
  /** Requests waiting for a slot, in all. */
  queueLength: number;
}

/** Why a request gets no slot: the client already has its share running and waiting, or the queue is full. */
export class ArchiveBusy extends Error {
  constructor(readonly who: 'client' | 'server') {
    super(who === 'client' ? 'too many archive requests from this client' : 'too many archives are being made');
  }
}

/** A held slot; releasing it twice is harmless. */
export interface ArchiveSlot {
  release(): void;
}

interface Waiter {
  client: string;
  grant(slot: ArchiveSlot): void;
}

interface ClientCount {
  running: number;
  waiting: number;
}

/**
 * Admission for archive downloads, each of which runs a git process whose
 * memory and CPU grow with the repository: at most `maxConcurrent` at once,
 * `maxPerClient` per client, the rest waiting in one FIFO queue. When a slot
 * frees, the first waiter whose client is under its share gets it (a client
 * at its share does not hold up the others behind it). A waiter whose client
 * goes away leaves the queue.
 */
export class ArchiveSlots {
  private running = 0;
  private readonly clients = new Map<string, ClientCount>();
  private readonly queue: Waiter[] = [];

  constructor(private readonly limits: ArchiveLimits) {}

  /** Slots in use and requests waiting (for tests and logs). */
  get stats(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.queue.length };
  }

  /**
   * A slot for `client`: at once when one is free, else after waiting.
   * Throws ArchiveBusy when the client's share or the queue is full; rejects
   * with the signal's reason when it aborts while waiting.
   */
  async acquire(client: string, signal: AbortSignal): Promise<ArchiveSlot> {
    signal.throwIfAborted();
    const count = this.count(client);
    if (this.running < this.limits.maxConcurrent && count.running < this.limits.maxPerClient) return this.grant(client);
    if (count.waiting >= this.limits.maxPerClient) {
      this.forget(client);
      throw new ArchiveBusy('client');
    }
    if (this.queue.length >= this.limits.queueLength) {
      this.forget(client);
      throw new ArchiveBusy('server');
    }
    count.waiting++;
    return new Promise<ArchiveSlot>((resolve, reject) => {
      const waiter: Waiter = {
        client,
        grant: (slot) => {
          signal.removeEventListener('abort', onAbort);
          resolve(slot);
        },
      };
      const onAbort = () => {
        const i = this.queue.indexOf(waiter);
        if (i < 0) return;
        this.queue.splice(i, 1);
        count.waiting--;
        this.forget(client);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  private count(client: string): ClientCount {
    let c = this.clients.get(client);
    if (!c) this.clients.set(client, (c = { running: 0, waiting: 0 }));
    return c;
  }

  private forget(client: string): void {
    const c = this.clients.get(client);
    if (c && !c.running && !c.waiting) this.clients.delete(client);
  }

  private grant(client: string): ArchiveSlot {
    this.running++;
    this.count(client).running++;
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.running--;
        this.count(client).running--;
        this.forget(client);
        this.dispatch();
      },
    };
  }

  /** Hands free slots to the first waiters whose clients are under their share. */
  private dispatch(): void {
    for (let i = 0; i < this.queue.length && this.running < this.limits.maxConcurrent; ) {
      const w = this.queue[i]!;
      const c = this.count(w.client);
      if (c.running >= this.limits.maxPerClient) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      c.waiting--;
      w.grant(this.grant(w.client));
    }
  }
}
