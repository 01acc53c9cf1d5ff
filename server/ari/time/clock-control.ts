import { MAX_ADVANCE_MS } from '../../../protocol/sim/clock-operations.js';
import { badRequest } from '../../errors.js';
import { ariTimestamp } from '../../util/timestamp.js';
import type { Clock } from './clock.js';
import { VirtualClock, type Settle } from './virtual-clock.js';

/** What /sim/clock/advance was asked: a distance, or to run until nothing is due. */
export interface AdvanceRequest {
  ms?: number | undefined;
  until?: 'idle' | undefined;
  max_ms?: number | undefined;
}

/** What the clock control needs from the engine around it. */
export interface ClockControlDeps {
  clock: Clock;
  /**
   * Runs after each timer of an advance: resolves once the work it started on
   * later turns has run and the changes and events it made are committed and sent.
   */
  settle: Settle;
  /** Keeps the virtual clock's instant with the next commit (a restart goes on from there). */
  remember: (now: number) => void;
}

/**
 * The simulation API's view of the clock: which one runs, where it stands,
 * and moving a virtual one on. An advance lets each timer's consequences
 * settle (deferred starts, the group commit, the events it delivers) before
 * the clock moves to the next timer, and answers only once everything the
 * advanced time caused has been committed and sent to the applications.
 */
export class ClockControl {
  private readonly virtual: VirtualClock | null;

  constructor(private readonly deps: ClockControlDeps) {
    this.virtual = deps.clock instanceof VirtualClock ? deps.clock : null;
  }

  /** `{mode, now, pending}` for GET /sim/clock. */
  view(): { mode: 'real' | 'virtual'; now: string; pending: number } {
    const { clock } = this.deps;
    return { mode: this.virtual ? 'virtual' : 'real', now: ariTimestamp(clock.now()), pending: clock.pending() };
  }

  /** Moves the virtual clock by `ms`, or from timer to timer until idle (or `max_ms`); answers where it stopped. */
  async advance(req: AdvanceRequest): Promise<{ now: string }> {
    if (req.ms !== undefined && req.until !== undefined) throw badRequest('Give either ms or until, not both');
    if (req.ms === undefined && req.until === undefined) throw badRequest('Give ms (milliseconds to advance by) or until=idle');
    if (req.max_ms !== undefined && req.until === undefined) throw badRequest('max_ms applies only with until=idle');
    const clock = this.virtual;
    if (!clock) throw badRequest('The clock is real (SIM_CLOCK=real): only a virtual clock can be advanced');
    const { settle } = this.deps;
    const now = req.ms !== undefined
      ? await clock.advance(req.ms, settle)
      : (await clock.advanceUntilIdle(req.max_ms ?? MAX_ADVANCE_MS, settle)).now;
    this.deps.remember(now);
    await settle();
    return { now: ariTimestamp(now) };
  }
}
