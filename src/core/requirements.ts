/**
 * Requirements (semantics §7, docs/policy.md §3): what each call must reach and what falling short
 * means. A call is ruled when it asserts a side effect and was not denied, and its run is not
 * grandfathered; its rule is the policy's (or the default's level); a shortfall is an error
 * (enforce) or a warning (warn), or excused by a live exception of its rule and binding. An
 * exception never excuses an honesty failure: those findings are the claims' and records', never
 * this module's. What the policy file itself says about its exceptions and grandfathered runs
 * (expired, expiring, unused, stale) is found here too, located in the file.
 */
import { type Call, type CallRef, callRef } from './call.js';
import type { Clock } from './clock.js';
import { type Finding, finding, inputFinding } from './findings.js';
import type { Outcome } from './ladder.js';
import type { RunInput } from './model.js';
import {
  type CallFacts,
  type Grandfathered,
  type Mode,
  type Policy,
  type PolicyException,
  type Rule,
  RuleUse,
  type RuleUseJson,
  ruleFor,
  untoldWhy,
} from './policy.js';
import type { Result } from './result.js';
import { cmp, nearestName, quote } from './text.js';
import { below, type Level } from './vocabulary.js';

/** An exception expires soon when this close to the verification time (seconds). */
const EXPIRING_SECONDS = 14 * 86_400;

/** What a call must reach, and how its shortfall is judged. */
export interface Requirement {
  /** The rule that applies (null: none, or the default's level). */
  readonly rule: Rule | null;
  /** The level required (null: the call is not ruled, or nothing is required of it). */
  readonly level: Level | null;
  readonly mode: Mode | null;
  /** The call's run is grandfathered (judged for honesty only). */
  readonly grandfathered: boolean;
  /** For a call of a grandfathered run: what it would have had to reach, and the entry's reason (its shortfall is reported suppressed). */
  readonly shadow: { readonly rule: Rule | null; readonly level: Level; readonly reason: string } | null;
  /** Why whether the rule applies cannot be told (the call does not say what the rule reads): an error. */
  readonly untold?: string;
}

/** How a call measured against its requirement: met, short (with why), or excused. */
export type Shortfall =
  | { readonly kind: 'met' }
  /** Below the level required, or verified by a record whose voucher the rule does not name. */
  | { readonly kind: 'short'; readonly voucher: string | null }
  | { readonly kind: 'excused'; readonly exception: PolicyException };

const NOT_RULED: Requirement = { rule: null, level: null, mode: null, grandfathered: false, shadow: null };

/** Who vouched for the record a verified outcome holds: a key id or an identity (null: nothing was checked). */
function voucherOf(outcome: Outcome): string | null {
  if (outcome.level !== 'verified') return null;
  const trust = outcome.record.input.trust;
  if (trust.kind !== 'trusted') return null;
  return trust.by.kind === 'key' ? trust.by.keyId : trust.by.signer.identity;
}

/** The facts a rule is matched against: the call's class and verb, its bound target (or, for a class outside the table, its string fields). */
function factsOf(call: Call): CallFacts {
  const p = call.input.projection;
  return {
    actionClass: call.input.actionClass,
    verb: call.input.verb,
    target: p.kind === 'subject' ? p.subject.target : call.input.labels,
  };
}

/** A call a rule can apply to: it asserts a side effect and was not denied (§7). */
const ruledCall = (call: Call): boolean => call.claim.asserted && !call.input.denied;

/**
 * What judging some calls used of the policy: the calls each exception excused, the calls an expired
 * one would have excused (the first named), the rules applied. Each file's calls are judged with
 * their own, merged in path order, so "the first" is the first of the verification (the files'
 * calls come in artifact order) and the counts are the same however the files were shared out.
 */
/** What `Usage` holds, by the exceptions' positions in the policy: excused [position, calls]; lapsed [position, the first call (artifact, index, line, order), calls]. */
export interface UsageJson {
  readonly excused: readonly (readonly [number, number])[];
  readonly lapsed: readonly (readonly [number, string, number, number, number, number])[];
  readonly rules: RuleUseJson;
}

export class Usage {
  readonly excused = new Map<PolicyException, number>();
  readonly lapsed = new Map<PolicyException, { readonly first: CallRef; count: number }>();
  readonly rules: RuleUse;

  /** @param positions each exception of `policy` → its position (made once per policy by `Requirements`) */
  constructor(
    private readonly policy: Policy,
    private readonly positions: ReadonlyMap<PolicyException, number>,
    rules: RuleUse = new RuleUse(policy),
  ) {
    this.rules = rules;
  }

  /** This policy's exception at the position `later`'s policy (perhaps another copy of it) gives `e`. */
  private mine(later: Usage, e: PolicyException): PolicyException {
    return this.policy.exceptions[later.positions.get(e) ?? -1] as PolicyException;
  }

  /** As plain data, exceptions by their position in the policy (a snapshot keeps it: gate/snapshot.ts). */
  toJson(): UsageJson {
    const at = (e: PolicyException): number => this.positions.get(e) ?? -1;
    return {
      excused: [...this.excused].map(([e, n]) => [at(e), n]),
      lapsed: [...this.lapsed].map(([e, { first, count }]) => [at(e), first.artifact, first.index, first.line, first.order, count]),
      rules: this.rules.toJson(),
    };
  }

  /**
   * Adds `other`'s use (the same policy, perhaps another copy of it: exceptions matched by position).
   * A lapsed exception's first call is the one whose run sorts first; in one run, this one's (a
   * verification merges its files' use in path order; a merge's added files may sort among the kept
   * ones: core/incremental.ts).
   */
  merge(other: Usage): void {
    // Only what `other` used: one entry per exception object, however many positions hold it.
    for (const [e, n] of other.excused) {
      const mine = this.mine(other, e);
      this.excused.set(mine, (this.excused.get(mine) ?? 0) + n);
    }
    for (const [e, lapsed] of other.lapsed) {
      const mine = this.mine(other, e);
      const had = this.lapsed.get(mine);
      const count = (had?.count ?? 0) + lapsed.count;
      const first = had && cmp(lapsed.first.artifact, had.first.artifact) >= 0 ? had.first : lapsed.first;
      this.lapsed.set(mine, { first, count });
    }
    this.rules.merge(other.rules);
  }

  /**
   * Takes away `other`'s counts (a share this use holds: files taken out of a kept verification, `dropped`,
   * core/incremental.ts), or says why it cannot: a count it does not hold, or a lapsed exception's first
   * call in a dropped file while calls of others remain (their first is not known here). Which rules
   * were used is left as it is: the files are added back, and a call's rule does not depend on what it earned.
   */
  subtract(other: Usage, dropped: ReadonlySet<string>): string | null {
    for (const [e, n] of other.excused) {
      const mine = this.mine(other, e);
      const left = (this.excused.get(mine) ?? 0) - n;
      if (left < 0) return 'an exception excused fewer calls than the files taken out';
      if (left === 0) this.excused.delete(mine);
      else this.excused.set(mine, left);
    }
    for (const [e, lapsed] of other.lapsed) {
      const mine = this.mine(other, e);
      const had = this.lapsed.get(mine);
      const left = (had?.count ?? 0) - lapsed.count;
      if (!had || left < 0) return 'a lapsed exception covered fewer calls than the files taken out';
      if (left === 0) this.lapsed.delete(mine);
      else if (dropped.has(had.first.artifact)) return 'a lapsed exception’s first call is in a file taken out';
      else this.lapsed.set(mine, { first: had.first, count: left });
    }
    return null;
  }
}

/** Each exception of a policy → its position (an object at two places: the last), how `Usage` names them across copies of the policy. */
const positionsOf = (policy: Policy): ReadonlyMap<PolicyException, number> => new Map(policy.exceptions.map((e, i) => [e, i]));

/** The use `json` says (`Usage.toJson` under `policy`), or why it cannot be this policy's (a snapshot read back: gate/snapshot.ts). */
export function readUsage(policy: Policy, json: UsageJson): Result<Usage, string> {
  const rules = RuleUse.fromJson(policy, json.rules);
  if (!rules.ok) return rules;
  const usage = new Usage(policy, positionsOf(policy), rules.value);
  const exception = (i: number): PolicyException | undefined => (Number.isInteger(i) ? policy.exceptions[i] : undefined);
  const count = (n: number): boolean => Number.isSafeInteger(n) && n > 0;
  for (const [i, n] of json.excused) {
    const e = exception(i);
    if (!e || !count(n) || usage.excused.has(e))
      return { ok: false, reason: `exception position ${i} (${n} call(s)) is not one of the policy's, once` };
    usage.excused.set(e, n);
  }
  for (const [i, artifact, index, line, order, n] of json.lapsed) {
    const e = exception(i);
    if (!e || !count(n) || usage.lapsed.has(e) || ![index, line, order].every((x) => Number.isSafeInteger(x) && x >= 0))
      return { ok: false, reason: `lapsed exception position ${i} is not one of the policy's, once, with a call` };
    usage.lapsed.set(e, { first: { artifact, index, line, order }, count: n });
  }
  return { ok: true, value: usage };
}

/**
 * One verification's requirements: what each call must reach, decided per call and the same for every
 * file (nothing here changes as calls are judged: what they use is noted in a `Usage`), with what the
 * policy file's own entries earn once every call is judged.
 */
export class Requirements {
  /** Exceptions by the binding they excuse. */
  private readonly byBinding = new Map<string, PolicyException[]>();
  /** Each exception's position in the policy: how a file's `Usage` is merged. */
  private readonly positions: ReadonlyMap<PolicyException, number>;
  /** Grandfathered runs by artifact (their bytes matched), and every entry that matched nothing. */
  private readonly grandfatheredRuns = new Map<string, Grandfathered>();
  private readonly stale: { readonly entry: Grandfathered; readonly why: string }[] = [];

  constructor(
    private readonly policy: Policy,
    /** The verification time (the epoch for a caller of the core that judges no time). */
    private readonly clock: Clock,
    runs: readonly RunInput[],
    fileSha256: ReadonlyMap<string, string> = new Map(),
  ) {
    this.positions = positionsOf(policy);
    for (const e of policy.exceptions) {
      const list = this.byBinding.get(e.binding);
      if (list) list.push(e);
      else this.byBinding.set(e.binding, [e]);
    }
    const byArtifact = new Map(runs.map((r) => [r.artifact, r]));
    for (const entry of policy.grandfathered) {
      if (entry.kind === 'audit') {
        const sha256 = fileSha256.get(entry.run);
        // Every input's bytes are hashed, runs' too: a run file named as an audit file pins no record (a red team: silent).
        if (byArtifact.has(entry.run))
          this.stale.push({ entry, why: 'it is a run file, not an audit export (a run is grandfathered with run:)' });
        else if (sha256 === undefined) this.stale.push({ entry, why: 'no audit file of that path was read' });
        else if (sha256 !== entry.sha256)
          this.stale.push({ entry, why: `its bytes changed (sha256 ${sha256}, pinned ${entry.sha256}): trust is asked of its records` });
        continue;
      }
      const run = byArtifact.get(entry.run);
      if (!run) this.stale.push({ entry, why: 'no run of that path was read' });
      else if (entry.onlyIn && !entry.onlyIn.has(run.artifact))
        continue; // added by the pull request, for a run the base does not hold as it is: after merge
      else if (run.sha256 !== entry.sha256)
        this.stale.push({
          entry,
          why: `its bytes changed (sha256 ${run.sha256 ?? 'unknown'}, pinned ${entry.sha256}): it is judged in full`,
        });
      else this.grandfatheredRuns.set(run.artifact, entry);
    }
  }

  /** A fresh tally of what calls use of this policy. */
  usage(): Usage {
    return new Usage(this.policy, this.positions);
  }

  /** Whether a run is grandfathered (its bytes as pinned): judged for honesty only, attestation not asked. */
  isGrandfathered(artifact: string): boolean {
    return this.grandfatheredRuns.has(artifact);
  }

  /** The rule for a call a rule could apply to, its use noted. */
  private ruleOf(facts: CallFacts, usage: Usage): Rule | null {
    const rule = ruleFor(this.policy, facts);
    usage.rules.note(facts, rule);
    return rule;
  }

  /** What a call must reach (the rule it used noted in `usage`). */
  of(call: Call, usage: Usage): Requirement {
    const entry = this.grandfatheredRuns.get(call.run.artifact);
    if (entry) {
      // Judged for honesty only; what it would have had to reach is kept, to report its shortfall
      // suppressed. A rule whose calls are all grandfathered is in use (not misspelt).
      const facts = ruledCall(call) ? factsOf(call) : null;
      const rule = facts ? this.ruleOf(facts, usage) : null;
      const level = rule?.level ?? (facts ? this.policy.defaultLevel : null);
      const reason = entry.onlyIn
        ? `${entry.reason} (added by this pull request; it applies now: the run is on the base with the same bytes)`
        : entry.reason;
      return { ...NOT_RULED, grandfathered: true, shadow: level === null ? null : { rule, level, reason } };
    }
    if (!ruledCall(call)) return NOT_RULED;
    const facts = factsOf(call);
    const rule = this.ruleOf(facts, usage);
    const untold = rule ? untoldWhy(rule, facts) : null;
    if (rule) return { rule, level: rule.level, mode: rule.mode, grandfathered: false, shadow: null, ...(untold ? { untold } : {}) };
    if (this.policy.defaultLevel === null) return NOT_RULED;
    return { rule: null, level: this.policy.defaultLevel, mode: 'enforce', grandfathered: false, shadow: null };
  }

  /** How a call earning `outcome` measures against its requirement (an exception used is counted in `usage`). */
  measure(call: Call, requirement: Requirement, outcome: Outcome, usage: Usage): Shortfall {
    const { rule, level: required } = requirement;
    if (required === null || outcome.level === null) return { kind: 'met' };
    const voucher = voucherOf(outcome);
    // signed-by is a requirement, not a rung, and it holds at every level (docs/policy.md §11): a record
    // another signer vouched for still verifies the call, but the rule then counts only what the call
    // earns without it (its confirming read, or its assertion).
    const unlisted = outcome.level === 'verified' && rule?.signedBy && (voucher === null || !rule.signedBy.includes(voucher));
    const counted: Level = unlisted ? (outcome.read ? 'observed_confirmed' : 'asserted') : outcome.level;
    const short = below(counted, required);
    if (!short) return { kind: 'met' };
    const p = call.input.projection;
    // An exception the pull request adds applies now only to a call already at the base with the same bytes (docs/policy.md §10).
    const candidates =
      rule && p.kind === 'subject'
        ? (this.byBinding.get(p.digest) ?? []).filter((e) => e.rule === rule.name && (!e.onlyIn || e.onlyIn.has(call.run.artifact)))
        : [];
    const live = candidates.find((e) => this.clock.isBefore(e.expires));
    if (live) {
      usage.excused.set(live, (usage.excused.get(live) ?? 0) + 1);
      return { kind: 'excused', exception: live };
    }
    for (const e of candidates) {
      const lapsed = usage.lapsed.get(e);
      if (lapsed) lapsed.count++;
      else usage.lapsed.set(e, { first: callRef(call), count: 1 });
    }
    return { kind: 'short', voucher };
  }

  /** The policy file's own findings, once every call is judged (`usage`: every call's): expired, expiring and unused exceptions, stale grandfathered runs, unused rules. */
  findings(usage: Usage, unusedRule: (rule: Rule, takenBy: Rule | null) => Finding): Finding[] {
    const out: Finding[] = [];
    for (const e of this.policy.exceptions) {
      const who = `owner ${quote(e.owner, 100)}, reason ${JSON.stringify(quote(e.reason, 200))}`;
      const expired = !this.clock.isBefore(e.expires);
      const lapsed = usage.lapsed.get(e);
      if (expired && lapsed && !usage.excused.has(e)) {
        const where = ` (${lapsed.first.artifact} decision ${lapsed.first.index}${lapsed.count > 1 ? ` and ${lapsed.count - 1} more call(s)` : ''})`;
        out.push(
          finding(
            'exception_expired',
            e.at,
            `the exception for rule ${e.rule} (${who}) expired on ${e.expiresText}: the call it excused${where} fails as usual; renew it with a new reason and expiry, or fix the call`,
          ),
        );
      } else if (!usage.excused.has(e))
        out.push(
          e.onlyIn
            ? finding(
                'exception_unused',
                e.at,
                `the exception for rule ${e.rule} (${who}) that this pull request adds excuses no call already on the base with the same bytes: it applies after merge`,
                'notice',
              )
            : finding('exception_unused', e.at, `the exception for rule ${e.rule} (${who}) excused no call: prune it`),
        );
      if (!expired && this.clock.isWithinSeconds(e.expires, EXPIRING_SECONDS))
        out.push(
          finding(
            'exception_expiring',
            e.at,
            `the exception for rule ${e.rule} (${who}) expires on ${e.expiresText}, within 14 days: renew it or fix what it excuses`,
          ),
        );
    }
    for (const { entry, why } of this.stale)
      out.push(
        finding('grandfather_stale', entry.at, `grandfathered ${entry.kind} ${quote(entry.run)}: ${why}; this entry grandfathers nothing`),
      );
    for (const rule of usage.rules.rules()) out.push(unusedRule(rule, usage.rules.takenBy(rule)));
    return out;
  }
}

/**
 * `rule_unused`: for a rule of the file, located at the rule; for a rule of the `require` input, an
 * input finding. It names the classes seen, and why: the earlier rule that took the calls the rule
 * matched (`takenBy`: a file's first match wins), a near class, or no call of the rule's class.
 */
export function unusedRequireRule(rule: Rule, classesSeen: readonly string[], takenBy: Rule | null = null): Finding {
  const seen =
    classesSeen.length === 0
      ? 'no call asserts a side effect'
      : `classes seen: ${classesSeen
          .slice(0, 20)
          .map((c) => quote(c, 100))
          .join(', ')}${classesSeen.length > 20 ? ` and ${classesSeen.length - 20} more` : ''}`;
  // A misspelling is suggested only when a near name was seen (docs/policy.md §11).
  const ruleClass = rule.actionClass;
  const near = ruleClass === null || classesSeen.includes(ruleClass) ? null : nearestName(ruleClass, classesSeen);
  const why =
    takenBy !== null
      ? `calls matched it, but each went to an earlier rule (the first match wins), the first to ${takenBy.name}${takenBy.at ? ` (line ${takenBy.at.line})` : ''}: move this rule above ${takenBy.name}, or narrow ${takenBy.name}`
      : ruleClass === null
        ? 'no call asserts a side effect'
        : classesSeen.includes(ruleClass)
          ? `calls of ${quote(ruleClass, 100)} were read, but none matched its ${rule.at === null ? 'verb' : 'verb or target'}`
          : near !== null
            ? `is its class misspelt? did you mean ${JSON.stringify(near)}?`
            : `no call of ${quote(ruleClass, 100)} was read`;
  if (rule.at !== null) return finding('rule_unused', rule.at, `rule ${rule.name} applies to no call (${seen}): ${why}`);
  return inputFinding(
    'rule_unused',
    `require: ${rule.selector}=${rule.level}`,
    `the rule ${rule.selector}=${rule.level} applies to no call (${seen}): ${why}`,
  );
}

/** The classes of the calls a rule could apply to, sorted (what `rule_unused` names). */
export function classesOf(calls: readonly Call[]): string[] {
  // One pass, no list of every call made on the way (it runs over every call of the verification).
  const seen = new Set<string>();
  for (const c of calls) if (c.input.actionClass !== null && ruledCall(c)) seen.add(c.input.actionClass);
  return [...seen].sort(cmp);
}

/**
 * The audit files a policy grandfathers whose bytes are as pinned (docs/policy.md §9): their records
 * are judged for honesty and bind calls, but trust is not asked of them. Each file maps to where its
 * records may bind a call so: null, anywhere (an entry of the base's policy); or the run files present
 * with the same bytes at the base (only entries a pull request adds: §10, they never apply to a call
 * the pull request adds or changes).
 */
export function pinnedAuditFiles(policy: Policy, fileSha256: ReadonlyMap<string, string>): ReadonlyMap<string, ReadonlySet<string> | null> {
  const out = new Map<string, ReadonlySet<string> | null>();
  for (const entry of policy.grandfathered) {
    if (entry.kind !== 'audit' || fileSha256.get(entry.run) !== entry.sha256) continue;
    if (!entry.onlyIn) out.set(entry.run, null);
    else if (entry.onlyIn.has(entry.run) && !out.has(entry.run)) out.set(entry.run, entry.onlyIn);
  }
  return out;
}
