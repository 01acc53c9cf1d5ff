import { request } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { passwordChecks } from '../../server/gitea/services/passwords.js';
import { sqlWrite, useGitea, type Account, type GiteaWorld } from '../_helpers/gitea.js';
import { refusedUpgrade } from '../_helpers/refused-upgrade.js';
import { basicAuth } from '../_helpers/request.js';

// Password checks: the same work (one scrypt) for an unknown user, a wrong password and an account
// that may not sign in, so timing tells nothing; failures are throttled per client address (the main
// brake) and, more softly, per account, without locking the owner out. Clients take distinct
// loopback addresses (127.0.0.x) so that each test has addresses of its own.
const test = suite('gitea: password checks, constant work and throttling');
const ctx = useGitea(test, { LOGIN_THROTTLE: '3/15m' });
const WINDOW_S = 15 * 60;
const TOO_MANY = 'too many failed authentication attempts, try again later';

let g: GiteaWorld;
let tess: Account;

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A request from a chosen loopback address, with Basic credentials or a token. */
function from(address: string, method: string, path: string, auth: { basic?: [string, string]; token?: string } = {}, body?: string): Promise<Reply> {
  const url = new URL(g.url + path);
  const headers: Record<string, string> = {};
  if (auth.basic) headers.authorization = basicAuth(`${auth.basic[0]}:${auth.basic[1]}`);
  if (auth.token) headers.authorization = `token ${auth.token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, localAddress: address }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const me = (address: string, name: string, password: string) => from(address, 'GET', '/api/v1/user', { basic: [name, password] });

test.before(async () => {
  g = ctx.g;
  tess = await g.user('tess');
});

test('every refused password costs one scrypt run: unknown user, wrong password, account that may not sign in', async () => {
  const cost = async (address: string, name: string, password: string, status: number) => {
    const before = passwordChecks.count;
    const r = await me(address, name, password);
    assert.is(r.status, status, `${name}: ${r.text}`);
    return passwordChecks.count - before;
  };
  assert.is(await cost('127.0.0.11', 'no-such-user', 'some-password-1', 401), 1, 'an unknown user');
  assert.is(await cost('127.0.0.12', 'tess', 'not-her-password', 401), 1, 'a wrong password');
  const ursula = await g.user('ursula');
  sqlWrite(g, 'UPDATE users SET prohibit_login = 1 WHERE name = ?', 'ursula');
  assert.is(await cost('127.0.0.13', 'ursula', 'not-her-password', 401), 1, 'a barred account, wrong password');
  assert.is(await cost('127.0.0.14', 'ursula', ursula.password, 401), 1, 'a barred account, right password');
  // The right password costs one run too (and then, for a while, none: the pair is remembered).
  g.t.server.gitea.accounts.forgetPasswords();
  assert.is(await cost('127.0.0.15', 'tess', tess.password, 200), 1);
  assert.is(await cost('127.0.0.15', 'tess', tess.password, 200), 0);
  // Tokens cost none.
  assert.is(await cost('127.0.0.15', 'tess', tess.token, 200), 0);
});

test('the N+1-th failure from one address is refused without a check: 429, Gitea\'s error body, Retry-After', async () => {
  const attacker = '127.0.0.2';
  for (let i = 0; i < 3; i++) assert.is((await me(attacker, 'tess', `guess-${i}-password`)).status, 401);
  const before = passwordChecks.count;
  const refused = await me(attacker, 'tess', tess.password);
  assert.is(refused.status, 429, 'even the right password is not checked now');
  assert.equal(JSON.parse(refused.text), { message: TOO_MANY, url: `${g.url}/api/swagger` });
  assert.is(refused.headers['content-type'], 'application/json;charset=utf-8');
  const wait = Number(refused.headers['retry-after']);
  assert.ok(Number.isInteger(wait) && wait >= 1 && wait <= WINDOW_S, `Retry-After ${refused.headers['retry-after']}`);
  assert.is(passwordChecks.count, before, 'no scrypt run for a throttled attempt');
  // Any account, any route that takes a password, from that address.
  assert.is((await me(attacker, 'root', 'root-password-1')).status, 429);
  const gitRefs = await from(attacker, 'GET', '/root/nothing.git/info/refs?service=git-upload-pack', { basic: ['tess', tess.password] });
  assert.equal([gitRefs.status, gitRefs.text, gitRefs.headers['content-type']], [429, `${TOO_MANY}\n`, 'text/plain; charset=utf-8']);
  assert.ok(Number(gitRefs.headers['retry-after']) >= 1);
  const download = await from(attacker, 'GET', '/tess/x/raw/branch/main/a.txt', { basic: ['tess', tess.password] });
  assert.equal([download.status, download.text], [429, `${TOO_MANY}\n`]);
  // Tokens are not throttled (they are not guessed), and neither are anonymous requests.
  assert.is((await from(attacker, 'GET', '/api/v1/user', { token: tess.token })).status, 200);
  assert.is((await from(attacker, 'GET', '/api/v1/version')).status, 200);
});

test('a success from another address still works: the owner is not locked out by one attacker', async () => {
  assert.is((await me('127.0.0.2', 'tess', tess.password)).status, 429);
  const ok = await me('127.0.0.3', 'tess', tess.password);
  assert.is(ok.status, 200);
  assert.is(JSON.parse(ok.text).login, 'tess');
});

test('the window expires: the address may try again (the throttle\'s clock moved past the window)', async () => {
  const throttle = g.t.server.gitea.accounts.throttle;
  assert.is((await me('127.0.0.2', 'tess', tess.password)).status, 429);
  throttle.clock = () => Date.now() + (WINDOW_S - 5) * 1000;
  try {
    assert.is((await me('127.0.0.2', 'tess', tess.password)).status, 429, 'still inside the window');
    throttle.clock = () => Date.now() + (WINDOW_S + 1) * 1000;
    assert.is((await me('127.0.0.2', 'tess', tess.password)).status, 200, 'past it');
    // A fresh window: three more failures are allowed before the next refusal.
    for (let i = 0; i < 3; i++) assert.is((await me('127.0.0.2', 'tess', `again-${i}-password`)).status, 401);
    assert.is((await me('127.0.0.2', 'tess', tess.password)).status, 429);
  } finally {
    throttle.clock = Date.now;
  }
});

test('per account, softer: after 5 × N failures from many addresses, only addresses that signed in to it lately get through', async () => {
  const vera = await g.user('vera');
  const home = '127.0.0.20';
  assert.is((await me(home, 'vera', vera.password)).status, 200, 'vera signs in from home once');
  // A spread-out attack: one failure from each of 15 addresses (no address reaches its own limit).
  for (let i = 1; i <= 15; i++) assert.is((await me(`127.0.1.${i}`, 'vera', `spread-${i}-password`)).status, 401, `attempt ${i}`);
  const before = passwordChecks.count;
  const stranger = await me('127.0.1.16', 'vera', vera.password);
  assert.is(stranger.status, 429, 'an unfamiliar address is refused for this account');
  assert.equal(JSON.parse(stranger.text).message, TOO_MANY);
  assert.is(passwordChecks.count, before);
  assert.is((await me(home, 'vera', vera.password)).status, 200, 'home still works');
  assert.is((await me('127.0.1.16', 'tess', tess.password)).status, 200, 'other accounts from that address are unaffected');
  // The same limit applies to a name nobody has, so a 429 does not tell that an account exists.
  for (let i = 1; i <= 15; i++) assert.is((await me(`127.0.2.${i}`, 'nobody-here', `spread-${i}-password`)).status, 401);
  assert.is((await me('127.0.2.16', 'nobody-here', 'any-password-1')).status, 429);
});

test('the event stream refuses a throttled password with 429 before upgrading', async () => {
  const refused = await refusedUpgrade(`${g.url.replace('http', 'ws')}/api/v1/events`, { authorization: basicAuth(`tess:${tess.password}`) }, { localAddress: '127.0.0.2' });
  assert.is(refused.status, 429);
  assert.ok(Number(refused.headers['retry-after']) >= 1);
  assert.equal(refused.body, { message: TOO_MANY, url: `${g.url}/api/swagger` });
});

test.run();
