import type { Channel } from './channel.js';

/** The live channels, by unique id and by name. */
export class ChannelRegistry {
  private readonly byId = new Map<string, Channel>();
  private readonly byName = new Map<string, Channel>();

  /** A live channel by unique id or by name (ARI accepts both). */
  find(idOrName: string): Channel | undefined {
    return this.byId.get(idOrName) ?? this.byName.get(idOrName);
  }

  /** True when a live channel has this unique id. */
  hasId(id: string): boolean {
    return this.byId.has(id);
  }

  /** Every live channel, in creation order. */
  all(): IterableIterator<Channel> {
    return this.byId.values();
  }

  /** How many channels are live. */
  get size(): number {
    return this.byId.size;
  }

  /** Adds a channel to the live set. */
  put(ch: Channel): void {
    this.byId.set(ch.id, ch);
    this.byName.set(ch.name, ch);
  }

  /** Takes a channel out of the live set. */
  delete(ch: Channel): void {
    this.byId.delete(ch.id);
    this.byName.delete(ch.name);
  }
}
