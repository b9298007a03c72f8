/**
 * Assay evidence bundles (`docs/evidence-bundle.md`): gzip → tar (manifest.json, events.ndjson) →
 * manifest, envelope, sequence, content hashes, run root, bundle_id — every limit enforced while
 * streaming, so a decompression bomb stops at the limit. The bundle is one run; its decisions come
 * from `assay.tool_decision_surface.v0` events in sequence order. A bundle that fails any rule is
 * one `invalid_artifact` finding naming the rule, and contributes nothing.
 */
import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import { createGunzip } from 'node:zlib';
import { finding, type Finding } from '../core/findings.js';
import { DIGEST_PATTERN as DIGEST, jcs, sha256Digest } from '../core/binding.js';
import { isObject } from '../core/json.js';
import { RECORD_SCHEMA, SURFACE_SCHEMA as SURFACE, type DecisionInput } from '../core/model.js';
import { parseStrict, pathKey } from './strict-json.js';
import { members, TarError, type ByteSource } from './tar.js';
import { decodeUtf8 } from './utf8.js';
import { lines, overBytes } from './lines.js';
import { readSurface, RunDecisions } from './surface.js';
import { skippedFinding, type FileRead } from './artifacts.js';
import { classify } from './classify.js';
import { quote } from '../core/findings.js';
import { DEFAULT_LIMITS, type ReadLimits } from './limits.js';

export interface BundleLimits {
  readonly maxCompressedBytes: number;
  readonly maxDecompressedBytes: number;
  /** Decompressed/compressed ratio allowed once past 1 MiB decompressed. */
  readonly maxRatio: number;
  readonly maxManifestBytes: number;
  readonly maxEventsBytes: number;
  readonly maxEvents: number;
  readonly maxLineBytes: number;
  readonly maxPathBytes: number;
  readonly maxMetaBytes: number;
  readonly maxDepth: number;
  /** Decisions in the bundle's run. */
  readonly maxDecisions: number;
}

const MiB = 1024 * 1024;
export const DEFAULT_BUNDLE_LIMITS: BundleLimits = {
  maxCompressedBytes: 100 * MiB,
  maxDecompressedBytes: 1024 * MiB,
  maxRatio: 200,
  maxManifestBytes: 10 * MiB,
  maxEventsBytes: 500 * MiB,
  maxEvents: 100_000,
  maxLineBytes: 1 * MiB,
  maxPathBytes: 256,
  maxMetaBytes: 64 * 1024,
  maxDepth: 64,
  maxDecisions: DEFAULT_LIMITS.maxDecisions,
};

/** The bundle limits under the user's read limits: a bundle's compressed size honours max-file-size. */
export function bundleLimits(read: ReadLimits): BundleLimits {
  return {
    ...DEFAULT_BUNDLE_LIMITS,
    maxCompressedBytes: Math.min(DEFAULT_BUNDLE_LIMITS.maxCompressedBytes, read.maxFileBytes),
    maxDecisions: read.maxDecisions,
  };
}

/** A manifest `schema` of another kind is a skip (its kind's name); a near miss of ours is an error, never a skip. */
function otherKind(schema: string): string {
  const k = classify({ schema, observed_tool_decisions: [] });
  if (k.kind === 'other') return k.name;
  throw new BundleError(
    k.kind === 'error'
      ? `the archive's manifest names ${JSON.stringify(quote(schema, 120))}: ${k.reason}`
      : `the archive's manifest names ${schema}, which is not an archive`,
  );
}

/** A first member that is JSON with a `schema` names the archive's kind (null: it names none, so it is not a bundle). */
function otherArchive(bytes: Buffer, limits: BundleLimits): string | null {
  const d = decodeUtf8(bytes);
  if (!d.ok) return null;
  const r = parseStrict(d.text, { maxDepth: limits.maxDepth });
  return r.ok && isObject(r.value) && typeof r.value['schema'] === 'string' ? otherKind(r.value['schema']) : null;
}

/** What an archive turned out to be: a verified bundle's events, or another kind of Assay archive (skipped with a notice). */
export type Archive = { readonly kind: 'bundle'; readonly events: Events; readonly facts: BundleFacts } | { readonly kind: 'other'; readonly name: string };

/** A bundle rule was broken; the message names it. */
export class BundleError extends Error {}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** A pull source over the gunzip stream that enforces the decompression limits. */
class GunzipSource implements ByteSource {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private total = 0;
  private done = false;
  private readonly it: AsyncIterator<Buffer>;

  constructor(
    stream: AsyncIterable<Buffer>,
    private readonly compressed: number,
    private readonly limits: BundleLimits,
  ) {
    this.it = stream[Symbol.asyncIterator]();
  }

  private async fill(): Promise<boolean> {
    if (this.done) return false;
    const r = await this.it.next();
    if (r.done) {
      this.done = true;
      return false;
    }
    this.total += r.value.length;
    if (this.total > this.limits.maxDecompressedBytes) {
      throw new BundleError(`decompressed size exceeds the ${this.limits.maxDecompressedBytes}-byte limit (decompression bomb?)`);
    }
    if (this.total > MiB && this.total > this.compressed * this.limits.maxRatio) {
      throw new BundleError(
        `decompression ratio exceeds ${this.limits.maxRatio}:1 (${this.compressed} compressed bytes expanded past ${this.total}; decompression bomb?)`,
      );
    }
    this.chunks.push(r.value);
    this.buffered += r.value.length;
    return true;
  }

  async read(n: number): Promise<Buffer> {
    while (this.buffered < n && (await this.fill()));
    const take = Math.min(n, this.buffered);
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const out = all.subarray(0, take);
    const rest = all.subarray(take);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
    return out;
  }

  /** Read to the end of the gzip stream (so its CRC32 and size trailer are checked); true when only zeros followed. */
  async drain(): Promise<boolean> {
    let zeros = true;
    const check = (b: Buffer): void => {
      if (zeros)
        for (let i = 0; i < b.length; i++)
          if (b[i] !== 0) {
            zeros = false;
            break;
          }
    };
    for (const c of this.chunks) check(c);
    this.chunks = [];
    this.buffered = 0;
    while (await this.fill()) {
      for (const c of this.chunks) check(c);
      this.chunks = [];
      this.buffered = 0;
    }
    return zeros;
  }
}

function gzipReason(e: NodeJS.ErrnoException): string {
  const m = e.message ?? '';
  if (e.code === 'Z_BUF_ERROR' || /unexpected end/i.test(m)) return 'gzip stream is truncated (it ends before its trailer)';
  if (/incorrect header check|unknown compression/i.test(m)) return 'not a gzip stream (bad gzip header)';
  if (/incorrect data check/i.test(m)) return 'gzip CRC32 trailer does not match the data';
  if (/incorrect length check/i.test(m)) return 'gzip size trailer does not match the data';
  return `gzip stream is corrupt (${m})`;
}

interface Manifest {
  /** producer.name / .version / .git when they are strings (an attestation names them). */
  readonly producer: { readonly name: string | null; readonly version: string | null; readonly git: string | null };
  readonly runId: string;
  readonly eventCount: number;
  readonly runRoot: string;
  readonly bundleId: string;
  readonly eventsSha256: string;
  readonly eventsBytes: number;
}

/** The manifest, or the name of the other kind of archive it announces. */
function readManifest(bytes: Buffer, limits: BundleLimits): Manifest | { readonly other: string } {
  const d = decodeUtf8(bytes);
  if (!d.ok) throw new BundleError(`manifest.json is not valid UTF-8 (byte ${d.offset})`);
  const r = parseStrict(d.text, { maxDepth: limits.maxDepth });
  if (!r.ok) throw new BundleError(`manifest.json is not strict JSON: ${r.message} (offset ${r.offset})`);
  const m = r.value;
  if (!isObject(m)) throw new BundleError('manifest.json is not a JSON object');
  if (typeof m['schema'] === 'string' && !('schema_version' in m)) return { other: otherKind(m['schema']) };
  if (m['schema_version'] !== 1) throw new BundleError(`manifest schema_version must be 1, found ${JSON.stringify(m['schema_version'])}`);
  const runId = m['run_id'];
  const eventCount = m['event_count'];
  const runRoot = m['run_root'];
  const bundleId = m['bundle_id'];
  if (typeof runId !== 'string') throw new BundleError('manifest run_id is not a string');
  if (runId.includes(':')) throw new BundleError('manifest run_id contains ":" (event ids are run_id:seq)');
  if (typeof eventCount !== 'number' || !Number.isSafeInteger(eventCount) || eventCount < 0)
    throw new BundleError('manifest event_count is not a non-negative integer');
  if (typeof runRoot !== 'string' || !DIGEST.test(runRoot)) throw new BundleError('manifest run_root is not a sha256:<hex> digest');
  if (typeof bundleId !== 'string' || !DIGEST.test(bundleId)) throw new BundleError('manifest bundle_id is not a sha256:<hex> digest');
  const files = m['files'];
  const ev = isObject(files) ? files['events.ndjson'] : undefined;
  if (!isObject(ev)) throw new BundleError('manifest files["events.ndjson"] is missing or not an object');
  const sha = ev['sha256'];
  const size = ev['bytes'];
  if (typeof ev['path'] !== 'string') throw new BundleError('manifest files["events.ndjson"].path is not a string');
  if (typeof sha !== 'string') throw new BundleError('manifest files["events.ndjson"].sha256 is not a string');
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0)
    throw new BundleError('manifest files["events.ndjson"].bytes is not a non-negative integer');
  const eventsSha256 = (sha.startsWith('sha256:') ? sha : `sha256:${sha}`).toLowerCase();
  const p = isObject(m['producer']) ? m['producer'] : {};
  const text = (k: string): string | null => (typeof p[k] === 'string' ? (p[k] as string) : null);
  return {
    producer: { name: text('name'), version: text('version'), git: text('git') },
    runId,
    eventCount,
    runRoot,
    bundleId,
    eventsSha256,
    eventsBytes: size,
  };
}

const STRINGS = ['type', 'datacontenttype', 'assayproducer', 'assayproducerversion', 'assaygit'] as const;

/** Check every event's envelope, sequence and content hash; return the decisions it carries. */
interface Events {
  readonly decisions: DecisionInput[];
  /** Events of other kinds, by kind. */
  readonly skipped: ReadonlyMap<string, number>;
  /** The earliest and latest event time, in UTC (chrono's AutoSi form, as upstream writes them). */
  readonly window: { readonly start: string; readonly end: string } | null;
}

/** What a verified bundle says about itself: what its producer attestation must match (docs/attestations.md §1). */
export interface BundleFacts {
  /** Hex sha256 of the exact archive bytes (gzip trailer included). */
  readonly archiveSha256: string;
  readonly bundleId: string;
  readonly runId: string;
  readonly eventCount: number;
  readonly runRoot: string;
  readonly producer: Manifest['producer'];
  readonly window: Events['window'];
}

/** An RFC 3339 time as [UTC seconds since the epoch, nanoseconds], or null. */
function utcNanos(t: string): [number, number] | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/.exec(t);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]));
  const offset = m[8] ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 3600 + Number(m[11]) * 60);
  const seconds = Date.UTC(y as number, (mo as number) - 1, d, h, mi, s) / 1000 - offset;
  const nanos = Number(((m[7] ?? '') + '000000000').slice(0, 9));
  return [seconds, nanos];
}

/** [seconds, nanos] in UTC as RFC 3339 with Z and 0, 3, 6 or 9 fraction digits: the fewest that show every non-zero digit. */
function autoSi([seconds, nanos]: [number, number]): string {
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  if (nanos === 0) return `${base}Z`;
  const digits = nanos % 1_000_000 === 0 ? 3 : nanos % 1000 === 0 ? 6 : 9;
  return `${base}.${String(nanos).padStart(9, '0').slice(0, digits)}Z`;
}

function readEvents(bytes: Buffer, m: Manifest, file: string, limits: BundleLimits): Events {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) throw new BundleError('events.ndjson starts with a byte-order mark');
  const d = decodeUtf8(bytes);
  if (!d.ok) throw new BundleError(`events.ndjson is not valid UTF-8 (byte ${d.offset})`);
  const text = d.text;
  const root = createHash('sha256');
  const run = new RunDecisions(limits.maxDecisions);
  const skipped = new Map<string, number>();
  let seq = 0;
  let source: string | undefined;
  let earliest: [number, number] | null = null;
  let latest: [number, number] | null = null;
  const before = (a: [number, number], b: [number, number]): boolean => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
  const surfacePath = pathKey(['data', 'observed_tool_decisions']);
  const opts = { maxDepth: limits.maxDepth, collect: [['data', 'observed_tool_decisions']] };
  for (const { line, start, end } of lines(text)) {
    const where = `events.ndjson line ${line}`;
    if (end === start) throw new BundleError(`${where} is blank`);
    if (overBytes(text, start, end, limits.maxLineBytes)) throw new BundleError(`${where} is over the ${limits.maxLineBytes}-byte line limit`);
    if (seq >= limits.maxEvents) throw new BundleError(`more than ${limits.maxEvents} events`);
    const r = parseStrict(text, opts, start, end);
    if (!r.ok) throw new BundleError(`${where} is not strict JSON: ${r.message}`);
    const e = r.value;
    if (!isObject(e)) throw new BundleError(`${where} is not a JSON object`);
    if (e['specversion'] !== '1.0') throw new BundleError(`${where}: specversion must be "1.0"`);
    for (const k of STRINGS) if (typeof e[k] !== 'string') throw new BundleError(`${where}: ${k} must be a string`);
    const src = e['source'];
    if (typeof src !== 'string' || !src.includes(':') || src.startsWith(':'))
      throw new BundleError(`${where}: source must be a string containing ':' and not starting with it`);
    if (source !== undefined && src !== source) throw new BundleError(`${where}: source differs from the first event's`);
    source = src;
    if (e['assayrunid'] !== m.runId) throw new BundleError(`${where}: assayrunid does not equal the manifest run_id`);
    if (e['assayseq'] !== seq) throw new BundleError(`${where}: assayseq must be ${seq} (sequence starts at 0 and increases by 1)`);
    if (e['id'] !== `${m.runId}:${seq}`) throw new BundleError(`${where}: id must be "${m.runId}:${seq}"`);
    if (typeof e['time'] !== 'string' || !RFC3339.test(e['time'])) throw new BundleError(`${where}: time is not an RFC 3339 timestamp`);
    const at = utcNanos(e['time']);
    if (at) {
      if (!earliest || before(at, earliest)) earliest = at;
      if (!latest || before(latest, at)) latest = at;
    }
    if (typeof e['assaypii'] !== 'boolean' || typeof e['assaysecrets'] !== 'boolean')
      throw new BundleError(`${where}: assaypii and assaysecrets must be booleans`);
    const subject = e['subject'];
    if (subject !== undefined && subject !== null && typeof subject !== 'string') throw new BundleError(`${where}: subject must be a string`);
    const covered: { [k: string]: unknown } = { specversion: e['specversion'], type: e['type'], datacontenttype: e['datacontenttype'], data: e['data'] };
    if (typeof subject === 'string') covered['subject'] = subject;
    const c = jcs(covered);
    if (!c.ok) throw new BundleError(`${where}: event cannot be canonicalized (${c.reason})`);
    const contentHash = sha256Digest(c.text);
    if (e['assaycontenthash'] !== contentHash) throw new BundleError(`${where}: assaycontenthash does not match the event content (recomputed ${contentHash})`);
    root.update(contentHash + '\n');
    // The same classifier as plain files and NDJSON logs: they cannot disagree about an event.
    const k = classify(e);
    if (k.kind === 'error') throw new BundleError(`${where}: ${k.reason}`);
    if (k.kind === 'surface') {
      const offsets = r.elements.get(surfacePath) ?? [];
      const locate = (j: number | null) => ({ file, line, column: (j === null ? start : (offsets[j] ?? start)) - start + 1, member: 'events.ndjson' });
      readSurface(k.payload, 'event', locate, run, (_at, message) => {
        throw new BundleError(`${where}: ${message}`);
      });
    } else {
      const name = k.kind === 'record' ? `${RECORD_SCHEMA} (an audit record among the runs)` : k.kind === 'other' ? k.name : 'a server tracing line';
      skipped.set(name, (skipped.get(name) ?? 0) + 1);
    }
    seq++;
  }
  if (seq === 0) throw new BundleError('events.ndjson holds no events (a bundle needs at least one)');
  if (seq !== m.eventCount) throw new BundleError(`manifest event_count is ${m.eventCount} but events.ndjson holds ${seq} events`);
  const runRoot = `sha256:${root.digest('hex')}`;
  if (runRoot !== m.runRoot) throw new BundleError(`run root recomputes to ${runRoot} but the manifest run_root says ${m.runRoot}`);
  if (m.bundleId !== m.runRoot) throw new BundleError('manifest bundle_id does not equal the run root');
  return { decisions: run.decisions, skipped, window: earliest && latest ? { start: autoSi(earliest), end: autoSi(latest) } : null };
}

/** The bytes of a bundle: a file on disk (streamed) or a buffer already in memory. */
export type BundleSource = { readonly path: string } | { readonly bytes: Uint8Array };

/** Verify a bundle; throws BundleError naming the broken rule. */
export async function verifyBundle(source: BundleSource, file: string, limits: BundleLimits = DEFAULT_BUNDLE_LIMITS): Promise<Archive> {
  let size: number;
  let input: Readable;
  try {
    size = 'path' in source ? statSync(source.path).size : source.bytes.length;
    if (size > limits.maxCompressedBytes)
      throw new BundleError(
        `bundle is ${size} bytes, over the ${limits.maxCompressedBytes}-byte compressed limit (max-file-size, at most ${DEFAULT_BUNDLE_LIMITS.maxCompressedBytes})`,
      );
    input = 'path' in source ? createReadStream(source.path) : Readable.from([Buffer.from(source.bytes)]);
  } catch (e) {
    if (e instanceof BundleError) throw e;
    throw new BundleError(`cannot read file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const gunzip = createGunzip();
  const archiveHash = createHash('sha256');
  input.on('data', (chunk: Buffer) => archiveHash.update(chunk));
  input.on('error', (e) => gunzip.destroy(e));
  input.pipe(gunzip);
  const src = new GunzipSource(gunzip, size, limits);
  try {
    let manifest: Manifest | undefined;
    let decisions: Events | undefined;
    for await (const m of members(src, limits)) {
      if (!manifest && decisions === undefined) {
        if (m.path !== 'manifest.json' && m.path.endsWith('.json') && m.path !== 'events.ndjson') {
          // Another kind of Assay archive (a runner archive…) announces itself in its first JSON member.
          const other = otherArchive(await m.data(limits.maxManifestBytes, m.path), limits);
          if (other !== null) return { kind: 'other', name: other };
        }
        if (m.path !== 'manifest.json') {
          throw new BundleError(
            m.path === 'events.ndjson'
              ? 'member order: events.ndjson comes before manifest.json'
              : `unexpected member "${m.path}" (a bundle holds manifest.json then events.ndjson)`,
          );
        }
        const read = readManifest(await m.data(limits.maxManifestBytes, 'manifest.json'), limits);
        if ('other' in read) return { kind: 'other', name: read.other };
        manifest = read;
      } else if (manifest && decisions === undefined) {
        if (m.path !== 'events.ndjson') {
          throw new BundleError(
            m.path === 'manifest.json' ? 'duplicate member "manifest.json"' : `unexpected member "${m.path}" (a bundle holds manifest.json then events.ndjson)`,
          );
        }
        if (m.size !== manifest.eventsBytes) throw new BundleError(`events.ndjson is ${m.size} bytes but the manifest says ${manifest.eventsBytes}`);
        const bytes = await m.data(limits.maxEventsBytes, 'events.ndjson');
        if (sha256Digest(bytes) !== manifest.eventsSha256) throw new BundleError('events.ndjson sha256 does not match the manifest');
        decisions = readEvents(bytes, manifest, file, limits);
      } else {
        throw new BundleError(
          m.path === 'events.ndjson' || m.path === 'manifest.json'
            ? `duplicate member "${m.path}"`
            : `unexpected member "${m.path}" (a bundle holds manifest.json then events.ndjson)`,
        );
      }
    }
    if (!(await src.drain())) throw new BundleError('data after the end of the tar archive');
    if (!manifest) throw new BundleError('missing member manifest.json');
    if (decisions === undefined) throw new BundleError('missing member events.ndjson');
    // Every byte has been read (drain checked the end): the hash is of the whole archive.
    const facts: BundleFacts = {
      archiveSha256: archiveHash.digest('hex'),
      bundleId: manifest.bundleId,
      runId: manifest.runId,
      eventCount: manifest.eventCount,
      runRoot: manifest.runRoot,
      producer: manifest.producer,
      window: decisions.window,
    };
    return { kind: 'bundle', events: decisions, facts };
  } catch (e) {
    if (e instanceof BundleError) throw e;
    if (e instanceof TarError) throw new BundleError(e.message);
    const err = e as NodeJS.ErrnoException;
    if (typeof err.code === 'string' && err.code.startsWith('Z_')) throw new BundleError(gzipReason(err));
    if (typeof err.code === 'string' && /^E[A-Z]+$/.test(err.code)) throw new BundleError(`cannot read file: ${err.code}`);
    throw e;
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}

export async function readBundle(source: BundleSource, file: string, limits: BundleLimits = DEFAULT_BUNDLE_LIMITS): Promise<FileRead> {
  const at = { file, line: 1, column: 1 };
  let archive: Archive;
  try {
    archive = await verifyBundle(source, file, limits);
  } catch (e) {
    if (!(e instanceof BundleError)) throw e;
    const f: Finding = finding('invalid_artifact', at, `evidence bundle rejected: ${e.message}`);
    return { run: null, records: [], findings: [f] };
  }
  if (archive.kind === 'other') {
    const f = finding('skipped_object', at, `skipped an archive of another kind: ${archive.name} (not an evidence bundle; it contributes no calls)`);
    return { run: null, records: [], findings: [f] };
  }
  const { decisions, skipped } = archive.events;
  const findings: Finding[] = [];
  if (skipped.size > 0) findings.push(skippedFinding({ ...at, member: 'events.ndjson' }, skipped));
  if (decisions.length === 0) findings.push(finding('no_decisions', at, `evidence bundle verified; it holds no ${SURFACE} events, so it contributes no calls`));
  return { run: { artifact: file, decisions }, records: [], findings, bundle: archive.facts };
}
