import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { FixtureOptions } from '../../client/fixture-options.js';
import { junitXml } from './junit.js';
import { loadScenario, ScenarioFileError } from './load-scenario.js';
import { formatReport } from './report.js';
import { runScenario, type ScenarioResult } from './run-scenario.js';
import type { Scenario } from './scenario-schema.js';
import { startScenarioServer } from './start-server.js';

export const SCENARIO_USAGE = `Usage: trunkline scenario FILE... [--junit FILE] [--verbose]

Runs each scenario file (YAML or JSON) against a fresh Trunkline, one after the other,
and reports each expectation. Exit status: 0 all passed, 1 some failed, 2 usage or file errors.

  --junit FILE   also write JUnit XML there (one testsuite per file, one testcase per expectation)
  --verbose      print every event the app received and its output, even when all passed
  -h, --help     this text`;

interface Args {
  files: string[];
  junit?: string;
  verbose: boolean;
  help: boolean;
}

function parseArgs(argv: string[]): Args | string {
  const a: Args = { files: [], verbose: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const x = argv[i]!;
    if (x === '--junit') {
      const f = argv[++i];
      if (f === undefined || f === '') return '--junit needs a file name';
      a.junit = f;
    } else if (x.startsWith('--junit=')) a.junit = x.slice('--junit='.length);
    else if (x === '--verbose' || x === '-v') a.verbose = true;
    else if (x === '--help' || x === '-h') a.help = true;
    else if (x.startsWith('-') && x !== '-') return `unknown option ${x}`;
    else a.files.push(x);
  }
  if (a.junit === '') return '--junit needs a file name';
  if (!a.help && !a.files.length) return 'no scenario file given';
  return a;
}

/** `trunkline scenario FILE… [--junit FILE] [--verbose]`: resolves with the exit status. */
export async function scenarioCommand(argv: string[], out: (s: string) => void = (s) => process.stdout.write(s), err: (s: string) => void = (s) => process.stderr.write(s)): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    err(`trunkline scenario: ${args}\n\n${SCENARIO_USAGE}\n`);
    return 2;
  }
  if (args.help) {
    out(`${SCENARIO_USAGE}\n`);
    return 0;
  }
  // Every file is checked before any runs: a typo in the third file should not wait for the first two.
  const loaded: Array<{ file: string; scenario: Scenario }> = [];
  const bad: string[] = [];
  for (const file of args.files) {
    try {
      loaded.push({ file, scenario: loadScenario(file) });
    } catch (e) {
      if (!(e instanceof ScenarioFileError)) throw e;
      bad.push(e.message);
    }
  }
  if (bad.length) {
    for (const m of bad) err(`trunkline scenario: ${m}\n`);
    return 2;
  }
  const runs: Array<{ file: string; result: ScenarioResult }> = [];
  for (const [i, { file, scenario }] of loaded.entries()) {
    out(`[${i + 1}/${loaded.length}] ${scenario.name} … `);
    const result = await runFile(file, scenario);
    runs.push({ file, result });
    out(`${result.error ? 'error' : result.passed ? 'passed' : 'failed'}\n${formatReport(result, args.verbose)}\n`);
  }
  const passed = runs.filter((r) => r.result.passed).length;
  out(`${passed} passed, ${runs.length - passed} failed\n`);
  if (args.junit) {
    try {
      writeFileSync(args.junit, junitXml(runs));
    } catch (e) {
      err(`trunkline scenario: cannot write ${args.junit}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
      return 2;
    }
  }
  return passed === runs.length ? 0 : 1;
}

/** One file on a server of its own. */
async function runFile(file: string, scenario: Scenario): Promise<ScenarioResult> {
  let server;
  try {
    server = await startScenarioServer(scenario.clock ?? 'virtual', scenario.fixtures as FixtureOptions | undefined, dirname(resolve(file)));
  } catch (e) {
    return { name: scenario.name, passed: false, error: `the server did not start: ${(e as Error).message}`, results: [], events: [], heard: {}, appOutput: [], simulatedMs: 0 };
  }
  try {
    return await runScenario(scenario, server, { baseDir: dirname(resolve(file)) });
  } finally {
    await server.close();
  }
}

/** The command's module as `trunkline` loads it (cli/commands.ts). */
export const help = `${SCENARIO_USAGE}\n`;
export const run = (args: string[]): Promise<number> => scenarioCommand(args);
