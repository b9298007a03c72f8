/**
 * Incremental verification in the gate (design/incremental-verification.md, stops 2 and 3): with the
 * evidence cache, a full run keeps a verification snapshot of itself beside the entries
 * (gate/snapshot.ts), and a later run whose files are the snapshot's, unchanged, plus added files
 * (after them or among them) verifies only the added files and merges them onto it
 * (core/incremental.ts): the same report bytes as a full run, its kept lists copied as bytes, each
 * file's where the merge weaves it. Kept runs whose calls added records bind (records that waited for
 * their run) are collected again from their entries, verified with the added files, and their kept
 * share taken away (`waiting`). Anything else is a full run, and the
 * log says why. Only a JSON report written to a file takes it (the other reporters read every call).
 */
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { sha256Hex } from '../core/binding.js';
import type { Finding } from '../core/findings.js';
import { judgedUnder, type Merged, mergeAdded, partOf, unmergeable, waiting } from '../core/incremental.js';
import type { Evidence, VerifyOptions } from '../core/model.js';
import { NO_POLICY } from '../core/policy.js';
import type { Report } from '../core/report.js';
import type { Result } from '../core/result.js';
import { messageOf } from '../core/text.js';
import { rfc3339 } from '../core/time.js';
import { policyMember, verify } from '../core/verify.js';
import { type KeptLists, keptPieces, writePieces } from '../report/json-report.js';
import { makeDirs } from '../report/output.js';
import { snapshotShape } from './cache.js';
import type { FileFacts } from './facts.js';
import { type KeptFile, keptListsOf, openSnapshot, SNAPSHOT_SCHEMA, type Snapshot, snapshotHeader } from './snapshot.js';

/** One input file as the gate read it: its key in the cache (null: none), the findings its reading made (sidecars' included), its facts. */
export interface FileRead {
  readonly rel: string;
  readonly key: string | null;
  readonly findings: readonly Finding[];
  readonly facts: FileFacts;
}

/**
 * The evidence as the gate collected it (gate.ts): every file read, the findings no file made (the
 * gate's own), and how many files were kept (a snapshot names them, unchanged: their runs, records
 * and statements are not in the evidence; only a merge may use it then).
 */
export interface Gathered extends Evidence {
  readonly files: readonly FileRead[];
  readonly own: readonly Finding[];
  readonly kept: number;
}

/** The cache's snapshot for this set-up, policy and options, as opened before the files are read: its key, and what was read (null: there is none). */
export interface KeptSnapshot {
  readonly dir: string;
  readonly key: string;
  readonly read: Result<Snapshot, string> | null;
}

/** The result: the report (with `kept`, the kept lists written before its own), and what the log says. */
export interface Incremental {
  readonly report: Report;
  readonly kept: KeptLists | null;
  readonly said: string;
}

/**
 * What a verification depends on besides its files: the read set-up (the build, and the trust settings
 * the report echoes, in it) and what a merge compares, the report's `policy` member but for its
 * commit (`judgedUnder`): the policy's bytes, its path, its rules and the options. A member the merge
 * compares is in the key by construction (a red team: the same bytes read at two paths shared one
 * snapshot, and two jobs sharing a cache wrote over each other's in turn).
 */
function judgingKey(setupKey: string, options: VerifyOptions): string {
  return sha256Hex(JSON.stringify([SNAPSHOT_SCHEMA, setupKey, judgedUnder(policyMember(options, {}))]));
}

const snapshotFile = (dir: string, key: string): string => path.join(dir, `snapshot-${key}`);

/** The evidence of some files only (`files`: their paths), with the findings no file made (the gate's own) and theirs. */
function evidenceOf(evidence: Evidence, files: ReadonlySet<string>, own: readonly Finding[]): Evidence {
  return {
    runs: evidence.runs.filter((r) => files.has(r.artifact)),
    records: evidence.records.filter((r) => files.has(r.loc.file)),
    statements: (evidence.statements ?? []).filter((s) => files.has(s.loc.file)),
    findings: own,
    ...(evidence.trustedSigners ? { trustedSigners: evidence.trustedSigners } : {}),
    ...(evidence.trustedProducers ? { trustedProducers: evidence.trustedProducers } : {}),
    ...(evidence.identities ? { identities: evidence.identities } : {}),
    ...(evidence.fileSha256 ? { fileSha256: evidence.fileSha256 } : {}),
  };
}

/** A report without its runs, calls and records: written with them kept as pieces (`KeptLists`). */
const listless = (report: Report): Report => ({ ...report, runs: [], calls: [], records: [] });

/**
 * A full verification, and its snapshot written beside the cache's entries (atomically), or why none
 * was. The report's lists are rendered once: the snapshot holds them, and the report is written from
 * them. The snapshot is written as the report is (`writePieces`): its text encoded into a few reused
 * buffers while the disk takes the ones before, never a buffer of its own per piece.
 */
async function keep(
  dir: string,
  key: string,
  files: readonly FileRead[],
  evidence: Evidence,
  options: VerifyOptions,
): Promise<Incremental> {
  const { report, part } = partOf(evidence, options);
  const none = (why: string): Incremental => ({ report, kept: null, said: `no snapshot kept: ${why}` });
  if (!part) return none('no verification time');
  // Every merge onto it would decline: not written on each run for nothing (every run under such a policy is a full one).
  const never = unmergeable(options.policy ?? NO_POLICY);
  if (never !== null) return none(`${never}, and no merge is made under it`);
  const unkeyed = files.find((f) => f.key === null);
  if (unkeyed) return none(`${unkeyed.rel} has no key in the cache`);
  const lists = keptListsOf(report, part.layouts);
  // What the files' reading made is kept per file; the gate's own findings are made again on every run.
  const perFile = { ...part, shares: { ...part.shares, read: files.flatMap((f) => f.findings) } };
  const header = snapshotHeader(
    perFile,
    lists,
    key,
    files.map((f) => [f.rel, f.key ?? '', f.facts]),
  );
  if (!header.ok) return none(header.reason);
  const file = snapshotFile(dir, key);
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    makeDirs(dir);
    const fh = await open(tmp, 'wx', 0o644);
    try {
      await writePieces(
        fh,
        [...header.value, ...keptPieces(lists.runs), ...keptPieces(lists.calls), ...keptPieces(lists.records)],
        null,
        false,
      );
    } finally {
      await fh.close();
    }
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    return none(messageOf(error));
  }
  return { report: listless(report), kept: lists, said: `snapshot kept (verified at ${report.verified_at})` };
}

/**
 * The cache's snapshot for this set-up, policy and options, its header read and checked (gate/snapshot.ts):
 * opened before the files are read, so the files it names, unchanged, are never decoded (`keptBy`).
 */
export async function openKept(cache: { readonly dir: string; readonly setupKey: string }, options: VerifyOptions): Promise<KeptSnapshot> {
  const key = judgingKey(cache.setupKey, options);
  const read = openSnapshot(snapshotFile(cache.dir, key), key, options.policy ?? NO_POLICY, await snapshotShape());
  return { dir: cache.dir, key, read };
}

/** The files a snapshot names, when it was read: what the gate may keep (`collect`'s `kept`). */
export const keptBy = (k: KeptSnapshot | null): ReadonlyMap<string, KeptFile> | null => (k?.read?.ok ? k.read.value.files : null);

/**
 * The report of the evidence, merged onto the cache's snapshot when it can be (every file it names
 * here with the same key, the rest added), else a full verification that keeps a
 * snapshot of itself. With files kept (`collected.kept`), a full verification reads them first (`whole`).
 */
export async function verifyIncremental<C extends Gathered>(
  collected: C,
  options: VerifyOptions,
  kept: KeptSnapshot,
  again: (keep: ReadonlyMap<string, KeptFile> | null, inline: boolean) => Promise<C>,
): Promise<Incremental & { readonly used: C }> {
  // Every file's evidence: the collected, or, when some were kept, every file collected again with none kept (what the run then used).
  let all: C | null = collected.kept === 0 ? collected : null;
  const wholly = async (): Promise<C> => (all ??= await again(null, false));
  const made = await merged(collected, options, kept, wholly, again);
  return { ...made, used: all ?? collected };
}

async function merged(
  collected: Gathered,
  options: VerifyOptions,
  kept: KeptSnapshot,
  wholly: () => Promise<Gathered>,
  again: (keep: ReadonlyMap<string, KeptFile> | null, inline: boolean) => Promise<Gathered>,
): Promise<Incremental> {
  const { files, own } = collected;
  // One path read as a run and as an audit export is two units of work under one name: a snapshot names files by path (a red team:
  // the run's unchanged key stood for both, and the export's records were left out of both parts, a pass where a full run fails).
  const seen = new Set<string>();
  const twice = files.find((f) => seen.size === seen.add(f.rel).size);
  if (twice)
    return {
      report: verify(await wholly(), options),
      kept: null,
      said: `a full run (${twice.rel} is read as a run and as an audit export); no snapshot kept`,
    };
  // A full run keeps a snapshot of itself when the cache's is missing or out of date.
  const full = async (why: string): Promise<Incremental> => {
    const every = await wholly();
    const made = await keep(kept.dir, kept.key, every.files, every, options);
    return { ...made, said: `a full run (${why}); ${made.said}` };
  };
  if (kept.read === null) return full('no snapshot for this set-up, policy and options');
  if (!kept.read.ok) return full(`the snapshot is refused: ${kept.read.reason}`);
  const snapshot = kept.read.value;
  const named = snapshot.files;
  const now = new Map(files.map((f) => [f.rel, f.key]));
  for (const [rel, k] of named) {
    const here = now.get(rel);
    if (here === undefined) return full(`${rel} is no longer read (removed files: stop 3 of the design)`);
    if (here !== k.key) return full(`${rel} changed since the snapshot`);
  }
  const added = files.filter((f) => !named.has(f.rel));
  const paths = new Set(added.map((f) => f.rel));
  // Its records that bind no call are diagnosed against the kept calls too (their nearest call may be one: gate/kept-calls.ts).
  const earlier = snapshot.part.couplings.earlier;
  const partOfThese = (from: Gathered, these: ReadonlySet<string>, gate: readonly Finding[], before?: typeof earlier) =>
    partOf(evidenceOf(from, these, [...gate, ...from.files.filter((f) => these.has(f.rel)).flatMap((f) => f.findings)]), options, before)
      .part;
  // Records that waited for their run: the kept runs whose calls they bind are read again (from their entries) and verified with them.
  const overlap = waiting(
    snapshot.part,
    collected.records.filter((r) => paths.has(r.loc.file)),
  );
  if (typeof overlap === 'string') return full(overlap);
  let merge: Merged;
  let retaken = '';
  if (overlap === null) {
    const addedPart = partOfThese(collected, paths, own, earlier);
    if (!addedPart) return full('no verification time');
    merge = mergeAdded(snapshot.part, addedPart, options, collected);
  } else {
    const keep = new Map([...named].filter(([rel]) => !overlap.files.has(rel)));
    const read = await again(keep, true);
    const both = new Set([...paths, ...overlap.files]);
    const withThem = partOfThese(read, both, read.own, earlier);
    const alone = partOfThese(read, overlap.files, []);
    if (!withThem || !alone) return full('no verification time');
    merge = mergeAdded(snapshot.part, withThem, options, read, { ...overlap, alone });
    retaken = `, with ${overlap.files.size} kept run(s) whose calls they bind verified again`;
  }
  // A full run keeps a snapshot of every file, the added ones too: kept as it was, it would decline the same merge on every later
  // run that reads them (the default branch's, once the pull request is merged, and each pull request's after it).
  if (merge.kind === 'declined') return full(merge.reason);
  const lists = snapshot.lists();
  if (!lists.ok) return full(`the snapshot is refused: ${lists.reason}`);
  const { runs, calls, records, close } = lists.value;
  return {
    report: merge.report,
    // The kept files' bytes where the merge puts them among the added files' (the report holds the added files' elements alone).
    kept: { runs, calls, records, weaves: merge.weaves, close },
    said: `${added.length} added file(s) verified${retaken} and merged onto the snapshot verified at ${rfc3339(snapshot.part.at)} (${named.size} file(s), ${collected.kept} of them hashed and not decoded)`,
  };
}
