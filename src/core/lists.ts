/**
 * Reading what a module made itself: an element at an index it computed from the list, a value
 * under a key it stored. A miss is a bug, thrown where it happens, never an `undefined` carried on
 * (and never a type cast that would hide it).
 */

/** The element at `index` of `list`, which the caller knows is there. */
export function item<T>(list: readonly T[], index: number): NonNullable<T> {
  const value = list[index];
  if (value === undefined || value === null) throw new RangeError(`no element at ${index} of ${list.length}`);
  return value;
}

/** The value under `key` of `map`, which the caller stored. */
export function stored<K, V>(map: ReadonlyMap<K, V>, key: K): NonNullable<V> {
  const value = map.get(key);
  if (value === undefined || value === null) throw new RangeError('no value stored under that key');
  return value;
}

/**
 * A registry's names in its order, and the name a user gave looked up among them (in a Map: text
 * from argv or a file never indexes the table itself): the one lookup of every registry of kinds.
 */
export function namesOf<K extends string>(
  table: { readonly [k in K]: unknown },
): {
  readonly names: readonly K[];
  readonly named: (name: string) => K | null;
} {
  const names = Object.keys(table) as K[];
  const byName: ReadonlyMap<string, K> = new Map(names.map((k) => [k, k]));
  return { names, named: (name) => byName.get(name) ?? null };
}
