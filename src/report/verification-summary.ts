/**
 * The verdict as an in-toto Statement with the SLSA Verification Summary predicate
 * (docs/attestations.md §2, semantics §11): the report file is the subject, the commit the bytes
 * were read from is `resourceUri`, the policy digest covers everything that decides a verdict
 * besides the inputs (the report carries that object as `policy`, so a consumer can recompute it),
 * and every input file is listed with its sha256. Pure: the caller hands in the report's digest,
 * the inputs' digests and the time; nothing here reads a file or a clock.
 */
import path from 'node:path';
import { jcs, sha256Hex, utcSeconds } from '../core/binding.js';
import type { Report } from '../core/report.js';
import { cmp } from '../core/text.js';
import { inside } from '../read/discover.js';
import { STATEMENT_TYPE, VSA_PREDICATE_TYPE } from '../read/envelope.js';

const VERIFIER_ID = 'https://github.com/receipt-gate/receipt-gate';
/** The policy's name when nothing better names it: the report's own `policy` object is the policy. */
export const DEFAULT_POLICY_URI = 'receipt-gate:report.policy';

interface DigestSet {
  readonly sha256: string;
}

interface VsaPredicate {
  readonly verifier: { readonly id: string; readonly version: { readonly 'receipt-gate': string } };
  readonly timeVerified: string;
  readonly resourceUri: string;
  readonly policy: { readonly uri: string; readonly digest: DigestSet };
  readonly inputAttestations: readonly { readonly uri: string; readonly digest: DigestSet }[];
  readonly verificationResult: 'PASSED' | 'FAILED';
  readonly verifiedLevels: readonly string[];
}

export interface VsaStatement {
  readonly _type: typeof STATEMENT_TYPE;
  readonly subject: readonly [{ readonly name: string; readonly digest: DigestSet }];
  readonly predicateType: typeof VSA_PREDICATE_TYPE;
  readonly predicate: VsaPredicate;
}

export interface VsaContext {
  /** The report's path relative to the workspace (the subject's name). */
  readonly reportName: string;
  /** Hex sha256 of the report file's bytes. */
  readonly reportSha256: string;
  readonly resourceUri: string;
  /** A name for the policy given by the user or the workflow; null: the policy file's `<path>@<commit>` (or path) when one is in effect, else DEFAULT_POLICY_URI. */
  readonly policyUri: string | null;
  /** Every input file the verdict rests on (runs, audit exports, sidecars read), path → hex sha256. */
  readonly inputs: ReadonlyMap<string, string>;
  readonly version: string;
}

/** sha256 of JCS(the policy object the report carries): what a consumer recomputes. */
function policyDigest(report: Report): string {
  const canonical = jcs(report.policy);
  if (!canonical.ok) throw new Error(`the report's policy cannot be canonicalized: ${canonical.reason}`); // built from strings and booleans only
  return sha256Hex(canonical.text);
}

/** The policy file in effect as a URI: `<path>@<commit>` when read at a commit, its path when read on disk; null: none. */
function policyFileUri(report: Report): string | null {
  const source = report.policy.source;
  if (!source) return null;
  return source.commit === null ? source.path : `${source.path}@${source.commit}`;
}

/**
 * The RECEIPTS_* levels of a verdict (SLSA reserves SLSA_*), each claimed only when the report shows
 * it held for every call, record or run: a rule in mode warn that fell short, a requirement still
 * waiting for its export, a call an exception excuses or one of a grandfathered run is no rule met; trust in mode warn, a record no trusted signer vouched for
 * (unsigned, untrusted, or a grandfathered file's, whose trust was not asked) or a run no trusted
 * producer attested is no signed record or attested run.
 */
function verifiedLevels(report: Report): string[] {
  if (!report.ok) return [];
  const t = report.totals;
  const w = t.weakest_level;
  const levels = [w === null ? 'RECEIPTS_NO_SIDE_EFFECTS' : `RECEIPTS_WEAKEST_${w.toUpperCase()}`];
  // A call verified by a grandfathered file's record (trust not asked) met its rule only by the grandfathering.
  const grandfatheredRecord = report.records.some((r) => r.trust_not_asked === true && r.outcome === 'bound');
  // Each level names what was in play: a rule that applied to no call, no record, no run vouches for nothing (a red team: an empty set passed every()).
  if (
    // A rule applied to a call, or a default above honesty did (a default of asserted asks honesty only; `default: verified` alone is a policy).
    report.calls.some((c) => c.rule !== null || (c.required_level !== null && c.required_level !== 'asserted')) &&
    t.policy_unmet === 0 &&
    t.policy_warned === 0 &&
    t.pending === 0 &&
    t.excepted === 0 &&
    t.grandfathered === 0 &&
    !grandfatheredRecord
  )
    levels.push('RECEIPTS_POLICY_MET');
  const enforced = report.policy.trust_mode !== 'warn';
  // Keys or identities: either set in force means every record (every run) had to be vouched for.
  const ids = report.policy.identities;
  const signers = new Set(report.policy.trusted_signers);
  const vouched = (r: Report['records'][number]): boolean =>
    r.untrusted === null && r.trust_not_asked !== true && (r.trusted_by !== undefined || (r.signer !== null && signers.has(r.signer)));
  if (
    enforced &&
    (signers.size > 0 || (ids?.trusted_signer_identities.length ?? 0) > 0) &&
    report.records.length > 0 &&
    report.records.every(vouched) &&
    report.coverage.every((c) => c.untrusted_code === null)
  )
    levels.push('RECEIPTS_SIGNED_RECORDS');
  if (
    enforced &&
    (report.policy.trusted_producers.length > 0 || (ids?.trusted_producer_identities.length ?? 0) > 0) &&
    report.runs.length > 0 &&
    report.runs.every((r) => r.producer?.checked === true)
  )
    levels.push('RECEIPTS_ATTESTED_RUNS');
  return levels;
}

function vsaPredicate(report: Report, ctx: VsaContext): VsaPredicate {
  return {
    verifier: { id: VERIFIER_ID, version: { 'receipt-gate': ctx.version } },
    // The only member that is not deterministic.
    // The report's verification time: --now reproduces a verdict byte for byte.
    timeVerified: utcSeconds(new Date(report.verified_at)),
    resourceUri: ctx.resourceUri,
    policy: { uri: ctx.policyUri ?? policyFileUri(report) ?? DEFAULT_POLICY_URI, digest: { sha256: policyDigest(report) } },
    inputAttestations: [...ctx.inputs.entries()].sort(([a], [b]) => cmp(a, b)).map(([uri, sha256]) => ({ uri, digest: { sha256 } })),
    verificationResult: report.ok ? 'PASSED' : 'FAILED',
    verifiedLevels: verifiedLevels(report),
  };
}

export function vsaStatement(report: Report, ctx: VsaContext): VsaStatement {
  return {
    _type: STATEMENT_TYPE,
    subject: [{ name: ctx.reportName, digest: { sha256: ctx.reportSha256 } }],
    predicateType: VSA_PREDICATE_TYPE,
    predicate: vsaPredicate(report, ctx),
  };
}

/** The subject's name: the report's path relative to the workspace (its file name when it lies outside). */
export function reportName(workspace: string, reportFile: string): string {
  return inside(workspace, reportFile) ? path.relative(workspace, reportFile).split(path.sep).join('/') : path.basename(reportFile);
}

/** `git+https://github.com/OWNER/REPO@SHA` from the runner's variables, or null when one is missing. */
export function resourceUriFromEnv(env: NodeJS.ProcessEnv): string | null {
  const server = env['GITHUB_SERVER_URL'];
  const repo = env['GITHUB_REPOSITORY'];
  const sha = env['GITHUB_SHA'];
  if (!server || !repo || !sha) return null;
  return `git+${server.replace(/\/+$/, '')}/${repo}@${sha}`;
}
