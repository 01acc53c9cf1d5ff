import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runGit } from '../../server/gitea/git/run.js';
import { describeGitFailure } from '../../server/gitea/mirrors/git-failure.js';
import { CREDENTIAL_ENV, installMirrorGitHelpers } from '../../server/gitea/mirrors/git-helpers.js';
import { createRemoteGit, hostAsGitNamesIt, RemoteGitError } from '../../server/gitea/mirrors/remote-git.js';
import type { MirrorUrlPolicy } from '../../server/gitea/mirrors/url-policy.js';
import { createLogger } from '../../server/log.js';
import { tempDir } from '../_helpers/temp-dir.js';
import { pollUntil, WAIT_MS } from '../_helpers/wait.js';

// The runner of mirrors' git network operations without a Gitea server: which credentials the
// helper hands out, that git connects only to the addresses the policy approved (names that the
// system cannot resolve reach a local server through the pin), and failures in our words.
const test = suite('mirror remote git');

const LOCAL: MirrorUrlPolicy = { allowLocalNetworks: true, allowedDomains: [], blockedDomains: [] };
const LIMITS = { timeoutMs: 60_000, lowSpeedLimit: 1000, lowSpeedTimeS: 30 };

let dir = '';
let gitDir = '';
let web: http.Server;
let webPort = 0;
const seen: { url: string; host: string | undefined; auth: string | undefined }[] = [];

test.before(async () => {
  dir = tempDir('remote-git');
  gitDir = join(dir, 'r.git');
  await runGit(['init', '-q', '--bare', gitDir]);
  web = http.createServer((req, res) => {
    seen.push({ url: req.url!, host: req.headers.host, auth: req.headers.authorization });
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
  webPort = (web.address() as AddressInfo).port;
});
test.after(async () => {
  web.closeAllConnections();
  await new Promise((r) => web.close(r));
  rmSync(dir, { recursive: true, force: true });
});
test.before.each(() => void (seen.length = 0));

const runner = (resolve: (host: string) => Promise<string[]>, limits = LIMITS, policy = LOCAL) =>
  createRemoteGit({ dataDir: dir, policy, limits, log: createLogger('silent'), resolve });
const failure = (p: Promise<unknown>): Promise<RemoteGitError> =>
  p.then(
    () => {
      throw new assert.Assertion({ message: 'it worked', generated: false, operator: 'unreachable', expects: 'a failure', actual: 'success' });
    },
    (err: unknown) => {
      assert.instance(err, RemoteGitError);
      return err as RemoteGitError;
    },
  );

test('the credential helper answers only `get` for the protocol and host it was given (case aside), and nothing otherwise', () => {
  const { credentialHelper } = installMirrorGitHelpers(dir);
  const env = { PATH: process.env.PATH!, [CREDENTIAL_ENV.protocol]: 'https', [CREDENTIAL_ENV.host]: 'git.example.com:8443', [CREDENTIAL_ENV.username]: 'mirror', [CREDENTIAL_ENV.password]: 'pa ss%s' };
  const ask = (action: string, input: string, extra: Record<string, string> = {}) => spawnSync(credentialHelper, [action], { input, env: { ...env, ...extra }, encoding: 'utf8' }).stdout;
  assert.is(ask('get', 'protocol=https\nhost=git.example.com:8443\n\n'), 'username=mirror\npassword=pa ss%s\n');
  assert.is(ask('get', 'protocol=https\nhost=GIT.Example.com:8443\nusername=mirror\n\n'), 'username=mirror\npassword=pa ss%s\n');
  // Another host (where a redirect would lead), another port, another protocol: nothing.
  assert.is(ask('get', 'protocol=https\nhost=evil.example.com\n\n'), '');
  assert.is(ask('get', 'protocol=https\nhost=git.example.com\n\n'), '');
  assert.is(ask('get', 'protocol=https\nhost=git.example.com:8443.evil.example\n\n'), '');
  assert.is(ask('get', 'protocol=http\nhost=git.example.com:8443\n\n'), '');
  assert.is(ask('get', 'host=git.example.com:8443\n\n'), '');
  // Other actions, and a run with no mirror host set, give nothing either.
  assert.is(ask('store', 'protocol=https\nhost=git.example.com:8443\n\n'), '');
  assert.is(ask('get', 'protocol=https\nhost=\n\n', { [CREDENTIAL_ENV.host]: '' }), '');
});

test('hostAsGitNamesIt: the authority as written, userinfo dropped, decoded, lower case', () => {
  assert.is(hostAsGitNamesIt('https://u:p@Git.Example.com:8443/o/r.git'), 'git.example.com:8443');
  assert.is(hostAsGitNamesIt('http://[::1]:3000/r'), '[::1]:3000');
  assert.is(hostAsGitNamesIt('http://example.com'), 'example.com');
  assert.is(hostAsGitNamesIt('/srv/r.git'), undefined);
});

test('http: git connects to the address the policy approved, whatever the system DNS says about the name', async () => {
  const asked: string[] = [];
  const git = runner(async (host) => (asked.push(host), ['127.0.0.1']));
  const err = await failure(git.run(['ls-remote', `http://mirror.invalid:${webPort}/o/r.git`], { gitDir, address: `http://mirror.invalid:${webPort}/o/r.git`, kind: 'pull' }));
  assert.is(err.message, 'repository not found');
  assert.equal(asked, ['mirror.invalid']);
  assert.equal(seen, [{ url: '/o/r.git/info/refs?service=git-upload-pack', host: `mirror.invalid:${webPort}`, auth: undefined }]);
});

test('a name that now resolves to a never-allowed address, or not at all, is refused before git runs', async () => {
  const named = { ...LOCAL, allowedDomains: ['mirror.invalid'] };
  for (const [answer, policy, message] of [
    [['169.254.169.254'], LOCAL, 'refused by the mirror address policy'],
    [['169.254.169.254'], named, 'refused by the mirror address policy'],
    [['127.0.0.1', 'fd00:ec2::254'], LOCAL, 'refused by the mirror address policy'],
    [[], LOCAL, 'refused by the mirror address policy'],
    // The allow list admits the name without an answer (as Gitea) when a mirror is added; a sync needs one.
    [[], named, 'could not resolve the host'],
  ] as const) {
    const git = runner(async () => [...answer], LIMITS, policy);
    const err = await failure(git.run(['ls-remote', 'origin'], { gitDir, address: `http://mirror.invalid:${webPort}/o/r.git`, kind: 'pull' }));
    assert.is(err.message, message, answer.join());
    assert.is(err.interrupted, false);
  }
  assert.equal(seen, []);
});

test('git://: the proxy connects to the approved address and passes the name on; a hard time limit kills git', async () => {
  const received: Buffer[] = [];
  const sockets = new Set<Socket>();
  const daemon: Server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('data', (d) => received.push(d)); // and never answers
  });
  await new Promise<void>((r) => daemon.listen(0, '127.0.0.1', r));
  const port = (daemon.address() as AddressInfo).port;
  try {
    const git = runner(async () => ['127.0.0.1'], { ...LIMITS, timeoutMs: 1500 });
    const err = await failure(git.run(['ls-remote', `git://mirror.invalid:${port}/o/r.git`], { gitDir, address: `git://mirror.invalid:${port}/o/r.git`, kind: 'pull' }));
    assert.is(err.message, 'timed out');
    assert.match(Buffer.concat(received).toString('latin1'), new RegExp(`git-upload-pack /o/r\\.git\\0host=mirror\\.invalid:${port}\\0`));
    // The proxy (a child of git's) went with git: its connection is closed.
    await pollUntil(() => sockets.size === 0, WAIT_MS, 50);
    assert.is(sockets.size, 0, 'no connection left open');
    assert.is(git.running, 0);
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise((r) => daemon.close(r));
  }
});

test('ssh: connect and keep-alive timeouts, batch mode, and the approved address as HostName with the host key kept under the name', async () => {
  // A stand-in ssh on PATH that writes down how it was called and fails.
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'ssh'), `#!/bin/sh\nprintf '%s\\n' "$@" > '${join(dir, 'ssh-args')}'\necho 'Permission denied (publickey).' >&2\nexit 255\n`, { mode: 0o755 });
  const path = process.env.PATH;
  process.env.PATH = `${bin}:${path}`;
  try {
    const git = runner(async () => ['127.0.0.1']);
    const err = await failure(git.run(['ls-remote', 'ssh://git@mirror.invalid:2222/o/r.git'], { gitDir, address: 'ssh://git@mirror.invalid:2222/o/r.git', kind: 'push', sshKeyFile: join(dir, 'key'), knownHostsFile: join(dir, 'known_hosts') }));
    assert.is(err.message, 'authentication failed');
  } finally {
    process.env.PATH = path;
  }
  const args = readFileSync(join(dir, 'ssh-args'), 'utf8').trim().split('\n');
  const options = args.filter((_, i) => args[i - 1] === '-o');
  for (const o of ['BatchMode=yes', 'ConnectTimeout=30', 'ServerAliveInterval=10', 'ServerAliveCountMax=3', 'HostKeyAlias=[mirror.invalid]:2222', 'HostName=127.0.0.1', 'CheckHostIP=no', 'IdentitiesOnly=yes', 'StrictHostKeyChecking=accept-new', `UserKnownHostsFile=${join(dir, 'known_hosts')}`]) {
    assert.ok(options.includes(o), `${o} in ${args.join(' ')}`);
  }
  assert.is(args[args.indexOf('-i') + 1], join(dir, 'key'));
  // git still names the host it was given (ssh then connects to HostName).
  assert.ok(args.includes('git@mirror.invalid'), args.join(' '));
});

test('close(): running operations end as interrupted, new ones are refused as interrupted', async () => {
  const sockets = new Set<Socket>();
  const tarpit = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => tarpit.listen(0, '127.0.0.1', r));
  const port = (tarpit.address() as AddressInfo).port;
  try {
    const git = runner(async () => ['127.0.0.1']);
    const address = `http://127.0.0.1:${port}/o/r.git`;
    const pending = failure(git.run(['ls-remote', address], { gitDir, address, kind: 'pull' }));
    await pollUntil(() => sockets.size > 0, WAIT_MS, 25);
    assert.is(sockets.size, 1, 'git is connected');
    git.close();
    const err = await pending;
    assert.is(err.message, 'interrupted by shutdown');
    assert.is(err.interrupted, true);
    await git.idle();
    const again = await failure(git.run(['ls-remote', address], { gitDir, address, kind: 'pull' }));
    assert.is(again.interrupted, true);
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise((r) => tarpit.close(r));
  }
});

test('describeGitFailure: git\'s failures in fixed words, whatever text the remote added', () => {
  const cases: [string, string][] = [
    ["fatal: unable to access 'http://h/r/': Operation too slow. Less than 1000 bytes/sec transferred the last 30 seconds", 'timed out'],
    ["fatal: unable to access 'http://h/r/': Could not resolve host: h", 'could not resolve the host'],
    ["fatal: unable to access 'http://127.0.0.1:1/r/': Failed to connect to 127.0.0.1 port 1 after 0 ms: Couldn't connect to server", 'could not connect to the remote'],
    ["fatal: unable to access 'http://h/r/': The requested URL returned error: 302", 'the remote answered with a redirect, which mirrors do not follow'],
    ["fatal: Authentication failed for 'http://h/r/'", 'authentication failed'],
    ["fatal: could not read Username for 'http://h': terminal prompts disabled", 'authentication failed'],
    ['git@h: Permission denied (publickey).\r\nfatal: Could not read from remote repository.', 'authentication failed'],
    ['Host key verification failed.', 'the host key of the remote did not match'],
    ["fatal: unable to access 'https://h/r/': SSL certificate problem: self-signed certificate", 'the TLS connection to the remote failed'],
    ["remote: Not here\nfatal: repository 'http://h/r/' not found", 'repository not found'],
    [' ! [remote rejected] main -> main (pre-receive hook declined)\nerror: failed to push some refs', 'the remote rejected a ref update'],
    ["remote: SECRET-TEXT\nfatal: unable to access 'http://h/r/': The requested URL returned error: 500", 'the remote answered with a server error'],
    ["fatal: unable to access 'http://h/r/': The requested URL returned error: 418", 'the remote refused the request'],
    ['fatal: the remote end hung up unexpectedly', 'the remote closed the connection'],
    ["fatal: invalid server response; got 'SECRET-TEXT'", 'the remote did not answer as a git server'],
    ['fatal: protocol error: bad line length character: SECR', 'the remote did not answer as a git server'],
    ['fatal: remote error: SECRET-TEXT', 'git fetch failed'],
  ];
  for (const [stderr, words] of cases) assert.is(describeGitFailure('fetch', stderr), words, stderr);
});

test.run();
