import * as v from 'valibot';
import { GO_TIME, type GModel, type JsonSchema } from './schema.js';

/**
 * Request bodies, bound the way Gitea binds them: JSON is decoded into a Go
 * struct (a value of the wrong JSON type is a decode error naming the struct
 * field), then the binding rules run in field order; only the first failure is
 * reported, as 422 `"[GoFieldName]: Rule"`. A key that is absent or null
 * binds as undefined (Go's zero value or nil pointer); handlers apply the
 * defaults.
 */
export interface Rules {
  /** A zero value (`""`, `0`, `false`, empty list) fails. */
  required?: boolean;
  /** At most this many characters (runes) or list entries. */
  maxSize?: number;
  /** Only letters, digits, `-`, `_`, `.`. */
  alphaDashDot?: boolean;
  /** A valid git reference name (checked when non-empty). */
  gitRefName?: boolean;
  /** Gitea's user name rule. */
  username?: boolean;
  email?: boolean;
  /** One of these values (checked when non-empty). */
  in?: readonly string[];
}

type Kind =
  | { t: 'string' }
  | { t: 'bool' }
  | { t: 'int64' }
  | { t: 'datetime' }
  | { t: 'strings' }
  | { t: 'object'; model: RModel }
  | { t: 'array'; model: RModel };

export interface RField<T = unknown> {
  go: string;
  kind: Kind;
  rules: Rules;
  json: JsonSchema;
  readonly __type?: T;
}

export interface RModel<F extends Record<string, RField> = Record<string, RField>> extends GModel {
  /** The Go struct's name (decode errors name it). */
  goName: string;
  rfields: F;
}

type OutOf<F extends Record<string, RField>> = { [K in keyof F]?: F[K] extends RField<infer T> ? T : never };

const withDesc = (json: JsonSchema, d?: string): JsonSchema => (d ? { ...json, description: d } : json);
const mk = <T>(go: string, kind: Kind, json: JsonSchema, rules: Rules = {}, d?: string): RField<T> => ({ go, kind, rules, json: withDesc(json, d) });

/** Request field constructors: the Go field name first (422 messages name it). */
export const rq = {
  string: (go: string, rules?: Rules, d?: string) =>
    mk<string>(go, { t: 'string' }, { type: 'string', ...(rules?.in ? { enum: rules.in.filter(Boolean) } : {}), ...(rules?.maxSize ? { maxLength: rules.maxSize } : {}) }, rules, d),
  bool: (go: string, d?: string) => mk<boolean>(go, { t: 'bool' }, { type: 'boolean' }, {}, d),
  int64: (go: string, rules?: Rules, d?: string) => mk<number>(go, { t: 'int64' }, { type: 'integer', format: 'int64' }, rules, d),
  datetime: (go: string, d?: string) => mk<string>(go, { t: 'datetime' }, { type: 'string', format: 'date-time' }, {}, d),
  strings: (go: string, rules?: Rules, d?: string) => mk<string[]>(go, { t: 'strings' }, { type: 'array', items: { type: 'string' } }, rules, d),
  object: <M extends RModel>(go: string, model: M, d?: string) => mk<v.InferOutput<M['schema']>>(go, { t: 'object', model }, model.ref, {}, d),
  array: <M extends RModel>(go: string, model: M, rules?: Rules, d?: string) =>
    mk<v.InferOutput<M['schema']>[]>(go, { t: 'array', model }, { type: 'array', items: model.ref }, rules, d),
};

class BindError extends Error {}

const jsonTypeOf = (x: unknown) => (Array.isArray(x) ? 'array' : x === null ? 'null' : typeof x === 'boolean' ? 'bool' : typeof x);
const GO_TYPE: Record<Kind['t'], (k: Kind) => string> = {
  string: () => 'string',
  bool: () => 'bool',
  int64: () => 'int64',
  datetime: () => 'time.Time',
  strings: () => '[]string',
  object: (k) => `structs.${(k as { model: RModel }).model.goName}`,
  array: (k) => `[]*structs.${(k as { model: RModel }).model.goName}`,
};

function typeError(x: unknown, kind: Kind, path: string): never {
  throw new BindError(`[]: json: cannot unmarshal ${jsonTypeOf(x)} into Go struct field ${path} of type ${GO_TYPE[kind.t](kind)}`);
}

/** Stage one: decode (JSON types only), as encoding/json would. */
function decode(model: RModel, x: unknown, path: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const obj = x as Record<string, unknown>;
  for (const [key, fl] of Object.entries(model.rfields)) {
    const val = obj[key];
    if (val === undefined || val === null) continue;
    const here = `${path}.${key}`;
    const k = fl.kind;
    switch (k.t) {
      case 'string':
        if (typeof val !== 'string') typeError(val, k, here);
        out[key] = val;
        break;
      case 'bool':
        if (typeof val !== 'boolean') typeError(val, k, here);
        out[key] = val;
        break;
      case 'int64':
        if (typeof val !== 'number' || !Number.isSafeInteger(val)) typeError(val, k, here);
        out[key] = val;
        break;
      case 'datetime':
        if (typeof val !== 'string') typeError(val, k, here);
        if (!GO_TIME.test(val.replace(/\.\d+/, '')) || Number.isNaN(Date.parse(val)))
          throw new BindError(`[]: parsing time "\\"${val}\\"" as "\\"2006-01-02T15:04:05Z07:00\\"": cannot parse "${val}" as RFC 3339`);
        out[key] = val;
        break;
      case 'strings':
        if (!Array.isArray(val)) typeError(val, k, here);
        out[key] = val.map((s) => (typeof s === 'string' ? s : s === null ? '' : typeError(s, { t: 'string' }, here)));
        break;
      case 'object':
        if (typeof val !== 'object' || Array.isArray(val)) typeError(val, k, here);
        out[key] = decode(k.model, val, `${path}.${key}`);
        break;
      case 'array':
        if (!Array.isArray(val)) typeError(val, k, here);
        out[key] = val.map((item) => {
          if (item === null) return null;
          if (typeof item !== 'object' || Array.isArray(item)) typeError(item, { t: 'object', model: k.model }, here);
          return decode(k.model, item, `${k.model.goName}`);
        });
        break;
    }
  }
  return out;
}

const isZero = (x: unknown) => x === undefined || x === '' || x === 0 || x === false || (Array.isArray(x) && x.length === 0);
const runes = (s: string) => [...s].length;
/** Git's ref name rules (git-check-ref-format), as Gitea's GitRefName binding applies them. */
export function validRefName(s: string): boolean {
  if (!s || s.startsWith('/') || s.endsWith('/') || s.endsWith('.') || s.endsWith('.lock') || s === '@') return false;
  if (/\.\.|\/\/|@\{|[\x00-\x20\x7f~^:?*[\\]/.test(s)) return false;
  return s.split('/').every((c) => c !== '' && !c.startsWith('.') && !c.endsWith('.lock'));
}
/** Gitea's user name rule: starts alphanumeric; letters, digits, `-`, `_`, `.`; no runs of or trailing punctuation. */
export const validUsername = (s: string) => /^[\da-zA-Z][-.\w]*$/.test(s) && !/[-._]{2,}|[-._]$/.test(s);
const EMAIL = /^[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(\.[\w-]+)*$/;

/** Stage two: the binding rules, in field order, recursing into nested structs. */
function validate(model: RModel, x: Record<string, unknown>): void {
  for (const [key, fl] of Object.entries(model.rfields)) {
    const val = x[key];
    const r = fl.rules;
    const fail = (rule: string): never => {
      throw new BindError(`[${fl.go}]: ${rule}`);
    };
    if (r.required && isZero(val)) fail('Required');
    if (typeof val === 'string' && val !== '') {
      if (r.alphaDashDot && /[^\d\w\-_.]/.test(val)) fail('AlphaDashDot');
      if (r.username && !validUsername(val)) fail('Username');
      if (r.gitRefName && !validRefName(val)) fail('GitRefName');
      if (r.email && !EMAIL.test(val)) fail('Email');
      if (r.maxSize !== undefined && runes(val) > r.maxSize) fail('MaxSize');
      if (r.in && !r.in.includes(val)) fail('In');
    }
    if (Array.isArray(val) && r.maxSize !== undefined && val.length > r.maxSize) fail('MaxSize');
    if (fl.kind.t === 'object' && val) validate(fl.kind.model, val as Record<string, unknown>);
    if (fl.kind.t === 'array' && Array.isArray(val)) for (const item of val) if (item) validate(fl.kind.model, item as Record<string, unknown>);
  }
}

/** Declares a request body model; its schema binds a parsed JSON value or fails with Gitea's 422 text. */
export function requestModel<const F extends Record<string, RField>>(name: string, description: string, fields: F, goName = name): RModel<F> & { schema: v.GenericSchema<unknown, OutOf<F>> } {
  const model = { name, goName, description, rfields: fields, fields: {}, ref: { $ref: `#/definitions/${name}` } } as unknown as RModel<F> & { schema: v.GenericSchema<unknown, OutOf<F>> };
  model.schema = v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const x = dataset.value;
      try {
        if (x !== null && (typeof x !== 'object' || Array.isArray(x))) {
          throw new BindError(`[]: json: cannot unmarshal ${jsonTypeOf(x)} into Go value of type structs.${goName}`);
        }
        // `null` decodes as the zero struct, whose binding rules still run (`[Files]: Required`).
        const out = x === null ? {} : decode(model, x, goName);
        validate(model, out);
        return out as OutOf<F>;
      } catch (err) {
        if (!(err instanceof BindError)) throw err;
        addIssue({ message: err.message });
        return NEVER;
      }
    }),
  ) as unknown as v.GenericSchema<unknown, OutOf<F>>;
  return model;
}

/** Swagger 2.0 definition of a request model. */
export function requestDefinition(model: RModel): JsonSchema {
  const required = Object.entries(model.rfields).filter(([, f]) => f.rules.required).map(([k]) => k);
  return {
    description: model.description,
    type: 'object',
    ...(required.length ? { required } : {}),
    properties: Object.fromEntries(Object.entries(model.rfields).map(([k, f]) => [k, f.json])),
    'x-go-package': 'code.gitea.io/gitea/modules/structs',
  };
}
