/**
 * Annotations and the summary through the Checks API: on the job's own check run when its id is
 * given, else on a check run this action creates. 50 annotations per request (create, then update
 * to append); titles, messages and texts trimmed to the API's limits with a visible marker.
 */

import type { Result } from '../core/result.js';
import { clip } from '../core/text.js';
import type { Annotation } from './annotations.js';
import { CHECKS_API } from './github-limits.js';
import { clipBytes } from './text.js';

export interface ApiResponse {
  readonly status: number;
  readonly data: unknown;
}

/** What the reporters need of the API (declared here; src/action/github-client.ts implements it): one request, answered with a status (errors included). */
export interface GitHubApi {
  request(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<ApiResponse>;
}

const ANNOTATIONS_PER_REQUEST = CHECKS_API.annotationsPerRequest;

export interface CheckRunTarget {
  readonly owner: string;
  readonly repo: string;
  readonly headSha: string;
  readonly name: string;
  /** The job's own check run; null to create one. */
  readonly checkRunId: number | null;
  readonly conclusion: 'success' | 'failure';
  /** When the check completed (completed_at). */
  readonly completedAt: Date;
}

export interface CheckOutput {
  readonly title: string;
  readonly summary: string;
}

/** The check run written: its id, its URL when the API gave one, the requests it took. */
export interface CheckRunWritten {
  readonly id: number;
  readonly url: string | null;
  readonly requests: number;
}

/** Why the Checks API could not take it all: the status (null: no answer), and what was not posted. */
export interface CheckRunFailure {
  readonly status: number | null;
  readonly message: string;
  readonly posted: number;
  readonly unposted: readonly Annotation[];
}

const toApi = (a: Annotation & { path: string }) => ({
  path: a.path,
  start_line: a.line,
  end_line: a.line,
  ...(a.column !== null ? { start_column: a.column, end_column: a.column } : {}),
  annotation_level: a.level,
  title: clip(a.title, CHECKS_API.title, '…'),
  message: clipBytes(a.message, CHECKS_API.messageBytes),
});

export async function publishCheckRun(
  api: GitHubApi,
  t: CheckRunTarget,
  output: CheckOutput,
  annotations: readonly Annotation[],
): Promise<Result<CheckRunWritten, CheckRunFailure>> {
  const base = `/repos/${encodeURIComponent(t.owner)}/${encodeURIComponent(t.repo)}/check-runs`;
  const out = { title: clip(output.title, CHECKS_API.title, '…'), summary: clipBytes(output.summary, CHECKS_API.summaryBytes) };
  // The API needs a file for every annotation; findings about inputs are in the summary instead.
  const located = annotations.filter((a): a is Annotation & { path: string } => a.path !== null);
  const batches: (Annotation & { path: string })[][] = [];
  for (let i = 0; i < located.length; i += ANNOTATIONS_PER_REQUEST) batches.push(located.slice(i, i + ANNOTATIONS_PER_REQUEST));
  if (batches.length === 0) batches.push([]);
  let id = t.checkRunId;
  let url: string | null = null;
  let requests = 0;
  let posted = 0;
  for (const batch of batches) {
    const body: Record<string, unknown> = { output: { ...out, annotations: batch.map(toApi) } };
    let res: ApiResponse;
    try {
      if (id === null) {
        Object.assign(body, {
          name: t.name,
          head_sha: t.headSha,
          status: 'completed',
          conclusion: t.conclusion,
          completed_at: t.completedAt.toISOString(),
        });
        res = await api.request('POST', base, body);
      } else {
        res = await api.request('PATCH', `${base}/${id}`, body);
      }
    } catch (e) {
      return { ok: false, reason: { status: null, message: (e as Error).message, posted, unposted: located.slice(posted) } };
    }
    requests++;
    if (res.status < 200 || res.status >= 300) {
      const msg =
        typeof res.data === 'object' && res.data !== null && 'message' in res.data
          ? String((res.data as { message: unknown }).message)
          : `HTTP ${res.status}`;
      return { ok: false, reason: { status: res.status, message: msg, posted, unposted: located.slice(posted) } };
    }
    const html = (res.data as { html_url?: unknown } | null)?.html_url;
    if (typeof html === 'string' && /^https?:\/\//.test(html)) url = html;
    if (id === null) {
      const got = (res.data as { id?: unknown } | null)?.id;
      if (typeof got !== 'number')
        return {
          ok: false,
          reason: { status: res.status, message: 'the API did not return a check run id', posted, unposted: located.slice(posted) },
        };
      id = got;
    }
    posted += batch.length;
  }
  return { ok: true, value: { id: id as number, url, requests } };
}
