/**
 * The evidence cache: what one input file contributes (gate/evidence.ts, trust decided) is a pure
 * function of its bytes, the bytes beside it (its attestation sidecars), its path, and the read
 * set-up (limits, hashing, every trust setting and root) of one build. An entry is stored under the
 * sha256 of all of these, so any changed byte, setting or build is another key: a miss.
 *
 * An entry is one file, `<key>.json`: a header line (`{"schema","key","sha256"}`: the key it was
 * stored under and the sha256 of the body) and the body, the reading thread's encoding
 * (read/wire.ts). It is used only when its header names the key asked for, the body's digest
 * matches, and the body passes its shape check (schemas/evidence-cache-entry.schema.json and the
 * vocabularies); otherwise it is ignored, said, and the file is read (and its entry written again).
 * Nothing here fails a gate: a cache that cannot be read or written only costs time.
 *
 * Who writes the directory is trusted like the code that runs the gate: the action fills it only
 * from archives the default branch saved, their entries checked against their key (action/cache.ts),
 * and a verdict (`--vsa`) never reads it. A folder that holds an input is a usage error (gate.ts).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256Hex } from '../core/binding.js';
import { str } from '../core/json.js';
import type { Result } from '../core/result.js';
import { visible } from '../core/text.js';
import type { Beside, Role } from '../read/files.js';
import type { GeneratedValidator } from '../read/validators.generated.js';
import { type CheckedWire, checkWire } from '../read/wire.js';
import { makeDirs } from '../report/output.js';

const CACHE_SCHEMA = 'receipt-gate.evidence-cache.v2';

/** Where entries are kept, and whether they are read (a verdict writes them and never reads one). */
export interface CacheSetup {
  readonly dir: string;
  readonly read: boolean;
  /** sha256 of the build and the read set-up (`setupKey`). */
  readonly setupKey: string;
}

/**
 * JSON of the set-up, with sets as sorted lists. Anything that is not plain data (a key object, a
 * class instance) throws: a setting JSON would write as `{}` must never make two set-ups one key.
 */
function plain(_key: string, value: unknown): unknown {
  if (value instanceof Set) return [...value].map(String).sort();
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null)
    throw new Error(`the read set-up holds a ${proto?.constructor?.name ?? 'value'} the cache key cannot name`);
  return value;
}

/**
 * The running build: its version and the digest of every input it was built from
 * (`build-inputs.sha256`, `sha256:<hex>`, written beside the bundles by scripts/build.mjs), so a
 * gate rebuilt from other sources under the same version never reads the entries of another
 * (`unbuilt` when run from the sources: tests). `key`: in full, for the entries' keys; `tag`: short,
 * for the action's archive keys.
 */
export function buildOf(version: string): { readonly key: string; readonly tag: string } {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const dir of [here, path.dirname(here)]) {
    let text: string;
    try {
      text = readFileSync(path.join(dir, 'build-inputs.sha256'), 'utf8').trim();
    } catch {
      continue;
    }
    const digest = /^sha256:([0-9a-f]{64})$/.exec(text)?.[1];
    if (digest) return { key: `${version}+${digest}`, tag: `${version}-${digest.slice(0, 12)}` };
  }
  return { key: `${version}+unbuilt`, tag: `${version}-unbuilt` };
}

/** The part of every key that the whole run shares: the build (`buildOf`) and the read set-up (every member of it). */
export const setupKey = (build: string, setup: unknown): string => sha256Hex(JSON.stringify([CACHE_SCHEMA, build, setup], plain));

/** What a file beside an input adds to its key: absent, refused (with why), or its bytes' digest. */
export function besideKey(beside: Beside): string {
  if (beside.kind === 'none') return 'none';
  if (beside.kind === 'refused') return `refused:${beside.reason}`;
  return `sha256:${beside.sha256()}`;
}

/** One file's key: the set-up, its role and path (findings name it), its bytes' digest and what is beside it. */
export const entryKey = (cache: CacheSetup, role: Role, rel: string, sha256: string, beside: readonly string[]): string =>
  sha256Hex(JSON.stringify([cache.setupKey, role, rel, sha256, beside]));

/** An entry's file name: its key (64 hex digits) and `.json`; nothing else in the folder is one. */
export const ENTRY_NAME = /^[0-9a-f]{64}\.json$/;
const entryPath = (cache: CacheSetup, key: string): string => path.join(cache.dir, `${key}.json`);

/** An entry larger than this is not read (nor written): it is no entry the gate wrote for one file within the limits. */
const MAX_ENTRY_BYTES = 256 * 1024 * 1024;

/** A file of the cache's folder opened for reading, never blocking (a FIFO in its place would hang the gate), never through a link; null when absent, else its descriptor or why not. */
export function openInCache(file: string): Result<number, string> | null {
  try {
    return { ok: true, value: openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    return { ok: false, reason: code === 'ELOOP' ? 'it is a symbolic link' : `it cannot be read (${code ?? 'error'})` };
  }
}

/** An entry's bytes, read with its own buffer (the file being looked up is in this thread's read buffer), or null when absent; a link is never followed. */
function readEntry(file: string): Buffer | null | { readonly refused: string } {
  const opened = openInCache(file);
  if (opened === null) return null;
  if (!opened.ok) return { refused: opened.reason };
  const fd = opened.value;
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { refused: 'it is not a regular file' };
    if (st.size > MAX_ENTRY_BYTES) return { refused: `it is larger than ${MAX_ENTRY_BYTES} bytes` };
    const buf = Buffer.allocUnsafe(st.size);
    let got = 0;
    while (got < st.size) {
      const n = readSync(fd, buf, got, st.size - got, null);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  } catch (error) {
    return { refused: `it cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  } finally {
    closeSync(fd);
  }
}

let shapeCheck: Promise<GeneratedValidator> | null = null;
/** The entries' shape check, loaded once per thread and only when a cache is read (its generated code weighs 100 KB). */
export const entryShape = (): Promise<GeneratedValidator> =>
  (shapeCheck ??= import('../read/cache-entry.generated.js').then((m) => m.cacheEntry));

/** A verification snapshot's header check (gate/snapshot.ts), in the entries' module. */
export const snapshotShape = (): Promise<GeneratedValidator> => import('../read/cache-entry.generated.js').then((m) => m.snapshot);

/** A sound entry: its body's text and the same body checked (gate/evidence.ts decodes it, or a worker sends the text). */
export interface Entry {
  readonly text: string;
  readonly checked: CheckedWire;
}

/** The entry stored under `key`, checked, or why an entry there was ignored (null reason: there was none). */
export function lookUp(cache: CacheSetup, key: string, shape: GeneratedValidator): Result<Entry, string | null> {
  const got = readEntry(entryPath(cache, key));
  if (got === null) return { ok: false, reason: null };
  if ('refused' in got) return { ok: false, reason: got.refused };
  const newline = got.indexOf(10);
  if (newline < 0) return { ok: false, reason: 'it has no header line (truncated?)' };
  let header: unknown;
  try {
    header = JSON.parse(got.subarray(0, newline).toString('utf8'));
  } catch {
    return { ok: false, reason: 'its header line is not JSON' };
  }
  if (str(header, 'schema') !== CACHE_SCHEMA) return { ok: false, reason: `its header is not ${CACHE_SCHEMA}` };
  if (str(header, 'key') !== key) return { ok: false, reason: 'its header names another key' };
  const body = got.subarray(newline + 1);
  if (str(header, 'sha256') !== sha256Hex(body))
    return { ok: false, reason: "its body's sha256 is not the one its header names (truncated or altered)" };
  const text = body.toString('utf8');
  const checked = checkWire(text, shape);
  return checked.ok
    ? { ok: true, value: { text, checked: checked.value } }
    : { ok: false, reason: `its body fails its check: ${checked.reason}` };
}

/** Store a file's encoded evidence (read/wire.ts) under `key`: written beside, then renamed into place (a reader never sees half an entry). Why not, or null. */
export function store(cache: CacheSetup, key: string, wire: string): string | null {
  const body = Buffer.from(wire, 'utf8');
  if (body.length > MAX_ENTRY_BYTES) return `its entry would be larger than ${MAX_ENTRY_BYTES} bytes`;
  const sha256 = sha256Hex(body);
  const header = Buffer.from(`${JSON.stringify({ schema: CACHE_SCHEMA, key, sha256 })}\n`, 'utf8');
  const final = entryPath(cache, key);
  const temporary = `${final}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    makeDirs(cache.dir);
    writeFileSync(temporary, Buffer.concat([header, body]), { flag: 'wx' });
    renameSync(temporary, final);
    return null;
  } catch (error) {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // what is left is a .tmp file no look-up reads
    }
    return `the entry could not be written (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
}

/** What the evidence cache did for one file: found it; or the file was read, with why an entry was ignored or not stored. */
export interface CacheNote {
  readonly hit: boolean;
  /** A verification snapshot keeps the file (its key is the one the snapshot names): its entry was not looked up (gate/incremental.ts). */
  readonly kept?: true;
  /** The file's key (its bytes, the bytes beside it, its path and the set-up), when it has one: what a verification snapshot names it by (gate/snapshot.ts). */
  readonly key?: string;
  readonly ignored?: string;
  readonly unstored?: string;
}

/** What the evidence cache did over a run: files found, files read and stored, entries ignored and entries not stored (the first of each, with why). */
export interface CacheTally {
  readonly files: number;
  readonly hits: number;
  readonly stored: number;
  readonly ignored: number;
  readonly firstIgnored: string | null;
  readonly unstored: number;
  readonly firstUnstored: string | null;
}

export function tally(notes: readonly (readonly [string, CacheNote])[]): CacheTally {
  const ignored = notes.filter(([, n]) => n.ignored !== undefined);
  const unstored = notes.filter(([, n]) => n.unstored !== undefined);
  const first = (list: typeof notes, why: (n: CacheNote) => string | undefined): string | null =>
    list[0] ? `${list[0][0]}: ${why(list[0][1])}` : null;
  return {
    files: notes.length,
    hits: notes.filter(([, n]) => n.hit).length,
    stored: notes.filter(([, n]) => !n.hit && n.unstored === undefined).length,
    ignored: ignored.length,
    firstIgnored: first(ignored, (n) => n.ignored),
    unstored: unstored.length,
    firstUnstored: first(unstored, (n) => n.unstored),
  };
}

/** The run's cache in one line (the CLI's stderr, the action's log). */
export function cacheText(t: CacheTally, dir: string): string {
  const parts = [`${t.hits} of ${t.files} file(s) from the cache`, `${t.stored} read and stored`];
  if (t.ignored > 0)
    parts.push(`${t.ignored} entr${t.ignored === 1 ? 'y' : 'ies'} ignored and the file read (the first: ${t.firstIgnored})`);
  if (t.unstored > 0) parts.push(`${t.unstored} not stored (the first: ${t.firstUnstored})`);
  // Files' names are the evidence's: shown, never interpreted (a red team: a name holding a line break and a workflow command).
  return visible(`receipt-gate: cache ${dir}: ${parts.join('; ')}`);
}
