/** An audit export's entries as a reader hands them to the trust edge: still carrying what their trust check needs. */
import type { RecordInput, StatementInput } from '../core/model.js';
import type { SignatureMember } from './signature.js';

/** What the trust check of a signed entry needs (records and coverage statements are signed alike). */
interface Signed {
  /** The well-formed signature member, kept only until its trust is checked. */
  readonly signature?: SignatureMember;
  /** P: the canonical text of the entry without its signature; kept for signed entries until their trust is checked, and when a reader is asked (signing). */
  readonly payload?: string;
}

export interface RecordRead extends Omit<RecordInput, 'trust'>, Signed {
  readonly kind: 'record';
}

/** A coverage statement (docs/coverage.md) among the records of an export. */
interface StatementRead extends Omit<StatementInput, 'trust'>, Signed {
  readonly kind: 'statement';
}

/** One entry of an audit export: a record, or what the export covered. */
export type AuditEntryRead = RecordRead | StatementRead;
