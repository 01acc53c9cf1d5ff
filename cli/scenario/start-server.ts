import { isAbsolute, resolve } from 'node:path';
import type { FixtureOptions } from '../../client/fixture-options.js';
import { startTrunkline, type Trunkline } from '../../client/start-trunkline.js';

/**
 * Starts the server one scenario file runs against: the package's startTrunkline (a child
 * process on 127.0.0.1, a temporary data directory removed by close()), on the clock the file
 * asks for, with the file's fixtures over the bundled ones. Sound files a fixture names are
 * found relative to the scenario file.
 */
export function startScenarioServer(clock: 'virtual' | 'real', fixtures: FixtureOptions | undefined, baseDir: string): Promise<Trunkline> {
  return startTrunkline({ clock, ...(fixtures ? { fixtures: withSoundsFrom(fixtures, baseDir) } : {}) });
}

function withSoundsFrom(f: FixtureOptions, baseDir: string): FixtureOptions {
  if (!f.sounds) return f;
  const at = (p: string) => (isAbsolute(p) ? p : resolve(baseDir, p));
  const sounds = Object.fromEntries(Object.entries(f.sounds).map(([id, s]) => [id, typeof s === 'string' ? at(s) : Object.fromEntries(Object.entries(s).map(([lang, p]) => [lang, at(p)]))]));
  return { ...f, sounds };
}
