/**
 * Signed audit records (docs/records-provenance.md): the `signature` member's shape, byte for byte,
 * read as a pure reader (no keys here). The signed payload P is the UTF-8 of JCS(the record without
 * its `signature` member), so every other member is covered; the Ed25519 signature is over the DSSE
 * v1 pre-authentication encoding PAE(payload_type, P). Checking a signature is the trust edge's
 * (src/trust/); making one is the tools' (src/tools/signing.ts).
 */
import { type Canonical, DIGEST_PATTERN, jcsWithout } from '../core/binding.js';
import { hasOwn, isObject, type JsonObject } from '../core/json.js';
import type { Result } from '../core/result.js';
import { parseRfc3339 } from '../core/time.js';
import { strictBase64 } from './base64.js';

export const PAYLOAD_TYPE = 'application/vnd.assay.provider-audit-record+json;v=0';
/** A coverage statement's (docs/coverage.md §5): signed with the same key and envelope, under its own type. */
export const COVERAGE_PAYLOAD_TYPE = 'application/vnd.receipt-gate.audit-coverage+json;v=1';
type PayloadType = typeof PAYLOAD_TYPE | typeof COVERAGE_PAYLOAD_TYPE;
const MEMBERS = ['version', 'algorithm', 'payload_type', 'signed_payload_digest', 'key_id', 'signature', 'signed_at'] as const;
/** Whether a `signed_at` value is an RFC 3339 UTC time (…T…Z, at most nanoseconds). */
export const isSignedAt = (v: string): boolean => /^[^tz]*T[^z]*Z$/.test(v) && !/\.\d{10,}/.test(v) && parseRfc3339(v, { utc: true }).ok;

/** A well-formed `signature` member. */
export interface SignatureMember {
  readonly version: 1;
  readonly algorithm: 'ed25519';
  readonly payload_type: PayloadType;
  readonly signed_payload_digest: string;
  readonly key_id: string;
  readonly signature: string;
  readonly signed_at: string;
}

export type SignatureShape = Result<SignatureMember>;

/** The `signature` member's shape: the seven members with their types and values, nothing else; `type` the payload type of the entry it signs. */
export function readSignatureMember(value: unknown, type: PayloadType = PAYLOAD_TYPE): SignatureShape {
  if (!isObject(value)) return { ok: false, reason: 'signature is not an object' };
  for (const k of Object.keys(value))
    if (!(MEMBERS as readonly string[]).includes(k))
      return { ok: false, reason: `signature has an unknown member ${JSON.stringify(k.slice(0, 60))}` };
  for (const k of MEMBERS) if (!hasOwn(value, k)) return { ok: false, reason: `signature.${k} is missing` };
  if (value['version'] !== 1) return { ok: false, reason: 'signature.version must be 1' };
  if (value['algorithm'] !== 'ed25519') return { ok: false, reason: 'signature.algorithm must be "ed25519"' };
  if (value['payload_type'] !== type) return { ok: false, reason: `signature.payload_type must be "${type}"` };
  for (const k of ['signed_payload_digest', 'key_id'] as const) {
    const given = value[k];
    if (typeof given !== 'string' || !DIGEST_PATTERN.test(given))
      return { ok: false, reason: `signature.${k} must be sha256:<64 lowercase hex>` };
  }
  const sig = value['signature'];
  if (typeof sig !== 'string' || sig.length !== 88 || strictBase64(sig)?.length !== 64) {
    return { ok: false, reason: 'signature.signature must be the base64 of a 64-byte Ed25519 signature' };
  }
  const at = value['signed_at'];
  if (typeof at !== 'string' || !isSignedAt(at)) return { ok: false, reason: 'signature.signed_at must be an RFC 3339 UTC time (…Z)' };
  const member: SignatureMember = {
    version: 1,
    algorithm: 'ed25519',
    payload_type: type,
    signed_payload_digest: value['signed_payload_digest'] as string,
    key_id: value['key_id'] as string,
    signature: sig,
    signed_at: at,
  };
  return { ok: true, value: member };
}

/**
 * P: the canonical text of the record without its `signature` member (`subject`: its subject's JCS
 * text when already made, for its binding). Members are read as entries (never assigned or spread),
 * so a `__proto__` member stays an ordinary member.
 */
export const payloadOf = (record: JsonObject, subject?: string): Canonical =>
  jcsWithout(record, 'signature', subject === undefined ? undefined : { key: 'subject', text: subject });

/** PAE(type, P) for a payload held as text (a record's P, as its reader made it): one string, encoded once. */
export const paeText = (type: string, body: string): Buffer =>
  Buffer.from(`DSSEv1 ${Buffer.byteLength(type, 'utf8')} ${type} ${Buffer.byteLength(body, 'utf8')} ${body}`, 'utf8');

/** DSSE v1: "DSSEv1" SP len(type) SP type SP len(body) SP body, lengths in bytes. */
export function pae(type: string, body: Uint8Array): Buffer {
  const bytes = Buffer.from(type, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${bytes.length} `, 'utf8'), bytes, Buffer.from(` ${body.length} `, 'utf8'), body]);
}
