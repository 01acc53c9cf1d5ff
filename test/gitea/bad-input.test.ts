import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WebSocket } from 'ws';
import { GITEA_OPERATIONS } from '../../protocol/gitea/index.js';
import type { GOperation } from '../../protocol/gitea/operation.js';
import type { RField, RModel } from '../../protocol/gitea/request.js';
import { ADMIN, git, giteaWorld, useGitea, type GiteaWorld } from '../_helpers/gitea.js';
import { openSocket } from '../_helpers/open-socket.js';
import { rawRequest, type RawReply } from '../_helpers/raw-request.js';
import { rawSocket } from '../_helpers/raw-socket.js';
import { basicAuth } from '../_helpers/request.js';
import { startTestServer } from '../_helpers/server.js';
import { socketClosed } from '../_helpers/socket-closed.js';
import { waitUntil, WAIT_MS } from '../_helpers/wait.js';

// Bad input and credentials for EVERY declared Gitea operation, generated from
// GITEA_OPERATIONS (an operation added later is covered without touching this file):
// wrong and missing credentials, odd path parameters (traversal, encodings, huge,
// invalid UTF-8), query parameters of the wrong type, and malformed, mistyped,
// huge, deep and oversized bodies. Every answer must be a non-5xx within a few
// seconds with Gitea's exact `{message, url}` error body, the server must stay up,
// and nothing may be written by the requests that must fail (row counts and every
// repository's refs are compared before and after each operation's batch). Writes that
// may legitimately succeed (an odd but valid file name, a long string in a field without
// a limit) run after the comparison, held to the same status and body rules. The events
// WebSocket gets oversized, garbage and broken-handshake frames. The last line printed is
// `bad input: N requests over M operations, K server errors`.
// A request head over Node's 16 KiB limit (two 10 KB query values) is refused by Node's
// parser; the server answers it in Gitea's shape too (431 with {message, url}).
const test = suite('gitea: bad input');
const ctx = useGitea(test, { MIRROR_ALLOW_LOCAL_NETWORKS: 'true' });

/** An exchange with no answer by then is a hang (generous: a busy machine is not a hang). */
const TIMEOUT_MS = WAIT_MS;
const SMALL_BODY = 4096;
const SMALL_WS = 1024;

type Reply = RawReply;

interface Case {
  op: GOperation;
  label: string;
  method: string;
  /** Raw request target (already encoded), starting with /api/v1. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Sent chunked (no content-length). */
  chunked?: boolean;
  /** Must answer ≥ 400 (and therefore write nothing). */
  mustFail: boolean;
  /** An exact status (and for 401, the exact body). */
  status?: number;
  message?: string;
  /** A success must name a path inside the repository (`content.path` without `..` or `.git`). */
  confined?: boolean;
}

/** What the world of one server looks like: real values for path parameters, and credentials. */
interface World {
  g: GiteaWorld;
  swagger: string;
  values: Record<string, string>;
  /** Body fields that need a real value to get far (addresses), by JSON key. */
  bodyValues: Record<string, unknown>;
  token: string;
  basic: string;
}

const stats = { requests: 0, ops: new Set<string>(), serverErrors: 0 };

/** One case through node:http on a connection of its own: one bad request cannot spoil the next one's. */
const send = (base: string, c: Pick<Case, 'method' | 'path' | 'headers' | 'body' | 'chunked'>): Promise<Reply> =>
  rawRequest(base, c.method, c.path, { headers: c.headers, body: c.body, chunked: c.chunked, freshConnection: true, timeoutMs: TIMEOUT_MS });

/** Checks one answer; returns the problems (empty: fine). */
function judge(w: World, c: Case, r: Reply): string[] {
  const out: string[] = [];
  const where = `${c.op.operationId} [${c.label}] ${c.method} ${c.path.length > 160 ? `${c.path.slice(0, 160)}…` : c.path}`;
  const shown = r.text.length > 300 ? `${r.text.slice(0, 300)}…` : r.text;
  if (r.status >= 500) {
    stats.serverErrors++;
    const logged = w.g.t.logs.filter((l) => l.includes('"level":"error"') || l.includes('"level":50')).slice(-2).map((l) => l.slice(0, 600));
    out.push(`${where}: server error ${r.status} ${shown} (log: ${logged.join(' | ')})`);
  }
  if (c.mustFail && r.status < 400) out.push(`${where}: expected a 4xx, got ${r.status} ${shown}`);
  if (c.status !== undefined && r.status !== c.status) out.push(`${where}: expected ${c.status}, got ${r.status} ${shown}`);
  const ct = String(r.headers['content-type'] ?? '');
  if (c.confined && r.status < 300 && ct.includes('json')) {
    const path = (JSON.parse(r.text) as { content?: { path?: string } | null }).content?.path ?? '';
    if (path && path.split('/').some((seg) => seg === '..' || seg === '.' || seg.toLowerCase() === '.git' || seg === '') || path.includes('\0')) out.push(`${where}: wrote outside a clean path: ${JSON.stringify(path)}`);
  }
  if (r.status >= 400 && ct.includes('json')) {
    let body: unknown;
    try {
      body = JSON.parse(r.text);
    } catch {
      out.push(`${where}: error body is not JSON: ${shown}`);
    }
    if (body !== undefined) {
      const b = body as Record<string, unknown>;
      const keys = b && typeof b === 'object' && !Array.isArray(b) ? Object.keys(b).sort().join(',') : '';
      if (keys !== 'message,url' || typeof b.message !== 'string' || b.url !== w.swagger) out.push(`${where}: error body is not {message, url: ${w.swagger}}: ${shown}`);
      else if (c.message !== undefined && b.message !== c.message) out.push(`${where}: expected message ${JSON.stringify(c.message)}, got ${JSON.stringify(b.message)}`);
    }
  } else if (r.status >= 400) out.push(`${where}: error ${r.status} without a JSON body (content-type ${ct || 'none'})`);
  return out;
}

async function run(w: World, c: Case): Promise<string[]> {
  stats.requests++;
  stats.ops.add(c.op.operationId);
  let r: Reply;
  try {
    r = await send(w.g.url, c);
  } catch (err) {
    return [`${c.op.operationId} [${c.label}] ${c.method} ${c.path.slice(0, 160)}: ${(err as Error).message}`];
  }
  // BAD_INPUT_DEBUG=<label part> prints the matching requests and answers.
  if (process.env.BAD_INPUT_DEBUG && c.label.includes(process.env.BAD_INPUT_DEBUG)) console.log(c.op.operationId, c.label, (c.body ?? "").toString().slice(0, 200), r.status, r.text.slice(0, 200));
  return judge(w, c, r);
}

async function alive(w: World): Promise<string[]> {
  try {
    const r = await send(w.g.url, { method: 'GET', path: '/api/v1/version' });
    return r.status === 200 ? [] : [`server answered GET /version with ${r.status}`];
  } catch (err) {
    return [`server is down: ${(err as Error).message}`];
  }
}

// ---------------------------------------------------------------------------
// What nothing may change: row counts and every repository's refs.

const TABLES = ['users', 'access_tokens', 'repositories', 'collaborators', 'branch_protections', 'push_mirrors', 'mirror_jobs', 'teams', 'team_users', 'releases', 'release_attachments'];

function snapshot(w: World): Record<string, string> {
  const db = w.g.t.server.db;
  const out: Record<string, string> = {};
  for (const t of TABLES) out[t] = String((db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n);
  const root = join(w.g.t.dataDir, 'git');
  const dirs: string[] = [];
  const walk = (dir: string, depth: number) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      if (e.name.endsWith('.git')) dirs.push(join(dir, e.name));
      else if (depth < 2) walk(join(dir, e.name), depth + 1);
    }
  };
  walk(root, 0);
  for (const d of dirs.sort()) out[`refs ${d.slice(root.length + 1)}`] = git(['for-each-ref', '--format=%(refname) %(objectname)'], { cwd: d, allowFail: true }).stdout;
  return out;
}

function diff(a: Record<string, string>, b: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => a[k] !== b[k]).map((k) => `${k}: ${JSON.stringify(a[k] ?? null)} -> ${JSON.stringify(b[k] ?? null)}`);
}

/** Runs each operation's must-fail cases, then compares the snapshot; other cases run after, unchecked for writes. */
async function runAll(w: World, cases: Case[]): Promise<string[]> {
  const problems: string[] = [];
  const byOp = new Map<GOperation, Case[]>();
  for (const c of cases) byOp.set(c.op, [...(byOp.get(c.op) ?? []), c]);
  const later: Case[] = [];
  for (const [op, list] of byOp) {
    const before = snapshot(w);
    for (const c of list) {
      if (!c.mustFail && c.method !== 'GET') {
        later.push(c);
        continue;
      }
      problems.push(...(await run(w, c)));
    }
    const changed = diff(before, snapshot(w));
    if (changed.length) problems.push(`${op.operationId}: bad requests wrote: ${changed.join('; ')}`);
    problems.push(...(await alive(w)).map((p) => `after ${op.operationId}: ${p}`));
  }
  for (const c of later) problems.push(...(await run(w, c)));
  problems.push(...(await alive(w)));
  return problems;
}

// ---------------------------------------------------------------------------
// The world: an owner with a public repository, a collaborator, a branch
// protection, a tag with a release, a push mirror and a token, so path parameters name real things.

async function makeWorld(g: GiteaWorld): Promise<World> {
  const owen = await g.user('owen');
  await g.user('cara');
  const repo = await g.repo('site', { owner: owen });
  await g.repo('target', { owner: owen, autoInit: false });
  const branch: string = repo.default_branch;
  const readme = await g.api('GET', '/api/v1/repos/owen/site/contents/README.md', { auth: owen.auth });
  assert.is(readme.status, 200, readme.text);
  const put = await g.api('PUT', '/api/v1/repos/owen/site/collaborators/cara', { json: { permission: 'write' }, auth: owen.auth });
  assert.is(put.status, 204, put.text);
  const rule = await g.api('POST', '/api/v1/repos/owen/site/branch_protections', { json: { rule_name: 'stable' }, auth: owen.auth });
  assert.is(rule.status, 201, rule.text);
  const tag = await g.api('POST', '/api/v1/repos/owen/site/tags', { json: { tag_name: 'v1' }, auth: owen.auth });
  assert.is(tag.status, 201, tag.text);
  const release = await g.api('POST', '/api/v1/repos/owen/site/releases', { json: { tag_name: 'v1', name: 'one' }, auth: owen.auth });
  assert.is(release.status, 201, release.text);
  const asset = await g.api('POST', `/api/v1/repos/owen/site/releases/${release.body.id}/assets?name=a.txt`, { body: 'a', headers: { 'content-type': 'application/octet-stream' }, auth: owen.auth });
  assert.is(asset.status, 201, asset.text);
  const mirror = await g.api('POST', '/api/v1/repos/owen/site/push_mirrors', { json: { remote_address: `${g.url}/owen/target.git`, interval: '0', sync_on_commit: false }, auth: owen.auth });
  assert.is(mirror.status, 200, mirror.text);
  await g.token({ name: 'owen', password: owen.password }, ['read:repository'], 'keep');
  const org = await g.api('POST', '/api/v1/orgs', { json: { username: 'acme' }, auth: owen.auth });
  assert.is(org.status, 201, org.text);
  const teams = await g.api('GET', '/api/v1/orgs/acme/teams', { auth: owen.auth });
  assert.is(teams.status, 200, teams.text);
  // The admin's own (the cases are sent as the admin): another user's application is a 404.
  const oauthApp = await g.api('POST', '/api/v1/user/applications/oauth2', { json: { name: 'cms', redirect_uris: ['https://cms.example.test/'] } });
  assert.is(oauthApp.status, 201, oauthApp.text);
  // Nothing queued may finish during the run (it would look like a write).
  await waitUntil(() => (g.t.server.db.prepare('SELECT count(*) AS n FROM mirror_jobs').get() as { n: number }).n === 0, 'the mirror queue is empty', WAIT_MS, 50);
  return {
    g,
    swagger: `${g.url}/api/swagger`,
    token: g.admin.token,
    basic: basicAuth(`${ADMIN.name}:${ADMIN.password}`),
    bodyValues: { clone_addr: `${g.url}/owen/nope.git`, remote_address: `${g.url}/owen/target.git`, interval: '0', sync_on_commit: false },
    values: {
      owner: 'owen',
      repo: 'site',
      branch,
      filepath: 'README.md',
      sha: readme.body.sha,
      archive: `${branch}.zip`,
      diffType: 'diff',
      'refs/ref': `heads/${branch}`,
      'commits/ref': branch,
      basehead: `${branch}...${branch}`,
      'branch_protections/name': 'stable',
      'push_mirrors/name': mirror.body.remote_name,
      username: 'owen',
      collaborator: 'cara',
      token: 'keep',
      tag: 'v1',
      org: 'acme',
      'teams/id': String(teams.body[0].id),
      'releases/id': String(release.body.id),
      'assets/attachment_id': String(asset.body.id),
      'oauth2/id': String(oauthApp.body.id),
    },
  };
}

// ---------------------------------------------------------------------------
// Generation.

const pathParams = (op: GOperation) => Object.keys(op.params).filter((k) => op.params[k]!.in === 'path');
const queryParams = (op: GOperation) => Object.entries(op.params).filter(([, p]) => p.in === 'query');

/** The real value of a path parameter (by the segment before it, then by name). */
function realValue(w: World, op: GOperation, name: string): string {
  const segs = op.path.split('/');
  const i = segs.indexOf(`{${name}}`);
  const prev = i > 0 ? segs[i - 1] : '';
  return w.values[`${prev}/${name}`] ?? w.values[name] ?? 'x';
}

/** The operation's path with real values, except `override` (raw, already encoded). */
function pathOf(w: World, op: GOperation, override: Record<string, string> = {}, query = ''): string {
  const p = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => override[name] ?? encodeURIComponent(realValue(w, op, name)).replace(/%2F/g, '/'));
  return `/api/v1${p}${query ? `?${query}` : ''}`;
}

/** Good credentials for an operation: the admin's token, or Basic where the operation wants Basic. */
const goodAuth = (w: World, op: GOperation) => ({ authorization: op.guards.includes('basicAuth') ? w.basic : `token ${w.token}` });

/** What an anonymous caller gets from the guards (public repository, existing user); null: nothing stops it. */
function anonymousStatus(op: GOperation): number | null {
  for (const g of op.guards) {
    if (g === 'repoAdmin' || g === 'writer' || g === 'siteAdmin' || g === 'selfOrAdmin') return 403;
    if (g === 'signedIn' || g === 'basicAuth') return 401;
  }
  return null;
}

/** Reads change nothing, so an anonymous caller may make them on public repositories: every GET, and the POST form of file-contents (a read whose paths travel in a body, open to anonymous callers in Gitea too). */
const isRead = (op: GOperation) => op.method === 'GET' || op.operationId === 'repoGetFileContentsPost';
const JSON_CT = { 'content-type': 'application/json' };
const jsonBody = (x: unknown) => JSON.stringify(x);

function credentialCases(w: World, op: GOperation): Case[] {
  const path = pathOf(w, op);
  const body = op.body ? { body: '{}', headers: JSON_CT } : {};
  const wrong = { mustFail: true, status: 401, message: 'invalid username, password or token' };
  const anon = anonymousStatus(op);
  return [
    { op, label: 'no credentials', method: op.method, path, ...body, mustFail: !isRead(op) || anon !== null, ...(anon !== null ? { status: anon } : {}) },
    { op, label: 'token 000…0', method: op.method, path, ...body, headers: { ...body.headers, authorization: `token ${'0'.repeat(40)}` }, ...wrong },
    { op, label: 'Basic, wrong password', method: op.method, path, ...body, headers: { ...body.headers, authorization: basicAuth(`${ADMIN.name}:wrong-password`) }, ...wrong },
    { op, label: '?token=bad', method: op.method, path: `${path}?token=bad`, ...body, ...wrong },
    { op, label: '?access_token=bad', method: op.method, path: `${path}?access_token=bad`, ...body, ...wrong },
  ];
}

const ODD_PATH_VALUES: [string, string][] = [
  ['..', '..'],
  ['%2e%2e', '%2e%2e'],
  ['..%2f..%2fetc', '..%2f..%2fetc'],
  ['.git', '.git'],
  ['%00', '%00'],
  ['5000 chars', 'a'.repeat(5000)],
  ['unicode', encodeURIComponent('ünïcødé-名前-🚀')],
  ['%ff', '%ff'],
  ['%252e%252e', '%252e%252e'],
];

/**
 * Values that name nothing a write may touch: the handler must refuse them even with a valid body.
 * (`..%2f..%2fetc` is cleaned as Gitea's CleanGitTreePath does, to `etc` inside the repository:
 * a success must name a confined path.)
 */
const TRAVERSAL = new Set(['..', '%2e%2e', '.git', '%00']);

/** A body that binds: every required field with a plausible value (content as base64), and the world's real values. */
function plausibleBody(model: RModel, values: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, fl] of Object.entries(model.rfields)) {
    if (key in values) {
      out[key] = values[key];
      continue;
    }
    if (!fl.rules.required) continue;
    const k = fl.kind;
    const r = fl.rules;
    if (k.t === 'string') out[key] = r.in ? r.in.find(Boolean)! : r.email ? 'x@example.com' : r.alphaDashDot || r.username || r.gitRefName ? `p-${model.goName}`.slice(0, 40) : 'aGk=';
    else if (k.t === 'int64') out[key] = 1;
    else if (k.t === 'bool') out[key] = true;
    else if (k.t === 'strings') out[key] = ['x'];
    else if (k.t === 'object') out[key] = plausibleBody(k.model, values);
    else if (k.t === 'array') out[key] = [plausibleBody(k.model, values)];
  }
  return out;
}

function pathCases(w: World, op: GOperation): Case[] {
  const out: Case[] = [];
  for (const name of pathParams(op)) {
    for (const [label, raw] of ODD_PATH_VALUES) {
      const path = pathOf(w, op, { [name]: raw });
      // Writes carry an empty body: whatever the path names, nothing may be written.
      out.push({ op, label: `{${name}} = ${label}`, method: op.method, path, headers: goodAuth(w, op), mustFail: !isRead(op) });
      // A file path with a body that binds reaches the handler: traversal must be refused there;
      // the other odd names are just names (they may be written).
      if (op.body && op.params[name]!.wildcard) {
        const body = jsonBody(plausibleBody(op.body as RModel, w.bodyValues));
        out.push({ op, label: `{${name}} = ${label}, body ${body}`, method: op.method, path, headers: { ...goodAuth(w, op), ...JSON_CT }, body, mustFail: TRAVERSAL.has(label), confined: true });
      }
    }
  }
  return out;
}

function queryCases(w: World, op: GOperation): Case[] {
  const qs = queryParams(op);
  if (!qs.length) return [];
  const out: Case[] = [];
  const add = (label: string, query: string) =>
    // A write carries a malformed body: whatever the query does, nothing may be written. An upload
    // takes any body as the file (Gitea's raw upload), so for it an odd but valid query may succeed.
    out.push({ op, label, method: op.method, path: pathOf(w, op, {}, query), headers: { ...goodAuth(w, op), ...JSON_CT }, mustFail: !isRead(op) && !op.upload, ...(isRead(op) ? {} : { body: '[' }) });
  const big = 'a'.repeat(10 * 1024);
  for (const [name, p] of qs) {
    if (p.type === 'integer') for (const v of ['abc', '-5', '99999999999999999999', '1.5', '0x10', '']) add(`${name}=${v}`, `${name}=${encodeURIComponent(v)}`);
    if (p.type === 'boolean') for (const v of ['maybe', '', '2']) add(`${name}=${v}`, `${name}=${encodeURIComponent(v)}`);
    if (p.type === 'string') for (const [l, v] of [['..', '..'], ['%00', '%00'], ['%ff', '%ff'], ['unicode', encodeURIComponent('ü名')]]) add(`${name}=${l}`, `${name}=${v}`);
    add(`${name} repeated`, `${name}=1&${name}=2&${name}=abc`);
    add(`${name} 10 KB`, `${name}=${big}`);
  }
  add('every param 10 KB', qs.map(([n]) => `${n}=${big}`).join('&'));
  return out;
}

const WRONG: Record<string, unknown> = { string: 'x', number: 1, bool: true, array: [], object: {} };
const RIGHT: Record<string, string[]> = { string: ['string'], bool: ['bool'], int64: ['number'], datetime: ['string'], strings: ['array'], object: ['object'], array: ['array'] };

/** Bodies whose one field (possibly nested) has the wrong JSON type. */
function wrongTypeBodies(model: RModel): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [key, fl] of Object.entries(model.rfields) as [string, RField][]) {
    for (const [jt, val] of Object.entries(WRONG)) if (!RIGHT[fl.kind.t]!.includes(jt)) out.push([`${key}: ${jt}`, { [key]: val }]);
    if (fl.kind.t === 'int64') out.push([`${key}: 1.5`, { [key]: 1.5 }], [`${key}: 1e20`, { [key]: 1e20 }]);
    if (fl.kind.t === 'datetime') out.push([`${key}: not a time`, { [key]: 'yesterday' }]);
    if (fl.kind.t === 'strings') out.push([`${key}: [1]`, { [key]: [1] }]);
    if (fl.kind.t === 'object' || fl.kind.t === 'array') {
      const inner = fl.kind.model;
      for (const [label, body] of wrongTypeBodies(inner).slice(0, 12)) out.push([`${key}.${label}`, { [key]: fl.kind.t === 'array' ? [body] : body }]);
      if (fl.kind.t === 'array') out.push([`${key}: [1]`, { [key]: [1] }]);
    }
  }
  return out;
}

const hasRequired = (model: RModel, except?: string) => Object.entries(model.rfields).some(([k, f]) => k !== except && f.rules.required);

/** Whether a 100 KB string in this field must be refused by the binding rules (or a missing required field). */
function longMustFail(model: RModel, key: string): boolean {
  const r = model.rfields[key]!.rules;
  return (r.maxSize !== undefined && r.maxSize < 100 * 1024) || !!r.in || !!r.email || hasRequired(model, key);
}

/** The plausible body's scalar fields as a form: it would bind as JSON, and must not as a form. */
function plausibleForm(model: RModel, values: Record<string, unknown>): string {
  const form = new URLSearchParams();
  for (const [k, val] of Object.entries(plausibleBody(model, values))) if (typeof val !== 'object') form.set(k, String(val));
  return form.toString() || 'x=1';
}

function bodyCases(w: World, op: GOperation): Case[] {
  if (!op.body) return [];
  const model = op.body as RModel;
  const path = pathOf(w, op);
  const auth = goodAuth(w, op);
  const out: Case[] = [];
  const add = (label: string, body: string | Buffer, mustFail = true, headers: Record<string, string> = JSON_CT) => out.push({ op, label, method: op.method, path, headers: { ...auth, ...headers }, body, mustFail });
  for (const bad of ['{', '[1,', '"x', '{"a":}', '{"a" 1}', '{}}', '\u0000', '\ufeff{}', '{"a":"\\ud800"', 'NaN']) add(`malformed ${JSON.stringify(bad)}`, bad);
  // Invalid UTF-8 in a string decodes as U+FFFD (Go's encoding/json does the same): an unknown key.
  add('invalid UTF-8 in a key', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), hasRequired(model));
  for (const [label, val] of [['array', '[]'], ['array of objects', '[{}]'], ['number', '1'], ['string', '"x"'], ['bool', 'true']]) add(`JSON ${label}`, val!);
  add('JSON null', 'null', hasRequired(model));
  for (const [label, body] of wrongTypeBodies(model)) add(`wrong type ${label}`, jsonBody(body));
  const big = 'a'.repeat(100 * 1024);
  for (const [key, fl] of Object.entries(model.rfields)) {
    if (fl.kind.t !== 'string') continue;
    add(`${key}: 100 KB`, jsonBody({ [key]: big }), longMustFail(model, key));
    // The same in a body that otherwise binds and names real things: it reaches the handler.
    const r = fl.rules;
    add(`${key}: 100 KB in a plausible body`, jsonBody({ ...plausibleBody(model, w.bodyValues), [key]: big }), (r.maxSize !== undefined && r.maxSize < big.length) || !!r.in || !!r.email);
  }
  add('10,000 nested arrays', '['.repeat(10_000) + ']'.repeat(10_000));
  add('10,000 nested objects', '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000));
  add('10,000 nested in a field', jsonBody({ [Object.keys(model.rfields)[0]!]: 0 }).replace('0', '['.repeat(10_000) + ']'.repeat(10_000)));
  add('Content-Type: text/plain', '{}', true, { 'content-type': 'text/plain' });
  add('no Content-Type', '{}', true, {});
  add('Content-Type: application/xml', '<a/>', true, { 'content-type': 'application/xml' });
  // Forms are what a page on another site can make a browser send: never accepted, JSON only.
  add(`form-encoded ${plausibleForm(model, w.bodyValues)}`, plausibleForm(model, w.bodyValues), true, { 'content-type': 'application/x-www-form-urlencoded' });
  add('multipart form', '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--b--\r\n', true, { 'content-type': 'multipart/form-data; boundary=b' });
  return out;
}

/** Over MAX_BODY_BYTES: 413 whether announced (content-length) or streamed (chunked). */
function oversizeCases(w: World, op: GOperation): Case[] {
  if (!op.body) return [];
  const body = jsonBody({ x: 'a'.repeat(SMALL_BODY * 2) });
  const base = { op, method: op.method, path: pathOf(w, op), headers: { ...goodAuth(w, op), ...JSON_CT }, body, mustFail: true, status: 413 };
  return [
    { ...base, label: 'over MAX_BODY_BYTES (content-length)' },
    { ...base, label: 'over MAX_BODY_BYTES (chunked)', chunked: true },
  ];
}

let main: World;

test.before(async () => {
  main = await makeWorld(ctx.g);
});

test.after(() => {
  console.log(`\n  bad input: ${stats.requests} requests over ${stats.ops.size} operations, ${stats.serverErrors} server errors`);
});

test('every operation is generated (and has real path values)', () => {
  assert.ok(GITEA_OPERATIONS.length >= 30, `${GITEA_OPERATIONS.length} operations`);
  const missing = GITEA_OPERATIONS.flatMap((op) => pathParams(op).filter((n) => realValue(main, op, n) === 'x').map((n) => `${op.operationId} {${n}}`));
  assert.equal(missing, [], 'every path parameter has a real value');
});

test('credentials: missing ones as the guards say, wrong ones 401 with the exact body', async () => {
  assert.equal(await runAll(main, GITEA_OPERATIONS.flatMap((op) => credentialCases(main, op))), []);
});

test('path parameters: traversal, odd encodings, 5,000 chars, unicode, invalid UTF-8', async () => {
  assert.equal(await runAll(main, GITEA_OPERATIONS.flatMap((op) => pathCases(main, op))), []);
});

test('query parameters: wrong types, repeated, 10 KB', async () => {
  assert.equal(await runAll(main, GITEA_OPERATIONS.flatMap((op) => queryCases(main, op))), []);
});

test('bodies: malformed, not an object, wrong field types, 100 KB strings, 10,000 levels, wrong content types', async () => {
  assert.equal(await runAll(main, GITEA_OPERATIONS.flatMap((op) => bodyCases(main, op))), []);
});

test('bodies over MAX_BODY_BYTES: 413', async () => {
  const t = await startTestServer({ ADMIN_USERNAME: ADMIN.name, ADMIN_PASSWORD: ADMIN.password, MIRROR_ALLOW_LOCAL_NETWORKS: 'true', MAX_BODY_BYTES: String(SMALL_BODY) });
  try {
    const small = await makeWorld(await giteaWorld(t));
    assert.equal(await runAll(small, GITEA_OPERATIONS.flatMap((op) => oversizeCases(small, op))), []);
    t.assertNoViolations();
  } finally {
    await t.close();
  }
});

test('regressions this suite found: dot segments, a null body, huge patterns, a huge credential', async () => {
  const { g } = ctx;
  const err = (message: string) => ({ message, url: main.swagger });
  const spare = await g.repo('spare');
  const branch: string = spare.default_branch;
  // `…/collaborators/..` was resolved to `/repos/root/spare` before routing: a DELETE deleted the repository.
  for (const seg of ['..', '%2e%2e', '%2E.', '.']) {
    const r = await send(g.url, { method: 'DELETE', path: `/api/v1/repos/root/spare/collaborators/${seg}`, headers: { authorization: `token ${main.token}` } });
    assert.is(r.status, 404, `DELETE …/collaborators/${seg}: ${r.text}`);
    assert.equal(JSON.parse(r.text), err('not found'));
  }
  assert.is((await g.api('GET', '/api/v1/repos/root/spare')).status, 200, 'the repository is still there');
  // `null` is the zero struct: its binding rules still run (it made an empty commit).
  const nul = await g.api('POST', '/api/v1/repos/root/spare/contents', { body: 'null', headers: { 'content-type': 'application/json' } });
  assert.is(nul.status, 422);
  assert.equal(nul.body, err('[Files]: Required'));
  // A file pattern too large for a regular expression protects nothing, and writes still work (it was a 500 on every write).
  assert.is((await g.api('POST', '/api/v1/repos/root/spare/branch_protections', { json: { rule_name: branch } })).status, 201);
  const patch = await g.api('PATCH', `/api/v1/repos/root/spare/branch_protections/${branch}`, { json: { enable_push: true, unprotected_file_patterns: 'a'.repeat(100 * 1024) } });
  assert.is(patch.status, 200, patch.text);
  const write = await g.api('POST', '/api/v1/repos/root/spare/contents/x.txt', { json: { content: 'aGk=' } });
  assert.is(write.status, 201, write.text.slice(0, 300));
  // A huge pattern in a committed .gitattributes made every later API write a 500 ("Regular
  // expression too large"); one in .editorconfig made every editorconfig answer a 500 ("pattern is too long").
  const b64 = (x: string) => Buffer.from(x).toString('base64');
  const huge = 'a'.repeat(100 * 1024);
  assert.is((await g.api('POST', '/api/v1/repos/root/spare/contents/.gitattributes', { json: { content: b64(`${huge} filter=lfs\n${huge}* -text\n`) } })).status, 201);
  const after = await g.api('POST', '/api/v1/repos/root/spare/contents/y.txt', { json: { content: 'aGk=' } });
  assert.is(after.status, 201, after.text.slice(0, 200));
  assert.is((await g.api('POST', '/api/v1/repos/root/spare/contents/.editorconfig', { json: { content: b64(`[*.txt]\nindent_size = 3\n[${huge}*]\nindent_style = tab\n`) } })).status, 201);
  const ec = await g.api('GET', '/api/v1/repos/root/spare/editorconfig/y.txt');
  assert.is(ec.status, 200, ec.text.slice(0, 200));
  assert.equal(ec.body, { indent_size: '3' });
  // A 100 KB credential was masked with one regular expression of the secrets: "too large", a 500
  // whose message (and log line) carried the secret itself. Now masked, in the answer and the logs.
  const secret = `s3cret-${'x'.repeat(100 * 1024)}`;
  const mig = await g.api('POST', '/api/v1/repos/migrate', { json: { clone_addr: `${g.url}/root/absent.git`, repo_name: 'nope', auth_username: 'someone', auth_password: secret } });
  assert.ok(mig.status >= 400 && mig.status < 500, `migrate: ${mig.status} ${mig.text.slice(0, 200)}`);
  assert.not.ok(mig.text.includes('s3cret'), 'the secret is not in the answer');
  const pm = await g.api('POST', '/api/v1/repos/root/spare/push_mirrors', { json: { remote_address: `${g.url}/root/nope.git`, remote_username: 'someone', remote_password: secret, interval: '0', sync_on_commit: false } });
  assert.is(pm.status, 200, pm.text.slice(0, 200));
  const sync = await g.api('POST', '/api/v1/repos/root/spare/push_mirrors-sync');
  assert.ok(sync.status === 200 || sync.status === 500, `sync: ${sync.status}`); // the spec's 500 names the failing mirror
  assert.not.ok(sync.text.includes('s3cret'), 'the secret is not in the sync answer');
  assert.not.ok(g.t.logs.some((l) => l.includes('s3cret')), 'nor in any log line');
});

// ---------------------------------------------------------------------------
// The events WebSocket: oversized and garbage frames close that socket; the server stays up.

const openEvents = (url: string) => openSocket(`${url.replace(/^http/, 'ws')}/api/v1/events`, { headers: { authorization: basicAuth(`${ADMIN.name}:${ADMIN.password}`) } });
const closed = async (ws: WebSocket): Promise<number> => (await socketClosed(ws, TIMEOUT_MS)).code;

/** Writes raw bytes on a fresh connection; resolves with what came back before the server closed it (or TIMEOUT_MS). */
async function rawExchange(url: string, data: string): Promise<string> {
  const sock = await rawSocket(url, data);
  if (await sock.ended(TIMEOUT_MS)) return sock.got();
  sock.socket.destroy();
  return sock.got() || `no answer within ${TIMEOUT_MS} ms`;
}

/** A raw frame (FIN set), masked unless said otherwise. */
function frame(opcode: number, payload: Buffer, opts: { masked?: boolean; fin?: boolean; rsv?: number } = {}): Buffer {
  const masked = opts.masked ?? true;
  const head = [((opts.fin ?? true) ? 0x80 : 0) | ((opts.rsv ?? 0) << 4) | opcode];
  const len = payload.length;
  const lenBytes = len < 126 ? [len] : len < 65536 ? [126, len >> 8, len & 255] : [127, 0, 0, 0, 0, (len >>> 24) & 255, (len >> 16) & 255, (len >> 8) & 255, len & 255];
  lenBytes[0]! |= masked ? 0x80 : 0;
  const mask = Buffer.from([1, 2, 3, 4]);
  const data = masked ? Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!)) : payload;
  return Buffer.concat([Buffer.from([...head, ...lenBytes]), masked ? mask : Buffer.alloc(0), data]);
}

test('events WebSocket: an oversized frame is closed with 1009, garbage frames are closed; the server stays up', async () => {
  const t = await startTestServer({ ADMIN_USERNAME: ADMIN.name, ADMIN_PASSWORD: ADMIN.password, WS_MAX_PAYLOAD: String(SMALL_WS) });
  try {
    const ws = await openEvents(t.url);
    const done = closed(ws);
    ws.send('x'.repeat(SMALL_WS * 4));
    assert.is(await done, 1009, 'oversized frame: 1009');
    stats.requests++;
    const garbage: [string, Buffer, number[]][] = [
      ['reserved opcode 0x3', frame(3, Buffer.from('hi')), [1002]],
      ['unmasked frame', frame(1, Buffer.from('hi'), { masked: false }), [1002]],
      ['RSV bits set', frame(1, Buffer.from('hi'), { rsv: 7 }), [1002]],
      ['invalid UTF-8 text', frame(1, Buffer.from([0xff, 0xfe, 0xfd])), [1007]],
      ['fragmented control frame', frame(9, Buffer.from('hi'), { fin: false }), [1002]],
      ['random bytes', Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x12, 0x34]), [1002, 1009]],
      ['length over the limit, no data', Buffer.from([0x82, 0xff, 0, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff, 1, 2, 3, 4]), [1009]],
    ];
    for (const [label, bytes, codes] of garbage) {
      const s = await openEvents(t.url);
      const c = closed(s);
      (s as unknown as { _socket: import('node:net').Socket })._socket.write(bytes);
      const code = await c.catch((err: Error) => err.message);
      stats.requests++;
      assert.ok(codes.includes(code as number), `${label}: closed with ${codes.join(' or ')}, got ${code}`);
    }
    // A broken handshake is refused with a 4xx before any upgrade.
    const basic = Buffer.from(`${ADMIN.name}:${ADMIN.password}`).toString('base64');
    for (const [label, extra] of [
      ['no Sec-WebSocket-Key', 'Sec-WebSocket-Version: 13\r\n'],
      ['version 99', 'Sec-WebSocket-Version: 99\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n'],
      ['bad key', 'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: !!\r\n'],
    ] as const) {
      const head = await rawExchange(t.url, `GET /api/v1/events HTTP/1.1\r\nHost: ${t.host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nAuthorization: Basic ${basic}\r\n${extra}\r\n`);
      stats.requests++;
      assert.match(head, /^HTTP\/1\.1 4\d\d /, `${label}: ${head.slice(0, 80)}`);
    }
    const up = await fetch(`${t.url}/api/v1/version`);
    assert.is(up.status, 200, 'server still up');
    const again = await openEvents(t.url);
    again.close();
    t.assertNoViolations();
  } finally {
    await t.close();
  }
});

test.run();
