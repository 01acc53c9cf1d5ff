import { giteaApi } from 'gitea-js';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { apiError } from '../_helpers/api-error.js';
import { cloneUrl, commitFiles, git, gitAsync, useGitea, type Account } from '../_helpers/gitea.js';
import { useCast } from './_orgs.js';
import { requireTool } from '../_helpers/skip.js';
import { tempDir } from '../_helpers/temp-dir.js';

// Organisations as real clients use them: gitea-js creates the organisation, adds a second owner
// and publishes a repository into it; that owner pushes with git over HTTP while an outsider's
// push is refused.
const test = suite('gitea: organisations through gitea-js and git');
const ctx = useGitea(test);

const cast = useCast(test, ctx);


/** gitea-js as an integrator sets it up, acting as `who`. */
const client = (who: Account) => giteaApi(`${ctx.g.url}/`, { token: who.token });

/** What gitea-js throws for a non-2xx answer: the Response, with the parsed body in `.error`. */
async function rejection(p: Promise<unknown>): Promise<{ status: number; error: unknown }> {
  try {
    await p;
  } catch (err) {
    assert.is(Object.prototype.toString.call(err), '[object Response]', String(err));
    return err as { status: number; error: unknown };
  }
  throw new Error('expected the call to throw');
}

test('gitea-js: orgCreate, orgGet, orgListTeams, orgAddTeamMember, orgIsMember, createOrgRepo, orgListRepos, orgListCurrentUserOrgs', async () => {
  const api = client(cast.olga);
  const made = await api.orgs.orgCreate({ username: 'makers', full_name: 'The Makers', visibility: 'public' });
  assert.is(made.status, 201);
  assert.is(made.data.name, 'makers');
  assert.is(made.data.username, 'makers');
  const got = await api.orgs.orgGet('makers');
  assert.equal(got.data, made.data);
  const teams = await api.orgs.orgListTeams('makers');
  assert.equal(teams.data.map((t) => [t.name, t.permission]), [['Owners', 'owner']]);
  const added = await api.teams.orgAddTeamMember(teams.data[0]!.id!, 'pete');
  assert.is(added.status, 204);
  assert.is((await api.orgs.orgIsMember('makers', 'pete')).status, 204);
  const repo = await client(cast.pete).orgs.createOrgRepo('makers', { name: 'tools', auto_init: true, private: true });
  assert.is(repo.status, 201);
  assert.is(repo.data.owner!.login, 'makers');
  assert.is(repo.data.private, true);
  const listed = await api.orgs.orgListRepos('makers');
  assert.equal(listed.data.map((r) => r.full_name), ['makers/tools']);
  const mine = await client(cast.pete).user.orgListCurrentUserOrgs();
  assert.equal(mine.data.map((o) => o.name), ['makers']);
  const refused = await rejection(client(cast.sam).orgs.createOrgRepo('makers', { name: 'nope' }));
  assert.is(refused.status, 403);
  assert.equal(refused.error, apiError(ctx.g, 'Given user is not allowed to create repository in organization.'));
});

test('git over HTTP: the second owner pushes to the organisation\'s private repository; an outsider cannot read it, nor push to a public one', async (context) => {
  if (!requireTool(context.__test__, 'git', 'git', ['--version'])) return;
  const { g } = ctx;
  const work = tempDir('orgs-git');
  const dir = join(work, 'pete');
  await gitAsync(['clone', '-q', cloneUrl(g, 'makers', 'tools', { name: 'pete', token: cast.pete.token }), dir]);
  const sha = commitFiles(dir, { 'tool.txt': 'hammer\n' }, 'Add a tool');
  await gitAsync(['push', '-q', 'origin', 'HEAD:main'], { cwd: dir });
  const branch = await g.api('GET', '/api/v1/repos/makers/tools/branches/main', { auth: cast.olga.auth });
  assert.is(branch.body.commit.id, sha);

  // The outsider: the private repository does not exist for it.
  const clone = await gitAsync(['clone', '-q', cloneUrl(g, 'makers', 'tools', { name: 'sam', token: cast.sam.token }), join(work, 'sam')], { allowFail: true });
  assert.is.not(clone.status, 0);
  assert.match(clone.stderr, /Repository not found|not found/);

  // A public repository of the organisation: the outsider clones it but its push is refused.
  assert.is((await g.api('PATCH', '/api/v1/repos/makers/tools', { json: { private: false }, auth: cast.pete.auth })).status, 200);
  const samDir = join(work, 'sam-public');
  await gitAsync(['clone', '-q', cloneUrl(g, 'makers', 'tools', { name: 'sam', token: cast.sam.token }), samDir]);
  commitFiles(samDir, { 'intruder.txt': 'no\n' });
  const push = await gitAsync(['push', 'origin', 'HEAD:main'], { cwd: samDir, allowFail: true });
  assert.is.not(push.status, 0, push.stderr);
  assert.match(push.stderr, /403|permission denied/i);
  assert.is((await g.api('GET', '/api/v1/repos/makers/tools/branches/main', { auth: cast.olga.auth })).body.commit.id, sha, 'the branch did not move');
  assert.is(git(['rev-parse', 'HEAD'], { cwd: dir }).stdout.trim(), sha);
});

test.run();
