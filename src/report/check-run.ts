/**
 * Annotations and the summary through the Checks API: on the job's own check run when its id is
 * given, else on a check run this action creates. 50 annotations per request (create, then update
 * to append); titles, messages and texts trimmed to the API's limits with a visible marker.
 */

import { randomUUID } from 'node:crypto';
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
  /** `once`: never retried by the client (a create is not idempotent: a retry after a lost answer would make a second one). */
  request(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown, options?: { readonly once?: boolean }): Promise<ApiResponse>;
}

const ANNOTATIONS_PER_REQUEST = CHECKS_API.annotationsPerRequest;

export interface CheckRunTarget {
  readonly owner: string;
  readonly repo: string;
  readonly headSha: string;
  readonly name: string;
  /** The job's own check run (an int64, kept as its digits); null to create one. */
  readonly checkRunId: string | null;
  readonly conclusion: 'success' | 'failure';
  /** When the check completed (completed_at). */
  readonly completedAt: Date;
}

export interface CheckOutput {
  readonly title: string;
  readonly summary: string;
}

/** The check run written: its id (its digits), its URL when the API gave one, the requests it took. */
export interface CheckRunWritten {
  readonly id: string;
  readonly url: string | null;
  readonly requests: number;
}

/**
 * Why the Checks API could not take it all: the status (null: no answer), what was not posted, and
 * the run the posted ones went to (null: none was created or given).
 */
export interface CheckRunFailure {
  readonly status: number | null;
  readonly message: string;
  readonly posted: number;
  readonly unposted: readonly Annotation[];
  readonly run: { readonly id: string; readonly url: string | null } | null;
}

/** An id as the API gave it (a number, or digits), as digits; null when it is neither. */
const idOf = (v: unknown): string | null =>
  typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? String(v) : typeof v === 'string' && /^[1-9]\d{0,18}$/.test(v) ? v : null;

const member = (data: unknown, key: string): unknown =>
  typeof data === 'object' && data !== null && key in data ? (data as { [key: string]: unknown })[key] : undefined;

/**
 * The check run this job already created, when a create's answer was lost (a 5xx or no answer after
 * GitHub may have made it): found by its name on the head commit with the `external_id` this job gave
 * it (a random id of this publication: another job's run of the same name, completed the same second
 * with another conclusion, is never taken for it) and the completion time. Null: none.
 */
async function findCreated(
  api: GitHubApi,
  target: CheckRunTarget,
  externalId: string,
): Promise<{ readonly id: string; readonly url: string | null } | null> {
  const q = `/repos/${encodeURIComponent(target.owner)}/${encodeURIComponent(target.repo)}/commits/${encodeURIComponent(target.headSha)}/check-runs?check_name=${encodeURIComponent(target.name)}&filter=latest`;
  let res: ApiResponse;
  try {
    res = await api.request('GET', q);
  } catch {
    return null;
  }
  const runs = member(res.data, 'check_runs');
  if (res.status !== 200 || !Array.isArray(runs)) return null;
  for (const r of runs) {
    const id = idOf(member(r, 'id'));
    const completed = member(r, 'completed_at');
    const same =
      typeof completed === 'string' && Math.floor(Date.parse(completed) / 1000) === Math.floor(target.completedAt.getTime() / 1000);
    if (id === null || member(r, 'name') !== target.name || member(r, 'external_id') !== externalId || !same) continue;
    const html = member(r, 'html_url');
    return { id, url: typeof html === 'string' && /^https?:\/\//.test(html) ? html : null };
  }
  return null;
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
  target: CheckRunTarget,
  output: CheckOutput,
  annotations: readonly Annotation[],
): Promise<Result<CheckRunWritten, CheckRunFailure>> {
  const base = `/repos/${encodeURIComponent(target.owner)}/${encodeURIComponent(target.repo)}/check-runs`;
  const out = { title: clip(output.title, CHECKS_API.title, '…'), summary: clipBytes(output.summary, CHECKS_API.summaryBytes) };
  // The API needs a file for every annotation; findings about inputs are in the summary instead.
  const located = annotations.filter((a): a is Annotation & { path: string } => a.path !== null);
  const batches: (Annotation & { path: string })[][] = [];
  for (let i = 0; i < located.length; i += ANNOTATIONS_PER_REQUEST) batches.push(located.slice(i, i + ANNOTATIONS_PER_REQUEST));
  if (batches.length === 0) batches.push([]);
  let id = target.checkRunId;
  let url: string | null = null;
  let requests = 0;
  let posted = 0;
  const failed = (status: number | null, message: string): Result<CheckRunWritten, CheckRunFailure> => ({
    ok: false,
    reason: { status, message, posted, unposted: located.slice(posted), run: id === null ? null : { id, url } },
  });
  // A create that failed with no run found by the lookup is sent once more before falling back.
  let retried = false;
  const externalId = `receipt-gate:${randomUUID()}`;
  for (let b = 0; b < batches.length; b++) {
    const batch = batches[b] ?? [];
    const body: Record<string, unknown> = { output: { ...out, annotations: batch.map(toApi) } };
    let res: ApiResponse | null = null;
    let lost = '';
    try {
      if (id === null) {
        const create = {
          name: target.name,
          head_sha: target.headSha,
          status: 'completed',
          conclusion: target.conclusion,
          completed_at: target.completedAt.toISOString(),
          external_id: externalId,
          ...body,
        };
        res = await api.request('POST', base, create, { once: true });
      } else {
        res = await api.request('PATCH', `${base}/${id}`, body);
      }
    } catch (error) {
      lost = error instanceof Error ? error.message : String(error);
    }
    requests++;
    // A create whose answer was lost may have made the run: find it before creating another.
    if (id === null && (res === null || res.status >= 500)) {
      const found = await findCreated(api, target, externalId);
      requests++;
      if (found) {
        id = found.id;
        url = found.url;
        posted += batch.length;
        continue;
      }
      // GitHub made no run: creating it again cannot make a second one.
      if (!retried) {
        retried = true;
        b--;
        continue;
      }
    }
    if (res === null) return failed(null, lost);
    if (res.status < 200 || res.status >= 300) {
      const message = member(res.data, 'message');
      return failed(res.status, message === undefined ? `HTTP ${res.status}` : String(message));
    }
    const html = member(res.data, 'html_url');
    if (typeof html === 'string' && /^https?:\/\//.test(html)) url = html;
    if (id === null) {
      const got = idOf(member(res.data, 'id'));
      if (got === null) return failed(res.status, 'the API did not return a check run id');
      id = got;
    }
    posted += batch.length;
  }
  if (id === null) return failed(null, 'no check run was written');
  return { ok: true, value: { id, url, requests } };
}
