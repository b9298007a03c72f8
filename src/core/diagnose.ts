/**
 * Diagnoses: why an eligible call got no record, and why a usable record bound no call. Both are
 * decided once, from the allocation the ladder made, and carried as values (explain.ts puts them in
 * words). Reasons list at most SNAGS_LISTED records and count the rest, and the nearest call to an
 * unmatched record is found through one index per class and verb, built only for the groups an
 * unmatched record asks about, so no diagnosis grows quadratically with the input.
 */
import { binding } from './binding.js';
import { type Call, type CallRef, callRef, isEligible, isIneligible } from './call.js';
import type { JsonObject } from './json.js';
import type { RecordInput } from './model.js';
import {
  candidate,
  type EarlierCalls,
  type KindCall,
  NearestCalls,
  type NearestQuery,
  nearer,
  nearness,
  push,
  sameField,
} from './nearest.js';
import { boundFields, narrowTarget } from './projection.js';
import { type CheckedRecord, isUnusable, isUsable, type UnusableRecord, type UsableRecord } from './records.js';
import type { Instant } from './time.js';

/** Records a reason names before it counts the rest. */
export const SNAGS_LISTED = 3;

/** Why a record whose binding is the call's subject digest did not verify the call. */
export type Snag =
  | { readonly kind: 'unusable'; readonly record: UnusableRecord }
  | { readonly kind: 'taken'; readonly record: UsableRecord; readonly holder: CallRef }
  | { readonly kind: 'other_provider'; readonly record: UsableRecord; readonly callProvider: string };

/** How snags are counted: an unusable record by its outcome, a usable one by why it did not serve. */
export type SnagKind = UnusableRecord['check']['outcome'] | 'taken' | 'other_provider';

const snagKind = (s: Snag): SnagKind => (s.kind === 'unusable' ? s.record.check.outcome : s.kind);

/** An eligible call got no record: the records of its subject that exist, and why each did not serve. */
export interface NoRecord {
  readonly kind: 'no_record';
  readonly digest: string;
  /** At most SNAGS_LISTED, in record order. */
  readonly snags: readonly Snag[];
  /** The snags not listed, counted by kind. */
  readonly more: ReadonlyMap<SnagKind, number>;
}

export type NotVerified = { readonly kind: 'ineligible'; readonly reason: string } | NoRecord;

/** Why a usable record bound no call. */
export type Unmatched =
  | {
      readonly kind: 'same_subject';
      /** The first call with this subject that names another provider. */
      readonly otherProvider: (Call & { readonly eligibility: { readonly ok: true } }) | null;
      /** The first call with this subject that cannot be verified at all. */
      readonly ineligible: (Call & { readonly eligibility: { readonly ok: false } }) | null;
      /** The first call with this subject that another record verifies, and that record. */
      readonly verified: { readonly call: Call; readonly record: UsableRecord } | null;
    }
  /** The nearest call (nearest.ts): a kept verification's may be one (core/incremental.ts), so it is named by where it is, with its target. */
  | { readonly kind: 'nearest'; readonly call: CallRef; readonly target: JsonObject; readonly differ: readonly string[] }
  | { readonly kind: 'no_call'; readonly actionClass: string; readonly verb: string };

export type RecordVerdict =
  | { readonly outcome: 'bound'; readonly record: UsableRecord; readonly call: Call }
  | { readonly outcome: 'unmatched'; readonly record: UsableRecord; readonly why: Unmatched }
  /** Unmatched while the export that holds it is younger than the policy's pending (decided in verify.ts, which knows the time). */
  | {
      readonly outcome: 'awaiting_run';
      readonly record: UsableRecord;
      readonly why: Unmatched;
      /** Until when it waits: the statement's `until` plus the policy's pending. */
      readonly until: Instant;
    }
  | { readonly outcome: UnusableRecord['check']['outcome']; readonly record: UnusableRecord };

export interface Diagnoser {
  /** Why no record served a call with this digest and provider (cached per pair). */
  noRecord(digest: string, provider: string | null): NoRecord;
  /** Every record's verdict, in record order. */
  verdicts(): RecordVerdict[];
}

/** @param earlier calls before these (a kept verification's, merged onto): a record that binds none may have its nearest among them */
export function diagnoser(
  calls: readonly Call[],
  records: readonly CheckedRecord[],
  allocated: readonly (UsableRecord | undefined)[],
  earlier?: EarlierCalls,
): Diagnoser {
  const holders = new Map<UsableRecord, Call>();
  for (const call of calls) {
    const record = allocated[call.order];
    if (record) holders.set(record, call);
  }
  return {
    noRecord: snagIndex(records, holders),
    verdicts: () => {
      const unbound = records.filter((r): r is UsableRecord => isUsable(r) && !holders.has(r));
      const unmatched = unmatchedIndex(calls, allocated, unbound, earlier);
      return records.map((record): RecordVerdict => {
        if (isUnusable(record)) return { outcome: record.check.outcome, record: record };
        const holder = holders.get(record);
        return holder
          ? { outcome: 'bound', record: record, call: holder }
          : { outcome: 'unmatched', record: record, why: unmatched(record) };
      });
    },
  };
}

/** The no-record reason when no record names the digest: nothing listed, nothing counted. */
const NO_SNAGS: readonly Snag[] = Object.freeze([]);
const NO_MORE: ReadonlyMap<SnagKind, number> = new Map();

/**
 * Why no record served a call with this digest and provider: computed once per (digest, provider),
 * listing at most SNAGS_LISTED records and counting the rest, so reasons stay small when thousands
 * of calls share one subject.
 */
function snagIndex(
  records: readonly CheckedRecord[],
  holders: ReadonlyMap<UsableRecord, Call>,
): (digest: string, provider: string | null) => NoRecord {
  const byDigest = new Map<string, CheckedRecord[]>();
  for (const r of records) {
    push(byDigest, r.input.record.binding_digest, r);
    if (r.check.recomputed !== null && r.check.recomputed !== r.input.record.binding_digest) push(byDigest, r.check.recomputed, r);
  }
  const cache = new Map<string, NoRecord>();
  return (digest, provider) => {
    // No record names this digest (the common case when a run has no exports): nothing to list or cache.
    if (!byDigest.has(digest)) return { kind: 'no_record', digest, snags: NO_SNAGS, more: NO_MORE };
    const key = `${digest}\u0000${provider ?? ''}`;
    const hit = cache.get(key);
    if (hit) return hit;
    const listed: Snag[] = [];
    const more = new Map<SnagKind, number>();
    for (const record of byDigest.get(digest) ?? []) {
      let snag: Snag;
      if (isUnusable(record)) snag = { kind: 'unusable', record };
      else {
        const holder = holders.get(record);
        // An unused usable record of this digest was refused for its provider (the only other reason).
        snag = holder
          ? { kind: 'taken', record, holder: callRef(holder) }
          : { kind: 'other_provider', record, callProvider: provider ?? '' };
      }
      if (listed.length < SNAGS_LISTED) listed.push(snag);
      else more.set(snagKind(snag), (more.get(snagKind(snag)) ?? 0) + 1);
    }
    const out: NoRecord = { kind: 'no_record', digest, snags: listed, more };
    cache.set(key, out);
    return out;
  };
}

/** The digest of a record's subject narrowed to its class's bound fields (a record may carry more), or null. */
export function narrowedDigest(input: RecordInput): string | null {
  const { subject } = input.record;
  const { action_class, verb, target } = subject;
  // A subject of just its class, verb and a target of bound fields narrows to itself: its digest is the one recomputed (no second canonical form).
  const recomputed = input.recomputed;
  const fields = boundFields(action_class);
  const keys = Object.keys(target);
  if (recomputed.ok && fields && keys.length > 0 && Object.keys(subject).length === 3 && keys.every((f) => fields.includes(f)))
    return recomputed.digest;
  const narrowed = narrowTarget(action_class, target);
  const bound = narrowed && Object.keys(narrowed).length > 0 ? binding({ action_class, verb, target: narrowed }) : null;
  return bound?.ok ? bound.digest : null;
}

/**
 * Why a usable record bound no call (`unbound`: every such record). The calls are indexed by digest
 * only for the digests those records name, and the nearest-call index only when one needs it.
 */
function unmatchedIndex(
  calls: readonly Call[],
  allocated: readonly (UsableRecord | undefined)[],
  unbound: readonly UsableRecord[],
  earlier: EarlierCalls | undefined,
): (record: UsableRecord) => Unmatched {
  const exact = new Map<UsableRecord, string | null>();
  const wanted = new Set<string>();
  for (const r of unbound) {
    const hash = narrowedDigest(r.input);
    exact.set(r, hash);
    wanted.add(r.input.record.binding_digest);
    if (hash !== null) wanted.add(hash);
  }
  let byDigest: Map<string, Call[]> | null = null;
  let nearest: NearestCalls | null = null;
  const sameSubject = new Map<string, Unmatched & { readonly kind: 'same_subject' }>();
  /** The nearest-call index, asked about every unbound record that no call matches by digest. */
  const nearestFor = (index: ReadonlyMap<string, Call[]>): NearestCalls => {
    const queries: NearestQuery[] = [];
    for (const r of unbound) {
      const digest = exact.get(r) ?? null;
      if (index.has(r.input.record.binding_digest) || (digest !== null && index.has(digest))) continue;
      const { action_class, verb, target } = r.input.record.subject;
      queries.push({ actionClass: action_class, verb, target });
    }
    return new NearestCalls(calls, queries);
  };
  return (record) => {
    if (!byDigest) {
      byDigest = new Map();
      for (const c of calls)
        if (c.input.projection.kind === 'subject' && wanted.has(c.input.projection.digest)) push(byDigest, c.input.projection.digest, c);
    }
    const digest = record.input.record.binding_digest;
    const same = byDigest.get(digest);
    if (same) {
      // One answer per subject and provider (the allocation is done): many records of one subject read its calls once (a red team: quadratic).
      const key = `${digest}\u0000${record.input.record.provider}`;
      const known = sameSubject.get(key);
      if (known) return known;
      let otherProvider: (Call & { eligibility: { ok: true } }) | null = null;
      let ineligible: (Call & { eligibility: { ok: false } }) | null = null;
      let verified: { call: Call; record: UsableRecord } | null = null;
      for (const c of same) {
        const holding = allocated[c.order];
        if (isIneligible(c)) ineligible ??= c;
        else if (holding) verified ??= { call: c, record: holding };
        else if (isEligible(c) && c.eligibility.provider !== null && c.eligibility.provider !== record.input.record.provider)
          otherProvider ??= c;
      }
      const found = { kind: 'same_subject' as const, otherProvider, ineligible, verified };
      sameSubject.set(key, found);
      return found;
    }
    const { action_class, verb, target } = record.input.record.subject;
    // A record whose target carries more than the bound fields may still equal a call on all of them.
    const hash = exact.get(record) ?? null;
    const exactly = hash === null ? undefined : byDigest.get(hash)?.[0];
    const near = exactly
      ? candidate(exactly)
      : nearestOf(earlier, (nearest ??= nearestFor(byDigest)).find(action_class, verb, target), action_class, verb, target);
    if (!near) return { kind: 'no_call', actionClass: action_class, verb };
    const keys = [...new Set([...Object.keys(near.target), ...Object.keys(target)])].sort();
    const differ = keys.filter((k) => !sameField(near.target, target, k));
    return { kind: 'nearest', call: near.call, target: near.target, differ };
  };
}

/**
 * The nearest call to a record's subject: this verification's own (`own`, found by the index) or an
 * earlier one (a kept verification's), whichever is nearer, the earlier on a tie (it comes first).
 */
function nearestOf(
  earlier: EarlierCalls | undefined,
  own: Call | null,
  actionClass: string,
  verb: string,
  target: JsonObject,
): KindCall | null {
  const mine = own && candidate(own);
  if (!earlier) return mine;
  const fields = boundFields(actionClass);
  return nearer(
    earlier.nearest(actionClass, verb, target),
    mine && fields ? { ...mine, nearness: nearness(fields, mine.target, target) } : null,
  );
}
