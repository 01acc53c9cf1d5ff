import * as v from 'valibot';
import { ARI_TIMESTAMP, defineModel, type Fields, type Model } from '../../model.js';

/** Fields every event on the WebSocket carries besides its own. */
const envelope = {
  type: v.string(),
  timestamp: v.pipe(v.string(), v.regex(ARI_TIMESTAMP)),
  asterisk_id: v.string(),
  application: v.string(),
};

export interface EventDef<F extends Fields = Fields, T extends string = string> {
  type: T;
  /** Docs view: only the event's own properties, as Asterisk's events.json lists them. */
  model: Model<F>;
  /** Wire view: own properties plus the envelope; what test mode checks outgoing events against. */
  schema: v.GenericSchema;
}

/** Declares an event type once for the docs (events.json) and the outgoing checks. */
export function defineEvent<const T extends string, const F extends Fields>(type: T, description: string, fields: F): EventDef<F, T> {
  const model = defineModel(type, description, fields);
  const schema = v.strictObject({ ...envelope, ...model.schema.entries, type: v.literal(type) });
  return { type, model, schema };
}
