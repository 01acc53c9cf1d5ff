import Database from 'better-sqlite3';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openDatabase } from '../../server/db/open.js';
import { createChannelRepo } from '../../server/db/repos/channel-repo.js';
import { createHeardRepo } from '../../server/db/repos/heard-repo.js';
import { tempDir } from '../_helpers/temp-dir.js';

const test = suite('db');
let dir: string;
test.before.each(() => {
  dir = tempDir('db');
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

test('heard repo: items are written and rewritten by number, trimmed from the oldest, and pruned with their channel', () => {
  const db = openDatabase(join(dir, 'x.db'));
  const repo = createChannelRepo(db);
  const heard = createHeardRepo(db);
  const row = (seq: number, ended: number | null) => ({ seq, id: `c${seq}`, name: `n${seq}`, state: 'Up', created_at: seq, ended_at: ended, cause: ended ? 16 : null, data: '{}' });
  repo.transaction(() => {
    repo.save(row(1, 10));
    repo.save(row(2, 20));
    for (const seq of [1, 2]) for (let n = 0; n < 3; n++) heard.put(seq, n, JSON.stringify({ n }));
    heard.put(2, 1, '{"n":1,"done":true}');
  });
  assert.equal(heard.list(2), [{ n: 0, item: '{"n":0}' }, { n: 1, item: '{"n":1,"done":true}' }, { n: 2, item: '{"n":2}' }]);
  heard.trim(2, 2);
  assert.equal(heard.list(2).map((r) => r.n), [2]);
  assert.is(repo.prune(1), 1);
  assert.equal(heard.list(1), []);
  assert.equal(heard.list(2).map((r) => r.n), [2]);
  db.close();
});

test('013 moves heard lists out of channel records into heard_items, in order, leaving the rest of each record', () => {
  const file = join(dir, 'old.db');
  const old = new Database(file);
  const dirUrl = new URL('../../server/db/migrations/', import.meta.url);
  const files = readdirSync(dirUrl).filter((f) => /^\d{3}-.*\.sql$/.test(f) && Number(f.slice(0, 3)) <= 12).sort();
  for (const m of files) old.exec(readFileSync(new URL(m, dirUrl), 'utf8'));
  old.pragma('user_version = 12');
  const insert = old.prepare("INSERT INTO channels (seq, id, name, state, created_at, ended_at, cause, data) VALUES (?, ?, 'PJSIP/alice-1', 'Up', 0, ?, ?, ?)");
  const items = [{ at: '2025-01-01T00:00:00.000+0000', kind: 'playback', media: 'sound:hello-world', lang: 'en', duration_ms: 797, completed: true }, { at: '2025-01-01T00:00:01.000+0000', kind: 'moh', class: 'default' }];
  insert.run(1, 'a', 5, 16, JSON.stringify({ seq: 1, id: 'a', heard: items, state: 'Up' }));
  insert.run(2, 'b', null, null, JSON.stringify({ seq: 2, id: 'b', state: 'Ring' }));
  old.close();

  const db = openDatabase(file);
  const heard = createHeardRepo(db);
  assert.equal(heard.list(1).map((r) => ({ n: r.n, item: JSON.parse(r.item) })), items.map((item, n) => ({ n, item })));
  assert.equal(heard.list(2), []);
  const data = (seq: number) => JSON.parse((db.prepare('SELECT data FROM channels WHERE seq = ?').get(seq) as { data: string }).data);
  assert.equal(data(1), { seq: 1, id: 'a', state: 'Up' });
  assert.equal(data(2), { seq: 2, id: 'b', state: 'Ring' });
  db.close();
});

test('004 rebuilds repositories with AUTOINCREMENT, keeping every row and what references it; ids are never reused', () => {
  // A database as the 003 schema left it, with a repository, a collaborator and a protection rule.
  const file = join(dir, 'old.db');
  const old = new Database(file);
  for (const m of ['001-channels.sql', '002-media.sql', '003-repositories.sql']) old.exec(readFileSync(new URL(`../../server/db/migrations/${m}`, import.meta.url), 'utf8'));
  old.pragma('user_version = 3');
  old.pragma('foreign_keys = ON');
  const user = (id: number, name: string) =>
    old.prepare("INSERT INTO users (id, name, lower_name, email, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, 'x', 0, 0)").run(id, name, name, `${name}@example.com`);
  user(1, 'alice');
  user(2, 'bob');
  old.prepare("INSERT INTO repositories (id, owner_id, name, lower_name, default_branch, created_at, updated_at) VALUES (7, 1, 'r', 'r', 'main', 0, 0)").run();
  old.prepare("INSERT INTO collaborators (repo_id, user_id, mode, created_at) VALUES (7, 2, 'write', 0)").run();
  old.prepare("INSERT INTO branch_protections (repo_id, rule_name, data, created_at, updated_at) VALUES (7, 'main', '{}', 0, 0)").run();
  old.close();

  const db = openDatabase(file);
  assert.ok((db.pragma('user_version', { simple: true }) as number) >= 4);
  assert.is(db.pragma('foreign_keys', { simple: true }), 1);
  assert.match((db.prepare("SELECT sql FROM sqlite_master WHERE name = 'repositories'").get() as { sql: string }).sql, /AUTOINCREMENT/);
  assert.equal(db.prepare('SELECT id, name FROM repositories').all(), [{ id: 7, name: 'r' }]);
  assert.equal(db.prepare('SELECT repo_id, user_id, mode FROM collaborators').all(), [{ repo_id: 7, user_id: 2, mode: 'write' }]);
  assert.is((db.prepare('SELECT count(*) AS n FROM branch_protections WHERE repo_id = 7').get() as { n: number }).n, 1);
  // Foreign keys still cascade, and a deleted repository's id is not handed out again.
  db.prepare('DELETE FROM repositories WHERE id = 7').run();
  assert.is((db.prepare('SELECT count(*) AS n FROM collaborators').get() as { n: number }).n, 0);
  const next = db.prepare("INSERT INTO repositories (owner_id, name, lower_name, default_branch, created_at, updated_at) VALUES (1, 's', 's', 'main', 0, 0)").run();
  assert.is(Number(next.lastInsertRowid), 8);
  db.close();
});

test.run();
