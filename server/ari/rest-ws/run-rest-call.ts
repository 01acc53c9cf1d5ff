import { STATUS_CODES } from 'node:http';
import type { AriUser } from '../../config.js';
import type { EventProps } from '../engine/ari-models.js';
import type { RestCall, RestEcho } from './rest-request-frame.js';

/** A RESTResponse's own fields. */
export type RestAnswer = EventProps<'RESTResponse'>;

/** Runs a request through the HTTP application as `user` (the same routes, checks and handlers as over HTTP). */
export type InvokeAsUser = (req: Request, user: AriUser) => Promise<Response>;

/** Asterisk's words for the statuses ARI answers with; any other status takes Node's. */
const REASONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Request Entity Too Large',
  422: 'Unprocessable Entity',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

const reasonOf = (status: number): string => REASONS[status] ?? STATUS_CODES[status] ?? '';

/** An answer carrying an ARI error body. */
export function errorAnswer(echo: RestEcho, status: number, reason: string, message: string): RestAnswer {
  return { ...echo, status_code: status, reason_phrase: reason, content_type: 'application/json', message_body: JSON.stringify({ message }) };
}

/**
 * The request's URL below /ari. The path keeps what the client wrote ('#'
 * and '\' stay part of a segment rather than ending or splitting it), and a
 * path that would leave /ari once dot segments are resolved is refused.
 */
function urlOf(call: RestCall): URL | undefined {
  const path = call.path.replace(/[#\\]/g, (ch) => encodeURIComponent(ch));
  let url: URL;
  try {
    url = new URL(`/ari/${path}`, 'http://localhost');
  } catch {
    return undefined;
  }
  if (!url.pathname.startsWith('/ari/')) return undefined;
  url.search = new URLSearchParams(call.query).toString();
  return url;
}

/**
 * Runs one call and turns the HTTP answer into a RESTResponse: status and
 * reason, and a JSON body as the body string. Headers are not carried.
 * Binary answers (a stored recording's file) are not sent over the socket:
 * the answer is 406, as Asterisk gives, and the client fetches the file over HTTP.
 */
export async function runRestCall(call: RestCall, echo: RestEcho, user: AriUser, host: string | undefined, invoke: InvokeAsUser): Promise<RestAnswer> {
  const url = urlOf(call);
  if (!url) return errorAnswer(echo, 404, 'Not Found', 'Resource not found');
  const headers: Record<string, string> = host ? { host } : {};
  let body: string | undefined;
  // GET and HEAD carry no body here, as the HTTP binder reads none for them.
  if (call.json !== undefined && call.method !== 'GET' && call.method !== 'HEAD') {
    body = call.json;
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  const res = await invoke(new Request(url, { method: call.method, headers, ...(body !== undefined ? { body } : {}) }), user);
  const status = res.status;
  if (res.body === null) return { ...echo, status_code: status, reason_phrase: reasonOf(status) };
  if (!/^application\/json\b/i.test(res.headers.get('content-type') ?? '')) {
    await res.body.cancel();
    if (status < 300) return { ...echo, status_code: 406, reason_phrase: 'Not Acceptable.  Use HTTP GET' };
    return { ...echo, status_code: status, reason_phrase: reasonOf(status) };
  }
  const text = await res.text();
  if (text === '') return { ...echo, status_code: status, reason_phrase: reasonOf(status) };
  return { ...echo, status_code: status, reason_phrase: reasonOf(status), content_type: 'application/json', message_body: text };
}
