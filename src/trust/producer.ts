/**
 * Producer attestations at the trust edge (semantics §10, docs/attestations.md §1): with trusted
 * producers, every run must be an evidence bundle whose sidecar holds an envelope that passes every
 * check with a trusted key (upstream's order: payload type, signature, strict payload, then the
 * Statement against the verified bundle), else it is unattested with the exact reason. Without
 * trusted producers, a well-formed sidecar's signer is reported, not checked.
 */
import type { Attestation } from '../core/model.js';
import { checkBundleStatement } from '../read/attestation.js';
import { type Envelope, IN_TOTO_PAYLOAD_TYPE, strictPayload } from '../read/envelope.js';
import type { BundleFacts } from '../read/file-read.js';
import type { ReadLimits } from '../read/limits.js';
import { checkEnvelopeAsync } from './envelope.js';
import type { TrustedKeys } from './keys.js';

export interface RunEvidence {
  /** The run is an evidence bundle (only bundles can be attested). */
  readonly bundle: boolean;
  /** What the verified bundle says about itself (null: not a verified bundle). */
  readonly facts: BundleFacts | null;
  /** The sidecar beside it. */
  readonly sidecar: Sidecar;
}

/** A bundle's `<bundle>.intoto.jsonl`: none, one that holds nothing, a malformed one (its findings are reported), or its envelopes. */
export type Sidecar =
  | { readonly kind: 'none' }
  | { readonly kind: 'empty' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'envelopes'; readonly envelopes: readonly Envelope[] };

const producerNamed = (facts: BundleFacts | null) => ({ name: facts?.producer.name ?? null, version: facts?.producer.version ?? null });

async function checkOne(
  e: Envelope,
  facts: BundleFacts | null,
  keys: TrustedKeys,
  limits: ReadLimits,
): Promise<{ ok: true; keyId: string } | { ok: false; reason: string }> {
  const signed = await checkEnvelopeAsync(e, IN_TOTO_PAYLOAD_TYPE, keys, 'producer');
  if (!signed.ok) return signed;
  const payload = strictPayload(e.payload, limits);
  if (!payload.ok) return payload;
  const statement = checkBundleStatement(payload.value, facts);
  if (!statement.ok) return statement;
  return { ok: true, keyId: signed.value };
}

export async function attestation(run: RunEvidence, keys: TrustedKeys | null, limits: ReadLimits): Promise<Attestation> {
  if (!keys) {
    const first = run.sidecar.kind === 'envelopes' ? run.sidecar.envelopes[0]?.signatures[0] : undefined;
    return first ? { kind: 'unchecked', keyId: first.keyid, ...producerNamed(run.facts) } : { kind: 'none' };
  }
  if (!run.bundle) return { kind: 'unattested', reason: 'not an evidence bundle: JSON surfaces and server logs cannot be attested' };
  const sidecar = run.sidecar;
  if (sidecar.kind === 'none') return { kind: 'unattested', reason: 'no attestation (no <bundle>.intoto.jsonl sidecar beside it)' };
  if (sidecar.kind === 'empty') return { kind: 'unattested', reason: 'no attestation: the sidecar holds no envelope' };
  if (sidecar.kind === 'malformed')
    return { kind: 'unattested', reason: 'the attestation sidecar is malformed (see its invalid_artifact finding)' };
  const envelopes = sidecar.envelopes;
  let reason = '';
  for (const e of envelopes) {
    const r = await checkOne(e, run.facts, keys, limits);
    if (r.ok) return { kind: 'attested', keyId: r.keyId, ...producerNamed(run.facts) };
    reason ||= envelopes.length > 1 ? `${r.reason} (envelope at line ${e.loc.line}; none of ${envelopes.length} passes)` : r.reason;
  }
  return { kind: 'unattested', reason };
}
