/**
 * GitHub's limits on what a step may report, in one place: every reporter that talks to GitHub
 * (Checks API, workflow commands, job summary) clips and counts against these.
 */
export const CHECKS_API = {
  /** Annotations per create/update request. */
  annotationsPerRequest: 50,
  /** Annotation title, and check run output title, in characters. */
  title: 255,
  /** Annotation message, in bytes. */
  messageBytes: 64 * 1024,
  /** Check run output summary and text, in characters (bytes here: stricter). */
  summaryBytes: 65_535,
} as const;

/** Workflow commands shown per level before the rest are counted in one notice. */
export const WORKFLOW_COMMANDS_PER_LEVEL = 10;

/** GitHub's job summary limit is 1 MiB per step; keep a margin for the trimmed line. */
export const STEP_SUMMARY_BYTES = 1024 * 1024 - 16 * 1024;
