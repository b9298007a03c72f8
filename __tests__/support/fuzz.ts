/**
 * The whole pipeline in memory (readers → verify) over a corpus of files, for fuzzing: random byte
 * and structure mutations of valid artifacts and bundles must never crash the gate and never earn a
 * `verified` that the unmutated evidence did not earn.
 */
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { Finding } from '../../src/core/findings.js';
import type { RecordInput, RunInput } from '../../src/core/model.js';
import type { Report } from '../../src/core/report.js';
import { verify } from '../../src/core/verify.js';
import { type Role, readArtifact } from '../../src/read/files.js';
import { DEFAULT_LIMITS } from '../../src/read/limits.js';
import { buildBundle } from './bundle-writer.js';
import { uncheckedRecords } from './evidence.js';

export type Corpus = ReadonlyMap<string, Buffer>;

export async function verifyCorpus(files: Corpus): Promise<Report> {
  const runs: RunInput[] = [];
  const records: RecordInput[] = [];
  const findings: Finding[] = [];
  for (const [rel, bytes] of [...files.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const role: Role = rel.includes('/audit/') ? 'audit' : 'runs';
    const r = await readArtifact(rel, role, bytes, DEFAULT_LIMITS);
    if (r.run) runs.push(r.run);
    records.push(...uncheckedRecords(r.entries));
    findings.push(...r.findings);
  }
  return verify({ runs, records, findings }, { allowUnmatchedRecords: false, strictObserved: false });
}

const verifiedDigests = (r: Report): string[] => r.calls.filter((c) => c.level === 'verified').map((c) => c.subject_digest!);

/** The invariant: the mutated corpus earns no verified digest the original did not, and no more of them. */
export function assertNoNewVerified(original: Report, mutated: Report): void {
  const base = new Set(verifiedDigests(original));
  const got = verifiedDigests(mutated);
  for (const d of got) if (!base.has(d)) throw new Error(`mutation earned verified for ${d}, which the original did not`);
  if (got.length > base.size) throw new Error(`mutation earned ${got.length} verified calls; the original earned ${base.size}`);
}

// ── byte mutations ────────────────────────────────────────────────────────────────────────────

export type ByteOp = { kind: 'flip' | 'set' | 'insert' | 'delete' | 'truncate'; at: number; byte: number };
export const arbByteOps = fc.array(
  fc.record({
    kind: fc.constantFrom('flip', 'set', 'insert', 'delete', 'truncate') as fc.Arbitrary<ByteOp['kind']>,
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    byte: fc.integer({ min: 0, max: 255 }),
  }),
  { minLength: 1, maxLength: 4 },
);

export function mutateBytes(b: Buffer, ops: readonly ByteOp[]): Buffer {
  let out = Buffer.from(b);
  for (const op of ops) {
    const i = Math.min(out.length, Math.floor(op.at * out.length));
    if (op.kind === 'flip' && i < out.length) out[i]! ^= 1 << (op.byte % 8);
    else if (op.kind === 'set' && i < out.length) out[i] = op.byte;
    else if (op.kind === 'insert') out = Buffer.concat([out.subarray(0, i), Buffer.from([op.byte]), out.subarray(i)]);
    else if (op.kind === 'delete' && i < out.length) out = Buffer.concat([out.subarray(0, i), out.subarray(i + 1)]);
    else if (op.kind === 'truncate') out = out.subarray(0, i);
  }
  return out;
}

// ── structure mutations ───────────────────────────────────────────────────────────────────────

export interface StructOp {
  /** Choices that walk to a node: each picks a child by index modulo the child count. */
  readonly path: readonly number[];
  readonly kind: 'replace' | 'delete' | 'duplicate' | 'rename';
  readonly value: unknown;
}
export const arbStructOp: fc.Arbitrary<StructOp> = fc.record({
  path: fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
  kind: fc.constantFrom('replace', 'delete', 'duplicate', 'rename') as fc.Arbitrary<StructOp['kind']>,
  value: fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom(true, false, null, 'verified', 'get', 'success', 'github', 'sha256:' + '0'.repeat(64)),
  ),
});

/** Apply one structural change in place, at a node chosen by walking `path`; returns the root. */
function mutateValue(root: unknown, op: StructOp): unknown {
  let parent: any = null;
  let key: string | number = '';
  let node: any = root;
  for (const step of op.path) {
    if (node === null || typeof node !== 'object') break;
    const keys: (string | number)[] = Array.isArray(node) ? node.map((_: unknown, i: number) => i) : Object.keys(node);
    if (keys.length === 0) break;
    parent = node;
    key = keys[step % keys.length]!;
    node = node[key];
  }
  if (parent === null) return op.kind === 'replace' ? op.value : root;
  if (op.kind === 'replace') parent[key] = op.value;
  else if (op.kind === 'delete') Array.isArray(parent) ? parent.splice(key as number, 1) : delete parent[key];
  else if (op.kind === 'duplicate')
    Array.isArray(parent) ? parent.splice(key as number, 0, JSON.parse(JSON.stringify(node))) : (parent[`${String(key)}_copy`] = node);
  else if (op.kind === 'rename' && !Array.isArray(parent)) {
    const v = parent[key];
    delete parent[key];
    parent[typeof op.value === 'string' ? op.value : `${String(key)}x`] = v;
  }
  return root;
}

/** Mutate one JSON document of a file: the whole .json, one NDJSON line, or one event of a bundle (re-hashed, so the bundle stays valid). */
export function mutateStructure(rel: string, bytes: Buffer, docIndex: number, op: StructOp): Buffer {
  if (rel.endsWith('.tar.gz')) {
    const tar = gunzipSync(bytes);
    const manifestSize = parseInt(tar.toString('latin1', 124, 135), 8);
    const eventsHeader = 512 + Math.ceil(manifestSize / 512) * 512;
    const manifest = JSON.parse(tar.toString('utf8', 512, 512 + manifestSize));
    const eventsSize = parseInt(tar.toString('latin1', eventsHeader + 124, eventsHeader + 135), 8);
    const events = tar
      .toString('utf8', eventsHeader + 512, eventsHeader + 512 + eventsSize)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const i = docIndex % events.length;
    events[i].data = mutateValue(events[i].data, op);
    return buildBundle({
      runId: manifest.run_id,
      source: events[0].source,
      time: events[0].time,
      events: events.map((e: any) => ({ type: e.type, data: e.data })),
    }).gz;
  }
  const text = bytes.toString('utf8');
  if (rel.endsWith('.json')) return Buffer.from(JSON.stringify(mutateValue(JSON.parse(text), op), null, 2));
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const i = docIndex % lines.length;
  lines[i] = JSON.stringify(mutateValue(JSON.parse(lines[i]!), op));
  return Buffer.from(lines.join('\n') + '\n');
}
