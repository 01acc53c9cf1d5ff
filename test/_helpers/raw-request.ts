import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { parseBody } from './request.js';
import { WAIT_MS } from './wait.js';

/** An answer read through node:http: status, raw headers, the body as text and parsed (request.ts's parse). */
export interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** Parsed JSON body (undefined when the body is empty or not JSON). */
  body: any;
}

/** What rawRequest sends besides the method and path. */
export interface RawOptions {
  headers?: Record<string, string>;
  /** Sent with a Content-Length, or chunked in 1 KiB pieces with `chunked`. */
  body?: string | Buffer;
  chunked?: boolean;
  /** Written one after the other with no Content-Length (a streamed body). */
  chunks?: string[];
  /** A connection of its own, so one bad request cannot spoil the next one's. */
  freshConnection?: boolean;
  /** An exchange with no whole answer by then is a hang (generous: a busy machine is not a hang). */
  timeoutMs?: number;
}

/**
 * One request through node:http, for what fetch will not send: a path byte for byte (no `..`
 * resolution), a Host header of our choosing, a body streamed in chunks. Failures name the request.
 */
export function rawRequest(base: string, method: string, path: string, opts: RawOptions = {}): Promise<RawReply> {
  const u = new URL(base);
  const what = `${method} ${path.length > 160 ? `${path.slice(0, 160)}…` : path}`;
  const timeoutMs = opts.timeoutMs ?? WAIT_MS;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...opts.headers };
    // Node's client frames a DELETE body only when told to (chunked) or given a length.
    if (opts.body !== undefined) headers[opts.chunked ? 'transfer-encoding' : 'content-length'] = opts.chunked ? 'chunked' : String(Buffer.byteLength(opts.body));
    const req = httpRequest({ host: u.hostname, port: u.port, method, path, headers, ...(opts.freshConnection ? { agent: false } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parseBody(text) });
      });
      res.on('error', reject);
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      // A server that refuses an oversized body may answer and close before reading it all.
      const why = err.code === 'EPIPE' || err.code === 'ECONNRESET' ? `connection ${err.code} before an answer` : err.message;
      reject(new Error(`${what}: ${why}`, { cause: err }));
    });
    if (opts.body !== undefined) {
      if (opts.chunked) {
        const buf = Buffer.from(opts.body);
        for (let i = 0; i < buf.length; i += 1024) req.write(buf.subarray(i, i + 1024));
      } else req.write(opts.body);
    }
    for (const c of opts.chunks ?? []) req.write(c);
    req.end();
  });
}
