import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { GO_TIME } from '../../protocol/gitea/schema.js';
import { openEventLog, type EventLog, type JsonEvent } from '../_helpers/events.js';
import { cloneUrl, git, gitAsync, gitDirOf, useGitea, type Account, type GiteaWorld } from '../_helpers/gitea.js';
import { tempDirs } from '../_helpers/temp-dir.js';

// `tag` events on /api/v1/events: a tag made or removed through the tags API, made by a release,
// pushed or deleted by git, fetched or pruned by a pull mirror, each announced once with the
// tagged commit (all zeros when gone), only to readers of the repository. Tags made by releases
// also reach push mirrors that sync on commit.
const test = suite('gitea: tag events');
const ctx = useGitea(test, { MIRROR_ALLOW_LOCAL_NETWORKS: 'true' });
const freshDir = tempDirs(test, 'tag-events');
const ZERO = '0'.repeat(40);

let g: GiteaWorld;
let alice: Account;
let dave: Account; // a stranger
let pubId = 0;
let privId = 0;
let head = '';

const connect = (query: string, a: Account) => openEventLog<JsonEvent>(`${g.url.replace('http', 'ws')}/api/v1/events${query}`, { headers: { authorization: `token ${a.token}` } });
/** The tag events seen, as [repository, tag, sha]. */
const tagsOf = (log: EventLog<JsonEvent>) => log.events.filter((e) => e.type === 'tag').map((e) => [e.repository.full_name, e.tag, e.sha]);
/** A tag event to wait for. */
const tagEvent = (repo: string, tag: string, sha: string) => (e: JsonEvent) => e.type === 'tag' && e.repository.full_name === repo && e.tag === tag && e.sha === sha;

test.before(async () => {
  g = ctx.g;
  [alice, dave] = [await g.user('alice'), await g.user('dave')];
  pubId = (await g.repo('pub', { owner: alice })).id;
  privId = (await g.repo('priv', { owner: alice, private: true })).id;
  head = (await g.api('GET', '/api/v1/repos/alice/pub/branches/main', { auth: alice.auth })).body.commit.id;
});

test('the tags API and releases: made, made by a release, removed; exact shape, readers only', async () => {
  const mine = await connect('', alice);
  const theirs = await connect('', dave);
  try {
    const privHead = (await g.api('GET', '/api/v1/repos/alice/priv/branches/main', { auth: alice.auth })).body.commit.id;
    assert.is((await g.api('POST', '/api/v1/repos/alice/priv/tags', { json: { tag_name: 'secret' }, auth: alice.auth })).status, 201);
    assert.is((await g.api('POST', '/api/v1/repos/alice/pub/tags', { json: { tag_name: 'v1', message: 'annotated' }, auth: alice.auth })).status, 201);
    assert.is((await g.api('POST', '/api/v1/repos/alice/pub/releases', { json: { tag_name: 'v2' }, auth: alice.auth })).status, 201);
    // A draft makes no tag, and a release for an existing tag makes none either.
    assert.is((await g.api('POST', '/api/v1/repos/alice/pub/releases', { json: { tag_name: 'v3', draft: true }, auth: alice.auth })).status, 201);
    assert.is((await g.api('POST', '/api/v1/repos/alice/pub/releases', { json: { tag_name: 'v1' }, auth: alice.auth })).status, 201);
    assert.is((await g.api('DELETE', '/api/v1/repos/alice/pub/releases/tags/v1', { auth: alice.auth })).status, 204);
    assert.is((await g.api('DELETE', '/api/v1/repos/alice/pub/tags/v1', { auth: alice.auth })).status, 204);
    await mine.waitFor(tagEvent('alice/pub', 'v1', ZERO));
    const secret = mine.events.find((e) => e.type === 'tag' && e.tag === 'secret')!;
    assert.match(secret.timestamp, GO_TIME);
    assert.equal(secret, { type: 'tag', timestamp: secret.timestamp, repository: { id: privId, full_name: 'alice/priv', private: true }, tag: 'secret', sha: privHead });
    assert.equal(tagsOf(mine), [
      ['alice/priv', 'secret', privHead],
      ['alice/pub', 'v1', head],
      ['alice/pub', 'v2', head],
      ['alice/pub', 'v1', ZERO],
    ]);
    await theirs.waitFor(tagEvent('alice/pub', 'v1', ZERO));
    assert.equal(tagsOf(theirs), [
      ['alice/pub', 'v1', head],
      ['alice/pub', 'v2', head],
      ['alice/pub', 'v1', ZERO],
    ]);
    assert.equal(theirs.events.filter((e) => e.repository.id !== pubId), []);
  } finally {
    await mine.close();
    await theirs.close();
  }
});

test('git push: tags made (annotated ones peeled to their commit), moved and deleted, each once', async () => {
  const s = await connect('?repo=alice/pub', alice);
  try {
    const work = freshDir();
    await gitAsync(['clone', '-q', cloneUrl(g, 'alice', 'pub', alice), work]);
    git(['tag', '-a', '-m', 'pushed', 'p1'], { cwd: work });
    git(['tag', 'p2', 'HEAD'], { cwd: work });
    await gitAsync(['push', '-q', 'origin', 'p1', 'p2'], { cwd: work });
    git(['commit', '-q', '--allow-empty', '-m', 'next'], { cwd: work });
    const next = git(['rev-parse', 'HEAD'], { cwd: work }).stdout.trim();
    git(['tag', '-f', 'p2', next], { cwd: work });
    await gitAsync(['push', '-q', '-f', 'origin', 'p2', ':refs/tags/p1'], { cwd: work });
    await s.waitFor(tagEvent('alice/pub', 'p1', ZERO));
    const tags = tagsOf(s);
    // One push announces its refs in the order git sent them; compare the two pushes as sets.
    assert.equal(tags.slice(0, 2).sort(), [['alice/pub', 'p1', head], ['alice/pub', 'p2', head]]);
    assert.equal(tags.slice(2).sort(), [['alice/pub', 'p1', ZERO], ['alice/pub', 'p2', next]]);
    assert.is(tags.length, 4);
    // The branch itself did not move: no commit event came.
    assert.equal(s.events.filter((e) => e.type === 'commit'), []);
  } finally {
    await s.close();
  }
});

test('a pull mirror\'s fetch announces tags it brought and tags it pruned', async () => {
  await g.repo('up', { owner: alice });
  const made = await g.api('POST', '/api/v1/repos/migrate', { json: { clone_addr: `${g.url}/alice/up.git`, auth_username: 'alice', auth_password: alice.token, repo_name: 'down', mirror: true }, auth: alice.auth });
  assert.is(made.status, 201, made.text);
  const s = await connect('?repo=alice/down', alice);
  try {
    const upHead = (await g.api('GET', '/api/v1/repos/alice/up/branches/main', { auth: alice.auth })).body.commit.id;
    const sync = async () => {
      assert.is((await g.api('POST', '/api/v1/repos/alice/down/mirror-sync', { auth: alice.auth })).status, 200);
      await g.t.server.gitea.mirrorQueue.idle();
    };
    assert.is((await g.api('POST', '/api/v1/repos/alice/up/tags', { json: { tag_name: 'm1' }, auth: alice.auth })).status, 201);
    await sync();
    assert.is((await g.api('DELETE', '/api/v1/repos/alice/up/tags/m1', { auth: alice.auth })).status, 204);
    await sync();
    await s.waitFor(tagEvent('alice/down', 'm1', ZERO));
    assert.equal(tagsOf(s), [
      ['alice/down', 'm1', upHead],
      ['alice/down', 'm1', ZERO],
    ]);
  } finally {
    await s.close();
  }
});

test('a tag made by a release reaches a push mirror that syncs on commit', async () => {
  await g.repo('copy', { owner: alice, autoInit: false });
  const add = await g.api('POST', '/api/v1/repos/alice/pub/push_mirrors', {
    json: { remote_address: `${g.url}/alice/copy.git`, remote_username: 'alice', remote_password: alice.token, interval: '0', sync_on_commit: true },
    auth: alice.auth,
  });
  assert.is(add.status, 200, add.text);
  const r = await g.api('POST', '/api/v1/repos/alice/pub/releases', { json: { tag_name: 'mirrored', target_commitish: 'main' }, auth: alice.auth });
  assert.is(r.status, 201, r.text);
  await g.t.server.gitea.mirrorQueue.idle();
  const copyId = (await g.api('GET', '/api/v1/repos/alice/copy', { auth: alice.auth })).body.id;
  assert.is(git(['--git-dir', gitDirOf(g, copyId), 'rev-parse', 'refs/tags/mirrored']).stdout.trim(), head);
});

test.run();
