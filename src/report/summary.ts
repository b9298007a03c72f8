/**
 * The job summary (Markdown): result banner, totals, failing findings first, then every call with a
 * link to its line at the head commit. Kept under a byte budget (GitHub's limit is 1 MiB per step);
 * when rows must be cut, a line says how many and where the full report is.
 */

import { changesText, PULL_CHANGE, ruleEffects } from '../core/effect.js';
import type { Finding } from '../core/findings.js';
import type { Report } from '../core/report.js';
import { SEVERITY_TABLE } from '../core/severity.js';
import { clip } from '../core/text.js';
import { LEVEL_TABLE, LEVELS_DESCENDING } from '../core/vocabulary.js';
import { repoPath } from './annotations.js';
import { STEP_SUMMARY_BYTES } from './github-limits.js';
import { failingFirst, findingCounts, producerLine, recordCounts, rung, runProducer, uriPath, visible, weakestRung } from './text.js';

export interface SummaryContext {
  /** Working directory relative to the repository root. */
  readonly prefix: string;
  /** e.g. https://github.com/owner/repo/blob/<sha>; null when unknown (no links). */
  readonly blobBase: string | null;
  /** Where the full JSON report was written, for the trimmed line. */
  readonly reportFile: string | null;
  readonly budgetBytes: number;
  /** The commit whose bytes were verified (the banner names it), when known. */
  readonly commit?: string | null;
  /** On a pull request: the head and base that commit merges (the banner says so). */
  readonly merge?: { readonly head: string; readonly base: string } | null;
  /** The inputs as given, named in the banner. */
  readonly inputs?: { readonly runs: readonly string[]; readonly audit: readonly string[] };
  /** sha256 of the JSON report, named in the banner. */
  readonly reportDigest?: string;
}

export const SUMMARY_BUDGET = STEP_SUMMARY_BYTES;

/**
 * Untrusted text as inert Markdown: no markup, no HTML, no @mentions, no line breaks, no links. GitHub
 * links bare URLs (`:` written as an entity breaks `https://`), e-mail addresses (`@`) and `www.`
 * names: the dot after `www` is written as an entity too (a red team: evidence text became a link).
 */
export function md(text: string): string {
  return visible(text)
    .replace(/[\\`*_{}[\]()#+!|<>&~@:$]/g, (c) => `&#${c.charCodeAt(0)};`)
    .replace(/(www)\./gi, '$1&#46;');
}

/** A place as a link to its line; a file read at another commit (a pull request's base) links there and says so. */
function link(ctx: SummaryContext, file: string, line: number, member: string | null | undefined, commit?: string): string {
  const path = repoPath(ctx.prefix, file);
  const label = md(`${member ? `${path}!${member}:${line}` : `${path}:${line}`}${commit ? ` at ${commit.slice(0, 12)}` : ''}`);
  if (!ctx.blobBase) return label;
  const blob = commit ? ctx.blobBase.replace(/\/blob\/[^/]+$/, `/blob/${encodeURIComponent(commit)}`) : ctx.blobBase;
  const url = `${blob}/${uriPath(path)}${member ? '' : `#L${line}`}`;
  return `[${label}](${url})`;
}

/** What was verified, where: the commit, the inputs as given, the report's digest. */
function bannerLines(ctx: SummaryContext, passed: boolean): string[] {
  const parts: string[] = [];
  // md() makes every character inert, so nothing here goes in a code span (entities would show).
  if (ctx.commit && ctx.merge) {
    parts.push(
      `the merge of head ${md(ctx.merge.head.slice(0, 40))} into base ${md(ctx.merge.base.slice(0, 40))}, commit ${md(ctx.commit.slice(0, 40))}`,
    );
  } else if (ctx.commit) parts.push(`commit ${md(ctx.commit.slice(0, 40))}`);
  if (ctx.inputs) parts.push(`runs ${ctx.inputs.runs.map(md).join(', ')}`, `audit ${ctx.inputs.audit.map(md).join(', ')}`);
  if (ctx.reportDigest) parts.push(`report ${md(ctx.reportDigest)}`);
  // A failed gate verified nothing: it checked these and found what failed.
  return parts.length > 0 ? [`${passed ? 'Verified' : 'Checked'} ${parts.join(' · ')}.`, ''] : [];
}

/** The policy in effect, in the summary's head: a policy file per rule, its exceptions expiring soon, its grandfathered runs, a pull request's change. */
function policyLines(report: Report): string[] {
  const { rules, source } = report.policy;
  const totals = report.totals;
  // A call its provider's export covered with no entry fails whatever its rule (effect_not_logged): never "every call meets it" (a red team).
  const notLogged = totals.effect_not_logged > 0 ? ` · **${totals.effect_not_logged} call(s) not logged by the provider**` : '';
  const verdict = `${totals.policy_unmet === 0 && totals.effect_not_logged === 0 ? 'every call meets it' : `**${totals.policy_unmet} call(s) below it**`}${notLogged}${totals.policy_warned > 0 ? ` · ${totals.policy_warned} call(s) would fail under enforce (mode warn)` : ''}`;
  const change = report.policy_change
    ? [
        `This pull request changes the policy (${md(report.policy_change.path)}); after merge: ${md(changesText(report.policy_change.changes, PULL_CHANGE))}.`,
        '',
      ]
    : [];
  if (!source) {
    if (rules.length === 0) return ['Policy: none (honesty only: no level is required).', '', ...change];
    return [`Policy: ${rules.map((r) => `\`${String(r['selector'])}=${String(r['level'])}\``).join(', ')} · ${verdict}.`, '', ...change];
  }
  const out = [
    `Policy: ${md(source.path)}${source.commit ? ` at ${md(source.commit.slice(0, 12))}` : ''} · default ${md(String(report.policy.default))} · ${verdict}.`,
    '',
  ];
  for (const e of ruleEffects(report))
    out.push(
      `- ${md(e.rule)}: ${e.matched} call(s), ${e.met} met, ${e.unmet} unmet, ${e.warned} warned, ${e.pending} pending, ${e.excepted} excepted`,
    );
  const expiring = report.findings.filter((f) => f.code === 'exception_expiring' || f.code === 'exception_expired');
  for (const f of expiring.slice(0, 20)) out.push(`- ${f.code === 'exception_expired' ? '❌' : '⚠️'} ${md(clip(f.message, 300))}`);
  if (totals.grandfathered > 0) {
    const runs = new Set(report.calls.filter((c) => c.grandfathered).map((c) => c.artifact)).size;
    out.push(`- ${totals.grandfathered} call(s) grandfathered in ${runs} run(s) (judged for honesty only)`);
  }
  return [...out, '', ...change];
}

/** What the exports covered (docs/coverage.md): the statements per provider and scope, the calls pending or never logged, the gaps. */
function coverageLines(report: Report): string[] {
  const { coverage, coverage_gaps: gaps, totals } = report;
  if (coverage.length === 0) return [];
  const usable = coverage.filter((s) => s.usable);
  const scopes = new Map<string, { count: number; since: string; until: string }>();
  for (const s of usable) {
    const key = `${s.provider} ${s.export} (${s.repos ? s.repos.join(', ') : (s.owner ?? (s.provider === 'github' ? 'no organisation or repository: it covers no call' : 'the whole log'))})`;
    const seen = scopes.get(key);
    if (!seen) scopes.set(key, { count: 1, since: s.since, until: s.until });
    else {
      seen.count++;
      if (s.since < seen.since) seen.since = s.since;
      if (s.until > seen.until) seen.until = s.until;
    }
  }
  const out = [
    `Coverage: ${usable.length} export statement(s)${coverage.length > usable.length ? ` (${coverage.length - usable.length} not counted: untrusted or a second copy)` : ''} · ${totals.pending} call(s) pending · ${totals.effect_not_logged === 0 ? 'no call the provider failed to log' : `**${totals.effect_not_logged} call(s) the provider never logged**`}.`,
    '',
  ];
  for (const [scope, s] of scopes) out.push(`- ${md(scope)}: ${s.count} statement(s), ${md(s.since)} to ${md(s.until)}`);
  for (const g of gaps.slice(0, 20))
    out.push(
      `- ⚠️ no ${md(g.provider)} export covers ${md(g.from)}–${md(g.to)} (${md(g.scope)}): calls in it are not checked against the log`,
    );
  if (gaps.length > 20) out.push(`- … and ${gaps.length - 20} more gap(s) (coverage_gaps in the JSON report)`);
  return [...out, ''];
}

/** Signed records read with no trusted key, and a trust rollout's count: said beside the record counts, not only among the findings. */
function uncheckedLine(report: Report): string {
  const f = report.findings.find((x) => x.code === 'signatures_unchecked');
  const unchecked = f ? ` **Signatures not checked:** ${md(f.message)}.` : '';
  if (report.policy.trust_mode !== 'warn') return unchecked;
  const records = report.findings.filter((x) => x.code === 'record_untrusted').length;
  const runs = report.findings.filter((x) => x.code === 'run_unattested').length;
  return `${unchecked} **Trust mode warn:** ${records} record(s) / ${runs} run(s) would fail under enforce.`;
}

/** The counts: levels, records, policy, and each run's producer when any run has one. */
function totalsLines(report: Report): string[] {
  const totals = report.totals;
  const signers = report.policy.trusted_signers;
  return [
    `${totals.calls} call(s) in ${totals.artifacts} run(s) · ${totals.records} audit record(s) · ${findingCounts(totals)}`,
    '',
    '| level | calls |',
    '|---|---:|',
    ...LEVELS_DESCENDING.map((l) => `| ${LEVEL_TABLE[l].icon} ${l} | ${totals[l]} |`),
    `| — no rung (asserts no side effect) | ${totals.no_effect} |`,
    '',
    `Audit records: ${recordCounts(totals)}.${signers.length > 0 ? ` Trusted signers: ${signers.map((k) => `\`${k.slice(0, 19)}…\``).join(', ')}.` : ''}${uncheckedLine(report)}`,
    '',
    ...policyLines(report),
    ...coverageLines(report),
    ...(producerLine(report)
      ? [
          `Runs: ${producerLine(report)}:`,
          '',
          ...report.runs.map((r) => `- ${md(clip(r.artifact, 200))}: ${md(runProducer(r.producer))}`),
          '',
        ]
      : []),
  ];
}

/** One row per call: calls below their required level first, then calls with other failures (both marked), then the rest. */
function callRows(report: Report, ctx: SummaryContext): string[] {
  const policy = report.policy.rules.length > 0;
  return failingFirst(report.calls).map(({ call: c, fails }) => {
    const mark = fails ? '❌ ' : '';
    const level = c.level === null ? rung(null) : `${LEVEL_TABLE[c.level].icon} ${c.level}`;
    return `| ${mark}${level} | ${rung(c.claimed_level)} |${policy ? ` ${rung(c.required_level)} |` : ''} ${md(clip(c.tool ?? '(none)', 100))} | ${link(ctx, c.artifact, c.line, c.member)} |`;
  });
}

/** Markdown within a byte budget: whole blocks, and sections cut row by row, counting what was left out. */
class Budgeted {
  readonly parts: string[] = [];
  trimmed = 0;
  private used = 0;
  private static readonly RESERVE = 1024;

  constructor(private readonly budget: number) {}

  /** Lines as they come while they fit; the rest counted as left out (the totals' coverage and run lists grow with the input). */
  put(lines: readonly string[]): void {
    for (const [i, line] of lines.entries()) {
      if (!this.fits(`${line}\n`)) {
        this.trimmed += lines.length - i;
        return;
      }
      this.add(`${line}\n`);
    }
  }

  section(heading: readonly string[], rows: readonly string[]): void {
    if (rows.length === 0) return;
    const head = `${heading.join('\n')}\n`;
    if (!this.fits(head)) {
      this.trimmed += rows.length;
      return;
    }
    this.add(head);
    for (const [i, r] of rows.entries()) {
      if (!this.fits(`${r}\n`)) {
        this.trimmed += rows.length - i;
        break;
      }
      this.add(`${r}\n`);
    }
    this.parts.push('\n');
  }

  private fits(text: string): boolean {
    return this.used + Buffer.byteLength(text) + Budgeted.RESERVE <= this.budget;
  }

  private add(text: string): void {
    this.parts.push(text);
    this.used += Buffer.byteLength(text);
  }
}

export function renderSummary(report: Report, ctx: SummaryContext): { markdown: string; trimmed: number } {
  const totals = report.totals;
  const verdict = report.ok ? '## ✅ receipt-gate: passed' : '## ❌ receipt-gate: failed';
  // A finding about an input names the input, never a link to a file that is not there.
  const row = (f: Finding) =>
    `- ${SEVERITY_TABLE[f.severity].icon} **${f.code}** ${f.input !== undefined ? md(f.input) : link(ctx, f.file, f.line, f.member, f.commit)}: ${md(clip(f.message, 2000))}`;
  // A failed gate leads with what failed; the totals and everything else follow.
  const failed = report.ok ? [] : report.findings.filter((f) => f.severity === 'error');
  const rest = report.ok ? report.findings : report.findings.filter((f) => f.severity !== 'error');
  const policy = report.policy.rules.length > 0;
  const out = new Budgeted(ctx.budgetBytes);
  out.put([`${verdict} · ${weakestRung(totals)}`, '', ...bannerLines(ctx, report.ok)]);
  out.section(['### What failed', ''], failed.map(row));
  out.put(totalsLines(report));
  out.section(['### Findings', ''], rest.map(row));
  out.section(
    [
      '### Calls',
      '',
      policy ? '| earned | claimed | required | tool | location |' : '| earned | claimed | tool | location |',
      policy ? '|---|---|---|---|---|' : '|---|---|---|---|',
    ],
    callRows(report, ctx),
  );
  if (out.trimmed > 0) {
    const where = ctx.reportFile ? `in \`${md(ctx.reportFile)}\` (the \`report-file\` output)` : 'in the report file';
    out.parts.push(`> Summary trimmed: ${out.trimmed} more row(s) not shown. The full report is ${where}.\n`);
  }
  return { markdown: out.parts.join(''), trimmed: out.trimmed };
}
