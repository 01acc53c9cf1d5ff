import { badRequest } from '../errors.js';

/** A part's headers larger than this are refused (a browser sends a few hundred bytes). */
const MAX_PART_HEADERS = 16 * 1024;
/** After the file, this much of what follows (the closing boundary, stray parts) is read and dropped; the rest is let go. */
const MAX_TRAILER = 64 * 1024;
/** A boundary is at most 70 characters (RFC 2046). */
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{1,70}$/;

/** A file field of a multipart form: its file name (a base name, as Go's FileName) and its bytes, read as they are consumed. */
export interface FormFile {
  filename: string;
  data: AsyncIterable<Uint8Array>;
}

/** The boundary of a `multipart/form-data` Content-Type, or null when it is not one. */
export function formBoundary(contentType: string | null): string | null {
  if (!contentType || !/^\s*multipart\/form-data\s*(;|$)/i.test(contentType)) return null;
  const m = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^\s;]+))/i.exec(contentType);
  const b = m ? (m[1] ?? m[2] ?? '') : '';
  if (!BOUNDARY.test(b) || b.endsWith(' ')) throw badRequest('multipart form has no valid boundary');
  return b;
}

/** A Content-Disposition parameter (`name`, `filename`), quoted or not. */
function param(disposition: string, key: string): string | undefined {
  const m = new RegExp(`;\\s*${key}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^\\s;]+))`, 'i').exec(disposition);
  if (!m) return undefined;
  return m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2];
}

/**
 * Streams a multipart form to the first part that is a file under `field`,
 * skipping the parts before it without keeping them, and hands over that
 * part's bytes as they arrive (never the whole body in memory). Framing
 * errors are 400s; a form without that file is a 400 too (Gitea answers
 * 500 there). What follows the file is drained up to a bound, so that the
 * answer does not race a client still sending the closing boundary.
 */
export async function formFile(body: ReadableStream<Uint8Array> | null, boundary: string, field: string): Promise<FormFile> {
  const reader = body?.getReader();
  // The first delimiter may open the body; a CRLF put in front makes every delimiter `CRLF--boundary`.
  let buf: Buffer = Buffer.from('\r\n');
  let ended = !reader;
  const delim = Buffer.from(`\r\n--${boundary}`);

  async function more(): Promise<boolean> {
    if (ended) return false;
    const r = await reader!.read();
    if (r.done) {
      ended = true;
      return false;
    }
    buf = buf.length ? Buffer.concat([buf, r.value]) : Buffer.from(r.value.buffer, r.value.byteOffset, r.value.byteLength);
    return true;
  }

  /** Yields a part's bytes up to the next delimiter (the caller keeps or drops them), leaving `buf` just after it. */
  async function* untilDelimiter(): AsyncGenerator<Buffer> {
    for (;;) {
      const at = buf.indexOf(delim);
      if (at >= 0) {
        if (at > 0) yield buf.subarray(0, at);
        buf = buf.subarray(at + delim.length);
        return;
      }
      // Keep what could be the start of a delimiter split across reads.
      const safe = buf.length - (delim.length - 1);
      if (safe > 0) {
        yield buf.subarray(0, safe);
        buf = buf.subarray(safe);
      }
      if (!(await more())) throw badRequest('multipart form ends inside a part');
    }
  }

  async function partHeaders(): Promise<string | null> {
    // After a delimiter: `--` closes the form, else optional padding then CRLF opens a part.
    while (buf.length < 2) if (!(await more())) throw badRequest('multipart form ends after a boundary');
    if (buf[0] === 0x2d && buf[1] === 0x2d) return null;
    for (;;) {
      const end = buf.indexOf('\r\n\r\n');
      if (end >= 0) {
        const text = buf.subarray(0, end).toString('utf8');
        buf = buf.subarray(end + 4);
        return text.replace(/^[ \t]*\r\n/, '');
      }
      if (buf.length > MAX_PART_HEADERS) throw badRequest('multipart part headers are too large');
      if (!(await more())) throw badRequest('multipart form ends inside part headers');
    }
  }

  async function* thenDrain(part: AsyncGenerator<Buffer>): AsyncGenerator<Buffer> {
    yield* part;
    let dropped = 0;
    do {
      dropped += buf.length;
      buf = Buffer.alloc(0);
    } while (dropped <= MAX_TRAILER && (await more()));
    if (!ended) void reader?.cancel().catch(() => {});
  }

  // Whatever precedes the first delimiter is a preamble, dropped like a skipped part.
  for await (const _ of untilDelimiter());
  for (;;) {
    const headers = await partHeaders();
    if (headers === null) break;
    const disposition = /^content-disposition\s*:\s*(.*)$/im.exec(headers)?.[1] ?? '';
    const filename = param(disposition, 'filename');
    if (/^form-data\b/i.test(disposition) && param(disposition, 'name') === field && filename !== undefined) {
      // Go's Part.FileName: the base name only, whatever path the client put in front.
      return { filename: filename.slice(filename.lastIndexOf('/') + 1), data: thenDrain(untilDelimiter()) };
    }
    for await (const _ of untilDelimiter());
  }
  void reader?.cancel().catch(() => {});
  throw badRequest(`multipart form has no file in field "${field}"`);
}
