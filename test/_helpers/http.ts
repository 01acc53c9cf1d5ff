export interface Reply<T = any> {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body (undefined when the body is empty or not JSON). */
  body: T;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined | string[]>;
  json?: unknown;
  form?: Record<string, string>;
  body?: string;
  headers?: Record<string, string>;
  /** `user:password` for Basic auth; null sends none. Default asterisk:asterisk. */
  auth?: string | null;
}

export type AriHttp = <T = any>(method: string, path: string, opts?: RequestOptions) => Promise<Reply<T>>;

/** A small fetch wrapper for ARI-style requests against a test server. */
export function ariHttp(base: string, defaultAuth = 'asterisk:asterisk'): AriHttp {
  return async (method, path, opts = {}) => {
    const url = new URL(base + path);
    for (const [k, val] of Object.entries(opts.query ?? {})) {
      if (val === undefined) continue;
      if (Array.isArray(val)) for (const x of val) url.searchParams.append(k, x);
      else url.searchParams.set(k, String(val));
    }
    const headers: Record<string, string> = { ...opts.headers };
    const auth = opts.auth === undefined ? defaultAuth : opts.auth;
    if (auth) headers.authorization = `Basic ${Buffer.from(auth).toString('base64')}`;
    let body: string | undefined = opts.body;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] ??= 'application/json';
    } else if (opts.form) {
      body = new URLSearchParams(opts.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const res = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) }).catch((err: Error & { cause?: Error & { code?: string } }) => {
      // fetch says only "fetch failed": name what failed.
      throw new Error(`${method} ${path}: ${err.message} (${err.cause?.code ?? ''} ${err.cause?.message ?? ''})`, { cause: err });
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: parsed as any };
  };
}
