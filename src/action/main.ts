/**
 * The GitHub Action's `run()`: inputs → settings → runGate → reporters (report file, SARIF,
 * annotations, job summary) → outputs → the gate. Runner protocol through the lazy toolkit
 * (toolkit.ts: @actions/core's protocol without its HTTP stack), or any object with its shape (tests
 * and `@github/local-action` pass @actions/core or their own); the Checks API through
 * Octokit (github-client.ts), loaded only when used. Reporting problems (a read-only token, an API
 * outage, a summary that cannot be written) degrade and never change the verdict; only the report's
 * `ok` fails the step. `src/action.ts` only calls `run()`.
 */
import path from 'node:path';
import { sha256Hex } from '../core/binding.js';
import type { Report } from '../core/report.js';
import { messageOf } from '../core/text.js';
import { buildOf, cacheText } from '../gate/cache.js';
import { runGate } from '../gate/gate.js';
import { checkoutDiffers, verdictRestsOn } from '../gate/repository.js';
import { type Annotation, buildAnnotations, repoPath } from '../report/annotations.js';
import type { GitHubApi } from '../report/check-run.js';
import { publishCheckRun } from '../report/check-run.js';
import { digestedPieces, writeJson } from '../report/json-report.js';
import { cannotWriteText } from '../report/output.js';
import { renderSarif } from '../report/sarif.js';
import { renderSummary, SUMMARY_BUDGET, type SummaryContext } from '../report/summary.js';
import { levelCounts, visible } from '../report/text.js';
import { DEFAULT_POLICY_URI } from '../report/verification-summary.js';
import { emitWorkflowCommands } from '../report/workflow-commands.js';
import { writeVerdict } from '../tools/verdict.js';
import { writeWhole } from '../tools/write.js';
import { VERSION } from '../version.js';
import { planCache, prepareCache, saveCache } from './cache.js';
import type { CacheService } from './cache-archive.js';
import { octokitApi, type RunContext, readContext } from './github-client.js';
import { type ActionSettings, readSettings } from './inputs.js';
import { repoFiles } from './repo-files.js';
import { type Core, lazyCore } from './toolkit.js';

/** The job's part of a cache key: its id and what its gate reads (two gates of one run, or of two workflows, never share an archive). */
const jobKey = (settings: ActionSettings, env: NodeJS.ProcessEnv): string =>
  sha256Hex(
    JSON.stringify([
      (env['GITHUB_WORKFLOW_REF'] ?? '').replace(/@.*$/, ''),
      env['GITHUB_JOB'] ?? '',
      env['RUNNER_OS'] ?? '',
      settings.prefix,
      settings.gate.runs,
      settings.gate.audit,
    ]),
  ).slice(0, 12);

/** Input paths relative to the working directory, as repository paths. */
const prefixed = (inputs: ReadonlyMap<string, string>, prefix: string): ReadonlyMap<string, string> =>
  new Map([...inputs].map(([p, h]) => [repoPath(prefix, p), h]));

export type { Core };

/** Messages from the API or the system, as one inert log line (never a workflow command). */
const line = (s: string): string => visible(s).replace(/^::/, ':\u200b:');

/** The check run the annotations went to: its id and its page. */
interface Written {
  readonly id: string;
  readonly url: string;
}

/** A check run's page: the API's, else the one GitHub serves for that id. */
const runUrl = (ctx: RunContext, owner: string, repo: string, run: { readonly id: string; readonly url: string | null }): Written => ({
  id: run.id,
  url: run.url ?? `${ctx.serverUrl.replace(/\/+$/, '')}/${owner}/${repo}/runs/${run.id}`,
});

async function annotate(
  core: Core,
  settings: ActionSettings,
  ctx: RunContext,
  report: Report,
  annotations: readonly Annotation[],
  api: () => Promise<GitHubApi>,
  summary: SummaryContext,
  now: () => Date,
): Promise<Written | null> {
  if (settings.annotations === 'off') return null;
  // The step's own failure message is one of the error lines GitHub shows.
  const failing = report.ok ? 0 : 1;
  const { owner, repo, headSha } = ctx;
  if (settings.annotations === 'workflow-commands' || settings.token === '' || !owner || !repo || !headSha) {
    const warned = settings.annotations === 'check-run';
    if (warned)
      core.warning('receipt-gate: annotations: check-run needs github-token and a repository context; falling back to workflow commands.');
    emitWorkflowCommands(annotations, core, { failure: failing, warning: warned ? 1 : 0 });
    return null;
  }
  // Most important first: a cap (rate limits: 50 per request) only ever leaves out the least.
  const located = annotations.filter((a) => a.path !== null);
  const sent = located.slice(0, settings.maxAnnotations);
  const capped = located.length - sent.length;
  const note =
    capped > 0
      ? `> ${capped} more annotation(s) were not posted (max-annotations: ${settings.maxAnnotations}); the job summary and the report list every call and finding.\n\n`
      : '';
  const totals = report.totals;
  const result = await publishCheckRun(
    await api(),
    {
      owner,
      repo,
      headSha,
      name: settings.checkName,
      checkRunId: settings.checkRunId,
      conclusion: report.ok ? 'success' : 'failure',
      completedAt: now(),
    },
    {
      title: `${report.ok ? 'Passed' : 'Failed'}: ${levelCounts(totals)}; ${totals.errors} error(s)`,
      summary: note + renderSummary(report, { ...summary, budgetBytes: 60_000 }).markdown,
    },
    sent,
  );
  // The Checks API needs a file for an annotation: findings about inputs (a path that matched
  // nothing, a rule that applies to no call) are annotated on the run by workflow commands.
  const about = annotations.filter((a) => a.path === null);
  if (result.ok) {
    emitWorkflowCommands(about, core, { failure: failing, warning: 0 });
    const w = result.value;
    core.info(
      `receipt-gate: ${sent.length} annotation(s) on check run ${w.id} (${w.requests} request(s))${capped > 0 ? `; ${capped} more not posted (max-annotations)` : ''}`,
    );
    return runUrl(ctx, owner, repo, w);
  }
  const f = result.reason;
  const why =
    f.status === 403
      ? f.posted > 0
        ? 'a later update of the check run was refused (403)'
        : 'the token may not write checks (403; fork pull requests and read-only tokens cannot)'
      : `the Checks API failed (${f.status ?? 'network'}: ${line(f.message)})`;
  const went = f.run ? `; ${f.posted} annotation(s) are on check run ${f.run.id}` : '';
  core.warning(
    `receipt-gate: ${why}${went}; falling back to workflow commands${f.posted > 0 ? ` for the ${f.unposted.length} annotation(s) not yet posted` : ''}.`,
  );
  emitWorkflowCommands(f.posted > 0 ? [...about, ...f.unposted] : annotations, core, { failure: failing, warning: 1 });
  return f.run && f.posted > 0 ? runUrl(ctx, owner, repo, f.run) : null;
}

const blobBase = (ctx: RunContext): string | null =>
  ctx.owner && ctx.repo && ctx.headSha ? `${ctx.serverUrl.replace(/\/+$/, '')}/${ctx.owner}/${ctx.repo}/blob/${ctx.headSha}` : null;

/** The verdict attestation's files; null when written (or not asked for), else why they could not be. */
function verdict(
  core: Core,
  settings: ActionSettings,
  ctx: RunContext,
  env: NodeJS.ProcessEnv,
  report: Report,
  digest: string,
  inputs: ReadonlyMap<string, string>,
  reportText: readonly string[] | null,
): string | null {
  core.setOutput('vsa-predicate-file', '');
  core.setOutput('vsa-file', '');
  if (!settings.vsa) return null;
  const origin = {
    workspace: ctx.workspace,
    reportFile: settings.reportFile,
    reportDigest: digest,
    resourceUri: settings.vsa.resourceUri,
    // The policy file in effect names the policy; without one, the workflow that ran the gate does.
    policyUri: report.policy.source
      ? null
      : env['GITHUB_WORKFLOW_REF']
        ? `${ctx.serverUrl.replace(/\/+$/, '')}/${env['GITHUB_WORKFLOW_REF']}`
        : DEFAULT_POLICY_URI,
    inputs: prefixed(inputs, settings.prefix),
    version: VERSION,
    // Asked where the gate read (the working-directory: a clone that actions/checkout put at a `path:` too), paths relative to it.
    checkoutDiffers: checkoutDiffers(
      settings.gate.cwd,
      settings.vsa.commit,
      verdictRestsOn(
        settings.gate.cwd,
        inputs,
        settings.gate.policy,
        settings.vsa.trustFiles.map((p) => path.join(ctx.workspace, p)),
        [...settings.gate.runs, ...settings.gate.audit],
      ),
    ),
  };
  // Written with the report it is about, all or none (a verdict that failed left the report: a red team).
  const result = writeVerdict(
    report,
    origin,
    { predicate: settings.vsa.predicate, envelope: settings.vsa.envelope, key: settings.vsa.key },
    reportText === null ? [] : [[settings.reportFile, reportText]],
  );
  if (!result.ok) return result.reason.map((f) => f.message).join('; ');
  if (settings.vsa.predicate) core.setOutput('vsa-predicate-file', settings.vsa.predicate);
  if (settings.vsa.envelope) core.setOutput('vsa-file', settings.vsa.envelope);
  return null;
}

/**
 * A gate that could not judge (an input, the policy file, an output it cannot write): `result=error`
 * for `if: always()` steps, the failure, and a job summary that says why (a red required check must
 * not open on an empty page).
 */
async function configurationError(core: Core, env: NodeJS.ProcessEnv, message: string): Promise<void> {
  core.setOutput('result', 'error');
  core.setFailed(`receipt-gate: ${message}`);
  if (!env['GITHUB_STEP_SUMMARY']) return;
  const longest = Math.max(0, ...[...message.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  try {
    await core.summary
      .addRaw(
        `## ⛔ receipt-gate: configuration error\n\nNothing was judged: the gate stopped before reading the evidence, so this check fails until the configuration is fixed.\n\n${fence}text\n${visible(message)}\n${fence}\n`,
      )
      .write();
  } catch (error) {
    core.warning(`receipt-gate: the job summary could not be written (${line(messageOf(error))}).`);
  }
}

/** The step's outputs from the report's totals, and the SARIF file when asked. */
function outputs(core: Core, settings: ActionSettings, report: Report, digest: string): void {
  const totals = report.totals;
  core.setOutput('result', report.ok ? 'pass' : 'fail');
  core.setOutput('calls', totals.calls);
  core.setOutput('verified', totals.verified);
  core.setOutput('observed-confirmed', totals.observed_confirmed);
  core.setOutput('asserted', totals.asserted);
  core.setOutput('no-effect', totals.no_effect);
  core.setOutput('weakest-level', totals.weakest_level ?? '');
  core.setOutput('policy-unmet', totals.policy_unmet);
  core.setOutput('policy-warned', totals.policy_warned);
  core.setOutput('pending', totals.pending);
  core.setOutput('effect-not-logged', totals.effect_not_logged);
  core.setOutput('errors', totals.errors);
  core.setOutput('warnings', totals.warnings);
  core.setOutput('report-file', settings.reportFile);
  core.setOutput('report-digest', digest);
  if (settings.sarifFile) writeWhole(settings.sarifFile, renderSarif(report, settings.prefix, VERSION));
  core.setOutput('sarif-file', settings.sarifFile ?? '');
}

/**
 * inputs → settings → the gate → the report file, the verdict, outputs, annotations, the job summary.
 * @param cwd the process's working directory (the workspace when GITHUB_WORKSPACE is unset)
 * @param now the clock (the check run's completed_at)
 */
export async function run(
  core: Core = lazyCore(),
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
  now: () => Date = () => new Date(),
  cacheService: (env: NodeJS.ProcessEnv) => Promise<CacheService | null> = async (e) =>
    (await import('./cache-archive.js')).actionsCacheService(e),
): Promise<void> {
  const ctx = readContext(env, cwd);
  const token = core.getInput('github-token');
  // One client for the run, made when first needed: the base's policy (on a pull request) and the check run.
  let client: Promise<GitHubApi> | null = null;
  const api = (): Promise<GitHubApi> => (client ??= octokitApi(token, ctx.apiUrl, (m) => core.info(line(m))));
  const read = await readSettings((name) => core.getInput(name), ctx, env, repoFiles(ctx, token, api), now());
  if (!read.ok) return configurationError(core, env, `invalid input ${read.reason.message}`);
  const settings = read.value;
  const service = settings.cache ? await cacheService(env) : null;
  const build = buildOf(VERSION);
  const plan = planCache(settings.cache, settings.vsa !== null, ctx, env, service, build.tag, jobKey(settings, env));
  const prepared = await prepareCache(plan, service, api, ctx);
  core.info(prepared.said);
  const cache = prepared.cache ? { ...prepared.cache, build: build.key } : null;
  const gated = await runGate({ ...settings.gate, cache }, settings.vsa !== null);
  if (!gated.ok)
    return configurationError(core, env, `invalid input ${gated.reason.input ? `${gated.reason.input}: ` : ''}${gated.reason.message}`);
  const { report, inputs } = gated.value;
  if (gated.value.cache && cache) core.info(cacheText(gated.value.cache, cache.dir));
  const saved = await saveCache(plan, service);
  if (saved?.ok) core.info(saved.said);
  else if (saved)
    core.warning(`receipt-gate: the evidence cache was not saved (${line(saved.said)}); the next pull request reads every file.`);
  let digest = '';
  // With a verdict, the report is written beside it (all or none); else streamed to its file.
  const written = settings.vsa ? digestedPieces(report) : null;
  const reportText = written?.pieces ?? null;
  if (written) digest = written.digest;
  else
    try {
      digest = await writeJson(report, settings.reportFile);
    } catch (error) {
      return configurationError(core, env, cannotWriteText('report-file', settings.reportFile, error));
    }
  const unwritten = verdict(core, settings, ctx, env, report, digest, inputs, reportText);
  if (unwritten !== null) return configurationError(core, env, unwritten);
  try {
    outputs(core, settings, report, digest);
  } catch (error) {
    return configurationError(core, env, cannotWriteText('sarif-file', settings.sarifFile ?? '', error));
  }
  const summary: SummaryContext = {
    prefix: settings.prefix,
    blobBase: blobBase(ctx),
    reportFile: settings.reportFile,
    budgetBytes: SUMMARY_BUDGET,
    // What was verified is the commit checked out (on a pull request, the merge commit); the check run stays on the head.
    commit: ctx.sha ?? ctx.headSha,
    merge: ctx.merge,
    inputs: { runs: settings.gate.runs, audit: settings.gate.audit },
    reportDigest: digest,
  };
  const annotations = buildAnnotations(report, settings.prefix, settings.annotate);
  const checkRun = await annotate(core, settings, ctx, report, annotations, api, summary, now);
  core.setOutput('check-run-id', checkRun?.id ?? '');
  core.setOutput('check-run-url', checkRun?.url ?? '');
  if (settings.summary && env['GITHUB_STEP_SUMMARY']) {
    try {
      await core.summary.addRaw(renderSummary(report, summary).markdown).write();
    } catch (error) {
      // A summary that cannot be written never changes the verdict.
      core.warning(
        `receipt-gate: the job summary could not be written (${line(messageOf(error))}); the report is in ${settings.reportFile}.`,
      );
    }
  }
  const totals = report.totals;
  core.info(
    `receipt-gate: ${report.ok ? 'PASS' : 'FAIL'}: ${totals.calls} call(s): ${levelCounts(totals)}; ${totals.errors} error(s), ${totals.warnings} warning(s)`,
  );
  if (!report.ok) core.setFailed(`receipt-gate: the gate failed with ${totals.errors} error(s); see the annotations and the job summary.`);
}
