/**
 * The nearest call to a record that bound none (why a record bound nothing: core/diagnose.ts): among
 * the calls of its class and verb, the one with the most bound fields equal. One index, built per
 * class and verb only when a record asks about it; equal to a scan (a property test).
 */
import { type Call, type CallRef, callRef } from './call.js';
import { hasOwn, type JsonObject } from './json.js';
import { item } from './lists.js';
import { boundFields, boundValueText } from './projection.js';

/** Add `v` to the list at `k`. */
export function push<K, V>(map: Map<K, V[]>, k: K, v: V): void {
  const list = map.get(k);
  if (list) list.push(v);
  else map.set(k, [v]);
}

/** The target of a call that has a subject. */
const targetOf = (c: Call): JsonObject => (c.input.projection.kind === 'subject' ? c.input.projection.subject.target : {});

/** A call with a subject as a record's nearest call is found among them: where it is (a kept one is not decoded) and its target. */
export interface KindCall {
  readonly call: CallRef;
  readonly target: JsonObject;
}

/** A call as a record's nearest: where it is, its target, and how near (`nearness`) it is. */
export interface NearCall extends KindCall {
  readonly nearness: number;
}

/**
 * Calls made before a verification's own, in call order: a kept verification's, which an added one
 * is merged onto (core/incremental.ts). A record of the added files that binds no call has its
 * nearest call among them too; ties go to them (they come first).
 */
export interface EarlierCalls {
  /** The first of them of this class and verb with the greatest nearness to `target`; null: none of its kind (or the class binds no field). */
  nearest(actionClass: string, verb: string, target: JsonObject): NearCall | null;
  /**
   * For each of `targets`, every one of them of this class and verb whose bound fields all equal its
   * (a record's narrowed subject: the calls that project to its digest), in call order; null: they
   * cannot be told (a kept table refused on reading).
   */
  holding(actionClass: string, verb: string, targets: readonly JsonObject[]): (readonly KindCall[])[] | null;
  /** Why an answer given may not be the full run's (a kept table refused on reading: the merge then declines), or null. */
  doubt(): string | null;
}

/** The first of `calls` (call order) with the greatest nearness to `target` under `fields`, or null when there are none. */
export function firstNearest(fields: readonly string[], calls: Iterable<KindCall>, target: JsonObject): NearCall | null {
  let best: NearCall | null = null;
  for (const c of calls) {
    const n = nearness(fields, c.target, target);
    if (best === null || n > best.nearness) best = { call: c.call, target: c.target, nearness: n };
  }
  return best;
}

/** The nearest of two candidates, the earlier calls' first: it wins a tie (its calls come first in order). */
export function nearer(earlier: NearCall | null, own: NearCall | null): NearCall | null {
  if (earlier === null) return own;
  return own === null || earlier.nearness >= own.nearness ? earlier : own;
}

/** A call with a subject as a nearest-call candidate. */
export const candidate = (c: Call): KindCall => ({ call: callRef(c), target: targetOf(c) });

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
        const projection = c.input.projection;
        if (projection.kind === 'subject') push(this.groups, `${projection.subject.action_class}\u0000${projection.subject.verb}`, c);
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
export function subsets(n: number, size: number): number[][] {
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
  const a = ids[fields[0] ?? 0] ?? 0;
  if (fields.length === 1) return a;
  const b = ids[fields[1] ?? 0] ?? 0;
  if (fields.length === 2 && a < ID_LIMIT && b < ID_LIMIT) return a * ID_LIMIT + b;
  return fields.map((i) => ids[i]).join(',');
}

/** A value's equality key within one field: a string by itself, anything else by its canonical text (as the binding and the ladder's target key compare it). */
const valueKey = (v: unknown): { readonly isString: boolean; readonly key: string } =>
  typeof v === 'string' ? { isString: true, key: v } : { isString: false, key: boundValueText(v) };

/**
 * Field `f` of a target as one text that two targets share exactly when they agree on it
 * (`sameField`): null when absent, a string marked "s", any other value "j" and its canonical text.
 * What a kept verification's table of calls is keyed by (gate/snapshot.ts).
 */
export function fieldText(target: JsonObject, f: string): string | null {
  if (!hasOwn(target, f)) return null;
  const { isString, key } = valueKey(target[f]);
  return `${isString ? 's' : 'j'}${key}`;
}

/** Whether two targets agree on field `f` (both absent, or equal values by `valueKey`). */
export function sameField(left: JsonObject, right: JsonObject, file: string): boolean {
  const has = hasOwn(left, file);
  if (has !== hasOwn(right, file)) return false;
  if (!has) return true;
  const x = valueKey(left[file]);
  const y = valueKey(right[file]);
  return x.isString === y.isString && x.key === y.key;
}

/**
 * How near a call's target is to a record's, as the nearest call is chosen: its bound fields equal,
 * all k counting as k - 1 (all k equal is an exact match, found by digest before any nearest call).
 * Of the calls of one class and verb, the first with the greatest nearness is the nearest.
 */
export const nearness = (fields: readonly string[], callTarget: JsonObject, target: JsonObject): number =>
  Math.min(fields.length - 1, equalFields(fields, callTarget, target));

/** How many of `fields` two targets agree on (`sameField`). */
export function equalFields(fields: readonly string[], left: JsonObject, right: JsonObject): number {
  let equal = 0;
  for (const f of fields) if (sameField(left, right, f)) equal++;
  return equal;
}

/** Length and five code units of a string (the last three, the middle and the first quarter's end): equal strings always share it. */
function fingerprint(text: string): number {
  const n = text.length;
  const at = (i: number): number => (i >= 0 ? text.charCodeAt(i) : 0);
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
    const prints = fields.map((_, f) => new Set([...item(this.strings, f).keys()].map(fingerprint)));
    const k = fields.length;
    this.memberIds = new Int32Array(members.length * k);
    members.forEach((call, order) => {
      const target = targetOf(call);
      for (let f = 0; f < k; f++) {
        const name = item(fields, f);
        let id = 0; // absent
        if (hasOwn(target, name)) {
          const value = target[name];
          id = typeof value === 'string' && !item(prints, f).has(fingerprint(value)) ? UNASKED : (this.valueId(f, value, false) ?? UNASKED);
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
      for (let f = 0; f < k; f++) ids[f] = this.memberIds[order * k + f] ?? 0;
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
  private valueId(i: number, value: unknown, intern: boolean): number | undefined {
    const { isString, key } = valueKey(value);
    const strings = item(this.strings, i);
    const others = item(this.others, i);
    const map = isString ? strings : others;
    let id = map.get(key);
    if (id === undefined && intern) map.set(key, (id = strings.size + others.size + 1));
    return id;
  }

  /** The id of each bound field's value: 0 when absent, undefined when never interned. */
  private ids(target: JsonObject, intern: boolean): (number | undefined)[] {
    return this.fields.map((f, i) => (hasOwn(target, f) ? this.valueId(i, target[f], intern) : 0));
  }

  nearest(target: JsonObject): Call | null {
    const known = this.ids(target, false);
    const ids = known.filter((id): id is number => id !== undefined);
    if (ids.length < known.length) return this.scan(target);
    for (let l = 0; l < this.levels.length; l++) {
      let best = Number.POSITIVE_INFINITY;
      for (const combo of this.level(l)) {
        const hit = combo.first.get(comboKey(combo.fields, ids));
        if (hit !== undefined && hit < best) best = hit;
      }
      if (best !== Number.POSITIVE_INFINITY) return this.members[best] ?? null;
    }
    return this.members[0] ?? null;
  }

  /** A target not given first, by a scan: the first member with the most fields equal (all k count as k - 1, as in the levels). */
  private scan(target: JsonObject): Call | null {
    let best: Call | null = null;
    let most = -1;
    for (const m of this.members) {
      const equal = nearness(this.fields, targetOf(m), target);
      if (equal > most) {
        best = m;
        most = equal;
      }
    }
    return best;
  }
}
