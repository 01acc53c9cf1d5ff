import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { GO_TIME } from '../../protocol/gitea/schema.js';
import { useGitea, type Account, type GiteaWorld } from '../_helpers/gitea.js';
import { WAIT_MS } from '../_helpers/wait.js';

// The repository event stream, /api/v1/events: commit and mirror sync events, only for
// repositories the caller can read, with the API's credentials and Gitea's error bodies.
const test = suite('gitea: repository events');
const ctx = useGitea(test, { MIRROR_ALLOW_LOCAL_NETWORKS: 'true' });

let g: GiteaWorld;
let alice: Account;
let dave: Account; // a stranger
let pubId = 0;
let privId = 0;

interface Stream {
  events: any[];
  /** Resolves with the events seen once `pred` matches one (past or future). */
  until(pred: (e: any) => boolean, ms?: number): Promise<any[]>;
  close(): void;
}

function connect(query: string, headers: Record<string, string>): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${g.url.replace('http', 'ws')}/api/v1/events${query}`, { headers });
    const events: any[] = [];
    const waiters: (() => void)[] = [];
    ws.on('message', (data) => {
      events.push(JSON.parse(String(data)));
      for (const w of waiters.splice(0)) w();
    });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d));
      res.on('end', () => reject(Object.assign(new Error(`refused ${res.statusCode}`), { status: res.statusCode, body: JSON.parse(body) })));
    });
    ws.on('error', reject);
    ws.on('open', () =>
      resolve({
        events,
        until(pred, ms = WAIT_MS) {
          return new Promise((res, rej) => {
            const check = () => {
              if (events.some(pred)) res([...events]);
              else waiters.push(check);
            };
            setTimeout(() => rej(new Error(`no matching event in ${ms} ms: ${JSON.stringify(events)}`)), ms).unref();
            check();
          });
        },
        close: () => ws.close(),
      }),
    );
  });
}

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
    const seen = await mine.until((e) => e.sha === pub.commit.sha);
    const priv = seen.find((e) => e.sha === made.commit.sha);
    assert.match(priv.timestamp, GO_TIME);
    assert.equal(priv, { type: 'commit', timestamp: priv.timestamp, repository: { id: privId, full_name: 'alice/priv', private: true }, branch: 'main', sha: made.commit.sha });
    const other = await theirs.until((e) => e.sha === pub.commit.sha);
    assert.equal(other.map((e) => e.repository.full_name), ['alice/pub']);
  } finally {
    mine.close();
    theirs.close();
  }
});

test('?repo= limits the stream to the named repositories', async () => {
  const s = await connect('?repo=alice/priv', tokenHeader(alice));
  try {
    await g.commit('alice', 'pub', { 'r.txt': 'r\n' }, { auth: alice.auth });
    const made = await g.commit('alice', 'priv', { 'r.txt': 'r\n' }, { auth: alice.auth });
    const seen = await s.until((e) => e.sha === made.commit.sha);
    assert.equal(seen.map((e) => e.repository.full_name), ['alice/priv']);
  } finally {
    s.close();
  }
});

test('mirror sync events: started then finished, or failed with the reason (credentials masked)', async () => {
  await g.repo('target', { owner: alice, autoInit: false });
  const s = await connect('?repo=alice/pub', tokenHeader(alice));
  try {
    const good = await g.api('POST', '/api/v1/repos/alice/pub/push_mirrors', { json: { remote_address: `${g.url}/alice/target.git`, remote_username: 'alice', remote_password: alice.token, interval: '0' }, auth: alice.auth });
    assert.is(good.status, 200, good.text);
    assert.is((await g.api('POST', '/api/v1/repos/alice/pub/push_mirrors-sync', { auth: alice.auth })).status, 200);
    const seen = await s.until((e) => e.type === 'mirror_sync_finished');
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
    const failed = (await s.until((e) => e.type === 'mirror_sync_failed')).find((e) => e.type === 'mirror_sync_failed');
    assert.is(failed.mirror.remote_name, bad.body.remote_name);
    assert.ok(failed.error.length > 0);
    assert.not.ok(JSON.stringify(s.events).includes('bad-secret-123'));
    assert.not.ok(JSON.stringify(s.events).includes(alice.token));
  } finally {
    s.close();
  }
});

test('refused before the upgrade with Gitea\'s bodies: no credentials 401, wrong ones 401, a token without read:repository 403', async () => {
  const refusal = async (headers: Record<string, string>, query = '') => {
    try {
      (await connect(query, headers)).close();
    } catch (err) {
      return err as { status: number; body: unknown };
    }
    throw new Error('expected a refusal');
  };
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
  viaQuery.close();
});

test.run();
