/**
 * The seam both entries call: settings → files → readers → verify → Report.
 * All file I/O of a verification happens here and in read/; the core never touches a file.
 */
import path from 'node:path';
import { verify, finding } from './core/verify.js';
import type { Evidence, Finding, RecordInput, RunInput, VerifyOptions } from './core/model.js';
import type { Report } from './core/report.js';
import { discover } from './read/discover.js';
import { readOne, type Role } from './read/files.js';
import { DEFAULT_LIMITS, type ReadLimits } from './read/artifacts.js';

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

export type { Role };
export { readArtifact } from './read/files.js';

/**
 * Read every input file into located evidence, one file at a time: each is read once and dropped
 * as soon as its decisions and records are prepared. (Reading in worker threads was measured and
 * did not pay on two cores: see BENCHMARKS.md.)
 */
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
    for (const file of d.files) {
      const r = await readOne(file, role, settings.limits);
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
