/**
 * What every importer returns per export entry, and how a record is made from a subject: the one
 * record shape (assay.provider_audit_record.v0, binding recomputed here, non_claims naming the
 * export), whatever the provider.
 */
import { binding } from '../../core/binding.js';
import { isObject, type JsonObject } from '../../core/json.js';
import { RECORD_SCHEMA } from '../../core/model.js';
import { quote } from '../../core/text.js';
import type { EntryScope } from './scope.js';

interface Subject {
  readonly action_class: string;
  readonly verb: string;
  readonly target: { readonly [k: string]: string | null };
}

export type Mapped =
  | { readonly kind: 'record'; readonly provider: string; readonly recordId: string; readonly subject: Subject; readonly scope: EntryScope }
  | { readonly kind: 'skip'; readonly reason: string }
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

export function makeRecord(m: Mapped & { kind: 'record' }, source: string): AuditRecordOut {
  const b = binding(m.subject);
  if (!b.ok) throw new Error(`subject cannot be canonicalized: ${b.reason}`); // subjects here are strings and nulls only
  return {
    schema: RECORD_SCHEMA,
    provider: m.provider,
    record_id: m.recordId,
    subject: m.subject,
    binding_digest: b.digest,
    non_claims: [
      `imported from ${source}; receipt-gate queried nothing`,
      'binds an audit entry to a call; does not prove the entry is authentic beyond its signature',
    ],
  };
}

/** A string member, or null (absent, empty or not a string). */
export const str = (o: unknown, k: string): string | null => {
  const v = isObject(o) ? o[k] : undefined;
  return typeof v === 'string' && v !== '' ? v : null;
};

/** An object member, or null. */
export const obj = (o: unknown, k: string): JsonObject | null => {
  const v = isObject(o) ? o[k] : undefined;
  return isObject(v) ? v : null;
};

/** An id as quoted in a message: ids are not secrets, but are clipped. */
export const idText = (s: string): string => JSON.stringify(quote(s, 80));
