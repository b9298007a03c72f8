/**
 * One artifact file → what it contributes (a run, records, findings), by its name and role. The
 * file is read once and nothing of it is kept but the prepared decisions and records.
 */
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, fstatSync, lstatSync, openSync, readSync, realpathSync, type Stats, statSync } from 'node:fs';
import { sha256Hex } from '../core/binding.js';
import { finding } from '../core/findings.js';
import type { Result } from '../core/result.js';
import { readAuditFile, readRunFile } from './artifacts.js';
import { readBundle } from './bundle/archive.js';
import { type FoundFile, inside } from './discover.js';
import type { FileRead } from './file-read.js';
import { EXTENSION_LIST, formatOf } from './formats.js';
import { bundleLimits, fileTooLarge, type ReadLimits } from './limits.js';
import { ioReason } from './read-error.js';

export type Role = 'runs' | 'audit';

/** A file that contributes nothing but one invalid_artifact about itself (at 1:1). */
const failure = (rel: string, message: string): FileRead => ({
  run: null,
  entries: [],
  findings: [finding('invalid_artifact', { file: rel, line: 1, column: 1 }, message)],
});
const isBundle = (rel: string): boolean => formatOf(rel) === 'bundle';

/** One artifact's bytes (already in memory) → what it contributes. Used by fuzzing and by readOne. */
export async function readArtifact(rel: string, role: Role, bytes: Uint8Array, limits: ReadLimits): Promise<FileRead> {
  if (isBundle(rel)) return role === 'audit' ? failure(rel, BUNDLE_IN_AUDIT) : readBundle({ bytes }, rel, bundleLimits(limits));
  return readTextArtifact(rel, role, bytes, limits);
}

/**
 * Any artifact but an evidence bundle → what it contributes. Synchronous, and nothing it returns
 * refers to `bytes` (the text is decoded into strings), so `bytes` may be reused once it returns.
 */
function readTextArtifact(rel: string, role: Role, bytes: Uint8Array, limits: ReadLimits): FileRead {
  const format = formatOf(rel);
  if (!format || format === 'bundle') return failure(rel, UNSUPPORTED);
  if (format === 'attestation') return failure(rel, ATTESTATION);
  if (role === 'runs') return readRunFile(rel, bytes, format, limits);
  if (format === 'log') return failure(rel, LOG_IN_AUDIT);
  return readAuditFile(rel, bytes, format, limits);
}

const ATTESTATION = 'an attestation sidecar (.intoto.jsonl) is read beside its bundle, never as a run or an audit export';
const LOG_IN_AUDIT = 'server logs are run artifacts; an audit export must be .json, .jsonl or .ndjson';
const BUNDLE_IN_AUDIT = 'evidence bundles are run artifacts; an audit export must be .json, .jsonl or .ndjson';
const UNSUPPORTED = `unsupported file type: expected ${EXTENSION_LIST}`;

/**
 * The buffer this thread reads its inputs into, grown to the largest file read so far up to
 * SCRATCH_MAX (a larger file gets a buffer of its own). A fresh buffer per file is fresh memory
 * for the kernel to fault in, and reading large inputs spent most of `read` there (the profile and
 * the gain: bench/HISTORY.md, "Results (2026-12-01, reading on every core: issue 23)").
 */
let scratch: Buffer | null = null;
const SCRATCH_MAX = 64 * 1024 * 1024;
const GREW = (limits: ReadLimits): string => `file grew past the ${limits.maxFileBytes}-byte limit while it was read (max-file-size)`;

/**
 * A file's bytes within max-file-size, or why not, in this thread's read buffer: the one way an
 * input or a file beside it is read. The view is valid until the next call, so the caller consumes
 * it before it yields or copies it. Read to its end, not to the size stat gave: a file that grows
 * past the limit while it is read is refused all the same.
 */
function readTransient(path: string, limits: ReadLimits): Result<Buffer> {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const size = fstatSync(fd).size;
    if (size > limits.maxFileBytes) return { ok: false, reason: fileTooLarge(size, limits) };
    // One byte more than the limit allows, to see a file that grew past it.
    const want = Math.min(size, limits.maxFileBytes) + 1;
    let buf: Buffer;
    if (want > SCRATCH_MAX) buf = Buffer.allocUnsafeSlow(want);
    else {
      if (!scratch || scratch.length < want)
        scratch = Buffer.allocUnsafeSlow(Math.min(SCRATCH_MAX, Math.max(want, 2 * (scratch?.length ?? 32768))));
      buf = scratch;
    }
    let got = 0;
    for (;;) {
      if (got === buf.length) {
        if (got > limits.maxFileBytes) return { ok: false, reason: GREW(limits) };
        const bigger = Buffer.allocUnsafeSlow(Math.min(limits.maxFileBytes + 1, 2 * buf.length));
        buf.copy(bigger, 0, 0, got);
        buf = bigger;
      }
      const n = readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
    }
    if (got > limits.maxFileBytes) return { ok: false, reason: GREW(limits) };
    return { ok: true, value: buf.subarray(0, got) };
  } catch (error) {
    return { ok: false, reason: `cannot read file: ${ioReason(error)}` };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * A file read beside an input (an attestation): absent, refused with the reason, or its bytes with
 * their sha256 (hex), computed once when first asked (a verdict lists it, the cache keys on it).
 */
export type Beside =
  | { readonly kind: 'none' }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'read'; readonly bytes: Buffer; readonly sha256: () => string };

/** The bytes of a file beside an input, their digest made on first use and kept. */
function besideRead(bytes: Buffer): Beside {
  let hex: string | null = null;
  return { kind: 'read', bytes, sha256: () => (hex ??= sha256Hex(bytes)) };
}

/**
 * The file beside an input (`what` names it in reasons, e.g. "the attestation sidecar"): a link to a
 * file inside the workspace is followed like every input, one that leaves it or is broken is
 * refused, and so is anything but a regular file.
 */
export function readBeside(file: string, what: string, workspace: string, limits: ReadLimits): Beside {
  const refuse = (reason: string): Beside => ({ kind: 'refused', reason });
  let st: Stats;
  try {
    st = lstatSync(file);
  } catch {
    return { kind: 'none' };
  }
  if (st.isSymbolicLink()) {
    let real: string;
    try {
      real = realpathSync(file);
    } catch {
      return refuse(`${what} is a broken symbolic link`);
    }
    if (!inside(realpathSync(workspace), real)) return refuse(`${what} is a symbolic link that points outside the workspace; not followed`);
    st = statSync(real);
  }
  if (!st.isFile()) return refuse(`${what} is not a regular file; not read`);
  const got = readTransient(file, limits);
  // A copy: the file beside is kept (its envelopes are checked later), the read buffer is not.
  return got.ok ? besideRead(Buffer.from(got.value)) : refuse(got.reason);
}

/**
 * A file a flag or an input names (a key, a trusted root, an export to import), read whole within
 * the file limit. Only a regular file is read (a link to one is followed: the user named it): a
 * FIFO would block and a device never end (`--trusted-root /dev/zero`). The reason when not.
 */
export function readNamedFile(file: string, limits: ReadLimits): Result<Buffer> {
  let st: Stats;
  try {
    st = statSync(file);
  } catch (error) {
    return { ok: false, reason: `cannot read (${ioReason(error)})` };
  }
  if (!st.isFile()) return { ok: false, reason: 'not a regular file; not read' };
  const got = readTransient(file, limits);
  // A copy: the read buffer is reused by the next read.
  return got.ok ? { ok: true, value: Buffer.from(got.value) } : got;
}

/** Whether a file's size (as stat says) is within `max` bytes; false when it cannot be stat'ed (its reader says why). */
function sizeWithin(path: string, max: number): boolean {
  try {
    return statSync(path).size <= max;
  } catch {
    return false;
  }
}

/** Hex sha256 of a file's bytes, streamed (a bundle is never held whole for it). */
async function fileSha256(path: string): Promise<string | undefined> {
  try {
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  } catch {
    return undefined; // the reader reports why the file cannot be read
  }
}

/** @param digest also return the sha256 of the file's bytes (one more hash per input, nothing else) */
export async function readOne(file: FoundFile, role: Role, limits: ReadLimits, digest = false): Promise<FileRead> {
  const got = await readOneUnless<never>(file, role, limits, digest, null);
  return got.kind === 'found' ? got.value : got.read;
}

/**
 * What `readOneUnless` found: the look-up's answer for the file's digest, or the file read (`sha256`:
 * the digest of exactly the bytes read; null when the file could not be read, or when a streamed
 * bundle's bytes were not the bytes hashed first, so nothing may be stored under that digest).
 */
export type ReadOrFound<T> =
  | { readonly kind: 'found'; readonly value: T }
  | { readonly kind: 'read'; readonly read: FileRead; readonly sha256: string; readonly unkeyed?: undefined }
  /** `unkeyed`: why nothing may be stored for this file. */
  | { readonly kind: 'read'; readonly read: FileRead; readonly sha256: null; readonly unkeyed: string };

/**
 * readOne, asking `lookUp` first with the sha256 of the file's bytes (a content-addressed cache,
 * gate/cache.ts): the file is read once and hashed, and those very bytes are read only when the
 * look-up has nothing (a bundle is streamed: hashed, then read, and its own digest compared).
 * `lookUp` runs synchronously while this thread's read buffer holds the file: it must not read
 * through readTransient. Without one (null), a text file is hashed only when `digest` asks.
 */
export async function readOneUnless<T>(
  file: FoundFile,
  role: Role,
  limits: ReadLimits,
  digest: boolean,
  lookUp: ((sha256: string) => T | null) | null,
): Promise<ReadOrFound<T>> {
  const fail = (message: string): ReadOrFound<T> => ({
    kind: 'read',
    read: failure(file.rel, message),
    sha256: null,
    unkeyed: 'a file that cannot be read is tried again each run',
  });
  if (isBundle(file.rel)) {
    if (role === 'audit') return fail(BUNDLE_IN_AUDIT);
    // A bundle its reader refuses for its size is never hashed first (its refusal is cheap, its hash is not).
    const hashable = lookUp !== null && sizeWithin(file.path, bundleLimits(limits).maxCompressedBytes);
    const first = hashable ? await fileSha256(file.path) : undefined;
    const found = first === undefined || lookUp === null ? null : lookUp(first);
    if (found !== null) return { kind: 'found', value: found };
    // Streamed from disk: a bundle is never held whole beyond its events.
    const readResult = await readBundle({ path: file.path }, file.rel, bundleLimits(limits));
    const own = readResult.bundle?.archiveSha256;
    const sha256 = digest ? (own ?? first ?? (await fileSha256(file.path))) : undefined;
    return {
      kind: 'read',
      read: sha256 === undefined ? readResult : { ...readResult, sha256 },
      ...(own !== undefined && own === first
        ? { sha256: own }
        : {
            sha256: null,
            unkeyed: own === undefined ? 'a bundle its reader refused is read again each run' : 'the bundle changed while it was read',
          }),
    };
  }
  if (!formatOf(file.rel)) return fail(UNSUPPORTED);
  const got = readTransient(file.path, limits);
  if (!got.ok) return fail(got.reason);
  const bytes = got.value;
  // All before anything yields: the buffer is this thread's, and the next file is read into it.
  const sha256 = lookUp !== null || digest ? sha256Hex(bytes) : null;
  const found = sha256 === null || lookUp === null ? null : lookUp(sha256);
  if (found !== null) return { kind: 'found', value: found };
  const fileRead = readTextArtifact(file.rel, role, bytes, limits);
  if (sha256 === null) return { kind: 'read', read: fileRead, sha256: null, unkeyed: 'no cache' };
  return { kind: 'read', read: digest ? { ...fileRead, sha256 } : fileRead, sha256 };
}
