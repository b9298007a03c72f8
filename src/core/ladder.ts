/**
 * The ladder (§5): what each call earns, as a value that carries its reason, decided here and only
 * here. A call that asserts no side effect has no rung at all (it may still confirm another call as
 * a read). Every call that asserts a side effect starts at `asserted`; `verified` is reachable only
 * with a `UsableRecord` the allocation gave it, `observed_confirmed` only with a later successful
 * read of the same target in the same run and the same server session of it, decided after it and
 * begun after it was decided where the run says when (`unconfirmedBy`). Nothing else promotes a
 * call. Why a call earned no more, and why a record bound nothing, are diagnosed in diagnose.ts;
 * nothing downstream searches again.
 */
import { allocate, type Claimant } from './allocation.js';
import { type Call, eligibility } from './call.js';
import { diagnoser, type NoRecord, type NotVerified, type RecordVerdict } from './diagnose.js';
import type { DecisionInput, RunInput } from './model.js';
import type { EarlierCalls } from './nearest.js';
import { targetKey } from './projection.js';
import type { CheckedRecord, UsableRecord } from './records.js';
import { compareInstants, type Instant } from './time.js';

const READ_VERBS: ReadonlySet<string> = new Set(['get', 'list', 'read', 'describe', 'view', 'search', 'fetch']);

export type Outcome =
  /** The call asserts no side effect: no rung (§5). */
  | { readonly level: null }
  /** `read`: a later read of the same target that would have confirmed it too (what a rule's `signed-by` falls back to). */
  | { readonly level: 'verified'; readonly record: UsableRecord; readonly read: DecisionInput | null }
  | { readonly level: 'observed_confirmed'; readonly read: DecisionInput; readonly notVerified: NoRecord; readonly replayed: boolean }
  /** Ineligible, or eligible with no record and no later read of the same target that confirms it (`unconfirmed`: why the later reads there are did not). */
  | { readonly level: 'asserted'; readonly why: NotVerified; readonly replayed: boolean; readonly unconfirmed: Unconfirmed | null };

/**
 * Why later successful reads of a write's target did not confirm it (§5): the earliest of them,
 * `other_session` (it was decided in another server session of the log than the write: another
 * server process, which the log cannot show served the same agent run), `decided_before` (its own
 * time is not after the write's), `begun_before` (its request began before the write was decided: it
 * ran alongside the write and may have read the state before it) or `untimed` (the write says when
 * it was decided, the read does not: nothing shows it came after), with the write's time (`decided`:
 * null only for `other_session`, whose write may have none), how many were looked past, and whether
 * the search stopped at READS_LOOKED_PAST before it found one that confirms.
 */
type UnconfirmedWhy = 'other_session' | 'decided_before' | 'begun_before' | 'untimed';

export interface Unconfirmed {
  readonly read: DecisionInput;
  readonly why: UnconfirmedWhy;
  readonly decided: Instant | null;
  /** The write says no time: `decided` is the latest time of the run's decisions before it. */
  readonly untimedWrite: boolean;
  readonly skipped: number;
  readonly capped: boolean;
}

/** Later reads of one verb that cannot confirm a write looked past before the search stops: a crafted run never makes it quadratic. */
export const READS_LOOKED_PAST = 64;

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

/**
 * Why a read later in the run than a write does not confirm it, or null when it does (§5): a read of
 * another server session of the log never does, whatever the times say (a red team: Monday's and
 * Wednesday's stderr appended with 2>> into one .log, and Wednesday's read confirmed Monday's
 * write; a format without sessions has one, 0, so nothing changes there); when the write says when
 * it was decided, the read must say so too (a red team: an event without `time`, or a plain surface
 * line in a server log, confirmed a timed write), and (each its own line) its time must be after the
 * write's; when the read says when its request began, that must be after the write was decided (a
 * read begun before ran alongside it).
 */
function unconfirmedBy(write: DecisionInput, read: DecisionInput, decided: Instant | null): UnconfirmedWhy | null {
  if (read.session !== write.session) return 'other_session';
  if (decided === null) return null;
  // Two decisions of one evidence event share the event's time (or its lack of one), which orders neither: their order in it does.
  const oneStamp = read.loc.line === write.loc.line && read.loc.member === write.loc.member && read.loc.file === write.loc.file;
  if (!oneStamp) {
    if (read.time === null) return 'untimed';
    if (compareInstants(read.time, decided) <= 0) return 'decided_before';
  }
  if (read.begun !== null && compareInstants(read.begun, decided) <= 0) return 'begun_before';
  return null;
}

/** The first read in `reads` (in run order) after position `index`, or reads.length. */
function firstAfter(reads: readonly DecisionInput[], index: number): number {
  let lo = 0;
  let hi = reads.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((reads[mid] as DecisionInput).index <= index) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** What confirms each decision of one run, by its position in the run (`confirmationsOf`). */
export interface RunConfirmations {
  /** The read that confirms it. */
  readonly confirmed: readonly (DecisionInput | undefined)[];
  /** Why the later reads of its target there are do not, when there are some. */
  readonly unconfirmed: readonly (Unconfirmed | undefined)[];
}

/** A function of one run alone, kept per run: a run is searched once, when it is read (gate/gate.ts) or verified first. */
const confirmedRuns = new WeakMap<RunInput, RunConfirmations>();

/**
 * For each decision of one run whose call can be verified (call.ts `eligibility`), the first later
 * successful read of the same target with another verb that confirms it (`unconfirmedBy`); for one
 * that has later reads of its target but none confirms it, why (the earliest such read). Per verb, at
 * most READS_LOOKED_PAST reads are looked past.
 */
export function confirmationsOf(run: RunInput): RunConfirmations {
  const known = confirmedRuns.get(run);
  if (known) return known;
  const made = confirm(run.decisions);
  confirmedRuns.set(run, made);
  return made;
}

/** A decision whose call can be verified at all (its eligibility: call.ts, the one home of that rule). */
const verifiable = (d: DecisionInput): boolean => d.claim.kind === 'claim' && eligibility(d, d.claim.claim).ok;

function confirm(decisions: readonly DecisionInput[]): RunConfirmations {
  const confirmed: (DecisionInput | undefined)[] = new Array(decisions.length);
  const unconfirmed: (Unconfirmed | undefined)[] = new Array(decisions.length);
  // A denied read never confirms anything (§5), whatever status it reports.
  const isRead = (d: DecisionInput): boolean =>
    d.projection.kind === 'subject' && READ_VERBS.has(d.projection.subject.verb) && d.succeeded && !d.denied;
  // Every successful read by target and verb, in run order (at most the seven read verbs per target).
  const reads = new Map<string, Map<string, DecisionInput[]>>();
  for (const d of decisions) {
    const projection = d.projection;
    if (projection.kind !== 'subject' || !isRead(d)) continue;
    const key = targetKey(projection.subject);
    let verbs = reads.get(key);
    if (!verbs) reads.set(key, (verbs = new Map()));
    const list = verbs.get(projection.subject.verb);
    if (list) list.push(d);
    else verbs.set(projection.subject.verb, [d]);
  }
  if (reads.size === 0) return { confirmed, unconfirmed };
  // The latest time of the run's decisions so far: a write that says no time was decided no earlier
  // (a red team: dropping a write's time let a read timed before the run's earlier events confirm it).
  let latest: Instant | null = null;
  for (let i = 0; i < decisions.length; i++) {
    const write = decisions[i] as DecisionInput;
    const time = write.time;
    const decided = time ?? latest;
    if (time !== null && (latest === null || compareInstants(time, latest) > 0)) latest = time;
    const projection = write.projection;
    if (projection.kind !== 'subject' || !verifiable(write)) continue;
    const verbs = reads.get(targetKey(projection.subject));
    if (!verbs) continue;
    let best: DecisionInput | null = null;
    let first: { read: DecisionInput; why: UnconfirmedWhy } | null = null;
    let skipped = 0;
    let capped = false;
    for (const [verb, list] of verbs) {
      if (verb === projection.subject.verb) continue;
      let passed = 0;
      for (let k = firstAfter(list, write.index); k < list.length; k++) {
        const read = list[k] as DecisionInput;
        if (best !== null && read.index >= best.index) break;
        const no = unconfirmedBy(write, read, decided);
        if (no === null) {
          best = read;
          break;
        }
        skipped++;
        if (first === null || read.index < first.read.index) first = { read, why: no };
        if (++passed >= READS_LOOKED_PAST) {
          capped ||= k + 1 < list.length;
          break;
        }
      }
    }
    if (best) confirmed[i] = best;
    else if (first !== null)
      unconfirmed[i] = { read: first.read, why: first.why, decided, untimedWrite: write.time === null, skipped, capped };
  }
  return { confirmed, unconfirmed };
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
 * @param earlier calls before these (a kept verification's): what a record that binds none is diagnosed against too (diagnose.ts)
 */
export function climb(runs: readonly (readonly Call[])[], records: readonly CheckedRecord[], earlier?: EarlierCalls): Climb {
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
  const unconfirmed: (Unconfirmed | undefined)[] = new Array(calls.length);
  for (const run of runs) {
    const [head] = run;
    if (!head) continue;
    const found = confirmationsOf(head.run);
    run.forEach((call, i) => {
      // A run's calls are its decisions in order (verify.ts `callsOf`): anything else is a bug, never a confirmation taken from another decision.
      if (call.run !== head.run || head.run.decisions[i] !== call.input)
        throw new RangeError(`call ${call.order} is not decision ${i} of ${head.run.artifact}`);
      confirmed[call.order] = found.confirmed[i];
      unconfirmed[call.order] = found.unconfirmed[i];
    });
  }

  const diagnose = diagnoser(calls, records, allocated, earlier);
  const replayed = (call: Call, why: NoRecord): boolean =>
    why.snags.some((s) => s.kind === 'taken' && replayOf(call, calls[s.holder.order] as Call));
  const outcomes = calls.map((call) =>
    outcomeOf(call, allocated[call.order], confirmed[call.order], unconfirmed[call.order] ?? null, diagnose.noRecord, replayed),
  );
  return { outcomes, records: diagnose.verdicts() };
}

function outcomeOf(
  call: Call,
  record: UsableRecord | undefined,
  read: DecisionInput | undefined,
  unconfirmed: Unconfirmed | null,
  noRecord: (digest: string, provider: string | null) => NoRecord,
  replayedFor: (call: Call, why: NoRecord) => boolean,
): Outcome {
  if (!call.claim.asserted) return { level: null };
  if (record) return { level: 'verified', record, read: read ?? null };
  const eligibility = call.eligibility;
  if (!eligibility.ok)
    return { level: 'asserted', why: { kind: 'ineligible', reason: eligibility.reason }, replayed: false, unconfirmed: null };
  const notVerified = noRecord(eligibility.digest, eligibility.provider);
  const replayed = replayedFor(call, notVerified);
  return read
    ? { level: 'observed_confirmed', read, notVerified, replayed }
    : { level: 'asserted', why: notVerified, replayed, unconfirmed };
}
