import type { MetaRepo } from '../../db/repos/meta-repo.js';
import type { Fixtures } from '../fixtures.js';

/** Global variables at start: the dialplan fixture's, then what clients set or unset since (kept in the meta table). */
export function loadGlobals(fixtures: Fixtures, meta: MetaRepo): Map<string, string> {
  const globals = new Map<string, string>();
  for (const [k, val] of Object.entries(fixtures.globals)) globals.set(k, val);
  for (const [k, val] of meta.globals()) {
    if (val === null) globals.delete(k);
    else globals.set(k, val);
  }
  return globals;
}

/** Sets (or, with null, unsets) a global variable and stores the change. */
export function setGlobal(globals: Map<string, string>, meta: MetaRepo, name: string, value: string | null): void {
  if (value === null) globals.delete(name);
  else globals.set(name, value);
  meta.setGlobal(name, value);
}
