/**
 * Severities, one table: their order and every reporter's word for each (the report's totals, the
 * Checks API's annotation level, SARIF's level, the summary's icon, the table's colour).
 */

/** How bad a finding is: the order is the rank (most severe first). */
export const SEVERITIES = ['error', 'warning', 'notice'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface SeverityEntry {
  /** 0 for the most severe. */
  readonly rank: number;
  /** Its count's name in the report's totals. */
  readonly total: 'errors' | 'warnings' | 'notices';
  /** The Checks API's annotation_level. */
  readonly annotation: 'failure' | 'warning' | 'notice';
  /** SARIF's result level. */
  readonly sarif: 'error' | 'warning' | 'note';
  /** How the job summary shows it, and how the terminal table paints it. */
  readonly icon: string;
  readonly colour: 'red' | 'yellow' | 'dim';
}

export const SEVERITY_TABLE: { readonly [S in Severity]: SeverityEntry } = {
  error: { rank: 0, total: 'errors', annotation: 'failure', sarif: 'error', icon: '❌', colour: 'red' },
  warning: { rank: 1, total: 'warnings', annotation: 'warning', sarif: 'warning', icon: '⚠️', colour: 'yellow' },
  notice: { rank: 2, total: 'notices', annotation: 'notice', sarif: 'note', icon: 'ℹ️', colour: 'dim' },
};

export type AnnotationLevel = SeverityEntry['annotation'];

/** The rank of an annotation level: the rank of the severity it stands for. */
export const annotationRank = (level: AnnotationLevel): number => SEVERITIES.findIndex((s) => SEVERITY_TABLE[s].annotation === level);
