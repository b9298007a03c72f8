/**
 * A kept verification's calls as a snapshot holds them (gate/snapshot.ts): per (class, verb), every
 * call with a subject in call order, so that a record of added files that binds no call finds its
 * nearest call among the kept ones without their files being decoded (core/nearest.ts, the rule;
 * core/incremental.ts, the merge). One block per kind:
 * - a row per call: each bound field's text (`fieldText`) as a 64-bit hash, two int32 little-endian;
 * - where each call's details end (int32 little-endian, from the details' start);
 * - the details: per call `[artifact, index, line, order, target]` as ASCII JSON.
 *
 * A query compares hashes only, then checks the call it found against its details: equal texts have
 * equal hashes, so a count of equal hashes is never below the true count, and when the first call
 * with the most equal hashes is as near as its hashes say, it is the true nearest (every earlier call
 * has fewer equal hashes, so fewer equal fields). When it is not (two texts that share a hash), every
 * call's details of the kind are read and the nearest found by the rule's own scan. A block is read
 * when a query first asks for its kind, and checked against the CRC-32 its header names, as the
 * lists are: a block refused then is a doubt (`EarlierCalls.doubt`), and the merge declines.
 */
import { closeSync } from 'node:fs';
import { endianness } from 'node:os';
import type { CallRef } from '../core/call.js';
import { type KindCall, kind } from '../core/incremental.js';
import type { JsonObject } from '../core/json.js';
import { type EarlierCalls, fieldText, firstNearest, type NearCall, nearness } from '../core/nearest.js';
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

/** JSON text in ASCII: every code unit past it as its `\\u` escape (the same value), so the block is read one byte a character. */
const asciiJson = (value: unknown): string =>
  JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const PAST_ASCII = /[\u0080-\uffff]/;

/** Int32 values as little-endian bytes: their own memory on a little-endian machine, else written one by one. */
function littleEndian(values: Int32Array): Buffer {
  if (endianness() === 'LE') return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  const out = Buffer.allocUnsafe(values.length * 4);
  for (let i = 0; i < values.length; i++) out.writeInt32LE(values[i] ?? 0, 4 * i);
  return out;
}

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
    const cut = key.indexOf('\u0000');
    const actionClass = key.slice(0, cut);
    const fields = boundFields(actionClass);
    if (!fields || list.length === 0) continue;
    const rows = new Int32Array(list.length * fields.length * 2);
    let details: string[] = [];
    for (let i = 0; i < list.length; i++) {
      const c = list[i] as KindCall;
      hashes(fields, c.target, rows, i);
      details.push(JSON.stringify([c.call.artifact, c.call.index, c.call.line, c.call.order, c.target]));
    }
    let joined = details.join('');
    // Text past ASCII (rare: targets are mostly names and hashes) escaped, row by row.
    if (PAST_ASCII.test(joined)) {
      details = list.map((c) => asciiJson([c.call.artifact, c.call.index, c.call.line, c.call.order, c.target]));
      joined = details.join('');
    }
    const ends = new Int32Array(list.length);
    let end = 0;
    for (let i = 0; i < details.length; i++) ends[i] = end += (details[i] ?? '').length;
    const pieces = [littleEndian(rows), littleEndian(ends), Buffer.from(joined, 'latin1')];
    const length = pieces.reduce((n, p) => n + p.length, 0);
    const crc = pieces.reduce((c, p) => check(p, c), 0);
    out.push({ pieces, measure: [actionClass, key.slice(cut + 1), list.length, length, crc] });
  }
  return out;
}

/** A block's check: the snapshot's for its lists (snapshot.ts `listCheck`), given by it, continued piece by piece from `from`. */
type Check = (bytes: Uint8Array, from?: number) => number;

/** A kind's block read back: its rows' hashes and each call's details, or why it is refused. */
class Block {
  constructor(
    readonly k: number,
    readonly rows: Int32Array,
    private readonly ends: readonly number[],
    private readonly text: Buffer,
  ) {}

  get count(): number {
    return this.ends.length;
  }

  /** Call `i`'s details, or null when they are not what the writer writes. */
  call(i: number): KindCall | null {
    const details = parsed(this.text.toString('latin1', i === 0 ? 0 : (this.ends[i - 1] ?? 0), this.ends[i] ?? 0));
    if (!Array.isArray(details) || details.length !== 5) return null;
    const [artifact, index, line, order, target] = details as unknown[];
    if (typeof artifact !== 'string' || !counts(index) || !counts(line) || !counts(order)) return null;
    if (typeof target !== 'object' || target === null || Array.isArray(target)) return null;
    const call: CallRef = { artifact, index, line, order };
    return { call, target: target as JsonObject };
  }
}

const counts = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A block's bytes read back into rows and details, or why not. */
function blockOf(bytes: Buffer, count: number, k: number): Result<Block, string> {
  const rowBytes = count * k * 8;
  const textFrom = rowBytes + 4 * count;
  if (bytes.length < textFrom) return { ok: false, reason: `its block is ${bytes.length} bytes, too short for ${count} calls` };
  const rows = new Int32Array(count * k * 2);
  for (let i = 0; i < rows.length; i++) rows[i] = bytes.readInt32LE(4 * i);
  const ends: number[] = [];
  for (let i = 0, last = 0; i < count; i++) {
    const end = bytes.readInt32LE(rowBytes + 4 * i);
    if (end < last) return { ok: false, reason: 'its calls’ details do not follow each other' };
    ends.push((last = end));
  }
  const text = bytes.subarray(textFrom);
  if ((ends[count - 1] ?? 0) !== text.length) return { ok: false, reason: 'its calls’ details are not the bytes its ends say' };
  return { ok: true, value: new Block(k, rows, ends, text) };
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
    const rows = block.rows;
    let best = 0;
    let most = -1;
    for (let r = 0; r < block.count; r++) {
      let equal = 0;
      for (let f = 0, at = r * k * 2; f < k * 2; f += 2) if (rows[at + f] === want[f] && rows[at + f + 1] === want[f + 1]) equal++;
      const near = Math.min(k - 1, equal);
      if (near > most) {
        most = near;
        best = r;
        if (near === k - 1) break;
      }
    }
    const found = block.call(best);
    if (found === null) return this.doubted('a kept call’s details are not what this gate writes');
    const exact = nearness(fields, found.target, target);
    if (exact === most) return { call: found.call, target: found.target, nearness: exact };
    // Two texts share a hash: the rule's own scan over every call of the kind.
    const all: KindCall[] = [];
    for (let r = 0; r < block.count; r++) {
      const c = block.call(r);
      if (c === null) return this.doubted('a kept call’s details are not what this gate writes');
      all.push(c);
    }
    return firstNearest(fields, all, target);
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

/** A block from `file` (opened again: whatever is there is checked against the header's length and CRC-32). */
function readBlock(file: string, from: number, [, , count, length, crc]: KindMeasure, k: number, check: Check): Result<Block, string> {
  const opened = openInCache(file);
  if (opened === null) return { ok: false, reason: 'the snapshot was removed' };
  if (!opened.ok) return opened;
  try {
    const bytes = Buffer.alloc(length);
    const span = new FileSpan(opened.value, from, length);
    for (let off = 0; off < length; ) off += span.readInto(bytes, off, off, length - off);
    if (check(bytes) !== crc) return { ok: false, reason: 'its bytes are not the ones its header names (their CRC-32 differs)' };
    return blockOf(bytes, count, k);
  } catch (error) {
    return { ok: false, reason: `it cannot be read (${messageOf(error)})` };
  } finally {
    closeSync(opened.value);
  }
}
