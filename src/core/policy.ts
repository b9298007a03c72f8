/**
 * Required levels (§7): what evidence each kind of side effect must reach. Rules `SELECTOR=LEVEL`
 * with SELECTOR one of `*`, `CLASS`, `CLASS:VERB`; the most specific rule that matches a call
 * applies. Selectors are parsed once (CLASS:VERB splits at the first `:`) and matched by equality
 * of class and verb, never as text, so a class that itself contains `:` cannot pick up a rule
 * written for another class. A rule applies to calls that assert a side effect and were not
 * denied; by default there are none and the gate enforces honesty only.
 */

import { KNOWN_CLASSES, PRODUCER_VERBS } from './projection.js';
import type { Result } from './result.js';
import { cmp, nearestName } from './text.js';
import { isLevel, LEVELS, type Level } from './vocabulary.js';

export interface Rule {
  /** As written: `*`, `github_deploy_key` or `github_deploy_key:create`. */
  readonly selector: string;
  readonly level: Level;
}

/** A rule's parsed selector: every class (`*`), one class, or one class and one verb. */
type Selector =
  | { readonly kind: 'any' }
  | { readonly kind: 'class'; readonly cls: string }
  | { readonly kind: 'verb'; readonly cls: string; readonly verb: string };

interface Parsed {
  readonly rule: Rule;
  readonly selector: Selector;
}

export interface Policy {
  readonly rules: readonly Rule[];
  /** The rules with their selectors parsed (the same order). */
  readonly parsed: readonly Parsed[];
}

export const NO_POLICY: Policy = { rules: [], parsed: [] };

const NAME = /^[A-Za-z0-9_.-]+$/;

function selectorOf(text: string): Selector | null {
  if (text === '*') return { kind: 'any' };
  const colon = text.indexOf(':');
  if (colon < 0) return NAME.test(text) ? { kind: 'class', cls: text } : null;
  const cls = text.slice(0, colon);
  const verb = text.slice(colon + 1);
  return NAME.test(cls) && NAME.test(verb) ? { kind: 'verb', cls, verb } : null;
}

/** Parse rules; a malformed rule, an unknown level or two rules for one selector is refused by name. */
export function parsePolicy(texts: readonly string[]): Result<Policy> {
  const parsed: Parsed[] = [];
  const seen = new Set<string>();
  for (const text of texts) {
    const source = text.trim();
    const eq = source.indexOf('=');
    if (eq < 0) return { ok: false, reason: `"${source}" is not SELECTOR=LEVEL (e.g. github_deploy_key:create=verified)` };
    const selectorText = source.slice(0, eq).trim();
    const level = source.slice(eq + 1).trim();
    const selector = selectorOf(selectorText);
    if (!selector) return { ok: false, reason: `"${source}": the selector must be *, CLASS or CLASS:VERB` };
    if (!isLevel(level)) return { ok: false, reason: `"${source}": the level must be one of ${LEVELS.join(', ')}` };
    if (seen.has(selectorText)) return { ok: false, reason: `"${source}": a second rule for ${selectorText}` };
    seen.add(selectorText);
    parsed.push({ rule: { selector: selectorText, level }, selector });
  }
  return { ok: true, value: { rules: parsed.map((p) => p.rule), parsed } };
}

/** Whether a rule's selector matches a call of this class and verb. */
function matches(selector: Selector, actionClass: string | null, verb: string | null): boolean {
  if (selector.kind === 'any') return true;
  if (selector.kind === 'class') return actionClass === selector.cls;
  return actionClass === selector.cls && verb === selector.verb;
}

const SPECIFICITY: { readonly [K in Selector['kind']]: number } = { verb: 0, class: 1, any: 2 };

/** The rule for a call of this class and verb (null when it has none), the most specific first. */
export function ruleFor(policy: Policy, actionClass: string | null, verb: string | null): Rule | null {
  let best: Parsed | null = null;
  for (const p of policy.parsed) {
    if (!matches(p.selector, actionClass, verb)) continue;
    if (!best || SPECIFICITY[p.selector.kind] < SPECIFICITY[best.selector.kind]) best = p;
  }
  return best?.rule ?? null;
}

/** The rules whose selector matches none of these calls (class and verb of each call a rule could apply to). */
export function unusedRules(
  policy: Policy,
  calls: Iterable<{ readonly actionClass: string | null; readonly verb: string | null }>,
): Rule[] {
  const unused = new Set(policy.parsed);
  if (unused.size === 0) return [];
  for (const c of calls) {
    for (const p of unused) if (matches(p.selector, c.actionClass, c.verb)) unused.delete(p);
    if (unused.size === 0) break;
  }
  return policy.parsed.filter((p) => unused.has(p)).map((p) => p.rule);
}

/**
 * A typo must not silently turn a requirement off (§7): a rule whose CLASS is neither a class of the
 * §2 table nor a class of the input, or whose VERB is neither a verb the producer writes for that
 * class nor a verb of the input for it, is refused, with the nearest known name suggested.
 * @param seen every class of the input, with its verbs
 */
export function checkRuleNames(policy: Policy, seen: ReadonlyMap<string, ReadonlySet<string>>): Result {
  for (const p of policy.parsed) {
    const selector = p.selector;
    if (selector.kind === 'any') continue;
    const classes = new Set([...KNOWN_CLASSES, ...seen.keys()]);
    if (!classes.has(selector.cls)) {
      const near = nearestName(selector.cls, classes);
      return {
        ok: false,
        reason: `"${p.rule.selector}=${p.rule.level}": no action class ${JSON.stringify(selector.cls)} (neither a class the gate binds nor one in the input)${near ? `; did you mean ${JSON.stringify(near)}?` : `; classes: ${[...classes].sort(cmp).join(', ')}`}`,
      };
    }
    if (selector.kind === 'verb') {
      const verbs = new Set([...(PRODUCER_VERBS.get(selector.cls) ?? []), ...(seen.get(selector.cls) ?? [])]);
      if (!verbs.has(selector.verb)) {
        const near = nearestName(selector.verb, verbs);
        return {
          ok: false,
          reason: `"${p.rule.selector}=${p.rule.level}": no verb ${JSON.stringify(selector.verb)} for ${selector.cls} (neither one the producer writes nor one in the input)${near ? `; did you mean ${JSON.stringify(`${selector.cls}:${near}`)}?` : verbs.size > 0 ? `; verbs: ${[...verbs].sort(cmp).join(', ')}` : ''}`,
        };
      }
    }
  }
  return { ok: true };
}
