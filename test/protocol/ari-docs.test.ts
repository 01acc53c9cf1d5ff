import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { EVENTS } from '../../protocol/ari/events/index.js';
import { Channel } from '../../protocol/ari/models/channel.js';
import { ARI_RESOURCES } from '../../protocol/ari/resources.js';
import { apiDeclaration, resourceListing } from '../../protocol/ari/swagger.js';
import { SIM_RESOURCE } from '../../protocol/sim/resource.js';

const test = suite('protocol: ARI declarations');
const SNAPSHOT = join(import.meta.dirname, 'ari-docs.snapshot.json');

/** Every declaration with every declared operation, as the docs would be if all were served. */
function fullDocs() {
  const out: Record<string, unknown> = { 'resources.json': resourceListing('http://localhost:8088/ari', ARI_RESOURCES) };
  for (const r of [...ARI_RESOURCES, SIM_RESOURCE]) out[`${r.name}.json`] = apiDeclaration(r, 'http://localhost:8088/ari', () => true);
  return out;
}

test('drift gate: the generated docs match the committed snapshot (UPDATE_SNAPSHOTS=1 to accept a change)', () => {
  const docs = JSON.stringify(fullDocs(), null, 2) + '\n';
  if (process.env.UPDATE_SNAPSHOTS === '1') writeFileSync(SNAPSHOT, docs);
  // A missing snapshot is a failure, not a fresh start: writing it here would pass any drift.
  assert.ok(existsSync(SNAPSHOT), `${SNAPSHOT} is missing: restore it, or regenerate it with UPDATE_SNAPSHOTS=1 npm test -- protocol and review the diff`);
  assert.fixture(docs, readFileSync(SNAPSHOT, 'utf8'));
});

test('every operation has a nickname (unique in its resource), a summary, errors, and path params matching its path', () => {
  for (const r of [...ARI_RESOURCES, SIM_RESOURCE]) {
    const nicknames = new Set<string>();
    for (const op of r.operations) {
      const where = `${r.name}.${op.nickname}`;
      assert.ok(op.nickname && !nicknames.has(op.nickname), `${where}: nickname unique`);
      nicknames.add(op.nickname);
      assert.ok(op.summary.length > 0, `${where}: summary`);
      assert.ok(op.errors.length > 0 && op.errors.every((e) => e.code >= 400 && e.reason), `${where}: errors`);
      const inPath = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = Object.entries(op.params).filter(([, p]) => p.in === 'path').map(([n]) => n).sort();
      assert.equal(declared, inPath, `${where}: path params`);
      if (!op.upgrade) {
        const bodiless = op.responseClass === 'void' || op.responseClass === 'binary';
        assert.is(bodiless, op.response === null, `${where}: void or binary ⇔ no response schema`);
        // 202 for what is only accepted (a message or REFER handed to the far end), as Asterisk answers it.
        assert.is(op.responseClass === 'void', op.success === 204 || op.success === 202, `${where}: void ⇔ 204 or 202`);
      }
      assert.is(op.resource, r.name, `${where}: listed under its resource`);
    }
  }
});

test('the channels resource declares exactly the spec\'s 31 operations and the 4 Asterisk 20-23 added, with Asterisk\'s success codes', () => {
  const channels = ARI_RESOURCES.find((r) => r.name === 'channels')!;
  const got = channels.operations.map((o) => `${o.nickname} ${o.method} ${o.path} ${o.success}`).sort();
  const spec = [
    'list GET /channels 200', 'originate POST /channels 200', 'create POST /channels/create 200', 'get GET /channels/{channelId} 200',
    'originateWithId POST /channels/{channelId} 200', 'hangup DELETE /channels/{channelId} 204',
    'continueInDialplan POST /channels/{channelId}/continue 204', 'move POST /channels/{channelId}/move 204',
    'redirect POST /channels/{channelId}/redirect 204', 'answer POST /channels/{channelId}/answer 204',
    'ring POST /channels/{channelId}/ring 204', 'ringStop DELETE /channels/{channelId}/ring 204',
    'sendDTMF POST /channels/{channelId}/dtmf 204', 'mute POST /channels/{channelId}/mute 204', 'unmute DELETE /channels/{channelId}/mute 204',
    'hold POST /channels/{channelId}/hold 204', 'unhold DELETE /channels/{channelId}/hold 204', 'startMoh POST /channels/{channelId}/moh 204',
    'stopMoh DELETE /channels/{channelId}/moh 204', 'startSilence POST /channels/{channelId}/silence 204',
    'stopSilence DELETE /channels/{channelId}/silence 204', 'play POST /channels/{channelId}/play 201',
    'playWithId POST /channels/{channelId}/play/{playbackId} 201', 'record POST /channels/{channelId}/record 201',
    'getChannelVar GET /channels/{channelId}/variable 200', 'setChannelVar POST /channels/{channelId}/variable 204',
    'snoopChannel POST /channels/{channelId}/snoop 200', 'snoopChannelWithId POST /channels/{channelId}/snoop/{snoopId} 200',
    'dial POST /channels/{channelId}/dial 204', 'rtpstatistics GET /channels/{channelId}/rtp_statistics 200',
    'externalMedia POST /channels/externalMedia 200',
    // Issue 13: what Asterisk 20 to 23 added.
    'progress POST /channels/{channelId}/progress 204', 'transfer_progress POST /channels/{channelId}/transfer_progress 204',
    'getChannelVars GET /channels/{channelId}/variables 200', 'setChannelVars POST /channels/{channelId}/variables 204',
  ].sort();
  assert.equal(got, spec);
});

test('every model a declaration refers to is defined somewhere in the docs', () => {
  const defined = new Set<string>(['string', 'int', 'long', 'double', 'boolean', 'Date', 'object', 'void', 'binary', 'containers']);
  const docs = fullDocs();
  for (const d of Object.values(docs) as Array<{ models?: Record<string, unknown> }>) for (const id of Object.keys(d.models ?? {})) defined.add(id);
  const base = (t: string) => t.replace(/^List\[(.*)\]$/, '$1');
  for (const [file, d] of Object.entries(docs) as Array<[string, { models?: Record<string, { properties: Record<string, { type: string }> }>; apis?: Array<{ operations: Array<{ responseClass: string }> }> }]>) {
    for (const m of Object.values(d.models ?? {})) for (const [p, prop] of Object.entries(m.properties)) assert.ok(defined.has(base(prop.type)), `${file}: ${p} has type ${prop.type}`);
    for (const api of d.apis ?? []) for (const op of api.operations ?? []) assert.ok(defined.has(base(op.responseClass)), `${file}: responseClass ${op.responseClass}`);
  }
});

test('events.json defines Message, Event with every event as a subtype, and each event\'s own properties only', () => {
  const events = apiDeclaration(ARI_RESOURCES.find((r) => r.name === 'events')!, undefined, () => true) as { models: Record<string, any> };
  assert.equal(events.models.Message.subTypes, ['MissingParams', 'Event']);
  assert.is(events.models.Message.discriminator, 'type');
  assert.equal([...events.models.Event.subTypes].sort(), EVENTS.map((e) => e.type).sort());
  for (const e of EVENTS) {
    const m = events.models[e.type];
    assert.ok(m, e.type);
    assert.not.ok('type' in m.properties || 'application' in m.properties, `${e.type} lists only its own properties`);
  }
  assert.equal(Object.keys(events.models.StasisStart.properties), ['args', 'channel', 'replace_channel']);
});

test('model schemas are strict: our snapshots cannot carry undeclared keys', () => {
  const ok = {
    id: '1.1', protocol_id: '', name: 'PJSIP/a-00000001', state: 'Up', caller: { name: '', number: '' }, connected: { name: '', number: '' },
    accountcode: '', dialplan: { context: 'default', exten: 's', priority: 1, app_name: '', app_data: '' }, creationtime: '2026-01-01T00:00:00.000+0000', language: 'en',
  };
  assert.ok(v.safeParse(Channel.schema, ok).success);
  assert.not.ok(v.safeParse(Channel.schema, { ...ok, extra: 1 }).success);
  assert.not.ok(v.safeParse(Channel.schema, { ...ok, state: 'Talking' }).success);
  assert.not.ok(v.safeParse(Channel.schema, { ...ok, creationtime: '2026-01-01T00:00:00Z' }).success);
});

test.run();
