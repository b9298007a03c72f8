/**
 * Keyless trust in the gate (docs/keyless.md): the `<file>.sigstore.json` beside an audit export or
 * a run, checked against the trust set's identities with the Sigstore layer (src/trust/sigstore.ts),
 * which is loaded only when an identity is configured or such a file is met: the gate's cold start
 * does not pay for it. Keys and identities combine: either trusts.
 */
import { type Finding, finding } from '../core/findings.js';
import { isObject } from '../core/json.js';
import type { Attestation, RecordInput, WorkflowSigner } from '../core/model.js';
import type { Result } from '../core/result.js';
import { checkBundlePredicate, EVIDENCE_BUNDLE_V1 } from '../read/attestation.js';
import type { BundleFacts } from '../read/file-read.js';
import { readBeside } from '../read/files.js';
import { sigstoreOf } from '../read/formats.js';
import type { ReadLimits } from '../read/limits.js';
import type { IdentityPolicy, PredicateKind } from '../trust/sigstore.js';
import type { KeylessSettings, UsageProblem } from './settings.js';

/** The predicate types of keyless attestations (docs/predicates/). */
const RECORDS_V1 = 'https://github.com/receipt-gate/receipt-gate/blob/main/docs/predicates/records-v1.md';
const RUN_V1 = 'https://github.com/receipt-gate/receipt-gate/blob/main/docs/predicates/run-v1.md';

const isObjectPredicate = (p: unknown): Result => (isObject(p) ? { ok: true } : { ok: false, reason: 'the predicate is not an object' });

/** Checks bundles for one gate run; made once, with the roots loaded. */
export interface KeylessChecker {
  /** The records of an audit export: trusted by a signer identity, or why not. */
  records(file: { readonly path: string; readonly rel: string }, sha256: string): Result<WorkflowSigner>;
  /** A run: attested by a producer identity, or why not (a bundle's predicate is upstream's, checked field by field). */
  run(
    file: { readonly path: string; readonly rel: string },
    sha256: string,
    bundle: BundleFacts | null,
    isBundle: boolean,
  ): Result<WorkflowSigner>;
}

/** Load the Sigstore layer and the roots; a trusted root that cannot be used is a usage problem. */
export async function keylessChecker(
  settings: KeylessSettings,
  limits: ReadLimits,
  workspace: string,
): Promise<Result<KeylessChecker, UsageProblem>> {
  const sigstore = await import('../trust/sigstore.js');
  const loaded = sigstore.loadTrustedRoots('trusted-root', settings.trustedRoot, limits);
  if (!loaded.ok) return { ok: false, reason: { message: loaded.reason } };
  const roots = loaded.value;
  const check = (
    file: { readonly path: string; readonly rel: string },
    sha256: string,
    policy: IdentityPolicy,
    predicate: PredicateKind,
  ): Result<WorkflowSigner> => {
    const got = readBeside(sigstoreOf(file.path), 'the Sigstore bundle', workspace, limits);
    if (got.kind === 'none')
      return { ok: false, reason: `no attestation (no ${sigstoreOf(file.rel.split('/').pop() as string)} beside it)` };
    if (got.kind === 'refused') return { ok: false, reason: `${sigstoreOf(file.rel)}: ${got.reason}` };
    return sigstore.checkBundleFile(
      sigstoreOf(file.rel),
      got.bytes,
      { subject: { name: file.rel, sha256 }, policy, roots, predicate },
      limits,
    );
  };
  return {
    ok: true,
    value: {
      records: (file, sha256) =>
        settings.signers
          ? check(file, sha256, settings.signers, { type: RECORDS_V1, check: isObjectPredicate })
          : { ok: false, reason: 'no trusted signer identities' },
      run: (file, sha256, facts, isBundle) => {
        if (!settings.producers) return { ok: false, reason: 'no trusted producer identities' };
        if (!isBundle) return check(file, sha256, settings.producers, { type: RUN_V1, check: isObjectPredicate });
        if (!facts) return { ok: false, reason: 'the bundle does not verify' };
        return check(file, sha256, settings.producers, { type: EVIDENCE_BUNDLE_V1, check: (p) => checkBundlePredicate(p, facts) });
      },
    },
  };
}

/** A record's trust with its file's keyless result: a trusted key's signature or a trusted identity's bundle trusts it. */
export function withKeyless(r: RecordInput, keyless: Result<WorkflowSigner>, keys: boolean): RecordInput {
  if (r.trust.kind === 'trusted') return r;
  const trust: RecordInput['trust'] = keyless.ok
    ? { kind: 'trusted', by: keyless.value }
    : { kind: 'untrusted', reason: keys && r.trust.kind === 'untrusted' ? `${r.trust.reason}; and ${keyless.reason}` : keyless.reason };
  return { loc: r.loc, record: r.record, signer: r.signer, trust };
}

/** A run's attestation with its keyless result: a trusted producer key's sidecar or a trusted identity's bundle attests it. */
export function attestedWith(
  a: Attestation | undefined,
  keyless: Result<WorkflowSigner>,
  facts: BundleFacts | null,
  keys: boolean,
): Attestation {
  if (a?.kind === 'attested') return a;
  const named = { name: facts?.producer.name ?? null, version: facts?.producer.version ?? null };
  if (keyless.ok) return { kind: 'attested-keyless', by: keyless.value, ...named };
  const keyReason = keys && a?.kind === 'unattested' ? `${a.reason}; and ` : '';
  return { kind: 'unattested', reason: `${keyReason}${keyless.reason}` };
}

/**
 * A `.sigstore.json` beside an input when no identity is configured: its shape checked (garbage is
 * never ignored), reported as not checked. Null: there is none.
 */
export async function uncheckedBundle(
  file: { readonly path: string; readonly rel: string },
  limits: ReadLimits,
  workspace: string,
): Promise<Finding | null> {
  const got = readBeside(sigstoreOf(file.path), 'the Sigstore bundle', workspace, limits);
  if (got.kind === 'none') return null;
  const at = { file: sigstoreOf(file.rel), line: 1, column: 1 };
  if (got.kind === 'refused') return finding('invalid_artifact', at, got.reason);
  const sigstore = await import('../trust/sigstore.js');
  const shapes = sigstore.bundleShapes(at.file, got.bytes, limits);
  if (!shapes.ok) return finding('invalid_artifact', at, shapes.reason);
  return finding(
    'skipped_object',
    at,
    `${shapes.value} Sigstore bundle(s), not checked: no trusted identities (--trusted-signer-identity, --trusted-producer-identity)`,
  );
}
