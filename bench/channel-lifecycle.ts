// Channel lifecycles per second: originate → StasisStart → hangup → ChannelDestroyed,
// many in flight, events read over the app's WebSocket. Baseline: a bare node:http
// hello-world, measured in the same run with the same client.
// Targets (2 cores): ≥ 1,000 lifecycles/s, p99 originate→StasisStart ≤ 25 ms.
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { fmt, percentile, reqPerSec, request, startBaseline, startTrunkline } from './_lib.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 32);

const baseline = await startBaseline();
const base = await reqPerSec(baseline.url, { seconds: Math.min(SECONDS, 8) });
await baseline.stop();

const server = await startTrunkline();
const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ari/events?app=bench&api_key=asterisk:asterisk`);
await new Promise((r) => ws.once('open', r));
const waiting = new Map<string, { event: string; resolve: () => void }>();
ws.on('message', (data) => {
  // Only the envelope and channel id matter; this parse is the client's cost, not the server's.
  const e = JSON.parse(data.toString()) as { type: string; channel?: { id: string } };
  const id = e.channel?.id;
  if (!id) return;
  const w = waiting.get(id);
  if (w && w.event === e.type) {
    waiting.delete(id);
    w.resolve();
  }
});
const eventFor = (id: string, event: string) => new Promise<void>((resolve) => waiting.set(id, { event, resolve }));

const latencies: number[] = [];
let done = 0;
let failures = 0;
let peakRss = 0;
const deadline = Date.now() + SECONDS * 1000;

async function worker(): Promise<void> {
  while (Date.now() < deadline) {
    const id = randomUUID();
    const started = eventFor(id, 'StasisStart');
    const t0 = performance.now();
    const r = await request(`${server.url}/ari/channels?endpoint=PJSIP/instant&app=bench&channelId=${id}`, 'POST');
    if (r.status !== 200) {
      failures++;
      waiting.delete(id);
      continue;
    }
    await started;
    latencies.push(performance.now() - t0);
    const destroyed = eventFor(id, 'ChannelDestroyed');
    const h = await request(`${server.url}/ari/channels/${id}`, 'DELETE');
    if (h.status !== 204) failures++;
    await destroyed;
    done++;
  }
}
const sampler = setInterval(() => (peakRss = Math.max(peakRss, server.rssMiB())), 250);
const t0 = Date.now();
await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
const elapsed = (Date.now() - t0) / 1000;
clearInterval(sampler);
peakRss = Math.max(peakRss, server.rssMiB());
ws.close();
await server.stop();

latencies.sort((a, b) => a - b);
const rate = done / elapsed;
console.log(`channel lifecycle (${IN_FLIGHT} in flight, ${SECONDS} s, PJSIP/instant)`);
console.log(`  lifecycles/s           ${fmt(rate, 0)}   (target ≥ 1,000)  ${rate >= 1000 ? 'OK' : 'BELOW TARGET'}`);
console.log(`  originate→StasisStart  p50 ${fmt(percentile(latencies, 50), 2)} ms, p99 ${fmt(percentile(latencies, 99), 2)} ms   (target p99 ≤ 25 ms)  ${percentile(latencies, 99) <= 25 ? 'OK' : 'ABOVE TARGET'}`);
console.log(`  server RSS peak        ${fmt(peakRss, 0)} MiB`);
console.log(`  failures               ${failures}`);
console.log(`  baseline node:http     ${fmt(base.rps, 0)} req/s (hello-world, same run); one lifecycle is 2 requests + 9 events: ${fmt((rate * 2) / base.rps * 100, 1)}% of baseline request rate`);
process.exit(0);
