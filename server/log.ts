import { pino, type Logger } from 'pino';

export type { Logger };

/** Keys whose values never reach a log line, wherever they appear. */
const SECRET_KEYS = ['authorization', 'password', 'api_key', 'token', 'access_token', 'secret', 'remote_password', 'private_key'];

/** JSON-lines logger with secrets redacted at any depth we log. */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const paths = SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`]);
  return pino({ level, redact: { paths, censor: '[redacted]' }, base: { service: 'trunkline' } }, destination ?? process.stdout);
}

/** A URL with credential-bearing query parameters masked, safe to log. */
export function safeUrl(url: string): string {
  return url.replace(/([?&](?:api_key|token|access_token)=)[^&#]*/gi, '$1[redacted]');
}
