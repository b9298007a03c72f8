/**
 * Annotations: one per call at its decision line (earned level, claimed level, tool, and the reason
 * when something failed there), plus one per finding that is not about a call (records, invalid
 * artifacts). Shared by the Checks API reporter and the workflow-command reporter; most important first.
 */
import path from 'node:path';
import { FINDINGS, type Finding } from '../core/findings.js';
import type { Report } from '../core/report.js';
import { type AnnotationLevel, annotationRank, SEVERITY_TABLE, type Severity } from '../core/severity.js';
import { clip } from '../core/text.js';
import { CHECKS_API } from './github-limits.js';
import { clipBytes, rung, visible } from './text.js';

/** The Checks API's limits, applied to every annotation whichever way it is sent. */
const TITLE_MAX = CHECKS_API.title;
const MESSAGE_MAX_BYTES = CHECKS_API.messageBytes;

export interface Annotation {
  /** Repository-relative, / separators; null for a finding about an input rather than a file. */
  readonly path: string | null;
  readonly line: number;
  readonly column: number | null;
  readonly level: AnnotationLevel;
  readonly title: string;
  readonly message: string;
}

const LEVEL = (s: Severity): AnnotationLevel => SEVERITY_TABLE[s].annotation;

/** A report path (relative to the working directory) as a repository path. */
export function repoPath(prefix: string, file: string): string {
  return path.posix.normalize(path.posix.join(prefix || '.', file)).replace(/^\.\//, '');
}

/**
 * @param prefix the working directory relative to the repository root ('' when they are the same)
 * @param scope `all`: every call that asserts a side effect, with its level; `failures`: only what
 *   has an error or a warning (the job summary lists every call either way)
 */
export function buildAnnotations(report: Report, prefix: string, scope: 'all' | 'failures' = 'all'): Annotation[] {
  // Each call carries its own findings; the rest are about records, artifacts and inputs.
  const own = new Set<Finding>();
  for (const c of report.calls) for (const f of c.findings) own.add(f);
  const loose = report.findings.filter((f) => !own.has(f));
  const out: Annotation[] = [];
  // A location inside a bundle cannot be shown on the binary file: point at line 1 and say where.
  const place = (file: string, line: number, column: number, member: string | null | undefined) =>
    member
      ? { path: repoPath(prefix, file), line: 1, column: null, inside: `${member}:${line}:${column}: ` }
      : { path: repoPath(prefix, file), line, column, inside: '' };

  for (const c of report.calls) {
    const fs = c.findings;
    // A call that asserts no side effect has no rung: no annotation unless a finding is about it.
    if (c.level === null && fs.length === 0) continue;
    const worst = fs.reduce<AnnotationLevel>(
      (acc, f) => (annotationRank(LEVEL(f.severity)) < annotationRank(acc) ? LEVEL(f.severity) : acc),
      'notice',
    );
    const p = place(c.artifact, c.line, c.column, c.member);
    const claimed = c.claimed_level === c.level ? '' : ` (claimed ${c.claimed_level})`;
    const required = c.required_level === null ? '' : `; required: ${c.required_level}`;
    const lines = [
      `${p.inside}Earned level: ${rung(c.level)}; claimed: ${rung(c.claimed_level)}${required}; tool: ${visible(clip(c.tool ?? '(none)', 1000))}.`,
    ];
    // A finding about the shortfall says why the level was not reached; the level's own reason
    // would repeat it and add what does not concern the claim.
    if (!fs.some((f) => 'shortfall' in FINDINGS[f.code])) lines.push(`Why: ${visible(c.reason)}`);
    for (const f of fs) lines.push(`${f.code}: ${visible(f.message)}`);
    out.push({
      path: p.path,
      line: p.line,
      column: p.column,
      level: worst,
      title: clip(`${c.level ?? 'no rung'}${c.level === null ? '' : claimed} · ${visible(c.tool ?? 'decision ' + c.index)}`, TITLE_MAX),
      message: clipBytes(lines.join('\n'), MESSAGE_MAX_BYTES),
    });
  }
  // A policy file read at another commit (a pull request's base) is not the file checked out: its
  // findings name their place in words, never as a line of the file the pull request shows.
  for (const f of loose) {
    if (f.input !== undefined || f.commit !== undefined) {
      const where = f.input !== undefined ? f.input : `${f.file}:${f.line}:${f.column} at commit ${f.commit?.slice(0, 12) ?? ''}`;
      out.push({
        path: null,
        line: 0,
        column: null,
        level: LEVEL(f.severity),
        title: f.code,
        message: clipBytes(`${visible(where)}: ${visible(f.message)}`, MESSAGE_MAX_BYTES),
      });
      continue;
    }
    const p = place(f.file, f.line, f.column, f.member);
    out.push({
      path: p.path,
      line: p.line,
      column: p.column,
      level: LEVEL(f.severity),
      title: f.code,
      message: clipBytes(p.inside + visible(f.message), MESSAGE_MAX_BYTES),
    });
  }
  const byPath = (a: string | null, b: string | null): number => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);
  const kept = scope === 'all' ? out : out.filter((a) => a.level !== 'notice');
  // A change of the policy comes first at its level: a fork's ten per-call notices must not hide it (docs/policy.md §11).
  const pinned = (a: Annotation): number => (a.title === 'policy_changed' ? 0 : 1);
  return kept.sort(
    (a, b) => annotationRank(a.level) - annotationRank(b.level) || pinned(a) - pinned(b) || byPath(a.path, b.path) || a.line - b.line,
  );
}
