/**
 * Signed audit records (docs/records-provenance.md): the `signature` member, byte for byte. The
 * signed payload P is the UTF-8 of JCS(the record without its `signature` member), so every other
 * member is covered; the Ed25519 signature is over the DSSE v1 pre-authentication encoding
 * PAE(payload_type, P). Making and checking a signature both live here; the gate's trust check and
 * the signing tools (keygen, sign, import --sign-key) share it. No I/O.
 */
import { createHash, sign as edSign, verify as edVerify, type KeyObject } from 'node:crypto';
import { DIGEST_PATTERN, jcs, sha256Digest } from '../core/binding.js';
import { hasOwn, isObject, type JsonObject } from '../core/json.js';

export const PAYLOAD_TYPE = 'application/vnd.assay.provider-audit-record+json;v=0';
const MEMBERS = ['version', 'algorithm', 'payload_type', 'signed_payload_digest', 'key_id', 'signature', 'signed_at'] as const;
const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

/** Whether a `signed_at` value is an RFC 3339 UTC time (…Z). */
export const isSignedAt = (v: string): boolean => RFC3339_UTC.test(v) && !Number.isNaN(Date.parse(v));

/** Now, as a `signed_at` value (whole seconds). */
export const signedAtNow = (): string => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A well-formed `signature` member. */
export interface SignatureMember {
  readonly version: 1;
  readonly algorithm: 'ed25519';
  readonly payload_type: typeof PAYLOAD_TYPE;
  readonly signed_payload_digest: string;
  readonly key_id: string;
  readonly signature: string;
  readonly signed_at: string;
}

export type SignatureShape = { readonly ok: true; readonly member: SignatureMember } | { readonly ok: false; readonly reason: string };

/** The `signature` member's shape: the seven members with their types and values, nothing else. */
export function readSignatureMember(v: unknown): SignatureShape {
  if (!isObject(v)) return { ok: false, reason: 'signature is not an object' };
  for (const k of Object.keys(v))
    if (!(MEMBERS as readonly string[]).includes(k)) return { ok: false, reason: `signature has an unknown member ${JSON.stringify(k.slice(0, 60))}` };
  for (const k of MEMBERS) if (!hasOwn(v, k)) return { ok: false, reason: `signature.${k} is missing` };
  if (v['version'] !== 1) return { ok: false, reason: 'signature.version must be 1' };
  if (v['algorithm'] !== 'ed25519') return { ok: false, reason: 'signature.algorithm must be "ed25519"' };
  if (v['payload_type'] !== PAYLOAD_TYPE) return { ok: false, reason: `signature.payload_type must be "${PAYLOAD_TYPE}"` };
  for (const k of ['signed_payload_digest', 'key_id'] as const) {
    const d = v[k];
    if (typeof d !== 'string' || !DIGEST_PATTERN.test(d)) return { ok: false, reason: `signature.${k} must be sha256:<64 lowercase hex>` };
  }
  const sig = v['signature'];
  if (typeof sig !== 'string' || sig.length !== 88 || !BASE64.test(sig) || Buffer.from(sig, 'base64').length !== 64) {
    return { ok: false, reason: 'signature.signature must be the base64 of a 64-byte Ed25519 signature' };
  }
  const at = v['signed_at'];
  if (typeof at !== 'string' || !isSignedAt(at)) return { ok: false, reason: 'signature.signed_at must be an RFC 3339 UTC time (…Z)' };
  return { ok: true, member: v as unknown as SignatureMember };
}

/**
 * P: the canonical text of the record without its `signature` member. Members are defined one by
 * one (never assigned or spread), so a `__proto__` member stays an ordinary member.
 */
export function payloadOf(record: JsonObject): { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string } {
  const unsigned = {};
  for (const k of Object.keys(record)) {
    if (k !== 'signature') Object.defineProperty(unsigned, k, { value: record[k], enumerable: true, writable: true, configurable: true });
  }
  return jcs(unsigned);
}

/** DSSE v1: "DSSEv1" SP len(type) SP type SP len(body) SP body, lengths in bytes. */
export function pae(type: string, body: Uint8Array): Buffer {
  const t = Buffer.from(type, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${t.length} `, 'utf8'), t, Buffer.from(` ${body.length} `, 'utf8'), body]);
}

/** key_id: sha256 of the public key's SubjectPublicKeyInfo DER. */
export function keyIdOf(publicKey: KeyObject): string {
  return `sha256:${createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')}`;
}

/** The signature member for payload P, signed with an Ed25519 private key. */
export function signPayload(payload: string, privateKey: KeyObject, publicKey: KeyObject, signedAt: string): SignatureMember {
  const p = Buffer.from(payload, 'utf8');
  return {
    version: 1,
    algorithm: 'ed25519',
    payload_type: PAYLOAD_TYPE,
    signed_payload_digest: sha256Digest(p),
    key_id: keyIdOf(publicKey),
    signature: edSign(null, pae(PAYLOAD_TYPE, p), privateKey).toString('base64'),
    signed_at: signedAt,
  };
}

/**
 * A record as one NDJSON line with its signature: P is the canonical JSON of a non-empty object, so
 * the signature member goes in before its closing brace (the parsed record is never copied).
 */
export function signedLine(payload: string, privateKey: KeyObject, publicKey: KeyObject, signedAt: string): string {
  return `${payload.slice(0, -1)},"signature":${JSON.stringify(signPayload(payload, privateKey, publicKey, signedAt))}}`;
}

/** Trusted signers: key_id → public key, each key parsed once. */
export type TrustedKeys = ReadonlyMap<string, KeyObject>;

export type TrustCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** What is left to check once the cheap rules pass: an Ed25519 verification. */
type Pending = { readonly data: Buffer; readonly key: KeyObject; readonly signature: Buffer };

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

/** Whether a record is signed by a trusted key, with the exact reason when it is not. */
export function checkTrust(member: SignatureMember | null, payload: string | undefined, keys: TrustedKeys): TrustCheck {
  const p = precheck(member, payload, keys);
  return 'ok' in p ? p : verdict(edVerify(null, p.data, p.key, p.signature));
}

/** The same check, with the Ed25519 verification on libuv's thread pool (the main thread goes on). */
export function checkTrustAsync(member: SignatureMember | null, payload: string | undefined, keys: TrustedKeys): Promise<TrustCheck> {
  const p = precheck(member, payload, keys);
  if ('ok' in p) return Promise.resolve(p);
  return new Promise((resolve, reject) => edVerify(null, p.data, p.key, p.signature, (err, ok) => (err ? reject(err) : resolve(verdict(ok)))));
}
