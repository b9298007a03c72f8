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
import { readBundleFile } from './read/bundle.js';

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

type Role = 'runs' | 'audit';

async function readOne(file: FoundFile, role: Role, limits: ReadLimits): Promise<FileRead> {
  const where = { file: file.rel, line: 1, column: 1 };
  const fail = (message: string): FileRead => ({ run: null, records: [], findings: [finding('error', 'invalid_artifact', where, message)] });
  if (/\.tar\.gz$/i.test(file.rel)) {
    if (role === 'audit') return fail('evidence bundles are run artifacts; an audit export must be .json, .jsonl or .ndjson');
    return readBundleFile(file.path, file.rel);
  }
  const format = formatOf(file.rel);
  if (!format) return fail('unsupported file type: expected .json, .jsonl, .ndjson or .tar.gz');
  let bytes: Buffer;
  try {
    const size = statSync(file.path).size;
    if (size > limits.maxFileBytes) return fail(`file is ${size} bytes, over the ${limits.maxFileBytes}-byte limit (max-file-size)`);
    bytes = readFileSync(file.path);
  } catch (e) {
    return fail(`cannot read file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return role === 'runs' ? readRunFile(file.rel, bytes, format, limits) : readAuditFile(file.rel, bytes, format, limits);
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
      findings.push(finding('error', 'no_artifacts', { file: settings.runs.join(', ') || '(none)', line: 1, column: 1 },
        `the run-artifact inputs (${settings.runs.join(', ')}) matched no .json, .jsonl, .ndjson or .tar.gz file: a gate that sees nothing must not pass`));
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
