import type { ModelOf } from '../../../protocol/model.js';
import { HEARD_MAX_ITEMS, type HeardItem } from '../../../protocol/sim/heard.js';
import type { HeardRepo } from '../../db/repos/heard-repo.js';
import type { Channel } from './channel.js';

type Item = ModelOf<typeof HeardItem>;

/** A channel's list in memory: its items, and the number the next one gets. */
interface List {
  items: Item[];
  next: number;
}

/**
 * The heard list of each live channel, kept in memory and written to SQLite
 * item by item: a new item, or one that ended, is one row written in the
 * next group commit (before the events of that turn leave), so a busy
 * channel's record is not rewritten with its whole list on every change.
 * An ended channel's list is read back from the table.
 */
export class HeardLists {
  private readonly lists = new WeakMap<Channel, List>();
  /** Each listed item's channel and number. */
  private readonly numbers = new WeakMap<Item, { seq: number; n: number }>();
  /** Items to write at the next commit. */
  private readonly dirty = new Set<Item>();
  /** Channels whose oldest rows go at the next commit: the first number kept, by channel seq. */
  private readonly trims = new Map<number, number>();
  private queued = false;

  constructor(
    private readonly repo: HeardRepo,
    /** Runs a write inside the next group commit. */
    private readonly defer: (write: () => void) => void,
  ) {}

  /** A restored live channel's list, read back from the table. */
  restore(ch: Channel): Item[] {
    const rows = this.repo.list(ch.d.seq);
    const items = rows.map((r) => JSON.parse(r.item) as Item);
    rows.forEach((r, i) => this.numbers.set(items[i]!, { seq: ch.d.seq, n: r.n }));
    this.lists.set(ch, { items, next: (rows.at(-1)?.n ?? -1) + 1 });
    return items;
  }

  /** A live channel's list, oldest first. */
  of(ch: Channel): readonly Item[] {
    return this.lists.get(ch)?.items ?? [];
  }

  /** An ended channel's list, from the table (a commit must have run since its last change). */
  stored(seq: number): Item[] {
    return this.repo.list(seq).map((r) => JSON.parse(r.item) as Item);
  }

  /** Appends an item; past the bound the oldest go. */
  add(ch: Channel, item: Item): void {
    let list = this.lists.get(ch);
    if (!list) this.lists.set(ch, (list = { items: [], next: 0 }));
    this.numbers.set(item, { seq: ch.d.seq, n: list.next++ });
    list.items.push(item);
    if (list.items.length > HEARD_MAX_ITEMS) {
      for (const gone of list.items.splice(0, list.items.length - HEARD_MAX_ITEMS)) this.dirty.delete(gone);
      this.trims.set(ch.d.seq, this.numbers.get(list.items[0]!)!.n);
    }
    this.changed(item);
  }

  /** Writes a listed item again at the next commit (it ended, or gained a field). */
  changed(item: Item): void {
    if (!this.numbers.has(item)) return;
    this.dirty.add(item);
    if (this.queued) return;
    this.queued = true;
    this.defer(() => this.write());
  }

  private write(): void {
    this.queued = false;
    for (const item of this.dirty) {
      const { seq, n } = this.numbers.get(item)!;
      this.repo.put(seq, n, JSON.stringify(item));
    }
    this.dirty.clear();
    for (const [seq, first] of this.trims) this.repo.trim(seq, first);
    this.trims.clear();
  }
}
