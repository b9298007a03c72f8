/**
 * Incremental verification, its core (design/incremental-verification.md, stop 2): a verification
 * kept as a `Part` (what a snapshot holds: the report's shares, how long they hold, and the
 * couplings another file could have with them), and the merge of a part verified alone (files added
 * after every kept one) onto a kept part. The merge is the report a full verification of both would
 * give, byte for byte, or it declines and says why: a full run is then due. Every rule that reads
 * across files (verify.ts and the modules it calls) is either answered here by a coupling that must
 * be absent, or is a count or list in `Shares` that adds up; `assemble` (verify.ts) renders the
 * report from the merged shares, as it does for one verification.
 */
import { Clock, type HeldUntil, Validity } from './clock.js';
import { narrowedDigest } from './diagnose.js';
import { compareFindings, type Finding } from './findings.js';
import type { JsonObject } from './json.js';
import type { Evidence, VerifyOptions } from './model.js';
import { candidate, type EarlierCalls, equalFields, firstNearest, type KindCall, nearness, push } from './nearest.js';
import { NO_POLICY, type Policy } from './policy.js';
import { boundFields } from './projection.js';
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
  /**
   * Per (class, verb), each record that bound no call and whose nearest call a later call could
   * change: its target, and how near its nearest call is (`nearness`; all bound fields equal: their
   * count; null: no call of its kind, so any later one becomes its nearest).
   */
  readonly unbound: ReadonlyMap<string, readonly { readonly target: JsonObject; readonly nearest: number | null }[]>;
  /** Per (class, verb), the calls with a subject, in call order: made when first asked (an added part's; a kept part's when a snapshot is kept). */
  readonly calls: () => ReadonlyMap<string, readonly KindCall[]>;
  /** The part's calls as the calls before an added part's: what an added record that binds no call finds its nearest among. */
  readonly earlier: EarlierCalls;
  /** The first and last run (path order), the first and last file holding a record; null: none. */
  readonly runs: readonly [string, string] | null;
  readonly recordFiles: readonly [string, string] | null;
  /** Coverage statements read (usable or not). */
  readonly statements: number;
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
    doubt: () => null,
  };
}

/** The first and last of paths in path order. */
function span(sorted: readonly string[]): readonly [string, string] | null {
  const first = sorted[0];
  const last = sorted[sorted.length - 1];
  return first === undefined || last === undefined ? null : [first, last];
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
    const { record } = r.input;
    recordDigests.add(record.binding_digest);
    if (r.input.recomputed.ok) recordDigests.add(r.input.recomputed.digest);
    const narrowed = narrowedDigest(r);
    if (narrowed !== null) recordDigests.add(narrowed);
    identities.add(identityDigest(r.input));
  }
  const unboundKinds = new Set<string>();
  const unbound = new Map<string, { readonly target: JsonObject; readonly nearest: number | null }[]>();
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
    push(unbound, k, { target, nearest: near === null ? null : equalFields(fields, near, target) });
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
        // The allocation holds the runs in path order and the records in location order.
        runs: span(v.allocation.runs.map((r) => r.artifact)),
        recordFiles: span(v.allocation.records.map((r) => r.input.loc.file)),
        statements: (evidence.statements ?? []).length,
      },
      policy: judgedUnder(v.report.policy),
    },
  };
}

export type Merged =
  | { readonly kind: 'merged'; readonly report: Report; readonly heldUntil: HeldUntil }
  /** A full verification is due: why (a sentence for the log). */
  | { readonly kind: 'declined'; readonly reason: string };

const declined = (reason: string): Merged => ({ kind: 'declined', reason });

/** The least member of both (by code unit: the same whatever order either holds its members in, so the reason said is too), if any. */
function meets(left: Members, right: Members): string | undefined {
  const [small, large] = left.size <= right.size ? [left, right] : [right, left];
  let least: string | undefined;
  if (large.among) {
    for (const x of large.among(small)) if (least === undefined || x < least) least = x;
    return least;
  }
  for (const x of small) if ((least === undefined || x < least) && large.has(x)) least = x;
  return least;
}

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

/** Why two parts cannot be merged as they are, or null: each a coupling the merge cannot carry. */
function coupled(kept: Part, added: Part, options: VerifyOptions): string | null {
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
  // The shares are lists in path order: the added files must all come after the kept ones.
  if (k.runs && a.runs && cmp(a.runs[0], k.runs[1]) <= 0) return `run ${a.runs[0]} does not sort after every kept run`;
  if (k.recordFiles && a.recordFiles && cmp(a.recordFiles[0], k.recordFiles[1]) <= 0)
    return `audit file ${a.recordFiles[0]} does not sort after every kept one`;
  // A call meets the other side's records of its digest. Calls of one digest on both sides with no record of it on either
  // meet nothing: no record to allocate, list as a snag or replay through (shown by the property: dropping either check below fails it).
  const digest = meets(k.callDigests, a.recordDigests) ?? meets(k.recordDigests, a.callDigests);
  const identity = meets(k.identities, a.identities);
  // A kept section that could not be read may have hidden a member both hold.
  const unreadable = unread(k.callDigests, k.recordDigests, k.identities);
  if (unreadable !== null) return `the kept digests cannot be read (${unreadable})`;
  if (digest !== undefined) return `subject digest ${digest} is in both`;
  if (identity !== undefined) return 'an audit record’s identity is in both';
  // A kept record that bound no call keeps its nearest call unless an added one (later in order: ties to the kept) is nearer.
  for (const [key, records] of k.unbound) {
    const later = a.calls().get(key);
    const fields = later && records[0] ? boundFields(kindOf(key)[0]) : null;
    if (!later || !fields) continue;
    for (const r of records)
      if (r.nearest === null || later.some((c) => nearness(fields, c.target, r.target) > (r.nearest ?? 0)))
        return 'a kept record that bound no call would have an added call as its nearest';
  }
  // An added one's nearest call may be a kept one: the added part must have been diagnosed against the kept calls (`partOf`'s `earlier`).
  if (meets(a.unboundKinds, k.callKinds) !== undefined) {
    if (added.after !== k.earlier)
      return 'an added record that bound no call has kept calls of its kind, and was not diagnosed against them';
    const doubt = k.earlier.doubt();
    if (doubt !== null) return `the kept calls an added record was diagnosed against cannot be read (${doubt})`;
  }
  return null;
}

function sum<K>(a: ReadonlyMap<K, number>, b: ReadonlyMap<K, number>): Map<K, number> {
  const out = new Map(a);
  for (const [key, n] of b) out.set(key, (out.get(key) ?? 0) + n);
  return out;
}

/** The findings each part made on its own (the tail's aside). */
const own = (s: Shares): readonly Finding[] => [...s.read, ...s.unattested, ...s.calls_, ...s.coverage, ...s.records_];

/**
 * Whether two findings of the parts sort equal and are not the same bytes: their order in the report
 * would be the full run's insertion order (the readers' findings come in the gate's order, the
 * gate's own among them), which the parts do not hold. Equal bytes may come in either order.
 */
function tied(kept: Shares, added: Shares): boolean {
  const all = [...own(kept), ...own(added)].sort(compareFindings);
  for (let i = 1; i < all.length; i++) {
    const x = all[i - 1];
    const y = all[i];
    if (x && y && compareFindings(x, y) === 0 && JSON.stringify(x) !== JSON.stringify(y)) return true;
  }
  return false;
}

/**
 * The report of a full verification of the kept part's evidence and the added part's, from the two
 * parts: the added part verified alone at `options.now`, with the same options and trust settings.
 */
export function mergeAdded(kept: Part, added: Part, options: VerifyOptions, echoed: Echoed): Merged {
  const why = coupled(kept, added, options);
  if (why !== null) return declined(why);
  if (tied(kept.shares, added.shares))
    return declined('two findings sort equal but differ (their order is the full run’s, not known here)');
  const k = kept.shares;
  const a = added.shares;
  const validity = new Validity();
  const requirements = new Requirements(options.policy ?? NO_POLICY, new Clock(options.now ?? { seconds: 0, fraction: '' }, validity), []);
  const usage = requirements.usage();
  usage.merge(k.usage);
  usage.merge(a.usage);
  const underClaimed =
    k.underClaimed && a.underClaimed
      ? {
          count: k.underClaimed.count + a.underClaimed.count,
          verified: k.underClaimed.verified + a.underClaimed.verified,
          first: k.underClaimed.first,
        }
      : (k.underClaimed ?? a.underClaimed);
  const signed = k.signed && a.signed ? { count: k.signed.count + a.signed.count, first: k.signed.first } : (k.signed ?? a.signed);
  const shares: Shares = {
    runCount: k.runCount + a.runCount,
    runs: [...k.runs, ...a.runs],
    calls: [...k.calls, ...a.calls],
    records: [...k.records, ...a.records],
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
  return { kind: 'merged', report, heldUntil: earlier(earlier(kept.heldUntil, added.heldUntil), validity.until()) };
}
