import type * as v from 'valibot';

export type ParamIn = 'path' | 'query' | 'body';
/** Swagger 1.1 data types ARI uses for parameters. */
export type DataType = 'string' | 'int' | 'long' | 'boolean' | 'containers' | 'object' | 'binary';

/** A channel variable as given in a `variables` body container. */
export interface VariableInput {
  name: string;
  value: string;
  reportEvents: boolean;
}

/**
 * One declared parameter. `T` is the type the handler receives after binding,
 * so handlers are typed by the very declaration the docs are made from.
 */
export interface ParamDef<T = unknown, I = T | undefined> {
  in: ParamIn;
  dataType: DataType;
  description: string;
  required: boolean;
  allowMultiple: boolean;
  defaultValue?: string | number | boolean;
  allowableValues?: readonly (string | number)[];
  min?: number;
  max?: number;
  /**
   * Presence and allowed values are checked by the handler, after its
   * 404/409/412 guards, because Asterisk checks them there (the binder only
   * converts the type).
   */
  handlerValidates: boolean;
  /** Message for a value outside allowableValues or the range (defaults to a generic one). */
  invalidMessage?: string;
  /** Message when a required parameter is missing (defaults to a generic one). */
  missingMessage?: string;
  /**
   * A `containers` body whose `variables` value reaches the handler as the JSON
   * it is (a user event's fields), instead of being read as channel variables.
   */
  jsonContainer?: boolean;
  /** Phantom: carries the bound type. */
  readonly __type?: T;
  /** Phantom: what a client sends for it (a type including undefined: it may be left out). */
  readonly __input?: I;
}

interface ParamOpts<T> {
  description: string;
  required?: boolean;
  allowMultiple?: boolean;
  default?: T;
  values?: readonly T[];
  min?: number;
  max?: number;
  handlerValidates?: boolean;
  invalidMessage?: string;
  missingMessage?: string;
}

type Narrow<T, O> = O extends { handlerValidates: true } ? T : O extends { values: readonly (infer V)[] } ? V : T;
type Many<T, O> = O extends { allowMultiple: true } ? T[] : T;
type Absent<O> = O extends { required: true }
  ? O extends { handlerValidates: true } ? undefined : never
  : O extends { default: unknown } ? never : undefined;
export type BoundType<T, O> = Many<Narrow<T, O>, O> | Absent<O>;
/** What a client sends: the declared values, optional unless the parameter is required. */
export type InputType<T, O> = Many<O extends { values: readonly (infer V)[] } ? V : T, O> | (O extends { required: true } ? never : undefined);

function param<T>(inn: ParamIn, dataType: DataType) {
  return <const O extends ParamOpts<T>>(o: O): ParamDef<BoundType<T, O>, InputType<T, O>> => ({
    in: inn,
    dataType,
    description: o.description,
    required: inn === 'path' ? true : !!o.required,
    allowMultiple: !!o.allowMultiple,
    handlerValidates: !!o.handlerValidates,
    ...(o.default !== undefined ? { defaultValue: o.default as string | number | boolean } : {}),
    ...(o.values ? { allowableValues: o.values as readonly (string | number)[] } : {}),
    ...(o.min !== undefined ? { min: o.min } : {}),
    ...(o.max !== undefined ? { max: o.max } : {}),
    ...(o.invalidMessage ? { invalidMessage: o.invalidMessage } : {}),
    ...(o.missingMessage ? { missingMessage: o.missingMessage } : {}),
  });
}

/** Parameter constructors, by location. */
export const query = {
  string: param<string>('query', 'string'),
  int: param<number>('query', 'int'),
  long: param<number>('query', 'long'),
  boolean: param<boolean>('query', 'boolean'),
};
export const path = {
  string: <const O extends Omit<ParamOpts<string>, 'required'>>(o: O) => param<string>('path', 'string')({ ...o, required: true as const }),
};
/** The ARI `variables` body container: the whole JSON body, whose `variables` key holds the channel variables. */
export const body = {
  variables: (description: string): ParamDef<VariableInput[], Record<string, string> | undefined> => ({
    in: 'body',
    dataType: 'containers',
    description,
    required: false,
    allowMultiple: false,
    handlerValidates: false,
  }),
  /**
   * A container read from the body's key of the parameter's own name (`variables` for a user
   * event, `fields` for a configuration object), handed to the handler as plain JSON (undefined when absent).
   */
  fields: <I = unknown>(description: string): ParamDef<unknown, I | undefined> => ({
    in: 'body',
    dataType: 'containers',
    description,
    required: false,
    allowMultiple: false,
    handlerValidates: true,
    jsonContainer: true,
  }),
  /** The whole JSON body as one `object` parameter, handed to the handler as parsed (undefined without a body). */
  json: (description: string): ParamDef<unknown> => ({
    in: 'body',
    dataType: 'object',
    description,
    required: false,
    allowMultiple: false,
    handlerValidates: true,
  }),
};

/** A raw request body (an upload), with its content type. */
export interface RawBody {
  contentType: string;
  data: Buffer;
}

export const rawBody = (description: string): ParamDef<RawBody, { contentType: string; data: Uint8Array }> => ({
  in: 'body',
  dataType: 'binary',
  description,
  required: true,
  allowMultiple: false,
  handlerValidates: false,
});

export type Params = Record<string, ParamDef<any>>;
export type ArgsOf<P extends Params> = { [K in keyof P]: P[K] extends ParamDef<infer T, any> ? T : never };

export interface ErrorResponse {
  code: number;
  reason: string;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type SuccessCode = 200 | 201 | 202 | 204;

export interface Operation<
  P extends Params = Params,
  R extends v.GenericSchema | null = v.GenericSchema | null,
  S extends SuccessCode = SuccessCode,
  C extends string = string,
  N extends string = string,
> {
  /** Which API document lists it (`channels`, `asterisk`, …). */
  resource: string;
  method: HttpMethod;
  /** Path relative to the API's basePath, Swagger style: `/channels/{channelId}`. */
  path: string;
  nickname: N;
  summary: string;
  notes?: string;
  since: readonly string[];
  params: P;
  /** Swagger responseClass: a model id, `List[Model]`, `void` or `binary`. */
  responseClass: C;
  /** Schema of the success body (null for `void`). */
  response: R;
  success: S;
  errors: readonly ErrorResponse[];
  /** WebSocket operations (events) are upgrades, not plain requests. */
  upgrade?: { protocol: string };
}

export type OperationArgs<O extends Operation> = O extends Operation<infer P, any, any, any> ? ArgsOf<P> : never;
export type OperationResult<O extends Operation> = O extends Operation<any, infer R, any, any>
  ? R extends v.GenericSchema ? v.InferOutput<R> : void
  : never;

/**
 * Declares an operation once. Every operation can answer 400 (a malformed
 * JSON body or a mistyped parameter), so a 400 entry is added when the
 * declaration has none: test-mode response checks stay strict and the docs
 * stay truthful.
 */
export function defineOperation<const P extends Params, R extends v.GenericSchema | null, const S extends SuccessCode, const C extends string, const N extends string>(
  op: Omit<Operation<P, R, S, C, N>, 'since'> & { since?: readonly string[] },
): Operation<P, R, S, C, N> {
  const errors = op.errors.some((e) => e.code === 400)
    ? op.errors
    : [{ code: 400, reason: 'A missing, mistyped or out-of-range parameter, or a malformed JSON body.' }, ...op.errors];
  return { ...op, since: op.since ?? ['12.0.0'], errors: [...errors].sort((a, b) => a.code - b.code) };
}

/** Statuses an operation may answer with (success plus every declared error). */
export function declaredStatuses(op: Operation): Set<number> {
  return new Set([op.success, ...op.errors.map((e) => e.code)]);
}
