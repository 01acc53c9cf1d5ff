import { tooLarge, badRequest } from '../errors.js';

/** Reads a request body as text, refusing (413) anything over `limit` bytes without buffering it all. */
export async function readBody(req: Request, limit: number): Promise<string> {
  return (await readBodyBytes(req, limit)).toString('utf8');
}

/** Reads a request body as bytes, refusing (413) anything over `limit` bytes. */
export async function readBodyBytes(req: Request, limit: number): Promise<Buffer> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (declared > limit) throw tooLarge(`Request body exceeds ${limit} bytes`);
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(`Request body exceeds ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** Nesting depth of a JSON text, counted without parsing (so a hostile document cannot exhaust the parser). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash escapes the next character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) max = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/** Parses a JSON body within a depth limit; malformed or too deep is a 400. */
export function parseJson(text: string, maxDepth: number): unknown {
  if (jsonDepth(text) > maxDepth) throw badRequest(`JSON body is nested deeper than ${maxDepth} levels`);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest(`Malformed JSON body: ${(err as Error).message}`);
  }
}

/** `application/json`, with or without parameters. */
export function isJson(contentType: string | null | undefined): boolean {
  return !!contentType && /^application\/json\s*(;|$)/i.test(contentType);
}
