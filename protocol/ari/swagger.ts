import { swaggerModel, type Model } from '../model.js';
import type { Operation, ParamDef } from '../operation.js';
import { eventDocModels } from './event-doc-models.js';
import type { AriResource } from './resources.js';

const HEADER = {
  _copyright: 'Copyright (C) 2026 Trunkline contributors. Generated from protocol/.',
  _author: 'Trunkline',
  _svn_revision: '$Revision$',
};
/** ARI's major version on current Asterisk; clients key their bindings on it. */
export const ARI_API_VERSION = '12.0.0';
/** The apiVersion of each API declaration (and of the simulation API's document). */
export const DECLARATION_VERSION = '2.0.0';

function swaggerParam(name: string, p: ParamDef): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name,
    description: p.description,
    paramType: p.in,
    required: p.required,
    allowMultiple: p.allowMultiple,
    dataType: p.dataType,
  };
  if (p.defaultValue !== undefined) out.defaultValue = p.defaultValue;
  if (p.allowableValues) out.allowableValues = { valueType: 'LIST', values: p.allowableValues };
  else if (p.min !== undefined || p.max !== undefined) {
    out.allowableValues = { valueType: 'RANGE', ...(p.min !== undefined ? { min: p.min } : {}), ...(p.max !== undefined ? { max: p.max } : {}) };
  }
  return out;
}

function swaggerOperation(op: Operation): Record<string, unknown> {
  return {
    httpMethod: op.method,
    since: op.since,
    summary: op.summary,
    ...(op.notes ? { notes: op.notes } : {}),
    nickname: op.nickname,
    responseClass: op.responseClass,
    ...(op.upgrade ? { upgrade: 'websocket', websocketProtocol: op.upgrade.protocol } : {}),
    parameters: Object.entries(op.params).map(([name, p]) => swaggerParam(name, p)),
    errorResponses: op.errors.map((e) => ({ code: e.code, reason: e.reason })),
  };
}

/** events.json defines the Message hierarchy and every event we can send, each listing its own properties only. */
function eventModels(): Record<string, unknown> {
  const models: Record<string, unknown> = {};
  for (const m of eventDocModels()) models[m.id] = swaggerModel(m);
  return models;
}

/** `resources.json`: the listing of every declaration file that has served operations. */
export function resourceListing(basePath: string | undefined, resources: readonly AriResource[]): Record<string, unknown> {
  return {
    ...HEADER,
    apiVersion: ARI_API_VERSION,
    swaggerVersion: '1.1',
    ...(basePath ? { basePath } : {}),
    apis: resources.map((r) => ({ path: `/api-docs/${r.name}.{format}`, description: r.description })),
  };
}

/** One API declaration (`channels.json`, …) listing only the operations in `served`. */
export function apiDeclaration(resource: AriResource, basePath: string | undefined, served: (op: Operation) => boolean): Record<string, unknown> {
  const byPath = new Map<string, Operation[]>();
  for (const op of resource.operations) {
    if (!served(op)) continue;
    const list = byPath.get(op.path) ?? [];
    list.push(op);
    byPath.set(op.path, list);
  }
  const models: Record<string, unknown> = resource.name === 'events' ? eventModels() : {};
  for (const m of resource.models as readonly Model[]) models[m.id] = swaggerModel(m);
  return {
    ...HEADER,
    apiVersion: DECLARATION_VERSION,
    // Asterisk's events.json alone declares Swagger 1.2; clients only read resources.json's version.
    swaggerVersion: resource.name === 'events' ? '1.2' : '1.1',
    ...(basePath ? { basePath } : {}),
    resourcePath: `/api-docs/${resource.name}.{format}`,
    since: ['12.0.0'],
    requiresModules: ['res_stasis'],
    apis: [...byPath].map(([path, ops]) => ({
      path,
      description: resource.paths[path] ?? '',
      operations: ops.map(swaggerOperation),
    })),
    models,
  };
}
