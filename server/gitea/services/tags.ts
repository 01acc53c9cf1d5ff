import type { ModelOf } from '../../../protocol/model.js';
import type { Tag } from '../../../protocol/gitea/models/tag.js';
import { validRefName } from '../../../protocol/gitea/request.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import { goTime } from '../../util/go-format.js';
import { writeObject } from '../git/objects.js';
import { casRef, ZERO_SHA } from '../git/refs.js';
import type { GitStore } from '../git/store.js';
import { parseTag } from '../git/tag.js';
import { cleanTagMessage, formatTag, listTagRefs, type TagRef } from '../git/tag-list.js';
import type { Site } from '../site.js';
import { resolveCommitish } from './commitish.js';
import type { CommitPublisher } from './commit-bus.js';
import type { RepoContext } from './repos.js';

/** What a tag shows: its message and the tagged object, with the tagger's time (the committer's for a lightweight tag). */
interface TagFacts {
  ref: TagRef;
  object: string;
  message: string;
  when: number;
  tz: number;
}

/**
 * The tags API. Tags are written with plumbing (a tag object when annotated) and a
 * compare-and-swap of the ref; each change is published on the commit bus (live
 * events, push mirrors that sync on commit). A tag a release is attached to is
 * not removed here (Gitea's rule). There is no tag protection here.
 */
export function createTags(deps: {
  git: GitStore;
  site: Site;
  touch: (repo: RepoContext) => void;
  commits: Pick<CommitPublisher, 'publishTag'>;
  /** Whether a release (a draft too) is attached to the tag name, whatever its case. */
  hasRelease: (repoId: number, tag: string) => boolean;
  now?: () => number;
}) {
  const { git, site } = deps;
  const now = deps.now ?? (() => Math.floor(Date.now() / 1000));

  async function facts(repo: RepoContext, ref: TagRef): Promise<TagFacts> {
    if (ref.type === 'tag') {
      const obj = await git.catFiles.get(repo.gitDir).read(ref.id);
      const t = obj ? parseTag(obj.data) : null;
      return { ref, object: t?.object || ref.object, message: t?.message ?? '', when: t?.tagger?.when ?? 0, tz: t?.tagger?.tzMinutes ?? 0 };
    }
    const c = ref.type === 'commit' ? await git.commit(repo.gitDir, ref.id) : null;
    return { ref, object: ref.id, message: c?.message ?? '', when: c?.committer.when ?? 0, tz: c?.committer.tzMinutes ?? 0 };
  }

  /** Gitea's ToTag: the archive links name the tag; `commit.url` carries the tag's own id, as Gitea's does. */
  function json(repo: RepoContext, f: TagFacts): ModelOf<typeof Tag> {
    const html = site.repoHtml(repo.owner, repo.row);
    return {
      name: f.ref.name,
      message: f.message.endsWith('\n') ? f.message.slice(0, -1) : f.message,
      id: f.ref.id,
      commit: { url: `${site.repoApi(repo.owner, repo.row)}/git/commits/${f.ref.id}`, sha: f.object, created: goTime(f.when, f.tz) },
      zipball_url: `${html}/archive/${f.ref.name}.zip`,
      tarball_url: `${html}/archive/${f.ref.name}.tar.gz`,
    };
  }

  /** The ref of one tag, or undefined; names git would refuse never reach git. */
  async function find(repo: RepoContext, name: string): Promise<TagRef | undefined> {
    if (!validRefName(name)) return undefined;
    const info = await git.info(repo.gitDir, `refs/tags/${name}`);
    if (!info) return undefined;
    const object = info.type === 'tag' ? (parseTag((await git.catFiles.get(repo.gitDir).read(info.sha))!.data).object) : '';
    return { name, id: info.sha, type: info.type, object };
  }

  function refuseMirror(repo: RepoContext): void {
    if (repo.row.is_mirror) throw forbidden('Git Repository is a mirror.');
  }

  /**
   * Makes tag `name` at `commit` unless it exists (false then), then records the activity
   * and publishes the new tag. The ref moves by compare-and-swap from nothing.
   */
  async function write(repo: RepoContext, doer: UserRow, name: string, commit: string, message: string): Promise<boolean> {
    const made = await git.writes.run(`${repo.gitDir}\0refs/tags/${name}`, async () => {
      if ((await git.refs(repo.gitDir)).tags.has(name)) return false;
      let id = commit;
      if (message) {
        const tagger = { name: doer.full_name.trim() || doer.name, email: doer.email, when: now(), tzMinutes: 0 };
        id = await writeObject(repo.gitDir, 'tag', formatTag({ object: commit, type: 'commit', tag: name, tagger, message: await cleanTagMessage(message) }));
      }
      const done = await casRef(repo.gitDir, `refs/tags/${name}`, id, null);
      git.invalidate(repo.gitDir);
      return done;
    });
    if (!made) return false;
    deps.touch(repo);
    deps.commits.publishTag(repo, name, commit);
    return true;
  }

  return {
    /** Every tag, newest tagger time first (Gitea sorts git's newest-commit-first list by tagger time). */
    async list(repo: RepoContext): Promise<ModelOf<typeof Tag>[]> {
      const all = await Promise.all((await listTagRefs(repo.gitDir)).map((r) => facts(repo, r)));
      return all.sort((x, y) => y.when - x.when).map((f) => json(repo, f));
    },

    /** One tag; 404's message is the name asked for, as Gitea's. */
    async get(repo: RepoContext, name: string): Promise<ModelOf<typeof Tag>> {
      const ref = await find(repo, name);
      if (!ref) throw notFound(name);
      return json(repo, await facts(repo, ref));
    },

    /** Tags `target` (the default branch when empty): annotated by `doer` when there is a message. */
    async create(repo: RepoContext, doer: UserRow, opt: { tag_name: string; message?: string | undefined; target?: string | undefined }): Promise<ModelOf<typeof Tag>> {
      refuseMirror(repo);
      const name = opt.tag_name;
      let commit: string;
      try {
        commit = await resolveCommitish(git, repo, opt.target || repo.row.default_branch);
      } catch (err) {
        throw notFound(`target not found: ${(err as Error).message}`);
      }
      // A release's name is taken even while it has no tag yet (a draft), as Gitea's CreateNewTag checks.
      if (deps.hasRelease(repo.row.id, name)) throw conflict(`tag already exists [name: ${name}]`);
      const made = await write(repo, doer, name, commit, opt.message ?? '');
      if (!made) throw conflict(`tag already exists [name: ${name}]`);
      return this.get(repo, name);
    },

    /**
     * The commit tag `name` names and the tag's time (the tagger's, or the commit's for a
     * lightweight tag), making the tag at `commit()` first when it does not exist (annotated
     * by `doer` when `message` is not empty; its time is then now): what publishing a release does.
     */
    async ensure(repo: RepoContext, doer: UserRow, name: string, commit: () => Promise<string>, message: string): Promise<{ created: boolean; commit: string; when: number }> {
      const existing = async () => {
        const ref = await find(repo, name);
        const sha = ref && (await git.refs(repo.gitDir)).tags.get(name);
        return ref && sha ? { created: false, commit: sha, when: (await facts(repo, ref)).when } : undefined;
      };
      const found = await existing();
      if (found) return found;
      refuseMirror(repo);
      const at = await commit();
      if (await write(repo, doer, name, at, message)) return { created: true, commit: at, when: now() };
      // Made meanwhile by someone else: the release takes that tag.
      const raced = await existing();
      if (!raced) throw conflict(`tag already exists [name: ${name}]`);
      return raced;
    },

    async remove(repo: RepoContext, name: string): Promise<void> {
      refuseMirror(repo);
      if (deps.hasRelease(repo.row.id, name)) throw conflict('a tag attached to a release cannot be deleted directly');
      await git.writes.run(`${repo.gitDir}\0refs/tags/${name}`, async () => {
        const ref = await find(repo, name);
        if (!ref) throw notFound('not found');
        const gone = await casRef(repo.gitDir, `refs/tags/${name}`, ZERO_SHA, ref.id);
        git.invalidate(repo.gitDir);
        if (!gone) throw notFound('not found');
      });
      deps.touch(repo);
      deps.commits.publishTag(repo, name, ZERO_SHA);
    },
  };
}

/** The tags service's interface. */
export type Tags = ReturnType<typeof createTags>;
