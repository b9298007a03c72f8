/**
 * Repository files the action must read where a pull request cannot edit them (docs/policy.md §1):
 * on `pull_request`, `pull_request_target` and `merge_group` the policy file and trust material are
 * read at the event's base commit (git when the commit is in the clone, else the contents API with
 * the job's token, one request each) and at the head (the checkout); elsewhere, the checkout's.
 * The base never falls back to the head: a base that cannot be read is a configuration error.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { isObject } from '../core/json.js';
import { readAtCommit, resolveCommit } from '../gate/repository.js';
import type { RepoText } from '../gate/settings/policy.js';
import { UsageError } from '../gate/settings/types.js';
import { readNamedFile } from '../read/files.js';
import { DEFAULT_LIMITS } from '../read/limits.js';
import type { GitHubApi } from '../report/check-run.js';
import type { RunContext } from './github-client.js';

/** A repository file as the action must read it. */
export type Given =
  | { readonly kind: 'absent' }
  | { readonly kind: 'file'; readonly file: RepoText }
  | { readonly kind: 'pull'; readonly base: RepoText | null; readonly head: RepoText | null };

/** The events whose checkout a pull request controls: their trust material is read at the base. */
const PULL_EVENTS: ReadonlySet<string> = new Set(['pull_request', 'pull_request_target', 'merge_group']);

/** A file of the checkout (null: none). */
function headText(workspace: string, rel: string): RepoText | null {
  const abs = path.resolve(workspace, rel);
  if (!existsSync(abs)) return null;
  const got = readNamedFile(abs, DEFAULT_LIMITS);
  if (!got.ok) throw new UsageError('file', `${rel}: ${got.reason}`);
  return { path: rel, commit: null, text: got.value.toString('utf8') };
}

/** A file at a commit through the contents API: its text, or null when GitHub has no such file there. */
async function apiText(api: GitHubApi, ctx: RunContext, rel: string, commit: string): Promise<string | null> {
  const where = `/repos/${encodeURIComponent(ctx.owner ?? '')}/${encodeURIComponent(ctx.repo ?? '')}/contents/${rel.split('/').map(encodeURIComponent).join('/')}?ref=${encodeURIComponent(commit)}`;
  const res = await api.request('GET', where);
  if (res.status === 404) return null;
  const data = res.data;
  if (res.status !== 200 || !isObject(data))
    throw new UsageError(
      'file',
      `${rel} at the base commit ${commit.slice(0, 12)} cannot be read through the contents API (HTTP ${res.status}${isObject(data) && typeof data['message'] === 'string' ? `: ${data['message']}` : ''}); the job needs permissions: contents: read`,
    );
  if (data['type'] !== 'file') throw new UsageError('file', `${rel} at the base commit is not a file (${String(data['type'])})`);
  if (data['encoding'] !== 'base64' || typeof data['content'] !== 'string')
    throw new UsageError('file', `${rel} at the base commit is too large for the contents API (over 1 MB): keep it small`);
  return Buffer.from(data['content'], 'base64').toString('utf8');
}

/** How the action reads repository files: at the base and the head on a pull request or a merge queue, else in the checkout. */
export function repoFiles(
  ctx: RunContext,
  token: string,
  api: () => Promise<GitHubApi>,
): { readonly base: string | null; read(rel: string): Promise<Given> } {
  const base = PULL_EVENTS.has(ctx.eventName) ? ctx.baseSha : null;
  const workspace = path.resolve(ctx.workspace);
  return {
    base,
    async read(rel) {
      const head = headText(workspace, rel);
      if (!PULL_EVENTS.has(ctx.eventName)) return head ? { kind: 'file', file: head } : { kind: 'absent' };
      if (base === null)
        throw new UsageError(
          'file',
          `${rel}: a ${ctx.eventName} event without its base commit in the payload: the base's policy cannot be read`,
        );
      let text: string | null;
      if (resolveCommit(workspace, base) !== null) {
        const got = readAtCommit(workspace, base, path.resolve(workspace, rel));
        if (!got.ok) throw new UsageError('file', `${rel} at the base commit ${base.slice(0, 12)}: ${got.reason}`);
        text = got.value;
      } else {
        if (token === '' || !ctx.owner || !ctx.repo)
          throw new UsageError(
            'file',
            `${rel} must be read at the base commit ${base.slice(0, 12)}, which is not in the clone, and there is no github-token to ask the contents API (give the job permissions: contents: read, or check out with fetch-depth: 0)`,
          );
        text = await apiText(await api(), ctx, rel, base);
      }
      return { kind: 'pull', base: text === null ? null : { path: rel, commit: base, text }, head };
    },
  };
}
