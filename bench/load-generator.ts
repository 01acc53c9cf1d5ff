// `trunkline load` at 100 calls/s: 1,000 callers into the example IVR (examples/ivr/app.mjs, each
// caller following its load-script.json: the menu, 1, a spoken message, #, the goodbye), placed by
// the command as a user runs it, against a server started as `npm start` does (real clock, scale
// 1). When examples/ivr is not there (BENCH_LOAD_APP_DIR names another copy), the load tool's own
// test app stands in (test/load/fixtures/load-app.mjs: answer, a prompt, a digit, a second
// prompt, hang up). Measures: calls completed, set-up time p99 (placed → StasisStart and →
// answer, from the tool's report), the app's digit → reaction p99, the server's CPU time and peak
// RSS (from /proc). Baseline, same run and same server settings: the same 1,000 calls at the same
// rate into an app that hangs up each call as it arrives (extension 1000 answers in the
// dialplan), so the difference is what the IVR's prompts, digits and recordings cost the server,
// and the baseline's own figures are the floor that call set-up and the tool's tap add.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuMsOf, fmt, startTrunkline, type Proc } from './_lib.js';

const CALLS = Number(process.env.BENCH_CHANNELS ?? 1000);
const RATE = 100;
const CONCURRENT = 1000;
const root = join(import.meta.dirname, '..');
const TEST_APP = join(root, 'test', 'load', 'fixtures', 'load-app.mjs');
const EXAMPLE_DIR = process.env.BENCH_LOAD_APP_DIR ?? join(root, 'examples', 'ivr');
const example = existsSync(join(EXAMPLE_DIR, 'app.mjs')) && existsSync(join(EXAMPLE_DIR, 'load-script.json'));
/** CPU seconds (user + system) the process has used so far. */
const cpuSeconds = (pid: number): number => cpuMsOf(pid) / 1000;

interface Figures {
  report: any;
  cpuS: number;
  peakMiB: number;
  code: number | null;
}

/** One `trunkline load` run against a fresh server; the app under test is started by the tool. */
async function run(label: string, app: string, extension: string, script: unknown[], appEnv: Record<string, string>): Promise<Figures> {
  const server: Proc = await startTrunkline({ SIM_CLOCK: 'real' });
  const dir = mkdtempSync(join(tmpdir(), 'trunkline-bench-load-'));
  writeFileSync(join(dir, 'script.json'), JSON.stringify(script));
  const cpu0 = cpuSeconds(server.proc.pid!);
  let peak = server.rssMiB();
  const sampler = setInterval(() => (peak = Math.max(peak, server.rssMiB())), 100);
  const args = ['--import', 'tsx', join(root, 'cli', 'main.ts'), 'load', '--url', server.url, '--user', 'asterisk:asterisk', '--app', `bench-${label}`,
    '--extension', extension, '--calls', String(CALLS), '--rate', String(RATE), '--concurrent', String(CONCURRENT),
    '--script', join(dir, 'script.json'), '--command', `node ${app}`, '--json', '-', '--quiet'];
  // The tool's table goes to stderr (the JSON report takes stdout): shown only when it fails.
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...appEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) process.stderr.write(`${label}: trunkline load exited ${code}\n${err}`);
  clearInterval(sampler);
  const cpuS = cpuSeconds(server.proc.pid!) - cpu0;
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
  let report: any;
  try {
    report = JSON.parse(out);
  } catch {
    throw new Error(`${label}: the load tool exited ${code} without a report:\n${out}`);
  }
  return { report, cpuS, peakMiB: peak, code };
}

const ivr = example
  ? await run('ivr', join(EXAMPLE_DIR, 'app.mjs'), '1000', JSON.parse(readFileSync(join(EXAMPLE_DIR, 'load-script.json'), 'utf8')), {})
  : await run('ivr', TEST_APP, '1001', [{ wait_heard: 'sound:hello-world' }, { dtmf: '5' }, { wait_ms: 600_000 }], {});
const bare = await run('bare', TEST_APP, '1000', [{ wait_ms: 600_000 }], { HANGUP_AT_ONCE: '1' });

const line = (name: string, f: Figures) => {
  const r = f.report;
  // Completed: answered and ended with normal clearing by the app or the caller, not by the tool's time-out.
  const completed = r.ended_by_cause.filter((c: any) => c.cause === 16).reduce((a: number, c: any) => a + c.count, 0) - r.calls.timed_out;
  return `  ${name.padEnd(6)} ${fmt(completed, 0)}/${fmt(r.calls.attempted, 0)} completed (answered ${r.calls.answered}, failed ${r.calls.failed}, timed out ${r.calls.timed_out}) in ${fmt(r.wall_ms / 1000)} s; ` +
    `placed → StasisStart p99 ${fmt(r.setup_ms.stasis_start?.p99 ?? NaN)} ms, → answer p99 ${fmt(r.setup_ms.answer?.p99 ?? NaN)} ms; ` +
    `digit → reaction p99 ${r.dtmf_response_ms ? `${fmt(r.dtmf_response_ms.p99)} ms` : '-'}; most at once ${r.calls.max_concurrent}; ` +
    `server CPU ${fmt(f.cpuS, 2)} s, peak RSS ${fmt(f.peakMiB, 0)} MiB`;
};
console.log(`trunkline load: ${fmt(CALLS, 0)} calls at ${RATE}/s (at most ${CONCURRENT} at once), real clock; load average ${loadavg().map((x) => fmt(x, 1)).join(' ')}`);
console.log(`  ivr: ${example ? `${EXAMPLE_DIR}/app.mjs with its load-script.json` : 'examples/ivr is missing: the load tests\' app (test/load/fixtures/load-app.mjs)'}`);
console.log(line('ivr', ivr));
console.log(line('bare', bare));
console.log(`  the IVR's app logic costs ${fmt(ivr.cpuS - bare.cpuS, 2)} s of server CPU more (${fmt(ivr.cpuS / Math.max(bare.cpuS, 0.01), 2)}×) and ${fmt(ivr.peakMiB - bare.peakMiB, 0)} MiB more peak RSS`);
if (ivr.code !== 0 || bare.code !== 0) process.exitCode = 1;
