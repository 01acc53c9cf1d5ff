import type { MetaRepo } from '../../db/repos/meta-repo.js';
import type { Clock } from './clock.js';
import type { ClockSetting } from './clock-setting.js';
import { randomIds, SeededIds, type IdSource } from './id-source.js';
import { RealClock } from './real-clock.js';
import { VirtualClock } from './virtual-clock.js';

/** Meta key of the virtual clock's last advanced instant: a restart goes on from there, never back. */
export const VIRTUAL_NOW_KEY = 'virtual_clock_now';
/** Meta key counting starts on the virtual clock: each start draws ids from a sequence of its own. */
const VIRTUAL_STARTS_KEY = 'virtual_clock_starts';

/** The clock the engine runs on and the source of the ids it makes up, which go together. */
export interface SimTime {
  clock: Clock;
  ids: IdSource;
}

/**
 * Builds the clock SIM_CLOCK asks for. The real one is the system clock sped
 * up by SIM_TIME_SCALE, with random ids. The virtual one starts at
 * SIM_CLOCK_START (or where it stood when this data directory last stopped,
 * if later), and its ids come from a sequence seeded by that start and by how
 * many times this data directory started virtual: a fresh data directory
 * always makes the same ones, a restart never repeats them.
 */
export function createSimTime(setting: ClockSetting, scale: number, meta: MetaRepo, onTimerError: (err: unknown) => void): SimTime {
  if (setting.mode === 'real') return { clock: new RealClock(scale), ids: randomIds };
  const stored = Number(meta.get(VIRTUAL_NOW_KEY) ?? Number.NaN);
  const start = Number.isFinite(stored) ? Math.max(stored, setting.start) : setting.start;
  const starts = Number(meta.get(VIRTUAL_STARTS_KEY) ?? 0) + 1;
  meta.set(VIRTUAL_STARTS_KEY, String(starts));
  return { clock: new VirtualClock(start, onTimerError), ids: new SeededIds(`${setting.start}#${starts}`) };
}
