import * as op from '../../../protocol/ari/operations/mailboxes.js';
import type { AriBinder } from '../http/bind.js';
import type { Telephony } from '../telephony.js';

export function mountMailboxes(b: AriBinder, t: Pick<Telephony, 'mailboxes'>): void {
  const { mailboxes } = t;
  b.mount(op.listMailboxes, () => mailboxes.list());
  b.mount(op.getMailbox, (a) => mailboxes.get(a.mailboxName));
  b.mount(op.updateMailbox, (a) => mailboxes.update(a.mailboxName, a.oldMessages, a.newMessages));
  b.mount(op.deleteMailbox, (a) => mailboxes.remove(a.mailboxName));
}
