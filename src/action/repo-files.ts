/**
 * Repository files the action must read where a pull request cannot edit them (docs/policy.md §1):
 * on an event whose checkout a pull request controls (`RunContext.pull`: pull_request and its
 * review events, pull_request_target, merge_group, workflow_run) the policy file and trust material are
 * read at the event's base commit (git when the commit is in the clone, else the contents API with
 * the job's token, one request each) and at the head (the checkout); elsewhere, the checkout's.
 * The base never falls back to the head: a base that cannot be read is a configuration error.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { isObject } from '../core/json.js';
import type { Result } from '../core/result.js';
import { messageOf, quote } from '../core/text.js';
import {
  isCommitId,
  isNearMissPolicy,
  linkOnDisk,
  linkReason,
  nearMissAtCommit,
  nearMissOnDisk,
  readAtCommit,
  resolveCommit,
  type TreeBlob,
  treeAtCommit,
} from '../gate/repository.js';
import type { RepoText } from '../gate/settings/policy.js';
import { UsageError } from '../gate/settings/types.js';
import { readNamedFile } from '../read/files.js';
import { DEFAULT_LIMITS } from '../read/limits.js';
import type { GitHubApi } from '../report/check-run.js';
import type { RunContext } from './github-client.js';

/** A file a trust: section names: its text on each side (null: no such file there), or why that file cannot be used. */
export interface TrustRead {
  /** At the base commit (null: not a pull request, the checkout is read). */
  readonly base: Result<string | null> | null;
  /** In the checkout. */
  readonly head: Result<string | null>;
}

/** A repository file as the action must read it. */
export type Given =
  | { readonly kind: 'absent' }
  | { readonly kind: 'file'; readonly file: RepoText }
  | { readonly kind: 'pull'; readonly base: RepoText | null; readonly head: RepoText | null };

/**
 * A file of the checkout (null: none), or why that file cannot be used, in words that name it: a
 * link (refused, as at the base), a folder or anything but a regular file.
 */
function headSide(workspace: string, rel: string): Result<RepoText | null> {
  const abs = path.resolve(workspace, rel);
  const link = linkOnDisk(workspace, rel);
  if (link !== null) return { ok: false, reason: link };
  if (!existsSync(abs)) return { ok: true, value: null };
  const got = readNamedFile(abs, DEFAULT_LIMITS);
  if (!got.ok) return { ok: false, reason: `${rel}: ${got.reason}` };
  return { ok: true, value: { path: rel, commit: null, text: got.value.toString('utf8') } };
}

/** A side of a read that must be used: a file that cannot be is a configuration error naming it. */
function used(side: Result<RepoText | null>): RepoText | null {
  if (!side.ok) throw new UsageError('file', side.reason);
  return side.value;
}

/** The repository's API path. */
const repoApi = (ctx: RunContext): string => `/repos/${encodeURIComponent(ctx.owner ?? '')}/${encodeURIComponent(ctx.repo ?? '')}`;

/** The contents API's base64: the alphabet, padding, and the line breaks GitHub puts every 60 characters. */
const BASE64 = /^[A-Za-z0-9+/\r\n]*={0,2}[\r\n]*$/;

/** GitHub's own words for a failed answer. */
const said = (data: unknown): string => (isObject(data) && typeof data['message'] === 'string' ? `: ${data['message']}` : '');

/** A request of the base read; an unreachable API is a configuration error naming what was read, never an internal error. */
async function ask(api: GitHubApi, what: string, where: string): Promise<{ readonly status: number; readonly data: unknown }> {
  try {
    return await api.request('GET', where);
  } catch (error) {
    throw new UsageError('file', `${what} at the base commit cannot be read: the GitHub API did not answer (${messageOf(error)})`);
  }
}

/**
 * Whether the base commit exists for the token (a 404 of the contents API is "no such file" only
 * then): one request. A 404 here is a commit the repository does not have, a wrong repository or a
 * token without access; any of them is a configuration error.
 */
async function commitExists(api: GitHubApi, ctx: RunContext, rel: string, commit: string): Promise<void> {
  const res = await ask(api, rel, `${repoApi(ctx)}/git/commits/${encodeURIComponent(commit)}`);
  if (res.status === 200) return;
  throw new UsageError(
    'file',
    `${rel} at the base commit ${commit.slice(0, 12)}: the contents API answered 404 and the commit itself cannot be read (HTTP ${res.status}${said(res.data)}): a commit the repository does not have, another repository, or a token without access (permissions: contents: read); the base's policy is not known, so nothing is judged`,
  );
}

/**
 * A file at a commit through the contents API: its text, null when the commit exists and has no such
 * file, or why that file cannot be used (a link, a folder, too large, no text); an API that does not
 * answer, or answers with an error, is a configuration error of the read.
 */
async function apiText(api: GitHubApi, ctx: RunContext, rel: string, commit: string): Promise<Result<string | null>> {
  const where = `${repoApi(ctx)}/contents/${rel.split('/').map(encodeURIComponent).join('/')}?ref=${encodeURIComponent(commit)}`;
  const res = await ask(api, rel, where);
  if (res.status === 404) {
    await commitExists(api, ctx, rel, commit);
    return { ok: true, value: null };
  }
  const data = res.data;
  const refuse = (reason: string): Result<string | null> => ({ ok: false, reason });
  // A folder's contents are listed: an array.
  if (res.status === 200 && Array.isArray(data)) return refuse(`${rel} at the base commit is a folder, not a file`);
  if (res.status !== 200 || !isObject(data))
    throw new UsageError(
      'file',
      `${rel} at the base commit ${commit.slice(0, 12)} cannot be read through the contents API (HTTP ${res.status}${said(data)}); the job needs permissions: contents: read`,
    );
  // A link whose target is a file comes back as the target (another path); any other link as a symlink.
  if (data['type'] === 'symlink' || (typeof data['path'] === 'string' && data['path'] !== rel))
    return refuse(`${linkReason(rel, rel)} (at the base commit ${commit.slice(0, 12)})`);
  if (data['type'] !== 'file') return refuse(`${rel} at the base commit is not a file (${quote(String(data['type']), 40)})`);
  // GitHub answers a file of 1 to 100 MB with encoding "none" and no content.
  if (data['encoding'] === 'none') return refuse(`${rel} at the base commit is too large for the contents API (over 1 MB): keep it small`);
  if (data['encoding'] !== 'base64' || typeof data['content'] !== 'string' || !BASE64.test(data['content']))
    return refuse(
      `${rel} at the base commit cannot be read: the contents API's answer holds no base64 text (encoding ${quote(String(data['encoding']), 40)}, content ${typeof data['content']})`,
    );
  return { ok: true, value: Buffer.from(data['content'], 'base64').toString('utf8') };
}

/** A commit's tree through the API, in one request (recursive): every path but a folder's (what `git ls-tree -r` lists), and each regular file's blob id and size; `truncated` when GitHub cut it. */
interface ApiTree {
  readonly paths: readonly string[];
  readonly blobs: ReadonlyMap<string, TreeBlob>;
  readonly truncated: boolean;
}

async function apiTree(api: GitHubApi, ctx: RunContext, commit: string): Promise<Result<ApiTree>> {
  const res = await ask(api, 'the repository tree', `${repoApi(ctx)}/git/trees/${encodeURIComponent(commit)}?recursive=1`);
  const data = res.data;
  if (res.status !== 200 || !isObject(data) || !Array.isArray(data['tree']))
    return { ok: false, reason: `the tree of the base commit ${commit.slice(0, 12)} cannot be read (HTTP ${res.status}${said(data)})` };
  const paths: string[] = [];
  const blobs = new Map<string, TreeBlob>();
  for (const e of data['tree']) {
    if (!isObject(e) || typeof e['path'] !== 'string') continue;
    if (e['type'] !== 'tree') paths.push(e['path']);
    const id = e['sha'];
    const size = e['size'];
    if (
      (e['mode'] === '100644' || e['mode'] === '100755') &&
      typeof id === 'string' &&
      /^[0-9a-f]{40,64}$/.test(id) &&
      typeof size === 'number'
    )
      blobs.set(e['path'], { id, size });
  }
  return { ok: true, value: { paths, blobs, truncated: data['truncated'] === true } };
}

/** A near-miss policy file at a commit through the API: the commit's tree, read once (recursive), or the folders' listings when it is truncated. */
async function apiNearMiss(api: GitHubApi, ctx: RunContext, commit: string, tree: Result<ApiTree>): Promise<string | null> {
  // A tree that cannot be read is never "no file at a near-miss path": the gate would run without the policy a team wrote (§11).
  if (!tree.ok)
    throw new UsageError(
      'file',
      `the policy file: ${tree.reason}, so a policy at a near-miss path cannot be ruled out; the base's policy is not known, so nothing is judged`,
    );
  const found = [...tree.value.paths].sort().find(isNearMissPolicy) ?? null;
  if (found !== null || !tree.value.truncated) return found;
  for (const folder of ['', '.github', '.github/receipt-gate']) {
    const list = await ask(api, folder || 'the repository root', `${repoApi(ctx)}/contents/${folder}?ref=${encodeURIComponent(commit)}`);
    // A folder the commit does not have (404), or a file or link where it would be (an object, not a list), lists
    // nothing; any other answer leaves the question open.
    if ((list.status === 404 || (list.status === 200 && isObject(list.data))) && folder !== '') continue;
    if (list.status !== 200 || !Array.isArray(list.data))
      throw new UsageError(
        'file',
        `the policy file: the base commit's tree is larger than one API answer and ${folder || 'the repository root'} cannot be listed (HTTP ${list.status}${said(list.data)}), so a policy at a near-miss path cannot be ruled out; the base's policy is not known, so nothing is judged`,
      );
    // A folder at a near-miss name is no file there (as `git ls-tree -r` and the tree say); a link or a submodule is.
    const names = list.data.flatMap((e: unknown) =>
      isObject(e) && typeof e['path'] === 'string' && e['type'] !== 'dir' ? [e['path']] : [],
    );
    const hit = names.sort().find(isNearMissPolicy);
    if (hit !== undefined) return hit;
  }
  return null;
}

/** How the action reads repository files: at the base and the head on a pull request or a merge queue, else in the checkout. */
export function repoFiles(
  ctx: RunContext,
  token: string,
  api: () => Promise<GitHubApi>,
): {
  readonly base: string | null;
  read(rel: string): Promise<Given>;
  /**
   * A file a policy's trust: section names, read as `read` reads it, but a file that cannot be used
   * (a link, a folder, a file the contents API will not give) refused on its own side (base null:
   * not a pull request): the policy's entry naming it is the mistake, located where the settings are built.
   */
  readTrust(rel: string): Promise<TrustRead>;
  /** A policy file at a near-miss path where the policy is read (the base on a pull request), or null. */
  nearMiss(): Promise<string | null>;
  /** The base commit's regular files (repository paths → blob id and size), for the break-glass path; why not. */
  baseTree(): Promise<Result<ReadonlyMap<string, TreeBlob>>>;
} {
  const base = ctx.pull ? ctx.baseSha : null;
  const workspace = path.resolve(ctx.workspace);
  /** The base commit, checked: a commit id, never a ref name a tampered payload could give. */
  const baseCommit = (rel: string): string => {
    if (base === null)
      throw new UsageError(
        'file',
        `${rel}: a ${ctx.eventName} event without its base commit in the payload: the base's policy cannot be read`,
      );
    if (!isCommitId(base))
      throw new UsageError(
        'file',
        `${rel}: the event's base commit ${JSON.stringify(base.slice(0, 80))} is not a commit id (40 or 64 hex digits); the base's policy cannot be read`,
      );
    return base;
  };
  const noToken = (rel: string, commit: string): UsageError =>
    new UsageError(
      'file',
      `${rel} must be read at the base commit ${commit.slice(0, 12)}, which is not in the clone, and there is no github-token to ask the contents API (give the job permissions: contents: read, or check out with fetch-depth: 0)`,
    );
  // The base's tree through the API is read once, whoever asks (the near-miss check, the break-glass path).
  let tree: Promise<Result<ApiTree>> | null = null;
  const treeOnce = async (commit: string): Promise<Result<ApiTree>> => (tree ??= (async () => apiTree(await api(), ctx, commit))());
  /** The file at the base commit (git when the commit is in the clone, else the contents API), or why that file cannot be used. */
  const baseSide = async (rel: string): Promise<Result<RepoText | null>> => {
    const commit = baseCommit(rel);
    let got: Result<string | null>;
    if (resolveCommit(workspace, commit) !== null) {
      const read = readAtCommit(workspace, commit, path.resolve(workspace, rel));
      got = read.ok ? read : { ok: false, reason: `${rel} at the base commit ${commit.slice(0, 12)}: ${read.reason}` };
    } else {
      if (token === '' || !ctx.owner || !ctx.repo) throw noToken(rel, commit);
      got = await apiText(await api(), ctx, rel, commit);
    }
    if (!got.ok) return got;
    return { ok: true, value: got.value === null ? null : { path: rel, commit, text: got.value } };
  };
  const textOf = (side: Result<RepoText | null>): Result<string | null> => (side.ok ? { ok: true, value: side.value?.text ?? null } : side);
  return {
    base,
    async read(rel) {
      const head = used(headSide(workspace, rel));
      if (!ctx.pull) return head ? { kind: 'file', file: head } : { kind: 'absent' };
      return { kind: 'pull', base: used(await baseSide(rel)), head };
    },
    async readTrust(rel) {
      const head = textOf(headSide(workspace, rel));
      return { base: ctx.pull ? textOf(await baseSide(rel)) : null, head };
    },
    async nearMiss() {
      if (!ctx.pull) return nearMissOnDisk(workspace);
      const commit = baseCommit('the policy file');
      if (resolveCommit(workspace, commit) !== null) {
        const near = nearMissAtCommit(workspace, commit);
        if (!near.ok)
          throw new UsageError(
            'file',
            `the policy file: ${near.reason}, so a policy at a near-miss path at the base cannot be ruled out; the base's policy is not known, so nothing is judged`,
          );
        return near.value;
      }
      if (token === '' || !ctx.owner || !ctx.repo) throw noToken('the policy file', commit);
      return apiNearMiss(await api(), ctx, commit, await treeOnce(commit));
    },
    async baseTree() {
      const commit = baseCommit('the base tree');
      if (resolveCommit(workspace, commit) !== null) return treeAtCommit(workspace, commit);
      if (token === '' || !ctx.owner || !ctx.repo)
        return { ok: false, reason: 'the base commit is not in the clone and there is no github-token' };
      const got = await treeOnce(commit);
      if (!got.ok) return got;
      // A truncated tree would call files absent that are there: nothing of the head applies then.
      if (got.value.truncated)
        return {
          ok: false,
          reason: 'the base tree is larger than one API answer (truncated); check out with fetch-depth: 0 so git can compare it',
        };
      return { ok: true, value: got.value.blobs };
    },
  };
}
