/**
 * The seam both entries call: settings → files → readers → verify → Report.
 * All file I/O of a verification happens here and in read/; the core never touches a file.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../core/binding.js';
import { type Finding, finding, inputFinding } from '../core/findings.js';
import type { Evidence, RunInput, VerifyOptions } from '../core/model.js';
import type { Report } from '../core/report.js';
import { verify } from '../core/verify.js';
import { discover, type FoundFile } from '../read/discover.js';
import { type Envelope, readEnvelopeFile } from '../read/envelope.js';
import { readBytes, readOne } from '../read/files.js';
import { EXTENSION_LIST, formatOf, sidecarOf } from '../read/formats.js';
import type { ReadLimits } from '../read/limits.js';
import { TrustPool } from '../trust/pool.js';
import { attestation } from '../trust/producer.js';
import type { Settings } from './settings.js';

interface Collected extends Evidence {
  /** Every input file read, path (as in the report) → hex sha256, when digests were asked for. */
  readonly inputs: ReadonlyMap<string, string>;
}

/**
 * Read every input file into located evidence, one file at a time: each is read once and dropped
 * as soon as its decisions and records are prepared. (Reading in worker threads was measured and
 * did not pay on two cores: see BENCHMARKS.md.)
 */
async function collect(settings: Settings, digests: boolean): Promise<Collected> {
  const findings: Finding[] = [];
  const inputs = new Map<string, string>();
  const runs: Promise<RunInput>[] = [];
  const producers = settings.trustedProducers;
  const workspace = path.resolve(settings.workspace);
  const cwd = path.resolve(settings.cwd);
  const keys = settings.trustedKeys;
  // Audit exports first: their signatures are checked on libuv's thread pool while the runs are read.
  const trust = new TrustPool(keys);
  for (const role of ['audit', 'runs'] as const) {
    const d = discover(settings[role], cwd, workspace, settings.explicit[role], role);
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
      const r = await readOne(file, role, settings.limits, digests);
      if (r.sha256 !== undefined) inputs.set(file.rel, r.sha256);
      for (const x of r.findings) findings.push(x);
      if (r.run) {
        const run = r.run;
        const bundle = formatOf(file.rel) === 'bundle';
        // A bundle's sidecar is read beside it (never as a run); its checks run while the rest is read.
        const sidecar = bundle ? readSidecar(file, settings.limits, digests ? inputs : null, findings) : null;
        const evidence = { bundle, facts: r.bundle ?? null, envelopes: sidecar };
        runs.push(
          producers || sidecar
            ? attestation(evidence, producers, settings.limits).then(
                (a): RunInput => ({ artifact: run.artifact, decisions: run.decisions, attestation: a }),
              )
            : Promise.resolve(run),
        );
      }
      trust.add(r.records);
      await trust.yield();
    }
  }
  return {
    runs: await Promise.all(runs),
    records: await trust.finish(),
    findings,
    trustedSigners: keys ? [...keys.keys()].sort() : [],
    trustedProducers: producers ? [...producers.keys()].sort() : [],
    inputs,
  };
}

/**
 * The sidecar `<bundle>.intoto.jsonl` beside a bundle, when there is one (a regular file): its
 * envelopes, or [] when it is malformed (its findings, invalid_artifact, are added). Null: none.
 */
function readSidecar(bundle: FoundFile, limits: ReadLimits, inputs: Map<string, string> | null, findings: Finding[]): Envelope[] | null {
  const file = sidecarOf(bundle.path);
  const rel = sidecarOf(bundle.rel);
  let regular: boolean;
  try {
    regular = lstatSync(file).isFile();
  } catch {
    return null; // no sidecar
  }
  const got = regular ? readBytes(file, limits) : { ok: false as const, reason: 'the attestation sidecar is not a regular file; not read' };
  if (!got.ok) {
    findings.push(finding('invalid_artifact', { file: rel, line: 1, column: 1 }, got.reason));
    return [];
  }
  const bytes = got.value;
  inputs?.set(rel, sha256Hex(bytes));
  const read = readEnvelopeFile(rel, bytes, limits);
  for (const f of read.findings) findings.push(f);
  return read.findings.length > 0 ? [] : [...read.envelopes];
}

/** What the core needs of the settings (nothing about files). */
const optionsOf = (s: Settings): VerifyOptions => ({
  allowUnmatchedRecords: s.allowUnmatchedRecords,
  strictObserved: s.strictObserved,
  policy: s.policy,
});

export async function runGate(settings: Settings): Promise<Report> {
  return verify(await collect(settings, false), optionsOf(settings));
}

/** The report and the digest of every input it rests on (for a verdict attestation). */
export async function runGateWithInputs(
  settings: Settings,
): Promise<{ readonly report: Report; readonly inputs: ReadonlyMap<string, string> }> {
  const evidence = await collect(settings, true);
  return { report: verify(evidence, optionsOf(settings)), inputs: evidence.inputs };
}
