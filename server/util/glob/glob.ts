import { parseEditorConfig } from './editorconfig.js';
import { parseGobwas } from './gobwas.js';
import { type GlobBudget, type GlobNode, compileProgram, globCounters, runProgram } from './program.js';
import { GLOB_LIMITS, GlobSyntaxError } from './syntax.js';
import { parseWildmatch } from './wildmatch.js';

export { GlobBudgetError, globCounters, type GlobBudget } from './program.js';
export { GLOB_LIMITS, GlobSyntaxError } from './syntax.js';

/**
 * Which syntax a pattern is in:
 * - `gobwas`: Gitea's globs (branch rule names, protected file patterns), with
 *   `separators` the characters `*` and `?` do not cross;
 * - `editorconfig`: an .editorconfig section name, matched against the path
 *   from the repository root;
 * - `wildmatch`: git's patterns as .gitattributes uses them.
 */
export type GlobDialect = 'gobwas' | 'editorconfig' | 'wildmatch';

/** Steps one match may take when the caller gives no budget: far above any real pattern and path. */
export const DEFAULT_MATCH_STEPS = 100_000;

export interface Glob {
  /** Program size: a match takes at most about 2 × size × (text length + 1) steps (classes add their ranges). */
  readonly size: number;
  /**
   * Whether the whole of `text` matches. Spends steps from `budget` (a fresh
   * DEFAULT_MATCH_STEPS when none is given); throws GlobBudgetError when it
   * runs out, leaving the caller to decide what that means.
   */
  test(text: string, budget?: GlobBudget): boolean;
}

function parse(pattern: string, dialect: GlobDialect): GlobNode[] {
  if (dialect === 'gobwas') return parseGobwas(pattern);
  if (dialect === 'editorconfig') return parseEditorConfig(pattern);
  return parseWildmatch(pattern);
}

/**
 * Compiles a user's glob into a matcher that cannot backtrack: its work is
 * bounded by the program's size times the text's length (see program.ts).
 * Throws GlobSyntaxError for a malformed pattern or one over GLOB_LIMITS.
 */
export function compileGlob(pattern: string, dialect: GlobDialect, separators = '/'): Glob {
  if (pattern.length > GLOB_LIMITS.length) throw new GlobSyntaxError(`pattern longer than ${GLOB_LIMITS.length}`);
  const nodes = parse(pattern, dialect);
  if (nodes.every((n) => n.kind === 'char')) {
    const literal = String.fromCodePoint(...nodes.map((n) => (n as { cp: number }).cp));
    return {
      size: 1,
      test(text, budget = { steps: DEFAULT_MATCH_STEPS }) {
        globCounters.steps++;
        budget.steps--;
        return text === literal;
      },
    };
  }
  const program = compileProgram(nodes, dialect === 'gobwas' ? separators : '/');
  return {
    size: program.ops.length,
    test: (text, budget = { steps: DEFAULT_MATCH_STEPS }) => runProgram(program, text, budget),
  };
}
