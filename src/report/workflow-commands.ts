/**
 * Annotations as workflow commands (fork PRs, read-only tokens, `annotations: workflow-commands`,
 * or whatever the Checks API did not take). GitHub shows at most WORKFLOW_COMMANDS_PER_LEVEL error,
 * warning and notice annotations per step, counting the step's own lines (the failure message is
 * an error, a fallback warning is a warning): the caller reserves those, the most severe are
 * written first, and one notice (kept room for) says how many more the summary and report hold.
 */

import type { AnnotationProperties } from '@actions/core';
import { type AnnotationLevel, annotationRank } from '../core/severity.js';
import type { Annotation } from './annotations.js';
import { WORKFLOW_COMMANDS_PER_LEVEL } from './github-limits.js';

/** @actions/core's error, warning and notice (escaping is theirs). */
export interface CommandSink {
  error(message: string, props?: AnnotationProperties): void;
  warning(message: string, props?: AnnotationProperties): void;
  notice(message: string, props?: AnnotationProperties): void;
}

/** Lines of each level the step writes besides the annotations (its failure message, its own warnings). */
export interface Reserved {
  readonly failure: number;
  readonly warning: number;
}

/** @returns how many annotations were left out */
export function emitWorkflowCommands(
  annotations: readonly Annotation[],
  sink: CommandSink,
  reserved: Reserved = { failure: 0, warning: 0 },
): number {
  // The notice budget keeps one line for the count of what was left out.
  const room: Record<AnnotationLevel, number> = {
    failure: Math.max(0, WORKFLOW_COMMANDS_PER_LEVEL - reserved.failure),
    warning: Math.max(0, WORKFLOW_COMMANDS_PER_LEVEL - reserved.warning),
    notice: WORKFLOW_COMMANDS_PER_LEVEL - 1,
  };
  const shown: Record<AnnotationLevel, number> = { failure: 0, warning: 0, notice: 0 };
  let hidden = 0;
  const ordered = [...annotations].sort((a, b) => annotationRank(a.level) - annotationRank(b.level));
  for (const a of ordered) {
    if (shown[a.level] >= room[a.level]) {
      hidden++;
      continue;
    }
    shown[a.level]++;
    const props: AnnotationProperties =
      a.path === null
        ? { title: a.title }
        : { title: a.title, file: a.path, startLine: a.line, ...(a.column !== null ? { startColumn: a.column } : {}) };
    if (a.level === 'failure') sink.error(a.message, props);
    else if (a.level === 'warning') sink.warning(a.message, props);
    else sink.notice(a.message, props);
  }
  if (hidden > 0) {
    sink.notice(
      `${hidden} more annotation(s) not shown: GitHub shows at most ${WORKFLOW_COMMANDS_PER_LEVEL} error, ${WORKFLOW_COMMANDS_PER_LEVEL} warning and ${WORKFLOW_COMMANDS_PER_LEVEL} notice annotations per step. The job summary and the report file list every call and finding.`,
      { title: 'receipt-gate: more annotations' },
    );
  }
  return hidden;
}
