// A small least-recently-used memory for rendered plates: a backdrop depends only on its size and
// colours, so a task's six product shots, and the next task's, reuse it.

export interface Lru<V> {
  /** The value under `key`, made (and remembered, dropping the least recently used) when missing. */
  get(key: string, make: () => V): V;
  readonly size: number;
}

export function lru<V>(limit: number): Lru<V> {
  const entries = new Map<string, V>();
  return {
    get(key, make) {
      if (entries.has(key)) {
        const value = entries.get(key)!;
        entries.delete(key);
        entries.set(key, value);
        return value;
      }
      const value = make();
      entries.set(key, value);
      while (entries.size > limit) entries.delete(entries.keys().next().value!);
      return value;
    },
    get size() {
      return entries.size;
    },
  };
}
