/** The limits of the bundle reader, derived from the read limits (src/read/limits.ts). */
import { DEFAULT_LIMITS, type ReadLimits } from '../limits.js';

export interface BundleLimits {
  readonly maxCompressedBytes: number;
  readonly maxDecompressedBytes: number;
  /** Decompressed/compressed ratio allowed once past 1 MiB decompressed. */
  readonly maxRatio: number;
  readonly maxManifestBytes: number;
  readonly maxEventsBytes: number;
  readonly maxEvents: number;
  readonly maxLineBytes: number;
  readonly maxPathBytes: number;
  readonly maxMetaBytes: number;
  readonly maxDepth: number;
  /** Decisions in the bundle's run. */
  readonly maxDecisions: number;
}

const MiB = 1024 * 1024;
export const DEFAULT_BUNDLE_LIMITS: BundleLimits = {
  maxCompressedBytes: 100 * MiB,
  maxDecompressedBytes: 1024 * MiB,
  maxRatio: 200,
  maxManifestBytes: 10 * MiB,
  maxEventsBytes: 500 * MiB,
  maxEvents: 100_000,
  maxLineBytes: 1 * MiB,
  maxPathBytes: 256,
  maxMetaBytes: 64 * 1024,
  maxDepth: 64,
  maxDecisions: DEFAULT_LIMITS.maxDecisions,
};

/** The bundle limits under the user's read limits: a bundle's compressed size honours max-file-size. */
export function bundleLimits(read: ReadLimits): BundleLimits {
  return {
    ...DEFAULT_BUNDLE_LIMITS,
    maxCompressedBytes: Math.min(DEFAULT_BUNDLE_LIMITS.maxCompressedBytes, read.maxFileBytes),
    maxDecisions: read.maxDecisions,
  };
}
