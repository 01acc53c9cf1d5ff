// GET /api/v1/repos/{o}/{r}/raw/{path} of a small file (token auth, ETag and
// Last-Modified computed, content sniffed) against a bare node:http server
// returning the same bytes from memory, same load, same run.
// Target: ≥ 40% of the baseline's request rate.
import { fmt, reqPerSec, startBaseline, startTrunkline } from './_lib.js';
import { BENCH_ADMIN, call, setupRepo } from './_gitea.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const body = 'Hello from a small file in a git repository.\n'.repeat(10);

const server = await startTrunkline(BENCH_ADMIN);
const { auth, owner, repo } = await setupRepo(server.url, 'bench-raw');
const w = await call(`${server.url}/api/v1/repos/${owner}/${repo}/contents/docs/small.txt`, 'POST', auth, { content: Buffer.from(body).toString('base64') });
if (w.status !== 201) throw new Error(`write: ${w.status} ${w.text}`);
const url = `${server.url}/api/v1/repos/${owner}/${repo}/raw/docs/small.txt`;
const sample = await call(url, 'GET', auth);
if (sample.status !== 200 || sample.text !== body) throw new Error(`raw: ${sample.status} ${sample.text.slice(0, 200)}`);
const ours = await reqPerSec(url, { seconds: SECONDS, headers: auth });
await server.stop();

const baseline = await startBaseline(body, 'text/plain; charset=utf-8');
const base = await reqPerSec(baseline.url, { seconds: SECONDS });
await baseline.stop();

if (ours.non2xx || ours.errors) {
  console.log(`INVALID RUN: ${ours.non2xx} non-2xx answers, ${ours.errors} errors`);
  process.exit(1);
}
const ratio = ours.rps / base.rps;
console.log(`GET /api/v1/repos/{o}/{r}/raw/{path} (${body.length}-byte file, token auth, 50 connections, ${SECONDS} s)`);
console.log(`  trunkline      ${fmt(ours.rps, 0)} req/s, p99 ${ours.p99} ms`);
console.log(`  node:http      ${fmt(base.rps, 0)} req/s (same bytes from memory, same run)`);
console.log(`  ratio          ${fmt(ratio * 100, 1)}%   (target ≥ 40%)  ${ratio >= 0.4 ? 'OK' : 'BELOW TARGET'}`);
