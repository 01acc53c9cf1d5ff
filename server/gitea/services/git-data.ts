import type { AnnotatedTag, GitTreeResponse, Note, Reference } from '../../../protocol/gitea/index.js';
import type { ModelOf } from '../../../protocol/model.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import { badRequest, notFound, unprocessable } from '../../errors.js';
import { goPathEscape, goTime, pathEscapeSegments } from '../../util/go-format.js';
import { Lru } from '../../util/lru.js';
import { allRefs, lastCommitOf } from '../git/log.js';
import { listTree, type ListedEntry } from '../git/ls-tree.js';
import type { GitStore } from '../git/store.js';
import { parseTag } from '../git/tag.js';
import type { Site } from '../site.js';
import type { CommitJsonBuilder, CommitParts } from './commit-json.js';
import { validRefPattern } from './commits.js';
import { UNSIGNED } from './files.js';
import type { RepoContext } from './repos.js';

/** Gitea's [api] DEFAULT_GIT_TREES_PER_PAGE: the default and the largest page of a tree listing. */
export const TREE_PAGE_MAX = 1000;

/** One or several references, as Gitea answers a filter: an exact single match is an object. */
export type RefsAnswer = ModelOf<typeof Reference> | ModelOf<typeof Reference>[];

/** The git data API: trees, references, annotated tags and notes. */
export function createGitData(git: GitStore, site: Site, commits: CommitJsonBuilder) {
  /** Listings by (repository, tree, recursive): immutable, and a 20,000-entry one is worth keeping. */
  const listings = new Lru<string, ListedEntry[]>(16, { maxWeight: 200_000, weigh: (l) => l.length + 1 });

  /** Answered pages, frozen so the binder serialises each once: everything in the key is immutable. */
  const pages = new Lru<string, ModelOf<typeof GitTreeResponse>>(64, { maxWeight: 100_000, weigh: (p) => (p.tree?.length ?? 0) + 1 });

  async function listing(gitDir: string, tree: string, recursive: boolean): Promise<ListedEntry[]> {
    const key = `${gitDir}\0${tree}\0${recursive ? 1 : 0}`;
    let hit = listings.get(key);
    if (!hit) listings.set(key, (hit = await listTree(gitDir, tree, recursive)));
    return hit;
  }

  /**
   * Gitea's GetTreeBySHA: the name is resolved as git's object names are (so
   * `main:docs` names a tree), a commit or annotated tag stands for its tree
   * but the answer keeps the id named; anything else is 400 "sha not found".
   * One difference, for Decap CMS (decisions: a real client first): a
   * `<rev>:<path>` whose revision exists but whose path does not is 404, as
   * Decap takes a 404 for a folder that is not there yet (an empty collection)
   * and stops on Gitea's 400.
   */
  async function tree(repo: RepoContext, sha: string, q: { recursive?: boolean; page?: number; per_page?: number }): Promise<ModelOf<typeof GitTreeResponse>> {
    if (!sha) throw badRequest('sha not provided');
    const missing = () => badRequest(`sha not found [${sha}]`);
    if (sha.startsWith('-') || /[\n\r\0]/.test(sha)) throw missing();
    const named = await git.info(repo.gitDir, sha);
    if (!named) {
      const colon = sha.indexOf(':');
      if (colon > 0 && (await git.info(repo.gitDir, `${sha.slice(0, colon)}^{tree}`))) throw notFound(`sha not found [${sha}]`);
      throw missing();
    }
    let treeSha = named.sha;
    if (named.type === 'commit' || named.type === 'tag') {
      const t = await git.info(repo.gitDir, `${named.sha}^{tree}`);
      if (!t) throw missing();
      treeSha = t.sha;
    } else if (named.type !== 'tree') throw missing();
    const perPage = !q.per_page || q.per_page <= 0 || q.per_page > TREE_PAGE_MAX ? TREE_PAGE_MAX : q.per_page;
    const page = Math.max(q.page ?? 1, 1);
    const api = site.repoApi(repo.owner, repo.row);
    const key = `${repo.gitDir}\0${api}\0${named.sha}\0${q.recursive === true}\0${page}\0${perPage}`;
    const hit = pages.get(key);
    if (hit) return hit;
    const entries = await listing(repo.gitDir, treeSha, q.recursive === true);
    const res: ModelOf<typeof GitTreeResponse> = { sha: named.sha, url: `${api}/git/trees/${goPathEscape(named.sha)}`, tree: null, truncated: false, page, total_count: entries.length };
    const start = perPage * (page - 1);
    if (start >= entries.length) return res; // not kept: any page number past the end answers this
    const end = Math.min(start + perPage, entries.length);
    res.truncated = end < entries.length;
    res.tree = entries.slice(start, end).map((e) => ({
      path: e.path,
      mode: e.mode,
      type: e.type,
      size: e.size,
      sha: e.sha,
      // Gitea (as GitHub) gives a submodule no address.
      url: e.type === 'tree' ? `${api}/git/trees/${e.sha}` : e.type === 'commit' ? '' : `${api}/git/blobs/${e.sha}`,
    }));
    pages.set(key, Object.freeze(res));
    return res;
  }

  /** Gitea's GetGitRefs: every ref whose full name starts with `refs/<filter>`; 404 when none does. */
  async function refs(repo: RepoContext, filter: string): Promise<RefsAnswer> {
    const prefix = filter ? `refs/${filter}` : '';
    const api = site.repoApi(repo.owner, repo.row);
    const found = (await allRefs(repo.gitDir)).filter((r) => r.name.startsWith(prefix));
    if (!found.length) throw notFound('not found');
    const list = found.map((r) => ({
      ref: r.name,
      url: `${api}/git/${pathEscapeSegments(r.name)}`,
      object: { type: r.type, sha: r.sha, url: `${api}/git/${goPathEscape(r.type)}s/${goPathEscape(r.sha)}` },
    }));
    return list.length === 1 && list[0]!.ref === prefix ? list[0]! : list;
  }

  /** Gitea's GetAnnotatedTag: the full id of a tag object; anything else is 400. */
  async function tag(repo: RepoContext, sha: string): Promise<ModelOf<typeof AnnotatedTag>> {
    if (!sha) throw badRequest('SHA not provided');
    const obj = /^[0-9a-f]{40}$/.test(sha) ? await git.catFiles.get(repo.gitDir).read(sha) : null;
    if (!obj || obj.type !== 'tag') throw badRequest(`object does not exist [id: ${sha}, rel_path: ]`);
    const t = parseTag(obj.data);
    const target = (await git.info(repo.gitDir, `${sha}^{commit}`))?.sha;
    if (!target) throw badRequest(`object does not exist [id: ${t.object}, rel_path: ]`);
    const api = site.repoApi(repo.owner, repo.row);
    return {
      tag: t.tag,
      sha,
      url: `${api}/git/tags/${sha}`,
      message: t.message,
      tagger: t.tagger ? { name: t.tagger.name, email: t.tagger.email, date: goTime(t.tagger.when, 0) } : null,
      object: { type: 'commit', url: `${api}/git/commits/${target}`, sha: target },
      verification: UNSIGNED,
      archive_download_count: { zip: 0, tar_gz: 0 },
    };
  }

  /**
   * Gitea's GetNote: the note on a commit in refs/notes/commits (plain or
   * fanned-out path), with the notes-history commit that last changed it.
   */
  async function note(repo: RepoContext, name: string, parts: CommitParts, viewer: UserRow | null): Promise<ModelOf<typeof Note>> {
    if (!validRefPattern(name)) throw unprocessable(`no valid ref or sha: ${name}`);
    const target = name.startsWith('-') || /\s/.test(name) ? undefined : (await git.info(repo.gitDir, `${name}^{commit}`))?.sha;
    if (!target) throw notFound(`object does not exist [id: ${name}, rel_path: ]`);
    const notes = (await git.info(repo.gitDir, 'refs/notes/commits^{commit}'))?.sha;
    if (!notes) throw notFound(name);
    // As git stores them: the full id as a name, or under fan-out directories of two hex digits each.
    let path: string | undefined;
    let blob: string | undefined;
    for (let dir = '', rest = target; rest.length > 2; dir += `${rest.slice(0, 2)}/`, rest = rest.slice(2)) {
      const info = await git.info(repo.gitDir, `${notes}:${dir}${rest}`);
      if (info?.type === 'blob') {
        [path, blob] = [dir + rest, info.sha];
        break;
      }
      if ((await git.info(repo.gitDir, `${notes}:${dir}${rest.slice(0, 2)}`))?.type !== 'tree') break;
    }
    if (!path || !blob) throw notFound(name);
    const message = (await git.blob(repo.gitDir, blob)) ?? Buffer.alloc(0);
    const last = (await lastCommitOf(repo.gitDir, notes, path)) ?? notes;
    const [commit] = await commits.toJson(repo, await commits.load(repo, [last]), parts, viewer);
    return { message: message.toString('utf8'), commit: commit ?? null };
  }

  return { tree, refs, tag, note };
}

/** The git data service's interface. */
export type GitData = ReturnType<typeof createGitData>;
