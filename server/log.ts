import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';

export type { Logger };

/** LOG_FORMAT: JSON lines (for collectors) or one aligned, readable line per entry (for terminals). */
export type LogFormat = 'json' | 'pretty';

/** Keys whose values never reach a log line, wherever they appear. */
const SECRET_KEYS = ['authorization', 'password', 'api_key', 'token', 'access_token', 'secret', 'remote_password', 'private_key'];

/**
 * JSON-lines logger with secrets redacted at any depth we log and an ISO
 * timestamp on every line; `pretty` turns each line into readable text
 * before it reaches `destination` (stdout by default).
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream, format: LogFormat = 'json'): Logger {
  const paths = SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`]);
  const out = destination ?? process.stdout;
  return pino(
    { level, redact: { paths, censor: '[redacted]' }, base: { service: 'trunkline' }, timestamp: pino.stdTimeFunctions.isoTime },
    format === 'pretty' ? prettyStream(out) : out,
  );
}

/**
 * Query parameters whose value is a credential: ARI's api_key, Gitea's token and access_token, OAuth2's
 * code, code_verifier and refresh_token (a redirect back to a client carries the code), and anything
 * named like a password or secret (client_secret).
 */
const SECRET_PARAM = /^(api_key|token|access_token|refresh_token|code|code_verifier|.*password.*|passwd|.*secret.*|private_key)$/i;

/** A query parameter's name as URLSearchParams reads it (`+` is a space, %XX decoded), so `api%5Fkey` is still api_key. */
function paramName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/**
 * A URL (absolute, or a path with its query) safe to log: credential
 * query parameters masked, however their names are encoded, and the user
 * information of an absolute URL (`https://user:pass@host/…`) removed.
 */
export function safeUrl(url: string): string {
  const withoutUser = url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, '$1');
  const q = withoutUser.indexOf('?');
  if (q < 0) return withoutUser;
  const hash = withoutUser.indexOf('#', q);
  const query = withoutUser.slice(q + 1, hash < 0 ? undefined : hash);
  const masked = query
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const name = eq < 0 ? part : part.slice(0, eq);
      return eq >= 0 && SECRET_PARAM.test(paramName(name)) ? `${name}=[redacted]` : part;
    })
    .join('&');
  return `${withoutUser.slice(0, q + 1)}${masked}`;
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields every line has, shown in their own columns or not at all. */
const FIXED = new Set(['level', 'time', 'msg', 'service', 'pid', 'hostname']);

/** A value as `key=value` shows it: bare when it is one plain word, JSON otherwise (so a line stays one line). */
function shown(value: unknown): string {
  if (typeof value === 'string') return /^[\w.:/@+-]+$/.test(value) ? value : JSON.stringify(value);
  if (value && typeof value === 'object' && 'message' in value && 'stack' in value) return JSON.stringify((value as { stack: unknown }).stack);
  return JSON.stringify(value) ?? String(value);
}

/** One JSON log entry as a readable line: `time LEVEL message key=value …`. Lines that are not JSON pass unchanged. */
export function prettyLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const level = LEVELS[entry.level as number] ?? String(entry.level);
  const fields = Object.entries(entry)
    .filter(([k]) => !FIXED.has(k))
    .map(([k, v]) => `${k}=${shown(v)}`);
  return [String(entry.time ?? ''), level.padEnd(5), String(entry.msg ?? ''), ...fields].join(' ');
}

/** A stream that takes pino's JSON lines and writes each to `out` as prettyLine shows it. */
function prettyStream(out: NodeJS.WritableStream): Writable {
  let partial = '';
  return new Writable({
    write(chunk, _enc, cb) {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      if (lines.length) out.write(lines.map((l) => `${prettyLine(l)}\n`).join(''));
      cb();
    },
  });
}
