/**
 * When the Sigstore root shipped with receipt-gate was taken (the pinned @sigstore/tuf release,
 * scripts/gen-trusted-root.mjs) and how old it may grow before the gate warns (docs/keyless.md).
 * Apart from trust/sigstore.ts, so that knowing the date does not load the Sigstore code.
 */
import { PUBLIC_GOOD_ROOT } from './public-good-root.generated.js';

export const SHIPPED_ROOT_TAKEN: string = PUBLIC_GOOD_ROOT.origin.taken;
export const SHIPPED_ROOT_MAX_AGE_DAYS = 180;
