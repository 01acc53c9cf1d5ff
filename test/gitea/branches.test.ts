import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { RULE_CHECK_STEPS } from '../../server/gitea/services/protections.js';
import { expectError } from '../_helpers/api-error.js';
import { addCollaborator, git, gitDirOf, useGitea, type Account } from '../_helpers/gitea.js';
import { A40, HOSTILE_GLOB, hostileWithPing } from '../_helpers/hostile.js';

// Branches (read): the list, one branch, the commit payload, and what the caller may do on each.
const test = suite('gitea: branches');
const ctx = useGitea(test);

const BRANCH_KEYS = ['name', 'commit', 'protected', 'required_approvals', 'enable_status_check', 'status_check_contexts', 'user_can_push', 'user_can_merge', 'effective_branch_protection_name'];
const COMMIT_KEYS = ['id', 'message', 'url', 'author', 'committer', 'verification', 'timestamp', 'added', 'removed', 'modified'];
const UNSIGNED = { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' };

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

async function repoWithCollaborators(name: string, opts: { private?: boolean } = {}) {
  const { g } = ctx;
  const repo = await g.repo(name, { owner: olly, ...opts });
  for (const [who, permission] of [[rita, 'read'], [will, 'write'], [adam, 'admin']] as const) await addCollaborator(g, olly, name, who, permission);
  return repo;
}

/** A commit on a new branch with fixed dates (RFC 3339, with the zone they are to be stored in). */
async function branchAt(repo: string, branch: string, from: string, author: string, committer = author, auth: Account['auth'] = olly.auth) {
  const r = await ctx.g.api('POST', `/api/v1/repos/olly/${repo}/contents`, {
    json: { files: [{ operation: 'create', path: `${branch.replace(/\//g, '_')}.txt`, content: Buffer.from(branch).toString('base64') }], branch: from, new_branch: branch, dates: { author, committer } },
    auth,
  });
  assert.is(r.status, 201, r.text);
  return r.body.commit.sha as string;
}

test('GET /branches: Branch objects with the head commit as a PayloadCommit', async () => {
  const { g } = ctx;
  const repo = await repoWithCollaborators('br');
  const dir = gitDirOf(g, repo.id);
  const r = await g.api('GET', '/api/v1/repos/olly/br/branches', { auth: olly.auth });
  assert.is(r.status, 200);
  assert.is(r.body.length, 1);
  const [main] = r.body;
  assert.equal(Object.keys(main), BRANCH_KEYS);
  assert.equal(Object.keys(main.commit), COMMIT_KEYS);
  const [sha, an, ae, cn, ce, at] = git(['--git-dir', dir, 'log', '-1', '--format=%H%n%an%n%ae%n%cn%n%ce%n%aI', 'main']).stdout.trim().split('\n');
  assert.equal(main, {
    name: 'main',
    commit: {
      id: sha,
      message: 'Initial commit\n',
      url: `${g.url}/olly/br/commit/${sha}`,
      author: { name: an, email: ae, username: 'olly' },
      committer: { name: cn, email: ce, username: 'olly' },
      verification: UNSIGNED,
      timestamp: at!.replace(/\+00:00$/, 'Z'),
      added: null,
      removed: null,
      modified: null,
    },
    protected: false,
    required_approvals: 0,
    enable_status_check: false,
    status_check_contexts: [],
    user_can_push: true,
    user_can_merge: true,
    effective_branch_protection_name: '',
  });
  assert.is(ae, 'olly@example.com');
});

test('PayloadCommit: the author\'s time and zone; user names only for emails of accounts', async () => {
  const { g } = ctx;
  await g.repo('stamps', { owner: olly });
  const sha = await branchAt('stamps', 'dated', 'main', '2020-01-02T03:04:05+02:00', '2021-06-07T08:09:10-05:30');
  const r = await g.api('GET', '/api/v1/repos/olly/stamps/branches/dated', { auth: olly.auth });
  assert.is(r.status, 200);
  assert.is(r.body.commit.id, sha);
  assert.is(r.body.commit.timestamp, '2020-01-02T03:04:05+02:00');
  // A commit by someone with no account here has no user name.
  const other = await g.api('POST', '/api/v1/repos/olly/stamps/contents/x.txt', {
    json: { content: 'eA==', branch: 'dated', author: { name: 'Outsider', email: 'out@nowhere.test' }, committer: { name: 'Will', email: 'will@example.com' } },
    auth: olly.auth,
  });
  assert.is(other.status, 201, other.text);
  const b = await g.api('GET', '/api/v1/repos/olly/stamps/branches/dated', { auth: olly.auth });
  assert.equal(b.body.commit.author, { name: 'Outsider', email: 'out@nowhere.test', username: '' });
  assert.equal(b.body.commit.committer, { name: 'Will', email: 'will@example.com', username: 'will' });
});

test('GET /branches: newest head commit first, then by name; paged with X-Total-Count and Link', async () => {
  const { g } = ctx;
  await g.repo('many', { owner: olly });
  await branchAt('many', 'old', 'main', '2010-01-01T00:00:00Z');
  await branchAt('many', 'zeta', 'main', '2019-05-05T00:00:00Z');
  await branchAt('many', 'alpha', 'main', '2019-05-05T00:00:00Z');
  await branchAt('many', 'feature/x', 'main', '2015-01-01T00:00:00Z');
  // The committer's time orders them, not the author's.
  await branchAt('many', 'late-commit', 'main', '2000-01-01T00:00:00Z', '2018-01-01T00:00:00Z');
  const all = await g.api('GET', '/api/v1/repos/olly/many/branches', { auth: olly.auth });
  assert.equal(all.body.map((b: any) => b.name), ['main', 'alpha', 'zeta', 'late-commit', 'feature/x', 'old']);
  assert.is(all.headers.get('x-total-count'), '6');
  assert.is(all.headers.get('link'), null);
  const base = `${g.url}/api/v1/repos/olly/many/branches`;
  const p2 = await g.api('GET', '/api/v1/repos/olly/many/branches?limit=2&page=2', { auth: olly.auth });
  assert.equal(p2.body.map((b: any) => b.name), ['zeta', 'late-commit']);
  assert.is(p2.headers.get('x-total-count'), '6');
  assert.is(
    p2.headers.get('link'),
    `<${base}?limit=2&page=3>; rel="next",<${base}?limit=2&page=3>; rel="last",<${base}?limit=2&page=1>; rel="first",<${base}?limit=2&page=1>; rel="prev"`,
  );
  assert.is(p2.headers.get('access-control-expose-headers'), 'Link, X-Total-Count');
  const p3 = await g.api('GET', '/api/v1/repos/olly/many/branches?limit=2&page=3', { auth: olly.auth });
  assert.equal(p3.body.map((b: any) => b.name), ['feature/x', 'old']);
});

test('GET /branches/{branch}: names with slashes; 404 for an unknown branch; reader guard', async () => {
  const { g } = ctx;
  await g.repo('slashy', { owner: olly, private: true });
  const sha = await branchAt('slashy', 'feature/deep/x', 'main', '2022-02-02T02:02:02Z');
  const r = await g.api('GET', '/api/v1/repos/olly/slashy/branches/feature/deep/x', { auth: olly.auth });
  assert.is(r.status, 200);
  assert.is(r.body.name, 'feature/deep/x');
  assert.is(r.body.commit.id, sha);
  assert.is((await g.api('GET', '/api/v1/repos/olly/slashy/branches/feature/deep/x/', { auth: olly.auth })).body.name, 'feature/deep/x');
  await expectError(ctx.g, g.api('GET', '/api/v1/repos/olly/slashy/branches/feature/deep', { auth: olly.auth }), 404, 'not found');
  await expectError(ctx.g, g.api('GET', '/api/v1/repos/olly/slashy/branches/nope', { auth: olly.auth }), 404, 'not found');
  await expectError(ctx.g, g.api('GET', '/api/v1/repos/olly/slashy/branches/Main', { auth: olly.auth }), 404, 'not found');
  await expectError(ctx.g, g.api('GET', '/api/v1/repos/olly/slashy/branches/main', { auth: stan.auth }), 404, 'not found');
  await expectError(ctx.g, g.api('GET', '/api/v1/repos/olly/slashy/branches', { auth: null }), 404, 'not found');
  const scoped = await g.token(olly, ['read:user']);
  await expectError(
    ctx.g,
    g.api('GET', '/api/v1/repos/olly/slashy/branches', { auth: { token: scoped } }),
    403,
    'token does not have at least one of required scope(s), required=[read:repository], token scope=read:user',
  );
  // An empty repository has no branches (and none to get).
  await g.repo('void', { owner: olly, autoInit: false });
  const empty = await g.api('GET', '/api/v1/repos/olly/void/branches', { auth: olly.auth });
  assert.equal([empty.status, empty.body, empty.headers.get('x-total-count')], [200, [], '0']);
  await expectError(ctx.g, g.api('GET', '/api/v1/repos/olly/void/branches/main', { auth: olly.auth }), 404, 'not found');
});

test('user_can_push / user_can_merge / effective_branch_protection_name follow the caller and the rule', async () => {
  const { g } = ctx;
  await repoWithCollaborators('who');
  await branchAt('who', 'free', 'main', '2022-01-01T00:00:00Z');
  await branchAt('who', 'listed', 'main', '2022-01-01T00:00:00Z');
  const rule = (json: unknown) => g.api('POST', '/api/v1/repos/olly/who/branch_protections', { json, auth: olly.auth });
  assert.is((await rule({ rule_name: 'main', required_approvals: 2, enable_status_check: true, status_check_contexts: ['ci/build'] })).status, 201);
  assert.is((await rule({ rule_name: 'list*', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: ['will'], enable_merge_whitelist: true, merge_whitelist_usernames: ['rita'] })).status, 201);
  const view = async (branch: string, auth: Account['auth'] | undefined) => {
    const r = await g.api('GET', `/api/v1/repos/olly/who/branches/${branch}`, auth === undefined ? {} : { auth });
    assert.is(r.status, 200);
    return [r.body.protected, r.body.user_can_push, r.body.user_can_merge, r.body.effective_branch_protection_name];
  };
  // Unprotected: writers push and merge.
  assert.equal(await view('free', olly.auth), [false, true, true, '']);
  assert.equal(await view('free', will.auth), [false, true, true, '']);
  assert.equal(await view('free', rita.auth), [false, false, false, '']);
  assert.equal(await view('free', stan.auth), [false, false, false, '']);
  assert.equal(await view('free', null), [false, false, false, '']);
  // `main`: nobody pushes (admins included); writers may merge; only repo admins see the rule name.
  assert.equal(await view('main', olly.auth), [true, false, true, 'main']);
  assert.equal(await view('main', undefined), [true, false, true, 'main']);
  assert.equal(await view('main', adam.auth), [true, false, true, 'main']);
  assert.equal(await view('main', will.auth), [true, false, true, '']);
  assert.equal(await view('main', rita.auth), [true, false, false, '']);
  assert.equal(await view('main', null), [true, false, false, '']);
  const main = await g.api('GET', '/api/v1/repos/olly/who/branches/main', { auth: will.auth });
  assert.equal([main.body.required_approvals, main.body.enable_status_check, main.body.status_check_contexts], [2, true, ['ci/build']]);
  // `listed` (glob list*): the push allow-list alone decides pushing; the merge allow-list merging.
  assert.equal(await view('listed', will.auth), [true, true, false, '']);
  assert.equal(await view('listed', olly.auth), [true, false, false, 'list*']);
  assert.equal(await view('listed', adam.auth), [true, false, false, 'list*']);
  assert.equal(await view('listed', rita.auth), [true, false, true, '']);
  // In the list too.
  const list = await g.api('GET', '/api/v1/repos/olly/who/branches', { auth: will.auth });
  assert.equal(
    Object.fromEntries(list.body.map((b: any) => [b.name, [b.protected, b.user_can_push]])),
    { main: [true, false], free: [false, true], listed: [true, true] },
  );
  // An archived repository takes no push.
  assert.is((await g.api('PATCH', '/api/v1/repos/olly/who', { json: { archived: true }, auth: olly.auth })).status, 200);
  assert.equal(await view('free', olly.auth), [false, false, false, '']);
});

test('a rule named with a hostile glob: GET /branches answers correctly in bounded work while a ping is served', async () => {
  // Every listing of the repository took 5.8 s (the rule's glob backtracked on each branch name).
  const { g } = ctx;
  await g.repo('hostile', { owner: olly });
  await branchAt('hostile', A40, 'main', '2020-01-01T00:00:00Z');
  await branchAt('hostile', `${A40}b`, 'main', '2020-01-01T00:00:00Z');
  assert.is((await g.api('POST', '/api/v1/repos/olly/hostile/branch_protections', { json: { rule_name: HOSTILE_GLOB }, auth: olly.auth })).status, 201);
  const { reply, steps } = await hostileWithPing(g, () => g.api('GET', '/api/v1/repos/olly/hostile/branches', { auth: olly.auth }));
  assert.is(reply.status, 200, reply.text);
  const seen = Object.fromEntries(reply.body.map((b: any) => [b.name, [b.protected, b.effective_branch_protection_name]]));
  assert.equal(seen, { main: [false, ''], [A40]: [false, ''], [`${A40}b`]: [true, HOSTILE_GLOB] });
  assert.ok(steps <= 3 * RULE_CHECK_STEPS, `${steps} steps`); // three branches, each within its budget
  const one = await hostileWithPing(g, () => g.api('GET', `/api/v1/repos/olly/hostile/branches/${A40}`, { auth: olly.auth }));
  assert.equal([one.reply.status, one.reply.body.protected], [200, false]);
});

test.run();
