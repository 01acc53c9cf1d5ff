import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { violationsIn } from '../_helpers/child.js';
import { ariHttp } from '../_helpers/http.js';
import { tempDirs } from '../_helpers/temp-dir.js';
import { cleanEnv, startCli as start } from '../_helpers/trunkline-cli.js';
import { reportViolations } from '../_helpers/violations.js';

// The `trunkline` command from the repository (cli/main.ts through tsx), run from a
// directory of its own as a user's project would: help texts, exit statuses, and
// `serve` starting the server with the bundled fixtures.
const test = suite('package: trunkline command');
const temp = tempDirs(test, 'cli');
const trunkline = (...args: string[]) => start(args, cleanEnv(), temp()).done;

test('--help, -h and help print the usage on stdout and exit 0', async () => {
  for (const args of [['--help'], ['-h'], ['help']]) {
    const r = await trunkline(...args);
    assert.is(r.code, 0, args.join(' '));
    assert.is(r.stderr, '');
    assert.match(r.stdout, /^Usage: trunkline <command> \[options\]\n/);
    assert.match(r.stdout, /\n {2}serve {5}run the server, configured by the environment \(what npm start does\)\n/);
    assert.match(r.stdout, /\n {2}scenario {2}run scenario files against a Stasis application and report\n {2}load {6}place many calls against an application and report as SIPp does\n/);
  }
});

test('serve --help and help serve print what serve takes', async () => {
  for (const args of [['serve', '--help'], ['serve', '-h'], ['help', 'serve']]) {
    const r = await trunkline(...args);
    assert.is(r.code, 0, args.join(' '));
    assert.match(r.stdout, /^Usage: trunkline serve\n/);
    assert.match(r.stdout, /\n {2}FIXTURES_DIR {2}endpoints, dialplan and sounds \(default: the bundled fixtures\)\n/);
  }
});

test('a command line it cannot use: usage on stderr, exit 2', async () => {
  const none = await trunkline();
  assert.equal([none.code, none.stdout], [2, '']);
  assert.match(none.stderr, /^Usage: trunkline <command>/);
  const unknown = await trunkline('serv');
  assert.equal([unknown.code, unknown.stdout], [2, '']);
  assert.match(unknown.stderr, /^trunkline: unknown command 'serv'\n\nUsage: trunkline <command>/);
  const extra = await trunkline('serve', 'now');
  assert.is(extra.code, 2);
  assert.match(extra.stderr, /^trunkline serve: unexpected argument 'now'\n\nUsage: trunkline serve\n/);
  const noFile = await trunkline('scenario');
  assert.equal([noFile.code, noFile.stdout], [2, '']);
  assert.match(noFile.stderr, /^trunkline scenario: no scenario file given\n\nUsage: trunkline scenario FILE/);
  const scenarioHelp = await trunkline('help', 'scenario');
  assert.is(scenarioHelp.code, 0);
  assert.match(scenarioHelp.stdout, /^Usage: trunkline scenario FILE/);
});

test('serve: the start-up line, ARI answers with the bundled fixtures, SIGTERM exits 0', async () => {
  const dir = temp();
  const run = start(['serve'], cleanEnv({ PORT: '0', DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'warn' }), dir);
  const m = await new Promise<RegExpExecArray>((resolve, reject) => {
    run.proc.stdout.on('data', () => {
      const found = /^Trunkline listening on (http:\/\/127\.0\.0\.1:\d+) \(ARI \1\/ari, simulation \1\/sim, Gitea API \1\/api\/v1; data in (.*)\)$/m.exec(run.out.stdout);
      if (found) resolve(found);
    });
    void run.done.then((r) => reject(new Error(`serve exited (${r.code}) before listening:\n${r.stdout}${r.stderr}`)));
  });
  assert.is(m[2], join(dir, 'data'));
  const http = ariHttp(m[1]!);
  const info = await http('GET', '/ari/asterisk/info');
  assert.is(info.status, 200);
  assert.ok(info.body.system.entity_id, JSON.stringify(info.body));
  assert.is((await http('GET', '/ari/endpoints/PJSIP/alice')).status, 200);
  run.proc.kill('SIGTERM');
  const r = await run.done;
  reportViolations('trunkline serve', violationsIn(r.stdout));
  assert.is(r.code, 0, r.stderr);
});

test('serve: FIXTURES_DIR from the working directory\'s .env is honoured', async () => {
  const dir = temp();
  writeFileSync(join(dir, '.env'), `FIXTURES_DIR=${join(dir, 'no-fixtures')}\n`);
  const r = await start(['serve'], cleanEnv({ PORT: '0', DATA_DIR: join(dir, 'data') }), dir).done;
  assert.is(r.code, 1);
  assert.match(r.stderr, new RegExp(`^trunkline: fixture ${join(dir, 'no-fixtures', 'ari', 'endpoints.json')}: ENOENT`));
});

test.run();
