/**
 * Annotations as workflow commands (fork PRs, read-only tokens, `annotations: workflow-commands`,
 * or whatever the Checks API did not take): the most important WORKFLOW_COMMANDS_PER_LEVEL per
 * level, then one notice saying how many more there are.
 */
import type { Annotation, AnnotationLevel } from './annotations.js';
import { WORKFLOW_COMMANDS_PER_LEVEL } from './limits.js';

import type { AnnotationProperties } from '@actions/core';

/** @actions/core's error, warning and notice (escaping is theirs). */
export interface CommandSink {
  error(message: string, props?: AnnotationProperties): void;
  warning(message: string, props?: AnnotationProperties): void;
  notice(message: string, props?: AnnotationProperties): void;
}

/** @returns how many annotations were left out */
export function emitWorkflowCommands(annotations: readonly Annotation[], sink: CommandSink): number {
  const shown: Record<AnnotationLevel, number> = { failure: 0, warning: 0, notice: 0 };
  let hidden = 0;
  for (const a of annotations) {
    if (shown[a.level] >= WORKFLOW_COMMANDS_PER_LEVEL) {
      hidden++;
      continue;
    }
    shown[a.level]++;
    const props: AnnotationProperties =
      a.path === null ? { title: a.title } : { title: a.title, file: a.path, startLine: a.line, ...(a.column !== null ? { startColumn: a.column } : {}) };
    if (a.level === 'failure') sink.error(a.message, props);
    else if (a.level === 'warning') sink.warning(a.message, props);
    else sink.notice(a.message, props);
  }
  if (hidden > 0) {
    sink.notice(
      `${hidden} more annotation(s) not shown: workflow commands show at most ${WORKFLOW_COMMANDS_PER_LEVEL} per level. The job summary lists every call and finding.`,
      { title: 'receipt-gate: more annotations' },
    );
  }
  return hidden;
}
