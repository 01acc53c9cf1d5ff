import WebSocket from 'ws';
import { pollUntil, WAIT_MS } from './wait.js';

export { sleep, waitUntil, WAIT_MS } from './wait.js';

/** An ARI event as the tests read it (the envelope's fields typed, the rest open). */
export interface AriEvent {
  type: string;
  application: string;
  timestamp: string;
  asterisk_id: string;
  channel?: { id: string; name: string; state: string; [k: string]: any };
  [k: string]: any;
}

/** An event as the log reads it: JSON with a `type` (ARI's events, Gitea's repository events). */
export interface JsonEvent {
  type: string;
  [k: string]: any;
}

/** What a wait matches: an event type, or a predicate. */
export type Match<E extends JsonEvent = AriEvent> = string | ((e: E) => boolean);
const matcher = <E extends JsonEvent>(m: Match<E>) => (typeof m === 'string' ? (e: E) => e.type === m : m);

/** Events received on one WebSocket (ARI's by default), with waits that see both past and future events. */
export class EventLog<E extends JsonEvent = AriEvent> {
  readonly events: E[] = [];
  private waiters: Array<{ pred: (e: E) => boolean; resolve: (e: E) => void }> = [];
  closed: { code: number; reason: string } | undefined;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const e = JSON.parse(data.toString()) as E;
      this.events.push(e);
      this.waiters = this.waiters.filter((w) => {
        if (!w.pred(e)) return true;
        w.resolve(e);
        return false;
      });
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
    });
  }

  /** The first event (already received or still to come) matching; rejects after `timeoutMs`. */
  waitFor(m: Match<E>, timeoutMs = WAIT_MS): Promise<E> {
    const pred = matcher(m);
    const seen = this.events.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        reject(new Error(`timed out waiting for event ${typeof m === 'string' ? m : 'matching predicate'}; got: ${this.types().join(', ')}`));
      }, timeoutMs);
      const done = (e: E) => {
        clearTimeout(timer);
        resolve(e);
      };
      this.waiters.push({ pred, resolve: done });
    });
  }

  /** Waits until `n` events match. */
  async waitForCount(m: Match<E>, n: number, timeoutMs = WAIT_MS): Promise<E[]> {
    const pred = matcher(m);
    if (!(await pollUntil(() => this.events.filter(pred).length >= n, timeoutMs, 5))) throw new Error(`timed out waiting for ${n} events; got: ${this.types().join(', ')}`);
    return this.events.filter(pred);
  }

  /** Event types so far, optionally only those about one channel. */
  types(channelId?: string): string[] {
    return this.events.filter((e) => channelId === undefined || e.channel?.id === channelId || e.peer?.id === channelId).map((e) => e.type);
  }

  of(channelId: string): E[] {
    return this.events.filter((e) => e.channel?.id === channelId || e.peer?.id === channelId);
  }

  clear(): void {
    this.events.length = 0;
  }

  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}

/** Opens `/ari/events` for the apps and resolves once the socket is open. */
export function connectEvents(url: string, apps: string | string[], opts: { subscribeAll?: boolean; auth?: string } = {}): Promise<EventLog> {
  const q = new URLSearchParams({ app: ([] as string[]).concat(apps).join(','), api_key: opts.auth ?? 'asterisk:asterisk' });
  if (opts.subscribeAll) q.set('subscribeAll', 'true');
  return openEventLog(`${url.replace(/^http/, 'ws')}/ari/events?${q}`);
}

/**
 * Opens an event WebSocket at `url` (ws://…, ARI's or Gitea's) with its log attached before the
 * socket opens, so no event is missed; resolves once open, rejects naming a refused upgrade's status.
 */
export function openEventLog<E extends JsonEvent = AriEvent>(url: string, opts: WebSocket.ClientOptions = {}): Promise<EventLog<E>> {
  const ws = new WebSocket(url, opts);
  const log = new EventLog<E>(ws);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(log));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once('error', reject);
  });
}
