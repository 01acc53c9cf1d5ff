import * as v from 'valibot';
import { defineOperation, path, query } from '../../operation.js';
import { Mailbox } from '../models/mailbox.js';

const mailboxName = path.string({ description: 'Name of the mailbox.' });
const since = ['12.1.0'];
// Asterisk reads the counts as unsigned; a negative count is refused here rather than wrapped.
const count = (description: string) => query.int({ description, required: true, min: 0 });

export const listMailboxes = defineOperation({
  resource: 'mailboxes', method: 'GET', path: '/mailboxes', nickname: 'list', since,
  summary: 'Every mailbox, by name.', params: {},
  responseClass: 'List[Mailbox]', response: v.array(Mailbox.schema), success: 200, errors: [],
});

export const getMailbox = defineOperation({
  resource: 'mailboxes', method: 'GET', path: '/mailboxes/{mailboxName}', nickname: 'get', since,
  summary: 'One mailbox and its counts.', params: { mailboxName },
  responseClass: 'Mailbox', response: Mailbox.schema, success: 200, errors: [{ code: 404, reason: 'Mailbox not found' }],
});

export const updateMailbox = defineOperation({
  resource: 'mailboxes', method: 'PUT', path: '/mailboxes/{mailboxName}', nickname: 'update', since,
  summary: 'Sets both counts of a mailbox, creating it if needed; mailboxes outlive a restart. No event reports the change.',
  params: { mailboxName, oldMessages: count('Messages already heard (0 or more).'), newMessages: count('Messages not heard yet (0 or more).') },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'A count missing, not an integer, or negative; or a new mailbox when as many are kept as the server allows.' }, { code: 404, reason: 'Declared as Asterisk does; an update creates the mailbox instead.' }],
});

export const deleteMailbox = defineOperation({
  resource: 'mailboxes', method: 'DELETE', path: '/mailboxes/{mailboxName}', nickname: 'delete', since,
  summary: 'Removes a mailbox.', params: { mailboxName },
  responseClass: 'void', response: null, success: 204, errors: [{ code: 404, reason: 'Mailbox not found' }],
});

export const mailboxOperations = [listMailboxes, getMailbox, updateMailbox, deleteMailbox] as const;
