// GET /api/v1/repos/{o}/{r}/contents/{dir} of a 1,000-entry directory: the first
// (cold) answer, which walks history once for the last commit of every entry, and
// the warm request rate, against a bare node:http server returning the same JSON
// body from memory in the same run.
import { fmt, startTrunkline, warmAgainstBaseline, warmLines } from './_lib.js';
import { BENCH_ADMIN, call, setupRepo } from './_gitea.js';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

const first = await startTrunkline(BENCH_ADMIN, { keepDataDir: true });
const { auth, owner, repo } = await setupRepo(first.url, 'bench-dir');
let api = `${first.url}/api/v1/repos/${owner}/${repo}`;
// Ten commits of 100 files each, so entries have different last commits.
for (let c = 0; c < ENTRIES / 100; c++) {
  const files = Array.from({ length: 100 }, (_, i) => ({ operation: 'create', path: `big/file-${String(c * 100 + i).padStart(4, '0')}.txt`, content: Buffer.from(`file ${c * 100 + i}\n`).toString('base64') }));
  const r = await call(`${api}/contents`, 'POST', auth, { files, message: `batch ${c}` });
  if (r.status !== 201) throw new Error(`batch ${c}: ${r.status} ${r.text}`);
}
// A fresh server process would be colder still; restart-free, the first request after the writes is what clients see.
const cold = await call(`${api}/contents/big`, 'GET', auth);
if (cold.status !== 200 || cold.body.length !== ENTRIES) throw new Error(`listing: ${cold.status} ${cold.text.slice(0, 200)}`);
// The same listing from a restarted server: nothing cached, the objects as the API wrote them (loose).
await first.stop();
const server = await startTrunkline(BENCH_ADMIN, { dataDir: first.dataDir! });
api = `${server.url}/api/v1/repos/${owner}/${repo}`;
// One small request first (the root's two entries), so the figure is the listing's, not the new process's first request.
const warmUp = await call(`${api}/contents`, 'GET', auth);
const restarted = await call(`${api}/contents/big`, 'GET', auth);
if (restarted.status !== 200 || restarted.text !== cold.text.replaceAll(first.url, server.url)) throw new Error(`listing after restart: ${restarted.status} ${restarted.text.slice(0, 200)}`);
const warm = await call(`${api}/contents/big`, 'GET', auth);
const { ours, bare: base } = await warmAgainstBaseline(server, `${api}/contents/big`, auth, warm.text, SECONDS);
console.log(`GET contents of a ${ENTRIES}-entry directory (${fmt(warm.text.length / 1024, 0)} KiB of JSON, 8 connections, ${SECONDS} s)`);
console.log(`  first answer   ${fmt(cold.ms, 0)} ms (history walked once for every entry's last commit)`);
console.log(`  after restart  ${fmt(restarted.ms, 0)} ms (nothing of it cached: every size and commit read from loose objects; the process's first request, the root's listing, took ${fmt(warmUp.ms, 0)} ms)`);
console.log(`  warm           ${fmt(warm.ms, 1)} ms single request; ${fmt(ours.rps, 0)} req/s, p99 ${ours.p99} ms`);
for (const line of warmLines(ours, base)) console.log(line);
