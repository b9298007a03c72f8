/**
 * The gate's trust check (§8): with trusted keys, every record must be signed by one of them over
 * exactly its payload; without, signatures are not needed (a well-formed one is reported as
 * unchecked). Runs at the edge, where the keys are; the core reads only the verdict.
 */
import type { RecordInput } from '../core/model.js';
import { checkTrust, type TrustedKeys } from './signature.js';

/** Records with their trust decided and their signed payloads dropped (they are not needed past here). */
export function applyTrust(records: readonly RecordInput[], keys: TrustedKeys | null): RecordInput[] {
  return records.map((r): RecordInput => {
    if (!keys) return { loc: r.loc, record: r.record, signer: r.signer, trust: { kind: 'unchecked' } };
    const c = checkTrust(r.signature ?? null, r.payload, keys);
    return { loc: r.loc, record: r.record, signer: r.signer, trust: c.ok ? { kind: 'trusted' } : { kind: 'untrusted', reason: c.reason } };
  });
}
