import type { Binding } from './binding.js';
import type { ClaimReading } from './claims.js';
import type { Finding } from './findings.js';
import type { JsonObject } from './json.js';
import type { Location } from './location.js';
import type { Policy } from './policy.js';
import type { Projection } from './projection.js';
import type { Instant } from './time.js';
import type { TrustCode, Voucher } from './trust.js';

/**
 * The vocabulary of the gate, shared by readers, core and reporters.
 * Values here are plain data: locations travel with them from the reader to the finding.
 */

/** The artifact kinds this gate reads: the one place their names are written. */
export const SURFACE_SCHEMA = 'assay.tool_decision_surface.v0';
export const RECORD_SCHEMA = 'assay.provider_audit_record.v0';
/** What an audit export covered (docs/coverage.md). */
export const COVERAGE_SCHEMA = 'receipt-gate.audit_coverage.v1';

/**
 * One recorded tool decision, reduced by `prepareDecision` (core/decision.ts) to what verification
 * reads, so the parsed object can be dropped as soon as its file is read.
 */
export interface DecisionInput {
  readonly loc: Location;
  /** 0-based position among the run's decisions. */
  readonly index: number;
  readonly tool: string | null;
  readonly claim: ClaimReading;
  readonly projection: Projection;
  /** action.resource_type and action.verb when they are strings (what policy rules select on). */
  readonly actionClass: string | null;
  readonly verb: string | null;
  /** decision.effect is "deny" or "error" (§5: never promoted, never confirms). */
  readonly denied: false | 'deny' | 'error';
  /** action.target.provider: a string, null (absent or null), or invalid (present, neither). */
  readonly provider: string | null | { readonly invalid: true };
  /** response.status is "success" (what a confirming read needs). */
  readonly succeeded: boolean;
  /** What a policy rule's target fields match when the call has no subject: action.target's string members (a table class's bound ones); null when it has one. */
  readonly labels: JsonObject | null;
  /** When it was decided, where the format says (a server log line's timestamp, an evidence event's time); null for a decision surface. */
  readonly time: Instant | null;
  /**
   * When the call's request began, where the format says (a server log's tool_call_start line of
   * its rid; its session's server_start line when no such line precedes the decision); null where
   * the format has no such time (a decision surface, an evidence event). A read begun before a
   * write was decided ran alongside it and confirms nothing of it (§5, core/ladder.ts).
   */
  readonly begun: Instant | null;
  /**
   * Which server session of its run it was decided in: a server log's sessions are numbered 1, 2, …
   * by their server_start lines (a decision before any, or of a format without sessions, is 0). A
   * read of one session never confirms a write of another (§5, core/ladder.ts): the log cannot show
   * that two server processes served one agent run (stderr appended with 2>>: a red team).
   */
  readonly session: number;
}

/**
 * Who produced a run (§10), decided at the trust edge by the checkers (src/trust/checkers/) on the
 * thread that read it: `none` (no attestation, nothing configured), `unchecked` (a well-formed
 * sidecar, no trusted producers to check it against), `attested` (a trusted producer key or identity
 * passed every check) or `unattested` (trusted producers are configured and it did not: the code and
 * the words say why).
 */
export type Attestation =
  | { readonly kind: 'none' }
  | { readonly kind: 'unchecked'; readonly keyId: string; readonly name: string | null; readonly version: string | null }
  | { readonly kind: 'attested'; readonly by: Voucher; readonly name: string | null; readonly version: string | null }
  | { readonly kind: 'unattested'; readonly code: TrustCode; readonly reason: string };

/** One run: a file (surface, NDJSON log, server log or bundle) and its decisions in order. */
export interface RunInput {
  readonly artifact: string;
  readonly decisions: readonly DecisionInput[];
  /** Its producer attestation (absent: none). */
  readonly attestation?: Attestation;
  /** Hex sha256 of the run file's bytes, when it was hashed (a verdict, or a policy that grandfathers runs). */
  readonly sha256?: string;
}

/**
 * Whether a record's signer is trusted (§8), decided at the trust edge where the keys and identities
 * are (src/trust/checkers/): `unchecked` when no trusted signer is configured; `trusted` by a key or
 * an identity; `untrusted` with the code and the words of why.
 */
export type Trust =
  | { readonly kind: 'unchecked' }
  | { readonly kind: 'trusted'; readonly by: Voucher }
  | { readonly kind: 'untrusted'; readonly code: TrustCode; readonly reason: string };

/** One provider audit record, as read from an export (shape and signature shape already validated), with its trust decided. */
export interface RecordInput {
  readonly loc: Location;
  readonly record: AuditRecord;
  /**
   * sha256(JCS(record.subject)), recomputed from the committed bytes by the thread that read them
   * (as a call's subject digest is), or why the subject cannot be canonicalized: what the core
   * compares with `binding_digest` (records.ts).
   */
  readonly recomputed: Binding;
  /** The key_id of its well-formed `signature` member, or null when unsigned. */
  readonly signer: string | null;
  readonly trust: Trust;
}

export interface AuditRecord {
  readonly schema: typeof RECORD_SCHEMA;
  readonly provider: string;
  readonly record_id: string;
  readonly subject: { readonly action_class: string; readonly verb: string; readonly target: JsonObject };
  readonly binding_digest: string;
}

/** What one export covered, as its statement says (docs/coverage.md §1). */
export interface CoverageStatement {
  readonly provider: string;
  /** The import kind that wrote it (github-audit-log, github-webhook, slack-audit-log). */
  readonly export: string;
  /** The agent's identities the export was scoped to (empty: it covers nothing). */
  readonly actors: readonly string[];
  /** owner/name of every repository in scope (null: not scoped by repository). */
  readonly repos: readonly string[] | null;
  /** The organisation in scope (null: none). */
  readonly owner: string | null;
  /** The CLASS:VERB pairs the export maps. */
  readonly actions: readonly string[];
  readonly since: Instant;
  readonly until: Instant;
  readonly entries_read: number;
  readonly records: number;
}

/** A statement as read from an audit export, its trust decided like a record's. */
export interface StatementInput {
  readonly loc: Location;
  readonly statement: CoverageStatement;
  /** The key_id of its well-formed signature, or null when unsigned. */
  readonly signer: string | null;
  readonly trust: Trust;
}

/** Everything the readers produced: the core's only input. */
export interface Evidence {
  readonly runs: readonly RunInput[];
  readonly records: readonly RecordInput[];
  /** What the audit exports covered (docs/coverage.md); absent: none. */
  readonly statements?: readonly StatementInput[];
  /** Problems found while reading (invalid artifacts, skipped objects, no artifacts). */
  readonly findings: readonly Finding[];
  /** The key_ids of the trusted signers the records were checked against (empty: none configured). */
  readonly trustedSigners?: readonly string[];
  /** The key_ids of the trusted producers the runs were checked against (empty: none configured). */
  readonly trustedProducers?: readonly string[];
  /** The trusted workflow identities, when any are configured (docs/keyless.md). */
  readonly identities?: IdentityTrust;
  /** Hex sha256 of every input file, by path as the report names it, when they were hashed (what grandfathered entries are pinned by). */
  readonly fileSha256?: ReadonlyMap<string, string>;
}

/** Who may attest by workflow identity: what a verdict's policy digest must cover too. */
export interface IdentityTrust {
  readonly signers: readonly string[];
  readonly producers: readonly string[];
  readonly sourceRepository: string;
  readonly sourceRefs: readonly string[];
  readonly issuer: string;
  /** Hex sha256 of each trusted root in force (the shipped one, or each of a trusted-root file's), so verdicts under different roots never look alike. */
  readonly roots?: readonly string[];
}

export interface VerifyOptions {
  /** `record_unmatched` becomes a warning. */
  readonly allowUnmatchedRecords: boolean;
  /** `observed_confirmed_not_reproduced` becomes an error. */
  readonly strictObserved: boolean;
  /** Required levels (§7); none: honesty only. */
  readonly policy?: Policy;
  /** The verification time (exceptions' expiry, pending exports); absent: the epoch's start is never used, the caller always gives it. */
  readonly now?: Instant;
  /** warn: trust failures (record_untrusted, run_unattested) are warnings, a rollout (docs/policy.md §9); default enforce. */
  readonly trustMode?: 'enforce' | 'warn';
}
