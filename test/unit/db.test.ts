import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openDatabase } from '../../server/db/open.js';
import { createChannelRepo } from '../../server/db/repos/channel-repo.js';

const test = suite('db');
let dir: string;
test.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'trunkline-db-'));
});
test.after.each(() => rmSync(dir, { recursive: true, force: true }));

test('opens in WAL mode, migrates to the latest version, and re-opening is idempotent', () => {
  const file = join(dir, 'sub', 'x.db');
  let db = openDatabase(file);
  assert.is(db.pragma('journal_mode', { simple: true }), 'wal');
  assert.is(db.pragma('foreign_keys', { simple: true }), 1);
  const version = db.pragma('user_version', { simple: true });
  assert.ok((version as number) >= 1);
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
  assert.ok(['channels', 'counters', 'globals', 'meta'].every((t) => tables.includes(t)), tables.join(','));
  db.close();
  db = openDatabase(file, 'FULL');
  assert.is(db.pragma('user_version', { simple: true }), version);
  assert.is(db.pragma('synchronous', { simple: true }), 2);
  db.close();
});

test('channel repo: history is newest first, pages with before, keeps reused ids apart, prunes the oldest', () => {
  const db = openDatabase(join(dir, 'x.db'));
  const repo = createChannelRepo(db);
  const row = (seq: number, id: string, ended: number | null) => ({ seq, id, name: `n${seq}`, state: 'Up', created_at: seq, ended_at: ended, cause: ended ? 16 : null, data: '{}' });
  repo.transaction(() => {
    repo.save(row(1, 'a', 10));
    repo.save(row(2, 'b', 20));
    repo.save(row(3, 'a', 30)); // the same id, reused after its first channel ended
    repo.save(row(4, 'live', null));
  });
  assert.equal(repo.history(10)!.map((r) => r.seq), [3, 2, 1]);
  assert.equal(repo.history(1, 'b')!.map((r) => r.seq), [1]);
  assert.is(repo.history(5, 'nope'), undefined);
  assert.equal(repo.live().map((r) => r.id), ['live']);
  assert.is(repo.prune(2), 1);
  assert.equal(repo.history(10)!.map((r) => r.seq), [3, 2]);
  assert.is(repo.prune(5), 0);
  db.close();
});

test.run();
