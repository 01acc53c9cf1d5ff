import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { GO_TIME } from '../../protocol/gitea/schema.js';
import { apiError } from '../_helpers/api-error.js';
import { cloneUrl, commitFiles, git, gitAsync, gitDirOf, giteaWorld, useGitea, type Account, type GiteaWorld } from '../_helpers/gitea.js';
import { have, requireTool, skip, skipBecause } from '../_helpers/skip.js';
import { tempDir } from '../_helpers/temp-dir.js';
import { waitUntil, WAIT_MS } from '../_helpers/wait.js';
import { startTestServer } from '../_helpers/server.js';

// Push mirrors for real: a repository mirrored over smart HTTP (with credentials) to another
// repository served by the same server, sync on demand and after commits, Gitea's errors,
// and secrets kept out of responses, git config, logs and process lists.
const test = suite('gitea: push mirrors');
const ctx = useGitea(test, { MIRROR_ALLOW_LOCAL_NETWORKS: 'true' });

let g: GiteaWorld;
let alice: Account; // owns alice/src
let bob: Account; // owns bob/dst, the mirror target
let carol: Account; // write collaborator on alice/src
const MIRRORS = '/api/v1/repos/alice/src/push_mirrors';
const REMOTE_NAME = /^remote_mirror_[a-zA-Z0-9]{10}$/;

/** A port nothing listens on (for the test sshd). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
const refsOf = (dir: string) => git(['--git-dir', dir, 'for-each-ref', '--format=%(refname) %(objectname)']).stdout;

let srcDir = '';
let dstDir = '';

test.before(async () => {
  g = ctx.g;
  [alice, bob, carol] = [await g.user('alice'), await g.user('bob'), await g.user('carol')];
  const src = await g.repo('src', { owner: alice });
  const dst = await g.repo('dst', { owner: bob, autoInit: false });
  srcDir = gitDirOf(g, src.id);
  dstDir = gitDirOf(g, dst.id);
  await g.commit('alice', 'src', { 'a.txt': 'a\n' }, { auth: alice.auth });
  await g.commit('alice', 'src', { 'b.txt': 'b\n' }, { newBranch: 'feature', auth: alice.auth });
  assert.is((await g.api('PUT', '/api/v1/repos/alice/src/collaborators/carol', { json: { permission: 'write' }, auth: alice.auth })).status, 204);
});

const addMirror = (body: object, auth = alice.auth) => g.api('POST', MIRRORS, { json: body, auth });

test('add: 200 with the PushMirror, credentials stripped from the address and kept out of git config and the database', async () => {
  const r = await addMirror({ remote_address: `${g.url}/bob/dst.git`, remote_username: 'bob', remote_password: bob.token, interval: '0', sync_on_commit: false });
  assert.is(r.status, 200, r.text);
  assert.match(r.body.remote_name, REMOTE_NAME);
  assert.match(r.body.created, GO_TIME);
  assert.equal(r.body, {
    repo_name: 'src',
    remote_name: r.body.remote_name,
    remote_address: `${g.url}/bob/dst.git`,
    created: r.body.created,
    last_update: '1970-01-01T00:00:00Z',
    last_error: '',
    interval: '0s',
    sync_on_commit: false,
    public_key: '',
  });
  assert.not.ok(r.text.includes(bob.token));
  // The remote holds the address without credentials.
  const config = readFileSync(join(srcDir, 'config'), 'utf8');
  assert.ok(config.includes(`[remote "${r.body.remote_name}"]`), config);
  assert.ok(config.includes(`url = ${g.url}/bob/dst.git`), config);
  assert.not.ok(config.includes(bob.token));
  // Sealed at rest, with the key generated on first start (no SECRET_KEY here) and kept in DATA_DIR.
  const row = g.t.server.db.prepare('SELECT credentials FROM push_mirrors WHERE remote_name = ?').get(r.body.remote_name) as { credentials: string };
  assert.match(row.credentials, /^v1:/);
  assert.not.ok(row.credentials.includes(bob.token));
  assert.is(statSync(join(g.t.dataDir, 'secret.key')).mode & 0o777, 0o600);
});

test('push_mirrors-sync pushes every branch and tag to the remote and records last_update', async () => {
  const before = Date.now();
  const r = await g.api('POST', '/api/v1/repos/alice/src/push_mirrors-sync', { auth: alice.auth });
  assert.is(r.status, 200, r.text);
  assert.is(r.text, '');
  assert.is(refsOf(dstDir), refsOf(srcDir));
  assert.match(refsOf(dstDir), /refs\/heads\/feature/);
  const [m] = (await g.api('GET', MIRRORS, { auth: alice.auth })).body;
  assert.is(m.last_error, '');
  assert.ok(Date.parse(m.last_update) >= Math.floor(before / 1000) * 1000, m.last_update);
  // bob's repository saw the push as a commit.
  const branches = (await g.api('GET', '/api/v1/repos/bob/dst/branches', { auth: bob.auth })).body.map((b: { name: string }) => b.name).sort();
  assert.equal(branches, ['feature', 'main']);
});

test('sync_on_commit: a commit through the API reaches the mirror through the queue', async () => {
  const r = await addMirror({ remote_address: `${g.url}/bob/dst.git`, remote_username: 'bob', remote_password: bob.token, interval: '0s', sync_on_commit: true });
  assert.is(r.status, 200, r.text);
  const made = await g.commit('alice', 'src', { 'c.txt': 'c\n' }, { auth: alice.auth });
  await g.t.server.gitea.mirrorQueue.idle();
  assert.is(git(['--git-dir', dstDir, 'rev-parse', 'refs/heads/main']).stdout.trim(), made.commit.sha);
  assert.is((g.t.server.db.prepare('SELECT count(*) AS n FROM mirror_jobs').get() as { n: number }).n, 0);
});

test('a failing mirror: push_mirrors-sync answers 500 naming it and stops; last_error keeps the reason with credentials masked', async () => {
  const bad = await addMirror({ remote_address: `${g.url}/bob/dst.git`, remote_username: 'bob', remote_password: 'not-the-password-9', interval: '0' });
  assert.is(bad.status, 200);
  const r = await g.api('POST', '/api/v1/repos/alice/src/push_mirrors-sync', { auth: alice.auth });
  assert.is(r.status, 500, r.text);
  assert.ok(r.body.message.startsWith(`error occurred when syncing push mirror ${bad.body.remote_name}: `), r.body.message);
  assert.not.ok(r.text.includes('not-the-password-9'));
  const got = await g.api('GET', `${MIRRORS}/${bad.body.remote_name}`, { auth: alice.auth });
  assert.is(got.status, 200);
  assert.match(got.body.last_error, /Authentication failed|401|denied/i);
  assert.not.ok(got.body.last_error.includes('not-the-password-9'));
  for (const line of g.t.logs) {
    assert.not.ok(line.includes('not-the-password-9'), line);
    assert.not.ok(line.includes(bob.token), line);
  }
  assert.is((await g.api('DELETE', `${MIRRORS}/${bad.body.remote_name}`, { auth: alice.auth })).status, 204);
});

test('credentials never appear on a process command line during a sync', async () => {
  const seen: string[] = [];
  let watching = true;
  const watch = (async () => {
    while (watching) {
      for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
        try {
          const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
          if (cmd.includes(bob.token)) seen.push(cmd.split('\0').join(' '));
        } catch {}
      }
      await new Promise((r) => setImmediate(r));
    }
  })();
  for (let i = 0; i < 3; i++) assert.is((await g.api('POST', '/api/v1/repos/alice/src/push_mirrors-sync', { auth: alice.auth })).status, 200);
  watching = false;
  await watch;
  assert.equal(seen, []);
});

test('list (page, limit, X-Total-Count, Link), get by name, delete (204, then 404) removes the remote', async () => {
  const all = await g.api('GET', MIRRORS, { auth: alice.auth });
  assert.is(all.status, 200);
  assert.is(all.headers.get('x-total-count'), String(all.body.length));
  assert.ok(all.body.length >= 2);
  const page = await g.api('GET', `${MIRRORS}?page=1&limit=1`, { auth: alice.auth });
  assert.is(page.body.length, 1);
  assert.is(page.body[0].remote_name, all.body[0].remote_name);
  assert.match(page.headers.get('link') ?? '', /rel="next"/);
  const name = all.body[1].remote_name as string;
  const one = await g.api('GET', `${MIRRORS}/${name}`, { auth: alice.auth });
  assert.equal(one.body, all.body[1]);
  assert.equal((await g.api('GET', `${MIRRORS}/remote_mirror_nope000000`, { auth: alice.auth })).body, apiError(g, 'not found'));
  assert.is((await g.api('DELETE', `${MIRRORS}/${name}`, { auth: alice.auth })).status, 204);
  const again = await g.api('DELETE', `${MIRRORS}/${name}`, { auth: alice.auth });
  assert.is(again.status, 404);
  assert.equal(again.body, apiError(g, 'not found'));
  assert.not.ok(readFileSync(join(srcDir, 'config'), 'utf8').includes(`[remote "${name}"]`));
});

test('add: Gitea\'s 400s in the spec\'s order (interval, minimum, ssh, protocol, URL)', async () => {
  const cases: [object, string][] = [
    [{ remote_address: `${g.url}/bob/dst.git`, interval: 'x' }, 'invalid interval: time: invalid duration "x"'],
    [{ remote_address: `${g.url}/bob/dst.git` }, 'invalid interval: time: invalid duration ""'],
    [{ remote_address: `${g.url}/bob/dst.git`, interval: '5' }, 'invalid interval: time: missing unit in duration "5"'],
    [{ remote_address: `${g.url}/bob/dst.git`, interval: '1m' }, 'interval is shorter than minimum 10m0s'],
    [{ remote_address: 'ftp://example.com/x.git', interval: '0' }, 'Invalid mirror protocol'],
    [{ remote_address: 'http://[::1', interval: '0' }, 'Invalid Url '],
  ];
  for (const [body, message] of cases) {
    const r = await addMirror(body);
    assert.is(r.status, 400, JSON.stringify(body));
    assert.equal(r.body, apiError(g, message));
  }
  const ssh = await addMirror({ remote_address: 'git@127.0.0.1:o/r.git', interval: '0', use_ssh: true, remote_username: 'x' });
  assert.is(ssh.status, 400);
  assert.equal(ssh.body, apiError(g, have('ssh', ['-V']) ? "'use_ssh' is mutually exclusive with 'remote_username' and 'remote_passoword'" : 'SSH authentication not available.'));
  // A longer interval is fine and is printed as Go prints it.
  const ok = await addMirror({ remote_address: `${g.url}/bob/dst.git`, interval: '90m' });
  assert.is(ok.status, 200, ok.text);
  assert.is(ok.body.interval, '1h30m0s');
  assert.is((await g.api('DELETE', `${MIRRORS}/${ok.body.remote_name}`, { auth: alice.auth })).status, 204);
});

test('use_ssh: an ed25519 key pair; the public key is returned, the private key sealed; scp-style addresses become ssh://', async ({ __test__ }) => {
  if (!requireTool(__test__, 'ssh', 'openssh-client', ['-V'])) return;
  const r = await addMirror({ remote_address: 'git@127.0.0.1:alice/elsewhere.git', interval: '0', use_ssh: true });
  assert.is(r.status, 200, r.text);
  assert.match(r.body.public_key, /^ssh-ed25519 [A-Za-z0-9+/]+=*$/);
  assert.is(r.body.remote_address, 'ssh://git@127.0.0.1/alice/elsewhere.git');
  const row = g.t.server.db.prepare('SELECT private_key FROM push_mirrors WHERE remote_name = ?').get(r.body.remote_name) as { private_key: string };
  assert.match(row.private_key, /^v1:/);
  assert.not.ok(row.private_key.includes('OPENSSH'));
  assert.not.ok(r.text.includes('PRIVATE'));
  assert.is((await g.api('DELETE', `${MIRRORS}/${r.body.remote_name}`, { auth: alice.auth })).status, 204);
});

test('file:// mirrors: only a site admin, and only with MIRROR_ALLOW_LOCAL_NETWORKS; the sync reaches the bare repository', async () => {
  const target = tempDir('file-mirror');
  try {
    git(['init', '-q', '--bare', target]);
    const body = { remote_address: `file://${target}`, interval: '0' };
    const byOwner = await addMirror(body); // alice owns the repository but is not a site admin
    assert.is(byOwner.status, 401);
    assert.equal(byOwner.body, apiError(g, 'Permission denied'));
    const byAdmin = await g.api('POST', MIRRORS, { json: body });
    assert.is(byAdmin.status, 200, byAdmin.text);
    assert.is(byAdmin.body.remote_address, `file://${target}`);
    assert.is((await g.api('POST', '/api/v1/repos/alice/src/push_mirrors-sync', { auth: alice.auth })).status, 200);
    assert.is(refsOf(target), refsOf(srcDir));
    assert.is((await g.api('DELETE', `${MIRRORS}/${byAdmin.body.remote_name}`, { auth: alice.auth })).status, 204);
  } finally {
    rmSync(target, { recursive: true, force: true });
  }
});

test('LFS objects go to the mirror\'s LFS server before the refs: /media of the mirror serves them', async () => {
  await g.repo('lfs-src', { owner: alice });
  await g.repo('lfs-dst', { owner: bob, autoInit: false });
  const object = Buffer.concat([Buffer.from('%PDF-1.5\n'), Buffer.alloc(5000, 7)]);
  await g.commit('alice', 'lfs-src', { '.gitattributes': '*.pdf filter=lfs diff=lfs merge=lfs -text\n' }, { auth: alice.auth });
  await g.commit('alice', 'lfs-src', { 'doc.pdf': object }, { auth: alice.auth });
  const add = await g.api('POST', '/api/v1/repos/alice/lfs-src/push_mirrors', { json: { remote_address: `${g.url}/bob/lfs-dst.git`, remote_username: 'bob', remote_password: bob.token, interval: '0' }, auth: alice.auth });
  assert.is(add.status, 200, add.text);
  const sync = await g.api('POST', '/api/v1/repos/alice/lfs-src/push_mirrors-sync', { auth: alice.auth });
  assert.is(sync.status, 200, sync.text);
  const media = await fetch(`${g.url}/api/v1/repos/bob/lfs-dst/media/doc.pdf`, { headers: { authorization: `token ${bob.token}` } });
  assert.is(media.status, 200);
  assert.ok(Buffer.from(await media.arrayBuffer()).equals(object), 'the object, not its pointer');
  // A second sync has nothing to upload and still succeeds.
  assert.is((await g.api('POST', '/api/v1/repos/alice/lfs-src/push_mirrors-sync', { auth: alice.auth })).status, 200);
});

test('use_ssh sync for real: the generated key, installed on an sshd on loopback, pushes the mirror', async ({ __test__ }) => {
  if (!have('ssh', ['-V']) || !have('sh', ['-c', 'command -v ssh-keygen'])) return skip(__test__, 'openssh-client');
  if (!existsSync('/usr/sbin/sshd')) return skip(__test__, 'openssh-server');
  if (process.getuid?.() !== 0) return skipBecause(__test__, 'sshd needs root: run as root');
  const dir = tempDir('sshd');
  const port = await freePort();
  const target = join(dir, 'target.git');
  git(['init', '-q', '--bare', target]);
  spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'host_key')]);
  writeFileSync(
    join(dir, 'sshd_config'),
    [`Port ${port}`, 'ListenAddress 127.0.0.1', `HostKey ${dir}/host_key`, `PidFile ${dir}/sshd.pid`, `AuthorizedKeysFile ${dir}/authorized_keys`, 'StrictModes no', 'PasswordAuthentication no', 'KbdInteractiveAuthentication no', 'UsePAM no', 'PermitRootLogin prohibit-password', ''].join('\n'),
  );
  mkdirSync('/run/sshd', { recursive: true });
  const sshd = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', join(dir, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let sshdLog = '';
  sshd.stderr.on('data', (d: Buffer) => (sshdLog += d));
  try {
    await waitUntil(() => sshdLog.includes('Server listening') || sshd.exitCode !== null, 'sshd is listening', WAIT_MS, 50);
    const r = await addMirror({ remote_address: `ssh://${userInfo().username}@127.0.0.1:${port}${target}`, interval: '0', use_ssh: true });
    assert.is(r.status, 200, r.text);
    writeFileSync(join(dir, 'authorized_keys'), `${r.body.public_key}\n`);
    const sync = await g.api('POST', '/api/v1/repos/alice/src/push_mirrors-sync', { auth: alice.auth });
    assert.is(sync.status, 200, `${sync.text}\n${sshdLog}`);
    assert.is(refsOf(target), refsOf(srcDir));
    assert.match(sshdLog, /Accepted publickey/);
    // The private key was on disk only for the push.
    assert.equal(readdirSync(join(g.t.dataDir, 'ssh')).filter((f) => f.startsWith('key-')), []);
    assert.is((await g.api('DELETE', `${MIRRORS}/${r.body.remote_name}`, { auth: alice.auth })).status, 204);
  } finally {
    sshd.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a push over git triggers sync_on_commit mirrors too', async () => {
  await g.repo('pushed', { owner: alice });
  await g.repo('pushed-target', { owner: bob, autoInit: false });
  const add = await g.api('POST', '/api/v1/repos/alice/pushed/push_mirrors', { json: { remote_address: `${g.url}/bob/pushed-target.git`, remote_username: 'bob', remote_password: bob.token, interval: '0', sync_on_commit: true }, auth: alice.auth });
  assert.is(add.status, 200, add.text);
  const work = tempDir('pushed');
  try {
    await gitAsync(['clone', '-q', cloneUrl(g, 'alice', 'pushed', alice), work]);
    const sha = commitFiles(work, { 'via-git.txt': 'pushed\n' }, 'over git');
    await gitAsync(['push', '-q', 'origin', 'main'], { cwd: work });
    await g.t.server.gitea.mirrorQueue.idle();
    assert.is((await g.api('GET', '/api/v1/repos/bob/pushed-target/branches/main', { auth: bob.auth })).body.commit.id, sha);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('registration failure: the row is removed and the answer is 500; unknown repositories are 404', async () => {
  // A directory where git wants its config lock makes `git remote add` fail.
  mkdirSync(join(srcDir, 'config.lock'));
  try {
    const before = (await g.api('GET', MIRRORS, { auth: alice.auth })).body.length;
    const r = await addMirror({ remote_address: `${g.url}/bob/dst.git`, interval: '0' });
    assert.is(r.status, 500);
    assert.equal(r.body, apiError(g, 'failed to register the push mirror remote'));
    assert.is((await g.api('GET', MIRRORS, { auth: alice.auth })).body.length, before);
  } finally {
    rmSync(join(srcDir, 'config.lock'), { recursive: true, force: true });
  }
  for (const [method, path] of [
    ['GET', '/api/v1/repos/alice/nope/push_mirrors'],
    ['POST', '/api/v1/repos/alice/nope/push_mirrors-sync'],
    ['DELETE', '/api/v1/repos/alice/nope/push_mirrors/x'],
    ['POST', '/api/v1/repos/alice/nope/mirror-sync'],
  ] as const) {
    const r = await g.api(method, path, { auth: alice.auth });
    assert.is(r.status, 404, `${method} ${path}`);
    assert.equal(r.body, apiError(g, 'not found'));
  }
});

test('permissions: repository admins only (a writer gets 403, anonymous 403 before sign-in), as Gitea\'s reqAdmin', async () => {
  for (const auth of [carol.auth, null]) {
    for (const [method, path] of [
      ['GET', MIRRORS],
      ['POST', MIRRORS],
      ['POST', '/api/v1/repos/alice/src/push_mirrors-sync'],
    ] as const) {
      const r = await g.api(method, path, { auth, ...(method === 'POST' ? { json: { remote_address: `${g.url}/bob/dst.git`, interval: '0' } } : {}) });
      assert.is(r.status, 403, `${method} ${path} ${JSON.stringify(auth)}`);
    }
  }
  // mirror-sync needs write access and a mirror.
  assert.is((await g.api('POST', '/api/v1/repos/alice/src/mirror-sync', { auth: null })).status, 401);
  const notMirror = await g.api('POST', '/api/v1/repos/alice/src/mirror-sync', { auth: carol.auth });
  assert.is(notMirror.status, 400);
  assert.equal(notMirror.body, apiError(g, 'Repository is not a mirror'));
});

test('the address policy by default: loopback and private addresses are 401 Permission denied', async () => {
  const t = await startTestServer({});
  try {
    const w = await giteaWorld(t);
    await w.repo('p');
    for (const address of ['http://127.0.0.1:1/x.git', 'http://10.1.2.3/x.git', 'http://[::1]/x.git', 'http://169.254.169.254/latest', '/srv/repo.git']) {
      const r = await w.api('POST', '/api/v1/repos/root/p/push_mirrors', { json: { remote_address: address, interval: '0' } });
      assert.is(r.status, 401, address);
      assert.equal(r.body, apiError(w, 'Permission denied'));
    }
    t.assertNoViolations();
  } finally {
    await t.close();
  }
});

test('MIRROR_ENABLED=false: every mirror operation is 400 "Mirror feature is disabled"', async () => {
  const t = await startTestServer({ MIRROR_ENABLED: 'false' });
  try {
    const w = await giteaWorld(t);
    await w.repo('p');
    for (const [method, path] of [
      ['GET', '/api/v1/repos/root/p/push_mirrors'],
      ['POST', '/api/v1/repos/root/p/push_mirrors'],
      ['GET', '/api/v1/repos/root/p/push_mirrors/remote_mirror_x'],
      ['DELETE', '/api/v1/repos/root/p/push_mirrors/remote_mirror_x'],
      ['POST', '/api/v1/repos/root/p/push_mirrors-sync'],
      ['POST', '/api/v1/repos/root/p/mirror-sync'],
    ] as const) {
      const r = await w.api(method, path, method === 'POST' && path.endsWith('push_mirrors') ? { json: { remote_address: 'https://example.com/x.git', interval: '0' } } : {});
      assert.is(r.status, 400, `${method} ${path}`);
      assert.equal(r.body, apiError(w, 'Mirror feature is disabled'));
    }
    t.assertNoViolations();
  } finally {
    await t.close();
  }
});

test('queued syncs survive a restart and run once the server is back', async () => {
  const t1 = await startTestServer({ MIRROR_ALLOW_LOCAL_NETWORKS: 'true' });
  const dataDir = t1.dataDir;
  let made;
  try {
    const w1 = await giteaWorld(t1);
    await w1.repo('from');
    await w1.repo('to', { autoInit: false });
    const add = await w1.api('POST', '/api/v1/repos/root/from/push_mirrors', { json: { remote_address: `${w1.url}/root/to.git`, remote_username: 'root', remote_password: w1.admin.token, interval: '0', sync_on_commit: true } });
    assert.is(add.status, 200, add.text);
    // Stop the queue first, so the commit's sync stays queued across the restart.
    await t1.server.gitea.stopMirrors();
    made = await w1.commit('root', 'from', { 'x.txt': 'x\n' });
    assert.is((t1.server.db.prepare('SELECT count(*) AS n FROM mirror_jobs').get() as { n: number }).n, 1);
    t1.assertNoViolations();
  } finally {
    await t1.close({ keepData: true });
  }

  const t2 = await startTestServer({ MIRROR_ALLOW_LOCAL_NETWORKS: 'true' }, dataDir);
  try {
    // The remote's address names the old port; the job runs (and fails against it), proving it was kept.
    await t2.server.gitea.mirrorQueue.idle();
    const row = t2.server.db.prepare('SELECT last_update, last_error FROM push_mirrors').get() as { last_update: number; last_error: string };
    assert.ok(row.last_update > 0, 'the queued sync ran after the restart');
    assert.ok(made.commit.sha);
    t2.assertNoViolations();
  } finally {
    await t2.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test.run();
