/** Why a check refused: a code from the one table of trust codes (core/trust.ts), and the words. */
import type { TrustCode } from '../core/trust.js';

export interface Refusal {
  readonly code: TrustCode;
  readonly detail: string;
}

export const refuse = (code: TrustCode, detail: string): { readonly ok: false; readonly reason: Refusal } => ({
  ok: false,
  reason: { code, detail },
});
