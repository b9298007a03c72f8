/**
 * Diagnoses: why an eligible call got no record, and why a usable record bound no call. Both are
 * decided once, from the allocation the ladder made, and carried as values (explain.ts puts them in
 * words). Reasons list at most SNAGS_LISTED records and count the rest, and the nearest call to an
 * unmatched record is found through one index per class and verb, built only for the groups an
 * unmatched record asks about, so no diagnosis grows quadratically with the input.
 */
import { binding } from './binding.js';
import type { Call } from './call.js';
import { hasOwn, type JsonObject } from './json.js';
import { boundFields, boundValueText, narrowTarget } from './projection.js';
import { type CheckedRecord, isUsable, type UnusableRecord, type UsableRecord } from './records.js';

/** Records a reason names before it counts the rest. */
export const SNAGS_LISTED = 3;

/** Why a record whose binding is the call's subject digest did not verify the call. */
export type Snag =
  | { readonly kind: 'unusable'; readonly record: UnusableRecord }
  | { readonly kind: 'taken'; readonly record: UsableRecord; readonly holder: Call }
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
  | { readonly kind: 'nearest'; readonly call: Call; readonly differ: readonly string[] }
  | { readonly kind: 'no_call'; readonly actionClass: string; readonly verb: string };

export type RecordVerdict =
  | { readonly outcome: 'bound'; readonly record: UsableRecord; readonly call: Call }
  | { readonly outcome: 'unmatched'; readonly record: UsableRecord; readonly why: Unmatched }
  | { readonly outcome: UnusableRecord['check']['outcome']; readonly record: UnusableRecord };

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const xs = m.get(k);
  if (xs) xs.push(v);
  else m.set(k, [v]);
}

export interface Diagnoser {
  /** Why no record served a call with this digest and provider (cached per pair). */
  noRecord(digest: string, provider: string | null): NoRecord;
  /** Every record's verdict, in record order. */
  verdicts(): RecordVerdict[];
}

export function diagnoser(
  calls: readonly Call[],
  records: readonly CheckedRecord[],
  allocated: readonly (UsableRecord | undefined)[],
): Diagnoser {
  const holders = new Map<UsableRecord, Call>();
  for (const call of calls) {
    const r = allocated[call.order];
    if (r) holders.set(r, call);
  }
  return {
    noRecord: snagIndex(records, holders),
    verdicts: () => {
      const unbound = records.filter((r): r is UsableRecord => isUsable(r) && !holders.has(r));
      const unmatched = unmatchedIndex(calls, allocated, unbound);
      return records.map((r): RecordVerdict => {
        if (!isUsable(r)) {
          const u = r as UnusableRecord;
          return { outcome: u.check.outcome, record: u };
        }
        const holder = holders.get(r);
        return holder ? { outcome: 'bound', record: r, call: holder } : { outcome: 'unmatched', record: r, why: unmatched(r) };
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
      if (!isUsable(record)) snag = { kind: 'unusable', record: record as UnusableRecord };
      else {
        const holder = holders.get(record);
        // An unused usable record of this digest was refused for its provider (the only other reason).
        snag = holder ? { kind: 'taken', record, holder } : { kind: 'other_provider', record, callProvider: provider ?? '' };
      }
      if (listed.length < SNAGS_LISTED) listed.push(snag);
      else more.set(snagKind(snag), (more.get(snagKind(snag)) ?? 0) + 1);
    }
    const out: NoRecord = { kind: 'no_record', digest, snags: listed, more };
    cache.set(key, out);
    return out;
  };
}

/** The target of a call that has a subject. */
const targetOf = (c: Call): JsonObject => (c.input.projection.kind === 'subject' ? c.input.projection.subject.target : {});

/** The digest of a record's subject narrowed to its class's bound fields (a record may carry more), or null. */
function narrowedDigest(r: UsableRecord): string | null {
  const { action_class, verb, target } = r.input.record.subject;
  const narrowed = narrowTarget(action_class, target);
  const b = narrowed && Object.keys(narrowed).length > 0 ? binding({ action_class, verb, target: narrowed }) : null;
  return b?.ok ? b.digest : null;
}

/**
 * Why a usable record bound no call (`unbound`: every such record). The calls are indexed by digest
 * only for the digests those records name, and the nearest-call index only when one needs it.
 */
function unmatchedIndex(
  calls: readonly Call[],
  allocated: readonly (UsableRecord | undefined)[],
  unbound: readonly UsableRecord[],
): (r: UsableRecord) => Unmatched {
  const exact = new Map<UsableRecord, string | null>();
  const wanted = new Set<string>();
  for (const r of unbound) {
    const d = narrowedDigest(r);
    exact.set(r, d);
    wanted.add(r.input.record.binding_digest);
    if (d !== null) wanted.add(d);
  }
  let byDigest: Map<string, Call[]> | null = null;
  let nearest: NearestCalls | null = null;
  /** The nearest-call index, asked about every unbound record that no call matches by digest. */
  const nearestFor = (index: ReadonlyMap<string, Call[]>): NearestCalls => {
    const queries: NearestQuery[] = [];
    for (const r of unbound) {
      const d = exact.get(r) ?? null;
      if (index.has(r.input.record.binding_digest) || (d !== null && index.has(d))) continue;
      const { action_class, verb, target } = r.input.record.subject;
      queries.push({ actionClass: action_class, verb, target });
    }
    return new NearestCalls(calls, queries);
  };
  return (r) => {
    if (!byDigest) {
      byDigest = new Map();
      for (const c of calls)
        if (c.input.projection.kind === 'subject' && wanted.has(c.input.projection.digest)) push(byDigest, c.input.projection.digest, c);
    }
    const digest = r.input.record.binding_digest;
    const same = byDigest.get(digest);
    if (same) {
      let otherProvider: (Call & { eligibility: { ok: true } }) | null = null;
      let ineligible: (Call & { eligibility: { ok: false } }) | null = null;
      let verified: { call: Call; record: UsableRecord } | null = null;
      for (const c of same) {
        const e = c.eligibility;
        const holding = allocated[c.order];
        if (!e.ok) ineligible ??= c as Call & { eligibility: { ok: false } };
        else if (holding) verified ??= { call: c, record: holding };
        else if (e.provider !== null && e.provider !== r.input.record.provider) otherProvider ??= c as Call & { eligibility: { ok: true } };
      }
      return { kind: 'same_subject', otherProvider, ineligible, verified };
    }
    const { action_class, verb, target } = r.input.record.subject;
    // A record whose target carries more than the bound fields may still equal a call on all of them.
    const d = exact.get(r) ?? null;
    const near = (d === null ? undefined : byDigest.get(d)?.[0]) ?? (nearest ??= nearestFor(byDigest)).find(action_class, verb, target);
    if (!near) return { kind: 'no_call', actionClass: action_class, verb };
    const t = targetOf(near);
    const keys = [...new Set([...Object.keys(t), ...Object.keys(target)])].sort();
    const differ = keys.filter((k) => !sameField(t, target, k));
    return { kind: 'nearest', call: near, differ };
  };
}

/** A subject a record names, asked about: its class, verb and (whole) target. */
export interface NearestQuery {
  readonly actionClass: string;
  readonly verb: string;
  readonly target: JsonObject;
}

/**
 * The nearest call to a record's subject among the calls of its class and verb: the most bound
 * fields equal (absent on both counts as equal; a string equals only a string), ties to the first
 * in order. The record's whole narrowed subject never equals a call's here (that is an exact match,
 * found by digest first), so with k bound fields the best is k - 1 equal. The subjects that will be
 * asked about are given first: per class and verb, only their field values are interned (a call's
 * value that no query holds can equal none of them), and the first call holding each combination of
 * k - 1, …, 1 of those values is remembered, a level only when a query gets that far. A query is a
 * few lookups; a group is indexed only when a record asks about it; a target not given first is
 * answered by a scan.
 */
export class NearestCalls {
  private groups: Map<string, Call[]> | null = null;
  private readonly indexes = new Map<string, GroupIndex>();
  private readonly asked = new Map<string, JsonObject[]>();

  constructor(
    private readonly calls: readonly Call[],
    queries: readonly NearestQuery[],
  ) {
    for (const q of queries) push(this.asked, `${q.actionClass}\u0000${q.verb}`, q.target);
  }

  find(actionClass: string, verb: string, target: JsonObject): Call | null {
    const fields = boundFields(actionClass);
    if (!fields) return null;
    if (!this.groups) {
      this.groups = new Map();
      for (const c of this.calls) {
        const p = c.input.projection;
        if (p.kind === 'subject') push(this.groups, `${p.subject.action_class}\u0000${p.subject.verb}`, c);
      }
    }
    const key = `${actionClass}\u0000${verb}`;
    const members = this.groups.get(key);
    if (!members) return null;
    let index = this.indexes.get(key);
    if (!index) this.indexes.set(key, (index = new GroupIndex(fields, members, this.asked.get(key) ?? [])));
    return index.nearest(target);
  }
}

/** All subsets of {0 … n-1} of size `size`, in lexicographic order. */
function subsets(n: number, size: number): number[][] {
  if (size === 0) return [[]];
  const out: number[][] = [];
  for (let first = 0; first <= n - size; first++)
    for (const rest of subsets(n - first - 1, size - 1)) out.push([first, ...rest.map((x) => x + first + 1)]);
  return out;
}

/** Below this, two value ids fit one number exactly (2 × 26 bits < 2^53). */
const ID_LIMIT = 2 ** 26;

/** The key of a combination of field value ids: a number for one or two small ids (the common case, no string made), else their list. */
function comboKey(fields: readonly number[], ids: readonly number[]): string | number {
  const a = ids[fields[0] as number] as number;
  if (fields.length === 1) return a;
  const b = ids[fields[1] as number] as number;
  if (fields.length === 2 && a < ID_LIMIT && b < ID_LIMIT) return a * ID_LIMIT + b;
  return fields.map((i) => ids[i]).join(',');
}

/** A value's equality key within one field: a string by itself, anything else by its canonical text (as the binding and the ladder's target key compare it). */
const valueKey = (v: unknown): { readonly isString: boolean; readonly key: string } =>
  typeof v === 'string' ? { isString: true, key: v } : { isString: false, key: boundValueText(v) };

/** Whether two targets agree on field `f` (both absent, or equal values by `valueKey`). */
function sameField(a: JsonObject, b: JsonObject, f: string): boolean {
  const has = hasOwn(a, f);
  if (has !== hasOwn(b, f)) return false;
  if (!has) return true;
  const x = valueKey(a[f]);
  const y = valueKey(b[f]);
  return x.isString === y.isString && x.key === y.key;
}

/** Length and five code units of a string (the last three, the middle and the first quarter's end): equal strings always share it. */
function fingerprint(s: string): number {
  const n = s.length;
  const at = (i: number): number => (i >= 0 ? s.charCodeAt(i) : 0);
  let h = Math.imul(n, 65599) + at(n - 1);
  h = Math.imul(h, 65599) + at(n - 2);
  h = Math.imul(h, 65599) + at(n - 3);
  h = Math.imul(h, 65599) + at(n >> 1);
  return (Math.imul(h, 65599) + at(n >> 2)) | 0;
}

/** A member's value that no query holds. */
const UNASKED = -1;

type Level = readonly { readonly fields: readonly number[]; readonly first: Map<string | number, number> }[];

class GroupIndex {
  /** Per bound field: the queries' string values → id, their other JSON values (by canonical text) → id; 0 is "absent". */
  private readonly strings: Map<string, number>[];
  private readonly others: Map<string, number>[];
  /** Every member's value ids, field by field (members × fields); UNASKED for a value no query holds. */
  private readonly memberIds: Int32Array;
  /**
   * From the largest combination (k - 1 fields) down to single fields: the ids joined → the first
   * member holding them. A level is indexed the first time a query gets that far (most stop at the first).
   */
  private readonly levels: (Level | null)[];

  constructor(
    private readonly fields: readonly string[],
    private readonly members: readonly Call[],
    queries: readonly JsonObject[],
  ) {
    this.strings = fields.map(() => new Map());
    this.others = fields.map(() => new Map());
    this.levels = fields.slice(1).map(() => null);
    for (const q of queries) this.ids(q, true);
    // A cheap fingerprint of each string a query holds: most call values are told apart by it
    // without hashing the whole string (call values are mostly hashes, each distinct).
    const prints = fields.map((_, f) => new Set([...(this.strings[f] as Map<string, number>).keys()].map(fingerprint)));
    const k = fields.length;
    this.memberIds = new Int32Array(members.length * k);
    members.forEach((call, order) => {
      const t = targetOf(call);
      for (let f = 0; f < k; f++) {
        const name = fields[f] as string;
        let id = 0; // absent
        if (hasOwn(t, name)) {
          const v = t[name];
          id = typeof v === 'string' && !(prints[f] as Set<number>).has(fingerprint(v)) ? UNASKED : (this.valueId(f, v, false) ?? UNASKED);
        }
        this.memberIds[order * k + f] = id;
      }
    });
  }

  /** Level `l` (0: combinations of k - 1 fields), indexed on first use; a combination holding an unasked value is left out. */
  private level(l: number): Level {
    const built = this.levels[l];
    if (built) return built;
    const k = this.fields.length;
    const combos = subsets(k, k - 1 - l).map((fs) => ({ fields: fs, first: new Map<string | number, number>() }));
    const ids: number[] = new Array(k).fill(0);
    for (let order = 0; order < this.members.length; order++) {
      for (let f = 0; f < k; f++) ids[f] = this.memberIds[order * k + f] as number;
      for (const combo of combos) {
        if (combo.fields.some((i) => ids[i] === UNASKED)) continue;
        const key = comboKey(combo.fields, ids);
        if (!combo.first.has(key)) combo.first.set(key, order);
      }
    }
    this.levels[l] = combos;
    return combos;
  }

  /** The id of a value of field `i` (present), or undefined when it was never interned. */
  private valueId(i: number, v: unknown, intern: boolean): number | undefined {
    const { isString, key } = valueKey(v);
    const strings = this.strings[i] as Map<string, number>;
    const others = this.others[i] as Map<string, number>;
    const m = isString ? strings : others;
    let id = m.get(key);
    if (id === undefined && intern) m.set(key, (id = strings.size + others.size + 1));
    return id;
  }

  /** The id of each bound field's value: 0 when absent, undefined when never interned. */
  private ids(target: JsonObject, intern: boolean): (number | undefined)[] {
    return this.fields.map((f, i) => (hasOwn(target, f) ? this.valueId(i, target[f], intern) : 0));
  }

  nearest(target: JsonObject): Call | null {
    const ids = this.ids(target, false);
    if (ids.some((id) => id === undefined)) return this.scan(target);
    for (let l = 0; l < this.levels.length; l++) {
      let best = Number.POSITIVE_INFINITY;
      for (const combo of this.level(l)) {
        const hit = combo.first.get(comboKey(combo.fields, ids as number[]));
        if (hit !== undefined && hit < best) best = hit;
      }
      if (best !== Number.POSITIVE_INFINITY) return this.members[best] ?? null;
    }
    return this.members[0] ?? null;
  }

  /** A target not given first, by a scan: the first member with the most fields equal (all k count as k - 1, as in the levels). */
  private scan(target: JsonObject): Call | null {
    const k = this.fields.length;
    let best: Call | null = null;
    let most = -1;
    for (const m of this.members) {
      const equal = Math.min(k - 1, this.fields.filter((f) => sameField(targetOf(m), target, f)).length);
      if (equal > most) {
        best = m;
        most = equal;
      }
    }
    return best;
  }
}
