// Push mirrors: (1) push_mirrors-sync of a repository with 1,000 commits to an empty
// bare repository, against a plain `git push --mirror` of the same repository to
// another empty one in the same run (target: within 1.2×); (2) the queue's
// throughput with 100 mirrors due at once (sync_on_commit mirrors, one commit).
// Mirror targets are bare repositories on this disk (file://, which needs a site
// admin and MIRROR_ALLOW_LOCAL_NETWORKS): the network is loopback-only here anyway.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, startTrunkline } from './_lib.js';
import { BENCH_ADMIN, call, setupRepo } from './_gitea.js';

const COMMITS = Number(process.env.BENCH_COMMITS ?? 1000);
const MIRRORS = Number(process.env.BENCH_MIRRORS ?? 100);
const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const git = (args: string[], input?: string) => execFileSync('git', args, { env: gitEnv, input, maxBuffer: 1 << 28, stdio: ['pipe', 'pipe', 'ignore'] }).toString();

const work = mkdtempSync(join(tmpdir(), 'trunkline-bench-mirror-'));
const server = await startTrunkline({ ...BENCH_ADMIN, MIRROR_ALLOW_LOCAL_NETWORKS: 'true', MIRROR_QUEUE_CONCURRENCY: '4' });
try {
  const { auth, owner, repo } = await setupRepo(server.url, 'bench-mirror');
  const info = await call(`${server.url}/api/v1/repos/${owner}/${repo}`, 'GET', auth);
  const gitDir = join(server.dataDir!, 'git', `${info.body.id}.git`);

  // 1,000 commits (each a new file) in one fast-import, on top of the initial commit.
  let stream = '';
  for (let i = 0; i < COMMITS; i++) {
    const msg = `commit ${i}\n`;
    const body = `file ${i}\n`;
    stream += `commit refs/heads/main\ncommitter Bench <bench@example.com> ${1_700_000_000 + i} +0000\ndata ${msg.length}\n${msg}`;
    if (i === 0) stream += 'from refs/heads/main^0\n';
    stream += `M 100644 inline files/${i}.txt\ndata ${body.length}\n${body}\n`;
  }
  git(['--git-dir', gitDir, 'fast-import', '--quiet'], stream);

  // (1) one mirror, synced on demand, against plain git push --mirror.
  const target = join(work, 'target.git');
  git(['init', '-q', '--bare', target]);
  const add = await call(`${server.url}/api/v1/repos/${owner}/${repo}/push_mirrors`, 'POST', auth, { remote_address: `file://${target}`, interval: '0' });
  if (add.status !== 200) throw new Error(`add mirror: ${add.status} ${add.text}`);
  const sync = await call(`${server.url}/api/v1/repos/${owner}/${repo}/push_mirrors-sync`, 'POST', auth);
  if (sync.status !== 200) throw new Error(`sync: ${sync.status} ${sync.text}`);
  const ours = sync.ms;
  const plainTarget = join(work, 'plain.git');
  git(['init', '-q', '--bare', plainTarget]);
  let t0 = performance.now();
  git(['--git-dir', gitDir, 'push', '--quiet', '--mirror', plainTarget]);
  const plain = performance.now() - t0;
  const same = git(['--git-dir', target, 'for-each-ref']) === git(['--git-dir', plainTarget, 'for-each-ref']);

  // (2) many mirrors due at once: sync_on_commit mirrors, then one commit.
  const targets: string[] = [];
  for (let i = 0; i < MIRRORS; i++) {
    const t = join(work, `many-${i}.git`);
    git(['init', '-q', '--bare', t]);
    targets.push(t);
    const r = await call(`${server.url}/api/v1/repos/${owner}/${repo}/push_mirrors`, 'POST', auth, { remote_address: `file://${t}`, interval: '0', sync_on_commit: true });
    if (r.status !== 200) throw new Error(`add mirror ${i}: ${r.status} ${r.text}`);
  }
  t0 = performance.now();
  const commit = await call(`${server.url}/api/v1/repos/${owner}/${repo}/contents/queue.txt`, 'POST', auth, { content: Buffer.from('go\n').toString('base64') });
  if (commit.status !== 201) throw new Error(`commit: ${commit.status} ${commit.text}`);
  const head = commit.body.commit.sha as string;
  const deadline = Date.now() + 10 * 60_000;
  const pending = new Set(targets);
  while (pending.size && Date.now() < deadline) {
    for (const t of [...pending]) {
      try {
        if (git(['--git-dir', t, 'rev-parse', 'refs/heads/main']).trim() === head) pending.delete(t);
      } catch {}
    }
    if (pending.size) await new Promise((r) => setTimeout(r, 50));
  }
  const queueSecs = (performance.now() - t0) / 1000;

  const ratio = ours / plain;
  console.log(`Push mirror sync of ${COMMITS + 1} commits to an empty bare repository (file://)`);
  console.log(`  trunkline      ${fmt(ours, 0)} ms (POST push_mirrors-sync, answered when the push is done)`);
  console.log(`  git push       ${fmt(plain, 0)} ms (plain git push --mirror, same repository, same run)`);
  console.log(`  ratio          ${fmt(ratio, 2)}×   (target ≤ 1.2×)  ${ratio <= 1.2 ? 'OK' : 'ABOVE TARGET'}${same ? '' : '   REFS DIFFER'}`);
  console.log(`Queue: ${MIRRORS} sync_on_commit mirrors due at once (one commit), concurrency 4`);
  console.log(`  all synced     ${pending.size ? `NO: ${pending.size} not synced after 10 min` : `${fmt(queueSecs, 2)} s, ${fmt(MIRRORS / queueSecs, 1)} syncs/s`}`);
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
