import * as v from 'valibot';
import { REST_REQUEST_METHODS, RESTQueryStringParameter, RESTRequest } from '../../../protocol/ari/events/index.js';

/** What every RESTResponse repeats from its request: empty strings where the request gave nothing usable. */
export interface RestEcho {
  transaction_id: string;
  request_id: string;
  /** The request's uri up to its '?'. */
  uri: string;
}

/** A RESTRequest that passed the frame checks: what to run. */
export interface RestCall {
  method: (typeof REST_REQUEST_METHODS)[number];
  /** The path below /ari (the uri up to its '?'). */
  path: string;
  /** Query parameters in the order they count: the uri's, then query_strings, then a form body's; of a repeated name the last wins. */
  query: Array<[string, string]>;
  /** A JSON body, as sent (it is known to parse). */
  json?: string;
}

/** A text frame read as a RESTRequest: a call to run, a request refused with a message, or no JSON at all. */
export type RestFrame =
  | { kind: 'call'; echo: RestEcho; call: RestCall }
  | { kind: 'refused'; echo: RestEcho; message: string }
  | { kind: 'unreadable' };

const isMethod = (x: unknown): x is RestCall['method'] => v.is(RESTRequest.fields.method.schema, x);
// Each entry needs a string name and value; other keys in an entry are ignored, as Asterisk ignores them.
const queryStrings = v.array(v.looseObject(RESTQueryStringParameter.schema.entries));

/** Asterisk reads a frame only when it is a JSON object or array (its parser takes no bare values). */
function parseContainer(text: string): object | undefined {
  try {
    const x: unknown = JSON.parse(text);
    return x !== null && typeof x === 'object' ? x : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a text frame as a RESTRequest with Asterisk's checks, in its order
 * and with its messages: `type`, `uri`, `method`, `query_strings`, then the
 * body and its `content_type`. A field of the wrong JSON type counts as
 * missing; an empty `message_body` is no body, whatever `content_type` says.
 */
export function readRestFrame(text: string): RestFrame {
  const parsed = parseContainer(text);
  if (!parsed) return { kind: 'unreadable' };
  // An array has no properties: every required one is missing.
  const obj = (Array.isArray(parsed) ? {} : parsed) as Record<string, unknown>;
  const str = (k: string): string | undefined => (Object.hasOwn(obj, k) && typeof obj[k] === 'string' ? (obj[k] as string) : undefined);
  const echo: RestEcho = { transaction_id: str('transaction_id') ?? '', request_id: str('request_id') ?? '', uri: '' };
  const refuse = (message: string): RestFrame => ({ kind: 'refused', echo, message });

  const type = str('type');
  if (!type) return refuse('No \'type\' property.');
  if (type !== 'RESTRequest') return refuse('Unknown request type.');
  const uri = str('uri');
  if (!uri) return refuse('Empty or missing \'uri\' property.');
  const q = uri.indexOf('?');
  echo.uri = q < 0 ? uri : uri.slice(0, q);
  const query: Array<[string, string]> = q < 0 ? [] : [...new URLSearchParams(uri.slice(q + 1))];
  const method = str('method');
  if (!isMethod(method)) return refuse('Unknown or missing \'method\' property.');
  if (Object.hasOwn(obj, 'query_strings')) {
    const list = v.safeParse(queryStrings, obj.query_strings);
    if (!list.success) return refuse('Unable to parse \'query_strings\' array.');
    for (const p of list.output) query.push([p.name, p.value]);
  }
  const call: RestCall = { method, path: echo.uri, query };
  const body = str('message_body');
  if (!body) return { kind: 'call', echo, call };
  const contentType = str('content_type');
  if (!contentType) return refuse('No \'content_type\' for \'message_body\'.');
  if (contentType === 'application/x-www-form-urlencoded') {
    const fields = [...new URLSearchParams(body)].filter(([name]) => name !== '');
    if (!fields.length) return refuse('Unable to parse \'message_body\' as \'application/x-www-form-urlencoded\'.');
    query.push(...fields);
  } else if (contentType === 'application/json') {
    if (!parseContainer(body)) return refuse('Unable to parse \'message_body\' as \'application/json\'.');
    call.json = body;
  } else return refuse('Unknown content type.');
  return { kind: 'call', echo, call };
}
