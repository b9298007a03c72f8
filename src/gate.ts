/**
 * The seam both entries call: settings → files → readers → verify → Report.
 * All file I/O of a verification happens here and in read/; the core never touches a file.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { verify, finding } from './core/verify.js';
import type { Evidence, Finding, RecordInput, RunInput, VerifyOptions } from './core/model.js';
import type { Report } from './core/report.js';
import { discover, type FoundFile } from './read/discover.js';
import { DEFAULT_LIMITS, formatOf, readAuditFile, readRunFile, type FileRead, type ReadLimits } from './read/artifacts.js';
import { readBundle } from './read/bundle.js';

export interface Settings extends VerifyOptions {
  /** Run-artifact inputs: paths, directories or globs relative to `cwd`. */
  readonly runs: readonly string[];
  /** Audit-export inputs. */
  readonly audit: readonly string[];
  /** Working directory: inputs and report paths are relative to it. */
  readonly cwd: string;
  /** Nothing outside this directory is read. */
  readonly workspace: string;
  readonly limits: ReadLimits;
}

export const DEFAULT_SETTINGS = {
  runs: ['.assay/runs'],
  audit: ['.assay/audit'],
  allowUnmatchedRecords: false,
  strictObserved: false,
  limits: DEFAULT_LIMITS,
} as const;

export type Role = 'runs' | 'audit';

const failure = (rel: string, message: string): FileRead => ({ run: null, records: [], findings: [finding('error', 'invalid_artifact', { file: rel, line: 1, column: 1 }, message)] });
const isBundle = (rel: string): boolean => /\.tar\.gz$/i.test(rel);

/** One artifact's bytes (already in memory) → what it contributes. Used by fuzzing and by readOne. */
export async function readArtifact(rel: string, role: Role, bytes: Uint8Array, limits: ReadLimits): Promise<FileRead> {
  if (isBundle(rel)) return role === 'audit' ? failure(rel, BUNDLE_IN_AUDIT) : readBundle({ bytes }, rel);
  const format = formatOf(rel);
  if (!format) return failure(rel, UNSUPPORTED);
  return role === 'runs' ? readRunFile(rel, bytes, format, limits) : readAuditFile(rel, bytes, format, limits);
}

const BUNDLE_IN_AUDIT = 'evidence bundles are run artifacts; an audit export must be .json, .jsonl or .ndjson';
const UNSUPPORTED = 'unsupported file type: expected .json, .jsonl, .ndjson or .tar.gz';

async function readOne(file: FoundFile, role: Role, limits: ReadLimits): Promise<FileRead> {
  const fail = (message: string): FileRead => failure(file.rel, message);
  if (isBundle(file.rel)) {
    // Streamed from disk: a bundle is never held whole beyond its events.
    return role === 'audit' ? fail(BUNDLE_IN_AUDIT) : readBundle({ path: file.path }, file.rel);
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

/** Read every input file into located evidence. Files are read one at a time; none is held after it is read. */
export async function collect(settings: Settings): Promise<Evidence> {
  const findings: Finding[] = [];
  const runs: RunInput[] = [];
  const records: RecordInput[] = [];
  const workspace = path.resolve(settings.workspace);
  const cwd = path.resolve(settings.cwd);
  for (const role of ['runs', 'audit'] as const) {
    const d = discover(settings[role], cwd, workspace);
    findings.push(...d.findings);
    if (role === 'runs' && d.files.length === 0) {
      findings.push({
        ...finding('error', 'no_artifacts', { file: settings.runs.join(', ') || '(none)', line: 1, column: 1 },
          `the run-artifact inputs (${settings.runs.join(', ')}) matched no .json, .jsonl, .ndjson or .tar.gz file: a gate that sees nothing must not pass`),
        input: true,
      });
    }
    for (const f of d.files) {
      const r = await readOne(f, role, settings.limits);
      for (const x of r.findings) findings.push(x);
      if (r.run) runs.push(r.run);
      for (const x of r.records) records.push(x);
    }
  }
  return { runs, records, findings };
}

export async function runGate(settings: Settings): Promise<Report> {
  return verify(await collect(settings), settings);
}
