/**
 * Judging one run file (design/threads-that-judge.md, phase 3): its calls' report lines and findings
 * from what the allocation decided for them (phase 2, verify.ts), the policy and the coverage
 * statements. A function of one file: it reads no other file's calls or records (an outcome names
 * them by value: `CallRef`, the record it holds), never allocates, climbs or decides a level, and
 * notes what it used of the policy in its own `Usage`, merged by the caller in path order. One
 * implementation for every thread count: `verify` judges every file through it.
 */
import type { Call } from './call.js';
import type { Coverage } from './coverage.js';
import type { Finding } from './findings.js';
import type { Outcome } from './ladder.js';
import { item } from './lists.js';
import type { Attestation, RunInput, VerifyOptions } from './model.js';
import type { CallReport, RunReport } from './report.js';
import type { Requirements, Shortfall, Usage } from './requirements.js';
import { coverageVerdict, judgeCall, workflowTrust } from './verdicts.js';
import { below, type Level } from './vocabulary.js';

/** A run file, its calls and what the allocation decided for them: all that judging its calls reads of the file. */
export interface FileToJudge {
  readonly run: RunInput;
  readonly calls: readonly Call[];
  /** What each call earned, by its position in `calls`. */
  readonly outcomes: readonly Outcome[];
  /** The findings each call's claim makes on its own (shape, consistency), by position; absent: none. */
  readonly claimFindings: readonly (readonly Finding[] | undefined)[];
}

/** What judging any file of one verification reads: the same for every file. */
export interface Judging {
  readonly requirements: Requirements;
  readonly coverage: Coverage;
  readonly options: VerifyOptions;
}

/** One file judged: its run's line, its calls' lines (with their findings), what it used of the policy. */
export interface FileJudgement {
  readonly run: RunReport;
  readonly calls: readonly CallReport[];
  readonly usage: Usage;
}

/** The weakest level among calls that assert a side effect (§9); null when none does. */
function weakest(calls: readonly CallReport[]): Level | null {
  let w: Level | null = null;
  for (const c of calls) if (c.level !== null && (w === null || below(c.level, w))) w = c.level;
  return w;
}

/** A run's producer as the report names it (§10). */
function producerOf(attestation: Attestation | undefined): RunReport['producer'] {
  if (!attestation || attestation.kind === 'none' || attestation.kind === 'unattested') return null;
  if (attestation.kind === 'unchecked')
    return { key_id: attestation.keyId, name: attestation.name, version: attestation.version, checked: false };
  if (attestation.by.kind === 'identity')
    return {
      key_id: null,
      name: attestation.name,
      version: attestation.version,
      checked: true,
      identity: workflowTrust(attestation.by.signer),
    };
  return { key_id: attestation.by.keyId, name: attestation.name, version: attestation.version, checked: true };
}

const NONE: readonly Finding[] = [];

export function judgeFile(file: FileToJudge, judging: Judging): FileJudgement {
  const { requirements, coverage, options } = judging;
  const usage = requirements.usage();
  const calls = file.calls.map((call, i) => {
    if (call.run !== file.run) throw new RangeError(`call ${call.order} is not of ${file.run.artifact}`);
    const outcome = item(file.outcomes, i);
    const requirement = requirements.of(call, usage);
    const covered = coverageVerdict(coverage.of(call, call.input.time), outcome);
    // A pending call's requirement waits for its export (docs/coverage.md §3): it is not measured yet.
    const shortfall: Shortfall = covered.kind === 'pending' ? { kind: 'met' } : requirements.measure(call, requirement, outcome, usage);
    return judgeCall(call, outcome, requirement, shortfall, options, file.claimFindings[i] ?? NONE, covered);
  });
  if (file.outcomes.length !== calls.length)
    throw new RangeError(`${file.outcomes.length} outcome(s) for the ${calls.length} call(s) of ${file.run.artifact}`);
  const attestation = file.run.attestation;
  return {
    run: {
      artifact: file.run.artifact,
      calls: calls.length,
      weakest_level: weakest(calls),
      producer: producerOf(attestation),
      unattested_code: attestation?.kind === 'unattested' ? attestation.code : null,
    },
    calls,
    usage,
  };
}
