/**
 * Required levels (semantics §7, docs/policy.md): what evidence each kind of side effect must reach.
 * Two sources make the same `Policy`: the `require` input's rules (`SELECTOR=LEVEL`, the most
 * specific that matches applies) and a committed policy file (named rules matching by class, verb
 * and target, the first that matches applies, a default level, modes, signers, exceptions,
 * grandfathered runs, how long a call may wait for its export). Selectors are parsed, never
 * compared as text; target globs are matched by a parsed form too, and raw values of hashed fields
 * are hashed as the agent hashes them. A rule applies to calls that assert a side effect and were
 * not denied; with no rule at all the gate enforces honesty only.
 */

import { compileGlob, type Glob, globCovers, globMatches } from './glob.js';
import type { JsonObject } from './json.js';
import type { Location } from './location.js';
import { boundFields, KNOWN_CLASSES, PRODUCER_VERBS } from './projection.js';
import type { Result } from './result.js';
import { asciiLower, cmp, nearestName, visible } from './text.js';
import type { Instant } from './time.js';
import { isLevel, LEVELS, type Level } from './vocabulary.js';

/** What a shortfall is: an error (enforce) or a warning (warn: "would fail under enforce"). */
export type Mode = 'enforce' | 'warn';

/** A condition on one field of a call's target. */
export type FieldTest =
  /** A plain field: the call's target has it as a string and one glob matches it whole. */
  | {
      readonly kind: 'glob';
      readonly field: string;
      readonly globs: readonly string[];
      readonly caseless: boolean;
      /** The globs compiled once (a rule is asked about every call); matched in linear time. */
      readonly patterns: readonly Glob[];
    }
  /** A hashed field (`key_title` → `key_title_hash`): the call's value equals the hash of a listed raw value. */
  | { readonly kind: 'hash'; readonly field: string; readonly hashes: ReadonlySet<string> };

export interface Rule {
  /** The file's name for it; for a `require` rule, its selector. */
  readonly name: string;
  /** As a selector is written: `*`, `CLASS` or `CLASS:VERB`. */
  readonly selector: string;
  /** The class it matches (null: every class). */
  readonly actionClass: string | null;
  /** The verb it matches (null: every verb). */
  readonly verb: string | null;
  readonly target: readonly FieldTest[];
  readonly level: Level;
  readonly mode: Mode;
  /** Who must vouch for the record that verifies a call of this rule (identities or key ids); null: any trusted signer. */
  readonly signedBy: readonly string[] | null;
  /** Where the policy file states it (null: a `require` rule, named by its input). */
  readonly at: Location | null;
  /** Where the file writes its class and its verb (a misspelt name is located at its value); null for a `require` rule. */
  readonly classAt: Location | null;
  readonly verbAt: Location | null;
}

/** An excused shortfall: one call (by its binding) of one rule, until it expires. */
export interface PolicyException {
  readonly binding: string;
  readonly rule: string;
  readonly reason: string;
  readonly owner: string;
  readonly expires: Instant;
  /** As written in the file. */
  readonly expiresText: string;
  readonly at: Location;
  /**
   * Added by the pull request being judged (docs/policy.md §10, the break-glass path): it applies now
   * only to calls of these run files, present with the same bytes at the base; absent: a base entry.
   */
  readonly onlyIn?: ReadonlySet<string>;
}

/**
 * A file pinned by its bytes: a run judged for honesty only (`kind: 'run'`), or an audit file whose
 * records are judged for honesty and bind calls but of which trust is not asked (`kind: 'audit'`).
 */
export interface Grandfathered {
  readonly kind: 'run' | 'audit';
  /** The file's path, as the report names it (a run's artifact, an audit file's path). */
  readonly run: string;
  readonly sha256: string;
  readonly reason: string;
  readonly at: Location;
  /** Added by the pull request being judged: it applies now only when its run is among these (present with the same bytes at the base). */
  readonly onlyIn?: ReadonlySet<string>;
}

/** Where a policy file was read from: its path, the commit (null: the file on disk) and its bytes' sha256 (bare hex). */
export interface PolicySource {
  readonly path: string;
  readonly commit: string | null;
  readonly sha256: string;
}

/** A file a trust section names (a key, a trusted root), read at the same commit as the policy. */
export interface TrustPath {
  readonly path: string;
  readonly at: Location;
}

/** A value a trust section gives (an identity, a ref, the issuer), where the file says it: a mistake in it is located there. */
export interface TrustValue {
  readonly value: string;
  readonly at: Location;
}

/** Trust written in the policy file (docs/policy.md §9): the keys mean what the action inputs of the same names mean. */
export interface PolicyTrust {
  /** enforce (default), or warn: trust failures are warnings (a rollout); an untrusted record still never promotes. */
  readonly mode: Mode;
  readonly trustedKeys: readonly TrustPath[];
  readonly signerIdentities: readonly TrustValue[];
  readonly requireSignedRecords: boolean;
  readonly trustedProducers: readonly TrustPath[];
  readonly producerIdentities: readonly TrustValue[];
  readonly requireAttestedRuns: boolean;
  readonly sourceRefs: readonly TrustValue[] | null;
  readonly issuer: TrustValue | null;
  readonly trustedRoot: TrustPath | null;
  /** Where the section starts. */
  readonly at: Location;
}

export interface Policy {
  /** `none`: honesty only; `require`: the input's rules (most specific wins); `file`: a policy file (first match wins). */
  readonly kind: 'none' | 'require' | 'file';
  readonly rules: readonly Rule[];
  /** The level of a call no rule matches (a policy file's `default`); null: none required. */
  readonly defaultLevel: Level | null;
  /** How long a call may wait for its export (seconds; 0: nothing is ever pending). */
  readonly pendingSeconds: number;
  readonly exceptions: readonly PolicyException[];
  readonly grandfathered: readonly Grandfathered[];
  readonly source: PolicySource | null;
  /** Trust written in the file (null: none; trust comes from the entry's inputs). */
  readonly trust: PolicyTrust | null;
}

export const NO_POLICY: Policy = {
  kind: 'none',
  rules: [],
  defaultLevel: null,
  pendingSeconds: 0,
  exceptions: [],
  grandfathered: [],
  source: null,
  trust: null,
};

/** A class or verb as a selector names it: any characters but spaces, controls and the selector's own `:`, `=`, `*`, `,` (a class the input has may be outside ASCII). */
const NAME = /^[^\s\p{Cc}:=*,]+$/u;

/** A selector's class and verb (null: any), or null when it is not `*`, `CLASS` or `CLASS:VERB`. */
function selectorOf(text: string): { readonly actionClass: string | null; readonly verb: string | null } | null {
  if (text === '*') return { actionClass: null, verb: null };
  const colon = text.indexOf(':');
  if (colon < 0) return NAME.test(text) ? { actionClass: text, verb: null } : null;
  const actionClass = text.slice(0, colon);
  const verb = text.slice(colon + 1);
  return NAME.test(actionClass) && NAME.test(verb) ? { actionClass, verb } : null;
}

/** The `require` input's rules; a malformed rule, an unknown level or two rules for one selector is refused by name. */
export function parsePolicy(texts: readonly string[]): Result<Policy> {
  const rules: Rule[] = [];
  const seen = new Set<string>();
  for (const text of texts) {
    const written = text.trim();
    const eq = written.indexOf('=');
    if (eq < 0) return { ok: false, reason: `"${written}" is not SELECTOR=LEVEL (e.g. github_deploy_key:create=verified)` };
    const selectorText = written.slice(0, eq).trim();
    const level = written.slice(eq + 1).trim();
    const selector = selectorOf(selectorText);
    if (!selector) return { ok: false, reason: `"${written}": the selector must be *, CLASS or CLASS:VERB` };
    if (!isLevel(level)) {
      const near = nearestName(level, LEVELS);
      return {
        ok: false,
        reason: `"${written}": the level must be one of ${LEVELS.join(', ')}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ''}`,
      };
    }
    if (seen.has(selectorText)) return { ok: false, reason: `"${written}": a second rule for ${selectorText}` };
    seen.add(selectorText);
    rules.push({
      name: selectorText,
      selector: selectorText,
      ...selector,
      target: [],
      level,
      mode: 'enforce',
      signedBy: null,
      at: null,
      classAt: null,
      verbAt: null,
    });
  }
  return { ok: true, value: rules.length === 0 ? NO_POLICY : { ...NO_POLICY, kind: 'require', rules } };
}

/** A plain field's test: one of these globs matches the field whole (without regard to ASCII case when `caseless`). */
export function globTest(field: string, globs: readonly string[], caseless: boolean): FieldTest {
  return { kind: 'glob', field, globs, caseless, patterns: globs.map((glob) => compileGlob(caseless ? asciiLower(glob) : glob)) };
}

/** What a rule is matched against: a call's class, verb and target fields (bound fields, or a class outside the table's string fields). */
export interface CallFacts {
  readonly actionClass: string | null;
  readonly verb: string | null;
  readonly target: JsonObject | null;
}

/** The value a test reads of a call's target: absent (undefined), or as the call gives it. */
const testedValue = (test: FieldTest, target: JsonObject | null): unknown =>
  target !== null && Object.hasOwn(target, test.field) ? target[test.field] : undefined;

function testHolds(test: FieldTest, value: string): boolean {
  if (test.kind === 'hash') return test.hashes.has(value);
  const text = test.caseless ? asciiLower(value) : value;
  return test.patterns.some((glob) => globMatches(glob, text));
}

/** What a JSON value is, in words (a field given as something else than text). */
const jsonKind = (v: unknown): string =>
  Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;

/** Whether a rule applies to a call: yes, no, or untold (with why: the call does not say what the rule reads). */
type Told = { readonly kind: 'yes' | 'no' } | { readonly kind: 'untold'; readonly why: string };
const YES: Told = { kind: 'yes' };
const NO: Told = { kind: 'no' };

/**
 * A name the rule gives (class, verb) against the call's: the same, another, or untold: not text, or
 * a name the table knows written by the call in another case (a rule's own odd case is its typo,
 * `rule_unused`'s to say).
 */
function nameTold(rule: string | null, call: string | null, what: string, known: readonly string[]): Told {
  if (rule === null || call === rule) return YES;
  if (call === null) return { kind: 'untold', why: `it gives no ${what} as text, and the rule names one` };
  if (asciiLower(call) === asciiLower(rule) && known.includes(rule) && !known.includes(call))
    return {
      kind: 'untold',
      why: `its ${what} ${JSON.stringify(visible(call))} differs from the rule's ${JSON.stringify(rule)} only in case`,
    };
  return NO;
}

/**
 * Whether a rule applies to a call of this class, verb and target. `untold` when nothing the rule
 * reads rules it out but something it reads the call does not say: a verb that is not text, a class
 * or verb that differs only in case, a field it tests given as something else than text, or, for a rule of a
 * class, a bound field of that class the call does not give (a red team: each such call escaped every
 * rule naming it, to the default). A rule that cannot tell applies, and the call fails (requirements.ts).
 */
function told(rule: Rule, call: CallFacts): Told {
  // A call with no class as text is outside every class's rules (a call of no class: the demo's misc.do_thing).
  if (rule.actionClass !== null && call.actionClass === null) return NO;
  const byClass = nameTold(rule.actionClass, call.actionClass, 'action class', KNOWN_CLASSES);
  if (byClass.kind === 'no') return NO;
  const byVerb = nameTold(rule.verb, call.verb, 'verb', PRODUCER_VERBS.get(rule.actionClass ?? '') ?? []);
  if (byVerb.kind === 'no') return NO;
  let untold: Told | null = byClass.kind === 'untold' ? byClass : byVerb.kind === 'untold' ? byVerb : null;
  const bound = rule.actionClass === null ? undefined : boundFields(rule.actionClass);
  for (const test of rule.target) {
    const value = testedValue(test, call.target);
    if (value === undefined) {
      if (!bound?.includes(test.field)) return NO;
      untold ??= { kind: 'untold', why: `its target gives no ${test.field}, which the rule tests` };
    } else if (typeof value !== 'string')
      untold ??= { kind: 'untold', why: `its target gives ${test.field} as ${jsonKind(value)}, not text` };
    else if (!testHolds(test, value)) return NO;
  }
  return untold ?? YES;
}

const ruleMatches = (rule: Rule, call: CallFacts): boolean => told(rule, call).kind !== 'no';

/** Why whether a rule applies to a call cannot be told (the call fails), or null when it can. */
export function untoldWhy(rule: Rule, call: CallFacts): string | null {
  const t = told(rule, call);
  return t.kind === 'untold' ? t.why : null;
}

/** How specific a `require` rule's selector is: CLASS:VERB over CLASS over `*`. */
const specificity = (r: Rule): number => (r.verb !== null ? 0 : r.actionClass !== null ? 1 : 2);

/** Per policy, per class, the rules that can match a call of that class, in file order (made once: every call asks). */
const byClass = new WeakMap<Policy, Map<string | null, readonly Rule[]>>();
function rulesOfClass(policy: Policy, actionClass: string | null): readonly Rule[] {
  let index = byClass.get(policy);
  if (!index) byClass.set(policy, (index = new Map()));
  let rules = index.get(actionClass);
  // A class in another case than a rule's may be under that rule: `told` says it cannot tell.
  if (!rules)
    index.set(
      actionClass,
      (rules = policy.rules.filter(
        (r) =>
          r.actionClass === null ||
          r.actionClass === actionClass ||
          (actionClass !== null && asciiLower(r.actionClass) === asciiLower(actionClass)),
      )),
    );
  return rules;
}

/** The rule for a call (null when none matches): a policy file's first match, else the most specific `require` rule. */
export function ruleFor(policy: Policy, call: CallFacts): Rule | null {
  const rules = rulesOfClass(policy, call.actionClass);
  // A rule that cannot tell applies (the caller says why it could not: an error, so neither its
  // level nor a later rule's decides the gate).
  if (policy.kind === 'file') {
    for (const r of rules) if (ruleMatches(r, call)) return r;
    return null;
  }
  let best: Rule | null = null;
  for (const r of rules) if (ruleMatches(r, call) !== false && (!best || specificity(r) < specificity(best))) best = r;
  return best;
}

/**
 * The rules no call uses, noted call by call as rules are found: in a file, a call uses its first
 * match only (a rule shadowed for every call is unused, and the earlier rule that took the first
 * call it matched is kept to say so); of the `require` input, every rule that matches it.
 */
/** What `RuleUse` holds, by the rules' positions in the policy. */
export interface RuleUseJson {
  readonly unused: readonly number[];
  readonly taken: readonly (readonly [number, number])[];
}

export class RuleUse {
  private readonly unused: Set<Rule>;
  /** Of a file's unused rules, those a call matched: the earlier rule that took the first such call. */
  private readonly taken = new Map<Rule, Rule>();
  constructor(private readonly policy: Policy) {
    this.unused = new Set(policy.rules);
  }
  /** A call a rule could apply to, and the rule `ruleFor` gave it. */
  note(call: CallFacts, rule: Rule | null): void {
    if (this.unused.size === 0) return;
    if (this.policy.kind === 'file') {
      if (!rule) return;
      this.unused.delete(rule);
      this.taken.delete(rule);
      // Every other rule this call matches comes after the one that took it (the first match).
      if (this.taken.size < this.unused.size)
        for (const r of this.unused) if (!this.taken.has(r) && ruleMatches(r, call)) this.taken.set(r, rule);
    } else for (const r of this.unused) if (ruleMatches(r, call)) this.unused.delete(r);
  }
  /** The rules no call used, in the policy's order. */
  rules(): Rule[] {
    return this.policy.rules.filter((r) => this.unused.has(r));
  }
  /** For a rule no call used that a call matched: the earlier rule that took the first such call (the first match wins); else null. */
  takenBy(rule: Rule): Rule | null {
    return this.taken.get(rule) ?? null;
  }
  /** As plain data, rules by their position in the policy (a snapshot keeps it: gate/snapshot.ts). */
  toJson(): RuleUseJson {
    const at = new Map(this.policy.rules.map((r, i) => [r, i]));
    return {
      unused: this.policy.rules.flatMap((r, i) => (this.unused.has(r) ? [i] : [])),
      taken: [...this.taken].map(([r, by]) => [at.get(r) ?? -1, at.get(by) ?? -1]),
    };
  }

  /** The use `json` says (`toJson` of the same policy's), or why it cannot be this policy's. */
  static fromJson(policy: Policy, json: RuleUseJson): Result<RuleUse, string> {
    const rule = (i: number): Rule | undefined => (Number.isInteger(i) ? policy.rules[i] : undefined);
    const use = new RuleUse(policy);
    const unused = new Set<Rule>();
    for (const i of json.unused) {
      const r = rule(i);
      if (!r) return { ok: false, reason: `rule position ${i} is not in the policy` };
      unused.add(r);
    }
    for (const r of policy.rules) if (!unused.has(r)) use.unused.delete(r);
    for (const [i, j] of json.taken) {
      const r = rule(i);
      const by = rule(j);
      if (!r || !by || !unused.has(r))
        return { ok: false, reason: `rule positions ${i}, ${j} are not an unused rule and one of the policy` };
      use.taken.set(r, by);
    }
    return { ok: true, value: use };
  }

  /** Adds what other calls (after this one's) used (`other`: the same policy's rules, perhaps another copy of them: matched by position). */
  merge(other: RuleUse): void {
    other.policy.rules.forEach((r, i) => {
      if (other.unused.has(r)) return;
      const rule = this.policy.rules[i] as Rule;
      this.unused.delete(rule);
      this.taken.delete(rule);
    });
    if (other.taken.size === 0) return;
    const at = new Map(other.policy.rules.map((r, i) => [r, i]));
    const mine = (r: Rule): Rule => this.policy.rules[at.get(r) ?? -1] as Rule;
    for (const [r, by] of other.taken) {
      const rule = mine(r);
      if (this.unused.has(rule) && !this.taken.has(rule)) this.taken.set(rule, mine(by));
    }
  }
}

/**
 * What of a rule its names are checked by: a rule, or a rule of a policy file that does not read
 * whole (its level perhaps not one: only a require input's rule, `at` null, is named by its level).
 */
export type RuleNames = Pick<Rule, 'name' | 'selector' | 'actionClass' | 'verb' | 'at' | 'classAt' | 'verbAt'> & {
  readonly level?: Level;
};

/**
 * A typo must not silently turn a requirement off (§7): a rule whose class is neither a class of the
 * §2 table nor a class of the input, or whose verb is neither a verb the producer writes for that
 * class nor a verb of the input for it, is refused, with the nearest known name suggested.
 * @param seen every class of the input, with its verbs; null: the input is not read (a policy file
 *   that does not parse stops the run first: its rules' names are said beside its other problems, and
 *   the words say a name only the input holds is accepted once it is read)
 */
export function checkRuleNames(
  policy: { readonly rules: readonly RuleNames[] },
  seen: ReadonlyMap<string, ReadonlySet<string>> | null,
  rejected: ReadonlyMap<string, string> = new Map(),
): Result<undefined, readonly RuleNameProblem[]> {
  const classes = new Set([...KNOWN_CLASSES, ...(seen?.keys() ?? [])]);
  // Whose names a name is checked against: with the input unread, the gate's own, and words that say the input may hold it.
  const whose = (own: string, held: string): string =>
    seen === null
      ? `not ${own}; the input is read once the file is valid, and ${held} is then accepted`
      : `neither ${own} nor one in the input`;
  // Every rule's names, all at once (a red team: one misspelt name per run of the gate).
  const problems: RuleNameProblem[] = [];
  for (const rule of policy.rules) {
    const written = rule.at === null ? `"${rule.selector}=${rule.level}"` : `rule ${rule.name}`;
    if (rule.actionClass === null) continue;
    if (!classes.has(rule.actionClass)) {
      const only = rejected.get(rule.actionClass);
      const near = nearestName(rule.actionClass, classes);
      const why = only
        ? `; the class is only in ${visible(only)}, a run that is rejected (invalid_artifact): fix that file`
        : near
          ? `; did you mean ${JSON.stringify(near)}?${lookAlike(rule.actionClass, near)}`
          : `; classes: ${visible([...classes].sort(cmp).join(', '))}`;
      problems.push({
        rule,
        at: rule.classAt ?? rule.at,
        message: `${written}: no action class ${JSON.stringify(rule.actionClass)} (${whose('a class the gate binds', 'a class it holds')})${why}`,
      });
      continue;
    }
    if (rule.verb !== null) {
      const verbs = new Set([...(PRODUCER_VERBS.get(rule.actionClass) ?? []), ...(seen?.get(rule.actionClass) ?? [])]);
      if (!verbs.has(rule.verb)) {
        const near = nearestName(rule.verb, verbs);
        problems.push({
          rule,
          at: rule.verbAt ?? rule.at,
          message: `${written}: no verb ${JSON.stringify(rule.verb)} for ${rule.actionClass} (${whose('one the producer writes', 'a verb it holds for the class')})${near ? `; did you mean ${JSON.stringify(`${rule.actionClass}:${near}`)}?` : verbs.size > 0 ? `; verbs: ${visible([...verbs].sort(cmp).join(', '))}` : ''}`,
        });
      }
    }
  }
  return problems.length === 0 ? { ok: true } : { ok: false, reason: problems };
}

/** A rule naming a class or verb nothing has: the rule, where the name is written (null: a require input), why. */
export interface RuleNameProblem {
  readonly rule: RuleNames;
  readonly at: Location | null;
  readonly message: string;
}

/** Where a name differs from the nearest only by a character outside ASCII (a look-alike: Cyrillic е for e), which one. */
function lookAlike(name: string, near: string): string {
  const odd = [...name].find((c) => (c.codePointAt(0) ?? 0) > 0x7f && !near.includes(c));
  if (odd === undefined) return '';
  const code = (odd.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return ` (it holds U+${code}, a character outside ASCII that looks like a letter of it)`;
}

/** A rule as the report's policy names it: a `require` rule as before, a file's rule with what it matches. */
export function ruleJson(rule: Rule): JsonObject {
  if (rule.at === null) return { selector: rule.selector, level: rule.level };
  const target: { [field: string]: readonly string[] } = {};
  for (const test of rule.target) target[test.field] = test.kind === 'glob' ? test.globs : [...test.hashes].sort(cmp);
  return {
    name: rule.name,
    selector: rule.selector,
    level: rule.level,
    mode: rule.mode,
    ...(rule.target.length > 0 ? { target } : {}),
    ...(rule.signedBy ? { signed_by: rule.signedBy } : {}),
  };
}

/**
 * Whether every call `inner` (a later rule's test) lets through on its field, `outer` (an earlier
 * rule's) lets through too. A call that gives the field as something else than text, or leaves a
 * field out, is told the same by both (the rules are of one class). Hashed: inner's hashes are
 * among outer's. Plain: each inner glob is covered by one outer glob (`globCovers`; several outer
 * globs that cover it only together are not seen: unsure is no). A caseless outer (owner, repo) is
 * matched against the value lowered, so inner's globs are lowered too; a case-sensitive outer never
 * covers a caseless inner (`PROD-api` reaches the inner, not the outer).
 */
function testCovers(outer: FieldTest, inner: FieldTest): boolean {
  if (outer.field !== inner.field) return false;
  if (outer.kind === 'hash') return inner.kind === 'hash' && [...inner.hashes].every((h) => outer.hashes.has(h));
  if (inner.kind !== 'glob' || (inner.caseless && !outer.caseless)) return false;
  return inner.globs.every((glob) => {
    const value = outer.caseless ? asciiLower(glob) : glob;
    return outer.patterns.some((pattern) => globCovers(pattern, value));
  });
}

/**
 * The earlier rule of a file that matches every call `later` matches (docs/policy.md §11), so that
 * `later` can never apply (the first match wins): same class; no verb or the same; every target
 * field the earlier tests, the later tests too, and each value the later lets through the earlier
 * does (`testCovers`: `prod-*` before `[prod-api]`); no `signed-by` on the earlier that the later
 * lacks. Sound, never complete: a rule named here is reached by no call.
 */
export function shadowing(earlier: readonly Rule[], later: Rule): Rule | null {
  for (const e of earlier) {
    if (e.actionClass !== later.actionClass) continue;
    if (e.verb !== null && e.verb !== later.verb) continue;
    if (e.signedBy !== null && later.signedBy === null) continue;
    if (!e.target.every((t) => later.target.some((u) => testCovers(t, u)))) continue;
    return e;
  }
  return null;
}
