import type { GOperation } from './operation.js';
import { GLOBAL_ERRORS } from './operation.js';
import { requestDefinition, type RModel } from './request.js';
import type { GModel, JsonSchema } from './schema.js';

/** The Gitea API version whose wire format we follow. */
export const GITEA_API_VERSION = '1.27.1';

function modelDefinition(m: GModel): JsonSchema {
  if ('rfields' in m) return requestDefinition(m as RModel);
  return {
    description: m.description,
    type: 'object',
    properties: Object.fromEntries(Object.entries(m.fields).map(([k, f]) => [k, f.json])),
    'x-go-package': 'code.gitea.io/gitea/modules/structs',
  };
}

function parameters(op: GOperation): JsonSchema[] {
  const out: JsonSchema[] = Object.entries(op.params).map(([name, p]) => ({
    type: p.type,
    description: p.description,
    name,
    in: p.in,
    ...(p.required ? { required: true } : {}),
  }));
  if (op.body) out.push({ name: 'body', in: 'body', ...(op.bodyRequired ? { required: true } : {}), schema: op.body.ref });
  if (op.upload) out.push({ type: 'file', description: op.upload.description, name: op.upload.field, in: 'formData' });
  return out;
}

function operationObject(op: GOperation): JsonSchema {
  const responses: Record<string, JsonSchema> = {
    [String(op.success)]: { description: 'success', ...(op.response ? { schema: op.response.json } : {}) },
  };
  for (const code of op.alsoSuccess ?? []) responses[String(code)] = { description: 'success' };
  for (const e of [...op.errors, ...GLOBAL_ERRORS]) responses[String(e.code)] ??= { description: e.reason, schema: { $ref: '#/definitions/APIError' } };
  return {
    ...(op.body ? { consumes: ['application/json'] } : op.upload ? { consumes: ['multipart/form-data', 'application/octet-stream'] } : {}),
    produces: op.produces ?? ['application/json'],
    tags: op.tags,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    operationId: op.operationId,
    parameters: parameters(op),
    responses,
  };
}

/**
 * The Swagger 2.0 document of /api/v1, as Gitea serves at
 * /api/swagger.v1.json, built from the declarations (only what we mount).
 */
export function giteaSwagger(ops: readonly GOperation[], models: readonly GModel[], basePath: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of ops) (paths[op.path] ??= {})[op.method.toLowerCase()] = operationObject(op);
  const definitions: Record<string, JsonSchema> = {
    APIError: {
      description: 'An error answer: what went wrong, and where the API is documented.',
      type: 'object',
      properties: { message: { type: 'string' }, url: { type: 'string' } },
    },
  };
  for (const m of [...models].sort((a, b) => a.name.localeCompare(b.name))) definitions[m.name] = modelDefinition(m);
  return {
    consumes: ['application/json', 'text/plain'],
    produces: ['application/json', 'text/html'],
    schemes: ['http', 'https'],
    swagger: '2.0',
    info: {
      description: 'This documentation describes the Gitea-compatible API of Trunkline.',
      title: 'Gitea API',
      license: { name: 'MIT', url: 'http://opensource.org/licenses/MIT' },
      version: GITEA_API_VERSION,
    },
    basePath,
    paths,
    definitions,
    securityDefinitions: {
      AccessToken: { type: 'apiKey', name: 'access_token', in: 'query' },
      AuthorizationHeaderToken: { description: '`token <the token>` (or `Bearer <the token>`).', type: 'apiKey', name: 'Authorization', in: 'header' },
      BasicAuth: { type: 'basic' },
      Token: { type: 'apiKey', name: 'token', in: 'query' },
    },
    security: [{ BasicAuth: [] }, { Token: [] }, { AccessToken: [] }, { AuthorizationHeaderToken: [] }],
  };
}
