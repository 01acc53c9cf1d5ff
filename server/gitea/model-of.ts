import type * as v from 'valibot';

/** The TypeScript type of a protocol model (what the API sends). */
export type ModelOf<M extends { schema: v.GenericSchema }> = v.InferOutput<M['schema']>;
