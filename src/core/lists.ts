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
 * The name a user gave, found among a registry's names (compared, never used to index the table:
 * text from argv or a file): the one lookup of every registry of kinds.
 */
export function named<K extends string>(names: readonly K[], name: string): K | null {
  return names.find((k) => k === name) ?? null;
}
