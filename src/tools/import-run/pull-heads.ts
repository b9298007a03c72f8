/**
 * Pull requests as `gh api repos/OWNER/REPO/pulls/N` returns them (one object, a list, or one per
 * line), read offline: the branch each pull request's head is. gh-aw's manifest names the pull
 * request a `push_to_pull_request_branch` pushed to, never the branch; the branch is that pull
 * request's head ref, which the export job reads from GitHub and commits beside the manifest (the
 * gate never queries GitHub).
 */

import { type Finding, finding } from '../../core/findings.js';
import { obj, str, wholeNumber } from '../../core/json.js';
import type { Result } from '../../core/result.js';
import { asciiLower } from '../../core/text.js';
import type { ReadLimits } from '../../read/limits.js';
import { readExport } from '../import/exports.js';
import type { ToolInput } from '../input.js';

/** `owner/repo#N` (lower-cased) → the head branch. */
export type PullHeads = ReadonlyMap<string, string>;

export const pullKey = (owner: string, repo: string, number: number): string => asciiLower(`${owner}/${repo}#${number}`);

export function readPullHeads(input: ToolInput, limits: ReadLimits): Result<PullHeads, readonly Finding[]> {
  const heads = new Map<string, string>();
  const problems: Finding[] = [];
  const read = readExport(input.name, input.bytes, limits);
  for (const e of read.entries) {
    const number = wholeNumber(e.value, 'number');
    const ref = str(obj(e.value, 'head'), 'ref');
    const full = str(obj(obj(e.value, 'base'), 'repo'), 'full_name');
    const parts = full?.split('/') ?? [];
    if (number === null || ref === null || parts.length !== 2 || !parts[0] || !parts[1]) {
      problems.push(
        finding(
          'invalid_artifact',
          e.loc,
          'not a pull request as GET /repos/OWNER/REPO/pulls/N returns it (number, head.ref, base.repo.full_name)',
        ),
      );
      continue;
    }
    // A pull request from a fork (or a deleted one: head.repo null): its head branch is not in this
    // repository, and no push to it is a push here. It gives no branch.
    const headRepo = str(obj(obj(e.value, 'head'), 'repo'), 'full_name');
    if (headRepo === null || asciiLower(headRepo) !== asciiLower(full ?? '')) continue;
    const key = pullKey(parts[0], parts[1], number);
    const seen = heads.get(key);
    if (seen !== undefined && seen !== ref)
      problems.push(finding('invalid_artifact', e.loc, `${full}#${number} is listed twice with different heads`));
    heads.set(key, ref);
  }
  problems.push(...read.findings);
  return problems.length > 0 ? { ok: false, reason: problems } : { ok: true, value: heads };
}
