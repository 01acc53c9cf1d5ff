import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { expectError } from '../_helpers/api-error.js';
import { addCollaborator, useGitea, type Account } from '../_helpers/gitea.js';
import { nextSecondAfter } from '../_helpers/wait.js';

// Branch protections: the rules API (create, get, edit, delete, list) and which rule applies to
// a branch, observed through writes with the contents API.
const test = suite('gitea: branch protections');
const ctx = useGitea(test);

const GO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/;
const RULE_KEYS = [
  'branch_name', 'rule_name', 'priority', 'enable_push', 'enable_push_whitelist', 'push_whitelist_usernames', 'push_whitelist_teams', 'push_whitelist_deploy_keys',
  'enable_force_push', 'enable_force_push_allowlist', 'force_push_allowlist_usernames', 'force_push_allowlist_teams', 'force_push_allowlist_deploy_keys',
  'enable_merge_whitelist', 'merge_whitelist_usernames', 'merge_whitelist_teams', 'enable_status_check', 'status_check_contexts', 'required_approvals',
  'enable_approvals_whitelist', 'approvals_whitelist_username', 'approvals_whitelist_teams', 'block_on_rejected_reviews', 'block_on_official_review_requests',
  'block_on_outdated_branch', 'dismiss_stale_approvals', 'ignore_stale_approvals', 'require_signed_commits', 'protected_file_patterns', 'unprotected_file_patterns',
  'block_admin_merge_override', 'created_at', 'updated_at',
];
/** A rule created with nothing but its name. */
const EMPTY_RULE = {
  enable_push: false,
  enable_push_whitelist: false,
  push_whitelist_usernames: [],
  push_whitelist_teams: [],
  push_whitelist_deploy_keys: false,
  enable_force_push: false,
  enable_force_push_allowlist: false,
  force_push_allowlist_usernames: [],
  force_push_allowlist_teams: [],
  force_push_allowlist_deploy_keys: false,
  enable_merge_whitelist: false,
  merge_whitelist_usernames: [],
  merge_whitelist_teams: [],
  enable_status_check: false,
  status_check_contexts: [],
  required_approvals: 0,
  enable_approvals_whitelist: false,
  approvals_whitelist_username: [],
  approvals_whitelist_teams: [],
  block_on_rejected_reviews: false,
  block_on_official_review_requests: false,
  block_on_outdated_branch: false,
  dismiss_stale_approvals: false,
  ignore_stale_approvals: false,
  require_signed_commits: false,
  protected_file_patterns: '',
  unprotected_file_patterns: '',
  block_admin_merge_override: false,
};
const NOT_ADMIN = 'user should be an owner or a collaborator with admin write of a repository';

const strip = ({ created_at, updated_at, ...rest }: any) => rest;

let olly: Account;
let rita: Account; // read collaborator
let will: Account; // write collaborator
let adam: Account; // admin collaborator
let stan: Account; // stranger
let cara: Account; // another write collaborator

test.before(async () => {
  const { g } = ctx;
  // One after the other: allow-lists are shown in user id order.
  olly = await g.user('olly');
  rita = await g.user('rita');
  will = await g.user('will');
  adam = await g.user('adam');
  stan = await g.user('stan');
  cara = await g.user('cara');
});

async function repoWithCollaborators(name: string, opts: { private?: boolean } = {}) {
  const { g } = ctx;
  await g.repo(name, { owner: olly, ...opts });
  for (const [who, permission] of [[rita, 'read'], [will, 'write'], [adam, 'admin'], [cara, 'write']] as const) await addCollaborator(g, olly, name, who, permission);
}
const rules = (repo: string) => `/api/v1/repos/olly/${repo}/branch_protections`;

test('POST: 201 with every field; allow-lists keep users with explicit access, in Gitea\'s order; teams ignored', async () => {
  const { g } = ctx;
  await repoWithCollaborators('shape');
  const body = {
    rule_name: 'main',
    enable_push: true,
    enable_push_whitelist: true,
    push_whitelist_usernames: ['olly', 'will', 'stan', 'root', 'Cara'],
    push_whitelist_teams: ['core'],
    push_whitelist_deploy_keys: true,
    enable_force_push: true,
    enable_force_push_allowlist: true,
    force_push_allowlist_usernames: ['will'],
    force_push_allowlist_teams: ['core'],
    force_push_allowlist_deploy_keys: true,
    enable_merge_whitelist: true,
    merge_whitelist_usernames: ['rita', 'adam'],
    merge_whitelist_teams: ['core'],
    enable_status_check: true,
    status_check_contexts: ['ci/build', 'ci/test'],
    required_approvals: 2,
    enable_approvals_whitelist: true,
    approvals_whitelist_username: ['adam'],
    approvals_whitelist_teams: ['core'],
    block_on_rejected_reviews: true,
    block_on_official_review_requests: true,
    block_on_outdated_branch: true,
    dismiss_stale_approvals: true,
    ignore_stale_approvals: true,
    require_signed_commits: true,
    protected_file_patterns: '*.lock;secrets/**',
    unprotected_file_patterns: 'docs/**',
    block_admin_merge_override: true,
  };
  const r = await g.api('POST', rules('shape'), { json: body, auth: olly.auth });
  assert.is(r.status, 201);
  assert.equal(Object.keys(r.body), RULE_KEYS);
  assert.match(r.body.created_at, GO_TIME);
  assert.is(r.body.updated_at, r.body.created_at);
  assert.equal(strip(r.body), {
    branch_name: 'main',
    ...body,
    priority: 1,
    push_whitelist_usernames: ['will', 'cara', 'olly'],
    push_whitelist_teams: [],
    force_push_allowlist_teams: [],
    merge_whitelist_usernames: ['rita', 'adam'],
    merge_whitelist_teams: [],
    approvals_whitelist_teams: [],
  });
  // GET and the list answer the same rule.
  const one = await g.api('GET', `${rules('shape')}/main`, { auth: olly.auth });
  assert.is(one.status, 200);
  assert.equal(one.body, r.body);
  const list = await g.api('GET', rules('shape'), { auth: olly.auth });
  assert.equal(list.body, [r.body]);
  assert.is(list.headers.get('x-total-count'), null, 'not paginated');
  // Unknown users are 422, in any list.
  for (const key of ['push_whitelist_usernames', 'force_push_allowlist_usernames', 'merge_whitelist_usernames', 'approvals_whitelist_username']) {
    await expectError(ctx.g, g.api('POST', rules('shape'), { json: { rule_name: 'other', [key]: ['will', 'ghost'] }, auth: olly.auth }), 422, 'user does not exist [uid: 0, name: ghost]');
  }
  assert.is((await g.api('GET', `${rules('shape')}/other`, { auth: olly.auth })).status, 404, 'nothing was created');
  // A collaborator who leaves drops out of the lists shown.
  assert.is((await g.api('DELETE', '/api/v1/repos/olly/shape/collaborators/cara', { auth: olly.auth })).status, 204);
  assert.equal((await g.api('GET', `${rules('shape')}/main`, { auth: olly.auth })).body.push_whitelist_usernames, ['will', 'olly']);
});

test('POST: Gitea\'s normalisation of the push switches and required_approvals', async () => {
  const { g } = ctx;
  await repoWithCollaborators('norm');
  const create = async (json: Record<string, unknown>) => {
    const r = await g.api('POST', rules('norm'), { json, auth: olly.auth });
    assert.is(r.status, 201, r.text);
    return strip(r.body);
  };
  // Without enable_push nothing under it holds.
  const a = await create({
    rule_name: 'a',
    enable_push: false,
    enable_push_whitelist: true,
    push_whitelist_deploy_keys: true,
    push_whitelist_usernames: ['will'],
    enable_force_push: true,
    enable_force_push_allowlist: true,
    force_push_allowlist_deploy_keys: true,
    required_approvals: -3,
  });
  assert.equal(
    [a.enable_push, a.enable_push_whitelist, a.push_whitelist_deploy_keys, a.enable_force_push, a.enable_force_push_allowlist, a.force_push_allowlist_deploy_keys, a.required_approvals],
    [false, false, false, false, false, false, 0],
  );
  assert.equal(a.push_whitelist_usernames, ['will'], 'the list itself is kept');
  // Deploy keys only with the allow-list on.
  const b = await create({ rule_name: 'b', enable_push: true, push_whitelist_deploy_keys: true, enable_force_push: true, force_push_allowlist_deploy_keys: true });
  assert.equal([b.enable_push, b.enable_push_whitelist, b.push_whitelist_deploy_keys, b.enable_force_push, b.enable_force_push_allowlist, b.force_push_allowlist_deploy_keys], [true, false, false, true, false, false]);
  const c = await create({ rule_name: 'c', enable_push: true, enable_push_whitelist: true, push_whitelist_deploy_keys: true, enable_force_push: true, enable_force_push_allowlist: true, force_push_allowlist_deploy_keys: true });
  assert.equal([c.enable_push_whitelist, c.push_whitelist_deploy_keys, c.enable_force_push_allowlist, c.force_push_allowlist_deploy_keys], [true, true, true, true]);
  // Just a name: every default.
  const d = await create({ rule_name: 'd' });
  assert.equal(d, { branch_name: 'd', rule_name: 'd', priority: 4, ...EMPTY_RULE });
  // Binding.
  await expectError(ctx.g, g.api('POST', rules('norm'), { json: { rule_name: 'e', enable_push: 'yes' }, auth: olly.auth }), 422, '[]: json: cannot unmarshal string into Go struct field CreateBranchProtectionOption.enable_push of type bool');
  await expectError(ctx.g, g.api('POST', rules('norm'), { json: { rule_name: 'e', push_whitelist_usernames: 'will' }, auth: olly.auth }), 422, '[]: json: cannot unmarshal string into Go struct field CreateBranchProtectionOption.push_whitelist_usernames of type []string');
});

test('POST: rule_name vs branch_name; both empty 400; duplicate 403; glob names have no branch_name', async () => {
  const { g } = ctx;
  await repoWithCollaborators('names');
  const post = (json: unknown) => g.api('POST', rules('names'), { json, auth: olly.auth });
  const byBranch = await post({ branch_name: 'dev' });
  assert.equal([byBranch.status, byBranch.body.rule_name, byBranch.body.branch_name], [201, 'dev', 'dev']);
  const both = await post({ branch_name: 'ignored', rule_name: 'wins' });
  assert.equal([both.status, both.body.rule_name, both.body.branch_name], [201, 'wins', 'wins']);
  assert.is((await g.api('GET', `${rules('names')}/ignored`, { auth: olly.auth })).status, 404);
  const glob = await post({ rule_name: 'release/**' });
  assert.equal([glob.status, glob.body.rule_name, glob.body.branch_name], [201, 'release/**', '']);
  for (const name of ['v?', 'x[ab]', '{a,b}', 'esc\\*']) assert.is((await post({ rule_name: name })).body.branch_name, '', name);
  await expectError(ctx.g, post({}), 400, 'both rule_name and branch_name are empty');
  await expectError(ctx.g, post({ rule_name: '', branch_name: '' }), 400, 'both rule_name and branch_name are empty');
  await expectError(ctx.g, post({ rule_name: 'dev' }), 403, 'Branch protection already exist');
  await expectError(ctx.g, post({ branch_name: 'dev' }), 403, 'Branch protection already exist');
  await expectError(ctx.g, post({ rule_name: 'release/**', enable_push: true }), 403, 'Branch protection already exist');
  // A rule may name a branch that does not exist (yet).
  assert.is((await post({ rule_name: 'not-yet' })).status, 201);
});

test('GET / PATCH / DELETE by name, including glob names with `/`; 404s', async () => {
  const { g } = ctx;
  await repoWithCollaborators('crud');
  const created = await g.api('POST', rules('crud'), { json: { rule_name: 'release/**', enable_push: true }, auth: olly.auth });
  assert.is(created.status, 201);
  const path = `${rules('crud')}/release/**`;
  assert.equal((await g.api('GET', path, { auth: olly.auth })).body, created.body);
  assert.is((await g.api('GET', `${rules('crud')}/release%2F%2A%2A`, { auth: olly.auth })).body.rule_name, 'release/**', 'escaped too');
  await expectError(ctx.g, g.api('GET', `${rules('crud')}/release`, { auth: olly.auth }), 404, 'not found');
  await expectError(ctx.g, g.api('GET', `${rules('crud')}/release/other`, { auth: olly.auth }), 404, 'not found');

  await nextSecondAfter(Date.parse(created.body.updated_at) / 1000); // updated_at has a resolution of one second
  const p = await g.api('PATCH', path, { json: { enable_push_whitelist: true, push_whitelist_usernames: ['will', 'stan'], required_approvals: 3, protected_file_patterns: '*.md', priority: 7 }, auth: olly.auth });
  assert.is(p.status, 200);
  assert.equal(Object.keys(p.body), RULE_KEYS);
  assert.is(p.body.created_at, created.body.created_at);
  assert.ok(Date.parse(p.body.updated_at) > Date.parse(created.body.updated_at), 'updated_at moved');
  // enable_push_whitelist is read only together with enable_push (Gitea's EditBranchProtection).
  assert.equal(
    [p.body.rule_name, p.body.priority, p.body.enable_push, p.body.enable_push_whitelist, p.body.push_whitelist_usernames, p.body.required_approvals, p.body.protected_file_patterns],
    ['release/**', 7, true, false, ['will'], 3, '*.md'],
  );
  const p2 = await g.api('PATCH', path, { json: { enable_push: true, enable_push_whitelist: true, push_whitelist_deploy_keys: true }, auth: olly.auth });
  assert.equal([p2.body.enable_push_whitelist, p2.body.push_whitelist_deploy_keys, p2.body.push_whitelist_usernames], [true, true, ['will']]);
  // Not sent, or null: unchanged. A negative required_approvals is ignored.
  const p3 = await g.api('PATCH', path, { json: { push_whitelist_usernames: null, required_approvals: -1, protected_file_patterns: null }, auth: olly.auth });
  assert.equal([p3.body.push_whitelist_usernames, p3.body.required_approvals, p3.body.protected_file_patterns], [['will'], 3, '*.md']);
  // enable_push: false clears the switches under it (the list stays).
  const p4 = await g.api('PATCH', path, { json: { enable_push: false }, auth: olly.auth });
  assert.equal([p4.body.enable_push, p4.body.enable_push_whitelist, p4.body.push_whitelist_deploy_keys, p4.body.push_whitelist_usernames], [false, false, false, ['will']]);
  // Force push in an edit does not depend on enable_push (as Gitea).
  const p5 = await g.api('PATCH', path, { json: { enable_force_push: true, enable_force_push_allowlist: true, force_push_allowlist_usernames: ['adam'] }, auth: olly.auth });
  assert.equal([p5.body.enable_force_push, p5.body.enable_force_push_allowlist, p5.body.force_push_allowlist_usernames], [true, true, ['adam']]);
  const p6 = await g.api('PATCH', path, { json: { push_whitelist_usernames: [] }, auth: olly.auth });
  assert.equal(p6.body.push_whitelist_usernames, []);
  await expectError(ctx.g, g.api('PATCH', path, { json: { merge_whitelist_usernames: ['ghost'] }, auth: olly.auth }), 422, 'user does not exist [uid: 0, name: ghost]');
  await expectError(ctx.g, g.api('PATCH', path, { json: { rule_name: 'x', enable_push: 1 }, auth: olly.auth }), 422, '[]: json: cannot unmarshal number into Go struct field EditBranchProtectionOption.enable_push of type bool');
  await expectError(ctx.g, g.api('PATCH', `${rules('crud')}/nope`, { json: {}, auth: olly.auth }), 404, 'not found');
  // rule_name is not editable: unknown fields are ignored.
  assert.is((await g.api('PATCH', path, { json: { rule_name: 'renamed' }, auth: olly.auth })).body.rule_name, 'release/**');

  const del = await g.api('DELETE', path, { auth: olly.auth });
  assert.is(del.status, 204);
  assert.is(del.text, '');
  await expectError(ctx.g, g.api('GET', path, { auth: olly.auth }), 404, 'not found');
  await expectError(ctx.g, g.api('DELETE', path, { auth: olly.auth }), 404, 'not found');
  await expectError(ctx.g, g.api('GET', '/api/v1/repos/olly/nothing/branch_protections/main', { auth: olly.auth }), 404, 'not found');
});

test('only repository admins: 403 for writers and readers, 401 anonymous, 404 on a private repository', async () => {
  const { g } = ctx;
  await repoWithCollaborators('gate');
  await repoWithCollaborators('gate-priv', { private: true });
  assert.is((await g.api('POST', rules('gate'), { json: { rule_name: 'main' }, auth: olly.auth })).status, 201);
  const calls: Array<[string, string, unknown?]> = [
    ['GET', rules('gate')],
    ['POST', rules('gate'), { rule_name: 'x' }],
    ['GET', `${rules('gate')}/main`],
    ['PATCH', `${rules('gate')}/main`, { enable_push: true }],
    ['DELETE', `${rules('gate')}/main`],
  ];
  for (const [method, path, json] of calls) {
    for (const who of [will, rita, stan]) await expectError(ctx.g, g.api(method, path, { ...(json ? { json } : {}), auth: who.auth }), 403, NOT_ADMIN);
    await expectError(ctx.g, g.api(method, path, { ...(json ? { json } : {}), auth: null }), 401, 'token is required');
    await expectError(ctx.g, g.api(method, path.replace('/gate/', '/gate-priv/'), { ...(json ? { json } : {}), auth: stan.auth }), 404, 'not found');
  }
  // Admin collaborators and site admins manage rules.
  assert.is((await g.api('POST', rules('gate'), { json: { rule_name: 'by-adam' }, auth: adam.auth })).status, 201);
  assert.is((await g.api('PATCH', `${rules('gate')}/by-adam`, { json: { enable_push: true }, auth: adam.auth })).status, 200);
  assert.is((await g.api('DELETE', `${rules('gate')}/by-adam`)).status, 204);
  const read = await g.token(olly, ['read:repository']);
  await expectError(
    ctx.g,
    g.api('POST', rules('gate'), { json: { rule_name: 'y' }, auth: { token: read } }),
    403,
    'token does not have at least one of required scope(s), required=[write:repository], token scope=read:repository',
  );
  assert.is((await g.api('GET', rules('gate'), { auth: { token: read } })).status, 200);
});

test('archived repositories: rules are read, not written (423 after binding)', async () => {
  const { g } = ctx;
  await repoWithCollaborators('frozen');
  assert.is((await g.api('POST', rules('frozen'), { json: { rule_name: 'main' }, auth: olly.auth })).status, 201);
  assert.is((await g.api('PATCH', '/api/v1/repos/olly/frozen', { json: { archived: true }, auth: olly.auth })).status, 200);
  await expectError(ctx.g, g.api('POST', rules('frozen'), { json: { rule_name: 'dev' }, auth: olly.auth }), 423, 'repo is archived');
  await expectError(ctx.g, g.api('PATCH', `${rules('frozen')}/main`, { json: { enable_push: true }, auth: olly.auth }), 423, 'repo is archived');
  await expectError(ctx.g, g.api('DELETE', `${rules('frozen')}/main`, { auth: olly.auth }), 423, 'repo is archived');
  await expectError(ctx.g, g.api('POST', rules('frozen'), { json: { rule_name: 5 }, auth: olly.auth }), 422, '[]: json: cannot unmarshal number into Go struct field CreateBranchProtectionOption.rule_name of type string');
  await expectError(ctx.g, g.api('POST', rules('frozen'), { json: { rule_name: 'x' }, auth: will.auth }), 403, NOT_ADMIN);
  assert.is((await g.api('GET', rules('frozen'), { auth: olly.auth })).body.length, 1);
  assert.is((await g.api('GET', `${rules('frozen')}/main`, { auth: olly.auth })).status, 200);
});

// ---- Which rule applies, seen through the contents API ----

let fileNo = 0;
/** Writes a new file on `branch` as `who`: 201, or the error's status and message. */
async function tryWrite(repo: string, branch: string, who: Account, path = `f${++fileNo}.txt`): Promise<string> {
  const r = await ctx.g.api('POST', `/api/v1/repos/olly/${repo}/contents/${path}`, { json: { content: Buffer.from(path).toString('base64'), branch }, auth: who.auth });
  return r.status === 201 ? '201' : `${r.status} ${r.body?.message}`;
}
async function makeBranches(repo: string, names: string[]) {
  for (const name of names) {
    const r = await ctx.g.api('POST', `/api/v1/repos/olly/${repo}/contents/${name.replace(/\//g, '_')}.seed`, { json: { content: 'eA==', new_branch: name }, auth: olly.auth });
    assert.is(r.status, 201, r.text);
  }
}
const protect = async (repo: string, json: Record<string, unknown>) => {
  const r = await ctx.g.api('POST', rules(repo), { json, auth: olly.auth });
  assert.is(r.status, 201, r.text);
  return r.body;
};
const effective = async (repo: string, branch: string) => (await ctx.g.api('GET', `/api/v1/repos/olly/${repo}/branches/${branch}`, { auth: olly.auth })).body.effective_branch_protection_name;

test('a protected branch refuses writes from everyone, owner and site admin included; other branches are free', async () => {
  const { g } = ctx;
  await repoWithCollaborators('guard');
  await makeBranches('guard', ['dev']);
  assert.is(await tryWrite('guard', 'main', will), '201');
  await protect('guard', { rule_name: 'main' });
  assert.is(await tryWrite('guard', 'main', will), '403 user cannot commit to repo [user: will]');
  assert.is(await tryWrite('guard', 'main', olly), '403 user cannot commit to repo [user: olly]');
  assert.is(await tryWrite('guard', 'main', adam), '403 user cannot commit to repo [user: adam]');
  assert.is(await tryWrite('guard', 'main', g.admin), '403 user cannot commit to repo [user: root]');
  assert.is(await tryWrite('guard', 'dev', will), '201');
  // Deleting the rule frees the branch again.
  assert.is((await g.api('DELETE', `${rules('guard')}/main`, { auth: olly.auth })).status, 204);
  assert.is(await tryWrite('guard', 'main', will), '201');
});

test('rule choice: plain names case-insensitively; `*` within a segment, `**` across; ? [] {}', async () => {
  await repoWithCollaborators('globs');
  // (git cannot hold both `a` and `a/b` as branches, so the deeper names use other prefixes)
  await makeBranches('globs', ['Release', 'feature/a', 'feature/b/c', 'hot/a/b', 'hotter', 'v1', 'v10', 'x-a', 'x-c', 'Feature/a']);
  await protect('globs', { rule_name: 'release' });
  await protect('globs', { rule_name: 'feature/*' });
  await protect('globs', { rule_name: 'hot/**' });
  await protect('globs', { rule_name: 'v?' });
  await protect('globs', { rule_name: 'x-[ab]' });
  const denied = '403 user cannot commit to repo [user: will]';
  assert.is(await tryWrite('globs', 'Release', will), denied, 'plain rule names match case-insensitively');
  assert.is(await effective('globs', 'Release'), 'release');
  assert.is(await tryWrite('globs', 'feature/a', will), denied);
  assert.is(await tryWrite('globs', 'feature/b/c', will), '201', '`*` stops at `/`');
  assert.is(await tryWrite('globs', 'Feature/a', will), '201', 'globs are case-sensitive');
  assert.is(await tryWrite('globs', 'hot/a/b', will), denied, '`**` crosses `/`');
  assert.is(await tryWrite('globs', 'hotter', will), '201', '`hot/**` needs the slash');
  assert.is(await tryWrite('globs', 'v1', will), denied);
  assert.is(await tryWrite('globs', 'v10', will), '201', '`?` is one character');
  assert.is(await tryWrite('globs', 'x-a', will), denied);
  assert.is(await tryWrite('globs', 'x-c', will), '201');
  assert.is(await effective('globs', 'x-c'), '');
});

test('rule choice: lower priority first, then plain before glob, then the older rule; new rules go last', async () => {
  const { g } = ctx;
  await repoWithCollaborators('prio');
  await makeBranches('prio', ['pri/x', 'pri/y']);
  const glob = await protect('prio', { rule_name: 'pri/*', enable_push: true, priority: 5 });
  const plain = await protect('prio', { rule_name: 'pri/x', priority: 5 });
  assert.equal([glob.priority, plain.priority], [5, 5]);
  assert.is(await effective('prio', 'pri/x'), 'pri/x', 'same priority: the plain name wins');
  assert.is(await tryWrite('prio', 'pri/x', will), '403 user cannot commit to repo [user: will]');
  assert.is(await effective('prio', 'pri/y'), 'pri/*');
  assert.is(await tryWrite('prio', 'pri/y', will), '201');
  // The list is in the same order.
  assert.equal((await g.api('GET', rules('prio'), { auth: olly.auth })).body.map((r: any) => r.rule_name), ['pri/x', 'pri/*']);
  // A lower priority number wins over a plain name.
  assert.is((await g.api('PATCH', `${rules('prio')}/pri/*`, { json: { priority: 1 }, auth: olly.auth })).status, 200);
  assert.is(await effective('prio', 'pri/x'), 'pri/*');
  assert.is(await tryWrite('prio', 'pri/x', will), '201');
  assert.equal((await g.api('GET', rules('prio'), { auth: olly.auth })).body.map((r: any) => r.rule_name), ['pri/*', 'pri/x']);
  // Without a priority a rule gets the highest number plus one, so it loses to the older ones.
  const late = await protect('prio', { rule_name: 'pri/**' });
  assert.is(late.priority, 6);
  assert.is(await effective('prio', 'pri/x'), 'pri/*');
  // Two globs with one priority: the older wins.
  await makeBranches('prio', ['same/q']);
  await protect('prio', { rule_name: 'same/?', priority: 9 });
  await protect('prio', { rule_name: 'same/*', priority: 9, enable_push: true });
  assert.is(await effective('prio', 'same/q'), 'same/?');
});

test('push allow-list: only listed writers push; allow-listing does not give write access', async () => {
  const { g } = ctx;
  await repoWithCollaborators('allow');
  await protect('allow', { rule_name: 'main', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: ['will', 'rita'] });
  assert.is(await tryWrite('allow', 'main', will), '201');
  assert.is(await tryWrite('allow', 'main', cara), '403 user cannot commit to repo [user: cara]');
  assert.is(await tryWrite('allow', 'main', olly), '403 user cannot commit to repo [user: olly]');
  const reader = await g.api('POST', '/api/v1/repos/olly/allow/contents/by-rita.txt', { json: { content: 'eA==' }, auth: rita.auth });
  assert.is(reader.status, 403, 'a read collaborator on the list still cannot write');
  // enable_push without the allow-list: every writer.
  assert.is((await g.api('PATCH', `${rules('allow')}/main`, { json: { enable_push: true, enable_push_whitelist: false }, auth: olly.auth })).status, 200);
  assert.is(await tryWrite('allow', 'main', cara), '201');
  assert.is(await tryWrite('allow', 'main', olly), '201');
});

test('file patterns: protected files are refused, unprotected ones may be changed by anyone who can write', async () => {
  await repoWithCollaborators('files');
  await makeBranches('files', ['locked', 'docs-only']);
  await protect('files', { rule_name: 'locked', enable_push: true, protected_file_patterns: '*.lock; Secrets/** ' });
  await protect('files', { rule_name: 'docs-only', unprotected_file_patterns: 'docs/**;*.md' });
  assert.is(await tryWrite('files', 'locked', will, 'yarn.lock'), '403 path is protected and can not be changed [path: yarn.lock]');
  assert.is(await tryWrite('files', 'locked', will, 'YARN.LOCK'), '403 path is protected and can not be changed [path: YARN.LOCK]', 'patterns and paths are lower-cased');
  assert.is(await tryWrite('files', 'locked', will, 'secrets/deep/key.txt'), '403 path is protected and can not be changed [path: secrets/deep/key.txt]');
  assert.is(await tryWrite('files', 'locked', will, 'sub/yarn.lock'), '201', '`*` stops at `/`');
  assert.is(await tryWrite('files', 'locked', will, 'a.b.lock'), '201', '`*` stops at `.` too');
  assert.is(await tryWrite('files', 'locked', will, 'readme.txt'), '201');
  assert.is(await tryWrite('files', 'docs-only', will, 'docs/guide/a.txt'), '201');
  assert.is(await tryWrite('files', 'docs-only', will, 'notes.md'), '201');
  assert.is(await tryWrite('files', 'docs-only', will, 'src/a.ts'), '403 user cannot commit to repo [user: will]');
  assert.is(await tryWrite('files', 'docs-only', rita, 'docs/x.txt'), '403 user should have a permission to write to the target branch');
});

test.run();
