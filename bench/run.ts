// npm run bench: every benchmark in turn (each prints its figures next to a baseline from the same run).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = import.meta.dirname;
const only = process.argv.slice(2);
const scripts = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.startsWith('_') && f !== 'run.ts' && (!only.length || only.some((o) => f.includes(o))));
let failed = 0;
for (const s of scripts) {
  console.log(`\n=== bench/${s}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(dir, s)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
