/**
 * Repository files as they are at a commit, read with git (never a shell; the ref and the path are
 * arguments): the policy file and trust material at a pull request's base, or at the CLI's
 * `--policy-ref`. Nothing is fetched: a commit that is not in the local clone is said to be absent.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Result } from '../core/result.js';

/** Most bytes a file read from git may hold (a policy file or a trusted root is small). */
const MAX_BYTES = 16 * 1024 * 1024;

function git(cwd: string, args: readonly string[]): { readonly status: number | null; readonly stdout: string; readonly stderr: string } {
  const r = spawnSync('git', ['-C', cwd, ...args], {
    encoding: 'utf8',
    maxBuffer: MAX_BYTES,
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
  });
  if (r.error) return { status: null, stdout: '', stderr: r.error.message };
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The full commit id a ref names in the clone at `cwd`, or null when the clone does not have it. */
export function resolveCommit(cwd: string, ref: string): string | null {
  if (ref.startsWith('-')) return null;
  const r = git(cwd, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  const sha = r.stdout.trim();
  return r.status === 0 && /^[0-9a-f]{40,64}$/.test(sha) ? sha : null;
}

/**
 * A file as it is at a commit: its text, null when the commit has no such file, or why it cannot be
 * read (no git, not a repository, the commit absent).
 * @param file the file's path on disk (a path in the checkout), read at `commit` relative to `cwd`
 */
export function readAtCommit(cwd: string, commit: string, file: string): Result<string | null> {
  const sha = resolveCommit(cwd, commit);
  if (sha === null)
    return {
      ok: false,
      reason: `commit ${commit} is not in this clone (fetch it, e.g. actions/checkout with fetch-depth: 0, or give the API a token)`,
    };
  const rel = path.relative(cwd, path.resolve(cwd, file)).split(path.sep).join('/');
  const r = git(cwd, ['cat-file', '-e', `${sha}:./${rel}`]);
  if (r.status !== 0) return { ok: true, value: null };
  const shown = git(cwd, ['show', `${sha}:./${rel}`]);
  if (shown.status !== 0)
    return { ok: false, reason: `git show ${sha.slice(0, 12)}:${rel} failed: ${shown.stderr.trim() || `status ${shown.status}`}` };
  return { ok: true, value: shown.stdout };
}
