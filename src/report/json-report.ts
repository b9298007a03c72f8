/**
 * The JSON report (schemas/report.schema.json), one call, record or finding per line: readable,
 * grep-able, half the size of fully indented JSON, and written in chunks (never one giant string)
 * with its digest computed on the way, so a release can attach both.
 */

import { createHash, type Hash } from 'node:crypto';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
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
 * JSON text with `##[` written `\u0023#[` inside its strings (the same value): the runner reads that
 * form as a command anywhere in a line, and the report goes to a `run:` step's output with `--format
 * json`. `##[` occurs only inside strings in JSON.
 */
const inertJson = (text: string): string => (text.includes('##[') ? text.replaceAll('##[', '\\u0023#[') : text);

/** The report's text in pieces of about 1 MiB. */
function* jsonChunks(report: Report): Generator<string> {
  // Pieces are collected in an array and joined (a flat string encodes faster than a long concatenation).
  let parts: string[] = [
    `{\n  "schema": ${JSON.stringify(report.schema)},\n  "ok": ${report.ok},\n  "verified_at": ${JSON.stringify(report.verified_at)},\n  "totals": ${JSON.stringify(report.totals)},\n  "policy": ${JSON.stringify(report.policy)}`,
  ];
  let size = 0;
  const lists: readonly (readonly [string, readonly unknown[], (x: never) => unknown])[] = [
    ['runs', report.runs, (x) => x],
    ['calls', report.calls, callJson],
    ['records', report.records, (x) => x],
    ['coverage', report.coverage, (x) => x],
    ['coverage_gaps', report.coverage_gaps, (x) => x],
    ['findings', report.findings, (x) => x],
  ];
  for (const [name, items, form] of lists) {
    parts.push(`,\n  "${name}": [`);
    for (let i = 0; i < items.length; i++) {
      const line = `${i === 0 ? '' : ','}\n    ${JSON.stringify(form(items[i] as never))}`;
      parts.push(line);
      size += line.length;
      if (size >= CHUNK) {
        yield inertJson(parts.join(''));
        parts = [];
        size = 0;
      }
    }
    parts.push(items.length > 0 ? '\n  ]' : ']');
  }
  if (report.policy_change) parts.push(`,\n  "policy_change": ${JSON.stringify(report.policy_change)}`);
  parts.push('\n}\n');
  yield inertJson(parts.join(''));
}

/** The report's text in its pieces, in order: written one after another, never made one string (for 100 000 calls, 80 MB copied once more and encoded at once). */
export const jsonPieces = (report: Report): readonly string[] => [...jsonChunks(report)];

export const renderJson = (report: Report): string => jsonPieces(report).join('');

/** The report's pieces and the sha256 digest of their bytes: a text written beside a verdict, never joined (a report past V8's longest string would throw). */
export function digestedPieces(report: Report): { readonly pieces: readonly string[]; readonly digest: string } {
  const pieces = jsonPieces(report);
  const hash = createHash('sha256');
  for (const piece of pieces) hash.update(piece, 'utf8');
  return { pieces, digest: `sha256:${hash.digest('hex')}` };
}

/** Chunks being written at once: the next is rendered while the disk takes the last ones. */
const IN_FLIGHT = 4;

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
 * Write the report to `file` in chunks, each at its own offset while the next is rendered, never
 * through a link at `file` (report/output.ts); returns the sha256 digest of exactly the bytes written. A failed write rejects (after every write has
 * ended, so none is left running).
 */
export async function writeJson(report: Report, file: string): Promise<string> {
  const hash = createHash('sha256');
  await writeJsonHashing(report, file, hash);
  return `sha256:${hash.digest('hex')}`;
}

/** The same, when nothing asks for the digest (the CLI's `--output` without a verdict): 80 MB not hashed for nobody. */
export const writeJsonOnly = (report: Report, file: string): Promise<void> => writeJsonHashing(report, file, null);

async function writeJsonHashing(report: Report, file: string, hash: Hash | null): Promise<void> {
  const made = makeDirs(path.dirname(file));
  // An output written in place (a FIFO, /dev/stdout into a pipe) takes its chunks one after another, in order;
  // any other is written whole beside its place and renamed over it (a write that fails leaves nothing, never a report cut short).
  const inPlace = outputPlace(file) === 'in place';
  const tmp = inPlace ? null : tempBeside(file);
  const fh = await (tmp === null ? open(file, 'w') : open(tmp, 'wx', 0o644));
  const writes: Promise<void>[] = [];
  try {
    try {
      let position = 0;
      for (const chunk of jsonChunks(report)) {
        const bytes = Buffer.from(chunk, 'utf8');
        hash?.update(bytes);
        const w = inPlace ? writeAt(fh, bytes, null) : writeAt(fh, bytes, position);
        // Handled here so a failure is never an unhandled rejection while the next chunk is rendered; awaited below.
        w.catch(() => {});
        writes.push(w);
        position += bytes.length;
        if (writes.length >= (inPlace ? 1 : IN_FLIGHT)) await writes.shift();
      }
      await Promise.all(writes);
    } finally {
      await Promise.allSettled(writes);
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
