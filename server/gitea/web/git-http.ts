import type { Context, Hono } from 'hono';
import type { UserRow } from '../../db/repos/user-repo.js';
import type { Logger } from '../../log.js';
import type { CallerDeps } from '../http/auth.js';
import { HOOK_SECRET_ENV, HOOK_URL_ENV, PushHooks } from '../git/hooks.js';
import { runService, type GitService, type ServiceProcess } from '../git/service-rpc.js';
import type { Authenticated } from '../services/accounts.js';
import type { RepoContext } from '../services/repos.js';
import { tokenMayAccessRepo } from '../services/repo-access.js';
import { bareStatus, httpError, locateRepo, plainText, repoNameOf, webCaller } from './git-access.js';
import { nodeBody, requestInput, type InputProblem } from './request-input.js';
import { createPushSessions, PRE_RECEIVE_PATH, type PushSessionsDeps } from './push-sessions.js';

/** What git smart HTTP uses. */
export type GitHttpDeps = CallerDeps & PushSessionsDeps & { config: { dataDir: string } };

/**
 * A push body may be far larger than an API body (MAX_BODY_BYTES): git sends
 * the whole pack in one request. 2 GiB, as GitHub caps a push; fetch
 * negotiations (want/have lines) stay within MAX_BODY_BYTES.
 */
const PUSH_MAX_BYTES = 2 * 1024 ** 3;

const NO_CACHE = { expires: 'Fri, 01 Jan 1980 00:00:00 GMT', pragma: 'no-cache', 'cache-control': 'no-cache, max-age=0, must-revalidate' };
/** Gitea enables partial clones (git ≥ 2.22): filters, and fetching any object by id for the lazy fetches. */
const UPLOAD_PACK_CONFIG = { 'uploadpack.allowFilter': 'true', 'uploadpack.allowAnySHA1InWant': 'true' };
/** Gitea's safeGitProtocolHeader: only `key=value(:key=value)*` reaches GIT_PROTOCOL. */
const SAFE_GIT_PROTOCOL = /^[0-9a-zA-Z]+=[0-9a-zA-Z]+(:[0-9a-zA-Z]+=[0-9a-zA-Z]+)*$/;

const pktLine = (s: string) => `${(s.length + 4).toString(16).padStart(4, '0')}${s}`;

interface Access {
  repo: RepoContext;
  auth: Authenticated | null;
}

/**
 * Git smart HTTP at `/{owner}/{repo}.git/…` and `/{owner}/{repo}/…`:
 * `GET info/refs?service=…`, `POST git-upload-pack`, `POST git-receive-pack`,
 * streamed both ways, with Gitea's authentication, permission and
 * branch-protection rules (the last in a pre-receive hook that calls back to
 * PRE_RECEIVE_PATH). The dumb protocol is not served: every git since 1.6.6
 * speaks smart HTTP.
 */
export function mountGitHttp(app: Hono<any>, g: GitHttpDeps, opts: { log: Logger; maxBodyBytes: number }): void {
  const hooks = new PushHooks(g.config.dataDir);
  hooks.install();
  const pushes = createPushSessions(g, opts.log, opts.maxBodyBytes);
  pushes.mount(app);

  /** Gitea's httpBase, in its order; a Response is the refusal. */
  async function access(owner: string, repoParam: string, auth: Authenticated | null, pull: boolean): Promise<Access | Response> {
    const ownerRow = g.accounts.byName(owner);
    if (!ownerRow) return httpError(404);
    if (!ownerRow.is_active) return plainText(403, 'Repository cannot be accessed. You cannot push or open issues/pull-requests.');
    const repo = locateRepo(g, owner, repoNameOf(repoParam), auth?.user ?? null);
    if (repo && repo.row.is_archived && !pull) {
      return plainText(403, 'This repo is archived. You can view files and clone it, but cannot push or open issues/pull-requests.');
    }
    const publicPull = !!repo && !repo.row.is_private && pull && ownerRow.visibility === 'public';
    if (!publicPull) {
      // Gitea's realm when its OAuth2 provider is on (the default): git asks for credentials and retries.
      if (!auth) return httpError(401, 'Unauthorized', { 'www-authenticate': 'Basic realm="Gitea"' });
      if (repo) {
        // Gitea's CheckRepoScopedToken checks only tokens sent with Basic auth (a known hole); we check every token.
        if (!tokenMayAccessRepo(auth, repo, pull ? 'read' : 'write')) return httpError(403);
        // A push needs only read here: the hook refuses those who cannot write (Gitea, with proc-receive).
        if (!repo.perm.read) return plainText(404, 'Repository not found');
        if (!pull && repo.row.is_mirror) return plainText(403, 'mirror repository is read-only');
      }
    }
    if (!repo) return pull ? plainText(404, 'Repository not found') : plainText(403, 'Push to create is not enabled for users.');
    return { repo, auth };
  }

  function protocolEnv(c: Context): Record<string, string> {
    const p = c.req.header('git-protocol');
    return p && SAFE_GIT_PROTOCOL.test(p) ? { GIT_PROTOCOL: p } : {};
  }

  app.get('/:owner/:repo/info/refs', async (c) => {
    const auth = await webCaller(c, g);
    if (auth instanceof Response) return auth;
    const service = c.req.query('service');
    let svc: GitService;
    if (service === 'git-upload-pack') svc = 'upload-pack';
    else if (service === 'git-receive-pack') svc = 'receive-pack';
    else if (!service || service === 'git-upload-archive') {
      const a = await access(c.req.param('owner'), c.req.param('repo'), auth, true);
      if (a instanceof Response) return a;
      // Gitea runs update-server-info and serves info/refs for the dumb protocol; we serve smart HTTP only.
      return service ? bareStatus(400) : plainText(403, 'The dumb HTTP protocol is not supported: use a git client that speaks smart HTTP.');
    } else return bareStatus(400);

    const a = await access(c.req.param('owner'), c.req.param('repo'), auth, svc === 'upload-pack');
    if (a instanceof Response) return a;
    const proc = runService(svc, a.repo.gitDir, { advertise: true, env: protocolEnv(c), config: svc === 'upload-pack' ? UPLOAD_PACK_CONFIG : {} });
    return streamed(c, proc, opts.log, {
      headers: { ...NO_CACHE, 'content-type': `application/x-git-${svc}-advertisement` },
      prefix: Buffer.from(`${pktLine(`# service=git-${svc}\n`)}0000`),
      finish: proc.exited,
      what: `${svc} --advertise-refs`,
    });
  });

  for (const svc of ['upload-pack', 'receive-pack'] as const) {
    app.post(`/:owner/:repo/git-${svc}`, async (c) => {
      const auth = await webCaller(c, g);
      if (auth instanceof Response) return auth;
      const a = await access(c.req.param('owner'), c.req.param('repo'), auth, svc === 'upload-pack');
      if (a instanceof Response) return a;
      if (c.req.header('content-type') !== `application/x-git-${svc}-request`) return bareStatus(400);
      const limit = svc === 'receive-pack' ? PUSH_MAX_BYTES : opts.maxBodyBytes;
      const gzip = c.req.header('content-encoding') === 'gzip';
      const declared = Number(c.req.header('content-length') ?? NaN);
      if (!gzip && declared > limit) return httpError(413, 'Request Entity Too Large');
      const input = requestInput(nodeBody(c), { gzip, limit });
      return svc === 'upload-pack' ? uploadPack(c, a, input) : receivePack(c, a, auth!.user, input);
    });
  }

  function uploadPack(c: Context, a: Access, input: ReturnType<typeof requestInput>): Promise<Response> {
    const proc = runService('upload-pack', a.repo.gitDir, { env: protocolEnv(c), config: UPLOAD_PACK_CONFIG, input: input.stream });
    return streamed(c, proc, opts.log, { headers: { 'content-type': 'application/x-git-upload-pack-result' }, finish: proc.exited, problem: input.problem, what: 'upload-pack' });
  }

  async function receivePack(c: Context, a: Access, doer: UserRow, input: ReturnType<typeof requestInput>): Promise<Response> {
    const hookProblem = await hooks.ready();
    if (hookProblem) {
      // Without a working hook git would accept every push unchecked: refuse instead.
      opts.log.error({ problem: hookProblem }, 'the pre-receive hook cannot run; pushes are refused');
      input.stream.destroy();
      return httpError(500);
    }
    const wasEmpty = await g.git.isEmpty(a.repo.gitDir);
    const push = pushes.open(a.repo, doer);
    const proc = runService('receive-pack', a.repo.gitDir, {
      env: { ...protocolEnv(c), [HOOK_URL_ENV]: hookUrl(c), [HOOK_SECRET_ENV]: push.secret },
      config: { 'core.hooksPath': hooks.dir },
      input: input.stream,
    });
    const finish = proc.exited.then(async (exit) => {
      push.close();
      await pushes.afterPush(push.session, wasEmpty);
      return exit;
    });
    return streamed(c, proc, opts.log, { headers: { 'content-type': 'application/x-git-receive-pack-result' }, finish, problem: input.problem, what: 'receive-pack' });
  }
}

/** The address the request came in on: the hook calls back there, so it reaches this server from this host. */
function hookUrl(c: Context): string {
  const sock = (c.env as { incoming?: { socket?: { localAddress?: string; localPort?: number } } } | undefined)?.incoming?.socket;
  let host = new URL(c.req.url).host;
  if (sock?.localAddress && sock.localPort) {
    const addr = sock.localAddress.replace(/^::ffff:/, '');
    host = addr.includes(':') ? `[${addr}]:${sock.localPort}` : `${addr}:${sock.localPort}`;
  }
  return `http://${host}${PRE_RECEIVE_PATH}`;
}

interface StreamOptions {
  headers: Record<string, string>;
  prefix?: Buffer;
  /** Settles when everything after git's exit is done; the response ends only then. */
  finish: Promise<unknown>;
  problem?: () => InputProblem;
  what: string;
}

/**
 * Answers with git's stdout as it comes. The status is chosen once git has
 * said something (or exited without a word, which is a failure: 400 for an
 * undecodable gzip body, 413 over the size limit, 500 otherwise). The body
 * ends only after `finish`, so a client that sees its push complete also
 * sees its effects (refs cache, default branch). A client that goes away
 * stops git and its helpers.
 */
async function streamed(c: Context, proc: ServiceProcess, log: Logger, o: StreamOptions): Promise<Response> {
  c.req.raw.signal.addEventListener('abort', () => proc.kill(), { once: true });
  void proc.exited.then((exit) => {
    if (exit.code !== 0 && !c.req.raw.signal.aborted && !o.problem?.()) log.warn({ service: o.what, code: exit.code, signal: exit.signal, stderr: exit.stderr.trim().slice(-2000) }, 'git service failed');
  });
  const it = proc.stdout[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let first: IteratorResult<Buffer>;
  try {
    first = await it.next();
  } catch {
    first = { done: true, value: undefined };
  }
  if (first.done) {
    const exit = await proc.exited;
    await o.finish.catch(() => {});
    if (exit.code !== 0) {
      const problem = o.problem?.();
      if (problem === 'gzip') return bareStatus(400);
      if (problem === 'limit') return httpError(413, 'Request Entity Too Large');
      return httpError(500);
    }
  }
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      if (o.prefix) controller.enqueue(o.prefix);
      if (!first.done) controller.enqueue(first.value);
      else {
        await o.finish.catch(() => {});
        controller.close();
      }
    },
    async pull(controller) {
      try {
        const r = await it.next();
        if (!r.done) return controller.enqueue(r.value);
        await o.finish.catch(() => {});
        controller.close();
      } catch (err) {
        proc.kill();
        controller.error(err);
      }
    },
    cancel() {
      proc.kill();
      void it.return?.();
    },
  });
  return new Response(body, { status: 200, headers: o.headers });
}
