/**
 * The strict JSON scanner: the full grammar and what the semantics forbid beyond it (duplicate keys
 * compared after unescaping, lone UTF-16 surrogates, nesting past the limit, a byte-order mark,
 * numbers that overflow to ±Infinity), with the offset of every problem and of the elements of the
 * arrays a reader asks for, in one allocation-light pass. Trusted mode (the text JSON.parse already
 * accepted) skips strings with indexOf.
 */
import type { Result } from '../../core/result.js';

export interface ScanOptions {
  /** Containers nested deeper than this are rejected (the root container is depth 1). */
  readonly maxDepth: number;
  /**
   * Key paths of arrays whose element start offsets are wanted, e.g. ['observed_tool_decisions'];
   * the empty path is the root array.
   */
  readonly collect?: readonly (readonly string[])[];
  /** Objects with more members than this are rejected (unlimited when absent). */
  readonly maxKeys?: number;
  /**
   * The text's colons outside its strings, when the caller counted them on its way through the text
   * (read/json/pieces.ts): the proof then counts members only (read/json/proof.ts). Only for a whole
   * text given to `parseStrict`, and trusted only once JSON.parse has accepted that text.
   */
  readonly colons?: number;
}

/** Where strict JSON broke (an offset into the text) and which rule it broke. */
export interface JsonProblem {
  readonly offset: number;
  readonly message: string;
}

export type Elements = ReadonlyMap<string, readonly number[]>;
export type ScanResult = Result<Elements, JsonProblem>;
/** The parsed value and the element offsets of the paths collected. */
export type StrictParse = Result<Parsed, JsonProblem>;
interface Parsed {
  readonly json: unknown;
  readonly elements: Elements;
}

/** The key under which `elements` holds a path's offsets. */
export const pathKey = (path: readonly string[]): string => JSON.stringify(path);

/** JSON's whitespace (RFC 8259: space, tab, line feed, carriage return), as a code unit or a byte. */
export const isJsonSpace = (c: number | undefined): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

enum C {
  TAB = 9,
  LF = 10,
  CR = 13,
  SPACE = 32,
  QUOTE = 34,
  PLUS = 43,
  COMMA = 44,
  MINUS = 45,
  DOT = 46,
  ZERO = 48,
  NINE = 57,
  COLON = 58,
  UPPER_E = 69,
  LBRACKET = 91,
  BACKSLASH = 92,
  RBRACKET = 93,
  LOWER_E = 101,
  LBRACE = 123,
  RBRACE = 125,
}

class ScanError {
  constructor(
    readonly offset: number,
    readonly message: string,
  ) {}
}

const describe = (text: string): string => {
  const source = JSON.stringify(text);
  return source.length > 80 ? source.slice(0, 77) + '…"' : source;
};

/** Validate `text[start, end)` as one strict JSON value, checking the whole grammar. */
export function scan(text: string, options: ScanOptions, start = 0, end = text.length): ScanResult {
  return runScanner(new Scanner(text, start, end, options, false));
}

/**
 * Where the first JSON value at or after `start` (after whitespace) ends: a full grammar scan of that
 * value alone, never of what follows it, so a file of many values is scanned once (`[…][…]`).
 */
export function firstValueEnd(text: string, options: ScanOptions, start: number, end = text.length): Result<number, JsonProblem> {
  const scanner = new Scanner(
    text,
    start,
    end,
    { maxDepth: options.maxDepth, ...(options.maxKeys !== undefined ? { maxKeys: options.maxKeys } : {}) },
    false,
  );
  try {
    scanner.run(true);
    return { ok: true, value: scanner.valueEnd };
  } catch (error) {
    if (error instanceof ScanError) return { ok: false, reason: { offset: error.offset, message: error.message } };
    throw error;
  }
}

/** The first offset at or after `i` that is not JSON whitespace. */
function skipWs(text: string, i: number): number {
  let at = i;
  for (let c = text.charCodeAt(at); c === C.SPACE || c === C.LF || c === C.CR || c === C.TAB; c = text.charCodeAt(++at));
  return at;
}

/**
 * Where the member at `path` (keys and indices) of the JSON value that starts at `start` begins, or
 * null when there is none: a place for a problem a reader finds in a parsed value (a subject's
 * number, read/surface.ts). The text is strict JSON already (keys are unique), so each member passed
 * over is scanned alone (`firstValueEnd`); only the members before the path's are, and only when asked.
 */
export function offsetAt(text: string, start: number, path: readonly (string | number)[], options: ScanOptions): number | null {
  let i = skipWs(text, start);
  // Past one value and the comma after it, or null when none follows (the container ends, or the text is not what was parsed).
  const pastMember = (): boolean => {
    const end = firstValueEnd(text, options, i);
    if (!end.ok) return false;
    i = skipWs(text, end.value);
    if (text.charCodeAt(i) !== C.COMMA) return false;
    i = skipWs(text, i + 1);
    return true;
  };
  for (const step of path) {
    const open = text.charCodeAt(i);
    i = skipWs(text, i + 1);
    if (open === C.LBRACKET && typeof step === 'number') {
      for (let k = 0; k < step; k++) if (!pastMember()) return null;
      if (text.charCodeAt(i) === C.RBRACKET) return null;
    } else if (open === C.LBRACE && typeof step === 'string') {
      for (;;) {
        if (text.charCodeAt(i) !== C.QUOTE) return null;
        const keyEnd = firstValueEnd(text, options, i);
        if (!keyEnd.ok) return null;
        const key: unknown = JSON.parse(text.slice(i, keyEnd.value));
        i = skipWs(text, keyEnd.value);
        if (text.charCodeAt(i) !== C.COLON) return null;
        i = skipWs(text, i + 1);
        if (key === step) break;
        if (!pastMember()) return null;
      }
    } else return null;
  }
  return i;
}

export function runScanner(scanner: Scanner): ScanResult {
  try {
    return { ok: true, value: scanner.run() };
  } catch (error) {
    if (error instanceof ScanError) return { ok: false, reason: { offset: error.offset, message: error.message } };
    throw error;
  }
}

/**
 * A cheap fingerprint of a key (length and three code units): equal keys always collide, and a
 * collision only costs a comparison of the two decoded keys.
 */
function keyHash(text: string, a: number, b: number): number {
  const n = b - a;
  if (n === 0) return 0;
  return (
    (Math.imul(Math.imul(Math.imul(n, 65599) + text.charCodeAt(a), 65599) + text.charCodeAt(a + (n >> 1)), 31) + text.charCodeAt(b - 1)) | 0
  );
}

/** Members remembered per open object before switching to a Set of decoded keys. */
const SMALL = 16;

const NO_PATHS: readonly (readonly string[])[] = [];

/** The keys and depth of the paths a reader collects, computed once per list (a reader passes the same list for every line). */
const plans = new WeakMap<readonly (readonly string[])[], { readonly keys: ReadonlySet<string>; readonly maxPath: number }>();
function collectPlan(collect: readonly (readonly string[])[]): { readonly keys: ReadonlySet<string>; readonly maxPath: number } {
  let plan = plans.get(collect);
  if (!plan) {
    plan = { keys: new Set(collect.map(pathKey)), maxPath: Math.max(-1, ...collect.map((p) => p.length)) };
    plans.set(collect, plan);
  }
  return plan;
}

/**
 * Per-depth tables, shared by every scan: a scan is synchronous and never nested, and every slot a
 * scan reads it has written first, so reusing them saves an allocation per NDJSON line.
 */
interface Tables {
  readonly kinds: Uint8Array;
  readonly counts: Int32Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly hashes: Int32Array;
  readonly escapes: Uint8Array;
}
let shared: Tables | null = null;
function tables(depths: number): Tables {
  if (!shared || shared.kinds.length < depths) {
    shared = {
      kinds: new Uint8Array(depths),
      counts: new Int32Array(depths),
      starts: new Int32Array(depths * SMALL),
      ends: new Int32Array(depths * SMALL),
      hashes: new Int32Array(depths * SMALL),
      escapes: new Uint8Array(depths * SMALL),
    };
  }
  return shared;
}

export class Scanner {
  private i: number;
  private depth = 0;
  /** Per depth: 1 for an object, 2 for an array. */
  private readonly kinds: Uint8Array;
  /**
   * Per depth, the members of the open object so far: for the first SMALL, the raw key's start,
   * end and hash (no string is made unless two hashes meet); past that, a Set of decoded keys.
   */
  private readonly counts: Int32Array;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly hashes: Int32Array;
  private readonly escapes: Uint8Array;
  private readonly sets: (Set<string> | null)[] = [];
  /** Per depth: the path of the open container, or null when nobody asked for anything below it. */
  private readonly paths: (string[] | null)[] = [];
  private readonly collecting: (number[] | null)[] = [];
  /** The offsets found, by path key (a wanted path that holds no array is absent). */
  private readonly wanted: Map<string, number[]> = new Map();
  private readonly wantedKeys: ReadonlySet<string>;
  private readonly maxPath: number;
  private readonly maxKeys: number;
  /** The last key read, decoded: only kept while path bookkeeping needs it. */
  private lastKey = '';
  /** Set by string(): whether the last string had an escape, and its hash over raw code units. */
  private escaped = false;
  private hash = 0;

  /** Index of the next backslash at or after the scan position (-1: none); trusted mode only. */
  private nextBackslash = -2;
  /** Index of the next `\\u` at or after the scan position (-1: none); trusted mode only. */
  private nextUnicode = -2;

  /**
   * @param trusted JSON.parse accepted exactly this text and it is well-formed UTF-16: grammar,
   * control characters and raw surrogates need no checking, and strings can be skipped with indexOf.
   */
  constructor(
    private readonly text: string,
    start: number,
    private readonly end: number,
    private readonly options: ScanOptions,
    private readonly trusted: boolean,
  ) {
    this.i = start;
    const lookup = tables(options.maxDepth + 2);
    this.kinds = lookup.kinds;
    this.counts = lookup.counts;
    this.starts = lookup.starts;
    this.ends = lookup.ends;
    this.hashes = lookup.hashes;
    this.escapes = lookup.escapes;
    const plan = collectPlan(options.collect ?? NO_PATHS);
    this.wantedKeys = plan.keys;
    this.maxPath = plan.maxPath;
    this.maxKeys = options.maxKeys ?? Number.MAX_SAFE_INTEGER;
  }

  /** With `firstOnly`, the scan stops after the first value and its end offset is here. */
  valueEnd = -1;

  run(firstOnly = false): Map<string, number[]> {
    const { text: s, end } = this;
    if (this.i < end && s.charCodeAt(this.i) === 0xfeff) throw new ScanError(this.i, 'byte-order mark (U+FEFF) is not allowed');
    this.ws();
    if (this.i >= end) throw new ScanError(this.i, 'empty input: expected a JSON value');
    this.value();
    for (;;) {
      if (this.depth === 0) {
        this.valueEnd = this.i;
        if (firstOnly) return this.wanted;
        this.ws();
        if (this.i < end) throw new ScanError(this.i, `unexpected ${this.what()} after the JSON value`);
        return this.wanted;
      }
      this.ws();
      const c = this.i < end ? s.charCodeAt(this.i) : -1;
      const inObject = this.kinds[this.depth] === 1;
      if (c === C.COMMA) {
        this.i++;
        if (inObject) this.key();
        else this.element();
      } else if (c === (inObject ? C.RBRACE : C.RBRACKET)) {
        this.i++;
        this.depth--;
      } else {
        throw new ScanError(this.i, `expected ',' or '${inObject ? '}' : ']'}' but found ${this.what()}`);
      }
    }
  }

  private what(): string {
    if (this.i >= this.end) return 'the end of the input (truncated?)';
    const ch = this.text.codePointAt(this.i) ?? 0;
    return ch < 0x20 || ch === 0x7f
      ? `control character U+${ch.toString(16).padStart(4, '0').toUpperCase()}`
      : `'${String.fromCodePoint(ch)}'`;
  }

  private ws(): void {
    const { text: s, end } = this;
    let i = this.i;
    while (i < end) {
      const c = s.charCodeAt(i);
      if (c === C.SPACE || c === C.LF || c === C.CR || c === C.TAB) i++;
      else break;
    }
    this.i = i;
  }

  /** An array element starts here (after '[' or ','). */
  private element(): void {
    this.ws();
    const col = this.collecting[this.depth];
    if (col) col.push(this.i);
    this.value();
  }

  /** A value starts here. Containers are closed by run(); recursion through open() is bounded by maxDepth. */
  private value(): void {
    this.ws();
    const { text: s, end } = this;
    const i = this.i;
    if (i >= end) throw new ScanError(i, 'unexpected end of input: expected a value (truncated?)');
    const c = s.charCodeAt(i);
    if (c === C.QUOTE) this.skipString();
    else if (c === C.LBRACE) this.open(1);
    else if (c === C.LBRACKET) this.open(2);
    else if (c === C.MINUS || (c >= C.ZERO && c <= C.NINE)) this.number();
    else if (c === 116 /* t */ && i + 4 <= end && s.startsWith('true', i)) this.i = i + 4;
    else if (c === 102 /* f */ && i + 5 <= end && s.startsWith('false', i)) this.i = i + 5;
    else if (c === 110 /* n */ && i + 4 <= end && s.startsWith('null', i)) this.i = i + 4;
    else throw new ScanError(i, `unexpected ${this.what()}: expected a value`);
  }

  private open(kind: 1 | 2): void {
    const parentDepth = this.depth;
    if (parentDepth >= this.options.maxDepth) {
      throw new ScanError(this.i, `nesting deeper than ${this.options.maxDepth} levels`);
    }
    const d = ++this.depth;
    this.kinds[d] = kind;
    this.i++;
    // Path bookkeeping only as deep as some requested path goes.
    if (d - 1 <= this.maxPath) {
      let path: string[] | null = null;
      if (d === 1) path = [];
      else {
        const parent = this.paths[d - 1];
        if (parent && this.kinds[d - 1] === 1) path = [...parent, this.lastKey];
      }
      this.paths[d] = path;
      this.collecting[d] = kind === 2 && path ? this.collected(pathKey(path)) : null;
    } else {
      this.paths[d] = null;
      this.collecting[d] = null;
    }
    this.ws();
    const close = kind === 1 ? C.RBRACE : C.RBRACKET;
    if (this.i < this.end && this.text.charCodeAt(this.i) === close) {
      this.i++;
      this.depth--;
      return;
    }
    if (kind === 1) {
      this.counts[d] = 0;
      this.key();
    } else {
      this.element();
    }
  }

  /** Where the element offsets of the array at this path go, when it is wanted. */
  private collected(key: string): number[] | null {
    if (!this.wantedKeys.has(key)) return null;
    let offsets = this.wanted.get(key);
    if (!offsets) this.wanted.set(key, (offsets = []));
    return offsets;
  }

  private sameRaw(a: number, b: number, a2: number, b2: number): boolean {
    if (b - a !== b2 - a2) return false;
    const { text: s } = this;
    for (let k = 0; k < b - a; k++) if (s.charCodeAt(a + k) !== s.charCodeAt(a2 + k)) return false;
    return true;
  }

  /** The decoded text of a key whose raw string (quotes excluded) is s[a, b). */
  private decoded(a: number, b: number): string {
    const raw = this.text.slice(a - 1, b + 1);
    return raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  }

  /** An object member starts here: key, colon, then its value. */
  private key(): void {
    this.ws();
    const { text: s } = this;
    if (this.i >= this.end || s.charCodeAt(this.i) !== C.QUOTE) {
      throw new ScanError(this.i, `expected a string key but found ${this.what()}`);
    }
    const at = this.i;
    this.string();
    const a = at + 1;
    const b = this.i - 1;
    const d = this.depth;
    const n = this.counts[d] ?? 0;
    // Escaped keys are compared decoded: {"a":1,"\u0061":2} is a duplicate. Hash the decoded text then.
    let key: string | null = null;
    let h = this.hash;
    if (this.escaped) {
      key = this.decoded(a, b);
      h = keyHash(key, 0, key.length);
    }
    if (n < SMALL) {
      const base = d * SMALL;
      for (let k = 0; k < n; k++) {
        if (this.hashes[base + k] !== h) continue;
        const a2 = this.starts[base + k] ?? 0;
        const b2 = this.ends[base + k] ?? 0;
        // Unescaped keys are compared in place; an escaped one on either side is decoded.
        const same =
          key === null && this.escapes[base + k] === 0 ? this.sameRaw(a, b, a2, b2) : this.decoded(a2, b2) === (key ??= this.decoded(a, b));
        if (same) throw new ScanError(at, `duplicate key ${describe(key ?? this.decoded(a, b))}`);
      }
      this.starts[base + n] = a;
      this.ends[base + n] = b;
      this.hashes[base + n] = h;
      this.escapes[base + n] = this.escaped ? 1 : 0;
    } else {
      let set = this.sets[d];
      if (n === SMALL || !set) {
        // Switch to a set: decode the first SMALL keys once.
        if (set) set.clear();
        else this.sets[d] = set = new Set();
        const base = d * SMALL;
        for (let k = 0; k < SMALL; k++) set.add(this.decoded(this.starts[base + k] ?? 0, this.ends[base + k] ?? 0));
      }
      key ??= this.decoded(a, b);
      if (set.has(key)) throw new ScanError(at, `duplicate key ${describe(key)}`);
      set.add(key);
    }
    if (n + 1 > this.maxKeys) throw new ScanError(at, `object has more than ${this.maxKeys} members`);
    this.counts[d] = n + 1;
    if (d <= this.maxPath) this.lastKey = key ?? this.decoded(a, b);
    this.ws();
    if (this.i >= this.end || s.charCodeAt(this.i) !== C.COLON) {
      throw new ScanError(this.i, `expected ':' after key ${describe(key ?? this.decoded(a, b))} but found ${this.what()}`);
    }
    this.i++;
    this.value();
  }

  /** Trusted mode: the closing quote of the string at `start` if no backslash comes before it, else -1. */
  private quickEnd(start: number): number {
    const q = this.text.indexOf('"', start + 1);
    if (this.nextBackslash !== -1 && this.nextBackslash < start) this.nextBackslash = this.text.indexOf('\\', start);
    return this.nextBackslash === -1 || this.nextBackslash > q ? q : -1;
  }

  /**
   * Trusted mode: the closing quote of a string at `start` that holds escapes, found from quote to
   * quote (a quote preceded by an odd run of backslashes is escaped), or -1 when the string may hold
   * a `\u` escape: those are left to the exact loop, which refuses lone surrogates (JSON.parse
   * accepts them). A JSON text inside a string (a server log's decision) is skipped in a few hops
   * instead of character by character.
   */
  private escapedEnd(start: number): number {
    const { text: s } = this;
    let q = s.indexOf('"', start + 1);
    for (;;) {
      if (q === -1) return -1;
      let k = q - 1;
      while (s.charCodeAt(k) === C.BACKSLASH) k--;
      if ((q - 1 - k) % 2 === 0) break;
      q = s.indexOf('"', q + 1);
    }
    if (this.nextUnicode !== -1 && this.nextUnicode < start) this.nextUnicode = s.indexOf('\\u', start);
    return this.nextUnicode !== -1 && this.nextUnicode < q ? -1 : q;
  }

  /** A string starts at the quote; moves past it and says whether it held an escape. */
  private skipString(): boolean {
    const { text: s, end } = this;
    const start = this.i;
    if (this.trusted) {
      const q = this.quickEnd(start);
      if (q !== -1) {
        this.i = q + 1;
        return false;
      }
      const e = this.escapedEnd(start);
      if (e !== -1) {
        this.i = e + 1;
        return true;
      }
    }
    let i = start + 1;
    let escaped = false;
    for (;;) {
      if (i >= end) throw new ScanError(start, 'unterminated string (truncated?)');
      const c = s.charCodeAt(i);
      if (c === C.QUOTE) break;
      if (c >= 0x20 && c !== C.BACKSLASH && (c & 0xf800) !== 0xd800) {
        i++;
        continue;
      }
      if (c === C.BACKSLASH) {
        escaped = true;
        i = this.escape(i);
      } else if (c < 0x20)
        throw new ScanError(i, `control character U+${c.toString(16).padStart(4, '0').toUpperCase()} must be escaped inside a string`);
      else {
        const n = i + 1 < end ? s.charCodeAt(i + 1) : 0;
        if (c > 0xdbff || n < 0xdc00 || n > 0xdfff) throw new ScanError(i, 'lone UTF-16 surrogate in a string');
        i += 2;
      }
    }
    this.i = i + 1;
    return escaped;
  }

  /** A key string starts at the quote; leaves `escaped` and the `hash` of the raw key for key(). */
  private string(): void {
    const start = this.i;
    this.escaped = this.skipString();
    this.hash = this.escaped ? 0 : keyHash(this.text, start + 1, this.i - 1);
  }

  /** The escape at `i` (the backslash); returns the index after it. Lone surrogates are refused here. */
  private escape(i: number): number {
    const { text: s, end } = this;
    if (i + 1 >= end) throw new ScanError(i, 'unterminated escape (truncated?)');
    const e = s.charCodeAt(i + 1);
    if (e !== 117 /* u */) {
      if (e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) return i + 2;
      throw new ScanError(i, `invalid escape '\\${String.fromCharCode(e)}'`);
    }
    const u = this.hex4(i + 2);
    if (u >= 0xdc00 && u <= 0xdfff)
      throw new ScanError(i, `lone UTF-16 surrogate \\u${u.toString(16)} (a low surrogate without a high one)`);
    if (u >= 0xd800 && u <= 0xdbff) {
      if (i + 12 > end || s.charCodeAt(i + 6) !== C.BACKSLASH || s.charCodeAt(i + 7) !== 117) {
        throw new ScanError(i, `lone UTF-16 surrogate \\u${u.toString(16)} (a high surrogate not followed by a low one)`);
      }
      const low = this.hex4(i + 8);
      if (low < 0xdc00 || low > 0xdfff)
        throw new ScanError(i, `lone UTF-16 surrogate \\u${u.toString(16)} (a high surrogate not followed by a low one)`);
      return i + 12;
    }
    return i + 6;
  }

  private hex4(at: number): number {
    if (at + 4 > this.end) throw new ScanError(at - 2, 'truncated \\u escape');
    let v = 0;
    for (let k = 0; k < 4; k++) {
      const c = this.text.charCodeAt(at + k);
      const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
      if (d < 0) throw new ScanError(at - 2, 'invalid \\u escape: expected four hex digits');
      v = v * 16 + d;
    }
    return v;
  }

  private number(): void {
    const { text: s, end } = this;
    const start = this.i;
    let i = start;
    if (s.charCodeAt(i) === C.MINUS) i++;
    const digits = (): number => {
      const from = i;
      while (i < end) {
        const c = s.charCodeAt(i);
        if (c < C.ZERO || c > C.NINE) break;
        i++;
      }
      return i - from;
    };
    if (i < end && s.charCodeAt(i) === C.ZERO) {
      i++;
      if (i < end && s.charCodeAt(i) >= C.ZERO && s.charCodeAt(i) <= C.NINE)
        throw new ScanError(start, 'numbers must not have leading zeros');
    } else if (digits() === 0) {
      throw new ScanError(start, 'invalid number: expected a digit');
    }
    let exp = false;
    if (i < end && s.charCodeAt(i) === C.DOT) {
      i++;
      if (digits() === 0) throw new ScanError(i, 'invalid number: expected a digit after the decimal point');
    }
    const e = i < end ? s.charCodeAt(i) : 0;
    if (e === C.LOWER_E || e === C.UPPER_E) {
      exp = true;
      i++;
      const sign = i < end ? s.charCodeAt(i) : 0;
      if (sign === C.PLUS || sign === C.MINUS) i++;
      if (digits() === 0) throw new ScanError(i, 'invalid number: expected a digit in the exponent');
    }
    this.i = i;
    if ((exp || i - start > 308) && !Number.isFinite(Number(s.slice(start, i)))) {
      throw new ScanError(start, `number ${s.slice(start, Math.min(i, start + 40))} is out of range (not a finite double)`);
    }
  }
}
