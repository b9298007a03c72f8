/**
 * The GitHub Action: inputs → settings → runGate → reporters (report file, SARIF, annotations,
 * job summary) → outputs → the gate. Reporting problems (a read-only token, an API outage) degrade
 * to workflow commands and never change the verdict; only the report's `ok` fails the step.
 */
import { appendFileSync, mkdirSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runGate, DEFAULT_SETTINGS, type Settings } from './gate.js';
import { DEFAULT_LIMITS } from './read/artifacts.js';
import { parseBool, parseChoice, parseCount, parseList, parseSize, UsageError } from './settings.js';
import { readContext, restClient, type GitHubApi, type RunContext } from './github.js';
import { buildAnnotations, type Annotation, type AnnotationLevel } from './report/annotations.js';
import { publishCheckRun } from './report/check-run.js';
import { renderSummary, SUMMARY_BUDGET } from './report/summary.js';
import { renderSarif } from './report/sarif.js';
import { writeJson } from './report/json.js';
import type { Report } from './core/report.js';
import { Runner } from './runner.js';

export const VERSION = '0.1.0';
export const WORKFLOW_COMMANDS_PER_LEVEL = 10;

export type AnnotationMode = 'auto' | 'check-run' | 'workflow-commands' | 'off';

export interface ActionSettings {
  readonly gate: Settings;
  readonly annotations: AnnotationMode;
  readonly checkRunId: number | null;
  readonly checkName: string;
  readonly token: string;
  readonly summary: boolean;
  /** Most annotations sent through the Checks API (failures first). */
  readonly maxAnnotations: number;
  readonly sarifFile: string | null;
  readonly reportFile: string;
  /** Working directory relative to the repository root ('' when the same). */
  readonly prefix: string;
}

/** Validate every input up front; a bad value is one UsageError naming the input. */
export function readSettings(input: (name: string) => string, ctx: RunContext, env: NodeJS.ProcessEnv): ActionSettings {
  const workspace = path.resolve(ctx.workspace);
  const wdInput = input('working-directory') || '.';
  const cwd = path.resolve(workspace, wdInput);
  const rel = path.relative(workspace, cwd);
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw new UsageError(`working-directory: "${wdInput}" is outside the workspace`);
  let isDir = false;
  try {
    isDir = statSync(cwd).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new UsageError(`working-directory: "${wdInput}" is not a directory`);
  const checkRunId = input('check-run-id');
  if (checkRunId !== '' && !/^[1-9]\d{0,18}$/.test(checkRunId)) throw new UsageError(`check-run-id: "${checkRunId}" is not a check run id (pass \${{ job.check_run_id }} or leave it empty)`);
  const checkName = input('check-name') || 'side-effect receipts';
  if (checkName.length > 255) throw new UsageError('check-name: longer than 255 characters');
  const file = (name: string): string | null => {
    const v = input(name);
    return v === '' ? null : path.resolve(workspace, v);
  };
  const runs = parseList(input('runs'));
  const audit = parseList(input('audit'));
  const maxFile = input('max-file-size');
  const maxLine = input('max-line-size');
  return {
    gate: {
      runs: runs.length > 0 ? runs : DEFAULT_SETTINGS.runs,
      audit: audit.length > 0 ? audit : DEFAULT_SETTINGS.audit,
      cwd,
      workspace,
      allowUnmatchedRecords: parseBool('allow-unmatched-records', input('allow-unmatched-records')),
      strictObserved: parseBool('strict-observed', input('strict-observed')),
      limits: {
        ...DEFAULT_LIMITS,
        ...(maxFile ? { maxFileBytes: parseSize('max-file-size', maxFile) } : {}),
        ...(maxLine ? { maxLineBytes: parseSize('max-line-size', maxLine) } : {}),
      },
    },
    annotations: parseChoice('annotations', input('annotations') || 'auto', ['auto', 'check-run', 'workflow-commands', 'off'] as const),
    checkRunId: checkRunId === '' ? null : Number(checkRunId),
    checkName,
    token: input('github-token'),
    summary: parseBool('summary', input('summary') || 'true'),
    maxAnnotations: parseCount('max-annotations', input('max-annotations') || '5000'),
    sarifFile: file('sarif-file'),
    reportFile: file('report-file') ?? path.join(env['RUNNER_TEMP'] || tmpdir(), 'receipt-gate', 'report.json'),
    prefix: rel.split(path.sep).join('/'),
  };
}

/** Workflow commands: at most 10 per level (most important first), then one notice for the rest. */
export function emitWorkflowCommands(annotations: readonly Annotation[], sink: Pick<Runner, 'error' | 'warning' | 'notice'>): number {
  const shown: Record<AnnotationLevel, number> = { failure: 0, warning: 0, notice: 0 };
  let hidden = 0;
  for (const a of annotations) {
    if (shown[a.level] >= WORKFLOW_COMMANDS_PER_LEVEL) {
      hidden++;
      continue;
    }
    shown[a.level]++;
    const props = a.path === null ? { title: a.title } : { title: a.title, file: a.path, startLine: a.line, ...(a.column !== null ? { startColumn: a.column } : {}) };
    if (a.level === 'failure') sink.error(a.message, props);
    else if (a.level === 'warning') sink.warning(a.message, props);
    else sink.notice(a.message, props);
  }
  if (hidden > 0) {
    sink.notice(`${hidden} more annotation(s) not shown: workflow commands show at most ${WORKFLOW_COMMANDS_PER_LEVEL} per level. The job summary lists every call and finding.`, { title: 'receipt-gate: more annotations' });
  }
  return hidden;
}

async function annotate(core: Runner, s: ActionSettings, ctx: RunContext, report: Report, annotations: readonly Annotation[], api: GitHubApi | null): Promise<void> {
  if (s.annotations === 'off') return;
  const canApi = s.annotations !== 'workflow-commands' && api !== null && ctx.owner && ctx.repo && ctx.headSha;
  if (canApi) {
    // Most important first: a cap (rate limits: 50 per request) only ever leaves out the least.
    const located = annotations.filter((a) => a.path !== null);
    const sent = located.slice(0, s.maxAnnotations);
    const capped = located.length - sent.length;
    const note = capped > 0 ? `> ${capped} more annotation(s) were not posted (max-annotations: ${s.maxAnnotations}); the job summary and the report list every call and finding.\n\n` : '';
    const summary = note + renderSummary(report, { prefix: s.prefix, blobBase: blobBase(ctx), reportFile: s.reportFile, budgetBytes: 60_000 }).markdown;
    const t = report.totals;
    const r = await publishCheckRun(api, {
      owner: ctx.owner!, repo: ctx.repo!, headSha: ctx.headSha!, name: s.checkName, checkRunId: s.checkRunId, conclusion: report.ok ? 'success' : 'failure',
    }, { title: `${report.ok ? 'Passed' : 'Failed'}: ${t.verified} verified, ${t.observed_confirmed} observed_confirmed, ${t.asserted} asserted; ${t.errors} error(s)`, summary }, sent);
    if (r.ok) {
      core.info(`receipt-gate: ${sent.length} annotation(s) on check run ${r.id} (${r.requests} request(s))${capped > 0 ? `; ${capped} more not posted (max-annotations)` : ''}`);
      return;
    }
    const why = r.status === 403 ? 'the token may not write checks (403; fork pull requests and read-only tokens cannot)' : `the Checks API failed (${r.status ?? 'network'}: ${r.message})`;
    core.warning(`receipt-gate: ${why}; falling back to workflow commands${r.posted > 0 ? ` for the ${r.unposted.length} annotation(s) not yet posted` : ''}.`);
    emitWorkflowCommands(r.posted > 0 ? r.unposted : annotations, core);
    return;
  }
  if (s.annotations === 'check-run') core.warning('receipt-gate: annotations: check-run needs github-token and a repository context; falling back to workflow commands.');
  emitWorkflowCommands(annotations, core);
}

const blobBase = (ctx: RunContext): string | null =>
  ctx.owner && ctx.repo && ctx.headSha ? `${ctx.serverUrl.replace(/\/+$/, '')}/${ctx.owner}/${ctx.repo}/blob/${ctx.headSha}` : null;

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

export async function runAction(core: Runner, env: NodeJS.ProcessEnv = process.env, makeApi: (url: string, token: string) => GitHubApi = restClient): Promise<void> {
  const ctx = readContext(env, process.cwd());
  let s: ActionSettings;
  try {
    s = readSettings((name) => core.input(name), ctx, env);
  } catch (e) {
    if (e instanceof UsageError) {
      core.setFailed(`receipt-gate: invalid input ${e.message}`);
      return;
    }
    throw e;
  }
  const report = await runGate(s.gate);
  const digest = writeJson(report, s.reportFile);
  const t = report.totals;
  core.setOutput('result', report.ok ? 'pass' : 'fail');
  core.setOutput('calls', t.calls);
  core.setOutput('verified', t.verified);
  core.setOutput('observed-confirmed', t.observed_confirmed);
  core.setOutput('asserted', t.asserted);
  core.setOutput('errors', t.errors);
  core.setOutput('warnings', t.warnings);
  core.setOutput('report-file', s.reportFile);
  core.setOutput('report-digest', digest);
  if (s.sarifFile) {
    write(s.sarifFile, renderSarif(report, s.prefix, VERSION));
    core.setOutput('sarif-file', s.sarifFile);
  } else {
    core.setOutput('sarif-file', '');
  }

  const annotations = buildAnnotations(report, s.prefix);
  const api = s.token ? makeApi(ctx.apiUrl, s.token) : null;
  await annotate(core, s, ctx, report, annotations, api);

  const summaryFile = env['GITHUB_STEP_SUMMARY'];
  if (s.summary && summaryFile) {
    const { markdown } = renderSummary(report, { prefix: s.prefix, blobBase: blobBase(ctx), reportFile: s.reportFile, budgetBytes: SUMMARY_BUDGET });
    appendFileSync(summaryFile, markdown);
  }
  core.info(`receipt-gate: ${report.ok ? 'PASS' : 'FAIL'}: ${t.calls} call(s): ${t.verified} verified, ${t.observed_confirmed} observed_confirmed, ${t.asserted} asserted; ${t.errors} error(s), ${t.warnings} warning(s)`);
  if (!report.ok) core.setFailed(`receipt-gate: the gate failed with ${t.errors} error(s); see the annotations and the job summary.`);
}
