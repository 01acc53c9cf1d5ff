import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lastCommitsIn } from '../../server/gitea/git/history.js';
import { lastCommitsNearby } from '../../server/gitea/git/recent-history.js';
import { GitStore } from '../../server/gitea/git/store.js';

// The in-process walk that finds a directory's entries' last commits must answer exactly what
// `git log --name-only` answers (history.ts), for every entry it answers for: adds, edits,
// deletes and re-adds, mode changes, subdirectories, the root commit; and it must leave to git
// whatever lies behind a merge.
const test = suite('recent history walk');
const dirs: string[] = [];
const store = new GitStore();

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'A', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'A', GIT_COMMITTER_EMAIL: 'a@example.com' } });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

function work(): string {
  const dir = mkdtempSync(join(tmpdir(), 'recent-history-'));
  dirs.push(dir);
  git(dir, 'init', '-q', '-b', 'main');
  return dir;
}

function write(dir: string, files: Record<string, string | null>, message: string): string {
  for (const [path, content] of Object.entries(files)) {
    if (content === null) rmSync(join(dir, path), { recursive: true, force: true });
    else {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', message);
  return git(dir, 'rev-parse', 'HEAD');
}

/** Every entry of `dir` at HEAD: the walk's answer for those it found equals git log's. */
async function agrees(work: string, dir: string, max = 100): Promise<Map<string, string>> {
  const gitDir = join(work, '.git');
  const tip = git(work, 'rev-parse', 'HEAD');
  const names = git(work, 'ls-tree', '--name-only', `HEAD:${dir}`).split('\n').filter(Boolean);
  const walked = await lastCommitsNearby(store.historyReader(gitDir), tip, dir ? dir.split('/') : [], names, max);
  const logged = await lastCommitsIn(gitDir, tip, dir, names);
  for (const [name, sha] of walked) assert.is(sha, logged.get(name), `${dir || '(root)'}/${name}`);
  return walked;
}

test.after(() => {
  store.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

test('straight history: adds, edits, deletes and re-adds, modes, subdirectories, the root commit', async () => {
  const w = work();
  const root = write(w, { 'a.txt': '1', 'b.txt': '1', 'docs/x.md': '1', 'docs/deep/y.md': '1' }, 'root');
  const edit = write(w, { 'a.txt': '2' }, 'edit a');
  write(w, { 'c.txt': '1' }, 'add c');
  write(w, { 'b.txt': null }, 'delete b');
  const readd = write(w, { 'b.txt': '1' }, 're-add b as it was');
  chmodSync(join(w, 'c.txt'), 0o755);
  const mode = write(w, {}, 'c becomes executable');
  const deep = write(w, { 'docs/deep/y.md': '2' }, 'edit deep');
  write(w, { 'unrelated.txt': '1' }, 'elsewhere');
  const walked = await agrees(w, '');
  assert.equal(Object.fromEntries(walked), { 'a.txt': edit, 'b.txt': readd, 'c.txt': mode, docs: deep, 'unrelated.txt': walked.get('unrelated.txt') });
  const inDocs = await agrees(w, 'docs');
  assert.equal(Object.fromEntries(inDocs), { deep, 'x.md': root });
  assert.equal(Object.fromEntries(await agrees(w, 'docs/deep')), { 'y.md': deep });
});

test('the walk stops after its limit and at a merge, leaving the rest to git', async () => {
  const w = work();
  const root = write(w, { 'old.txt': '1', 'new.txt': '1' }, 'root');
  for (let i = 0; i < 5; i++) write(w, { 'new.txt': String(i + 2) }, `edit ${i}`);
  const limited = await agrees(w, '', 3);
  assert.ok(limited.has('new.txt'));
  assert.not.ok(limited.has('old.txt'), 'old.txt lies beyond three commits');
  assert.is((await agrees(w, '')).get('old.txt'), root);

  git(w, 'checkout', '-q', '-b', 'side', 'HEAD~2');
  write(w, { 'side.txt': '1' }, 'on the side');
  git(w, 'checkout', '-q', 'main');
  git(w, 'merge', '-q', '--no-ff', '-m', 'merge side', 'side');
  const after = write(w, { 'new.txt': 'after merge' }, 'after the merge');
  const walked = await agrees(w, '');
  assert.equal(Object.fromEntries(walked), { 'new.txt': after }, 'nothing behind the merge is answered by the walk');
});

test.run();
