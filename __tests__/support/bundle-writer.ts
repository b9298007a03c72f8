/**
 * Writes Assay evidence bundles (ustar + gzip) exactly as docs/evidence-bundle.md describes, for
 * tests and fixtures. Deterministic: the same events give the same bytes. Options let a test break
 * one rule at a time (after hashing, so the breakage is what the reader must catch).
 */
import { gzipSync } from 'node:zlib';
import { jcs, sha256Hex } from '../../src/core/binding.js';

interface EventSpec {
  readonly type: string;
  readonly data: unknown;
  readonly subject?: string;
}

export interface BundleSpec {
  readonly runId: string;
  readonly source?: string;
  readonly time?: string;
  readonly producer?: { readonly name: string; readonly version: string; readonly git: string };
  readonly events: readonly EventSpec[];
}

export interface BuiltBundle {
  readonly manifest: string;
  readonly events: string;
  readonly runRoot: string;
  readonly gz: Buffer;
}

const canon = (v: unknown): string => {
  const c = jcs(v);
  if (!c.ok) throw new Error(c.reason);
  return c.text;
};

function contentHash(e: { specversion: string; type: string; datacontenttype: string; data: unknown; subject?: string }): string {
  const covered: Record<string, unknown> = { specversion: e.specversion, type: e.type, datacontenttype: e.datacontenttype, data: e.data };
  if (e.subject !== undefined) covered['subject'] = e.subject;
  return `sha256:${sha256Hex(canon(covered))}`;
}

/** The events.ndjson text and the manifest (JCS) of a bundle. */
export function bundleParts(spec: BundleSpec): { events: string; manifest: string; runRoot: string } {
  const producer = spec.producer ?? { name: 'receipt-gate-fixtures', version: '0.1.0', git: '0000000' };
  const lines: string[] = [];
  const hashes: string[] = [];
  spec.events.forEach((ev, seq) => {
    const base = {
      specversion: '1.0',
      type: ev.type,
      datacontenttype: 'application/json',
      data: ev.data,
      ...(ev.subject !== undefined ? { subject: ev.subject } : {}),
    };
    const hash = contentHash(base);
    hashes.push(hash);
    lines.push(
      canon({
        ...base,
        source: spec.source ?? 'urn:assay:receipt-gate-fixtures',
        id: `${spec.runId}:${seq}`,
        time: spec.time ?? '2026-11-01T12:00:00Z',
        assayrunid: spec.runId,
        assayseq: seq,
        assayproducer: producer.name,
        assayproducerversion: producer.version,
        assaygit: producer.git,
        assaypii: false,
        assaysecrets: false,
        assaycontenthash: hash,
      }) + '\n',
    );
  });
  const events = lines.join('');
  const runRoot = `sha256:${sha256Hex(hashes.map((h) => h + '\n').join(''))}`;
  const manifest = canon({
    algorithms: { canon: 'jcs-rfc8785', hash: 'sha256', root: 'sha256(concat(content_hash + "\\n"))' },
    bundle_id: runRoot,
    event_count: spec.events.length,
    files: { 'events.ndjson': { bytes: Buffer.byteLength(events), path: 'events.ndjson', sha256: `sha256:${sha256Hex(events)}` } },
    producer,
    run_id: spec.runId,
    run_root: runRoot,
    schema_version: 1,
  });
  return { events, manifest, runRoot };
}

export interface TarEntry {
  readonly name: string;
  readonly data: Buffer | string;
  /** ustar type flag; '0' regular file by default. */
  readonly type?: string;
  readonly linkname?: string;
}

function header(name: string, size: number, type: string, linkname = ''): Buffer {
  const h = Buffer.alloc(512);
  const nameBytes = Buffer.from(name);
  if (nameBytes.length > 100) {
    // split into prefix/name at a slash (ustar); tests that need longer names use PAX
    const cut = name.lastIndexOf('/', name.length - 1 - 0);
    h.write(name.slice(cut + 1), 0, 100);
    h.write(name.slice(0, cut), 345, 155);
  } else {
    nameBytes.copy(h, 0);
  }
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(size.toString(8).padStart(11, '0') + '\0', 124);
  h.write('00000000000\0', 136);
  h.write('        ', 148);
  h.write(type, 156);
  h.write(linkname, 157, 100);
  h.write('ustar\0', 257);
  h.write('00', 263);
  h.write('assay', 265);
  h.write('assay', 297);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
  return h;
}

export function tar(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const data = typeof e.data === 'string' ? Buffer.from(e.data) : e.data;
    parts.push(header(e.name, data.length, e.type ?? '0', e.linkname), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

export const gzip = (b: Buffer): Buffer => gzipSync(b, { level: 9 });

export function buildBundle(spec: BundleSpec): BuiltBundle {
  const { events, manifest, runRoot } = bundleParts(spec);
  return {
    events,
    manifest,
    runRoot,
    gz: gzip(
      tar([
        { name: 'manifest.json', data: manifest },
        { name: 'events.ndjson', data: events },
      ]),
    ),
  };
}
