import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { useGitea, type Account, type GiteaWorld } from '../_helpers/gitea.js';

// Mirror remotes that misbehave, as tiny node:http servers on 127.0.0.1 (local networks allowed, so
// only the mirror rules stand between them and the server): a redirect is never followed, so the
// host it names gets nothing, least of all the mirror's credentials; and nothing a remote says ends
// up in last_error, an answer or a log line.
const test = suite('gitea: hostile mirror remotes');
const ctx = useGitea(test, { MIRROR_ALLOW_LOCAL_NETWORKS: 'true' });

const SECRET = 'mirror-secret-9f2c71';
const MARKER = 'MARKER-4b1d0e';
/** Our words are lower-case letters, spaces and commas: nothing a remote could have written. */
const OUR_WORDS = /^[a-z][a-z ,]*$/;
const REDIRECTED = 'the remote answered with a redirect, which mirrors do not follow';

let g: GiteaWorld;
let alice: Account;
let bob: Account;

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
}

/** An HTTP server on 127.0.0.1 that records every request and answers with `handle` (switchable). */
async function remote(handle: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void) {
  const seen: Seen[] = [];
  const state = { handle };
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => state.handle(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    state,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

const redirectTo = (target: string, status = 302) => (req: IncomingMessage, res: ServerResponse) => void res.writeHead(status, { location: `${target}${req.url}` }).end(`${MARKER} moved`);
const askForCredentials = (_req: IncomingMessage, res: ServerResponse) => void res.writeHead(401, { 'www-authenticate': 'Basic realm="git"', 'content-type': 'text/plain' }).end(`${MARKER} who are you`);
/** Passes requests on to `target` (this server), so a remote can start out honest. */
const proxyTo = (target: string) => (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
  const up = http.request(`${target}${req.url}`, { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  up.on('error', () => res.writeHead(502).end());
  up.end(body);
};

const pkt = (s: string) => (s.length + 4).toString(16).padStart(4, '0') + s;
/** Answers a remote may give whose text git would repeat. */
const LEAKY: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  'an error page': (_req, res) => void res.writeHead(500, { 'content-type': 'text/plain' }).end(`${MARKER} internal page of 10.0.0.5`),
  'an ERR packet': (req, res) => {
    const service = /service=(git-[a-z-]+)/.exec(req.url!)?.[1] ?? 'git-upload-pack';
    res.writeHead(200, { 'content-type': `application/x-${service}-advertisement` }).end(pkt(`# service=${service}\n`) + '0000' + pkt(`ERR ${MARKER} metadata says hello\n`));
  },
  'a body that is not git': (req, res) => {
    const service = /service=(git-[a-z-]+)/.exec(req.url!)?.[1] ?? 'git-upload-pack';
    res.writeHead(200, { 'content-type': `application/x-${service}-advertisement` }).end(pkt(`${MARKER} <html>secret</html>\n`));
  },
};

const noMarkerLogged = () => {
  for (const line of g.t.logs) {
    assert.not.ok(line.includes(MARKER), `log line holds the remote's text: ${line}`);
    assert.not.ok(line.includes(SECRET), `log line holds the secret: ${line}`);
  }
};
const pullRow = (repoId: number) => g.t.server.db.prepare('SELECT last_error FROM pull_mirrors WHERE repo_id = ?').get(repoId) as { last_error: string };

test.before(async () => {
  g = ctx.g;
  [alice, bob] = [await g.user('alice'), await g.user('bob')];
  await g.repo('src', { owner: alice });
  await g.repo('upstream', { owner: alice, private: true });
  await g.commit('alice', 'upstream', { 'a.txt': 'a\n' }, { auth: alice.auth });
});

test('push mirror: a redirect is not followed; the host it names (which asks for credentials) gets no request at all', async () => {
  const other = await remote(askForCredentials);
  const hostile = await remote(redirectTo(other.url));
  try {
    const add = await g.api('POST', '/api/v1/repos/alice/src/push_mirrors', { json: { remote_address: `${hostile.url}/o/r.git`, remote_username: 'mirror-user', remote_password: SECRET, interval: '0' }, auth: alice.auth });
    assert.is(add.status, 200, add.text);
    const sync = await g.api('POST', '/api/v1/repos/alice/src/push_mirrors-sync', { auth: alice.auth });
    assert.is(sync.status, 500);
    assert.equal(sync.body, { message: `error occurred when syncing push mirror ${add.body.remote_name}: ${REDIRECTED}`, url: `${g.url}/api/swagger` });
    const got = await g.api('GET', `/api/v1/repos/alice/src/push_mirrors/${add.body.remote_name}`, { auth: alice.auth });
    assert.is(got.body.last_error, REDIRECTED);
    assert.ok(hostile.seen.length >= 1, 'git asked the mirror');
    for (const s of hostile.seen) assert.is(s.authorization, undefined, 'nothing asked for credentials there');
    assert.equal(other.seen, []);
    noMarkerLogged();
    assert.is((await g.api('DELETE', `/api/v1/repos/alice/src/push_mirrors/${add.body.remote_name}`, { auth: alice.auth })).status, 204);
  } finally {
    await hostile.close();
    await other.close();
  }
});

test('migrate and pull-mirror sync: a redirect is not followed, and the credentials never reach the host it names', async () => {
  const other = await remote(askForCredentials);
  const hostile = await remote(redirectTo(other.url, 301));
  try {
    const refused = await g.api('POST', '/api/v1/repos/migrate', { json: { clone_addr: `${hostile.url}/alice/upstream.git`, auth_username: 'alice', auth_password: SECRET, repo_name: 'never', mirror: true }, auth: bob.auth });
    assert.is(refused.status, 422);
    assert.equal(refused.body, { message: `Migration failed: ${REDIRECTED}`, url: `${g.url}/api/swagger` });
    assert.equal(other.seen, []);

    // Honest at first (passing requests on to this server), hostile later.
    hostile.state.handle = proxyTo(g.url);
    const made = await g.api('POST', '/api/v1/repos/migrate', { json: { clone_addr: `${hostile.url}/alice/upstream.git`, auth_username: 'alice', auth_password: alice.token, repo_name: 'copy', mirror: true }, auth: bob.auth });
    assert.is(made.status, 201, made.text);
    assert.ok(hostile.seen.some((s) => s.authorization === `Basic ${Buffer.from(`alice:${alice.token}`).toString('base64')}`), 'the mirror\'s own host gets the credentials');
    hostile.state.handle = redirectTo(other.url);
    assert.is((await g.api('POST', '/api/v1/repos/bob/copy/mirror-sync', { auth: bob.auth })).status, 200);
    await g.t.server.gitea.mirrorQueue.idle();
    assert.is(pullRow(made.body.id).last_error, REDIRECTED);
    assert.equal(other.seen, []);
    noMarkerLogged();
  } finally {
    await hostile.close();
    await other.close();
  }
});

test('what a remote says (an error page, an ERR packet, a body that is not git) reaches no last_error, answer or log line', async () => {
  for (const [name, answer] of Object.entries(LEAKY)) {
    const hostile = await remote(answer);
    try {
      const add = await g.api('POST', '/api/v1/repos/alice/src/push_mirrors', { json: { remote_address: `${hostile.url}/o/r.git`, remote_username: 'mirror-user', remote_password: SECRET, interval: '0' }, auth: alice.auth });
      assert.is(add.status, 200, add.text);
      const sync = await g.api('POST', '/api/v1/repos/alice/src/push_mirrors-sync', { auth: alice.auth });
      assert.is(sync.status, 500, name);
      assert.not.ok(sync.text.includes(MARKER), `${name}: ${sync.text}`);
      const error = (await g.api('GET', `/api/v1/repos/alice/src/push_mirrors/${add.body.remote_name}`, { auth: alice.auth })).body.last_error as string;
      assert.match(error, OUR_WORDS, `${name}: ${error}`);
      assert.ok(sync.body.message.endsWith(`: ${error}`), sync.body.message);
      assert.is((await g.api('DELETE', `/api/v1/repos/alice/src/push_mirrors/${add.body.remote_name}`, { auth: alice.auth })).status, 204);

      const migrate = await g.api('POST', '/api/v1/repos/migrate', { json: { clone_addr: `${hostile.url}/o/r.git`, auth_username: 'x', auth_password: SECRET, repo_name: 'leak' }, auth: bob.auth });
      assert.is(migrate.status, 422, name);
      assert.match(migrate.body.message, /^Migration failed: [a-z][a-z ,]*$/, `${name}: ${migrate.text}`);
      noMarkerLogged();
    } finally {
      await hostile.close();
    }
  }
  // The error page's case in particular: git calls it a server error, and so do we.
  const page = await remote(LEAKY['an error page']!);
  try {
    const migrate = await g.api('POST', '/api/v1/repos/migrate', { json: { clone_addr: `${page.url}/o/r.git`, repo_name: 'leak' }, auth: bob.auth });
    assert.equal(migrate.body, { message: 'Migration failed: the remote answered with a server error', url: `${g.url}/api/swagger` });
  } finally {
    await page.close();
  }
});

test('a pull mirror whose remote turns hostile: its text stays out of last_error and the failure event', async () => {
  const hostile = await remote(proxyTo(g.url));
  try {
    const made = await g.api('POST', '/api/v1/repos/migrate', { json: { clone_addr: `${hostile.url}/alice/upstream.git`, auth_username: 'alice', auth_password: alice.token, repo_name: 'turns', mirror: true }, auth: bob.auth });
    assert.is(made.status, 201, made.text);
    const errors: string[] = [];
    const off = g.t.server.gitea.events.subscribe((e) => {
      if (e.type === 'mirror_sync_failed' && e.repository.full_name === 'bob/turns') errors.push(e.error);
    });
    try {
      for (const answer of Object.values(LEAKY)) {
        hostile.state.handle = answer;
        assert.is((await g.api('POST', '/api/v1/repos/bob/turns/mirror-sync', { auth: bob.auth })).status, 200);
        await g.t.server.gitea.mirrorQueue.idle();
        assert.match(pullRow(made.body.id).last_error, OUR_WORDS);
      }
    } finally {
      off();
    }
    assert.is(errors.length, Object.keys(LEAKY).length);
    for (const e of errors) assert.match(e, OUR_WORDS);
    noMarkerLogged();
  } finally {
    await hostile.close();
  }
});

test.run();
