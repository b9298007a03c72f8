/**
 * A kept verification's calls as a snapshot holds them (gate/snapshot.ts): per (class, verb), every
 * call with a subject in call order, so that a record of added files that binds no call finds its
 * nearest call among the kept ones without their files being decoded (core/nearest.ts, the rule;
 * core/incremental.ts, the merge). One block per kind, its index first:
 * - a row per call: each bound field's text (`fieldText`) as a 64-bit hash, two int32 little-endian;
 * - where each call's details end (int32 little-endian, from the details' start);
 * - each call's details' CRC-32 (int32 little-endian);
 * - then the details: per call `[artifact, index, line, order, target]` as ASCII JSON.
 *
 * A query compares hashes only (a scan of the rows, then, past a few look-ups of one kind, maps of each
 * combination of fields' hashes to the first call holding it), then checks the call it found against
 * its details: equal texts have equal hashes and keys, so a count of equal hashes is never below the
 * true count, and when the first call with the most equal hashes is as near as its hashes say, it is
 * the true nearest (every earlier call has fewer equal hashes, so fewer equal fields). When it is not (two texts that share a hash), every
 * call's details of the kind are read and the nearest found by the rule's own scan. A kind's index is
 * read when a query first asks for it, checked against the CRC-32 its header names, and a call's
 * details against the CRC-32 the index names, as the lists are checked (a check against damage): a
 * block refused is a doubt (`EarlierCalls.doubt`), and the merge declines.
 */
import { closeSync } from 'node:fs';
import { endianness } from 'node:os';
import type { CallRef } from '../core/call.js';
import { kind, kindOf } from '../core/incremental.js';
import type { JsonObject } from '../core/json.js';
import {
  type EarlierCalls,
  equalFields,
  fieldText,
  firstNearest,
  type KindCall,
  type NearCall,
  nearness,
  subsets,
} from '../core/nearest.js';
import { boundFields } from '../core/projection.js';
import type { Result } from '../core/result.js';
import { messageOf } from '../core/text.js';
import { FileSpan } from '../report/json-report.js';
import { openInCache } from './cache.js';

/** A kind's block as the snapshot's header measures it: class, verb, calls, bytes, CRC-32. */
export type KindMeasure = readonly [string, string, number, number, number];

/** Two 32-bit lanes of a field's text (null, absent: 0 and 0); equal texts, equal lanes. */
function lanes(text: string | null, out: Int32Array, at: number): void {
  if (text === null) {
    out[at] = 0;
    out[at + 1] = 0;
    return;
  }
  let a = 0x811c9dc5 ^ text.length;
  let b = 0x1b873593;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 13;
  }
  out[at] = a;
  out[at + 1] = b ^ (b >>> 15);
}

/** A target's hashes under `fields`, two lanes a field. */
function hashes(fields: readonly string[], target: JsonObject, out: Int32Array, row: number): void {
  const k = fields.length;
  for (let f = 0; f < k; f++) lanes(fieldText(target, fields[f] ?? ''), out, (row * k + f) * 2);
}

/**
 * JSON text in ASCII: every code unit past it written as its `\\u` escape (the same value). A
 * snapshot's header (snapshot.ts) and its calls' details are read back one byte a character (latin1),
 * which is a copy, where decoding UTF-8 cost ~80 ms for 12 MB.
 */
export const asciiJson = (value: unknown): string =>
  JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const PAST_ASCII = /[\u0080-\uffff]/;

/** Int32 values as little-endian bytes: their own memory on a little-endian machine, else written one by one. */
function littleEndian(values: Int32Array): Buffer {
  if (endianness() === 'LE') return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  const out = Buffer.allocUnsafe(values.length * 4);
  for (let i = 0; i < values.length; i++) out.writeInt32LE(values[i] ?? 0, 4 * i);
  return out;
}

/** A call's details as a block holds them (read back by `callOf`). */
const detailsOf = (c: KindCall): unknown[] => [c.call.artifact, c.call.index, c.call.line, c.call.order, c.target];

/**
 * The blocks of a part's calls (`Couplings.calls`), each as its pieces with what the header says of
 * it; kinds whose class binds no field are left out (they have no nearest call).
 */
export function keptCallBlocks(
  calls: ReadonlyMap<string, readonly KindCall[]>,
  check: Check,
): { readonly pieces: readonly Buffer[]; readonly measure: KindMeasure }[] {
  const out: { readonly pieces: readonly Buffer[]; readonly measure: KindMeasure }[] = [];
  for (const [key, list] of [...calls].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const [actionClass, verb] = kindOf(key);
    const fields = boundFields(actionClass);
    if (!fields || list.length === 0) continue;
    const rows = new Int32Array(list.length * fields.length * 2);
    let details: string[] = [];
    let past = false;
    for (let i = 0; i < list.length; i++) {
      const c = list[i] as KindCall;
      hashes(fields, c.target, rows, i);
      const d = JSON.stringify(detailsOf(c));
      past ||= PAST_ASCII.test(d);
      details.push(d);
    }
    // Text past ASCII (rare: targets are mostly names and hashes) escaped, row by row.
    if (past) details = list.map((c) => asciiJson(detailsOf(c)));
    // Written row by row into the block's bytes, never joined into one string first (a kind's 6–10 MB
    // string cost ~70 ms of a kept snapshot at N = 100 000, in the profile).
    const text = Buffer.allocUnsafe(details.reduce((n, d) => n + d.length, 0));
    const ends = new Int32Array(list.length);
    const crcs = new Int32Array(list.length);
    for (let i = 0, end = 0; i < details.length; i++) {
      const start = end;
      ends[i] = end += text.write(details[i] ?? '', start, 'latin1');
      crcs[i] = check(text.subarray(start, end)) | 0;
    }
    const index = [littleEndian(rows), littleEndian(ends), littleEndian(crcs)];
    const crc = index.reduce((c, p) => check(p, c), 0);
    const pieces = [...index, text];
    const length = pieces.reduce((n, p) => n + p.length, 0);
    out.push({ pieces, measure: [actionClass, verb, list.length, length, crc] });
  }
  return out;
}

/** A block's check: the snapshot's for its lists (snapshot.ts `listCheck`), given by it, continued piece by piece from `from`. */
type Check = (bytes: Uint8Array, from?: number) => number;

/** Bytes of `file` from `from`, `length` of them (opened again: whatever is there is then checked), or why not. */
function readSpan(file: string, from: number, length: number): Result<Buffer, string> {
  const opened = openInCache(file);
  if (opened === null) return { ok: false, reason: 'the snapshot was removed' };
  if (!opened.ok) return opened;
  try {
    return { ok: true, value: new FileSpan(opened.value, from, length).bytes() };
  } catch (error) {
    return { ok: false, reason: `it cannot be read (${messageOf(error)})` };
  } finally {
    closeSync(opened.value);
  }
}

/**
 * Look-ups of one kind made by a scan of its rows (~1 ms for 30 000 calls) before its levels are
 * built (a map per combination of fields, ~6 per call): an export of thousands of records that bind
 * no call would otherwise scan the kind once each (a merge quadratic in the history).
 */
const SCANS = 4;

/** A level: per combination of bound fields, the key of their hashes → the first call holding them. */
type Level = readonly { readonly fields: readonly number[]; readonly first: Map<number, number> }[];

/**
 * The hashes of some fields as one number (53 bits of a mix of their lanes): fields of equal hashes
 * always have equal keys; unequal ones rarely do, and a call found through a shared key is then not
 * as near as its level says, which the look-up checks (`nearest`).
 */
function comboKey(lanes: Int32Array, base: number, fields: readonly number[]): number {
  let a = 0x2545f491;
  let b = 0x6c8e9cf5;
  for (const f of fields) {
    a = Math.imul(a ^ (lanes[base + 2 * f] ?? 0), 0x01000193);
    b = Math.imul(b ^ (lanes[base + 2 * f + 1] ?? 0), 0x5bd1e995);
    b ^= b >>> 13;
  }
  return (a >>> 0) * 2 ** 21 + ((b >>> 0) & 0x1fffff);
}

/** Int32 values from little-endian bytes. */
function int32s(bytes: Buffer, from: number, count: number): Int32Array {
  const out = new Int32Array(count);
  if (endianness() === 'LE') new Uint8Array(out.buffer).set(bytes.subarray(from, from + 4 * count));
  else for (let i = 0; i < count; i++) out[i] = bytes.readInt32LE(from + 4 * i);
  return out;
}

/**
 * A kind's block as read back: its index (the rows' hashes, where each call's details end and their
 * CRC-32s) read whole and checked; each call's details read from the file when asked for, checked
 * against their own CRC-32. A look-up reads the index (~1 MB for 30 000 calls of three fields), not the
 * details (~6 MB): reading a whole block cost a merged run ~87 ms (profile).
 */
class Block {
  constructor(
    private readonly file: string,
    /** Where the details start in the file. */
    private readonly from: number,
    readonly rows: Int32Array,
    private readonly ends: Int32Array,
    private readonly crcs: Int32Array,
    private readonly check: Check,
  ) {}

  get count(): number {
    return this.ends.length;
  }

  /** Look-ups answered so far, and the levels (`level`) built once a kind is asked about more than SCANS times. */
  private asked = 0;
  private readonly levels: (Level | null)[] = [];

  /**
   * The first call with the most bound fields of equal hash to `want` (its hashes, two lanes a field),
   * and how many (all k counting as k - 1, as the rule does): by a scan of the rows for the first
   * SCANS look-ups of a kind, then through its levels.
   */
  first(want: Int32Array): readonly [number, number] {
    const k = want.length / 2;
    if (++this.asked > SCANS) {
      for (let l = 0; l < k - 1; l++) {
        let best = Number.POSITIVE_INFINITY;
        for (const combo of this.level(l, k)) {
          const hit = combo.first.get(comboKey(want, 0, combo.fields));
          if (hit !== undefined && hit < best) best = hit;
        }
        if (best !== Number.POSITIVE_INFINITY) return [best, k - 1 - l];
      }
      return [0, 0];
    }
    const rows = this.rows;
    let best = 0;
    let most = -1;
    for (let r = 0; r < this.count; r++) {
      let equal = 0;
      for (let f = 0, at = r * k * 2; f < k * 2; f += 2) if (rows[at + f] === want[f] && rows[at + f + 1] === want[f + 1]) equal++;
      const near = Math.min(k - 1, equal);
      if (near > most) {
        most = near;
        best = r;
        if (near === k - 1) break;
      }
    }
    return [best, most];
  }

  /** For each of `wants`, the rows whose every bound field's hash is its, in call order: one scan, by the first lane. */
  matching(wants: readonly Int32Array[]): number[][] {
    const rows = this.rows;
    const out = wants.map((): number[] => []);
    const lanes = wants[0]?.length ?? 0;
    const byFirst = new Map<number, number[]>();
    wants.forEach((want, i) => {
      const at = byFirst.get(want[0] ?? 0);
      if (at) at.push(i);
      else byFirst.set(want[0] ?? 0, [i]);
    });
    for (let r = 0; r < this.count; r++) {
      const from = r * lanes;
      const which = byFirst.get(rows[from] ?? 0);
      if (!which) continue;
      for (const i of which) {
        const want = wants[i] as Int32Array;
        let f = 1;
        while (f < lanes && rows[from + f] === want[f]) f++;
        if (f === lanes) out[i]?.push(r);
      }
    }
    return out;
  }

  /** Level `l` (0: the combinations of k - 1 fields, down to single fields): per combination, its key → the first call holding it. */
  private level(l: number, k: number): Level {
    const built = this.levels[l];
    if (built) return built;
    const made = subsets(k, k - 1 - l).map((fields) => ({ fields, first: new Map<number, number>() }));
    for (let r = this.count - 1; r >= 0; r--) for (const combo of made) combo.first.set(comboKey(this.rows, r * k * 2, combo.fields), r);
    this.levels[l] = made;
    return made;
  }

  private start(i: number): number {
    return i === 0 ? 0 : (this.ends[i - 1] ?? 0);
  }

  /** Calls `first` … `last` - 1, their details read in one span, or why one is not what the writer wrote. */
  calls(first: number, last: number): Result<KindCall[], string> {
    const base = this.start(first);
    const span = readSpan(this.file, this.from + base, (this.ends[last - 1] ?? 0) - base);
    if (!span.ok) return span;
    const out: KindCall[] = [];
    for (let i = first; i < last; i++) {
      const bytes = span.value.subarray(this.start(i) - base, (this.ends[i] ?? 0) - base);
      if (this.check(bytes) !== (this.crcs[i] ?? 0) >>> 0)
        return { ok: false, reason: `the details of its call ${i} are not the bytes its index names (their CRC-32 differs)` };
      const c = callOf(bytes.toString('latin1'));
      if (c === null) return { ok: false, reason: `the details of its call ${i} are not what this gate writes` };
      out.push(c);
    }
    return { ok: true, value: out };
  }
}

/** A call's details as the writer writes them, or null. */
function callOf(text: string): KindCall | null {
  const details = parsed(text);
  if (!Array.isArray(details) || details.length !== 5) return null;
  const [artifact, index, line, order, target] = details as unknown[];
  if (typeof artifact !== 'string' || !counts(index) || !counts(line) || !counts(order)) return null;
  if (typeof target !== 'object' || target === null || Array.isArray(target)) return null;
  const call: CallRef = { artifact, index, line, order };
  return { call, target: target as JsonObject };
}

const counts = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A kind's index, read from `file` at `from` and checked against the CRC-32 its header names, with where its details are; or why not. */
function readBlock(file: string, from: number, [, , count, length, crc]: KindMeasure, k: number, check: Check): Result<Block, string> {
  const indexBytes = count * (k * 8 + 8);
  if (length < indexBytes) return { ok: false, reason: `its block is ${length} bytes, too short for ${count} calls` };
  const read = readSpan(file, from, indexBytes);
  if (!read.ok) return read;
  const index = read.value;
  if (check(index) !== crc) return { ok: false, reason: 'its index is not the bytes its header names (their CRC-32 differs)' };
  const rows = int32s(index, 0, count * k * 2);
  const ends = int32s(index, count * k * 8, count);
  for (let i = 0, last = 0; i < count; last = ends[i++] ?? 0)
    if ((ends[i] ?? 0) < last) return { ok: false, reason: 'its calls’ details do not follow each other' };
  if ((ends[count - 1] ?? 0) !== length - indexBytes) return { ok: false, reason: 'its calls’ details are not the bytes its index says' };
  return { ok: true, value: new Block(file, from + indexBytes, rows, ends, int32s(index, count * k * 8 + 4 * count, count), check) };
}

/**
 * A snapshot's kept calls (`EarlierCalls`): each kind's block read from `file` at its offset when a
 * query first asks for it, checked against its CRC-32. A kind not kept has no call.
 */
export class KeptCalls implements EarlierCalls {
  private readonly blocks = new Map<string, Block | null>();
  private readonly at = new Map<string, { readonly from: number; readonly measure: KindMeasure }>();
  private refused: string | null = null;

  constructor(
    private readonly file: string,
    from: number,
    measures: readonly KindMeasure[],
    private readonly check: Check,
  ) {
    for (const m of measures) {
      this.at.set(kind(m[0], m[1]), { from, measure: m });
      from += m[3];
    }
  }

  /** Every block's bytes: what follows the digest sections up to the lists. */
  static length(measures: readonly KindMeasure[]): number {
    return measures.reduce((n, m) => n + m[3], 0);
  }

  doubt(): string | null {
    return this.refused;
  }

  nearest(actionClass: string, verb: string, target: JsonObject): NearCall | null {
    const fields = boundFields(actionClass);
    const block = fields ? this.block(kind(actionClass, verb), fields.length) : null;
    if (!fields || !block) return null;
    const k = fields.length;
    const want = new Int32Array(k * 2);
    hashes(fields, target, want, 0);
    const [best, most] = block.first(want);
    const found = block.calls(best, best + 1);
    if (!found.ok) return this.doubted(`the kept calls of ${actionClass} ${verb}: ${found.reason}`);
    const [call] = found.value;
    const exact = call ? nearness(fields, call.target, target) : -1;
    if (call && exact === most) return { call: call.call, target: call.target, nearness: exact };
    // Two texts share a hash: the rule's own scan over every call of the kind.
    const all = block.calls(0, block.count);
    if (!all.ok) return this.doubted(`the kept calls of ${actionClass} ${verb}: ${all.reason}`);
    return firstNearest(fields, all.value, target);
  }

  holding(actionClass: string, verb: string, targets: readonly JsonObject[]): (readonly KindCall[])[] | null {
    const fields = boundFields(actionClass);
    if (!fields) return targets.map(() => []);
    const key = kind(actionClass, verb);
    const block = this.block(key, fields.length);
    if (!block) return this.at.has(key) ? null : targets.map(() => []);
    const wants = targets.map((target) => {
      const want = new Int32Array(fields.length * 2);
      hashes(fields, target, want, 0);
      return want;
    });
    // Equal texts have equal hashes: every call whose hashes all match, its details read in one span and checked.
    const rows = block.matching(wants);
    let first = block.count;
    let last = -1;
    for (const matched of rows)
      for (const r of matched) {
        if (r < first) first = r;
        if (r > last) last = r;
      }
    if (last < 0) return targets.map(() => []);
    const read = block.calls(first, last + 1);
    if (!read.ok) return this.doubted(`the kept calls of ${actionClass} ${verb}: ${read.reason}`);
    return rows.map((matched, i) =>
      matched.flatMap((r) => {
        const c = read.value[r - first];
        return c && equalFields(fields, c.target, targets[i] ?? {}) === fields.length ? [c] : [];
      }),
    );
  }

  private doubted(reason: string): null {
    this.refused ??= reason;
    return null;
  }

  /** Kind `key`'s block, read and checked when first asked for; null: none kept, or refused (a doubt). */
  private block(key: string, k: number): Block | null {
    const known = this.blocks.get(key);
    if (known !== undefined) return known;
    const place = this.at.get(key);
    let block: Block | null = null;
    if (place) {
      const read = readBlock(this.file, place.from, place.measure, k, this.check);
      if (read.ok) block = read.value;
      else this.doubted(`the kept calls of ${place.measure[0]} ${place.measure[1]}: ${read.reason}`);
    }
    this.blocks.set(key, block);
    return block;
  }
}
