/**
 * Every limit a reader enforces, in one place (the read limits, the bundle reader's, the walk's): exceeding one is a located invalid_artifact, never
 * a crash. The two a user sets (max-file-size, max-line-size) are options (gate/settings/), whose
 * defaults are these numbers written as sizes (a test keeps them equal).
 */
export interface ReadLimits {
  /** Largest artifact file read, in bytes (for an evidence bundle: its compressed size; for a gzipped export: what it decompresses to). */
  readonly maxFileBytes: number;
  /** Largest NDJSON line, in bytes (UTF-8), everywhere a file is read line by line. */
  readonly maxLineBytes: number;
  /** Deepest JSON nesting. */
  readonly maxDepth: number;
  /** Most members in one JSON object. */
  readonly maxKeys: number;
  /** Findings reported per file before the rest are counted in one line. */
  readonly maxFindingsPerFile: number;
  /** Decisions in one run (a file or a bundle): what bounds the memory one run can take. */
  readonly maxDecisions: number;
}

export const DEFAULT_LIMITS: ReadLimits = {
  maxFileBytes: 64 * 1024 ** 2,
  maxLineBytes: 8 * 1024 ** 2,
  maxDepth: 64,
  maxKeys: 10_000,
  maxFindingsPerFile: 20,
  maxDecisions: 100_000,
};

/** The messages a broken limit gives, the same wherever it is checked. */
export const fileTooLarge = (size: number, limits: ReadLimits): string =>
  `file is ${size} bytes, over the ${limits.maxFileBytes}-byte limit (max-file-size)`;
export const lineTooLong = (limits: ReadLimits): string => `line is over the ${limits.maxLineBytes}-byte limit (max-line-size)`;

/** Largest key file (PEM text) read from a flag or an action input: a few keys are a few KiB. */
export const MAX_KEY_TEXT_BYTES = 64 * 1024;

/** Most signatures one DSSE envelope may carry (each is checked against every trusted key). */
export const MAX_SIGNATURES = 16;

/** Most directory entries one discovery walks before it stops (narrow the inputs). */
export const MAX_WALK_ENTRIES = 500_000;

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
