// Media at scale: 1,000 Local pairs (2,000 channels) in a Stasis app; on each pair
// ;1 plays a list of prompts while ;2 records what ;1 sends, so every 20 ms frame is
// really rendered, mixed and encoded in real time (SIM_TIME_SCALE=1).
// Measures: playback timing error (PlaybackStarted→PlaybackFinished vs the prompts'
// real duration), recording timing error and the recorded audio's length, server CPU
// and RSS. Baseline: the same server idle, in the same run.
// Targets (2 cores): ≥ 2,000 channels with media in real time; event timing error p99 ≤ 20 ms.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { RATE } from '../server/ari/media/pcm.js';
import { wavToSlin } from '../server/ari/media/wav.js';
import { AUTH, fmt, percentile, startTrunkline } from './_lib.js';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 1000);
const RECORD_S = Number(process.env.BENCH_RECORD_SECONDS ?? 8);
const MEDIA = ['welcome', 'press-1', 'hello-world', 'goodbye'];
const mediaMs = MEDIA.reduce((a, id) => a + (wavToSlin(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'ari', 'sounds', 'en', `${id}.wav`)), RATE).length * 1000) / RATE, 0);

const server = await startTrunkline();
const cpu = () => server.cpuMs() / 1000;
const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ari/events?app=bench&api_key=asterisk:asterisk`, { perMessageDeflate: false });
await new Promise((r) => ws.once('open', r));

const waits = new Map<string, () => void>();
const starts = new Map<string, number>();
const playErr: number[] = [];
const recErr: number[] = [];
const recDur: number[] = [];
const lag: number[] = [];
let finishedPlays = 0;
let finishedRecs = 0;
/** Event timestamps are the server's clock when it raised the event (ms resolution). */
const at = (ts: string) => Date.parse(ts.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
ws.on('message', (data) => {
  const e = JSON.parse(data.toString()) as { type: string; timestamp: string; channel?: { id: string }; playback?: { id: string; state: string }; recording?: { name: string; duration?: number } };
  const t = at(e.timestamp);
  lag.push(Date.now() - t);
  if (e.type === 'StasisStart') waits.get(`start:${e.channel!.id}`)?.();
  else if (e.type === 'PlaybackStarted' && !starts.has(`p:${e.playback!.id}`)) starts.set(`p:${e.playback!.id}`, t);
  else if (e.type === 'PlaybackFinished') {
    const s = starts.get(`p:${e.playback!.id}`);
    if (s !== undefined && e.playback!.state === 'done') playErr.push(Math.abs(t - s - mediaMs));
    finishedPlays++;
  } else if (e.type === 'RecordingStarted') starts.set(`r:${e.recording!.name}`, t);
  else if (e.type === 'RecordingFinished') {
    const s = starts.get(`r:${e.recording!.name}`);
    if (s !== undefined) recErr.push(Math.abs(t - s - RECORD_S * 1000));
    recDur.push(e.recording!.duration ?? 0);
    finishedRecs++;
  }
});
const started = (id: string) => new Promise<void>((r) => waits.set(`start:${id}`, r));

async function post(path: string, body?: unknown): Promise<number> {
  const r = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: AUTH, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
  await r.arrayBuffer();
  return r.status;
}

await new Promise((r) => setTimeout(r, 500));
const idleRss = server.rssMiB();
let failures = 0;

// Bring the pairs up (64 at a time), then start media on all of them together.
const t0 = Date.now();
let next = 0;
await Promise.all(Array.from({ length: 64 }, async () => {
  while (next < PAIRS) {
    const i = next++;
    const both = Promise.all([started(`m${i}`), started(`m${i};2`)]);
    if ((await post(`/ari/channels?endpoint=Local/1000@default&app=bench&channelId=m${i}`, { variables: { STASIS_APP: 'bench' } })) !== 200) failures++;
    else await both;
  }
}));
const setupS = (Date.now() - t0) / 1000;

const cpu0 = cpu();
const w0 = Date.now();
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, server.rssMiB())), 500);
next = 0;
await Promise.all(Array.from({ length: 64 }, async () => {
  while (next < PAIRS) {
    const i = next++;
    if ((await post(`/ari/channels/m${i};2/record?name=bench/m${i}&format=slin&maxDurationSeconds=${RECORD_S}`)) !== 201) failures++;
    if ((await post(`/ari/channels/m${i}/play?media=${MEDIA.map((m) => `sound:${m}`).join(',')}`)) !== 201) failures++;
  }
}));
const deadline = Date.now() + (RECORD_S + 20) * 1000;
while ((finishedRecs < PAIRS || finishedPlays < PAIRS) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
const wall = (Date.now() - w0) / 1000;
const cpuUsed = cpu() - cpu0;
clearInterval(sampler);
peakRss = Math.max(peakRss, server.rssMiB());
ws.close();
await server.stop();

playErr.sort((a, b) => a - b);
recErr.sort((a, b) => a - b);
const err = [...playErr, ...recErr].sort((a, b) => a - b);
const p99 = percentile(err, 99);
const fullLength = recDur.filter((d) => d >= RECORD_S).length;
console.log(`media at scale (${PAIRS} Local pairs = ${PAIRS * 2} channels: ${PAIRS} playbacks of ${fmt(mediaMs / 1000, 2)} s + ${PAIRS} recordings of ${RECORD_S} s, real time)`);
console.log(`  set-up              ${fmt(setupS, 1)} s; failures ${failures}`);
console.log(`  playbacks finished  ${finishedPlays}/${PAIRS}; timing error p50 ${fmt(percentile(playErr, 50), 1)} ms, p99 ${fmt(percentile(playErr, 99), 1)} ms`);
console.log(`  recordings finished ${finishedRecs}/${PAIRS}; timing error p50 ${fmt(percentile(recErr, 50), 1)} ms, p99 ${fmt(percentile(recErr, 99), 1)} ms; full length ${fullLength}/${recDur.length}`);
console.log(`  event timing error  p99 ${fmt(p99, 1)} ms   (target ≤ 20 ms; from the events' server timestamps)  ${p99 <= 20 && finishedPlays === PAIRS && finishedRecs === PAIRS ? 'OK' : 'MISSED'}`);
lag.sort((a, b) => a - b);
console.log(`  delivery lag        p50 ${fmt(percentile(lag, 50), 0)} ms, p99 ${fmt(percentile(lag, 99), 0)} ms (event raised → read by this client)`);
console.log(`  server CPU          ${fmt((cpuUsed / wall) * 100, 0)}% of one core over ${fmt(wall, 1)} s`);
console.log(`  server RSS          idle ${fmt(idleRss, 0)} MiB (baseline, same run); peak ${fmt(peakRss, 0)} MiB`);
process.exit(0);
