import { SCOPE_CATEGORIES, type ScopeCategory } from '../../../protocol/gitea/operation.js';

const ALL_SCOPES = new Set<string>(['all', 'public-only', ...SCOPE_CATEGORIES.flatMap((c) => [`read:${c}`, `write:${c}`])]);

/** Validates and normalises a requested scope list (Gitea collapses every write scope into `all`). */
export function normaliseScopes(requested: readonly string[]): { scopes: string[] } | { invalid: string } {
  const set = new Set<string>();
  for (const raw of requested.flatMap((s) => s.split(','))) {
    const s = raw.trim();
    if (!s) continue;
    if (!ALL_SCOPES.has(s)) return { invalid: s };
    set.add(s);
  }
  const everyWrite = SCOPE_CATEGORIES.every((c) => set.has(`write:${c}`));
  const out: string[] = [];
  if (set.has('public-only')) out.push('public-only');
  if (set.has('all') || everyWrite) out.push('all');
  else
    for (const c of SCOPE_CATEGORIES) {
      if (set.has(`write:${c}`)) out.push(`write:${c}`);
      else if (set.has(`read:${c}`)) out.push(`read:${c}`);
    }
  return { scopes: out };
}

/** Whether a token's scopes grant `level` on `category` (write implies read; `all` grants everything). */
export function scopeAllows(scopes: readonly string[], category: ScopeCategory, level: 'read' | 'write'): boolean {
  if (scopes.includes('all')) return true;
  if (scopes.includes(`write:${category}`)) return true;
  return level === 'read' && scopes.includes(`read:${category}`);
}

/**
 * A token's scopes, parsed once from the comma string stored with the token
 * (when the request is authenticated), so every check reads the same list.
 */
export class Scopes {
  readonly #list: readonly string[];

  /** `text`: the stored, normalised comma list ('' for none). */
  constructor(readonly text: string) {
    this.#list = text ? text.split(',') : [];
  }

  /** Whether they grant `level` on `category` (write implies read; `all` grants everything). */
  allows(category: ScopeCategory, level: 'read' | 'write'): boolean {
    return scopeAllows(this.#list, category, level);
  }

  /** The scope names, in their stored order. */
  get list(): readonly string[] {
    return this.#list;
  }

  /** `public-only`: only public resources (of public owners) may be reached. */
  get publicOnly(): boolean {
    return this.#list.includes('public-only');
  }
}
