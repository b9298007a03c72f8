/**
 * Trust is a list of checkers behind one interface. Each checker is one mechanism (record keys,
 * producer keys, signer identities, producer identities, and "shape only" when nothing is
 * configured to check an attestation); it judges the files of one role and returns a typed decision
 * (core/trust.ts) for a run, or one per record of an audit export. `core/trust.ts` `combine` makes
 * one decision of them. The checkers run on the thread that read the file (gate/evidence.ts), with
 * the file's sidecars read once beside it; signatures and payloads never leave that thread.
 */
import type { TrustDecision } from '../core/trust.js';
import type { Envelope } from '../read/envelope.js';
import type { FileRead } from '../read/file-read.js';
import type { Role } from '../read/files.js';
import type { SigstoreFile } from './sigstore.js';

/** A bundle's `<bundle>.intoto.jsonl` as read beside it: none, unusable (its findings are reported), empty, or its envelopes. */
export type DsseSidecar =
  | { readonly kind: 'none' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'empty' }
  | { readonly kind: 'envelopes'; readonly envelopes: readonly Envelope[] };

/** A file's `<file>.sigstore.json` as read beside it: none, unreadable (refused: its finding is reported), or read (its shape checked). */
export type SigstoreSidecar =
  | { readonly kind: 'none' }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'read'; readonly file: SigstoreFile };

/** One input file as the checkers see it: what reading it gave, and what lies beside it. */
export interface FileUnderCheck {
  readonly path: string;
  /** As every report names it. */
  readonly rel: string;
  readonly role: Role;
  /** Its records (with their signatures and payloads), its run, a verified bundle's facts, its sha256. */
  readonly read: FileRead;
  readonly dsse: DsseSidecar;
  readonly sigstore: SigstoreSidecar;
}

/** A run's decision, or one decision per entry of an audit export (in the order of `read.entries`). */
export type CheckerDecision =
  | { readonly kind: 'run'; readonly decision: TrustDecision }
  | { readonly kind: 'records'; readonly decisions: readonly TrustDecision[] }
  /** One decision for every record of the file (a bundle attests the whole file). */
  | { readonly kind: 'file'; readonly decision: TrustDecision };

export interface TrustChecker {
  /** Whose files it judges. */
  readonly role: Role;
  /** Its decision about one file of its role (never throws: a failure is a refusal with its code). */
  check(file: FileUnderCheck): Promise<CheckerDecision>;
}
