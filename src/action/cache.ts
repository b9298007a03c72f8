/**
 * The evidence cache in the action (gate/cache.ts holds the entries and their checks). A pull
 * request costs what it changes: a run on the default branch reads every byte and saves the entries
 * it wrote; a pull request (or a merge group) restores the newest archive the default branch saved
 * for this job and reads only the files whose bytes are not there.
 *
 * Who can write the entries is who the gate trusts with them, so:
 * - only a push, schedule or manual run on the default branch saves (never a pull_request_target
 *   run, whose ref is the default branch but whose files are the pull request's), and it reads no
 *   entry itself: it starts from an empty folder, so what it saves is exactly what it read;
 * - a pull request takes the key from GitHub's list of caches saved on the default branch (the ref
 *   is the service's, not the saver's word), and that key names the digest of the archive's
 *   entries: an archive of that key saved anywhere else (a pull request's own scope, which a
 *   restore looks in first) is used only if it is byte for byte those entries. Nothing is unpacked:
 *   the archive is read whole and its entries written one by one (cache-archive.ts);
 * - what it cannot tell: which workflow saved an archive on the default branch. Every job whose ref
 *   is the default branch can save there (`pull_request_target`, `workflow_run`, `issue_comment`
 *   jobs too), so turning the cache on (`cache: true`, off by default) trusts every workflow of the
 *   repository that runs there (docs/cache.md);
 * - a verdict (`vsa`, `vsa-predicate`) neither reads nor saves.
 * Nothing here changes a verdict: a cache that cannot be listed, restored or saved costs time and
 * says why in the log.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { isObject, str } from '../core/json.js';
import { messageOf } from '../core/text.js';
import type { GitHubApi } from '../report/check-run.js';
// The archive's code (and node:zlib) is loaded only when a run uses the cache: a cold start never pays for it.
import type { CacheService } from './cache-archive.js';
import type { RunContext } from './github-client.js';

/** What this run does with the cache. */
export type CachePlan =
  | { readonly kind: 'off'; readonly why: string }
  | { readonly kind: 'save'; readonly dir: string; readonly prefix: string; readonly run: string }
  | { readonly kind: 'restore'; readonly dir: string; readonly prefix: string; readonly ref: string };

/** Events whose run may save: a push, a schedule or a manual run, on the default branch. */
const SAVING_EVENTS: ReadonlySet<string> = new Set(['push', 'schedule', 'workflow_dispatch']);
/** Events whose run restores: a pull request's, or a merge queue's. */
const RESTORING_EVENTS: ReadonlySet<string> = new Set(['pull_request', 'merge_group']);
/** A saved key's end: the digest of its archive's entries. */
const DIGEST_AT_END = /-([0-9a-f]{64})$/;

/**
 * The plan: off (the input, a verdict, no cache service, an event that neither saves nor restores),
 * save (the default branch) or restore (a pull request). Keys name the build, the default branch,
 * the job (`job`: a digest of the workflow, the job's id and the gate's inputs, so two gates never
 * share an archive), the run, and the digest of the entries:
 * `receipt-gate-evidence-v3-<build>-refs/heads/<branch>-<job>-<sha>-<run>-<attempt>-<digest>`.
 */
export function planCache(
  enabled: boolean,
  verdict: boolean,
  ctx: RunContext,
  env: NodeJS.ProcessEnv,
  service: CacheService | null,
  build: string,
  job: string,
): CachePlan {
  if (!enabled) return { kind: 'off', why: 'cache: false' };
  if (verdict) return { kind: 'off', why: 'a verdict reads every byte' };
  if (service === null)
    return { kind: 'off', why: 'no cache service in this job (GitHub Enterprise Server has none this action speaks to)' };
  // A schedule's event names no repository: it always runs on the default branch, its GITHUB_REF.
  const ref = ctx.defaultBranch !== null ? `refs/heads/${ctx.defaultBranch}` : null;
  if (ref === null || !ref.startsWith('refs/heads/')) return { kind: 'off', why: 'the event names no default branch' };
  const prefix = `receipt-gate-evidence-v3-${build}-${ref}-${job}-`;
  const dir = path.join(env['RUNNER_TEMP'] || path.join(ctx.workspace, '..'), 'receipt-gate-cache');
  if (SAVING_EVENTS.has(ctx.eventName)) {
    if (env['GITHUB_REF'] !== ref) return { kind: 'off', why: `${env['GITHUB_REF'] ?? 'this ref'} is not the default branch` };
    return { kind: 'save', dir, prefix, run: `${ctx.sha ?? 'unknown'}-${env['GITHUB_RUN_ID'] ?? '0'}-${env['GITHUB_RUN_ATTEMPT'] ?? '1'}` };
  }
  if (RESTORING_EVENTS.has(ctx.eventName)) return { kind: 'restore', dir, prefix, ref };
  return { kind: 'off', why: `a ${ctx.eventName || 'run without an event'} neither saves nor restores` };
}

/** The newest key GitHub lists on `ref` starting with `prefix` and ending in a digest; or why there is none. */
async function newestOn(api: GitHubApi, ctx: RunContext, prefix: string, ref: string): Promise<{ readonly key: string } | string> {
  if (!ctx.owner || !ctx.repo) return 'no repository in the context';
  const query = `key=${encodeURIComponent(prefix)}&ref=${encodeURIComponent(ref)}&sort=created_at&direction=desc&per_page=100`;
  let r: Awaited<ReturnType<GitHubApi['request']>>;
  try {
    r = await api.request('GET', `/repos/${ctx.owner}/${ctx.repo}/actions/caches?${query}`);
  } catch (error) {
    return `listing the repository's caches failed (${messageOf(error)})`;
  }
  if (r.status === 403) return "listing the repository's caches was refused (403: the token needs actions: read)";
  if (r.status !== 200) return `listing the repository's caches answered ${r.status}`;
  const list = isObject(r.data) ? r.data['actions_caches'] : null;
  if (!Array.isArray(list)) return "the list of the repository's caches is not one";
  for (const c of list as unknown[]) {
    const key = str(c, 'key');
    if (key !== null && str(c, 'ref') === ref && key.startsWith(prefix) && DIGEST_AT_END.test(key)) return { key };
  }
  return `nothing saved by ${ref} for this job yet`;
}

/** The cache's folder for the gate (null: none), and what to say in the log. */
export interface Prepared {
  readonly cache: { readonly dir: string; readonly read: boolean } | null;
  readonly said: string;
}

/** Before the gate: an empty folder to save from; or the default branch's newest entries for this job, checked against their key. Never an error. */
export async function prepareCache(
  plan: CachePlan,
  service: CacheService | null,
  api: () => Promise<GitHubApi>,
  ctx: RunContext,
): Promise<Prepared> {
  if (plan.kind === 'off' || service === null)
    return { cache: null, said: `receipt-gate: cache: off (${plan.kind === 'off' ? plan.why : 'no cache service'})` };
  rmSync(plan.dir, { recursive: true, force: true });
  if (plan.kind === 'save')
    return {
      cache: { dir: plan.dir, read: false },
      said: `receipt-gate: cache: every file read; the entries are saved after the gate (${plan.prefix}…)`,
    };
  const newest = await newestOn(await api(), ctx, plan.prefix, plan.ref);
  if (typeof newest === 'string') return { cache: null, said: `receipt-gate: cache: not restored: ${newest}; every file read` };
  const { key } = newest;
  const digest = DIGEST_AT_END.exec(key)?.[1] ?? '';
  try {
    const url = await service.downloadUrl(key);
    if (url === null)
      return {
        cache: null,
        said: `receipt-gate: cache: ${key} not restored (the cache service has no archive of exactly that key); every file read`,
      };
    const { unpackEntries } = await import('./cache-archive.js');
    const unpacked = unpackEntries(await service.download(url), digest, plan.dir);
    if (!unpacked.ok) {
      rmSync(plan.dir, { recursive: true, force: true });
      return { cache: null, said: `receipt-gate: cache: ${key} not used: ${unpacked.reason}; every file read` };
    }
    return {
      cache: { dir: plan.dir, read: true },
      said: `receipt-gate: cache: ${key} restored from ${plan.ref} (${unpacked.entries} entries)`,
    };
  } catch (error) {
    rmSync(plan.dir, { recursive: true, force: true });
    return {
      cache: null,
      said: `receipt-gate: cache: ${key} not restored (${messageOf(error)}); every file read`,
    };
  }
}

/** After the gate, on the default branch: save what it read, under a key naming its entries. What was saved, or why not. */
export async function saveCache(
  plan: CachePlan,
  service: CacheService | null,
): Promise<{ readonly ok: boolean; readonly said: string } | null> {
  if (plan.kind !== 'save' || service === null) return null;
  try {
    const { packEntries } = await import('./cache-archive.js');
    const packed = packEntries(plan.dir);
    const key = `${plan.prefix}${plan.run}-${packed.digest}`;
    await service.upload(key, packed.bytes);
    return { ok: true, said: `receipt-gate: cache: ${packed.entries} entries saved as ${key}` };
  } catch (error) {
    return { ok: false, said: messageOf(error) };
  }
}
