import { createHash, randomBytes } from 'node:crypto';
import type { Context, Hono } from 'hono';
import * as v from 'valibot';
import type { UserRow } from '../../db/repos/user-repo.js';
import { readBody } from '../../http/body.js';
import type { Logger } from '../../log.js';
import type { GitStore } from '../git/store.js';
import { ZERO_SHA } from '../git/refs.js';
import type { CommitPublisher } from '../services/commit-bus.js';
import type { Protections } from '../services/protections.js';
import type { RepoService } from '../services/repos.js';
import { decidePush, type RefUpdate } from '../services/push-rules.js';
import type { RepoContext } from '../services/repos.js';

/** What push sessions use. */
export interface PushSessionsDeps {
  repos: RepoService;
  git: GitStore;
  protections: Protections;
  commits: CommitPublisher;
}
import { bareStatus, httpError } from './git-access.js';

/**
 * The internal endpoint our pre-receive hook calls back to. It is not part
 * of the Gitea API: it answers only requests that carry the one-time secret
 * of a push in progress (`X-Trunkline-Hook-Secret`, handed to the hook in its
 * environment and valid while that receive-pack runs) and come from this
 * host. Anything else, user credentials included, gets a plain 404. `api`
 * is a reserved user name, so the path never shadows a repository.
 */
export const PRE_RECEIVE_PATH = '/api/internal/git/pre-receive';

const Updates = v.object({
  updates: v.array(
    v.object({
      old: v.pipe(v.string(), v.regex(/^[0-9a-f]{40,64}$/)),
      new: v.pipe(v.string(), v.regex(/^[0-9a-f]{40,64}$/)),
      ref: v.pipe(v.string(), v.minLength(1)),
      forced: v.optional(v.boolean()),
      paths: v.optional(v.array(v.string())),
      firstCommit: v.optional(v.nullable(v.string())),
    }),
  ),
});

/** What one push carries from the HTTP request to the hook's callback and back. */
export interface PushSession {
  repoId: number;
  doer: UserRow;
  /** The updates of the hook's accepted call (what receive-pack then applies). */
  accepted: RefUpdate[];
}

const isZero = (sha: string) => /^0+$/.test(sha);
const keyOf = (secret: string) => createHash('sha256').update(secret).digest('hex');
const plainAddress = (a: string | undefined) => (a ?? '').replace(/^::ffff:/, '');

/** Live pushes by secret, the callback endpoint, and what happens after a push. */
export function createPushSessions(g: PushSessionsDeps, log: Logger, maxBodyBytes: number) {
  const sessions = new Map<string, PushSession>();

  /** The hook connects to the address the push arrived on, so it comes from this very host. */
  function fromThisHost(c: Context): boolean {
    const sock = (c.env as { incoming?: { socket?: { remoteAddress?: string; localAddress?: string } } } | undefined)?.incoming?.socket;
    if (!sock) return false;
    const remote = plainAddress(sock.remoteAddress);
    return remote === plainAddress(sock.localAddress) || remote === '127.0.0.1' || remote === '::1';
  }

  async function callback(c: Context): Promise<Response> {
    const secret = c.req.header('x-trunkline-hook-secret');
    const session = secret ? sessions.get(keyOf(secret)) : undefined;
    if (!session || !fromThisHost(c)) return httpError(404, '404 page not found');
    let parsed: v.InferOutput<typeof Updates>;
    try {
      const r = v.safeParse(Updates, JSON.parse(await readBody(c.req.raw, maxBodyBytes)));
      if (!r.success) return bareStatus(400);
      parsed = r.output;
    } catch {
      return bareStatus(400);
    }
    const repo = g.repos.byId(session.repoId, session.doer);
    if (!repo) return c.json({ ok: false, message: 'Repository not found' });
    const decision = await decidePush(g.protections, repo, session.doer, parsed.updates);
    if ('ok' in decision && decision.ok) session.accepted = parsed.updates.map((u) => ({ old: u.old, new: u.new, ref: u.ref }));
    return c.json(decision);
  }

  return {
    mount(app: Hono<any>): void {
      app.post(PRE_RECEIVE_PATH, callback);
    },

    /** Registers a push; its secret is valid until `close`. */
    open(repo: RepoContext, doer: UserRow): { secret: string; session: PushSession; close(): void } {
      const secret = randomBytes(32).toString('hex');
      const key = keyOf(secret);
      const session: PushSession = { repoId: repo.row.id, doer, accepted: [] };
      sessions.set(key, session);
      return { secret, session, close: () => void sessions.delete(key) };
    },

    /**
     * After receive-pack exits: drop cached refs, record the activity, make the
     * first pushed branch the default of a repository that was empty (as Gitea
     * does) and announce every branch that now points where the push put it, and every tag pushed.
     */
    async afterPush(session: PushSession, wasEmpty: boolean): Promise<void> {
      const repo = g.repos.byId(session.repoId, session.doer);
      if (!repo) return;
      g.git.invalidate(repo.gitDir);
      if (!session.accepted.length) return;
      try {
        g.repos.touch(repo);
        const refs = await g.git.refs(repo.gitDir);
        const landed = session.accepted
          .filter((u) => u.ref.startsWith('refs/heads/') && !isZero(u.new))
          .map((u) => ({ branch: u.ref.slice('refs/heads/'.length), sha: u.new }))
          .filter((u) => refs.branches.get(u.branch) === u.sha);
        if (wasEmpty && landed[0] && !refs.branches.has(repo.row.default_branch)) await g.repos.setDefaultBranch(repo, landed[0].branch);
        for (const u of landed) g.commits.publish(repo, u.branch, u.sha);
        // Tags as they now stand: made or moved (the tagged commit), or gone.
        for (const u of session.accepted) {
          if (!u.ref.startsWith('refs/tags/')) continue;
          const tag = u.ref.slice('refs/tags/'.length);
          const now = refs.tags.get(tag);
          if (isZero(u.new)) {
            if (!now) g.commits.publishTag(repo, tag, ZERO_SHA);
          } else if (now) g.commits.publishTag(repo, tag, now);
        }
      } catch (err) {
        log.error({ err, repo: repo.row.id }, 'post-push bookkeeping failed');
      }
    },
  };
}

/** The push sessions' interface. */
export type PushSessions = ReturnType<typeof createPushSessions>;
