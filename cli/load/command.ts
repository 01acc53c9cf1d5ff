import { writeFileSync } from 'node:fs';
import { createSimClient } from '../../client/sim-client.js';
import { startTrunkline, type Trunkline } from '../../client/start-trunkline.js';
import { TrunklineError } from '../../client/trunkline-error.js';
import type { ScriptStep } from '../../protocol/sim/script.js';
import { AppProcess } from '../scenario/app-process.js';
import { requestJson, type ScenarioHost } from '../scenario/scenario-host.js';
import { TapStream } from '../scenario/tap-stream.js';
import { fillFromHistory } from './fill-from-history.js';
import { parseLoadArgs, type LoadArgs } from './load-args.js';
import { LOAD_HELP } from './load-help.js';
import { buildReport } from './load-report.js';
import { DEFAULT_LOAD_SCRIPT, LoadScriptError, readLoadScript } from './load-script.js';
import { progressWriter } from './progress-line.js';
import { formatCsv } from './report-csv.js';
import { formatTable } from './report-table.js';
import { runLoad, type LoadPlan } from './run-load.js';

/** A failure that ends the command with this exit status and message. */
class Exit extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

/** Where the command writes: process.stdout and process.stderr, or a test's own collectors. */
export interface LoadIo {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown; isTTY?: boolean };
}

/** The files the report goes to must be writable before the run starts, not after it. */
function checkWritable(file: string | undefined, option: string): void {
  if (file === undefined || file === '-') return;
  try {
    writeFileSync(file, '');
  } catch (e) {
    throw new Exit(2, `${option} ${file}: cannot be written (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** The server the calls go to: the one at --url (checked), or one of its own on the real clock. */
async function connect(a: LoadArgs): Promise<{ host: ScenarioHost; own?: Trunkline }> {
  if (!a.url) {
    try {
      const own = await startTrunkline({ clock: 'real', ...(a.timeScale !== undefined ? { timeScale: a.timeScale } : {}) });
      return { host: own, own };
    } catch (e) {
      throw new Exit(3, `the server did not start: ${(e as Error).message}`);
    }
  }
  const host: ScenarioHost = { url: a.url, ari: a.user, sim: createSimClient({ url: a.url, ...a.user }) };
  let mode: string;
  try {
    mode = (await host.sim.getClock()).mode;
  } catch (e) {
    if (e instanceof TrunklineError) throw new Exit(3, `${a.url} refused the simulation API: ${e.status} ${JSON.stringify(e.body)}${e.status === 401 || e.status === 403 ? ' (check --user: a user that may write)' : ''}`);
    throw new Exit(3, `cannot reach ${a.url}: ${(e as Error).cause instanceof Error ? ((e as Error).cause as Error).message : (e as Error).message}`);
  }
  if (mode !== 'real') throw new Exit(3, `${a.url} runs the virtual clock (time moves only when advanced); load needs a server on the real clock`);
  return { host };
}

/** --app, or the server's global STASIS_APP: where the bundled dialplan sends calls that do not set it. */
async function appName(a: LoadArgs, host: ScenarioHost): Promise<string> {
  if (a.app) return a.app;
  const r = await requestJson(host, 'GET', '/ari/asterisk/variable', { variable: 'STASIS_APP' });
  const name = r.status === 200 ? (r.body as { value?: string }).value : undefined;
  if (!name) throw new Exit(2, `no --app given, and ${host.url} has no global STASIS_APP to take its place`);
  return name;
}

/** Starts the app under test (--command), or checks that one already serves the application. */
async function appUnderTest(a: LoadArgs, name: string, host: ScenarioHost): Promise<AppProcess | undefined> {
  if (!a.command) {
    const r = await requestJson(host, 'GET', `/ari/applications/${encodeURIComponent(name)}`);
    if (r.status !== 200) throw new Exit(3, `no event socket serves the application '${name}' at ${host.url}: start the app first, or give --command`);
    return undefined;
  }
  const [command, ...args] = a.command;
  const spec = { command: command!, args, cwd: process.cwd(), name };
  const app = AppProcess.start(spec, host);
  try {
    await app.waitReady(spec, host);
  } catch (e) {
    await app.stop();
    throw new Exit(3, `${(e as Error).message}${app.output.length ? `\nits last output:\n  ${app.output.slice(-10).join('\n  ')}` : ''}`);
  }
  return app;
}

/** `trunkline load …`: resolves with the exit status. */
export async function loadCommand(argv: string[], io: LoadIo = process): Promise<number> {
  const say = (s: string) => io.stderr.write(`trunkline load: ${s}\n`);
  const a = parseLoadArgs(argv);
  if (typeof a === 'string') {
    say(`${a}\n(trunkline load --help shows what it takes)`);
    return 2;
  }
  if (a.help) {
    io.stdout.write(LOAD_HELP);
    return 0;
  }
  let own: Trunkline | undefined;
  let tap: TapStream | undefined;
  let app: AppProcess | undefined;
  try {
    let script: ScriptStep[] = DEFAULT_LOAD_SCRIPT;
    try {
      if (a.script) script = readLoadScript(a.script);
    } catch (e) {
      if (e instanceof LoadScriptError) throw new Exit(2, `--script ${e.message}`);
      throw e;
    }
    checkWritable(a.json, '--json');
    checkWritable(a.csv, '--csv');
    const c = await connect(a);
    own = c.own;
    const name = await appName(a, c.host);
    tap = await TapStream.open(c.host, name, { keep: false }).catch((e: Error) => {
      throw new Exit(3, `cannot open the event tap of ${c.host.url}: ${e.message}`);
    });
    app = await appUnderTest(a, name, c.host);
    const plan: LoadPlan = { endpoint: a.endpoint, extension: a.extension, context: a.context, app: name, script, calls: a.calls, rate: a.rate, concurrent: a.concurrent, durationS: a.durationS, callTimeoutS: a.callTimeoutS };
    const stop = { requested: false };
    const onSigint = () => (stop.requested = true);
    process.once('SIGINT', onSigint);
    const progress = progressWriter(io.stderr, a.calls);
    const outcome = await runLoad(c.host, tap, plan, a.quiet ? () => {} : (p) => progress.update(p), stop);
    process.off('SIGINT', onSigint);
    if (!a.quiet) progress.end();
    if (outcome.refusedFirst) throw new Exit(2, `${outcome.error} (check --endpoint, --extension and the script)`);
    if (!outcome.error) await fillFromHistory(c.host.sim, outcome.calls).catch((e: Error) => (outcome.error = `reading the call history: ${e.message}`));
    // An app that died under load is what the run found out, and CI must not read it as a pass.
    if (app?.exit && !outcome.error) outcome.error = `the app exited during the run (${app.exit.signal ?? `code ${app.exit.code}`})${app.output.length ? `; its last output: ${app.output.slice(-3).join(' | ')}` : ''}`;
    const report = buildReport({ url: c.host.url, plan, timeScale: own ? (a.timeScale ?? 1) : null, script: a.script ?? 'default' }, outcome);
    const toStdout = a.json === '-' || a.csv === '-';
    (toStdout ? io.stderr : io.stdout).write(formatTable(report));
    const json = `${JSON.stringify(report, null, 2)}\n`;
    if (a.json === '-') io.stdout.write(json);
    else if (a.json) writeFileSync(a.json, json);
    if (a.csv === '-') io.stdout.write(formatCsv(report));
    else if (a.csv) writeFileSync(a.csv, formatCsv(report));
    if (outcome.error) return 3;
    const ratio = report.calls.attempted ? report.calls.failed / report.calls.attempted : 0;
    if (a.maxFailedRatio !== undefined && ratio > a.maxFailedRatio) {
      say(`${report.calls.failed} of ${report.calls.attempted} calls failed (${ratio.toFixed(3)}), more than --max-failed-ratio ${a.maxFailedRatio}`);
      return 1;
    }
    return 0;
  } catch (e) {
    if (!(e instanceof Exit)) throw e;
    say(e.message);
    return e.code;
  } finally {
    await app?.stop();
    tap?.close();
    await own?.close();
  }
}

/** The command's module as `trunkline` loads it (cli/commands.ts). */
export const help = LOAD_HELP;
export const run = (args: string[]): Promise<number> => loadCommand(args);
