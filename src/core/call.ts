/**
 * One recorded call and whether it can be verified at all, decided once, before any record is seen.
 * A leaf: the ladder decides what a call earns, diagnose says why it earned no more; both read this.
 */
import type { Claim } from './claims.js';
import type { DecisionInput, RunInput } from './model.js';

export type Eligibility =
  | { readonly ok: true; readonly digest: string; readonly provider: string | null }
  | { readonly ok: false; readonly reason: string };

/** One recorded call: immutable; what it earned is its Outcome, never a field set later. */
export interface Call {
  /** 0-based position among every call of the verification (artifact, then decision order): what the ladder's tables are indexed by. */
  readonly order: number;
  readonly run: RunInput;
  readonly input: DecisionInput;
  readonly claim: Claim;
  readonly eligibility: Eligibility;
}

/**
 * A call named by value: what a reason that names another call carries, never the call itself (a
 * call holds its whole run; an outcome must cross to the thread that judges its file).
 */
export interface CallRef {
  readonly artifact: string;
  readonly index: number;
  readonly line: number;
  /** The call's `order`: where the allocation finds it again. */
  readonly order: number;
}

export const callRef = (c: Call): CallRef => ({ artifact: c.run.artifact, index: c.input.index, line: c.input.loc.line, order: c.order });

/** Whether a call can be verified at all, and with what: decided once, before any record is seen. */
export function eligibility(input: DecisionInput, claim: Claim): Eligibility {
  if (!claim.asserted) return { ok: false, reason: 'the call does not assert a side effect (side_effect_asserted is false)' };
  if (input.denied)
    return {
      ok: false,
      reason: input.denied === 'error' ? 'the call failed (decision.effect is "error")' : 'the call was denied (decision.effect is "deny")',
    };
  const projection = input.projection;
  if (projection.kind === 'none') return { ok: false, reason: `the call has no subject: ${projection.reason}` };
  if (input.provider !== null && typeof input.provider !== 'string')
    return { ok: false, reason: 'action.target.provider is neither a string nor null' };
  return { ok: true, digest: projection.digest, provider: input.provider };
}

/** A call that can be verified (its eligibility says with what). */
export const isEligible = (call: Call): call is Call & { readonly eligibility: { readonly ok: true } } => call.eligibility.ok;

/** A call that can never be verified (its eligibility says why). */
export const isIneligible = (call: Call): call is Call & { readonly eligibility: { readonly ok: false } } => !call.eligibility.ok;
