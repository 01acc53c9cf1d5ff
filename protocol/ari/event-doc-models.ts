import { defineModel, type Model } from '../model.js';
import { ENDPOINT_EVENT_MODELS, EVENTS, Message, MissingParams, REST_MESSAGE_MODELS, TRANSFER_EVENT_MODELS, eventBaseFields } from './events/index.js';

/**
 * The models that describe the event socket, in the order events.json lists them: the Message
 * hierarchy (Message, MissingParams, Event with every event type as a subtype), each event with its
 * own properties only, and the models only events carry. Both the Swagger 1.1 events.json and the
 * OpenAPI documents are made from this one list.
 */
export function eventDocModels(): Model[] {
  const Event = defineModel('Event', 'What every event frame carries besides its own fields.', eventBaseFields, {
    subTypes: EVENTS.map((e) => e.type),
  });
  return [Message, MissingParams, Event, ...EVENTS.map((e) => e.model), ...REST_MESSAGE_MODELS, ...ENDPOINT_EVENT_MODELS, ...TRANSFER_EVENT_MODELS];
}
