/**
 * Record keys (§8, docs/records-provenance.md): every record of an audit export, and every coverage
 * statement among them, is trusted only when a trusted key signed it. One decision per record; the Ed25519 checks run where the reading set-up says (check.ts, `SignatureChecks`).
 */
import { checkRecordSignature, type SignatureChecks } from '../check.js';
import type { TrustChecker } from '../checker.js';
import type { TrustedKeys } from '../keys.js';

export const recordKeys = (keys: TrustedKeys, checks: SignatureChecks): TrustChecker => ({
  role: 'audit',
  async check(file) {
    const decisions = await Promise.all(file.read.entries.map((r) => checkRecordSignature(r.signature ?? null, r.payload, keys, checks)));
    return { kind: 'records', decisions };
  },
});
