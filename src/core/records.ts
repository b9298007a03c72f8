/**
 * Audit records before allocation (§3, §8), checked in this order: binding consistency, signer
 * trust (when trusted keys are configured), identity. Identity is taken only by records that passed
 * the earlier checks: an inconsistent or untrusted copy never makes a good one a duplicate. Copies
 * of one audit entry (one identity, one meaning: overlapping exports, at-least-once streaming, a
 * redelivery) count once; one identity with two meanings makes every record of it unusable. Each
 * record leaves here with an outcome that carries its reason; only a `UsableRecord`, which nothing
 * but this module can make, can ever bind a call.
 */
import { sha256Digest } from './binding.js';
import { item, stored } from './lists.js';
import type { RecordInput } from './model.js';
import type { TrustCode } from './trust.js';

type RecordCheck =
  | { readonly outcome: 'usable'; readonly recomputed: string }
  | { readonly outcome: 'inconsistent'; readonly recomputed: string | null; readonly reason: string }
  | { readonly outcome: 'untrusted'; readonly recomputed: string; readonly code: TrustCode; readonly reason: string }
  /** A second copy of the entry `first` holds: counted once, so it binds nothing itself. */
  | { readonly outcome: 'imported_twice'; readonly recomputed: string; readonly first: RecordInput }
  /** Its identity is shared by `other`, a record of another meaning: neither is usable. */
  | { readonly outcome: 'duplicate'; readonly recomputed: string; readonly other: RecordInput };

declare const USABLE: unique symbol;

/** A record that passed every check: the only kind of record a `verified` outcome can hold. */
export interface UsableRecord {
  readonly input: RecordInput;
  readonly check: RecordCheck & { readonly outcome: 'usable' };
  readonly [USABLE]: true;
}

/** A record that failed a check: the reason a call with its binding did not get it. */
export interface UnusableRecord {
  readonly input: RecordInput;
  readonly check: Exclude<RecordCheck, { readonly outcome: 'usable' }>;
}

/** A record after its checks: usable, or not with the reason. */
export type CheckedRecord = UsableRecord | UnusableRecord;

export const isUsable = (r: CheckedRecord): r is UsableRecord => r.check.outcome === 'usable';

export const isUnusable = (r: CheckedRecord): r is UnusableRecord => r.check.outcome !== 'usable';

/** Consistency and trust, each record on its own. */
function precheck(input: RecordInput): RecordCheck {
  const { record } = input;
  const bound = input.recomputed;
  if (!bound.ok) return { outcome: 'inconsistent', recomputed: null, reason: `subject cannot be canonicalized: ${bound.reason}` };
  if (bound.digest !== record.binding_digest) {
    return {
      outcome: 'inconsistent',
      recomputed: bound.digest,
      reason: `subject recomputes to ${bound.digest} but binding_digest says ${record.binding_digest}: the subject or the digest was changed after the record was made`,
    };
  }
  if (input.trust.kind === 'untrusted')
    return { outcome: 'untrusted', recomputed: bound.digest, code: input.trust.code, reason: input.trust.reason };
  return { outcome: 'usable', recomputed: bound.digest };
}

/**
 * A record's identity (provider, record_id) as one string, one to one: the provider's length, then
 * the provider and the record_id (the length says where the provider ends).
 */
const recordIdentity = (r: RecordInput): string => `${r.record.provider.length}:${r.record.provider}${r.record.record_id}`;

/** A record's identity as a digest (`sha256:` and the hex of its text's sha256): how a kept verification holds it (core/incremental.ts). */
export const identityDigest = (r: RecordInput): string => sha256Digest(recordIdentity(r));

export function checkRecords(records: readonly RecordInput[]): CheckedRecord[] {
  const checks = records.map(precheck);
  // Identity, among the records that passed: the first of each identity, its digest, and the first that differs.
  const firstOf = new Map<string, { readonly index: number; readonly recomputed: string }>();
  const conflicted = new Map<string, number>();
  // Each usable record's identity, made once (both passes read it); null for the others.
  const ids = checks.map((check, index) => (check.outcome === 'usable' ? recordIdentity(item(records, index)) : null));
  checks.forEach((check, index) => {
    const id = ids[index];
    if (check.outcome !== 'usable' || id == null) return;
    const first = firstOf.get(id);
    if (first === undefined) firstOf.set(id, { index, recomputed: check.recomputed });
    else if (first.recomputed !== check.recomputed && !conflicted.has(id)) conflicted.set(id, index);
  });
  return records.map((input, index): CheckedRecord => {
    const check = item(checks, index);
    if (check.outcome !== 'usable') return { input, check };
    const id = item(ids, index);
    const first = stored(firstOf, id);
    const clash = conflicted.get(id);
    if (clash !== undefined) {
      // Name the other meaning: for the first record the first that differs, for the others the first.
      const other = item(records, first.recomputed === check.recomputed ? clash : first.index);
      return { input, check: { outcome: 'duplicate', recomputed: check.recomputed, other } };
    }
    if (first.index !== index)
      return { input, check: { outcome: 'imported_twice', recomputed: check.recomputed, first: item(records, first.index) } };
    return usable(input, check);
  });
}

/** The one way a record becomes usable: every check passed (the brand is made here and nowhere else). */
const usable = (input: RecordInput, check: RecordCheck & { readonly outcome: 'usable' }): UsableRecord =>
  ({ input, check }) as UsableRecord;
