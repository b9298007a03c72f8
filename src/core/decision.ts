/**
 * A parsed decision → the few facts verification reads (claim, subject, denial, provider, status).
 * Readers call this as each decision is read, so a run's parsed JSON is never held past its file.
 */
import { readClaim } from './claims.js';
import { hasOwn, isObject, type JsonObject } from './json.js';
import type { Location } from './location.js';
import type { DecisionInput } from './model.js';
import { boundFields, project } from './projection.js';
import type { Instant } from './time.js';

/** Labels: action.target's string members for a class outside the binding table (at most LABELS of them), else null. */
const LABELS = 32;
function labelsOf(actionClass: unknown, target: unknown): JsonObject | null {
  if (typeof actionClass !== 'string' || boundFields(actionClass) || !isObject(target)) return null;
  const out: { [field: string]: string } = {};
  let n = 0;
  for (const field of Object.keys(target)) {
    const value = target[field];
    if (typeof value !== 'string') continue;
    if (++n > LABELS) break;
    out[field] = value;
  }
  return out;
}

/**
 * @param time when the decision was made, where its format says (a server log line's timestamp, an
 *             evidence event's time); null for a decision surface, which has none
 */
export function prepareDecision(loc: Location, index: number, decision: JsonObject, time: Instant | null = null): DecisionInput {
  const tool = decision['tool'];
  const value = decision['decision'];
  const action = decision['action'];
  const target = isObject(action) ? action['target'] : undefined;
  const given = isObject(target) && hasOwn(target, 'provider') ? target['provider'] : null;
  const response = decision['response'];
  return {
    loc,
    index,
    tool: isObject(tool) && typeof tool['name'] === 'string' ? tool['name'] : null,
    claim: readClaim(decision),
    projection: project(decision),
    actionClass: isObject(action) && typeof action['resource_type'] === 'string' ? action['resource_type'] : null,
    verb: isObject(action) && typeof action['verb'] === 'string' ? action['verb'] : null,
    denied: isObject(value) && (value['effect'] === 'deny' || value['effect'] === 'error') ? value['effect'] : false,
    provider: given === null || typeof given === 'string' ? given : { invalid: true },
    succeeded: isObject(response) && response['status'] === 'success',
    labels: labelsOf(isObject(action) ? action['resource_type'] : undefined, target),
    time,
  };
}
