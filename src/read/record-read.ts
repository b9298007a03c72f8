/** An audit record as a reader hands it to the trust edge: still carrying what its trust check needs. */
import type { RecordInput } from '../core/model.js';
import type { SignatureMember } from './signature.js';

export interface RecordRead extends Omit<RecordInput, 'trust'> {
  /** The well-formed signature member, kept only until its trust is checked. */
  readonly signature?: SignatureMember;
  /** P: the canonical text of the record without its signature; kept for signed records until their trust is checked, and when a reader is asked (signing). */
  readonly payload?: string;
}
