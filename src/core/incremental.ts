/**
 * Incremental verification, its core (design/incremental-verification.md, stops 2 and 3): a
 * verification kept as a `Part` (what a snapshot holds: the report's shares, how long they hold, the
 * couplings another file could have with them, and where its files' elements sit in the report's
 * lists), and the merge of a part verified alone (added files, after the kept ones or among them)
 * onto a kept part. The merge is the report a full verification of both would
 * give, byte for byte, or it declines and says why: a full run is then due. Every rule that reads
 * across files (verify.ts and the modules it calls) is either answered here by a coupling that must
 * be absent, or is a count or list in `Shares` that adds up; `assemble` (verify.ts) renders the
 * report from the merged shares, as it does for one verification.
 */

import { binding } from './binding.js';
import { Clock, type HeldUntil, Validity } from './clock.js';
import { narrowedDigest } from './diagnose.js';
import { byLocation, compareFindings, type Finding } from './findings.js';
import type { JsonObject } from './json.js';
import type { Evidence, RecordInput, VerifyOptions } from './model.js';
import { candidate, type EarlierCalls, equalFields, firstNearest, type KindCall, nearness, push } from './nearest.js';
import { NO_POLICY, type Policy } from './policy.js';
import { boundFields, narrowTarget } from './projection.js';
import { identityDigest } from './records.js';
import type { Report } from './report.js';
import { Requirements } from './requirements.js';
import { cmp } from './text.js';
import { compareInstants, type Instant } from './time.js';
import { addTallies, assemble, type Echoed, type Shares, verification } from './verify.js';
import type { RecordOutcome } from './vocabulary.js';

/** Strings as a merge reads them: how many, whether one is there, each in turn (a Set; a snapshot's packed digests, gate/snapshot.ts). */
export interface Members extends Iterable<string> {
  readonly size: number;
  has(value: string): boolean;
  /** Which of `values` are members, looked up together (a snapshot's digests: one pass over its file); else each with `has`. */
  among?(values: Iterable<string>): string[];
  /** Why some members could not be read when asked for (every look-up since may have missed one), or null. */
  doubt?(): string | null;
}

/**
 * A record that bound no call, as another part's calls could change its nearest: its target, how near
 * its nearest call is (`nearness`; all bound fields equal: their count; null: no call of its kind, so
 * any other becomes its nearest), and the run that call is in (ties go to the call that comes first).
 */
export interface UnboundRecord {
  readonly target: JsonObject;
  readonly nearest: number | null;
  readonly at: string | null;
}

/** What a part's files hold that another part's files could be coupled to (the design's indexes, "The dirty set"). */
export interface Couplings {
  /**
   * Every subject digest its calls project to (eligible or not: a record's diagnosis names an
   * ineligible call of its subject) and claim: the allocation, the snags, replays and `same_subject`
   * all meet a call by digest.
   */
  readonly callDigests: Members;
  /**
   * Every record's binding, recomputed and narrowed digest. Records of one digest that no call holds
   * on either side meet nothing: each is diagnosed as it would be alone (its identity aside, below).
   */
  readonly recordDigests: Members;
  /**
   * Every record's identity (provider, record_id) as the sha256 digest of its text (`identityDigest`):
   * copies and conflicting copies meet across exports (records.ts). Digests, so a snapshot keeps them
   * as it keeps the subjects' (packed bytes looked up by halving, gate/snapshot.ts), not as 60 000
   * strings its header would parse at every merge.
   */
  readonly identities: Members;
  /** The (class, verb) of every call with a subject: what an unmatched record's nearest call is found among (nearest.ts). */
  readonly callKinds: ReadonlySet<string>;
  /** The (class, verb) of every record that bound no call: its diagnosis reads every call of its kind. */
  readonly unboundKinds: ReadonlySet<string>;
  /** Per (class, verb), each record that bound no call and whose nearest call another part's call could change. */
  readonly unbound: ReadonlyMap<string, readonly UnboundRecord[]>;
  /** Per (class, verb), the calls with a subject, in call order: made when first asked (an added part's; a kept part's when a snapshot is kept). */
  readonly calls: () => ReadonlyMap<string, readonly KindCall[]>;
  /** The part's calls as the calls before an added part's: what an added record that binds no call finds its nearest among. */
  readonly earlier: EarlierCalls;
  /** Coverage statements read (usable or not). */
  readonly statements: number;
}

/** A report list's elements by the file each names, in the list's order (path order): [the file, how many] (`reportLayouts`). */
export type Layout = readonly (readonly [string, number])[];

/** Where a report's runs, calls and records come from (a snapshot keeps each file's bytes of them: gate/snapshot.ts). */
export interface Layouts {
  readonly runs: Layout;
  readonly calls: Layout;
  readonly records: Layout;
}

/**
 * A merged list as stretches of one part's elements, in order: [the part, how many] (`weave`);
 * `dropped`: kept elements left out, their files verified again with the added ones (`Overlap`).
 */
export type Weave = readonly (readonly ['kept' | 'added' | 'dropped', number])[];

/** How the added part's runs, calls and records go among the kept part's (a merge: the JSON writer weaves a snapshot's bytes by them). */
export interface Weaves {
  readonly runs: Weave;
  readonly calls: Weave;
  readonly records: Weave;
}

/** Elements by the file each names, consecutive ones of one file together. */
function layoutOf<T>(items: readonly T[], fileOf: (item: T) => string): Layout {
  const out: [string, number][] = [];
  let last: [string, number] | undefined;
  for (const item of items) {
    const file = fileOf(item);
    if (last?.[0] === file) last[1]++;
    else out.push((last = [file, 1]));
  }
  return out;
}

/** A report's lists by file: runs and calls by their run's artifact, records by the file each is located in. */
const reportLayouts = (report: Pick<Report, 'runs' | 'calls' | 'records'>): Layouts => ({
  runs: layoutOf(report.runs, (r) => r.artifact),
  calls: layoutOf(report.calls, (c) => c.artifact),
  records: layoutOf(report.records, (r) => r.file),
});

/**
 * Two parts' elements of one list in the full run's order (path order, each file's own in their order),
 * as stretches of each; or why not: a file in both parts, or files out of order.
 */
function weave(kept: Layout, added: Layout, what: string, drop: ReadonlySet<string>): Weave | string {
  const out: ['kept' | 'added' | 'dropped', number][] = [];
  const stretch = (side: 'kept' | 'added' | 'dropped', n: number): void => {
    const last = out[out.length - 1];
    if (last?.[0] === side) last[1] += n;
    else out.push([side, n]);
  };
  let i = 0;
  let j = 0;
  let before: string | null = null;
  for (;;) {
    const k = kept[i];
    if (k && drop.has(k[0])) {
      stretch('dropped', k[1]);
      i++;
      continue;
    }
    const a = added[j];
    if (!k && !a) return out;
    const order = k && a ? cmp(k[0], a[0]) : k ? -1 : 1;
    if (order === 0) return `${what} of ${a?.[0]} are in both parts`;
    const side = order < 0 ? 'kept' : 'added';
    const [file, n] = (order < 0 ? k : a) as readonly [string, number];
    if (before !== null && cmp(before, file) >= 0) return `${what} are not in path order (${file})`;
    before = file;
    stretch(side, n);
    if (side === 'kept') i++;
    else j++;
  }
}

/** Whether some of the added part's elements come before some of the kept part's (those dropped aside). */
function interleaves(w: Weave): boolean {
  let added = false;
  for (const [side] of w) {
    if (side === 'added') added = true;
    else if (side === 'kept' && added) return true;
  }
  return false;
}

/** A merged list of elements held by both parts (a verification kept in memory), or the added part's alone: a snapshot's kept elements are bytes, woven by the JSON writer. */
function woven<T>(kept: readonly T[], added: readonly T[], w: Weave): readonly T[] {
  if (kept.length === 0) return added;
  const out: T[] = [];
  let i = 0;
  let j = 0;
  for (const [side, n] of w)
    if (side === 'dropped') i += n;
    else if (side === 'kept') for (const end = i + n; i < end; i++) out.push(kept[i] as T);
    else for (const end = j + n; j < end; j++) out.push(added[j] as T);
  return out;
}

/** A verification kept to be merged onto: its shares, when it was made, until when it holds, what it couples by. */
export interface Part {
  /** The calls it was verified after (`partOf`'s `earlier`): an added part's records were diagnosed against them too; null: none. */
  readonly after: EarlierCalls | null;
  readonly at: Instant;
  readonly heldUntil: HeldUntil;
  readonly shares: Shares;
  readonly couplings: Couplings;
  /** The report's `policy` member as JSON text, but for the commit its file was read at (`judgedUnder`): the rules and trust settings it was judged under. */
  readonly policy: string;
  /** Its report's runs, calls and records by file. */
  readonly layouts: Layouts;
}

/**
 * The report's `policy` member as the text two parts must share to merge: all of it but the commit
 * the policy file was read at. A pull request reads its policy at its base commit (docs/policy.md §9),
 * and the kept verification was made at another: the same bytes (their sha256 stays in the text, and
 * is in the snapshot's key) are the same rules. What a report says of the commit is never a part's:
 * the member and every finding placed in the policy file are made by `assemble` from this run's policy.
 */
export function judgedUnder(policy: Report['policy']): string {
  const source = policy.source;
  return JSON.stringify(source === undefined ? policy : { ...policy, source: { ...source, commit: null } });
}

export const kind = (actionClass: string, verb: string): string => `${actionClass}\u0000${verb}`;

/** A (class, verb) key's class and verb (`kind`). */
export function kindOf(key: string): readonly [string, string] {
  const cut = key.indexOf('\u0000');
  return [key.slice(0, cut), key.slice(cut + 1)];
}

/** Calls by (class, verb) as earlier calls (`EarlierCalls`): the first nearest, by a scan (nearest.ts `firstNearest`). */
function earlierCalls(calls: () => ReadonlyMap<string, readonly KindCall[]>): EarlierCalls {
  return {
    nearest: (actionClass, verb, target) => {
      const fields = boundFields(actionClass);
      const list = calls().get(kind(actionClass, verb));
      return fields && list ? firstNearest(fields, list, target) : null;
    },
    holding: (actionClass, verb, targets) => {
      const fields = boundFields(actionClass);
      const list = calls().get(kind(actionClass, verb));
      return targets.map((target) => (fields && list ? list.filter((c) => equalFields(fields, c.target, target) === fields.length) : []));
    },
    doubt: () => null,
  };
}

/** The digests a record meets calls by (`Couplings.recordDigests`): its claimed, recomputed and narrowed subject's; the narrowed one, or null. */
function digestsOf(input: RecordInput): { readonly all: readonly string[]; readonly narrowed: string | null } {
  const narrowed = narrowedDigest(input);
  const all = [input.record.binding_digest];
  if (input.recomputed.ok) all.push(input.recomputed.digest);
  if (narrowed !== null) all.push(narrowed);
  return { all, narrowed };
}

/** `make`'s value, made once, when first asked. */
function memo<T>(make: () => T): () => T {
  let made: { readonly value: T } | null = null;
  return () => (made ??= { value: make() }).value;
}

/**
 * A verification, and the part it keeps.
 * @param earlier a kept part's calls (`Couplings.earlier`) when this part is to be merged onto it: its records are diagnosed against them too
 */
export function partOf(
  evidence: Evidence,
  options: VerifyOptions,
  earlier?: EarlierCalls,
): { readonly report: Report; readonly part: Part | null } {
  const v = verification(evidence, options, earlier);
  if (options.now === undefined) return { report: v.report, part: null };
  const callDigests = new Set<string>();
  const recordDigests = new Set<string>();
  const callKinds = new Set<string>();
  for (const file of v.allocation.files)
    for (const call of file.calls) {
      const p = call.input.projection;
      if (p.kind === 'subject') {
        callDigests.add(p.digest);
        callKinds.add(kind(p.subject.action_class, p.subject.verb));
      }
      if (call.eligibility.ok) callDigests.add(call.eligibility.digest);
    }
  const identities = new Set<string>();
  for (const r of v.allocation.records) {
    for (const d of digestsOf(r.input).all) recordDigests.add(d);
    identities.add(identityDigest(r.input));
  }
  const unboundKinds = new Set<string>();
  const unbound = new Map<string, UnboundRecord[]>();
  for (const verdict of v.allocation.climbed.records) {
    if (verdict.outcome !== 'unmatched') continue;
    const { action_class, verb, target } = verdict.record.input.record.subject;
    const k = kind(action_class, verb);
    unboundKinds.add(k);
    const fields = boundFields(action_class);
    // No bound fields: never a nearest call; a call of its subject (same_subject) meets it by digest.
    if (!fields || verdict.why.kind === 'same_subject') continue;
    const why = verdict.why;
    const near = why.kind === 'nearest' ? why.target : null;
    // All k fields equal (an exact match, found by digest) counts k: no added call, at most k - 1, is nearer.
    push(unbound, k, {
      target,
      nearest: near === null ? null : equalFields(fields, near, target),
      at: why.kind === 'nearest' ? why.call.artifact : null,
    });
  }
  const calls = memo(() => {
    const byKind = new Map<string, KindCall[]>();
    for (const file of v.allocation.files)
      for (const call of file.calls) {
        const p = call.input.projection;
        if (p.kind === 'subject') push(byKind, kind(p.subject.action_class, p.subject.verb), candidate(call));
      }
    return byKind;
  });
  return {
    report: v.report,
    part: {
      after: earlier ?? null,
      at: options.now,
      heldUntil: v.heldUntil,
      shares: v.shares,
      couplings: {
        callDigests,
        recordDigests,
        identities,
        callKinds,
        unboundKinds,
        unbound,
        calls,
        earlier: earlierCalls(calls),
        statements: (evidence.statements ?? []).length,
      },
      policy: judgedUnder(v.report.policy),
      layouts: reportLayouts(v.report),
    },
  };
}

export type Merged =
  /** `weaves`: where the added part's elements go among the kept part's (a snapshot's, whose lists are bytes: the report holds the added part's alone). */
  | { readonly kind: 'merged'; readonly report: Report; readonly heldUntil: HeldUntil; readonly weaves: Weaves }
  /** A full verification is due: why (a sentence for the log). */
  | { readonly kind: 'declined'; readonly reason: string };

const declined = (reason: string): Merged => ({ kind: 'declined', reason });

/** Every member of both, in code-unit order (the same whatever order either holds its members in, so a reason said from it is too). */
function both(left: Members, right: Members): string[] {
  const [small, large] = left.size <= right.size ? [left, right] : [right, left];
  const out = large.among ? large.among(small) : [...small].filter((x) => large.has(x));
  return out.sort(cmp);
}

/** The least member of both but those of `except`, if any. */
const meets = (left: Members, right: Members, except?: ReadonlySet<string>): string | undefined =>
  both(left, right).find((x) => !except?.has(x));

/** Why a part's members could not all be read (a look-up may have missed one), or null. */
const unread = (...members: readonly Members[]): string | null => {
  for (const m of members) {
    const d = m.doubt?.() ?? null;
    if (d !== null) return d;
  }
  return null;
};

/** The earlier of two holds. */
function earlier(a: HeldUntil, b: HeldUntil): HeldUntil {
  if (a.kind === 'this_instant' || b.kind === 'always') return a;
  if (b.kind === 'this_instant' || a.kind === 'always') return b;
  return compareInstants(a.at, b.at) <= 0 ? a : b;
}

/**
 * Why no merge is made under this policy, whatever the parts, or null: a grandfathered entry names
 * files (a run added may be the one it names) and `onlyIn` reads the base, and neither is in a part.
 * A verification under such a policy keeps no snapshot (gate/incremental.ts): one would never be used.
 */
export function unmergeable(policy: Policy): string | null {
  if (policy.grandfathered.length > 0) return 'the policy grandfathers files';
  if (policy.exceptions.some((e) => e.onlyIn)) return 'the pull request adds exceptions';
  return null;
}

/**
 * Kept files a merge takes out and verifies again with the added ones (records that wait for their run,
 * docs/policy.md §12: a run merged first, its calls pending, then the export whose records bind them).
 * Their share of the kept verification must be theirs alone (`Taken.alone`, checked by the merge): it is
 * subtracted, and they are added back with the added files, verified with them.
 */
export interface Overlap {
  /** The kept run files whose calls an added record's subject names. */
  readonly files: ReadonlySet<string>;
  /** The subject digests the kept calls and the added records share: every kept call holding one is in those files. */
  readonly digests: ReadonlySet<string>;
}

/** An overlap, with its files verified alone (at the same time, with the same options): the share the kept part holds of them. */
export interface Taken extends Overlap {
  readonly alone: Part;
}

/** Fewest kept files an overlap may take out; past it, a quarter of the kept runs (a full run then costs little more). */
const TAKEN_FLOOR = 8;

/**
 * The kept files the added records meet (`Overlap`), null when they meet no kept call, or why they
 * cannot be taken out: a shared digest not one of an added record's narrowed subject (a mismatched
 * claim), kept calls that cannot be read, a file that holds records too, or too many files. Every kept
 * call of a digest is found by its subject (`EarlierCalls.holding`) and checked by its own digest.
 * Read before the added files are verified: with an overlap, they are verified with those files only.
 */
export function waiting(kept: Part, records: readonly RecordInput[]): Overlap | string | null {
  const k = kept.couplings;
  // The digests a part's couplings hold of these records (`partOf`), and each record's narrowed one.
  const digests = new Set<string>();
  const narrowed: (readonly [string, RecordInput])[] = [];
  for (const r of records) {
    const of = digestsOf(r);
    for (const d of of.all) digests.add(d);
    if (of.narrowed !== null) narrowed.push([of.narrowed, r]);
  }
  const shared = both(k.callDigests, digests);
  const unreadable = unread(k.callDigests);
  if (unreadable !== null) return `the kept digests cannot be read (${unreadable})`;
  if (shared.length === 0) return null;
  const wanted = new Set(shared);
  // Per (class, verb), each shared digest's narrowed target, once.
  const asked = new Map<string, Map<string, JsonObject>>();
  for (const [digest, { record }] of narrowed) {
    const { action_class, verb } = record.subject;
    const key = kind(action_class, verb);
    const targets = asked.get(key) ?? new Map<string, JsonObject>();
    const target = wanted.has(digest) && !targets.has(digest) ? narrowTarget(action_class, record.subject.target) : undefined;
    if (target) asked.set(key, targets.set(digest, target));
  }
  const files = new Set<string>();
  const found = new Set<string>();
  for (const [key, targets] of asked) {
    const [action_class, verb] = kindOf(key);
    const digests = [...targets.keys()];
    const holders = k.earlier.holding(action_class, verb, [...targets.values()]);
    if (holders === null) return `the kept calls cannot be read (${k.earlier.doubt() ?? 'a block refused'})`;
    for (const [i, digest] of digests.entries()) {
      for (const c of holders[i] ?? []) {
        const own = binding({ action_class, verb, target: c.target });
        if (!own.ok || own.digest !== digest) return `a kept call of subject digest ${digest} projects to another`;
        files.add(c.call.artifact);
      }
      if ((holders[i] ?? []).length > 0) found.add(digest);
    }
  }
  const lost = shared.find((d) => !found.has(d));
  if (lost !== undefined) return `subject digest ${lost} is in both`;
  const withRecords = new Set(kept.layouts.records.map(([file]) => file));
  const mixed = [...files].find((f) => withRecords.has(f));
  if (mixed !== undefined) return `${mixed} holds calls an added record binds, and records of its own`;
  const most = Math.max(TAKEN_FLOOR, Math.floor(kept.layouts.runs.length / 4));
  if (files.size > most) return `the added records bind calls of ${files.size} kept runs (more than ${most})`;
  return { files, digests: wanted };
}

/**
 * Why two parts cannot be merged as they are, or null: each a coupling the merge cannot carry.
 * @param interleaved whether some added calls come before some kept ones (`Weaves.calls`): ties between the parts' calls then go either way
 */
function coupled(kept: Part, added: Part, options: VerifyOptions, interleaved: boolean, taken: Taken | null): string | null {
  const now = options.now;
  if (now === undefined) return 'no verification time';
  if (compareInstants(added.at, now) !== 0) return 'the added files were verified at another time';
  const never = unmergeable(options.policy ?? NO_POLICY);
  if (never !== null) return never;
  // Every call is judged against every usable statement (stop 4 of the design limits a statement's reach).
  if (kept.couplings.statements + added.couplings.statements > 0) return 'coverage statements are read';
  if (compareInstants(now, kept.at) < 0) return 'the verification time is before the kept verification’s';
  const held = kept.heldUntil;
  if (held.kind === 'this_instant') return 'the kept verification holds for its own instant only';
  if (held.kind === 'until' && compareInstants(now, held.at) >= 0) return 'the kept verification no longer holds at this time';
  const k = kept.couplings;
  const a = added.couplings;
  // A call meets the other side's records of its digest. Calls of one digest on both sides with no record of it on either
  // meet nothing: no record to allocate, list as a snag or replay through (shown by the property: dropping either check below fails it).
  // Those the kept files taken out hold are met again there, by the added part that holds them (`Overlap`).
  const digest = meets(k.callDigests, a.recordDigests, taken?.digests) ?? meets(k.recordDigests, a.callDigests);
  const identity = meets(k.identities, a.identities);
  // A kept section that could not be read may have hidden a member both hold.
  const unreadable = unread(k.callDigests, k.recordDigests, k.identities);
  if (unreadable !== null) return `the kept digests cannot be read (${unreadable})`;
  if (digest !== undefined) return `subject digest ${digest} is in both`;
  if (identity !== undefined) return 'an audit record’s identity is in both';
  // A kept record that bound no call keeps its nearest call unless an added one displaces it.
  if (displaced(k.unbound, a.calls(), () => true)) return 'a kept record that bound no call would have an added call as its nearest';
  // An added one's nearest call may be a kept one: the added part must have been diagnosed against the kept calls (`partOf`'s `earlier`).
  if (meets(a.unboundKinds, k.callKinds) !== undefined) {
    if (added.after !== k.earlier)
      return 'an added record that bound no call has kept calls of its kind, and was not diagnosed against them';
    const doubt = k.earlier.doubt();
    if (doubt !== null) return `the kept calls an added record was diagnosed against cannot be read (${doubt})`;
    // They were its calls before the added ones (a tie to the kept). Among them, an added call as near as a kept nearest call, in a run
    // that sorts before that call's, is the full run's nearest (one nearer would have been found).
    const mine = new Set(added.layouts.runs.map(([run]) => run).filter((run) => !taken?.files.has(run)));
    if (interleaved && displaced(a.unbound, a.calls(), (r) => r.at !== null && !mine.has(r.at)))
      return 'an added record that bound no call would have an added call before its kept nearest call as its nearest';
  }
  // The first call a shadowed rule matched names the rule that took it: the parts' firsts are not ordered among each other.
  if (interleaved) {
    const taken = new Map(kept.shares.usage.rules.toJson().taken);
    for (const [rule, by] of added.shares.usage.rules.toJson().taken)
      if (taken.has(rule) && taken.get(rule) !== by) return 'a rule no call used was taken from calls of both parts by other rules';
  }
  return null;
}

/**
 * Whether one of `calls` is the nearest call of one of `records` (those `which` names) rather than the
 * one it has: nearer, or as near in a run that sorts before its nearest's (ties go to the call that
 * comes first); or the record has none.
 */
function displaced(
  records: ReadonlyMap<string, readonly UnboundRecord[]>,
  calls: ReadonlyMap<string, readonly KindCall[]>,
  which: (r: UnboundRecord) => boolean,
): boolean {
  for (const [key, rs] of records) {
    const other = calls.get(key);
    const fields = other && rs[0] ? boundFields(kindOf(key)[0]) : null;
    if (!other || !fields) continue;
    for (const r of rs) {
      if (!which(r)) continue;
      const than = r.nearest;
      if (than === null) return true;
      for (const c of other) {
        const n = nearness(fields, c.target, r.target);
        if (n > than || (n === than && r.at !== null && cmp(c.call.artifact, r.at) < 0)) return true;
      }
    }
  }
  return false;
}

/** Of two parts' firsts, the one in the file that sorts first (the parts share no file); the kept on a tie. */
const first = <T>(k: T, a: T, order: (x: T, y: T) => number): T => (order(k, a) <= 0 ? k : a);

function sum<K>(a: ReadonlyMap<K, number>, b: ReadonlyMap<K, number>): Map<K, number> {
  const out = new Map(a);
  for (const [key, n] of b) out.set(key, (out.get(key) ?? 0) + n);
  return out;
}

/** The findings each part made on its own (the tail's aside). */
const own = (s: Shares): readonly Finding[] => [...s.read, ...s.unattested, ...s.calls_, ...s.coverage, ...s.records_];

/**
 * Whether findings that sort equal, an added part's among them, are not all the same bytes: their
 * order is the full run's insertion order (the readers' findings come in the gate's order, the gate's
 * own among them), which the parts do not hold (an added part's reading puts the gate's own first).
 * Equals of the kept part alone keep their order (its findings are in the full run's order, the added
 * part's left out), and equal bytes may come in either order.
 */
function tied(kept: Shares, added: Shares): boolean {
  const all = [...own(kept).map((f) => ({ f, kept: true })), ...own(added).map((f) => ({ f, kept: false }))].sort((x, y) =>
    compareFindings(x.f, y.f),
  );
  for (let from = 0; from < all.length; ) {
    const first = all[from];
    let to = from + 1;
    while (first && to < all.length && compareFindings(first.f, (all[to] as (typeof all)[number]).f) === 0) to++;
    const equals = all.slice(from, to);
    if (equals.some((x) => !x.kept) && new Set(equals.map((x) => JSON.stringify(x.f))).size > 1) return true;
    from = to;
  }
  return false;
}

/** `from` less the findings of `less` (each once, by its bytes), or null when one of them is not there. */
function withoutFindings(from: readonly Finding[], less: readonly Finding[]): Finding[] | null {
  if (less.length === 0) return [...from];
  const left = new Map<string, number>();
  for (const f of less) {
    const text = JSON.stringify(f);
    left.set(text, (left.get(text) ?? 0) + 1);
  }
  const out: Finding[] = [];
  for (const f of from) {
    const text = JSON.stringify(f);
    const n = left.get(text) ?? 0;
    if (n > 0) left.set(text, n - 1);
    else out.push(f);
  }
  return out.length + less.length === from.length ? out : null;
}

/**
 * A kept part's shares less the files an overlap takes out (`taken`: their share, verified alone),
 * or why not: their findings must be the kept part's, and nothing else of it in their files (else
 * they were not alone in it); a first (the under-claimed notice's, a lapsed exception's) in one of
 * them with others left is not known. Its lists stay whole: the weave drops those files' stretches.
 */
function less(k: Shares, taken: Taken, requirements: Requirements): Shares | string {
  const t = taken.alone.shares;
  const dropped = taken.files;
  const read = withoutFindings(k.read, t.read);
  const unattested = withoutFindings(k.unattested, t.unattested);
  const calls_ = withoutFindings(k.calls_, t.calls_);
  const records_ = withoutFindings(k.records_, t.records_);
  if (!read || !unattested || !calls_ || !records_)
    return 'a kept file taken out made findings alone that the kept verification does not hold';
  if ([read, unattested, calls_, records_].some((fs) => fs.some((f) => f.file !== null && dropped.has(f.file))))
    return 'a kept file taken out has findings it did not make alone';
  const usage = requirements.usage();
  usage.merge(k.usage);
  const used = usage.subtract(t.usage, dropped);
  if (used !== null) return used;
  let underClaimed = k.underClaimed;
  if (underClaimed && t.underClaimed) {
    const count = underClaimed.count - t.underClaimed.count;
    if (count < 0) return 'the files taken out claim under more calls than the kept verification';
    if (count > 0 && dropped.has(underClaimed.first.artifact)) return 'the first under-claimed call is in a file taken out';
    underClaimed = count === 0 ? null : { count, verified: underClaimed.verified - t.underClaimed.verified, first: underClaimed.first };
  }
  const tally = addTallies(k.tally, t.tally, -1);
  const counts = [tally.unmet, tally.warned, tally.excepted, tally.grandfathered, tally.pending, tally.notLogged, ...tally.levels.values()];
  if (counts.some((n) => n < 0) || k.runCount < t.runCount || t.signed || [...t.outcomes.values()].some((n) => n > 0) || t.copies > 0)
    return 'the files taken out hold more than the kept verification';
  return { ...k, runCount: k.runCount - t.runCount, read, unattested, calls_, records_, usage, underClaimed, tally };
}

/**
 * The report of a full verification of the kept part's evidence and the added part's, from the two
 * parts: the added part verified alone at `options.now`, with the same options and trust settings.
 * With `taken`, some kept files are verified again in the added part (their share of the kept part subtracted).
 */
export function mergeAdded(kept: Part, added: Part, options: VerifyOptions, echoed: Echoed, taken: Taken | null = null): Merged {
  const drop = taken?.files ?? new Set<string>();
  const runs = weave(kept.layouts.runs, added.layouts.runs, 'the runs', drop);
  if (typeof runs === 'string') return declined(runs);
  const calls = weave(kept.layouts.calls, added.layouts.calls, 'the calls', drop);
  if (typeof calls === 'string') return declined(calls);
  const records = weave(kept.layouts.records, added.layouts.records, 'the records', drop);
  if (typeof records === 'string') return declined(records);
  // Kept calls taken out are among the calls an added record was diagnosed against (`earlier`), wherever they sort.
  const why = coupled(kept, added, options, taken !== null || interleaves(calls), taken);
  if (why !== null) return declined(why);
  const validity = new Validity();
  const requirements = new Requirements(options.policy ?? NO_POLICY, new Clock(options.now ?? { seconds: 0, fraction: '' }, validity), []);
  const k = taken ? less(kept.shares, taken, requirements) : kept.shares;
  if (typeof k === 'string') return declined(k);
  const a = added.shares;
  if (tied(k, a)) return declined('two findings sort equal but differ (their order is the full run’s, not known here)');
  const usage = requirements.usage();
  usage.merge(k.usage);
  usage.merge(a.usage);
  const underClaimed =
    k.underClaimed && a.underClaimed
      ? {
          count: k.underClaimed.count + a.underClaimed.count,
          verified: k.underClaimed.verified + a.underClaimed.verified,
          first: first(k.underClaimed.first, a.underClaimed.first, (x, y) => cmp(x.artifact, y.artifact)),
        }
      : (k.underClaimed ?? a.underClaimed);
  const signed =
    k.signed && a.signed
      ? { count: k.signed.count + a.signed.count, first: first(k.signed.first, a.signed.first, (x, y) => byLocation(x.loc, y.loc)) }
      : (k.signed ?? a.signed);
  const shares: Shares = {
    runCount: k.runCount + a.runCount,
    runs: woven(k.runs, a.runs, runs),
    calls: woven(k.calls, a.calls, calls),
    records: woven(k.records, a.records, records),
    statements: [],
    gaps: [],
    read: [...k.read, ...a.read],
    unattested: [...k.unattested, ...a.unattested],
    calls_: [...k.calls_, ...a.calls_],
    coverage: [],
    records_: [...k.records_, ...a.records_],
    usage,
    classes: new Set([...k.classes, ...a.classes]),
    underClaimed,
    signed,
    tally: addTallies(k.tally, a.tally),
    outcomes: sum<RecordOutcome>(k.outcomes, a.outcomes),
    copies: k.copies + a.copies,
  };
  const report = assemble(shares, options, echoed, requirements);
  const policy = judgedUnder(report.policy);
  if (policy !== kept.policy || policy !== added.policy)
    return declined('the kept verification was judged under other rules or trust settings');
  return {
    kind: 'merged',
    report,
    heldUntil: earlier(earlier(kept.heldUntil, added.heldUntil), validity.until()),
    weaves: { runs, calls, records },
  };
}
