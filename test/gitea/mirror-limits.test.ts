import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RepoEvent } from '../../protocol/gitea/events.js';
import { apiError } from '../_helpers/api-error.js';
import { spawnServer, type ChildServer } from '../_helpers/child.js';
import { ADMIN, giteaWorld, type Account, type GiteaWorld } from '../_helpers/gitea.js';
import { startTestServer, type TestServer } from '../_helpers/server.js';
import { tempDir } from '../_helpers/temp-dir.js';
import { waitUntil } from '../_helpers/wait.js';

// Mirror hosts that accept a connection and never answer (tarpits): a sync gives up within its
// configured limits, one owner's hanging mirrors cannot hold every queue slot, and a shutdown
// does not wait for them for long; the jobs it stops stay queued and run after the restart.
const test = suite('gitea: mirror time limits, fairness and shutdown');

const FAST = { MIRROR_ALLOW_LOCAL_NETWORKS: 'true', MIRROR_LOW_SPEED_TIME: '1s', MIRROR_TIMEOUT: '3s' };
/** Limits no test reaches: the syncs hang until something else stops them. */
const SLOW = { MIRROR_ALLOW_LOCAL_NETWORKS: 'true', MIRROR_LOW_SPEED_TIME: '10m', MIRROR_TIMEOUT: '10m' };

/** A TCP server on 127.0.0.1 that accepts connections and never says a word. */
async function tarpit() {
  const open = new Set<Socket>();
  let accepted = 0;
  const server: Server = createServer((s) => {
    accepted++;
    open.add(s);
    s.on('close', () => open.delete(s));
    s.on('error', () => {});
    s.resume(); // read (and drop) what comes, so the peer's close is seen
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    get open() {
      return open.size;
    },
    get accepted() {
      return accepted;
    },
    close: () => new Promise<void>((r) => (open.forEach((s) => s.destroy()), server.close(() => r()))),
  };
}

const until = (what: string, ok: () => boolean) => waitUntil(ok, what, 60_000, 25);

/**
 * A guard against hanging forever (what these limits prevent), not a timing assertion: the
 * configured limits are seconds, the guard a minute, so a busy machine does not trip it.
 */
function guard<T>(what: string, p: Promise<T>, ms = 60_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms: ${what}`)), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

const addMirror = async (w: GiteaWorld, owner: Account, repo: string, remote_address: string, extra: object = {}) => {
  const r = await w.api('POST', `/api/v1/repos/${owner.name}/${repo}/push_mirrors`, { json: { remote_address, interval: '0', ...extra }, auth: owner.auth });
  assert.is(r.status, 200, r.text);
  return r.body.remote_name as string;
};
const mirrorId = (t: TestServer, name: string) => (t.server.db.prepare('SELECT id FROM push_mirrors WHERE remote_name = ?').get(name) as { id: number }).id;

test('a tarpit over http (low-speed limit) and over git:// (hard limit): the sync and a migration fail "timed out", and git is gone', async () => {
  const pit = await tarpit();
  const t = await startTestServer({ ...FAST, ADMIN_USERNAME: ADMIN.name, ADMIN_PASSWORD: ADMIN.password });
  try {
    const w = await giteaWorld(t);
    for (const [repo, address] of [
      ['over-http', `http://127.0.0.1:${pit.port}/o/r.git`],
      ['over-git', `git://127.0.0.1:${pit.port}/o/r.git`],
    ] as const) {
      await w.repo(repo);
      const name = await addMirror(w, w.admin, repo, address);
      const sync = await guard(`the ${repo} sync`, w.api('POST', `/api/v1/repos/root/${repo}/push_mirrors-sync`));
      assert.is(sync.status, 500, repo);
      assert.equal(sync.body, apiError(w, `error occurred when syncing push mirror ${name}: timed out`));
      assert.is((await w.api('GET', `/api/v1/repos/root/${repo}/push_mirrors/${name}`)).body.last_error, 'timed out');
    }
    const migrate = await guard('the migration', w.api('POST', '/api/v1/repos/migrate', { json: { clone_addr: `http://127.0.0.1:${pit.port}/o/r.git`, repo_name: 'from-pit' } }));
    assert.equal(migrate.body, apiError(w, 'Migration failed: timed out'));
    assert.is(migrate.status, 422);
    assert.ok(pit.accepted >= 3, `${pit.accepted} connections`);
    // Every connection git (or its helper) held is closed: the process group went.
    await until('the tarpit connections close', () => pit.open === 0);
    assert.is(t.server.gitea.mirrorQueue.running, 0);
  } finally {
    // Quietly: a failure above must not be hidden by this one.
    await guard('the server to close', t.close()).catch(() => {});
    await pit.close();
  }
});

test('one owner\'s hanging mirrors hold at most half of the queue: another owner\'s mirror syncs meanwhile; shutdown interrupts them and keeps their jobs', async () => {
  const pit = await tarpit();
  const t = await startTestServer({ ...SLOW, MIRROR_QUEUE_CONCURRENCY: '4', MIRROR_SHUTDOWN_GRACE: '0s', ADMIN_USERNAME: ADMIN.name, ADMIN_PASSWORD: ADMIN.password });
  let closed = false;
  try {
    const w = await giteaWorld(t);
    const [alice, bob] = [await w.user('alice'), await w.user('bob')];
    const hanging: number[] = [];
    for (let i = 0; i < 4; i++) {
      await w.repo(`hang${i}`, { owner: alice });
      hanging.push(mirrorId(t, await addMirror(w, alice, `hang${i}`, `http://127.0.0.1:${pit.port}/o/r${i}.git`)));
    }
    await w.repo('fine', { owner: bob });
    await w.repo('fine-target', { owner: bob, autoInit: false });
    const fine = mirrorId(t, await addMirror(w, bob, 'fine', `${w.url}/bob/fine-target.git`, { remote_username: 'bob', remote_password: bob.token }));

    const events: { type: string; repo: string }[] = [];
    const off = t.server.gitea.events.subscribe((e: RepoEvent) => {
      if (e.type !== 'commit') events.push({ type: e.type, repo: e.repository.full_name });
    });
    try {
      for (const id of hanging) t.server.gitea.mirrorQueue.enqueue('push', id, 'test');
      await until('two of alice\'s syncs are connected', () => pit.open === 2);
      t.server.gitea.mirrorQueue.enqueue('push', fine, 'test');
      await until('bob\'s sync finishes', () => events.some((e) => e.type === 'mirror_sync_finished' && e.repo === 'bob/fine'));
    } finally {
      off();
    }
    const alices = events.filter((e) => e.repo.startsWith('alice/'));
    assert.equal(alices.map((e) => e.type), ['mirror_sync_started', 'mirror_sync_started'], 'two started, none ended');
    assert.is(pit.open, 2);
    assert.is(t.server.gitea.mirrorQueue.running, 2);

    // Shutdown (no grace here): the hanging syncs are stopped and recorded nowhere; every job of alice's stays as it was.
    await guard('the server to close', t.close({ keepData: true }));
    closed = true;
    const db = new Database(join(t.dataDir, 'trunkline.db'), { readonly: true });
    try {
      const jobs = db.prepare("SELECT target_id, attempts FROM mirror_jobs WHERE kind = 'push' ORDER BY target_id").all();
      assert.equal(jobs, hanging.map((id) => ({ target_id: id, attempts: 0 })));
      const rows = db.prepare('SELECT last_update, last_error FROM push_mirrors WHERE id IN (' + hanging.join(',') + ')').all();
      assert.equal(rows, hanging.map(() => ({ last_update: 0, last_error: '' })));
    } finally {
      db.close();
    }
    await until('the tarpit connections close', () => pit.open === 0);
  } finally {
    if (!closed) await guard('the server to close', t.close()).catch(() => {});
    rmSync(t.dataDir, { recursive: true, force: true });
    await pit.close();
  }
});

test('SIGTERM with syncs hanging on a tarpit: exit 0 after the grace; the jobs stay queued and run after the restart', async () => {
  const pit = await tarpit();
  const dataDir = tempDir('mirror-sigterm');
  let child: ChildServer | undefined;
  try {
    child = await spawnServer({ ...SLOW, DATA_DIR: dataDir, MIRROR_SHUTDOWN_GRACE: '1s', ADMIN_USERNAME: ADMIN.name, ADMIN_PASSWORD: ADMIN.password, NODE_ENV: 'test' });
    const w = await giteaWorld({ url: child.url } as TestServer);
    await w.repo('src');
    for (const i of [1, 2]) await addMirror(w, w.admin, 'src', `http://127.0.0.1:${pit.port}/o/r${i}.git`, { sync_on_commit: true });
    await w.commit('root', 'src', { 'x.txt': 'x\n' });
    await until('both syncs are connected', () => pit.open === 2);
    child.proc.kill('SIGTERM');
    assert.is(await guard('the server to exit', child.exited), 0, child.output());
    child = undefined;

    const db = new Database(join(dataDir, 'trunkline.db'), { readonly: true });
    try {
      assert.equal(db.prepare('SELECT kind, attempts FROM mirror_jobs').all(), [{ kind: 'push', attempts: 0 }, { kind: 'push', attempts: 0 }]);
      assert.equal(db.prepare('SELECT last_update FROM push_mirrors').all(), [{ last_update: 0 }, { last_update: 0 }]);
    } finally {
      db.close();
    }

    const t = await startTestServer({ ...FAST, ADMIN_USERNAME: ADMIN.name, ADMIN_PASSWORD: ADMIN.password }, dataDir);
    try {
      await guard('the queue to run the kept jobs', t.server.gitea.mirrorQueue.idle());
      const rows = t.server.db.prepare('SELECT last_error FROM push_mirrors ORDER BY id').all();
      assert.equal(rows, [{ last_error: 'timed out' }, { last_error: 'timed out' }], 'both ran after the restart');
      assert.equal(t.server.db.prepare('SELECT attempts FROM mirror_jobs').all(), [{ attempts: 1 }, { attempts: 1 }]);
    } finally {
      await t.close();
    }
  } finally {
    if (child) child.proc.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    await pit.close();
  }
});

test.run();
