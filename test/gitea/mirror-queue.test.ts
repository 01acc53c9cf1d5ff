import { rmSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RepoEvent } from '../../protocol/gitea/events.js';
import { giteaWorld, useGitea, type GiteaWorld } from '../_helpers/gitea.js';
import { startTestServer } from '../_helpers/server.js';
import { nextSecondAfter, waitUntil, WAIT_MS } from '../_helpers/wait.js';

// The mirror sync queue: one sync of a mirror at a time whatever asks for it, and
// queued push and pull syncs that survive a restart.
const test = suite('gitea: mirror queue');
const ctx = useGitea(test, { MIRROR_ALLOW_LOCAL_NETWORKS: 'true', MIRROR_QUEUE_CONCURRENCY: '8' });

let g: GiteaWorld;

test.before(async () => {
  g = ctx.g;
});

test('syncs of one mirror never overlap: API syncs and queued sync_on_commit jobs racing', async () => {
  await g.repo('busy');
  await g.repo('busy-target', { autoInit: false });
  const add = await g.api('POST', '/api/v1/repos/root/busy/push_mirrors', {
    json: { remote_address: `${g.url}/root/busy-target.git`, remote_username: 'root', remote_password: g.admin.token, interval: '0', sync_on_commit: true },
  });
  assert.is(add.status, 200, add.text);
  const log: RepoEvent[] = [];
  const off = g.t.server.gitea.events.subscribe((e) => {
    if ('mirror' in e && e.mirror.remote_name === add.body.remote_name) log.push(e);
  });
  try {
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 6; i++) {
      work.push(g.api('POST', '/api/v1/repos/root/busy/push_mirrors-sync').then((r) => assert.is(r.status, 200, r.text)));
      work.push(g.commit('root', 'busy', { [`f${i}.txt`]: `${i}\n` }));
    }
    await Promise.all(work);
    await g.t.server.gitea.mirrorQueue.idle();
  } finally {
    off();
  }
  // started / finished strictly alternate: no second start before the first one finished.
  assert.ok(log.length >= 12, `${log.length} events`);
  log.forEach((e, i) => assert.is(e.type, i % 2 === 0 ? 'mirror_sync_started' : 'mirror_sync_finished', `event ${i}`));
  // And the last sync carried the last commit.
  const head = (await g.api('GET', '/api/v1/repos/root/busy/branches/main')).body.commit.id;
  assert.is((await g.api('GET', '/api/v1/repos/root/busy-target/branches/main')).body.commit.id, head);
});

test('push and pull syncs queued when the server stops all run after it restarts', async () => {
  const t1 = await startTestServer({ MIRROR_ALLOW_LOCAL_NETWORKS: 'true' });
  const dataDir = t1.dataDir;
  try {
    const mirrors: string[] = [];
    let pulledAt: number;
    try {
      const w1 = await giteaWorld(t1);
      await w1.repo('a');
      for (const target of ['t1', 't2', 't3']) {
        await w1.repo(target, { autoInit: false });
        const r = await w1.api('POST', '/api/v1/repos/root/a/push_mirrors', {
          json: { remote_address: `${w1.url}/root/${target}.git`, remote_username: 'root', remote_password: w1.admin.token, interval: '0', sync_on_commit: true },
        });
        assert.is(r.status, 200, r.text);
        mirrors.push(r.body.remote_name);
      }
      const pull = await w1.api('POST', '/api/v1/repos/migrate', { json: { clone_addr: `${w1.url}/root/a.git`, auth_username: 'root', auth_password: w1.admin.token, repo_name: 'copy', mirror: true } });
      assert.is(pull.status, 201, pull.text);
      pulledAt = (t1.server.db.prepare('SELECT last_update FROM pull_mirrors').get() as { last_update: number }).last_update;

      await t1.server.gitea.stopMirrors();
      await w1.commit('root', 'a', { 'late.txt': 'late\n' });
      await w1.commit('root', 'a', { 'later.txt': 'later\n' }); // asks again: still one job per mirror
      assert.is((await w1.api('POST', '/api/v1/repos/root/copy/mirror-sync')).status, 200);
      const queued = t1.server.db.prepare('SELECT kind, reason FROM mirror_jobs ORDER BY id').all() as { kind: string; reason: string }[];
      assert.equal(queued.map((j) => j.kind).sort(), ['pull', 'push', 'push', 'push']);
      t1.assertNoViolations();
    } finally {
      await t1.close({ keepData: true });
    }

    // last_update is in seconds: start the second server once the clock has left the first sync's
    // second, so a sync after the restart is told apart from it (waiting for that, not for 1.1 s).
    await nextSecondAfter(pulledAt);
    const t2 = await startTestServer({ MIRROR_ALLOW_LOCAL_NETWORKS: 'true' }, dataDir);
    try {
      await t2.server.gitea.mirrorQueue.idle();
      // The remotes named the old port, so these syncs fail; that they ran is what counts.
      const rows = t2.server.db.prepare('SELECT remote_name, last_update FROM push_mirrors ORDER BY id').all() as { remote_name: string; last_update: number }[];
      assert.equal(rows.map((r) => r.remote_name), mirrors);
      for (const r of rows) assert.ok(r.last_update > 0, `${r.remote_name} ran`);
      const after = (t2.server.db.prepare('SELECT last_update FROM pull_mirrors').get() as { last_update: number }).last_update;
      assert.ok(after > pulledAt, 'the pull sync ran');
      // Failed jobs stay queued, backed off, to be tried again.
      const left = t2.server.db.prepare('SELECT kind, attempts, due_at FROM mirror_jobs').all() as { kind: string; attempts: number; due_at: number }[];
      assert.is(left.length, 4);
      for (const j of left) {
        assert.is(j.attempts, 1, j.kind);
        assert.ok(j.due_at > Date.now(), 'due later');
      }
      t2.assertNoViolations();
    } finally {
      await t2.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('interval mirrors are synced on schedule, without being asked', async () => {
  const t = await startTestServer({ MIRROR_ALLOW_LOCAL_NETWORKS: 'true', MIRROR_MIN_INTERVAL: '1s' });
  try {
    const w = await giteaWorld(t);
    await w.repo('ticking');
    await w.repo('ticking-target', { autoInit: false });
    const r = await w.api('POST', '/api/v1/repos/root/ticking/push_mirrors', {
      json: { remote_address: `${w.url}/root/ticking-target.git`, remote_username: 'root', remote_password: w.admin.token, interval: '1s' },
    });
    assert.is(r.status, 200, r.text);
    assert.is(r.body.interval, '1s');
    const head = (await w.api('GET', '/api/v1/repos/root/ticking/branches/main')).body.commit.id;
    // Nobody asks for a sync: the scheduler's own (1 s interval) is awaited, however busy the machine.
    await waitUntil(async () => (await w.api('GET', '/api/v1/repos/root/ticking-target/branches/main')).body?.commit?.id === head, 'the scheduler synced the mirror', WAIT_MS, 100);
    // And it is scheduled again.
    const next = t.server.db.prepare("SELECT reason, due_at FROM mirror_jobs WHERE kind = 'push'").get() as { reason: string; due_at: number };
    assert.is(next.reason, 'schedule');
    t.assertNoViolations();
  } finally {
    await t.close();
  }
});

test.run();
