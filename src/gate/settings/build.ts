/**
 * The one settings builder. The CLI's flags and the action's inputs are two sources of one typed
 * record (`GateInputs`); this turns it into the verification's `Settings`: every default taken from
 * the one table, every value checked with one message naming the flag or input as its entry calls
 * it, and the rule that an empty list never turns trust off (semantics §12) stated once.
 */
import path from 'node:path';
import { sha256Hex } from '../../core/binding.js';
import { type Finding, finding } from '../../core/findings.js';
import type { Location } from '../../core/location.js';
import type { Policy, PolicySource, PolicyTrust, TrustPath, TrustValue } from '../../core/policy.js';
import type { Result } from '../../core/result.js';
import type { Instant } from '../../core/time.js';
import { DEFAULTS } from './defaults.js';
import {
  identityProblem,
  issuerProblem,
  type KeylessInputs,
  parseBool,
  parseJobs,
  parseList,
  readKeyless,
  readLimits,
  readPolicy,
  readTrustedKeys,
  refProblem,
} from './parsers.js';
import { requireExistingPaths } from './paths.js';
import { headUnder, type PolicyGiven, type RepoText, settlePolicy, settleTrustFile } from './policy.js';
import { type CacheSettings, type KeylessSettings, PolicyMistake, type PolicyReview, type Settings, UsageError } from './types.js';

/** A PEM text and where it came from (a key file a flag names, or an input), for the message when it does not parse; `at`: where the policy file names it. */
interface PemSource {
  readonly name: string;
  readonly pem: string;
  readonly at?: Location;
}

/** How the options are called where they were given: `--runs` on the command line, `runs` in the action. */
interface GateNames {
  readonly runs: string;
  readonly audit: string;
  readonly require: string;
  readonly jobs: string;
  readonly trustedKeys: string;
  readonly requireSignedRecords: string;
  readonly trustedProducers: string;
  readonly requireAttestedRuns: string;
  readonly signerIdentities: string;
  readonly producerIdentities: string;
  readonly sourceRepository: string;
  readonly sourceRefs: string;
  readonly issuer: string;
  readonly trustedRoot: string;
  /** Prefix of the limits' names (`--` on the command line). */
  readonly limitsPrefix: string;
}

/** What one verification was given, by either entry; null: not given (the default applies). */
export interface GateInputs {
  readonly names: GateNames;
  /** Inputs and report names are relative to it. */
  readonly cwd: string;
  /** Nothing outside it is read. */
  readonly workspace: string;
  readonly runs: readonly string[] | null;
  readonly audit: readonly string[] | null;
  readonly allowUnmatchedRecords: boolean | null;
  readonly strictObserved: boolean | null;
  readonly maxFileSize: string | null;
  readonly maxLineSize: string | null;
  readonly jobs: string | null;
  /** Required-level rules (each entry may hold several, comma- or newline-separated). */
  readonly require: readonly string[];
  readonly trustedKeys: readonly PemSource[];
  readonly requireSignedRecords: boolean;
  readonly trustedProducers: readonly PemSource[];
  readonly requireAttestedRuns: boolean;
  readonly identities: Omit<KeylessInputs, 'trustedRoot'>;
  /** The trusted-root file as given: its text on disk, or at the base and the head of a pull request (null: the shipped root). */
  readonly trustedRoot: TrustFileGiven | null;
  /** The policy file as the entry found it (docs/policy.md §1). */
  readonly policy: PolicyGiven;
  /** The trust inputs given (a value other than the default), as the entry names them: beside a policy's trust: section, a conflict. */
  readonly trustGiven: readonly string[];
  /**
   * A file a policy's trust: section names, read at the commit the policy was read at (null: the
   * working tree): its text, null when there is no such file there, or why that file cannot be used,
   * in words naming it (outside the repository, a link, a folder): the entry naming it is then a
   * located policy mistake.
   */
  readonly trustFile: (path: string, commit: string | null) => Result<string | null>;
  /** Files a base policy's trust: section names that a pull request changes (read at the base: the change waits for the merge). */
  readonly trustFilesChanged?: readonly string[];
  /** A policy at a near-miss path a pull request leaves beside no file at the default path (docs/policy.md §11): once merged, every pull request would stop. */
  readonly headNearMiss?: { readonly found: string; readonly policy: string } | null;
  /** The verification time. */
  readonly now: Instant;
  /** The evidence cache the entry asked for (its directory relative to `cwd`), or null. */
  readonly cache: CacheSettings | null;
  /** The files the entry will write, by the flag or input naming them (absolute): none may be an input. */
  readonly writes: readonly (readonly [string, string])[];
}

/** A trust file as given: one text, or the base's and the head's of a pull request. */
type TrustFileGiven = Parameters<typeof settleTrustFile>[1];

/** An input list as given: its entries, or the default's when it was not given (or given empty). */
const listOr = (given: readonly string[] | null, fallback: string): readonly string[] =>
  given !== null && given.length > 0 ? given : parseList(fallback);

/**
 * Trust is never turned off by an empty value (semantics §12): with its switch on, a trust set with
 * no key and no identity is a configuration error naming both.
 */
function mustTrust(on: boolean, configured: boolean, switchName: string, keysName: string, idsName: string): void {
  if (on && !configured)
    throw new UsageError(
      'missing',
      `${switchName} is on, but neither ${keysName} nor ${idsName} is given (an unset repository variable is an empty string: set it, or the gate would accept what nobody it trusts vouched for)`,
    );
}

/**
 * The trust a verification is built from: the entry's inputs, or the policy file's trust: section
 * (its files read at its commit; `rootAt`: where it names its trusted root, at which a root that
 * does not load is a located policy mistake).
 */
type TrustGiven = Pick<
  GateInputs,
  'trustedKeys' | 'requireSignedRecords' | 'trustedProducers' | 'requireAttestedRuns' | 'identities' | 'trustedRoot'
> & { readonly names: GateNames; readonly mode: 'enforce' | 'warn'; readonly rootAt: Location | null };

/**
 * Trust from the policy file in effect (docs/policy.md §9): its key and root files read at the
 * policy's commit, named in messages by where the file says them. Trust inputs given beside it are a
 * configuration error naming both places: one source of truth, no merging.
 */
function policyTrust(g: GateInputs, trust: PolicyTrust, source: PolicySource): TrustGiven {
  const where = `${source.path}${source.commit ? ` at commit ${source.commit.slice(0, 12)}` : ''}`;
  if (g.trustGiven.length > 0)
    throw new UsageError(
      'conflict',
      `${g.trustGiven.join(', ')} given, and the policy file ${where} has a trust: section (line ${trust.at.line}): trust has one place; remove the input(s) (the workflow file is part of the pull request it gates), or the section`,
    );
  // Every mistake of the section is located at the value it is about (docs/policy.md §9), in the file
  // as read; a section read at a commit but its files in the checkout (a pull request's change to them) is placed in the checkout's file.
  const place = (at: Location): Location => (source.commit === null ? { file: at.file, line: at.line, column: at.column } : at);
  const text = (p: TrustPath, key: string): string => {
    const got = g.trustFile(p.path, source.commit);
    if (!got.ok) throw new PolicyMistake(place(p.at), `trust.${key}: ${got.reason}`);
    if (got.value === null)
      throw new PolicyMistake(
        place(p.at),
        `trust.${key}: ${p.path} does not exist at ${source.commit ? `commit ${source.commit.slice(0, 12)}` : 'the working tree'} (trust files are read at the same commit as the policy)`,
      );
    return got.value;
  };
  const values: readonly (readonly [string, readonly TrustValue[], (value: string) => string | null])[] = [
    ['trusted-signer-identities', trust.signerIdentities, identityProblem],
    ['trusted-producer-identities', trust.producerIdentities, identityProblem],
    ['source-refs', trust.sourceRefs ?? [], refProblem],
    ['certificate-oidc-issuer', trust.issuer ? [trust.issuer] : [], issuerProblem],
  ];
  for (const [key, list, problemOf] of values)
    for (const v of list) {
      const problem = problemOf(v.value);
      if (problem !== null) throw new PolicyMistake(place(v.at), `trust.${key}: ${problem}`);
    }
  const pems = (list: readonly TrustPath[], key: string): PemSource[] =>
    list.map((p) => ({ name: `trust.${key} ${p.path}`, pem: text(p, key), at: place(p.at) }));
  const name = (key: string): string => `${source.path}: trust.${key}`;
  const strings = (list: readonly TrustValue[]) => list.map((v) => v.value);
  return {
    mode: trust.mode,
    trustedKeys: pems(trust.trustedKeys, 'trusted-keys'),
    requireSignedRecords: trust.requireSignedRecords,
    trustedProducers: pems(trust.trustedProducers, 'trusted-producers'),
    requireAttestedRuns: trust.requireAttestedRuns,
    identities: {
      ...g.identities,
      signerIdentities: strings(trust.signerIdentities),
      producerIdentities: strings(trust.producerIdentities),
      sourceRefs: strings(trust.sourceRefs ?? []),
      issuer: trust.issuer?.value ?? DEFAULTS['certificate-oidc-issuer'],
    },
    trustedRoot: trust.trustedRoot
      ? { kind: 'file', file: { path: trust.trustedRoot.path, commit: source.commit, text: text(trust.trustedRoot, 'trusted-root') } }
      : null,
    rootAt: trust.trustedRoot ? place(trust.trustedRoot.at) : null,
    names: {
      ...g.names,
      trustedKeys: name('trusted-keys'),
      requireSignedRecords: name('require-signed-records'),
      trustedProducers: name('trusted-producers'),
      requireAttestedRuns: name('require-attested-runs'),
      signerIdentities: name('trusted-signer-identities'),
      producerIdentities: name('trusted-producer-identities'),
      sourceRefs: name('source-refs'),
      issuer: name('certificate-oidc-issuer'),
      // The root's name in its own messages, after the place of the entry naming it.
      trustedRoot: 'trust.trusted-root',
    },
  };
}

/**
 * Why a pull request's own trust: section would not load once merged (a key file that is missing or
 * no PEM key, a root that does not parse, an identity pattern refused), in the words the policy in
 * effect would get; null when it loads. Its files are read where the head's policy was.
 */
function headTrustProblem(
  g: GateInputs,
  trust: PolicyTrust,
  source: PolicySource,
):
  | { readonly problem: string; readonly at: Location | null }
  | { readonly root: { readonly name: string; readonly text: string; readonly at: Location } | null } {
  try {
    // The inputs given are the pull request's workflow's, which will run beside this section once merged.
    const t = policyTrust(g, trust, source);
    readTrustedKeys(t.trustedKeys);
    readTrustedKeys(t.trustedProducers);
    const root =
      t.trustedRoot?.kind === 'file' && t.rootAt
        ? { name: `${t.names.trustedRoot} ${t.trustedRoot.file.path}`, text: t.trustedRoot.file.text, at: t.rootAt }
        : null;
    readKeyless({ ...t.identities, trustedRoot: root }, keylessNames(t.names));
    // The root's own check loads the Sigstore code: it runs where the roots are read (gate.ts), named by `root`, located at its entry.
    return { root };
  } catch (error) {
    // A mistake at a value of the section is a finding there; any other (a conflict with the inputs) at the section.
    if (error instanceof PolicyMistake) return { problem: error.detail, at: error.at };
    if (error instanceof UsageError) return { problem: error.message, at: null };
    throw error;
  }
}

/** What the keyless inputs are called where they were given. */
const keylessNames = (n: GateInputs['names']) => ({
  signerIdentities: n.signerIdentities,
  producerIdentities: n.producerIdentities,
  sourceRepository: n.sourceRepository,
  sourceRefs: n.sourceRefs,
  issuer: n.issuer,
});

/**
 * A pull request's rules' signed-by against the signers its policy has once merged: its own trust:
 * section's, or the inputs' when it has none (a red team's head kept `signed-by: [K1]` beside a
 * trust: section that no longer gives K1: it passed, then stopped every pull request once merged).
 * Trust that does not load is said where it is read (headTrustProblem, the base's own checks).
 */
function signedByOnceMerged(given: GateInputs, proposed: Policy, head: RepoText, now: Instant): readonly Finding[] {
  let signers: { readonly keyIds: readonly string[]; readonly identities: readonly string[] };
  try {
    const t: GateInputs = proposed.trust && proposed.source ? { ...given, ...policyTrust(given, proposed.trust, proposed.source) } : given;
    const keys = readTrustedKeys(t.trustedKeys);
    const keyless = readKeyless({ ...t.identities, trustedRoot: null }, keylessNames(t.names));
    signers = { keyIds: keys ? [...keys.keys()] : [], identities: keyless?.signers ? [...keyless.signers.identities] : [] };
  } catch (error) {
    if (error instanceof UsageError) return [];
    throw error;
  }
  return headUnder(head, { now, signers });
}

/** The verification's settings from what either entry was given; a mistake throws a UsageError naming it. */
export function buildSettings(given: GateInputs): Settings {
  // The policy in effect is read once without its signers (they may come from its own trust: section), then for good.
  const peek = settlePolicy(given.policy, { now: given.now, signers: null });
  const fileTrust = peek.policy?.trust && peek.policy.source ? policyTrust(given, peek.policy.trust, peek.policy.source) : null;
  const g: GateInputs = fileTrust ? { ...given, ...fileTrust } : given;
  const trustMode = fileTrust?.mode ?? 'enforce';
  const n = g.names;
  // An empty path is an unset variable, never "no input": `--audit ''` read no export at all, and coverage went with it.
  for (const [given, name] of [
    [g.runs, n.runs],
    [g.audit, n.audit],
  ] as const)
    if (given?.some((p) => p.trim() === ''))
      throw new UsageError(
        'path',
        `${name}: an empty path (an unset variable?): name the files or folder, or leave it out for the default`,
      );
    else if (given && given.length > 0 && given.every((p) => p.trim().startsWith('!')))
      throw new UsageError(
        'path',
        `${name}: only exclusions (${given.join(', ')}): name what to read, then what to leave out (e.g. .assay/audit and !.assay/audit/drafts/**)`,
      );
  const runs = listOr(g.runs, DEFAULTS.runs);
  const audit = listOr(g.audit, DEFAULTS.audit);
  const explicit = { runs: g.runs !== null && g.runs.length > 0, audit: g.audit !== null && g.audit.length > 0 };
  if (explicit.runs) requireExistingPaths(runs, g.cwd, n.runs);
  if (explicit.audit) requireExistingPaths(audit, g.cwd, n.audit);
  const reviews: Finding[] = [];
  let trustedRoot: KeylessSettings['trustedRoot'] = null;
  if (g.trustedRoot) {
    const settled = settleTrustFile(n.trustedRoot, g.trustedRoot);
    trustedRoot = {
      name: `${n.trustedRoot} ${settled.text.path}${settled.text.commit ? ` (at ${settled.text.commit.slice(0, 12)})` : ''}`,
      text: settled.text.text,
      ...(fileTrust?.rootAt ? { at: fileTrust.rootAt } : {}),
    };
    if (settled.review) reviews.push(settled.review);
  }
  const keyless = readKeyless({ ...g.identities, trustedRoot }, keylessNames(n));
  const trustedKeys = readTrustedKeys(g.trustedKeys);
  const trustedProducers = readTrustedKeys(g.trustedProducers);
  mustTrust(
    g.requireSignedRecords,
    trustedKeys !== null || keyless?.signers != null,
    n.requireSignedRecords,
    n.trustedKeys,
    n.signerIdentities,
  );
  mustTrust(
    g.requireAttestedRuns,
    trustedProducers !== null || keyless?.producers != null,
    n.requireAttestedRuns,
    n.trustedProducers,
    n.producerIdentities,
  );
  const now = g.now;
  const signers = {
    keyIds: trustedKeys ? [...trustedKeys.keys()] : [],
    identities: keyless?.signers ? [...keyless.signers.identities] : [],
  };
  // Read again with its signers, always: a key spelt with a YAML escape ("signed\x2Dby") is a signed-by
  // the text does not show (a red team: a test of the text skipped the check).
  // A base policy valid without its signers is repaired by the head's only when its signers are its own (a trust: section read at the base), never the inputs'.
  const settled = settlePolicy(g.policy, { now, signers }, { open: fileTrust !== null || peek.repaired === true });
  const rules = g.require.flatMap(parseList);
  if (settled.policy && rules.length > 0)
    throw new UsageError(
      'conflict',
      `${n.require}: the policy file ${settled.policy.source?.path ?? ''} is in effect: requirements have one place (move the rules into the file, or remove it)`,
    );
  // A pull request adding the first policy file while the workflow gives rules passes here, and once
  // merged every run is this conflict (a red team): it must be valid to merge.
  const adding = settled.review?.head ?? null;
  if (!settled.policy && adding?.source && rules.length > 0)
    reviews.push(
      finding(
        'policy_invalid',
        { file: adding.source.path, line: 1, column: 1 },
        `this pull request adds the policy file ${adding.source.path} while ${n.require} gives rules: once merged every run stops with a configuration error (requirements have one place); move the rules into the file and remove ${n.require} from the workflow (this pull request's policy; it must be valid to merge)`,
      ),
    );
  for (const file of fileTrust ? (given.trustFilesChanged ?? []) : [])
    reviews.push(
      finding(
        'policy_changed',
        { file, line: 1, column: 1 },
        `this pull request changes ${file}, which the policy's trust: section names: trust material is read at the base, so the change takes effect after merge; new bytes at a trusted path trust what they hold: a reviewer must approve it`,
        'warning',
      ),
    );
  // A pull request that leaves its policy at a near-miss path (renamed to .yaml, or added there) passes
  // here and, once merged, stops every pull request with a configuration error, its repair too (a red team).
  if (given.headNearMiss)
    reviews.push(
      finding(
        'policy_invalid',
        { file: given.headNearMiss.found, line: 1, column: 1 },
        `this pull request leaves no policy file at ${given.headNearMiss.policy}, but ${given.headNearMiss.found} exists: once merged the gate stops every pull request with a configuration error (a policy at a near-miss path is never read); move it to ${given.headNearMiss.policy} (this pull request's policy; it must be valid to merge)`,
      ),
    );
  // The pull request's own trust: section must load too (docs/policy.md §9: a key file that does not parse is
  // policy_invalid): once merged it is the one in effect. So must the base's section over the files the
  // pull request changes (a key file broken, the policy's bytes the same: a red team).
  const proposed = settled.review?.head ?? null;
  const inEffect = settled.policy;
  const merged =
    proposed?.trust && proposed.source
      ? { trust: proposed.trust, source: proposed.source }
      : fileTrust && inEffect?.trust && inEffect.source && (given.trustFilesChanged ?? []).length > 0
        ? { trust: inEffect.trust, source: { ...inEffect.source, commit: null } }
        : null;
  const headTrust = merged ? headTrustProblem(given, merged.trust, merged.source) : null;
  let headRoot: PolicyReview['headRoot'] = null;
  if (merged && headTrust) {
    const at = { file: merged.source.path, line: merged.trust.at.line, column: merged.trust.at.column };
    if ('problem' in headTrust)
      reviews.push(
        finding('policy_invalid', headTrust.at ?? at, `${headTrust.problem} (this pull request's policy; it must be valid to merge)`),
      );
    else if (headTrust.root) headRoot = headTrust.root;
  }
  if (proposed && g.policy.kind === 'pull' && g.policy.head && !(headTrust && 'problem' in headTrust))
    for (const f of signedByOnceMerged(given, proposed, g.policy.head, now)) reviews.push(f);
  const review = settled.review ? [...reviews, ...settled.review.findings] : reviews;
  // A deleted policy file is judged as what follows the merge: the inputs' policy, under the file's name (its bytes: none).
  const deleted = settled.review?.deleted;
  const head =
    deleted !== undefined
      ? { ...readPolicy(n.require, rules), source: { path: deleted, commit: null, sha256: sha256Hex('') } }
      : (settled.review?.head ?? null);
  return {
    runs,
    audit,
    explicit,
    cwd: g.cwd,
    workspace: g.workspace,
    allowUnmatchedRecords: g.allowUnmatchedRecords ?? parseBool('allow-unmatched-records', DEFAULTS['allow-unmatched-records']),
    strictObserved: g.strictObserved ?? parseBool('strict-observed', DEFAULTS['strict-observed']),
    limits: readLimits(g.maxFileSize ?? undefined, g.maxLineSize ?? undefined, g.names.limitsPrefix),
    jobs: parseJobs(n.jobs, g.jobs ?? DEFAULTS.jobs),
    policy: settled.policy ?? readPolicy(n.require, rules),
    policyReview: review.length > 0 || head || headRoot ? { findings: review, head, ...(headRoot ? { headRoot } : {}) } : null,
    now,
    trustedKeys,
    trustedProducers,
    keyless,
    trustMode,
    cache: g.cache ? { ...g.cache, dir: path.resolve(g.cwd, g.cache.dir) } : null,
    writes: g.writes,
  };
}
