import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTrunkline, type Trunkline } from '../../client/start-trunkline.js';
import { violationsIn } from '../_helpers/child.js';
import { openEventLog, type AriEvent, type EventLog, type JsonEvent } from '../_helpers/events.js';
import { tempDirs } from '../_helpers/temp-dir.js';
import { waitUntil } from '../_helpers/wait.js';
import { cleanEnv, startCli } from '../_helpers/trunkline-cli.js';
import { reportViolations } from '../_helpers/violations.js';

// `trunkline load` against a server the suite starts (real clock, ten times faster than the
// wall clock) and the fixture app test/load/fixtures/load-app.mjs, launched by the tool with
// --command. The suite taps the apps itself, so what the tool reports is checked against what
// the server really sent.
const test = suite('trunkline load: runs');
const temp = tempDirs(test, 'load');
const APP = join(import.meta.dirname, 'fixtures', 'load-app.mjs');
const TIME_SCALE = 10;

interface Tapped extends JsonEvent {
  app: string;
  event: AriEvent;
}

let pbx: Trunkline;
let tap: EventLog<Tapped>;

test.before(async () => {
  pbx = await startTrunkline({ clock: 'real', timeScale: TIME_SCALE });
  const key = encodeURIComponent(`${pbx.ari.username}:${pbx.ari.password}`);
  tap = await openEventLog<Tapped>(`${pbx.url.replace(/^http/, 'ws')}/sim/events?app=loadok,loadreject&api_key=${key}`);
});

test.after(async () => {
  await tap?.close();
  if (pbx) reportViolations(`server ${pbx.pid}`, violationsIn(pbx.output()));
  await pbx?.close();
});

/** The caller waits for the greeting, holds on 8 s (simulated), presses 5 and waits: the app hangs up. */
function writeScript(dir: string): string {
  const file = join(dir, 'caller.yaml');
  writeFileSync(file, '- wait_heard: sound:hello-world\n- wait_ms: 8000\n- dtmf: "5"\n- wait_ms: 600000\n');
  return file;
}

/** `trunkline load` against the suite's server with the fixture app as `app`. */
function load(app: string, extra: string[], env: Record<string, string> = {}) {
  const dir = temp();
  const args = ['load', '--url', pbx.url, '--user', `${pbx.ari.username}:${pbx.ari.password}`, '--app', app, '--endpoint', 'PJSIP/alice',
    '--command', `node ${APP}`, '--script', writeScript(dir), '--call-timeout', '30', ...extra];
  return { dir, run: startCli(args, cleanEnv(env), dir).done };
}

/** The most channels of `app` inside it at once, from the tap's StasisStart / StasisEnd stream. */
function mostAtOnce(app: string): number {
  let now = 0;
  let most = 0;
  for (const f of tap.events) {
    if (f.app !== app) continue;
    if (f.event.type === 'StasisStart') most = Math.max(most, ++now);
    if (f.event.type === 'StasisEnd') now--;
  }
  return most;
}

test('20 calls at 10/s, at most 5 at once: exact counts, ordered set-up times, DTMF latency; CSV and progress', async () => {
  const { dir, run } = load('loadok', ['--extension', '1001@default', '--calls', '20', '--rate', '10', '--concurrent', '5', '--json', 'report.json', '--csv', 'report.csv']);
  const r = await run;
  assert.is(r.code, 0, r.stderr);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
  assert.equal(report.calls, { attempted: 20, answered: 20, failed: 0, refused: 0, timed_out: 0, asr_percent: 100, max_concurrent: 5 });
  assert.equal(report.failed_by_cause, []);
  assert.equal(report.ended_by_cause, [{ cause: 16, cause_txt: 'Normal Clearing', count: 20 }]);
  assert.equal(report.target, { url: pbx.url, app: 'loadok', endpoint: 'PJSIP/alice', extension: '1001', context: 'default' });
  assert.is(report.settings.time_scale, null);
  for (const [name, s] of Object.entries({ ...report.setup_ms, dtmf: report.dtmf_response_ms }) as Array<[string, any]>) {
    assert.is(s.count, 20, name);
    assert.ok(s.min >= 0 && s.min <= s.p50 && s.p50 <= s.p95 && s.p95 <= s.p99 && s.p99 <= s.max, `${name}: ${JSON.stringify(s)}`);
  }
  // The app answers after StasisStart (extension 1001 rings), so every answer comes after it.
  assert.ok(report.setup_ms.answer.p50 >= report.setup_ms.stasis_start.p50, JSON.stringify(report.setup_ms));
  // The caller holds 8000 ms (simulated) between the greeting and its digit: no call is shorter.
  // Server timestamps on the real clock are wall time, which the time scale makes ten times shorter.
  assert.ok(report.average_call_duration_ms >= (8000 + 797) / TIME_SCALE, String(report.average_call_duration_ms));
  assert.ok(report.dtmf_response_ms.max > 0, JSON.stringify(report.dtmf_response_ms));
  assert.ok(mostAtOnce('loadok') <= 5, `the tap saw ${mostAtOnce('loadok')} calls in the app at once`);
  assert.is(tap.events.filter((f) => f.app === 'loadok' && f.event.type === 'StasisStart').length, 20);

  const [header, values, rest] = readFileSync(join(dir, 'report.csv'), 'utf8').split('\n');
  assert.is(rest, '');
  const row = Object.fromEntries(header!.split(',').map((k, i) => [k, values!.split(',')[i]]));
  assert.is(header!.split(',').length, values!.split(',').length);
  assert.equal([row.attempted, row.answered, row.failed, row.asr_percent, row.max_concurrent], ['20', '20', '0', '100', '5']);
  assert.is(row.dtmf_response_ms_count, '20');
  assert.is(row.setup_answer_ms_p99, String(report.setup_ms.answer.p99));

  assert.match(r.stdout, /\n {2}Attempted {9}20\n {2}Answered {10}20\n {2}Failed {12}0\n/);
  assert.match(r.stdout, /\n {2}ASR {15}100%\n/);
  // stderr is a pipe here: plain progress lines, never rewritten in place.
  assert.match(r.stderr, /^0\.\ds placed \d+\/20 \(\d+\.\d\/s\) up \d+ answered \d+ ended \d+\n/);
  assert.not.match(r.stderr, /\r/);
});

test('an app that rejects every third call with cause 21: failed by cause exact; --max-failed-ratio exceeded exits 1', async () => {
  const { dir, run } = load('loadreject', ['--extension', '1001', '--calls', '20', '--rate', '20', '--concurrent', '10', '--json', '-', '--max-failed-ratio', '0.25'], { REJECT_EVERY: '3' });
  const r = await run;
  assert.is(r.code, 1, r.stderr);
  assert.match(r.stderr, /\ntrunkline load: 6 of 20 calls failed \(0\.300\), more than --max-failed-ratio 0\.25\n$/);
  const report = JSON.parse(r.stdout);
  assert.equal(report.calls, { attempted: 20, answered: 14, failed: 6, refused: 0, timed_out: 0, asr_percent: 70, max_concurrent: report.calls.max_concurrent });
  assert.ok(report.calls.max_concurrent <= 10);
  assert.equal(report.failed_by_cause, [{ cause: 21, cause_txt: 'Call Rejected', count: 6 }]);
  assert.equal(report.ended_by_cause, [{ cause: 16, cause_txt: 'Normal Clearing', count: 14 }, { cause: 21, cause_txt: 'Call Rejected', count: 6 }]);
  assert.is(report.setup_ms.stasis_start.count, 20);
  assert.is(report.setup_ms.answer.count, 14);
  assert.is(report.dtmf_response_ms.count, 14);
  // The table went to stderr, since --json - took stdout.
  assert.match(r.stderr, /\nFailed calls by cause:\n {2}6 {7}21 Call Rejected\n/);
  assert.ok(mostAtOnce('loadreject') <= 10);
  void dir;
});

test('--url with no app serving the application and no --command: exit 3', async () => {
  const r = await startCli(['load', '--url', pbx.url, '--extension', '1000', '--app', 'nobody', '--calls', '1', '--rate', '1', '--concurrent', '1'], cleanEnv(), temp()).done;
  assert.equal(r, { code: 3, stdout: '', stderr: `trunkline load: no event socket serves the application 'nobody' at ${pbx.url}: start the app first, or give --command\n` });
});

test('no --app: the global STASIS_APP; calls that never end are hung up after --call-timeout and counted as timed out', async () => {
  const dir = temp();
  writeFileSync(join(dir, 'silent.yaml'), '- wait_ms: 600000\n');
  const args = ['load', '--url', pbx.url, '--extension', '1000', '--calls', '3', '--rate', '10', '--concurrent', '3',
    '--call-timeout', '1', '--script', join(dir, 'silent.yaml'), '--quiet', '--json', '-', '--command', `node ${APP}`];
  const r = await startCli(args, cleanEnv(), dir).done;
  assert.is(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  // Answered in the dialplan, greeted, and never a digit: only the time-out ends them.
  assert.equal(report.calls, { attempted: 3, answered: 3, failed: 0, refused: 0, timed_out: 3, asr_percent: 100, max_concurrent: 3 });
  assert.equal(report.ended_by_cause, [{ cause: 16, cause_txt: 'Normal Clearing', count: 3 }]);
  assert.is(report.dtmf_response_ms, null);
  // The bundled dialplan's global STASIS_APP, which the app was started as (ARI_APP).
  assert.is(report.target.app, 'trunkline');
  assert.is(report.setup_ms.stasis_start.count, 3);
});

test('a first call the server refuses as a bad request (an unknown extension): exit 2 with its message, no report', async () => {
  const r = await startCli(['load', '--url', pbx.url, '--extension', '4711@default', '--app', 'loadok', '--calls', '5', '--rate', '5', '--concurrent', '1', '--quiet', '--command', `node ${APP}`], cleanEnv(), temp()).done;
  assert.is(r.code, 2, r.stderr);
  assert.is(r.stdout, '');
  assert.match(r.stderr, /^trunkline load: the server refused the first call: 400 .+ \(check --endpoint, --extension and the script\)\n$/);
});

test('the server goes away during the run: exit 3, the report says so', async () => {
  const gone = await startTrunkline({ clock: 'real', timeScale: TIME_SCALE });
  const dir = temp();
  const args = ['load', '--url', gone.url, '--extension', '1000', '--app', 'goner', '--calls', '1000', '--rate', '10', '--concurrent', '5',
    '--script', writeScript(dir), '--command', `node ${APP}`];
  const cli = startCli(args, cleanEnv(), dir);
  try {
    // The second progress line (2 s in): calls are being placed.
    await waitUntil(() => /\n2\.\ds placed [1-9]/.test(cli.out.stderr), 'a progress line 2 s into the run');
  } finally {
    reportViolations(`server ${gone.pid}`, violationsIn(gone.output()));
    await gone.close();
  }
  const r = await cli.done;
  assert.is(r.code, 3, r.stderr);
  assert.match(r.stdout, /\n {2}Attempted {9}\d+\n/);
  assert.match(r.stdout, /\n\nThe run stopped early: .+\n$/);
});

test('the app exits during the run: exit 3, the report says why, the calls after it still counted', async () => {
  const { run } = load('loadcrash', ['--extension', '1000', '--calls', '6', '--rate', '2', '--concurrent', '6', '--json', '-', '--quiet'], { CRASH_AFTER: '3' });
  const r = await run;
  assert.is(r.code, 3, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.is(report.error, 'the app exited during the run (code 7); its last output: crashing at call 3');
  // Extension 1000 answers in the dialplan, so every call is answered; only the first three
  // reached the app: for the rest Stasis() found no socket and the dialplan hung up.
  assert.equal([report.calls.attempted, report.calls.answered, report.setup_ms.stasis_start.count], [6, 6, 3]);
  assert.match(r.stderr, /\n\nThe run stopped early: the app exited during the run \(code 7\)/);
});

test('without --url: its own server at a time scale, the default script, the table on stdout', async () => {
  const args = ['load', '--extension', '1000@default', '--app', 'own', '--calls', '3', '--rate', '5', '--concurrent', '3', '--time-scale', '10', '--quiet', '--command', `node ${APP}`];
  const r = await startCli(args, cleanEnv(), temp()).done;
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stderr, '');
  assert.match(r.stdout, /^Load: PJSIP\/alice → 1000@default into own at http:\/\/127\.0\.0\.1:\d+\nAsked: 3 calls, 5\/s, at most 3 at once; script: default; time scale 10\n/);
  // Extension 1000 answers in the dialplan, before the app: every call is answered.
  assert.match(r.stdout, /\n {2}Attempted {9}3\n {2}Answered {10}3\n {2}Failed {12}0\n/);
  assert.match(r.stdout, /\nFailed calls by cause:\n {2}\(none\)\n/);
  assert.match(r.stdout, /\n {2}placed → answer {13}3 /);
});

test.run();
