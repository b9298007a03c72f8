/**
 * Shape only: when no producer key is configured, a well-formed `<bundle>.intoto.jsonl` is reported
 * with the signer it names, not checked (the report's producer, `checked: false`). Its shape was
 * checked when it was read (gate/evidence.ts): garbage is never ignored.
 */
import { NONE } from '../../core/trust.js';
import type { TrustChecker } from '../checker.js';

export const shapeOnly: TrustChecker = {
  role: 'runs',
  async check(file) {
    const first = file.dsse.kind === 'envelopes' ? file.dsse.envelopes[0]?.signatures[0] : undefined;
    return { kind: 'run', decision: first ? { kind: 'unchecked', keyId: first.keyid } : NONE };
  },
};
