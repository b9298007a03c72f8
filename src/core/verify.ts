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
import { type FileJudgement, type FileToJudge, type Judging, judgeFile } from './judge.js';
import { type Climb, climb, confirmationsOf } from './ladder.js';
import { item } from './lists.js';
import type { Location } from './location.js';
import type { Evidence, RecordInput, RunInput, StatementInput, Trust, VerifyOptions } from './model.js';
import type { EarlierCalls } from './nearest.js';
import { NO_POLICY, ruleJson } from './policy.js';
import { type CheckedRecord, checkRecords } from './records.js';
import {
  type CallReport,
  type CoverageReport,
  type GapReport,
  REPORT_SCHEMA,
  type RecordReport,
  type Report,
  type RunReport,
  type Totals,
} from './report.js';
import { classesOf, pinnedAuditFiles, Requirements, type Usage, unusedRequireRule } from './requirements.js';
import { SEVERITIES, SEVERITY_TABLE } from './severity.js';
import { cmp, quote } from './text.js';
import { type Instant, rfc3339 } from './time.js';
import { judgeRecord } from './verdicts.js';
import { below, LEVELS_DESCENDING, type Level, RECORD_OUTCOME_NAMES, type RecordOutcome } from './vocabulary.js';

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
  earlier: EarlierCalls | undefined,
): { readonly records: CheckedRecord[]; readonly climbed: Climb } {
  // Each held record as the original, refused as history_only: a replay, an error whatever the trust mode (a red team: under warn it merged, then verified).
  const held = new Map<RecordInput, RecordInput>();
  // Only an entry the pull request adds limits where its records bind: without one, one allocation.
  const limited = [...pinned.values()].some((onlyIn) => onlyIn !== null);
  for (;;) {
    const relaxed = new Map<RecordInput, RecordInput>();
    const inputs = trustNotAsked(pinned, evidence.records, held, relaxed);
    const records = checkRecords([...inputs].sort((a, b) => byLocation(a.loc, b.loc)));
    const climbed = climb(perRun, records, earlier);
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

/** What a verification's calls count in its totals: calls per level (and no rung), and per kind of shortfall. Added up over any split. */
export interface CallTally {
  readonly levels: Map<Level | 'no_effect', number>;
  unmet: number;
  warned: number;
  excepted: number;
  grandfathered: number;
  pending: number;
  notLogged: number;
}

const emptyTally = (): CallTally => ({
  levels: new Map(),
  unmet: 0,
  warned: 0,
  excepted: 0,
  grandfathered: 0,
  pending: 0,
  notLogged: 0,
});

/** The tally of some calls (one pass: it runs over every call of the verification). */
function tallyCalls(calls: readonly CallReport[]): CallTally {
  const t = emptyTally();
  for (const c of calls) {
    const l = c.level ?? 'no_effect';
    t.levels.set(l, (t.levels.get(l) ?? 0) + 1);
    if (c.below_required) t.unmet++;
    if (c.warned) t.warned++;
    if (c.excepted !== null) t.excepted++;
    if (c.grandfathered) t.grandfathered++;
    if (c.pending) t.pending++;
    if (c.effect_not_logged) t.notLogged++;
  }
  return t;
}

/** Two tallies added up; with `sign` -1, `b` taken from `a` (a level none is left of is left out: the weakest level reads which are there). */
export function addTallies(a: CallTally, b: CallTally, sign: 1 | -1 = 1): CallTally {
  const t = emptyTally();
  for (const [x, by] of [
    [a, 1],
    [b, sign],
  ] as const) {
    for (const [l, n] of x.levels) {
      const left = (t.levels.get(l) ?? 0) + by * n;
      if (left === 0) t.levels.delete(l);
      else t.levels.set(l, left);
    }
    t.unmet += by * x.unmet;
    t.warned += by * x.warned;
    t.excepted += by * x.excepted;
    t.grandfathered += by * x.grandfathered;
    t.pending += by * x.pending;
    t.notLogged += by * x.notLogged;
  }
  return t;
}

/** The totals, member by member in the JSON order; `copies`: second copies of one entry, counted once in `records` (§3.2). */
function tallyTotals(
  runs: number,
  tally: CallTally,
  outcomes: ReadonlyMap<RecordOutcome, number>,
  findings: readonly Finding[],
  copies: number,
): Totals {
  const severities = count(findings.map((f) => f.severity));
  let calls = 0;
  for (const n of tally.levels.values()) calls += n;
  let records = 0;
  for (const n of outcomes.values()) records += n;
  const totals: { [key: string]: number | Level | null } = { artifacts: runs, calls };
  // The weakest level earned: the lowest with a call (§9).
  let weakestLevel: Level | null = null;
  for (const l of LEVELS_DESCENDING) {
    totals[l] = tally.levels.get(l) ?? 0;
    if (tally.levels.has(l)) weakestLevel = l;
  }
  totals['no_effect'] = tally.levels.get('no_effect') ?? 0;
  totals['weakest_level'] = weakestLevel;
  totals['policy_unmet'] = tally.unmet;
  totals['policy_warned'] = tally.warned;
  totals['excepted'] = tally.excepted;
  totals['grandfathered'] = tally.grandfathered;
  totals['pending'] = tally.pending;
  totals['effect_not_logged'] = tally.notLogged;
  totals['records'] = records;
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

/** Calls that earned a higher level than they claim: how many, how many verified, and the first (what `under_claimed` says). */
export interface UnderClaimed {
  readonly count: number;
  readonly verified: number;
  /** What the notice says of the first. */
  readonly first: Pick<CallReport, 'tool' | 'claimed_level' | 'level' | 'artifact' | 'line' | 'column' | 'member'>;
}

function underClaimedOf(calls: readonly CallReport[]): UnderClaimed | null {
  let first: CallReport | null = null;
  let n = 0;
  let verified = 0;
  for (const c of calls)
    if (c.claimed_level !== null && c.level !== null && below(c.claimed_level, c.level)) {
      first ??= c;
      n++;
      if (c.level === 'verified') verified++;
    }
  return first ? { count: n, verified, first } : null;
}

/**
 * Calls that earned a higher level than they claim, counted in one notice at the first of them: with
 * nightly exports, a call asserted at run time and verified the next morning is the normal state.
 */
function underClaimed(later: UnderClaimed): Finding {
  const { first, verified } = later;
  const why =
    verified > 0 ? ` (${verified} verified by an audit record exported after the run: the normal state with nightly exports)` : '';
  const one = `${first.tool} claims ${first.claimed_level} but earned ${first.level}`;
  return finding(
    'under_claimed',
    { file: first.artifact, line: first.line, column: first.column, ...(first.member ? { member: first.member } : {}) },
    later.count === 1 ? `${one}${why}` : `${later.count} call(s) earned a higher level than they claim${why}; the first: ${one}`,
  );
}

/** Signed records with no trusted signer to check them: how many, and the first (what `signatures_unchecked` says). */
interface SignedUnchecked {
  readonly count: number;
  /** Where the first is, and its signer. */
  readonly first: Pick<RecordInput, 'loc' | 'signer'>;
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
export function allocateAll(evidence: Evidence, options: VerifyOptions, earlier?: EarlierCalls): Allocation {
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
    earlier,
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

/** One verification: its report, how long it holds, and what it was made from (core/incremental.ts keeps the last two). */
export interface Verification {
  readonly report: Report;
  readonly heldUntil: HeldUntil;
  readonly shares: Shares;
  readonly allocation: Allocation;
}

/**
 * The report, and until when a verification of the same evidence and options at a later time would
 * give the same report but for `verified_at` (clock.ts; design/incremental-verification.md, stop 1).
 */
export function verifyHeld(evidence: Evidence, options: VerifyOptions): { readonly report: Report; readonly heldUntil: HeldUntil } {
  const { report, heldUntil } = verification(evidence, options);
  return { report, heldUntil };
}

/** @param earlier calls before these runs' (a kept verification's, merged onto: core/incremental.ts), where a record that binds none may find its nearest call */
export function verification(evidence: Evidence, options: VerifyOptions, earlier?: EarlierCalls): Verification {
  const allocation = allocateAll(evidence, options, earlier);
  // Phase 3: each file judged on its own; merged in path order.
  const shares = sharesOf(
    evidence,
    options,
    allocation,
    allocation.files.map((f) => judgeFile(f, allocation.judging)),
  );
  const report = assemble(shares, options, evidence, allocation.judging.requirements);
  // Without a verification time the two clocks judge by different ones (none, the epoch): no later time is claimed.
  return {
    report,
    heldUntil: options.now === undefined ? { kind: 'this_instant' } : allocation.validity.until(),
    shares,
    allocation,
  };
}

/**
 * What a verification's report is made from (`assemble`): its lists, its own findings in the order
 * it makes them (without those the report's tail says once for the whole verification: the policy's,
 * `under_claimed`, `signatures_unchecked`), and what the tail counts. Two verifications' shares add
 * up (core/incremental.ts): each member is a list in path order or a count.
 */
export interface Shares {
  /** How many runs (`runs` may hold none of them: a kept verification's lists are bytes, gate/snapshot.ts). */
  readonly runCount: number;
  readonly runs: readonly RunReport[];
  readonly calls: readonly CallReport[];
  readonly records: readonly RecordReport[];
  readonly statements: readonly CoverageReport[];
  readonly gaps: readonly GapReport[];
  /** The readers' findings (`Evidence.findings`). */
  readonly read: readonly Finding[];
  /** `run_unattested`, per run in path order. */
  readonly unattested: readonly Finding[];
  /** The calls' findings, in call order. */
  readonly calls_: readonly Finding[];
  /** `coverage_empty`, then the untrusted statements'. */
  readonly coverage: readonly Finding[];
  /** The records' verdicts' findings, in record order. */
  readonly records_: readonly Finding[];
  readonly usage: Usage;
  /** The classes of the calls a rule could apply to (what `rule_unused` names). */
  readonly classes: ReadonlySet<string>;
  readonly underClaimed: UnderClaimed | null;
  readonly signed: SignedUnchecked | null;
  readonly tally: CallTally;
  readonly outcomes: ReadonlyMap<RecordOutcome, number>;
  /** Second copies of one entry (counted once in `records`, §3.2). */
  readonly copies: number;
}

/** The shares of one verification: the files' judgements merged in path order, the records' verdicts, what the tail counts. */
function sharesOf(evidence: Evidence, options: VerifyOptions, allocation: Allocation, judged: readonly FileJudgement[]): Shares {
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
  const warnTrust = options.trustMode === 'warn';
  const unattested: Finding[] = [];
  for (const run of runs) {
    // A grandfathered run is judged for honesty only: its attestation is not asked.
    if (run.attestation?.kind === 'unattested' && !requirements.isGrandfathered(run.artifact)) {
      const why = warnTrust
        ? `run ${quote(run.artifact)} is not attested by a trusted producer: ${run.attestation.reason}; its calls are judged (trust mode warn: it would fail under enforce)`
        : `run ${quote(run.artifact)} is not attested by a trusted producer: ${run.attestation.reason}; its calls are judged, and the gate fails`;
      unattested.push(finding('run_unattested', { file: run.artifact, line: 1, column: 1 }, why, warnTrust ? 'warning' : undefined));
    }
  }
  const callFindings: Finding[] = [];
  for (const c of callReports) for (const f of c.findings) callFindings.push(f);
  // Signed records with no trusted signer to check them look like unsigned ones: said once, in the tail.
  const signed =
    (evidence.trustedSigners ?? []).length === 0 && !evidence.identities?.signers.length
      ? records.filter((r) => r.input.signer !== null)
      : [];
  const firstSigned = signed[0];
  const coverageFindings: Finding[] = [];
  const named = providersNamed(all);
  for (const s of coverage.usable) {
    const why = coversNothing(s.statement, named);
    if (why)
      coverageFindings.push(
        finding('coverage_empty', s.loc, `coverage statement (${quote(s.statement.export, 40)}, ${windowText(s.statement)}): ${why}`),
      );
  }
  for (const s of evidence.statements ?? [])
    if (s.trust.kind === 'untrusted' && !pinned.has(s.loc.file))
      coverageFindings.push(
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
  const recordFindings: Finding[] = [];
  const recordReports: RecordReport[] = [];
  for (const found of climbed.records) {
    // A record that binds no call waits for its run while its export is younger than pending (docs/policy.md §12).
    const waits = found.outcome === 'unmatched' ? coverage.recordWaits(found.record.input) : null;
    const v: RecordVerdict =
      found.outcome === 'unmatched' && waits !== null
        ? { outcome: 'awaiting_run', record: found.record, why: found.why, until: waits }
        : found;
    const judged = judgeRecord(v, options);
    if (judged.finding) recordFindings.push(judged.finding);
    if (v.record.check.outcome === 'imported_twice') continue;
    const also = copies.get(v.record.input);
    const report = also ? withCopies(judged.report, also) : judged.report;
    // A grandfathered file's record is unchecked only because its trust was not asked: said, so a verdict never counts it vouched for.
    const notAsked = v.record.input.trust.kind === 'unchecked' && pinned.has(v.record.input.loc.file);
    recordReports.push(notAsked ? { ...report, trust_not_asked: true } : report);
  }
  return {
    runCount: runReports.length,
    runs: runReports,
    calls: callReports,
    records: recordReports,
    statements: statementReports(evidence.statements ?? [], coverage),
    gaps: coverage.gaps().map((g) => ({ ...g, from: rfc3339(g.from), to: rfc3339(g.to) })),
    read: evidence.findings,
    unattested,
    calls_: callFindings,
    coverage: coverageFindings,
    records_: recordFindings,
    usage,
    classes: new Set(classesOf(all)),
    underClaimed: underClaimedOf(callReports),
    signed: firstSigned ? { count: signed.length, first: firstSigned.input } : null,
    tally: tallyCalls(callReports),
    outcomes: count(recordReports.map((r) => r.outcome)),
    copies: [...copies.values()].reduce((n, l) => n + l.length, 0),
  };
}

/** The settings a report's `policy` member echoes: the options, and the trust settings the evidence was read with. */
export type Echoed = Pick<Evidence, 'trustedSigners' | 'trustedProducers' | 'identities'>;

/**
 * The report's `policy` member: the rules and trust settings a verification is judged under (what a
 * merge compares, core/incremental.ts `judgedUnder`, and what a verification snapshot is keyed by).
 */
export function policyMember(options: VerifyOptions, echoed: Echoed): Report['policy'] {
  const policy = options.policy ?? NO_POLICY;
  return {
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
    trusted_signers: echoed.trustedSigners ?? [],
    trusted_producers: echoed.trustedProducers ?? [],
    allow_unmatched_records: options.allowUnmatchedRecords,
    strict_observed: options.strictObserved,
    ...(options.trustMode === 'warn' ? { trust_mode: 'warn' as const } : {}),
    ...(echoed.identities
      ? {
          identities: {
            trusted_signer_identities: echoed.identities.signers,
            trusted_producer_identities: echoed.identities.producers,
            source_repository: echoed.identities.sourceRepository,
            source_refs: echoed.identities.sourceRefs,
            certificate_oidc_issuer: echoed.identities.issuer,
            ...(echoed.identities.roots ? { trusted_roots: echoed.identities.roots } : {}),
          },
        }
      : {}),
  };
}

/**
 * A report from its shares: the findings in the order a verification makes them (the readers', the
 * policy's, the runs', the calls', `under_claimed`, `signatures_unchecked`, the statements', the
 * records'), then sorted; the totals from the counts. The one home of the report's tail, for a
 * verification and for two merged (incremental.ts).
 * @param requirements the policy's findings are made here, at its clock
 */
export function assemble(shares: Shares, options: VerifyOptions, echoed: Echoed, requirements: Requirements): Report {
  const now = options.now ?? EPOCH;
  const classes = [...shares.classes].sort(cmp);
  const findings: Finding[] = [
    ...shares.read,
    ...requirements.findings(shares.usage, (rule, takenBy) => unusedRequireRule(rule, classes, takenBy)),
    ...shares.unattested,
    ...shares.calls_,
  ];
  if (shares.underClaimed) findings.push(underClaimed(shares.underClaimed));
  const signed = shares.signed;
  if (signed)
    findings.push(
      finding(
        'signatures_unchecked',
        signed.first.loc,
        `${signed.count} audit record(s) are signed (the first by ${signed.first.signer}) but no trusted key is configured: their signatures were not checked (give trusted-keys with the signer's public key, and require-signed-records)`,
      ),
    );
  for (const f of shares.coverage) findings.push(f);
  for (const f of shares.records_) findings.push(f);
  findings.sort(compareFindings);
  const totals = tallyTotals(shares.runCount, shares.tally, shares.outcomes, findings, shares.copies);
  return {
    schema: REPORT_SCHEMA,
    ok: totals.errors === 0,
    verified_at: rfc3339(now),
    policy: policyMember(options, echoed),
    runs: shares.runs,
    calls: shares.calls,
    records: shares.records,
    coverage: shares.statements,
    coverage_gaps: shares.gaps,
    findings,
    totals,
  };
}
