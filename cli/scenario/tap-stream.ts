import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { basicAuth } from '../../client/connection.js';
import { requestJson, type ScenarioHost } from './scenario-host.js';

/** One event the app under test was sent, in arrival order (`seq` from 0). */
export interface TappedEvent {
  seq: number;
  event: Record<string, any>;
}

/** Most events one run keeps: a runaway app cannot make the runner hold more. */
const MAX_EVENTS = 100_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function open(url: string, auth: string): Promise<WebSocket> {
  const ws = new WebSocket(url, { headers: { authorization: auth }, perMessageDeflate: false });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`${url.split('?')[0]} refused the upgrade: ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

/**
 * What the app under test receives, read through the server's event tap (GET /sim/events), and
 * a way to know the tap has caught up: a marker application of the runner's own shares the tap
 * socket, so a user event sent to it arrives after every frame sent before it.
 */
export class TapStream {
  readonly events: TappedEvent[] = [];
  /** Set when the tap closed under us (the server went away, or we fell behind). */
  closed: string | undefined;
  private markers = 0;
  private waiters: Array<{ name: string; resolve: () => void }> = [];
  private listeners: Array<(event: Record<string, any>) => void> = [];

  private constructor(
    private readonly host: ScenarioHost,
    private readonly tap: WebSocket,
    private readonly markerSocket: WebSocket,
    private readonly marker: string,
    app: string,
    keep: boolean,
  ) {
    tap.on('message', (data) => {
      const f = JSON.parse(data.toString()) as { app: string; event: Record<string, any> };
      if (f.app === app) {
        if (keep && this.events.length < MAX_EVENTS) this.events.push({ seq: this.events.length, event: f.event });
        for (const l of this.listeners) l(f.event);
        return;
      }
      const name = f.event.eventname;
      this.waiters = this.waiters.filter((w) => (w.name === name ? (w.resolve(), false) : true));
    });
    tap.on('close', (code) => {
      this.closed = `the event tap closed (${code})`;
      for (const w of this.waiters) w.resolve();
    });
  }

  /**
   * Opens the marker application's socket, then the tap of `app` and the marker. With
   * `keep: false` the events are only handed to onEvent listeners, not kept in `events`.
   */
  static async open(host: ScenarioHost, app: string, options: { keep?: boolean } = {}): Promise<TapStream> {
    const auth = basicAuth(host.ari);
    const ws = host.url.replace(/^http/, 'ws');
    const marker = `scenario-runner-${randomBytes(6).toString('hex')}`;
    const markerSocket = await open(`${ws}/ari/events?app=${marker}`, auth);
    const tap = await open(`${ws}/sim/events?app=${encodeURIComponent(app)},${marker}`, auth).catch((err) => {
      markerSocket.terminate();
      throw err;
    });
    return new TapStream(host, tap, markerSocket, marker, app, options.keep ?? true);
  }

  /** Calls `listener` with each event of the app, as it arrives. */
  onEvent(listener: (event: Record<string, any>) => void): void {
    this.listeners.push(listener);
  }

  /** Resolves once every frame the server sent the app before this call has arrived here. */
  async catchUp(): Promise<void> {
    if (this.closed) return;
    const name = `m${++this.markers}`;
    const arrived = new Promise<void>((resolve) => this.waiters.push({ name, resolve }));
    const r = await requestJson(this.host, 'POST', `/ari/events/user/${name}`, { application: this.marker });
    if (r.status !== 204) throw new Error(`the runner's marker event was refused: ${r.status} ${JSON.stringify(r.body)}`);
    await arrived;
  }

  /**
   * Waits until the app has gone `settleMs` wall milliseconds without being sent a new event
   * (checked through catchUp, so nothing in flight is missed); at most `maxRounds` windows.
   */
  async settle(settleMs: number, maxRounds = 100): Promise<void> {
    for (let i = 0; i < maxRounds && !this.closed; i++) {
      const seen = this.events.length;
      await sleep(settleMs);
      await this.catchUp();
      if (this.events.length === seen) return;
    }
  }

  close(): void {
    this.tap.terminate();
    this.markerSocket.terminate();
  }
}
