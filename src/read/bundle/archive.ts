/**
 * Assay evidence bundles (`docs/evidence-bundle.md`): gzip → tar (manifest.json, events.ndjson) →
 * manifest, envelope, sequence, content hashes, run root, bundle_id — every limit enforced while
 * streaming, so a decompression bomb stops at the limit. The bundle is one run; its decisions come
 * from `assay.tool_decision_surface.v0` events in sequence order. A bundle that fails any rule is
 * one `invalid_artifact` finding naming the rule, and contributes nothing.
 */

import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { sha256Digest } from '../../core/binding.js';
import { type Finding, finding } from '../../core/findings.js';
import { SURFACE_SCHEMA as SURFACE } from '../../core/model.js';
import type { Result } from '../../core/result.js';
import { quote } from '../../core/text.js';
import { zlib } from '../builtins.js';
import { type BundleFacts, type FileRead, skippedFinding } from '../file-read.js';
import { evidenceIn } from '../formats.js';
import { type BundleLimits, DEFAULT_BUNDLE_LIMITS } from '../limits.js';
import { ioReason, ReadError } from '../read-error.js';
import { type Events, readEvents } from './events.js';
import { type Manifest, otherArchive, readManifest } from './manifest.js';
import { ArchiveTail, GunzipSource, gzipReason } from './source.js';
import { members, type TarMember } from './tar.js';

/** What an archive turned out to be: a verified bundle's events, or another kind of Assay archive (skipped with a notice). */
type Archive =
  | { readonly kind: 'bundle'; readonly events: Events; readonly facts: BundleFacts }
  | { readonly kind: 'other'; readonly name: string };

/** The bytes of a bundle: a file on disk (streamed) or a buffer already in memory. */
export type BundleSource = { readonly path: string } | { readonly bytes: Uint8Array };

/** Verify a bundle: what the archive is, or the rule it broke (the reader's errors end here). */
async function verifyBundle(
  source: BundleSource,
  file: string,
  limits: BundleLimits = DEFAULT_BUNDLE_LIMITS,
): Promise<Result<Archive, ReadError>> {
  try {
    return { ok: true, value: await walk(source, file, limits) };
  } catch (error) {
    if (error instanceof ReadError) return { ok: false, reason: error };
    throw error;
  }
}

/** The archive's bytes as a stream, and its size (over the compressed limit: refused before reading). */
function open(source: BundleSource, limits: BundleLimits): { readonly size: number; readonly input: Readable } {
  try {
    const size = 'path' in source ? statSync(source.path).size : source.bytes.length;
    if (size > limits.maxCompressedBytes)
      throw new ReadError(
        'limit',
        `bundle is ${size} bytes, over the ${limits.maxCompressedBytes}-byte compressed limit (max-file-size, at most ${DEFAULT_BUNDLE_LIMITS.maxCompressedBytes})`,
      );
    return { size, input: 'path' in source ? createReadStream(source.path) : Readable.from([Buffer.from(source.bytes)]) };
  } catch (error) {
    if (error instanceof ReadError) throw error;
    throw new ReadError('io', `cannot read file: ${ioReason(error)}`);
  }
}

const unexpected = (path: string): string => `unexpected member "${path}" (a bundle holds manifest.json then events.ndjson)`;

/** How deep archives inside an archive of another kind are opened to check their members. */
const MAX_NESTED = 3;

/** Gzip's magic bytes. */
const gzipped = (bytes: Uint8Array): boolean => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

/**
 * What a member of an archive of another kind holds that the gate would read, in words, or null:
 * every member is read, never skipped by its name. A `.log` is a server log (a run, which an archive
 * of another kind cannot be read as); a nested `.tar.gz`/`.tgz` (or any gzip bytes) is opened and its
 * members checked the same way (`nested`); any other member, by what it holds (`evidenceIn`).
 */
async function heldBy(m: TarMember, path: string, limits: BundleLimits, depth: number, used: number): Promise<Held | null> {
  const bytes = await m.data(limits.maxEventsBytes, m.path);
  if (/\.log$/i.test(m.path))
    return { path, what: 'is a server log (a .log is a run: the stderr of assay-mcp-server, read only as a file of its own)' };
  if (/\.(tar\.gz|tgz)$/i.test(m.path) || gzipped(bytes)) return nested(bytes, path, limits, depth + 1, used);
  const held = evidenceIn(bytes, bytes.length, false);
  if (held.kind === 'nothing') return null;
  const what =
    held.kind === 'evidence'
      ? `holds ${held.why}`
      : `holds evidence the gate reads (decision surfaces, records, statements or tracing lines${held.kind === 'lines' ? `, from its line ${held.lines[0]?.line ?? 1}` : ''})`;
  return { path, what };
}

/** A member that holds evidence: its path (nested archives' members after a "!") and what it is or holds, in words after its name. */
interface Held {
  readonly path: string;
  readonly what: string;
}

/**
 * An archive inside an archive of another kind: each of its members checked as `heldBy` checks them,
 * within what is left of the decompression limit (`used`: what the archives around it inflated). One
 * that cannot be opened (not a tar this reader reads, too deep, past a limit) is held against it by
 * name: its members cannot be checked, so it is never skipped.
 */
async function nested(bytes: Buffer, path: string, limits: BundleLimits, depth: number, used: number): Promise<Held | null> {
  if (depth > MAX_NESTED) return { path, what: `is an archive nested more than ${MAX_NESTED} deep, whose members are not opened` };
  const left: BundleLimits = { ...limits, maxDecompressedBytes: Math.max(0, limits.maxDecompressedBytes - used) };
  const input = Readable.from([bytes]);
  const gunzip = zlib().createGunzip({ chunkSize: GUNZIP_CHUNK });
  input.on('error', (e) => gunzip.destroy(e));
  input.pipe(gunzip);
  try {
    const src = new GunzipSource(gunzip, bytes.length, left);
    for await (const m of members(src, left)) {
      const held = await heldBy(m, `${path}!${m.path}`, left, depth, used + src.total);
      if (held) return held;
    }
    if (!(await src.drain())) return { path, what: 'is an archive with data after the end of its tar archive, which cannot be checked' };
    return null;
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    const why =
      error instanceof ReadError ? error.message : typeof err.code === 'string' && err.code.startsWith('Z_') ? gzipReason(err) : null;
    if (why === null) throw error;
    return { path, what: `is an archive this reader cannot open to check its members (${why})` };
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}

/** The members in order: manifest.json, then events.ndjson, nothing else; or another kind of archive. */
async function contents(
  src: GunzipSource,
  file: string,
  limits: BundleLimits,
): Promise<{ manifest: Manifest; events: Events } | { other: string }> {
  let manifest: Manifest | undefined;
  let events: Events | undefined;
  let other: string | null = null;
  for await (const m of members(src, limits)) {
    if (other !== null) {
      // Another kind of archive is skipped, unless a member holds evidence the gate reads (a red team: a
      // failing run's events under a runner archive's manifest were skipped with a notice), is a server
      // log, or is an archive that does or cannot be opened (a red team: `.log` and nested `.tgz`
      // members were skipped by their names). Every member is read.
      const held = await heldBy(m, m.path, limits, 0, src.total);
      if (held)
        throw new ReadError(
          'bundle',
          `an archive of another kind (${other}) whose member ${JSON.stringify(quote(held.path, 200))} ${held.what}: evidence in an archive is read from an evidence bundle only, and never skipped; extract the member and commit it under the runs (a server log as .log, events as .ndjson, a bundle as its own .tar.gz)`,
        );
    } else if (!manifest) {
      if (m.path !== 'manifest.json' && m.path.endsWith('.json')) {
        // Another kind of Assay archive (a runner archive…) announces itself in its first JSON member.
        other = otherArchive(await m.data(limits.maxManifestBytes, m.path), limits);
        if (other !== null) continue;
      }
      if (m.path !== 'manifest.json')
        throw new ReadError(
          'bundle',
          m.path === 'events.ndjson' ? 'member order: events.ndjson comes before manifest.json' : unexpected(m.path),
        );
      const read = readManifest(await m.data(limits.maxManifestBytes, 'manifest.json'), limits);
      if ('other' in read) other = read.other;
      else manifest = read;
    } else if (!events) {
      if (m.path !== 'events.ndjson')
        throw new ReadError('bundle', m.path === 'manifest.json' ? 'duplicate member "manifest.json"' : unexpected(m.path));
      if (m.size !== manifest.eventsBytes)
        throw new ReadError('bundle', `events.ndjson is ${m.size} bytes but the manifest says ${manifest.eventsBytes}`);
      const bytes = await m.data(limits.maxEventsBytes, 'events.ndjson');
      if (sha256Digest(bytes) !== manifest.eventsSha256) throw new ReadError('bundle', 'events.ndjson sha256 does not match the manifest');
      events = readEvents(bytes, manifest, file, limits);
    } else {
      throw new ReadError(
        'bundle',
        m.path === 'events.ndjson' || m.path === 'manifest.json' ? `duplicate member "${m.path}"` : unexpected(m.path),
      );
    }
  }
  if (other !== null) return { other };
  if (!(await src.drain())) throw new ReadError('bundle', 'data after the end of the tar archive');
  if (!manifest) throw new ReadError('bundle', 'missing member manifest.json');
  if (!events) throw new ReadError('bundle', 'missing member events.ndjson');
  return { manifest, events };
}

/**
 * Bytes gunzip hands over at a time. Each chunk is a turn of the event loop while zlib inflates on
 * the thread pool: 16 KiB (the default) is ~5 000 turns for a 100 000-event bundle, 256 KiB ~300
 * (2.28 → 2.06 s for it; 1 MiB was no faster). The limits are checked per chunk, so a bomb is
 * stopped at most one chunk past them.
 */
const GUNZIP_CHUNK = 256 * 1024;

const MORE_THAN_ONE_MEMBER = 'the archive is more than one gzip member (or has bytes after its trailer): an evidence bundle is exactly one';

/** The three jobs in order (source → manifest → events); throws ReadError naming the broken rule. */
async function walk(source: BundleSource, file: string, limits: BundleLimits): Promise<Archive> {
  const { size, input } = open(source, limits);
  const gunzip = zlib().createGunzip({ chunkSize: GUNZIP_CHUNK });
  const archiveHash = createHash('sha256');
  const tail = new ArchiveTail();
  input.on('data', (chunk: Buffer) => {
    archiveHash.update(chunk);
    tail.push(chunk);
  });
  input.on('error', (e) => gunzip.destroy(e));
  input.pipe(gunzip);
  try {
    const source = new GunzipSource(gunzip, size, limits);
    // One gzip member, then only NUL padding: a reader that stops at the first member (upstream's)
    // must see the same archive as this one, which decompresses every member. Checked once the whole
    // stream is read; a second member's bytes after the tar's end are this rule's too.
    const oneMember = (): void => {
      if (source.ended && !tail.oneMember(source.crc, source.total)) throw new ReadError('gzip', MORE_THAN_ONE_MEMBER);
    };
    let read: Awaited<ReturnType<typeof contents>>;
    try {
      read = await contents(source, file, limits);
    } catch (error) {
      if (error instanceof ReadError) oneMember();
      throw error;
    }
    if ('other' in read) return { kind: 'other', name: read.other };
    oneMember();
    const { manifest, events } = read;
    // Every byte has been read (drain checked the end): the hash is of the whole archive.
    const facts: BundleFacts = {
      archiveSha256: archiveHash.digest('hex'),
      bundleId: manifest.bundleId,
      runId: manifest.runId,
      eventCount: manifest.eventCount,
      runRoot: manifest.runRoot,
      producer: manifest.producer,
      window: events.window,
    };
    return { kind: 'bundle', events, facts };
  } catch (error) {
    if (error instanceof ReadError) throw error;
    const err = error as NodeJS.ErrnoException;
    if (typeof err.code === 'string' && err.code.startsWith('Z_')) throw new ReadError('gzip', gzipReason(err));
    if (typeof err.code === 'string' && /^E[A-Z]+$/.test(err.code)) throw new ReadError('io', `cannot read file: ${err.code}`);
    throw error;
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}

export async function readBundle(source: BundleSource, file: string, limits: BundleLimits = DEFAULT_BUNDLE_LIMITS): Promise<FileRead> {
  const at = { file, line: 1, column: 1 };
  const verified = await verifyBundle(source, file, limits);
  if (!verified.ok)
    return { run: null, entries: [], findings: [finding('invalid_artifact', at, `evidence bundle rejected: ${verified.reason.message}`)] };
  const archive = verified.value;
  if (archive.kind === 'other') {
    const problem = finding(
      'skipped_object',
      at,
      `skipped an archive of another kind: ${archive.name} (not an evidence bundle; it contributes no calls)`,
    );
    return { run: null, entries: [], findings: [problem] };
  }
  const { decisions, skipped } = archive.events;
  const findings: Finding[] = [];
  if (skipped.size > 0) findings.push(skippedFinding({ ...at, member: 'events.ndjson' }, skipped));
  if (decisions.length === 0)
    findings.push(finding('no_decisions', at, `evidence bundle verified; it holds no ${SURFACE} events, so it contributes no calls`));
  return { run: { artifact: file, decisions }, entries: [], findings, bundle: archive.facts };
}
