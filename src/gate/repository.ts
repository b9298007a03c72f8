/**
 * Repository files as they are at a commit, read with git (never a shell; the ref and the path are
 * arguments): the policy file and trust material at a pull request's base, or at the CLI's
 * `--policy-ref`. Nothing is fetched: a commit that is not in the local clone is said to be absent.
 */
import { createHash } from 'node:crypto';
import { type Dirent, lstatSync, readdirSync, readFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import type { Policy } from '../core/policy.js';
import type { Result } from '../core/result.js';
import { editDistance } from '../core/text.js';
import { childProcess } from '../read/builtins.js';
import { inputRoot, inside } from '../read/discover.js';
import { formatOf } from '../read/formats.js';
import { DEFAULTS } from './settings/defaults.js';
import { canonical } from './settings/paths.js';

/** Most bytes a file read from git may hold (a policy file or a trusted root is small). */
const MAX_BYTES = 16 * 1024 * 1024;

/** Most bytes a whole tree's listing may hold. */
const TREE_BYTES = 512 * 1024 * 1024;

/** Git's environment: never a prompt; replace refs never followed (they showed another commit's tree under a commit's id: a red team). */
const gitEnv = (): NodeJS.ProcessEnv => ({ ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_NO_REPLACE_OBJECTS: '1' });

function git(
  cwd: string,
  args: readonly string[],
  maxBuffer = MAX_BYTES,
): { readonly status: number | null; readonly stdout: string; readonly stderr: string } {
  const r = childProcess().spawnSync('git', ['-C', cwd, ...args], {
    encoding: 'utf8',
    maxBuffer,
    env: gitEnv(),
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
 * The commit a name the user gave (`--policy-ref`, `--against`) names: a commit id, a full ref name
 * (`refs/…`), or a short name that git reads one way only. Refused: a name git could read as objects
 * naming different commits (a tag `origin/main` beside the remote branch, a tag named like an
 * abbreviated commit id: git takes the tag, and an author who can push a tag chose the policy that
 * judged them; red teams), revision suffixes (`^0`, `~0`, `@{…}`: they skipped the check), and a
 * name the clone does not have.
 */
export function resolveUserRef(cwd: string, ref: string): Result<string> {
  if (!isCommitId(ref) && !/^[\w./-]+$/.test(ref))
    return {
      ok: false,
      reason: `"${ref}" is not a ref name or a commit id (revision suffixes such as ^, ~ or @{…} are not read: give the commit id)`,
    };
  const commit = resolveCommit(cwd, ref);
  if (commit === null) return { ok: false, reason: `"${ref}" names no commit of the repository at ${cwd}` };
  if (isCommitId(ref) || ref.startsWith('refs/')) return { ok: true, value: commit };
  const at = (name: string): string => git(cwd, ['rev-parse', '--verify', '--quiet', `${name}^{commit}`]).stdout.trim();
  // git's own order of reading a short name (git rev-parse, "specifying revisions"), and the objects a hex name abbreviates.
  const named = [`refs/${ref}`, `refs/tags/${ref}`, `refs/heads/${ref}`, `refs/remotes/${ref}`, `refs/remotes/${ref}/HEAD`].map(
    (full) => [full, at(full)] as const,
  );
  if (/^[0-9a-f]{4,63}$/.test(ref))
    for (const id of git(cwd, ['rev-parse', `--disambiguate=${ref}`]).stdout.split('\n'))
      if (/^[0-9a-f]{40,64}$/.test(id)) named.push([`the commit ${id.slice(0, 12)}`, at(id)]);
  const found = named.filter(([, c]) => c !== '');
  if (found.some(([, c]) => c !== commit))
    return {
      ok: false,
      reason: `"${ref}" is ambiguous: ${found.map(([full, c]) => `${full} (${c.slice(0, 12)})`).join(', ')}; give the full ref name or the commit id`,
    };
  return { ok: true, value: commit };
}

/** A commit id as an event names a base: 40 hex digits (SHA-1) or 64 (SHA-256), never a ref name. */
export const isCommitId = (text: string): boolean => /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(text);

/** Git's mode of a symbolic link. */
const LINK_MODE = '120000';

/** The repository path of a file on disk, `/`-separated. */
const relOf = (cwd: string, file: string): string => path.relative(cwd, path.resolve(cwd, file)).split(path.sep).join('/');

/** The path and each folder above it: `a/b/c` → `a`, `a/b`, `a/b/c`. */
const prefixes = (rel: string): string[] => rel.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'));

/**
 * A file as it is at a commit: its text, null when the commit has no such file, or why it cannot be
 * read (no git, not a repository, the commit absent, the file or a folder above it a symbolic link:
 * git would give a link's text where the contents API gives its target, so neither is read).
 * @param file the file's path on disk (a path in the checkout), read at `commit` relative to `cwd`
 */
export function readAtCommit(cwd: string, commit: string, file: string): Result<string | null> {
  const sha = resolveCommit(cwd, commit);
  if (sha === null)
    return {
      ok: false,
      reason: `commit ${commit} is not in this clone (fetch it, e.g. actions/checkout with fetch-depth: 0, or give the API a token)`,
    };
  const rel = relOf(cwd, file);
  const tree = git(cwd, ['ls-tree', '-z', sha, '--', ...prefixes(rel).map((p) => `./${p}`)]);
  if (tree.status !== 0)
    return { ok: false, reason: `git ls-tree ${sha.slice(0, 12)} failed: ${tree.stderr.trim() || `status ${tree.status}`}` };
  // Whether the commit has the file is the tree's word, never a read that failed (a red team: in a
  // blobless clone whose remote could not be reached, the base's policy read as absent, and the pull
  // request's own policy judged it).
  // git lists every entry of a folder on the way when a longer path below it is named too: only the
  // path and the folders above it are asked about (a link beside the file is not on its way).
  const onTheWay = new Set(prefixes(rel));
  let kind: string | null = null;
  for (const entry of tree.stdout.split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab < 0 || !onTheWay.has(entry.slice(tab + 1))) continue;
    const [mode, type] = entry.slice(0, tab).split(' ');
    if (mode === LINK_MODE) return { ok: false, reason: linkReason(entry.slice(tab + 1), rel) };
    if (entry.slice(tab + 1) === rel) kind = type ?? '';
  }
  if (kind === null) return { ok: true, value: null };
  if (kind !== 'blob') return { ok: false, reason: `${rel} at ${sha.slice(0, 12)} is a ${kind}, not a file` };
  const shown = git(cwd, ['show', `${sha}:./${rel}`]);
  if (shown.status !== 0)
    return { ok: false, reason: `git show ${sha.slice(0, 12)}:${rel} failed: ${shown.stderr.trim() || `status ${shown.status}`}` };
  return { ok: true, value: shown.stdout };
}

/** Why a policy or trust file behind a link is not read (docs/policy.md §11 "The file read is a file"). */
export const linkReason = (link: string, rel: string): string =>
  `${link === rel ? rel : `${link} (above ${rel})`} is a symbolic link: a policy or trust file is read only as a regular file (a link's text and its target could say different things); commit the file itself`;

/**
 * Whether a repository path is where a policy file is sometimes put instead of the default
 * (docs/policy.md §11 "A policy at a near-miss path"), in any case: `.github/Receipt-Gate.yml` is
 * not the default on a case-sensitive clone, and renamed so, it left the gate with no policy (a red
 * team); a misspelt name (two edits at most) in the same places, another extension after it.
 */
export function isNearMissPolicy(rel: string): boolean {
  if (rel === DEFAULTS.policy) return false;
  const lower = rel.toLowerCase();
  if (/^\.github\/receipt-gate\/[^/]+\.ya?ml$/.test(lower)) return true;
  // A file at the root or in .github/ whose name is a misspelling of the policy's (`recipt-gate.yml`,
  // `receipt_gate.yml`, `receipt.gate.yml`, `receipt-gate.ym`, `receipt-gate.yml.txt`, `receipt-gate.policy.yml`): it was read by
  // no one, in silence (red teams). Only a name that says "gate": `receipt-date.yml` is another file.
  const m = /^(\.github\/)?([^/]+)$/.exec(lower);
  const name = m?.[2];
  if (name === undefined || !name.includes('gate')) return false;
  const dot = name.indexOf('.');
  const [stem, ext] = dot < 0 ? [name, ''] : [name.slice(0, dot), name.slice(dot)];
  // Words may come before the extension too (`receipt-gate.policy.yml`, `.prod.yaml`: a red team).
  const kinds = m?.[1] ? /^(?:\.[a-z0-9_-]+)*\.(?:ya?ml|json)(?:\.[a-z0-9]+)*$/ : /^(?:\.[a-z0-9_-]+)*\.ya?ml(?:\.[a-z0-9]+)*$/;
  if (kinds.test(ext) && editDistance(stem, 'receipt-gate') <= 2) return true;
  const whole = m?.[1]
    ? ['receipt-gate', 'receipt-gate.yml', 'receipt-gate.yaml', 'receipt-gate.json']
    : ['receipt-gate', 'receipt-gate.yml', 'receipt-gate.yaml'];
  return whole.some((w) => editDistance(name, w) <= 2);
}

/** The folders whose entries may be near misses: the root, `.github`, `.github/receipt-gate` (in any case: their names are tested by isNearMissPolicy). */
const NEAR_MISS_FOLDERS = /^(?:|\.github|\.github\/receipt-gate)$/i;

/** Why `git ls-tree` of a commit could not say (its first line of error). */
const lsTreeFailed = (
  commit: string,
  r: { readonly status: number | null; readonly stderr: string },
): { readonly ok: false; readonly reason: string } => ({
  ok: false,
  reason: `git ls-tree ${commit.slice(0, 12)} failed (${r.stderr.trim().split('\n')[0] || `exit ${r.status}`})`,
});

/** A near-miss policy file at a commit (git), or null; why the commit's tree cannot be listed (never "none found": a gate that cannot look must not run without the policy). */
export function nearMissAtCommit(cwd: string, commit: string): Result<string | null> {
  // The root's entries, and every path below a folder at the root named `.github` in any case.
  const root = git(cwd, ['ls-tree', '-z', commit, '--', '.']);
  if (root.status !== 0) return lsTreeFailed(commit, root);
  // "<mode> <type> <id>\t<name>": a folder at the root is no file there (a `.receipt-gate/` clone of the CLI is not a policy).
  const listed = root.stdout.split('\0').flatMap((e) => {
    const tab = e.indexOf('\t');
    return tab < 0 ? [] : [{ tree: e.slice(0, tab).split(' ')[1] === 'tree', name: e.slice(tab + 1) }];
  });
  const names = listed.filter((e) => !e.tree).map((e) => e.name);
  const folders = listed.filter((e) => e.tree && /^\.github$/i.test(e.name)).map((e) => `./${e.name}`);
  if (folders.length === 0) return { ok: true, value: names.sort().find(isNearMissPolicy) ?? null };
  const below = git(cwd, ['ls-tree', '-r', '-z', '--name-only', commit, '--', ...folders]);
  if (below.status !== 0) return lsTreeFailed(commit, below);
  return { ok: true, value: [...names, ...below.stdout.split('\0')].sort().find(isNearMissPolicy) ?? null };
}

/**
 * A near-miss policy file in the checkout, or null: any entry there but a folder, a link included
 * (dangling or not: a commit's tree lists it, so once merged the base has it; a red team's link to
 * nowhere passed the pull request and stopped every one after).
 */
export function nearMissOnDisk(cwd: string): string | null {
  const found: string[] = [];
  // The root, then each folder whose name is a near-miss folder's in any case, one level at a time.
  const walk = (rel: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(path.join(cwd, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const child = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (NEAR_MISS_FOLDERS.test(child)) walk(child);
      } else if (isNearMissPolicy(child)) found.push(child);
    }
  };
  walk('');
  return found.sort()[0] ?? null;
}

/** Why a file of the checkout is not read as a policy or trust file (it or a folder above it inside `cwd` is a link), or null. */
export function linkOnDisk(cwd: string, rel: string): string | null {
  for (const prefix of prefixes(rel)) {
    try {
      if (lstatSync(path.join(cwd, prefix)).isSymbolicLink()) return linkReason(prefix, rel);
    } catch {
      return null;
    }
  }
  return null;
}

/** A file of a commit's tree: its blob id (git's sha1 or sha256 object id) and size in bytes. */
export interface TreeBlob {
  readonly id: string;
  readonly size: number;
}

/** Git's object id of a blob: sha1 (or sha256 for a 64-digit repository) of `blob <size>\0` and the bytes. */
function blobId(bytes: Uint8Array, hex = 40): string {
  const hash = createHash(hex === 64 ? 'sha256' : 'sha1');
  hash.update(`blob ${bytes.length}\0`);
  hash.update(bytes);
  return hash.digest('hex');
}

/**
 * Why the files a verdict rests on may not be the bytes of `commit`, or null: the clone at `dir` is
 * at another commit, a file is not a regular file of that commit's tree (untracked, ignored, a
 * symbolic link there), its bytes now are not those the gate judged (`files`: path relative to `dir`
 * → the sha256 hex judged, or null when only the file is known), or they are not the commit's blob
 * (byte for byte, or with CRLF line ends a checkout made of LF ones; never through a filter driver:
 * a configured clean filter made any bytes "match"). Git's word on the checkout is never taken: a
 * committed link, `update-index --assume-unchanged` and `git replace` each hid an edit (red teams).
 */
export function checkoutDiffers(dir: string, commit: string, restsOn: RestsOn): string | null {
  const { files, whole } = restsOn;
  const short = commit.slice(0, 12);
  const head = resolveCommit(dir, 'HEAD');
  if (head === null) return `${dir} is not a git clone whose commit can be read, so its files cannot be said to be ${short}'s`;
  if (head !== commit) return `the checkout is at ${head.slice(0, 12)}, not at ${short}, the commit the verdict would name`;
  // The commit's whole tree, "<mode> <type> <id>\t<path>" from the top; `dir`'s place in it (a -C subfolder, a
  // working-directory, a policy above it as ../.github/receipt-gate.yml).
  const prefix = git(dir, ['rev-parse', '--show-prefix']);
  const tree = git(dir, ['ls-tree', '-r', '-z', '--full-tree', commit], TREE_BYTES);
  if (tree.status !== 0 || prefix.status !== 0)
    return `git cannot list ${short}'s tree (${(tree.stderr || prefix.stderr).trim().split('\n')[0] || `exit ${tree.status}`})`;
  const entries = new Map<string, { readonly mode: string; readonly id: string }>();
  for (const entry of tree.stdout.split('\0')) {
    const m = /^(\d+) \w+ ([0-9a-f]{40,64})\t(.+)$/s.exec(entry);
    if (m?.[1] && m[2] && m[3]) entries.set(m[3], { mode: m[1], id: m[2] });
  }
  // Every file of the commit under what the gate was asked to read is in the checkout: a sparse checkout,
  // or a step that deleted a failing run before the gate ran, judged less than the commit holds (a red team:
  // a signed PASSED verdict named a commit whose full tree fails).
  const top = cloneTop(dir);
  const under = whole.map((w) => path.posix.normalize(path.posix.join(prefix.stdout.trim(), w.split(path.sep).join('/'))));
  if (top !== null && under.length > 0)
    for (const [rel, entry] of entries) {
      if (entry.mode === SUBMODULE_MODE) continue;
      const base = under.find((u) => u === '.' || rel === u || rel.startsWith(`${u}/`));
      // Whatever its name: the gate reads a folder's other files to see whether they hold evidence (a red team: a
      // deleted `bad.txt` holding a failing run, or a folder left at a file's path, passed).
      if (base === undefined || fileOnDisk(path.join(top, rel))) continue;
      return `${rel} is in ${short}'s tree${base === rel ? '' : ` under ${base}`}, but not in the checkout (a sparse checkout, or deleted before the gate ran)`;
    }
  for (const [file, judged] of files) {
    const rel = path.posix.normalize(path.posix.join(prefix.stdout.trim(), file.split(path.sep).join('/')));
    const entry = entries.get(rel);
    if (entry === undefined) return `${file} is not in ${short}'s tree (untracked or ignored in the checkout)`;
    if (entry.mode === LINK_MODE) return `${file} is a symbolic link in ${short}: the bytes read are another file's`;
    let bytes: Buffer;
    try {
      bytes = readFileSync(path.join(dir, file));
    } catch {
      return `${file} cannot be read again to compare it with ${short}'s`;
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (judged !== null && sha256 !== judged) return `${file} changed while the gate ran: the bytes judged are not on disk now`;
    if (blobId(bytes, entry.id.length) === entry.id || blobId(lfOf(bytes), entry.id.length) === entry.id) continue;
    // A blob with mixed line ends checked out under eol=crlf: each lone LF became CRLF, its own CRLFs kept (undoing them all cannot give it back).
    if (bytes.includes(13) && crlfOf(blobBytes(dir, entry.id))?.equals(bytes)) continue;
    // A Git LFS pointer pins its file's bytes by their sha256 and size: the commit holds those bytes.
    if (lfsPointerOf(dir, entry.id) !== `${sha256} ${bytes.length}`) return `${file} differs from ${short}'s in the checkout`;
  }
  return null;
}

/** The `sha256 size` a Git LFS pointer blob names, or null when the blob is not one (read with git, small blobs only). */
function lfsPointerOf(dir: string, id: string): string | null {
  const size = git(dir, ['cat-file', '-s', id]);
  if (size.status !== 0 || Number(size.stdout.trim()) > 1024) return null;
  const text = git(dir, ['cat-file', 'blob', id]);
  const m = /^version https:\/\/git-lfs\.github\.com\/spec\/v1\noid sha256:([0-9a-f]{64})\nsize (\d+)\n$/.exec(text.stdout);
  return text.status === 0 && m ? `${m[1]} ${m[2]}` : null;
}

/** A blob's bytes read with git, or null (too large to hold, or unreadable). */
function blobBytes(dir: string, id: string): Buffer | null {
  const r = childProcess().spawnSync('git', ['-C', dir, 'cat-file', 'blob', id], {
    maxBuffer: MAX_BYTES,
    env: gitEnv(),
  });
  return r.error || r.status !== 0 ? null : r.stdout;
}

/** The bytes as a checkout under eol=crlf writes them: each LF not already after a CR as CRLF. */
function crlfOf(bytes: Buffer | null): Buffer | null {
  return bytes === null ? null : Buffer.from(bytes.toString('latin1').replace(/(?<!\r)\n/g, '\r\n'), 'latin1');
}

/** The bytes with each CRLF as LF (a checkout's line-ending conversion, undone). */
function lfOf(bytes: Buffer): Buffer {
  if (!bytes.includes(13)) return bytes;
  return Buffer.from(bytes.toString('latin1').replace(/\r\n/g, '\n'), 'latin1');
}

/**
 * What a verdict rests on, the files `checkoutDiffers` compares (paths relative to `cwd`): the
 * evidence with the sha256 judged, then the policy file (with the sha256 judged) and the trust files
 * its `trust:` section names when read from the checkout (not at a commit), and the trust files an entry's flags or inputs
 * name (absolute) that lie in the clone (a key the runner wrote outside it is the caller's word).
 */
export function verdictRestsOn(
  cwd: string,
  inputs: ReadonlyMap<string, string>,
  policy: Policy,
  trustFiles: readonly string[],
  asked: readonly string[],
): RestsOn {
  const out = new Map<string, string | null>(inputs);
  const source = policy.source;
  const trust = source && source.commit === null ? policy.trust : null;
  const named = trust ? [...trust.trustedKeys, ...trust.trustedProducers, ...(trust.trustedRoot ? [trust.trustedRoot] : [])] : [];
  const top = cloneTop(cwd);
  const clone = top !== null ? canonical(top) : null;
  const given = trustFiles.filter((f) => clone !== null && inside(clone, canonical(f))).map((f) => path.relative(cwd, f));
  // The policy read from disk is compared with the bytes judged (its sha256 is theirs: a file that is not UTF-8 is refused), never only its blob.
  if (source && source.commit === null && !out.has(source.path)) out.set(source.path, source.sha256);
  const onDisk = source && source.commit === null ? named.map((p) => path.posix.normalize(p.path)) : [];
  for (const file of [...onDisk, ...given]) if (!out.has(file)) out.set(file, null);
  // What the gate was asked to read, whole: each input's file, folder or a glob's fixed folder, and the
  // policy's path unless it was read at a commit (a policy missing from the checkout is no policy).
  const whole = asked
    .map((i) => i.trim())
    .filter((i) => i !== '' && !i.startsWith('!'))
    .map((i) => path.relative(cwd, inputRoot(cwd, i).base) || '.')
    .filter((w) => w !== '..' && !w.startsWith(`..${path.sep}`));
  if (!source || source.commit === null) whole.push(source?.path ?? DEFAULTS.policy);
  return { files: out, whole };
}

/** What a verdict rests on: the files judged (path → the sha256 judged, or null), and the paths whose every file of the commit must be in the checkout. */
export interface RestsOn {
  readonly files: ReadonlyMap<string, string | null>;
  readonly whole: readonly string[];
}

/** A tree entry that is another repository (a submodule): not a file of this one. */
const SUBMODULE_MODE = '160000';

/** Whether a file is at the path (a link too: the comparison above says what is wrong with it), never a folder. */
function fileOnDisk(p: string): boolean {
  try {
    const st = lstatSync(p);
    return st.isFile() || st.isSymbolicLink();
  } catch {
    return false;
  }
}

/** The top of the git clone holding `dir` (the root the tree's paths are relative to), or null outside a clone. */
export function cloneTop(dir: string): string | null {
  const top = git(dir, ['rev-parse', '--show-toplevel']);
  return top.status === 0 && top.stdout.trim() !== '' ? top.stdout.trim() : null;
}

/** Every regular file of a commit's tree (repository paths → blob id and size), read with git; why not. */
export function treeAtCommit(cwd: string, commit: string): Result<ReadonlyMap<string, TreeBlob>> {
  const top = git(cwd, ['rev-parse', '--show-toplevel']);
  if (top.status !== 0) return { ok: false, reason: `not a git repository (${top.stderr.trim()})` };
  const r = git(top.stdout.trim(), ['ls-tree', '-r', '-l', '-z', '--full-tree', commit], TREE_BYTES);
  if (r.status !== 0) return { ok: false, reason: `git ls-tree ${commit.slice(0, 12)} failed: ${r.stderr.trim()}` };
  const out = new Map<string, TreeBlob>();
  for (const entry of r.stdout.split('\0')) {
    // "<mode> blob <id> <size>\t<path>"; links (120000) and submodules are not files.
    const m = /^100(?:644|755) blob ([0-9a-f]{40,64}) +(\d+)\t(.+)$/s.exec(entry);
    if (m?.[1] && m[2] && m[3]) out.set(m[3], { id: m[1], size: Number(m[2]) });
  }
  return { ok: true, value: out };
}

/**
 * The files of the checkout under `cwd` that are present with the same bytes at the base (their
 * blob ids match the base tree's), as paths relative to `cwd` (how the report names run files).
 * In a git checkout the checked-out commit's tree gives each file's blob id, and `git status` the
 * files changed since (those are hashed): nothing else is read. Elsewhere each file whose size
 * matches is read and hashed.
 * @param root the repository root on disk (the base tree's paths are relative to it)
 */
export function identicalAtBase(root: string, cwd: string, tree: ReadonlyMap<string, TreeBlob>): Set<string> {
  const head = treeAtCommit(root, 'HEAD');
  const dirty = head.ok ? changedInCheckout(root) : null;
  const out = new Set<string>();
  for (const [rel, blob] of tree) {
    const abs = path.join(root, rel);
    const local = path.relative(cwd, abs);
    if (!inside(cwd, abs)) continue;
    const known = head.ok && dirty !== null && !dirty.has(rel) ? head.value.get(rel) : undefined;
    if (known !== undefined) {
      if (known.id === blob.id) out.add(local.split(path.sep).join('/'));
      continue;
    }
    let st: Stats;
    try {
      st = lstatSync(abs);
    } catch {
      continue;
    }
    if (!st.isFile() || st.size !== blob.size) continue;
    if (blobId(readFileSync(abs), blob.id.length) === blob.id) out.add(local.split(path.sep).join('/'));
  }
  return out;
}

/**
 * The files of the checkout under `cwd` present with the same bytes at `commit` (identicalAtBase
 * against that commit's tree, the clone's top as the root), or why that cannot be told.
 */
export function unchangedSince(cwd: string, commit: string): Result<ReadonlySet<string>> {
  const top = git(cwd, ['rev-parse', '--show-toplevel']);
  const tree = treeAtCommit(cwd, commit);
  if (top.status !== 0 || !tree.ok)
    return {
      ok: false,
      reason: `the files at ${commit.slice(0, 12)} could not be compared (${tree.ok ? top.stderr.trim() : tree.reason})`,
    };
  return { ok: true, value: identicalAtBase(top.stdout.trim(), cwd, tree.value) };
}

/** The files below `dir` (repository-relative paths, posix), links and folders' own entries left out. */
function filesBelow(root: string, dir: string): string[] {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const at = stack.pop() as string;
    let entries: Dirent[] = [];
    try {
      entries = readdirSync(path.join(root, at), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const rel = `${at}/${e.name}`;
      if (e.isDirectory()) stack.push(rel);
      else if (e.isFile()) out.push(rel);
    }
  }
  return out.sort();
}

/**
 * Why the pull request does not carry its policy alone, or null when it does: a run or export the gate
 * reads at the head (`read`, as the report names them) that the base does not hold with the same
 * bytes; a file of the base among the evidence (a name the gate reads, below `.assay/` or an input
 * `scopes` names) changed, deleted or renamed; a file below `.github/` other than the policy
 * changed, added or deleted (workflows, composite actions and trust files there name what is read and
 * how); a `.gitattributes` anywhere changed, added or deleted (its filters, `eol`, `ident` and
 * `working-tree-encoding` make the checked-out bytes differ from blobs whose ids match the base's:
 * a red team). The break-glass path applies only to such a pull request: one that also moves evidence, or
 * what is read of it, could make the failure it excuses.
 * @param identical the files present with the same bytes at the base, relative to the working directory (`identicalAtBase`)
 * @param identicalInRepo the same, relative to the repository root
 * @param scopes the inputs' positive paths and globs, relative to the repository root
 * @param policy the policy file, relative to the repository root
 */
export function evidenceChangedSinceBase(
  root: string,
  tree: ReadonlyMap<string, TreeBlob>,
  identical: ReadonlySet<string>,
  identicalInRepo: ReadonlySet<string>,
  read: readonly string[],
  scopes: readonly string[],
  policy: string,
): string | null {
  for (const rel of read) if (!identical.has(rel)) return `adds or changes ${rel}`;
  const tests = ['.assay', ...scopes].map((a): ((rel: string) => boolean) => {
    if (picomatch.scan(a).isGlob) return picomatch(a, { dot: true });
    return (rel) => a === '' || rel === a || rel.startsWith(`${a}/`);
  });
  const github = (rel: string): boolean => rel.startsWith('.github/') && rel !== policy;
  const attributes = (rel: string): boolean => rel === ATTRIBUTES || rel.endsWith(`/${ATTRIBUTES}`);
  for (const rel of [...tree.keys()].sort()) {
    if (identicalInRepo.has(rel)) continue;
    if (github(rel) || attributes(rel) || (formatOf(rel) !== null && tests.some((t) => t(rel))))
      return `changes, deletes or renames ${rel}`;
  }
  for (const rel of filesBelow(root, '.github')) if (github(rel) && !tree.has(rel)) return `adds ${rel}`;
  // Attributes the checked-out commit adds (outside git, no attributes apply: identicalAtBase hashed the bytes).
  const head = treeAtCommit(root, 'HEAD');
  if (head.ok) for (const rel of [...head.value.keys()].sort()) if (attributes(rel) && !tree.has(rel)) return `adds ${rel}`;
  return null;
}

/** Git's attributes file: it changes how blobs become checked-out bytes. */
const ATTRIBUTES = '.gitattributes';

/** The tracked files the checkout changed since its commit (repository paths), or null when git cannot say. */
function changedInCheckout(root: string): Set<string> | null {
  const r = git(root, ['status', '--porcelain=v1', '-z', '--untracked-files=no', '--no-renames']);
  if (r.status !== 0) return null;
  const out = new Set<string>();
  for (const entry of r.stdout.split('\0')) if (entry.length > 3) out.add(entry.slice(3));
  return out;
}
