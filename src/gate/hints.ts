/**
 * What a newcomer's first mistakes need said (the inputs' defaults): a run input that matched
 * nothing on a repository with no run yet (how to bootstrap), a gate run from a subfolder (where the
 * repository root is, and -C), and a default folder that is missing while a near name exists
 * (`.assay/audits`, `assay/audit`): the first two are words for a finding the gate makes anyway; the
 * last is an error of its own (a red team: a coverage statement committed to `.assay/audits` was
 * never read, and the gate passed).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { type Finding, inputFinding } from '../core/findings.js';
import { nearestName } from '../core/text.js';

/** The nearest directory above `dir` (at most 6 levels) that holds `.assay/runs`, or null. */
function rootAbove(dir: string): string | null {
  let at = path.dirname(path.resolve(dir));
  for (let i = 0; i < 6; i++) {
    if (existsSync(path.join(at, '.assay', 'runs'))) return at;
    const up = path.dirname(at);
    if (up === at) return null;
    at = up;
  }
  return null;
}

/** Words to add to "the run inputs matched no file": run from a subfolder, or a repository with no run yet. */
export function noRunsHint(cwd: string): string {
  const root = rootAbove(cwd);
  if (root)
    return `; ${root} holds .assay/runs: the gate runs from the repository root (run it there, or give -C ${path.relative(cwd, root) || '.'}; the action: working-directory)`;
  return "; on a repository with no run yet, commit the agent's first run before making this check required (examples/agent-run.yml opens a pull request with one; README, Quick start)";
}

/** The folders in `dir` (none when it cannot be listed). */
function foldersIn(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => statSync(path.join(dir, name)).isDirectory());
  } catch {
    return [];
  }
}

/**
 * A default input folder (`.assay/runs`, `.assay/audit`) that does not exist while a folder of a
 * near name does (a sibling, `.assay/audits`; or the same name under a parent of a near name,
 * `assay/audit`): an error naming it, since what it holds is not read (null when the folder exists
 * or nothing is near).
 */
export function nearFolder(cwd: string, given: readonly string[], role: 'runs' | 'audit'): Finding | null {
  if (given.length !== 1) return null;
  const wanted = path.resolve(cwd, given[0] ?? '');
  if (existsSync(wanted)) return null;
  const parent = path.dirname(wanted);
  const base = path.basename(wanted);
  const sibling = nearestName(base, foldersIn(parent));
  let near: string | null = sibling === null ? null : path.join(parent, sibling);
  if (near === null && !existsSync(parent)) {
    const uncle = nearestName(path.basename(parent), foldersIn(path.dirname(parent)));
    const under = uncle === null ? null : path.join(path.dirname(parent), uncle);
    if (under !== null && existsSync(path.join(under, base))) near = path.join(under, base);
  }
  if (near === null) return null;
  const found = path.relative(cwd, near).split(path.sep).join('/');
  return inputFinding(
    'no_match',
    `${role}: ${given[0]}`,
    `there is no ${given[0]}, but there is ${found}: did you mean it? What it holds is not read (give ${role === 'runs' ? '--runs' : '--audit'} ${found}, or the action's ${role} input, or rename it)`,
    'error',
  );
}
