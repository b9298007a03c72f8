/**
 * A large ASCII JSON document read in pieces, never as one string: V8 puts a string of more than
 * ~128 KiB in its own pages, fresh from the kernel, and decoding one costs a page fault per 4 KiB
 * (BENCHMARKS.md, "Issue 44, seventeenth stop: where the page faults go"). The array a reader
 * collects (a run's decisions, an export's records) is found on the bytes, and read in chunks of
 * whole elements; the rest of the document (the shell) is read with one element left in the array.
 *
 * The bytes are only walked to find where things are; what is read is proved by the strict reader
 * (read/json/strict.ts), so the walk decides nothing:
 * - the shell, with the array's elements replaced by one `0`, is strict JSON within the limits and
 *   that `0` is the one element of the array at the collected path (so the array is where the walk
 *   says it is, and the glue after `[` and before `]` is whitespace);
 * - each chunk of elements, wrapped in `[` `]`, is strict JSON within the limits left at that depth,
 *   with as many elements as the walk found (so the walk split it where the grammar does);
 * - between chunks there is only whitespace and one comma.
 * Then the whole text is strict JSON, its value is the shell's with the chunks' elements in place of
 * the `0`, and its element offsets are the walk's. Anything else (a file that is not plain ASCII,
 * an escaped key, a problem anywhere) gives null, and the whole text is read as before: a problem is
 * always found and said by the one whole-text reader, at the same place, with the same words.
 */
import { hasOwn, isObject } from '../../core/json.js';
import { type Elements, isJsonSpace, pathKey, type ScanOptions, type StrictParse } from './scanner.js';
import { parseStrict } from './strict.js';

/** Elements read together, in bytes: well under the size V8 moves a string to its own pages. */
const CHUNK = 64 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const LBRACE = 0x7b;
const RBRACE = 0x7d;

function skipWs(b: Buffer, i: number): number {
  while (i < b.length && isJsonSpace(b[i])) i++;
  return i;
}

/** After the string whose opening quote is at i: past its closing quote (one not escaped), or -1. */
function stringEnd(b: Buffer, i: number): number {
  for (let q = b.indexOf(QUOTE, i + 1); q !== -1; q = b.indexOf(QUOTE, q + 1)) {
    let k = q - 1;
    while (b[k] === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1;
  }
  return -1;
}

/** What a byte is to the walk: 0 nothing, 1 a quote, 2 an opening bracket, 3 a closing one, 4 a colon (a table: one load per byte). */
const CLASS = new Uint8Array(256);
CLASS[QUOTE] = 1;
CLASS[LBRACE] = 2;
CLASS[LBRACKET] = 2;
CLASS[RBRACE] = 3;
CLASS[RBRACKET] = 3;
CLASS[COLON] = 4;

/** Colons outside strings the walk passed since it was last set to 0 (synchronous: one counter serves every walk). */
let colonsPassed = 0;

/** After the value that starts at i (as JSON would end it if it is JSON), or -1; the colons outside its strings are added to `colonsPassed`. */
function valueEnd(b: Buffer, i: number): number {
  const c = b[i];
  if (c === QUOTE) return stringEnd(b, i);
  if (c === LBRACE || c === LBRACKET) {
    let depth = 0;
    const n = b.length;
    while (i < n) {
      const k = CLASS[b[i] ?? 0];
      if (k === 0) i++;
      else if (k === 1) {
        i = stringEnd(b, i);
        if (i < 0) return -1;
      } else if (k === 4) {
        colonsPassed++;
        i++;
      } else {
        if (k === 2) depth++;
        else if (--depth === 0) return i + 1;
        i++;
      }
    }
    return -1;
  }
  while (i < b.length) {
    const d = b[i];
    if (d === COMMA || d === RBRACKET || d === RBRACE || isJsonSpace(d)) break;
    i++;
  }
  return i;
}

/** Where the array at a path of at most one key starts (its `[`), walking the root's members by their raw keys; -1 when not found so. */
function arrayAt(b: Buffer, path: readonly string[]): number {
  let i = skipWs(b, 0);
  if (path.length === 0) return b[i] === LBRACKET ? i : -1;
  if (path.length > 1 || b[i] !== LBRACE) return -1;
  const key = Buffer.from(JSON.stringify(path[0]), 'utf8');
  i = skipWs(b, i + 1);
  while (b[i] === QUOTE) {
    const end = stringEnd(b, i);
    if (end < 0) return -1;
    const named = end - i === key.length && b.compare(key, 0, key.length, i, end) === 0;
    i = skipWs(b, end);
    if (b[i] !== COLON) return -1;
    i = skipWs(b, i + 1);
    if (named) return b[i] === LBRACKET ? i : -1;
    i = valueEnd(b, i);
    if (i < 0) return -1;
    i = skipWs(b, i);
    if (b[i] !== COMMA) return -1;
    i = skipWs(b, i + 1);
  }
  return -1;
}

/** The elements of the array at a path: where each starts and ends, and the colons outside its strings. */
interface Found {
  readonly starts: number[];
  readonly ends: number[];
  readonly colons: number[];
}

/** The elements of the array whose `[` is at `open`: each one's start and end, the glue between them checked; null when it is not so (or empty). */
function elementsOf(b: Buffer, open: number): Found | null {
  const starts: number[] = [];
  const ends: number[] = [];
  const colons: number[] = [];
  let i = skipWs(b, open + 1);
  if (b[i] === RBRACKET) return null;
  for (;;) {
    colonsPassed = 0;
    const end = valueEnd(b, i);
    if (end <= i) return null;
    starts.push(i);
    ends.push(end);
    colons.push(colonsPassed);
    i = skipWs(b, end);
    if (b[i] === RBRACKET) return { starts, ends, colons };
    if (b[i] !== COMMA) return null;
    i = skipWs(b, i + 1);
  }
}

const NOTHING: readonly (readonly string[])[] = [];

/**
 * The strict parse of a plain-ASCII document read in pieces: the same value and element offsets as
 * `parseStrict` of its whole text, or null (then read the whole text: it may be fine, or it has a
 * problem to say). Offsets are byte offsets, which are the text's for ASCII. The bytes must be plain
 * ASCII (the caller knows: read/documents.ts); `chunkBytes` is a parameter for the tests.
 */
export function parsePieces(b: Buffer, options: ScanOptions, chunkBytes = CHUNK): StrictParse | null {
  const collect = options.collect ?? NOTHING;
  for (const path of collect) {
    const open = path.length <= 1 ? arrayAt(b, path) : -1;
    if (open < 0) continue;
    const found = elementsOf(b, open);
    return found && read(b, options, path, found, chunkBytes);
  }
  return null;
}

function read(b: Buffer, options: ScanOptions, path: readonly string[], found: Found, chunkBytes: number): StrictParse | null {
  const { starts, ends, colons } = found;
  const first = starts[0] ?? 0;
  const last = ends[ends.length - 1] ?? 0;
  const shell = parseStrict(`${b.toString('latin1', 0, first)}0${b.toString('latin1', last, b.length)}`, options);
  const key = pathKey(path);
  if (!shell.ok) return null;
  const at = atPath(shell.value.json, path);
  if (at?.length !== 1 || at[0] !== 0) return null;
  const elements = new Map<string, readonly number[]>();
  for (const [k, offsets] of shell.value.elements) {
    if (k === key) {
      if (offsets.length !== 1 || offsets[0] !== first) return null;
      elements.set(k, starts);
    } else if (offsets.length > 0) return null;
    else elements.set(k, offsets);
  }
  if (!elements.has(key)) return null;
  const depth = options.maxDepth - path.length;
  const values: unknown[] = [];
  for (let j = 0; j < starts.length; ) {
    const from = starts[j] ?? 0;
    let n = colons[j] ?? 0;
    let k = j + 1;
    while (k < starts.length && (ends[k] ?? 0) - from <= chunkBytes) n += colons[k++] ?? 0;
    // The walk's colons are the chunk's outside its strings (only commas and whitespace lie between its elements), once JSON.parse has accepted it.
    const chunkOptions: ScanOptions = { maxDepth: depth, maxKeys: options.maxKeys, collect: NOTHING, colons: n };
    const chunk = parseStrict(`[${b.toString('latin1', from, ends[k - 1])}]`, chunkOptions);
    if (!chunk.ok || !Array.isArray(chunk.value.json) || chunk.value.json.length !== k - j) return null;
    for (const v of chunk.value.json) values.push(v);
    j = k;
  }
  return { ok: true, value: { json: withArray(shell.value.json, path, values), elements: elements as Elements } };
}

/** The array at a path of at most one key (the reader's own key, never input text), when there is one. */
function atPath(value: unknown, path: readonly string[]): unknown[] | null {
  const k = path[0];
  const given = k === undefined ? value : isObject(value) && hasOwn(value, k) ? value[k] : undefined;
  return Array.isArray(given) ? given : null;
}

/** The shell's value with the elements in place of its one-element array at the path. */
function withArray(shell: unknown, path: readonly string[], values: unknown[]): unknown {
  const k = path[0];
  if (k === undefined) return values;
  Object.defineProperty(shell, k, { value: values, writable: true, enumerable: true, configurable: true });
  return shell;
}
