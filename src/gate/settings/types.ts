/**
 * The typed settings of a verification, and the one error the settings parsers throw: a mistake in
 * a flag or an input, with a code from a closed set. It is thrown only inside src/gate/settings/ and
 * the entries' parsers, and caught where they return (`usage`), as a `UsageProblem`.
 */

import { type Finding, placeOf } from '../../core/findings.js';
import type { Location } from '../../core/location.js';
import type { Policy } from '../../core/policy.js';
import type { Result } from '../../core/result.js';
import type { Instant } from '../../core/time.js';
import type { ReadLimits } from '../../read/limits.js';
import type { TrustedKeys } from '../../trust/keys.js';
import type { IdentityPolicy } from '../../trust/sigstore.js';

/**
 * What kind of mistake (every one is a usage or configuration error: exit 2, the action's
 * `result=error`): a value that does not parse, a required value missing, two that conflict, a path
 * that does not exist or leaves the workspace, an output that cannot be written, a file a flag names
 * that cannot be used, the policy file in effect invalid (`policy_invalid`, located in the file).
 */
export type UsageCode = 'value' | 'missing' | 'conflict' | 'path' | 'output' | 'file' | 'policy';

/** A mistake in the settings (a flag or an input); the message names the flag or input. */
export class UsageError extends Error {
  constructor(
    readonly code: UsageCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A mistake at a value of the policy file (a trust: section's entry, or the file it names): the
 * `policy` code (`policy_invalid`; no `--help` line), its message located `file:line:column` of
 * that value; `detail`, the words after the place, for a finding made at `at` instead.
 */
export class PolicyMistake extends UsageError {
  constructor(
    readonly at: Location,
    readonly detail: string,
  ) {
    const short = at.commit?.slice(0, 12);
    super(
      'policy',
      `${placeOf(at, true)}: ${detail}${short === undefined || detail.includes(short) ? '' : ` (${at.file} at commit ${short})`}`,
    );
  }
}

/** A mistake on the command line or in the action's inputs: the message names the flag or input. */
export interface UsageProblem {
  readonly code: UsageCode;
  readonly message: string;
  /** The input the problem is about when the message does not name it (a flag or an input of that name). */
  readonly input?: 'require' | 'cache';
}

/** Run a settings parser: its value, or the usage problem it threw. */
export function usage<T>(parse: () => T): Result<T, UsageProblem> {
  try {
    const value = parse();
    return { ok: true, value } as Result<T, UsageProblem>;
  } catch (error) {
    if (error instanceof UsageError) return { ok: false, reason: { code: error.code, message: error.message } };
    throw error;
  }
}

/** What one verification reads and how it judges (the settings both entries build). */
export interface Settings {
  /** Run-artifact inputs: paths, directories or globs relative to `cwd`. */
  readonly runs: readonly string[];
  /** Audit-export inputs. */
  readonly audit: readonly string[];
  /**
   * Whether each set of inputs was given explicitly (not the default): an explicit input that matches
   * nothing is an error (a typo must not pass silently); the defaults may be absent.
   */
  readonly explicit: { readonly runs: boolean; readonly audit: boolean };
  /** Working directory: inputs and report paths are relative to it. */
  readonly cwd: string;
  /** Nothing outside this directory is read. */
  readonly workspace: string;
  /** `record_unmatched` becomes a warning. */
  readonly allowUnmatchedRecords: boolean;
  /** `observed_confirmed_not_reproduced` becomes an error. */
  readonly strictObserved: boolean;
  readonly limits: ReadLimits;
  /** Required levels (§7): the policy file in effect, the require input's rules, or none (honesty only). */
  readonly policy: Policy;
  /** What a pull request does to the policy or to trust material read at the base (null: nothing, or not a pull request). */
  readonly policyReview: PolicyReview | null;
  /** The verification time: exceptions expire and exports fall due against it. */
  readonly now: Instant;
  /** The policy file's trust.mode (docs/policy.md §9): warn makes trust failures warnings (a rollout); enforce otherwise. */
  readonly trustMode: 'enforce' | 'warn';
  /** Trusted signers (§8), each key parsed once; null: none configured (signatures not needed). */
  readonly trustedKeys: TrustedKeys | null;
  /** Trusted producers (§10), each key parsed once; null: none configured (runs need no attestation). */
  readonly trustedProducers: TrustedKeys | null;
  /** Trusted workflow identities (docs/keyless.md); null: none configured (the Sigstore layer is not loaded). */
  readonly keyless: KeylessSettings | null;
  /** Threads that read the input files (1: the main thread alone); null: the machine's cores, when the input is large enough to pay (gate/readers.ts). */
  readonly jobs: number | null;
  /** The evidence cache (gate/cache.ts), or null: every file is read and nothing is stored. */
  readonly cache: CacheSettings | null;
  /** The files the entry will write (the report, SARIF, a verdict), by the flag or input naming them, absolute: an input among them is refused before anything is read. */
  readonly writes: readonly (readonly [string, string])[];
}

/** Where the evidence cache is kept, whether its entries are read (a verdict writes and never reads), and the build its keys hold (gate/cache.ts `buildOf(version).key`, computed once by the entry). */
export interface CacheSettings {
  readonly dir: string;
  readonly read: boolean;
  readonly build: string;
  /**
   * The report can take lists kept as bytes (a JSON report written to a file, nothing else written):
   * a verification snapshot is kept beside the entries and merged onto (gate/incremental.ts).
   */
  readonly incremental?: boolean;
}

/** The keyless settings: the identities of each trust set (null: none), and the trusted root file (null: the shipped public-good root). */
export interface KeylessSettings {
  readonly signers: IdentityPolicy | null;
  readonly producers: IdentityPolicy | null;
  /**
   * The trusted roots' text and where it was read (null: the public-good root shipped with
   * receipt-gate); `at`: where the policy file names it (a root that does not load is a located policy mistake there).
   */
  readonly trustedRoot: { readonly name: string; readonly text: string; readonly at?: Location } | null;
}

/** What a pull request does to the policy: findings about its own file, and its policy when it differs (its effect is shown). */
export interface PolicyReview {
  readonly findings: readonly Finding[];
  /** The head's valid policy when it differs from the one in effect: the gate shows the calls whose verdict it would change. */
  readonly head: Policy | null;
  /** The pull request deletes the policy file at this path: after merge the inputs apply (the settings builder makes that head). */
  readonly deleted?: string;
  /** The trusted root the policy's trust: section names as the pull request leaves it, checked where roots are loaded (its failure: policy_invalid at `at`). */
  readonly headRoot?: { readonly name: string; readonly text: string; readonly at: Location } | null;
  /**
   * The base's own policy when entries the pull request adds apply now (break-glass, docs/policy.md
   * §10): the side its change is measured from, so an exception that excuses a failing call is a
   * loosening a reviewer approves, never "no call changes verdict" (a red team).
   */
  readonly before?: Policy;
}
