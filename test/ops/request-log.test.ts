import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runServerToExit } from '../_helpers/child.js';
import { connectEvents, openEventLog } from '../_helpers/events.js';
import { cloneUrl, gitAsync, useGitea, type Account } from '../_helpers/gitea.js';
import { serverMediaChannel } from '../_helpers/media-peer.js';
import { basicAuth, request } from '../_helpers/request.js';
import { startTestServer } from '../_helpers/server.js';
import { waitUntil } from '../_helpers/wait.js';
import { ConfigError, loadConfig } from '../../server/config.js';
import { checkMirrorAddress } from '../../server/gitea/mirrors/url-policy.js';
import { prettyLine, safeUrl } from '../../server/log.js';

// What the server logs for a person to read: one debug line per request with no credential in
// it, event sockets coming and going, warnings that name their cause, ISO times, a pretty format.
const test = suite('request log');
const ctx = useGitea(test, { LOG_LEVEL: 'debug', ARI_USERS: 'asterisk:asterisk,boss:B0ss-Secret-Pw' });
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

type Entry = Record<string, unknown> & { msg: string; level: number; time: string };
const entries = (): Entry[] => ctx.t.logs.map((l) => JSON.parse(l) as Entry);
/** The one entry that matches (waiting for it: a request is logged once its answer has left). */
async function entry(match: (e: Entry) => boolean, what: string): Promise<Entry> {
  await waitUntil(() => entries().some(match), what);
  const found = entries().filter(match);
  assert.is(found.length, 1, `${what}: ${found.length} entries`);
  return found[0]!;
}
const requestLine = (method: string, path: string, status: number) => (e: Entry) => e.msg === 'request' && e.method === method && e.path === path && e.status === status;

let alice: Account;
/** Every secret the suite sends; none may appear in any log line. */
const secrets = ['B0ss-Secret-Pw', Buffer.from('boss:B0ss-Secret-Pw').toString('base64')];

test.before(async () => {
  alice = await ctx.g.user('alice');
  secrets.push(alice.token, alice.password, Buffer.from(`alice:${alice.password}`).toString('base64'));
  await ctx.g.repo('logged', { owner: alice });
  await ctx.g.repo('hidden', { owner: alice, private: true });
});

test('one debug line per request, every dialect: method, masked path, status, ms, user', async () => {
  const t = ctx.t;
  const base = t.url;
  assert.is((await request(base, 'GET', '/ari/asterisk/ping?api_key=boss:B0ss-Secret-Pw')).status, 200);
  // ARI reads api_key by its plain name only (this one is refused), but the log masks it whatever its spelling.
  assert.is((await request(base, 'GET', '/ari/asterisk/ping?api%5Fkey=boss:B0ss-Secret-Pw&x=1')).status, 401);
  assert.is((await request(base, 'GET', '/ari/channels', { headers: { authorization: basicAuth('boss:B0ss-Secret-Pw') } })).status, 200);
  assert.is((await request(base, 'GET', '/ari/channels?api_key=boss:wrong-Secret-Pw')).status, 401);
  assert.is((await request(base, 'GET', '/sim/clock', { headers: { authorization: basicAuth('boss:B0ss-Secret-Pw') } })).status, 200);
  assert.is((await request(base, 'GET', `/api/v1/user?token=${alice.token}`)).status, 200);
  assert.is((await request(base, 'GET', `/api/v1/user?access_token=${alice.token}`)).status, 200);
  assert.is((await request(base, 'GET', '/api/v1/user', { headers: { authorization: basicAuth(`alice:${alice.password}`) } })).status, 200);
  secrets.push('Nobody-Pw-123');
  assert.is((await request(base, 'GET', '/api/v1/user?password=Nobody-Pw-123', { headers: { authorization: basicAuth('alice:Nobody-Pw-123') } })).status, 401);

  const ping = await entry(requestLine('GET', '/ari/asterisk/ping?api_key=[redacted]', 200), 'the api_key ping');
  assert.equal(Object.keys(ping).sort(), ['level', 'method', 'ms', 'msg', 'path', 'service', 'status', 'time', 'user']);
  assert.is(ping.level, 20);
  assert.ok(ISO.test(ping.time), ping.time);
  assert.is(ping.user, 'boss');
  assert.ok(typeof ping.ms === 'number' && ping.ms >= 0);
  assert.not.ok('user' in (await entry(requestLine('GET', '/ari/asterisk/ping?api%5Fkey=[redacted]&x=1', 401), 'the encoded api_key')));
  assert.is((await entry(requestLine('GET', '/ari/channels', 200), 'Basic on ARI')).user, 'boss');
  const refused = await entry(requestLine('GET', '/ari/channels?api_key=[redacted]', 401), 'a wrong api_key');
  assert.not.ok('user' in refused);
  assert.is((await entry(requestLine('GET', '/sim/clock', 200), '/sim')).user, 'boss');
  assert.is((await entry(requestLine('GET', '/api/v1/user?token=[redacted]', 200), 'token query')).user, 'alice');
  assert.is((await entry(requestLine('GET', '/api/v1/user?access_token=[redacted]', 200), 'access_token query')).user, 'alice');
  assert.is((await entry(requestLine('GET', '/api/v1/user', 200), 'Basic on the repository API')).user, 'alice');
  assert.not.ok('user' in (await entry(requestLine('GET', '/api/v1/user?password=[redacted]', 401), 'a wrong password')));
});

test('git over HTTP with credentials in the clone URL: logged with the user, never the credentials', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trunkline-reqlog-'));
  try {
    // A private repository: git asks without credentials first (401), then sends those of the URL.
    const r = await gitAsync(['clone', '--quiet', cloneUrl(ctx.g, 'alice', 'hidden', { name: 'alice', token: alice.token }), join(dir, 'c')]);
    assert.is(r.status, 0, r.stderr);
    const refs = '/alice/hidden.git/info/refs?service=git-upload-pack';
    assert.not.ok('user' in (await entry(requestLine('GET', refs, 401), 'the anonymous ref advertisement')));
    assert.is((await entry(requestLine('GET', refs, 200), 'the ref advertisement')).user, 'alice');
    // Protocol v2 posts more than once (ls-refs, fetch): each as alice.
    const pack = requestLine('POST', '/alice/hidden.git/git-upload-pack', 200);
    await waitUntil(() => entries().some(pack), 'the clone’s pack');
    const packs = entries().filter(pack);
    for (const p of packs) assert.is(p.user, 'alice');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a media WebSocket is logged by its channel, never by the connection id that admits it', async () => {
  const ev = await connectEvents(ctx.t.url, 'app1');
  try {
    const { body, peer } = await serverMediaChannel(ctx.t, 'log-media');
    const id = body.channelvars.MEDIA_WEBSOCKET_CONNECTION_ID as string;
    const line = await entry((e) => e.msg === 'media websocket connected', 'the media socket line');
    assert.is(line.channel, body.name);
    assert.is(line.level, 30);
    assert.not.ok(ctx.t.logs.some((l) => l.includes(id)), 'the connection id is in no log line');
    peer.ws.close();
    assert.is((await ctx.t.http('DELETE', '/ari/channels/log-media')).status, 204);
  } finally {
    await ev.close();
  }
});

test('event sockets: connect and disconnect at info, with who, from where and the close code', async () => {
  const ev = await connectEvents(ctx.t.url, ['logapp', 'other'], { auth: 'boss:B0ss-Secret-Pw' });
  const connected = await entry((e) => e.msg === 'event websocket connected' && (e.apps as string[])[0] === 'logapp', 'ARI connect');
  assert.equal({ ...connected, time: 0 }, { level: 30, time: 0, service: 'trunkline', apps: ['logapp', 'other'], user: 'boss', remote: '127.0.0.1', subscribeAll: false, readOnly: false, msg: 'event websocket connected' });
  await ev.close();
  const gone = await entry((e) => e.msg === 'event websocket disconnected' && (e.apps as string[])[0] === 'logapp', 'ARI disconnect');
  assert.is(gone.code, 1005);
  assert.is(gone.user, 'boss');

  const repoEvents = await openEventLog(`${ctx.t.url.replace('http', 'ws')}/api/v1/events?repo=alice/logged&token=${alice.token}`);
  const rc = await entry((e) => e.msg === 'repository event websocket connected' && e.user === 'alice', 'repository connect');
  assert.equal({ ...rc, time: 0 }, { level: 30, time: 0, service: 'trunkline', user: 'alice', remote: '127.0.0.1', repos: ['alice/logged'], msg: 'repository event websocket connected' });
  await repoEvents.close();
  assert.is((await entry((e) => e.msg === 'repository event websocket disconnected' && e.user === 'alice', 'repository disconnect')).code, 1005);
});

test('a warning when a channel is hung up because its application has no socket', async () => {
  const r = await request(ctx.t.url, 'POST', '/ari/channels?endpoint=PJSIP/instant&app=nobody-listens&channelId=orphan-1', { headers: { authorization: basicAuth('boss:B0ss-Secret-Pw') } });
  assert.is(r.status, 200, r.text);
  const warn = await entry((e) => e.level === 40 && e.channel === 'orphan-1', 'the orphan warning');
  assert.is(warn.msg, 'channel hung up: its Stasis application has no WebSocket connected');
  assert.is(warn.app, 'nobody-listens');
});

test('a warning when the address policy refuses a mirror, naming the setting that would allow it', async () => {
  secrets.push('Mirror-Pw-42');
  const add = (remote_address: string) =>
    ctx.g.api('POST', '/api/v1/repos/alice/logged/push_mirrors', { json: { remote_address, remote_username: 'm', remote_password: 'Mirror-Pw-42', interval: '0' }, auth: alice.auth });
  assert.is((await add('http://u:Mirror-Pw-42@127.0.0.1:9/x.git')).status, 401);
  const local = await entry((e) => e.level === 40 && e.host === '127.0.0.1:9', 'loopback refused');
  assert.equal({ ...local, time: 0 }, {
    level: 40, time: 0, service: 'trunkline', kind: 'push', repo: 'logged', user: 'alice', host: '127.0.0.1:9', setting: 'MIRROR_ALLOW_LOCAL_NETWORKS',
    msg: 'mirror address refused by the address policy; MIRROR_ALLOW_LOCAL_NETWORKS would allow it',
  });
  assert.is((await add('http://169.254.169.254/latest')).status, 401);
  const never = await entry((e) => e.level === 40 && e.host === '169.254.169.254', 'metadata address refused');
  assert.is(never.setting, null);
  assert.is(never.msg, 'mirror address refused by the address policy; no setting allows it');
  // The lists name their own settings.
  const policy = { allowLocalNetworks: false, allowedDomains: [], blockedDomains: ['*.blocked.test'] };
  const resolve = async () => ['203.0.113.7'];
  const blocked = await checkMirrorAddress({ address: 'https://git.blocked.test/r.git', kind: 'push', isAdmin: false }, policy, resolve);
  assert.equal(blocked, { ok: false, status: 401, message: 'Permission denied', setting: 'MIRROR_BLOCKED_DOMAINS' });
  const unlisted = await checkMirrorAddress({ address: 'https://elsewhere.test/r.git', kind: 'push', isAdmin: false }, { ...policy, blockedDomains: [], allowedDomains: ['git.example.com'] }, resolve);
  assert.equal(unlisted, { ok: false, status: 401, message: 'Permission denied', setting: 'MIRROR_ALLOWED_DOMAINS' });
});

test('every line has an ISO timestamp, and no secret the suite sent is in any of them', () => {
  const all = ctx.t.logs.join('\n');
  for (const e of entries()) assert.ok(ISO.test(e.time), JSON.stringify(e));
  for (const s of secrets) assert.not.ok(all.includes(s), `found ${s} in the log`);
});

test('safeUrl masks credentials however they are written', () => {
  assert.is(safeUrl('/a?token=abc&b=1&access_token=def#frag'), '/a?token=[redacted]&b=1&access_token=[redacted]');
  assert.is(safeUrl('/a?API_KEY=u:p&Password=x&remote_password=y&client_secret=z&tok=keep'), '/a?API_KEY=[redacted]&Password=[redacted]&remote_password=[redacted]&client_secret=[redacted]&tok=keep');
  assert.is(safeUrl('/a?to%6Ben=abc&api+key=z'), '/a?to%6Ben=[redacted]&api+key=z');
  assert.is(safeUrl('https://user:pw@host.example/r.git?x=1'), 'https://host.example/r.git?x=1');
});

test('LOG_FORMAT=pretty: one readable line per entry; a bad LOG_FORMAT is refused naming the key', async () => {
  const t = await startTestServer({ LOG_LEVEL: 'debug', LOG_FORMAT: 'pretty' });
  try {
    assert.is((await t.http('GET', '/ari/asterisk/ping')).status, 200);
    await waitUntil(() => t.logs.some((l) => l.includes(' request ')), 'the pretty request line');
    const line = t.logs.find((l) => l.includes(' request '))!;
    assert.match(line, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z DEBUG request method=GET path=\/ari\/asterisk\/ping status=200 ms=[\d.]+ user=asterisk$/);
    for (const l of t.logs) assert.match(l, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (TRACE|DEBUG|INFO |WARN |ERROR|FATAL) \S/);
    t.assertNoViolations();
  } finally {
    await t.close();
  }
  const line = JSON.stringify({ level: 40, time: '2026-01-02T03:04:05.678Z', service: 'trunkline', msg: 'two words', n: 3, s: 'has space', list: ['a'], err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x' } });
  assert.is(prettyLine(line), '2026-01-02T03:04:05.678Z WARN  two words n=3 s="has space" list=["a"] err="Error: boom\\n    at x"');
  assert.throws(() => loadConfig({ LOG_FORMAT: 'fancy' }), (e: Error) => e instanceof ConfigError && e.message === 'invalid LOG_FORMAT: LOG_FORMAT must be json or pretty (got "fancy")');
  const run = await runServerToExit({ LOG_FORMAT: 'fancy', DATA_DIR: join(tmpdir(), 'trunkline-never-made') });
  assert.is(run.code, 1);
  assert.is(run.stderr, 'trunkline: invalid LOG_FORMAT: LOG_FORMAT must be json or pretty (got "fancy")\n');
});

test.run();
