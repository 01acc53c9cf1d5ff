import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { EVENTS } from '../../protocol/ari/events/index.js';
import { eventDocModels } from '../../protocol/ari/event-doc-models.js';
import { ARI_RESOURCES } from '../../protocol/ari/resources.js';
import { SIM_RESOURCE } from '../../protocol/sim/resource.js';
import { SIM_TAGS } from '../../protocol/sim/openapi.js';
import { basicAuth } from '../_helpers/request.js';
import type { TestServer } from '../_helpers/server.js';
import { useTestServer } from '../_helpers/use-test-server.js';

// The OpenAPI 3 documents of /ari and /sim, as served: valid against the OpenAPI 3.0 schema
// (every $ref resolved), derived from the same declarations as the Swagger 1.1 files (same
// operations, parameters, statuses), behind the same credentials, and matching their snapshots.
const test = suite('protocol: OpenAPI 3 documents (/ari/openapi.json, /sim/openapi.json)');
const ctx = useTestServer(test);
const METHODS = ['get', 'put', 'post', 'delete'];
const AUTH = { authorization: basicAuth('asterisk:asterisk') };
const docs: Record<'ari' | 'sim', any> = { ari: undefined, sim: undefined };
let t: TestServer;

test.before(async () => {
  t = ctx.t;
  for (const name of ['ari', 'sim'] as const) {
    const res = await fetch(`${t.url}/${name}/openapi.json`, { headers: AUTH });
    assert.is(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    docs[name] = await res.json();
  }
});

const opsOf = (d: any): Array<{ path: string; method: string; op: any }> =>
  Object.entries(d.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).filter(([m]) => METHODS.includes(m)).map(([method, op]) => ({ path, method, op })));

for (const name of ['ari', 'sim'] as const) {
  test(`drift gate: /${name}/openapi.json matches its committed snapshot (UPDATE_SNAPSHOTS=1 to accept a change)`, () => {
    const file = join(import.meta.dirname, `openapi-${name}.snapshot.json`);
    const text = JSON.stringify(docs[name], null, 2) + '\n';
    if (process.env.UPDATE_SNAPSHOTS === '1') writeFileSync(file, text);
    // A missing snapshot is a failure, not a fresh start: writing it here would pass any drift.
    assert.ok(existsSync(file), `${file} is missing: restore it, or regenerate it with UPDATE_SNAPSHOTS=1 npm test -- protocol and review the diff`);
    assert.fixture(text, readFileSync(file, 'utf8'));
  });

  test(`/${name}/openapi.json is a valid OpenAPI 3.0 document (official schema, every $ref resolves)`, async () => {
    assert.is(docs[name].openapi, '3.0.3');
    // The validator dereferences in place: give it a copy.
    await SwaggerParser.validate(structuredClone(docs[name]));
  });
}

test('the validator used above does refuse a broken document (a dangling $ref, an unknown parameter location)', async () => {
  const broken = structuredClone(docs.sim);
  broken.paths['/clock'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/NoSuchModel' };
  await SwaggerParser.validate(broken).then(() => assert.unreachable('a dangling $ref passed'), (err: Error) => assert.match(err.message, /NoSuchModel/));
  const badParam = structuredClone(docs.sim);
  badParam.paths['/history'].get.parameters[0].in = 'body';
  await SwaggerParser.validate(badParam).then(() => assert.unreachable('a parameter in: body passed'), () => {});
});

test('each document lists exactly the operations of its Swagger 1.1 declarations, with the same statuses', async () => {
  const declared = async (file: string) => {
    const res = await fetch(`${t.url}${file}`, { headers: AUTH });
    const d = (await res.json()) as { apis: Array<{ path: string; operations: Array<{ httpMethod: string; nickname: string; errorResponses: Array<{ code: number }> }> }> };
    return d.apis.flatMap((a) => a.operations.map((o) => ({ key: `${o.httpMethod.toLowerCase()} ${a.path}`, nickname: o.nickname, errors: o.errorResponses.map((e) => String(e.code)) })));
  };
  const listing = (await (await fetch(`${t.url}/ari/api-docs/resources.json`, { headers: AUTH })).json()) as { apis: Array<{ path: string }> };
  const ariFiles = listing.apis.map((a) => a.path.replace('/api-docs/', '/ari/api-docs/').replace('{format}', 'json'));
  for (const [name, files] of [['ari', ariFiles], ['sim', ['/sim/api-docs.json']]] as const) {
    const old = (await Promise.all(files.map(declared))).flat();
    const ops = opsOf(docs[name]);
    assert.equal(ops.map((o) => `${o.method} ${o.path}`).sort(), old.map((o) => o.key).sort(), `${name}: same operations`);
    for (const o of old) {
      const op = ops.find((x) => `${x.method} ${x.path}` === o.key)!.op;
      assert.ok(op.operationId.endsWith(`.${o.nickname}`), `${o.key}: operationId ${op.operationId} names ${o.nickname}`);
      for (const code of o.errors) assert.ok(op.responses[code]?.description, `${o.key}: ${code} with its reason`);
    }
    const ids = ops.map((o) => o.op.operationId);
    assert.is(new Set(ids).size, ids.length, `${name}: operationIds are unique`);
    // Every tag an operation uses is described.
    const tags = new Set((docs[name].tags as Array<{ name: string; description: string }>).filter((x) => x.description).map((x) => x.name));
    for (const o of ops) assert.ok(tags.has(o.op.tags[0]), `${o.method} ${o.path}: tag ${o.op.tags[0]} is described`);
  }
  assert.equal(Object.keys(SIM_TAGS).sort(), [...new Set(SIM_RESOURCE.operations.map((o) => o.path.split('/')[1]))].sort());
});

test('parameters carry their type, values, range, default, and lists as ARI reads them (comma-separated)', () => {
  const play = docs.ari.paths['/channels/{channelId}/play'].post;
  const param = (op: any, n: string) => op.parameters.find((p: any) => p.name === n);
  assert.equal(param(play, 'channelId'), { name: 'channelId', in: 'path', description: 'Id or name of a live channel.', required: true, schema: { type: 'string' } });
  assert.equal(param(play, 'media').schema, { type: 'array', items: { type: 'string' } });
  assert.equal([param(play, 'media').style, param(play, 'media').explode, param(play, 'media').required], ['form', false, true]);
  assert.equal(param(play, 'skipms').schema, { type: 'integer', format: 'int32', minimum: 0, default: 3000 });
  const history = docs.sim.paths['/history'].get;
  assert.equal(param(history, 'limit').schema, { type: 'integer', format: 'int32', minimum: 1, maximum: 1000, default: 100 });
  const audio = docs.sim.paths['/channels/{channelId}/audio'].put;
  assert.equal(param(audio, 'source'), undefined, 'the raw body is a request body, not a parameter');
  assert.equal(audio.requestBody.content, { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } });
  const setAudio = docs.sim.paths['/channels/{channelId}/audio'].post;
  assert.equal(param(setAudio, 'source').schema, { type: 'string', enum: ['silence', 'tone', 'sound'] });
  // The variables container is the JSON body's "variables" key; other keys stand for query parameters.
  const originate = docs.ari.paths['/channels'].post;
  assert.equal(Object.keys(originate.requestBody.content['application/json'].schema.properties), ['variables']);
  assert.is(originate.requestBody.content['application/json'].schema.properties.variables.type, 'object');
  assert.ok(!originate.parameters.some((p: any) => p.name === 'variables'));
});

test('responses: the declared success with its schema, each error with its reason, 401 everywhere, 403 where read-only users are refused', () => {
  const get = docs.ari.paths['/channels/{channelId}'].get;
  assert.equal(get.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/Channel' });
  assert.equal(get.responses['404'], { description: 'Channel not found', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorMessage' } } } });
  assert.equal(get.responses['401'], { $ref: '#/components/responses/Unauthorized' });
  assert.is(get.responses['403'], undefined, 'a read-only ARI user may read');
  assert.equal(docs.ari.paths['/channels'].get.responses['200'].content['application/json'].schema, { type: 'array', items: { $ref: '#/components/schemas/Channel' } });
  assert.equal(docs.ari.paths['/channels/{channelId}'].delete.responses['204'], { description: 'Done; no body.' });
  assert.equal(docs.ari.paths['/channels/{channelId}'].delete.responses['403'], { $ref: '#/components/responses/WriteAccessDenied' });
  assert.equal(docs.sim.paths['/clock'].get.responses['403'], { $ref: '#/components/responses/WriteAccessDenied' }, '/sim is for write users only');
  assert.ok(docs.sim.paths['/channels/{channelId}/heard.wav'].get.responses['200'].content['*/*'].schema.format === 'binary');
  for (const d of [docs.ari, docs.sim]) {
    assert.equal(d.components.securitySchemes.basicAuth, { type: 'http', scheme: 'basic', description: 'An ARI user and password (ARI_USERS).' });
    assert.equal([d.components.securitySchemes.apiKey.in, d.components.securitySchemes.apiKey.name], ['query', 'api_key']);
    assert.equal(d.security, [{ basicAuth: [] }, { apiKey: [] }]);
  }
});

test('the event socket is a GET documented as an upgrade, and every event is a schema extending Event and Message', () => {
  const ws = docs.ari.paths['/events'].get;
  assert.equal(Object.keys(ws.responses).sort(), ['101', '400', '401']);
  assert.equal(ws.responses['101'].content['application/json'].schema, { $ref: '#/components/schemas/Message' });
  assert.equal(ws['x-websocket'], { subprotocol: 'ari' });
  assert.equal(docs.sim.paths['/events'].get.responses['101'].content['application/json'].schema, { $ref: '#/components/schemas/SimTappedEvent' });
  const schemas = docs.ari.components.schemas;
  assert.equal(schemas.Message.discriminator, { propertyName: 'type' });
  assert.equal(schemas.Event.allOf[0], { $ref: '#/components/schemas/Message' });
  assert.equal(schemas.Event.allOf[1].required, ['application', 'timestamp']);
  for (const e of EVENTS) assert.equal(schemas[e.type]?.allOf?.[0], { $ref: '#/components/schemas/Event' }, e.type);
  assert.equal(Object.keys(schemas.StasisStart.allOf[1].properties), ['args', 'channel', 'replace_channel']);
  assert.equal(schemas.StasisStart.allOf[1].required, ['args', 'channel']);
  assert.is(schemas.Event.allOf[1].properties.timestamp.pattern, '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}[+-]\\d{4}$');
  // The components are exactly the error body, the resources' models and the event socket's models.
  const models = new Set(['ErrorMessage', ...ARI_RESOURCES.flatMap((r) => r.models.map((m) => m.id)), ...eventDocModels().map((m) => m.id)]);
  assert.equal(Object.keys(schemas).sort(), [...models].sort());
});

test('served behind ARI credentials like the Swagger 1.1 documents: 401 with a challenge, read-only users read ARI but not /sim, GET only', async () => {
  for (const path of ['/ari/openapi.json', '/sim/openapi.json']) {
    const res = await fetch(`${t.url}${path}`);
    assert.is(res.status, 401, path);
    assert.is(res.headers.get('www-authenticate'), 'Basic realm="Asterisk REST Interface"');
    assert.equal(await res.json(), { message: 'Authentication required' });
    const post = await fetch(`${t.url}${path}`, { method: 'POST', headers: AUTH });
    assert.is(post.status, 405, `${path} POST`);
    assert.is(post.headers.get('allow'), 'GET');
  }
  const viewer = { authorization: basicAuth('viewer:secret-viewer') };
  assert.is((await fetch(`${t.url}/ari/openapi.json`, { headers: viewer })).status, 200);
  assert.is((await fetch(`${t.url}/ari/api-docs/resources.json`, { headers: viewer })).status, 200);
  const sim = await fetch(`${t.url}/sim/openapi.json`, { headers: viewer });
  assert.is(sim.status, 403);
  assert.equal(await sim.json(), { message: 'Write access denied' });
  assert.is((await fetch(`${t.url}/sim/api-docs.json`, { headers: viewer })).status, 403, 'the same rule as the Swagger 1.1 document');
  assert.is((await fetch(`${t.url}/ari/openapi.json?api_key=asterisk:asterisk`)).status, 200, 'api_key works too');
});

test.run();
