import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadCommand } from '../../cli/load/command.js';
import { tempDirs } from '../_helpers/temp-dir.js';
import { cleanEnv, startCli, type CliRun } from '../_helpers/trunkline-cli.js';

// `trunkline load` refusing what it cannot use, before it places anything: bad arguments and
// scripts exit 2 with one message naming the option (or the script step); a server or an app
// that cannot be reached or started exits 3. The command runs as a process where the process
// matters (help, exit status); the many refusals run the same command in this process, with
// its output collected, so the suite does not start dozens of processes.
const test = suite('trunkline load: arguments and refusals');
const temp = tempDirs(test, 'load-args');
const HINT = '\n(trunkline load --help shows what it takes)\n';
const BASE = ['load', '--extension', '1000@default', '--app', 'demo', '--rate', '5', '--concurrent', '2'];

/** `trunkline …` as a child process. */
const spawned = (args: string[]) => startCli(args, cleanEnv(), temp()).done;

/** `trunkline load …` (args without the leading 'load') in this process, its output collected. */
async function load(args: string[]): Promise<CliRun> {
  const run = { stdout: '', stderr: '' };
  const code = await loadCommand(args, { stdout: { write: (s: string) => (run.stdout += s) }, stderr: { write: (s: string) => (run.stderr += s) } });
  return { code, ...run };
}

test('--help prints what it takes and exits 0; trunkline help load too', async () => {
  for (const args of [['load', '--help'], ['help', 'load'], [...BASE, '-h']]) {
    const r = await spawned(args);
    assert.is(r.code, 0, args.join(' '));
    assert.is(r.stderr, '');
    assert.match(r.stdout, /^Usage: trunkline load \[--url URL --user NAME:PASSWORD\] --extension EXT\[@CONTEXT\]\n/);
    assert.match(r.stdout, /\n {2}digit → app reaction {2}from the last ChannelDtmfReceived to the first event after it on that\n/);
  }
});

test('a bad argument as a process: exit 2, the message on stderr', async () => {
  const r = await spawned([...BASE, '--calls', '0']);
  assert.equal(r, { code: 2, stdout: '', stderr: `trunkline load: --calls must be from 1 to 100000 (got 0)${HINT}` });
});

test('bad arguments: exit 2, nothing on stdout, one message naming the option', async () => {
  const cases: Array<[string[], string]> = [
    [['load'], '--extension is required (e.g. --extension 1000@default)'],
    [BASE, 'give --calls N, --duration S, or both (the run stops at whichever comes first)'],
    [[...BASE, '--calls', '0'], '--calls must be from 1 to 100000 (got 0)'],
    [[...BASE, '--calls', '100001'], '--calls must be from 1 to 100000 (got 100001)'],
    [[...BASE, '--calls', '2.5'], '--calls must be a whole number (got 2.5)'],
    [[...BASE, '--calls', 'ten'], "--calls must be a number (got 'ten')"],
    [[...BASE, '--calls', '-1'], "--calls must be a number (got '-1')"],
    [[...BASE, '--duration', '86401'], '--duration must be from 0.1 to 86400 (got 86401)'],
    [['load', '--extension', '1000', '--app', 'demo', '--calls', '5', '--concurrent', '2'], '--rate is required: calls placed per second'],
    [['load', '--extension', '1000', '--app', 'demo', '--calls', '5', '--rate', '1001', '--concurrent', '2'], '--rate must be from 0.01 to 1000 (got 1001)'],
    [['load', '--extension', '1000', '--app', 'demo', '--calls', '5', '--rate', '5', '--concurrent', '1001'], '--concurrent must be from 1 to 1000 (got 1001)'],
    [[...BASE, '--calls', '5', '--call-timeout', '0'], '--call-timeout must be from 1 to 3600 (got 0)'],
    [[...BASE, '--calls', '5', '--time-scale', '5000'], '--time-scale must be from 0.01 to 1000 (got 5000)'],
    [[...BASE, '--calls', '5', '--max-failed-ratio', '1.5'], '--max-failed-ratio must be from 0 to 1 (got 1.5)'],
    [[...BASE, '--calls', '5', '--calls', '6'], '--calls is given twice'],
    [[...BASE, '--calls', '5', '--frobnicate'], 'unknown option --frobnicate'],
    [[...BASE, '--calls', '5', 'extra'], "unexpected argument 'extra'"],
    [[...BASE, '--calls'], '--calls needs a value'],
    [[...BASE, '--calls', '5', '--user', 'a:b'], '--user goes with --url (without --url the tool starts its own server and knows its user)'],
    [[...BASE, '--calls', '5', '--url', 'http://127.0.0.1:1', '--time-scale', '2'], '--time-scale applies to the server the tool starts itself; without --url'],
    [[...BASE, '--calls', '5', '--url', 'ftp://x'], "--url must be an http:// or https:// address (got 'ftp://x')"],
    [[...BASE, '--calls', '5', '--url', 'http://u:p@127.0.0.1:1'], '--url must not carry credentials: give them with --user NAME:PASSWORD'],
    [[...BASE, '--calls', '5', '--url', 'http://127.0.0.1:1', '--user', 'nopassword'], '--user must be NAME:PASSWORD'],
    [['load', '--extension', '1000@', '--app', 'demo', '--calls', '5', '--rate', '5', '--concurrent', '2'], "--extension must be EXTENSION[@CONTEXT] (got '1000@')"],
    [[...BASE, '--calls', '5', '--endpoint', 'alice'], "--endpoint must be TECH/RESOURCE, e.g. PJSIP/alice (got 'alice')"],
    [['load', '--extension', '1000', '--app', 'has space', '--calls', '5', '--rate', '5', '--concurrent', '2'], '--app must be 1 to 73 letters, digits, _, . or -'],
    [[...BASE, '--calls', '5', '--command', 'node "app.js'], '--command has an unclosed " quote'],
    [[...BASE, '--calls', '5', '--json', '-', '--csv', '-'], '--json - and --csv - cannot both write to stdout'],
  ];
  const runs = await Promise.all(cases.map(([args]) => load(args.slice(1))));
  for (const [i, [args, message]] of cases.entries()) {
    assert.equal(runs[i], { code: 2, stdout: '', stderr: `trunkline load: ${message}${HINT}` }, args.join(' '));
  }
});

test('bad scripts and report files: exit 2 naming the file and the step', async () => {
  const dir = temp();
  const file = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));
  const cases: Array<[string[], string]> = [
    [['--script', file('typo.yaml', '- wait_ms: 100\n- wiat_ms: 5\n')], `${join(dir, 'typo.yaml')}: script step 1: unknown key 'wiat_ms'`],
    [['--script', file('two.json', '[{"dtmf": "1", "hangup": 16}]')], `${join(dir, 'two.json')}: script step 0: must be an object with exactly one key (it has 2)`],
    [['--script', file('answer.yaml', 'script:\n  - answer: true\n')], `${join(dir, 'answer.yaml')}: script step 0: answer is for calls the far end receives; these callers place their calls`],
    [['--script', file('empty.yaml', '[]')], `${join(dir, 'empty.yaml')}: script must have at least one step`],
    [['--script', file('bad.yaml', 'steps: [1]\n')], `${join(dir, 'bad.yaml')}: must be a list of steps, or an object with only a 'script' list`],
    [['--script', file('broken.yaml', '- {dtmf: \n')], `${join(dir, 'broken.yaml')}: not valid YAML or JSON: `],
    [['--script', join(dir, 'missing.yaml')], `${join(dir, 'missing.yaml')}: cannot be read (ENOENT)`],
  ];
  const runs = await Promise.all(cases.map(([extra]) => load([...BASE.slice(1), '--calls', '5', ...extra])));
  for (const [i, [extra, message]] of cases.entries()) {
    assert.is(runs[i]!.code, 2, extra.join(' '));
    assert.is(runs[i]!.stdout, '');
    assert.ok(runs[i]!.stderr.startsWith(`trunkline load: --script ${message}`), runs[i]!.stderr);
  }
  const unwritable = await load([...BASE.slice(1), '--calls', '5', '--json', join(dir, 'no', 'such', 'dir.json')]);
  assert.equal(unwritable, { code: 2, stdout: '', stderr: `trunkline load: --json ${join(dir, 'no', 'such', 'dir.json')}: cannot be written (ENOENT)\n` });
});

test('a server that cannot be reached: exit 3', async () => {
  // A port that was free a moment ago: nothing listens there.
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = s.address() as { port: number };
      s.close(() => resolve(p));
    });
  });
  const r = await load([...BASE.slice(1), '--calls', '5', '--url', `http://127.0.0.1:${port}`]);
  assert.is(r.code, 3, r.stderr);
  assert.is(r.stdout, '');
  assert.match(r.stderr, new RegExp(`^trunkline load: cannot reach http://127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
});

test('its own server, an app that exits before connecting: exit 3 with what the app printed', async () => {
  const r = await load([...BASE.slice(1), '--calls', '5', '--time-scale', '10', '--command', 'node -e "console.log(\'no ARI here\'); process.exit(4)"']);
  assert.is(r.code, 3, r.stderr);
  assert.is(r.stdout, '');
  assert.is(r.stderr, "trunkline load: the app exited (code 4) before connecting to the event socket as 'demo'\nits last output:\n  no ARI here\n");
});

test.run();
