// Only the package's INI reader is used (a linear tokenizer); its section matcher (minimatch
// with brace expansion) backtracked without bound on sections like [**a**a…b], so sections
// are matched by our own non-backtracking globs instead.
import { parseBuffer } from 'editorconfig';
import { type GlobBudget, GlobBudgetError, compileGlob } from '../../util/glob/glob.js';
import { notFound } from '../../errors.js';
import type { GitStore } from '../git/store.js';

/** Gitea's UI.MAX_DISPLAY_FILE_SIZE: a larger .editorconfig counts as missing. */
const MAX_EDITORCONFIG_SIZE = 8 * 1024 * 1024;

/** The properties Gitea reports (its Definition's JSON fields, in their order). */
export interface EditorConfigDefinition {
  charset?: string;
  indent_style?: string;
  indent_size?: string;
  end_of_line?: string;
}

const REPORTED = ['charset', 'indent_style', 'indent_size', 'end_of_line'] as const;
const LOWERCASED = new Set(['charset', 'indent_style', 'end_of_line']);
/**
 * Steps (see server/util/glob) one answer's section matching may take, the
 * compiling of each section included: far above what real files need. The
 * sections left when it runs out count as not matching.
 */
export const EDITORCONFIG_STEPS = 2_000_000;

/**
 * Which sections of an .editorconfig apply to `file` (a path from the
 * repository root), with EditorConfig's globs: `*`, `**`, `?`, `[...]`,
 * `{a,b}`, `{n..m}`; a section without `/` matches at any depth, one with `/`
 * from the root. A section that is malformed or over the glob limits matches
 * nothing (a 64 KiB section used to make every answer a 500).
 */
function matchingSections(sections: readonly string[], file: string, budget: GlobBudget): Set<number> {
  const out = new Set<number>();
  const path = `/${file}`;
  try {
    sections.forEach((name, i) => {
      budget.steps -= name.length + 1; // compiling reads the section's name once
      if (budget.steps < 0) throw new GlobBudgetError();
      let glob;
      try {
        glob = compileGlob(name, 'editorconfig');
      } catch {
        return;
      }
      if (glob.test(path, budget)) out.add(i);
    });
  } catch (e) {
    if (!(e instanceof GlobBudgetError)) throw e;
  }
  return out;
}

/**
 * Gitea's GetEditorconfig + GetDefinitionForFilename: only the root
 * .editorconfig of the commit counts; sections are read last to first and a
 * property is only taken while still empty, so later sections win; only
 * charset, indent_style, indent_size and end_of_line are reported, the first
 * and last two lowercased. No .editorconfig is 404 with Gitea's text; no
 * matching section is 404 `not found` (the spec; Gitea answers `{}`).
 */
export async function editorConfigFor(git: GitStore, gitDir: string, commit: string, file: string): Promise<EditorConfigDefinition> {
  const missing = () => notFound('object does not exist [id: , rel_path: .editorconfig]');
  const found = await git.lookup(gitDir, commit, ['.editorconfig']);
  if (!found.found || found.entry.mode === '40000' || found.entry.mode === '160000') throw missing();
  const info = await git.info(gitDir, found.entry.sha);
  if (!info || info.type !== 'blob' || info.size >= MAX_EDITORCONFIG_SIZE) throw missing();
  const data = (await git.blob(gitDir, info.sha)) ?? Buffer.alloc(0);

  const sections = parseBuffer(data)
    .filter((s): s is [string, Record<string, string>] => s[0] !== null)
    .map(([name, body]) => ({ name, body: Object.fromEntries(Object.entries(body).map(([k, v]) => [k.toLowerCase(), v])) }));
  const matched = matchingSections(
    sections.map((s) => s.name),
    file,
    { steps: EDITORCONFIG_STEPS },
  );
  if (!matched.size) throw notFound('not found');

  const def: Record<string, string> = {};
  for (let i = sections.length - 1; i >= 0; i--) {
    if (!matched.has(i)) continue;
    for (const key of REPORTED) {
      const value = sections[i]!.body[key];
      if (!def[key] && value) def[key] = LOWERCASED.has(key) ? value.toLowerCase() : value;
    }
  }
  const out: EditorConfigDefinition = {};
  for (const key of REPORTED) if (def[key]) out[key] = def[key];
  return out;
}

/** The editorconfig reader bound to a git store, for routes (which hold no git handle). */
export const createEditorConfigReader = (git: GitStore) => ({
  /** The settings for `file` at `commit`. */
  forFile: (repo: { gitDir: string }, commit: string, file: string) => editorConfigFor(git, repo.gitDir, commit, file),
});
