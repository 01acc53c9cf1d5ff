import { listTree } from '../git/ls-tree.js';
import type { GitStore } from '../git/store.js';
import { Lru } from '../../util/lru.js';
import type { RepoContext } from './repos.js';

/**
 * Programming and markup languages by file extension (names as GitHub's linguist
 * spells them, which is what Gitea reports). Prose (Markdown, text) and data
 * (JSON, YAML, TOML, CSV) are not counted, as Gitea counts neither.
 */
const BY_EXTENSION: Record<string, string> = {
  go: 'Go', js: 'JavaScript', mjs: 'JavaScript', cjs: 'JavaScript', jsx: 'JavaScript', ts: 'TypeScript', mts: 'TypeScript', cts: 'TypeScript', tsx: 'TSX',
  py: 'Python', java: 'Java', c: 'C', h: 'C', cc: 'C++', cpp: 'C++', cxx: 'C++', hpp: 'C++', hh: 'C++', cs: 'C#', rb: 'Ruby', php: 'PHP', rs: 'Rust',
  kt: 'Kotlin', kts: 'Kotlin', swift: 'Swift', sh: 'Shell', bash: 'Shell', zsh: 'Shell', html: 'HTML', htm: 'HTML', css: 'CSS', scss: 'SCSS', sass: 'Sass',
  less: 'Less', vue: 'Vue', svelte: 'Svelte', lua: 'Lua', pl: 'Perl', pm: 'Perl', r: 'R', scala: 'Scala', hs: 'Haskell', ex: 'Elixir', exs: 'Elixir',
  erl: 'Erlang', clj: 'Clojure', dart: 'Dart', m: 'Objective-C', mm: 'Objective-C++', groovy: 'Groovy', zig: 'Zig', nim: 'Nim', ml: 'OCaml', fs: 'F#',
  jl: 'Julia', asm: 'Assembly', s: 'Assembly', tex: 'TeX', vim: 'Vim Script', ps1: 'PowerShell', bat: 'Batchfile', cmd: 'Batchfile', tf: 'HCL', proto: 'Protocol Buffer',
  sql: 'PLSQL', xslt: 'XSLT', astro: 'Astro',
};
/** Files known by their whole name. */
const BY_NAME: Record<string, string> = { makefile: 'Makefile', gnumakefile: 'Makefile', dockerfile: 'Dockerfile', containerfile: 'Dockerfile', 'cmakelists.txt': 'CMake' };

/** Paths Gitea leaves out of the figures: vendored code, documentation, and dot files or folders. */
const VENDORED = /(^|\/)(node_modules|vendor|third[-_]party|bower_components|dist)\//;
const DOCUMENTATION = /(^|\/)(docs?|Documentation)\/|(^|\/)(README|CHANGELOG|CHANGES|LICENSE|COPYING|CONTRIBUTING)(\.[^/]*)?$/i;
const DOTTED = /(^|\/)\./;
const MINIFIED = /\.min\.(js|css)$/;

/** The language a path counts for, or undefined when it is not counted. */
export function languageOf(path: string): string | undefined {
  if (VENDORED.test(path) || DOCUMENTATION.test(path) || DOTTED.test(path) || MINIFIED.test(path)) return undefined;
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  if (BY_NAME[name]) return BY_NAME[name];
  const dot = name.lastIndexOf('.');
  return dot > 0 ? BY_EXTENSION[name.slice(dot + 1)] : undefined;
}

/**
 * `GET …/languages`: bytes of code per language on the default branch, largest
 * first, from one recursive listing of its tree (sizes included); answers are
 * kept per commit. linguist overrides in .gitattributes are not read.
 */
export function createLanguages(git: GitStore) {
  const cache = new Lru<string, Array<[string, number]>>(256);
  return {
    async stats(repo: RepoContext): Promise<Array<[string, number]>> {
      const commit = (await git.refs(repo.gitDir)).branches.get(repo.row.default_branch);
      if (!commit) return [];
      const key = `${repo.gitDir}\0${commit}`;
      const hit = cache.get(key);
      if (hit) return hit;
      const sums = new Map<string, number>();
      for (const e of await listTree(repo.gitDir, commit, true)) {
        if (e.type !== 'blob' || e.mode === '120000') continue;
        const lang = languageOf(e.path);
        if (lang) sums.set(lang, (sums.get(lang) ?? 0) + e.size);
      }
      const out = [...sums].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      cache.set(key, out);
      return out;
    },
  };
}

export type Languages = ReturnType<typeof createLanguages>;
