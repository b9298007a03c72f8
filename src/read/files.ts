/**
 * One artifact file → what it contributes (a run, records, findings), by its name and role. The
 * file is read once and nothing of it is kept but the prepared decisions and records.
 */
import { readFileSync, statSync } from 'node:fs';
import { finding } from '../core/findings.js';
import { readAuditFile, readRunFile, type FileRead } from './artifacts.js';
import type { ReadLimits } from './limits.js';
import { EXTENSION_LIST, formatOf } from './formats.js';
import { bundleLimits, readBundle } from './bundle.js';
import type { FoundFile } from './discover.js';

export type Role = 'runs' | 'audit';

const failure = (rel: string, message: string): FileRead => ({
  run: null,
  records: [],
  findings: [finding('invalid_artifact', { file: rel, line: 1, column: 1 }, message)],
});
const isBundle = (rel: string): boolean => formatOf(rel) === 'bundle';

/** One artifact's bytes (already in memory) → what it contributes. Used by fuzzing and by readOne. */
export async function readArtifact(rel: string, role: Role, bytes: Uint8Array, limits: ReadLimits): Promise<FileRead> {
  if (isBundle(rel)) return role === 'audit' ? failure(rel, BUNDLE_IN_AUDIT) : readBundle({ bytes }, rel, bundleLimits(limits));
  const format = formatOf(rel);
  if (!format || format === 'bundle') return failure(rel, UNSUPPORTED);
  return role === 'runs' ? readRunFile(rel, bytes, format, limits) : readAuditFile(rel, bytes, format, limits);
}

const BUNDLE_IN_AUDIT = 'evidence bundles are run artifacts; an audit export must be .json, .jsonl or .ndjson';
const UNSUPPORTED = `unsupported file type: expected ${EXTENSION_LIST}`;

export async function readOne(file: FoundFile, role: Role, limits: ReadLimits): Promise<FileRead> {
  const fail = (message: string): FileRead => failure(file.rel, message);
  if (isBundle(file.rel)) {
    // Streamed from disk: a bundle is never held whole beyond its events.
    return role === 'audit' ? fail(BUNDLE_IN_AUDIT) : readBundle({ path: file.path }, file.rel, bundleLimits(limits));
  }
  if (!formatOf(file.rel)) return fail(UNSUPPORTED);
  let bytes: Buffer;
  try {
    const size = statSync(file.path).size;
    if (size > limits.maxFileBytes) return fail(`file is ${size} bytes, over the ${limits.maxFileBytes}-byte limit (max-file-size)`);
    bytes = readFileSync(file.path);
  } catch (e) {
    return fail(`cannot read file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return readArtifact(file.rel, role, bytes, limits);
}
