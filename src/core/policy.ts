/**
 * Required levels (§7): what evidence each kind of side effect must reach. Rules `SELECTOR=LEVEL`
 * with SELECTOR one of `*`, `CLASS`, `CLASS:VERB`; the most specific rule that matches a call
 * applies. A rule applies to calls that assert a side effect and were not denied; by default there
 * are none and the gate enforces honesty only.
 */
import { LEVELS, type Level } from './model.js';
import type { Result } from './result.js';

export interface Rule {
  /** As written: `*`, `github_deploy_key` or `github_deploy_key:create`. */
  readonly selector: string;
  readonly level: Level;
}

export interface Policy {
  readonly rules: readonly Rule[];
}

export const NO_POLICY: Policy = { rules: [] };

const NAME = /^[A-Za-z0-9_.-]+$/;

/** Parse rules; a malformed rule, an unknown level or two rules for one selector is refused by name. */
export function parsePolicy(texts: readonly string[]): Result<Policy> {
  const rules: Rule[] = [];
  const seen = new Set<string>();
  for (const text of texts) {
    const t = text.trim();
    const eq = t.indexOf('=');
    if (eq < 0) return { ok: false, reason: `"${t}" is not SELECTOR=LEVEL (e.g. github_deploy_key:create=verified)` };
    const selector = t.slice(0, eq).trim();
    const level = t.slice(eq + 1).trim();
    const parts = selector.split(':');
    const wellFormed = selector === '*' || (parts.length <= 2 && parts.every((p) => NAME.test(p)));
    if (!wellFormed) return { ok: false, reason: `"${t}": the selector must be *, CLASS or CLASS:VERB` };
    if (!(LEVELS as readonly string[]).includes(level)) return { ok: false, reason: `"${t}": the level must be one of ${LEVELS.join(', ')}` };
    if (seen.has(selector)) return { ok: false, reason: `"${t}": a second rule for ${selector}` };
    seen.add(selector);
    rules.push({ selector, level: level as Level });
  }
  return { ok: true, value: { rules } };
}

/** The rule for a call of this class and verb (null when it has none), the most specific first. */
export function ruleFor(policy: Policy, actionClass: string | null, verb: string | null): Rule | null {
  if (policy.rules.length === 0) return null;
  const find = (s: string): Rule | undefined => policy.rules.find((r) => r.selector === s);
  if (actionClass !== null) {
    const exact = verb !== null ? find(`${actionClass}:${verb}`) : undefined;
    if (exact) return exact;
    const cls = find(actionClass);
    if (cls) return cls;
  }
  return find('*') ?? null;
}
