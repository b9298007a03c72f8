/**
 * What reading one input file yields, whatever its kind (a leaf: the file readers and the bundle
 * reader both return it; the gate merges them).
 */

import { type Finding, finding } from '../core/findings.js';
import type { Location } from '../core/location.js';
import type { RecordInput, RunInput, StatementInput } from '../core/model.js';
import type { AuditEntryRead } from './record-read.js';

export interface FileRead {
  /** The run this file is, or null (not a run, or rejected). */
  readonly run: RunInput | null;
  /** An audit export's records and coverage statements, in file order. */
  readonly entries: readonly AuditEntryRead[];
  readonly findings: readonly Finding[];
  /** Hex sha256 of the file's bytes, when the reader was asked (a verdict attestation lists every input). */
  readonly sha256?: string;
  /** For a verified evidence bundle: what its producer attestation must match. */
  readonly bundle?: BundleFacts;
  /** Objects of the other role's kind it held (audit records among the runs, runs among the exports): what tells swapped inputs. */
  readonly strays?: number;
  /** For a rejected run: the classes of its decisions (a rule naming one is told the class is only in this invalid file). */
  readonly rejectedClasses?: readonly string[];
}

/**
 * What one file contributes once its trust is decided (gate/evidence.ts): core input only. This is
 * what crosses from a reading thread to the gate (read/wire.ts).
 */
export interface FileEvidence {
  /** Its run, its attestation decided (null: not a run, or rejected). */
  readonly run: RunInput | null;
  /** Its records, each one's trust decided. */
  readonly records: readonly RecordInput[];
  /** Its coverage statements (docs/coverage.md), each one's trust decided like a record's. */
  readonly statements: readonly StatementInput[];
  readonly findings: readonly Finding[];
  /** Hex sha256 of the file and of each attestation read beside it, when hashed: [rel, digest]. */
  readonly digests: readonly (readonly [string, string])[];
  /** Objects of the other role's kind it held (FileRead.strays). */
  readonly strays?: number;
  /** For a rejected run: its decisions' classes (FileRead.rejectedClasses). */
  readonly rejectedClasses?: readonly string[];
}

/** What a verified bundle says about itself: what its producer attestation must match (docs/attestations.md §1). */
export interface BundleFacts {
  /** Hex sha256 of the exact archive bytes (gzip trailer included). */
  readonly archiveSha256: string;
  readonly bundleId: string;
  readonly runId: string;
  readonly eventCount: number;
  readonly runRoot: string;
  /** The manifest's producer.name / .version / .git when they are strings. */
  readonly producer: { readonly name: string | null; readonly version: string | null; readonly git: string | null };
  /** The earliest and latest event time, in UTC (chrono's AutoSi form, as upstream writes them). */
  readonly window: { readonly start: string; readonly end: string } | null;
}

/** One notice for the objects of other kinds a file holds, counted by kind (at most 20 kinds named). */
export function skippedFinding(at: Location, skipped: ReadonlyMap<string, number>): Finding {
  const total = [...skipped.values()].reduce((a, b) => a + b, 0);
  const all = [...skipped.entries()].sort();
  const kinds =
    all
      .slice(0, 20)
      .map(([k, n]) => `${k} ×${n}`)
      .join(', ') + (all.length > 20 ? `, and ${all.length - 20} more kind(s)` : '');
  return finding('skipped_object', at, `skipped ${total} object(s) of other kinds: ${kinds}`);
}
