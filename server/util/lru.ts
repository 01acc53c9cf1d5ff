/**
 * A small bounded map for caches. Eviction is oldest-inserted first: a hit
 * does not reorder (reordering a large Map on every read cost more than the
 * better hit rate of true LRU bought, for caches of immutable data). Bounded
 * by a count, and optionally by a total weight (bytes) as `weigh` measures it.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  private weight = 0;

  constructor(
    private readonly max: number,
    private readonly limit?: { maxWeight: number; weigh: (v: V) => number },
  ) {}

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, val: V): void {
    this.delete(key);
    const w = this.limit ? this.limit.weigh(val) : 0;
    if (this.limit && w > this.limit.maxWeight) return;
    while (this.map.size && (this.map.size >= this.max || (this.limit && this.weight + w > this.limit.maxWeight))) this.delete(this.map.keys().next().value as K);
    this.map.set(key, val);
    this.weight += w;
  }

  delete(key: K): void {
    if (!this.map.has(key)) return;
    if (this.limit) this.weight -= this.limit.weigh(this.map.get(key) as V);
    this.map.delete(key);
  }

  /** Drops every key the predicate selects (e.g. all entries of a deleted repository). */
  deleteWhere(pred: (key: K) => boolean): void {
    for (const key of [...this.map.keys()]) if (pred(key)) this.delete(key);
  }

  get size(): number {
    return this.map.size;
  }
}
