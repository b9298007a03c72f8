/**
 * The only network code in receipt-gate: a small GitHub REST client for reporting (never for
 * verification), and the run's context read from the runner's environment. Built on fetch so tests
 * can point GITHUB_API_URL at a local server or inject a fetch.
 */
import { readFileSync } from 'node:fs';
import { isObject } from './core/json.js';

export interface ApiResponse {
  readonly status: number;
  readonly data: unknown;
}

export interface GitHubApi {
  request(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<ApiResponse>;
}

export function restClient(baseUrl: string, token: string, fetchImpl: typeof fetch = fetch): GitHubApi {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    async request(method, path, body) {
      const res = await fetchImpl(`${base}${path}`, {
        method,
        headers: {
          accept: 'application/vnd.github+json',
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'user-agent': 'receipt-gate',
          'x-github-api-version': '2022-11-28',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      let data: unknown = text;
      try {
        data = text ? JSON.parse(text) : null;
      } catch {
        /* keep the text */
      }
      return { status: res.status, data };
    },
  };
}

export interface RunContext {
  readonly owner: string | null;
  readonly repo: string | null;
  /** The commit annotations and links refer to: the PR head, the merge-group head, or GITHUB_SHA. */
  readonly headSha: string | null;
  readonly eventName: string;
  readonly serverUrl: string;
  readonly apiUrl: string;
  readonly workspace: string;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

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
  const e = isObject(event) ? event : {};
  const pr = isObject(e['pull_request']) ? e['pull_request'] : null;
  const head = pr && isObject(pr['head']) ? str(pr['head']['sha']) : null;
  const mg = isObject(e['merge_group']) ? str(e['merge_group']['head_sha']) : null;
  const wr = isObject(e['workflow_run']) ? str(e['workflow_run']['head_sha']) : null;
  return {
    owner: str(owner),
    repo: str(repo),
    headSha: head ?? mg ?? wr ?? str(env['GITHUB_SHA']),
    eventName: env['GITHUB_EVENT_NAME'] ?? '',
    serverUrl: env['GITHUB_SERVER_URL'] ?? 'https://github.com',
    apiUrl: env['GITHUB_API_URL'] ?? 'https://api.github.com',
    workspace: env['GITHUB_WORKSPACE'] ?? cwd,
  };
}
