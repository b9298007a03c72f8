/**
 * The JSON report (schemas/report.schema.json), one call, record or finding per line: readable,
 * grep-able, half the size of fully indented JSON, and written in chunks (never one giant string)
 * with its digest computed on the way, so a release can attach both.
 */

import { createHash, type Hash } from 'node:crypto';
import { readSync } from 'node:fs';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Weave, Weaves } from '../core/incremental.js';
import type { CallJson, CallReport, Report } from '../core/report.js';
import { makeDirs, outputPlace, removeDirs, tempBeside } from './output.js';

const CHUNK = 1 << 20;

/** A call's JSON form: its members in schema order, without what only the reporters read. */
const callJson = (c: CallReport): CallJson => ({
  artifact: c.artifact,
  index: c.index,
  line: c.line,
  column: c.column,
  member: c.member,
  tool: c.tool,
  asserted: c.asserted,
  claimed_level: c.claimed_level,
  level: c.level,
  required_level: c.required_level,
  subject_digest: c.subject_digest,
  record: c.record,
  reason: c.reason,
  rule: c.rule,
  mode: c.mode,
  excepted: c.excepted,
  grandfathered: c.grandfathered,
  time: c.time,
  coverage: c.coverage,
});

/**
 * What the file is written from: pieces of text small enough to stay in V8's ordinary heap pages
 * (a string past ~128 KiB gets fresh pages of its own, faulted in and given back each time: on this
 * project's VM a page fault costs ~10 µs, and 1 MiB strings with a new Buffer each cost the report
 * ~25 000 faults at N = 100 000, BENCHMARKS.md), encoded into a few buffers of BUFFER bytes that are
 * written in turn and reused.
 */
const PIECE = 1 << 15;
const BUFFER = 1 << 20;

/**
 * JSON text with `##[` written `\u0023#[` inside its strings (the same value): the runner reads that
 * form as a command anywhere in a line, and the report goes to a `run:` step's output with `--format
 * json`. `##[` occurs only inside strings in JSON.
 */
const inertJson = (text: string): string => (text.includes('##[') ? text.replaceAll('##[', '\\u0023#[') : text);

/**
 * The lists a kept verification's report holds beside a merged one's own (core/incremental.ts;
 * gate/snapshot.ts): each its element count and bytes as this writer wrote them, by file. `weaves`:
 * where the report's own elements go among them (a merge's `Weaves`); without, all after them.
 * `close`: they are not read again (a snapshot's file is let go).
 */
export interface KeptLists {
  readonly runs: KeptList;
  readonly calls: KeptList;
  readonly records: KeptList;
  readonly weaves?: Weaves;
  readonly close: () => void;
}

/**
 * Bytes of an open file, `length` of them from `from`: a snapshot's kept lists (gate/snapshot.ts),
 * copied through the writer's own buffers, never held whole (80 MB read into one buffer of its own
 * cost 300 ms of page faults at N = 100 000, chunks of a reused one 20 ms).
 */
export class FileSpan {
  constructor(
    readonly fd: number,
    readonly from: number,
    readonly length: number,
  ) {}

  /** Bytes of the span from `offset` into `into` at `at`, at most `n`; throws when the file ends first. */
  readInto(into: Buffer, at: number, offset: number, n: number): number {
    const got = readSync(this.fd, into, at, Math.min(n, this.length - offset), this.from + offset);
    if (got <= 0) throw new Error(`a kept list's file ended ${this.length - offset} byte(s) before its end (cut short?)`);
    return got;
  }

  /** Exactly `n` bytes of the span from `offset` into the start of `into` (a reused buffer); throws when the file ends first. */
  fill(into: Buffer, offset: number, n: number): Buffer {
    for (let got = 0; got < n; ) got += this.readInto(into, got, offset + got, n - got);
    return into.subarray(0, n);
  }

  /** The span's bytes in one buffer (the kept calls' index and details, small reports, tests). */
  bytes(): Buffer {
    return this.fill(Buffer.allocUnsafe(this.length), 0, this.length);
  }
}

/** A piece's bytes, in one buffer. */
export const pieceBytes = (piece: string | Buffer | FileSpan): Buffer =>
  typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece instanceof FileSpan ? piece.bytes() : piece;

/** A list's elements' JSON texts joined by the writer's separator (`,` and a new line), by file: as text in pieces (`listPieces`), or as bytes read back. */
export interface KeptList {
  readonly count: number;
  /** In the list's order; every file's pieces but the first's start with the separator. */
  readonly files: readonly KeptListFile[];
}

/** One file's elements of a kept list: the file (core/incremental.ts `Layout`), how many, their pieces. */
export interface KeptListFile {
  readonly file: string;
  readonly count: number;
  readonly pieces: readonly (string | Buffer | FileSpan)[];
}

/** A kept list's pieces, every file's in turn. */
export const keptPieces = (list: KeptList): (string | Buffer | FileSpan)[] => list.files.flatMap((f) => f.pieces);

/** The report's lists in the writer's order, each with the form its elements are written in. */
const listsOf = (report: Report): readonly (readonly [string, readonly unknown[], (x: never) => unknown])[] => [
  ['runs', report.runs, (x) => x],
  ['calls', report.calls, callJson],
  ['records', report.records, (x) => x],
  ['coverage', report.coverage, (x) => x],
  ['coverage_gaps', report.coverage_gaps, (x) => x],
  ['findings', report.findings, (x) => x],
];

/** Between two elements of a list. */
const SEPARATOR = ',\n    ';

/**
 * A list's elements as this writer writes them: each one's JSON text, the separator before every one
 * but the first (before the first too when `after`: it follows kept elements), made inert, in pieces
 * of about `size` UTF-16 code units that end after an element (so `##[` is never split between two).
 */
function* elementPieces(items: readonly unknown[], form: (x: never) => unknown, size: number, after: boolean): Generator<string> {
  // Pieces are collected in an array and joined (a flat string encodes faster than a long concatenation).
  let parts: string[] = [];
  let length = 0;
  for (let i = 0; i < items.length; i++) {
    const text = `${i === 0 && !after ? '' : SEPARATOR}${JSON.stringify(form(items[i] as never))}`;
    parts.push(text);
    length += text.length;
    if (length >= size) {
      yield inertJson(parts.join(''));
      parts = [];
      length = 0;
    }
  }
  if (parts.length > 0) yield inertJson(parts.join(''));
}

/** `piece` after `pieces`: one span with the last when it is the bytes right after it in the same file (a snapshot's files' spans, read in one go). */
function joined(pieces: (string | Buffer | FileSpan)[], piece: string | Buffer | FileSpan): void {
  const last = pieces[pieces.length - 1];
  if (last instanceof FileSpan && piece instanceof FileSpan && last.fd === piece.fd && last.from + last.length === piece.from)
    pieces[pieces.length - 1] = new FileSpan(last.fd, last.from, last.length + piece.length);
  else pieces.push(piece);
}

/** A kept file's first piece without the separator it starts with (a file after the first, written first: those before it dropped). */
function unseparated(piece: string | Buffer | FileSpan): string | Buffer | FileSpan {
  const n = SEPARATOR.length;
  if (piece instanceof FileSpan) return new FileSpan(piece.fd, piece.from + n, piece.length - n);
  if (typeof piece === 'string' && piece.startsWith(SEPARATOR)) return piece.slice(n);
  if (Buffer.isBuffer(piece) && piece.subarray(0, n).toString('latin1') === SEPARATOR) return piece.subarray(n);
  throw new RangeError('a kept file after the first does not start with the separator');
}

/** How many kept elements a weave writes (those of `dropped` stretches left out). */
const keptIn = (weave: Weave): number => weave.reduce((n, [side, k]) => (side === 'kept' ? n + k : n), 0);

/**
 * A kept list's files and the report's own elements of it, woven in the merge's order (`weave`: stretches
 * of each; by default all kept then all own; a `dropped` stretch's files are left out): a kept stretch
 * ends where a file's elements do, the first kept file's pieces lack the separator the others start
 * with (it is added when anything came before, taken off another written first), and the own elements
 * take it when anything came before them.
 */
function* woven(
  kept: KeptList,
  items: readonly unknown[],
  form: (x: never) => unknown,
  size: number,
  weave: Weave,
): Generator<string | Buffer | FileSpan> {
  let file = 0;
  let own = 0;
  let written = false;
  for (const [side, n] of weave) {
    if (n === 0) continue;
    if (side === 'added') {
      yield* elementPieces(items.slice(own, own + n), form, size, written);
      own += n;
      written = true;
      continue;
    }
    const pieces: (string | Buffer | FileSpan)[] = [];
    for (let left = n; left > 0; file++) {
      const f = kept.files[file];
      if (!f || f.count > left) throw new RangeError(`a stretch of ${n} kept element(s) does not end where a kept file's do`);
      left -= f.count;
      if (side === 'dropped') continue;
      f.pieces.forEach((piece, i) => {
        if (i === 0 && pieces.length === 0 && file === 0 && written) pieces.push(SEPARATOR);
        joined(pieces, i === 0 && pieces.length === 0 && file > 0 && !written ? unseparated(piece) : piece);
      });
    }
    yield* pieces;
    if (side === 'kept') written = true;
  }
  if (own !== items.length || file !== kept.files.length)
    throw new RangeError(`the weave left ${items.length - own} element(s) and ${kept.files.length - file} kept file(s) out`);
}

/**
 * The report's text in pieces of about `size` UTF-16 code units. With `kept`, each of its lists is
 * written with the kept bytes, woven with the report's own elements of that list (a merged
 * verification: the report's totals and findings count both).
 */
function* jsonChunks(report: Report, size: number = CHUNK, kept: KeptLists | null = null): Generator<string | Buffer | FileSpan> {
  let text = `{\n  "schema": ${JSON.stringify(report.schema)},\n  "ok": ${report.ok},\n  "verified_at": ${JSON.stringify(report.verified_at)},\n  "totals": ${JSON.stringify(report.totals)},\n  "policy": ${JSON.stringify(report.policy)}`;
  for (const [name, items, form] of listsOf(report)) {
    const before = kept && (name === 'runs' || name === 'calls' || name === 'records') ? kept[name] : null;
    const weave: Weave | null =
      before === null
        ? null
        : (kept?.weaves?.[name as 'runs'] ?? [
            ['kept', before.count],
            ['added', items.length],
          ]);
    const open = (weave !== null && keptIn(weave) > 0) || items.length > 0;
    yield inertJson(`${text},\n  "${name}": [${open ? '\n    ' : ''}`);
    // Already inert: written by this writer (`listPieces`).
    if (before !== null && weave !== null) yield* woven(before, items, form, size, weave);
    else yield* elementPieces(items, form, size, false);
    text = open ? '\n  ]' : ']';
  }
  if (report.policy_change) text += `,\n  "policy_change": ${JSON.stringify(report.policy_change)}`;
  yield inertJson(`${text}\n}\n`);
}

/**
 * A list's elements from `from` to `to` as this writer writes them (inert, joined by its separator,
 * the first after one unless it is the list's first), in pieces of about PIECE code units: what a
 * snapshot keeps of a report, file by file (gate/snapshot.ts), so a merged report's bytes are the full one's.
 */
export function listPieces(report: Report, name: 'runs' | 'calls' | 'records', from: number, to: number): Generator<string> {
  const [, items, form] = listsOf(report).find(([n]) => n === name) ?? ['', [], (x: never) => x];
  return elementPieces(items.slice(from, to), form, PIECE, from > 0);
}

/**
 * The report's text in small pieces, in order, each made as it is taken (one pass): what standard
 * output is written from, one piece after another, never one string (for 100 000 calls, 80 MB) and
 * never held whole; no piece leaves V8's ordinary heap pages (see PIECE).
 */
export const jsonPieces = (report: Report): Iterable<string> => textChunks(report, PIECE);

/** The pieces of a report with no kept lists: text only. */
function* textChunks(report: Report, size: number): Generator<string> {
  for (const piece of jsonChunks(report, size)) {
    if (typeof piece !== 'string') throw new RangeError('a report with no kept lists wrote bytes');
    yield piece;
  }
}

/** The report's whole text; with `kept`, a merged report's (tests, and small reports: a large one is written in pieces). */
export const renderJson = (report: Report, kept: KeptLists | null = null): string =>
  [...jsonChunks(report, CHUNK, kept)].map((p) => (typeof p === 'string' ? p : pieceBytes(p).toString('utf8'))).join('');

/** The report's pieces and the sha256 digest of their bytes: a text written beside a verdict, never joined (a report past V8's longest string would throw). */
export function digestedPieces(report: Report): { readonly pieces: readonly string[]; readonly digest: string } {
  const pieces = [...textChunks(report, CHUNK)];
  const hash = createHash('sha256');
  for (const piece of pieces) hash.update(piece, 'utf8');
  return { pieces, digest: `sha256:${hash.digest('hex')}` };
}

/** Buffers being written while the next is filled: the next piece is rendered while the disk takes the last ones. */
const IN_FLIGHT = 4;

/** A UTF-16 code unit is at most 3 bytes in UTF-8 (a surrogate pair, two units, is 4). */
const MAX_BYTES_PER_UNIT = 3;

/** `bytes` at `position`, or (null) where the output stands: a FIFO or the process's own output cannot seek. */
async function writeAt(fh: FileHandle, bytes: Buffer, position: number | null): Promise<void> {
  let off = 0;
  while (off < bytes.length) {
    const n = (await fh.write(bytes, off, bytes.length - off, position === null ? null : position + off)).bytesWritten;
    if (n <= 0) throw new Error(`a write took none of ${bytes.length - off} bytes (is the disk full?)`);
    off += n;
  }
}

/**
 * The report's bytes, written in order through a ring of reused buffers: each filled with whole
 * pieces, hashed, handed to the disk, and filled again only once its write has ended (IN_FLIGHT + 1
 * buffers: at most IN_FLIGHT writes in flight while the next one is filled, one more just after it
 * is sent; in place, one buffer and one write at a time). A piece that may not fit a buffer (one very
 * long line) is written from its own bytes, after the bytes before it. A failed write rejects, after
 * every write has ended (none is left running on the file handle).
 */
export async function writePieces(
  fh: FileHandle,
  pieces: Iterable<string | Buffer | FileSpan>,
  hash: Hash | null,
  inPlace: boolean,
): Promise<void> {
  // In place, each write ends before the next begins (a FIFO takes them in order); else several at once, each at its offset.
  const ring = Array.from({ length: inPlace ? 1 : IN_FLIGHT + 1 }, () => Buffer.allocUnsafe(BUFFER));
  const busy: (Promise<void> | null)[] = ring.map(() => null);
  const writes: Promise<void>[] = [];
  let k = 0;
  let filled = 0;
  let position = 0;
  const send = (bytes: Buffer): Promise<void> => {
    hash?.update(bytes);
    const w = writeAt(fh, bytes, inPlace ? null : position);
    // Handled here so a failure is never an unhandled rejection while the next piece is rendered; awaited below.
    w.catch(() => {});
    writes.push(w);
    position += bytes.length;
    return w;
  };
  const flush = async (): Promise<void> => {
    if (filled === 0) return;
    busy[k] = send((ring[k] as Buffer).subarray(0, filled));
    k = (k + 1) % ring.length;
    filled = 0;
    // The next buffer is filled only once the disk has taken what it held (a failed write rejects here).
    const pending = busy[k];
    busy[k] = null;
    if (pending) await pending;
  };
  try {
    for (const piece of pieces) {
      // Bytes of a file kept from another report: read into the ring as it is filled, as text is.
      if (piece instanceof FileSpan) {
        for (let off = 0; off < piece.length; ) {
          if (filled === BUFFER) await flush();
          const n = piece.readInto(ring[k] as Buffer, filled, off, BUFFER - filled);
          filled += n;
          off += n;
        }
        continue;
      }
      // Bytes kept from another report (KeptLists): written as they are, after the bytes before them.
      if (typeof piece !== 'string') {
        await flush();
        await send(piece);
        continue;
      }
      if (piece.length * MAX_BYTES_PER_UNIT > BUFFER - filled) await flush();
      if (piece.length * MAX_BYTES_PER_UNIT > BUFFER) {
        await send(Buffer.from(piece, 'utf8'));
        continue;
      }
      filled += (ring[k] as Buffer).write(piece, filled, 'utf8');
    }
    await flush();
    await Promise.all(writes);
  } finally {
    await Promise.allSettled(writes);
  }
}

/**
 * Write the report to `file` in chunks, each at its own offset while the next is rendered, never
 * through a link at `file` (report/output.ts); returns the sha256 digest of exactly the bytes written. A failed write rejects (after every write has
 * ended, so none is left running).
 */
export async function writeJson(report: Report, file: string, kept: KeptLists | null = null): Promise<string> {
  const hash = createHash('sha256');
  await writeJsonHashing(report, file, hash, kept);
  return `sha256:${hash.digest('hex')}`;
}

/** The same, when nothing asks for the digest (the CLI's `--output` without a verdict): 80 MB not hashed for nobody. */
export const writeJsonOnly = (report: Report, file: string, kept: KeptLists | null = null): Promise<void> =>
  writeJsonHashing(report, file, null, kept);

async function writeJsonHashing(report: Report, file: string, hash: Hash | null, kept: KeptLists | null): Promise<void> {
  const made = makeDirs(path.dirname(file));
  // An output written in place (a FIFO, /dev/stdout into a pipe) takes its chunks one after another, in order;
  // any other is written whole beside its place and renamed over it (a write that fails leaves nothing, never a report cut short).
  const inPlace = outputPlace(file) === 'in place';
  const tmp = inPlace ? null : tempBeside(file);
  const fh = await (tmp === null ? open(file, 'w') : open(tmp, 'wx', 0o644));
  try {
    try {
      await writePieces(fh, jsonChunks(report, PIECE, kept), hash, inPlace);
    } finally {
      await fh.close();
    }
    // The rename replaces a link at `file`, never writing through it.
    if (tmp !== null) await rename(tmp, file);
  } catch (error) {
    if (tmp !== null) await rm(tmp, { force: true });
    removeDirs(made);
    throw error;
  }
}
