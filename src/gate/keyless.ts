/**
 * Keyless trust in the gate (docs/keyless.md): the `<file>.sigstore.json` beside an audit export or
 * a run, checked against the trust set's identities with the Sigstore layer (src/trust/sigstore.ts),
 * which is loaded only when an identity is configured or such a file is met: the gate's cold start
 * does not pay for it. Each bundle is checked by the thread that read its file (on every core for a
 * large input: gate/readers.ts). Keys and identities combine: either trusts.
 */
import { finding, type LocatedFinding } from '../core/findings.js';
import { isObject } from '../core/json.js';
import type { Attestation, RecordInput, WorkflowSigner } from '../core/model.js';
import type { Result } from '../core/result.js';
import { checkBundlePredicate, EVIDENCE_BUNDLE_V1 } from '../read/attestation.js';
import type { BundleFacts, FileRead } from '../read/file-read.js';
import { type Role, readBeside } from '../read/files.js';
import { formatOf, sigstoreOf } from '../read/formats.js';
import type { ReadLimits } from '../read/limits.js';
import type { IdentityPolicy, PredicateKind, RootsSource } from '../trust/sigstore.js';
import type { KeylessSettings, UsageProblem } from './settings.js';

/** The predicate types of keyless attestations (docs/predicates/). */
const RECORDS_V1 = 'https://github.com/receipt-gate/receipt-gate/blob/main/docs/predicates/records-v1.md';
const RUN_V1 = 'https://github.com/receipt-gate/receipt-gate/blob/main/docs/predicates/run-v1.md';

const isObjectPredicate = (p: unknown): Result => (isObject(p) ? { ok: true } : { ok: false, reason: 'the predicate is not an object' });

/**
 * What a reading thread needs to check the bundles beside its files itself (gate/readers.ts): the
 * identities, the trusted roots' text read once by the gate (every thread parses the same bytes)
 * and the workspace. Plain data: a worker gets a copy.
 */
export interface KeylessSetup {
  readonly settings: KeylessSettings;
  readonly roots: RootsSource;
  readonly workspace: string;
}

/** Checks the bundle beside one file against a policy and a predicate kind (made once per thread, with the roots loaded). */
export type KeylessChecker = (
  file: { readonly path: string; readonly rel: string },
  sha256: string,
  policy: IdentityPolicy,
  predicate: PredicateKind,
) => Result<WorkflowSigner>;

/**
 * The gate's set-up for keyless checks: the trusted roots read once and loaded here, so that a root
 * that cannot be used is a usage problem before anything is read.
 */
export async function keylessSetup(
  settings: KeylessSettings,
  limits: ReadLimits,
  workspace: string,
): Promise<Result<KeylessSetup, UsageProblem>> {
  const sigstore = await import('../trust/sigstore.js');
  const roots = sigstore.readTrustedRootsFile('trusted-root', settings.trustedRoot, limits);
  if (!roots.ok) return { ok: false, reason: { message: roots.reason } };
  const setup = { settings, roots: roots.value, workspace };
  const checker = await keylessChecker(setup, limits);
  return checker.ok ? { ok: true, value: setup } : checker;
}

/** One checker per set-up on each thread (the gate's thread makes it first; a worker, at its first bundle). */
const checkers = new WeakMap<KeylessSetup, Promise<Result<KeylessChecker, UsageProblem>>>();

/** The Sigstore layer loaded and the roots parsed, once per set-up on this thread. */
export function keylessChecker(setup: KeylessSetup, limits: ReadLimits): Promise<Result<KeylessChecker, UsageProblem>> {
  let made = checkers.get(setup);
  if (!made) checkers.set(setup, (made = makeChecker(setup, limits)));
  return made;
}

async function makeChecker(setup: KeylessSetup, limits: ReadLimits): Promise<Result<KeylessChecker, UsageProblem>> {
  const sigstore = await import('../trust/sigstore.js');
  const loaded = sigstore.rootsFrom(setup.roots, limits);
  if (!loaded.ok) return { ok: false, reason: { message: loaded.reason } };
  const roots = loaded.value;
  return {
    ok: true,
    value: (file, sha256, policy, predicate) => {
      const got = readBeside(sigstoreOf(file.path), 'the Sigstore bundle', setup.workspace, limits);
      if (got.kind === 'none')
        return { ok: false, reason: `no attestation (no ${sigstoreOf(file.rel.split('/').pop() as string)} beside it)` };
      if (got.kind === 'refused') return { ok: false, reason: `${sigstoreOf(file.rel)}: ${got.reason}` };
      return sigstore.checkBundleFile(
        sigstoreOf(file.rel),
        got.bytes,
        { subject: { name: file.rel, sha256 }, policy, roots, predicate },
        limits,
      );
    },
  };
}

/** The identities a file of this role is checked against: signers for audit exports, producers for runs (null: none). */
const policyFor = (settings: KeylessSettings, role: Role): IdentityPolicy | null =>
  role === 'audit' ? settings.signers : settings.producers;

/** Whether a file of this role is checked by identity at all (then its bundle is worth a reading thread's time). */
export const checkedByIdentity = (settings: KeylessSettings, role: Role): boolean => policyFor(settings, role) !== null;

/**
 * A file's keyless result, decided by the thread that read it: an audit export's records by a signer
 * identity, a run by a producer identity (a bundle's predicate is upstream's, checked field by
 * field against what its reader verified); undefined when its role has no identities or the file
 * is no run. `read.sha256` is there: readers hash every file when identities are configured.
 */
export function keylessOf(
  check: KeylessChecker,
  settings: KeylessSettings,
  role: Role,
  file: { readonly path: string; readonly rel: string },
  read: FileRead,
): Result<WorkflowSigner> | undefined {
  const policy = policyFor(settings, role);
  if (!policy || (role === 'runs' && !read.run)) return undefined;
  const sha256 = read.sha256 as string;
  if (role === 'audit') return check(file, sha256, policy, { type: RECORDS_V1, check: isObjectPredicate });
  if (formatOf(file.rel) !== 'bundle') return check(file, sha256, policy, { type: RUN_V1, check: isObjectPredicate });
  const facts = read.bundle;
  if (!facts) return { ok: false, reason: 'the bundle does not verify' };
  return check(file, sha256, policy, { type: EVIDENCE_BUNDLE_V1, check: (p) => checkBundlePredicate(p, facts) });
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
): Promise<LocatedFinding | null> {
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
