import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { basicAuth, request } from '../_helpers/request.js';
import { startTestServer, type TestServer } from '../_helpers/server.js';
import { tempDir } from '../_helpers/temp-dir.js';
import { runAdmin } from '../../server/admin/main.js';

// `npm run admin`: each command against a stopped DATA_DIR and beside a running server (whose
// API sees every change at once), passwords only from stdin or generated, and exact output.
const test = suite('admin command line');
const root = join(import.meta.dirname, '..', '..');

/** Every command line the suite ran, to check no secret was ever on one. */
const argvs: string[][] = [];

interface Run {
  code: number | null;
  out: string;
  err: string;
}

/** Runs `npm run admin -- …args` as npm does (node with the tsx loader) on `dataDir`, feeding `stdin`. */
function admin(dataDir: string, args: string[], stdin = '', env: Record<string, string> = {}): Promise<Run> {
  const argv = ['--import', 'tsx', join(root, 'server', 'admin', 'main.ts'), ...args];
  argvs.push(argv);
  const proc = spawn(process.execPath, argv, { cwd: root, env: { ...process.env, DATA_DIR: dataDir, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.on('data', (d) => (out += d));
  proc.stderr.on('data', (d) => (err += d));
  proc.stdin.end(stdin);
  return new Promise((resolve) => proc.once('close', (code) => resolve({ code, out, err })));
}

/** The same command run in this process (runAdmin, what main.ts runs): for the many usage checks, which touch no database. */
async function adminHere(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  let out = '';
  let err = '';
  const io = { out: (l: string) => void (out += `${l}\n`), prompt: () => {}, stdin: process.stdin };
  const code = await runAdmin(args, io, { DATA_DIR: dataDir, ...env }, (l) => void (err += `${l}\n`));
  return { code, out, err };
}

const lines = (s: string) => s.split('\n').filter(Boolean);
const get = (t: TestServer, path: string, auth: string) => request(t.url, 'GET', path, { headers: { authorization: auth } });

const CAROL_PW = 'carol-first-pw-1';
const CAROL_NEW = 'carol-second-pw-2';
const ERIN_PW = 'erin-password-77';
const secrets: string[] = [CAROL_PW, CAROL_NEW, ERIN_PW];

test('--help for every command, usage errors exit 2 before DATA_DIR is looked at', async () => {
  const nowhere = join(tempDir('admin-none'), 'missing');
  const top = await admin(nowhere, ['--help']);
  assert.is(top.code, 0);
  assert.ok(top.out.startsWith('Usage: npm run admin -- <command> [flags]\n'), top.out);
  for (const name of ['list-users', 'create-user', 'reset-password', 'create-token']) assert.ok(top.out.includes(`  ${name} `), name);
  for (const name of ['list-users', 'create-user', 'reset-password', 'create-token', 'change-password', 'generate-access-token']) {
    const r = await adminHere(nowhere, [name, '--help']);
    assert.is(r.code, 0, name);
    assert.ok(/^Usage: npm run admin -- (list-users|create-user|reset-password|create-token)/.test(r.out), r.out);
  }
  const none = await adminHere(nowhere, []);
  assert.is(none.code, 2);
  assert.ok(none.err.startsWith('Usage: npm run admin'));
  const cases: [string[], string][] = [
    [['frobnicate'], 'trunkline admin: unknown command "frobnicate" (see npm run admin -- --help)'],
    [['list-users', '--everyone'], 'trunkline admin list-users: unknown flag --everyone (see --help)'],
    [['create-user', '--email', 'a@b.c'], 'trunkline admin create-user: --username is required (see --help)'],
    [['create-user', '--username', 'x', '--email', 'x@y.z', '--must-change-password'], 'trunkline admin create-user: --must-change-password is not supported: Trunkline has no sign-in page where a password could be changed; give the user a password to keep (see --help)'],
    [['create-user', '--username', 'x', '--email', 'x@y.z', '--password-stdin', '--random-password'], 'trunkline admin create-user: --password-stdin and --random-password exclude each other (see --help)'],
    [['reset-password'], 'trunkline admin reset-password: which user? name one: USER or --username USER (see --help)'],
    [['reset-password', 'a', 'b'], 'trunkline admin reset-password: unexpected argument "b" (see --help)'],
    [['create-token', 'root'], 'trunkline admin create-token: --scopes is required (for example --scopes read:repository,write:issue) (see --help)'],
    [['create-token', 'root', '--scopes'], 'trunkline admin create-token: --scopes needs a value (see --help)'],
  ];
  for (const [args, message] of cases) {
    const r = await adminHere(nowhere, args);
    assert.is(r.code, 2, args.join(' '));
    assert.is(r.err, `${message}\n`);
    assert.is(r.out, '');
  }
  const missing = await admin(nowhere, ['list-users']);
  assert.is(missing.code, 1);
  assert.is(missing.err, `trunkline admin list-users: no Trunkline database in DATA_DIR ${nowhere}: start the server once to create it, or set DATA_DIR\n`);
  const badConfig = await adminHere(nowhere, ['list-users'], { LOG_FORMAT: 'fancy' });
  assert.is(badConfig.code, 1);
  assert.is(badConfig.err, 'trunkline admin list-users: invalid LOG_FORMAT: LOG_FORMAT must be json or pretty (got "fancy")\n');
  rmSync(join(nowhere, '..'), { recursive: true, force: true });
});

test('a password on the command line is refused, whichever form it takes', async () => {
  const dir = tempDir('admin-argv');
  for (const args of [
    ['create-user', '--username', 'x', '--email', 'x@y.z', '--password', 'on-argv-pw-1'],
    ['create-user', '--username', 'x', '--email', 'x@y.z', '--password=on-argv-pw-1'],
    ['reset-password', 'root', '-p', 'on-argv-pw-1'],
    ['change-password', '--username', 'root', '-p=on-argv-pw-1'],
  ]) {
    const r = args[1] === '--username' ? await admin(dir, args) : await adminHere(dir, args);
    assert.is(r.code, 2, args.join(' '));
    assert.is(r.err, `trunkline admin ${args[0] === 'change-password' ? 'reset-password' : args[0]}: a password is never taken on the command line (other users see it in ps, and it stays in shell history): pipe it to --password-stdin, or use --random-password (see --help)\n`);
  }
  rmSync(dir, { recursive: true, force: true });
});

test('on a stopped DATA_DIR: every command, and the server started afterwards sees what they did', async () => {
  const first = await startTestServer();
  const dir = first.dataDir;
  await first.close({ keepData: true });
  try {
    const list = await admin(dir, ['list-users']);
    assert.is(list.code, 0, list.err);
    assert.equal(lines(list.out), ['ID   Username Email          IsActive IsAdmin 2FA', '1    root     root@localhost true     true    false']);

    const carol = await admin(dir, ['create-user', '--username', 'carol', '--email', 'carol@example.com', '--password-stdin'], `${CAROL_PW}\n`);
    assert.is(carol.code, 0, carol.err);
    assert.is(carol.out, 'Created user carol (id 2).\n');
    const again = await admin(dir, ['create-user', '--username', 'Carol', '--email', 'c2@example.com'], `${CAROL_PW}\n`);
    assert.is(again.code, 1);
    assert.is(again.err, 'trunkline admin create-user: user already exists [name: Carol]\n');
    const short = await admin(dir, ['create-user', '--username', 'shorty', '--email', 's@example.com'], 'short\n');
    assert.is(short.err, 'trunkline admin create-user: the password must be at least 8 characters\n');
    assert.is(short.code, 1);
    const reserved = await admin(dir, ['create-user', '--username', 'api', '--email', 'api@example.com'], `${CAROL_PW}\n`);
    assert.is(reserved.err, 'trunkline admin create-user: name is reserved [name: api]\n');

    const dave = await admin(dir, ['create-user', '--username', 'dave', '--email', 'dave@example.com', '--admin', '--random-password', '--must-change-password=false']);
    assert.is(dave.code, 0, dave.err);
    const [pwLine, made] = lines(dave.out);
    const davePw = /^Password of dave \(shown once\): ([A-Za-z0-9_-]{24})$/.exec(pwLine!)?.[1];
    assert.ok(davePw, pwLine);
    secrets.push(davePw!);
    assert.is(made, 'Created site administrator dave (id 3).');

    const admins = await admin(dir, ['list-users', '--admin']);
    assert.equal(lines(admins.out), ['ID   Username Email            IsActive', '1    root     root@localhost   true', '3    dave     dave@example.com true']);

    const reset = await admin(dir, ['reset-password', 'carol'], `${CAROL_NEW}\r\n`);
    assert.is(reset.code, 0, reset.err);
    assert.is(reset.out, 'Changed the password of carol; its access tokens stay valid.\n');
    const nobody = await admin(dir, ['reset-password', 'nobody'], `${CAROL_NEW}\n`);
    assert.is(nobody.code, 1);
    assert.is(nobody.err, 'trunkline admin reset-password: user nobody does not exist\n');

    const token = await admin(dir, ['generate-access-token', '-u', 'carol', '-t', 'ci', '--scopes', 'read:user,write:repository']);
    assert.is(token.code, 0, token.err);
    const tok = /^Created access token ci for carol \(scopes write:repository,read:user\): ([0-9a-f]{40})\n$/.exec(token.out)?.[1];
    assert.ok(tok, token.out);
    secrets.push(tok!);
    const taken = await admin(dir, ['create-token', 'carol', '--name', 'ci', '--scopes', 'read:user']);
    assert.is(taken.err, 'trunkline admin create-token: access token name has been used already\n');
    assert.is(taken.code, 1);

    const t = await startTestServer({}, dir);
    try {
      assert.is((await get(t, '/api/v1/user', basicAuth(`carol:${CAROL_NEW}`))).body.login, 'carol');
      assert.is((await get(t, '/api/v1/user', basicAuth(`carol:${CAROL_PW}`))).status, 401);
      const asDave = await get(t, '/api/v1/user', basicAuth(`dave:${davePw}`));
      assert.is(asDave.body.is_admin, true);
      assert.is((await get(t, '/api/v1/user', `token ${tok}`)).body.login, 'carol');
      t.assertNoViolations();
    } finally {
      await t.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('beside a running server: the API sees a new user, a new password and a new token at once', async () => {
  const t = await startTestServer();
  try {
    // Misses are cached by the server too: the user is looked up (and not found) before it exists.
    assert.is((await get(t, '/api/v1/users/erin', basicAuth('root:root-password-1'))).status, 404);
    assert.is((await get(t, '/api/v1/user', basicAuth(`erin:${ERIN_PW}`))).status, 401);
    const made = await admin(t.dataDir, ['create-user', '--username', 'erin', '--email', 'erin@example.com'], `${ERIN_PW}\n`);
    assert.is(made.code, 0, made.err);
    assert.is(made.out, 'Created user erin (id 2).\n');
    assert.is((await get(t, '/api/v1/users/erin', basicAuth('root:root-password-1'))).body.login, 'erin');
    assert.is((await get(t, '/api/v1/user', basicAuth(`erin:${ERIN_PW}`))).body.login, 'erin');

    const token = await admin(t.dataDir, ['create-token', 'erin', '--scopes', 'read:user', '--raw']);
    assert.is(token.code, 0, token.err);
    assert.ok(/^[0-9a-f]{40}\n$/.test(token.out), token.out);
    const tok = token.out.trim();
    secrets.push(tok);
    assert.is((await get(t, '/api/v1/user', `token ${tok}`)).body.login, 'erin');
    // The token's scopes bind it: read:user cannot list repositories' contents it has no scope for.
    assert.is((await request(t.url, 'POST', '/api/v1/user/repos', { headers: { authorization: `token ${tok}` }, json: { name: 'nope' } })).status, 403);
    const bad = await admin(t.dataDir, ['create-token', 'erin', '--name', 'x', '--scopes', 'read:user,read:bogus']);
    assert.is(bad.code, 1);
    assert.is(bad.err, 'trunkline admin create-token: invalid access token scope provided: invalid access token scope: read:bogus\n');

    // The old password was checked (and remembered) just now; after the reset it is refused at once.
    const reset = await admin(t.dataDir, ['reset-password', '--username', 'erin', '--random-password']);
    assert.is(reset.code, 0, reset.err);
    const pw = /^Password of erin \(shown once\): (\S+)$/.exec(lines(reset.out)[0]!)?.[1];
    assert.ok(pw);
    secrets.push(pw!);
    assert.is(lines(reset.out)[1], 'Changed the password of erin; its access tokens stay valid.');
    assert.is((await get(t, '/api/v1/user', basicAuth(`erin:${ERIN_PW}`))).status, 401);
    assert.is((await get(t, '/api/v1/user', basicAuth(`erin:${pw}`))).body.login, 'erin');
    assert.is((await get(t, '/api/v1/user', `token ${tok}`)).body.login, 'erin', 'tokens outlive a password reset, as in Gitea');

    const list = await admin(t.dataDir, ['list-users']);
    assert.equal(lines(list.out), [
      'ID   Username Email            IsActive IsAdmin 2FA',
      '1    root     root@localhost   true     true    false',
      '2    erin     erin@example.com true     false   false',
    ]);
    // The server still owns DATA_DIR: the commands took no lock from it.
    assert.is((await t.http('GET', '/ari/asterisk/ping')).status, 200);
    t.assertNoViolations();
  } finally {
    await t.close();
  }
});

test('no password or token was ever on a command line the suite ran', () => {
  assert.ok(argvs.length > 15);
  const all = argvs.map((a) => a.join(' ')).join('\n');
  for (const s of secrets) assert.not.ok(all.includes(s), `found ${s} on a command line`);
});

test.run();
