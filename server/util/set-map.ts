/** Sets of values by key; a key whose set becomes empty is dropped, so `get` is undefined for it. */
export class SetMap<K, V> {
  private readonly map = new Map<K, Set<V>>();

  add(key: K, value: V): void {
    let set = this.map.get(key);
    if (!set) this.map.set(key, (set = new Set()));
    set.add(value);
  }

  /** Removes one value; true when it was there. */
  delete(key: K, value: V): boolean {
    const set = this.map.get(key);
    if (!set?.delete(value)) return false;
    if (set.size === 0) this.map.delete(key);
    return true;
  }

  get(key: K): ReadonlySet<V> | undefined {
    return this.map.get(key);
  }
}
