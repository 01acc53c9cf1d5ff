import { defineModel, f, optional } from '../../model.js';

export const Message = defineModel('Message', 'Base type for errors and events', {
  type: f.string('Indicates the type of this message.'),
  asterisk_id: optional(f.string('The unique ID for the server instance that raised this message.')),
}, { discriminator: 'type', subTypes: ['MissingParams', 'Event'] });

export const MissingParams = defineModel('MissingParams', 'Error event sent when required params are missing.', {
  params: f.list(f.string(), 'A list of the missing parameters'),
});

/** Event's subTypes are filled in by the events index, which knows every event we can send. */
export const eventBaseFields = {
  application: f.string('Name of the application receiving the event.'),
  timestamp: f.date('Time at which this event was created.'),
};
