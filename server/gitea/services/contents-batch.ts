import { badRequest, notFound } from '../../errors.js';
import type { GitStore } from '../git/store.js';
import { entryType } from '../git/tree.js';
import type { Contents, ContentsReader } from './contents.js';
import { cleanTreePath, pathNotExist, resolveRef } from './refs.js';
import type { RepoContext } from './repos.js';

/**
 * Gitea's default for the largest batch answer: a file-contents read stops
 * before the file whose content would take the answer past it.
 */
export const DEFAULT_MAX_RESPONSE_SIZE = 100 * 1024 * 1024;

/** What `includes` of contents-ext may ask for. */
const INCLUDES = new Set(['file_content', 'lfs_metadata', 'commit_metadata', 'commit_message']);

/** contents-ext's answer: one of the two is set. */
export interface ContentsExt {
  file_contents?: Contents;
  dir_contents?: Contents[];
}

/** The batch and extended reads of the contents API (Gitea 1.24 on). */
export function createContentsBatch(git: GitStore, reader: Pick<ContentsReader, 'entryResponse' | 'entryAt'>) {
  return {
    /**
     * `file-contents`: each path's entry with a file's content, in the order asked; null for a path
     * that is not there. The answer stops at `maxItems` entries, or before the file whose content
     * would take the answer's content past `maxBytes` (the rest can be asked for again).
     */
    async files(repo: RepoContext, refParam: string | undefined, paths: readonly string[], limits: { maxItems: number; maxBytes: number }): Promise<(Contents | null)[]> {
      const ref = await resolveRef(git, repo, refParam);
      const out: (Contents | null)[] = [];
      let bytes = 0;
      for (const raw of paths) {
        const path = typeof raw === 'string' ? cleanTreePath(raw) : null;
        const item = path ? await reader.entryAt(repo, ref, path) : null;
        bytes += item?.content?.length ?? 0;
        if (bytes > limits.maxBytes) break;
        out.push(item);
        if (out.length === limits.maxItems) break;
      }
      return out;
    },

    /** `contents-ext`: a file (its content with `file_content`) or a directory's entries, with what `includes` asks for. */
    async ext(repo: RepoContext, refParam: string | undefined, rawPath: string, includes: string | undefined): Promise<ContentsExt> {
      const want = new Set<string>();
      for (const opt of (includes ?? '').split(',')) {
        if (!opt) continue;
        if (!INCLUDES.has(opt)) throw badRequest(`unknown include option "${opt}"`);
        want.add(opt);
      }
      const path = cleanTreePath(rawPath);
      if (path === null || (path === '' && rawPath.replace(/\/+/g, '') !== '')) throw badRequest(`path contains a malformed path component [path: ${rawPath}]`);
      const ref = await resolveRef(git, repo, refParam);
      const extra = { lfsMetadata: want.has('lfs_metadata'), commitMessage: want.has('commit_message') };
      const withCommit = want.has('commit_metadata') || want.has('commit_message');
      const parts = path ? path.split('/') : [];
      const found = await git.lookup(repo.gitDir, ref.commit, parts);
      if (!found.found) throw notFound(pathNotExist(parts, found));
      if (entryType(found.entry.mode) !== 'dir') {
        const last = withCommit ? await git.lastCommit(repo.gitDir, ref.commit, path) : undefined;
        return { file_contents: await reader.entryResponse(repo, ref, path, { ...found.entry, name: parts[parts.length - 1] ?? '' }, last, want.has('file_content'), extra) };
      }
      const entries = (await git.tree(repo.gitDir, found.entry.sha)) ?? [];
      const lasts = withCommit ? await git.lastCommits(repo.gitDir, ref.commit, path, entries.map((e) => e.name)) : new Map<string, string>();
      return { dir_contents: await Promise.all(entries.map((e) => reader.entryResponse(repo, ref, path ? `${path}/${e.name}` : e.name, e, lasts.get(e.name), false, extra))) };
    },
  };
}

export type ContentsBatch = ReturnType<typeof createContentsBatch>;
