/**
 * What a decision claims about its side effect (§4 of the semantics). Claims are read, checked
 * for consistency and later compared with what the evidence earns; they never earn anything.
 */
import { hasOwn as has, isObject, type JsonObject } from './json.js';
import { LEVELS, type Level } from './vocabulary.js';

export interface Claim {
  /** response.side_effect_asserted */
  readonly asserted: boolean;
  readonly level: Level;
  /** The claimed verification_subject_digest; null when absent or for a legacy claim. */
  readonly digest: string | null;
  /** `side_effect_verified: true` without a `side_effect` block: a claim with no digest to compare. */
  readonly legacy: boolean;
}

export type ClaimReading =
  | { readonly kind: 'claim'; readonly claim: Claim; readonly inconsistencies: readonly string[] }
  | { readonly kind: 'invalid'; readonly reason: string };

const EXPECTED_SOURCE: { readonly [L in Level]: string | null } = {
  asserted: null,
  observed_confirmed: 'observed_read_followup',
  verified: 'provider_audit_import',
};

/** Most claims are consistent: share one empty list rather than keep one per call. */
const NONE: readonly string[] = Object.freeze([]);

/** §4: the producer asserts exactly `effect == allow && status == success`; anything else asserted is a contradiction. */
function assertedAgainstOutcome(decision: JsonObject, response: JsonObject): string | null {
  const value = decision['decision'];
  const effect = isObject(value) ? value['effect'] : undefined;
  if (effect === 'deny' || effect === 'error')
    return `side_effect_asserted is true while decision.effect is "${effect}": a call that was not allowed cannot have changed anything`;
  const status = response['status'];
  if (status !== 'success')
    return `side_effect_asserted is true while response.status is ${JSON.stringify(typeof status === 'string' ? status.slice(0, 60) : (status ?? null))}, not "success"`;
  return null;
}

export function readClaim(decision: JsonObject): ClaimReading {
  const response = decision['response'];
  if (!isObject(response)) return { kind: 'invalid', reason: 'response is not an object' };
  const asserted = response['side_effect_asserted'];
  if (typeof asserted !== 'boolean') return { kind: 'invalid', reason: 'response.side_effect_asserted is not a boolean' };
  const legacyVerified = response['side_effect_verified'];
  if (has(response, 'side_effect_verified') && typeof legacyVerified !== 'boolean') {
    return { kind: 'invalid', reason: 'response.side_effect_verified is not a boolean' };
  }
  const problems: string[] = [];
  const contradiction = asserted ? assertedAgainstOutcome(decision, response) : null;
  if (contradiction) problems.push(contradiction);

  if (!has(response, 'side_effect')) {
    const level: Level = legacyVerified === true ? 'verified' : 'asserted';
    if (level !== 'asserted' && !asserted) problems.push(`claims "${level}" while side_effect_asserted is false`);
    return {
      kind: 'claim',
      claim: { asserted, level, digest: null, legacy: level === 'verified' },
      inconsistencies: problems.length ? problems : NONE,
    };
  }

  const block = response['side_effect'];
  if (!isObject(block)) return { kind: 'invalid', reason: 'response.side_effect is not an object' };
  const blockAsserted = block['asserted'];
  const level = block['level'];
  if (typeof blockAsserted !== 'boolean') return { kind: 'invalid', reason: 'response.side_effect.asserted is not a boolean' };
  if (typeof level !== 'string' || !(LEVELS as readonly string[]).includes(level)) {
    return { kind: 'invalid', reason: `response.side_effect.level must be one of ${LEVELS.join(', ')}` };
  }
  const claimed = level as Level;
  const source = has(block, 'verification_source') ? block['verification_source'] : null;
  const digestValue = has(block, 'verification_subject_digest') ? block['verification_subject_digest'] : null;
  if (digestValue !== null && typeof digestValue !== 'string') {
    return { kind: 'invalid', reason: 'response.side_effect.verification_subject_digest is not a string or null' };
  }

  if (blockAsserted !== asserted) {
    problems.push(`side_effect.asserted (${blockAsserted}) differs from side_effect_asserted (${asserted})`);
  }
  const expected = EXPECTED_SOURCE[claimed];
  if (source !== expected) {
    problems.push(`verification_source ${JSON.stringify(source)} does not fit level "${claimed}" (expected ${JSON.stringify(expected)})`);
  }
  if (claimed === 'asserted' && digestValue !== null) {
    problems.push('an "asserted" claim carries a verification_subject_digest');
  }
  if (has(response, 'side_effect_verified') && legacyVerified !== (claimed === 'verified')) {
    problems.push(`side_effect_verified (${legacyVerified}) contradicts level "${claimed}"`);
  }
  if (claimed !== 'asserted' && !asserted) {
    problems.push(`claims "${claimed}" while side_effect_asserted is false`);
  }
  return {
    kind: 'claim',
    claim: { asserted, level: claimed, digest: digestValue, legacy: false },
    inconsistencies: problems.length ? problems : NONE,
  };
}
