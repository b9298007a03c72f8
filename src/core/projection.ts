/**
 * The call subject (action projection) of a decision: {action_class, verb, target} with the target
 * narrowed to the fields bound for its class (the class table: core/classes.ts). `provider` and `read_only` describe the request, not
 * the effect, and are never bound. The github_deploy_key row is byte-compatible with upstream Assay.
 */
import { binding, jcs, unsafeInteger, unsafeIntegerText } from './binding.js';
import { CLASSES, classRow, KNOWN_CLASSES } from './classes.js';
import { hasOwn, isObject, type JsonObject } from './json.js';

/** The verbs the producer writes for each class of the table (a rule naming another verb is a typo unless the input has it). */
export const PRODUCER_VERBS: ReadonlyMap<string, readonly string[]> = new Map([...CLASSES].map(([c, row]) => [c, row.verbs]));

export { KNOWN_CLASSES };

/** The bound fields of an action class (the class table, core/classes.ts), or undefined when the class has no binding rule. */
export const boundFields = (actionClass: string): readonly string[] | undefined => classRow(actionClass)?.fields;

export interface CallSubject {
  readonly action_class: string;
  readonly verb: string;
  readonly target: JsonObject;
}

export type Projection =
  | { readonly kind: 'subject'; readonly subject: CallSubject; readonly digest: string }
  | { readonly kind: 'none'; readonly reason: string };

/** Narrow a target to its class's bound fields, copying only those (never spreading the parsed object). */
export function narrowTarget(actionClass: string, target: JsonObject): JsonObject | undefined {
  const fields = boundFields(actionClass);
  if (!fields) return undefined;
  const out: { [key: string]: unknown } = {};
  for (const f of fields) if (hasOwn(target, f)) out[f] = target[f];
  return out;
}

export function project(decision: JsonObject): Projection {
  const action = decision['action'];
  if (!isObject(action)) return { kind: 'none', reason: 'action is not an object' };
  const actionClass = action['resource_type'];
  const verb = action['verb'];
  const target = action['target'];
  if (typeof actionClass !== 'string') return { kind: 'none', reason: 'action.resource_type is not a string' };
  if (typeof verb !== 'string') return { kind: 'none', reason: 'action.verb is not a string' };
  if (!isObject(target)) return { kind: 'none', reason: 'action.target is not an object' };
  const narrowed = narrowTarget(actionClass, target);
  if (!narrowed) return { kind: 'none', reason: `action class "${actionClass}" has no binding rule` };
  if (Object.keys(narrowed).length === 0) {
    return { kind: 'none', reason: `target has none of the bound fields (${(boundFields(actionClass) ?? []).join(', ')})` };
  }
  const subject: CallSubject = { action_class: actionClass, verb, target: narrowed };
  const bound = binding(subject);
  if (!bound.ok) return { kind: 'none', reason: `subject cannot be canonicalized: ${bound.reason}` };
  return { kind: 'subject', subject, digest: bound.digest };
}

/**
 * The first number of a decision's would-be subject (its class's bound target fields) that is an
 * integer beyond ±(2^53−1), with its path from the decision and why it is refused, or null. Such a
 * subject is never bound (`project` says so through the binding); a reader rejects the decision at
 * the number's place instead (read/surface.ts). Fields outside the binding are never bound: any
 * number may stand there.
 */
export function unsafeSubjectNumber(decision: JsonObject): { readonly path: readonly (string | number)[]; readonly reason: string } | null {
  const action = decision['action'];
  if (!isObject(action) || typeof action['resource_type'] !== 'string' || typeof action['verb'] !== 'string') return null;
  const target = action['target'];
  const narrowed = isObject(target) ? narrowTarget(action['resource_type'], target) : undefined;
  const unsafe = narrowed === undefined ? null : unsafeInteger(narrowed);
  return unsafe === null ? null : { path: ['action', 'target', ...unsafe.path], reason: unsafeIntegerText(unsafe, 'action.target') };
}

/**
 * Two calls touch the same thing when canonical {action_class, target} are equal. A subject's target
 * holds only its class's bound fields, in the table's order, so that equality is: the same class and,
 * field by field, the same presence and canonically equal values. The key says exactly that: the
 * class, then per bound field `\u0000` and its value: a string as `s`, its length, `:` and the string
 * itself (its length says where it ends, so nothing in it needs escaping: JSON.stringify of each
 * string was ~a third of the key's cost), anything else by `boundValueText` (a JSON text: never
 * empty, never starting with `s`, never holding a raw U+0000; a value JCS refuses, written as U+0000,
 * is never in a call's subject, whose binding succeeded); nothing when absent. No sorting or escaping
 * of whole objects per call.
 */
export function targetKey(subject: CallSubject): string {
  let key = subject.action_class;
  for (const f of boundFields(subject.action_class) ?? []) {
    if (!hasOwn(subject.target, f)) {
      key += '\u0000';
      continue;
    }
    const value = subject.target[f];
    key += typeof value === 'string' ? `\u0000s${value.length}:${value}` : `\u0000${boundValueText(value)}`;
  }
  return key;
}

/**
 * A bound field's value as the binding sees it, for telling values equal: a string as
 * JSON.stringify writes it, anything else canonical (JCS), so `{"a":1,"b":2}` equals
 * `{"b":2,"a":1}` here as in their digests; a string's text starts with `"` and no other value's
 * does. U+0000 alone for a value JCS refuses (no JSON text is that); a subject's values were
 * canonicalized once already, so that cannot happen for a call.
 */
export function boundValueText(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  const canonical = jcs(value);
  return canonical.ok ? canonical.text : '\u0000';
}
