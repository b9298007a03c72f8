/**
 * The seam both entries call: settings → files → readers → verify → Report.
 * All file I/O of a verification happens here and in read/; the core never touches a file.
 */
import path from 'node:path';
import { verify } from './core/verify.js';
import { inputFinding, type Finding } from './core/findings.js';
import type { Evidence, RunInput } from './core/model.js';
import type { Report } from './core/report.js';
import { discover } from './read/discover.js';
import { readOne } from './read/files.js';
import { EXTENSION_LIST } from './read/formats.js';
import type { Settings } from './settings.js';
import { TrustPool } from './trust/pool.js';

export type { Settings };

/**
 * Read every input file into located evidence, one file at a time: each is read once and dropped
 * as soon as its decisions and records are prepared. (Reading in worker threads was measured and
 * did not pay on two cores: see BENCHMARKS.md.)
 */
export interface Collected extends Evidence {
  /** Every input file read, path (as in the report) → hex sha256, when `inputDigests` was asked. */
  readonly inputs: ReadonlyMap<string, string>;
}

export async function collect(settings: Settings): Promise<Collected> {
  const findings: Finding[] = [];
  const inputs = new Map<string, string>();
  const runs: RunInput[] = [];
  const workspace = path.resolve(settings.workspace);
  const cwd = path.resolve(settings.cwd);
  const keys = settings.trustedKeys;
  // Audit exports first: their signatures are checked on libuv's thread pool while the runs are read.
  const trust = new TrustPool(keys);
  for (const role of ['audit', 'runs'] as const) {
    const d = discover(settings[role], cwd, workspace, settings.explicit?.[role] ?? false, role);
    findings.push(...d.findings);
    if (role === 'runs' && d.files.length === 0) {
      findings.push(
        inputFinding(
          'no_artifacts',
          settings.runs.join(', ') || '(none)',
          `the run-artifact inputs (${settings.runs.join(', ')}) matched no ${EXTENSION_LIST} file: a gate that sees nothing must not pass`,
        ),
      );
    }
    for (const file of d.files) {
      const r = await readOne(file, role, settings.limits, settings.inputDigests ?? false);
      if (r.sha256 !== undefined) inputs.set(file.rel, r.sha256);
      for (const x of r.findings) findings.push(x);
      if (r.run) runs.push(r.run);
      trust.add(r.records);
      await trust.yield();
    }
  }
  return { runs, records: await trust.finish(), findings, trustedSigners: keys ? [...keys.keys()].sort() : [], inputs };
}

export async function runGate(settings: Settings): Promise<Report> {
  return verify(await collect(settings), settings);
}

/** The report and the digest of every input it rests on (for a verdict attestation). */
export async function runGateWithInputs(settings: Settings): Promise<{ readonly report: Report; readonly inputs: ReadonlyMap<string, string> }> {
  const evidence = await collect({ ...settings, inputDigests: true });
  return { report: verify(evidence, settings), inputs: evidence.inputs };
}
