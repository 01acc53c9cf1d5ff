// The command line of `trunkline load`, checked before anything starts: every number has a
// range, every option a meaning, and a mistake is one message naming the option (exit 2).

/** The largest values the options accept. */
export const LOAD_LIMITS = {
  calls: 100_000,
  rate: 1000,
  concurrent: 1000,
  durationS: 86_400,
  callTimeoutS: 3600,
  timeScaleMin: 0.01,
  timeScaleMax: 1000,
  commandChars: 4096,
} as const;

/** What a run was asked for. */
export interface LoadArgs {
  url?: string;
  user: { username: string; password: string };
  extension: string;
  context?: string;
  endpoint: string;
  /** The application; absent: the server's global STASIS_APP (what the bundled dialplan sends calls to). */
  app?: string;
  calls?: number;
  rate: number;
  concurrent: number;
  durationS?: number;
  /** Wall seconds after which a call still up is hung up by the tool (and counted as timed out). */
  callTimeoutS: number;
  script?: string;
  command?: string[];
  json?: string;
  csv?: string;
  quiet: boolean;
  timeScale?: number;
  maxFailedRatio?: number;
  help: boolean;
}

const VALUE_OPTIONS = new Set(['--url', '--user', '--extension', '--endpoint', '--app', '--calls', '--rate', '--concurrent', '--duration', '--call-timeout', '--script', '--command', '--json', '--csv', '--time-scale', '--max-failed-ratio']);
const NUMBER = /^(?:\d{1,12})(?:\.\d{1,6})?$/;
const APP_NAME = /^[A-Za-z0-9_.-]{1,73}$/;
const ENDPOINT = /^[A-Za-z0-9]{1,20}\/[^\s/?#]{1,80}$/;

class ArgError extends Error {}
const bad = (msg: string): never => {
  throw new ArgError(msg);
};

/** A number within [min, max] (`whole`: an integer), or a message naming the option. */
function numberOf(name: string, raw: string, min: number, max: number, whole: boolean): number {
  if (!NUMBER.test(raw)) bad(`${name} must be a number (got '${raw.slice(0, 40)}')`);
  const n = Number(raw);
  if (whole && !Number.isInteger(n)) bad(`${name} must be a whole number (got ${raw})`);
  if (n < min || n > max) bad(`${name} must be from ${min} to ${max} (got ${raw})`);
  return n;
}

/**
 * Splits a command line into words: blanks separate them, and single or double quotes keep
 * blanks inside one word. No other shell syntax (variables, globs, pipes) is interpreted.
 */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: string | null = null;
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = null;
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      word ??= '';
    } else if (/\s/.test(ch)) {
      if (word !== null) words.push(word);
      word = null;
    } else word = (word ?? '') + ch;
  }
  if (quote) bad(`--command has an unclosed ${quote} quote`);
  if (word !== null) words.push(word);
  return words;
}

function collect(argv: string[]): Map<string, string> {
  const seen = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const x = argv[i]!;
    if (x === '--help' || x === '-h' || x === '--quiet' || x === '-q') {
      seen.set(x === '-h' ? '--help' : x === '-q' ? '--quiet' : x, '');
      continue;
    }
    const eq = x.indexOf('=');
    const name = x.startsWith('--') && eq > 0 ? x.slice(0, eq) : x;
    if (!VALUE_OPTIONS.has(name)) bad(x.startsWith('-') ? `unknown option ${name.slice(0, 40)}` : `unexpected argument '${x.slice(0, 40)}'`);
    const value = eq > 0 && name !== x ? x.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '') bad(`${name} needs a value`);
    if (seen.has(name)) bad(`${name} is given twice`);
    seen.set(name, value!);
  }
  return seen;
}

function userOf(raw: string): LoadArgs['user'] {
  const at = raw.indexOf(':');
  if (at <= 0 || at === raw.length - 1) bad('--user must be NAME:PASSWORD');
  return { username: raw.slice(0, at), password: raw.slice(at + 1) };
}

function urlOf(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return bad(`--url must be an http:// or https:// address (got '${raw.slice(0, 80)}')`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') bad(`--url must be an http:// or https:// address (got '${raw.slice(0, 80)}')`);
  if (u.username || u.password) bad('--url must not carry credentials: give them with --user NAME:PASSWORD');
  // The server's base URL, as the app under test gets it: ARI is under /ari of it.
  return `${u.origin}${u.pathname.replace(/\/+$/, '').replace(/\/ari$/, '')}`;
}

function build(o: Map<string, string>): LoadArgs {
  const get = (k: string) => o.get(k);
  const url = get('--url');
  if (!url && get('--user')) bad('--user goes with --url (without --url the tool starts its own server and knows its user)');
  if (url && get('--time-scale')) bad('--time-scale applies to the server the tool starts itself; without --url');
  const target = get('--extension') ?? bad('--extension is required (e.g. --extension 1000@default)');
  const at = target!.indexOf('@');
  const extension = at < 0 ? target! : target!.slice(0, at);
  const context = at < 0 ? undefined : target!.slice(at + 1);
  if (!/^[\w*#+.-]{1,80}$/.test(extension) || (context !== undefined && !/^[\w.-]{1,80}$/.test(context))) bad(`--extension must be EXTENSION[@CONTEXT] (got '${target!.slice(0, 80)}')`);
  const app = get('--app');
  if (app !== undefined && !APP_NAME.test(app)) bad('--app must be 1 to 73 letters, digits, _, . or -');
  const endpoint = get('--endpoint') ?? 'PJSIP/alice';
  if (!ENDPOINT.test(endpoint)) bad(`--endpoint must be TECH/RESOURCE, e.g. PJSIP/alice (got '${endpoint.slice(0, 80)}')`);
  const num = (k: string, min: number, max: number, whole: boolean) => (get(k) === undefined ? undefined : numberOf(k, get(k)!, min, max, whole));
  const calls = num('--calls', 1, LOAD_LIMITS.calls, true);
  const durationS = num('--duration', 0.1, LOAD_LIMITS.durationS, false);
  if (calls === undefined && durationS === undefined) bad('give --calls N, --duration S, or both (the run stops at whichever comes first)');
  const rate = num('--rate', 0.01, LOAD_LIMITS.rate, false) ?? bad('--rate is required: calls placed per second');
  const concurrent = num('--concurrent', 1, LOAD_LIMITS.concurrent, true) ?? bad('--concurrent is required: the most calls up at once');
  const command = get('--command');
  if (command !== undefined && command.length > LOAD_LIMITS.commandChars) bad(`--command may be at most ${LOAD_LIMITS.commandChars} characters`);
  const words = command === undefined ? undefined : splitCommand(command);
  if (words && !words.length) bad('--command is empty');
  const args: LoadArgs = {
    user: url ? userOf(get('--user') ?? 'asterisk:asterisk') : { username: 'asterisk', password: 'asterisk' },
    extension, endpoint, rate: rate!, concurrent: concurrent!,
    callTimeoutS: num('--call-timeout', 1, LOAD_LIMITS.callTimeoutS, false) ?? 60,
    quiet: o.has('--quiet'), help: false,
  };
  if (url) args.url = urlOf(url);
  if (app !== undefined) args.app = app;
  if (context !== undefined) args.context = context;
  if (calls !== undefined) args.calls = calls;
  if (durationS !== undefined) args.durationS = durationS;
  if (words) args.command = words;
  for (const [k, key] of [['--script', 'script'], ['--json', 'json'], ['--csv', 'csv']] as const) if (get(k) !== undefined) args[key] = get(k)!;
  if (args.json === '-' && args.csv === '-') bad('--json - and --csv - cannot both write to stdout');
  const scale = num('--time-scale', LOAD_LIMITS.timeScaleMin, LOAD_LIMITS.timeScaleMax, false);
  if (scale !== undefined) args.timeScale = scale;
  const ratio = num('--max-failed-ratio', 0, 1, false);
  if (ratio !== undefined) args.maxFailedRatio = ratio;
  return args;
}

/** Parses `trunkline load`'s arguments; a string is what is wrong with them. */
export function parseLoadArgs(argv: string[]): LoadArgs | string {
  try {
    const o = collect(argv);
    if (o.has('--help')) return { help: true } as LoadArgs;
    return build(o);
  } catch (e) {
    if (e instanceof ArgError) return e.message;
    throw e;
  }
}
