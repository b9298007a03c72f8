/**
 * The only network code in receipt-gate: the GitHub API for reporting (never for verification),
 * and the run's context read from the runner's environment. The client is @actions/github's Octokit
 * (proxy from HTTPS_PROXY / NO_PROXY, GHES from GITHUB_API_URL) with @octokit/plugin-throttling (a
 * secondary-rate-limit 403 or 429 and an exhausted primary limit are retried after the time GitHub
 * asks for) and @octokit/plugin-retry (5xx retried with backoff), all within a bounded total wait.
 * It is imported only when a run reports through the API, so a run that does not pays nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isObject } from '../core/json.js';
import { resolveCommit } from '../gate/repository.js';
import { DEFAULTS } from '../gate/settings/defaults.js';

import type { ApiResponse, GitHubApi } from '../report/check-run.js';

/** Longest total time spent waiting for rate limits before giving up (then: workflow commands). */
const MAX_RATE_LIMIT_WAIT_SECONDS = 120;
/** Retries of one request after a rate limit, and after a 5xx. */
const MAX_RETRIES = 2;

/** An Octokit-backed client; `log` hears every wait, so the step's log says why it paused. */
export async function octokitApi(token: string, baseUrl: string, log: (message: string) => void): Promise<GitHubApi> {
  const [{ getOctokit }, { defaults }, { retry }, { throttling }] = await Promise.all([
    import('@actions/github'),
    import('@actions/github/lib/utils'),
    import('@octokit/plugin-retry'),
    import('@octokit/plugin-throttling'),
  ]);
  let waited = 0;
  const wait = (kind: string) => (retryAfter: number, options: { method?: string; url?: string }, _o: unknown, retryCount: number) => {
    if (retryCount >= MAX_RETRIES || waited + retryAfter > MAX_RATE_LIMIT_WAIT_SECONDS) {
      log(
        `receipt-gate: ${kind} on ${options.method} ${options.url}; not waiting ${retryAfter} s more (${waited} s already, at most ${MAX_RATE_LIMIT_WAIT_SECONDS} s)`,
      );
      return false;
    }
    waited += retryAfter;
    log(`receipt-gate: ${kind} on ${options.method} ${options.url}; retrying after ${retryAfter} s as GitHub asks`);
    return true;
  };
  const octokit = getOctokit(
    token,
    {
      // The API of this run's GitHub (GHES too), from the context: never a value read when a module was imported.
      baseUrl: baseUrl.replace(/\/+$/, ''),
      userAgent: 'receipt-gate',
      throttle: { onRateLimit: wait('rate limit'), onSecondaryRateLimit: wait('secondary rate limit') },
      // 429 is the throttling plugin's (and ours, below), never plugin-retry's blind backoff.
      retry: { retries: MAX_RETRIES, doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] },
      // Keep the toolkit's proxy-aware fetch and agent (HTTPS_PROXY, NO_PROXY): only add a timeout.
      request: { ...defaults.request, timeout: 30_000 },
    },
    retry,
    throttling,
  );
  const once = async (method: string, path: string, body: unknown, retries: boolean): Promise<ApiResponse & { retryAfter?: number }> => {
    try {
      const r = await octokit.request(`${method} ${path}`, {
        ...(isObject(body) ? body : {}),
        headers: { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
        // A create is not idempotent: no retry of it after a lost answer (report/check-run.ts looks for it instead).
        // The body unparsed: an id is an int64, and JSON.parse alone rounds one past 2^53.
        request: { parseSuccessResponseBody: false, ...(retries ? {} : { retries: 0, retryAfter: 0 }) },
      });
      return { status: r.status, data: await exactJson(r.data) };
    } catch (error) {
      const err = error as {
        status?: unknown;
        response?: { data?: unknown; headers?: Record<string, string | undefined> };
        message?: string;
      };
      // An answer from GitHub is a status; no answer at all (refused, reset, timed out) is a network error.
      if (typeof err.status !== 'number' || err.status < 400 || !err.response) throw error;
      const after = Number(err.response.headers?.['retry-after']);
      return {
        status: err.status,
        data: err.response.data ?? { message: err.message },
        ...(Number.isFinite(after) ? { retryAfter: after } : {}),
      };
    }
  };
  return {
    async request(method, path, body, options) {
      // A 429 the throttling plugin did not take (no "secondary rate" message): wait what it asks, bounded.
      for (let attempt = 0; ; attempt++) {
        const r = await once(method, path, body, options?.once !== true);
        if (r.status !== 429 || !wait('rate limit (429)')(r.retryAfter ?? 60, { method, url: path }, null, attempt)) return r;
        await new Promise((resolve) => setTimeout(resolve, (r.retryAfter ?? 60) * 1000));
      }
    },
  };
}

/**
 * A JSON answer with every integer past 2^53 kept as its digits (a check run id is an int64:
 * 9007199254740993 must not become …992). Needs JSON.parse's source text (Node 22 and later).
 */
async function exactJson(body: unknown): Promise<unknown> {
  if (!(body instanceof ReadableStream)) return body ?? null;
  const text = await new Response(body).text();
  if (text.trim() === '') return null;
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' && !Number.isSafeInteger(value) && typeof context?.source === 'string' && /^\d+$/.test(context.source)
      ? context.source
      : value,
  );
}

export interface RunContext {
  readonly owner: string | null;
  readonly repo: string | null;
  /** The commit annotations and links refer to: the PR head, the merge-group head, or GITHUB_SHA. */
  readonly headSha: string | null;
  /** The commit whose bytes were read (GITHUB_SHA: on a pull request, the merge of head into base). */
  readonly sha: string | null;
  /** On a pull request: the head and base commits that GITHUB_SHA merges. */
  readonly merge: { readonly head: string; readonly base: string } | null;
  readonly eventName: string;
  readonly serverUrl: string;
  readonly apiUrl: string;
  readonly workspace: string;
  /** The repository's default branch, from the event payload (null when it names none). */
  readonly defaultBranch: string | null;
  /** A pull request's or a merge group's base commit (where the policy and trust material are read), or null. */
  readonly baseSha: string | null;
  /**
   * Whether a pull request may control the checkout: an event of one (its payload carries
   * `pull_request`: pull_request, pull_request_target, pull_request_review, …), a merge group, a
   * workflow_run (the fork recipe), a check suite or run, a comment on a pull request, or any other
   * event run in a git clone (read at GITHUB_SHA). Then the policy and trust material are read at `baseSha`.
   */
  readonly pull: boolean;
}

/**
 * Events GitHub runs on the default branch's last commit (GITHUB_SHA) that a pull request's author can
 * start or that carry a pull request in their own words (an outside CI's status on a fork's head, a
 * ChatOps dispatch's `client_payload.pull_request`): a job may check the pull request out, so the
 * policy and trust are read at GITHUB_SHA, never in the checkout (red teams).
 */
const ON_DEFAULT_BRANCH: ReadonlySet<string> = new Set(['check_suite', 'check_run', 'status', 'repository_dispatch']);

/** Events whose checkout a pull request controls even when the payload says so in other words. */
const PULL_EVENTS: ReadonlySet<string> = new Set([
  'pull_request',
  'pull_request_target',
  'pull_request_review',
  'pull_request_review_comment',
  'merge_group',
  'workflow_run',
]);

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * The repository's default branch: as the payload names it, or for a schedule (which GitHub runs
 * on the default branch, with a payload that names no repository) the branch it runs on; null when
 * neither says (never a guess such as main).
 */
function defaultBranchOf(entry: { readonly [key: string]: unknown }, env: NodeJS.ProcessEnv): string | null {
  const named = isObject(entry['repository']) ? str(entry['repository']['default_branch']) : null;
  if (named !== null) return named;
  const ref = env['GITHUB_REF'] ?? '';
  return env['GITHUB_EVENT_NAME'] === 'schedule' && ref.startsWith('refs/heads/') ? str(ref.slice('refs/heads/'.length)) : null;
}

/** Whether the workspace, the working-directory input or the policy input's folder is in a git clone. */
function inClone(workspace: string, env: NodeJS.ProcessEnv): boolean {
  const policy = env['INPUT_POLICY'] || DEFAULTS.policy;
  const dirs = [workspace, path.resolve(workspace, env['INPUT_WORKING-DIRECTORY'] || '.'), path.dirname(path.resolve(workspace, policy))];
  return dirs.some((d) => existsSync(d) && resolveCommit(d, 'HEAD') !== null);
}

export function readContext(env: NodeJS.ProcessEnv, cwd: string): RunContext {
  const [owner, repo] = (env['GITHUB_REPOSITORY'] ?? '').split('/');
  let event: unknown = null;
  const eventPath = env['GITHUB_EVENT_PATH'];
  if (eventPath) {
    try {
      event = JSON.parse(readFileSync(eventPath, 'utf8'));
    } catch {
      event = null; // no event context: annotations go to GITHUB_SHA
    }
  }
  const entry = isObject(event) ? event : {};
  const pr = isObject(entry['pull_request']) ? entry['pull_request'] : null;
  const head = pr && isObject(pr['head']) ? str(pr['head']['sha']) : null;
  const base = pr && isObject(pr['base']) ? str(pr['base']['sha']) : null;
  const mg = isObject(entry['merge_group']) ? str(entry['merge_group']['head_sha']) : null;
  const mgBase = isObject(entry['merge_group']) ? str(entry['merge_group']['base_sha']) : null;
  const run = isObject(entry['workflow_run']) ? entry['workflow_run'] : null;
  const wr = run ? str(run['head_sha']) : null;
  // workflow_run (the fork recipe): the policy is read at the base of the pull request that triggered
  // the run; a fork's run lists no pull request, and then the base is the default branch's commit the
  // run was started on (GITHUB_SHA for workflow_run), never the head's (docs/policy.md §9).
  // Only a pull request into this repository counts: the list may name one between a fork's own
  // branches, whose base commit (readable through this repository's API: forks share objects) holds
  // what the fork's author wrote (a red team). Compared by the repositories' numeric ids.
  const runPulls = run && Array.isArray(run['pull_requests']) ? run['pull_requests'] : [];
  const repoId = isObject(entry['repository']) ? entry['repository']['id'] : undefined;
  // And only one whose head is the run's head: the list names pull requests whose head matches the
  // run's branch, perhaps another of this repository's into another branch (a red team's hardening).
  const ours = runPulls.find(
    (p): p is { readonly [key: string]: unknown } =>
      isObject(p) &&
      isObject(p['base']) &&
      isObject(p['base']['repo']) &&
      Number.isSafeInteger(repoId) &&
      p['base']['repo']['id'] === repoId &&
      isObject(p['head']) &&
      wr !== null &&
      p['head']['sha'] === wr,
  );
  const runBase = run ? ((ours && isObject(ours['base']) ? str(ours['base']['sha']) : null) ?? str(env['GITHUB_SHA'])) : null;
  // Check suites and runs, statuses, repository dispatches and comments on a pull request run on the default branch's last commit
  // (GITHUB_SHA) whatever they name; a workflow that checks a pull request's head out must never read
  // its policy there (a red team: a ChatOps gate read the pull request's own, and passed). Their
  // policy and trust are read at GITHUB_SHA: the default branch's, never a head's (a fork's suite lists
  // no pull request; one of the default branch names the pull requests it heads).
  const checks = isObject(entry['check_suite']) || isObject(entry['check_run']) || ON_DEFAULT_BRANCH.has(env['GITHUB_EVENT_NAME'] ?? '');
  const issuePull = isObject(entry['issue']) && isObject(entry['issue']['pull_request']);
  const pullish = PULL_EVENTS.has(env['GITHUB_EVENT_NAME'] ?? '') || pr !== null || checks || issuePull;
  // Any other event (workflow_dispatch, schedule, push…) run in a git clone: the policy and trust are
  // GITHUB_SHA's, read with git (or the contents API), never the checkout's. A job may have checked
  // a pull request's head out, merged it uncommitted (`git merge --squash`), or cloned it into a
  // folder (`path:`, the working-directory): each let the pull request's own policy judge it (red
  // teams). Outside a clone (artifacts only) the files on disk are the job's own.
  const workspace = env['GITHUB_WORKSPACE'] ?? cwd;
  const sha = str(env['GITHUB_SHA']);
  const elsewhere = !pullish && sha !== null && inClone(workspace, env);
  const otherBase = checks || issuePull || elsewhere ? sha : null;
  return {
    owner: str(owner),
    repo: str(repo),
    headSha: head ?? mg ?? wr ?? str(env['GITHUB_SHA']),
    sha: str(env['GITHUB_SHA']),
    merge: head && base && str(env['GITHUB_SHA']) !== head ? { head, base } : null,
    eventName: env['GITHUB_EVENT_NAME'] ?? '',
    serverUrl: env['GITHUB_SERVER_URL'] ?? 'https://github.com',
    apiUrl: env['GITHUB_API_URL'] ?? 'https://api.github.com',
    workspace,
    defaultBranch: defaultBranchOf(entry, env),
    baseSha: base ?? mgBase ?? runBase ?? otherBase,
    pull: pullish || elsewhere,
  };
}
