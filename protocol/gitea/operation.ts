import * as v from 'valibot';
import type { GModel, JsonSchema } from './schema.js';

/** A path or query parameter of a Gitea operation. */
export interface GParam<T = unknown> {
  in: 'path' | 'query';
  type: 'string' | 'integer' | 'boolean';
  description: string;
  required: boolean;
  /** A path parameter that spans several segments (`{filepath}`). */
  wildcard?: boolean;
  readonly __type?: T;
}

export const gp = {
  path: (description: string, o: { wildcard?: boolean } = {}): GParam<string> => ({ in: 'path', type: 'string', description, required: true, ...(o.wildcard ? { wildcard: true } : {}) }),
  query: (description: string): GParam<string | undefined> => ({ in: 'query', type: 'string', description, required: false }),
  int: (description: string): GParam<number | undefined> => ({ in: 'query', type: 'integer', description, required: false }),
  bool: (description: string): GParam<boolean | undefined> => ({ in: 'query', type: 'boolean', description, required: false }),
};

/** The repository path parameters every `/repos/{owner}/{repo}` operation has. */
export const repoParams = {
  owner: gp.path('Name of the user who owns the repository.'),
  repo: gp.path('Repository name, without its owner.'),
};

/** Gitea's token scope categories, in its canonical order (a token holds `read:` or `write:` of each). */
export const SCOPE_CATEGORIES = ['activitypub', 'admin', 'misc', 'notification', 'organization', 'package', 'issue', 'repository', 'user'] as const;

/** A token scope category an operation requires, at the level its method needs: GET/HEAD read, the rest write. */
export type ScopeCategory = (typeof SCOPE_CATEGORIES)[number];

/**
 * Guards run in Gitea's order, before the body is bound: repo lookup (404,
 * private repos invisible), reader, admin of the repo, writer of code,
 * writable (not archived, not a mirror: 403), signed in (401). The last three
 * (`mirrorsEnabled`, `pullMirror`, `notArchived`) are what Gitea checks once
 * the body is bound, so they run after it, in their declared order.
 */
export type Guard =
  | 'repo'
  | 'reader'
  | 'repoAdmin'
  | 'writer'
  | 'writable'
  | 'signedIn'
  | 'siteAdmin'
  /** `{username}` names an existing user (404). */
  | 'contextUser'
  /** The caller is that user or a site admin (403). */
  | 'selfOrAdmin'
  /** Basic credentials with the account password (token endpoints): other credentials 401 "auth required", a token as the Basic password 401 "auth method not allowed". */
  | 'basicAuth'
  /** MIRROR_ENABLED is on (400 "Mirror feature is disabled"). */
  | 'mirrorsEnabled'
  /** The repository is a pull mirror (400 "Repository is not a mirror"). */
  | 'pullMirror'
  /** The repository is not archived (423 "repo is archived", Gitea's mustNotBeArchived). */
  | 'notArchived'
  /** `{org}` names an organisation the caller may see (404). */
  | 'org'
  /** The caller owns the organisation (or is a site admin): 403, or 404 when reached through a team. */
  | 'orgOwner'
  /** The caller is a member of the organisation (or a site admin): 403. */
  | 'orgMember'
  /** `{id}` names a team (404). */
  | 'team'
  /** The caller is in the team, owns its organisation, or is a site admin: 403 for other members, 404 for outsiders. */
  | 'teamMember';

/**
 * What an operation answers on success, declared once: the valibot schema the test-mode
 * check holds answers to (null: not JSON) and the Swagger schema the served document shows.
 */
export interface GReply<S extends v.GenericSchema | null = v.GenericSchema | null> {
  schema: S;
  json: JsonSchema;
}

/** Success bodies built from a model, so that the check and the document cannot disagree. */
export const reply = {
  /** One model. */
  one: <S extends v.GenericSchema>(m: GModel<any, S>): GReply<S> => ({ schema: m.schema, json: m.ref }),
  /** A JSON array of a model. */
  list: <S extends v.GenericSchema>(m: GModel<any, S>): GReply<v.ArraySchema<S, undefined>> => ({
    schema: v.array(m.schema),
    json: { type: 'array', items: m.ref },
  }),
  /**
   * One model or an array of it, by what the path names (contents: a file, or a directory's
   * entries). Gitea's document names the single model only, and so does ours.
   */
  oneOrList: <S extends v.GenericSchema>(m: GModel<any, S>): GReply<v.UnionSchema<[S, v.ArraySchema<S, undefined>], undefined>> => ({
    schema: v.union([m.schema, v.array(m.schema)]),
    json: m.ref,
  }),
  /** A JSON array of a model whose entries may be null (a batch read's missing files). */
  listOfNullable: <S extends v.GenericSchema>(m: GModel<any, S>): GReply<v.ArraySchema<v.NullableSchema<S, undefined>, undefined>> => ({
    schema: v.array(v.nullable(m.schema)),
    json: { type: 'array', items: m.ref },
  }),
  /** A JSON object of counts by name (Go's map[string]int64). */
  counts: {
    schema: v.record(v.string(), v.pipe(v.number(), v.integer())),
    json: { type: 'object', additionalProperties: { type: 'integer', format: 'int64' } },
  } as GReply<v.RecordSchema<v.StringSchema<undefined>, v.SchemaWithPipe<readonly [v.NumberSchema<undefined>, v.IntegerAction<number, undefined>]>, undefined>>,
  /** Bytes of a file (raw, media, archives): no JSON to check. */
  file: { schema: null, json: { type: 'file' } } as GReply<null>,
};

export interface GError {
  code: number;
  reason: string;
}

export interface GOperation<
  P extends Record<string, GParam<any>> = Record<string, GParam<any>>,
  B extends GModel | null = GModel | null,
  R extends GReply | null = GReply | null,
> {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Relative to /api/v1, Swagger style. */
  path: string;
  tags: readonly string[];
  summary: string;
  description?: string;
  params: P;
  /** Request body model (JSON): validated into typed args with Gitea's 422 texts, and documented. */
  body: B;
  bodyRequired?: boolean;
  /**
   * A file the handler streams itself (no JSON body): documented as a `formData` file field,
   * sent as `multipart/form-data` under that field or as the raw request body.
   */
  upload?: { field: string; description: string };
  /** Success status. */
  success: number;
  /** Other success statuses the operation can answer (e.g. update-as-create 201). */
  alsoSuccess?: readonly number[];
  /** The success body (null: none). */
  response: R;
  produces?: readonly string[];
  /** Token scope categories required (each at the method's level); empty: none. */
  scopes: readonly ScopeCategory[];
  guards: readonly Guard[];
  errors: readonly GError[];
}

export type GArgs<O extends GOperation> = { [K in keyof O['params']]: O['params'][K] extends GParam<infer T> ? T : never } & (O['body'] extends GModel<any, infer S> ? { body: v.InferOutput<S> } : {});

export type GResult<O extends GOperation> = O['response'] extends GReply<infer S> ? (S extends v.GenericSchema ? v.InferOutput<S> : void) : void;

/** Every Gitea operation can answer these, whatever it declares: credentials (401), request limits (413), too many failed passwords (429). */
export const GLOBAL_ERRORS: readonly GError[] = [
  { code: 401, reason: 'invalid username, password or token' },
  { code: 413, reason: 'request body too large' },
  { code: 429, reason: 'too many failed password checks from this address or for this account (Retry-After says when to try again)' },
];

export function defineGiteaOperation<const P extends Record<string, GParam<any>>, B extends GModel | null, R extends GReply | null>(
  op: GOperation<P, B, R>,
): GOperation<P, B, R> {
  return { ...op, errors: [...op.errors].sort((a, b) => a.code - b.code) };
}

/** Every status an operation may answer with. */
export function giteaStatuses(op: GOperation): Set<number> {
  return new Set([op.success, ...(op.alsoSuccess ?? []), ...op.errors.map((e) => e.code), ...GLOBAL_ERRORS.map((e) => e.code)]);
}
