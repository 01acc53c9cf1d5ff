import { defineModel, f } from '../../model.js';

export const Mailbox = defineModel('Mailbox', 'A message-waiting counter pair kept for an application; nothing here reads or plays voicemail.', {
  name: f.string('The mailbox name it was created with.'),
  old_messages: f.int('How many messages were already heard.'),
  new_messages: f.int('How many messages wait unheard.'),
});
