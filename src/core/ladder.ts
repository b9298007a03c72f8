/**
 * The ladder (§5): what each call earns, as a value that carries its reason, decided here and only
 * here. A call that asserts no side effect has no rung at all (it may still confirm another call as
 * a read). Every call that asserts a side effect starts at `asserted`; `verified` is reachable only
 * with a `UsableRecord` the allocation gave it, `observed_confirmed` only with a later successful
 * read of the same target in the same run. Nothing else promotes a call. Why a call earned no more,
 * and why a record bound nothing, are diagnosed in diagnose.ts; nothing downstream searches again.
 */
import { allocate, type Claimant } from './allocation.js';
import type { Call } from './call.js';
import { diagnoser, type NoRecord, type NotVerified, type RecordVerdict } from './diagnose.js';
import type { DecisionInput, RunInput } from './model.js';
import { targetKey } from './projection.js';
import type { CheckedRecord, UsableRecord } from './records.js';
import { compareInstants } from './time.js';

const READ_VERBS: ReadonlySet<string> = new Set(['get', 'list', 'read', 'describe', 'view', 'search', 'fetch']);

export type Outcome =
  /** The call asserts no side effect: no rung (§5). */
  | { readonly level: null }
  /** `read`: a later read of the same target that would have confirmed it too (what a rule's `signed-by` falls back to). */
  | { readonly level: 'verified'; readonly record: UsableRecord; readonly read: DecisionInput | null }
  | { readonly level: 'observed_confirmed'; readonly read: DecisionInput; readonly notVerified: NoRecord; readonly replayed: boolean }
  /** Ineligible, or eligible with no record and no later read of the same target. */
  | { readonly level: 'asserted'; readonly why: NotVerified; readonly replayed: boolean };

// `replayed`: a record of the call's subject verifies the same decision read from another copy of its
// run (below), so an export's silence says nothing of it (docs/coverage.md §3). Decided here, where
// every call is known: an outcome names other calls by value only (CallRef), never holds them.

/** Runs found to hold the same decisions, or not (a pair is compared once). */
const sameRuns = new WeakMap<RunInput, WeakMap<RunInput, boolean>>();

/** Whether two runs hold the same decisions in the same order (one run file committed twice): each decision's time, tool, effect, status and subject. */
function sameDecisions(a: RunInput, b: RunInput): boolean {
  let known = sameRuns.get(a);
  const hit = known?.get(b);
  if (hit !== undefined) return hit;
  const same =
    a.decisions.length === b.decisions.length &&
    a.decisions.every((x, i) => {
      const y = b.decisions[i];
      if (!y || x.tool !== y.tool || x.denied !== y.denied || x.succeeded !== y.succeeded) return false;
      if ((x.time === null) !== (y.time === null) || (x.time && y.time && compareInstants(x.time, y.time) !== 0)) return false;
      const px = x.projection;
      const py = y.projection;
      return px.kind === 'subject' ? py.kind === 'subject' && px.digest === py.digest : py.kind === px.kind;
    });
  if (!known) sameRuns.set(a, (known = new WeakMap()));
  known.set(b, same);
  return same;
}

/**
 * The same decision read twice: a run file committed twice (or a bundle and its events) holds the
 * same decisions in the same order; the call at the same place of the other copy is this one, not a
 * second effect. Another run that merely has a call at the same index and time is not a replay.
 */
const replayOf = (call: Call, other: Call): boolean =>
  call.run !== other.run &&
  call.input.index === other.input.index &&
  call.input.time !== null &&
  other.input.time !== null &&
  compareInstants(call.input.time, other.input.time) === 0 &&
  sameDecisions(call.run, other.run);

/** For each eligible call of one run, the first later successful read of the same target with another verb. */
function confirmations(run: readonly Call[], out: (DecisionInput | undefined)[]): void {
  // A denied read never confirms anything (§5), whatever status it reports.
  const isRead = (c: Call): boolean =>
    c.input.projection.kind === 'subject' && READ_VERBS.has(c.input.projection.subject.verb) && c.input.succeeded && !c.input.denied;
  if (!run.some(isRead)) return;
  // Walk backwards, remembering every successful read seen so far (i.e. later in the run).
  const reads = new Map<string, Map<string, DecisionInput>>(); // target key → verb → earliest later read
  for (let i = run.length - 1; i >= 0; i--) {
    const call = run[i] as Call;
    const projection = call.input.projection;
    if (projection.kind !== 'subject') continue;
    const read = isRead(call);
    if (!read && (reads.size === 0 || !call.eligibility.ok)) continue;
    const key = targetKey(projection.subject);
    if (call.eligibility.ok) {
      const verbs = reads.get(key);
      let best: DecisionInput | null = null;
      if (verbs) for (const [verb, r] of verbs) if (verb !== projection.subject.verb && (!best || r.index < best.index)) best = r;
      if (best) out[call.order] = best;
    }
    if (read) {
      let verbs = reads.get(key);
      if (!verbs) reads.set(key, (verbs = new Map()));
      verbs.set(projection.subject.verb, call.input);
    }
  }
}

export interface Climb {
  /** What every call earned, by `Call.order`. */
  readonly outcomes: readonly Outcome[];
  /** What became of every record, in the order of `records`. */
  readonly records: readonly RecordVerdict[];
}

/** An eligible call as the allocation sees it. */
interface Eligible extends Claimant {
  readonly call: Call;
}

/**
 * Allocate records, find confirming reads, and return what every call earned and what became of
 * every record, each with its reason.
 * @param runs the calls of each run, in artifact then decision order
 */
export function climb(runs: readonly (readonly Call[])[], records: readonly CheckedRecord[]): Climb {
  const calls = runs.flat();
  const eligible: Eligible[] = [];
  for (const call of calls) {
    const eligibility = call.eligibility;
    if (eligibility.ok)
      eligible.push({ call, digest: eligibility.digest, provider: eligibility.provider, claimsVerified: call.claim.level === 'verified' });
  }
  // Tables by Call.order: one slot per call, no map keyed by call.
  const allocated: (UsableRecord | undefined)[] = new Array(calls.length);
  allocate(eligible, records).forEach((record, k) => {
    if (record) allocated[(eligible[k] as Eligible).call.order] = record;
  });
  const confirmed: (DecisionInput | undefined)[] = new Array(calls.length);
  for (const run of runs) confirmations(run, confirmed);

  const diagnose = diagnoser(calls, records, allocated);
  const replayed = (call: Call, why: NoRecord): boolean =>
    why.snags.some((s) => s.kind === 'taken' && replayOf(call, calls[s.holder.order] as Call));
  const outcomes = calls.map((call) => outcomeOf(call, allocated[call.order], confirmed[call.order], diagnose.noRecord, replayed));
  return { outcomes, records: diagnose.verdicts() };
}

function outcomeOf(
  call: Call,
  record: UsableRecord | undefined,
  read: DecisionInput | undefined,
  noRecord: (digest: string, provider: string | null) => NoRecord,
  replayedFor: (call: Call, why: NoRecord) => boolean,
): Outcome {
  if (!call.claim.asserted) return { level: null };
  if (record) return { level: 'verified', record, read: read ?? null };
  const eligibility = call.eligibility;
  if (!eligibility.ok) return { level: 'asserted', why: { kind: 'ineligible', reason: eligibility.reason }, replayed: false };
  const notVerified = noRecord(eligibility.digest, eligibility.provider);
  const replayed = replayedFor(call, notVerified);
  return read ? { level: 'observed_confirmed', read, notVerified, replayed } : { level: 'asserted', why: notVerified, replayed };
}
