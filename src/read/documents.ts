/**
 * The one document pipeline: bytes → decoded text → strict-JSON documents, each with the offset it
 * starts at and the element offsets its reader asked for. Every input kind reads through here: run
 * artifacts and audit exports (`json`: the whole file; `ndjson`: one document per non-blank line),
 * bundle events, and the importers' exports (`values`: one or more JSON values one after another,
 * so one value, `[…][…]` pages and JSON lines are all read as written), attestations and trusted
 * roots (`oneOrLines`: one value, pretty-printed or not, or one compact value per line). Limits are
 * in bytes everywhere; problems go to the sink at their offset, never as exceptions. A large
 * plain-ASCII run or export (a Source) is never made one large string when it reads as its whole
 * text would: its .json document in pieces, its NDJSON lines a block at a time
 * (BENCHMARKS.md, "Issue 44, seventeenth stop: where the page faults go").
 */
import { isAscii } from 'node:buffer';
import { type Finding, finding } from '../core/findings.js';
import { isObject } from '../core/json.js';
import type { Location } from '../core/location.js';
import { zlib } from './builtins.js';
import { parsePieces } from './json/pieces.js';
import { LineIndex } from './json/positions.js';
import { firstValueEnd, isJsonSpace, pathKey, type ScanOptions } from './json/scanner.js';
import { parseStrict } from './json/strict.js';
import { fileTooLarge, lineTooLong, type ReadLimits } from './limits.js';
import { blank, lines, overBytes } from './lines.js';
import { byteLocation, decodeUtf8 } from './utf8.js';

export type DocumentMode = 'json' | 'ndjson' | 'values' | 'oneOrLines';

/** One JSON document: its value, where it starts, and the element offsets of the paths collected. */
export interface Doc {
  readonly value: unknown;
  readonly start: number;
  readonly elements: ReadonlyMap<string, readonly number[]>;
}

/** Where problems go: an offset into the decoded text (or a line and column when there is no text). */
export type Where = { readonly offset: number } | { readonly line: number; readonly column: number };

export interface DocSink {
  error(at: Where, message: string): void;
}

/**
 * The one locating sink: problems at offsets of one file become `invalid_artifact` findings at its
 * line and column (once the file's line index is known: before that, 1:1). Readers with more to
 * say (caps, skips) extend it.
 */
export class LocatingSink implements DocSink {
  readonly findings: Finding[] = [];
  lines: LineIndex | null = null;

  constructor(readonly file: string) {}

  at(offset: number): Location {
    const { line, column } = this.lines ? this.lines.locate(offset) : { line: 1, column: 1 };
    return { file: this.file, line, column };
  }

  locate(where: Where | Location): Location {
    return 'offset' in where ? this.at(where.offset) : { file: this.file, line: where.line, column: where.column };
  }

  error(where: Where | Location, message: string): void {
    this.report(this.locate(where), message);
  }

  /** Where a located problem goes: here, the findings. */
  protected report(loc: Location, message: string): void {
    this.findings.push(finding('invalid_artifact', loc, message));
  }
}

/** Decoded text and its line index, or nothing (the problem went to the sink). */
export interface Decoded {
  readonly text: string;
  readonly lines: LineIndex;
}

/** What a file that is not UTF-8 is when it is UTF-16 (a byte-order mark, or NUL bytes between ASCII), so the message can say so. */
function utf16(bytes: Uint8Array): string | null {
  const le = bytes[0] === 0xff && bytes[1] === 0xfe;
  const be = bytes[0] === 0xfe && bytes[1] === 0xff;
  const nulls =
    bytes.length >= 4 && ((bytes[1] === 0 && bytes[3] === 0 && bytes[0] !== 0) || (bytes[0] === 0 && bytes[2] === 0 && bytes[1] !== 0));
  if (!le && !be && !nulls) return null;
  const order = le || (!be && bytes[1] === 0) ? 'little-endian' : 'big-endian';
  return `the file is UTF-16 (${order}${le || be ? ', with a byte-order mark' : ''}), not UTF-8: save it as UTF-8 without a byte-order mark`;
}

const isGzip = (b: Uint8Array): boolean => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;

/**
 * Bytes → text, within max-file-size, strict UTF-8. With `gzip`, a gzip stream (streaming exports)
 * is decompressed first, to at most max-file-size (a bomb stops there).
 */
export function decode(bytes: Uint8Array, limits: ReadLimits, sink: DocSink, options: { readonly gzip?: boolean } = {}): Decoded | null {
  let raw = bytes;
  if (options.gzip && isGzip(bytes)) {
    try {
      raw = zlib().gunzipSync(bytes, { maxOutputLength: limits.maxFileBytes });
    } catch (error) {
      const tooLarge = (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
      sink.error(
        { line: 1, column: 1 },
        tooLarge ? `decompresses to more than ${limits.maxFileBytes} bytes (max-file-size; a gzip bomb?)` : 'is not a valid gzip stream',
      );
      return null;
    }
  }
  if (raw.length > limits.maxFileBytes) {
    sink.error({ line: 1, column: 1 }, fileTooLarge(raw.length, limits));
    return null;
  }
  const decoded = decodeUtf8(raw);
  if (!decoded.ok) {
    sink.error(byteLocation(raw, decoded.reason), utf16(raw) ?? `invalid UTF-8 at byte ${decoded.reason}`);
    return null;
  }
  return { text: decoded.value, lines: new LineIndex(decoded.value) };
}

/** Files this large, in bytes, and plain ASCII, are read from their bytes where they can be (read/json/pieces.ts). */
const PIECES_FROM = 128 * 1024;

/**
 * A file as the artifact readers take it: its line index, its text (decoded when first asked), and,
 * when it is large and plain ASCII, its bytes, from which a .json document is read in pieces, never
 * as one large string (read/json/pieces.ts). The bytes may be a reading thread's buffer: they, and
 * so `text()` and the line index, serve only during the synchronous read that decoded them.
 */
export interface Source {
  readonly lines: LineIndex;
  text(): string;
  readonly ascii: Buffer | null;
}

/** Bytes → a Source (decode's limits and problems; a large plain-ASCII file is left as its bytes). */
export function decodeSource(bytes: Uint8Array, limits: ReadLimits, sink: DocSink): Source | null {
  if (bytes.length >= PIECES_FROM && bytes.length <= limits.maxFileBytes && isAscii(bytes)) {
    const ascii = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let text: string | null = null;
    // Plain ASCII is valid UTF-8 that decodes to the same code units.
    return { lines: new LineIndex(ascii), ascii, text: () => (text ??= ascii.toString('latin1')) };
  }
  const decoded = decode(bytes, limits, sink);
  return decoded && { lines: decoded.lines, ascii: null, text: () => decoded.text };
}

export interface DocumentOptions {
  readonly limits: ReadLimits;
  /** Key paths whose array element offsets each document reports (see read/json/scanner.ts). */
  readonly collect: readonly (readonly string[])[];
}

/**
 * The documents of a decoded text, one at a time (a generator: parsed lines are never all held at
 * once). A Source's .json document is read in pieces when it can be, else from its whole text.
 */
export function* documents(input: string | Source, mode: DocumentMode, options: DocumentOptions, sink: DocSink): Generator<Doc> {
  const { limits } = options;
  const opts = { maxDepth: limits.maxDepth, maxKeys: limits.maxKeys, collect: options.collect };
  if (typeof input !== 'string') {
    const { ascii } = input;
    const pieces = mode === 'json' && ascii ? parsePieces(ascii, opts) : null;
    if (pieces?.ok) yield { value: pieces.value.json, start: 0, elements: pieces.value.elements };
    else if (mode === 'ndjson' && ascii)
      for (const [from, to] of blocks(ascii)) yield* jsonLines(ascii.toString('latin1', from, to), from, opts, limits, sink);
    else yield* documents(input.text(), mode, options, sink);
    return;
  }
  const text = input;
  if (mode === 'json') {
    const parsed = parseStrict(text, opts);
    if (parsed.ok) yield { value: parsed.value.json, start: 0, elements: parsed.value.elements };
    else sink.error({ offset: parsed.reason.offset }, parsed.reason.message);
    return;
  }
  if (byteOrderMark(text, sink)) return;
  if (mode === 'ndjson') {
    yield* jsonLines(text, 0, opts, limits, sink);
    return;
  }
  if (mode === 'values') {
    for (const span of values(text, opts, limits, sink)) yield span.doc;
    return;
  }
  yield* oneOrLines(text, opts, limits, sink);
}

/** NDJSON lines read a block at a time: whole lines, about this many bytes (a longer line is a block of its own). */
const BLOCK = 64 * 1024;

/** The blocks of whole lines of an ASCII file, as [from, to) byte ranges: each ends after a newline, or at the end. */
function* blocks(b: Buffer): Generator<readonly [number, number]> {
  for (let from = 0; from < b.length; ) {
    let to = b.length;
    if (from + BLOCK < b.length) {
      const last = b.lastIndexOf(0x0a, from + BLOCK - 1);
      const next = last >= from ? last : b.indexOf(0x0a, from + BLOCK);
      if (next >= 0) to = next + 1;
    }
    yield [from, to];
    from = to;
  }
}

/** The documents of NDJSON text (the whole file's, or a block of its lines starting at `base` in the file), at the file's offsets. */
function* jsonLines(text: string, base: number, opts: ScanOptions, limits: ReadLimits, sink: DocSink): Generator<Doc> {
  for (const { start, end } of lines(text)) {
    if (overBytes(text, start, end, limits.maxLineBytes)) {
      sink.error({ offset: start + base }, lineTooLong(limits));
    } else if (!blank(text, start, end)) {
      // Anything but spaces and tabs is a document: a BOM, U+00A0 or U+2028 alone is an error, not a blank line.
      const parsed = parseStrict(text, opts, start, end, base);
      if (parsed.ok) yield { value: parsed.value.json, start: start + base, elements: parsed.value.elements };
      else sink.error({ offset: parsed.reason.offset }, parsed.reason.message);
    }
  }
}

/**
 * One value (pretty-printed or not), or one compact value per line: never two pretty-printed values
 * one after another, never two values on one line (what `gh attestation` and `actions/attest` write,
 * and nothing a reader could take two ways).
 */
function* oneOrLines(text: string, opts: Parameters<typeof parseStrict>[1], limits: ReadLimits, sink: DocSink): Generator<Doc> {
  const spans = [...values(text, opts, limits, sink)];
  if (spans.length <= 1) {
    for (const span of spans) yield span.doc;
    return;
  }
  let lastEnd = 0;
  for (const { doc, end } of spans) {
    const sameLine = lastEnd > 0 && !text.slice(lastEnd, doc.start).includes('\n');
    lastEnd = end;
    if (text.slice(doc.start, end).includes('\n'))
      sink.error(
        { offset: doc.start },
        'a file of several values must hold one compact value per line (a pretty-printed value must be alone in its file)',
      );
    else if (sameLine) sink.error({ offset: doc.start }, 'two values on one line: one compact value per line');
    else yield doc;
  }
}

/** Whether the text begins with a byte-order mark, refused at 1:1 (never read as part of the first line). */
function byteOrderMark(text: string, sink: DocSink): boolean {
  if (text.charCodeAt(0) !== 0xfeff) return false;
  sink.error({ offset: 0 }, 'byte-order mark (U+FEFF) is not allowed: save the file as UTF-8 without a byte-order mark');
  return true;
}

/**
 * A line of a captured server log: a JSON document (it starts with `{`, or is a JSON-RPC message after
 * spaces or tabs), a JSON-RPC batch, or text to be looked at.
 */
export type LogLine =
  | { readonly kind: 'json'; readonly doc: Doc }
  | { readonly kind: 'batch'; readonly elements: readonly BatchElement[] }
  | { readonly kind: 'text'; readonly start: number; readonly end: number };

/** One element of a JSON-RPC batch line: its own document (starting at its offset) and where it ends. */
interface BatchElement {
  readonly doc: Doc;
  readonly end: number;
}

/** A JSON-RPC message by its own member: an object with a string `jsonrpc`. */
const isRpc = (value: unknown): boolean => isObject(value) && typeof value['jsonrpc'] === 'string';

/**
 * A line that starts with `[` (after any spaces or tabs: `start` is the `[`) as a JSON-RPC batch
 * (JSON-RPC 2.0 batching, MCP 2025-03-26: stdout's answers mixed in): strict JSON, an array with at
 * least one JSON-RPC message, each element its own document; null when it is none (text, as before:
 * `[2026-05-14 INFO] …`, an array of other values); 'error' when it names `jsonrpc` after `[{` but is
 * not strict JSON (a truncated batch, said at its offset). A red team: a batched tools/call passed as
 * a text line, undecided.
 */
function rpcBatch(text: string, opts: ScanOptions, start: number, end: number, sink: DocSink): readonly BatchElement[] | 'error' | null {
  const parsed = parseStrict(text, { ...opts, collect: [[]] }, start, end);
  if (!parsed.ok) {
    const line = text.slice(start, end);
    if (!/^\[\s*\{/.test(line) || !line.includes('"jsonrpc"')) return null;
    sink.error(
      { offset: parsed.reason.offset },
      `a line that starts with "[{" and names "jsonrpc" is not strict JSON (a truncated JSON-RPC batch?): ${parsed.reason.message}`,
    );
    return 'error';
  }
  const value = parsed.value.json;
  if (!Array.isArray(value) || !value.some(isRpc)) return null;
  const offsets = parsed.value.elements.get(pathKey([])) ?? [];
  const elements: BatchElement[] = [];
  for (const at of offsets) {
    // Each element is read again on its own, as a line holding it alone would be (its paths' offsets collected).
    const stop = firstValueEnd(text, opts, at, end);
    const doc = stop.ok ? parseStrict(text, opts, at, stop.value) : null;
    if (!stop.ok || !doc?.ok) {
      // Never so (the whole line is strict JSON), but said, never dropped.
      sink.error({ offset: at }, 'an element of a JSON-RPC batch line could not be read on its own');
      return 'error';
    }
    elements.push({ doc: { value: doc.value.json, start: at, elements: doc.value.elements }, end: stop.value });
  }
  return elements;
}

/**
 * The lines of a server log (`.log`, docs/assay-server-logs.md): a line whose first character is `{`
 * must be one strict JSON document (a truncated last line is an error, never a skip); a line whose
 * first character other than a space or a tab is `[` and that is a JSON-RPC batch is its elements,
 * and one whose first such character is `{` and that is one strict JSON-RPC message is that message
 * (a red team: indented, a batched or single tools/call passed as a text line, undecided); any other
 * non-blank line is text for the reader to judge; blank lines are nothing.
 */
export function* logLines(text: string, options: DocumentOptions, sink: DocSink): Generator<LogLine> {
  // A log saved with a BOM (PowerShell, an editor) read its first line as text, then "no server_start line": say what it is.
  if (byteOrderMark(text, sink)) return;
  const { limits } = options;
  const opts = { maxDepth: limits.maxDepth, maxKeys: limits.maxKeys, collect: options.collect };
  for (const { start, end } of lines(text)) {
    if (overBytes(text, start, end, limits.maxLineBytes)) {
      sink.error({ offset: start }, lineTooLong(limits));
      continue;
    }
    if (blank(text, start, end)) continue;
    // JSON-RPC is looked for past leading spaces and tabs (its offsets, and so its columns, count them);
    // a tracing line keeps the first-character rule (indented, it is text: one that mentions tool_decision an error).
    let lead = start;
    for (let c = text.charCodeAt(lead); c === 0x20 || c === 0x09; c = text.charCodeAt(++lead));
    const first = text.charCodeAt(lead);
    if (first === 0x5b) {
      const batch = rpcBatch(text, opts, lead, end, sink);
      if (batch !== null) {
        if (batch !== 'error') yield { kind: 'batch', elements: batch };
        continue;
      }
    }
    if (first === 0x7b && lead > start) {
      const parsed = parseStrict(text, opts, lead, end);
      if (parsed.ok && isRpc(parsed.value.json))
        yield { kind: 'json', doc: { value: parsed.value.json, start: lead, elements: parsed.value.elements } };
      // Not strict JSON but naming "jsonrpc": a truncated message, said as a truncated batch is (never a text line).
      else if (!parsed.ok && text.slice(lead, end).includes('"jsonrpc"'))
        sink.error(
          { offset: parsed.reason.offset },
          `a line that starts with "{" after spaces or tabs and names "jsonrpc" is not strict JSON (a truncated JSON-RPC message?): ${parsed.reason.message}`,
        );
      else yield { kind: 'text', start, end };
      continue;
    }
    if (first !== 0x7b) {
      yield { kind: 'text', start, end };
      continue;
    }
    const parsed = parseStrict(text, opts, start, end);
    if (parsed.ok) yield { kind: 'json', doc: { value: parsed.value.json, start, elements: parsed.value.elements } };
    else
      sink.error(
        { offset: parsed.reason.offset },
        `a line that starts with "{" is not strict JSON (a truncated line?): ${parsed.reason.message}`,
      );
  }
}

/** Zero or more JSON values, whitespace between them (an empty export is no entries), each with where it ends; after a syntax error, reading resumes at the next line. */
function* values(
  text: string,
  opts: ScanOptions,
  limits: ReadLimits,
  sink: DocSink,
): Generator<{ readonly doc: Doc; readonly end: number }> {
  let at = 0;
  for (;;) {
    while (at < text.length && isJsonSpace(text.charCodeAt(at))) at++;
    if (at >= text.length) break;
    const end = firstValueEnd(text, opts, at);
    if (!end.ok) {
      sink.error({ offset: end.reason.offset }, end.reason.message);
      const next = text.indexOf('\n', Math.max(end.reason.offset, at + 1));
      if (next < 0) break;
      at = next + 1;
      continue;
    }
    // A value on one line is held to the line limit, as a JSON line would be.
    if (
      end.value - at > limits.maxLineBytes / 3 &&
      text.lastIndexOf('\n', end.value - 1) < at &&
      overBytes(text, at, end.value, limits.maxLineBytes)
    ) {
      sink.error({ offset: at }, lineTooLong(limits));
    } else {
      const parsed = parseStrict(text, opts, at, end.value);
      if (parsed.ok) yield { doc: { value: parsed.value.json, start: at, elements: parsed.value.elements }, end: end.value };
      else sink.error({ offset: parsed.reason.offset }, parsed.reason.message);
    }
    at = end.value;
  }
}
