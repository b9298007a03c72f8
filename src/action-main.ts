/**
 * The GitHub Action: inputs → settings → runGate → reporters (report file, SARIF, annotations,
 * job summary) → outputs → the gate. Reporting problems (a read-only token, an API outage) degrade
 * to workflow commands and never change the verdict; only the report's `ok` fails the step.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runGate } from './gate.js';
import { UsageError } from './settings.js';
import { readSettings, type ActionSettings } from './action-inputs.js';
import { readContext, restClient, type GitHubApi, type RunContext } from './github.js';
import { buildAnnotations, type Annotation } from './report/annotations.js';
import { emitWorkflowCommands } from './report/workflow-commands.js';
import { levelCounts } from './report/text.js';
import { publishCheckRun } from './report/check-run.js';
import { renderSummary, SUMMARY_BUDGET } from './report/summary.js';
import { renderSarif } from './report/sarif.js';
import { writeJson } from './report/json.js';
import type { Report } from './core/report.js';
import type { Runner } from './runner.js';

export { readSettings, emitWorkflowCommands };

export const VERSION = '0.1.0';

async function annotate(
  core: Runner,
  s: ActionSettings,
  ctx: RunContext,
  report: Report,
  annotations: readonly Annotation[],
  api: GitHubApi | null,
): Promise<void> {
  if (s.annotations === 'off') return;
  const canApi = s.annotations !== 'workflow-commands' && api !== null && ctx.owner && ctx.repo && ctx.headSha;
  if (canApi) {
    // Most important first: a cap (rate limits: 50 per request) only ever leaves out the least.
    const located = annotations.filter((a) => a.path !== null);
    const sent = located.slice(0, s.maxAnnotations);
    const capped = located.length - sent.length;
    const note =
      capped > 0
        ? `> ${capped} more annotation(s) were not posted (max-annotations: ${s.maxAnnotations}); the job summary and the report list every call and finding.\n\n`
        : '';
    const summary = note + renderSummary(report, { prefix: s.prefix, blobBase: blobBase(ctx), reportFile: s.reportFile, budgetBytes: 60_000 }).markdown;
    const t = report.totals;
    const r = await publishCheckRun(
      api,
      {
        owner: ctx.owner!,
        repo: ctx.repo!,
        headSha: ctx.headSha!,
        name: s.checkName,
        checkRunId: s.checkRunId,
        conclusion: report.ok ? 'success' : 'failure',
      },
      {
        title: `${report.ok ? 'Passed' : 'Failed'}: ${t.verified} verified, ${t.observed_confirmed} observed_confirmed, ${t.asserted} asserted; ${t.errors} error(s)`,
        summary,
      },
      sent,
    );
    if (r.ok) {
      core.info(
        `receipt-gate: ${sent.length} annotation(s) on check run ${r.id} (${r.requests} request(s))${capped > 0 ? `; ${capped} more not posted (max-annotations)` : ''}`,
      );
      return;
    }
    const why =
      r.status === 403
        ? 'the token may not write checks (403; fork pull requests and read-only tokens cannot)'
        : `the Checks API failed (${r.status ?? 'network'}: ${r.message})`;
    core.warning(`receipt-gate: ${why}; falling back to workflow commands${r.posted > 0 ? ` for the ${r.unposted.length} annotation(s) not yet posted` : ''}.`);
    emitWorkflowCommands(r.posted > 0 ? r.unposted : annotations, core);
    return;
  }
  if (s.annotations === 'check-run')
    core.warning('receipt-gate: annotations: check-run needs github-token and a repository context; falling back to workflow commands.');
  emitWorkflowCommands(annotations, core);
}

const blobBase = (ctx: RunContext): string | null =>
  ctx.owner && ctx.repo && ctx.headSha ? `${ctx.serverUrl.replace(/\/+$/, '')}/${ctx.owner}/${ctx.repo}/blob/${ctx.headSha}` : null;

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

export async function runAction(
  core: Runner,
  env: NodeJS.ProcessEnv = process.env,
  makeApi: (url: string, token: string) => GitHubApi = restClient,
): Promise<void> {
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
  core.setOutput('no-effect', t.no_effect);
  core.setOutput('weakest-level', t.weakest_level ?? '');
  core.setOutput('policy-unmet', t.policy_unmet);
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
  core.info(`receipt-gate: ${report.ok ? 'PASS' : 'FAIL'}: ${t.calls} call(s): ${levelCounts(t)}; ${t.errors} error(s), ${t.warnings} warning(s)`);
  if (!report.ok) core.setFailed(`receipt-gate: the gate failed with ${t.errors} error(s); see the annotations and the job summary.`);
}
