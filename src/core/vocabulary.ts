/**
 * The gate's vocabularies, one table each: the rungs of the ladder and the outcomes of an audit
 * record. Everything that names a level or an outcome (the core's tallies, the explanations, every
 * reporter) reads it here; adding a level or an outcome is one row here plus the code that decides it.
 * The third vocabulary, severities, is severity.ts (a leaf: the findings catalogue reads it too);
 * the fourth, finding codes, is the catalogue in findings.ts.
 */
import type { FindingCode } from './findings.js';

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
export type RecordOutcome = 'bound' | 'unmatched' | 'awaiting_run' | 'inconsistent' | 'untrusted' | 'imported_twice' | 'duplicate';

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
  /** Binds no call yet, and its export is younger than the policy's pending: its run may still arrive (docs/policy.md §12). */
  awaiting_run: {
    finding: 'record_pending',
    unusable: false,
    snag: 'binds no call yet (its run may still arrive)',
    more: 'awaiting their run',
  },
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
