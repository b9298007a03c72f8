/**
 * One input file, with everything beside it, is the unit of work. `readEvidence` (the main thread)
 * or `readWire` (a worker, which sends text) runs on whichever thread reads the file
 * (gate/readers.ts): it reads and binds the file, finds its sidecars once (one look, one refusal
 * each: `<bundle>.intoto.jsonl`, `<file>.sigstore.json`, their shapes always checked), runs every
 * configured trust checker of its role (src/trust/checkers/), and returns core input with trust
 * decided. Signatures and payloads stay on this thread; what leaves is decisions.
 */
import { createPublicKey } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { type Finding, finding } from '../core/findings.js';
import type { Attestation, RecordInput, StatementInput, Trust } from '../core/model.js';
import { combine, type TrustDecision } from '../core/trust.js';
import type { FoundFile } from '../read/discover.js';
import { readEnvelopeFile } from '../read/envelope.js';
import type { FileEvidence, FileRead } from '../read/file-read.js';
import { type Beside as Read, type Role, readBeside, readOneUnless } from '../read/files.js';
import { formatOf, sidecarOf, sigstoreOf } from '../read/formats.js';
import type { ReadLimits } from '../read/limits.js';
import { decodeCheckedWire, encodeRead } from '../read/wire.js';
import { type SignatureChecks, signatureChecksFor } from '../trust/check.js';
import type { CheckerDecision, DsseSidecar, FileUnderCheck, SigstoreSidecar, TrustChecker } from '../trust/checker.js';
import { type IdentitySetup, identityCheckers } from '../trust/checkers/identities.js';
import { producerKeys } from '../trust/checkers/producer-keys.js';
import { recordKeys } from '../trust/checkers/record-keys.js';
import { shapeOnly } from '../trust/checkers/shape-only.js';
import type { TrustedKeys } from '../trust/keys.js';
import { besideKey, type CacheNote, type CacheSetup, type Entry, entryKey, entryShape, lookUp, store } from './cache.js';

/** One file to read and the role it was given. */
export interface ReadTask {
  readonly file: FoundFile;
  readonly role: Role;
  /**
   * The key a verification snapshot names this file by (gate/incremental.ts), when it names it: a
   * file whose key is that one now is kept (its evidence is the snapshot's), never looked up or read.
   */
  readonly kept?: string;
  /**
   * The key this run's own first reading gave the file (a merge declined after it: gate/incremental.ts):
   * its evidence is the entry stored under that key, its bytes not read and hashed again; with no
   * sound entry there, the file is read as any other.
   */
  readonly hashed?: string;
}

/** A trusted public key as plain data (a worker rebuilds the key from it). */
export interface KeyMaterial {
  readonly keyId: string;
  /** SubjectPublicKeyInfo DER, base64. */
  readonly spki: string;
}

/** Which trust is configured: plain data, the same on every thread. */
interface TrustSetup {
  /** Trusted record signers' keys (§8); null: none. */
  readonly recordKeys: readonly KeyMaterial[] | null;
  /** Trusted producers' keys (§10); null: none. */
  readonly producerKeys: readonly KeyMaterial[] | null;
  /** Trusted identities and the roots' text (docs/keyless.md); null: none. */
  readonly identities: IdentitySetup | null;
}

/** What every reading thread is told once. */
export interface ReadSetup {
  readonly limits: ReadLimits;
  /** Hash every file read (and every attestation read beside it): a verdict lists them. */
  readonly digest: boolean;
  readonly trust: TrustSetup;
  /** Nothing outside it is read (a link beside an input must not lead out). */
  readonly workspace: string;
  /** The evidence cache (gate/cache.ts), or null: every file is read. */
  readonly cache: CacheSetup | null;
  /** Where record signatures are checked (trust/check.ts): the same decisions either way, so not in the cache's key. */
  readonly signatures: SignatureChecks;
}

/** The set-up for `threads` reading threads on this machine: where they check record signatures (trust/check.ts, `signatureChecksFor`); the same object when that does not change. */
export function setupForThreads(setup: ReadSetup, threads: number): ReadSetup {
  const signatures = signatureChecksFor(threads, availableParallelism());
  return setup.signatures === signatures ? setup : { ...setup, signatures };
}

/** A file that contributes nothing but one invalid_artifact about itself (at 1:1). */
export const failed = (rel: string, message: string): FileEvidence => ({
  run: null,
  records: [],
  statements: [],
  findings: [finding('invalid_artifact', { file: rel, line: 1, column: 1 }, message)],
  digests: [],
});

/** Key material of trusted keys (what crosses to a worker). */
export const keyMaterial = (keys: TrustedKeys | null): readonly KeyMaterial[] | null =>
  keys === null ? null : [...keys].map(([keyId, key]) => ({ keyId, spki: key.export({ type: 'spki', format: 'der' }).toString('base64') }));

const keysOf = (material: readonly KeyMaterial[]): TrustedKeys =>
  new Map(material.map((m) => [m.keyId, createPublicKey({ key: Buffer.from(m.spki, 'base64'), format: 'der', type: 'spki' })]));

/** The checkers of a set-up, in the order their refusals are told: keys, then identities; made once per thread. */
const made = new WeakMap<ReadSetup, readonly TrustChecker[]>();
function checkersOf(setup: ReadSetup): readonly TrustChecker[] {
  let list = made.get(setup);
  if (list) return list;
  const { trust, limits } = setup;
  list = [
    ...(trust.recordKeys ? [recordKeys(keysOf(trust.recordKeys), setup.signatures)] : []),
    ...(trust.producerKeys ? [producerKeys(keysOf(trust.producerKeys), limits)] : [shapeOnly]),
    ...(trust.identities ? identityCheckers(trust.identities, limits) : []),
  ];
  made.set(setup, list);
  return list;
}

/** Whether identities of this role are configured (then a file's sha256 is needed, and its bundle is checked, not only shaped). */
export const identitiesFor = (setup: ReadSetup, role: Role): boolean =>
  setup.trust.identities !== null && (role === 'audit' ? setup.trust.identities.signers : setup.trust.identities.producers) !== null;

/** Where the findings and digests of what is read beside a file go. */
interface Beside {
  readonly findings: Finding[];
  readonly digests: [string, string][];
}

/** Whether a file has a DSSE sidecar to read: an evidence bundle among the runs. */
const hasDsse = (task: ReadTask): boolean => task.role === 'runs' && formatOf(task.file.rel) === 'bundle';

/** The files beside one input, each read once: its bundle's `<bundle>.intoto.jsonl` (when it is one) and its `<file>.sigstore.json`. */
interface Sidecars {
  readonly dsse: Read;
  readonly sigstore: Read;
}

function readSidecars(task: ReadTask, setup: ReadSetup): Sidecars {
  return {
    dsse: hasDsse(task)
      ? readBeside(sidecarOf(task.file.path), 'the attestation sidecar', setup.workspace, setup.limits)
      : { kind: 'none' },
    sigstore: readBeside(sigstoreOf(task.file.path), 'the Sigstore bundle', setup.workspace, setup.limits),
  };
}

/** A bundle's `<bundle>.intoto.jsonl`, read once; its shape checked whatever is configured. */
function readDsse(task: ReadTask, got: Read, setup: ReadSetup, out: Beside): DsseSidecar {
  if (!hasDsse(task)) return { kind: 'none' };
  const rel = sidecarOf(task.file.rel);
  if (got.kind === 'none') return got;
  if (got.kind === 'refused') {
    out.findings.push(finding('invalid_artifact', { file: rel, line: 1, column: 1 }, got.reason));
    return { kind: 'malformed' };
  }
  if (setup.digest) out.digests.push([rel, got.sha256()]);
  const read = readEnvelopeFile(rel, got.bytes, setup.limits);
  for (const f of read.findings) out.findings.push(f);
  if (read.findings.length > 0) return { kind: 'malformed' };
  if (read.empty) {
    if (setup.trust.producerKeys === null)
      out.findings.push(
        finding('skipped_object', { file: rel, line: 1, column: 1 }, 'the attestation sidecar holds no envelope: it attests nothing'),
      );
    return { kind: 'empty' };
  }
  return { kind: 'envelopes', envelopes: read.envelopes };
}

/** A file's `<file>.sigstore.json`, read once; its shape checked always (garbage is never ignored), its bundles checked by identity when its role has identities. */
async function readSigstore(task: ReadTask, got: Read, setup: ReadSetup, out: Beside): Promise<SigstoreSidecar> {
  const rel = sigstoreOf(task.file.rel);
  const at = { file: rel, line: 1, column: 1 };
  if (got.kind === 'none') return got;
  if (got.kind === 'refused') {
    out.findings.push(finding('invalid_artifact', at, got.reason));
    return { kind: 'refused', reason: got.reason };
  }
  if (setup.digest) out.digests.push([rel, got.sha256()]);
  // Named where it is imported, so the linter sees which exports are used.
  const { readSigstoreFile } = await import('../trust/sigstore.js');
  const file = readSigstoreFile(rel, got.bytes, setup.limits);
  for (const f of file.findings) out.findings.push(f);
  if (file.findings.length === 0 && !identitiesFor(setup, task.role)) {
    const flag = task.role === 'audit' ? '--trusted-signer-identity' : '--trusted-producer-identity';
    out.findings.push(
      finding(
        'skipped_object',
        at,
        `${file.bundles.length} Sigstore bundle(s), not checked: no trusted identities for this file (${flag})`,
      ),
    );
  }
  return { kind: 'read', file };
}

/** A record's trust from the combined decision of its role's checkers (none configured: unchecked). */
function trustOf(decision: TrustDecision): Trust {
  if (decision.kind === 'trusted') return { kind: 'trusted', by: decision.by };
  if (decision.kind === 'untrusted') return { kind: 'untrusted', code: decision.code, reason: decision.detail };
  return { kind: 'unchecked' };
}

/** A run's attestation from the combined decision of its role's checkers. */
function attestationOf(decision: TrustDecision, read: FileRead): Attestation {
  const named = { name: read.bundle?.producer.name ?? null, version: read.bundle?.producer.version ?? null };
  if (decision.kind === 'trusted') return { kind: 'attested', by: decision.by, ...named };
  if (decision.kind === 'untrusted') return { kind: 'unattested', code: decision.code, reason: decision.detail };
  if (decision.kind === 'unchecked' && decision.keyId !== null) return { kind: 'unchecked', keyId: decision.keyId, ...named };
  return { kind: 'none' };
}

/** The decision a checker made for the i-th record (a file's decision holds for each). */
const forRecord = (c: CheckerDecision, i: number): TrustDecision =>
  c.kind === 'records' ? (c.decisions[i] ?? { kind: 'none' }) : c.decision;

/**
 * One file's result as the thread that read it hands it on, and what the evidence cache did for it
 * (null: no cache). The main thread takes evidence; a worker sends the encoded text (read/wire.ts).
 * `value` null: the file is kept (its key is the one its task names, `ReadTask.kept`): its evidence is
 * the snapshot's, and nothing of it was looked up or read.
 */
export interface Delivered<T> {
  readonly value: T | null;
  readonly cache: CacheNote | null;
}

/** The form a file's result is handed on in: from a sound cache entry, or from the file read (with its text, when it was encoded to be stored). */
interface Form<T> {
  found(entry: Entry, rel: string): T;
  read(evidence: FileEvidence, wire: string | null, rel: string): T;
}

/** The evidence itself (the main thread): an entry is decoded. */
const AS_EVIDENCE: Form<FileEvidence> = {
  found: (entry, rel) => decodeCheckedWire(entry.checked, rel),
  read: (evidence) => evidence,
};

/** Its encoded text (a worker): an entry's text is sent as it is (checked, never decoded here), a file's evidence encoded once. */
const AS_WIRE: Form<string> = {
  found: (entry) => entry.text,
  read: (evidence, wire, rel) => wire ?? encodeRead(evidence, rel),
};

/** What a look-up answers for a file its task keeps, unchanged (`ReadTask.kept`). */
const KEPT = Symbol('kept');

/** One file and everything beside it → what it contributes, trust decided (see `deliver`). */
export const readEvidence = (task: ReadTask, setup: ReadSetup): Promise<Delivered<FileEvidence>> => deliver(task, setup, AS_EVIDENCE);

/** The same, encoded for the thread that asked (a worker's answer). */
export const readWire = (task: ReadTask, setup: ReadSetup): Promise<Delivered<string>> => deliver(task, setup, AS_WIRE);

/**
 * One file and everything beside it → what it contributes, trust decided, in `form`. With a cache,
 * the evidence stored for these very bytes (the file's and its sidecars') under this set-up, when
 * there is a sound entry; else the file is read and its evidence stored.
 */
async function deliver<T>(task: ReadTask, setup: ReadSetup, form: Form<T>): Promise<Delivered<T>> {
  const { file, role } = task;
  const cache = setup.cache;
  const shape = cache?.read ? await entryShape() : null;
  // Hashed once by this run to the key its task keeps: kept, never decoded (a second collection that reads a few kept files again).
  if (task.hashed !== undefined && task.hashed === task.kept) return { value: null, cache: { hit: true, kept: true, key: task.hashed } };
  // Hashed once by this run: the evidence of the bytes it hashed then (an entry refused now is looked up again below, and said).
  if (task.hashed !== undefined && cache !== null && shape !== null) {
    const entry = lookUp(cache, task.hashed, shape);
    if (entry.ok) return { value: form.found(entry.value, file.rel), cache: { hit: true, key: task.hashed } };
  }
  const sidecars = readSidecars(task, setup);
  let key: string | null = null;
  let ignored: string | undefined;
  const found = (sha256: string): Entry | typeof KEPT | null => {
    if (cache === null) return null;
    key = entryKey(cache, role, file.rel, sha256, [besideKey(sidecars.dsse), besideKey(sidecars.sigstore)]);
    if (key === task.kept) return KEPT;
    if (shape === null) return null;
    const entry = lookUp(cache, key, shape);
    if (entry.ok) return entry.value;
    if (entry.reason !== null) ignored = entry.reason;
    return null;
  };
  const got = await readOneUnless(file, role, setup.limits, setup.digest || identitiesFor(setup, role), cache === null ? null : found);
  const keyed = (n: CacheNote): CacheNote => (key === null ? n : { ...n, key });
  if (got.kind === 'found')
    return got.value === KEPT
      ? { value: null, cache: keyed({ hit: true, kept: true }) }
      : { value: form.found(got.value, file.rel), cache: keyed({ hit: true }) };
  const evidence = await judge(task, got.read, sidecars, setup);
  if (cache === null) return { value: form.read(evidence, null, file.rel), cache: null };
  // Only evidence of exactly the bytes hashed is stored (a bundle that changed while it was read is not).
  if (got.sha256 === null || key === null)
    return { value: form.read(evidence, null, file.rel), cache: note(ignored, got.unkeyed ?? 'it has no key') };
  // Encoded once: the entry's body is the text a reading thread sends.
  const wire = encodeRead(evidence, file.rel);
  return { value: form.read(evidence, wire, file.rel), cache: keyed(note(ignored, store(cache, key, wire))) };
}

/** What the cache did for a file that was read: an entry ignored, and why it was not stored (null: it was). */
function note(ignored: string | undefined, unstored: string | null): CacheNote {
  return { hit: false, ...(ignored === undefined ? {} : { ignored }), ...(unstored === null ? {} : { unstored }) };
}

/** A file read, and its sidecars → what it contributes, every configured checker of its role run. */
async function judge(task: ReadTask, read: FileRead, sidecars: Sidecars, setup: ReadSetup): Promise<FileEvidence> {
  const { file, role } = task;
  const out: Beside = { findings: [...read.findings], digests: [] };
  if (read.sha256 !== undefined) out.digests.push([file.rel, read.sha256]);
  const dsse = readDsse(task, sidecars.dsse, setup, out);
  const sigstore = await readSigstore(task, sidecars.sigstore, setup, out);
  const judged = role === 'runs' ? read.run !== null : read.entries.length > 0;
  const checkers = judged ? checkersOf(setup).filter((c) => c.role === role) : [];
  const under: FileUnderCheck = { path: file.path, rel: file.rel, role, read, dsse, sigstore };
  const decisions = await Promise.all(checkers.map((c) => c.check(under)));
  // Records and coverage statements are trusted alike (docs/coverage.md §1); they leave as two lists.
  const records: RecordInput[] = [];
  const statements: StatementInput[] = [];
  read.entries.forEach((entry, i) => {
    const trust = trustOf(combine(decisions.map((c) => forRecord(c, i))));
    if (entry.kind === 'record')
      records.push({ loc: entry.loc, record: entry.record, recomputed: entry.recomputed, signer: entry.signer, trust });
    else statements.push({ loc: entry.loc, statement: entry.statement, signer: entry.signer, trust });
  });
  const run = read.run
    ? {
        artifact: read.run.artifact,
        decisions: read.run.decisions,
        attestation: attestationOf(combine(decisions.map((c) => forRecord(c, 0))), read),
        ...(read.sha256 === undefined ? {} : { sha256: read.sha256 }),
      }
    : null;
  return {
    run,
    records,
    statements,
    findings: out.findings,
    digests: out.digests,
    ...(read.strays ? { strays: read.strays } : {}),
    ...(read.rejectedClasses ? { rejectedClasses: read.rejectedClasses } : {}),
  };
}
