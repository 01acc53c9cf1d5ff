import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { ARI_RESOURCES } from '../../protocol/ari/index.js';
import { SIM_RESOURCE } from '../../protocol/sim/index.js';
import type { Operation, ParamDef } from '../../protocol/operation.js';
import { originateInApp } from '../_helpers/ari.js';
import { connectEvents, sleep, waitUntil, WAIT_MS, type EventLog } from '../_helpers/events.js';
import { openSocket as opened } from '../_helpers/open-socket.js';
import { rawRequest, type RawReply } from '../_helpers/raw-request.js';
import { basicAuth } from '../_helpers/request.js';
import { rawSocket } from '../_helpers/raw-socket.js';
import { refusedUpgrade as refused } from '../_helpers/refused-upgrade.js';
import { startTestServer, type TestServer } from '../_helpers/server.js';
import { socketClosed } from '../_helpers/socket-closed.js';
import { useServer } from '../_helpers/suite.js';

// A bad-input and auth suite GENERATED from the ARI declarations in protocol/ari/: every
// operation gets unauthenticated, wrongly authenticated and read-only requests, each required
// parameter missing, each typed parameter mistyped, odd path segments, bad JSON bodies and
// oversized values. Bad input must never give a 5xx, a non-{"message"} error body, a hang, a
// crash or a write.

const test = suite('bad-input');
const APP = 'badapp';
const ctx = useServer(test, { events: { ev: APP } });

// The simulation API (/sim) is declared the same way and held to the same rules.
const OPS: Operation[] = [...ARI_RESOURCES, SIM_RESOURCE].flatMap((r) => [...r.operations]).filter((op) => !op.upgrade);
const SIM_OPS = new Set<Operation>(SIM_RESOURCE.operations);
/** The prefix an operation is served under: /sim for the simulation API, /ari for the rest. */
const prefixOf = (op: Operation) => (SIM_OPS.has(op) ? '/sim' : '/ari');
const WS_OP = ARI_RESOURCES.flatMap((r) => [...r.operations]).find((op) => op.upgrade)!;

const AUTH_REQUIRED = { message: 'Authentication required' };
const WRITE_DENIED = { message: 'Write access denied' };
const REALM = 'Basic realm="Asterisk REST Interface"';
const GOOD = basicAuth('asterisk:asterisk');
const VIEWER = basicAuth('viewer:secret-viewer');
/** A request with no answer by then is a hang (generous: a busy machine is not a hang). */
const REQUEST_TIMEOUT_MS = WAIT_MS;

// ---- fixtures: the objects path parameters resolve to, and valid values for required parameters ----------

const FIX = { channel: 'bad-ch', channel2: 'bad-ch2', bridge: 'bad-br', playback: 'bad-pb', live: 'bad-live', stored: 'bad-stored', sound: 'hello-world', device: 'Stasis:bad-dev', mailbox: 'bad-mbox' };
let fresh = 0;
const freshId = (p: string) => `${p}-${++fresh}`;

/**
 * A path parameter that names the object the request creates (`POST …/{id}` answering a model or
 * declaring no 404, such as adding a log channel or loading a module, or `PUT …/{name}`).
 */
const createsId = (op: Operation, name: string) =>
  op.path.endsWith(`{${name}}`) && ((op.method === 'POST' && (op.responseClass !== 'void' || !op.errors.some((e) => e.code === 404))) || op.method === 'PUT');
/**
 * Device names are not looked up (as in Asterisk): any name has a state (GET answers 200, INVALID
 * for a name nothing provides), and only `Stasis:` names can be written (409 for the others).
 */
const namesAnyDevice = (name: string) => name === 'deviceName';
/** A path parameter that refers to no object: one the request creates, or a user event's name (any text). */
const freeName = (op: Operation, name: string) => createsId(op, name) || name === 'eventName';

/** An existing object for a path parameter (or a fresh id when the operation creates it), URL-encoded. */
function realPathValue(op: Operation, name: string): string {
  if (name === 'deviceName') return createsId(op, name) ? `Stasis:${freshId('bad-new-device')}` : FIX.device;
  if (createsId(op, name)) return freshId(`bad-new-${name}`);
  switch (name) {
    case 'channelId': return FIX.channel;
    case 'bridgeId': return FIX.bridge;
    case 'playbackId': return FIX.playback;
    case 'recordingName': return op.path.startsWith('/recordings/live/') ? FIX.live : FIX.stored;
    case 'soundId': return FIX.sound;
    case 'tech': return 'PJSIP';
    case 'resource': return 'alice';
    case 'applicationName': return APP;
    case 'mailboxName': return FIX.mailbox;
    case 'eventName': return 'bad-user-event';
    case 'moduleName': return 'app_voicemail.so';
    case 'logChannelName': return 'messages.log';
    case 'configClass': return 'res_pjsip';
    case 'objectType': return 'endpoint';
    case 'id': return 'alice';
    // No fault is in place during the suite: removing one that does not exist is a 404, and changes nothing.
    case 'faultId': return 'bad-no-such-fault';
    default: throw new Error(`no fixture for path parameter ${name} of ${op.nickname}: add one`);
  }
}

/** A valid value for a required query parameter, by name (every required parameter must have one). */
function validValue(op: Operation, name: string): string {
  switch (name) {
    case 'endpoint': return 'PJSIP/instant';
    case 'app': return APP;
    case 'media': return `sound:${FIX.sound}`;
    case 'name': return 'bad-new-recording';
    case 'format': return op.nickname === 'externalMedia' ? 'ulaw' : 'wav';
    case 'dtmf': return '1';
    case 'variable': return 'BADVAR';
    case 'operation': return 'pause';
    case 'eventSource': return `channel:${FIX.channel}`;
    case 'destinationRecordingName': return 'bad-copy';
    case 'external_host': return '127.0.0.1:9';
    case 'channel': return FIX.channel2;
    case 'source': return 'silence';
    case 'deviceState': return 'NOT_INUSE';
    case 'oldMessages': return '0';
    case 'newMessages': return '1';
    case 'application': return APP;
    case 'channelId': return FIX.channel;
    case 'to': return 'pjsip:alice';
    case 'from': return 'sip:bad-input@example.com';
    case 'refer_to': return 'pjsip:bob';
    case 'uri': return 'sip:alice@192.0.2.99';
    case 'reachable': return 'true';
    // A well-formed extension that does not exist: a request that got through would be refused, not transfer the fixture channel.
    case 'exten': return 'bad-no-such-exten';
    case 'target': return 'bad-no-such-channel';
    case 'configuration': return 'notice,warning';
    case 'variables': return 'BADVAR';
    case 'states': return 'channel_progress';
    // The one kind whose fault, if a request got through, harms nothing the suite relies on (RTP statistics only).
    case 'kind': return 'media_loss';
    default: throw new Error(`no valid value for required parameter ${name} of ${op.nickname}: add one`);
  }
}

const entries = (op: Operation) => Object.entries(op.params) as Array<[string, ParamDef]>;
const pathParams = (op: Operation) => entries(op).filter(([, p]) => p.in === 'path').map(([n]) => n);
const queryParams = (op: Operation) => entries(op).filter(([, p]) => p.in === 'query');
const hasContainer = (op: Operation) => entries(op).some(([, p]) => p.in === 'body' && p.dataType === 'containers');
/** A container read as channel variables (a user event's fields may be any JSON). */
const hasVariables = (op: Operation) => entries(op).some(([, p]) => p.in === 'body' && p.dataType === 'containers' && !p.jsonContainer);

function pathOf(op: Operation, values: Record<string, string> = {}): string {
  return prefixOf(op) + op.path.replace(/\{(\w+)\}/g, (_, n: string) => values[n] ?? encodeURIComponent(realPathValue(op, n)));
}
/**
 * Optional parameters without which every request would fail anyway (originate needs an app or an
 * extension; a snoop needs a direction): filled too, so one bad parameter is the only fault.
 */
const ALSO_FILL: Record<string, string> = { app: APP, spy: 'in' };

/** Every required query parameter (and the ALSO_FILL ones declared) with a valid value, less `omit`. */
function requiredQuery(op: Operation, omit?: string): Record<string, string> {
  const q: Record<string, string> = {};
  for (const [n, p] of queryParams(op)) {
    if (n === omit) continue;
    if (p.required) q[n] = validValue(op, n);
    else if (n in ALSO_FILL) q[n] = ALSO_FILL[n]!;
  }
  return q;
}
const qs = (q: Record<string, string>) => {
  const s = new URLSearchParams(q).toString();
  return s ? `?${s}` : '';
};

// ---- requests -------------------------------------------------------------------------------------------

type Reply = RawReply;

/** One request through node:http (paths go out byte for byte: no `..` normalisation), with a time limit. */
const send = (base: string, method: string, path: string, opts: { headers?: Record<string, string>; body?: string } = {}) => rawRequest(base, method, path, { ...opts, timeoutMs: REQUEST_TIMEOUT_MS });

interface Case {
  op: Operation;
  kind: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Exact status expected, or a predicate. */
  expect: number | ((status: number) => boolean);
  expectBody?: unknown;
  realm?: boolean;
}

const stats = { requests: 0, ops: new Set<string>(), serverErrors: 0, statuses: new Map<number, number>() };
const problems: string[] = [];
const label = (op: Operation) => `${op.method} ${op.path} (${op.resource}.${op.nickname})`;
const short = (s: string) => (s.length > 160 ? `${s.slice(0, 120)}…[${s.length}]` : s);

/** Sends one case and records every problem (rather than stopping at the first). */
async function run(base: string, c: Case): Promise<Reply | undefined> {
  const method = c.method ?? c.op.method;
  const headers = { authorization: GOOD, ...c.headers };
  if (c.headers && 'authorization' in c.headers && c.headers.authorization === '') delete (headers as Record<string, string>).authorization;
  const what = `${c.kind}: ${method} ${short(c.path)} [${label(c.op)}]`;
  stats.requests++;
  stats.ops.add(label(c.op));
  let r: Reply;
  try {
    r = await send(base, method, c.path, { headers, ...(c.body !== undefined ? { body: c.body } : {}) });
  } catch (err) {
    problems.push(`${what}: ${(err as Error).message}`);
    return undefined;
  }
  stats.statuses.set(r.status, (stats.statuses.get(r.status) ?? 0) + 1);
  if (r.status >= 500) {
    stats.serverErrors++;
    problems.push(`${what}: ${r.status} ${short(r.text)}`);
    return r;
  }
  if (process.env.BAD_INPUT_VERBOSE) console.log(`  ${r.status} ${what} ${short(r.text)}`);
  const ok = typeof c.expect === 'number' ? r.status === c.expect : c.expect(r.status);
  if (!ok) problems.push(`${what}: status ${r.status} ${short(r.text)}`);
  if (r.status >= 400) {
    const b = r.body;
    if (!b || typeof b !== 'object' || Array.isArray(b) || Object.keys(b).join() !== 'message' || typeof b.message !== 'string') problems.push(`${what}: error body is not {"message"}: ${short(r.text)}`);
    else if (!/^application\/json/.test(String(r.headers['content-type']))) problems.push(`${what}: error content-type ${r.headers['content-type']}`);
  }
  if (c.expectBody !== undefined && JSON.stringify(r.body) !== JSON.stringify(c.expectBody)) problems.push(`${what}: body ${short(r.text)}`);
  if (c.realm && r.headers['www-authenticate'] !== REALM) problems.push(`${what}: WWW-Authenticate ${r.headers['www-authenticate']}`);
  return r;
}

const is4xx = (s: number) => s >= 400 && s < 500;

async function runAll(base: string, cases: Case[]): Promise<void> {
  for (const [i, c] of cases.entries()) {
    await run(base, c);
    if (i % 50 === 49) await assertUp(base);
  }
  await assertUp(base);
}

async function assertUp(base: string): Promise<void> {
  const r = await send(base, 'GET', '/ari/asterisk/ping', { headers: { authorization: GOOD } });
  assert.is(r.status, 200, 'server still up');
}

function flushProblems(phase: string): void {
  const found = problems.splice(0);
  if (found.length) assert.unreachable(`${phase}: ${found.length} problem(s):\n  ${found.slice(0, 60).join('\n  ')}${found.length > 60 ? `\n  … ${found.length - 60} more` : ''}`);
}

// ---- engine state, compared across the bad-input requests -----------------------------------------------

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

async function snapshot(t: TestServer) {
  const get = async (path: string) => (await t.http('GET', path)).body;
  const byId = (xs: Array<{ id: string }>) => [...xs].sort((a, b) => a.id.localeCompare(b.id));
  const channels = byId(await get('/ari/channels')).map((c: any) => ({ id: c.id, name: c.name, state: c.state, dialplan: c.dialplan, channelvars: c.channelvars, caller: c.caller }));
  const bridges = byId(await get('/ari/bridges')).map((b: any) => ({ id: b.id, name: b.name, bridge_type: b.bridge_type, channels: [...b.channels].sort() }));
  const stored = (await get('/ari/recordings/stored')).map((r: any) => `${r.name}.${r.format}`).sort();
  const live = await t.http('GET', `/ari/recordings/live/${FIX.live}`);
  const playback = await t.http('GET', `/ari/playbacks/${FIX.playback}`);
  const apps = (await get('/ari/applications')).map((a: any) => ({ ...a, channel_ids: [...a.channel_ids].sort(), bridge_ids: [...a.bridge_ids].sort(), endpoint_ids: [...a.endpoint_ids].sort() }));
  const badVar = (await get(`/ari/channels/${FIX.channel}/variable?variable=BADVAR`)) as unknown;
  // The simulation API's state: what the far end of each fixture channel perceives and does, and the call history.
  const sim = await Promise.all([FIX.channel, FIX.channel2].map(async (id) => {
    const r = await t.http('GET', `/sim/channels/${id}`);
    return { status: r.status, body: r.body };
  }));
  const history = (await get('/sim/history?limit=1000')).map((h: any) => h.id);
  const deviceStates = await get('/ari/deviceStates');
  const mailboxes = await get('/ari/mailboxes');
  // The asterisk resource's state: modules, log channels, and the endpoints config/dynamic could add.
  const modules = await get('/ari/asterisk/modules');
  const logChannels = await get('/ari/asterisk/logging');
  const endpoints = (await get('/ari/endpoints')).map((e: any) => `${e.technology}/${e.resource}`).sort();
  return {
    channels,
    bridges,
    stored,
    live: { status: live.status, state: live.body?.state, name: live.body?.name },
    playback: { status: playback.status, state: playback.body?.state },
    apps,
    globals: [...t.server.telephony.engine.globals].sort(([a], [b]) => a.localeCompare(b)),
    badVar,
    sim,
    history,
    deviceStates,
    mailboxes,
    modules,
    logChannels,
    endpoints,
    dbChannels: (t.server.db.prepare('SELECT count(*) AS n FROM channels').get() as { n: number }).n,
    dbRecordings: (t.server.db.prepare('SELECT count(*) AS n FROM recordings').get() as { n: number }).n,
    files: filesUnder(join(t.dataDir, 'recordings')),
  };
}

let before: Awaited<ReturnType<typeof snapshot>>;

// ---- case generators ------------------------------------------------------------------------------------------

/** 1. Credentials: none, wrong (Basic and api_key), and the read-only user on a write. */
function authCases(): Case[] {
  const out: Case[] = [];
  for (const op of OPS) {
    const path = pathOf(op) + qs(requiredQuery(op));
    const sep = path.includes('?') ? '&' : '?';
    const deny = { expect: 401, expectBody: AUTH_REQUIRED, realm: true } as const;
    out.push({ op, kind: 'no credentials', path, headers: { authorization: '' }, ...deny });
    out.push({ op, kind: 'wrong Basic password', path, headers: { authorization: basicAuth('asterisk:wrong') }, ...deny });
    out.push({ op, kind: 'unknown Basic user', path, headers: { authorization: basicAuth('nobody:asterisk') }, ...deny });
    out.push({ op, kind: 'api_key x:y', path: `${path}${sep}api_key=x:y`, headers: { authorization: '' }, ...deny });
    out.push({ op, kind: 'api_key wrong password', path: `${path}${sep}api_key=asterisk:nope`, headers: { authorization: '' }, ...deny });
    out.push({ op, kind: 'garbage Authorization', path, headers: { authorization: 'Basic %%%' }, ...deny });
    // The read-only user may not use the simulation API at all (server/app.ts: every /sim request is a write).
    if (op.method !== 'GET' || SIM_OPS.has(op)) {
      out.push({ op, kind: 'read-only user', path, headers: { authorization: VIEWER }, expect: 403, expectBody: WRITE_DENIED });
      out.push({ op, kind: 'read-only api_key', path: `${path}${sep}api_key=viewer:secret-viewer`, headers: { authorization: '' }, expect: 403, expectBody: WRITE_DENIED });
    }
  }
  return out;
}

/** Beyond a 32-bit int (Swagger `int`), and beyond what any integer parameter can hold. */
const HUGE_INT = ['2147483648', '-2147483649', '4294967296'];
const HUGE = ['9007199254740993', '99999999999999999999', '1e400'];

/** 2. Each required parameter missing or empty; each typed parameter mistyped (query and JSON). */
function paramCases(): Case[] {
  const out: Case[] = [];
  for (const op of OPS) {
    const base = pathOf(op);
    for (const [name, p] of queryParams(op)) {
      if (p.required) {
        out.push({ op, kind: `missing ${name}`, path: base + qs(requiredQuery(op, name)), expect: 400 });
        out.push({ op, kind: `empty ${name}`, path: base + qs({ ...requiredQuery(op), [name]: '' }), expect: is4xx });
      }
      const bad: string[] = [];
      if (p.dataType === 'int' || p.dataType === 'long') {
        bad.push('abc', '1.5', '0x10', '1e3', ' ', '--1', ...HUGE, ...(p.dataType === 'int' ? HUGE_INT : []));
        if (p.min !== undefined && p.min >= 0) bad.push('-1');
      } else if (p.dataType === 'boolean') bad.push('maybe', '2', 'truefalse');
      else if (p.allowableValues) bad.push('no-such-value', p.allowableValues[0]!.toString().toUpperCase() + 'X', `${p.allowableValues[0]},no-such-value`);
      for (const val of bad) out.push({ op, kind: `${name}=${val}`, path: base + qs({ ...requiredQuery(op), [name]: val }), expect: 400 });
      // The same through JSON body keys (GET bodies are not read).
      if (op.method !== 'GET') {
        const json: Record<string, unknown>[] = [{ [name]: { nested: 1 } }, { [name]: ['a', { b: 1 }] }];
        if (p.dataType === 'int' || p.dataType === 'long') json.push({ [name]: 1.5 }, { [name]: 'abc' }, { [name]: 1e300 }, { [name]: true });
        if (p.dataType === 'boolean') json.push({ [name]: 'maybe' }, { [name]: 7 });
        if (p.allowableValues) json.push({ [name]: 'no-such-value' });
        for (const j of json) {
          out.push({ op, kind: `JSON ${JSON.stringify(j)}`, path: base + qs(requiredQuery(op, name)), headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...requiredQuery(op, name), ...j }), expect: 400 });
        }
      }
    }
  }
  return out;
}

/** Odd path segments: traversal, odd encodings, unicode, a 5,000-character segment. Encoded as sent. */
// (A bare `.` segment is left out: dot segments are removed by URL normalisation, so `/bridges/./play`
// is `/bridges/play`, a well-formed createWithId.)
const ODD_SEGMENTS = [
  '..', '%2e%2e', '%2E%2E%2F%2E%2E%2Ftrunkline.db', '..%2Ftrunkline.db', '..%2F..%2F..%2F..%2Fetc%2Fpasswd', '%2Fetc%2Fpasswd', 'x%2F..%2Fbad-stored', 'x%2F%2E%2E%2Fbad-live', '%00', 'a%00b', '%ff', '%fe%ff',
  '%C3%BC%E2%98%8E%F0%9F%93%9E', '%E2%80%AE', '%25', '%', '%zz', 'a%2Fb', '%20', '~', 'x'.repeat(5000), '%41'.repeat(1500),
];

/**
 * 2b. Odd path segments, one path parameter at a time, the rest valid. A segment that names the
 * object to create goes with a nonexistent sibling (or a missing required parameter) so nothing
 * can be created; operations with nothing else to fail are exercised in the creation pass.
 */
function pathCases(): Case[] {
  const out: Case[] = [];
  for (const op of OPS) {
    const names = pathParams(op);
    for (const name of names) {
      for (const seg of ODD_SEGMENTS) {
        const values: Record<string, string> = { [name]: seg };
        let query = requiredQuery(op);
        if (freeName(op, name)) {
          const sibling = names.find((n) => n !== name);
          const required = queryParams(op).find(([, p]) => p.required);
          if (sibling) values[sibling] = 'no-such-object';
          else if (required) query = requiredQuery(op, required[0]);
          else continue;
        }
        // A device name that is no object: GET answers its state (INVALID), a write 409 (only Stasis: names are writable).
        const expect = namesAnyDevice(name) && op.method === 'GET' ? (s: number) => s === 200 || is4xx(s) : is4xx;
        out.push({ op, kind: `path ${name}=${short(seg)}`, path: pathOf(op, values) + qs(query), expect });
      }
    }
    // Nonexistent objects: 404, for every path parameter that refers to one.
    for (const name of names) {
      if (freeName(op, name)) continue;
      if (namesAnyDevice(name)) {
        out.push({ op, kind: `unknown ${name}`, path: pathOf(op, { [name]: 'no-such-object' }) + qs(requiredQuery(op)), expect: op.method === 'GET' ? 200 : 409 });
        continue;
      }
      // setVideoSource looks its channel up as addChannel does: an unknown one is Asterisk's 400 "Channel not found".
      const missing = op.resource === 'bridges' && op.nickname === 'setVideoSource' && name === 'channelId' ? 400 : 404;
      out.push({ op, kind: `nonexistent ${name}`, path: pathOf(op, { [name]: 'no-such-object' }) + qs(requiredQuery(op)), expect: missing });
      // The same id with a required parameter missing: 400 or 404 (Asterisk checks some parameters first).
      const required = queryParams(op).find(([, p]) => p.required);
      if (required) out.push({ op, kind: `nonexistent ${name}, no ${required[0]}`, path: pathOf(op, { [name]: 'no-such-object' }) + qs(requiredQuery(op, required[0])), expect: (s) => s === 400 || s === 404 });
    }
  }
  return out;
}

/** 3. Bodies: malformed JSON, too deep, and (with a variables container) non-object JSON and bad containers. */
function bodyCases(): Case[] {
  const out: Case[] = [];
  const json = { 'content-type': 'application/json' };
  const deep = (n: number) => `{"variables":{"A":"1"},"x":${'['.repeat(n)}${']'.repeat(n)}}`;
  for (const op of OPS) {
    if (op.method === 'GET') continue;
    const path = pathOf(op) + qs(requiredQuery(op));
    for (const body of ['{', '{"a":', '{a:1}', '{"a":1,}', "{'a':1}", 'nul', '[1,', '"unterminated', '{"a":"\\x"}', '\u0000', '{"a":1}{"b":2}', '\uFEFF{}x']) {
      out.push({ op, kind: `malformed JSON ${JSON.stringify(body)}`, path, headers: json, body, expect: 400 });
    }
    out.push({ op, kind: 'JSON nested 65 deep', path, headers: json, body: deep(64), expect: 400 });
    out.push({ op, kind: 'JSON nested 10,000 deep', path, headers: json, body: deep(10_000), expect: 400 });
    out.push({ op, kind: 'JSON nested 10,000 deep (objects)', path, headers: json, body: '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000), expect: 400 });
    if (hasContainer(op)) {
      for (const body of ['[]', '[{"variables":{"A":"1"}}]', '"variables"', '5', 'true', 'null']) {
        out.push({ op, kind: `non-object JSON ${body}`, path, headers: json, body, expect: 400 });
      }
      const bad = hasVariables(op) ? ['A=1', ['A'], 5, true, { A: 1 }, { A: null }, { A: { value: 1 } }, { A: { value: 'v', report_events: 'yes' } }, { A: ['x'] }] : ['A=1', ['A'], 5, true, null];
      // A JSON container sits under its own name (a user event's `variables`, a configuration object's `fields`).
      const key = entries(op).find(([, p]) => p.in === 'body' && p.jsonContainer)?.[0] ?? 'variables';
      for (const variables of bad) {
        out.push({ op, kind: `${key} ${JSON.stringify(variables)}`, path, headers: json, body: JSON.stringify({ [key]: variables }), expect: 400 });
      }
    }
  }
  return out;
}

// ---- the tests ------------------------------------------------------------------------------------------------

test('fixtures: a channel in the app with a playback and a live recording, a bridge, a stored recording', async () => {
  const t = ctx.t;
  await originateInApp(t, ctx.ev, { app: APP, id: FIX.channel });
  await originateInApp(t, ctx.ev, { app: APP, id: FIX.channel2 });
  assert.is((await t.http('POST', '/ari/bridges', { query: { bridgeId: FIX.bridge, type: 'mixing', name: 'bad' } })).status, 200);
  const stored = await t.http('POST', `/ari/channels/${FIX.channel2}/record`, { query: { name: FIX.stored, format: 'wav' } });
  assert.is(stored.status, 201, stored.text);
  await sleep(100);
  assert.is((await t.http('POST', `/ari/recordings/live/${FIX.stored}/stop`)).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'RecordingFinished' && e.recording?.name === FIX.stored);
  // A recording holds its channel's queue, so the endless playback goes to the other channel.
  const pb = await t.http('POST', `/ari/channels/${FIX.channel2}/play/${FIX.playback}`, { query: { media: 'tone:ring' } });
  assert.is(pb.status, 201, pb.text);
  // Before the recording: it holds the channel's command queue (as in Asterisk) until it ends.
  assert.is((await t.http('POST', `/ari/channels/${FIX.channel}/variable`, { query: { variable: 'BADVAR', value: 'kept' } })).status, 204);
  const live = await t.http('POST', `/ari/channels/${FIX.channel}/record`, { query: { name: FIX.live, format: 'wav' } });
  assert.is(live.status, 201, live.text);
  await ctx.ev.waitFor((e) => e.type === 'RecordingStarted' && e.recording?.name === FIX.live);
  await ctx.ev.waitFor((e) => e.type === 'PlaybackStarted' && e.playback?.id === FIX.playback);
  assert.is((await t.http('POST', '/ari/asterisk/variable', { query: { variable: 'BAD_GLOBAL', value: 'kept' } })).status, 204);
  assert.is((await t.http('PUT', `/ari/deviceStates/${encodeURIComponent(FIX.device)}`, { query: { deviceState: 'INUSE' } })).status, 204);
  assert.is((await t.http('PUT', `/ari/mailboxes/${FIX.mailbox}`, { query: { oldMessages: '1', newMessages: '2' } })).status, 204);
  before = await snapshot(t);
  assert.is(before.channels.length, 2);
  assert.ok(before.dbChannels >= 2);
  assert.equal(before.stored, [`${FIX.stored}.wav`]);
  assert.equal(before.deviceStates, [{ name: FIX.device, state: 'INUSE' }]);
  assert.equal(before.mailboxes, [{ name: FIX.mailbox, old_messages: 1, new_messages: 2 }]);
  assert.is(before.live.state, 'recording');
  assert.is(before.playback.state, 'playing');
  assert.ok(OPS.length >= 70, `${OPS.length} operations declared`);
});

test('credentials: none or wrong → 401 with WWW-Authenticate; the read-only user on a write → 403', async () => {
  await runAll(ctx.t.url, authCases());
  flushProblems('auth');
});

test('parameters: each required one missing or empty, each typed one mistyped (query and JSON) → 400', async () => {
  await runAll(ctx.t.url, paramCases());
  flushProblems('params');
});

test('path parameters: traversal, odd encodings, unicode, 5,000 characters, nonexistent ids → 4xx', async () => {
  await runAll(ctx.t.url, pathCases());
  flushProblems('paths');
});

test('bodies: malformed JSON, too deep, non-object JSON and bad variables containers → 400', async () => {
  await runAll(ctx.t.url, bodyCases());
  flushProblems('bodies');
});

test('nothing was written by the bad requests (engine state, stored recordings, globals, SQLite rows, files)', async () => {
  const after = await snapshot(ctx.t);
  assert.equal(after, before);
  assert.ok(ctx.t.logs.every((l) => !/unhandled error/.test(l)), 'no unhandled errors logged');
});

test('oversized values (10 KB strings in every string parameter, 5,000-character new ids), otherwise valid: no 5xx, no hang', async () => {
  // The live recording holds bad-ch's command queue (setChannelVar would wait for it, as in Asterisk).
  assert.is((await ctx.t.http('POST', `/ari/recordings/live/${FIX.live}/stop`)).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'RecordingFinished' && e.recording?.name === FIX.live);
  const cases: Case[] = [];
  const big = 'x'.repeat(10 * 1024);
  for (const op of OPS) {
    const base = pathOf(op);
    for (const [name, p] of queryParams(op)) {
      if (p.dataType !== 'string' || p.allowableValues) continue;
      cases.push({ op, kind: `${name}=<10 KB>`, path: base + qs({ ...requiredQuery(op), [name]: big }), expect: (s) => s < 500 });
    }
    for (const name of pathParams(op)) {
      if (!freeName(op, name)) continue;
      for (const seg of ['x'.repeat(5000), ...ODD_SEGMENTS.slice(0, 12)]) {
        cases.push({ op, kind: `new ${name}=${short(seg)}`, path: pathOf(op, { [name]: seg }) + qs(requiredQuery(op)), expect: (s) => s < 500 });
      }
    }
  }
  // Destructive operations last, so the objects the others act on are still there.
  const destructive = (op: Operation) => op.method === 'DELETE' || /move|redirect|continue/.test(op.nickname);
  cases.sort((a, b) => Number(destructive(a.op)) - Number(destructive(b.op)));
  await runAll(ctx.t.url, cases);
  flushProblems('oversized');
  // A channel id over Asterisk's 149 characters is refused.
  assert.not.ok((await ctx.t.http('GET', '/ari/channels')).body.some((c: { id: string }) => c.id.length > 149));
});

test('a body over MAX_BODY_BYTES (2048) → 413 for every operation that reads one; nothing written', async () => {
  const s = await startTestServer({ MAX_BODY_BYTES: '2048' });
  try {
    const channels = async () => (await s.http('GET', '/ari/channels')).body;
    const bridges = async () => (await s.http('GET', '/ari/bridges')).body;
    const globals = () => [...s.server.telephony.engine.globals];
    const rows = () => (s.server.db.prepare('SELECT count(*) AS n FROM channels').get() as { n: number }).n;
    const pre = { channels: await channels(), bridges: await bridges(), globals: globals(), rows: rows() };
    const cases: Case[] = [];
    const pad = (n: number) => JSON.stringify({ variables: { A: '1' }, pad: 'x'.repeat(n) });
    for (const op of OPS) {
      if (op.method === 'GET') continue;
      const path = prefixOf(op) + op.path.replace(/\{(\w+)\}/g, (_, n: string) => (createsId(op, n) ? freshId('big') : 'no-such-object')) + qs(requiredQuery(op));
      cases.push({ op, kind: 'JSON body 3 KB', path, headers: { 'content-type': 'application/json' }, body: pad(3000), expect: 413 });
      cases.push({ op, kind: 'form body 3 KB', path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `pad=${'y'.repeat(3000)}`, expect: 413 });
      cases.push({ op, kind: 'text body 1 MB', path, headers: { 'content-type': 'text/plain' }, body: 'z'.repeat(1024 * 1024), expect: 413 });
    }
    await runAll(s.url, cases);
    flushProblems('body limit');
    assert.equal({ channels: await channels(), bridges: await bridges(), globals: globals(), rows: rows() }, pre);
    s.assertNoViolations();
  } finally {
    await s.close();
  }
});

// ---- the event WebSocket ----------------------------------------------------------------------------------

function wsUrl(base: string, query: string): string {
  return `${base.replace(/^http/, 'ws')}/ari/events${query}`;
}
const closed = async (ws: WebSocket, ms = WAIT_MS): Promise<number> => (await socketClosed(ws, ms)).code;

test('the event WebSocket: a bad app list or bad credentials are refused before the upgrade', async () => {
  const key = 'api_key=asterisk:asterisk';
  const cases: Array<[string, number]> = [
    ['', 401], [`?${key}`, 400], [`?${key}&app=`, 400], [`?${key}&app=,,,`, 400], [`?${key}&app=%20`, 400],
    [`?${key}&app=${'a'.repeat(74)}`, 400], [`?${key}&app=ok,${'b'.repeat(5000)}`, 400],
    ['?app=x', 401], ['?app=x&api_key=x:y', 401], ['?app=x&api_key=asterisk:wrong', 401],
  ];
  for (const [q, status] of cases) {
    stats.requests++;
    stats.ops.add(label(WS_OP));
    const r = await refused(wsUrl(ctx.t.url, q));
    assert.is(r.status, status, q);
    assert.type(r.body?.message, 'string', q);
    assert.equal(Object.keys(r.body), ['message'], q);
    if (status === 401) {
      assert.equal(r.body, AUTH_REQUIRED);
      assert.is(r.realm, REALM);
    }
  }
  const wrong = await refused(wsUrl(ctx.t.url, '?app=x'), { authorization: basicAuth('asterisk:nope') });
  assert.is(wrong.status, 401);
  stats.requests++;
  // A plain GET (no upgrade) is a 400, not a hang.
  stats.requests++;
  const plain = await send(ctx.t.url, 'GET', '/ari/events?app=x', { headers: { authorization: GOOD } });
  assert.is(plain.status, 400);
  assert.type(plain.body.message, 'string');
});

test('the event WebSocket (WS_MAX_PAYLOAD=1024): oversized and garbage frames close that socket only; the server stays up', async () => {
  const s = await startTestServer({ WS_MAX_PAYLOAD: '1024' });
  try {
    const q = (app: string) => `?app=${app}&api_key=asterisk:asterisk`;
    const keep: EventLog = await connectEvents(s.url, 'ws-keep');
    // Oversized: 1009.
    const big = await opened(wsUrl(s.url, q('ws-big')));
    big.send('x'.repeat(1000));
    await sleep(20);
    assert.is(big.readyState, WebSocket.OPEN, 'a frame under the limit keeps the socket open (it is answered as a request)');
    const bigClosed = closed(big);
    big.send('x'.repeat(1025));
    assert.is(await bigClosed, 1009);
    // Binary frames are ignored and invalid JSON is answered with a 400 RESTResponse; garbage closes the socket, never more.
    const junk = await opened(wsUrl(s.url, q('ws-junk')));
    junk.send(Buffer.from([0, 1, 2, 255]));
    junk.send('{not json');
    junk.send('{"type":"StasisStart"}');
    await sleep(20);
    // Invalid UTF-8 in a text frame: 1007.
    const utfClosed = closed(junk);
    (junk as unknown as { _sender: { sendFrame(list: Buffer[], cb?: () => void): void } })._sender.sendFrame(
      [Buffer.concat([Buffer.from([0x81, 0x80 | 2]), Buffer.from([0, 0, 0, 0]), Buffer.from([0xc3, 0x28])])],
    );
    assert.ok([1007, 1002].includes(await utfClosed));
    // Garbage bytes straight on the upgraded TCP socket (unmasked frame, reserved opcode, a length over the limit).
    for (const garbage of [Buffer.from([0x81, 0x05, 0x68, 0x65, 0x6c, 0x6c, 0x6f]), Buffer.from([0x83, 0x80, 0, 0, 0, 0]), Buffer.from([0x81, 0xff, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), Buffer.from('GET / HTTP/1.1\r\n\r\n')]) {
      stats.requests++;
      const u = new URL(s.url);
      const sock = await rawSocket(
        s.url,
        `GET /ari/events?app=ws-raw&api_key=asterisk:asterisk HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      );
      // The garbage goes on the upgraded connection: after the server's 101 has arrived.
      await waitUntil(() => sock.got().includes('\r\n\r\n') || sock.socket.destroyed, 'the upgrade was answered');
      sock.socket.write(garbage);
      const all = (await sock.ended(WAIT_MS)) ? sock.got() : `${sock.got()}[still open]`;
      sock.socket.destroy();
      assert.match(all, /^HTTP\/1\.1 101/, 'upgraded first');
      assert.not.match(all, /\[still open\]$/, `socket closed after ${garbage.toString('hex')}`);
    }
    stats.requests += 6;
    stats.ops.add(label(WS_OP));
    // The other socket and the server are fine.
    assert.is(keep.ws.readyState, WebSocket.OPEN);
    assert.is((await s.http('GET', '/ari/asterisk/ping')).status, 200);
    const c = await s.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/alice', app: 'ws-keep', channelId: 'ws-keep-ch' } });
    assert.is(c.status, 200);
    await keep.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ws-keep-ch');
    assert.is((await s.http('GET', '/ari/applications/ws-raw')).status, 404, 'the raw sockets left no application behind');
    await keep.close();
    s.assertNoViolations();
  } finally {
    await s.close();
  }
});

test('summary', () => {
  const statuses = [...stats.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
  console.log(`\n  bad input: ${stats.requests} requests over ${stats.ops.size} operations, ${stats.serverErrors} server errors (${statuses})`);
  assert.is(stats.serverErrors, 0);
  // Every declared operation was exercised (the REST ones and the event WebSocket).
  assert.is(stats.ops.size, OPS.length + 1);
  assert.ok(ctx.t.logs.every((l) => !/unhandled error/.test(l)), 'no unhandled errors logged');
});

test.run();
