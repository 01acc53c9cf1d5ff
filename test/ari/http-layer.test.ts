import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { hangupAndWait, originateInApp } from '../_helpers/ari.js';
import { ariHttp } from '../_helpers/http.js';
// node:http, for what fetch will not send: a Host header of our choosing, or a body streamed in chunks with no Content-Length.
import { rawRequest as raw } from '../_helpers/raw-request.js';
import { basicAuth } from '../_helpers/request.js';
import { startTestServer } from '../_helpers/server.js';
import { useServer } from '../_helpers/suite.js';

const test = suite('http-layer');
const ctx = useServer(test, { events: { ev: 'httpapp' } });

const AUTH_REQUIRED = { message: 'Authentication required' };
const REALM = 'Basic realm="Asterisk REST Interface"';
/** The methods an Allow header lists, sorted. */
const allowed = (h: string | null) => (h ?? '').split(',').map((s) => s.trim()).filter(Boolean).sort();

const globalVar = async (name: string) => (await ctx.t.http('GET', '/ari/asterisk/variable', { query: { variable: name } })).body;

// ---- authentication -----------------------------------------------------------------------------

test('no credentials: 401 {"message":"Authentication required"} with WWW-Authenticate, before routing and URL rules', async () => {
  for (const [method, path] of [
    ['GET', '/ari/channels'],
    ['POST', '/ari/channels'],
    ['DELETE', '/ari/channels/anything'],
    ['GET', '/ari/no-such-resource'],
    ['GET', '/ari/channels/'],
    ['PUT', '/ari/channels'],
    ['GET', '/ari/api-docs/resources.json'],
    ['GET', '/ari/api-docs/channels.json'],
    ['GET', '/ari/events'],
  ] as const) {
    const r = await ctx.t.http(method, path, { auth: null });
    assert.is(r.status, 401, `${method} ${path}`);
    assert.equal(r.body, AUTH_REQUIRED);
    assert.is(r.headers.get('www-authenticate'), REALM);
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
  }
});

test('wrong credentials are 401, by Basic or by api_key; Basic is used first when both are sent', async () => {
  const cases: Array<{ headers?: Record<string, string>; query?: Record<string, string> }> = [
    { headers: { authorization: basicAuth('asterisk:wrong') } },
    { headers: { authorization: basicAuth('nobody:asterisk') } },
    { headers: { authorization: basicAuth('asterisk') } }, // no colon
    { headers: { authorization: basicAuth('asterisk:asterisk ') } },
    { headers: { authorization: 'Basic !!!not-base64' } },
    { query: { api_key: 'asterisk:wrong' } },
    { query: { api_key: 'asterisk' } },
    { query: { api_key: '' } },
    // A wrong Basic header is not rescued by a good api_key (Asterisk checks the header first).
    { headers: { authorization: basicAuth('asterisk:wrong') }, query: { api_key: 'asterisk:asterisk' } },
  ];
  for (const c of cases) {
    const r = await ctx.t.http('GET', '/ari/asterisk/ping', { auth: null, ...c });
    assert.is(r.status, 401, JSON.stringify(c));
    assert.equal(r.body, AUTH_REQUIRED);
    assert.is(r.headers.get('www-authenticate'), REALM);
  }
});

test('Basic and ?api_key=user:pass both authenticate; a non-Basic Authorization header falls back to api_key', async () => {
  const viaBasic = await ctx.t.http('GET', '/ari/asterisk/ping');
  assert.is(viaBasic.status, 200);
  assert.is(viaBasic.body.ping, 'pong');
  const viaKey = await ctx.t.http('GET', '/ari/asterisk/ping', { auth: null, query: { api_key: 'asterisk:asterisk' } });
  assert.is(viaKey.status, 200);
  const lower = await ctx.t.http('GET', '/ari/asterisk/ping', { auth: null, headers: { authorization: `basic ${Buffer.from('asterisk:asterisk').toString('base64')}` } });
  assert.is(lower.status, 200, 'the scheme is case-insensitive');
  const bearer = await ctx.t.http('GET', '/ari/asterisk/ping', { auth: null, headers: { authorization: 'Bearer abc' }, query: { api_key: 'asterisk:asterisk' } });
  assert.is(bearer.status, 200);
});

test('a password containing ":" (ARI_USERS=u1:pa:ss): api_key splits at the first colon', async () => {
  const s = await startTestServer({ ARI_USERS: 'u1:pa:ss' });
  try {
    const http = ariHttp(s.url, 'u1:pa:ss');
    assert.is((await http('GET', '/ari/asterisk/ping')).status, 200, 'Basic');
    assert.is((await http('GET', '/ari/asterisk/ping', { auth: null, query: { api_key: 'u1:pa:ss' } })).status, 200, 'api_key');
    assert.is((await http('POST', '/ari/asterisk/variable', { auth: null, query: { api_key: 'u1:pa:ss', variable: 'W', value: '1' } })).status, 204, 'a write user');
    for (const key of ['u1:pa', 'u1:ss', 'u1:pa:ss:', 'u1:pa:s', 'pa:ss']) {
      const r = await http('GET', '/ari/asterisk/ping', { auth: null, query: { api_key: key } });
      assert.is(r.status, 401, key);
    }
    // The default user is not configured on this server.
    assert.is((await http('GET', '/ari/asterisk/ping', { auth: 'asterisk:asterisk' })).status, 401);
    s.assertNoViolations();
  } finally {
    await s.close();
  }
});

test('read-only user: GET 200, POST/DELETE 403 {"message":"Write access denied"}, OPTIONS 204', async () => {
  const viewer = 'viewer:secret-viewer';
  for (const path of ['/ari/channels', '/ari/asterisk/info', '/ari/endpoints', '/ari/applications', '/ari/api-docs/resources.json']) {
    assert.is((await ctx.t.http('GET', path, { auth: viewer })).status, 200, path);
  }
  assert.is((await ctx.t.http('GET', '/ari/asterisk/ping', { auth: null, query: { api_key: viewer } })).status, 200);
  for (const [method, path] of [
    ['POST', '/ari/asterisk/variable?variable=RO&value=1'],
    ['POST', '/ari/channels?endpoint=PJSIP/instant&app=httpapp'],
    ['DELETE', '/ari/channels/anything'],
    ['POST', '/ari/channels/anything/answer'],
    ['PUT', '/ari/channels'],
  ] as const) {
    const r = await ctx.t.http(method, path, { auth: viewer });
    assert.is(r.status, 403, `${method} ${path}`);
    assert.equal(r.body, { message: 'Write access denied' });
  }
  assert.is((await ctx.t.http('POST', '/ari/asterisk/variable', { auth: null, query: { api_key: viewer, variable: 'RO', value: '1' } })).status, 403);
  assert.equal(await globalVar('RO'), { value: '' }, 'nothing was written');
  assert.equal((await ctx.t.http('GET', '/ari/channels')).body, [], 'nothing was created');
  const opt = await ctx.t.http('OPTIONS', '/ari/channels', { auth: viewer });
  assert.is(opt.status, 204);
});

// ---- routing ---------------------------------------------------------------------------------------------

test('unknown route: 404 {"message":"Resource not found"}', async () => {
  for (const [method, path] of [
    ['GET', '/ari/no-such-resource'],
    ['GET', '/ari/asterisk/nope'],
    ['POST', '/ari/asterisk/nope'],
    ['GET', '/ari/channels/some-id/nope'],
    ['DELETE', '/ari/channels/some-id/answer/extra'],
  ] as const) {
    const r = await ctx.t.http(method, path);
    assert.is(r.status, 404, `${method} ${path}`);
    assert.equal(r.body, { message: 'Resource not found' });
  }
});

test('known path, wrong method: 405 {"message":"Invalid method"} with an Allow header', async () => {
  const cases: Array<[string, string, string[]]> = [
    ['PUT', '/ari/channels', ['GET', 'POST']],
    ['DELETE', '/ari/channels', ['GET', 'POST']],
    ['DELETE', '/ari/asterisk/info', ['GET']],
    ['POST', '/ari/asterisk/ping', ['GET']],
    ['PUT', '/ari/asterisk/variable', ['GET', 'POST']],
    ['GET', '/ari/channels/some-id/answer', ['POST']],
    ['PUT', '/ari/channels/some-id', ['DELETE', 'GET', 'POST']],
    ['POST', '/ari/api-docs/resources.json', ['GET']],
  ];
  for (const [method, path, allow] of cases) {
    const r = await ctx.t.http(method, path);
    assert.is(r.status, 405, `${method} ${path}`);
    assert.equal(r.body, { message: 'Invalid method' });
    assert.equal(allowed(r.headers.get('allow')), allow, `${method} ${path}`);
  }
});

test('GET /ari/channels/create is 405 (a literal segment, not a channel id)', async () => {
  const r = await ctx.t.http('GET', '/ari/channels/create');
  assert.is(r.status, 405);
  assert.equal(r.body, { message: 'Invalid method' });
  assert.equal(allowed(r.headers.get('allow')), ['POST']);
  // A real unknown id is the handler's 404.
  const missing = await ctx.t.http('GET', '/ari/channels/not-create');
  assert.is(missing.status, 404);
  assert.equal(missing.body, { message: 'Channel not found' });
});

test('a trailing slash: 404 "ARI URLs do not end with a slash. Try /ari/<path>"', async () => {
  const cases: Array<[string, string]> = [
    ['/ari/channels/', 'ARI URLs do not end with a slash. Try /ari/channels'],
    ['/ari/asterisk/info/', 'ARI URLs do not end with a slash. Try /ari/asterisk/info'],
    ['/ari/no-such/', 'ARI URLs do not end with a slash. Try /ari/no-such'],
  ];
  for (const [path, message] of cases) {
    const r = await ctx.t.http('GET', path);
    assert.is(r.status, 404, path);
    assert.ok(r.body.message.startsWith('ARI URLs do not end with a slash'), r.body.message);
    assert.is(r.body.message, message);
  }
  assert.is((await ctx.t.http('POST', '/ari/channels/')).status, 404);
});

test('OPTIONS on a known path: 204, no body', async () => {
  for (const path of ['/ari/channels', '/ari/asterisk/info', '/ari/channels/some-id']) {
    const r = await ctx.t.http('OPTIONS', path);
    assert.is(r.status, 204, path);
    assert.is(r.text, '');
  }
  const r = await ctx.t.http('OPTIONS', '/ari/channels');
  const allow = allowed(r.headers.get('allow'));
  assert.ok(allow.includes('GET') && allow.includes('POST'), String(allow));
});

// ---- parameters ------------------------------------------------------------------------------------------

test('parameter precedence: form body < query string < JSON body keys', async () => {
  // Form alone.
  assert.is((await ctx.t.http('POST', '/ari/asterisk/variable', { form: { variable: 'PREC_A', value: 'form' } })).status, 204);
  assert.equal(await globalVar('PREC_A'), { value: 'form' });
  // Query beats form.
  assert.is((await ctx.t.http('POST', '/ari/asterisk/variable', { form: { variable: 'PREC_B', value: 'form' }, query: { value: 'query' } })).status, 204);
  assert.equal(await globalVar('PREC_B'), { value: 'query' });
  // Parameters merge across places: the name from the form, the value from the query.
  assert.is((await ctx.t.http('POST', '/ari/asterisk/variable', { form: { variable: 'PREC_C' }, query: { value: 'mixed' } })).status, 204);
  assert.equal(await globalVar('PREC_C'), { value: 'mixed' });
  // JSON body keys beat the query string, even for the name.
  assert.is((await ctx.t.http('POST', '/ari/asterisk/variable', { query: { variable: 'PREC_WRONG', value: 'query' }, json: { variable: 'PREC_D', value: 'json' } })).status, 204);
  assert.equal(await globalVar('PREC_D'), { value: 'json' });
  assert.equal(await globalVar('PREC_WRONG'), { value: '' });
  // JSON alone.
  assert.is((await ctx.t.http('POST', '/ari/asterisk/variable', { json: { variable: 'PREC_E', value: 'only-json' } })).status, 204);
  assert.equal(await globalVar('PREC_E'), { value: 'only-json' });
  // A JSON body is only read with Content-Type application/json.
  const plain = await ctx.t.http('POST', '/ari/asterisk/variable', { body: '{"variable":"PREC_F","value":"x"}', headers: { 'content-type': 'text/plain' } });
  assert.is(plain.status, 400);
  assert.equal(plain.body, { message: 'Variable name is required' });
  const charset = await ctx.t.http('POST', '/ari/asterisk/variable', { body: '{"variable":"PREC_G","value":"cs"}', headers: { 'content-type': 'application/json; charset=utf-8' } });
  assert.is(charset.status, 204);
  assert.equal(await globalVar('PREC_G'), { value: 'cs' });
});

test('an empty body labelled application/json is accepted on DELETE and POST', async () => {
  const post = await ctx.t.http('POST', '/ari/asterisk/variable', { query: { variable: 'EMPTY_JSON', value: '1' }, body: '', headers: { 'content-type': 'application/json' } });
  assert.is(post.status, 204);
  assert.equal(await globalVar('EMPTY_JSON'), { value: '1' });
  await originateInApp(ctx.t, ctx.ev, { app: 'httpapp', id: 'http-empty' });
  const del = await ctx.t.http('DELETE', '/ari/channels/http-empty', { body: '', headers: { 'content-type': 'application/json' } });
  assert.is(del.status, 204);
  assert.is(del.text, '');
  await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'http-empty');
});

test('malformed JSON is 400; nesting deeper than MAX_JSON_DEPTH (64) is 400, 64 levels are fine', async () => {
  for (const body of ['{"variable":', '{variable: "x"}', '{"variable":"X",}', 'nul']) {
    const r = await ctx.t.http('POST', '/ari/asterisk/variable', { body, headers: { 'content-type': 'application/json' } });
    assert.is(r.status, 400, body);
    assert.type(r.body.message, 'string');
  }
  const bad = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'httpapp' }, body: '{"variables":{', headers: { 'content-type': 'application/json' } });
  assert.is(bad.status, 400);
  assert.equal((await ctx.t.http('GET', '/ari/channels')).body, [], 'nothing was originated');
  // The object itself is level 1: 63 nested arrays inside make 64.
  const nested = (n: number) => `{"variable":"DEPTH","value":"ok","x":${'['.repeat(n)}${']'.repeat(n)}}`;
  const ok = await ctx.t.http('POST', '/ari/asterisk/variable', { body: nested(63), headers: { 'content-type': 'application/json' } });
  assert.is(ok.status, 204, ok.text);
  assert.equal(await globalVar('DEPTH'), { value: 'ok' });
  const deep = await ctx.t.http('POST', '/ari/asterisk/variable', { body: nested(64).replace('"ok"', '"deep"'), headers: { 'content-type': 'application/json' } });
  assert.is(deep.status, 400);
  assert.type(deep.body.message, 'string');
  assert.equal(await globalVar('DEPTH'), { value: 'ok' });
  // Brackets inside strings do not count.
  const quoted = await ctx.t.http('POST', '/ari/asterisk/variable', { json: { variable: 'DEPTH_STR', value: '['.repeat(200) } });
  assert.is(quoted.status, 204);
});

test('a body over MAX_BODY_BYTES (2048) is 413, with or without Content-Length', async () => {
  const s = await startTestServer({ MAX_BODY_BYTES: '2048' });
  try {
    const http = ariHttp(s.url);
    const padded = (size: number) => {
      const head = '{"variable":"BIG","value":"';
      const tail = '"}';
      return head + 'x'.repeat(size - head.length - tail.length) + tail;
    };
    const exact = await http('POST', '/ari/asterisk/variable', { body: padded(2048), headers: { 'content-type': 'application/json' } });
    assert.is(exact.status, 204, 'exactly the limit is fine');
    const over = await http('POST', '/ari/asterisk/variable', { body: padded(2049), headers: { 'content-type': 'application/json' } });
    assert.is(over.status, 413);
    assert.type(over.body.message, 'string');
    const form = await http('POST', '/ari/asterisk/variable', { form: { variable: 'BIG', value: 'y'.repeat(4000) } });
    assert.is(form.status, 413);
    const chunked = await raw(s.url, 'POST', '/ari/asterisk/variable', {
      headers: { authorization: basicAuth('asterisk:asterisk'), 'content-type': 'application/json' },
      chunks: [padded(3000).slice(0, 1000), padded(3000).slice(1000, 2000), padded(3000).slice(2000)],
    });
    assert.is(chunked.status, 413);
    assert.type(chunked.body.message, 'string');
    assert.is((await http('GET', '/ari/asterisk/variable', { query: { variable: 'BIG' } })).body.value.length, 2048 - '{"variable":"BIG","value":""}'.length);
    s.assertNoViolations();
  } finally {
    await s.close();
  }
});

test('request headers over Node\'s limit: 431 in each dialect\'s error body, not a bare status line', async () => {
  const { t } = ctx;
  const big = 'x'.repeat(20_000);
  for (const [path, body] of [
    ['/ari/channels', { message: 'Request Header Fields Too Large' }],
    ['/sim/calls', { message: 'Request Header Fields Too Large' }],
    ['/api/v1/version', { message: 'Request Header Fields Too Large', url: `${t.url}/api/swagger` }],
    // git and downloads are Gitea's too, like every path outside /ari and /sim.
    ['/root/repo.git/info/refs', { message: 'Request Header Fields Too Large', url: `${t.url}/api/swagger` }],
  ] as const) {
    const r = await raw(t.url, 'GET', path, { headers: { 'x-big': big } });
    assert.is(r.status, 431, path);
    assert.equal(r.body, body, path);
  }
});

test('a bad integer is 400 naming the parameter; nothing happens', async () => {
  for (const timeout of ['soon', '1.5', '10abc', '0x10']) {
    const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'httpapp', timeout } });
    assert.is(r.status, 400, timeout);
    assert.match(r.body.message, /timeout/);
  }
  const json = await ctx.t.http('POST', '/ari/channels', { json: { endpoint: 'PJSIP/instant', app: 'httpapp', timeout: 2.5 } });
  assert.is(json.status, 400);
  assert.match(json.body.message, /timeout/);
  const prio = await ctx.t.http('POST', '/ari/channels/any/continue', { query: { priority: 'two' } });
  assert.is(prio.status, 400);
  assert.match(prio.body.message, /priority/);
  assert.equal((await ctx.t.http('GET', '/ari/channels')).body, []);
});

test('booleans accept true/false, yes/no, 1/0 (setChannelVar report_events)', async () => {
  await originateInApp(ctx.t, ctx.ev, { app: 'httpapp', id: 'http-bool' });
  const values = ['true', 'yes', '1', 'TRUE', 'false', 'no', '0'];
  for (const [i, val] of values.entries()) {
    const r = await ctx.t.http('POST', '/ari/channels/http-bool/variable', { query: { variable: `B${i}`, value: val, report_events: val } });
    assert.is(r.status, 204, val);
  }
  // Only the true ones are reported in channelvars.
  const ch = (await ctx.t.http('GET', '/ari/channels/http-bool')).body;
  assert.equal(ch.channelvars, { B0: 'true', B1: 'yes', B2: '1', B3: 'TRUE' });
  const bad = await ctx.t.http('POST', '/ari/channels/http-bool/variable', { query: { variable: 'B9', value: 'x', report_events: 'maybe' } });
  assert.is(bad.status, 400);
  assert.match(bad.body.message, /report_events/);
  // A JSON boolean works too.
  assert.is((await ctx.t.http('POST', '/ari/channels/http-bool/variable', { json: { variable: 'BJ', value: 'j', report_events: true } })).status, 204);
  assert.is((await ctx.t.http('GET', '/ari/channels/http-bool')).body.channelvars.BJ, 'j');
  await hangupAndWait(ctx.t, ctx.ev, 'http-bool');
});

test('multi-value parameters: comma lists and repeated keys (GET /ari/asterisk/info?only=…)', async () => {
  const keys = async (query: Record<string, string | string[]>) => {
    const r = await ctx.t.http('GET', '/ari/asterisk/info', { query });
    assert.is(r.status, 200, JSON.stringify(query));
    return Object.keys(r.body).sort();
  };
  assert.equal(await keys({ only: 'build,status' }), ['build', 'status']);
  // A repeated key: the last one wins, as in Asterisk.
  assert.equal(await keys({ only: ['build', 'system'] }), ['system']);
  assert.equal(await keys({ only: 'config' }), ['config']);
  assert.equal(await keys({}), ['build', 'config', 'status', 'system']);
  const bad = await ctx.t.http('GET', '/ari/asterisk/info', { query: { only: 'build,bogus' } });
  assert.is(bad.status, 400);
});

test('the variables container: non-object or non-string values are 400; {value, report_events} objects are accepted', async () => {
  const q = { endpoint: 'PJSIP/instant', app: 'httpapp' };
  for (const variables of ['A=1', ['A'], 5, true]) {
    const r = await ctx.t.http('POST', '/ari/channels', { query: q, json: { variables } });
    assert.is(r.status, 400, JSON.stringify(variables));
    assert.type(r.body.message, 'string');
  }
  for (const variables of [{ A: 1 }, { A: true }, { A: null }, { A: ['x'] }, { A: 'ok', B: { value: 1 } }, { B: { report_events: true } }]) {
    const r = await ctx.t.http('POST', '/ari/channels', { query: q, json: { variables } });
    assert.is(r.status, 400, JSON.stringify(variables));
    assert.equal(r.body, { message: 'Only string values in the \'variables\' object allowed' }, JSON.stringify(variables));
  }
  assert.equal((await ctx.t.http('GET', '/ari/channels')).body, [], 'no 400 created a channel');
  const ok = await ctx.t.http('POST', '/ari/channels', {
    query: { ...q, channelId: 'http-vars' },
    json: { variables: { PLAIN: 'p', SHOWN: { value: 's', report_events: true }, QUIET: { value: 'q', report_events: false }, BARE: { value: 'b' } } },
  });
  assert.is(ok.status, 200, ok.text);
  assert.equal(ok.body.channelvars, { SHOWN: 's' });
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'http-vars');
  for (const [name, value] of [['PLAIN', 'p'], ['QUIET', 'q'], ['BARE', 'b']]) {
    assert.equal((await ctx.t.http('GET', '/ari/channels/http-vars/variable', { query: { variable: name! } })).body, { value }, name);
  }
  await hangupAndWait(ctx.t, ctx.ev, 'http-vars');
});

// ---- api-docs ---------------------------------------------------------------------------------------

const LISTED = ['asterisk', 'endpoints', 'channels', 'bridges', 'recordings', 'sounds', 'playbacks', 'deviceStates', 'mailboxes', 'events', 'applications'];
const EVENT_TYPES = [
  'ApplicationMoveFailed', 'ApplicationReplaced', 'ChannelCallerId', 'ChannelConnectedLine', 'ChannelCreated', 'ChannelDestroyed',
  'ChannelDialplan', 'ChannelDtmfReceived', 'ChannelHangupRequest', 'ChannelHold', 'ChannelStateChange', 'ChannelTalkingFinished',
  'ChannelTalkingStarted', 'ChannelUnhold', 'ChannelVarset', 'DeviceStateChanged', 'Dial', 'StasisEnd', 'StasisStart',
];

test('resources.json: Swagger 1.1, basePath from the Host header, exactly the served resources in Asterisk order', async () => {
  const r = await raw(ctx.t.url, 'GET', '/ari/api-docs/resources.json', { headers: { host: 'pbx.example.test:8088', authorization: basicAuth('asterisk:asterisk') } });
  assert.is(r.status, 200);
  assert.match(String(r.headers['content-type']), /^application\/json/);
  assert.is(r.body.swaggerVersion, '1.1');
  assert.is(r.body.basePath, 'http://pbx.example.test:8088/ari');
  assert.type(r.body.apiVersion, 'string');
  assert.equal(r.body.apis.map((a: { path: string }) => a.path), LISTED.map((n) => `/api-docs/${n}.{format}`));
  for (const a of r.body.apis) assert.type(a.description, 'string');
  // Another Host, another basePath (no stale cache).
  const other = await raw(ctx.t.url, 'GET', '/ari/api-docs/resources.json', { headers: { host: 'other.example.test', authorization: basicAuth('asterisk:asterisk') } });
  assert.is(other.body.basePath, 'http://other.example.test/ari');
  const decl = await raw(ctx.t.url, 'GET', '/ari/api-docs/channels.json', { headers: { host: 'pbx.example.test:8088', authorization: basicAuth('asterisk:asterisk') } });
  assert.is(decl.body.basePath, 'http://pbx.example.test:8088/ari');
  const plain = await ctx.t.http('GET', '/ari/api-docs/resources.json');
  assert.is(plain.body.basePath, `http://${ctx.t.host}/ari`);
});

test('every listed declaration loads (200) from basePath + path, with apis and models', async () => {
  const listing = (await ctx.t.http('GET', '/ari/api-docs/resources.json')).body;
  for (const api of listing.apis as Array<{ path: string }>) {
    const url = `${listing.basePath}${api.path.replace('{format}', 'json')}`;
    assert.ok(url.startsWith(ctx.t.url), url);
    const r = await ctx.t.http('GET', url.slice(ctx.t.url.length));
    assert.is(r.status, 200, url);
    const name = /\/api-docs\/(\w+)\.\{format\}$/.exec(api.path)![1]!;
    assert.is(r.body.resourcePath, `/api-docs/${name}.{format}`);
    assert.is(r.body.basePath, `http://${ctx.t.host}/ari`);
    assert.ok(Array.isArray(r.body.apis) && r.body.apis.length > 0, `${name} has apis`);
    assert.type(r.body.models, 'object');
    for (const a of r.body.apis) {
      for (const op of a.operations) {
        assert.type(op.nickname, 'string');
        assert.ok(['GET', 'POST', 'DELETE', 'PUT'].includes(op.httpMethod), `${name} ${a.path}`);
      }
    }
  }
  const channels = (await ctx.t.http('GET', '/ari/api-docs/channels.json')).body;
  assert.ok(channels.models.Channel, 'channels.json defines Channel');
  const nick = channels.apis.flatMap((a: { operations: Array<{ nickname: string }> }) => a.operations.map((o) => o.nickname));
  for (const n of ['list', 'originate', 'get', 'hangup', 'continueInDialplan', 'setChannelVar', 'getChannelVar']) assert.ok(nick.includes(n), n);
});

test('events.json models: Message, Event and one model per event type', async () => {
  const r = await ctx.t.http('GET', '/ari/api-docs/events.json');
  assert.is(r.status, 200);
  const models = r.body.models;
  assert.ok(models.Message, 'Message');
  assert.ok(models.Event, 'Event');
  assert.is(models.Message.discriminator, 'type');
  assert.ok(models.Message.subTypes.includes('Event'));
  for (const type of EVENT_TYPES) {
    assert.ok(models[type], `model ${type}`);
    assert.is(models[type].id, type);
    assert.ok(models.Event.subTypes.includes(type), `Event.subTypes lists ${type}`);
  }
  // Every subtype Event names is defined.
  for (const type of models.Event.subTypes) assert.ok(models[type], `subtype ${type} is defined`);
  // Event models list their own properties only (the envelope lives in Message and Event).
  const own = Object.keys(models.ChannelDestroyed.properties);
  for (const p of ['cause', 'cause_txt', 'channel']) assert.ok(own.includes(p), p);
  for (const p of ['type', 'timestamp', 'application', 'asterisk_id']) assert.not.ok(own.includes(p), p);
  const ws = r.body.apis.find((a: { path: string }) => a.path === '/events').operations[0];
  assert.is(ws.nickname, 'eventWebsocket');
  assert.is(ws.upgrade, 'websocket');
});

test('api-docs: an unknown document is 404; every document needs credentials', async () => {
  for (const file of ['nope.json', 'sim.json', 'resources', 'channels']) {
    const r = await ctx.t.http('GET', `/ari/api-docs/${file}`);
    assert.is(r.status, 404, file);
    assert.equal(r.body, { message: 'Resource not found' });
  }
  for (const file of ['resources.json', ...LISTED.map((n) => `${n}.json`)]) {
    const r = await ctx.t.http('GET', `/ari/api-docs/${file}`, { auth: null });
    assert.is(r.status, 401, file);
    assert.equal(r.body, AUTH_REQUIRED);
    assert.is(r.headers.get('www-authenticate'), REALM);
  }
  assert.is((await ctx.t.http('GET', '/ari/api-docs/channels.json', { auth: null, query: { api_key: 'asterisk:asterisk' } })).status, 200);
});

test.run();
