import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parse as parseYaml } from 'yaml';
import { tempDirs } from '../_helpers/temp-dir.js';

// `trunkline scenario` as a process: a real server per file (startTrunkline's child, on the
// virtual clock), the fixture IVR app as a child of it, calls placed with scripts, expectations
// judged on what the app received through the event tap. Exact exit codes and report lines.
const test = suite('scenario runs');
const dirs = tempDirs(test, 'scenario-runs');
const root = join(import.meta.dirname, '..', '..');
const fixtures = join(import.meta.dirname, 'fixtures');
const command = pathToFileURL(join(root, 'cli', 'scenario', 'command.ts')).href;

interface Run {
  code: number | null;
  out: string;
  err: string;
}

/** Runs `trunkline scenario …args` in a child process (node with the tsx loader, as the CLI runs). */
function scenario(args: string[]): Promise<Run> {
  const code = `import { scenarioCommand } from ${JSON.stringify(command)}; process.exitCode = await scenarioCommand(process.argv.slice(1));`;
  const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.on('data', (d) => (out += d));
  proc.stderr.on('data', (d) => (err += d));
  return new Promise((resolve) => proc.once('close', (c) => resolve({ code: c, out, err })));
}

const lines = (s: string) => s.split('\n');
/** Report lines without their instants (which depend on how fast the app reacts). */
const untimed = (s: string) => s.replace(/\d\d:\d\d:\d\d\.\d{3} /g, '');

const PASS_LINES = [
  '  PASS events[0] start: StasisStart (call caller): 1 seen (wanted exactly 1 with args ["1000"], channel.state "Up")',
  '  PASS events[1] pressed-1: ChannelDtmfReceived (call caller): 1 seen (wanted exactly 1 with digit "1")',
  '  PASS events[2]: PlaybackStarted (call caller): 3 seen (wanted exactly 3 with playback.media_uri glob "sound:*")',
  '  PASS events[3] end: StasisEnd (call caller): 1 seen (wanted exactly 1)',
  '  PASS heard[0]: call caller, sequence: 3 item(s) heard',
  '  PASS variables[0]: CHOICE (call caller): CHOICE is "1"',
];

test('the fixture app passes its scenario: exit 0, a progress line, every expectation PASS', async () => {
  const r = await scenario([join(fixtures, 'ivr.yaml')]);
  assert.is(r.err, '');
  assert.is(r.code, 0, r.out);
  const out = lines(r.out);
  assert.is(out[0], '[1/1] ivr menu … passed');
  assert.is(out[1], 'Scenario: ivr menu');
  assert.equal(out.slice(2, 8), PASS_LINES);
  assert.match(out[8]!, /^ {2}passed: 6\/6 expectations, \d+ ms simulated$/);
  assert.is(out[9], '1 passed, 0 failed');
});

test('a broken copy fails: exit 1, the report names each failed expectation, shows the events around it and what the caller heard', async () => {
  const r = await scenario([join(fixtures, 'ivr-broken.yaml')]);
  assert.is(r.code, 1, r.out);
  const out = untimed(r.out);
  assert.ok(out.startsWith('[1/1] ivr menu (broken) … failed\nScenario: ivr menu (broken)\n'), out);
  assert.ok(out.includes('\n  FAIL events[2]: PlaybackStarted (call caller): 3 seen, wanted exactly 4 with playback.media_uri glob "sound:*"\n       events around it:\n'), out);
  // The window ends with the call's last events: the goodbye, then the app hanging up.
  assert.ok(out.includes('PlaybackStarted media=sound:goodbye\n         #9 PlaybackFinished media=sound:goodbye\n         #10 ChannelHangupRequest channel=caller state=Up cause=32\n         #11 StasisEnd channel=caller state=Up\n'), out);
  assert.ok(out.includes('\n  FAIL heard[0]: call caller, sequence: item 1 (kind "playback", media "sound:hello-world", completed true) not heard after item 0 (heard[0])\n       nearest: media: wanted "sound:hello-world", got "sound:press-1"\n'), out);
  assert.ok(out.includes('\n  call caller heard:\n    playback sound:welcome 1301 ms completed\n    playback sound:press-1 1280 ms completed\n    playback sound:goodbye 589 ms completed\n'), out);
  assert.ok(out.includes('\n  app output (newest lines):\n    connected as ivr\n'), out);
  assert.ok(out.includes('\n  failed: 4/6 expectations, '), out);
  assert.ok(out.endsWith('\n0 passed, 1 failed\n'), out);
  // The expectations that hold still say PASS.
  for (const l of [PASS_LINES[0], PASS_LINES[1], PASS_LINES[3], PASS_LINES[5]]) assert.ok(out.includes(`\n${l}\n`), l);
});

/** The attributes of every `<tag …>` in `xml`, in order. */
function elements(xml: string, tag: string): Array<Record<string, string>> {
  return [...xml.matchAll(new RegExp(`<${tag}\\s([^>]*?)/?>`, 'g'))].map((m) => Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])));
}

test('several files run one after the other with progress lines; --junit writes one testsuite per file and one testcase per expectation', async () => {
  const dir = dirs();
  // The same scenario as JSON, its app's folder given as cwd.
  const json = join(dir, 'ivr.json');
  const s = parseYaml(readFileSync(join(fixtures, 'ivr.yaml'), 'utf8'));
  writeFileSync(json, JSON.stringify({ ...s, name: 'ivr menu (json)', app: { ...s.app, cwd: fixtures } }));
  const junit = join(dir, 'report.xml');
  const r = await scenario([join(fixtures, 'ivr.yaml'), join(fixtures, 'ivr-broken.yaml'), json, '--junit', junit]);
  assert.is(r.code, 1, r.out);
  const progress = lines(r.out).filter((l) => l.startsWith('['));
  assert.equal(progress, ['[1/3] ivr menu … passed', '[2/3] ivr menu (broken) … failed', '[3/3] ivr menu (json) … passed']);
  assert.ok(r.out.endsWith('\n2 passed, 1 failed\n'));
  const xml = readFileSync(junit, 'utf8');
  assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="trunkline scenarios" tests="18" failures="2" errors="0">\n'), xml);
  const suites = elements(xml, 'testsuite');
  assert.equal(suites.map((x) => [x.name, x.tests, x.failures, x.errors]), [
    ['ivr menu', '6', '0', '0'], ['ivr menu (broken)', '6', '2', '0'], ['ivr menu (json)', '6', '0', '0'],
  ]);
  assert.equal(suites.map((x) => x.file), [join(fixtures, 'ivr.yaml'), join(fixtures, 'ivr-broken.yaml'), json]);
  const cases = elements(xml, 'testcase');
  assert.is(cases.length, 18);
  assert.equal(cases.slice(6, 12).map((c) => c.name), [
    'events[0] start: StasisStart (call caller)', 'events[1] pressed-1: ChannelDtmfReceived (call caller)', 'events[2]: PlaybackStarted (call caller)',
    'events[3] end: StasisEnd (call caller)', 'heard[0]: call caller, sequence', 'variables[0]: CHOICE (call caller)',
  ]);
  assert.equal(elements(xml, 'failure').map((f) => f.message), [
    '3 seen, wanted exactly 4 with playback.media_uri glob &quot;sound:*&quot;',
    'item 1 (kind &quot;playback&quot;, media &quot;sound:hello-world&quot;, completed true) not heard after item 0 (heard[0])',
  ]);
});

test('a file\'s fixtures reach its server: a call from an endpoint only the file declares, with its caller ID', async () => {
  const dir = dirs();
  const s = parseYaml(readFileSync(join(fixtures, 'ivr.yaml'), 'utf8'));
  const file = join(dir, 'fixtures.json');
  const calls = [{ ...s.calls[0], from: 'PJSIP/tester' }];
  const events = [{ type: 'StasisStart', call: 'caller', match: { 'channel.caller.name': 'Tester', 'channel.caller.number': '7777' }, count: 1 }];
  const fixturesOption = { endpoints: { 'PJSIP/tester': { callerid: '"Tester" <7777>', context: 'default' } } };
  writeFileSync(file, JSON.stringify({ ...s, name: 'fixtures', app: { ...s.app, cwd: fixtures }, fixtures: fixturesOption, calls, expect: { timeout_ms: 30000, events } }));
  const r = await scenario([file]);
  assert.is(r.code, 0, r.out + r.err);
  assert.match(r.out, /\n {2}PASS events\[0\]: StasisStart \(call caller\): 1 seen/);
  // Without them the endpoint is unknown and the call cannot be placed.
  writeFileSync(file, JSON.stringify({ ...s, name: 'no fixtures', app: { ...s.app, cwd: fixtures }, calls, expect: { timeout_ms: 30000, events } }));
  const without = await scenario([file]);
  assert.is(without.code, 1, without.out);
  assert.match(without.out, /call caller could not be placed: 4\d\d/);
});

test('an app that exits before connecting, and one that never connects: exit 1 with the reason and the app\'s output', async () => {
  const dir = dirs();
  const base = { calls: [{ id: 'c', from: 'PJSIP/alice', to: '1000' }], expect: { events: [{ type: 'StasisStart' }] } };
  const quits = join(dir, 'quits.json');
  writeFileSync(quits, JSON.stringify({ ...base, name: 'quits', app: { command: process.execPath, args: ['-e', 'console.error("no ARI today"); process.exit(3)'], name: 'q' } }));
  const idle = join(dir, 'idle.json');
  writeFileSync(idle, JSON.stringify({ ...base, name: 'idle', app: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], name: 'i', ready_timeout_ms: 300 } }));
  const r = await scenario([quits, idle]);
  assert.is(r.code, 1, r.out);
  assert.equal(lines(r.out), [
    '[1/2] quits … error',
    'Scenario: quits',
    '  ERROR the app exited (code 3) before connecting to the event socket as \'q\'',
    '  app output (newest lines):',
    '    no ARI today',
    '  error: 0/0 expectations, 0 ms simulated',
    '[2/2] idle … error',
    'Scenario: idle',
    '  ERROR the app did not connect an event socket for \'i\' within 300 ms',
    '  error: 0/0 expectations, 0 ms simulated',
    '0 passed, 2 failed',
    '',
  ]);
});

test.run();
