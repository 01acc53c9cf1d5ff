import type { Context, Hono } from 'hono';
import * as v from 'valibot';
import type { GArgs, GOperation, GParam, GResult, Guard } from '../../../protocol/gitea/operation.js';
import { giteaStatuses } from '../../../protocol/gitea/operation.js';
import type { TeamRow } from '../../db/repos/org-repo.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import { badRequest, DomainError, forbidden, notFound, unauthorized, unprocessable } from '../../errors.js';
import { readBody, jsonDepth } from '../../http/body.js';
import { giteaError, giteaErrors, GiteaRefusal } from './errors.js';
import { createContractCheck } from '../../http/contract-check.js';
import { errorResponse as dialectError } from '../../http/error-response.js';
import { honoPath, splitDottedParams } from '../../http/hono-path.js';
import { parseBoolean, type BooleanWords } from '../../http/parse-boolean.js';
import type { Logger } from '../../log.js';
import type { Authenticated } from '../services/accounts.js';
import type { OrgService } from '../services/orgs.js';
import type { RepoContext, RepoService } from '../services/repos.js';
import { takesWrites } from '../services/repo-access.js';
import { accountVisibleTo, publicOnlyRefusesUser } from '../services/visibility.js';
import type { Site } from '../site.js';
import { giteaJsonError } from './go-json-error.js';
import type { Replay } from './replay.js';

/** What a handler knows about its request besides the bound arguments. */
export interface GiteaContext {
  auth: Authenticated | null;
  doer: UserRow | null;
  /** Set by the `repo` guard. */
  repo: RepoContext | undefined;
  req: Request;
  url: URL;
  /** True when the caller sent Basic credentials (the password, or a token in its place: `auth.token` tells). */
  basic: boolean;
  /** Set by the `contextUser` guard: the user named by `{username}`. */
  contextUser: UserRow | undefined;
  /** The peer's address ('' when unknown), IPv4-mapped IPv6 written as IPv4. */
  remoteAddress: string;
  /** Set by the `org` guard (and by `team`, to the team's organisation). */
  org: UserRow | undefined;
  /** Set by the `team` guard. */
  team: TeamRow | undefined;
  /**
   * Marks the answer as built only from the request, the caller, the account
   * tables, the repository's refs and git objects: it may then be sent again
   * from memory until one of those changes (replay.ts).
   */
  replayable(): void;
}

/** The GiteaContext of one request; a class, so every request's context has one shape (and the URL is parsed only when asked for). */
class RequestContext implements GiteaContext {
  doer: UserRow | null;
  repo: RepoContext | undefined = undefined;
  contextUser: UserRow | undefined = undefined;
  org: UserRow | undefined = undefined;
  team: TeamRow | undefined = undefined;
  replay = false;
  #url: URL | undefined;

  constructor(
    readonly auth: Authenticated | null,
    readonly req: Request,
    private readonly href: string,
    readonly basic: boolean,
    readonly remoteAddress: string,
  ) {
    this.doer = auth?.user ?? null;
  }

  get url(): URL {
    return (this.#url ??= new URL(this.href));
  }

  replayable(): void {
    this.replay = true;
  }
}

/** A JSON answer with another status or extra headers than the operation's default. */
export class Reply<T = unknown> {
  constructor(
    readonly status: number,
    readonly body: T,
    readonly headers: Record<string, string> = {},
  ) {}
}

type HandlerResult<O extends GOperation> = GResult<O> | Reply<GResult<O>> | Response;
/** A thin handler: bound arguments and context in, a result, a Reply or a Response out. */
export type GiteaHandler<O extends GOperation> = (args: GArgs<O>, ctx: GiteaContext) => HandlerResult<O> | Promise<HandlerResult<O>>;

/** What the binder needs: lookups for its guards, limits, and test-mode checking. */
export interface GiteaBinderOptions {
  site: Site;
  repos: RepoService;
  users: { byName(name: string): UserRow | undefined };
  orgs: Pick<OrgService, 'lookup' | 'isOwner' | 'isMember' | 'team' | 'checkTeamMember' | 'visibleTo'>;
  maxBodyBytes: number;
  maxJsonDepth: number;
  checkResponses: boolean;
  violations: string[];
  log: Logger;
  /** Production hides internal error texts from non-admins. */
  production: boolean;
  /** MIRROR_ENABLED (the `mirrorsEnabled` guard). */
  mirrorEnabled: boolean;
  /** Where answers a handler marks replayable are offered (none: nothing is replayed). */
  replay?: Replay;
}

/** Guards Gitea checks once the body is bound (in its handlers or after `bind`): they run after it. */
const AFTER_BODY: ReadonlySet<Guard> = new Set<Guard>(['mirrorsEnabled', 'pullMirror', 'notArchived']);

/**
 * Frozen bodies are cached answers (e.g. a big directory listing): their JSON is made
 * and encoded once, and the bytes are what each answer sends (a string would be
 * measured and encoded again for every request).
 */
const serialized = new WeakMap<object, Uint8Array>();
function serialize(body: unknown): string | Uint8Array {
  if (body === null || typeof body !== 'object' || !Object.isFrozen(body)) return JSON.stringify(body);
  let bytes = serialized.get(body);
  if (bytes === undefined) serialized.set(body, (bytes = Buffer.from(JSON.stringify(body))));
  return bytes;
}
const READ = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Gitea's query booleans: these words are true, anything else false. */
const GITEA_BOOLEAN: BooleanWords = { yes: new Set(['true', '1', 'on']), no: new Set() };

/**
 * Mounts Gitea operations with one uniform glue, in Gitea's order: token
 * scopes (403), the route's guards in their declared order (repo lookup 404,
 * permissions 403, sign-in 401), the JSON body (422 with Gitea's binding
 * texts), then the thin handler; errors become `{message, url}`.
 */
export function createGiteaBinder(app: Hono<any>, opts: GiteaBinderOptions) {
  const mounted = new Set<GOperation>();
  const replay = opts.replay;

  const dialect = giteaErrors(opts.site);
  const errorResponse = (status: number, message: string, headers: Record<string, string> = {}) => dialectError(dialect, status, message, headers);
  const contract = createContractCheck({ dialect, violations: opts.violations, log: opts.log, maxIssues: 5 });

  function check(op: GOperation, where: string, res: Response, body: unknown, json: boolean): Response {
    if (!opts.checkResponses) return res;
    const ok = res.status < 300 || res.status === 304;
    const schema = ok && json && (res.status === op.success || op.alsoSuccess?.includes(res.status)) ? (op.response?.schema ?? null) : null;
    return contract(res, body, giteaStatuses(op).has(res.status), schema, 'its schema', res.status >= 400 && json, where);
  }

  function checkScopes(op: GOperation, auth: Authenticated | null, method: string): void {
    const scopes = auth?.scopes;
    if (!scopes) return; // scopes bind tokens only; password sessions are not scoped
    const level = READ.has(method) ? 'read' : 'write';
    for (const cat of op.scopes) {
      if (!scopes.allows(cat, level)) {
        throw forbidden(`token does not have at least one of required scope(s), required=[${level}:${cat}], token scope=${scopes.text}`);
      }
    }
  }

  function runGuard(g: Guard, ctx: GiteaContext, params: Record<string, string>): void {
    switch (g) {
      case 'repo':
        ctx.repo = opts.repos.lookup(params.owner ?? '', params.repo ?? '', ctx.auth);
        return;
      case 'reader':
        if (!ctx.repo!.perm.read) throw forbidden('user should have specific read permission or be a repo admin or a site admin');
        return;
      case 'repoAdmin':
        if (!ctx.repo!.perm.admin) throw forbidden('user should be an owner or a collaborator with admin write of a repository');
        return;
      case 'writer':
        if (!ctx.repo!.perm.write) throw forbidden('user should have a permission to write to a repo');
        return;
      case 'writable':
        // Gitea answers 423 "repo is not allowed to edit" here; the spec's rule 5 makes it 403.
        if (!takesWrites(ctx.repo!.row)) throw forbidden('repo is not allowed to edit');
        return;
      case 'signedIn':
        if (!ctx.doer) throw unauthorized('token is required');
        return;
      case 'siteAdmin':
        if (!ctx.doer?.is_admin) throw forbidden('user should be the site admin');
        return;
      case 'contextUser': {
        // A user the caller may not see is answered exactly as one that does not exist (Gitea's GetInfo).
        const user = opts.users.byName(params.username ?? '');
        // An organisation is visible to its members too, whatever its visibility (Gitea's HasOrgOrUserVisible).
        const visible = !!user && (user.type === 1 ? opts.orgs.visibleTo(user, ctx.doer) : accountVisibleTo(user, ctx.doer));
        if (!visible) throw notFound(`user does not exist [uid: 0, name: ${params.username ?? ''}]`);
        // Gitea's checkTokenPublicOnly for the user scope.
        if (publicOnlyRefusesUser(ctx.auth, user)) throw forbidden('token scope is limited to public users');
        ctx.contextUser = user;
        return;
      }
      case 'selfOrAdmin':
        if (!ctx.doer?.is_admin && ctx.doer?.id !== ctx.contextUser?.id) throw forbidden('doer should be the site admin or be same as the contextUser');
        return;
      case 'basicAuth':
        // Gitea refuses anything but Basic ("auth required"); it lets a token sent as the Basic
        // password through, so a token holding write:user could mint an `all` token. Like
        // Forgejo, only the account password manages tokens.
        if (!ctx.basic) throw unauthorized('auth required');
        if (ctx.auth?.token) throw unauthorized('auth method not allowed');
        return;
      case 'mirrorsEnabled':
        if (!opts.mirrorEnabled) throw badRequest('Mirror feature is disabled');
        return;
      case 'pullMirror':
        if (!ctx.repo!.row.is_mirror) throw badRequest('Repository is not a mirror');
        return;
      case 'notArchived':
        if (ctx.repo!.row.is_archived) throw new GiteaRefusal(423, 'repo is archived');
        return;
      case 'org':
        ctx.org = opts.orgs.lookup(params.org ?? '', ctx.auth);
        return;
      case 'orgOwner':
        // Reached through a team, a non-owner learns nothing (404), as Gitea's reqOrgOwnership.
        if (!opts.orgs.isOwner(ctx.org!, ctx.doer)) throw ctx.team ? notFound('not found') : forbidden('Must be an organization owner');
        return;
      case 'orgMember':
        if (!ctx.doer?.is_admin && !opts.orgs.isMember(ctx.org!, ctx.doer)) throw forbidden('Must be an organization member');
        return;
      case 'team': {
        const found = opts.orgs.team(params.id ?? '');
        ctx.team = found.team;
        ctx.org = found.org;
        return;
      }
      case 'teamMember':
        opts.orgs.checkTeamMember(ctx.team!, ctx.org!, ctx.doer!);
        return;
    }
  }

  async function bindBody(op: GOperation, c: Context): Promise<unknown> {
    const text = await readBody(c.req.raw, opts.maxBodyBytes);
    let value: unknown = {};
    if (text.trim() !== '') {
      const ct = c.req.header('content-type') ?? '';
      if (!ct) throw unprocessable('[]: Empty Content-Type');
      if (ct.includes('json')) {
        if (jsonDepth(text) > opts.maxJsonDepth) throw unprocessable(`[]: JSON nesting exceeds ${opts.maxJsonDepth} levels`);
        try {
          value = JSON.parse(text);
        } catch (err) {
          throw unprocessable(`[]: ${giteaJsonError(text, err as Error)}`);
        }
      } else {
        // JSON only: a form (the one body a page on another site can make a browser send) is refused.
        throw unprocessable('[]: Unsupported Content-Type');
      }
    }
    const r = v.safeParse(op.body!.schema, value);
    if (!r.success) throw unprocessable(r.issues[0]!.message);
    return r.output;
  }

  function bindQuery(queryParams: readonly [string, GParam][], url: URL, args: Record<string, unknown>): void {
    for (const [name, p] of queryParams) {
      const raw = url.searchParams.get(name);
      if (raw === null) continue;
      if (p.type === 'integer') {
        // Go's ctx.FormInt: anything unparsable is 0.
        args[name] = /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : 0;
      } else if (p.type === 'boolean') args[name] = parseBoolean(raw, GITEA_BOOLEAN) === true;
      else args[name] = raw.trim();
    }
  }

  function route(op: GOperation, handler: GiteaHandler<any>) {
    const dotted = /\}\.\{/.test(op.path);
    const pathParams = Object.keys(op.params).filter((name) => op.params[name]!.in === 'path' && !(dotted && op.path.includes(`}.{${name}}`)));
    const queryParams = Object.entries(op.params).filter(([, p]) => p.in === 'query');
    const guards = op.guards.filter((g) => !AFTER_BODY.has(g));
    const afterBody = op.guards.filter((g) => AFTER_BODY.has(g));
    const where = `${op.method} ${op.path} (${op.operationId})`;
    return async (c: Context): Promise<Response> => {
      const auth = c.get('giteaAuth') as Authenticated | null;
      const peer = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress ?? '';
      const ctx = new RequestContext(auth, c.req.raw, c.req.url, c.get('giteaBasic') === true, peer.replace(/^::ffff:/, ''));
      const stamp = replay && c.req.method === 'GET' ? replay.begin() : undefined;
      let result: unknown;
      try {
        checkScopes(op, auth, c.req.method);
        const params: Record<string, string> = {};
        for (const name of pathParams) params[name] = c.req.param(name) ?? '';
        if (dotted) splitDottedParams(op.path, params);
        for (const g of guards) runGuard(g, ctx, params);
        if (stamp && ctx.repo) replay!.repository(stamp, ctx.repo.gitDir);
        const args: Record<string, unknown> = { ...params };
        if (queryParams.length && c.req.url.includes('?')) bindQuery(queryParams, ctx.url, args);
        if (op.body) args.body = await bindBody(op, c);
        for (const g of afterBody) runGuard(g, ctx, params);
        result = await handler(args as never, ctx);
      } catch (err) {
        const mapped = giteaError(err);
        if (mapped) return check(op, where, errorResponse(mapped.status, mapped.message), dialect.body(mapped.message), true);
        opts.log.error({ err, op: op.operationId }, 'unhandled error in Gitea handler');
        const message = !opts.production || ctx.doer?.is_admin ? String((err as Error)?.message ?? err) : '';
        return check(op, where, errorResponse(500, message), dialect.body(message), true);
      }
      if (result instanceof Response) return check(op, where, result, undefined, false);
      const reply = result instanceof Reply ? result : new Reply(op.success, result);
      if (reply.status === 204 || !op.response?.schema) return check(op, where, new Response(null, { status: reply.status, headers: reply.headers }), undefined, false);
      let body = serialize(reply.body);
      if (stamp && ctx.replay && reply.status === 200 && typeof body === 'string') body = Buffer.from(body);
      const res = new Response(body, { status: reply.status, headers: { 'content-type': 'application/json;charset=utf-8', ...reply.headers } });
      if (stamp && ctx.replay && reply.status === 200) replay!.offer(res, body as Uint8Array, auth, stamp);
      return check(op, where, res, reply.body, true);
    };
  }

  return {
    mounted,
    errorResponse,
    mount<O extends GOperation>(op: O, handler: GiteaHandler<O>): void {
      app.on(op.method, honoPath('/api/v1', op.path, (name) => op.params[name]?.wildcard === true), route(op, handler));
      mounted.add(op);
    },
  };
}

/** The binder's interface (mount, errorResponse, what was mounted). */
export type GiteaBinder = ReturnType<typeof createGiteaBinder>;
/** Re-exported so handlers that map errors need one import. */
export { DomainError };
