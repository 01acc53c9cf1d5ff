import type { MailboxRepo, MailboxRow } from '../../db/repos/mailbox-repo.js';
import { badRequest, notFound } from '../../errors.js';

/**
 * Mailboxes: message-waiting counts applications set and read, kept in
 * SQLite (each write is committed before its answer). Asterisk raises no
 * ARI event for them and has no `mailbox:` event source, so neither do we.
 */
export class Mailboxes {
  constructor(
    private readonly repo: MailboxRepo,
    /** Most mailboxes kept (ARI_MAX_STORED_OBJECTS). */
    private readonly maxMailboxes: number,
  ) {}

  list(): MailboxRow[] {
    return this.repo.all();
  }

  get(name: string): MailboxRow {
    const row = this.repo.get(name);
    // Asterisk's words, its grammar slip included.
    if (!row) throw notFound('Mailbox is does not exist');
    return row;
  }

  /** Sets both counts, creating the mailbox when it is new (if there is room; changing a kept one always works). */
  update(name: string, oldMessages: number, newMessages: number): void {
    if (!this.repo.get(name) && this.repo.count() >= this.maxMailboxes) throw badRequest(`There are already ${this.maxMailboxes} mailboxes`);
    this.repo.save({ name, old_messages: oldMessages, new_messages: newMessages });
  }

  remove(name: string): void {
    if (!this.repo.remove(name)) throw notFound('Mailbox does not exist');
  }
}
