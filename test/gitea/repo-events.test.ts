import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { GO_TIME } from '../../protocol/gitea/schema.js';
import { openEventLog } from '../_helpers/events.js';
import { useGitea, type Account, type GiteaWorld } from '../_helpers/gitea.js';
import { refusedUpgrade } from '../_helpers/refused-upgrade.js';

// The repository event stream, /api/v1/events: commit and mirror sync events, only for
// repositories the caller can read, with the API's credentials and Gitea's error bodies.
const test = suite('gitea: repository events');
const ctx = useGitea(test, { MIRROR_ALLOW_LOCAL_NETWORKS: 'true' });

let g: GiteaWorld;
let alice: Account;
let dave: Account; // a stranger
let pubId = 0;
let privId = 0;

/** The repository event stream as `headers` see it (`query` names repositories or carries a token). */
const eventsUrl = (query: string) => `${g.url.replace('http', 'ws')}/api/v1/events${query}`;
const connect = (query: string, headers: Record<string, string>) => openEventLog<any>(eventsUrl(query), { headers });

const tokenHeader = (a: Account) => ({ authorization: `token ${a.token}` });

test.before(async () => {
  g = ctx.g;
  [alice, dave] = [await g.user('alice'), await g.user('dave')];
  pubId = (await g.repo('pub', { owner: alice })).id;
  privId = (await g.repo('priv', { owner: alice, private: true })).id;
});

test('commit events for readable repositories only, exact shape', async () => {
  const mine = await connect('', tokenHeader(alice));
  const theirs = await connect('', tokenHeader(dave));
  try {
    const made = await g.commit('alice', 'priv', { 'p.txt': 'p\n' }, { auth: alice.auth });
    const pub = await g.commit('alice', 'pub', { 'q.txt': 'q\n' }, { auth: alice.auth });
    await mine.waitFor((e) => e.sha === pub.commit.sha);
    const seen = [...mine.events];
    const priv = seen.find((e) => e.sha === made.commit.sha);
    assert.match(priv.timestamp, GO_TIME);
    assert.equal(priv, { type: 'commit', timestamp: priv.timestamp, repository: { id: privId, full_name: 'alice/priv', private: true }, branch: 'main', sha: made.commit.sha });
    await theirs.waitFor((e) => e.sha === pub.commit.sha);
    const other = [...theirs.events];
    assert.equal(other.map((e) => e.repository.full_name), ['alice/pub']);
  } finally {
    await mine.close();
    await theirs.close();
  }
});

test('?repo= limits the stream to the named repositories', async () => {
  const s = await connect('?repo=alice/priv', tokenHeader(alice));
  try {
    await g.commit('alice', 'pub', { 'r.txt': 'r\n' }, { auth: alice.auth });
    const made = await g.commit('alice', 'priv', { 'r.txt': 'r\n' }, { auth: alice.auth });
    await s.waitFor((e) => e.sha === made.commit.sha);
    const seen = [...s.events];
    assert.equal(seen.map((e) => e.repository.full_name), ['alice/priv']);
  } finally {
    await s.close();
  }
});

test('mirror sync events: started then finished, or failed with the reason (credentials masked)', async () => {
  await g.repo('target', { owner: alice, autoInit: false });
  const s = await connect('?repo=alice/pub', tokenHeader(alice));
  try {
    const good = await g.api('POST', '/api/v1/repos/alice/pub/push_mirrors', { json: { remote_address: `${g.url}/alice/target.git`, remote_username: 'alice', remote_password: alice.token, interval: '0' }, auth: alice.auth });
    assert.is(good.status, 200, good.text);
    assert.is((await g.api('POST', '/api/v1/repos/alice/pub/push_mirrors-sync', { auth: alice.auth })).status, 200);
    await s.waitFor('mirror_sync_finished');
    const seen = [...s.events];
    const mirror = { kind: 'push', remote_name: good.body.remote_name, remote_address: `${g.url}/alice/target.git` };
    assert.equal(
      seen.filter((e) => e.type !== 'commit').map((e) => [e.type, e.mirror]),
      [
        ['mirror_sync_started', mirror],
        ['mirror_sync_finished', mirror],
      ],
    );
    assert.is((await g.api('DELETE', `/api/v1/repos/alice/pub/push_mirrors/${good.body.remote_name}`, { auth: alice.auth })).status, 204);

    const bad = await g.api('POST', '/api/v1/repos/alice/pub/push_mirrors', { json: { remote_address: `${g.url}/alice/target.git`, remote_username: 'alice', remote_password: 'bad-secret-123', interval: '0' }, auth: alice.auth });
    assert.is((await g.api('POST', '/api/v1/repos/alice/pub/push_mirrors-sync', { auth: alice.auth })).status, 500);
    const failed = await s.waitFor('mirror_sync_failed');
    assert.is(failed.mirror.remote_name, bad.body.remote_name);
    assert.ok(failed.error.length > 0);
    assert.not.ok(JSON.stringify(s.events).includes('bad-secret-123'));
    assert.not.ok(JSON.stringify(s.events).includes(alice.token));
  } finally {
    await s.close();
  }
});

test('refused before the upgrade with Gitea\'s bodies: no credentials 401, wrong ones 401, a token without read:repository 403', async () => {
  const refusal = (headers: Record<string, string>) => refusedUpgrade(eventsUrl(''), headers);
  const url = `${g.url}/api/swagger`;
  const none = await refusal({});
  assert.is(none.status, 401);
  assert.equal(none.body, { message: 'token is required', url });
  const wrong = await refusal({ authorization: `token ${'0'.repeat(40)}` });
  assert.is(wrong.status, 401);
  assert.equal(wrong.body, { message: 'invalid username, password or token', url });
  const userOnly = await g.token(alice, ['read:user']);
  const scoped = await refusal({ authorization: `token ${userOnly}` });
  assert.is(scoped.status, 403);
  assert.equal(scoped.body, { message: 'token does not have at least one of required scope(s), required=[read:repository], token scope=read:user', url });
  // A query token works too.
  const viaQuery = await connect(`?token=${alice.token}`, {});
  await viaQuery.close();
});

test.run();
