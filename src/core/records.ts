/**
 * Audit records before allocation (§3, §8), checked in this order: binding consistency, signer
 * trust (when trusted keys are configured), identity. Identity is taken only by records that passed
 * the earlier checks: an inconsistent or untrusted copy never makes a good one a duplicate. Copies
 * of one audit entry (one identity, one meaning: overlapping exports, at-least-once streaming, a
 * redelivery) count once; one identity with two meanings makes every record of it unusable. Each
 * record leaves here with an outcome that carries its reason; only a `UsableRecord`, which nothing
 * but this module can make, can ever bind a call.
 */
import { binding } from './binding.js';
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

/** Consistency and trust, each record on its own. */
function precheck(input: RecordInput): RecordCheck {
  const { record } = input;
  const b = binding(record.subject);
  if (!b.ok) return { outcome: 'inconsistent', recomputed: null, reason: `subject cannot be canonicalized: ${b.reason}` };
  if (b.digest !== record.binding_digest) {
    return {
      outcome: 'inconsistent',
      recomputed: b.digest,
      reason: `subject recomputes to ${b.digest} but binding_digest says ${record.binding_digest}: the subject or the digest was changed after the record was made`,
    };
  }
  if (input.trust.kind === 'untrusted')
    return { outcome: 'untrusted', recomputed: b.digest, code: input.trust.code, reason: input.trust.reason };
  return { outcome: 'usable', recomputed: b.digest };
}

export function checkRecords(records: readonly RecordInput[]): CheckedRecord[] {
  const checks = records.map(precheck);
  // Identity, among the records that passed: the first of each identity, and whether all agree.
  const firstOf = new Map<string, number>();
  const conflicted = new Map<string, number>();
  const identity = (r: RecordInput): string => JSON.stringify([r.record.provider, r.record.record_id]);
  // Each usable record's identity, made once (both passes read it).
  const ids: (string | undefined)[] = checks.map((c, i) => (c.outcome === 'usable' ? identity(records[i] as RecordInput) : undefined));
  checks.forEach((c, i) => {
    if (c.outcome !== 'usable') return;
    const id = ids[i] as string;
    const first = firstOf.get(id);
    if (first === undefined) firstOf.set(id, i);
    else if ((checks[first] as { recomputed: string }).recomputed !== c.recomputed && !conflicted.has(id)) conflicted.set(id, i);
  });
  return records.map((input, i): CheckedRecord => {
    const c = checks[i] as RecordCheck;
    if (c.outcome !== 'usable') return { input, check: c };
    const id = ids[i] as string;
    const first = firstOf.get(id) as number;
    const clash = conflicted.get(id);
    if (clash !== undefined) {
      // Name the other meaning: for the first record the first that differs, for the others the first.
      const other = records[(checks[first] as { recomputed: string }).recomputed === c.recomputed ? clash : first] as RecordInput;
      return { input, check: { outcome: 'duplicate', recomputed: c.recomputed, other } };
    }
    if (first !== i) return { input, check: { outcome: 'imported_twice', recomputed: c.recomputed, first: records[first] as RecordInput } };
    return { input, check: c } as UsableRecord;
  });
}
