/**
 * DSSE envelopes (docs/attestations.md, "The DSSE envelope"): the shape only, no keys. An envelope
 * file holds one JSON value (possibly pretty-printed) or one compact envelope per line, read through
 * the one document pipeline (`oneOrLines`: never two pretty-printed values). PAE is the same as for signed records (signature.ts).
 */
import { type Finding, finding } from '../core/findings.js';
import { hasOwn, isObject, type JsonObject } from '../core/json.js';
import type { Location } from '../core/location.js';
import type { Result } from '../core/result.js';
import { strictBase64 } from './base64.js';
import { decode, documents, LocatingSink } from './documents.js';
import type { ReadLimits } from './limits.js';
import { MAX_SIGNATURES } from './limits.js';

export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const VSA_PREDICATE_TYPE = 'https://slsa.dev/verification_summary/v1';

/** A Statement's only subject and its only digest (sha256): more would let another artifact match. */
export function onlySubject(source: JsonObject): Result<{ readonly name: unknown; readonly sha256: string }> {
  const subject = source['subject'];
  if (!Array.isArray(subject) || subject.length !== 1) return { ok: false, reason: 'the Statement must have exactly one subject' };
  const only = subject[0];
  const digest = isObject(only) ? only['digest'] : undefined;
  if (!isObject(only) || !isObject(digest) || Object.keys(digest).length !== 1 || typeof digest['sha256'] !== 'string') {
    return { ok: false, reason: 'the subject must carry exactly one digest, sha256 (a second entry would let another artifact match)' };
  }
  return { ok: true, value: { name: only['name'], sha256: digest['sha256'] } };
}

interface DsseSignature {
  readonly keyid: string;
  /** The raw signature bytes. */
  readonly sig: Buffer;
}

export interface Envelope {
  readonly loc: Location;
  readonly payloadType: string;
  /** The raw payload bytes P. */
  readonly payload: Buffer;
  readonly signatures: readonly DsseSignature[];
}

/** What a JSON object given where an envelope belongs is instead, when it is something the gate knows. */
function notAnEnvelope(value: JsonObject): string | null {
  if (hasOwn(value, 'verifier') && hasOwn(value, 'verificationResult'))
    return 'a Verification Summary predicate (what --vsa-predicate writes for actions/attest; the signed verdict is what --vsa writes)';
  if (value['_type'] === STATEMENT_TYPE) return 'an unsigned in-toto Statement (its DSSE envelope carries it as the payload)';
  if (typeof value['mediaType'] === 'string' && value['mediaType'].startsWith('application/vnd.dev.sigstore.bundle'))
    return 'a Sigstore bundle (check it by identity: --certificate-identity)';
  return null;
}

/** One envelope's shape: payloadType and payload strings, payload standard base64, a non-empty signatures array of {keyid, sig}. */
function readEnvelope(value: unknown, loc: Location): Result<Envelope> {
  if (!isObject(value)) return { ok: false, reason: 'an envelope is not a JSON object' };
  const what = notAnEnvelope(value);
  if (what) return { ok: false, reason: `this is ${what}, not a DSSE envelope` };
  for (const k of Object.keys(value)) {
    if (k !== 'payload' && k !== 'payloadType' && k !== 'signatures')
      return { ok: false, reason: `an envelope has an unknown member ${JSON.stringify(k.slice(0, 60))}` };
  }
  const type = value['payloadType'];
  if (typeof type !== 'string' || type === '') return { ok: false, reason: 'payloadType is not a non-empty string' };
  const given = value['payload'];
  const payload = typeof given === 'string' ? strictBase64(given) : null;
  if (!payload) return { ok: false, reason: 'payload is not standard base64 (with padding)' };
  const sigs = value['signatures'];
  if (!Array.isArray(sigs) || sigs.length === 0) return { ok: false, reason: 'signatures is not a non-empty array' };
  if (sigs.length > MAX_SIGNATURES) return { ok: false, reason: `too many signatures (${sigs.length}; at most ${MAX_SIGNATURES})` };
  const signatures: DsseSignature[] = [];
  for (const [i, s] of sigs.entries()) {
    if (!isObject(s)) return { ok: false, reason: `signatures[${i}] is not an object` };
    const keyid = hasOwn(s, 'keyid') ? s['keyid'] : '';
    if (typeof keyid !== 'string') return { ok: false, reason: `signatures[${i}].keyid is not a string` };
    const raw = s['sig'];
    const sig = typeof raw === 'string' ? strictBase64(raw) : null;
    if (!sig || sig.length === 0) return { ok: false, reason: `signatures[${i}].sig is not standard base64` };
    signatures.push({ keyid, sig });
  }
  return { ok: true, value: { loc, payloadType: type, payload, signatures } };
}

/** The payload as one strict JSON value (duplicate members, lone surrogates, a BOM: refused). */
export function strictPayload(payload: Buffer, limits: ReadLimits): Result<unknown> {
  const problems: string[] = [];
  const sink = { error: (_at: unknown, message: string) => problems.push(message) };
  const decoded = decode(payload, limits, sink);
  if (!decoded) return { ok: false, reason: `payload is not strict JSON: ${problems[0] ?? 'unreadable'}` };
  let value: unknown;
  let count = 0;
  for (const doc of documents(decoded.text, 'json', { limits, collect: [] }, sink)) {
    value = doc.value;
    count++;
  }
  if (problems.length > 0 || count !== 1) return { ok: false, reason: `payload is not strict JSON: ${problems[0] ?? 'no value'}` };
  return { ok: true, value };
}

/** What an envelope file holds: its envelopes, its problems, and whether it holds nothing at all (empty, or only blank lines). */
export interface EnvelopeFile {
  readonly envelopes: readonly Envelope[];
  readonly findings: readonly Finding[];
  readonly empty: boolean;
}

/** Every envelope of an envelope file (one value, or one per line), each located; problems as findings. */
export function readEnvelopeFile(file: string, bytes: Uint8Array, limits: ReadLimits): EnvelopeFile {
  const sink = new LocatingSink(file);
  const findings = sink.findings;
  const decoded = decode(bytes, limits, sink);
  if (!decoded) return { envelopes: [], findings, empty: false };
  sink.lines = decoded.lines;
  const at = (offset: number): Location => sink.at(offset);
  const envelopes: Envelope[] = [];
  for (const doc of documents(decoded.text, 'oneOrLines', { limits, collect: [] }, sink)) {
    const result = readEnvelope(doc.value, at(doc.start));
    if (result.ok) envelopes.push(result.value);
    else findings.push(finding('invalid_artifact', at(doc.start), `DSSE envelope: ${result.reason}`));
  }
  return { envelopes, findings, empty: envelopes.length === 0 && findings.length === 0 };
}
