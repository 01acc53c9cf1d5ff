// Simulated time on the virtual clock (SIM_CLOCK=virtual): how much faster than real
// time a busy call runs when a test advances the clock instead of waiting.
//
// A busy IVR call, one simulated minute per advance: the app plays a long list of
//    prompts to the caller and records the call, the caller talks all the time (a
//    looping sound, TALK_DETECT on) and presses a digit every 3 s. Every 20 ms media frame
//    is rendered, recorded and checked for talk; every event is committed and sent.
//    Figure: wall time per simulated minute, and the speed-up over real time.
//    Baseline (same run): one minute advanced with an answered call that carries no media
//    (the clock's own cost), and the server's CPU time for the busy minute.
// (Many calls at once: scripted-calls.ts.)
// Target (2 cores): ≥ 1,000× faster than real time for the busy call.
import WebSocket from 'ws';
import { AUTH, fmt, startTrunkline } from './_lib.js';

const MINUTES = Number(process.env.BENCH_MINUTES ?? 5);
const server = await startTrunkline({ SIM_CLOCK: 'virtual' });
const cpuMs = () => server.cpuMs();

const waits = new Map<string, () => void>();
const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ari/events?app=bench&api_key=asterisk:asterisk`, { perMessageDeflate: false });
await new Promise((r) => ws.once('open', r));
const seen = new Map<string, number>();
ws.on('message', (data) => {
  const e = JSON.parse(data.toString()) as { type: string; channel?: { id: string } };
  seen.set(e.type, (seen.get(e.type) ?? 0) + 1);
  if (e.type === 'StasisStart') waits.get(e.channel!.id)?.();
});

async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  const r = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: AUTH, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : null;
}
const advance = (ms: number) => call('POST', `/sim/clock/advance?ms=${ms}`);

async function answeredInApp(id: string): Promise<void> {
  const started = new Promise<void>((r) => waits.set(id, r));
  await call('POST', `/ari/channels?endpoint=PJSIP/instant&app=bench&channelId=${id}`);
  await advance(100);
  await started;
}

async function timedMinute(): Promise<{ wall: number; cpu: number }> {
  const c0 = cpuMs();
  const t0 = performance.now();
  await advance(60_000);
  return { wall: performance.now() - t0, cpu: cpuMs() - c0 };
}

// Baseline: the clock's own cost, a minute with an answered call and no media.
await answeredInApp('idle');
const base = await timedMinute();
await call('DELETE', '/ari/channels/idle');

// The busy IVR call.
await answeredInApp('ivr');
const prompts = Array.from({ length: 30 }, (_, i) => `sound:${['welcome', 'press-1', 'hello-world', 'goodbye'][i % 4]}`).join(',');
await call('POST', '/ari/channels/ivr/variable?variable=TALK_DETECT(set)&value=');
await call('POST', '/sim/channels/ivr/audio?source=sound&sound=hello-world&loop=true');
// The call is recorded through a bridge (a channel's own recording would hold its prompts back until it ends).
await call('POST', '/ari/bridges/ivr-br?type=mixing');
await call('POST', '/ari/bridges/ivr-br/addChannel?channel=ivr');
await call('POST', '/ari/bridges/ivr-br/record?name=bench-ivr&format=wav&maxDurationSeconds=0&ifExists=overwrite');
const minutes: { wall: number; cpu: number }[] = [];
seen.clear();
for (let m = 0; m < MINUTES; m++) {
  // Keep the call busy for the whole minute: prompts queued, a digit every 3 s.
  await call('POST', `/ari/channels/ivr/play?media=${encodeURIComponent(prompts)}`);
  await call('POST', '/sim/channels/ivr/dtmf?dtmf=12345678901234567890&duration=100&between=2900');
  minutes.push(await timedMinute());
}
await call('DELETE', '/ari/bridges/ivr-br');
await call('DELETE', '/ari/channels/ivr');
const wall = minutes.map((m) => m.wall).sort((a, b) => a - b);
const median = wall[Math.floor(wall.length / 2)]!;
const cpu = minutes.reduce((a, m) => a + m.cpu, 0) / minutes.length;
console.log(`busy IVR call: ${MINUTES} simulated minutes; wall per minute median ${fmt(median)} ms (min ${fmt(wall[0]!)}, max ${fmt(wall.at(-1)!)}), ` +
  `${fmt(60_000 / median)}× real time; server CPU ${fmt(cpu)} ms per minute`);
console.log(`events to the app during the busy minutes: ${[...seen].filter(([t]) => !['StasisStart', 'StasisEnd', 'ChannelDestroyed'].includes(t)).map(([t, n]) => `${t} ${n}`).join(', ')}`);
console.log(`baseline: one minute with an answered call and no media: ${fmt(base.wall)} ms wall, ${fmt(base.cpu)} ms CPU`);

ws.close();
await server.stop();
