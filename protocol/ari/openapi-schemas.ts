import { ARI_TIMESTAMP, type FieldDoc, type Model } from '../model.js';
import type { ParamDef } from '../operation.js';

/** A JSON value in an OpenAPI document. */
export type OpenApiObject = Record<string, unknown>;

/** Where a model's schema is referred to from inside the document. */
export const schemaRef = (id: string): OpenApiObject => ({ $ref: `#/components/schemas/${id}` });

/** The shape of a timestamp on the wire, shown as its example (the format is not RFC 3339: `+0000`, not `Z`). */
const TIMESTAMP_EXAMPLE = '2026-01-01T12:00:00.000+0000';

/**
 * The schema of a Swagger 1.1 type name as the declarations use it: a primitive
 * (`string`, `int`, `long`, `double`, `boolean`, `Date`, `object`), `List[T]`,
 * or the id of a model, which becomes a reference to its component schema.
 */
export function typeSchema(type: string): OpenApiObject {
  const list = /^List\[(.+)\]$/.exec(type);
  if (list) return { type: 'array', items: typeSchema(list[1]!) };
  switch (type) {
    case 'string': return { type: 'string' };
    case 'int': return { type: 'integer', format: 'int32' };
    case 'long': return { type: 'integer', format: 'int64' };
    case 'double': return { type: 'number', format: 'double' };
    case 'boolean': return { type: 'boolean' };
    case 'Date': return { type: 'string', pattern: ARI_TIMESTAMP.source, example: TIMESTAMP_EXAMPLE };
    case 'object': return { type: 'object', additionalProperties: true };
    default: return schemaRef(type);
  }
}

/** A model field's schema; a reference with a description is wrapped, since OpenAPI 3.0 ignores a `$ref`'s siblings. */
function fieldSchema(doc: FieldDoc): OpenApiObject {
  const schema = typeSchema(doc.type);
  if (doc.allowableValues) schema.enum = [...doc.allowableValues.values];
  if (!doc.description) return schema;
  return '$ref' in schema ? { allOf: [schema], description: doc.description } : { ...schema, description: doc.description };
}

/**
 * A model as a component schema. A model another model names among its
 * `subTypes` (Message → Event → StasisStart, …) extends that parent with
 * `allOf`, so each event schema reads as the whole frame a socket receives.
 */
export function modelSchema(model: Model, parentOf: ReadonlyMap<string, string>): OpenApiObject {
  const properties: OpenApiObject = {};
  const required: string[] = [];
  for (const [name, fl] of Object.entries(model.fields)) {
    properties[name] = fieldSchema(fl.doc);
    if (fl.doc.required) required.push(name);
  }
  const own: OpenApiObject = { type: 'object', ...(required.length ? { required } : {}), properties };
  if (model.extra?.discriminator) own.discriminator = { propertyName: model.extra.discriminator };
  const parent = parentOf.get(model.id);
  return parent ? { description: model.description, allOf: [schemaRef(parent), own] } : { description: model.description, ...own };
}

/** Which model each model extends, from the `subTypes` the declarations list. */
export function parentsOf(models: readonly Model[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of models) for (const sub of m.extra?.subTypes ?? []) out.set(sub, m.id);
  return out;
}

/** The schema of a path or query parameter: its type, values, range and default; a list when it takes several. */
export function paramSchema(p: ParamDef): OpenApiObject {
  const one: OpenApiObject = typeSchema(p.dataType);
  if (p.allowableValues) one.enum = [...p.allowableValues];
  if (p.min !== undefined) one.minimum = p.min;
  if (p.max !== undefined) one.maximum = p.max;
  if (!p.allowMultiple) return p.defaultValue !== undefined ? { ...one, default: p.defaultValue } : one;
  // A default of a list parameter is written the way ARI reads it: one comma-separated string.
  return { type: 'array', items: one, ...(p.defaultValue !== undefined ? { default: String(p.defaultValue).split(',') } : {}) };
}

/** A channel variable in a `variables` container: its value, or the value with whether setting it reports an event. */
const VARIABLE_VALUE: OpenApiObject = {
  oneOf: [
    { type: 'string' },
    { type: 'object', required: ['value'], properties: { value: { type: 'string' }, report_events: { type: 'boolean', default: false } } },
  ],
};

/**
 * The schema of one body parameter inside the JSON body: a `variables` container
 * (names to values), or a container whose JSON is handed over as it is.
 */
export function containerSchema(p: ParamDef): OpenApiObject {
  if (p.jsonContainer) return { description: p.description };
  return { type: 'object', description: p.description, additionalProperties: VARIABLE_VALUE };
}
