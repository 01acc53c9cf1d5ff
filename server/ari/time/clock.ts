/** A pending timer of a Clock; only the clock that made it can cancel it. */
export interface TimerHandle {
  readonly __timerHandle: true;
}

/**
 * The one source of time for the telephony engine, its media and the
 * simulation API. Instants are milliseconds on the clock's own timeline
 * (what timestamps show and stored due times hold); durations given to it
 * are simulated milliseconds. Every timer, including the media clock's frame
 * ticker, is scheduled here, so an implementation other than the real one
 * (a virtual clock that only moves when told to) can run them all in order.
 */
export interface Clock {
  /** The current instant, ms since the Unix epoch on this clock's timeline. */
  now(): number;
  /** Simulated ms between two instants (`to` defaults to now); negative when `to` is earlier. */
  simSince(from: number, to?: number): number;
  /** The instant `simMs` simulated ms after `from` (default now). */
  instantAfter(simMs: number, from?: number): number;
  /** Runs `fn` once when the clock reaches `instant` (at once, on a later turn, if it is past). */
  at(instant: number, fn: () => void): TimerHandle;
  /** Runs `fn` once after `simMs` simulated ms. */
  after(simMs: number, fn: () => void): TimerHandle;
  /** Runs `fn` every `simMs` simulated ms until cancelled (the media clock's frame ticker). */
  every(simMs: number, fn: () => void): TimerHandle;
  /** Cancels a timer made by `at`, `after` or `every`; cancelling twice, or `undefined`, does nothing. */
  cancel(handle: TimerHandle | null | undefined): void;
  /** How many timers are waiting for a later instant (a repeating one counts until cancelled). */
  pending(): number;
}
