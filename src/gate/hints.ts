/**
 * What a newcomer's first mistakes need said (the inputs' defaults): a run input that matched
 * nothing on a repository with no run yet (how to bootstrap), a gate run from a subfolder (where the
 * repository root is, and -C), and a default folder that is missing while a near name exists
 * (`.assay/audits`). Each is words for a finding the gate makes anyway; none changes a verdict.
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

/**
 * A default input folder (`.assay/runs`, `.assay/audit`) that does not exist while a sibling of a
 * near name does: a notice naming it (null when the folder exists or nothing is near).
 */
export function nearFolder(cwd: string, given: readonly string[], role: 'runs' | 'audit'): Finding | null {
  if (given.length !== 1) return null;
  const wanted = path.resolve(cwd, given[0] ?? '');
  if (existsSync(wanted)) return null;
  const parent = path.dirname(wanted);
  let siblings: string[];
  try {
    siblings = readdirSync(parent).filter((name) => statSync(path.join(parent, name)).isDirectory());
  } catch {
    return null;
  }
  const near = nearestName(path.basename(wanted), siblings);
  if (near === null) return null;
  const found = path.relative(cwd, path.join(parent, near)).split(path.sep).join('/');
  return inputFinding(
    'no_match',
    `${role}: ${given[0]}`,
    `there is no ${given[0]}, but there is ${found}: did you mean it? (give ${role === 'runs' ? '--runs' : '--audit'} ${found}, or the action's ${role} input)`,
    'warning',
  );
}
