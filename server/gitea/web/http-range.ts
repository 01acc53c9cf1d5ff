/** What a `Range` header asks of a representation of `size` bytes. */
export type RangeAnswer = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * One byte range (`bytes=a-b`, `bytes=a-`, `bytes=-n`), as Gitea's minimal
 * range support answers it, with two departures: suffix ranges are served
 * (Gitea refuses them with 416, though every HTTP client may send them), and
 * a header we cannot honour (several ranges, bad syntax, an end before its
 * start) is ignored and the whole body sent, as RFC 9110 allows, instead of
 * Gitea's 400. An empty body is always sent whole, as Gitea does.
 * `ifRange` is the request's If-Range: a validator that no longer matches
 * means the client's partial copy is stale, so it gets everything.
 */
export function parseRange(header: string | null, size: number, validators: { etag: string; lastModified?: number; ifRange: string | null }): RangeAnswer {
  if (!header || size <= 0) return { kind: 'full' };
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'full' };
  const ifRange = validators.ifRange?.trim();
  if (ifRange) {
    const fresh = ifRange.startsWith('"') ? ifRange === validators.etag : validators.lastModified !== undefined && Date.parse(ifRange) === validators.lastModified * 1000;
    if (!fresh) return { kind: 'full' };
  }
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  if (start >= size) return { kind: 'unsatisfiable' };
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (end < start) return { kind: 'full' };
  return { kind: 'partial', start, end };
}
