/**
 * verify(evidence, options) → Report: the whole contract of `spec/verification-semantics.md`
 * as one pure function. No I/O: readers hand in located values, reporters render the result.
 *
 * Every call starts at `asserted`. `verified` is reachable only through `allocate` (a usable record
 * whose binding equals the call's recomputed subject), `observed_confirmed` only through
 * `confirmReads` (a later successful read of the same target in the same run).
 */
import { checkRecords, type CheckedRecord } from './records.js';
import type { Claim } from './claims.js';
import { targetKey, type Projection } from './projection.js';
import { levelRank, type DecisionInput, type Evidence, type Finding, type FindingCode, type Level, type Location, type RunInput, type Severity, type VerifyOptions } from './model.js';
import { REPORT_SCHEMA, type CallReport, type RecordReport, type Report, type Totals } from './report.js';

export const READ_VERBS: ReadonlySet<string> = new Set(['get', 'list', 'read', 'describe', 'view', 'search', 'fetch']);

type Eligibility = { readonly ok: true; readonly digest: string; readonly provider: string | null } | { readonly ok: false; readonly reason: string };

interface Call {
  readonly run: RunInput;
  readonly input: DecisionInput;
  readonly tool: string | null;
  readonly projection: Projection;
  readonly claim: Claim;
  readonly eligibility: Eligibility;
  record: CheckedRecord | null;
  confirmedBy: DecisionInput | null;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const byLocation = (a: Location, b: Location): number => cmp(a.file, b.file) || a.line - b.line || a.column - b.column;
/** Names from artifacts are untrusted and unbounded: messages quote at most 200 characters of one. */
const clipName = (s: string): string => (s.length > 200 ? `${s.slice(0, 199)}…` : s);
const short = (d: string): string => (d.length > 20 ? `${d.slice(0, 15)}…${d.slice(-4)}` : d);
const SEVERITY_RANK: { readonly [S in Severity]: number } = { error: 0, warning: 1, notice: 2 };

export function finding(severity: Severity, code: FindingCode, loc: Location, message: string): Finding {
  const f: Finding = { severity, code, file: loc.file, line: loc.line, column: loc.column, message };
  return loc.member === undefined ? f : { ...f, member: loc.member };
}

export function compareFindings(a: Finding, b: Finding): number {
  return SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || byLocation(a, b) || cmp(a.code, b.code) || cmp(a.message, b.message);
}

function eligibility(input: DecisionInput, claim: Claim): Eligibility {
  if (!claim.asserted) return { ok: false, reason: 'the call does not assert a side effect (side_effect_asserted is false)' };
  if (input.denied) return { ok: false, reason: 'the call was denied (decision.effect is "deny")' };
  const p = input.projection;
  if (p.kind === 'none') return { ok: false, reason: `the call has no subject: ${p.reason}` };
  if (input.provider !== null && typeof input.provider !== 'string') return { ok: false, reason: 'action.target.provider is neither a string nor null' };
  return { ok: true, digest: p.digest, provider: input.provider };
}

/** One-to-one allocation of usable records to calls: claimed-`verified` calls first, then the rest. */
function allocate(calls: readonly Call[], records: readonly CheckedRecord[]): void {
  const buckets = new Map<string, { recs: CheckedRecord[]; next: number }>();
  for (const r of records) {
    if (r.check.outcome !== 'usable') continue;
    const b = buckets.get(r.check.recomputed);
    if (b) b.recs.push(r);
    else buckets.set(r.check.recomputed, { recs: [r], next: 0 });
  }
  const used = new Set<CheckedRecord>();
  const serve = (call: Call): void => {
    if (!call.eligibility.ok) return;
    const bucket = buckets.get(call.eligibility.digest);
    if (!bucket) return;
    while (bucket.next < bucket.recs.length && used.has(bucket.recs[bucket.next]!)) bucket.next++;
    const provider = call.eligibility.provider;
    for (let i = bucket.next; i < bucket.recs.length; i++) {
      const r = bucket.recs[i]!;
      if (used.has(r) || (provider !== null && r.input.record.provider !== provider)) continue;
      used.add(r);
      call.record = r;
      return;
    }
  };
  for (const c of calls) if (c.claim.level === 'verified') serve(c);
  for (const c of calls) if (c.claim.level !== 'verified') serve(c);
}

/** For each eligible call of a run, the first later successful read of the same target with another verb. */
function confirmReads(run: readonly Call[]): void {
  const isRead = (c: Call): boolean => c.projection.kind === 'subject' && READ_VERBS.has(c.projection.subject.verb) && c.input.succeeded;
  if (!run.some(isRead)) return;
  // Walk backwards, remembering every successful read seen so far (i.e. later in the run).
  const reads = new Map<string, Map<string, DecisionInput>>(); // target key → verb → earliest later read
  for (let i = run.length - 1; i >= 0; i--) {
    const call = run[i]!;
    const p = call.projection;
    if (p.kind !== 'subject') continue;
    const read = isRead(call);
    if (!read && (reads.size === 0 || !call.eligibility.ok)) continue;
    const key = targetKey(p.subject);
    if (call.eligibility.ok) {
      const verbs = reads.get(key);
      if (verbs) {
        let best: DecisionInput | null = null;
        for (const [verb, read] of verbs) if (verb !== p.subject.verb && (!best || read.index < best.index)) best = read;
        call.confirmedBy = best;
      }
    }
    if (read) {
      let verbs = reads.get(key);
      if (!verbs) reads.set(key, (verbs = new Map()));
      verbs.set(p.subject.verb, call.input);
    }
  }
}

function earned(call: Call): Level {
  return call.record ? 'verified' : call.confirmedBy ? 'observed_confirmed' : 'asserted';
}

const at = (d: DecisionInput): string => `line ${d.loc.line}`;
const recordName = (r: CheckedRecord): string =>
  `record ${JSON.stringify(clipName(r.input.record.record_id))} (${clipName(r.input.record.provider)}) at ${r.input.loc.file}:${r.input.loc.line}`;

/**
 * Lookups for explanations, built once so that explaining stays linear in calls + records; the
 * call-side maps only when a record went unmatched.
 */
class Index {
  /** Records whose recomputed or declared binding is the key. */
  readonly recordsByDigest = new Map<string, CheckedRecord[]>();
  readonly holders = new Map<CheckedRecord, Call>();
  private byDigest: Map<string, Call[]> | null = null;
  private byClassVerb: Map<string, Call> | null = null;

  constructor(private readonly calls: readonly Call[], records: readonly CheckedRecord[]) {
    for (const r of records) {
      push(this.recordsByDigest, r.input.record.binding_digest, r);
      if (r.check.recomputed !== null && r.check.recomputed !== r.input.record.binding_digest) push(this.recordsByDigest, r.check.recomputed, r);
    }
    for (const c of calls) if (c.record) this.holders.set(c.record, c);
  }

  private build(): void {
    this.byDigest = new Map();
    this.byClassVerb = new Map();
    for (const c of this.calls) {
      if (c.projection.kind !== 'subject') continue;
      push(this.byDigest, c.projection.digest, c);
      const cv = `${c.projection.subject.action_class}\u0000${c.projection.subject.verb}`;
      if (!this.byClassVerb.has(cv)) this.byClassVerb.set(cv, c);
    }
  }

  /** Calls by the digest of their subject (eligible or not). */
  callsWith(digest: string): readonly Call[] {
    if (!this.byDigest) this.build();
    return this.byDigest!.get(digest) ?? [];
  }

  /** The first call of an action class and verb. */
  firstOf(actionClass: string, verb: string): Call | undefined {
    if (!this.byClassVerb) this.build();
    return this.byClassVerb!.get(`${actionClass}\u0000${verb}`);
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const xs = m.get(k);
  if (xs) xs.push(v);
  else m.set(k, [v]);
}

const NO_RECORD = 'no audit record binds its subject';

/** Why a call that wanted a record did not get one, in terms a reviewer can act on. */
function whyNoRecord(call: Call, ix: Index, showDigest: boolean): string {
  if (!call.eligibility.ok) return call.eligibility.reason;
  const digest = call.eligibility.digest;
  const subject = showDigest ? `its subject ${digest}` : 'its subject';
  const same = ix.recordsByDigest.get(digest) ?? [];
  if (same.length === 0) return showDigest ? `no audit record binds ${subject}` : NO_RECORD;
  const parts = same.map((r) => {
    if (r.check.outcome === 'inconsistent') return `${recordName(r)} declares this binding but is inconsistent`;
    if (r.check.outcome === 'duplicate') return `${recordName(r)} is a duplicate`;
    const holder = ix.holders.get(r);
    if (holder) return `${recordName(r)} already verifies ${holder.run.artifact} decision ${holder.input.index} (${at(holder.input)})`;
    return `${recordName(r)} is from provider "${r.input.record.provider}", the call targets "${call.eligibility.ok ? call.eligibility.provider : ''}"`;
  });
  return `no unused audit record binds ${subject}: ${parts.join('; ')}`;
}

/** The most common reason, shared rather than rebuilt for every asserted call. */
const NO_EVIDENCE = 'no audit record binds its subject; no later successful read of the same target in this run';

function levelReason(call: Call, level: Level, ix: Index): string {
  if (level === 'verified') return `bound by ${recordName(call.record!)}`;
  if (level === 'asserted' && !call.eligibility.ok) return call.eligibility.reason;
  const noRecord = whyNoRecord(call, ix, false);
  if (level === 'observed_confirmed') return `confirmed by a later read at ${at(call.confirmedBy!)}; not verified: ${noRecord}`;
  return noRecord === NO_RECORD ? NO_EVIDENCE : `${noRecord}; no later successful read of the same target in this run`;
}

/** Why a usable record bound no call: the nearest call of the same class and verb, and where it differs. */
function whyUnmatched(r: CheckedRecord, ix: Index): string {
  const digest = r.input.record.binding_digest;
  const withSubject = ix.callsWith(digest);
  const c = withSubject.find((x) => x.eligibility.ok);
  if (c) {
    const holder = c.record;
    if (c.eligibility.ok && c.eligibility.provider !== null && c.eligibility.provider !== r.input.record.provider) {
      return `its subject matches ${c.run.artifact} decision ${c.input.index} (${at(c.input)}) but the call targets provider "${c.eligibility.provider}", not "${r.input.record.provider}"`;
    }
    return `every call with its subject is already verified (${c.run.artifact} decision ${c.input.index} by ${holder ? recordName(holder) : 'another record'}): one audit entry vouches for one call only`;
  }
  const { action_class, verb, target } = r.input.record.subject;
  const ineligible = withSubject[0];
  if (ineligible && !ineligible.eligibility.ok) {
    return `its subject matches ${ineligible.run.artifact} decision ${ineligible.input.index} (${at(ineligible.input)}), which cannot be verified: ${ineligible.eligibility.reason}`;
  }
  const near = ix.firstOf(action_class, verb);
  if (near && near.projection.kind === 'subject') {
    const t = near.projection.subject.target;
    const keys = [...new Set([...Object.keys(t), ...Object.keys(target)])].sort();
    const differ = keys.filter((k) => JSON.stringify(t[k]) !== JSON.stringify(target[k]));
    return `no call has its subject ${short(digest)}; nearest is ${near.run.artifact} decision ${near.input.index} (${at(near.input)}), whose target differs in ${differ.join(', ') || 'field order or types'}`;
  }
  return `no call has its subject ${short(digest)} (no ${JSON.stringify(action_class)} call with verb ${JSON.stringify(verb)} at all)`;
}

/** A call's verdict: its earned level and reason, and the findings its claim earns. */
function judgeCall(call: Call, ix: Index, options: VerifyOptions, findings: Finding[]): CallReport {
  const level = earned(call);
  const { claim, input } = call;
  const subject = call.projection.kind === 'subject' ? call.projection.digest : null;
  const where = `${call.tool === null ? 'decision' : clipName(call.tool)} (decision ${input.index})`;
  if (claim.level === 'verified') {
    if (level !== 'verified') {
      findings.push(finding('error', 'verified_not_reproduced', input.loc, `${where} claims verified, but ${whyNoRecord(call, ix, true)}`));
    } else if (!claim.legacy && claim.digest !== subject) {
      findings.push(finding('error', 'verified_not_reproduced', input.loc, `${where} claims verification_subject_digest ${claim.digest} but its subject recomputes to ${subject}`));
    }
  } else if (claim.level === 'observed_confirmed') {
    const strictness: Severity = options.strictObserved ? 'error' : 'warning';
    if (!call.confirmedBy) {
      const why = call.eligibility.ok ? 'no later successful read of the same target exists in this run' : call.eligibility.reason;
      findings.push(finding(strictness, 'observed_confirmed_not_reproduced', input.loc, `${where} claims observed_confirmed, but ${why}`));
    } else if (claim.digest !== subject) {
      findings.push(finding(strictness, 'observed_confirmed_not_reproduced', input.loc, `${where} claims verification_subject_digest ${claim.digest} but the write's subject recomputes to ${subject}`));
    }
  }
  if (levelRank(level) > levelRank(claim.level)) {
    findings.push(finding('notice', 'under_claimed', input.loc, `${where} claims ${claim.level} but earned ${level}`));
  }
  const r = call.record?.input;
  return {
    artifact: call.run.artifact, index: input.index, line: input.loc.line, column: input.loc.column, member: input.loc.member ?? null,
    tool: call.tool, asserted: claim.asserted, claimed_level: claim.level, level, subject_digest: subject,
    record: r ? { file: r.loc.file, line: r.loc.line, provider: r.record.provider, record_id: r.record.record_id } : null,
    reason: levelReason(call, level, ix),
  };
}

/** A record's outcome, and the finding for every record that does not bind a call. */
function judgeRecord(r: CheckedRecord, ix: Index, options: VerifyOptions, findings: Finding[]): RecordReport {
  const { record, loc } = r.input;
  const holder = ix.holders.get(r);
  let outcome: RecordReport['outcome'];
  const name = `record ${JSON.stringify(clipName(record.record_id))} (${clipName(record.provider)})`;
  switch (r.check.outcome) {
    case 'inconsistent':
      outcome = 'inconsistent';
      findings.push(finding('error', 'record_inconsistent', loc, `${name}: ${r.check.reason}`));
      break;
    case 'duplicate':
      outcome = 'duplicate';
      findings.push(finding('error', 'duplicate_record', loc, `${name} repeats the record at ${r.check.first.loc.file}:${r.check.first.loc.line}; one audit entry may vouch for one call only`));
      break;
    case 'usable':
      outcome = holder ? 'bound' : 'unmatched';
      if (!holder) {
        findings.push(finding(options.allowUnmatchedRecords ? 'warning' : 'error', 'record_unmatched', loc, `${name} binds no call: ${whyUnmatched(r, ix)}`));
      }
  }
  return {
    file: loc.file, line: loc.line, column: loc.column, provider: record.provider, record_id: record.record_id, outcome,
    binding_digest: record.binding_digest, recomputed_digest: r.check.recomputed,
    call: holder ? { artifact: holder.run.artifact, index: holder.input.index, line: holder.input.loc.line } : null,
  };
}

export function verify(evidence: Evidence, options: VerifyOptions): Report {
  const findings: Finding[] = [...evidence.findings];
  const runs = [...evidence.runs].sort((a, b) => cmp(a.artifact, b.artifact));
  const records = checkRecords([...evidence.records].sort((a, b) => byLocation(a.loc, b.loc)));

  const calls: Call[] = [];
  const perRun: Call[][] = [];
  for (const run of runs) {
    const own: Call[] = [];
    for (const input of run.decisions) {
      const reading = input.claim;
      let claim: Claim;
      if (reading.kind === 'invalid') {
        findings.push(finding('error', 'invalid_artifact', input.loc, `decision ${input.index}: ${reading.reason}`));
        claim = { asserted: false, level: 'asserted', digest: null, legacy: false };
      } else {
        claim = reading.claim;
        for (const why of reading.inconsistencies) findings.push(finding('error', 'inconsistent_claim', input.loc, `decision ${input.index}: ${why}`));
      }
      const call: Call = {
        run, input, tool: input.tool, projection: input.projection, claim,
        eligibility: reading.kind === 'invalid' ? { ok: false, reason: reading.reason } : eligibility(input, claim),
        record: null, confirmedBy: null,
      };
      own.push(call);
      calls.push(call);
    }
    perRun.push(own);
  }

  allocate(calls, records);
  for (const own of perRun) confirmReads(own);

  const ix = new Index(calls, records);

  const callReports = calls.map((call) => judgeCall(call, ix, options, findings));
  const recordReports = records.map((r) => judgeRecord(r, ix, options, findings));

  findings.sort(compareFindings);
  const tally = <T, K extends string>(xs: readonly T[], key: (x: T) => K): Record<K, number> => {
    const out = {} as Record<K, number>;
    for (const x of xs) out[key(x)] = (out[key(x)] ?? 0) + 1;
    return out;
  };
  const levels = tally(callReports, (c) => c.level);
  const outcomes = tally(recordReports, (r) => r.outcome);
  const severities = tally(findings, (f) => f.severity);
  const totals: Totals = {
    artifacts: runs.length,
    calls: callReports.length,
    verified: levels.verified ?? 0,
    observed_confirmed: levels.observed_confirmed ?? 0,
    asserted: levels.asserted ?? 0,
    records: recordReports.length,
    bound: outcomes.bound ?? 0,
    unmatched: outcomes.unmatched ?? 0,
    inconsistent: outcomes.inconsistent ?? 0,
    duplicate: outcomes.duplicate ?? 0,
    errors: severities.error ?? 0,
    warnings: severities.warning ?? 0,
    notices: severities.notice ?? 0,
  };
  return { schema: REPORT_SCHEMA, ok: totals.errors === 0, calls: callReports, records: recordReports, findings, totals };
}
