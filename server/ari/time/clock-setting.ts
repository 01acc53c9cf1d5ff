/**
 * Where a virtual clock starts when SIM_CLOCK_START is not set: a fixed
 * instant, so two runs of the same scenario stamp the same times (and, since
 * unique ids carry epoch seconds, make the same ids).
 */
export const DEFAULT_VIRTUAL_START = '2025-01-01T00:00:00.000Z';

/** An ISO 8601 instant with a date, a time and a zone: `2025-01-01T00:00:00Z`, `2025-06-30T12:00:00.250+02:00`. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})$/;

/** Milliseconds since the epoch of an ISO instant between 1970 and 9999, or undefined when it is not one. */
export function parseClockStart(text: string): number | undefined {
  if (!ISO_INSTANT.test(text)) return undefined;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms) || ms < 0 || ms > Date.UTC(9999, 11, 31)) return undefined;
  // Date.parse rolls 2025-02-30 over into March; a date that does not exist is refused instead.
  const [y, m, d] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d ? ms : undefined;
}

/** Which clock the telephony engine runs on (SIM_CLOCK), and where a virtual one starts (SIM_CLOCK_START). */
export type ClockSetting = { mode: 'real' } | { mode: 'virtual'; start: number };

/** SIM_CLOCK and SIM_CLOCK_START read together; a start given to the real clock is a mistake worth stopping for. */
export function clockSetting(mode: 'real' | 'virtual', start: string | undefined): ClockSetting | string {
  if (mode === 'real') return start === undefined ? { mode } : 'SIM_CLOCK_START needs SIM_CLOCK=virtual (the real clock starts at the system time)';
  return { mode, start: parseClockStart(start ?? DEFAULT_VIRTUAL_START)! };
}
