import type { Attachment, Release, User } from '../../../protocol/gitea/index.js';
import { validRefName } from '../../../protocol/gitea/request.js';
import type { ModelOf } from '../../../protocol/model.js';
import type { ReleaseRepo, ReleaseRow } from '../../db/repos/release-repo.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import { conflict, notFound, unprocessable } from '../../errors.js';
import { goTime, pathEscapeSegments } from '../../util/go-format.js';
import { ZERO_SHA } from '../git/refs.js';
import type { GitStore } from '../git/store.js';
import type { Site } from '../site.js';
import type { Authenticated } from './accounts.js';
import { resolveCommitish } from './commitish.js';
import type { RepoContext } from './repos.js';
import type { Tags } from './tags.js';

type ReleaseJson = ModelOf<typeof Release>;

/** Gitea keeps titles to 255 characters, cutting longer ones with an ellipsis. */
const MAX_TITLE = 255;
/** A tag name longer than this is refused (Gitea's column holds 255). */
const MAX_TAG_NAME = 255;

/** Gitea's stand-in for an account that no longer exists (NewGhostUser). */
const GHOST: UserRow = {
  id: -1, name: 'Ghost', lower_name: 'ghost', full_name: '', email: '', password_hash: '', is_admin: 0, is_active: 0, prohibit_login: 0,
  visibility: 'public', created_at: 0, updated_at: 0, last_login_at: 0, type: 0, description: '', website: '', location: '', repo_admin_change_team_access: 0,
};

/** What releases need: their rows, git's tags, and how accounts are shown. */
export interface ReleaseDeps {
  rows: ReleaseRepo;
  git: GitStore;
  tags: Pick<Tags, 'ensure'>;
  site: Site;
  userById(id: number): UserRow | undefined;
  userJson(u: UserRow, viewer: UserRow | null): ModelOf<typeof User>;
  /** A release's files: their JSON, and their removal once the release's row (and theirs with it) is gone. */
  files: ReleaseFiles;
  now?: () => number;
}

/** What releases know of their files (a port: the files service builds on releases, not the other way). */
export interface ReleaseFiles {
  json(releaseId: number): ModelOf<typeof Attachment>[];
  /** The stored names of a release's files, collected before its row is removed. */
  uuids(releaseId: number): string[];
  /** Removes stored files whose rows are gone. */
  discard(uuids: readonly string[]): Promise<void>;
}

/** The fields of a new release (Gitea's CreateReleaseOption). */
export interface NewRelease {
  tag_name?: string | undefined;
  target_commitish?: string | undefined;
  name?: string | undefined;
  body?: string | undefined;
  draft?: boolean | undefined;
  prerelease?: boolean | undefined;
  tag_message?: string | undefined;
}

/** The changes of an edit (Gitea's EditReleaseOption): empty strings and absent fields change nothing. */
export type ReleaseChanges = Omit<NewRelease, 'tag_message'>;

const cutTitle = (s: string) => ([...s].length > MAX_TITLE ? `${[...s].slice(0, MAX_TITLE - 1).join('')}…` : s);

/**
 * Releases: notes attached to a tag, stored in SQLite and kept in step with
 * git. Publishing makes the tag when it does not exist (a draft makes none);
 * removing a release keeps its tag; a tag removed by a push or a mirror fetch
 * leaves its release a draft (Gitea's rules). Drafts are seen by writers and
 * by whoever published them only.
 */
export function createReleases(deps: ReleaseDeps) {
  const { rows, git, site } = deps;
  const now = deps.now ?? (() => Math.floor(Date.now() / 1000));

  function json(repo: RepoContext, r: ReleaseRow, viewer: UserRow | null): ReleaseJson {
    const api = `${site.repoApi(repo.owner, repo.row)}/releases/${r.id}`;
    const html = site.repoHtml(repo.owner, repo.row);
    const tag = pathEscapeSegments(r.tag_name);
    const publisher = (r.publisher_id !== null && deps.userById(r.publisher_id)) || GHOST;
    return {
      id: r.id,
      tag_name: r.tag_name,
      target_commitish: r.target,
      name: r.title,
      body: r.note,
      url: api,
      html_url: `${html}/releases/tag/${tag}`,
      tarball_url: `${html}/archive/${tag}.tar.gz`,
      zipball_url: `${html}/archive/${tag}.zip`,
      upload_url: `${api}/assets`,
      draft: !!r.is_draft,
      prerelease: !!r.is_prerelease,
      created_at: goTime(r.created_at),
      published_at: r.is_draft ? null : goTime(r.published_at || r.created_at),
      // Gitea converts the publisher without a viewer: the anonymous view (no e-mail address) for everyone.
      author: deps.userJson(publisher, null),
      assets: deps.files.json(r.id),
    };
  }

  /** Drafts are for writers, and for whoever published them. */
  const visible = (repo: RepoContext, r: ReleaseRow | undefined, viewer: UserRow | null): r is ReleaseRow =>
    !!r && (!r.is_draft || repo.perm.write || (!!viewer && r.publisher_id === viewer.id));

  function checkTagName(name: string): void {
    if (name.length > MAX_TAG_NAME || !validRefName(name)) throw unprocessable(`release tag name is not valid [tag_name: ${name}]`);
  }

  /** The release `id` names (a path segment: anything but a number names none), as `viewer` may see it. */
  function find(repo: RepoContext, id: string, viewer: UserRow | null): ReleaseRow {
    const r = /^\d{1,15}$/.test(id) ? rows.byId(repo.row.id, Number(id)) : undefined;
    if (!visible(repo, r, viewer)) throw notFound('not found');
    return r;
  }

  /** The commit a target names (the default branch when empty), or Gitea's 404. */
  const targetCommit = (repo: RepoContext, target: string) => async () => {
    try {
      return await resolveCommitish(git, repo, target || repo.row.default_branch);
    } catch (err) {
      throw notFound(`target "${target}" not found: ${(err as Error).message}`);
    }
  };

  /** The row goes first (its files' rows with it), then the files. */
  async function removeRow(r: ReleaseRow): Promise<void> {
    const uuids = deps.files.uuids(r.id);
    rows.remove(r.id);
    await deps.files.discard(uuids);
  }

  return {
    /**
     * A page of releases, newest first. Drafts are listed only to a writer whose
     * credentials allow writing (a read-only token of a writer does not list them, as in Gitea).
     */
    list(repo: RepoContext, auth: Authenticated | null, q: { draft?: boolean | undefined; prerelease?: boolean | undefined; page: number; limit: number }) {
      const drafts = repo.perm.write && (!auth?.scopes || auth.scopes.allows('repository', 'write'));
      const res = rows.list(repo.row.id, { drafts, draft: q.draft, prerelease: q.prerelease }, (q.page - 1) * q.limit, q.limit);
      return { releases: res.rows.map((r) => json(repo, r, auth?.user ?? null)), total: res.total };
    },

    /** The newest release that is neither a draft nor a pre-release. */
    latest(repo: RepoContext, viewer: UserRow | null): ReleaseJson {
      const r = rows.latest(repo.row.id);
      if (!r) throw notFound('not found');
      return json(repo, r, viewer);
    },

    get: (repo: RepoContext, id: string, viewer: UserRow | null): ReleaseJson => json(repo, find(repo, id, viewer), viewer),

    /** The row of the release `id` names, as `viewer` may see it (Gitea's 404 otherwise). */
    row: (repo: RepoContext, id: string, viewer: UserRow | null): ReleaseRow => find(repo, id, viewer),

    /** The row of a tag's release (the name matched whatever its case), as `viewer` may see it. */
    rowByTag(repo: RepoContext, tag: string, viewer: UserRow | null): ReleaseRow {
      const r = rows.byTag(repo.row.id, tag);
      if (!visible(repo, r, viewer)) throw notFound('not found');
      return r;
    },

    byTag(repo: RepoContext, tag: string, viewer: UserRow | null): ReleaseJson {
      const r = rows.byTag(repo.row.id, tag);
      if (!visible(repo, r, viewer)) throw notFound('not found');
      return json(repo, r, viewer);
    },

    /** Gitea's CreateRelease: an existing tag is taken as it is, a missing one is made unless the release is a draft. */
    async create(repo: RepoContext, doer: UserRow, body: NewRelease): Promise<ReleaseJson> {
      if (await git.isEmpty(repo.gitDir)) throw unprocessable('repo is empty');
      const tag = body.tag_name ?? '';
      if (rows.byTag(repo.row.id, tag)) throw conflict('Release is has no Tag');
      checkTagName(tag);
      const at = now();
      const draft = !!body.draft;
      const existing = (await git.refs(repo.gitDir)).tags.get(tag);
      // Gitea keeps the target as given when the tag was there first, else it defaults to the default branch.
      const target = existing ? (body.target_commitish ?? '') : body.target_commitish || repo.row.default_branch;
      // A draft is dated now and makes no tag; a published release is dated by its tag (now when it makes it).
      let sha1 = existing ?? '';
      let created = at;
      let published = at;
      if (!draft) {
        const t = await deps.tags.ensure(repo, doer, tag, targetCommit(repo, target), body.tag_message ?? '');
        sha1 = t.commit;
        created = t.when;
        // A tag made here is the publication itself: one time for both, even across a second's edge.
        if (t.created) published = t.when;
      }
      const row = rows.insert({
        repo_id: repo.row.id, publisher_id: doer.id, tag_name: tag, target, title: cutTitle(body.name ?? ''), note: body.body ?? '',
        sha1, is_draft: draft ? 1 : 0, is_prerelease: body.prerelease ? 1 : 0, created_at: created, published_at: draft ? 0 : published,
      });
      if (!row) throw conflict(`release tag already exist [tag_name: ${tag}]`);
      return json(repo, row, doer);
    },

    /** Gitea's EditRelease: what is given replaces what was; publishing makes a missing tag. */
    async edit(repo: RepoContext, doer: UserRow, id: string, ch: ReleaseChanges): Promise<ReleaseJson> {
      const old = find(repo, id, doer);
      const r = { ...old };
      if (ch.tag_name) r.tag_name = ch.tag_name;
      if (ch.target_commitish) r.target = ch.target_commitish;
      if (ch.name) r.title = cutTitle(ch.name);
      if (ch.body) r.note = ch.body;
      if (ch.draft !== undefined) r.is_draft = ch.draft ? 1 : 0;
      if (ch.prerelease !== undefined) r.is_prerelease = ch.prerelease ? 1 : 0;
      if (r.tag_name !== old.tag_name) checkTagName(r.tag_name);
      const at = now();
      if (r.is_draft) {
        // A draft follows its tag if there is one; its time is that of the last edit, as in Gitea.
        r.sha1 = (await git.refs(repo.gitDir)).tags.get(r.tag_name) ?? '';
        r.created_at = at;
      } else {
        if (r.tag_name.toLowerCase() !== old.lower_tag_name && rows.byTag(repo.row.id, r.tag_name)) throw conflict(`release tag already exist [tag_name: ${r.tag_name}]`);
        const t = await deps.tags.ensure(repo, doer, r.tag_name, targetCommit(repo, r.target), '');
        r.sha1 = t.commit;
        if (t.created) r.created_at = at;
        if (old.is_draft || !old.published_at) r.published_at = at;
      }
      if (!rows.update(r)) throw conflict(`release tag already exist [tag_name: ${r.tag_name}]`);
      return json(repo, rows.byId(repo.row.id, r.id)!, doer);
    },

    /** Removes a release and its files; its tag stays. */
    remove: (repo: RepoContext, id: string, doer: UserRow): Promise<void> => removeRow(find(repo, id, doer)),

    /** Removes the release of a tag and its files; the tag stays. */
    removeByTag(repo: RepoContext, tag: string, doer: UserRow): Promise<void> {
      const r = rows.byTag(repo.row.id, tag);
      if (!visible(repo, r, doer)) throw notFound('not found');
      return removeRow(r);
    },

    /** Whether a release (a draft too) is attached to a tag name. */
    hasRelease: (repoId: number, tag: string) => !!rows.byTag(repoId, tag),

    /** How many published releases a repository has. */
    countPublished: (repoId: number) => rows.countPublished(repoId),

    /** A tag moved (commit bus): its release follows, or becomes a draft when the tag is gone. */
    tagMoved(repo: RepoContext, tag: string, sha: string): void {
      rows.tagMoved(repo.row.id, tag, sha === ZERO_SHA ? null : sha);
    },

    /** The newest releases `viewer` may see, for the web pages (drafts for writers only). */
    recent(repo: RepoContext, viewer: UserRow | null, limit: number): { releases: ReleaseJson[]; total: number } {
      const res = rows.list(repo.row.id, { drafts: repo.perm.write }, 0, limit);
      return { releases: res.rows.map((r) => json(repo, r, viewer)), total: res.total };
    },

    /** One release and its tag's commit, for the web pages. */
    page(repo: RepoContext, tag: string, viewer: UserRow | null): { release: ReleaseJson; sha1: string } {
      const r = rows.byTag(repo.row.id, tag);
      if (!visible(repo, r, viewer)) throw notFound('not found');
      return { release: json(repo, r, viewer), sha1: r.sha1 };
    },
  };
}

/** The release service's interface. */
export type Releases = ReturnType<typeof createReleases>;
