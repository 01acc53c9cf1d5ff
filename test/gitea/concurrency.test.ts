import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { apiError } from '../_helpers/api-error.js';
import { git, gitAsync, gitDirOf, useGitea } from '../_helpers/gitea.js';
import { b64, fsck, lsTree, revParse } from './_contents.js';

const test = suite('concurrency');
const ctx = useGitea(test);

/** git's trimmed output, without blocking the event loop (the server under test runs in this process). */
const gitOut = async (args: string[], input?: string) => (await gitAsync(args, { input })).stdout.trim();

const shas = new Set<string>();
const dirs = new Set<string>();

async function newRepo(name: string) {
  const r = await ctx.g.repo(name);
  const dir = gitDirOf(ctx.g, r.id);
  dirs.add(dir);
  return { name, id: r.id, dir };
}

/** Every commit is on `branch` (reachable from its tip). */
function assertReachable(dir: string, branch: string, commits: string[]) {
  const all = new Set(git(['--git-dir', dir, 'rev-list', `refs/heads/${branch}`]).stdout.trim().split('\n'));
  const lost = commits.filter((c) => !all.has(c));
  assert.equal(lost, [], `acknowledged commits missing from ${branch}`);
}

function record(sha: string) {
  assert.not.ok(shas.has(sha), `commit ${sha} acknowledged twice`);
  shas.add(sha);
}

test('40 parallel creates of different files on one branch: every one acknowledged, committed once, reachable', async () => {
  const { g } = ctx;
  const repo = await newRepo('burst');
  const start = revParse(repo.dir, 'main');
  const N = 40;
  const res = await Promise.all(Array.from({ length: N }, (_, i) => g.api('POST', `/api/v1/repos/root/burst/contents/dir${i % 4}/f${i}.txt`, { json: { content: b64(`file ${i}\n`) } })));
  assert.equal(res.map((r) => r.status), Array(N).fill(201), res.map((r) => r.text).find((t) => !t.startsWith('{"content"')));
  const commits = res.map((r) => r.body.commit.sha as string);
  for (const c of commits) record(c);
  assertReachable(repo.dir, 'main', commits);
  // One linear history: the start, then exactly N commits, each with one parent.
  assert.is(git(['--git-dir', repo.dir, 'rev-list', '--count', `${start}..main`]).stdout.trim(), String(N));
  assert.is(git(['--git-dir', repo.dir, 'rev-list', '--merges', '--count', 'main']).stdout.trim(), '0');
  for (let i = 0; i < N; i++) {
    assert.is(git(['--git-dir', repo.dir, 'show', `main:dir${i % 4}/f${i}.txt`]).stdout, `file ${i}\n`);
    // Each answer describes its own commit: the file as that commit has it.
    assert.is(res[i]!.body.content.last_commit_sha, commits[i]);
    assert.is(res[i]!.body.content.sha, lsTree(repo.dir, commits[i]!, `dir${i % 4}/f${i}.txt`)!.sha);
  }
});

test('parallel updates of one file with the same sha: exactly one wins each round, the others get 422 sha mismatch', async () => {
  const { g } = ctx;
  const repo = await newRepo('contended');
  await g.commit('root', 'contended', { 'hot.txt': 'round 0\n' });
  for (let round = 1; round <= 5; round++) {
    const sha = lsTree(repo.dir, 'main', 'hot.txt')!.sha;
    const res = await Promise.all(
      Array.from({ length: 10 }, (_, i) => g.api('PUT', '/api/v1/repos/root/contended/contents/hot.txt', { json: { content: b64(`round ${round} writer ${i}\n`), sha } })),
    );
    const winners = res.filter((r) => r.status === 200);
    assert.is(winners.length, 1, `round ${round}: ${res.map((r) => r.status).join(',')}`);
    const w = winners[0]!;
    record(w.body.commit.sha);
    assert.is(revParse(repo.dir, 'main'), w.body.commit.sha);
    const now = lsTree(repo.dir, 'main', 'hot.txt')!.sha;
    assert.is(w.body.content.sha, now);
    for (const r of res) {
      if (r === w) continue;
      assert.is(r.status, 422, r.text);
      assert.equal(r.body, apiError(g, `sha does not match [given: ${sha}, expected: ${now}]`));
    }
  }
  assert.is(git(['--git-dir', repo.dir, 'rev-list', '--count', 'main']).stdout.trim(), String(1 + 1 + 5));
});

test('writes to two branches at once: each commit lands on its own branch only', async () => {
  const { g } = ctx;
  const repo = await newRepo('forked');
  await g.commit('root', 'forked', { 'base.txt': 'base\n' }, { newBranch: 'side' });
  const base = revParse(repo.dir, 'main');
  const jobs = Array.from({ length: 30 }, (_, i) => {
    const branch = i % 2 ? 'side' : 'main';
    return g.api('POST', '/api/v1/repos/root/forked/contents', {
      json: { branch, files: [{ operation: 'create', path: `${branch}/${i}.txt`, content: b64(String(i)) }, { operation: 'upload', path: `${branch}.log`, content: b64(`last ${i}`) }] },
    }).then((r) => ({ branch, r }));
  });
  const res = await Promise.all(jobs);
  for (const { r } of res) assert.is(r.status, 201, r.text);
  for (const branch of ['main', 'side']) {
    const mine = res.filter((x) => x.branch === branch).map((x) => x.r.body.commit.sha as string);
    const other = res.filter((x) => x.branch !== branch).map((x) => x.r.body.commit.sha as string);
    for (const c of mine) record(c);
    assertReachable(repo.dir, branch, mine);
    const all = new Set(git(['--git-dir', repo.dir, 'rev-list', branch]).stdout.trim().split('\n'));
    assert.equal(other.filter((c) => all.has(c)), [], `${branch} holds the other branch's commits`);
    assert.is(git(['--git-dir', repo.dir, 'ls-tree', '--name-only', `${branch}:${branch}`]).stdout.trim().split('\n').length, 15);
  }
  // The branches share only the history before the fork.
  assert.is(git(['--git-dir', repo.dir, 'merge-base', 'main', 'side']).stdout.trim(), base);
});

test('API writes racing a writer that moves the branch behind the server\'s back: each retries on the new tip, nothing acknowledged is lost', async () => {
  const { g } = ctx;
  const repo = await newRepo('raced');
  const store = g.t.server.gitea.git;
  const external: string[] = [];
  /** A commit on the tip made straight in the bare repository, the ref moved with git's own compare-and-swap; the server is not told. */
  const moveBehindTheServersBack = async () => {
    const n = external.length;
    const tip = await gitOut(['--git-dir', repo.dir, 'rev-parse', 'refs/heads/main']);
    const blob = await gitOut(['--git-dir', repo.dir, 'hash-object', '-w', '--stdin'], `outside ${n}\n`);
    const tree = await gitOut(['--git-dir', repo.dir, 'mktree'], `${await gitOut(['--git-dir', repo.dir, 'ls-tree', tip])}\n100644 blob ${blob}\toutside-${n}.txt\n`);
    const commit = await gitOut(['--git-dir', repo.dir, 'commit-tree', tree, '-p', tip, '-m', `outside ${n}`]);
    await gitOut(['--git-dir', repo.dir, 'update-ref', 'refs/heads/main', commit, tip]);
    external.push(commit);
  };
  // The race, provoked at a known point every run: between a write's read of the tip and its
  // compare-and-swap, the branch moves. Every write's first attempt meets a moved branch; one
  // write meets it twice in a row.
  const attempts: Array<string | null> = [];
  let doubleMove = true;
  store.beforeRefSwap = async (dir, ref, expected) => {
    if (dir !== repo.dir || ref !== 'refs/heads/main') return;
    attempts.push(expected);
    const retryAfterAMove = external.length > 0 && expected === external[external.length - 1];
    if (!retryAfterAMove) await moveBehindTheServersBack();
    else if (doubleMove) {
      doubleMove = false;
      await moveBehindTheServersBack();
    }
  };
  const N = 10;
  let res: Awaited<ReturnType<typeof g.api<any>>>[];
  try {
    res = await Promise.all(Array.from({ length: N }, (_, i) => g.api('POST', `/api/v1/repos/root/raced/contents/api-${i}.txt`, { json: { content: b64(`api ${i}\n`) } })));
  } finally {
    store.beforeRefSwap = undefined;
  }
  for (const r of res) assert.is(r.status, 201, r.text);
  const api = res.map((r) => r.body.commit.sha as string);
  for (const c of api) record(c);
  // One move per write, plus the second one; each moved the ref (git's compare-and-swap said so).
  assert.is(external.length, N + 1);
  // Every move cost exactly one failed swap and one more attempt, and each retry started from the
  // tip the outsider had just made: the server read the branch again instead of trusting its cache.
  assert.is(attempts.length, N + external.length);
  const retries = attempts.filter((e) => e !== null && external.includes(e));
  assert.is(retries.length, external.length);
  // Each acknowledged commit sits on the tip it was finally swapped against: an outsider's commit.
  for (const c of api) {
    const parent = git(['--git-dir', repo.dir, 'rev-parse', `${c}^`]).stdout.trim();
    assert.ok(external.includes(parent), `${c} was built on the moved tip, not on a stale one`);
  }
  assertReachable(repo.dir, 'main', [...api, ...external]);
  // One linear history holding every write once: the initial commit, N API commits, N + 1 outside ones.
  assert.is(git(['--git-dir', repo.dir, 'rev-list', '--count', 'main']).stdout.trim(), String(1 + N + external.length));
  assert.is(git(['--git-dir', repo.dir, 'rev-list', '--merges', '--count', 'main']).stdout.trim(), '0');
  const tree = git(['--git-dir', repo.dir, 'ls-tree', '--name-only', 'main']).stdout.trim().split('\n');
  for (let i = 0; i < N; i++) assert.ok(tree.includes(`api-${i}.txt`), `api-${i}.txt`);
  for (let n = 0; n < external.length; n++) assert.ok(tree.includes(`outside-${n}.txt`), `outside-${n}.txt`);
  // And the API sees the branch where git has it.
  assert.is((await g.api('GET', '/api/v1/repos/root/raced/branches/main')).body.commit.id, revParse(repo.dir, 'main'));
});

test('response commit ids are unique across the suite and every repository passes git fsck --strict', async () => {
  assert.is(shas.size, 40 + 5 + 30 + 10);
  for (const dir of dirs) assert.is(fsck(dir), '', dir);
});

test.run();
