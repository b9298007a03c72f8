/**
 * The one settings builder. The CLI's flags and the action's inputs are two sources of one typed
 * record (`GateInputs`); this turns it into the verification's `Settings`: every default taken from
 * the one table, every value checked with one message naming the flag or input as its entry calls
 * it, and the rule that an empty list never turns trust off (semantics §12) stated once.
 */
import path from 'node:path';
import { DEFAULTS } from './defaults.js';
import { type KeylessInputs, parseBool, parseJobs, parseList, readKeyless, readLimits, readPolicy, readTrustedKeys } from './parsers.js';
import { requireExistingPaths } from './paths.js';
import { type Settings, UsageError } from './types.js';

/** A PEM text and where it came from (a key file a flag names, or an input), for the message when it does not parse. */
interface PemSource {
  readonly name: string;
  readonly pem: string;
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
  readonly identities: Omit<KeylessInputs, 'trustedRoot'> & { readonly trustedRoot: string | null };
}

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

/** The verification's settings from what either entry was given; a mistake throws a UsageError naming it. */
export function buildSettings(g: GateInputs): Settings {
  const n = g.names;
  const runs = listOr(g.runs, DEFAULTS.runs);
  const audit = listOr(g.audit, DEFAULTS.audit);
  const explicit = { runs: g.runs !== null && g.runs.length > 0, audit: g.audit !== null && g.audit.length > 0 };
  if (explicit.runs) requireExistingPaths(runs, g.cwd, n.runs);
  if (explicit.audit) requireExistingPaths(audit, g.cwd, n.audit);
  const keyless = readKeyless(
    { ...g.identities, trustedRoot: g.identities.trustedRoot === null ? null : path.resolve(g.cwd, g.identities.trustedRoot) },
    {
      signerIdentities: n.signerIdentities,
      producerIdentities: n.producerIdentities,
      sourceRepository: n.sourceRepository,
      sourceRefs: n.sourceRefs,
      issuer: n.issuer,
    },
  );
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
    policy: readPolicy(n.require, g.require.flatMap(parseList)),
    trustedKeys,
    trustedProducers,
    keyless,
  };
}
