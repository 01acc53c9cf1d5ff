import * as v from 'valibot';

/**
 * Gitea models are declared once here: each field carries the valibot
 * schema (response checks in test mode, request validation with Gitea's
 * 422 texts) and its Swagger 2.0 schema for /api/swagger.v1.json.
 */
export type JsonSchema = Record<string, unknown>;

export interface GField<S extends v.GenericSchema = v.GenericSchema> {
  schema: S;
  json: JsonSchema;
  /** Swagger `required` (request bodies: Gitea's binding:"Required"). */
  required: boolean;
}

export interface GModel<F extends Record<string, GField> = Record<string, GField>, S extends v.GenericSchema = v.GenericSchema> {
  name: string;
  description: string;
  fields: F;
  schema: S;
  ref: JsonSchema;
}

/** Go's RFC 3339 rendering of time.Time: seconds, and `Z` or a `±hh:mm` offset. */
export const GO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/;

const int = v.pipe(v.number(), v.integer());
const mk = <S extends v.GenericSchema>(schema: S, json: JsonSchema, description?: string): GField<S> => ({
  schema,
  json: description ? { ...json, description } : json,
  required: false,
});

/** Response field constructors: present (possibly null when `nullable`) unless wrapped in `omitempty`. */
export const t = {
  string: (d?: string) => mk(v.string(), { type: 'string' }, d),
  int64: (d?: string) => mk(int, { type: 'integer', format: 'int64' }, d),
  bool: (d?: string) => mk(v.boolean(), { type: 'boolean' }, d),
  datetime: (d?: string) => mk(v.pipe(v.string(), v.regex(GO_TIME)), { type: 'string', format: 'date-time' }, d),
  enum: <const T extends readonly string[]>(values: T, d?: string) => mk(v.picklist(values), { type: 'string', enum: values }, d),
  strings: (d?: string) => mk(v.array(v.string()), { type: 'array', items: { type: 'string' } }, d),
  array: <S extends v.GenericSchema>(item: GModel<any, S>, d?: string) => mk(v.array(item.schema), { type: 'array', items: item.ref }, d),
  /** A list whose entries may be null (FilesResponse: a deleted file's slot). */
  arrayOfNullable: <S extends v.GenericSchema>(item: GModel<any, S>, d?: string) => mk(v.array(v.nullable(item.schema)), { type: 'array', items: item.ref }, d),
  ref: <S extends v.GenericSchema>(model: GModel<any, S>, d?: string) => mk(model.schema, model.ref, d),
  /** A ref that may be null (Go pointer). */
  refOrNull: <S extends v.GenericSchema>(model: GModel<any, S>, d?: string) => mk(v.nullable(model.schema), model.ref, d),
  /** An object without a declared schema (Go map / interface). */
  object: (d?: string) => mk(v.record(v.string(), v.unknown()), { type: 'object' }, d),
  /** A Go `any` we always leave nil. */
  alwaysNull: (d?: string) => mk(v.null(), { type: 'object', 'x-nullable': true }, d),
};

/** A field that may be JSON null (Go pointer or nil slice). */
export function nullable<S extends v.GenericSchema>(fld: GField<S>): GField<v.NullableSchema<S, undefined>> {
  return { ...fld, schema: v.nullable(fld.schema), json: { ...fld.json, 'x-nullable': true } };
}

/** A field left out when empty (Go `omitempty`). */
export function omitempty<S extends v.GenericSchema>(fld: GField<S>): GField<v.OptionalSchema<S, undefined>> {
  return { ...fld, schema: v.optional(fld.schema) };
}

type Entries<F extends Record<string, GField>> = { [K in keyof F]: F[K]['schema'] };

/** A response model: strict, so what we send cannot drift from what we document. */
export function responseModel<const F extends Record<string, GField>>(name: string, description: string, fields: F): GModel<F, v.StrictObjectSchema<Entries<F>, undefined>> {
  const entries = Object.fromEntries(Object.entries(fields).map(([k, fl]) => [k, fl.schema])) as Entries<F>;
  return { name, description, fields, schema: v.strictObject(entries), ref: { $ref: `#/definitions/${name}` } };
}

