/**
 * The proof that text JSON.parse accepted is strict JSON without a scan (read/json/strict.ts): from
 * the parsed value alone, when nothing is to be collected.
 */
import { hasOwn, isObject } from '../../core/json.js';
import type { ScanOptions } from './scanner.js';

/**
 * Whether text JSON.parse accepted, well-formed and without a `\u` escape (one may spell a lone
 * surrogate, which only the scan refuses), is exactly its parsed value, within the limits, with
 * nothing to collect — proved without a scan, from the value:
 *
 * Every `:` of valid JSON outside a string separates a member. The parsed value holds every member of
 * the text except those a duplicate key overwrote (at least one, with its key): it has as many
 * members as the text has colons outside its strings exactly when no key repeats, and fewer when one
 * does. When the caller counted those colons on its way through the text (`options.colons`), that is
 * the count; else every colon of the text is counted: without `\u`, every string's decoded text holds
 * as many `:` as its raw text, so the text's colons are its members plus the colons in its strings,
 * which the value holds too. Depth, members per object and finite numbers are read off the value.
 * False is not an error: the scan then decides, and says where.
 */
export function provablyClean(text: string, value: unknown, options: ScanOptions): boolean {
  const counted = options.colons;
  if (text.includes('\\u')) return false;
  if (options.collect) for (const p of options.collect) if (holdsArray(value, p)) return false;
  walkState.colons = 0;
  walkState.bad = false;
  walkState.strings = counted === undefined;
  walk(value, 1, options.maxDepth, options.maxKeys ?? Number.MAX_SAFE_INTEGER);
  return !walkState.bad && (counted ?? colonsIn(text)) === walkState.colons;
}

/** Whether the value at a path (the reader's own keys, never input text) is an array: then its elements' offsets are wanted. */
function holdsArray(value: unknown, path: readonly string[]): boolean {
  let given = value;
  for (const k of path) {
    if (!isObject(given) || !hasOwn(given, k)) return false;
    given = given[k];
  }
  return Array.isArray(given);
}

const colonsIn = (text: string): number => {
  let n = 0;
  for (let i = text.indexOf(':'); i !== -1; i = text.indexOf(':', i + 1)) n++;
  return n;
};

/** Members, plus colons in strings when `strings`, counted by walk (synchronous, never nested: one state serves every call). */
const walkState = { colons: 0, bad: false, strings: true };
function walk(value: unknown, depth: number, maxDepth: number, maxKeys: number): void {
  if (typeof value === 'string') {
    if (walkState.strings && value.includes(':')) walkState.colons += colonsIn(value);
    return;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) walkState.bad = true;
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (depth > maxDepth) {
    walkState.bad = true;
    return;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && !walkState.bad; i++) walk(value[i], depth + 1, maxDepth, maxKeys);
    return;
  }
  // Own keys and values only (an enumerable key someone put on Object.prototype is not the text's),
  // never a lookup by a key read from the input.
  const keys = Object.keys(value);
  if (keys.length > maxKeys) walkState.bad = true;
  walkState.colons += keys.length;
  if (walkState.strings) for (const k of keys) if (k.includes(':')) walkState.colons += colonsIn(k);
  for (const x of Object.values(value)) {
    if (walkState.bad) return;
    walk(x, depth + 1, maxDepth, maxKeys);
  }
}
