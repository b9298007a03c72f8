/**
 * verify(evidence, options) → Report: the whole contract of docs/verification-semantics.md as one
 * pure function, and the only path from evidence to a verdict. No I/O: readers hand in located
 * values, reporters render the result. The rules live in their own modules: the binding
 * (binding.ts, projection.ts), claims (claims.ts), records (records.ts), the allocation
 * (allocation.ts), the ladder (ladder.ts), diagnoses (diagnose.ts), required levels (policy.ts) and
 * the verdicts (verdicts.ts); the counts come from the vocabularies (vocabulary.ts, findings.ts).
 */

import { type Call, eligibility } from './call.js';
import type { Claim } from './claims.js';
import { Clock, type HeldUntil, Validity } from './clock.js';
import { Coverage, coversNothing, providersNamed, sameExport, windowText } from './coverage.js';
import type { RecordVerdict } from './diagnose.js';
import { byLocation, compareFindings, type Finding, finding } from './findings.js';
import { type FileJudgement, type FileToJudge, type Judging, judgeFile, weakest } from './judge.js';
import { type Climb, climb, confirmationsOf } from './ladder.js';
import { item } from './lists.js';
import type { Location } from './location.js';
import type { Evidence, RecordInput, RunInput, StatementInput, Trust, VerifyOptions } from './model.js';
import { NO_POLICY, ruleJson } from './policy.js';
import { type CheckedRecord, checkRecords } from './records.js';
import {
  type CallReport,
  type CoverageReport,
  REPORT_SCHEMA,
  type RecordReport,
  type Report,
  type RunReport,
  type Totals,
} from './report.js';
import { classesOf, pinnedAuditFiles, Requirements, unusedRequireRule } from './requirements.js';
import { SEVERITIES, SEVERITY_TABLE } from './severity.js';
import { cmp, quote } from './text.js';
import { type Instant, rfc3339 } from './time.js';
import { judgeRecord } from './verdicts.js';
import { below, LEVELS_DESCENDING, type Level, RECORD_OUTCOME_NAMES } from './vocabulary.js';

/** The calls of one run, with the findings their claims make on their own (shape, consistency), by position. */
function callsOf(run: RunInput, first: number): { readonly calls: Call[]; readonly claimFindings: (Finding[] | undefined)[] } {
  const claimFindings: (Finding[] | undefined)[] = [];
  const calls = run.decisions.map((input, i): Call => {
    const reading = input.claim;
    const order = first + i;
    if (reading.kind === 'invalid') {
      const claim: Claim = { asserted: false, level: 'asserted', digest: null, legacy: false };
      claimFindings[i] = [finding('invalid_artifact', input.loc, `decision ${input.index}: ${reading.reason}`)];
      return { order, run, input, claim, eligibility: { ok: false, reason: reading.reason } };
    }
    if (reading.inconsistencies.length > 0)
      claimFindings[i] = reading.inconsistencies.map((why) => finding('inconsistent_claim', input.loc, `decision ${input.index}: ${why}`));
    return { order, run, input, claim: reading.claim, eligibility: eligibility(input, reading.claim) };
  });
  return { calls, claimFindings };
}

/** The records or statements of grandfathered audit files with trust not asked of them (unchecked, never untrusted); the rest as they are. */
function trustNotAsked<T extends { readonly loc: Location; readonly trust: Trust }>(
  pinned: ReadonlyMap<string, unknown>,
  items: readonly T[],
  held: ReadonlyMap<T, T> = new Map(),
  relaxed: Map<T, T> | null = null,
): readonly T[] {
  if (pinned.size === 0) return items;
  return items.map((x) => {
    const kept = held.get(x);
    if (kept !== undefined) return kept;
    if (!pinned.has(x.loc.file) || x.trust.kind !== 'untrusted') return x;
    const y = { ...x, trust: { kind: 'unchecked' as const } };
    relaxed?.set(y, x);
    return y;
  });
}

/**
 * The records checked, and what every call earned, with trust not asked of grandfathered audit files'
 * records; an untrusted record relaxed only by an entry the pull request adds (docs/policy.md §10)
 * that would bind a call outside the run files present with the same bytes at the base is held to
 * its trust, with every such record of its subject (so the call cannot take the next one), and the
 * allocation made once more: records of other subjects bind as before, so a second round finds none.
 */
function climbPinned(
  evidence: Evidence,
  pinned: ReadonlyMap<string, ReadonlySet<string> | null>,
  perRun: readonly (readonly Call[])[],
): { readonly records: CheckedRecord[]; readonly climbed: Climb } {
  // Each held record as the original, refused as history_only: a replay, an error whatever the trust mode (a red team: under warn it merged, then verified).
  const held = new Map<RecordInput, RecordInput>();
  // Only an entry the pull request adds limits where its records bind: without one, one allocation.
  const limited = [...pinned.values()].some((onlyIn) => onlyIn !== null);
  for (;;) {
    const relaxed = new Map<RecordInput, RecordInput>();
    const inputs = trustNotAsked(pinned, evidence.records, held, relaxed);
    const records = checkRecords([...inputs].sort((a, b) => byLocation(a.loc, b.loc)));
    const climbed = climb(perRun, records);
    if (!limited) return { records, climbed };
    const over = new Set<string>();
    for (const v of climbed.records) {
      if (v.outcome !== 'bound' || !relaxed.has(v.record.input)) continue;
      const onlyIn = pinned.get(v.record.input.loc.file);
      if (onlyIn && !onlyIn.has(v.call.run.artifact)) over.add(v.record.check.recomputed);
    }
    if (over.size === 0) return { records, climbed };
    for (const r of records) {
      const original = relaxed.get(r.input);
      if (
        original &&
        original.trust.kind === 'untrusted' &&
        pinned.get(r.input.loc.file) &&
        r.check.recomputed !== null &&
        over.has(r.check.recomputed)
      )
        held.set(original, {
          ...original,
          trust: {
            kind: 'untrusted',
            code: 'history_only',
            reason: `a grandfathered audit file's records bind only calls of runs the base holds with the same bytes, and this one would bind a call the pull request adds or changes (its own trust: ${original.trust.reason})`,
          },
        });
    }
  }
}

function count<K extends string>(keys: Iterable<K>): Map<K, number> {
  const map = new Map<K, number>();
  for (const k of keys) map.set(k, (map.get(k) ?? 0) + 1);
  return map;
}

/** A record's report with the other places one entry exported twice was found. */
function withCopies(record: RecordReport, copies: readonly RecordInput[]): RecordReport {
  return {
    file: record.file,
    line: record.line,
    column: record.column,
    provider: record.provider,
    record_id: record.record_id,
    outcome: record.outcome,
    binding_digest: record.binding_digest,
    recomputed_digest: record.recomputed_digest,
    signer: record.signer,
    untrusted: record.untrusted,
    untrusted_code: record.untrusted_code,
    call: record.call,
    ...(record.trusted_by ? { trusted_by: record.trusted_by } : {}),
    also_at: copies.map((c) => ({ file: c.loc.file, line: c.loc.line, column: c.loc.column })),
  };
}

/** The totals, member by member in the JSON order; `copies`: second copies of one entry, counted once in `records` (§3.2). */
function tallyTotals(
  runs: number,
  calls: readonly CallReport[],
  records: readonly RecordReport[],
  findings: readonly Finding[],
  copies: number,
): Totals {
  // One pass over every call (it runs over every call of the verification).
  const levels = new Map<Level | 'no_effect', number>();
  let unmet = 0;
  let warned = 0;
  let excepted = 0;
  let grandfathered = 0;
  let pending = 0;
  let notLogged = 0;
  for (const c of calls) {
    const l = c.level ?? 'no_effect';
    levels.set(l, (levels.get(l) ?? 0) + 1);
    if (c.below_required) unmet++;
    if (c.warned) warned++;
    if (c.excepted !== null) excepted++;
    if (c.grandfathered) grandfathered++;
    if (c.pending) pending++;
    if (c.effect_not_logged) notLogged++;
  }
  const outcomes = count(records.map((r) => r.outcome));
  const severities = count(findings.map((f) => f.severity));
  const totals: { [key: string]: number | Level | null } = { artifacts: runs, calls: calls.length };
  for (const l of LEVELS_DESCENDING) totals[l] = levels.get(l) ?? 0;
  totals['no_effect'] = levels.get('no_effect') ?? 0;
  totals['weakest_level'] = weakest(calls);
  totals['policy_unmet'] = unmet;
  totals['policy_warned'] = warned;
  totals['excepted'] = excepted;
  totals['grandfathered'] = grandfathered;
  totals['pending'] = pending;
  totals['effect_not_logged'] = notLogged;
  totals['records'] = records.length;
  for (const o of RECORD_OUTCOME_NAMES) totals[o] = outcomes.get(o) ?? 0;
  totals['imported_twice'] = copies;
  for (const s of SEVERITIES) totals[SEVERITY_TABLE[s].total] = severities.get(s) ?? 0;
  return totals as Totals;
}

/** The statements as the report lists them, in file order: each usable one, an untrusted one with its code, a second copy naming the first. */
function statementReports(statements: readonly StatementInput[], coverage: Coverage): CoverageReport[] {
  const usable = new Set(coverage.usable);
  const sorted = [...statements].sort((a, b) => byLocation(a.loc, b.loc));
  return sorted.map((s): CoverageReport => {
    const st = s.statement;
    const first = usable.has(s) || s.trust.kind === 'untrusted' ? null : coverage.usable.find((u) => sameExport(u.statement, st));
    return {
      file: s.loc.file,
      line: s.loc.line,
      column: s.loc.column,
      provider: st.provider,
      export: st.export,
      actors: st.actors,
      repos: st.repos,
      owner: st.owner,
      actions: st.actions,
      since: rfc3339(st.since),
      until: rfc3339(st.until),
      usable: usable.has(s),
      untrusted_code: s.trust.kind === 'untrusted' ? s.trust.code : null,
      ...(first ? { same_as: { file: first.loc.file, line: first.loc.line } } : {}),
    };
  });
}

/** The start of the epoch: the verification time of a caller that gave none (tests of the core that judge no time). */
const EPOCH: Instant = { seconds: 0, fraction: '' };

/**
 * Calls that earned a higher level than they claim, counted in one notice at the first of them: with
 * nightly exports, a call asserted at run time and verified the next morning is the normal state.
 */
function underClaimed(calls: readonly CallReport[]): Finding | null {
  const later = calls.filter((c) => c.claimed_level !== null && c.level !== null && below(c.claimed_level, c.level));
  const [first] = later;
  if (!first) return null;
  const verified = later.filter((c) => c.level === 'verified').length;
  const why =
    verified > 0 ? ` (${verified} verified by an audit record exported after the run: the normal state with nightly exports)` : '';
  const one = `${first.tool} claims ${first.claimed_level} but earned ${first.level}`;
  return finding(
    'under_claimed',
    { file: first.artifact, line: first.line, column: first.column, ...(first.member ? { member: first.member } : {}) },
    later.length === 1 ? `${one}${why}` : `${later.length} call(s) earned a higher level than they claim${why}; the first: ${one}`,
  );
}

/** What the allocation (phase 2) leaves: the files to judge and what judging reads, and what the report's tail reads. */
export interface Allocation {
  /** The runs in path order, one file to judge each (its calls in `Call.order`). */
  readonly runs: readonly RunInput[];
  readonly files: readonly FileToJudge[];
  readonly judging: Judging;
  readonly records: readonly CheckedRecord[];
  readonly climbed: Climb;
  readonly pinned: ReadonlyMap<string, ReadonlySet<string> | null>;
  /** What the verification's clocks noted: complete once the report is made (judging and the record verdicts compare too). */
  readonly validity: Validity;
}

/**
 * Phase 2 (design/threads-that-judge.md): what needs every call and record at once. The records
 * checked and allocated, each call's outcome decided (the confirming read of its run, a replay of
 * another copy of its run), and each run file handed on with its calls and their outcomes as one
 * `FileToJudge`, which `judgeFile` judges on its own.
 */
export function allocateAll(evidence: Evidence, options: VerifyOptions): Allocation {
  const policy = options.policy ?? NO_POLICY;
  const runs = [...evidence.runs].sort((a, b) => cmp(a.artifact, b.artifact));
  // A grandfathered audit file's records are judged for honesty and bind calls; trust is not asked of them (docs/policy.md §9).
  const pinned = pinnedAuditFiles(policy, evidence.fileSha256 ?? new Map());
  let first = 0;
  const read = runs.map((run) => {
    const file = callsOf(run, first);
    first += file.calls.length;
    return file;
  });
  const { records, climbed } = climbPinned(
    evidence,
    pinned,
    read.map((f) => f.calls),
  );
  let from = 0;
  const files = read.map(
    ({ calls, claimFindings }, i): FileToJudge => ({
      run: item(runs, i),
      calls,
      outcomes: climbed.outcomes.slice(from, (from += calls.length)),
      claimFindings,
    }),
  );
  // Every comparison with the verification time goes through these two clocks (clock.ts), which note how long the answers hold.
  const validity = new Validity();
  const requirements = new Requirements(policy, new Clock(options.now ?? EPOCH, validity), runs, evidence.fileSha256);
  const coverage = new Coverage(
    trustNotAsked(pinned, evidence.statements ?? []),
    policy.pendingSeconds,
    new Clock(options.now ?? null, validity),
  );
  return { runs, files, judging: { requirements, coverage, options }, records, climbed, pinned, validity };
}

/**
 * What verifying needs of one run alone, made as soon as the run is read: the gate calls this for
 * each run as it comes in, while other threads still read (work done then is shared out with the
 * reading), and `verify` finds it made (ladder.ts keeps it per run).
 */
export const prepareRun = (run: RunInput): void => {
  confirmationsOf(run);
};

export function verify(evidence: Evidence, options: VerifyOptions): Report {
  return verifyHeld(evidence, options).report;
}

/**
 * The report, and until when a verification of the same evidence and options at a later time would
 * give the same report but for `verified_at` (clock.ts; design/incremental-verification.md, stop 1).
 */
export function verifyHeld(evidence: Evidence, options: VerifyOptions): { readonly report: Report; readonly heldUntil: HeldUntil } {
  const allocation = allocateAll(evidence, options);
  // Phase 3: each file judged on its own; merged in path order.
  const report = reportOf(
    evidence,
    options,
    allocation,
    allocation.files.map((f) => judgeFile(f, allocation.judging)),
  );
  // Without a verification time the two clocks judge by different ones (none, the epoch): no later time is claimed.
  return { report, heldUntil: options.now === undefined ? { kind: 'this_instant' } : allocation.validity.until() };
}

/** The report of one verification: the files' judgements merged in path order, with what needs every call (the findings' order, totals, the records' verdicts). */
function reportOf(evidence: Evidence, options: VerifyOptions, allocation: Allocation, judged: readonly FileJudgement[]): Report {
  const policy = options.policy ?? NO_POLICY;
  const now = options.now ?? EPOCH;
  const { runs, records, climbed, pinned } = allocation;
  const { requirements, coverage } = allocation.judging;
  const usage = requirements.usage();
  const runReports: RunReport[] = [];
  const callReports: CallReport[] = [];
  for (const file of judged) {
    usage.merge(file.usage);
    runReports.push(file.run);
    for (const c of file.calls) callReports.push(c);
  }
  const all = allocation.files.flatMap((f) => f.calls);
  const seen = classesOf(all);
  const findings: Finding[] = [
    ...evidence.findings,
    ...requirements.findings(usage, (rule, takenBy) => unusedRequireRule(rule, seen, takenBy)),
  ];
  const warnTrust = options.trustMode === 'warn';
  for (const run of runs) {
    // A grandfathered run is judged for honesty only: its attestation is not asked.
    if (run.attestation?.kind === 'unattested' && !requirements.isGrandfathered(run.artifact)) {
      const why = warnTrust
        ? `run ${quote(run.artifact)} is not attested by a trusted producer: ${run.attestation.reason}; its calls are judged (trust mode warn: it would fail under enforce)`
        : `run ${quote(run.artifact)} is not attested by a trusted producer: ${run.attestation.reason}; its calls are judged, and the gate fails`;
      findings.push(finding('run_unattested', { file: run.artifact, line: 1, column: 1 }, why, warnTrust ? 'warning' : undefined));
    }
  }
  for (const c of callReports) for (const f of c.findings) findings.push(f);
  const later = underClaimed(callReports);
  if (later) findings.push(later);
  const statements = statementReports(evidence.statements ?? [], coverage);
  // Signed records with no trusted signer to check them look like unsigned ones: say so, once.
  const signed =
    (evidence.trustedSigners ?? []).length === 0 && !evidence.identities?.signers.length
      ? records.filter((r) => r.input.signer !== null)
      : [];
  const firstSigned = signed[0];
  if (firstSigned)
    findings.push(
      finding(
        'signatures_unchecked',
        firstSigned.input.loc,
        `${signed.length} audit record(s) are signed (the first by ${firstSigned.input.signer}) but no trusted key is configured: their signatures were not checked (give trusted-keys with the signer's public key, and require-signed-records)`,
      ),
    );
  const named = providersNamed(all);
  for (const s of coverage.usable) {
    const why = coversNothing(s.statement, named);
    if (why)
      findings.push(
        finding('coverage_empty', s.loc, `coverage statement (${quote(s.statement.export, 40)}, ${windowText(s.statement)}): ${why}`),
      );
  }
  for (const s of evidence.statements ?? [])
    if (s.trust.kind === 'untrusted' && !pinned.has(s.loc.file))
      findings.push(
        finding(
          'record_untrusted',
          s.loc,
          `coverage statement (${quote(s.statement.export, 40)}, ${windowText(s.statement)}) is not from a trusted signer: ${s.trust.reason}; it covers nothing${warnTrust ? ' (trust mode warn: it would fail under enforce)' : ''}`,
          warnTrust ? 'warning' : undefined,
        ),
      );
  // One audit entry exported twice is one record (§3.2): each copy becomes another place of the first.
  const copies = new Map<RecordInput, RecordInput[]>();
  for (const v of climbed.records) {
    const check = v.record.check;
    if (check.outcome !== 'imported_twice') continue;
    const list = copies.get(check.first) ?? [];
    list.push(v.record.input);
    copies.set(check.first, list);
  }
  const recordReports: RecordReport[] = [];
  for (const found of climbed.records) {
    // A record that binds no call waits for its run while its export is younger than pending (docs/policy.md §12).
    const waits = found.outcome === 'unmatched' ? coverage.recordWaits(found.record.input) : null;
    const v: RecordVerdict =
      found.outcome === 'unmatched' && waits !== null
        ? { outcome: 'awaiting_run', record: found.record, why: found.why, until: waits }
        : found;
    const judged = judgeRecord(v, options);
    if (judged.finding) findings.push(judged.finding);
    if (v.record.check.outcome === 'imported_twice') continue;
    const also = copies.get(v.record.input);
    const report = also ? withCopies(judged.report, also) : judged.report;
    // A grandfathered file's record is unchecked only because its trust was not asked: said, so a verdict never counts it vouched for.
    const notAsked = v.record.input.trust.kind === 'unchecked' && pinned.has(v.record.input.loc.file);
    recordReports.push(notAsked ? { ...report, trust_not_asked: true } : report);
  }
  findings.sort(compareFindings);
  const totals = tallyTotals(
    runs.length,
    callReports,
    recordReports,
    findings,
    [...copies.values()].reduce((n, l) => n + l.length, 0),
  );
  return {
    schema: REPORT_SCHEMA,
    ok: totals.errors === 0,
    verified_at: rfc3339(now),
    policy: {
      ...(policy.source ? { source: policy.source } : {}),
      rules: policy.rules.map(ruleJson),
      ...(policy.kind === 'file'
        ? {
            default: policy.defaultLevel,
            pending: policy.pendingSeconds,
            exceptions: policy.exceptions.length,
            grandfathered: policy.grandfathered.length,
          }
        : {}),
      trusted_signers: evidence.trustedSigners ?? [],
      trusted_producers: evidence.trustedProducers ?? [],
      allow_unmatched_records: options.allowUnmatchedRecords,
      strict_observed: options.strictObserved,
      ...(options.trustMode === 'warn' ? { trust_mode: 'warn' as const } : {}),
      ...(evidence.identities
        ? {
            identities: {
              trusted_signer_identities: evidence.identities.signers,
              trusted_producer_identities: evidence.identities.producers,
              source_repository: evidence.identities.sourceRepository,
              source_refs: evidence.identities.sourceRefs,
              certificate_oidc_issuer: evidence.identities.issuer,
              ...(evidence.identities.roots ? { trusted_roots: evidence.identities.roots } : {}),
            },
          }
        : {}),
    },
    runs: runReports,
    calls: callReports,
    records: recordReports,
    coverage: statements,
    coverage_gaps: coverage.gaps().map((g) => ({ ...g, from: rfc3339(g.from), to: rfc3339(g.to) })),
    findings,
    totals,
  };
}
