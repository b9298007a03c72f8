/**
 * `verify-attestation`: a signed verdict (docs/attestations.md §2) checked offline, in the doc's
 * order: payload type, signature by a trusted key, strict payload, Statement type, predicate type,
 * the subject digest against the report offered, `verificationResult == PASSED`. The first check
 * that fails is the reason; an envelope file may hold several envelopes, and one that passes
 * every check is enough.
 */
import { sha256Hex } from '../core/binding.js';
import { placeOf } from '../core/findings.js';
import { isObject } from '../core/json.js';
import type { Result } from '../core/result.js';
import {
  type Envelope,
  IN_TOTO_PAYLOAD_TYPE,
  onlySubject,
  readEnvelopeFile,
  STATEMENT_TYPE,
  strictPayload,
  VSA_PREDICATE_TYPE,
} from '../read/envelope.js';
import type { ReadLimits } from '../read/limits.js';
import { checkEnvelopeAsync } from './envelope.js';
import type { TrustedKeys } from './keys.js';
import type { IdentityPolicy, RootsSource } from './sigstore.js';

/** The predicate of a verdict: the resource it is about (when one is required) and PASSED; its summary line. */
function verdictOf(pred: unknown, resourceUri: string | null): Result<string> {
  if (!isObject(pred)) return { ok: false, reason: 'predicate is not an object' };
  if (resourceUri !== null && pred['resourceUri'] !== resourceUri)
    return {
      ok: false,
      reason: `resourceUri is ${JSON.stringify(typeof pred['resourceUri'] === 'string' ? pred['resourceUri'].slice(0, 200) : (pred['resourceUri'] ?? null))}, not ${resourceUri}: the verdict is about another commit or repository`,
    };
  if (pred['verificationResult'] !== 'PASSED')
    return { ok: false, reason: `verificationResult is ${JSON.stringify(pred['verificationResult'] ?? null)}: the gate did not pass` };
  const levels = Array.isArray(pred['verifiedLevels']) ? pred['verifiedLevels'].filter((l): l is string => typeof l === 'string') : [];
  const policy = isObject(pred['policy']) && isObject(pred['policy']['digest']) ? pred['policy']['digest']['sha256'] : undefined;
  const resource = typeof pred['resourceUri'] === 'string' ? pred['resourceUri'] : '(no resourceUri)';
  return {
    ok: true,
    value: `PASSED ${resource} · ${levels.join(', ') || '(no levels)'} · policy sha256:${typeof policy === 'string' ? policy : '?'}`,
  };
}

async function checkOne(
  envelope: Envelope,
  reportSha256: string,
  keys: TrustedKeys,
  limits: ReadLimits,
  resourceUri: string | null,
): Promise<Result<string>> {
  const signed = await checkEnvelopeAsync(envelope, IN_TOTO_PAYLOAD_TYPE, keys, 'signer');
  if (!signed.ok) return { ok: false, reason: signed.reason.detail };
  const result = strictPayload(envelope.payload, limits);
  if (!result.ok) return result;
  const value = result.value;
  if (!isObject(value) || value['_type'] !== STATEMENT_TYPE) return { ok: false, reason: `_type is not ${STATEMENT_TYPE}` };
  if (value['predicateType'] !== VSA_PREDICATE_TYPE) return { ok: false, reason: `predicateType is not ${VSA_PREDICATE_TYPE}` };
  const subject = onlySubject(value);
  if (!subject.ok) return subject;
  if (subject.value.sha256 !== reportSha256)
    return { ok: false, reason: 'the subject digest differs from the report offered (the report was edited, or it is another report)' };
  const got = verdictOf(value['predicate'], resourceUri);
  return got.ok ? { ok: true, value: `${got.value} · signed by ${signed.value}` } : got;
}

/**
 * Whether an envelope file holds a valid, trusted, PASSED verdict about exactly these report bytes.
 * Its refusals are the verdict's, never the caller's (the keys were read before): `usage` is false.
 */
export async function verifyVerdict(
  envelopeFile: string,
  envelopeBytes: Uint8Array,
  report: Uint8Array,
  keys: TrustedKeys,
  limits: ReadLimits,
  resourceUri: string | null = null,
): Promise<Result<string, VerdictRefusal>> {
  const result = await keySigned(envelopeFile, envelopeBytes, report, keys, limits, resourceUri);
  return result.ok ? result : { ok: false, reason: { usage: false, text: result.reason } };
}

async function keySigned(
  envelopeFile: string,
  envelopeBytes: Uint8Array,
  report: Uint8Array,
  keys: TrustedKeys,
  limits: ReadLimits,
  resourceUri: string | null,
): Promise<Result<string>> {
  const read = readEnvelopeFile(envelopeFile, envelopeBytes, limits);
  const first = read.findings[0];
  if (first) return { ok: false, reason: `${first.input ?? placeOf(first, true)}: ${first.message}` };
  if (read.empty) return { ok: false, reason: `${envelopeFile}: holds no DSSE envelope` };
  const sha = sha256Hex(report);
  let reason = '';
  for (const e of read.envelopes) {
    const result = await checkOne(e, sha, keys, limits, resourceUri);
    if (result.ok) return result;
    // Located always (a red team: one envelope's refusal named no file).
    reason ||= `${e.loc.file}:${e.loc.line}: ${result.reason}`;
  }
  return { ok: false, reason };
}

/**
 * A verdict attested with GitHub artifact attestations (a Sigstore bundle over the report, from
 * `actions/attest`): the keyless checks by workflow identity (docs/keyless.md), the subject the
 * report's bytes and base name, the Verification Summary predicate, then the verdict's own checks.
 * @param trustedRoot a trusted root file's text and name, or null for the shipped public-good root
 */
export async function verifyVerdictKeyless(
  bundleFile: string,
  bundleBytes: Uint8Array,
  reportFile: string,
  report: Uint8Array,
  policy: IdentityPolicy,
  trustedRoot: RootsSource,
  limits: ReadLimits,
  resourceUri: string | null,
): Promise<Result<string, VerdictRefusal>> {
  const { checkBundleFile, rootsFrom } = await import('./sigstore.js');
  const roots = rootsFrom(trustedRoot, limits);
  // A trusted root that cannot be used is the caller's mistake, not the verdict's.
  if (!roots.ok) return { ok: false, reason: { usage: true, text: roots.reason } };
  let summary = '';
  const predicate = {
    type: VSA_PREDICATE_TYPE,
    check: (value: unknown): Result => {
      const result = verdictOf(value, resourceUri);
      if (result.ok) summary = result.value;
      return result.ok ? { ok: true } : result;
    },
  };
  const got = checkBundleFile(
    bundleFile,
    bundleBytes,
    { subject: { name: reportFile, sha256: sha256Hex(report) }, policy, roots: roots.value, predicate },
    limits,
  );
  return got.ok
    ? { ok: true, value: `${summary} · signed by ${got.value.identity} (${got.value.sourceRef}, ${got.value.signedAt})` }
    : { ok: false, reason: { usage: false, text: got.reason } };
}

/** Why a keyless verdict was not accepted: the verdict refused, or the caller's trust input unusable (`usage`). */
export interface VerdictRefusal {
  readonly usage: boolean;
  readonly text: string;
}
