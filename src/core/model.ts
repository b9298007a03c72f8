import type { ClaimReading } from './claims.js';
import type { Projection } from './projection.js';

/**
 * The vocabulary of the gate, shared by readers, core and reporters.
 * Values here are plain data: locations travel with them from the reader to the finding.
 */

export type Level = 'asserted' | 'observed_confirmed' | 'verified';
export const LEVELS: readonly Level[] = ['asserted', 'observed_confirmed', 'verified'];
export const levelRank = (l: Level): number => LEVELS.indexOf(l);

export type Severity = 'error' | 'warning' | 'notice';

export type FindingCode =
  | 'invalid_artifact'
  | 'record_inconsistent'
  | 'duplicate_record'
  | 'record_unmatched'
  | 'verified_not_reproduced'
  | 'observed_confirmed_not_reproduced'
  | 'inconsistent_claim'
  | 'no_artifacts'
  // notices (never fail the gate)
  | 'skipped_object'
  | 'under_claimed'
  | 'no_decisions'
  | 'no_records'
  | 'no_match';

/** A place in a committed file. Lines and columns are 1-based. */
export interface Location {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** For a location inside an archive (an evidence bundle): the member that line and column refer to. */
  readonly member?: string;
}

export interface Finding extends Location {
  readonly severity: Severity;
  readonly code: FindingCode;
  readonly message: string;
  /** About an input as given (a path or glob, in `file`), not a place in a committed file. */
  readonly input?: true;
}

/** A JSON object as produced by JSON.parse (never copied, never spread). */
export type JsonObject = { readonly [key: string]: unknown };

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
  /** decision.effect is "deny". */
  readonly denied: boolean;
  /** action.target.provider: a string, null (absent or null), or invalid (present, neither). */
  readonly provider: string | null | { readonly invalid: true };
  /** response.status is "success" (what a confirming read needs). */
  readonly succeeded: boolean;
}

/** One run: a file (surface, NDJSON log or bundle) and its decisions in order. */
export interface RunInput {
  readonly artifact: string;
  readonly decisions: readonly DecisionInput[];
}

/** One provider audit record, as read from an export (shape already validated). */
export interface RecordInput {
  readonly loc: Location;
  readonly record: AuditRecord;
}

export interface AuditRecord {
  readonly schema: 'assay.provider_audit_record.v0';
  readonly provider: string;
  readonly record_id: string;
  readonly subject: { readonly action_class: string; readonly verb: string; readonly target: JsonObject };
  readonly binding_digest: string;
}

/** Everything the readers produced: the core's only input. */
export interface Evidence {
  readonly runs: readonly RunInput[];
  readonly records: readonly RecordInput[];
  /** Problems found while reading (invalid artifacts, skipped objects, no artifacts). */
  readonly findings: readonly Finding[];
}

export interface VerifyOptions {
  /** `record_unmatched` becomes a warning. */
  readonly allowUnmatchedRecords: boolean;
  /** `observed_confirmed_not_reproduced` becomes an error. */
  readonly strictObserved: boolean;
}
