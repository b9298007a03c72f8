/**
 * The ladder (§5): what each call earns, as a value that carries its reason, decided here and only
 * here. A call that asserts no side effect has no rung at all (it may still confirm another call as
 * a read). Every call that asserts a side effect starts at `asserted`; `verified` is reachable only
 * with a record the allocation gave it, `observed_confirmed` only with a later successful read of
 * the same target in the same run. Nothing else promotes a call, and nothing downstream searches
 * again: explanations read the reasons made here.
 */
import { allocate, type Claimant } from './allocation.js';
import type { Claim } from './claims.js';
import type { CheckedRecord } from './records.js';
import { binding } from './binding.js';
import { boundFields, narrowTarget, targetKey } from './projection.js';
import { hasOwn, type JsonObject } from './json.js';
import type { DecisionInput, RecordInput, RunInput } from './model.js';

export const READ_VERBS: ReadonlySet<string> = new Set(['get', 'list', 'read', 'describe', 'view', 'search', 'fetch']);

/** Records a reason names before it counts the rest. */
export const SNAGS_LISTED = 3;

export type Eligibility = { readonly ok: true; readonly digest: string; readonly provider: string | null } | { readonly ok: false; readonly reason: string };

/** One recorded call: immutable; what it earned is its Outcome, never a field set later. */
export interface Call {
  readonly run: RunInput;
  readonly input: DecisionInput;
  readonly claim: Claim;
  readonly eligibility: Eligibility;
}

/** Why a record whose binding is the call's subject digest did not verify the call. */
export type Snag =
  | { readonly kind: 'inconsistent'; readonly record: CheckedRecord }
  | { readonly kind: 'duplicate'; readonly record: CheckedRecord }
  | { readonly kind: 'untrusted'; readonly record: CheckedRecord; readonly reason: string }
  | { readonly kind: 'taken'; readonly record: CheckedRecord; readonly holder: Call }
  | { readonly kind: 'other_provider'; readonly record: CheckedRecord; readonly callProvider: string };

export type SnagKind = Snag['kind'];

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

export type Outcome =
  /** The call asserts no side effect: no rung (§5). */
  | { readonly level: null }
  | { readonly level: 'verified'; readonly record: CheckedRecord }
  | { readonly level: 'observed_confirmed'; readonly read: DecisionInput; readonly notVerified: NoRecord }
  /** Ineligible, or eligible with no record and no later read of the same target. */
  | { readonly level: 'asserted'; readonly why: NotVerified };

/** Why a usable record bound no call. */
export type Unmatched =
  | {
      readonly kind: 'same_subject';
      /** The first call with this subject that names another provider. */
      readonly otherProvider: Call | null;
      /** The first call with this subject that cannot be verified at all. */
      readonly ineligible: (Call & { readonly eligibility: { readonly ok: false } }) | null;
      /** The first call with this subject that another record verifies, and that record. */
      readonly verified: { readonly call: Call; readonly record: CheckedRecord } | null;
    }
  | { readonly kind: 'nearest'; readonly call: Call; readonly differ: readonly string[] }
  | { readonly kind: 'no_call'; readonly actionClass: string; readonly verb: string };

export type RecordVerdict =
  | { readonly outcome: 'bound'; readonly record: CheckedRecord; readonly call: Call }
  | { readonly outcome: 'unmatched'; readonly record: CheckedRecord; readonly why: Unmatched }
  | { readonly outcome: 'inconsistent'; readonly record: CheckedRecord; readonly reason: string }
  | { readonly outcome: 'untrusted'; readonly record: CheckedRecord; readonly reason: string }
  | { readonly outcome: 'duplicate'; readonly record: CheckedRecord; readonly first: RecordInput };

/** Whether a call can be verified at all, and with what: decided once, before any record is seen. */
export function eligibility(input: DecisionInput, claim: Claim): Eligibility {
  if (!claim.asserted) return { ok: false, reason: 'the call does not assert a side effect (side_effect_asserted is false)' };
  if (input.denied) return { ok: false, reason: 'the call was denied (decision.effect is "deny")' };
  const p = input.projection;
  if (p.kind === 'none') return { ok: false, reason: `the call has no subject: ${p.reason}` };
  if (input.provider !== null && typeof input.provider !== 'string') return { ok: false, reason: 'action.target.provider is neither a string nor null' };
  return { ok: true, digest: p.digest, provider: input.provider };
}

/** For each eligible call of one run, the first later successful read of the same target with another verb. */
function confirmations(run: readonly Call[], out: Map<Call, DecisionInput>): void {
  // A denied read never confirms anything (§5), whatever status it reports.
  const isRead = (c: Call): boolean =>
    c.input.projection.kind === 'subject' && READ_VERBS.has(c.input.projection.subject.verb) && c.input.succeeded && !c.input.denied;
  if (!run.some(isRead)) return;
  // Walk backwards, remembering every successful read seen so far (i.e. later in the run).
  const reads = new Map<string, Map<string, DecisionInput>>(); // target key → verb → earliest later read
  for (let i = run.length - 1; i >= 0; i--) {
    const call = run[i]!;
    const p = call.input.projection;
    if (p.kind !== 'subject') continue;
    const read = isRead(call);
    if (!read && (reads.size === 0 || !call.eligibility.ok)) continue;
    const key = targetKey(p.subject);
    if (call.eligibility.ok) {
      const verbs = reads.get(key);
      let best: DecisionInput | null = null;
      if (verbs) for (const [verb, r] of verbs) if (verb !== p.subject.verb && (!best || r.index < best.index)) best = r;
      if (best) out.set(call, best);
    }
    if (read) {
      let verbs = reads.get(key);
      if (!verbs) reads.set(key, (verbs = new Map()));
      verbs.set(p.subject.verb, call.input);
    }
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const xs = m.get(k);
  if (xs) xs.push(v);
  else m.set(k, [v]);
}

export interface Climb {
  /** One outcome per call, in the order of `calls`. */
  readonly outcomes: readonly Outcome[];
  /** One verdict per record, in the order of `records`. */
  readonly records: readonly RecordVerdict[];
}

/**
 * Allocate records, find confirming reads, and return what every call earned and what became of
 * every record, each with its reason.
 * @param runs the calls of each run, in artifact then decision order
 */
export function climb(runs: readonly (readonly Call[])[], records: readonly CheckedRecord[]): Climb {
  const calls = runs.flat();
  const claimants = calls.map((c): Claimant | null =>
    c.eligibility.ok ? { digest: c.eligibility.digest, provider: c.eligibility.provider, claimsVerified: c.claim.level === 'verified' } : null,
  );
  const allocated = allocate(claimants, records);
  const holders = new Map<CheckedRecord, Call>();
  allocated.forEach((r, i) => {
    if (r) holders.set(r, calls[i]!);
  });
  const confirmed = new Map<Call, DecisionInput>();
  for (const run of runs) confirmations(run, confirmed);

  const snags = snagIndex(records, holders);
  const outcomes = calls.map((call, i): Outcome => {
    if (!call.claim.asserted) return { level: null };
    const record = allocated[i];
    if (record) return { level: 'verified', record };
    const e = call.eligibility;
    if (!e.ok) return { level: 'asserted', why: { kind: 'ineligible', reason: e.reason } };
    const notVerified = snags(e.digest, e.provider);
    const read = confirmed.get(call);
    return read ? { level: 'observed_confirmed', read, notVerified } : { level: 'asserted', why: notVerified };
  });

  let pending = 0;
  for (const r of records) if (r.check.outcome === 'usable' && !holders.has(r)) pending++;
  const unmatched = unmatchedIndex(calls, allocated, pending);
  const verdicts = records.map((r): RecordVerdict => {
    if (r.check.outcome === 'inconsistent') return { outcome: 'inconsistent', record: r, reason: r.check.reason };
    if (r.check.outcome === 'duplicate') return { outcome: 'duplicate', record: r, first: r.check.first };
    if (r.check.outcome === 'untrusted') return { outcome: 'untrusted', record: r, reason: r.check.reason };
    const holder = holders.get(r);
    return holder ? { outcome: 'bound', record: r, call: holder } : { outcome: 'unmatched', record: r, why: unmatched(r) };
  });
  return { outcomes, records: verdicts };
}

/**
 * Why no record served a call with this digest and provider: computed once per (digest, provider),
 * listing at most SNAGS_LISTED records and counting the rest, so reasons stay small when thousands
 * of calls share one subject.
 */
function snagIndex(records: readonly CheckedRecord[], holders: ReadonlyMap<CheckedRecord, Call>): (digest: string, provider: string | null) => NoRecord {
  const byDigest = new Map<string, CheckedRecord[]>();
  for (const r of records) {
    push(byDigest, r.input.record.binding_digest, r);
    if (r.check.recomputed !== null && r.check.recomputed !== r.input.record.binding_digest) push(byDigest, r.check.recomputed, r);
  }
  const cache = new Map<string, NoRecord>();
  return (digest, provider) => {
    const key = `${digest}\u0000${provider ?? ''}`;
    const hit = cache.get(key);
    if (hit) return hit;
    const listed: Snag[] = [];
    const more = new Map<SnagKind, number>();
    for (const record of byDigest.get(digest) ?? []) {
      let snag: Snag;
      if (record.check.outcome === 'inconsistent') snag = { kind: 'inconsistent', record };
      else if (record.check.outcome === 'duplicate') snag = { kind: 'duplicate', record };
      else if (record.check.outcome === 'untrusted') snag = { kind: 'untrusted', record, reason: record.check.reason };
      else {
        const holder = holders.get(record);
        // An unused usable record of this digest was refused for its provider (the only other reason).
        snag = holder ? { kind: 'taken', record, holder } : { kind: 'other_provider', record, callProvider: provider ?? '' };
      }
      if (listed.length < SNAGS_LISTED) listed.push(snag);
      else more.set(snag.kind, (more.get(snag.kind) ?? 0) + 1);
    }
    const out: NoRecord = { kind: 'no_record', digest, snags: listed, more };
    cache.set(key, out);
    return out;
  };
}

/** Why a usable record bound no call; the call-side indexes are built only when a record needs them. */
/** Below this many record × call comparisons, the nearest call is found by a scan; above, by an index. */
const SCAN_BUDGET = 50_000_000;

function unmatchedIndex(calls: readonly Call[], allocated: readonly (CheckedRecord | null)[], pending: number): (r: CheckedRecord) => Unmatched {
  let byDigest: Map<string, number[]> | null = null;
  let nearest: { find(actionClass: string, verb: string, target: JsonObject): Call | null } | null = null;
  return (r) => {
    if (!byDigest) {
      byDigest = new Map();
      calls.forEach((c, i) => {
        if (c.input.projection.kind === 'subject') push(byDigest!, c.input.projection.digest, i);
      });
    }
    const digest = r.input.record.binding_digest;
    const same = byDigest.get(digest);
    if (same) {
      let otherProvider: Call | null = null;
      let ineligible: (Call & { eligibility: { ok: false } }) | null = null;
      let verified: { call: Call; record: CheckedRecord } | null = null;
      for (const i of same) {
        const c = calls[i]!;
        const e = c.eligibility;
        if (!e.ok) ineligible ??= c as Call & { eligibility: { ok: false } };
        else if (allocated[i]) verified ??= { call: c, record: allocated[i]! };
        else if (e.provider !== null && e.provider !== r.input.record.provider) otherProvider ??= c;
      }
      return { kind: 'same_subject', otherProvider, ineligible, verified };
    }
    const { action_class, verb, target } = r.input.record.subject;
    // A record whose target carries more than the bound fields may still equal a call on all of them.
    const narrowed = narrowTarget(action_class, target);
    const b = narrowed && Object.keys(narrowed).length > 0 ? binding({ action_class, verb, target: narrowed }) : null;
    const exact = b?.ok ? byDigest.get(b.digest)?.[0] : undefined;
    // A few unmatched records: scan their groups (cheap); many: build the index once (linear).
    if (exact === undefined) nearest ??= pending * calls.length <= SCAN_BUDGET ? new NearestScan(calls) : new NearestIndex(calls);
    const near = exact !== undefined ? calls[exact]! : nearest!.find(action_class, verb, target);
    if (!near) return { kind: 'no_call', actionClass: action_class, verb };
    const t = (near.input.projection as { subject: { target: JsonObject } }).subject.target;
    const keys = [...new Set([...Object.keys(t), ...Object.keys(target)])].sort();
    const differ = keys.filter((k) => JSON.stringify(t[k]) !== JSON.stringify(target[k]));
    return { kind: 'nearest', call: near, differ };
  };
}

/** Whether a call's and a record's target agree on a field (absent on both counts as agreeing). */
function sameField(a: JsonObject, b: JsonObject, k: string): boolean {
  const ha = hasOwn(a, k);
  if (ha !== hasOwn(b, k)) return false;
  if (!ha) return true;
  const x = a[k];
  const y = b[k];
  return typeof x === 'string' || typeof y === 'string' ? x === y : JSON.stringify(x) === JSON.stringify(y);
}

/** The nearest call by a scan of the calls of the record's class and verb (nothing kept but the groups). */
class NearestScan {
  private groups: Map<string, number[]> | null = null;

  constructor(private readonly calls: readonly Call[]) {}

  find(actionClass: string, verb: string, target: JsonObject): Call | null {
    const fields = boundFields(actionClass);
    if (!fields) return null;
    if (!this.groups) {
      const groups = new Map<string, number[]>();
      this.calls.forEach((c, i) => {
        const p = c.input.projection;
        if (p.kind === 'subject') push(groups, `${p.subject.action_class}\u0000${p.subject.verb}`, i);
      });
      this.groups = groups;
    }
    let best = -1;
    let bestEqual = -1;
    for (const i of this.groups.get(`${actionClass}\u0000${verb}`) ?? []) {
      const t = (this.calls[i]!.input.projection as { subject: { target: JsonObject } }).subject.target;
      let equal = 0;
      for (const f of fields) if (sameField(t, target, f)) equal++;
      if (equal > bestEqual) {
        best = i;
        bestEqual = equal;
        if (equal === fields.length) break;
      }
    }
    return best < 0 ? null : this.calls[best]!;
  }
}

/**
 * The nearest call to a record's subject among calls of the same class and verb: the most equal
 * bound fields (so the fewest differing), ties to the first in order. Built once, when the first
 * record needs it: per class and verb, each bound field's values are interned to small numbers,
 * and the first call with each value of one field and each pair of values of two fields is
 * remembered under a numeric key, so a query is a few lookups and the index holds no new strings.
 */
class NearestIndex {
  private readonly groups = new Map<string, Group>();

  constructor(private readonly calls: readonly Call[]) {
    calls.forEach((call, order) => {
      const p = call.input.projection;
      if (p.kind !== 'subject') return;
      const key = `${p.subject.action_class}\u0000${p.subject.verb}`;
      let g = this.groups.get(key);
      if (!g) this.groups.set(key, (g = new Group(boundFields(p.subject.action_class)!, order)));
      g.add(p.subject.target, order);
    });
  }

  find(actionClass: string, verb: string, target: JsonObject): Call | null {
    const g = this.groups.get(`${actionClass}\u0000${verb}`);
    const order = g?.nearest(target);
    return order === undefined ? null : this.calls[order]!;
  }
}

/** Interned value ids are below 2^21, so a pair of them is one exact number (2^42). */
const ID_LIMIT = 2 ** 21;

class Group {
  /** Per bound field: value → id (0: absent). String values are their own keys (no copy). */
  private readonly ids: Map<unknown, number>[];
  /** Per bound field: value id → first call. */
  private readonly singles: Map<number, number>[];
  /** Per pair of bound fields (i < j): id_i · 2^21 + id_j → first call. */
  private readonly pairs: Map<number, number>[];
  private readonly pairIndex: (readonly [number, number])[] = [];
  /** Past ID_LIMIT distinct values the index stops growing; queries then fall back to the first call. */
  private full = false;

  constructor(
    private readonly fields: readonly string[],
    private readonly first: number,
  ) {
    this.ids = fields.map(() => new Map());
    this.singles = fields.map(() => new Map());
    for (let i = 0; i < fields.length; i++) for (let j = i + 1; j < fields.length; j++) this.pairIndex.push([i, j]);
    this.pairs = this.pairIndex.map(() => new Map());
  }

  private valueKey(target: JsonObject, f: string): unknown {
    if (!hasOwn(target, f)) return undefined;
    const v = target[f];
    return typeof v === 'string' ? v : `\u0001${JSON.stringify(v)}`;
  }

  private id(i: number, target: JsonObject, intern: boolean): number | undefined {
    const k = this.valueKey(target, this.fields[i]!);
    if (k === undefined) return 0;
    const m = this.ids[i]!;
    let id = m.get(k);
    if (id === undefined && intern) {
      if (m.size + 1 >= ID_LIMIT) {
        this.full = true;
        return undefined;
      }
      m.set(k, (id = m.size + 1));
    }
    return id;
  }

  add(target: JsonObject, order: number): void {
    if (this.full) return;
    const ids: number[] = [];
    for (let i = 0; i < this.fields.length; i++) {
      const id = this.id(i, target, true);
      if (id === undefined) return;
      ids.push(id);
      if (!this.singles[i]!.has(id)) this.singles[i]!.set(id, order);
    }
    this.pairIndex.forEach(([i, j], p) => {
      const k = ids[i]! * ID_LIMIT + ids[j]!;
      if (!this.pairs[p]!.has(k)) this.pairs[p]!.set(k, order);
    });
  }

  /** The first call with the most bound fields equal to the target's (a record's whole subject never equals a call's here). */
  nearest(target: JsonObject): number {
    const ids = this.fields.map((_, i) => this.id(i, target, false));
    let best: number | undefined;
    this.pairIndex.forEach(([i, j], p) => {
      const a = ids[i];
      const b = ids[j];
      if (a === undefined || b === undefined) return;
      const hit = this.pairs[p]!.get(a * ID_LIMIT + b);
      if (hit !== undefined && (best === undefined || hit < best)) best = hit;
    });
    if (best !== undefined) return best;
    ids.forEach((a, i) => {
      if (a === undefined) return;
      const hit = this.singles[i]!.get(a);
      if (hit !== undefined && (best === undefined || hit < best)) best = hit;
    });
    return best ?? this.first;
  }
}
