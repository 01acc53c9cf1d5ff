// Memory with many concurrent live channels: 20,000 answered channels sitting in a
// Stasis app (events flowing to its WebSocket), then the server's RSS.
// Baseline: the same server's RSS idle, measured in the same run.
// Target: 20,000 live channels in ≤ 512 MB RSS.
import WebSocket from 'ws';
import { fmt, request, startTrunkline } from './_lib.js';

const COUNT = Number(process.env.BENCH_CHANNELS ?? 20_000);
const CONCURRENCY = 64;

const server = await startTrunkline();
const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ari/events?app=bench-mem&api_key=asterisk:asterisk`);
await new Promise((r) => ws.once('open', r));
let started = 0;
ws.on('message', (d) => {
  if (d.toString().startsWith('{"type":"StasisStart"')) started++;
});
await new Promise((r) => setTimeout(r, 500));
const idle = server.rssMiB();

const t0 = Date.now();
let next = 0;
let failures = 0;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < COUNT) {
      const i = next++;
      const r = await request(`${server.url}/ari/channels?endpoint=PJSIP/instant&app=bench-mem&channelId=mem-${i}`, 'POST');
      if (r.status !== 200) failures++;
    }
  }),
);
while (started < COUNT - failures && Date.now() - t0 < 120_000) await new Promise((r) => setTimeout(r, 50));
const created = (Date.now() - t0) / 1000;
await new Promise((r) => setTimeout(r, 1000));
const loaded = server.rssMiB();
const list = await request(`${server.url}/ari/channels`, 'GET');
const live = (JSON.parse(list.body) as unknown[]).length;
ws.close();
await server.stop();

console.log(`live channels (${fmt(COUNT, 0)} answered PJSIP/instant channels in a Stasis app)`);
console.log(`  live after load     ${fmt(live, 0)} (StasisStart received for ${fmt(started, 0)}; originate failures ${failures}); created in ${fmt(created, 1)} s`);
console.log(`  server RSS idle     ${fmt(idle, 0)} MiB (baseline, same run)`);
console.log(`  server RSS loaded   ${fmt(loaded, 0)} MiB   (target ≤ 512)  ${loaded <= 512 ? 'OK' : 'ABOVE TARGET'}`);
console.log(`  per channel         ${fmt(((loaded - idle) * 1024) / Math.max(live, 1), 1)} KiB`);
process.exit(0);
