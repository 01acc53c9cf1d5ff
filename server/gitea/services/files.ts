import { readFile } from 'node:fs/promises';
import type { PayloadCommitVerification } from '../../../protocol/gitea/index.js';
import type { LfsRepo } from '../../db/repos/lfs-repo.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import { DomainError, forbidden, notFound, type ErrorKind } from '../../errors.js';
import { GO_ZERO_TIME, goTimeUtc } from '../../util/go-format.js';
import { everyInSlices, findInSlices } from '../../util/slices.js';
import { formatCommit, parseCommit, type Signature } from '../git/commit.js';
import { changedPaths, isAncestor } from '../git/history.js';
import { writeObject } from '../git/objects.js';
import { casRef } from '../git/refs.js';
import type { GitStore } from '../git/store.js';
import { TreeEditor, type Leaf } from '../git/tree-edit.js';
import type { ModelOf } from '../../../protocol/model.js';
import type { Site } from '../site.js';
import type { ContentsReader } from './contents.js';
import { filterAttribute, type AttributesFile } from './gitattributes.js';
import { formatPointer, parsePointer } from './lfs-pointer.js';
import type { LfsStore } from './lfs-store.js';
import type { Protections } from './protections.js';
import { cleanTreePath, pathNotExist, type RefCommit } from './refs.js';
import type { RepoContext, RepoService } from './repos.js';
import type { CommitPublisher } from './commit-bus.js';
import type { ChangeFile, ChangeRequest, ChangeResult, Identity, Operation } from './change-request.js';

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

const GO_ZERO_MS = Date.parse(GO_ZERO_TIME);

/** Go's strings.TrimSpace: Unicode white space (unicode.IsSpace) off both ends. */
const goTrimSpace = (s: string) => s.replace(/^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g, '');

/** An RFC 3339 date (keeping its offset) as a git signature time; unset or Go's zero time means now. */
function when(date: string | undefined): { when: number; tzMinutes: number } {
  const ms = date ? Date.parse(date) : NaN;
  if (!date || Number.isNaN(ms) || ms === GO_ZERO_MS) {
    const now = new Date();
    return { when: Math.floor(now.getTime() / 1000), tzMinutes: -now.getTimezoneOffset() };
  }
  const m = /([+-])(\d{2}):(\d{2})$/.exec(date);
  const tz = m ? (Number(m[2]) * 60 + Number(m[3])) * (m[1] === '-' ? -1 : 1) : 0;
  return { when: Math.floor(ms / 1000), tzMinutes: tz };
}

/** What file writes need. */
export interface FilesDeps {
  git: GitStore;
  repos: RepoService;
  protections: Protections;
  contents: ContentsReader;
  lfsStore: LfsStore;
  lfsRepo: LfsRepo;
  lfsEnabled: boolean;
  site: Site;
  /** Where every commit we make is published (mirrors sync on commit, events). */
  commits?: CommitPublisher;
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

  /** Stores content as a blob (kept in memory a while: the write's answer reads it back at once). */
  async function storeBlob(repo: RepoContext, content: Buffer): Promise<string> {
    const sha = await writeObject(repo.gitDir, 'blob', content);
    git.rememberBlob(repo.gitDir, sha, content);
    return sha;
  }

  /** The blob for content written at `path`: an LFS pointer when the path is `filter=lfs` (the content goes to the LFS store). */
  async function blobFor(repo: RepoContext, editor: TreeEditor, path: string, content: Buffer): Promise<string> {
    if (await isLfsPath(repo, editor, path)) {
      const oid = await deps.lfsStore.putBuffer(content);
      deps.lfsRepo.store(repo.row.id, oid, content.length, Math.floor(Date.now() / 1000));
      return storeBlob(repo, Buffer.from(formatPointer({ oid, size: content.length })));
    }
    return storeBlob(repo, content);
  }

  /**
   * Gitea's makeGitUserSignature: each of name and email comes from its own
   * identity, else from the other one (so giving only an author or only a
   * committer sets both), else from the doer.
   */
  function signatures(doer: UserRow, req: ChangeRequest): { author: Signature; committer: Signature } {
    const doerName = doer.full_name.trim() || doer.name.trim() || `user-${doer.id}`;
    const sig = (own?: Identity, other?: Identity) => ({ name: own?.name || other?.name || doerName, email: own?.email || other?.email || doer.email });
    return {
      author: { ...sig(req.author, req.committer), ...when(req.dates?.author) },
      committer: { ...sig(req.committer, req.author), ...when(req.dates?.committer) },
    };
  }

  /** Gitea's CleanGitTreePath for every file of the request (an invalid one is 422, 400 on DELETE). */
  function cleanPaths(req: ChangeRequest, bad: ErrorKind): { tree: string; from: string }[] {
    return req.files.map((f) => {
      const tree = cleanTreePath(f.path);
      if (!tree) throw err(bad, `path contains a malformed path component [path: ${f.path}]`);
      const from = f.fromPath ? cleanTreePath(f.fromPath) : tree;
      if (!from) throw err(bad, `path contains a malformed path component [path: ${f.fromPath}]`);
      return { tree, from };
    });
  }

  /** Gitea's VerifyBranchProtection, for a commit to an existing branch through the API. */
  async function verifyBranchProtection(repo: RepoContext, doer: UserRow, branch: string, paths: { tree: string; from: string }[]): Promise<void> {
    const rule = protections.matchFor(repo.row.id, branch);
    if (!rule) return;
    const canPush = protections.canUserPush(rule, doer, repo.perm);
    const hasUnprotected = rule.data.unprotected_file_patterns.trim() !== '';
    // Gitea checks the target paths only; a rename's source is checked too, or moving a protected file away would change it.
    // A request may name very many paths: the checks let other requests run between slices.
    await findInSlices(
      paths.flatMap((x) => (x.from !== x.tree ? [x.from, x.tree] : [x.tree])),
      (p) => {
        const unprotected = hasUnprotected && protections.isUnprotectedFile(rule, p);
        if (!canPush && !unprotected) throw forbidden(`user cannot commit to repo [user: ${doer.lower_name}]`);
        if (protections.isProtectedFile(rule, p)) throw forbidden(`path is protected and can not be changed [path: ${p}]`);
        return false;
      },
    );
    // We never sign commits, so a rule that requires signatures refuses every API commit (Gitea: ErrWontSign).
    if (rule.data.require_signed_commits) throw forbidden(`user cannot commit to repo [user: ${doer.lower_name}]`);
  }

  /**
   * A commit to another branch than the one it is based on is a push to that
   * branch: Gitea's pre-receive hook applies its protection (force push,
   * signatures, protected files, who may push); a rejected push is 403.
   */
  async function verifyPush(repo: RepoContext, doer: UserRow, branch: string, oldSha: string | null, newSha: string): Promise<void> {
    const rule = protections.matchFor(repo.row.id, branch);
    if (!rule) return;
    if (oldSha && !(await isAncestor(repo.gitDir, oldSha, newSha)) && !protections.canForcePush(rule, doer, repo.perm)) {
      throw forbidden(`branch ${branch} is protected from force push`);
    }
    if (rule.data.require_signed_commits) throw forbidden(`branch ${branch} is protected from unverified commit ${newSha}`);
    const changed = oldSha ? await changedPaths(repo.gitDir, oldSha, newSha) : [];
    const protectedPath = await findInSlices(changed, (p) => protections.isProtectedFile(rule, p));
    if (!protectedPath && protections.canUserPush(rule, doer, repo.perm)) return;
    if (protectedPath) throw forbidden(`branch ${branch} is protected from changing file ${protectedPath}`);
    if (changed.length && rule.data.unprotected_file_patterns.trim() && (await everyInSlices(changed, (p) => protections.isUnprotectedFile(rule, p)))) return;
    throw forbidden(`Not allowed to push to protected branch ${branch}`);
  }

  /** Whether `path` is stored in LFS (`filter=lfs` in the .gitattributes files of the tree being built). */
  async function isLfsPath(repo: RepoContext, editor: TreeEditor, path: string): Promise<boolean> {
    return deps.lfsEnabled && filterAttribute(await attributesFor(repo.gitDir, editor, path), path) === 'lfs';
  }

  /**
   * Gitea's writeRepoObjectForRename: a moved file keeps its object, unless it
   * moves into or out of LFS, when the content is converted.
   */
  async function renamedBlob(repo: RepoContext, editor: TreeEditor, from: string, to: string, old: Leaf): Promise<string> {
    if (!deps.lfsEnabled || old.mode === '120000' || old.mode === '160000') return old.sha;
    const [wasLfs, isLfs] = [await isLfsPath(repo, editor, from), await isLfsPath(repo, editor, to)];
    if (wasLfs === isLfs) return old.sha;
    const data = (await git.blob(repo.gitDir, old.sha)) ?? Buffer.alloc(0);
    if (isLfs) return blobFor(repo, editor, to, data);
    const pointer = parsePointer(data);
    if (!pointer) return old.sha; // not really in LFS: the content is what git has
    return storeBlob(repo, await readFile(deps.lfsStore.pathOf(pointer.oid)));
  }

  /** One attempt against the branch tip as it is now; returns null when the tip moved before our swap. */
  async function attempt(repo: RepoContext, doer: UserRow, req: ChangeRequest) {
    const bad: ErrorKind = req.deleteEndpoint ? 'bad_request' : 'unprocessable';
    const refs = await git.refs(repo.gitDir);
    const empty = refs.branches.size === 0;
    const oldBranch = req.branch || repo.row.default_branch;
    const newBranch = req.newBranch || oldBranch;
    const oldHead = empty ? null : (refs.branches.get(oldBranch) ?? null);
    // Gitea's order: the branch, the paths, the new branch or the branch's protection.
    if (!empty && !oldHead) throw notFound(`branch does not exist [repo_id: ${repo.row.id} name: ${oldBranch}]`);
    const paths = cleanPaths(req, bad);
    const newBranchHead = refs.branches.get(newBranch) ?? null;
    if (newBranch !== oldBranch) {
      if (newBranchHead && !req.forcePush) throw err(bad, `branch already exists [name: ${newBranch}]`);
    } else await verifyBranchProtection(repo, doer, oldBranch, paths);
    // Gitea clones the branch first; in an empty repository there is none to delete from.
    if (empty && req.files.some((f) => f.operation === 'delete')) throw notFound(`branch does not exist [name: ${oldBranch}]`);

    const base = oldHead ? await git.commit(repo.gitDir, oldHead) : null;
    const editor = new TreeEditor(git, repo.gitDir, base?.tree ?? null);
    // Each touched path as the base commit has it: what the commit really changes is known once all operations ran.
    const originals = new Map<string, Leaf | null>();
    const touch = async (p: string) => {
      if (originals.has(p)) return;
      const e = await editor.get(p);
      originals.set(p, e && e !== 'dir' ? e : null);
    };
    // Operations apply in request order, each checked against the tree as the earlier ones left it.
    for (let i = 0; i < req.files.length; i++) {
      const f = req.files[i]!;
      const { tree: tp, from } = paths[i]!;
      if (f.operation === 'delete') {
        const e = await editor.get(tp);
        if (!e || e === 'dir') throw notFound(`repository file does not exist [path: ${f.path}]`);
        if (f.sha) {
          if (f.sha !== e.sha) throw err(bad, `sha does not match [given: ${f.sha}, expected: ${e.sha}]`);
        } else if (req.deleteEndpoint) throw err('bad_request', 'a SHA or commit ID must be proved when updating a file');
        await touch(tp);
        await editor.remove(tp);
        continue;
      }

      // The old entry (Gitea's handleCheckErrors; skipped in an empty repository, as there).
      let existing: Leaf | null = null;
      if (!empty && f.operation !== 'create') {
        const e = await editor.entry(from);
        if (e.kind === 'missing') {
          if (f.operation !== 'upload') throw notFound(pathNotExist(from.split('/'), { index: e.index, ...(e.blocker ? { blocker: e.blocker } : {}) }));
        } else if (e.kind === 'leaf') existing = e.leaf;
        const current = e.kind === 'leaf' ? e.leaf.sha : e.kind === 'dir' ? (e.sha ?? '') : '';
        if (f.sha && f.sha !== current) throw err(bad, `sha does not match [given: ${f.sha}, expected: ${current}]`);
      } else if (empty && f.operation === 'rename') throw notFound(pathNotExist(from.split('/'), { index: 0 }));

      // The new entry: nothing but directories on the way, and nothing at the end unless it is the file being replaced.
      const parts = tp.split('/');
      for (let j = 0; j < parts.length; j++) {
        const sub = parts.slice(0, j + 1).join('/');
        const e = await editor.get(sub);
        if (!e) break;
        if (j < parts.length - 1) {
          if (e !== 'dir') throw err('unprocessable', `a file exists where you’re trying to create a subdirectory [path: ${sub}]`);
        } else if (e === 'dir') throw err('unprocessable', `a directory exists where you’re trying to create a file [path: ${sub}]`);
        // Gitea's text, for a symbolic link at the end of the path.
        else if (e.mode === '120000') throw err('unprocessable', `a symbolic link exists where you’re trying to create a subdirectory [path: ${sub}]`);
        else if (from !== tp || f.operation === 'create') throw err('unprocessable', `repository file already exists [path: ${tp}]`);
      }

      // A rename without content keeps the object and its mode; otherwise the old entry's executable bit survives (as Gitea).
      const keep = f.operation === 'rename' && existing !== null && (!f.content || f.content.length === 0);
      const sha = keep ? await renamedBlob(repo, editor, from, tp, existing!) : await blobFor(repo, editor, tp, f.content ?? Buffer.alloc(0));
      const mode = keep ? existing!.mode : existing?.mode === '100755' ? '100755' : '100644';
      await touch(from);
      await touch(tp);
      if (from !== tp) await editor.remove(from);
      await editor.set(tp, { mode, sha });
    }
    // Files the commit adds or changes (rewriting identical content changes nothing; a file put back as it was neither).
    const changed: string[] = [];
    for (const [p, before] of originals) {
      const after = await editor.get(p);
      if (after && after !== 'dir' && (!before || before.sha !== after.sha || before.mode !== after.mode)) changed.push(p);
    }

    const tree = await editor.write();
    const { author, committer } = signatures(doer, req);
    // Gitea trims the message and ends it with a newline; its sign-off trailer has none, and commit-tree keeps that as is.
    let message = `${goTrimSpace(req.message || defaultMessage(req.files))}\n`;
    if (req.signoff) message += `\nSigned-off-by: ${committer.name} <${committer.email}>`;
    const fields = { tree, parents: oldHead ? [oldHead] : [], author, committer, message };
    const raw = formatCommit(fields);
    const commitSha = await writeObject(repo.gitDir, 'commit', raw);
    const stored = parseCommit(commitSha, raw); // identities as git keeps them (crud stripped)
    git.rememberCommit(repo.gitDir, stored);
    if (newBranch !== oldBranch) await verifyPush(repo, doer, newBranch, req.forcePush ? newBranchHead : null, commitSha);
    const expected = newBranch === oldBranch ? oldHead : req.forcePush ? newBranchHead : null;
    if (git.beforeRefSwap) await git.beforeRefSwap(repo.gitDir, `refs/heads/${newBranch}`, expected);
    const swapped = await casRef(repo.gitDir, `refs/heads/${newBranch}`, commitSha, expected);
    if (!swapped) return null;
    return { commitSha, commit: stored, newBranch, empty, changed, paths };
  }

  return {
    /** Applies a change set as one commit and answers with Gitea's FilesResponse parts. */
    async change(repo: RepoContext, doer: UserRow, req: ChangeRequest): Promise<ChangeResult> {
      const target = req.newBranch || req.branch || repo.row.default_branch;
      const done = await git.writes.run(`${repo.gitDir}\0${target}`, async () => {
        for (let i = 0; i < MAX_ATTEMPTS; i++) {
          const r = await attempt(repo, doer, req);
          if (r) {
            git.branchMoved(repo.gitDir, r.newBranch, r.commitSha);
            for (const p of r.changed) git.rememberLastCommit(repo.gitDir, r.commitSha, p);
            if (r.empty && r.newBranch !== repo.row.default_branch) await deps.repos.setDefaultBranch(repo, r.newBranch);
            return r;
          }
          git.invalidate(repo.gitDir); // someone else moved the branch: look again
        }
        throw new Error(`branch ${target} kept moving; gave up after ${MAX_ATTEMPTS} attempts`);
      });
      deps.repos.touch(repo);
      deps.commits?.publish(repo, done.newBranch, done.commitSha);

      const api = deps.site.repoApi(repo.owner, repo.row);
      const html = deps.site.repoHtml(repo.owner, repo.row);
      const ref: RefCommit = { type: 'branch', name: done.newBranch, commit: done.commitSha, input: done.newBranch };
      // Gitea answers with each request path as the new commit has it: null when it is gone (a delete).
      const files = await Promise.all(done.paths.map(({ tree: path }) => deps.contents.entryAt(repo, ref, path)));
      const meta = (kind: 'commits' | 'trees', sha: string) => ({ url: `${api}/git/${kind}/${sha}`, sha, created: GO_ZERO_TIME });
      const c = done.commit;
      return {
        files,
        commit: {
          ...meta('commits', c.sha),
          html_url: `${html}/commit/${c.sha}`,
          author: { name: c.author.name, email: c.author.email, date: goTimeUtc(c.author.when) },
          committer: { name: c.committer.name, email: c.committer.email, date: goTimeUtc(c.committer.when) },
          parents: c.parents.map((p) => meta('commits', p)),
          message: c.message,
          tree: meta('trees', c.tree),
        },
        verification: UNSIGNED,
      };
    },
  };
}

/** The file writer's interface. */
export type Files = ReturnType<typeof createFiles>;
