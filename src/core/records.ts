/**
 * Audit records before allocation (§3, §8), checked in this order: binding consistency, signer
 * trust (when trusted keys are configured), identity. Each record leaves here with an outcome that
 * carries its reason; only a `UsableRecord`, which nothing but this module can make, can ever bind
 * a call.
 */
import { binding } from './binding.js';
import type { RecordInput } from './model.js';

export type RecordCheck =
  | { readonly outcome: 'usable'; readonly recomputed: string }
  | { readonly outcome: 'inconsistent'; readonly recomputed: string | null; readonly reason: string }
  | { readonly outcome: 'untrusted'; readonly recomputed: string; readonly reason: string }
  | { readonly outcome: 'duplicate'; readonly recomputed: string; readonly first: RecordInput };

export interface CheckedRecord {
  readonly input: RecordInput;
  readonly check: RecordCheck;
}

declare const USABLE: unique symbol;

/** A record that passed every check: the only kind of record a `verified` outcome can hold. */
export type UsableRecord = CheckedRecord & { readonly check: { readonly outcome: 'usable' }; readonly [USABLE]: true };

/** A record that failed a check: the reason a call with its binding did not get it. */
export type UnusableRecord = CheckedRecord & { readonly check: Exclude<RecordCheck, { readonly outcome: 'usable' }> };

export const isUsable = (r: CheckedRecord): r is UsableRecord => r.check.outcome === 'usable';

export function checkRecords(records: readonly RecordInput[]): CheckedRecord[] {
  const seen = new Map<string, RecordInput>();
  return records.map((input): CheckedRecord => {
    const { record } = input;
    const b = binding(record.subject);
    const identity = JSON.stringify([record.provider, record.record_id]);
    const first = seen.get(identity);
    if (!first) seen.set(identity, input);
    if (!b.ok) {
      return { input, check: { outcome: 'inconsistent', recomputed: null, reason: `subject cannot be canonicalized: ${b.reason}` } };
    }
    if (b.digest !== record.binding_digest) {
      return {
        input,
        check: {
          outcome: 'inconsistent',
          recomputed: b.digest,
          reason: `subject recomputes to ${b.digest} but binding_digest says ${record.binding_digest}: the subject or the digest was changed after the record was made`,
        },
      };
    }
    if (input.trust.kind === 'untrusted') return { input, check: { outcome: 'untrusted', recomputed: b.digest, reason: input.trust.reason } };
    if (first) return { input, check: { outcome: 'duplicate', recomputed: b.digest, first } };
    return { input, check: { outcome: 'usable', recomputed: b.digest } } as UsableRecord;
  });
}
