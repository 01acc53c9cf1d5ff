import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { apiError, expectError } from '../_helpers/api-error.js';
import { addCollaborator, git, gitDirOf, useGitea, type Account, type GiteaWorld } from '../_helpers/gitea.js';

// Repositories: create, get, edit (rename, default branch, archive), delete, as each kind of caller.
const test = suite('gitea: repositories');
const ctx = useGitea(test);

const GO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/;
const EPOCH = '1970-01-01T00:00:00Z';
const REPO_KEYS = [
  'id', 'owner', 'name', 'full_name', 'description', 'empty', 'private', 'fork', 'template', 'mirror', 'size', 'language', 'languages_url', 'html_url', 'url', 'link',
  'ssh_url', 'clone_url', 'original_url', 'website', 'stars_count', 'forks_count', 'watchers_count', 'branch_count', 'open_issues_count', 'open_pr_counter',
  'release_counter', 'default_branch', 'archived', 'created_at', 'updated_at', 'archived_at', 'permissions', 'has_code', 'has_issues', 'internal_tracker', 'has_wiki',
  'has_pull_requests', 'has_projects', 'projects_mode', 'has_releases', 'has_packages', 'has_actions', 'ignore_whitespace_conflicts', 'allow_merge_commits',
  'allow_rebase', 'allow_rebase_explicit', 'allow_squash_merge', 'allow_fast_forward_only_merge', 'allow_rebase_update', 'allow_manual_merge',
  'autodetect_manual_merge', 'default_delete_branch_after_merge', 'default_merge_style', 'default_allow_maintainer_edit', 'avatar_url', 'internal',
  'mirror_interval', 'object_format_name', 'mirror_updated', 'topics', 'licenses',
];
const ADMIN_PERM = { admin: true, push: true, pull: true };
const WRITE_PERM = { admin: false, push: true, pull: true };
const READ_PERM = { admin: false, push: false, pull: true };

const headOf = (g: GiteaWorld, id: number) => git(['--git-dir', gitDirOf(g, id), 'symbolic-ref', 'HEAD']).stdout.trim();

let olly: Account;
let rita: Account; // read collaborator
let will: Account; // write collaborator
let adam: Account; // admin collaborator
let stan: Account; // stranger

test.before(async () => {
  const { g } = ctx;
  const made = await Promise.all(['olly', 'rita', 'will', 'adam', 'stan'].map((n) => g.user(n)));
  [olly, rita, will, adam, stan] = made as [Account, Account, Account, Account, Account];
});

async function withCollaborators(name: string, opts: { private?: boolean; autoInit?: boolean } = {}) {
  const { g } = ctx;
  const repo = await g.repo(name, { owner: olly, ...opts });
  for (const [who, permission] of [[rita, 'read'], [will, 'write'], [adam, 'admin']] as const) await addCollaborator(g, olly, name, who, permission);
  return repo;
}

test('POST /user/repos: 201 with every field of the Repository model, in Gitea\'s order', async () => {
  const { g } = ctx;
  const r = await g.api('POST', '/api/v1/user/repos', { json: { name: 'alpha', description: 'the first', auto_init: true }, auth: olly.auth });
  assert.is(r.status, 201);
  assert.equal(Object.keys(r.body), REPO_KEYS);
  const { id, owner, created_at, updated_at, size, ...rest } = r.body;
  assert.ok(Number.isInteger(id) && id > 0);
  assert.match(created_at, GO_TIME);
  assert.match(updated_at, GO_TIME);
  assert.ok(Number.isInteger(size) && size >= 0);
  assert.is(owner.login, 'olly');
  assert.is(owner.email, 'olly@example.com');
  assert.is(owner.active, false, 'the owner is shown without private details (ToUserWithAccessMode)');
  assert.equal(rest, {
    name: 'alpha',
    full_name: 'olly/alpha',
    description: 'the first',
    empty: false,
    private: false,
    fork: false,
    template: false,
    mirror: false,
    language: '',
    languages_url: `${g.url}/api/v1/repos/olly/alpha/languages`,
    html_url: `${g.url}/olly/alpha`,
    url: `${g.url}/api/v1/repos/olly/alpha`,
    link: '',
    ssh_url: '',
    clone_url: `${g.url}/olly/alpha.git`,
    original_url: '',
    website: '',
    stars_count: 0,
    forks_count: 0,
    watchers_count: 0,
    branch_count: 1,
    open_issues_count: 0,
    open_pr_counter: 0,
    release_counter: 0,
    default_branch: 'main',
    archived: false,
    archived_at: EPOCH,
    permissions: ADMIN_PERM,
    has_code: true,
    has_issues: false,
    internal_tracker: { enable_time_tracker: false, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true },
    has_wiki: false,
    has_pull_requests: false,
    has_projects: false,
    projects_mode: 'all',
    has_releases: true,
    has_packages: false,
    has_actions: false,
    ignore_whitespace_conflicts: false,
    allow_merge_commits: true,
    allow_rebase: true,
    allow_rebase_explicit: true,
    allow_squash_merge: true,
    allow_fast_forward_only_merge: true,
    allow_rebase_update: true,
    allow_manual_merge: false,
    autodetect_manual_merge: false,
    default_delete_branch_after_merge: false,
    default_merge_style: 'merge',
    default_allow_maintainer_edit: false,
    avatar_url: '',
    internal: false,
    mirror_interval: '',
    object_format_name: 'sha1',
    mirror_updated: '0001-01-01T00:00:00Z',
    topics: [],
    licenses: [],
  });
  // GET answers the same document.
  const again = await g.api('GET', '/api/v1/repos/olly/alpha', { auth: olly.auth });
  assert.is(again.status, 200);
  assert.equal(again.body, r.body);
  // The repository is a real bare git repository named by id.
  assert.ok(existsSync(join(gitDirOf(g, id), 'HEAD')));
  assert.is(git(['--git-dir', gitDirOf(g, id), 'rev-parse', '--is-bare-repository']).stdout.trim(), 'true');
});

test('auto_init commits README.md on the default branch; default_branch names it; without auto_init the repository is empty', async () => {
  const { g } = ctx;
  const beta = await g.api('POST', '/api/v1/user/repos', { json: { name: 'beta', description: 'Beta repo', auto_init: true, default_branch: 'trunk' }, auth: olly.auth });
  assert.is(beta.status, 201);
  assert.is(beta.body.default_branch, 'trunk');
  assert.is(beta.body.empty, false);
  assert.is(beta.body.branch_count, 1);
  assert.is(headOf(g, beta.body.id), 'refs/heads/trunk');
  const branches = await g.api('GET', '/api/v1/repos/olly/beta/branches', { auth: olly.auth });
  assert.equal(branches.body.map((b: any) => b.name), ['trunk']);
  assert.is(branches.body[0].commit.message, 'Initial commit\n');
  const readme = await g.api('GET', '/api/v1/repos/olly/beta/contents/README.md', { auth: olly.auth });
  assert.is(readme.status, 200);
  assert.is(Buffer.from(readme.body.content, 'base64').toString(), '# beta\n\nBeta repo\n');
  const log = git(['--git-dir', gitDirOf(g, beta.body.id), 'log', '--format=%s|%an', 'trunk']).stdout.trim();
  assert.is(log, 'Initial commit|olly');

  const gamma = await g.api('POST', '/api/v1/user/repos', { json: { name: 'gamma' }, auth: olly.auth });
  assert.is(gamma.status, 201);
  assert.is(gamma.body.empty, true);
  assert.is(gamma.body.branch_count, 0);
  assert.is(gamma.body.size, 0);
  assert.is(gamma.body.default_branch, 'main');
  assert.is(headOf(g, gamma.body.id), 'refs/heads/main');
  assert.equal((await g.api('GET', '/api/v1/repos/olly/gamma/branches', { auth: olly.auth })).body, []);

  await expectError(ctx.g, g.api('POST', '/api/v1/user/repos', { json: { name: 'badref', default_branch: 'a..b' }, auth: olly.auth }), 422, '[DefaultBranch]: GitRefName');
  await expectError(ctx.g, g.api('POST', '/api/v1/user/repos', { json: { name: 'badref', default_branch: 'x'.repeat(101) }, auth: olly.auth }), 422, '[DefaultBranch]: MaxSize');
});

test('private repositories: created private, invisible (404) to strangers and anonymous callers', async () => {
  const { g } = ctx;
  const r = await g.api('POST', '/api/v1/user/repos', { json: { name: 'secret', private: true, auto_init: true }, auth: olly.auth });
  assert.is(r.status, 201);
  assert.is(r.body.private, true);
  assert.is((await g.api('GET', '/api/v1/repos/olly/secret', { auth: olly.auth })).status, 200);
  assert.is((await g.api('GET', '/api/v1/repos/olly/secret')).status, 200, 'the site admin sees everything');
  await expectError(ctx.g, g.api('GET', '/api/v1/repos/olly/secret', { auth: stan.auth }), 404, 'not found');
  await expectError(ctx.g, g.api('GET', '/api/v1/repos/olly/secret', { auth: null }), 404, 'not found');
  await expectError(ctx.g, g.api('PATCH', '/api/v1/repos/olly/secret', { json: { description: 'x' }, auth: null }), 404, 'not found');
  await expectError(ctx.g, g.api('DELETE', '/api/v1/repos/olly/secret', { auth: stan.auth }), 404, 'not found');
  await expectError(ctx.g, g.api('GET', '/api/v1/repos/olly/secret/branches', { auth: stan.auth }), 404, 'not found');
});

test('POST /user/repos: name rules (binding 422s, reserved names and patterns, characters)', async () => {
  const { g } = ctx;
  const post = (json: unknown) => g.api('POST', '/api/v1/user/repos', { json, auth: olly.auth });
  await expectError(ctx.g, post({}), 422, '[Name]: Required');
  await expectError(ctx.g, post({ name: '' }), 422, '[Name]: Required');
  await expectError(ctx.g, post({ name: 'bad name' }), 422, '[Name]: AlphaDashDot');
  await expectError(ctx.g, post({ name: 'a/b' }), 422, '[Name]: AlphaDashDot');
  await expectError(ctx.g, post({ name: 'ünïcode' }), 422, '[Name]: AlphaDashDot');
  await expectError(ctx.g, post({ name: 'x'.repeat(101) }), 422, '[Name]: MaxSize');
  await expectError(ctx.g, post({ name: 'ok', description: 'd'.repeat(2049) }), 422, '[Description]: MaxSize');
  await expectError(ctx.g, post({ name: 'ok', trust_model: 'nobody' }), 422, '[TrustModel]: In');
  await expectError(ctx.g, post({ name: 'ok', private: 'yes' }), 422, '[]: json: cannot unmarshal string into Go struct field CreateRepoOption.private of type bool');
  await expectError(ctx.g, post({ name: '.' }), 422, 'name is reserved [name: .]');
  await expectError(ctx.g, post({ name: '-' }), 422, 'name is reserved [name: -]');
  // Gitea checks the characters first: `..` anywhere is not allowed (Gitea answers that with a 500).
  await expectError(ctx.g, post({ name: '..' }), 422, 'name is invalid [..]: must be valid alpha or numeric or dash(-_) or dot characters');
  await expectError(ctx.g, post({ name: 'a..b' }), 422, 'name is invalid [a..b]: must be valid alpha or numeric or dash(-_) or dot characters');
  for (const [name, pattern] of [['x.git', '*.git'], ['X.GIT', '*.git'], ['docs.wiki', '*.wiki'], ['feed.rss', '*.rss'], ['feed.Atom', '*.atom']]) {
    await expectError(ctx.g, post({ name }), 422, `name pattern is not allowed [pattern: ${pattern}]`);
  }
  // User-name reservations do not apply to repositories; the longest name is 100 characters.
  for (const name of ['api', 'assets', 'x'.repeat(100), 'a.b_c-d', '_x']) assert.is((await post({ name })).status, 201, name);
  await expectError(ctx.g, g.api('POST', '/api/v1/user/repos', { json: { name: 'anon' }, auth: null }), 401, 'token is required');
});

test('POST /user/repos: a taken name is 409, case-insensitively; other owners may use it', async () => {
  const { g } = ctx;
  await g.repo('dup', { owner: olly });
  await expectError(ctx.g, g.api('POST', '/api/v1/user/repos', { json: { name: 'dup' }, auth: olly.auth }), 409, 'The repository with the same name already exists.');
  await expectError(ctx.g, g.api('POST', '/api/v1/user/repos', { json: { name: 'DUP' }, auth: olly.auth }), 409, 'The repository with the same name already exists.');
  const other = await g.api('POST', '/api/v1/user/repos', { json: { name: 'dup' }, auth: stan.auth });
  assert.is(other.status, 201);
  assert.is(other.body.full_name, 'stan/dup');
});

test('concurrent creates and renames to one name: exactly one wins', async () => {
  const { g } = ctx;
  const made = await Promise.all(Array.from({ length: 8 }, () => g.api('POST', '/api/v1/user/repos', { json: { name: 'race', auto_init: true }, auth: olly.auth })));
  assert.equal(made.map((r) => r.status).sort(), [201, 409, 409, 409, 409, 409, 409, 409]);
  assert.is((await g.api('GET', '/api/v1/repos/olly/race/contents/README.md', { auth: olly.auth })).status, 200);
  await g.repo('race-a', { owner: olly });
  await g.repo('race-b', { owner: olly });
  const renamed = await Promise.all(
    ['race-a', 'race-b'].map((n) => g.api('PATCH', `/api/v1/repos/olly/${n}`, { json: { name: 'race-target', default_branch: 'main' }, auth: olly.auth })),
  );
  assert.equal(renamed.map((r) => r.status).sort(), [200, 422]);
  assert.equal(renamed.find((r) => r.status === 422)!.body, apiError(g, 'repository already exists [uname: olly, name: race-target]'));
});

test('POST /user/repos: templates we do not have are 400 (only read with auto_init); sha256 is refused', async () => {
  const { g } = ctx;
  const post = (json: unknown) => g.api('POST', '/api/v1/user/repos', { json, auth: olly.auth });
  await expectError(ctx.g, post({ name: 't1', auto_init: true, readme: 'Fancy' }), 400, 'readme template does not exist, available templates: [Default]');
  await expectError(ctx.g, post({ name: 't1', auto_init: true, gitignores: 'Go' }), 400, 'gitignore template does not exist [name: Go]');
  await expectError(ctx.g, post({ name: 't1', auto_init: true, license: 'MIT' }), 400, 'license template does not exist [name: MIT]');
  await expectError(ctx.g, post({ name: 't1', object_format_name: 'sha256' }), 400, 'object format sha256 is not supported, use sha1');
  await expectError(ctx.g, post({ name: 't1', object_format_name: 'md5' }), 422, '[ObjectFormatName]: In');
  assert.is((await g.api('GET', '/api/v1/repos/olly/t1', { auth: olly.auth })).status, 404, 'nothing was created');
  const ok = await post({ name: 't1', auto_init: true, readme: 'Default', object_format_name: 'sha1', trust_model: 'default' });
  assert.is(ok.status, 201);
  // Without auto_init Gitea ignores the template fields.
  const plain = await post({ name: 't2', gitignores: 'Go', license: 'MIT', readme: 'Fancy' });
  assert.is(plain.status, 201);
  assert.is(plain.body.empty, true);
  // `template: true` marks a template repository.
  assert.is((await post({ name: 't3', template: true })).body.template, true);
});

test('GET /repos/{owner}/{repo}: 404 for unknown ones; `permissions` follows the caller', async () => {
  const { g } = ctx;
  await withCollaborators('perm-pub');
  await withCollaborators('perm-priv', { private: true });
  await expectError(ctx.g, g.api('GET', '/api/v1/repos/olly/nothing'), 404, 'not found');
  await expectError(ctx.g, g.api('GET', '/api/v1/repos/nobody/nothing'), 404, 'not found');
  await expectError(ctx.g, g.api('GET', '/api/v1/repos/nobody/nothing', { auth: null }), 404, 'not found');
  const permOf = async (repo: string, auth: Account['auth'] | undefined) => {
    const r = await g.api('GET', `/api/v1/repos/olly/${repo}`, auth === undefined ? {} : { auth });
    return r.status === 200 ? r.body.permissions : r.status;
  };
  for (const repo of ['perm-pub', 'perm-priv']) {
    assert.equal(await permOf(repo, olly.auth), ADMIN_PERM, `${repo}: owner`);
    assert.equal(await permOf(repo, undefined), ADMIN_PERM, `${repo}: site admin`);
    assert.equal(await permOf(repo, adam.auth), ADMIN_PERM, `${repo}: admin collaborator`);
    assert.equal(await permOf(repo, will.auth), WRITE_PERM, `${repo}: write collaborator`);
    assert.equal(await permOf(repo, rita.auth), READ_PERM, `${repo}: read collaborator`);
  }
  assert.equal(await permOf('perm-pub', stan.auth), READ_PERM);
  assert.equal(await permOf('perm-pub', null), READ_PERM);
  assert.is(await permOf('perm-priv', stan.auth), 404);
  assert.is(await permOf('perm-priv', null), 404);
  // Owner names are case-insensitive, and the answer names them as stored.
  const mixed = await g.api('GET', '/api/v1/repos/OLLY/Perm-Pub', { auth: stan.auth });
  assert.is(mixed.status, 200);
  assert.is(mixed.body.full_name, 'olly/perm-pub');
});

test('PATCH: description, website, private, template; only the fields sent change', async () => {
  const { g } = ctx;
  const before = await g.repo('editable', { owner: olly });
  const r = await g.api('PATCH', '/api/v1/repos/olly/editable', { json: { description: 'new words', website: 'https://example.com', private: true, template: true }, auth: olly.auth });
  assert.is(r.status, 200);
  assert.equal(
    [r.body.description, r.body.website, r.body.private, r.body.template, r.body.name, r.body.default_branch],
    ['new words', 'https://example.com', true, true, 'editable', 'main'],
  );
  assert.ok(Date.parse(r.body.updated_at) >= Date.parse(before.updated_at));
  assert.is((await g.api('GET', '/api/v1/repos/olly/editable', { auth: stan.auth })).status, 404, 'now private');
  const r2 = await g.api('PATCH', '/api/v1/repos/olly/editable', { json: { private: false }, auth: olly.auth });
  assert.equal([r2.body.description, r2.body.website, r2.body.private, r2.body.template], ['new words', 'https://example.com', false, true]);
  // An empty body changes nothing; an empty name is ignored (OmitEmpty).
  const r3 = await g.api('PATCH', '/api/v1/repos/olly/editable', { json: { name: '' }, auth: olly.auth });
  assert.is(r3.status, 200);
  assert.is(r3.body.name, 'editable');
  const r4 = await g.api('PATCH', '/api/v1/repos/olly/editable', { json: { description: '' }, auth: olly.auth });
  assert.is(r4.body.description, '', 'an empty string clears a field');
  await expectError(ctx.g, g.api('PATCH', '/api/v1/repos/olly/editable', { json: { website: 'w'.repeat(1025) }, auth: olly.auth }), 422, '[Website]: MaxSize');
  await expectError(
    ctx.g,
    g.api('PATCH', '/api/v1/repos/olly/editable', { json: { private: 'no' }, auth: olly.auth }),
    422,
    '[]: json: cannot unmarshal string into Go struct field EditRepoOption.private of type bool',
  );
});

test('PATCH: rename (files, permissions and collaborators follow), conflicts and bad names 422', async () => {
  const { g } = ctx;
  const repo = await withCollaborators('old-name');
  await g.repo('taken', { owner: olly });
  const r = await g.api('PATCH', '/api/v1/repos/olly/old-name', { json: { name: 'new-name' }, auth: olly.auth });
  assert.is(r.status, 200);
  assert.equal([r.body.id, r.body.name, r.body.full_name, r.body.html_url, r.body.clone_url], [repo.id, 'new-name', 'olly/new-name', `${g.url}/olly/new-name`, `${g.url}/olly/new-name.git`]);
  await expectError(ctx.g, g.api('GET', '/api/v1/repos/olly/old-name', { auth: olly.auth }), 404, 'not found');
  assert.is((await g.api('GET', '/api/v1/repos/olly/new-name/contents/README.md', { auth: olly.auth })).status, 200);
  assert.equal((await g.api('GET', '/api/v1/repos/olly/new-name', { auth: will.auth })).body.permissions, WRITE_PERM);
  await expectError(ctx.g, g.api('PATCH', '/api/v1/repos/olly/new-name', { json: { name: 'taken' }, auth: olly.auth }), 422, 'repository already exists [uname: olly, name: taken]');
  await expectError(ctx.g, g.api('PATCH', '/api/v1/repos/olly/new-name', { json: { name: 'TAKEN' }, auth: olly.auth }), 422, 'repository already exists [uname: olly, name: TAKEN]');
  await expectError(ctx.g, g.api('PATCH', '/api/v1/repos/olly/new-name', { json: { name: 'x.git' }, auth: olly.auth }), 422, 'name pattern is not allowed [pattern: *.git]');
  await expectError(ctx.g, g.api('PATCH', '/api/v1/repos/olly/new-name', { json: { name: '-' }, auth: olly.auth }), 422, 'name is reserved [name: -]');
  await expectError(ctx.g, g.api('PATCH', '/api/v1/repos/olly/new-name', { json: { name: 'a b' }, auth: olly.auth }), 422, '[Name]: AlphaDashDot');
  // A change of case only is a rename too.
  const cased = await g.api('PATCH', '/api/v1/repos/olly/new-name', { json: { name: 'New-Name' }, auth: olly.auth });
  assert.is(cased.status, 200);
  assert.is(cased.body.full_name, 'olly/New-Name');
  // A write through the new name lands in the same git repository.
  await g.commit('olly', 'New-Name', { 'after.txt': 'renamed\n' });
  assert.is(git(['--git-dir', gitDirOf(g, repo.id), 'show', 'main:after.txt']).stdout, 'renamed\n');
});

test('PATCH: default_branch moves HEAD in the bare repository; a branch that does not exist is ignored (as Gitea)', async () => {
  const { g } = ctx;
  const repo = await g.repo('branchy', { owner: olly });
  await g.commit('olly', 'branchy', { 'dev.txt': 'dev\n' }, { newBranch: 'dev' });
  await g.commit('olly', 'branchy', { 'deep.txt': 'deep\n' }, { newBranch: 'feature/deep' });
  const r = await g.api('PATCH', '/api/v1/repos/olly/branchy', { json: { default_branch: 'dev' }, auth: olly.auth });
  assert.is(r.status, 200);
  assert.is(r.body.default_branch, 'dev');
  assert.is(headOf(g, repo.id), 'refs/heads/dev');
  // The default branch is what contents reads without a ref.
  assert.is((await g.api('GET', '/api/v1/repos/olly/branchy/contents/dev.txt', { auth: olly.auth })).status, 200);
  const ignored = await g.api('PATCH', '/api/v1/repos/olly/branchy', { json: { default_branch: 'no-such-branch', description: 'still applied' }, auth: olly.auth });
  assert.is(ignored.status, 200);
  assert.is(ignored.body.default_branch, 'dev');
  assert.is(ignored.body.description, 'still applied');
  assert.is(headOf(g, repo.id), 'refs/heads/dev');
  const deep = await g.api('PATCH', '/api/v1/repos/olly/branchy', { json: { default_branch: 'feature/deep' }, auth: olly.auth });
  assert.is(deep.body.default_branch, 'feature/deep');
  assert.is(headOf(g, repo.id), 'refs/heads/feature/deep');
  // An empty repository takes any name.
  const empty = await g.repo('empty-default', { owner: olly, autoInit: false });
  const e = await g.api('PATCH', '/api/v1/repos/olly/empty-default', { json: { default_branch: 'develop' }, auth: olly.auth });
  assert.is(e.body.default_branch, 'develop');
  assert.is(headOf(g, empty.id), 'refs/heads/develop');
  const bad = await g.api('PATCH', '/api/v1/repos/olly/empty-default', { json: { default_branch: 'a..b' }, auth: olly.auth });
  assert.equal([bad.status, bad.body.default_branch], [200, 'develop'], 'a name git cannot hold is ignored');
});

test('PATCH: archive and unarchive; archived_at; an archived repository refuses writes', async () => {
  const { g } = ctx;
  await g.repo('archivable', { owner: olly });
  const t0 = Math.floor(Date.now() / 1000);
  const a = await g.api('PATCH', '/api/v1/repos/olly/archivable', { json: { archived: true }, auth: olly.auth });
  assert.is(a.status, 200);
  assert.is(a.body.archived, true);
  assert.ok(Date.parse(a.body.archived_at) / 1000 >= t0 - 1, a.body.archived_at);
  assert.is(a.body.permissions.push, true, 'permissions are the caller\'s, not the archive state');
  const write = await g.api('POST', '/api/v1/repos/olly/archivable/contents/new.txt', { json: { content: 'eA==' }, auth: olly.auth });
  assert.is(write.status, 403);
  // Archived repositories can still be edited (to unarchive them) and read.
  const again = await g.api('PATCH', '/api/v1/repos/olly/archivable', { json: { archived: true, description: 'frozen' }, auth: olly.auth });
  assert.equal([again.body.archived, again.body.archived_at, again.body.description], [true, a.body.archived_at, 'frozen']);
  assert.is((await g.api('GET', '/api/v1/repos/olly/archivable', { auth: stan.auth })).body.archived, true);
  const u = await g.api('PATCH', '/api/v1/repos/olly/archivable', { json: { archived: false }, auth: olly.auth });
  assert.is(u.body.archived, false);
  assert.is(u.body.archived_at, EPOCH);
  assert.is((await g.api('POST', '/api/v1/repos/olly/archivable/contents/new.txt', { json: { content: 'eA==' }, auth: olly.auth })).status, 201);
});

test('PATCH: only owners, site admins and admin collaborators (403), signed in (401)', async () => {
  const { g } = ctx;
  await withCollaborators('guarded');
  const patch = (auth: Account['auth']) => g.api('PATCH', '/api/v1/repos/olly/guarded', { json: { description: 'by someone' }, auth });
  const NOT_ADMIN = 'user should be an owner or a collaborator with admin write of a repository';
  await expectError(ctx.g, patch(will.auth), 403, NOT_ADMIN);
  await expectError(ctx.g, patch(rita.auth), 403, NOT_ADMIN);
  await expectError(ctx.g, patch(stan.auth), 403, NOT_ADMIN);
  await expectError(ctx.g, patch(null), 401, 'token is required');
  // Guards run before the body is bound.
  await expectError(ctx.g, g.api('PATCH', '/api/v1/repos/olly/guarded', { json: { private: 'x' }, auth: will.auth }), 403, NOT_ADMIN);
  assert.is((await patch(adam.auth)).status, 200);
  assert.is((await patch(olly.auth)).status, 200);
  assert.is((await patch(undefined as never)).status, 200, 'site admin');
});

test('DELETE: owner (or site admin) only; the git directory is removed; then 404', async () => {
  const { g } = ctx;
  const repo = await withCollaborators('doomed');
  const del = (auth: Account['auth']) => g.api('DELETE', '/api/v1/repos/olly/doomed', { auth });
  await expectError(ctx.g, del(adam.auth), 403, 'user should be the owner of the repo');
  await expectError(ctx.g, del(will.auth), 403, 'user should be the owner of the repo');
  await expectError(ctx.g, del(stan.auth), 403, 'user should be the owner of the repo');
  await expectError(ctx.g, del(null), 401, 'token is required');
  assert.ok(existsSync(gitDirOf(g, repo.id)));
  const r = await del(olly.auth);
  assert.is(r.status, 204);
  assert.is(r.text, '');
  assert.not.ok(existsSync(gitDirOf(g, repo.id)), 'the bare repository is gone');
  await expectError(ctx.g, g.api('GET', '/api/v1/repos/olly/doomed', { auth: olly.auth }), 404, 'not found');
  await expectError(ctx.g, del(olly.auth), 404, 'not found');
  const rows = g.t.server.db.prepare('SELECT count(*) AS n FROM collaborators WHERE repo_id = ?').get(repo.id) as { n: number };
  assert.is(rows.n, 0, 'its collaborators went with it');
  // The name is free again, for a new, empty repository.
  const fresh = await g.api('POST', '/api/v1/user/repos', { json: { name: 'doomed' }, auth: olly.auth });
  assert.is(fresh.status, 201);
  assert.is(fresh.body.empty, true);
  assert.is.not(fresh.body.id, repo.id);
  // A site admin may delete anyone's repository.
  assert.is((await g.api('DELETE', '/api/v1/repos/olly/doomed')).status, 204);
});

test('routing: trailing slashes and `//` are collapsed (gitea-js style base URLs); HEAD answers as GET; unknown routes 404', async () => {
  const { g } = ctx;
  await g.repo('routed', { owner: olly });
  for (const path of ['/api/v1/repos/olly/routed/', '//api/v1/repos/olly/routed', '/api/v1//repos//olly/routed//', '/api/v1/repos/olly/routed///']) {
    const r = await g.api('GET', path, { auth: olly.auth });
    assert.is(r.status, 200, path);
    assert.is(r.body.full_name, 'olly/routed', path);
  }
  const head = await g.api('HEAD', '/api/v1/repos/olly/routed', { auth: olly.auth });
  assert.is(head.status, 200);
  assert.is(head.text, '');
  assert.is(head.headers.get('content-type'), 'application/json;charset=utf-8');
  assert.is((await g.api('HEAD', '/api/v1/repos/olly/nope', { auth: olly.auth })).status, 404);
  for (const [method, path] of [['GET', '/api/v1/nope'], ['POST', '/api/v1/repos/olly/routed/nope/deeper'], ['GET', '/api/v1'], ['DELETE', '/api/v1/user/repos/x']]) {
    const r = await g.api(method!, path!, { auth: olly.auth });
    assert.is(r.status, 404, `${method} ${path}`);
    assert.equal(r.body, apiError(g, 'not found'));
  }
  assert.is((await g.api('GET', '/api/v1/nope', { auth: null })).status, 404);
});

test.run();
