/**
 * Inputs (paths, directories, globs) → the artifact files they name, inside the workspace, sorted.
 * Nothing outside the workspace is read: a path or glob that escapes it, and a symbolic link that
 * resolves outside it, are errors; links to directories are not descended (no cycles).
 */
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { finding, inputFinding, type Finding } from '../core/findings.js';
import { discoverable, EXTENSION_LIST, formatOf } from './formats.js';

/** Directories a walk never enters unless named explicitly. */
const PRUNED = new Set(['.git', 'node_modules']);
const MAX_ENTRIES = 500_000;

export interface FoundFile {
  /** Absolute path. */
  readonly path: string;
  /** Relative to the working directory, with / separators: the name used in every report. */
  readonly rel: string;
}

export interface Discovery {
  readonly files: readonly FoundFile[];
  readonly findings: readonly Finding[];
}

const toPosix = (p: string): string => p.split(path.sep).join('/');

/** What kind of special file a path is, for messages. */
function special(p: string): string {
  try {
    const st = statSync(p);
    if (st.isFIFO()) return 'a FIFO';
    if (st.isSocket()) return 'a socket';
    if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  } catch {
    return 'unreadable';
  }
  return 'a special file';
}
const inside = (root: string, p: string): boolean => {
  const r = path.relative(root, p);
  return r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
};

/**
 * @param inputs   paths, directories or globs, relative to `cwd`
 * @param cwd      the working directory (names in reports are relative to it)
 * @param workspace nothing outside this directory is read
 * @param explicit  the inputs were given explicitly: one that matches nothing is an error, not a notice
 *
 * An input that starts with `!` is a glob that excludes what it matches from the others' files.
 */
export function discover(all: readonly string[], cwd: string, workspace: string, explicit = false, role: 'runs' | 'audit' = 'runs'): Discovery {
  const inputs = all.filter((i) => !i.trim().startsWith('!'));
  const excludes = all
    .map((i) => i.trim())
    .filter((i) => i.startsWith('!'))
    .map((i) => picomatch(toPosix(path.relative(cwd, path.resolve(cwd, i.slice(1)))), { dot: true }));
  const noMatch = explicit ? 'error' : 'notice';
  const findings: Finding[] = [];
  const found = new Map<string, FoundFile>();
  let realWorkspace: string;
  try {
    realWorkspace = realpathSync(workspace);
  } catch {
    realWorkspace = path.resolve(workspace);
  }
  const where = (rel: string) => ({ file: rel, line: 1, column: 1 });
  let matched = 0;
  const add = (abs: string): void => {
    const rel = toPosix(path.relative(cwd, abs));
    matched++;
    if (!found.has(rel)) found.set(rel, { path: abs, rel });
  };
  let entries = 0;
  /** Walk `dir`, calling `take` for each regular file (or in-workspace link to one). */
  const walk = (dir: string, input: string, take: (abs: string) => void): void => {
    const stack = [dir];
    while (stack.length > 0) {
      const d = stack.pop()!;
      let list;
      try {
        list = readdirSync(d, { withFileTypes: true });
      } catch (e) {
        findings.push(finding('invalid_artifact', where(toPosix(path.relative(cwd, d)) || '.'), `cannot read directory: ${(e as Error).message}`));
        continue;
      }
      for (const ent of list) {
        if (++entries > MAX_ENTRIES) {
          findings.push(inputFinding('invalid_artifact', input, `more than ${MAX_ENTRIES} entries under the inputs; narrow the paths`));
          return;
        }
        const abs = path.join(d, ent.name);
        if (ent.isDirectory()) {
          if (!PRUNED.has(ent.name)) stack.push(abs);
        } else if (ent.isFile()) {
          take(abs);
        } else if (ent.isSymbolicLink()) {
          link(abs, take);
        } else if (formatOf(ent.name) !== null) {
          // A FIFO, socket or device with an artifact's name is never read, and never dropped silently.
          findings.push(finding('invalid_artifact', where(toPosix(path.relative(cwd, abs))), `not a regular file (${special(abs)}); not read`));
        }
      }
    }
  };
  const link = (abs: string, take: (abs: string) => void): void => {
    const rel = toPosix(path.relative(cwd, abs));
    let real: string;
    try {
      real = realpathSync(abs);
    } catch {
      findings.push(finding('invalid_artifact', where(rel), 'broken symbolic link'));
      return;
    }
    if (!inside(realWorkspace, real)) {
      findings.push(finding('invalid_artifact', where(rel), 'symbolic link points outside the workspace; not followed'));
      return;
    }
    let st;
    try {
      st = statSync(real);
    } catch {
      return;
    }
    if (st.isFile()) take(abs);
    else if (st.isDirectory()) findings.push(finding('no_match', where(rel), 'symbolic link to a directory; not descended'));
    else if (formatOf(abs) !== null)
      findings.push(finding('invalid_artifact', where(rel), `symbolic link to something that is not a regular file (${special(real)}); not read`));
  };

  for (const raw of inputs) {
    const input = raw.trim();
    if (input === '') continue;
    const scan = picomatch.scan(input);
    const base = path.resolve(cwd, scan.isGlob ? scan.base || '.' : input);
    if (!inside(workspace, base)) {
      findings.push(inputFinding('invalid_artifact', input, `"${input}" is outside the workspace (${workspace}); not read`));
      continue;
    }
    let st;
    try {
      st = lstatSync(base);
    } catch {
      findings.push(
        inputFinding('no_match', input, `"${input}" matched no file (${scan.isGlob ? 'no such directory' : 'no such file or directory'})`, noMatch),
      );
      continue;
    }
    matched = 0;
    // Lexically inside is not enough: the input, or any directory above it, may be a link out.
    let real = '';
    try {
      real = realpathSync(base);
    } catch {
      /* a broken link: reported below */
    }
    if (!real || !inside(realWorkspace, real)) {
      findings.push(inputFinding('invalid_artifact', input, `"${input}" resolves (through a symbolic link) to outside the workspace; not followed`));
      continue;
    }
    if (st.isSymbolicLink()) st = statSync(real);
    if (scan.isGlob) {
      const match = picomatch(toPosix(path.relative(cwd, path.resolve(cwd, input))), { dot: true });
      let ignored = 0;
      walk(base, input, (abs) => {
        const rel = toPosix(path.relative(cwd, abs));
        if (!match(rel)) return;
        if (discoverable(rel, role)) add(abs);
        else if (formatOf(rel) !== 'attestation') ignored++;
      });
      if (ignored > 0) findings.push(inputFinding('no_match', input, `"${input}" matched ${ignored} file(s) that are not ${EXTENSION_LIST}; not read`));
    } else if (st.isDirectory()) {
      walk(base, input, (abs) => {
        if (discoverable(abs, role)) add(abs);
      });
    } else if (st.isFile()) {
      add(base);
    } else {
      findings.push(inputFinding('invalid_artifact', input, `"${input}" is not a regular file or directory`));
      continue;
    }
    if (matched === 0) findings.push(inputFinding('no_match', input, `"${input}" matched no artifact file`, noMatch));
  }
  const files = [...found.values()].filter((f) => !excludes.some((x) => x(f.rel))).sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return { files, findings };
}
