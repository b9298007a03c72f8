/**
 * Inputs (paths, directories, globs) → the artifact files they name, inside the workspace, sorted.
 * Nothing outside the workspace is read: a path or glob that escapes it, and a symbolic link that
 * resolves outside it, are errors; links to directories are not descended (no cycles).
 */
import {
  closeSync,
  type Dirent,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
  type Stats,
  statSync,
} from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { type Finding, finding, inputFinding } from '../core/findings.js';
import { cmp, messageOf } from '../core/text.js';
import {
  discoverable,
  EXTENSION_LIST,
  evidenceIn,
  formatOf,
  SIDECAR_MAX_BYTES,
  sidecarNamed,
  sidecarOfWhat,
  unreadText,
} from './formats.js';
import { MAX_WALK_ENTRIES } from './limits.js';

/**
 * Directories a walk from the workspace (or the working directory) never enters unless named
 * explicitly: a repository's own git folder and its dependencies. Under a folder the input names (an
 * evidence folder), only `.git` is passed over: a failing run committed as
 * `.assay/runs/node_modules/x.json` passed in silence (a red team).
 */
const PRUNED = new Set(['.git', 'node_modules']);
const ALWAYS_PRUNED = new Set(['.git']);

export interface FoundFile {
  /** Absolute path. */
  readonly path: string;
  /** Relative to the working directory, with / separators: the name used in every report. */
  readonly rel: string;
}

export interface Discovery {
  readonly files: readonly FoundFile[];
  readonly findings: readonly Finding[];
  /** Attestation files met in directories and globs (never read as artifacts; the gate checks that each has its artifact). */
  readonly attestations: readonly FoundFile[];
}

const toPosix = (p: string): string => p.split(path.sep).join('/');

/** What kind of special file a path is, for messages. */
function special(path: string): string {
  try {
    const st = statSync(path);
    if (st.isFIFO()) return 'a FIFO';
    if (st.isSocket()) return 'a socket';
    if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  } catch {
    return 'unreadable';
  }
  return 'a special file';
}
/**
 * Whether `where` is `root` or below it, by their text (resolve links first to compare where they
 * lead). A name that only begins with two dots (`..cache`) is below it: only a `..` segment leads up
 * (a red team's `--cache ..cache` in the checkout passed as outside it).
 */
export const inside = (root: string, where: string): boolean => {
  const rel = path.relative(root, where);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
};

/** The boundary a walk keeps and the count of entries it has seen (shared by every input of one discovery). */
interface Walk {
  readonly cwd: string;
  readonly workspace: string;
  /** The workspace with its links resolved: a link must resolve inside it. */
  readonly realWorkspace: string;
  readonly role: 'runs' | 'audit';
  entries: number;
}

const relOf = (w: Walk, abs: string): string => toPosix(path.relative(w.cwd, abs));
/** An input as a finding names it: its role and the value as given (`runs: .assay/run`). */
const named = (w: Walk, input: string): string => `${w.role}: ${input}`;
const where = (rel: string) => ({ file: rel, line: 1, column: 1 });

/** Whether a walk starts at the workspace itself (or the working directory): it passes over dependencies and what is not read by name. */
const fromTheTop = (state: Walk, dir: string): boolean => {
  const from = path.resolve(dir);
  return from === path.resolve(state.workspace) || from === path.resolve(state.cwd);
};

/**
 * Every regular file under `dir` (and in-workspace links to one), into `take`; problems into
 * `findings`. `inScope` says whether an entry is named by the input at all (a glob's match): one it
 * does not name is never taken and never reported, whatever it is.
 */
function walk(
  state: Walk,
  dir: string,
  input: string,
  take: (abs: string) => void,
  findings: Finding[],
  inScope: (abs: string) => boolean = () => true,
): void {
  const stack = [dir];
  const pruned = fromTheTop(state, dir) ? PRUNED : ALWAYS_PRUNED;
  while (stack.length > 0) {
    const digest = stack.pop() as string;
    let list: Dirent[];
    try {
      list = readdirSync(digest, { withFileTypes: true });
    } catch (error) {
      findings.push(finding('invalid_artifact', where(relOf(state, digest) || '.'), `cannot read directory: ${messageOf(error)}`));
      continue;
    }
    for (const ent of list) {
      if (++state.entries > MAX_WALK_ENTRIES) {
        findings.push(
          inputFinding('invalid_artifact', named(state, input), `more than ${MAX_WALK_ENTRIES} entries under the inputs; narrow the paths`),
        );
        return;
      }
      const abs = path.join(digest, ent.name);
      // A name that is not UTF-8 decodes with U+FFFD: two such names can decode alike, and one then hides
      // the other (a red team: a failing run behind a decoy of the same decoded name). Never read by name.
      if (ent.name.includes('\uFFFD') && (ent.isDirectory() || inScope(abs))) {
        findings.push(
          finding(
            'invalid_artifact',
            where(relOf(state, abs)),
            `a ${ent.isDirectory() ? 'folder' : 'file'} whose name is not UTF-8 (it reads as U+FFFD): names that are not UTF-8 can read alike and hide one another; rename it`,
          ),
        );
        continue;
      }
      if (ent.isDirectory()) {
        if (!pruned.has(ent.name)) stack.push(abs);
      } else if (!inScope(abs)) {
        // Not named by the input: neither read nor reported.
      } else if (ent.isFile()) {
        take(abs);
      } else if (ent.isSymbolicLink()) {
        link(state, abs, take, findings);
      } else if (formatOf(ent.name) === 'attestation') {
        take(abs); // refused once, beside its artifact (gate/evidence.ts), or an orphan
      } else if (formatOf(ent.name) !== null) {
        // A FIFO, socket or device with an artifact's name is never read, and never dropped silently.
        findings.push(finding('invalid_artifact', where(relOf(state, abs)), `not a regular file (${special(abs)}); not read`));
      }
    }
  }
}

/**
 * A symbolic link met in a walk: followed to a regular file inside the workspace, never out of it,
 * never into a directory. An attestation's name is taken whatever it leads to: it is read beside
 * its artifact, which refuses it once (gate/evidence.ts), or it is an orphan.
 */
function link(walk: Walk, abs: string, take: (abs: string) => void, findings: Finding[]): void {
  const rel = relOf(walk, abs);
  if (formatOf(abs) === 'attestation') {
    take(abs);
    return;
  }
  let real: string;
  try {
    real = realpathSync(abs);
  } catch {
    // A broken link with an artifact's name is never dropped silently; one with another name would not be read if it resolved.
    if (formatOf(abs) !== null) findings.push(finding('invalid_artifact', where(rel), 'broken symbolic link'));
    return;
  }
  if (!inside(walk.realWorkspace, real)) {
    findings.push(finding('invalid_artifact', where(rel), 'symbolic link points outside the workspace; not followed'));
    return;
  }
  let st: Stats;
  try {
    st = statSync(real);
  } catch {
    return;
  }
  if (st.isFile()) take(abs);
  else if (st.isDirectory())
    // Never silent: a linked folder of bundles would otherwise drop out of the gate with a notice.
    findings.push(
      finding('no_match', where(rel), 'symbolic link to a directory; not descended (name the folder it leads to as an input)', 'warning'),
    );
  else if (formatOf(abs) !== null)
    findings.push(
      finding('invalid_artifact', where(rel), `symbolic link to something that is not a regular file (${special(real)}); not read`),
    );
}

/** Whether a regular file is at `p` (a folder of the same name is none: a red team hid a renamed run behind one). */
export const isFile = (p: string): boolean => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/** A file's bytes, up to `max` (and its whole size). */
function head(abs: string, max: number): { readonly bytes: Buffer; readonly size: number } {
  const fd = openSync(abs, 'r');
  try {
    const size = fstatSync(fd).size;
    const bytes = Buffer.alloc(Math.min(size, max));
    let got = 0;
    while (got < bytes.length) {
      const n = readSync(fd, bytes, got, bytes.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return { bytes: bytes.subarray(0, got), size };
  } finally {
    closeSync(fd);
  }
}

/** Which of `wanted` (trimmed lines) are not lines of the file at `abs`, read a chunk at a time. */
function linesMissing(abs: string, wanted: ReadonlySet<string>): Set<string> {
  const missing = new Set(wanted);
  const fd = openSync(abs, 'r');
  try {
    const chunk = Buffer.alloc(1 << 20);
    let carry = '';
    let position = 0;
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, position);
      position += n;
      const text = carry + (n > 0 ? chunk.toString('utf8', 0, n) : '\n');
      const lines = text.split('\n');
      carry = n > 0 ? (lines.pop() ?? '') : '';
      for (const line of lines) missing.delete(line.trim());
      if (n === 0 || missing.size === 0) return missing;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Why a file the gate does not read by its name (a sidecar's, an attestation's, any other) holds
 * evidence (formats.ts `evidenceIn`), located, or null. What is only a copy of the file beside it
 * (`of`: its path, or null; a clear-signed log's lines, a document of the same text) holds nothing
 * unread. A file that cannot be read is said: what it holds is unknown.
 */
export function evidenceHeldBy(abs: string, of: string | null, capped = true): { readonly line: number; readonly why: string } | null {
  try {
    const { bytes, size } = head(abs, SIDECAR_MAX_BYTES);
    const held = evidenceIn(bytes, size, capped);
    const beside = of !== null && isFile(of);
    switch (held.kind) {
      case 'nothing':
        return null;
      case 'evidence':
        return { line: 1, why: held.why };
      case 'document': {
        // A copy is the same text (a document JSON.parse reads alike could hold a key twice, which the reader refuses: a red team).
        const copy = beside && of !== null && readFileSync(of, 'utf8').trim() === held.text.trim();
        return copy ? null : { line: 1, why: 'a JSON document the gate reads as evidence (a run or an export?)' };
      }
      case 'lines': {
        const missing = beside && of !== null ? linesMissing(of, new Set(held.lines.map((l) => l.text))) : null;
        const first = held.lines.find((l) => missing === null || missing.has(l.text));
        return first
          ? {
              line: first.line,
              why: `a line the gate reads as evidence${beside ? ' that the file beside it does not hold' : ''} (an evidence event, an export entry or a server tracing line?)`,
            }
          : null;
      }
    }
  } catch (e) {
    return { line: 1, why: `it cannot be read (${messageOf(e)}), so what it holds is unknown` };
  }
}

/** One input (a path, a directory or a glob) → the files it names and what went wrong. */
function expand(state: Walk, input: string, noMatch: 'error' | 'notice'): Discovery {
  const findings: Finding[] = [];
  const files: FoundFile[] = [];
  const attestations: FoundFile[] = [];
  const add = (abs: string): void => {
    files.push({ path: abs, rel: relOf(state, abs) });
  };
  /**
   * A file that is not an artifact of this role but is not ignored either: an attestation (read
   * beside its artifact) or evidence this role does not read (compressed on its own, an archive not
   * named .tar.gz, a server log among exports: refused by name). False: neither.
   */
  /**
   * @param sniff the file is under a folder the input names (not the workspace itself): a file there the
   *   gate does not read by its name is read to see whether it holds evidence (a red team: a failing run
   *   as `incident.json ` with a trailing space, `incident.json#1`, `incident.txt` passed in silence)
   */
  const besideArtifacts = (abs: string, sniff = false): boolean => {
    if (formatOf(abs) === 'attestation') {
      attestations.push({ path: abs, rel: relOf(state, abs) });
      return true;
    }
    const unread = unreadText(abs, state.role, isFile);
    if (unread !== null) {
      // A .log among the exports may be the export job's own log: said (a warning), never dropped; one that
      // holds evidence (a coverage statement, records, an agent's server log saved there) is an error: that
      // evidence is not read (a red team: an import's output saved as .log, and a failing run, passed).
      const exportLog = state.role === 'audit' && formatOf(abs) === 'log';
      const held = exportLog && isFile(abs) ? evidenceHeldBy(abs, null, false) : null;
      const at = { file: relOf(state, abs), line: held?.line ?? 1, column: 1 };
      if (held) findings.push(finding('invalid_artifact', at, `${unread}; it holds ${held.why}: this evidence is not read`));
      else findings.push(finding('invalid_artifact', at, unread, exportLog ? 'warning' : undefined));
      return true;
    }
    if (!sidecarNamed(abs)) {
      const held = sniff && isFile(abs) ? evidenceHeldBy(abs, null, false) : null;
      if (held)
        findings.push(
          finding(
            'invalid_artifact',
            { file: relOf(state, abs), line: held.line, column: 1 },
            `a file the gate does not read by its name (it reads ${EXTENSION_LIST}), but it holds ${held.why}: this evidence is not read; give it its name, or move it out of the input`,
          ),
        );
      return held !== null;
    }
    // Named like a sidecar of the file beside it: one that holds evidence is that evidence renamed, not read.
    const of = sidecarOfWhat(abs);
    const held = isFile(abs) ? evidenceHeldBy(abs, of) : null;
    if (held)
      findings.push(
        finding(
          'invalid_artifact',
          { file: relOf(state, abs), line: held.line, column: 1 },
          `named like a checksum, signature, certificate or licence${isFile(of) ? ' of the file beside it' : ''}, but it holds ${held.why}: receipt-gate reads a file by its extension, so this evidence is not read; give it its own name, or move it out of the input`,
        ),
      );
    return held !== null;
  };
  const { base, glob } = inputRoot(state.cwd, input);
  if (!inside(state.workspace, base)) {
    findings.push(
      inputFinding('invalid_artifact', named(state, input), `"${input}" is outside the workspace (${state.workspace}); not read`),
    );
    return { files, findings, attestations };
  }
  let st: Stats;
  try {
    st = lstatSync(base);
  } catch {
    // A default that is absent is no input (a missing .assay/audit means no exports): only an input given explicitly says so.
    const why = glob ? 'no such directory' : 'no such file or directory';
    if (noMatch === 'error') findings.push(inputFinding('no_match', named(state, input), `"${input}" matched no file (${why})`, noMatch));
    return { files, findings, attestations };
  }
  // Lexically inside is not enough: the input, or any directory above it, may be a link out.
  let real = '';
  try {
    real = realpathSync(base);
  } catch {
    /* a broken link: reported below */
  }
  if (!real || !inside(state.realWorkspace, real)) {
    findings.push(
      inputFinding(
        'invalid_artifact',
        named(state, input),
        `"${input}" resolves (through a symbolic link) to outside the workspace; not followed`,
      ),
    );
    return { files, findings, attestations };
  }
  if (st.isSymbolicLink()) st = statSync(real);
  // A walk from the workspace itself (or the working directory) passes over what is not read by name.
  const sniff = !fromTheTop(state, base);
  if (glob) {
    const match = picomatch(relOf(state, path.resolve(state.cwd, input)), { dot: true });
    let ignored = 0;
    walk(
      state,
      base,
      input,
      (abs) => {
        const rel = relOf(state, abs);
        if (discoverable(rel, state.role)) add(abs);
        else if (!besideArtifacts(abs, sniff)) ignored++;
      },
      findings,
      (abs) => match(relOf(state, abs)),
    );
    if (ignored > 0)
      findings.push(
        inputFinding('no_match', named(state, input), `"${input}" matched ${ignored} file(s) that are not ${EXTENSION_LIST}; not read`),
      );
  } else if (st.isDirectory()) {
    walk(state, base, input, (abs) => (discoverable(abs, state.role) ? add(abs) : besideArtifacts(abs, sniff)), findings);
  } else if (st.isFile()) {
    if (!besideArtifacts(base)) add(base);
  } else {
    findings.push(inputFinding('invalid_artifact', named(state, input), `"${input}" is not a regular file or directory`));
    return { files, findings, attestations };
  }
  if (files.length === 0) findings.push(inputFinding('no_match', named(state, input), `"${input}" matched no artifact file`, noMatch));
  return { files, findings, attestations };
}

/**
 * @param all       paths, directories or globs, relative to `cwd`; one that starts with `!` is a
 *                  glob that excludes what it matches from the others' files
 * @param cwd       the working directory (names in reports are relative to it)
 * @param workspace nothing outside this directory is read
 * @param explicit  the inputs were given explicitly: one that matches nothing is an error, not a notice
 */
/** Where an input starts: its file or folder, or a glob's fixed folder (absolute), and whether it is a glob. */
export function inputRoot(cwd: string, input: string): { readonly base: string; readonly glob: boolean } {
  const scan = picomatch.scan(input);
  return { base: path.resolve(cwd, scan.isGlob ? scan.base || '.' : input), glob: scan.isGlob };
}

export function discover(
  all: readonly string[],
  cwd: string,
  workspace: string,
  explicit = false,
  role: 'runs' | 'audit' = 'runs',
): Discovery {
  const trimmed = all.map((i) => i.trim());
  const excludes = trimmed
    .filter((i) => i.startsWith('!'))
    .map((i) => picomatch(toPosix(path.relative(cwd, path.resolve(cwd, i.slice(1)))), { dot: true }));
  let realWorkspace: string;
  try {
    realWorkspace = realpathSync(workspace);
  } catch {
    realWorkspace = path.resolve(workspace);
  }
  const walk: Walk = { cwd, workspace, realWorkspace, role, entries: 0 };
  const findings: Finding[] = [];
  const found = new Map<string, FoundFile>();
  const attestations = new Map<string, FoundFile>();
  for (const input of trimmed) {
    if (input === '' || input.startsWith('!')) continue;
    const discovery = expand(walk, input, explicit ? 'error' : 'notice');
    for (const f of discovery.findings) findings.push(f);
    for (const f of discovery.files) if (!found.has(f.rel)) found.set(f.rel, f);
    for (const f of discovery.attestations) attestations.set(f.rel, f);
  }
  const kept = (m: Map<string, FoundFile>) =>
    [...m.values()].filter((f) => !excludes.some((x) => x(f.rel))).sort((a, b) => cmp(a.rel, b.rel));
  return { files: kept(found), findings, attestations: kept(attestations) };
}
