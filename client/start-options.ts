import type { FixtureOptions } from './fixture-options.js';

// startTrunkline's options, checked before anything is started, and the server
// environment they make. A mistake is a TypeError naming the option.

/** An ARI user of the server. Read-only users may only read (README, "Read-only users"). */
export interface AriUserOption {
  username: string;
  password: string;
  readOnly?: boolean;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface TrunklineOptions {
  /** virtual (default): time stands still until clock.advance(); real: the system clock, sped up by timeScale. */
  clock?: 'virtual' | 'real';
  /** With the real clock: how much faster than the wall clock simulated time runs (0.01 to 1000; default 1). */
  timeScale?: number;
  /** With the virtual clock: where it starts (default 2025-01-01T00:00:00Z). */
  clockStart?: string | Date;
  /** Endpoints, dialplan contexts and sounds added to the bundled fixtures. */
  fixtures?: FixtureOptions;
  /** The ARI users (default asterisk / asterisk); `ari` and `sim` act as the first one that may write. */
  ariUsers?: AriUserOption[];
  /** More environment for the server (README, "Configuration"); the keys the options above set are refused here. */
  env?: Record<string, string>;
  /** The server's log level (default warn); its log is kept for output(). */
  logLevel?: LogLevel;
  /** How long the server may take to start before startTrunkline gives up (default 60000 ms). */
  startTimeoutMs?: number;
  /** How long close() waits after SIGTERM before SIGKILL (default 5000 ms). */
  stopGraceMs?: number;
}

/** Environment keys startTrunkline sets itself. */
export const OWN_ENV_KEYS = ['HOST', 'PORT', 'DATA_DIR', 'FIXTURES_DIR', 'SIM_CLOCK', 'SIM_TIME_SCALE', 'SIM_CLOCK_START', 'ARI_USERS', 'LOG_LEVEL'] as const;
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const KNOWN = new Set(['clock', 'timeScale', 'clockStart', 'fixtures', 'ariUsers', 'env', 'logLevel', 'startTimeoutMs', 'stopGraceMs']);

const fail = (msg: string): never => {
  throw new TypeError(`startTrunkline: ${msg}`);
};
const positive = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n > 0;

function ariUsersSetting(users: unknown): { setting: string; writer: AriUserOption } {
  if (!Array.isArray(users) || users.length === 0) return fail('ariUsers must be a non-empty list of { username, password, readOnly? }');
  for (const u of users as AriUserOption[]) {
    if (!u || typeof u.username !== 'string' || !/^[^:,\s]+$/.test(u.username)) fail('each ariUsers entry needs a username without ":", "," or spaces');
    if (typeof u.password !== 'string' || !/^[^,\s](?:[^,]*[^,\s])?$/.test(u.password) || u.password.endsWith(':ro')) {
      fail(`ariUsers: ${u.username}'s password must be non-empty, without "," or spaces at either end, and not end in ":ro"`);
    }
  }
  const list = users as AriUserOption[];
  const writer = list.find((u) => !u.readOnly) ?? fail('ariUsers needs at least one user who is not readOnly (the simulation API needs one)');
  return { setting: list.map((u) => `${u.username}:${u.password}${u.readOnly ? ':ro' : ''}`).join(','), writer };
}

/** Checks the options; returns the server's own environment keys and the ARI user the clients act as. */
export function startPlan(options: TrunklineOptions): { env: Record<string, string>; user: AriUserOption } {
  if (!options || typeof options !== 'object') fail('options must be an object');
  for (const k of Object.keys(options)) if (!KNOWN.has(k)) fail(`unknown option '${k}' (known: ${[...KNOWN].join(', ')})`);
  const { clock = 'virtual', timeScale, clockStart, logLevel = 'warn' } = options;
  if (clock !== 'virtual' && clock !== 'real') fail(`clock must be 'virtual' or 'real' (got ${JSON.stringify(clock)})`);
  if (timeScale !== undefined && !positive(timeScale)) fail('timeScale must be a positive number');
  if (timeScale !== undefined && clock === 'virtual') fail("timeScale applies to the real clock only (the virtual clock moves when advanced): give clock: 'real'");
  let start: string | undefined;
  if (clockStart !== undefined) {
    const d = clockStart instanceof Date ? clockStart : typeof clockStart === 'string' ? new Date(clockStart) : undefined;
    if (!d || Number.isNaN(d.getTime())) fail('clockStart must be a Date or an ISO instant such as 2025-01-01T00:00:00Z');
    start = d!.toISOString();
    if (clock === 'real') fail('clockStart applies to the virtual clock only (the real clock starts at the system time)');
  }
  if (!LOG_LEVELS.includes(logLevel)) fail(`logLevel must be one of ${LOG_LEVELS.join(', ')}`);
  for (const k of ['startTimeoutMs', 'stopGraceMs'] as const) if (options[k] !== undefined && !positive(options[k])) fail(`${k} must be a positive number of milliseconds`);
  for (const [k, val] of Object.entries(options.env ?? {})) {
    if ((OWN_ENV_KEYS as readonly string[]).includes(k)) fail(`env.${k} is set by startTrunkline itself; use its option instead`);
    if (typeof val !== 'string') fail(`env.${k} must be a string`);
  }
  const users = ariUsersSetting(options.ariUsers ?? [{ username: 'asterisk', password: 'asterisk' }]);
  return {
    env: {
      SIM_CLOCK: clock,
      ...(timeScale !== undefined ? { SIM_TIME_SCALE: String(timeScale) } : {}),
      ...(start ? { SIM_CLOCK_START: start } : {}),
      ARI_USERS: users.setting,
      LOG_LEVEL: logLevel,
    },
    user: users.writer,
  };
}
