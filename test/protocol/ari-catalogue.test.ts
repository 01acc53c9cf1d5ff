import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ASTERISK_22_OPERATIONS } from '../../protocol/ari/asterisk-catalogue.js';
import { operationTable, TABLE_BEGIN, TABLE_END } from '../../protocol/ari/operation-table.js';
import { ARI_RESOURCES } from '../../protocol/ari/resources.js';
import { useServer } from '../_helpers/suite.js';

// The catalogue of Asterisk 22's ARI (protocol/ari/asterisk-catalogue.ts) against what we serve
// (the declarations of protocol/ari/, which the served api-docs list), and the README's table
// rendered from both: a drift gate, rewritten by UPDATE_SNAPSHOTS=1 npm test -- protocol.

const test = suite('protocol: Asterisk 22 catalogue');
const ctx = useServer(test, { events: {} });
const README = join(import.meta.dirname, '..', '..', 'README.md');

const key = (method: string, path: string) => `${method} ${path}`;
const declared = new Map(ARI_RESOURCES.flatMap((r) => r.operations.map((o) => [key(o.method, o.path), o] as const)));

test('the catalogue lists each operation once, each nickname once per resource', () => {
  const seen = new Set<string>();
  const nicknames = new Set<string>();
  for (const op of ASTERISK_22_OPERATIONS) {
    const k = key(op.method, op.path);
    assert.ok(!seen.has(k), `${k} listed twice`);
    seen.add(k);
    assert.ok(!nicknames.has(`${op.resource}.${op.nickname}`), `${op.resource}.${op.nickname} listed twice`);
    nicknames.add(`${op.resource}.${op.nickname}`);
    assert.ok(op.notServed === undefined || op.notServed.trim().length > 0, `${k}: an empty reason`);
  }
  assert.is(ASTERISK_22_OPERATIONS.length, 109, 'asterisk 16, endpoints 7, channels 35, bridges 18, recordings 12, sounds 2, playbacks 3, deviceStates 4, mailboxes 4, events 3, applications 5');
});

test('every Asterisk 22 operation is either served (with Asterisk\'s nickname, in its resource) or says why not, never both', () => {
  const problems: string[] = [];
  for (const op of ASTERISK_22_OPERATIONS) {
    const k = key(op.method, op.path);
    const ours = declared.get(k);
    if (ours && op.notServed !== undefined) problems.push(`${k} is served but listed as not served ("${op.notServed}"): drop the reason`);
    if (!ours && op.notServed === undefined) problems.push(`${k} (${op.nickname}) is neither served nor listed as not served: serve it or give a reason`);
    if (ours && (ours.nickname !== op.nickname || ours.resource !== op.resource)) problems.push(`${k}: we call it ${ours.resource}.${ours.nickname}, Asterisk ${op.resource}.${op.nickname}`);
  }
  assert.equal(problems, []);
});

test('every operation we serve is one of Asterisk 22\'s', () => {
  const catalogued = new Set(ASTERISK_22_OPERATIONS.map((op) => key(op.method, op.path)));
  assert.equal([...declared.keys()].filter((k) => !catalogued.has(k)), [], 'served but not in the catalogue');
});

test('the served api-docs list exactly the declared operations (so "served" in the table is what the server answers)', async () => {
  const listing = await ctx.t.http('GET', '/ari/api-docs/resources.json');
  assert.is(listing.status, 200);
  const served: string[] = [];
  for (const api of listing.body.apis as Array<{ path: string }>) {
    const file = api.path.replace('/api-docs/', '').replace('{format}', 'json');
    const doc = await ctx.t.http('GET', `/ari/api-docs/${file}`);
    assert.is(doc.status, 200, file);
    for (const a of doc.body.apis as Array<{ path: string; operations: Array<{ httpMethod: string }> }>) {
      for (const op of a.operations) served.push(key(op.httpMethod, a.path));
    }
  }
  assert.equal(served.sort(), [...declared.keys()].sort());
});

test('drift gate: the README\'s operation table is what the catalogue and the declarations give (UPDATE_SNAPSHOTS=1 to rewrite it)', () => {
  assert.ok(existsSync(README), 'README.md is missing');
  const text = readFileSync(README, 'utf8');
  const begin = text.indexOf(TABLE_BEGIN);
  const end = text.indexOf(TABLE_END);
  assert.ok(begin >= 0 && end > begin, `README.md must hold the table between "${TABLE_BEGIN}" and "${TABLE_END}"`);
  const want = `${TABLE_BEGIN}\n${operationTable(ARI_RESOURCES)}\n${TABLE_END}`;
  const got = text.slice(begin, end + TABLE_END.length);
  if (process.env.UPDATE_SNAPSHOTS === '1' && got !== want) writeFileSync(README, text.slice(0, begin) + want + text.slice(end + TABLE_END.length));
  else assert.fixture(got, want);
});

test.run();
