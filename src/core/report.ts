/** The report: the one value every reporter renders. Its JSON form is `schemas/report.schema.json`. */
import type { Finding } from './findings.js';
import type { JsonObject } from './json.js';
import type { CoverageStatement } from './model.js';
import type { PolicySource } from './policy.js';
import type { Severity } from './severity.js';
import type { TrustCode } from './trust.js';
import type { Level, RecordOutcome } from './vocabulary.js';

export const REPORT_SCHEMA = 'receipt-gate.report.v1';

/** A call as the JSON report lists it (schemas/report.schema.json `calls[]`). */
export interface CallJson {
  readonly artifact: string;
  readonly index: number;
  readonly line: number;
  readonly column: number;
  /** For a call inside an evidence bundle: the member its line and column refer to. */
  readonly member: string | null;
  readonly tool: string | null;
  readonly asserted: boolean;
  /** null: the call asserts no side effect (no rung). */
  readonly claimed_level: Level | null;
  /** What the committed evidence earns; null: no rung. */
  readonly level: Level | null;
  /** What the policy requires of this call, or null. */
  readonly required_level: Level | null;
  readonly subject_digest: string | null;
  readonly record: { readonly file: string; readonly line: number; readonly provider: string; readonly record_id: string } | null;
  /** Why the call earned exactly this level. */
  readonly reason: string;
  /** The policy rule that applies (its name; a `require` rule: its selector), or null (none, or the default). */
  readonly rule: string | null;
  /** How a shortfall is judged: enforce (an error) or warn (a warning); null: nothing is required. */
  readonly mode: 'enforce' | 'warn' | null;
  /** The exception that excuses its shortfall (`path:line` in the policy file), or null. */
  readonly excepted: string | null;
  /** Its run is grandfathered: judged for honesty only. */
  readonly grandfathered: boolean;
  /** When it was decided (RFC 3339 UTC), where its format says; null for a decision surface. */
  readonly time: string | null;
  /** What the exports' coverage statements say about it (docs/coverage.md), or null (nothing). */
  readonly coverage: {
    readonly status: 'covered' | 'pending';
    /** The statement that covers it; for pending, the latest statement of its scope (null: none). */
    readonly statement: { readonly file: string; readonly line: number } | null;
  } | null;
}

/** A coverage statement as the report lists it (`coverage[]`). */
/** A statement as the report gives it: what it covers as the statement says, its window as RFC 3339 text. */
export interface CoverageReport extends Pick<CoverageStatement, 'provider' | 'export' | 'actors' | 'repos' | 'owner' | 'actions'> {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly since: string;
  readonly until: string;
  /** Whether it counts: false for an untrusted statement, and for a second copy of one (`same_as` names the first). */
  readonly usable: boolean;
  readonly untrusted_code: TrustCode | null;
  readonly same_as?: { readonly file: string; readonly line: number };
}

/** A stretch no usable statement of a scope covers, between two that do (`coverage_gaps[]`). */
export interface GapReport {
  readonly provider: string;
  readonly scope: string;
  readonly actions: readonly string[];
  readonly from: string;
  readonly to: string;
}

/** A call as the reporters see it: its JSON form, its own findings and whether it falls short. */
export interface CallReport extends CallJson {
  /** The findings about this call, in report order (the JSON form lists every finding once, in `findings`). */
  readonly findings: readonly Finding[];
  /** It falls short of its requirement under an enforced rule (not excused). */
  readonly below_required: boolean;
  /** It falls short under a rule of mode warn (not excused). */
  readonly warned: boolean;
  /** Its export is not due yet: its requirement waits (docs/coverage.md). */
  readonly pending: boolean;
  /** Covered by an export that holds no record of it (docs/coverage.md §3): an honesty failure. */
  readonly effect_not_logged: boolean;
  /** A shortfall that is excused (an exception) or grandfathered: reported suppressed (SARIF), never counted open. */
  readonly suppressed: { readonly message: string; readonly severity: Severity; readonly justification: string } | null;
}

export interface RecordReport {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly provider: string;
  readonly record_id: string;
  readonly outcome: RecordOutcome;
  readonly binding_digest: string;
  readonly recomputed_digest: string | null;
  /** The key_id of the record's signature, or null when unsigned. */
  readonly signer: string | null;
  /** For an untrusted record: why (unsigned, unknown signer …, payload digest differs, signature does not verify). */
  readonly untrusted: string | null;
  /** For an untrusted record: the code of why (core/trust.ts TRUST_CODES). */
  readonly untrusted_code: TrustCode | null;
  readonly call: { readonly artifact: string; readonly index: number; readonly line: number } | null;
  /** What trusted a record whose file a trusted signer identity attested (present only then). */
  readonly trusted_by?: WorkflowTrust;
  /** A grandfathered audit file's record whose trust was not asked (docs/policy.md §9): present (true) only then. */
  readonly trust_not_asked?: true;
  /** One audit entry exported twice is one record (§3.2): the other places it was found (present only when there are any). */
  readonly also_at?: readonly { readonly file: string; readonly line: number; readonly column: number }[];
}

/** A workflow identity that vouched for a file, as the report names it (docs/keyless.md). */
export interface WorkflowTrust {
  readonly identity: string;
  readonly source_repository: string;
  readonly source_ref: string;
  readonly issuer: string;
  readonly signed_at: string;
}

/** One run: how many calls, the weakest level earned by a call that asserts a side effect, and its producer. */
export interface RunReport {
  readonly artifact: string;
  readonly calls: number;
  readonly weakest_level: Level | null;
  /** The producer attestation's signer (checked against a trusted producer key, or not), or null. */
  readonly producer: {
    /** The trusted producer key's id; null when a trusted producer identity attested the run instead. */
    readonly key_id: string | null;
    readonly name: string | null;
    readonly version: string | null;
    readonly checked: boolean;
    /** The workflow identity that attested the run (present only for a keyless attestation). */
    readonly identity?: WorkflowTrust;
  } | null;
  /** A run that trusted producers did not attest: the code of why (core/trust.ts TRUST_CODES); null otherwise. */
  readonly unattested_code: TrustCode | null;
}

/**
 * The counts, tallied from the vocabularies (vocabulary.ts): calls per level (highest first), then
 * per record outcome, then findings per severity; the JSON form keeps this member order.
 */
export type Totals = {
  readonly artifacts: number;
  readonly calls: number;
} & { readonly [L in Level]: number } & {
  /** Calls that assert no side effect (no rung). */
  readonly no_effect: number;
  /** The weakest level earned across every call that asserts a side effect; null when none does. */
  readonly weakest_level: Level | null;
  /** Calls below their required level, under an enforced rule (excused ones aside). */
  readonly policy_unmet: number;
  /** Calls below their required level under a rule of mode warn. */
  readonly policy_warned: number;
  /** Calls whose shortfall an exception excuses. */
  readonly excepted: number;
  /** Calls of grandfathered runs. */
  readonly grandfathered: number;
  /** Calls whose export is not due yet. */
  readonly pending: number;
  /** Calls an export covered that it holds no record of. */
  readonly effect_not_logged: number;
  readonly records: number;
} & { readonly [O in RecordOutcome]: number } & {
  readonly errors: number;
  readonly warnings: number;
  readonly notices: number;
};

interface ReportPolicy {
  /** Where the policy file in effect was read from (absent: none; the `require` input's rules or honesty only). */
  readonly source?: PolicySource;
  readonly rules: readonly JsonObject[];
  /** A policy file's default level, pending (seconds), and how many exceptions and grandfathered entries it holds. */
  readonly default?: Level | null;
  readonly pending?: number;
  readonly exceptions?: number;
  readonly grandfathered?: number;
  readonly trusted_signers: readonly string[];
  readonly trusted_producers: readonly string[];
  readonly allow_unmatched_records: boolean;
  readonly strict_observed: boolean;
  /** The policy file's `trust.mode: warn` (a rollout: trust failures are warnings); absent: enforce. */
  readonly trust_mode?: 'warn';
  /** The trusted workflow identities and what their certificates must name (present only when configured). */
  readonly identities?: {
    readonly trusted_signer_identities: readonly string[];
    readonly trusted_producer_identities: readonly string[];
    readonly source_repository: string;
    readonly source_refs: readonly string[];
    readonly certificate_oidc_issuer: string;
    readonly trusted_roots?: readonly string[];
  };
}

/** Calls that change status between two policies (core/effect.ts), grouped by rule and change. */
export interface PolicyChange {
  readonly rule: string;
  /** met, unmet, warned, pending, excepted, grandfathered or not ruled. */
  readonly from: string;
  readonly to: string;
  readonly calls: number;
}

export interface Report {
  readonly schema: typeof REPORT_SCHEMA;
  readonly ok: boolean;
  /** The verification time (RFC 3339 UTC): exceptions expire and exports fall due against it. */
  readonly verified_at: string;
  /**
   * Everything besides the inputs that decides the verdict: the required-level rules (empty:
   * honesty only), the trusted signers' and producers' key ids, and the options that change
   * severities. A verdict attestation's policy digest is sha256(JCS(this object)).
   */
  readonly policy: ReportPolicy;
  readonly runs: readonly RunReport[];
  readonly calls: readonly CallReport[];
  readonly records: readonly RecordReport[];
  /** The audit exports' coverage statements (docs/coverage.md), in file order. */
  readonly coverage: readonly CoverageReport[];
  /** Stretches of time a scope's statements leave uncovered between them. */
  readonly coverage_gaps: readonly GapReport[];
  readonly findings: readonly Finding[];
  readonly totals: Totals;
  /** On a pull request that changes the policy: the head's policy and the calls whose verdict it would change. */
  readonly policy_change?: {
    readonly path: string;
    readonly sha256: string;
    readonly changes: readonly PolicyChange[];
  };
}
