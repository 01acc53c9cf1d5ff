import { matcher, parseBuffer } from 'editorconfig';
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
/** Any directory works as the virtual root the sections are matched under. */
const ROOT = '/editorconfig-root';

/**
 * Which sections of an .editorconfig apply to `file` (a path from the
 * repository root). Matching is the editorconfig package's (EditorConfig
 * globs: `*`, `**`, `?`, `[...]`, `{a,b}`, `{n..m}`; a section without `/`
 * matches at any depth, one with `/` from the root): each section is given a
 * marker property and the package reports which markers apply.
 */
function matchingSections(sections: readonly string[], file: string): Set<number> {
  try {
    return matchSections(sections, file);
  } catch {
    // A section the package cannot compile ("pattern is too long": a 64 KiB glob) matches
    // nothing; the other sections still count (it was a 500 for every file).
    const out = new Set<number>();
    sections.forEach((name, i) => {
      try {
        if (matchSections([name], file).has(0)) out.add(i);
      } catch {}
    });
    return out;
  }
}

function matchSections(sections: readonly string[], file: string): Set<number> {
  const markers = Buffer.from(sections.map((name, i) => `[${name}]\ntl_section_${i} = 1\n`).join(''));
  const props = matcher({ root: ROOT }, markers)(`${ROOT}/${file}`);
  const out = new Set<number>();
  for (const key of Object.keys(props)) {
    const m = /^tl_section_(\d+)$/.exec(key);
    if (m) out.add(Number(m[1]));
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
