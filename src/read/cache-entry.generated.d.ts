// Types of the validator scripts/gen-validators.mjs generates (ajv standalone) for a cache entry's body.
import type { GeneratedValidator } from './validators.generated.js';

/** A cache entry's body (schemas/evidence-cache-entry.schema.json); loaded only when a cache is read (gate/cache.ts). */
export declare const cacheEntry: GeneratedValidator;

/** A verification snapshot's header line (schemas/verification-snapshot.schema.json); loaded with the entries' (gate/snapshot.ts). */
export declare const snapshot: GeneratedValidator;
