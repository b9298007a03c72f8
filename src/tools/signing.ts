/**
 * Making signatures, for the tools that write signed files: the export job's private key, new key
 * pairs, the signature member of a record (docs/records-provenance.md) and a signed NDJSON line.
 * Checking signatures is the trust edge's (src/trust/); their shape is the reader's (read/signature.ts).
 */
import { createPrivateKey, createPublicKey, sign as edSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { sha256Digest, utcSeconds } from '../core/binding.js';
import type { Result } from '../core/result.js';
import { messageOf } from '../core/text.js';
import { PAYLOAD_TYPE, pae, type SignatureMember } from '../read/signature.js';
import { firstPemLabel, keyIdOf, keyKind } from '../trust/keys.js';

export interface SigningKey {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
}

/** An Ed25519 private key (PKCS#8 PEM) and its public key. */
export function parsePrivateKey(pem: string): Result<SigningKey> {
  const label = firstPemLabel(pem);
  if (label === null) return { ok: false, reason: 'holds no PEM block (an Ed25519 private key from keygen: -----BEGIN PRIVATE KEY-----)' };
  if (label === 'PUBLIC KEY')
    return {
      ok: false,
      reason: 'is a public key (PUBLIC KEY); signing needs the private key (PRIVATE KEY: the PREFIX.key.pem that keygen wrote)',
    };
  if (label === 'OPENSSH PRIVATE KEY')
    return { ok: false, reason: 'is an OpenSSH private key; give it as PKCS#8 PEM (ssh-keygen -p -m PKCS8 -f FILE, or a key from keygen)' };
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: pem, format: 'pem' });
  } catch (error) {
    return { ok: false, reason: `does not parse as a PEM private key (${messageOf(error)})` };
  }
  if (privateKey.asymmetricKeyType !== 'ed25519')
    return { ok: false, reason: `is ${keyKind(privateKey.asymmetricKeyType)}; receipt-gate signs with Ed25519 (keygen makes one)` };
  return { ok: true, value: { privateKey, publicKey: createPublicKey(privateKey) } };
}

/** A new Ed25519 key pair as PEM texts (private: PKCS#8, public: SPKI) and its key_id. */
export function newKeyPair(): { privatePem: string; publicPem: string; keyId: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }) as string,
    keyId: keyIdOf(publicKey),
  };
}

/** Now, as a `signed_at` value (whole seconds). */
export const signedAtNow = (now: Date): string => utcSeconds(now);

/** The signature member for payload P, signed with an Ed25519 private key (`type`: a record's payload type, or a coverage statement's). */
export function signPayload(
  payload: string,
  key: SigningKey,
  signedAt: string,
  type: SignatureMember['payload_type'] = PAYLOAD_TYPE,
): SignatureMember {
  const bytes = Buffer.from(payload, 'utf8');
  return {
    version: 1,
    algorithm: 'ed25519',
    payload_type: type,
    signed_payload_digest: sha256Digest(bytes),
    key_id: keyIdOf(key.publicKey),
    signature: edSign(null, pae(type, bytes), key.privateKey).toString('base64'),
    signed_at: signedAt,
  };
}

/**
 * A record as one NDJSON line with its signature: P is the canonical JSON of a non-empty object, so
 * the signature member goes in before its closing brace (the parsed record is never copied).
 */
export function signedLine(
  payload: string,
  key: SigningKey,
  signedAt: string,
  type: SignatureMember['payload_type'] = PAYLOAD_TYPE,
): string {
  return `${payload.slice(0, -1)},"signature":${JSON.stringify(signPayload(payload, key, signedAt, type))}}`;
}

/** A DSSE envelope (one compact JSON line) over P with the given payload type, signed with the key. */
export function envelopeLine(payloadType: string, payload: Uint8Array, key: SigningKey): string {
  const sig = edSign(null, pae(payloadType, payload), key.privateKey).toString('base64');
  return JSON.stringify({
    payload: Buffer.from(payload).toString('base64'),
    payloadType,
    signatures: [{ keyid: keyIdOf(key.publicKey), sig }],
  });
}
