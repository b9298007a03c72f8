/**
 * Producer attestations (docs/attestations.md §1): the Statement upstream's `assay evidence
 * attest` signs for a bundle, made from what the verified bundle says (one home: the tool that
 * makes it and the check that reads it both use `bundleStatement`), and the checks of a signed
 * payload against a bundle in upstream's order, each with its own reason. Pure: no keys here.
 */
import { hasOwn, isObject } from '../core/json.js';
import type { Result } from '../core/result.js';
import { onlySubject, STATEMENT_TYPE } from './envelope.js';
import type { BundleFacts } from './file-read.js';

export const EVIDENCE_BUNDLE_V1 = 'https://docs.getassay.dev/attestation/evidence-bundle/v1';
const EVIDENCE_BUNDLE_V0 = 'https://assay.dev/attestation/evidence-bundle/v0';

/** The Statement for a bundle, or why this bundle cannot be attested (upstream refuses to parse its manifest). */
export function bundleStatement(facts: BundleFacts): Result<Record<string, unknown>> {
  if (facts.producer.name === null || facts.producer.version === null) {
    return { ok: false, reason: 'the bundle cannot be attested: its manifest has no producer.name or producer.version' };
  }
  if (facts.window === null) return { ok: false, reason: 'the bundle cannot be attested: its events have no time window' };
  return {
    ok: true,
    value: {
      _type: STATEMENT_TYPE,
      subject: [{ name: facts.bundleId, digest: { sha256: facts.archiveSha256 } }],
      predicateType: EVIDENCE_BUNDLE_V1,
      predicate: {
        schema_version: 1,
        semantic_equivalence: { algorithm: 'assay-run-root-v1', value: facts.runRoot },
        run: {
          run_id: facts.runId,
          event_count: facts.eventCount,
          producer: { name: facts.producer.name, version: facts.producer.version, git: facts.producer.git ?? '' },
          time_window: { start: facts.window.start, end: facts.window.end },
        },
      },
    },
  };
}

/** A member's name in a message: dotted when plain, quoted when it holds a dot (never confused with nesting). */
const member = (at: string, key: string): string => {
  const name = /^[A-Za-z0-9_]+$/.test(key) ? key : JSON.stringify(key.slice(0, 80));
  return at ? `${at}.${name}` : name;
};

/** The first difference between the predicate upstream writes and the one given, compared as nested structures (never flattened names). */
function difference(want: unknown, got: unknown, at: string): string | null {
  if (!isObject(want)) return got === want ? null : `predicate field ${at} disagrees with the bundle`;
  if (!isObject(got)) return `predicate field ${at} disagrees with the bundle`;
  for (const k of Object.keys(want)) {
    if (!hasOwn(got, k)) return `predicate field ${member(at, k)} disagrees with the bundle`;
    const digest = difference(want[k], got[k], member(at, k));
    if (digest) return digest;
  }
  for (const k of Object.keys(got)) if (!hasOwn(want, k)) return `predicate field ${member(at, k)} is not one upstream writes`;
  return null;
}

/**
 * The checks after the signature, in upstream's order: Statement type, predicate type, exactly one
 * subject with exactly one digest (sha256), schema_version, the bundle verified (the caller has
 * facts only for a verified bundle), subject digest against the archive bytes, subject name against
 * the manifest's bundle_id, then every predicate field against what the bundle gives.
 */
export function checkBundleStatement(value: unknown, facts: BundleFacts | null): Result {
  if (!isObject(value) || value['_type'] !== STATEMENT_TYPE) return { ok: false, reason: `_type is not ${STATEMENT_TYPE}` };
  const type = value['predicateType'];
  if (type === EVIDENCE_BUNDLE_V0)
    return {
      ok: false,
      reason: `predicate type ${EVIDENCE_BUNDLE_V0} names a run root, not an archive: the attestation must be reissued as evidence-bundle/v1`,
    };
  if (type !== EVIDENCE_BUNDLE_V1)
    return {
      ok: false,
      reason: `predicate type is ${JSON.stringify(typeof type === 'string' ? type.slice(0, 120) : type)}, not ${EVIDENCE_BUNDLE_V1}`,
    };
  const subject = onlySubject(value);
  if (!subject.ok) return subject;
  const pred = value['predicate'];
  if (!isObject(pred) || pred['schema_version'] !== 1) return { ok: false, reason: 'predicate.schema_version is not 1' };
  if (!facts) return { ok: false, reason: 'the bundle does not verify' };
  if (subject.value.sha256 !== facts.archiveSha256) return { ok: false, reason: 'subject digest differs from the archive' };
  if (subject.value.name !== facts.bundleId) return { ok: false, reason: "subject name differs from the manifest's bundle_id" };
  return checkBundlePredicate(pred, facts);
}

/** Every predicate field against what the verified bundle gives (also for a keyless attestation of a bundle, docs/keyless.md). */
export function checkBundlePredicate(pred: unknown, facts: BundleFacts): Result {
  const expected = bundleStatement(facts);
  if (!expected.ok) return expected;
  const digest = difference(expected.value['predicate'], pred, '');
  return digest === null ? { ok: true } : { ok: false, reason: digest };
}
