// The one HTTP client of the test helpers: the ARI/sim client (http.ts), the Gitea world's `api`
// (gitea.ts) and the suites' own small clients all go through `request`, so a body is read and
// parsed in one way and a request that fails says which one it was.

/** An answer as the tests read it: status, headers, the body as text and as bytes, and parsed. */
export interface Reply<T = any> {
  status: number;
  headers: Headers;
  /** The body decoded as UTF-8 (a leading byte-order mark dropped, as fetch's `text()` does). */
  text: string;
  /** The body's bytes, as they came. */
  bytes: Buffer;
  /** Parsed JSON body (undefined when the body is empty or not JSON). */
  body: T;
}

/** What a request carries; `headers` are sent as given (credentials included). */
export interface Outgoing {
  query?: Record<string, string | number | boolean | undefined | string[]>;
  json?: unknown;
  form?: Record<string, string>;
  body?: string | Buffer;
  headers?: Record<string, string>;
}

/** A body's JSON, or `otherwise` when it is empty or not JSON. */
export function parseBody(text: string, otherwise?: unknown): any {
  if (!text) return otherwise;
  try {
    return JSON.parse(text);
  } catch {
    return otherwise;
  }
}

/** `Basic <base64>` for `user:password`. */
export const basicAuth = (credentials: string): string => `Basic ${Buffer.from(credentials).toString('base64')}`;

/** Why a request failed, naming it (fetch alone says only "fetch failed"). */
function failed(method: string, path: string, err: Error & { cause?: Error & { code?: string } }): Error {
  return new Error(`${method} ${path}: ${err.message} (${err.cause?.code ?? ''} ${err.cause?.message ?? ''})`, { cause: err });
}

/** Sends `method` to `base + path` and reads the whole answer; `path` may carry its own query string. */
export async function request<T = any>(base: string, method: string, path: string, opts: Outgoing = {}): Promise<Reply<T>> {
  const url = new URL(base + path);
  for (const [k, val] of Object.entries(opts.query ?? {})) {
    if (val === undefined) continue;
    if (Array.isArray(val)) for (const x of val) url.searchParams.append(k, x);
    else url.searchParams.set(k, String(val));
  }
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | Buffer | undefined = opts.body;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] ??= 'application/json';
  } else if (opts.form) {
    body = new URLSearchParams(opts.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  try {
    const res = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
    const bytes = Buffer.from(await res.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    return { status: res.status, headers: res.headers, text, bytes, body: parseBody(text) as T };
  } catch (err) {
    throw failed(method, path, err as Error & { cause?: Error & { code?: string } });
  }
}
