// File creation through the contents API on one repository: commits/s and latency,
// one writer and eight concurrent writers, against the same commits made with the
// git CLI's plumbing (hash-object, ls-tree + mktree, commit-tree, update-ref: the
// cheapest way to commit by spawning git, no temporary clone) in the same run.
// Target: ≥ 100 commits/s and p50 ≤ 15 ms for one writer.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, percentile, startTrunkline } from './_lib.js';
import { BENCH_ADMIN, call, setupRepo } from './_gitea.js';

const N = Number(process.env.BENCH_COMMITS ?? 400);
const WRITERS = 8;
const content = Buffer.from('hello from the benchmark\n').toString('base64');

const server = await startTrunkline(BENCH_ADMIN);
const { auth, owner, repo } = await setupRepo(server.url, 'bench-files');
const base = `${server.url}/api/v1/repos/${owner}/${repo}/contents`;

async function create(path: string): Promise<number> {
  const r = await call(`${base}/${path}`, 'POST', auth, { content, message: `add ${path}` });
  if (r.status !== 201) throw new Error(`create ${path}: ${r.status} ${r.text}`);
  return r.ms;
}

// Warm-up (JIT, caches), not counted.
for (let i = 0; i < 20; i++) await create(`warm/${i}.txt`);

let t0 = performance.now();
const seq: number[] = [];
for (let i = 0; i < N; i++) seq.push(await create(`one/${i}.txt`));
const seqSecs = (performance.now() - t0) / 1000;

t0 = performance.now();
const par: number[] = [];
await Promise.all(
  Array.from({ length: WRITERS }, async (_, w) => {
    for (let i = w; i < N; i += WRITERS) par.push(await create(`many/${i}.txt`));
  }),
);
const parSecs = (performance.now() - t0) / 1000;

const gitDir = join(server.dataDir!, 'git', '1.git');
const count = Number(execFileSync('git', ['--git-dir', gitDir, 'rev-list', '--count', 'main'], { encoding: 'utf8' }).trim());
const fsck = spawnSync('git', ['--git-dir', gitDir, 'fsck', '--no-progress'], { encoding: 'utf8' });
await server.stop();

// Baseline: the same commits by spawning git plumbing in a scratch bare repository.
const scratch = mkdtempSync(join(tmpdir(), 'trunkline-bench-git-'));
const g = (args: string[], input?: string) => execFileSync('git', ['--git-dir', scratch, ...args], { input, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' } }).trim();
execFileSync('git', ['init', '--bare', '--quiet', scratch]);
const baseLat: number[] = [];
let head = '';
t0 = performance.now();
for (let i = 0; i < N; i++) {
  const s = performance.now();
  const blob = g(['hash-object', '-w', '--stdin'], 'hello from the benchmark\n');
  const listing = head ? g(['ls-tree', head]) : '';
  const tree = g(['mktree'], `${listing ? `${listing}\n` : ''}100644 blob ${blob}\tf${i}.txt\n`);
  const commit = g(['commit-tree', tree, ...(head ? ['-p', head] : []), '-m', `add f${i}.txt`]);
  g(['update-ref', 'refs/heads/main', commit, head || '0000000000000000000000000000000000000000']);
  head = commit;
  baseLat.push(performance.now() - s);
}
const baseSecs = (performance.now() - t0) / 1000;
rmSync(scratch, { recursive: true, force: true });

const sorted = (a: number[]) => [...a].sort((x, y) => x - y);
const s1 = sorted(seq);
const s8 = sorted(par);
const sb = sorted(baseLat);
const rate1 = N / seqSecs;
const ok = rate1 >= 100 && percentile(s1, 50) <= 15;
// Every commit creates a handful of files (objects, the ref lock); on a virtual disk that cost moves the figures a lot.
const probe = mkdtempSync(join(tmpdir(), 'trunkline-disk-'));
const p0 = performance.now();
for (let i = 0; i < 500; i++) {
  writeFileSync(join(probe, `t${i}`), 'x');
  renameSync(join(probe, `t${i}`), join(probe, `f${i}`));
}
const createUs = ((performance.now() - p0) * 1000) / 500;
rmSync(probe, { recursive: true, force: true });

console.log(`POST /api/v1/repos/{o}/{r}/contents/{path}: ${N} new files per phase, one repository, one branch`);
console.log(`  one writer     ${fmt(rate1, 0)} commits/s, p50 ${fmt(percentile(s1, 50))} ms, p99 ${fmt(percentile(s1, 99))} ms`);
console.log(`  ${WRITERS} writers      ${fmt(N / parSecs, 0)} commits/s, p50 ${fmt(percentile(s8, 50))} ms, p99 ${fmt(percentile(s8, 99))} ms`);
console.log(`  git plumbing   ${fmt(N / baseSecs, 0)} commits/s, p50 ${fmt(percentile(sb, 50))} ms (5 git spawns per commit, same machine, same run)`);
console.log(`  ratio          ${fmt(rate1 / (N / baseSecs), 1)}× the plumbing baseline`);
console.log(`  disk           ${fmt(createUs, 0)} µs to create and rename a small file (each commit creates about five)`);
console.log(`  history        ${count} commits on main (expected ${2 * N + 21}); git fsck ${fsck.status === 0 ? 'clean' : `FAILED: ${fsck.stderr}`}`);
console.log(`  target         ≥ 100 commits/s and p50 ≤ 15 ms (one writer)  ${ok ? 'OK' : 'BELOW TARGET'}`);
if (count !== 2 * N + 21 || fsck.status !== 0) process.exit(1);
