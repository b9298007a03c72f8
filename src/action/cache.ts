/**
 * The evidence cache in the action (gate/cache.ts holds the entries and their checks). A pull
 * request costs what it changes: a run on the default branch reads every byte and saves the entries
 * it wrote with @actions/cache; a pull request (or a merge group) restores the default branch's
 * latest and reads only the files whose bytes are not there.
 *
 * Who can write the entries is who the gate trusts with them, so:
 * - only a push, schedule or manual run on the default branch saves (never a pull_request_target
 *   run, whose ref is the default branch but whose files are the pull request's), and it reads no
 *   entry itself: it starts from an empty folder, so what it saves is exactly what it read;
 * - a pull request restores only the exact key GitHub's list of caches shows as the newest saved on
 *   the default branch for this job, and only when that key is saved nowhere else (a pull
 *   request's workflow can save an archive under any key in its own scope, and a restore looks
 *   there first), asked before anything is unpacked and again after; without a token that may list
 *   caches (`actions: read`) every file is read;
 * - what it cannot tell: which workflow saved an archive on the default branch. Every job whose ref
 *   is the default branch can save there (`pull_request_target`, `workflow_run`, `issue_comment`
 *   jobs too), so turning the cache on (`cache: true`, off by default) trusts every workflow of the
 *   repository that runs there (docs/cache.md);
 * - a verdict (`vsa`, `vsa-predicate`) neither reads nor saves.
 * Nothing here changes a verdict: a cache that cannot be restored, checked or saved costs time and
 * says why in the log.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { GitHubApi } from '../report/check-run.js';
import type { RunContext } from './github-client.js';

/** @actions/cache's two calls (or a test's). */
export interface CacheService {
  /** The key restored into `dir` (the primary key or one starting with a restore prefix), or undefined. */
  restore(dir: string, primaryKey: string, restoreKeys: readonly string[]): Promise<string | undefined>;
  save(dir: string, key: string): Promise<void>;
}

/** @actions/cache, loaded only when a run uses the cache (its HTTP and Azure code stay out of a cold start). */
export async function actionsCache(): Promise<CacheService> {
  const cache = await import('@actions/cache');
  return {
    restore: (dir, primaryKey, restoreKeys) => cache.restoreCache([dir], primaryKey, [...restoreKeys]),
    save: async (dir, key) => {
      await cache.saveCache([dir], key);
    },
  };
}

/** What this run does with the cache. */
export type CachePlan =
  | { readonly kind: 'off'; readonly why: string }
  | { readonly kind: 'save'; readonly dir: string; readonly key: string }
  | { readonly kind: 'restore'; readonly dir: string; readonly prefix: string; readonly ref: string };

/** Events whose run may save: a push, a schedule or a manual run, on the default branch. */
const SAVING_EVENTS: ReadonlySet<string> = new Set(['push', 'schedule', 'workflow_dispatch']);
/** Events whose run restores: a pull request's, or a merge queue's. */
const RESTORING_EVENTS: ReadonlySet<string> = new Set(['pull_request', 'merge_group']);

/**
 * The plan: off (the input, a verdict, no cache service, an event that neither saves nor restores),
 * save (the default branch) or restore (a pull request). Keys name the build, the default branch and
 * the job (`job`: a digest of the job's id and the gate's inputs, so two gates of one run or of two
 * workflows never share a key): `receipt-gate-evidence-v2-<build>-refs/heads/<branch>-<job>-<sha>-<run>-<attempt>`.
 */
export function planCache(
  enabled: boolean,
  verdict: boolean,
  ctx: RunContext,
  env: NodeJS.ProcessEnv,
  build: string,
  job: string,
): CachePlan {
  if (!enabled) return { kind: 'off', why: 'cache: false' };
  if (verdict) return { kind: 'off', why: 'a verdict reads every byte' };
  if (!(env['ACTIONS_RESULTS_URL'] || env['ACTIONS_CACHE_URL'])) return { kind: 'off', why: 'no cache service in this job' };
  if (ctx.defaultBranch === null) return { kind: 'off', why: 'the event names no default branch' };
  const ref = `refs/heads/${ctx.defaultBranch}`;
  const prefix = `receipt-gate-evidence-v2-${build}-${ref}-${job}-`;
  const dir = path.join(env['RUNNER_TEMP'] || path.join(ctx.workspace, '..'), 'receipt-gate-cache');
  if (SAVING_EVENTS.has(ctx.eventName)) {
    if (env['GITHUB_REF'] !== ref) return { kind: 'off', why: `${env['GITHUB_REF'] ?? 'this ref'} is not the default branch` };
    return {
      kind: 'save',
      dir,
      key: `${prefix}${ctx.sha ?? 'unknown'}-${env['GITHUB_RUN_ID'] ?? '0'}-${env['GITHUB_RUN_ATTEMPT'] ?? '1'}`,
    };
  }
  if (RESTORING_EVENTS.has(ctx.eventName)) return { kind: 'restore', dir, prefix, ref };
  return { kind: 'off', why: `a ${ctx.eventName || 'run without an event'} neither saves nor restores` };
}

/** One cache of the repository as GitHub lists it. */
interface Listed {
  readonly key: string;
  readonly ref: string;
}

/** The caches GitHub lists whose key starts with `key` (on `ref` only, when given), newest first; or why not. */
async function listed(api: GitHubApi, ctx: RunContext, key: string, ref: string | null): Promise<readonly Listed[] | string> {
  if (!ctx.owner || !ctx.repo) return 'no repository in the context';
  const query = `key=${encodeURIComponent(key)}${ref ? `&ref=${encodeURIComponent(ref)}` : ''}&sort=created_at&direction=desc&per_page=100`;
  let r: Awaited<ReturnType<GitHubApi['request']>>;
  try {
    r = await api.request('GET', `/repos/${ctx.owner}/${ctx.repo}/actions/caches?${query}`);
  } catch (error) {
    return `listing the repository's caches failed (${error instanceof Error ? error.message : String(error)})`;
  }
  if (r.status !== 200) return `listing the repository's caches answered ${r.status} (the token needs actions: read)`;
  const data = r.data;
  const list = data !== null && typeof data === 'object' && 'actions_caches' in data ? data.actions_caches : null;
  if (!Array.isArray(list)) return "the list of the repository's caches is not one";
  const out: Listed[] = [];
  for (const c of list as unknown[])
    if (c !== null && typeof c === 'object' && 'key' in c && 'ref' in c && typeof c.key === 'string' && typeof c.ref === 'string')
      out.push({ key: c.key, ref: c.ref });
  return out;
}

/** Why `key` is not saved on `ref` alone (GitHub lists it elsewhere too, or not there), or null. */
async function onRefAlone(api: GitHubApi, ctx: RunContext, key: string, ref: string): Promise<string | null> {
  const all = await listed(api, ctx, key, null);
  if (typeof all === 'string') return all;
  const same = all.filter((c) => c.key === key);
  const elsewhere = same.find((c) => c.ref !== ref);
  if (elsewhere) return `the key ${key} is also saved on ${elsewhere.ref}`;
  if (same.length === 0) return `GitHub lists no cache ${key} on ${ref}`;
  return null;
}

/** The cache's folder for the gate (null: none), what to say in the log, and, when set, why the run must stop (nothing may be judged). */
export interface Prepared {
  readonly cache: { readonly dir: string; readonly read: boolean } | null;
  readonly said: string;
  readonly stop?: string;
}

/**
 * Before the gate: an empty folder to save from; or, on a pull request, the newest archive GitHub
 * lists on the default branch for this job, restored only when its exact key is saved there and
 * nowhere else. That is asked before anything is unpacked (an archive's members are unpacked
 * relative to the workspace, and a pull request's own archive must never touch it) and asked
 * again after: a key that appeared elsewhere meanwhile stops the run. Never an error otherwise.
 */
export async function prepareCache(
  plan: CachePlan,
  service: () => Promise<CacheService>,
  api: () => Promise<GitHubApi>,
  ctx: RunContext,
): Promise<Prepared> {
  if (plan.kind === 'off') return { cache: null, said: `receipt-gate: cache: off (${plan.why})` };
  rmSync(plan.dir, { recursive: true, force: true });
  if (plan.kind === 'save')
    return { cache: { dir: plan.dir, read: false }, said: `receipt-gate: cache: every file read; the entries are saved as ${plan.key}` };
  const github = await api();
  const newest = await listed(github, ctx, plan.prefix, plan.ref);
  if (typeof newest === 'string') return { cache: null, said: `receipt-gate: cache: not restored: ${newest}; every file read` };
  const key = newest.find((c) => c.key.startsWith(plan.prefix))?.key;
  if (key === undefined)
    return { cache: null, said: `receipt-gate: cache: nothing saved by ${plan.ref} for this job yet; every file read` };
  const before = await onRefAlone(github, ctx, key, plan.ref);
  if (before !== null) return { cache: null, said: `receipt-gate: cache: ${key} not restored: ${before}; every file read` };
  let matched: string | undefined;
  try {
    matched = await (await service()).restore(plan.dir, key, []);
  } catch (error) {
    rmSync(plan.dir, { recursive: true, force: true });
    return {
      cache: null,
      said: `receipt-gate: cache: ${key} not restored (${error instanceof Error ? error.message : String(error)}); every file read`,
    };
  }
  if (matched !== key) {
    rmSync(plan.dir, { recursive: true, force: true });
    return { cache: null, said: `receipt-gate: cache: ${key} not restored (the cache service did not find it); every file read` };
  }
  const after = await onRefAlone(github, ctx, key, plan.ref);
  if (after !== null) {
    rmSync(plan.dir, { recursive: true, force: true });
    return {
      cache: null,
      said: `receipt-gate: cache: ${key} restored, then: ${after}`,
      stop: `the evidence cache ${key} was unpacked, and then ${after}: what was unpacked may have changed the workspace, so nothing is judged (run again; set cache: false while this repeats)`,
    };
  }
  return { cache: { dir: plan.dir, read: true }, said: `receipt-gate: cache: ${key} restored from ${plan.ref}` };
}

/** After the gate, on the default branch: save what it read. Why not, or null. */
export async function saveCache(plan: CachePlan, service: () => Promise<CacheService>): Promise<string | null> {
  if (plan.kind !== 'save') return null;
  try {
    await (await service()).save(plan.dir, plan.key);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
