/**
 * What every importer returns per export entry, and how a record is made from a subject: the one
 * record shape (assay.provider_audit_record.v0, binding recomputed here, non_claims naming the
 * export), whatever the provider.
 */
import { binding } from '../../core/binding.js';
import { type JsonObject, memberAt } from '../../core/json.js';
import { RECORD_SCHEMA } from '../../core/model.js';
import { asciiLower, quote } from '../../core/text.js';
import type { EntryScope } from './scope.js';

interface Subject {
  readonly action_class: string;
  readonly verb: string;
  readonly target: { readonly [key: string]: string | number | null };
}

export type Mapped =
  | { readonly kind: 'record'; readonly provider: string; readonly recordId: string; readonly subject: Subject; readonly scope: EntryScope }
  | {
      readonly kind: 'skip';
      readonly reason: string;
      /**
       * What the skip says of an event with an identity (docs/coverage.md §6): `refused`, the event
       * made nothing the importer maps (a failed or dry-run call, a binding updated rather than
       * created): another entry under its id that makes a record contradicts it; `uncertain`, the
       * event may have taken effect and the entry cannot say on what (a create logged without its
       * object, a request that panicked): a window over its scope cannot be claimed complete;
       * `partial`, a stage of an event whose completing entry carries the result: a window over its
       * scope is complete only when that entry is given too. An uncertain entry may not say which
       * event it is (a webhook's raw payload without its event): then it has no id (null).
       */
      readonly event?:
        | { readonly kind: 'refused' | 'partial'; readonly recordId: string; readonly scope: EntryScope | null }
        | { readonly kind: 'uncertain'; readonly recordId: string | null; readonly scope: EntryScope | null };
    }
  | { readonly kind: 'error'; readonly message: string };

/** An importer: one export entry → a record, a counted skip, or an error (never quoting secrets). */
export type Mapper = (entry: JsonObject) => Mapped;

export interface AuditRecordOut {
  readonly schema: typeof RECORD_SCHEMA;
  readonly provider: string;
  readonly record_id: string;
  readonly subject: Subject;
  readonly binding_digest: string;
  readonly non_claims: readonly string[];
}

/** @param vouched what vouches for the entry beyond the export (CloudTrail's signed digest), as the record's non_claims say it */
export function makeRecord(m: Mapped & { kind: 'record' }, source: string, vouched: readonly string[] = []): AuditRecordOut {
  const bound = binding(m.subject);
  if (!bound.ok) throw new Error(`subject cannot be canonicalized: ${bound.reason}`); // subjects here are strings and nulls only
  return {
    schema: RECORD_SCHEMA,
    provider: m.provider,
    record_id: m.recordId,
    subject: m.subject,
    binding_digest: bound.digest,
    non_claims: [
      `imported from ${source}; receipt-gate queried nothing`,
      'binds an audit entry to a call; does not prove the entry is authentic beyond its signature',
      ...vouched,
    ],
  };
}

/** An id as quoted in a message: ids are not secrets, but are clipped. */
export const idText = (s: string): string => JSON.stringify(quote(s, 80));

/**
 * One field an entry may give in several places (Kubernetes: the object reference, the created
 * object, the request's; CloudTrail: the request's parameters and the response): its one value,
 * null when none gives it, or why not (a place that gives it as something other than text, or two
 * places that disagree: which one is meant cannot be said, so it is never guessed).
 */
export function oneText(
  e: JsonObject,
  field: string,
  places: readonly (readonly string[])[],
  /** The field names one thing whatever its ASCII case (an IAM user: its hash lower-cases it too). */
  caseless = false,
): { readonly value: string | null } | { readonly error: string } {
  let found: string | null = null;
  const same = (a: string, b: string): boolean => (caseless ? asciiLower(a) === asciiLower(b) : a === b);
  for (const place of places) {
    const given = memberAt(e, [...place, field]);
    if (given === undefined || given === null || given === '') continue;
    if (typeof given !== 'string') return { error: `${[...place, field].join('.')} is not text` };
    if (found !== null && !same(given, found))
      return { error: `two ${field}s (${idText(found)} and ${idText(given)}): which one is meant cannot be said` };
    found = given;
  }
  return { value: found };
}
