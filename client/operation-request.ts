import type * as v from 'valibot';
import type { Operation, ParamDef, Params } from '../protocol/operation.js';
import { basicAuth, type Connection } from './connection.js';
import { TrunklineError } from './trunkline-error.js';

// One request for one declared operation: the arguments go where the declaration
// says (path, query, JSON body or raw body), and the answer comes back typed by its
// response model. A status other than the declared success is a TrunklineError.

type InputOf<D> = D extends ParamDef<any, infer I> ? I : never;
type RequiredKeys<P> = { [K in keyof P]-?: undefined extends InputOf<P[K]> ? never : K }[keyof P];
type OptionalKeys<P> = Exclude<keyof P, RequiredKeys<P>>;

/** The arguments a client gives an operation: required parameters must be there, the rest may be left out. */
export type InputArgs<P extends Params> = { [K in RequiredKeys<P>]: InputOf<P[K]> } & { [K in OptionalKeys<P>]?: Exclude<InputOf<P[K]>, undefined> };

/** What an operation resolves with: its response model, the bytes of a binary answer, or nothing. */
export type ResultOf<O> =
  O extends Operation<any, infer R, any, infer C, any> ? (C extends 'binary' ? Uint8Array : R extends v.GenericSchema ? v.InferOutput<R> : void) : never;

/** Arguments are optional altogether when no parameter is required. */
export type OperationMethod<O> =
  O extends Operation<infer P, any, any, any, any>
    ? [RequiredKeys<P>] extends [never]
      ? (args?: InputArgs<P>) => Promise<ResultOf<O>>
      : (args: InputArgs<P>) => Promise<ResultOf<O>>
    : never;

interface Built {
  path: string;
  query: URLSearchParams;
  json?: Record<string, unknown>;
  raw?: { contentType: string; data: Uint8Array };
}

function build(op: Operation, args: Record<string, unknown>): Built {
  for (const name of Object.keys(args)) {
    if (!(name in op.params)) throw new TypeError(`${op.nickname}: unknown argument '${name}' (it takes ${Object.keys(op.params).join(', ') || 'none'})`);
  }
  const out: Built = { path: op.path, query: new URLSearchParams() };
  for (const [name, def] of Object.entries(op.params)) {
    const value = args[name];
    if (value === undefined) continue;
    if (def.in === 'path') out.path = out.path.replace(`{${name}}`, encodeURIComponent(String(value)));
    else if (def.in === 'query') out.query.set(name, Array.isArray(value) ? value.join(',') : String(value));
    else if (def.dataType === 'binary') out.raw = value as Built['raw'];
    else if (def.dataType === 'object') out.json = { ...out.json, ...(value as Record<string, unknown>) };
    else out.json = { ...out.json, [name]: value };
  }
  const missing = /\{(\w+)\}/.exec(out.path);
  if (missing) throw new TypeError(`${op.nickname}: missing argument '${missing[1]}'`);
  return out;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!/json/i.test(res.headers.get('content-type') ?? '')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Sends one operation's request (`/sim/…` for the simulation API, `/ari/…` for the others) and returns its typed answer. */
export async function sendOperation<O extends Operation>(conn: Connection, op: O, args: Record<string, unknown> = {}): Promise<ResultOf<O>> {
  const { path, query, json, raw } = build(op, args);
  const base = op.resource === 'sim' ? '/sim' : '/ari';
  const qs = query.size ? `?${query}` : '';
  const headers: Record<string, string> = { authorization: basicAuth(conn) };
  let body: string | Uint8Array | undefined;
  if (raw) {
    headers['content-type'] = raw.contentType;
    body = raw.data;
  } else if (json) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(json);
  }
  const res = await fetch(`${conn.url}${base}${path}${qs}`, { method: op.method, headers, ...(body !== undefined ? { body } : {}) });
  if (res.status !== op.success) throw new TrunklineError(op.nickname, res.status, await readBody(res), `${op.method} ${base}${path}`);
  if (op.responseClass === 'binary') return new Uint8Array(await res.arrayBuffer()) as ResultOf<O>;
  if (op.response === null) {
    await res.arrayBuffer();
    return undefined as ResultOf<O>;
  }
  return (await res.json()) as ResultOf<O>;
}
