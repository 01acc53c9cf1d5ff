import { MAX_ADVANCE_MS } from '../protocol/sim/clock-operations.js';
import type { ModelOf } from '../protocol/model.js';
import type { SimClock } from '../protocol/sim/clock-operations.js';
import type { advanceSimClock, getSimClock } from '../protocol/sim/clock-operations.js';
import type { OperationMethod } from './operation-request.js';

/** The simulation's clock: read it, and move the virtual one on. */
export interface ClockClient {
  /**
   * Moves the virtual clock on by `ms` simulated milliseconds: every timer due on the way runs
   * at its own instant, and the promise resolves once the events they caused have been sent to
   * the applications. Longer than a simulated day is done as several advances. Resolves with the
   * new instant (in the form of event timestamps).
   */
  advance(ms: number): Promise<string>;
  /**
   * Moves the virtual clock from one due timer to the next until none is left, or until `maxMs`
   * have passed (default: one simulated day, the server's bound). A channel with media flowing
   * (a playback, a bridge, music on hold) keeps a timer pending, so give `maxMs` while calls are up.
   */
  runUntilIdle(options?: { maxMs?: number }): Promise<string>;
  /** The clock's current instant, in the form of event timestamps. */
  now(): Promise<string>;
  /** Which clock runs (real or virtual), its instant and how many timers wait. */
  get(): Promise<ModelOf<typeof SimClock>>;
}

interface ClockMethods {
  getClock: OperationMethod<typeof getSimClock>;
  advanceClock: OperationMethod<typeof advanceSimClock>;
}

/** The clock client over the simulation API's clock operations. */
export function createClockClient(sim: ClockMethods): ClockClient {
  return {
    async advance(ms) {
      if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`clock.advance: ms must be a whole number of milliseconds, 0 or more (got ${ms})`);
      let left = ms;
      let now = (await sim.advanceClock({ ms: Math.min(left, MAX_ADVANCE_MS) })).now;
      for (left -= Math.min(left, MAX_ADVANCE_MS); left > 0; left -= Math.min(left, MAX_ADVANCE_MS)) {
        now = (await sim.advanceClock({ ms: Math.min(left, MAX_ADVANCE_MS) })).now;
      }
      return now;
    },
    async runUntilIdle(options = {}) {
      return (await sim.advanceClock({ until: 'idle', ...(options.maxMs === undefined ? {} : { max_ms: options.maxMs }) })).now;
    },
    async now() {
      return (await sim.getClock()).now;
    },
    get: () => sim.getClock(),
  };
}
