import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { GITEA_MODELS, GITEA_OPERATIONS } from '../../protocol/gitea/index.js';
import { giteaStatuses, type GOperation } from '../../protocol/gitea/operation.js';
import { giteaSwagger } from '../../protocol/gitea/swagger.js';
import type { TestServer } from '../_helpers/server.js';
import { useTestServer } from '../_helpers/use-test-server.js';

// The drift gate of the Gitea-compatible API: the served Swagger 2.0 document is built from
// protocol/gitea, lists exactly what the server mounts (which is everything declared), is
// internally consistent, and matches the committed snapshot.
const test = suite('protocol: Gitea declarations and /api/swagger.v1.json');
const SNAPSHOT = join(import.meta.dirname, 'gitea-docs.snapshot.json');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

const ctx = useTestServer(test);
let t: TestServer;
let doc: any;

test.before(async () => {
  t = ctx.t;
  const res = await fetch(`${t.url}/api/swagger.v1.json`, { headers: { authorization: 'token 0000000000000000000000000000000000000000' } });
  assert.is(res.status, 200, 'served to anyone, whatever credentials come along');
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  doc = await res.json();
});

const opsOf = (d: any) =>
  Object.entries(d.paths as Record<string, Record<string, any>>).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));

test('drift gate: the served document matches the committed snapshot (UPDATE_SNAPSHOTS=1 to accept a change)', () => {
  const text = JSON.stringify(doc, null, 2) + '\n';
  if (process.env.UPDATE_SNAPSHOTS === '1') writeFileSync(SNAPSHOT, text);
  // A missing snapshot is a failure, not a fresh start: writing it here would pass any drift.
  assert.ok(existsSync(SNAPSHOT), `${SNAPSHOT} is missing: restore it, or regenerate it with UPDATE_SNAPSHOTS=1 npm test -- protocol and review the diff`);
  assert.fixture(text, readFileSync(SNAPSHOT, 'utf8'));
});

test('Swagger 2.0, with Gitea\'s top level: basePath /api/v1, the four security schemes, APIError', () => {
  assert.is(doc.swagger, '2.0');
  assert.equal(Object.keys(doc), ['consumes', 'produces', 'schemes', 'swagger', 'info', 'basePath', 'paths', 'definitions', 'securityDefinitions', 'security']);
  assert.is(doc.basePath, '/api/v1');
  assert.is(doc.info.title, 'Gitea API');
  assert.match(doc.info.version, /^1\.\d+\.\d+$/);
  assert.equal(Object.keys(doc.securityDefinitions).sort(), ['AccessToken', 'AuthorizationHeaderToken', 'BasicAuth', 'Token']);
  assert.equal(doc.definitions.APIError.properties, { message: { type: 'string' }, url: { type: 'string' } });
});

test('the document lists exactly the mounted operations, and every declared operation is mounted', () => {
  const served = opsOf(doc).map((o) => `${o.method.toUpperCase()} ${o.path} ${o.op.operationId}`).sort();
  const declared = GITEA_OPERATIONS.map((o) => `${o.method} ${o.path} ${o.operationId}`).sort();
  assert.equal(served, declared);
  // The served document is the one built from every declaration (so nothing mounted is undeclared).
  assert.equal(doc, JSON.parse(JSON.stringify(giteaSwagger(GITEA_OPERATIONS, GITEA_MODELS, '/api/v1'))));
});

test('every declared operation is really routed: a request reaches its binder (scope check), not the catch-all 404', async () => {
  // A token with a scope no operation needs: a routed operation that needs scopes answers 403 before
  // any lookup; the catch-all would answer 404.
  const made = await fetch(`${t.url}/api/v1/users/root/tokens`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from('root:root-password-1').toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'routing', scopes: ['read:activitypub', 'read:user'] }),
  });
  assert.is(made.status, 201);
  const token = ((await made.json()) as { sha1: string }).sha1;
  for (const op of GITEA_OPERATIONS) {
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => (op.params[name]?.wildcard ? 'a/b.txt' : name === 'username' ? 'root' : `x-${name}`));
    const res = await fetch(`${t.url}/api/v1${path}`, {
      method: op.method,
      headers: { authorization: `token ${token}`, ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { 'content-type': 'application/json' }) },
      ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { body: '{}' }),
    });
    const body = (await res.json().catch(() => ({}))) as { message?: string };
    const needs = op.scopes.filter((c) => c !== 'user' || !['GET'].includes(op.method));
    if (needs.length) {
      assert.is(res.status, 403, `${op.operationId}: ${op.method} ${path} answered ${res.status} ${JSON.stringify(body)}`);
      assert.match(body.message ?? '', /^token does not have at least one of required scope\(s\)/, op.operationId);
    } else if (op.operationId === 'getVersion') assert.is(res.status, 200);
  }
});

test('every operation: a unique operationId, a summary, tags, path params matching its path, a response for every status it can answer', () => {
  const ids = new Set<string>();
  for (const { path, method, op } of opsOf(doc)) {
    const where = `${method.toUpperCase()} ${path}`;
    assert.ok(METHODS.includes(method), `${where}: method`);
    assert.ok(typeof op.operationId === 'string' && /^[A-Za-z][A-Za-z0-9]*$/.test(op.operationId), `${where}: operationId`);
    assert.not.ok(ids.has(op.operationId), `${where}: operationId ${op.operationId} is unique`);
    ids.add(op.operationId);
    assert.ok(typeof op.summary === 'string' && op.summary.length > 0, `${where}: summary`);
    assert.ok(Array.isArray(op.tags) && op.tags.length > 0, `${where}: tags`);
    assert.ok(Array.isArray(op.produces) && op.produces.length > 0, `${where}: produces`);
    const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
    const pathParams = op.parameters.filter((p: any) => p.in === 'path');
    assert.equal(pathParams.map((p: any) => p.name).sort(), inPath, `${where}: path params`);
    for (const p of pathParams) assert.is(p.required, true, `${where}: ${p.name} required`);
    for (const p of op.parameters) {
      assert.ok(['path', 'query', 'body', 'formData'].includes(p.in), `${where}: ${p.name} in`);
      if (p.in === 'body') assert.ok(p.schema?.$ref, `${where}: body schema`);
      else if (p.in === 'formData') assert.is(p.type, 'file', `${where}: ${p.name} is a file`);
      else assert.ok(['string', 'integer', 'boolean'].includes(p.type), `${where}: ${p.name} type`);
    }
    // A file upload takes a form or the raw bytes, and nothing else.
    if (op.parameters.some((p: any) => p.in === 'formData')) assert.equal(op.consumes, ['multipart/form-data', 'application/octet-stream'], `${where}: consumes`);
    assert.ok(op.parameters.filter((p: any) => p.in === 'body').length <= 1, `${where}: one body at most`);
    if (op.parameters.some((p: any) => p.in === 'body')) assert.equal(op.consumes, ['application/json'], `${where}: consumes`);

    const declared = GITEA_OPERATIONS.find((d: GOperation) => d.operationId === op.operationId)!;
    assert.equal(Object.keys(op.responses).sort(), [...giteaStatuses(declared)].map(String).sort(), `${where}: one response per status`);
    for (const [code, r] of Object.entries(op.responses as Record<string, any>)) {
      assert.ok(typeof r.description === 'string' && r.description.length > 0, `${where}: ${code} description`);
      if (Number(code) >= 400) assert.equal(r.schema, { $ref: '#/definitions/APIError' }, `${where}: ${code} is an APIError`);
    }
    assert.ok(op.responses['401'] && op.responses['413'], `${where}: 401 and 413 are always possible`);
    const ok = op.responses[String(declared.success)];
    if (declared.response) assert.ok(ok.schema, `${where}: the success body has a schema`);
  }
});

test('every $ref resolves to a definition; every definition is an object with properties', () => {
  const refs: string[] = [];
  const walk = (x: unknown) => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === 'object') {
      for (const [k, v] of Object.entries(x)) {
        if (k === '$ref') refs.push(v as string);
        else walk(v);
      }
    }
  };
  walk(doc);
  assert.ok(refs.length > 50);
  for (const ref of refs) {
    const m = /^#\/definitions\/(\w+)$/.exec(ref);
    assert.ok(m, `${ref} is a local definition`);
    assert.ok(doc.definitions[m![1]!], `${ref} is defined`);
  }
  for (const [name, def] of Object.entries(doc.definitions as Record<string, any>)) {
    assert.is(def.type, 'object', name);
    assert.ok(def.properties && typeof def.properties === 'object', `${name}: properties`);
    for (const [p, s] of Object.entries(def.properties as Record<string, any>)) assert.ok(s.type || s.$ref, `${name}.${p}: a type or a $ref`);
    if (def.required) for (const r of def.required) assert.ok(r in def.properties, `${name}: required ${r} is a property`);
  }
  // Request models carry the Go binding's Required as Swagger `required`.
  assert.equal(doc.definitions.CreateRepoOption.required, ['name']);
  assert.equal(doc.definitions.CreateUserOption.required, ['username', 'email']);
});

test('the accounts, repositories, collaborators and branches operations have Gitea\'s ids, paths and success codes', () => {
  const got = new Set(opsOf(doc).map((o) => `${o.op.operationId} ${o.method.toUpperCase()} ${o.path} ${Object.keys(o.op.responses).find((c) => Number(c) < 300)}`));
  for (const line of [
    'getVersion GET /version 200',
    'userGetCurrent GET /user 200',
    'userGet GET /users/{username} 200',
    'adminCreateUser POST /admin/users 201',
    'userGetTokens GET /users/{username}/tokens 200',
    'userCreateToken POST /users/{username}/tokens 201',
    'userDeleteAccessToken DELETE /users/{username}/tokens/{token} 204',
    'createCurrentUserRepo POST /user/repos 201',
    'repoGet GET /repos/{owner}/{repo} 200',
    'repoEdit PATCH /repos/{owner}/{repo} 200',
    'repoDelete DELETE /repos/{owner}/{repo} 204',
    'repoListCollaborators GET /repos/{owner}/{repo}/collaborators 200',
    'repoCheckCollaborator GET /repos/{owner}/{repo}/collaborators/{collaborator} 204',
    'repoAddCollaborator PUT /repos/{owner}/{repo}/collaborators/{collaborator} 204',
    'repoDeleteCollaborator DELETE /repos/{owner}/{repo}/collaborators/{collaborator} 204',
    'repoGetRepoPermissions GET /repos/{owner}/{repo}/collaborators/{collaborator}/permission 200',
    'repoListBranches GET /repos/{owner}/{repo}/branches 200',
    'repoGetBranch GET /repos/{owner}/{repo}/branches/{branch} 200',
    'repoListBranchProtection GET /repos/{owner}/{repo}/branch_protections 200',
    'repoCreateBranchProtection POST /repos/{owner}/{repo}/branch_protections 201',
    'repoGetBranchProtection GET /repos/{owner}/{repo}/branch_protections/{name} 200',
    'repoEditBranchProtection PATCH /repos/{owner}/{repo}/branch_protections/{name} 200',
    'repoDeleteBranchProtection DELETE /repos/{owner}/{repo}/branch_protections/{name} 204',
  ]) {
    assert.ok(got.has(line), line);
  }
});

test.run();
