/**
 * Signer and producer identities (docs/keyless.md): the `<file>.sigstore.json` beside an audit export
 * or a run, checked against the trust set's workflow identities with the Sigstore layer
 * (trust/sigstore.ts), which is loaded only when an identity is configured: the gate's cold start
 * does not pay for it. The trusted roots are parsed once per thread from the same bytes the gate read.
 */
import { isObject } from '../../core/json.js';
import type { Result } from '../../core/result.js';
import { refused, type TrustDecision } from '../../core/trust.js';
import { checkBundlePredicate, EVIDENCE_BUNDLE_V1 } from '../../read/attestation.js';
import type { Role } from '../../read/files.js';
import { formatOf, sigstoreOf } from '../../read/formats.js';
import type { ReadLimits } from '../../read/limits.js';
import type { FileUnderCheck, TrustChecker } from '../checker.js';
import type { IdentityPolicy, PredicateKind, Root, RootsSource } from '../sigstore.js';

/** The predicate types of keyless attestations (docs/predicates/). */
const RECORDS_V1 = 'https://github.com/receipt-gate/receipt-gate/blob/main/docs/predicates/records-v1.md';
const RUN_V1 = 'https://github.com/receipt-gate/receipt-gate/blob/main/docs/predicates/run-v1.md';

const isObjectPredicate = (p: unknown): Result => (isObject(p) ? { ok: true } : { ok: false, reason: 'the predicate is not an object' });

/** What every thread needs to check bundles by identity: plain data (a worker gets a copy). */
export interface IdentitySetup {
  readonly signers: IdentityPolicy | null;
  readonly producers: IdentityPolicy | null;
  /** The trusted roots' text, read once by the gate (null: the public-good root shipped with receipt-gate). */
  readonly roots: RootsSource;
}

/** The roots of a set-up, parsed once per thread (the gate parses them first, so a root that cannot be used stops it before any file). */
const loaded = new WeakMap<RootsSource & object, Promise<Result<readonly Root[]>>>();
let publicGood: Promise<Result<readonly Root[]>> | null = null;

export function rootsOf(source: RootsSource, limits: ReadLimits): Promise<Result<readonly Root[]>> {
  const load = async (): Promise<Result<readonly Root[]>> => {
    const { rootsFrom } = await import('../sigstore.js');
    return rootsFrom(source, limits);
  };
  if (source === null) return (publicGood ??= load());
  let made = loaded.get(source);
  if (!made) loaded.set(source, (made = load()));
  return made;
}

/** What a file's Statement must name as its predicate type (and check of its predicate), by what the file is. */
function predicateFor(file: FileUnderCheck): PredicateKind | TrustDecision {
  if (file.role === 'audit') return { type: RECORDS_V1, check: isObjectPredicate };
  if (formatOf(file.rel) !== 'bundle') return { type: RUN_V1, check: isObjectPredicate };
  const facts = file.read.bundle;
  if (!facts) return refused('statement_mismatch', 'the bundle does not verify');
  return { type: EVIDENCE_BUNDLE_V1, check: (p) => checkBundlePredicate(p, facts) };
}

async function decide(file: FileUnderCheck, policy: IdentityPolicy, source: RootsSource, limits: ReadLimits): Promise<TrustDecision> {
  const beside = file.sigstore;
  const name = sigstoreOf(file.rel);
  if (beside.kind === 'none')
    return refused('no_attestation', `no attestation (no ${sigstoreOf(file.rel.split('/').pop() ?? file.rel)} beside it)`);
  if (beside.kind === 'refused') return refused('attestation_malformed', `${name}: ${beside.reason}`);
  const predicate = predicateFor(file);
  if ('kind' in predicate) return predicate;
  const roots = await rootsOf(source, limits);
  // The gate loaded these same bytes before anything was read: if they fail here, so does the file.
  if (!roots.ok) return refused('attestation_malformed', `the trusted root cannot be used: ${roots.reason}`);
  const { checkBundles } = await import('../sigstore.js');
  const sha256 = file.read.sha256 ?? '';
  const checked = checkBundles(beside.file, { subject: { name: file.rel, sha256 }, policy, roots: roots.value, predicate }, limits);
  if (!checked.ok) return refused(checked.reason.code, checked.reason.detail);
  return { kind: 'trusted', by: { kind: 'identity', signer: checked.value } };
}

/** The identity checkers a set-up configures: the signers' (audit exports) and the producers' (runs). */
export function identityCheckers(setup: IdentitySetup, limits: ReadLimits): TrustChecker[] {
  const checker = (role: Role, policy: IdentityPolicy): TrustChecker => ({
    role,
    async check(file) {
      const decision = await decide(file, policy, setup.roots, limits);
      return role === 'audit' ? { kind: 'file', decision } : { kind: 'run', decision };
    },
  });
  return [...(setup.signers ? [checker('audit', setup.signers)] : []), ...(setup.producers ? [checker('runs', setup.producers)] : [])];
}
