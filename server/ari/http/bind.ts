import { STATUS_CODES } from 'node:http';
import type { Context, Hono } from 'hono';
import type { Operation, OperationArgs, OperationResult, ParamDef, VariableInput } from '../../../protocol/operation.js';
import { declaredStatuses } from '../../../protocol/operation.js';
import type { AriUser } from '../../config.js';
import { badRequest } from '../../errors.js';
import type { Logger } from '../../log.js';
import { ARI_ERRORS, ariError } from './errors.js';
import { isJson, parseJson, readBody, readBodyBytes } from '../../http/body.js';
import { createContractCheck } from '../../http/contract-check.js';
import { errorResponse } from '../../http/error-response.js';
import { honoPath } from '../../http/hono-path.js';
import { parseBoolean, type BooleanWords } from '../../http/parse-boolean.js';

/** What an ARI handler knows about its request besides the bound arguments. */
export interface AriContext {
  user: AriUser;
  /** The request's Host header (docs and Location derive from it). */
  host: string | undefined;
}

/** What a 201 handler returns: the body plus the resource's path for `Location`. */
export interface Created<T> {
  body: T;
  location: string;
}

/** What a `binary` operation returns: raw bytes and their content type. */
export interface BinaryBody {
  data: Uint8Array;
  contentType: string;
}

type Result<O extends Operation> = O['responseClass'] extends 'binary'
  ? BinaryBody
  : O['success'] extends 201 ? Created<OperationResult<O>> : OperationResult<O>;
/** A thin ARI handler: bound arguments and context in, the operation's result out. */
export type AriHandler<O extends Operation> = (args: OperationArgs<O>, ctx: AriContext) => Result<O> | Promise<Result<O>>;

/** What the ARI binder needs: where it is mounted, limits, test-mode checking and the commit hook. */
export interface BinderOptions {
  /** Where the API is mounted: `/ari` or `/sim`. */
  prefix: string;
  maxBodyBytes: number;
  /** Bodies of operations that take raw data (far-end audio uploads). */
  maxUploadBytes: number;
  maxJsonDepth: number;
  /** Bounds on parameter values and on the variables one request may set (AriLimits). */
  limits: { maxValueBytes: number; maxVariableNameBytes: number; maxVariables: number };
  /** Test mode: every response is checked against the operation's declaration. */
  checkResponses: boolean;
  violations: string[];
  log: Logger;
  /** Awaited after every handler, before the answer leaves: the engine's changes are committed by then. */
  beforeRespond?: () => Promise<void>;
  /**
   * Asked before each request is bound: a status to fail it with instead (the fail_requests fault). Such an
   * answer is deliberate, so test mode does not hold it to the operation's declared statuses.
   */
  injectFailure?: (op: Operation) => number | undefined;
  /** Called with each successful answer once it is committed (test mode's crash points). */
  onAnswer?: (nickname: string, c: Context) => void;
}

/** Answers that come from request-wide checks (credentials, size limits), not from the operation. */
const GLOBAL_STATUSES = new Set([401, 403, 413]);
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
/** Asterisk's words for true and false (its ast_true and ast_false), for the binder and the event socket. */
export const ARI_BOOLEAN: BooleanWords = {
  yes: new Set(['true', 'yes', 'y', 't', '1', 'on']),
  no: new Set(['false', 'no', 'n', 'f', '0', 'off']),
};

type Raw = string | number | boolean | null | object;

function invalid(name: string, p: ParamDef): never {
  throw badRequest(p.invalidMessage ?? `Invalid value for parameter '${name}'`);
}

/** Coerces one raw value (a query string or a JSON value) to the parameter's declared type. */
function coerceOne(name: string, p: ParamDef, raw: Raw): string | number | boolean {
  let out: string | number | boolean;
  switch (p.dataType) {
    case 'int':
    case 'long': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*[-+]?\d+\s*$/.test(raw) ? Number(raw) : NaN;
      if (!Number.isSafeInteger(n)) throw badRequest(`Parameter '${name}' must be an integer`);
      // Swagger's int is 32 bits (Asterisk parses it into an int); a larger value would overflow timers and counters.
      if (p.dataType === 'int' && (n < INT32_MIN || n > INT32_MAX)) throw badRequest(`Parameter '${name}' is out of range`);
      if (!p.handlerValidates && ((p.min !== undefined && n < p.min) || (p.max !== undefined && n > p.max))) invalid(name, p);
      out = n;
      break;
    }
    case 'boolean': {
      const b = typeof raw === 'boolean' ? raw : typeof raw === 'string' ? parseBoolean(raw.trim(), ARI_BOOLEAN) : undefined;
      if (b === undefined) throw badRequest(`Parameter '${name}' must be true or false`);
      out = b;
      break;
    }
    default:
      if (typeof raw === 'object' && raw !== null) throw badRequest(`Parameter '${name}' must be a string`);
      out = String(raw);
  }
  if (p.allowableValues && !p.handlerValidates && !p.allowableValues.includes(out as string)) invalid(name, p);
  return out;
}

type Limits = BinderOptions['limits'];

/** A variable name someone asks us to set: at most maxVariableNameBytes (Asterisk's extension length by default). */
function checkVariableName(name: string, limits: Limits): void {
  if (Buffer.byteLength(name) > limits.maxVariableNameBytes) throw badRequest(`Variable name longer than ${limits.maxVariableNameBytes} bytes`);
}

/** A string parameter's values (a list counts as its items joined by commas) fit in maxValueBytes. */
function checkStringSize(name: string, vals: Raw[], limits: Limits): void {
  let size = vals.length - 1;
  for (const x of vals) size += typeof x === 'string' ? Buffer.byteLength(x) : String(x).length;
  if (size > limits.maxValueBytes) throw badRequest(`Parameter '${name}' is longer than ${limits.maxValueBytes} bytes`);
}

/** The `variables` container: `{"variables": {"NAME": "value" | {"value", "report_events"}}}`, within the limits. */
function bindVariables(container: unknown, limits: Limits): VariableInput[] {
  if (container === undefined || container === null) return [];
  if (typeof container !== 'object' || Array.isArray(container)) throw badRequest('The \'variables\' body parameter must be a JSON object');
  const entries = Object.entries(container as Record<string, unknown>);
  if (entries.length > limits.maxVariables) throw badRequest(`At most ${limits.maxVariables} variables may be set in one request`);
  const out: VariableInput[] = [];
  for (const [name, val] of entries) {
    checkVariableName(name, limits);
    const value = typeof val === 'string' ? val : val && typeof val === 'object' ? (val as { value?: unknown }).value : undefined;
    if (typeof value === 'string' && Buffer.byteLength(value) > limits.maxValueBytes) throw badRequest(`Value of variable '${name}' is longer than ${limits.maxValueBytes} bytes`);
    if (typeof val === 'string') out.push({ name, value: val, reportEvents: false });
    else if (val && typeof val === 'object' && !Array.isArray(val) && typeof (val as { value?: unknown }).value === 'string') {
      const re = (val as { report_events?: unknown }).report_events;
      if (re !== undefined && typeof re !== 'boolean') throw badRequest('report_events must be a boolean');
      out.push({ name, value: (val as { value: string }).value, reportEvents: re === true });
    } else throw badRequest('Only string values in the \'variables\' object allowed');
  }
  return out;
}

/**
 * Gathers raw parameters with ARI's precedence — form body, then query,
 * then the top-level keys of a JSON object body — and the JSON body itself.
 */
async function gather(c: Context, opts: BinderOptions, rawUpload: boolean): Promise<{ raw: Map<string, Raw[]>; json: unknown; bytes?: Buffer }> {
  const raw = new Map<string, Raw[]>();
  const ct = c.req.header('content-type');
  let json: unknown;
  let bytes: Buffer | undefined;
  const length = c.req.header('content-length');
  const hasBody = c.req.method !== 'GET' && c.req.method !== 'HEAD' && ((length !== undefined && length !== '0') || c.req.header('transfer-encoding') !== undefined);
  if (rawUpload) {
    // An upload: the body is data, not parameters.
    bytes = hasBody ? await readBodyBytes(c.req.raw, opts.maxUploadBytes) : Buffer.alloc(0);
  } else if (hasBody) {
    const text = await readBody(c.req.raw, opts.maxBodyBytes);
    if (isJson(ct)) {
      if (text.trim() !== '') json = parseJson(text, opts.maxJsonDepth);
    } else if (ct && /^application\/x-www-form-urlencoded/i.test(ct)) {
      for (const [k, val] of new URLSearchParams(text)) raw.set(k, [val]);
    }
  }
  const url = c.req.url;
  const q = url.indexOf('?');
  if (q >= 0) {
    // A repeated key: the last one wins, as in Asterisk; lists are comma-separated in one value.
    for (const [k, val] of new URLSearchParams(url.slice(q + 1))) raw.set(k, [val]);
  }
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    for (const [k, val] of Object.entries(json as Record<string, unknown>)) {
      if (k === 'variables' || val === undefined || val === null) continue;
      raw.set(k, Array.isArray(val) ? (val as Raw[]) : [val as Raw]);
    }
  }
  return { raw, json, ...(bytes ? { bytes } : {}) };
}

/** Builds typed args for an operation from a request. */
async function bindArgs(c: Context, op: Operation, opts: BinderOptions): Promise<Record<string, unknown>> {
  const rawUpload = Object.values(op.params).some((p) => p.dataType === 'binary');
  const { raw, json, bytes } = await gather(c, opts, rawUpload);
  const args: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(op.params)) {
    if (p.in === 'path') {
      args[name] = c.req.param(name);
      continue;
    }
    if (p.in === 'body' && p.dataType === 'binary') {
      args[name] = { contentType: c.req.header('content-type') ?? 'application/octet-stream', data: bytes ?? Buffer.alloc(0) };
      continue;
    }
    if (p.in === 'body' && p.dataType === 'object') {
      // The whole body is the parameter (an event filter); its handler judges its shape.
      args[name] = json;
      continue;
    }
    if (p.in === 'body') {
      // A variables container is a JSON object; any other JSON body cannot carry one (nor parameters).
      if (json !== undefined && (json === null || typeof json !== 'object' || Array.isArray(json))) throw badRequest('The request body must be a JSON object');
      // A JSON container sits under the body key of its own name; a variables container under `variables`.
      const container = (json as Record<string, unknown> | undefined)?.[p.jsonContainer ? name : 'variables'];
      args[name] = p.jsonContainer ? container : bindVariables(container, opts.limits);
      continue;
    }
    let vals = raw.get(name);
    // An empty string for a typed parameter means "not given", as Asterisk's parsers treat it.
    if (vals && p.dataType !== 'string' && vals.every((x) => x === '')) vals = undefined;
    if (vals !== undefined && p.dataType === 'string') {
      checkStringSize(name, vals, opts.limits);
      // `variable` names a channel or global variable; on a write it is one we are asked to keep.
      if (name === 'variable' && op.method !== 'GET') for (const x of vals) checkVariableName(String(x), opts.limits);
    }
    if (vals === undefined || vals.length === 0) {
      if (p.defaultValue !== undefined) args[name] = p.allowMultiple ? [p.defaultValue] : p.defaultValue;
      else if (p.required && !p.handlerValidates) throw badRequest(p.missingMessage ?? `Required parameter '${name}' not provided`);
      continue;
    }
    if (p.allowMultiple) {
      const list = vals.flatMap((x): Raw[] => (typeof x === 'string' ? x.split(',') : [x])).filter((x) => x !== '');
      // `eventSource=` or `eventSource=,`: an empty list is a missing parameter (Asterisk: event_source_count <= 0).
      if (!list.length && p.required && !p.handlerValidates) throw badRequest(p.missingMessage ?? `Required parameter '${name}' not provided`);
      args[name] = list.map((x) => coerceOne(name, p, x));
    } else args[name] = coerceOne(name, p, vals[vals.length - 1]!);
  }
  return args;
}

/**
 * Mounts operations on a Hono app with one uniform glue: bind, call the
 * thin handler, map errors, answer with the declared status. Paths with
 * literal segments are mounted before parameterised ones at the same place
 * (so `/channels/create` is not taken for a channel id), each followed by a
 * 405 for its other methods.
 */
export function createAriBinder(app: Hono<any>, opts: BinderOptions) {
  const pending: Array<{ op: Operation; handler: AriHandler<any> }> = [];
  const mounted = new Set<Operation>();

  const contract = createContractCheck({ dialect: ARI_ERRORS, violations: opts.violations, log: opts.log });

  function respondError(op: Operation, where: string, status: number, message: string): Response {
    return check(op, where, errorResponse(ARI_ERRORS, status, message), ARI_ERRORS.body(message));
  }

  /** Test mode: an undeclared status or a body off its schema becomes a 500 naming the violation. */
  function check(op: Operation, where: string, res: Response, body: unknown): Response {
    if (!opts.checkResponses) return res;
    const declared = declaredStatuses(op).has(res.status) || GLOBAL_STATUSES.has(res.status);
    return contract(res, body, declared, res.status < 300 ? op.response : null, op.responseClass, res.status >= 400, where);
  }

  function route(op: Operation, handler: AriHandler<any>) {
    const where = `${op.method} ${op.path} (${op.nickname})`;
    return async (c: Context): Promise<Response> => {
      const injected = opts.injectFailure?.(op);
      if (injected !== undefined) return errorResponse(ARI_ERRORS, injected, STATUS_CODES[injected] ?? 'Injected failure');
      let result: unknown;
      try {
        const args = await bindArgs(c, op, opts);
        result = await handler(args, { user: c.get('ariUser'), host: c.req.header('host') });
      } catch (err) {
        await opts.beforeRespond?.();
        const mapped = ariError(err);
        if (mapped) return respondError(op, where, mapped.status, mapped.message);
        opts.log.error({ err, op: op.nickname }, 'unhandled error in ARI handler');
        return respondError(op, where, 500, 'Internal Server Error');
      }
      await opts.beforeRespond?.();
      opts.onAnswer?.(op.nickname, c);
      // A void answer has no body (204, and 202 for what is only accepted, as Asterisk sends them).
      if (op.success === 204 || op.responseClass === 'void') return check(op, where, new Response(null, { status: op.success }), undefined);
      if (op.responseClass === 'binary') {
        const bin = result as BinaryBody;
        return check(op, where, new Response(bin.data, { status: op.success, headers: { 'content-type': bin.contentType } }), undefined);
      }
      let body = result;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (op.success === 201) {
        const created = result as Created<unknown>;
        body = created.body;
        headers.location = `${opts.prefix}${created.location}`;
      }
      return check(op, where, new Response(JSON.stringify(body), { status: op.success, headers }), body);
    };
  }

  return {
    mounted,
    /** Queues an operation; `finish()` mounts everything in a safe order. */
    mount<O extends Operation>(op: O, handler: AriHandler<O>): void {
      pending.push({ op, handler });
    },
    finish(): void {
      const byPath = new Map<string, Array<{ op: Operation; handler: AriHandler<any> }>>();
      for (const p of pending) byPath.set(p.op.path, [...(byPath.get(p.op.path) ?? []), p]);
      const paths = [...byPath.keys()].sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
      for (const path of paths) {
        const entries = byPath.get(path)!;
        const hp = honoPath(opts.prefix, path);
        for (const { op, handler } of entries) {
          app.on(op.method, hp, route(op, handler));
          mounted.add(op);
        }
        const allow = [...new Set(entries.map((e) => e.op.method))].join(', ');
        app.all(hp, (c) => {
          if (c.req.method === 'OPTIONS') return c.body(null, 204, { Allow: `${allow}, OPTIONS` });
          return c.json({ message: 'Invalid method' }, 405, { Allow: allow });
        });
      }
    },
  };
}

/** The binder's interface (mount, finish, what was mounted). */
export type AriBinder = ReturnType<typeof createAriBinder>;
