/**
 * The trust check of a signed record (§8, docs/records-provenance.md): with trusted keys, a record
 * is trusted only when its well-formed signature member names a trusted key, its signed payload
 * digest is sha256(P), and the Ed25519 signature over PAE(payload_type, P) verifies. Each refusal
 * has its code and its words. Where the Ed25519 verifications run is the reading set-up's
 * (`SignatureChecks`): on the reading thread itself when every core already has one, or on libuv's
 * thread pool when some core has none, at most WINDOW at once per thread (memory stays bounded and file
 * reads on the same pool are not starved), while the thread goes on reading the next file.
 */
import { verify as edVerify, type KeyObject } from 'node:crypto';
import { sha256Digest } from '../core/binding.js';
import { refused, type TrustDecision } from '../core/trust.js';
import { paeText, type SignatureMember } from '../read/signature.js';
import type { TrustedKeys } from './keys.js';

/**
 * Where a thread checks record signatures: `inline`, on the thread that read the record (when the
 * gate reads on every core: a verification dispatched to libuv's pool only adds its dispatch, ~16 µs
 * of CPU each, and the pool's threads compete with the readers for the same cores), or `pool`, on
 * libuv's thread pool (fewer reading threads than cores: the pool's threads check on the spare
 * cores meanwhile). Measured both ways:
 * (BENCHMARKS.md, "Issue 44, sixteenth stop: record signatures checked on the reading threads").
 * The decisions are the same either way, so it is not part of the evidence cache's key.
 */
export type SignatureChecks = 'inline' | 'pool';

/** Where `threads` reading threads on `cores` cores check signatures: on themselves when every core has one (one thread on one core too), else on the pool (it uses the spare cores). */
export const signatureChecksFor = (threads: number, cores: number): SignatureChecks => (threads >= cores ? 'inline' : 'pool');

/** An Ed25519 verification on this thread; false for a signature that cannot be one. */
function verifyHere(data: Buffer, key: KeyObject, signature: Buffer): boolean {
  try {
    return edVerify(null, data, key, signature);
  } catch {
    return false;
  }
}

/** Most Ed25519 verifications queued on libuv's pool at once, per thread. */
const WINDOW = 4096;
let running = 0;
const waiting: (() => void)[] = [];

/** An Ed25519 verification on libuv's thread pool, when the window has room; false for a signature that cannot be one. */
export async function verifyOnPool(data: Buffer, key: KeyObject, signature: Buffer): Promise<boolean> {
  if (running >= WINDOW) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await new Promise((resolve) => {
      try {
        edVerify(null, data, key, signature, (err, ok) => resolve(!err && ok));
      } catch {
        resolve(false);
      }
    });
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** A signed entry's trust check (§8; a record or a coverage statement): its signer among the trusted keys, its payload digest, then its Ed25519 signature over PAE(its payload type, P). */
export async function checkRecordSignature(
  member: SignatureMember | null,
  payload: string | undefined,
  keys: TrustedKeys,
  checks: SignatureChecks,
): Promise<TrustDecision> {
  if (!member || payload === undefined) return refused('unsigned', 'unsigned');
  const key = keys.get(member.key_id);
  if (!key) return refused('unknown_signer', `unknown signer ${member.key_id}`);
  // P's UTF-8 bytes are hashed and framed straight from its text (never a buffer of P of its own).
  if (sha256Digest(payload) !== member.signed_payload_digest) return refused('payload_digest_differs', 'payload digest differs');
  const data = paeText(member.payload_type, payload);
  const signature = Buffer.from(member.signature, 'base64');
  const ok = checks === 'inline' ? verifyHere(data, key, signature) : await verifyOnPool(data, key, signature);
  return ok ? { kind: 'trusted', by: { kind: 'key', keyId: member.key_id } } : refused('signature_invalid', 'signature does not verify');
}
