import type { FileCommitResponse, PayloadCommitVerification } from '../../../protocol/gitea/index.js';
import type { LfsRepo } from '../../db/repos/lfs-repo.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import { DomainError, forbidden, notFound, type ErrorKind } from '../../errors.js';
import { GO_ZERO_TIME, goTimeUtc } from '../../util/go-format.js';
import { formatCommit, type Signature } from '../git/commit.js';
import { writeObject } from '../git/objects.js';
import { casRef } from '../git/refs.js';
import type { GitStore } from '../git/store.js';
import { TreeEditor, type Leaf } from '../git/tree-edit.js';
import type { ModelOf } from '../model-of.js';
import type { Site } from '../site.js';
import type { Contents, ContentsReader } from './contents.js';
import { filterAttribute, type AttributesFile } from './gitattributes.js';
import { formatPointer } from './lfs-pointer.js';
import type { LfsStore } from './lfs-store.js';
import type { Protections } from './protections.js';
import { cleanTreePath, type RefCommit } from './refs.js';
import type { RepoContext, RepoService } from './repos.js';

export type Operation = 'create' | 'update' | 'upload' | 'rename' | 'delete';

export interface ChangeFile {
  operation: Operation;
  path: string;
  fromPath?: string;
  /** Decoded content; undefined for delete (and for a rename that keeps the content). */
  content?: Buffer;
  sha?: string;
}

export interface Identity {
  name?: string;
  email?: string;
}

export interface ChangeRequest {
  files: ChangeFile[];
  message: string;
  branch: string;
  newBranch: string;
  forcePush?: boolean;
  author?: Identity;
  committer?: Identity;
  dates?: { author?: string; committer?: string };
  signoff?: boolean;
  /**
   * The DELETE endpoint's rules (spec): a missing or wrong sha, an invalid
   * name or an existing branch are 400, not 422, and the sha is required.
   */
  deleteEndpoint?: boolean;
}

export interface ChangeResult {
  files: (Contents | null)[];
  commit: ModelOf<typeof FileCommitResponse>;
  verification: ModelOf<typeof PayloadCommitVerification>;
}

/** Gitea's reply for a commit it did not sign. */
export const UNSIGNED: ModelOf<typeof PayloadCommitVerification> = { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' };

const MAX_ATTEMPTS = 20;

/** Gitea's default message: `Add a, b` / `Update c` / `Delete d`, one line each, trimmed. */
export function defaultMessage(files: readonly ChangeFile[]): string {
  const group = (ops: Operation[]) => files.filter((f) => ops.includes(f.operation)).map((f) => f.path);
  const lines: string[] = [];
  const add = group(['create']);
  const upd = group(['update', 'upload', 'rename']);
  const del = group(['delete']);
  if (add.length) lines.push(`Add ${add.join(', ')}`);
  if (upd.length) lines.push(`Update ${upd.join(', ')}`);
  if (del.length) lines.push(`Delete ${del.join(', ')}`);
  return lines.join('\n').trim();
}

/** An RFC 3339 date (keeping its offset) as a git signature time; unset or Go's zero time means now. */
function when(date: string | undefined): { when: number; tzMinutes: number } {
  const ms = date ? Date.parse(date) : NaN;
  if (!date || Number.isNaN(ms) || ms <= Date.parse('0001-01-02T00:00:00Z')) {
    const now = new Date();
    return { when: Math.floor(now.getTime() / 1000), tzMinutes: -now.getTimezoneOffset() };
  }
  const m = /([+-])(\d{2}):(\d{2})$/.exec(date);
  const tz = m ? (Number(m[2]) * 60 + Number(m[3])) * (m[1] === '-' ? -1 : 1) : 0;
  return { when: Math.floor(ms / 1000), tzMinutes: tz };
}

export interface FilesDeps {
  git: GitStore;
  repos: RepoService;
  protections: Protections;
  contents: ContentsReader;
  lfsStore: LfsStore;
  lfsRepo: LfsRepo;
  lfsEnabled: boolean;
  site: Site;
  /** Told after every commit we make (mirrors sync on commit, caches, events). */
  onCommit?: (repo: RepoContext, branch: string, sha: string) => void;
}

/**
 * File writes as Gitea's contents API does them, but without a temporary
 * clone: objects are written straight into the bare repository and the branch
 * is moved with a compare-and-swap. Writers of one branch queue in process;
 * if the branch still moved underneath (a push), the whole change is
 * re-checked against the new tip and retried, so no acknowledged commit is
 * ever lost.
 */
export function createFiles(deps: FilesDeps) {
  const { git, protections } = deps;

  function err(kind: ErrorKind, message: string): DomainError {
    return new DomainError(kind, message);
  }

  async function attributesFor(gitDir: string, editor: TreeEditor, path: string): Promise<AttributesFile[]> {
    const dirs = ['', ...path.split('/').slice(0, -1).map((_, i, a) => a.slice(0, i + 1).join('/'))];
    const out: AttributesFile[] = [];
    for (const dir of dirs) {
      const entry = await editor.get(dir ? `${dir}/.gitattributes` : '.gitattributes');
      if (!entry || entry === 'dir') continue;
      const data = await git.blob(gitDir, entry.sha);
      if (data) out.push({ dir, text: data.toString('utf8') });
    }
    return out;
  }

  async function blobFor(repo: RepoContext, editor: TreeEditor, path: string, content: Buffer): Promise<string> {
    if (deps.lfsEnabled && filterAttribute(await attributesFor(repo.gitDir, editor, path), path) === 'lfs') {
      const oid = await deps.lfsStore.putBuffer(content);
      deps.lfsRepo.store(repo.row.id, oid, content.length, Math.floor(Date.now() / 1000));
      return writeObject(repo.gitDir, 'blob', Buffer.from(formatPointer({ oid, size: content.length })));
    }
    return writeObject(repo.gitDir, 'blob', content);
  }

  function signatures(doer: UserRow, req: ChangeRequest): { author: Signature; committer: Signature } {
    const full = (i?: Identity) => (i?.name && i.email ? { name: i.name, email: i.email } : undefined);
    const doerId = { name: doer.full_name || doer.name, email: doer.email };
    const authorId = full(req.author) ?? full(req.committer) ?? doerId;
    const committerId = full(req.committer) ?? authorId;
    return { author: { ...authorId, ...when(req.dates?.author) }, committer: { ...committerId, ...when(req.dates?.committer) } };
  }

  /** One attempt against the branch tip as it is now; returns null when the tip moved before our swap. */
  async function attempt(repo: RepoContext, doer: UserRow, req: ChangeRequest, paths: { tree: string; from: string }[]) {
    const bad: ErrorKind = req.deleteEndpoint ? 'bad_request' : 'unprocessable';
    const refs = await git.refs(repo.gitDir);
    const empty = refs.branches.size === 0;
    const oldBranch = req.branch || repo.row.default_branch;
    const newBranch = req.newBranch || oldBranch;
    const oldHead = empty ? null : (refs.branches.get(oldBranch) ?? null);
    if (!empty && !oldHead) throw notFound(`branch does not exist [repo_id: ${repo.row.id} name: ${oldBranch}]`);
    const newBranchHead = refs.branches.get(newBranch) ?? null;
    if (newBranch !== oldBranch && newBranchHead && !req.forcePush) throw err(bad, `branch already exists [name: ${newBranch}]`);

    if (newBranch === oldBranch && !empty) {
      const rule = protections.matchFor(repo.row.id, oldBranch);
      if (rule) {
        const canPush = protections.canUserPush(rule, doer, repo.perm);
        const hasUnprotected = rule.data.unprotected_file_patterns.trim() !== '';
        for (const p of paths.flatMap((x) => (x.from !== x.tree ? [x.from, x.tree] : [x.tree]))) {
          const unprotected = hasUnprotected && protections.isUnprotectedFile(rule, p);
          if (!canPush && !unprotected) throw forbidden(`user cannot commit to repo [user: ${doer.lower_name}]`);
          if (protections.isProtectedFile(rule, p)) throw forbidden(`path is protected and can not be changed [path: ${p}]`);
        }
      }
    }

    const base = oldHead ? await git.commit(repo.gitDir, oldHead) : null;
    const editor = new TreeEditor(git, repo.gitDir, base?.tree ?? null);
    const written: { path: string; leaf: Leaf }[] = [];
    for (let i = 0; i < req.files.length; i++) {
      const f = req.files[i]!;
      const { tree: tp, from } = paths[i]!;
      let existing: Leaf | null = null;
      if (f.operation === 'update' || f.operation === 'delete' || f.operation === 'rename') {
        const e = await editor.get(from);
        if (!e || e === 'dir') throw notFound(`repository file does not exist [path: ${from}]`);
        existing = e;
        if (f.sha) {
          if (f.sha !== e.sha) throw err(bad, `sha does not match [given: ${f.sha}, expected: ${e.sha}]`);
        } else if (req.deleteEndpoint) throw err('bad_request', 'a SHA or commit ID must be proved when updating a file');
      } else if (f.operation === 'upload') {
        const e = await editor.get(tp);
        if (e && e !== 'dir') existing = e;
      }
      if (f.operation === 'delete') {
        await editor.remove(from);
        written.push({ path: from, leaf: existing! });
        continue;
      }
      const parts = tp.split('/');
      for (let j = 1; j < parts.length; j++) {
        const sub = parts.slice(0, j).join('/');
        const e = await editor.get(sub);
        if (e && e !== 'dir') {
          if (e.mode === '120000') throw err('unprocessable', `a symbolic link exists where you’re trying to create a subdirectory [path: ${sub}]`);
          throw err('unprocessable', `a file exists where you’re trying to create a subdirectory [path: ${sub}]`);
        }
      }
      const target = await editor.get(tp);
      if (target === 'dir') throw err('unprocessable', `a directory exists where you’re trying to create a file [path: ${tp}]`);
      if (target && (f.operation === 'create' || ((f.operation === 'update' || f.operation === 'rename') && from !== tp))) {
        throw err('unprocessable', `repository file already exists [path: ${tp}]`);
      }
      const keepContent = f.operation === 'rename' && (!f.content || f.content.length === 0);
      const sha = keepContent ? existing!.sha : await blobFor(repo, editor, tp, f.content ?? Buffer.alloc(0));
      const mode = keepContent ? existing!.mode : existing?.mode === '100755' ? '100755' : '100644';
      if (from !== tp && existing) await editor.remove(from);
      await editor.set(tp, { mode, sha });
      written.push({ path: tp, leaf: { mode, sha } });
    }

    const tree = await editor.write();
    const { author, committer } = signatures(doer, req);
    let message = (req.message || defaultMessage(req.files)).replace(/\n*$/, '\n');
    if (req.signoff) message += `\nSigned-off-by: ${committer.name} <${committer.email}>\n`;
    const commitSha = await writeObject(repo.gitDir, 'commit', formatCommit({ tree, parents: oldHead ? [oldHead] : [], author, committer, message }));
    const expected = newBranch === oldBranch ? oldHead : req.forcePush ? newBranchHead : null;
    const swapped = await casRef(repo.gitDir, `refs/heads/${newBranch}`, commitSha, expected, `trunkline: ${message.split('\n')[0]}`);
    if (!swapped) return null;
    return { commitSha, tree, parents: oldHead ? [oldHead] : [], author, committer, message, newBranch, empty, written };
  }

  return {
    /** Applies a change set as one commit and answers with Gitea's FilesResponse parts. */
    async change(repo: RepoContext, doer: UserRow, req: ChangeRequest): Promise<ChangeResult> {
      const bad: ErrorKind = req.deleteEndpoint ? 'bad_request' : 'unprocessable';
      const paths = req.files.map((f) => {
        const tree = cleanTreePath(f.path);
        if (!tree) throw err(bad, `path contains a malformed path component [path: ${f.path}]`);
        const from = f.fromPath ? cleanTreePath(f.fromPath) : tree;
        if (!from) throw err(bad, `path contains a malformed path component [path: ${f.fromPath}]`);
        return { tree, from };
      });
      const target = req.newBranch || req.branch || repo.row.default_branch;
      const done = await git.writes.run(`${repo.gitDir}\0${target}`, async () => {
        for (let i = 0; i < MAX_ATTEMPTS; i++) {
          const r = await attempt(repo, doer, req, paths);
          if (r) {
            git.branchMoved(repo.gitDir, r.newBranch, r.commitSha);
            if (r.empty && r.newBranch !== repo.row.default_branch) await deps.repos.setDefaultBranch(repo, r.newBranch);
            return r;
          }
          git.invalidate(repo.gitDir); // someone else moved the branch: look again
        }
        throw new Error(`branch ${target} kept moving; gave up after ${MAX_ATTEMPTS} attempts`);
      });
      deps.repos.touch(repo);
      deps.onCommit?.(repo, done.newBranch, done.commitSha);

      const api = deps.site.repoApi(repo.owner, repo.row);
      const html = deps.site.repoHtml(repo.owner, repo.row);
      const ref: RefCommit = { type: 'branch', name: done.newBranch, commit: done.commitSha, input: done.newBranch };
      const files = await Promise.all(
        req.files.map(async (f, i) => {
          if (f.operation === 'delete') return null;
          const w = done.written[i]!;
          const name = w.path.slice(w.path.lastIndexOf('/') + 1);
          return deps.contents.entryResponse(repo, ref, w.path, { mode: w.leaf.mode, name, sha: w.leaf.sha }, done.commitSha, true);
        }),
      );
      const meta = (kind: 'commits' | 'trees', sha: string) => ({ url: `${api}/git/${kind}/${sha}`, sha, created: GO_ZERO_TIME });
      return {
        files,
        commit: {
          ...meta('commits', done.commitSha),
          html_url: `${html}/commit/${done.commitSha}`,
          author: { name: done.author.name, email: done.author.email, date: goTimeUtc(done.author.when) },
          committer: { name: done.committer.name, email: done.committer.email, date: goTimeUtc(done.committer.when) },
          parents: done.parents.map((p) => meta('commits', p)),
          message: done.message,
          tree: meta('trees', done.tree),
        },
        verification: UNSIGNED,
      };
    },
  };
}

export type Files = ReturnType<typeof createFiles>;
