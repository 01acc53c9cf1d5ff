/** A small least-recently-used map bounded by entry count. */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    const val = this.map.get(key);
    if (val !== undefined) {
      this.map.delete(key);
      this.map.set(key, val);
    }
    return val;
  }

  set(key: K, val: V): void {
    this.map.delete(key);
    this.map.set(key, val);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K);
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
