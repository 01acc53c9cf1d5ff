import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { tempDirs } from '../_helpers/temp-dir.js';

// `trunkline scenario` (cli/main.ts, as the bin runs it) on the example IVR's scenario and on its
// deliberately broken copy: exit codes, the report's lines for each expectation, the events shown
// around a failure, and the --junit XML of both. The app is examples/ivr/app.mjs on ari-client.
const test = suite('scenario: the example IVR');
const dirs = tempDirs(test, 'example-ivr');
const root = join(import.meta.dirname, '..', '..');
const MAIN = join(root, 'cli', 'main.ts');
const GOOD = join('examples', 'ivr', 'scenario.yaml');
const BROKEN = join('examples', 'ivr', 'scenario-broken.yaml');

/** `trunkline scenario …args` from the repository root: exit code, stdout, stderr. */
function trunklineScenario(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', MAIN, 'scenario', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.on('data', (d) => (out += d));
  proc.stderr.on('data', (d) => (err += d));
  return new Promise((resolve) => proc.once('close', (code) => resolve({ code, out, err })));
}

/** The attributes of every `<tag …>` in `xml`, in order. */
function elements(xml: string, tag: string): Array<Record<string, string>> {
  return [...xml.matchAll(new RegExp(`<${tag}\\s([^>]*?)/?>`, 'g'))].map((m) => Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])));
}

const EXPECTATIONS = [
  'events[0] greeted: StasisStart (call message)',
  'events[1] chose-1: ChannelDtmfReceived (call message)',
  'events[2] recording: RecordingStarted',
  'events[3]: RecordingFinished',
  'events[4]: PlaybackStarted (call message)',
  'events[5] agent: StasisStart',
  'events[6] bridged: ChannelEnteredBridge',
  'events[7]: ChannelLeftBridge',
  'events[8]: StasisEnd',
  'heard[0]: call message, sequence',
  'heard[1]: call transfer, sequence',
  'variables[0]: IVR_CHOICE (call message)',
  'variables[1]: IVR_CHOICE (call transfer)',
];

test('scenario.yaml passes: exit 0, every expectation PASS, JUnit without failures', async () => {
  const junit = join(dirs(), 'good.xml');
  const r = await trunklineScenario([GOOD, '--junit', junit]);
  assert.is(r.err, '');
  assert.is(r.code, 0, r.out);
  const out = r.out.split('\n');
  assert.is(out[0], '[1/1] ivr example … passed');
  const passed = out.filter((l) => l.startsWith('  PASS '));
  assert.equal(passed.map((l, i) => l.startsWith(`  PASS ${EXPECTATIONS[i]}: `) && EXPECTATIONS[i]), EXPECTATIONS, r.out);
  assert.ok(!r.out.includes('FAIL'), r.out);
  assert.ok(out.includes('  PASS variables[0]: IVR_CHOICE (call message): IVR_CHOICE is "message"'), r.out);
  assert.ok(out.includes('  PASS heard[1]: call transfer, sequence: 4 item(s) heard'), r.out);
  assert.match(r.out, /\n {2}passed: 13\/13 expectations, \d+ ms simulated\n1 passed, 0 failed\n$/);

  const xml = readFileSync(junit, 'utf8');
  assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="trunkline scenarios" tests="13" failures="0" errors="0">\n'), xml);
  assert.equal(elements(xml, 'testsuite').map((s) => [s.name, s.file, s.tests, s.failures]), [['ivr example', GOOD, '13', '0']]);
  assert.equal(elements(xml, 'testcase').map((c) => c.name), EXPECTATIONS);
  assert.equal(elements(xml, 'failure'), []);
});

test('scenario-broken.yaml fails: exit 1, the report names the two wrong expectations with the events around them, JUnit has both', async () => {
  const junit = join(dirs(), 'broken.xml');
  const r = await trunklineScenario([BROKEN, '--junit', junit]);
  assert.is(r.code, 1, r.out);
  const out = r.out.replace(/\d\d:\d\d:\d\d\.\d{3} /g, ''); // instants depend on how fast the app reacts
  assert.ok(out.startsWith('[1/1] ivr example (broken) … failed\nScenario: ivr example (broken)\n'), out);
  assert.ok(out.includes('\n  FAIL events[5] wrong-goodbye: PlaybackStarted (call message): 0 seen, wanted exactly 1 with playback.media_uri "sound:goodbye"; nearest candidates:\n'), out);
  assert.match(out, /\n {7}events around it:\n {9}#0 StasisStart channel=message state=Up\n {9}#1 PlaybackStarted media=sound:welcome\n/);
  assert.ok(out.includes('\n  FAIL heard[0]: call message, sequence: item 2 (kind "playback", media "sound:hello-world", completed true) not heard after item 1 (heard[1])\n       nearest: media: wanted "sound:hello-world", got "sound:vm-intro"\n'), out);
  assert.ok(out.includes('\n  call message heard:\n'), out);
  assert.match(out, /\n {4}playback sound:vm-intro 2059 ms completed\n {4}playback sound:beep 250 ms completed\n {4}playback recording:ivr-message-message \d+ ms completed\n {4}playback sound:vm-goodbye 2595 ms completed\n/);
  assert.ok(out.includes('\n  app output (newest lines):\n'), out);
  assert.ok(out.includes('\n    ivr: serving ivr at http://127.0.0.1:'), out);
  assert.ok(out.includes('\n  failed: 12/14 expectations, '), out);
  assert.ok(out.endsWith('\n0 passed, 1 failed\n'), out);

  const xml = readFileSync(junit, 'utf8');
  assert.equal(elements(xml, 'testsuite').map((s) => [s.name, s.file, s.tests, s.failures]), [['ivr example (broken)', BROKEN, '14', '2']]);
  const cases = elements(xml, 'testcase').map((c) => c.name);
  assert.is(cases.length, 14);
  assert.is(cases[5], 'events[5] wrong-goodbye: PlaybackStarted (call message)');
  assert.equal(elements(xml, 'failure').map((f) => f.message), [
    '0 seen, wanted exactly 1 with playback.media_uri &quot;sound:goodbye&quot;; nearest candidates:',
    'item 2 (kind &quot;playback&quot;, media &quot;sound:hello-world&quot;, completed true) not heard after item 1 (heard[1])',
  ]);
});

test.run();
