/**
 * Strict JSON: JSON.parse for the values (`__proto__` is an ordinary own key there), and the checks
 * it cannot make, with positions. JSON.parse sees the text first: when it accepts, the text is
 * trusted grammar, and the value is either proved clean from itself (read/json/proof.ts: nothing to
 * collect) or scanned in trusted mode; when it refuses, the full scan (read/json/scanner.ts) says
 * where and why.
 */

import type { Result } from '../../core/result.js';
import { messageOf } from '../../core/text.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { provablyClean } from './proof.js';
import { type Elements, runScanner, Scanner, type ScanOptions, type StrictParse, scan } from './scanner.js';

const wellFormed = (s: string): boolean => s.isWellFormed();

/**
 * JSON.parse, then the strict checks. When JSON.parse accepts the text (the common case), the grammar
 * is known good and the scan runs in trusted mode: strings are skipped with indexOf instead of
 * character by character. When it rejects, the full scan finds and locates the error.
 *
 * Both scans run on the document's own slice, never on the text around it: a search (for the next
 * quote or backslash) can then never run past the document, so reading an NDJSON file is linear in
 * its size whatever its lines hold. Offsets are moved back to the whole text's.
 */
export function parseStrict(text: string, options: ScanOptions, start = 0, end = text.length, base = 0): StrictParse {
  const slice = start === 0 && end === text.length ? text : text.slice(start, end);
  // Offsets are the file's: `base` is where the text starts in it (a block of an NDJSON file's lines, read/documents.ts).
  const at = start + base;
  let value: unknown;
  try {
    value = JSON.parse(slice);
  } catch (error) {
    const scanned = scan(slice, options);
    // The full scan rejects everything JSON.parse does; if not, fail closed with JSON.parse's words.
    return {
      ok: false,
      reason: scanned.ok
        ? { offset: at, message: messageOf(error) }
        : { offset: scanned.reason.offset + at, message: scanned.reason.message },
    };
  }
  const trusted = wellFormed(slice);
  // Colons a caller counted are the whole text's: a slice of it is proved by counting its own (every other option kept).
  const proof = slice === text || options.colons === undefined ? options : withoutColons(options);
  if (trusted && provablyClean(slice, value, proof)) return { ok: true, value: { json: value, elements: NO_ELEMENTS } };
  const scanned2 = runScanner(new Scanner(slice, 0, slice.length, options, trusted));
  if (!scanned2.ok) return { ok: false, reason: { offset: scanned2.reason.offset + at, message: scanned2.reason.message } };
  return { ok: true, value: { json: value, elements: at === 0 ? scanned2.value : shifted(scanned2.value, at) } };
}

const NO_ELEMENTS: Elements = new Map();

/** The options without a colon count (the reader's own options object, never parsed input). */
function withoutColons(options: ScanOptions): ScanOptions {
  const { colons: _, ...rest } = options;
  return rest;
}

function shifted(elements: ReadonlyMap<string, readonly number[]>, by: number): ReadonlyMap<string, readonly number[]> {
  const out = new Map<string, number[]>();
  for (const [k, v] of elements)
    out.set(
      k,
      v.map((o) => o + by),
    );
  return out;
}

/** The limits of JSON text inside a document: the depth of any document (no option names another). */
const EMBEDDED = { maxDepth: DEFAULT_LIMITS.maxDepth };

/**
 * A JSON text embedded in another document (a CloudTrail event in a lookup-events entry, a tool's
 * arguments in a span, an MCP result's text content), read as strictly as its document: a key given
 * twice is refused, never the last one taken, since two readers would then see two values.
 */
export function strictValue(text: string): Result<unknown, string> {
  const parsed = parseStrict(text, EMBEDDED);
  return parsed.ok ? { ok: true, value: parsed.value.json } : { ok: false, reason: parsed.reason.message };
}

/**
 * Text that may hold JSON (a tool's result, an MCP result's text content): its value read strictly;
 * plain text (not JSON to anyone); or JSON the strict reader refuses (a key given twice, a lone
 * surrogate, a number out of range), with why: never a value then, since another reader would take one.
 */
export function jsonOrText(
  text: string,
): { readonly kind: 'json'; readonly value: unknown } | { readonly kind: 'text' } | { readonly kind: 'refused'; readonly reason: string } {
  const parsed = strictValue(text);
  if (parsed.ok) return { kind: 'json', value: parsed.value };
  try {
    JSON.parse(text);
  } catch {
    return { kind: 'text' };
  }
  return { kind: 'refused', reason: parsed.reason };
}
