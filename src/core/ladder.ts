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
import type { DecisionInput } from './model.js';
import { targetKey } from './projection.js';
import type { CheckedRecord, UsableRecord } from './records.js';

const READ_VERBS: ReadonlySet<string> = new Set(['get', 'list', 'read', 'describe', 'view', 'search', 'fetch']);

export type Outcome =
  /** The call asserts no side effect: no rung (§5). */
  | { readonly level: null }
  /** `read`: a later read of the same target that would have confirmed it too (what a rule's `signed-by` falls back to). */
  | { readonly level: 'verified'; readonly record: UsableRecord; readonly read: DecisionInput | null }
  | { readonly level: 'observed_confirmed'; readonly read: DecisionInput; readonly notVerified: NoRecord }
  /** Ineligible, or eligible with no record and no later read of the same target. */
  | { readonly level: 'asserted'; readonly why: NotVerified };

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
  const outcomes = calls.map((call) => outcomeOf(call, allocated[call.order], confirmed[call.order], diagnose.noRecord));
  return { outcomes, records: diagnose.verdicts() };
}

function outcomeOf(
  call: Call,
  record: UsableRecord | undefined,
  read: DecisionInput | undefined,
  noRecord: (digest: string, provider: string | null) => NoRecord,
): Outcome {
  if (!call.claim.asserted) return { level: null };
  if (record) return { level: 'verified', record, read: read ?? null };
  const eligibility = call.eligibility;
  if (!eligibility.ok) return { level: 'asserted', why: { kind: 'ineligible', reason: eligibility.reason } };
  const notVerified = noRecord(eligibility.digest, eligibility.provider);
  return read ? { level: 'observed_confirmed', read, notVerified } : { level: 'asserted', why: notVerified };
}
