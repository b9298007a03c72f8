/** The report: the one value every reporter renders. Its JSON form is `schemas/report.schema.json`. */
import type { Finding } from './findings.js';
import type { Level } from './model.js';

export const REPORT_SCHEMA = 'receipt-gate.report.v1';

export interface CallReport {
  readonly artifact: string;
  readonly index: number;
  readonly line: number;
  readonly column: number;
  /** For a call inside an evidence bundle: the member its line and column refer to. */
  readonly member: string | null;
  readonly tool: string | null;
  readonly asserted: boolean;
  readonly claimed_level: Level;
  readonly level: Level;
  readonly subject_digest: string | null;
  readonly record: { readonly file: string; readonly line: number; readonly provider: string; readonly record_id: string } | null;
  /** Why the call earned exactly this level. */
  readonly reason: string;
}

export type RecordOutcome = 'bound' | 'unmatched' | 'inconsistent' | 'duplicate';

export interface RecordReport {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly provider: string;
  readonly record_id: string;
  readonly outcome: RecordOutcome;
  readonly binding_digest: string;
  readonly recomputed_digest: string | null;
  readonly call: { readonly artifact: string; readonly index: number; readonly line: number } | null;
}

export interface Totals {
  readonly artifacts: number;
  readonly calls: number;
  readonly verified: number;
  readonly observed_confirmed: number;
  readonly asserted: number;
  readonly records: number;
  readonly bound: number;
  readonly unmatched: number;
  readonly inconsistent: number;
  readonly duplicate: number;
  readonly errors: number;
  readonly warnings: number;
  readonly notices: number;
}

export interface Report {
  readonly schema: typeof REPORT_SCHEMA;
  readonly ok: boolean;
  readonly calls: readonly CallReport[];
  readonly records: readonly RecordReport[];
  readonly findings: readonly Finding[];
  readonly totals: Totals;
}
