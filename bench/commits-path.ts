// GET /api/v1/repos/{o}/{r}/commits?path=src/hot.txt on a 10,000-commit history in
// which every 7th commit touches that file: the first page, a deep page (git skips,
// counts and filters by path itself, so a page costs one walk), and the warm rate
// of the first page, against a bare node:http server returning the same JSON
// body from memory in the same run.
import { fmt, startTrunkline, warmAgainstBaseline, warmLines } from './_lib.js';
import { BENCH_ADMIN, call, setupRepo } from './_gitea.js';
import { afterIdle, importAndPush, type ImportCommit } from './_git-import.js';

const COMMITS = Number(process.env.BENCH_COMMITS ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

const server = await startTrunkline(BENCH_ADMIN);
const { auth, owner, repo } = await setupRepo(server.url, 'bench-log', { autoInit: false });
const push = new URL(`${server.url}/${owner}/${repo}.git`);
push.username = owner;
push.password = auth.authorization!.slice('token '.length);
function* history(): Generator<ImportCommit> {
  for (let i = 0; i < COMMITS; i++) yield { message: `change ${i}`, files: i % 7 === 0 ? { 'src/hot.txt': `version ${i}\n` } : { [`other/f-${i % 50}.txt`]: `${i}\n` } };
}
importAndPush(push.href, history());

const base = `${server.url}/api/v1/repos/${owner}/${repo}/commits?path=src/hot.txt`;
const first = await afterIdle(() => call(base, 'GET', auth));
const expected = Math.ceil(COMMITS / 7);
if (first.status !== 200 || first.body.length !== 50) throw new Error(`commits: ${first.status} ${first.text.slice(0, 200)}`);
const deep = await call(`${base}&page=${Math.floor(expected / 50)}`, 'GET', auth);
if (deep.status !== 200 || !deep.body.length) throw new Error(`deep page: ${deep.status} ${deep.text.slice(0, 200)}`);
const warm = await call(base, 'GET', auth);
const { ours, bare } = await warmAgainstBaseline(server, base, auth, warm.text, SECONDS);
console.log(`GET commits?path= on ${COMMITS} commits, ${expected} touching the path (pages of 50, stats and files on; 8 connections, ${SECONDS} s)`);
console.log(`  first page     ${fmt(first.ms, 0)} ms cold; deep page ${fmt(deep.ms, 0)} ms`);
console.log(`  warm           ${fmt(warm.ms, 1)} ms single request; ${fmt(ours.rps, 0)} req/s, p99 ${ours.p99} ms`);
for (const line of warmLines(ours, bare)) console.log(line);
