import { isDeepStrictEqual } from 'node:util';
import { compileGlob, type Glob } from '../../server/util/glob/glob.js';
import type { Count, FieldMatcher } from './scenario-schema.js';

/** The value at a dotted path (`channel.state`); undefined when any step is missing. */
export function valueAt(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** A compiled field matcher: whether a value matches, and how to say what it wanted. */
export interface ValueTest {
  test(value: unknown): boolean;
  describe: string;
}

const globs = new Map<string, Glob>();

/** Globs run on the server's linear matcher with `*` crossing every character; a pattern over its limits throws. */
function glob(pattern: string): Glob {
  let g = globs.get(pattern);
  if (!g) globs.set(pattern, (g = compileGlob(pattern, 'gobwas', '')));
  return g;
}

/** Compiles one matcher of the schema (a malformed glob throws GlobSyntaxError, which the caller reports). */
export function compileMatcher(m: FieldMatcher): ValueTest {
  if (m === null || typeof m !== 'object' || Array.isArray(m)) {
    return { test: (x) => isDeepStrictEqual(x, m), describe: JSON.stringify(m) };
  }
  if ('glob' in m) {
    const g = glob(m.glob);
    return { test: (x) => typeof x === 'string' && safeTest(g, x), describe: `glob ${JSON.stringify(m.glob)}` };
  }
  if ('one_of' in m) return { test: (x) => m.one_of.some((o) => isDeepStrictEqual(x, o)), describe: `one of ${JSON.stringify(m.one_of)}` };
  if ('absent' in m) return { test: (x) => x === undefined, describe: 'absent' };
  const { gte, lte } = m;
  return {
    test: (x) => typeof x === 'number' && (gte === undefined || x >= gte) && (lte === undefined || x <= lte),
    describe: [gte !== undefined ? `>= ${gte}` : '', lte !== undefined ? `<= ${lte}` : ''].filter(Boolean).join(' and '),
  };
}

/** A glob that runs out of its step budget (a pathological text) counts as no match. */
function safeTest(g: Glob, text: string): boolean {
  try {
    return g.test(text);
  } catch {
    return false;
  }
}

/** Fields by dotted path, each compiled; `test` says which fields of an object differ (empty: it matches). */
export function compileFields(fields: Record<string, FieldMatcher> | undefined): { test(obj: unknown): string[]; describe: string } {
  const compiled = Object.entries(fields ?? {}).map(([path, m]) => [path, compileMatcher(m)] as const);
  return {
    test: (obj) => compiled.filter(([path, t]) => !t.test(valueAt(obj, path))).map(([path, t]) => `${path}: wanted ${t.describe}, got ${JSON.stringify(valueAt(obj, path)) ?? 'nothing'}`),
    describe: compiled.map(([path, t]) => `${path} ${t.describe}`).join(', '),
  };
}

/** A count as bounds: `3` is exactly 3, `">=1"` at least one; absent means at least one. */
export function countBounds(c: Count | undefined): { min: number; max: number; describe: string } {
  if (c === undefined) return { min: 1, max: Infinity, describe: 'at least 1' };
  if (typeof c === 'number') return { min: c, max: c, describe: `exactly ${c}` };
  if (typeof c === 'object') return { min: c.min ?? 0, max: c.max ?? Infinity, describe: [c.min !== undefined ? `at least ${c.min}` : '', c.max !== undefined ? `at most ${c.max}` : ''].filter(Boolean).join(' and ') };
  const m = /^(>=|<=|>|<|==)?\s*(\d+)$/.exec(c)!;
  const n = Number(m[2]);
  switch (m[1]) {
    case '>=': return { min: n, max: Infinity, describe: `at least ${n}` };
    case '>': return { min: n + 1, max: Infinity, describe: `more than ${n}` };
    case '<=': return { min: 0, max: n, describe: `at most ${n}` };
    case '<': return { min: 0, max: Math.max(0, n - 1), describe: `fewer than ${n}` };
    default: return { min: n, max: n, describe: `exactly ${n}` };
  }
}
