/**
 * Values from JSON.parse, read safely: an own-property test that `__proto__` cannot fool, and the one
 * object check every reader and the core use. Parsed objects are never copied or spread.
 */

/** A JSON object as produced by JSON.parse (never copied, never spread). */
export type JsonObject = { readonly [key: string]: unknown };

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export const hasOwn = (o: object, k: string): boolean => Object.hasOwn(o, k);

/** A string member, or null (absent, empty or not a string). */
export const str = (value: unknown, key: string): string | null => {
  const given = isObject(value) ? value[key] : undefined;
  return typeof given === 'string' && given !== '' ? given : null;
};

/** A whole-number member (GitHub's issue and pull request numbers, comment ids; HTTP codes), or null. */
export const wholeNumber = (value: unknown, key: string): number | null => {
  const given = isObject(value) ? value[key] : undefined;
  return typeof given === 'number' && Number.isSafeInteger(given) && given > 0 ? given : null;
};

/** An object member, or null. */
export const obj = (value: unknown, key: string): JsonObject | null => {
  const given = isObject(value) ? value[key] : undefined;
  return isObject(given) ? given : null;
};

/** The value at a path of member names and list indexes, through own members only; undefined when there is none. */
export function memberAt(value: unknown, path: readonly string[]): unknown {
  let node = value;
  for (const segment of path) {
    if (Array.isArray(node) && /^\d{1,6}$/.test(segment)) node = node[Number(segment)];
    else if (isObject(node) && Object.hasOwn(node, segment)) node = node[segment];
    else return undefined;
  }
  return node;
}
