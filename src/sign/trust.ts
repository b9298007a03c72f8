/**
 * The gate's trust check (§8): with trusted keys, every record must be signed by one of them over
 * exactly its payload; without, signatures are not needed (a well-formed one is reported as
 * unchecked). Runs at the edge, where the keys are; the core reads only the verdict.
 */
import type { RecordInput, Trust } from '../core/model.js';
import { checkTrust, type TrustedKeys } from './signature.js';

/** A record with its trust decided and its signed payload dropped (not needed past here). */
export const withTrust = (r: RecordInput, trust: Trust): RecordInput => ({ loc: r.loc, record: r.record, signer: r.signer, trust });

/** Records with their trust decided, inline. */
export function applyTrust(records: readonly RecordInput[], keys: TrustedKeys | null): RecordInput[] {
  return records.map((r): RecordInput => {
    if (!keys) return withTrust(r, { kind: 'unchecked' });
    const c = checkTrust(r.signature ?? null, r.payload, keys);
    return withTrust(r, c.ok ? { kind: 'trusted' } : { kind: 'untrusted', reason: c.reason });
  });
}
