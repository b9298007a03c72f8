/**
 * The trust check of a signed record (§8, docs/records-provenance.md): with trusted keys, a record
 * is trusted only when its well-formed signature member names a trusted key, its signed payload
 * digest is sha256(P), and the Ed25519 signature over PAE(payload_type, P) verifies. Each refusal
 * has its exact reason.
 */
import { verify as edVerify, type KeyObject } from 'node:crypto';
import { sha256Digest } from '../core/binding.js';
import type { Result } from '../core/result.js';
import { PAYLOAD_TYPE, pae, type SignatureMember } from '../read/signature.js';
import type { TrustedKeys } from './keys.js';

export type TrustCheck = Result;

/** What is left to check once the cheap rules pass: an Ed25519 verification. */
interface Pending {
  readonly data: Buffer;
  readonly key: KeyObject;
  readonly signature: Buffer;
}

/** The trust rules short of the signature itself: unsigned, unknown signer, payload digest. */
function precheck(member: SignatureMember | null, payload: string | undefined, keys: TrustedKeys): TrustCheck | Pending {
  if (!member || payload === undefined) return { ok: false, reason: 'unsigned' };
  const key = keys.get(member.key_id);
  if (!key) return { ok: false, reason: `unknown signer ${member.key_id}` };
  const p = Buffer.from(payload, 'utf8');
  if (sha256Digest(p) !== member.signed_payload_digest) return { ok: false, reason: 'payload digest differs' };
  return { data: pae(PAYLOAD_TYPE, p), key, signature: Buffer.from(member.signature, 'base64') };
}

const verdict = (ok: boolean): TrustCheck => (ok ? { ok: true } : { ok: false, reason: 'signature does not verify' });

/** An Ed25519 verification on libuv's thread pool (the main thread goes on); false for a signature that cannot be one. */
export function verifyOnPool(data: Buffer, key: KeyObject, signature: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      edVerify(null, data, key, signature, (err, ok) => resolve(!err && ok));
    } catch {
      resolve(false);
    }
  });
}

/** A record's trust check (§8): its signer among the trusted keys, its payload digest, then its Ed25519 signature verified on the thread pool. */
export async function checkTrust(member: SignatureMember | null, payload: string | undefined, keys: TrustedKeys): Promise<TrustCheck> {
  const p = precheck(member, payload, keys);
  return 'ok' in p ? p : verdict(await verifyOnPool(p.data, p.key, p.signature));
}
