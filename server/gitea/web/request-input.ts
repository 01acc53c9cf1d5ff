import type { Context } from 'hono';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import { createGunzip } from 'node:zlib';

/** Why an upload stopped early: an undecodable gzip body, or more bytes than allowed (after decompression). */
export type InputProblem = 'gzip' | 'limit' | null;

/**
 * The request body as git should read it: gunzipped when the client sent
 * `Content-Encoding: gzip` (git does for large fetch negotiations), and cut
 * off past `limit` bytes (counted after decompression, so a small gzip bomb
 * cannot feed git gigabytes). Any failure, including the client going away
 * mid-upload, errors the returned stream, so git is stopped rather than
 * handed a truncated request that looks complete.
 */
export function requestInput(src: Readable, opts: { gzip: boolean; limit: number }): { stream: Readable; problem: () => InputProblem } {
  let problem: InputProblem = null;
  let seen = 0;
  const limiter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (seen > opts.limit) {
        problem ??= 'limit';
        cb(new Error(`request body exceeds ${opts.limit} bytes`));
      } else cb(null, chunk);
    },
  });
  const broken = (err: Error) => {
    if (!limiter.destroyed) limiter.destroy(err);
  };
  src.on('error', broken);
  src.on('close', () => {
    if (!src.readableEnded) broken(new Error('the client went away mid-upload'));
  });
  if (opts.gzip) {
    const gunzip = createGunzip();
    gunzip.on('error', (err) => {
      problem ??= 'gzip';
      src.unpipe(gunzip);
      broken(err);
    });
    src.pipe(gunzip).pipe(limiter);
  } else src.pipe(limiter);
  return { stream: limiter, problem: () => problem };
}

/** The request body as a Node stream: the socket itself under node-server (nothing is buffered), else the web body. */
export function nodeBody(c: Context): Readable {
  const incoming = (c.env as { incoming?: Readable } | undefined)?.incoming;
  if (incoming && typeof incoming.pipe === 'function') return incoming;
  const body = c.req.raw.body;
  return body ? Readable.fromWeb(body as NodeWebStream) : Readable.from([]);
}
