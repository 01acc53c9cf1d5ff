import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { ReadCache } from '../../server/db/read-cache.js';
import { basicAuth, request, type Reply } from './request.js';
import type { TestServer } from './server.js';
import { useTestServer } from './use-test-server.js';
import { pollUntil, WAIT_MS } from './wait.js';

/** The admin every Gitea test server starts with (ADMIN_USERNAME / ADMIN_PASSWORD). */
export const ADMIN = { name: 'root', password: 'root-password-1' };

/** A Gitea answer: the shared client's reply (request.ts). */
export type GReply<T = any> = Reply<T>;

/** How a request authenticates: a token (header), Basic `user:password`, or nothing. */
export type Auth = { token: string } | { basic: string } | { query: string } | null;

/** What a Gitea world request carries, and as whom it is sent. */
export interface GOptions {
  json?: unknown;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Default: the admin's token. */
  auth?: Auth;
}

/** A user of the test server with its password and an `all`-scoped token. */
export interface Account {
  name: string;
  password: string;
  /** A token with every scope (`all`). */
  token: string;
  auth: Auth;
}

/** A Gitea test server with its admin and the helpers that make users, tokens, repositories and commits. */
export interface GiteaWorld {
  t: TestServer;
  url: string;
  admin: Account;
  /** A request to the server (path starts with `/`, e.g. `/api/v1/user`). */
  api<T = any>(method: string, path: string, opts?: GOptions): Promise<GReply<T>>;
  /** Creates a user (through the admin API) with an `all`-scoped token. */
  user(name: string, opts?: { admin?: boolean }): Promise<Account>;
  /** A token for an account with the given scopes. */
  token(account: Pick<Account, 'name' | 'password'>, scopes: string[], name?: string): Promise<string>;
  /** Creates a repository owned by `owner` (default admin); returns its JSON. */
  repo(name: string, opts?: { owner?: Account; private?: boolean; autoInit?: boolean; defaultBranch?: string }): Promise<any>;
  /** Writes files in one commit through the contents API; returns the FilesResponse. */
  commit(owner: string, repo: string, files: Record<string, string | Buffer | null>, opts?: { branch?: string; newBranch?: string; auth?: Auth; message?: string }): Promise<any>;
}

/** The Authorization header of `auth` (none for a query token or no credentials). */
export const authHeader = (auth: Auth): Record<string, string> =>
  !auth ? {} : 'token' in auth ? { authorization: `token ${auth.token}` } : 'basic' in auth ? { authorization: basicAuth(auth.basic) } : {};

let userCount = 0;

/** Builds the helpers around a running server whose admin is ADMIN. */
export async function giteaWorld(t: TestServer): Promise<GiteaWorld> {
  const url = t.url;
  async function api<T = any>(method: string, path: string, opts: GOptions = {}): Promise<GReply<T>> {
    const auth = opts.auth === undefined ? world.admin.auth : opts.auth;
    let target = path;
    if (auth && 'query' in auth) target += `${path.includes('?') ? '&' : '?'}token=${auth.query}`;
    return request<T>(url, method, target, { json: opts.json, body: opts.body, headers: { ...authHeader(auth), ...opts.headers } });
  }

  async function token(account: Pick<Account, 'name' | 'password'>, scopes: string[], name = `t${++userCount}`): Promise<string> {
    const r = await api('POST', `/api/v1/users/${account.name}/tokens`, { json: { name, scopes }, auth: { basic: `${account.name}:${account.password}` } });
    if (r.status !== 201) throw new Error(`token for ${account.name}: ${r.status} ${r.text}`);
    return r.body.sha1;
  }

  const world: GiteaWorld = {
    t,
    url,
    admin: { name: ADMIN.name, password: ADMIN.password, token: '', auth: { basic: `${ADMIN.name}:${ADMIN.password}` } },
    api,
    token,
    async user(name, opts = {}) {
      const password = `${name}-password-1`;
      const r = await api('POST', '/api/v1/admin/users', { json: { username: name, email: `${name}@example.com`, password, admin: opts.admin ?? false } });
      if (r.status !== 201) throw new Error(`create user ${name}: ${r.status} ${r.text}`);
      const tok = await token({ name, password }, ['all']);
      return { name, password, token: tok, auth: { token: tok } };
    },
    async repo(name, opts = {}) {
      const r = await api('POST', '/api/v1/user/repos', {
        json: { name, private: opts.private ?? false, auto_init: opts.autoInit ?? true, ...(opts.defaultBranch ? { default_branch: opts.defaultBranch } : {}) },
        auth: (opts.owner ?? world.admin).auth,
      });
      if (r.status !== 201) throw new Error(`create repo ${name}: ${r.status} ${r.text}`);
      return r.body;
    },
    async commit(owner, repo, files, opts = {}) {
      const ops = await Promise.all(
        Object.entries(files).map(async ([path, content]) => {
          if (content === null) return { operation: 'delete', path };
          const existing = await api('GET', `/api/v1/repos/${owner}/${repo}/contents/${path}${opts.branch ? `?ref=${opts.branch}` : ''}`, { auth: opts.auth ?? world.admin.auth });
          const data = Buffer.isBuffer(content) ? content : Buffer.from(content);
          return existing.status === 200 && !Array.isArray(existing.body)
            ? { operation: 'update', path, content: data.toString('base64'), sha: existing.body.sha }
            : { operation: 'create', path, content: data.toString('base64') };
        }),
      );
      const r = await api('POST', `/api/v1/repos/${owner}/${repo}/contents`, {
        json: { files: ops, ...(opts.branch ? { branch: opts.branch } : {}), ...(opts.newBranch ? { new_branch: opts.newBranch } : {}), ...(opts.message ? { message: opts.message } : {}) },
        auth: opts.auth ?? world.admin.auth,
      });
      if (r.status !== 201) throw new Error(`commit to ${owner}/${repo}: ${r.status} ${r.text}`);
      return r.body;
    },
  };
  world.admin.token = await token(ADMIN, ['all'], 'admin-all');
  world.admin.auth = { token: world.admin.token };
  return world;
}

/**
 * Registers a Gitea suite's hooks (the shared lifecycle, use-test-server.ts): a fresh server whose
 * admin is ADMIN, the helpers in `ctx.g`, contract violations reported after each test.
 */
export function useGitea(test: Test, env: Record<string, string> = {}): { t: TestServer; g: GiteaWorld } {
  return useTestServer(test, { ADMIN_USERNAME: ADMIN.name, ADMIN_PASSWORD: ADMIN.password, ...env }, { open: async (t) => ({ g: await giteaWorld(t) }) });
}

/** Makes `user` a collaborator of `owner`'s repository with `permission` (as the owner), asserting Gitea's 204. */
export async function addCollaborator(g: GiteaWorld, owner: Account, repo: string, user: Account, permission: 'read' | 'write' | 'admin'): Promise<void> {
  const r = await g.api('PUT', `/api/v1/repos/${owner.name}/${repo}/collaborators/${user.name}`, { json: { permission }, auth: owner.auth });
  assert.is(r.status, 204, r.text);
}

/** Runs the git CLI (isolated by the test runner's environment) and returns its result; throws on failure unless `allowFail`. */
export function git(args: string[], opts: { cwd?: string; env?: Record<string, string>; input?: string | Buffer; allowFail?: boolean } = {}): SpawnSyncReturns<string> {
  const r = spawnSync('git', args, { cwd: opts.cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', ...opts.env }, input: opts.input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0 && !opts.allowFail) throw new Error(`git ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r;
}


/** A clone URL with credentials for the test server. */
export function cloneUrl(g: GiteaWorld, owner: string, repo: string, account?: Pick<Account, 'name' | 'password'> | { name: string; token: string }): string {
  const u = new URL(`${g.url}/${owner}/${repo}.git`);
  if (account) {
    u.username = account.name;
    u.password = 'token' in account ? account.token : account.password;
  }
  return u.href;
}

/**
 * git against our server, without blocking: the server runs in this process, so the helpers'
 * spawnSync-based git() would deadlock on anything that talks to it (clone, fetch, push).
 */
export function gitAsync(args: string[], opts: { cwd?: string; env?: Record<string, string>; input?: string | Buffer; allowFail?: boolean } = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd: opts.cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', ...opts.env }, stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (opts.input !== undefined) child.stdin!.end(opts.input);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => {
      if (status !== 0 && !opts.allowFail) reject(new Error(`git ${args.join(' ')} failed (${status}): ${stderr}`));
      else resolve({ status, stdout, stderr });
    });
  });
}

/** Writes files (null deletes) in a working copy and commits them. */
export function commitFiles(dir: string, files: Record<string, string | Buffer | null>, message = 'change'): string {
  for (const [p, content] of Object.entries(files)) {
    const full = join(dir, p);
    if (content === null) rmSync(full, { force: true });
    else {
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, content);
    }
  }
  git(['add', '-A'], { cwd: dir });
  git(['commit', '-q', '-m', message], { cwd: dir });
  return git(['rev-parse', 'HEAD'], { cwd: dir }).stdout.trim();
}

/** Where the server keeps a repository (DATA_DIR/git/<id>.git). */
export const gitDirOf = (g: GiteaWorld, repoId: number): string => join(g.t.dataDir, 'git', `${repoId}.git`);

/**
 * A direct SQL write to the server's database, for states the API cannot make
 * (a mirror repository, odd stored values); the server's read cache is emptied
 * as its own writes do.
 */
export function sqlWrite(g: GiteaWorld, sql: string, ...params: unknown[]): void {
  const db = g.t.server.db;
  ReadCache.of(db).write(() => db.prepare(sql).run(...params));
}

/** git processes this test process (the in-process server) has started and not yet reaped, whose command line includes `match`. */
export function gitChildren(match: string): string[] {
  const out: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      if (cmd.includes(match)) out.push(cmd);
    } catch {}
  }
  return out;
}

/** Waits (up to WAIT_MS) until no such child is left, then asserts it. */
export async function waitNoChildren(match: string): Promise<void> {
  await pollUntil(() => !gitChildren(match).length, WAIT_MS, 50);
  assert.equal(gitChildren(match), [], `no "${match}" process left`);
}
