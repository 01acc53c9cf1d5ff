import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type Account, git, gitDirOf, useGitea } from '../_helpers/gitea.js';

// Branches and tags made or removed through the API reach a push mirror that syncs on commit,
// as API commits do: the change queues the mirror, and the mirror's repository ends up equal.
const test = suite('gitea: branch and tag writes reach sync_on_commit push mirrors');
const ctx = useGitea(test, { MIRROR_ALLOW_LOCAL_NETWORKS: 'true' });

let bob: Account;
let dst = '';
const refsOf = (dir: string) => git(['--git-dir', dir, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/', 'refs/tags/']).stdout;

test.before(async () => {
  const g = ctx.g;
  bob = await g.user('bob');
  await g.repo('src');
  dst = gitDirOf(g, (await g.repo('dst', { owner: bob, autoInit: false })).id);
  const add = await g.api('POST', '/api/v1/repos/root/src/push_mirrors', {
    json: { remote_address: `${g.url}/bob/dst.git`, remote_username: 'bob', remote_password: bob.token, interval: '0', sync_on_commit: true },
  });
  assert.is(add.status, 200, add.text);
});

test('create a branch and a tag, then delete both: after each the mirror holds the same refs', async () => {
  const g = ctx.g;
  const src = gitDirOf(g, (await g.api('GET', '/api/v1/repos/root/src')).body.id);
  const steps: [string, string, unknown?][] = [
    ['POST', '/api/v1/repos/root/src/branches', { new_branch_name: 'topic' }],
    ['POST', '/api/v1/repos/root/src/tags', { tag_name: 'v1', message: 'first release' }],
    ['DELETE', '/api/v1/repos/root/src/branches/topic'],
    ['DELETE', '/api/v1/repos/root/src/tags/v1'],
  ];
  const seen: string[] = [];
  for (const [method, path, json] of steps) {
    const r = await g.api(method, path, json ? { json } : {});
    assert.ok(r.status === 201 || r.status === 204, `${method} ${path}: ${r.status} ${r.text}`);
    await g.t.server.gitea.mirrorQueue.idle();
    assert.is(refsOf(dst), refsOf(src), `after ${method} ${path}`);
    seen.push(refsOf(dst).split('\n').filter(Boolean).map((l) => l.split(' ')[0]).join(','));
  }
  assert.equal(seen, ['refs/heads/main,refs/heads/topic', 'refs/heads/main,refs/heads/topic,refs/tags/v1', 'refs/heads/main,refs/tags/v1', 'refs/heads/main']);
});

test.run();
