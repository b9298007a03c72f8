/**
 * The job summary (Markdown): result banner, totals, failing findings first, then every call with a
 * link to its line at the head commit. Kept under a byte budget (GitHub's limit is 1 MiB per step);
 * when rows must be cut, a line says how many and where the full report is.
 */
import type { Report } from '../core/report.js';
import type { Finding, Severity } from '../core/findings.js';
import { repoPath } from './annotations.js';
import { clip, findingCounts, recordCounts, visible } from './text.js';
import { STEP_SUMMARY_BYTES } from './limits.js';

export interface SummaryContext {
  /** Working directory relative to the repository root. */
  readonly prefix: string;
  /** e.g. https://github.com/owner/repo/blob/<sha>; null when unknown (no links). */
  readonly blobBase: string | null;
  /** Where the full JSON report was written, for the trimmed line. */
  readonly reportFile: string | null;
  readonly budgetBytes: number;
}

export const SUMMARY_BUDGET = STEP_SUMMARY_BYTES;

/** Untrusted text as inert Markdown: no markup, no HTML, no @mentions, no line breaks. */
export function md(s: string): string {
  return visible(s).replace(/[\\`*_{}[\]()#+!|<>&~@:$]/g, (c) => `&#${c.charCodeAt(0)};`);
}

const ICON: { readonly [S in Severity]: string } = { error: '❌', warning: '⚠️', notice: 'ℹ️' };
const LEVEL_ICON = { verified: '🟢', observed_confirmed: '🔵', asserted: '⚪' } as const;

function link(ctx: SummaryContext, file: string, line: number, member: string | null | undefined): string {
  const p = repoPath(ctx.prefix, file);
  const label = md(member ? `${p}!${member}:${line}` : `${p}:${line}`);
  if (!ctx.blobBase) return label;
  const url = `${ctx.blobBase}/${p.split('/').map(encodeURIComponent).join('/')}${member ? '' : `#L${line}`}`;
  return `[${label}](${url})`;
}

export function renderSummary(report: Report, ctx: SummaryContext): { markdown: string; trimmed: number } {
  const t = report.totals;
  const head: string[] = [
    report.ok ? '## ✅ receipt-gate: passed' : '## ❌ receipt-gate: failed',
    '',
    `${t.calls} call(s) in ${t.artifacts} run(s) · ${t.records} audit record(s) · ${findingCounts(t)}`,
    '',
    '| level | calls |',
    '|---|---:|',
    `| ${LEVEL_ICON.verified} verified | ${t.verified} |`,
    `| ${LEVEL_ICON.observed_confirmed} observed_confirmed | ${t.observed_confirmed} |`,
    `| ${LEVEL_ICON.asserted} asserted | ${t.asserted} |`,
    '',
    `Audit records: ${recordCounts(t)}.`,
    '',
  ];
  const findingRows = report.findings.map(
    (f: Finding) => `- ${ICON[f.severity]} **${f.code}** ${link(ctx, f.file, f.line, f.member)}: ${md(clip(f.message, 2000))}`,
  );
  const callRows = report.calls.map(
    (c) => `| ${LEVEL_ICON[c.level]} ${c.level} | ${c.claimed_level} | ${md(clip(c.tool ?? '(none)', 100))} | ${link(ctx, c.artifact, c.line, c.member)} |`,
  );

  const parts: string[] = [];
  let used = Buffer.byteLength(head.join('\n'));
  let trimmed = 0;
  const reserve = 1024;
  const section = (title: string[], rows: string[]): void => {
    if (rows.length === 0) return;
    const titleText = title.join('\n') + '\n';
    if (used + Buffer.byteLength(titleText) + reserve > ctx.budgetBytes) {
      trimmed += rows.length;
      return;
    }
    parts.push(titleText);
    used += Buffer.byteLength(titleText);
    for (const [i, row] of rows.entries()) {
      const n = Buffer.byteLength(row) + 1;
      if (used + n + reserve > ctx.budgetBytes) {
        trimmed += rows.length - i;
        break;
      }
      parts.push(row + '\n');
      used += n;
    }
    parts.push('\n');
  };
  section(['### Findings', ''], findingRows);
  section(['### Calls', '', '| earned | claimed | tool | location |', '|---|---|---|---|'], callRows);
  if (trimmed > 0) {
    parts.push(
      `> Summary trimmed: ${trimmed} more row(s) not shown. The full report is ${ctx.reportFile ? `in \`${md(ctx.reportFile)}\` (the \`report-file\` output)` : 'in the report file'}.\n`,
    );
  }
  return { markdown: head.join('\n') + '\n' + parts.join(''), trimmed };
}
