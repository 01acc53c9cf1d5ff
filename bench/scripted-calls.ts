// 1,000 scripted callers advanced together on the virtual clock (SIM_CLOCK=virtual): each calls in
// (POST /sim/calls with a script), enters a Stasis app, presses a digit after 1 s and another after
// 10 s more, and hangs up a minute after it called. One `until=idle` advance runs the whole minute.
// Baseline: the simulated time itself (a real clock would take a minute); the figure is how many
// times faster than real time the advance ran, and the wall time per simulated call-minute.
import WebSocket from 'ws';
import { fmt, request, startTrunkline } from './_lib.js';

const COUNT = Number(process.env.BENCH_CHANNELS ?? 1000);
const CONCURRENCY = 32;
const SCRIPT = [{ wait_ms: 1000 }, { dtmf: '1' }, { wait_ms: 10_000 }, { dtmf: '2' }, { wait_ms: 48_800 }, { hangup: 16 }];
/** Simulated length of each call: the waits plus two digits of 100 ms. */
const CALL_MS = 1000 + 100 + 10_000 + 100 + 48_800;

const server = await startTrunkline({ SIM_CLOCK: 'virtual' });
const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ari/events?app=bench-script&api_key=asterisk:asterisk`);
await new Promise((r) => ws.once('open', r));
const counts = new Map<string, number>();
ws.on('message', (d) => {
  const type = /^\{"type":"(\w+)"/.exec(d.toString())?.[1] ?? '?';
  counts.set(type, (counts.get(type) ?? 0) + 1);
});

const AUTH = `Basic ${Buffer.from('asterisk:asterisk').toString('base64')}`;
const body = JSON.stringify({ variables: { STASIS_APP: 'bench-script' }, script: SCRIPT });
let next = 0;
let failures = 0;
const placed = Date.now();
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < COUNT) {
      next++;
      const r = await fetch(`${server.url}/sim/calls?endpoint=PJSIP/alice&extension=s`, { method: 'POST', body, headers: { 'content-type': 'application/json', authorization: AUTH } });
      await r.arrayBuffer();
      if (r.status !== 200) failures++;
    }
  }),
);
const placing = (Date.now() - placed) / 1000;
while ((counts.get('StasisStart') ?? 0) < COUNT - failures) await new Promise((r) => setTimeout(r, 20));

const t0 = Date.now();
const adv = await request(`${server.url}/sim/clock/advance?until=idle`, 'POST');
const wallMs = Date.now() - t0;
await new Promise((r) => setTimeout(r, 500));
ws.close();
await server.stop();

const simMs = CALL_MS;
console.log(`scripted calls (${fmt(COUNT, 0)} inbound callers following a ${fmt(CALL_MS / 1000, 1)} s script, advanced together on the virtual clock)`);
console.log(`  placed in           ${fmt(placing, 1)} s (failures ${failures})`);
console.log(`  advance until=idle  ${adv.status} in ${fmt(wallMs / 1000, 2)} s wall for ${fmt(simMs / 1000, 1)} s simulated: ${fmt(simMs / wallMs, 0)}× real time with all calls at once`);
console.log(`  per call-minute     ${fmt((wallMs / COUNT) * (60_000 / CALL_MS), 2)} ms wall (${fmt((COUNT * CALL_MS) / wallMs, 0)} simulated call-ms per wall ms)`);
console.log(`  events              ChannelDtmfReceived ${fmt(counts.get('ChannelDtmfReceived') ?? 0, 0)} (expected ${fmt(2 * COUNT, 0)}), StasisEnd ${fmt(counts.get('StasisEnd') ?? 0, 0)} (expected ${fmt(COUNT, 0)})`);
process.exit(0);
