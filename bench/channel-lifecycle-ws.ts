// Channel lifecycles per second driven entirely over the event WebSocket (REST over WebSocket:
// RESTRequest frames answered by RESTResponse on the same socket): originate → StasisStart →
// hangup → ChannelDestroyed, many in flight. Baseline: the same lifecycle driven over HTTP
// (events still read over the socket), against the same server in the same run. Figures are
// reported, not held to a target.
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { fmt, percentile, request, startTrunkline } from './_lib.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 32);
/** Sockets the WebSocket-driven workers share (each serves its own application; requests on one socket run one at a time). */
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1);

interface Frame {
  type: string;
  request_id?: string;
  status_code?: number;
  channel?: { id: string };
}

/** One event socket: the events of its application, and the answers to the requests sent on it. */
class Socket {
  private readonly events = new Map<string, { event: string; resolve: () => void }>();
  private readonly answers = new Map<string, (status: number) => void>();
  private next = 0;

  constructor(readonly ws: WebSocket, readonly app: string) {
    ws.on('message', (data) => {
      // Only the envelope, ids and status matter; this parse is the client's cost, not the server's.
      const f = JSON.parse(data.toString()) as Frame;
      if (f.type === 'RESTResponse') {
        const done = this.answers.get(f.request_id!);
        this.answers.delete(f.request_id!);
        done?.(f.status_code!);
        return;
      }
      const id = f.channel?.id;
      const w = id === undefined ? undefined : this.events.get(id);
      if (w && w.event === f.type) {
        this.events.delete(id!);
        w.resolve();
      }
    });
  }

  static async open(url: string, app: string): Promise<Socket> {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/ari/events?app=${app}&api_key=asterisk:asterisk`);
    await new Promise((r) => ws.once('open', r));
    return new Socket(ws, app);
  }

  eventFor(id: string, event: string): Promise<void> {
    return new Promise((resolve) => this.events.set(id, { event, resolve }));
  }

  forget(id: string): void {
    this.events.delete(id);
  }

  /** Sends a RESTRequest; resolves with the answer's status. */
  rest(method: string, uri: string): Promise<number> {
    const request_id = String(this.next++);
    return new Promise((resolve) => {
      this.answers.set(request_id, resolve);
      this.ws.send(JSON.stringify({ type: 'RESTRequest', request_id, method, uri }));
    });
  }
}

type Driver = (s: Socket, method: string, uri: string) => Promise<number>;
const overHttp = (base: string): Driver => async (_s, method, uri) => (await request(`${base}/ari/${uri}`, method)).status;
const overSocket: Driver = (s, method, uri) => s.rest(method, uri);

/** Runs lifecycles for SECONDS with IN_FLIGHT workers spread over `sockets`. */
async function measure(sockets: Socket[], drive: Driver): Promise<{ rate: number; latencies: number[]; failures: number }> {
  const latencies: number[] = [];
  let done = 0;
  let failures = 0;
  const deadline = Date.now() + SECONDS * 1000;
  async function worker(s: Socket): Promise<void> {
    while (Date.now() < deadline) {
      const id = randomUUID();
      const started = s.eventFor(id, 'StasisStart');
      const t0 = performance.now();
      if ((await drive(s, 'POST', `channels?endpoint=PJSIP/instant&app=${s.app}&channelId=${id}`)) !== 200) {
        failures++;
        s.forget(id);
        continue;
      }
      await started;
      latencies.push(performance.now() - t0);
      const destroyed = s.eventFor(id, 'ChannelDestroyed');
      if ((await drive(s, 'DELETE', `channels/${id}`)) !== 204) failures++;
      await destroyed;
      done++;
    }
  }
  const t0 = Date.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, (_, i) => worker(sockets[i % sockets.length]!)));
  latencies.sort((a, b) => a - b);
  return { rate: done / ((Date.now() - t0) / 1000), latencies, failures };
}

const server = await startTrunkline();
const sockets = await Promise.all(Array.from({ length: SOCKETS }, (_, i) => Socket.open(server.url, `bench-${i}`)));
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, server.rssMiB())), 250);
const http = await measure(sockets, overHttp(server.url));
const ws = await measure(sockets, overSocket);
clearInterval(sampler);
peakRss = Math.max(peakRss, server.rssMiB());
for (const s of sockets) s.ws.close();
await server.stop();

const line = (r: { rate: number; latencies: number[] }) =>
  `${fmt(r.rate, 0)} lifecycles/s; originate→StasisStart p50 ${fmt(percentile(r.latencies, 50), 2)} ms, p99 ${fmt(percentile(r.latencies, 99), 2)} ms`;
console.log(`channel lifecycle driven over the event socket (${IN_FLIGHT} in flight on ${SOCKETS} socket${SOCKETS === 1 ? '' : 's'}, ${SECONDS} s each, PJSIP/instant)`);
console.log(`  over REST-over-WebSocket  ${line(ws)}   (${fmt((ws.rate / http.rate) * 100, 0)}% of the HTTP rate)`);
console.log(`  over HTTP (same run)      ${line(http)}`);
console.log(`  server RSS peak           ${fmt(peakRss, 0)} MiB`);
console.log(`  failures                  ${ws.failures} over the socket, ${http.failures} over HTTP`);
process.exit(0);
