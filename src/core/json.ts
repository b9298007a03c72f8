/**
 * Values from JSON.parse, read safely: an own-property test that `__proto__` cannot fool, and the one
 * object check every reader and the core use. Parsed objects are never copied or spread.
 */

/** A JSON object as produced by JSON.parse (never copied, never spread). */
export type JsonObject = { readonly [key: string]: unknown };

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export const hasOwn = (o: object, k: string): boolean => Object.hasOwn(o, k);
