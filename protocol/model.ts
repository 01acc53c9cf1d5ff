import * as v from 'valibot';

/**
 * Model fields carry two views of one declaration: a valibot schema (used to
 * check what we send in test mode and to infer TypeScript types) and the
 * Swagger 1.1 property description the ARI docs are generated from.
 */
export interface FieldDoc {
  type: string;
  description?: string;
  required: boolean;
  allowableValues?: { valueType: 'LIST'; values: readonly string[] };
}

export interface Field<S extends v.GenericSchema = v.GenericSchema> {
  schema: S;
  doc: FieldDoc;
}

function field<S extends v.GenericSchema>(schema: S, type: string, description?: string, extra?: Partial<FieldDoc>): Field<S> {
  return { schema, doc: { type, required: true, ...(description ? { description } : {}), ...extra } };
}

/** ARI timestamps: `2024-10-26T19:04:48.295+0000`. */
export const ARI_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{4}$/;

const integer = v.pipe(v.number(), v.integer());

/** Field constructors; every field is required unless wrapped in `optional()`. */
export const f = {
  string: (description?: string) => field(v.string(), 'string', description),
  int: (description?: string) => field(integer, 'int', description),
  long: (description?: string) => field(integer, 'long', description),
  double: (description?: string) => field(v.number(), 'double', description),
  boolean: (description?: string) => field(v.boolean(), 'boolean', description),
  date: (description?: string) => field(v.pipe(v.string(), v.regex(ARI_TIMESTAMP)), 'Date', description),
  /** A free-form JSON object (Swagger 1.1 `object`). */
  object: (description?: string) => field(v.record(v.string(), v.unknown()), 'object', description),
  /** A string restricted to a list; Swagger shows the list as allowableValues. */
  enum: <const T extends readonly string[]>(values: T, description?: string) =>
    field(v.picklist(values), 'string', description, { allowableValues: { valueType: 'LIST', values } }),
  /** A string restricted to a list we send, documented as a plain string (when the anchor documents it so). */
  oneOf: <const T extends readonly string[]>(values: T, description?: string) => field(v.picklist(values), 'string', description),
  list: <S extends v.GenericSchema>(item: Field<S>, description?: string) =>
    field(v.array(item.schema), `List[${item.doc.type}]`, description),
  ref: <S extends v.GenericSchema>(model: { id: string; schema: S }, description?: string) =>
    field(model.schema, model.id, description),
};

/** Marks a field as optional: absent from the object when it has no value. */
export function optional<S extends v.GenericSchema>(fld: Field<S>): Field<v.OptionalSchema<S, undefined>> {
  return { schema: v.optional(fld.schema), doc: { ...fld.doc, required: false } };
}

export type Fields = Record<string, Field>;
type SchemaEntries<F extends Fields> = { [K in keyof F]: F[K]['schema'] };

export interface Model<F extends Fields = Fields> {
  id: string;
  description: string;
  fields: F;
  schema: v.StrictObjectSchema<SchemaEntries<F>, undefined>;
  /** Swagger 1.1 model extras (Message's discriminator and subTypes). */
  extra?: { discriminator?: string; subTypes?: string[] };
}

/** Declares a model once; its schema rejects unknown keys so our output cannot drift from the docs. */
export function defineModel<const F extends Fields>(id: string, description: string, fields: F, extra?: Model['extra']): Model<F> {
  const entries = Object.fromEntries(Object.entries(fields).map(([k, fl]) => [k, fl.schema])) as SchemaEntries<F>;
  return { id, description, fields, schema: v.strictObject(entries), ...(extra ? { extra } : {}) };
}

/** The TypeScript type of what a model describes, for any dialect's model (ARI, sim or Gitea). */
export type ModelOf<M extends { schema: v.GenericSchema }> = v.InferOutput<M['schema']>;

/** Swagger 1.1 model object (`{id, description, properties}`) for a model. */
export function swaggerModel(model: Model, ownFields: Fields = model.fields): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [name, fl] of Object.entries(ownFields)) {
    properties[name] = {
      required: fl.doc.required,
      type: fl.doc.type,
      ...(fl.doc.description ? { description: fl.doc.description } : {}),
      ...(fl.doc.allowableValues ? { allowableValues: fl.doc.allowableValues } : {}),
    };
  }
  return { id: model.id, description: model.description, ...model.extra, properties };
}
