/**
 * Every limit a reader enforces, in one table: exceeding one is a located invalid_artifact, never
 * a crash. The two a user sets (max-file-size, max-line-size) are options (settings.ts), whose
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
