/**
 * The paths a user gives, checked on disk: a working directory inside the workspace, an output that
 * does not leave the workspace through a committed link, an explicit input that exists (else the
 * nearest path that does is named).
 */
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import type { Result } from '../../core/result.js';
import { nearestName, visible } from '../../core/text.js';
import { inside } from '../../read/discover.js';
import { UsageError } from './types.js';

/**
 * A file a policy's trust: section names, in the repository at `root`: its repository path
 * (`/`-separated), or why it is none (it leaves the repository), in words naming it.
 */
export function trustPathIn(root: string, file: string): Result<string> {
  const abs = path.resolve(root, file);
  if (!inside(root, abs))
    return { ok: false, reason: `${file} is outside the repository (trust files are read from it, at the same commit as the policy)` };
  return { ok: true, value: path.relative(root, abs).split(path.sep).join('/') };
}

/**
 * A working directory: `value` resolved against `base`, which must be a directory and, when a
 * workspace is given, inside it. `name` is the flag or input named in the message.
 */
export function directoryIn(workspace: string | null, base: string, value: string, name: string): string {
  const dir = path.resolve(base, value);
  if (workspace !== null && !inside(workspace, dir)) throw new UsageError('path', `${name}: "${value}" is outside the workspace`);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new UsageError('path', `${name}: "${value}" is not a directory`);
  return dir;
}

/**
 * An output file: `value` resolved against `base`. One that lies inside `workspace` must stay inside
 * it through every directory above it: a checkout can commit a directory link (`out -> /home/runner`),
 * and a write must not follow it out. A path outside the workspace was chosen by whoever wrote the
 * workflow and is taken as given. (The file itself is never written through a link: report/output.ts.)
 */
export function outputIn(workspace: string, base: string, value: string, name: string): string {
  const file = path.resolve(base, value);
  let isDirectory = false;
  try {
    isDirectory = statSync(file).isDirectory();
  } catch {
    // nothing there yet: the writer makes it
  }
  if (isDirectory) throw new UsageError('output', `${name}: "${value}" is a directory; name a file to write`);
  if (!inside(workspace, file)) return file;
  const realWorkspace = realpathSync(workspace);
  // The nearest directory above the file that exists, where it really is.
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    let real: string | null = null;
    try {
      real = realpathSync(dir);
    } catch {
      // not there yet: the writer creates it, below the nearest one that is
    }
    if (real !== null) {
      if (inside(realWorkspace, real)) return file;
      const via = path.relative(workspace, dir) || '.';
      throw new UsageError(
        'output',
        `${name}: "${value}" leads out of the workspace through a symbolic link (${via} is ${real}); not written`,
      );
    }
    if (path.dirname(dir) === dir) return file;
  }
}

/**
 * Every input given explicitly as a plain path (no glob characters) must exist: a missing one is a
 * usage error naming the nearest existing path (semantics §6). Directories and globs that hold no
 * artifact are the gate's `no_artifacts` / `no_match`, not this.
 */
export function requireExistingPaths(inputs: readonly string[], cwd: string, name: string): void {
  for (const raw of inputs) {
    const input = raw.trim();
    if (input === '' || input.startsWith('!') || picomatch.scan(input).isGlob) continue;
    const abs = path.resolve(cwd, input);
    if (existsSync(abs)) continue;
    // A Windows path written on another OS: the same path with forward slashes, when it exists.
    const slashed = input.replaceAll('\\', '/');
    if (path.sep === '/' && slashed !== input && existsSync(path.resolve(cwd, slashed)))
      throw new UsageError('path', `${name}: "${input}" does not exist (did you mean "${slashed}"? paths take / on every OS)`);
    throw new UsageError('path', `${name}: "${visible(input)}" does not exist${nearestExisting(cwd, abs)}`);
  }
}

/** ` (did you mean "…"?)` or ` (the nearest existing path is "…")`, relative to `cwd`. */
function nearestExisting(cwd: string, abs: string): string {
  let dir = abs;
  const missing: string[] = [];
  while (!existsSync(dir)) {
    missing.unshift(path.basename(dir));
    const up = path.dirname(dir);
    if (up === dir) return '';
    dir = up;
  }
  const rel = (p: string): string => path.relative(cwd, p).split(path.sep).join('/') || '.';
  let entries: string[] = [];
  try {
    entries = readdirSync(dir);
  } catch {
    /* not a directory: no suggestion */
  }
  const near = nearestName(missing[0] as string, entries);
  // Names on disk are shown, never interpreted (a folder named with a line break and a workflow command).
  if (near !== null) return ` (did you mean "${visible(rel(path.join(dir, near, ...missing.slice(1))))}"?)`;
  return ` (the nearest existing path is "${visible(rel(dir))}")`;
}

/** Where a path really is: the nearest directory above it that exists, with its links resolved, and the rest as written. */
export function canonical(file: string): string {
  const rest: string[] = [];
  for (let dir = file; ; dir = path.dirname(dir)) {
    try {
      return path.join(realpathSync(dir), ...rest);
    } catch {
      rest.unshift(path.basename(dir));
      if (path.dirname(dir) === dir) return file;
    }
  }
}

/** The outputs given (flag, file), those not asked for left out. */
export const given = (named: readonly (readonly [string, string | null])[]): (readonly [string, string])[] =>
  named.flatMap(([flag, file]) => (file === null ? [] : [[flag, file] as const]));

/**
 * Every file a command writes, each named once: two flags naming one file (`--output r.json --vsa
 * r.json`, or through a directory link: `real/r.json` and `alias/r.json`) are a usage error; and
 * none is one of `inputs`, the files it reads.
 */
export function distinctOutputs(named: readonly (readonly [string, string | null])[], inputs: readonly string[] = []): void {
  const seen = new Map<string, string>();
  // An output naming a file the command reads would replace it (a red team: an export replaced by its own records).
  const read = new Map(inputs.map((input) => [canonical(input), input]));
  for (const [flag, file] of named) {
    if (file === null) continue;
    const where = canonical(file);
    const input = read.get(where);
    if (input !== undefined)
      throw new UsageError(
        'conflict',
        `${flag}: names the input ${input}; a command never writes over what it reads (write to another file)`,
      );
    const other = seen.get(where);
    if (other) throw new UsageError('conflict', `${flag}: names the same file as ${other} (${file}); each output needs its own file`);
    seen.set(where, flag);
  }
}
