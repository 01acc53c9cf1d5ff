import type { Model } from '../model.js';
import type { Operation, ParamDef } from '../operation.js';
import { containerSchema, modelSchema, paramSchema, parentsOf, schemaRef, typeSchema, type OpenApiObject } from './openapi-schemas.js';
import { eventDocModels } from './event-doc-models.js';
import { ARI_RESOURCES, type AriResource } from './resources.js';
import { ARI_API_VERSION } from './swagger.js';

/**
 * OpenAPI 3.0 documents of ARI and of /sim, made from the same declarations as
 * the Swagger 1.1 files in swagger.ts, for viewers and code generators that read
 * only current formats. 3.0.3 rather than 3.1: Swagger UI renders and "tries out"
 * 3.0 completely, while its 3.1 support still leaves out parts (request examples,
 * some schema keywords), and every OpenAPI tool reads 3.0.
 */
export const OPENAPI_VERSION = '3.0.3';

/** The error body both APIs answer with. */
const ERROR_SCHEMA = 'ErrorMessage';
const JSON_TYPE = 'application/json';

/** What one document covers. */
export interface OpenApiSpec {
  title: string;
  description: string;
  version: string;
  /** Where the operations' paths start (`/ari`, `/sim`). */
  serverUrl: string;
  resources: readonly AriResource[];
  /** Models beyond the resources' own (the event socket's, for ARI). */
  extraModels?: readonly Model[];
  /** Tag of each operation (default: its resource) and the description of each tag. */
  tagOf?: (op: Operation) => string;
  tags: Record<string, string>;
  /** Whether read-only users are refused every operation (the simulation), or only those that change something (ARI). */
  writeUsersOnly: boolean;
}

function parameter(name: string, p: ParamDef): OpenApiObject {
  return {
    name,
    in: p.in,
    description: p.description,
    required: p.required,
    schema: paramSchema(p),
    // ARI reads a list as one comma-separated value.
    ...(p.allowMultiple ? { style: 'form', explode: false } : {}),
  };
}

/** The request body made of an operation's body parameters (ARI also reads any query parameter from a JSON body key). */
function requestBody(op: Operation): OpenApiObject | undefined {
  const bodies = Object.entries(op.params).filter(([, p]) => p.in === 'body');
  if (!bodies.length) return undefined;
  const raw = bodies.find(([, p]) => p.dataType === 'binary');
  if (raw) return { description: raw[1].description, required: raw[1].required, content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } };
  const whole = bodies.find(([, p]) => p.dataType === 'object');
  if (whole) return { description: whole[1].description, required: false, content: { [JSON_TYPE]: { schema: { type: 'object', additionalProperties: true } } } };
  const properties = Object.fromEntries(bodies.map(([name, p]) => [name, containerSchema(p)]));
  return { required: false, content: { [JSON_TYPE]: { schema: { type: 'object', properties } } } };
}

function successResponse(op: Operation): OpenApiObject {
  if (op.upgrade) {
    return {
      '101': {
        description: `Switching Protocols: the connection becomes a WebSocket (subprotocol \`${op.upgrade.protocol}\`). Each text frame is one JSON ${op.responseClass}; a plain GET without the upgrade is refused.`,
        content: { [JSON_TYPE]: { schema: typeSchema(op.responseClass) } },
      },
    };
  }
  const type = op.responseClass;
  if (type === 'void') return { [op.success]: { description: 'Done; no body.' } };
  if (type === 'binary') return { [op.success]: { description: 'The file.', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } } };
  const list = /^List\[(.+)\]$/.exec(type);
  return { [op.success]: { description: list ? `A list of ${list[1]}.` : `A ${type}.`, content: { [JSON_TYPE]: { schema: typeSchema(type) } } } };
}

function operationObject(op: Operation, spec: OpenApiSpec): OpenApiObject {
  const tag = spec.tagOf?.(op) ?? op.resource;
  const responses: OpenApiObject = successResponse(op);
  for (const e of op.errors) responses[e.code] = { description: e.reason, content: { [JSON_TYPE]: { schema: schemaRef(ERROR_SCHEMA) } } };
  responses['401'] ??= { $ref: '#/components/responses/Unauthorized' };
  if (spec.writeUsersOnly || op.method !== 'GET') responses['403'] ??= { $ref: '#/components/responses/WriteAccessDenied' };
  const body = requestBody(op);
  return {
    tags: [tag],
    summary: op.summary,
    ...(op.notes ? { description: op.notes } : {}),
    operationId: `${tag}.${op.nickname}`,
    parameters: Object.entries(op.params).filter(([, p]) => p.in !== 'body').map(([name, p]) => parameter(name, p)),
    ...(body ? { requestBody: body } : {}),
    responses,
    ...(op.upgrade ? { 'x-websocket': { subprotocol: op.upgrade.protocol } } : {}),
    'x-since': op.since,
  };
}

/** One OpenAPI 3.0 document listing only the operations in `served`, with every model they and the extras use. */
export function openApiDocument(spec: OpenApiSpec, served: (op: Operation) => boolean): OpenApiObject {
  const paths: Record<string, OpenApiObject> = {};
  const models: Model[] = [...(spec.extraModels ?? [])];
  for (const r of spec.resources) {
    models.push(...r.models);
    for (const op of r.operations) {
      if (!served(op)) continue;
      const item = (paths[op.path] ??= r.paths[op.path] ? { description: r.paths[op.path] } : {});
      item[op.method.toLowerCase()] = operationObject(op, spec);
    }
  }
  const parents = parentsOf(models);
  const schemas: OpenApiObject = {
    [ERROR_SCHEMA]: { description: 'What an error answer carries.', type: 'object', required: ['message'], properties: { message: { type: 'string', description: 'What went wrong.' } } },
  };
  for (const m of models) schemas[m.id] ??= modelSchema(m, parents);
  const error = (description: string) => ({ description, content: { [JSON_TYPE]: { schema: schemaRef(ERROR_SCHEMA) } } });
  return {
    openapi: OPENAPI_VERSION,
    info: { title: spec.title, description: spec.description, version: spec.version },
    servers: [{ url: spec.serverUrl }],
    tags: Object.entries(spec.tags).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas,
      responses: {
        Unauthorized: {
          ...error('No credentials, or wrong ones: the answer carries a Basic challenge (WWW-Authenticate).'),
          headers: { 'WWW-Authenticate': { schema: { type: 'string' } } },
        },
        WriteAccessDenied: error(spec.writeUsersOnly ? 'The user is read-only; only write users may use this API.' : 'The user is read-only.'),
      },
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic', description: 'An ARI user and password (ARI_USERS).' },
        apiKey: { type: 'apiKey', in: 'query', name: 'api_key', description: 'The same credentials as `user:password`, for clients that cannot send a header.' },
      },
    },
    security: [{ basicAuth: [] }, { apiKey: [] }],
  };
}

/** The OpenAPI document of /ari: every served resource, and the event socket's models under components. */
export function ariOpenApi(served: (op: Operation) => boolean): OpenApiObject {
  const resources = ARI_RESOURCES.filter((r) => r.operations.some(served));
  return openApiDocument({
    title: 'Asterisk REST Interface (Trunkline)',
    description: [
      'Call control over Trunkline\'s simulated telephony, in the wire format of Asterisk 22\'s ARI.',
      'Any query parameter may also be sent as a key of a JSON body. Lists are comma-separated.',
      'Events arrive over the WebSocket at GET /events (an upgrade); every event type it can send is a schema below (Message, Event and its subtypes).',
      'ARI clients that read Swagger 1.1 use /ari/api-docs/resources.json instead.',
    ].join(' '),
    version: ARI_API_VERSION,
    serverUrl: '/ari',
    resources,
    extraModels: eventDocModels(),
    tags: Object.fromEntries(resources.map((r) => [r.name, r.description])),
    writeUsersOnly: false,
  }, served);
}
