import type { ScenarioResult } from './run-scenario.js';
import type { TappedEvent } from './tap-stream.js';

/** An event in one line: its number in the stream, instant, type and the few fields that say what it was about. */
export function eventLine(t: TappedEvent): string {
  const e = t.event;
  const bits = [
    e.channel?.id && `channel=${e.channel.id}`,
    e.channel?.state && `state=${e.channel.state}`,
    e.playback?.media_uri && `media=${e.playback.media_uri}`,
    e.digit && `digit=${e.digit}`,
    e.variable && `${e.variable}=${JSON.stringify(e.value)}`,
    e.eventname && `eventname=${e.eventname}`,
    e.cause !== undefined && `cause=${e.cause}`,
  ].filter(Boolean);
  return `#${t.seq} ${String(e.timestamp ?? '').slice(11, 23)} ${e.type}${bits.length ? ` ${bits.join(' ')}` : ''}`;
}

/**
 * The readable report of one run: each expectation with PASS/FAIL; for a failure why, the nearest
 * candidates, the events around it, and what each caller heard. `verbose` adds the whole event
 * stream and the app's output even when everything passed.
 */
export function formatReport(r: ScenarioResult, verbose = false): string {
  const lines = [`Scenario: ${r.name}`];
  if (r.error) lines.push(`  ERROR ${r.error}`);
  for (const x of r.results) {
    lines.push(`  ${x.pass ? 'PASS' : 'FAIL'} ${x.label}: ${x.reason}`);
    if (x.pass) continue;
    for (const d of x.details) lines.push(`       ${d}`);
    if (x.window?.length) {
      lines.push('       events around it:');
      for (const t of x.window) lines.push(`         ${eventLine(t)}`);
    }
  }
  const failed = !r.passed;
  if (failed || verbose) {
    for (const [call, items] of Object.entries(r.heard)) {
      lines.push(`  call ${call} heard:${items.length ? '' : ' nothing'}`);
      for (const h of items) lines.push(`    ${String(h.at ?? '').slice(11, 23)} ${h.kind}${h.media ? ` ${h.media}` : ''}${h.digit ? ` ${h.digit}` : ''}${h.duration_ms !== undefined ? ` ${h.duration_ms} ms` : ''}${h.completed !== undefined ? (h.completed ? ' completed' : ' stopped') : ''}`);
    }
  }
  if (verbose) {
    lines.push(`  events (${r.events.length}):`);
    for (const t of r.events) lines.push(`    ${eventLine(t)}`);
  }
  if ((failed || verbose) && r.appOutput.length) {
    lines.push('  app output (newest lines):');
    for (const l of r.appOutput) lines.push(`    ${l}`);
  }
  const passed = r.results.filter((x) => x.pass).length;
  lines.push(`  ${r.error ? 'error' : r.passed ? 'passed' : 'failed'}: ${passed}/${r.results.length} expectations, ${r.simulatedMs} ms simulated`);
  return lines.join('\n');
}
