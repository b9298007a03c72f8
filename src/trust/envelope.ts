/**
 * Checking a DSSE envelope against trusted keys, in the order docs/attestations.md gives: the
 * payload type first (a key that signed the same bytes under another type must not pass), then the
 * signatures: every signature against every trusted key, trusted when one pair verifies (keyid is
 * never relied on). Reasons: `payload type …`, `unknown … sha256:…` (no signature's keyid names a
 * trusted key), `signature does not verify`.
 */

import type { Result } from '../core/result.js';
import { quote } from '../core/text.js';
import type { Envelope } from '../read/envelope.js';
import { pae } from '../read/signature.js';
import { verifyOnPool } from './check.js';
import type { TrustedKeys } from './keys.js';
import { type Refusal, refuse } from './refusal.js';

/** The key_id of the trusted key that verified the envelope, or why none did; each Ed25519 verification on libuv's thread pool (the path record signatures take). */
export async function checkEnvelopeAsync(
  envelope: Envelope,
  payloadType: string,
  keys: TrustedKeys,
  who: 'signer' | 'producer',
): Promise<Result<string, Refusal>> {
  if (envelope.payloadType !== payloadType)
    return refuse('payload_type', `payload type is ${JSON.stringify(envelope.payloadType.slice(0, 100))}, not ${payloadType}`);
  const data = pae(payloadType, envelope.payload);
  const tries: Promise<string | null>[] = [];
  for (const s of envelope.signatures) {
    for (const [keyId, key] of keys) {
      tries.push(verifyOnPool(data, key, s.sig).then((ok) => (ok ? keyId : null)));
    }
  }
  const verified = (await Promise.all(tries)).find((k) => k !== null);
  if (verified) return { ok: true, value: verified };
  if (!envelope.signatures.some((s) => keys.has(s.keyid)))
    return refuse('unknown_signer', `unknown ${who} ${quote(envelope.signatures[0]?.keyid || '(no keyid)')}`);
  return refuse('signature_invalid', 'signature does not verify');
}
