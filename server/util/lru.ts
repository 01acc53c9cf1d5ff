/**
 * A small bounded map for caches. Eviction is oldest-inserted first: a hit
 * does not reorder (reordering a large Map on every read cost more than the
 * better hit rate of true LRU bought, for caches of immutable data).
 */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, val: V): void {
    if (!this.map.has(key) && this.map.size >= this.max) this.map.delete(this.map.keys().next().value as K);
    this.map.set(key, val);
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  /** Drops every key the predicate selects (e.g. all entries of a deleted repository). */
  deleteWhere(pred: (key: K) => boolean): void {
    for (const key of [...this.map.keys()]) if (pred(key)) this.map.delete(key);
  }

  get size(): number {
    return this.map.size;
  }
}
