/** The terminal report: one line per call, findings grouped by severity, totals. */

import { styleText } from 'node:util';
import type { Report } from '../core/report.js';
import { SEVERITIES, SEVERITY_TABLE } from '../core/severity.js';
import { clip } from '../core/text.js';
import { LEVEL_TABLE } from '../core/vocabulary.js';
import {
  failingFirst,
  findingCounts,
  findingPlace,
  levelCounts,
  producerLine,
  recordCounts,
  rung,
  runProducer,
  visible,
  weakestRung,
  where,
} from './text.js';

export interface TableStyle {
  readonly color: boolean;
}

type Style = 'red' | 'green' | 'yellow' | 'cyan' | 'dim' | 'bold';
type Paint = (name: Style, text: string) => string;

const pad = (s: string, n: number): string => (s.length >= n ? s : s + ' '.repeat(n - s.length));

/** The policy in effect in one phrase: a policy file by its path, `require` rules as written. */
function policyText(report: Report): string {
  const { rules, source } = report.policy;
  const totals = report.totals;
  const warned = `${totals.effect_not_logged > 0 ? `, ${totals.effect_not_logged} not logged by the provider` : ''}${totals.policy_warned > 0 ? `, ${totals.policy_warned} would fail under enforce` : ''}${totals.pending > 0 ? `, ${totals.pending} pending (export not due)` : ''}`;
  if (source) return `; policy ${visible(source.path)}: ${totals.policy_unmet} call(s) below it${warned}`;
  if (rules.length === 0) return '';
  return `; policy ${rules.map((r) => `${String(r['selector'])}=${String(r['level'])}`).join(', ')}: ${totals.policy_unmet} call(s) below it${warned}`;
}

export function renderTable(report: Report, style: TableStyle): string {
  // The caller decided (a terminal, no NO_COLOR): Node's styleText paints without asking the stream again.
  const paint: Paint = style.color ? (n, s) => styleText(n, s, { validateStream: false }) : (_n, s) => s;
  const out: string[] = [];
  const totals = report.totals;
  if (report.calls.length > 0) {
    // file:line, with the column only where calls share a line (an NDJSON surface line holds many).
    const lineKey = (c: Report['calls'][number]): string => `${c.artifact}\u0000${c.member ?? ''}\u0000${c.line}`;
    const perLine = new Map<string, number>();
    for (const c of report.calls) perLine.set(lineKey(c), (perLine.get(lineKey(c)) ?? 0) + 1);
    const rows = failingFirst(report.calls).map(({ call: c, fails }) => ({
      fails,
      level: c.level,
      claimed: rung(c.claimed_level),
      required: rung(c.required_level),
      tool: clip(visible(c.tool ?? '(no tool name)'), 40),
      loc: visible(
        where({
          file: c.artifact,
          line: c.line,
          member: c.member ?? undefined,
          ...((perLine.get(lineKey(c)) ?? 0) > 1 ? { column: c.column } : {}),
        }),
      ),
    }));
    const toolWidth = Math.max(4, ...rows.map((r) => r.tool.length));
    // The REQUIRED column only when a policy is in effect.
    const policy = report.policy.rules.length > 0;
    const req = (s: string): string => (policy ? `${pad(s, 19)}  ` : '');
    // Failing calls first, each marked in its own column (✗), so a failure is never below the fold.
    out.push(paint('bold', `  ${pad('LEVEL', 19)}  ${pad('CLAIMED', 19)}  ${req('REQUIRED')}${pad('TOOL', toolWidth)}  LOCATION`));
    for (const r of rows) {
      const level = r.level === null ? pad(rung(null), 19) : paint(LEVEL_TABLE[r.level].colour, pad(r.level, 19));
      const mark = r.fails ? paint('red', '✗ ') : '  ';
      out.push(`${mark}${level}  ${pad(r.claimed, 19)}  ${req(r.required)}${pad(r.tool, toolWidth)}  ${r.loc}`);
    }
  } else {
    out.push('No calls.');
  }
  for (const sev of SEVERITIES) {
    const fs = report.findings.filter((f) => f.severity === sev);
    if (fs.length === 0) continue;
    out.push(
      '',
      paint(
        SEVERITY_TABLE[sev].colour,
        paint('bold', `${sev === 'error' ? 'Errors' : sev === 'warning' ? 'Warnings' : 'Notices'} (${fs.length})`),
      ),
    );
    for (const f of fs) {
      out.push(`  ${paint(SEVERITY_TABLE[sev].colour, f.code)}  ${findingPlace(f)}`);
      out.push(`    ${clip(visible(f.message), 2000)}`);
    }
  }
  out.push('');
  const verdict = report.ok ? paint('green', paint('bold', 'PASS')) : paint('red', paint('bold', 'FAIL'));
  out.push(
    `${verdict}  ${totals.calls} call(s) in ${totals.artifacts} run(s): ${levelCounts(totals)}`,
    `      ${totals.records} audit record(s): ${recordCounts(totals)}`,
    `      ${findingCounts(totals)}`,
    ...(producerLine(report)
      ? [
          `      ${producerLine(report)}`,
          ...report.runs.map((r) => `        ${visible(clip(r.artifact, 200))}: ${visible(runProducer(r.producer))}`),
        ]
      : []),
    `      ${weakestRung(totals)}${policyText(report)}`,
  );
  return out.join('\n') + '\n';
}
