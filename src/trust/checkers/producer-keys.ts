/**
 * Producer keys (semantics §10, docs/attestations.md §1): with trusted producers, a run is attested
 * only when it is an evidence bundle whose `<bundle>.intoto.jsonl` holds an envelope that passes
 * every check with a trusted key, in upstream's order: payload type, signature, strict payload, then
 * the Statement against the verified bundle. Each refusal has its code.
 */
import { refused, type TrustDecision } from '../../core/trust.js';
import { checkBundleStatement } from '../../read/attestation.js';
import { type Envelope, IN_TOTO_PAYLOAD_TYPE, strictPayload } from '../../read/envelope.js';
import type { BundleFacts } from '../../read/file-read.js';
import { formatOf } from '../../read/formats.js';
import type { ReadLimits } from '../../read/limits.js';
import type { TrustChecker } from '../checker.js';
import { checkEnvelopeAsync } from '../envelope.js';
import type { TrustedKeys } from '../keys.js';

async function checkOne(envelope: Envelope, facts: BundleFacts | null, keys: TrustedKeys, limits: ReadLimits): Promise<TrustDecision> {
  const signed = await checkEnvelopeAsync(envelope, IN_TOTO_PAYLOAD_TYPE, keys, 'producer');
  if (!signed.ok) return refused(signed.reason.code, signed.reason.detail);
  const payload = strictPayload(envelope.payload, limits);
  if (!payload.ok) return refused('statement_mismatch', payload.reason);
  const statement = checkBundleStatement(payload.value, facts);
  if (!statement.ok) return refused('statement_mismatch', statement.reason);
  return { kind: 'trusted', by: { kind: 'key', keyId: signed.value } };
}

export const producerKeys = (keys: TrustedKeys, limits: ReadLimits): TrustChecker => ({
  role: 'runs',
  async check(file) {
    const decision = async (): Promise<TrustDecision> => {
      if (formatOf(file.rel) !== 'bundle')
        return refused('not_a_bundle', 'not an evidence bundle: JSON surfaces and server logs cannot be attested by a producer key');
      const sidecar = file.dsse;
      if (sidecar.kind === 'none') return refused('no_attestation', 'no attestation (no <bundle>.intoto.jsonl sidecar beside it)');
      if (sidecar.kind === 'empty') return refused('attestation_empty', 'no attestation: the sidecar holds no envelope');
      if (sidecar.kind === 'malformed')
        return refused('attestation_malformed', 'the attestation sidecar is malformed (see its invalid_artifact finding)');
      const envelopes = sidecar.envelopes;
      let first: TrustDecision | null = null;
      for (const e of envelopes) {
        const decision = await checkOne(e, file.read.bundle ?? null, keys, limits);
        if (decision.kind === 'trusted') return decision;
        if (decision.kind === 'untrusted')
          first ??=
            envelopes.length > 1
              ? refused(decision.code, `${decision.detail} (envelope at line ${e.loc.line}; none of ${envelopes.length} passes)`)
              : decision;
      }
      return first ?? refused('attestation_empty', 'no attestation: the sidecar holds no envelope');
    };
    return { kind: 'run', decision: await decision() };
  },
});
