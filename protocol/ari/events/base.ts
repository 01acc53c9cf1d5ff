import { defineModel, f, optional } from '../../model.js';

export const Message = defineModel('Message', 'Common shape of every frame on the event WebSocket.', {
  type: f.string('Event type name, such as StasisStart.'),
  asterisk_id: optional(f.string('Id of this server (MAC-like, kept across restarts).')),
}, { discriminator: 'type', subTypes: ['MissingParams', 'Event'] });

export const MissingParams = defineModel('MissingParams', 'Declared because Asterisk declares it; never sent here.', {
  params: f.list(f.string(), 'Names of the parameters that were missing.'),
});

/** Event's subTypes are filled in by the events index, which knows every event we can send. */
export const eventBaseFields = {
  application: f.string('Application the frame is addressed to.'),
  timestamp: f.date('When the event happened.'),
};
