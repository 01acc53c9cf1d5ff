// GET /ari/channels/{id} request rate against a bare node:http server returning a
// body of the same size from memory, measured in the same run with the same load.
// Target: ≥ 50% of the baseline's request rate.
import WebSocket from 'ws';
import { AUTH, fmt, reqPerSec, request, startBaseline, startTrunkline } from './_lib.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

const server = await startTrunkline();
// The channel lives in an app with a WebSocket (without one, Stasis fails and the channel hangs up).
const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ari/events?app=bench-get&api_key=asterisk:asterisk`);
await new Promise((res) => ws.once('open', res));
let up = false;
ws.on('message', (d) => (up ||= d.toString().startsWith('{"type":"StasisStart"')));
const r = await request(`${server.url}/ari/channels?endpoint=PJSIP/instant&app=bench-get&channelId=bench-get-1`, 'POST');
if (r.status !== 200) throw new Error(`originate failed: ${r.status} ${r.body}`);
while (!up) await new Promise((res) => setTimeout(res, 10));
const url = `${server.url}/ari/channels/bench-get-1`;
const sample = await request(url, 'GET');
if (sample.status !== 200) throw new Error(`GET failed: ${sample.status} ${sample.body}`);
const ours = await reqPerSec(url, { seconds: SECONDS, headers: { authorization: AUTH } });
ws.close();
await server.stop();

const baseline = await startBaseline(sample.body);
const base = await reqPerSec(baseline.url, { seconds: SECONDS });
await baseline.stop();

if (ours.non2xx || ours.errors) {
  console.log(`INVALID RUN: ${ours.non2xx} non-2xx answers, ${ours.errors} errors`);
  process.exit(1);
}
const ratio = ours.rps / base.rps;
console.log(`GET /ari/channels/{id} (${sample.body.length}-byte body, 50 connections, ${SECONDS} s)`);
console.log(`  trunkline      ${fmt(ours.rps, 0)} req/s, p99 ${ours.p99} ms, errors ${ours.errors}, non-2xx ${ours.non2xx}`);
console.log(`  node:http      ${fmt(base.rps, 0)} req/s (same body from memory, same run)`);
console.log(`  ratio          ${fmt(ratio * 100, 1)}%   (target ≥ 50%)  ${ratio >= 0.5 ? 'OK' : 'BELOW TARGET'}`);
process.exit(0);
