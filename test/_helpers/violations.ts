import type { Test } from 'uvu';

// Contract violations (a response or event off its protocol/ declaration) make the test file
// fail. They are printed where they are found and the file's exit code is set when the process
// exits: uvu sets process.exitCode itself at the end of its run (to 0 when every test passed),
// so an exit code set during a test would be lost, and a hook that throws after a failed test
// would abort the rest of the suite without a report.

let found = 0;

/** Prints violations found on a server (`where`: the test or server) and fails the file. */
export function reportViolations(where: string, violations: string[]): void {
  if (!violations.length) return;
  found += violations.length;
  process.stderr.write(`\n  CONTRACT VIOLATION in ${where}:\n${violations.map((v) => `    ${v}`).join('\n')}\n`);
}

/** Something whose unreported violations can be taken (each is handed out once). */
export interface ViolationSource {
  takeViolations(): string[];
}

/** Registers an after.each hook on `test` that reports the violations each test left on `server()`, with the test's name. */
export function checkViolationsAfterEach(test: Test, server: () => ViolationSource | undefined): void {
  test.after.each((state: { __test__?: string }) => {
    const s = server();
    if (s) reportViolations(`"${state.__test__ ?? '?'}"`, s.takeViolations());
  });
}

/** Sources not yet closed: whatever they hold when the process exits is reported then. */
const open = new Set<{ where: string; source: ViolationSource }>();

/** Tracks a server until `release`; violations nobody took by the time the process exits are reported then. */
export function trackViolations(where: string, source: ViolationSource): { release(): void } {
  const entry = { where, source };
  open.add(entry);
  return { release: () => open.delete(entry) };
}

process.on('exit', () => {
  for (const { where, source } of open) reportViolations(`${where} (never checked)`, source.takeViolations());
  if (!found) return;
  process.stderr.write(`\n  ${found} contract violation(s) in this file: failing it\n`);
  process.exitCode = 1;
});
