/**
 * The gate's vocabularies, one table each: the rungs of the ladder and the outcomes of an audit
 * record. Everything that names a level or an outcome (the core's tallies, the explanations, every
 * reporter) reads it here; adding a level or an outcome is one row here plus the code that decides it.
 * Severities are the third table: their order and every reporter's word for each. The fourth
 * vocabulary, finding codes, is the catalogue in findings.ts.
 */
import type { FindingCode } from './findings.js';

/** How bad a finding is: the order is the rank (most severe first). */
export const SEVERITIES = ['error', 'warning', 'notice'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface SeverityEntry {
  /** 0 for the most severe. */
  readonly rank: number;
  /** Its count's name in the report's totals. */
  readonly total: 'errors' | 'warnings' | 'notices';
  /** The Checks API's annotation_level. */
  readonly annotation: 'failure' | 'warning' | 'notice';
  /** SARIF's result level. */
  readonly sarif: 'error' | 'warning' | 'note';
  /** How the job summary shows it, and how the terminal table paints it. */
  readonly icon: string;
  readonly colour: 'red' | 'yellow' | 'dim';
}

export const SEVERITY_TABLE: { readonly [S in Severity]: SeverityEntry } = {
  error: { rank: 0, total: 'errors', annotation: 'failure', sarif: 'error', icon: '❌', colour: 'red' },
  warning: { rank: 1, total: 'warnings', annotation: 'warning', sarif: 'warning', icon: '⚠️', colour: 'yellow' },
  notice: { rank: 2, total: 'notices', annotation: 'notice', sarif: 'note', icon: 'ℹ️', colour: 'dim' },
};

export type AnnotationLevel = SeverityEntry['annotation'];

/** The rank of an annotation level: the rank of the severity it stands for. */
export const annotationRank = (level: AnnotationLevel): number => SEVERITIES.findIndex((s) => SEVERITY_TABLE[s].annotation === level);

/** The rungs, lowest first: the order is the rank. */
export const LEVELS = ['asserted', 'observed_confirmed', 'verified'] as const;
export type Level = (typeof LEVELS)[number];

export interface LevelEntry {
  /** 0 for the lowest rung. */
  readonly rank: number;
  /** How the job summary shows it. */
  readonly icon: string;
  /** How the terminal table paints it. */
  readonly colour: 'green' | 'cyan' | 'yellow';
}

export const LEVEL_TABLE: { readonly [L in Level]: LevelEntry } = {
  asserted: { rank: 0, icon: '⚪', colour: 'yellow' },
  observed_confirmed: { rank: 1, icon: '🔵', colour: 'cyan' },
  verified: { rank: 2, icon: '🟢', colour: 'green' },
};

export const levelRank = (l: Level): number => LEVEL_TABLE[l].rank;

/** Highest rung first, the order every tally and every reporter lists them in. */
export const LEVELS_DESCENDING: readonly Level[] = [...LEVELS].sort((a, b) => levelRank(b) - levelRank(a));

export const isLevel = (s: string): s is Level => (LEVELS as readonly string[]).includes(s);

/** `a` ranks below `b`. */
export const below = (a: Level, b: Level): boolean => levelRank(a) < levelRank(b);

/** What can become of an audit record. */
export type RecordOutcome = 'bound' | 'unmatched' | 'inconsistent' | 'untrusted' | 'imported_twice' | 'duplicate';

export interface RecordOutcomeEntry {
  /** The finding a record with this outcome gets (null: none, it binds a call). */
  readonly finding: FindingCode | null;
  /** The record is unusable before allocation: a call with its binding is told why it did not serve. */
  readonly unusable: boolean;
  /** How a reason names a record of this outcome that a call's subject matched ("… is a duplicate"). */
  readonly snag: string;
  /** How a reason counts the rest of them ("and 3 more record(s) …, all <more>"). */
  readonly more: string;
}

/** In the order the totals and the reporters list them. */
export const RECORD_OUTCOMES: { readonly [O in RecordOutcome]: RecordOutcomeEntry } = {
  bound: { finding: null, unusable: false, snag: 'already verifies another call', more: 'already verify other calls' },
  unmatched: { finding: 'record_unmatched', unusable: false, snag: 'binds no call', more: 'unmatched' },
  inconsistent: { finding: 'record_inconsistent', unusable: true, snag: 'declares this binding but is inconsistent', more: 'inconsistent' },
  untrusted: { finding: 'record_untrusted', unusable: true, snag: 'is not from a trusted signer', more: 'not from a trusted signer' },
  imported_twice: {
    finding: 'imported_twice',
    unusable: true,
    snag: 'is a second copy of one audit entry (counted once)',
    more: 'second copies',
  },
  duplicate: {
    finding: 'duplicate_record',
    unusable: true,
    snag: 'shares its identity with a record of another meaning',
    more: 'duplicates',
  },
};

export const RECORD_OUTCOME_NAMES = Object.keys(RECORD_OUTCOMES) as readonly RecordOutcome[];
