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

/**
 * Labels: what a policy rule's target fields match when the call has no subject (docs/policy.md §3:
 * "a plain field matches when the call's target has that field as a string"). For a class outside
 * the binding table, every member of action.target (the reader's limits bound how many: a cap
 * here dropped a field a rule named, and its call escaped the rule: a red team); for a class of the
 * table whose call has no subject (a verb missing, a field of the wrong type), its bound fields (a
 * red team: such a call escaped every rule that names a target field). A field that is not text is
 * kept as it is: a rule testing it cannot tell, and says so (policy.ts `untoldWhy`). Else null.
 */
function labelsOf(actionClass: unknown, target: unknown, subject: boolean): JsonObject | null {
  if (typeof actionClass !== 'string' || !isObject(target)) return null;
  const bound = boundFields(actionClass);
  if (bound && subject) return null;
  const out: { [field: string]: unknown } = {};
  // Every field as given: one that is not text is kept so a rule naming it cannot tell, never passes it over.
  for (const field of bound ?? Object.keys(target)) if (hasOwn(target, field)) out[field] = target[field];
  return out;
}

/**
 * @param time  when the decision was made, where its format says (a server log line's timestamp, an
 *              evidence event's time); null for a decision surface, which has none
 * @param begun when the call's request began, where its format says (a server log's tool_call_start
 *              line); null where it has no such time
 * @param session which server session of its run it was decided in (a server log's, 1 and up); 0 for
 *              a format without sessions
 */
export function prepareDecision(
  loc: Location,
  index: number,
  decision: JsonObject,
  time: Instant | null = null,
  begun: Instant | null = null,
  session = 0,
): DecisionInput {
  const tool = decision['tool'];
  const value = decision['decision'];
  const action = decision['action'];
  const target = isObject(action) ? action['target'] : undefined;
  const given = isObject(target) && hasOwn(target, 'provider') ? target['provider'] : null;
  const response = decision['response'];
  const projection = project(decision);
  return {
    loc,
    index,
    tool: isObject(tool) && typeof tool['name'] === 'string' ? tool['name'] : null,
    claim: readClaim(decision),
    projection,
    actionClass: isObject(action) && typeof action['resource_type'] === 'string' ? action['resource_type'] : null,
    verb: isObject(action) && typeof action['verb'] === 'string' ? action['verb'] : null,
    denied: isObject(value) && (value['effect'] === 'deny' || value['effect'] === 'error') ? value['effect'] : false,
    provider: given === null || typeof given === 'string' ? given : { invalid: true },
    succeeded: isObject(response) && response['status'] === 'success',
    labels: labelsOf(isObject(action) ? action['resource_type'] : undefined, target, projection.kind === 'subject'),
    time,
    begun,
    session,
  };
}
