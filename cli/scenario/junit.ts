import type { ScenarioResult } from './run-scenario.js';
import { formatReport } from './report.js';

const esc = (s: string) => s.replace(/[<>&"']/g, (c) => `&${({ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' } as Record<string, string>)[c]};`)
  // Characters XML 1.0 cannot carry at all are dropped.
  // eslint-disable-next-line no-control-regex
  .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/**
 * JUnit XML for CI: one testsuite per scenario file, one testcase per expectation (a run that
 * could not happen is one errored testcase named "run"), the failure's text being the report.
 */
export function junitXml(runs: Array<{ file: string; result: ScenarioResult }>): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const all = runs.flatMap((r) => r.result.results);
  const errors = runs.filter((r) => r.result.error).length;
  out.push(`<testsuites name="trunkline scenarios" tests="${all.length + errors}" failures="${all.filter((x) => !x.pass).length}" errors="${errors}">`);
  for (const { file, result } of runs) {
    const failures = result.results.filter((x) => !x.pass).length;
    const tests = result.results.length + (result.error ? 1 : 0);
    out.push(`  <testsuite name="${esc(result.name)}" file="${esc(file)}" tests="${tests}" failures="${failures}" errors="${result.error ? 1 : 0}" time="${(result.simulatedMs / 1000).toFixed(3)}">`);
    if (result.error) out.push(`    <testcase name="run" classname="${esc(result.name)}"><error message="${esc(result.error)}">${esc(formatReport(result))}</error></testcase>`);
    for (const x of result.results) {
      const head = `    <testcase name="${esc(x.label)}" classname="${esc(result.name)}"`;
      if (x.pass) out.push(`${head}/>`);
      else out.push(`${head}><failure message="${esc(x.reason)}">${esc(formatReport({ ...result, results: [x] }))}</failure></testcase>`);
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
