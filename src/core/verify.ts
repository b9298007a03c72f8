/**
 * verify(evidence, options) → Report: the whole contract of docs/verification-semantics.md as one
 * pure function, and the only path from evidence to a verdict. No I/O: readers hand in located
 * values, reporters render the result. The rules live in their own modules: the binding
 * (binding.ts, projection.ts), claims (claims.ts), records (records.ts), the allocation
 * (allocation.ts), the ladder (ladder.ts), required levels (policy.ts) and the verdicts (verdicts.ts).
 */
import { checkRecords } from './records.js';
import type { Claim } from './claims.js';
import { byLocation, compareFindings, finding, type Finding } from './findings.js';
import { climb, eligibility, type Call } from './ladder.js';
import { levelRank, type Evidence, type Level, type RunInput, type VerifyOptions } from './model.js';
import { NO_POLICY, ruleFor } from './policy.js';
import { REPORT_SCHEMA, type CallReport, type Report, type RunReport, type Totals } from './report.js';
import { judgeCall, judgeRecord } from './verdicts.js';

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The calls of one run, with the findings their claims make on their own (shape, consistency). */
function callsOf(run: RunInput, findings: Finding[]): Call[] {
  return run.decisions.map((input): Call => {
    const reading = input.claim;
    if (reading.kind === 'invalid') {
      findings.push(finding('invalid_artifact', input.loc, `decision ${input.index}: ${reading.reason}`));
      const claim: Claim = { asserted: false, level: 'asserted', digest: null, legacy: false };
      return { run, input, claim, eligibility: { ok: false, reason: reading.reason } };
    }
    for (const why of reading.inconsistencies) findings.push(finding('inconsistent_claim', input.loc, `decision ${input.index}: ${why}`));
    return { run, input, claim: reading.claim, eligibility: eligibility(input, reading.claim) };
  });
}

function tally<T, K extends string>(xs: readonly T[], key: (x: T) => K): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = {};
  for (const x of xs) out[key(x)] = (out[key(x)] ?? 0) + 1;
  return out;
}

/** The weakest level among calls that assert a side effect (§9); null when none does. */
function weakest(calls: readonly CallReport[]): Level | null {
  let w: Level | null = null;
  for (const c of calls) if (c.level !== null && (w === null || levelRank(c.level) < levelRank(w))) w = c.level;
  return w;
}

export function verify(evidence: Evidence, options: VerifyOptions): Report {
  const policy = options.policy ?? NO_POLICY;
  const findings: Finding[] = [...evidence.findings];
  const runs = [...evidence.runs].sort((a, b) => cmp(a.artifact, b.artifact));
  const records = checkRecords([...evidence.records].sort((a, b) => byLocation(a.loc, b.loc)));
  const perRun = runs.map((run) => callsOf(run, findings));
  const calls = perRun.flat();

  const climbed = climb(perRun, records);
  const callReports = calls.map((call, i) => {
    // A rule applies to calls that assert a side effect and were not denied (§7).
    const rule = call.claim.asserted && !call.input.denied ? ruleFor(policy, call.input.actionClass, call.input.verb) : null;
    return judgeCall(call, climbed.outcomes[i]!, rule, options, findings);
  });
  const recordReports = climbed.records.map((v) => judgeRecord(v, options, findings));
  let offset = 0;
  const runReports = perRun.map((own, i): RunReport => {
    const mine = callReports.slice(offset, (offset += own.length));
    return { artifact: runs[i]!.artifact, calls: mine.length, weakest_level: weakest(mine) };
  });

  findings.sort(compareFindings);
  const levels = tally(callReports, (c) => c.level ?? 'no_effect');
  const outcomes = tally(recordReports, (r) => r.outcome);
  const severities = tally(findings, (f) => f.severity);
  const totals: Totals = {
    artifacts: runs.length,
    calls: callReports.length,
    verified: levels.verified ?? 0,
    observed_confirmed: levels.observed_confirmed ?? 0,
    asserted: levels.asserted ?? 0,
    no_effect: levels.no_effect ?? 0,
    weakest_level: weakest(callReports),
    policy_unmet: findings.filter((f) => f.code === 'policy_unmet').length,
    records: recordReports.length,
    bound: outcomes.bound ?? 0,
    unmatched: outcomes.unmatched ?? 0,
    inconsistent: outcomes.inconsistent ?? 0,
    untrusted: outcomes.untrusted ?? 0,
    duplicate: outcomes.duplicate ?? 0,
    errors: severities.error ?? 0,
    warnings: severities.warning ?? 0,
    notices: severities.notice ?? 0,
  };
  return {
    schema: REPORT_SCHEMA,
    ok: totals.errors === 0,
    policy: { rules: policy.rules, trusted_signers: evidence.trustedSigners ?? [] },
    runs: runReports,
    calls: callReports,
    records: recordReports,
    findings,
    totals,
  };
}
