/**
 * A verification snapshot (design/incremental-verification.md, stop 2): a kept verification
 * (core/incremental.ts `Part`) as one file, so a later run can merge a verification of added files
 * onto it without reading the kept files' evidence. In order:
 * - a first line, the sha256 of the header line;
 * - the header line (schemas/verification-snapshot.schema.json), JSON in ASCII: what the report's tail
 *   and the merge's checks read (the findings and facts of each file, what the calls used of the
 *   policy by position, the counts, the couplings);
 * - the calls' and the records' digests and the records' identities' (core/records.ts `identityDigest`)
 *   as sorted bytes (`packed`), measured in the header;
 * - the kept calls by (class, verb), what an added record's nearest call is found among (gate/kept-calls.ts),
 *   each kind's block measured in the header and read only when a query asks for it;
 * - the report's runs, calls and records as the JSON report writes them (report/json-report.ts
 *   `listPieces`), never decoded: a merged report copies them as bytes, each file's where the
 *   merge puts it among the added files' (its bytes per file measured in the header).
 *
 * It is read back checked: the header's sha256, its shape, every vocabulary member against its table,
 * the positions against the policy, the times, each file's share of the findings, the digest
 * sections' sha256 and order, the lists' lengths and CRC-32 (when a merge uses them: `listCheck`), and the key the
 * caller asks for (what the verification depended on besides the files: the build, the read set-up,
 * the policy's bytes and the options). A snapshot that fails any check is refused with why; the run
 * is then a full one. Who writes it is trusted as the cache's entries are (gate/cache.ts).
 */

import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, readSync } from 'node:fs';
import { sha256Hex } from '../core/binding.js';
import type { HeldUntil } from '../core/clock.js';
import { FINDING_CODES, type Finding } from '../core/findings.js';
import type { Couplings, Layout, Layouts, Members, Part, UnboundRecord } from '../core/incremental.js';
import type { JsonObject } from '../core/json.js';
import type { Policy } from '../core/policy.js';
import type { Report } from '../core/report.js';
import { readUsage, type UsageJson } from '../core/requirements.js';
import type { Result } from '../core/result.js';
import { SEVERITIES } from '../core/severity.js';
import { cmp, messageOf } from '../core/text.js';
import { type Instant, parseRfc3339, rfc3339 } from '../core/time.js';
import type { CallTally, Shares, UnderClaimed } from '../core/verify.js';
import { isLevel, type Level, RECORD_OUTCOME_NAMES, type RecordOutcome } from '../core/vocabulary.js';
import { crc32 } from '../read/builtins.js';
import type { GeneratedValidator } from '../read/validators.generated.js';
import { FileSpan, type KeptList, type KeptListFile, type KeptLists, listPieces, pieceBytes } from '../report/json-report.js';
import { openInCache } from './cache.js';
import type { FileFacts } from './facts.js';
import { asciiJson, KeptCalls, type KindMeasure, keptCallBlocks } from './kept-calls.js';

/** The snapshot's format: in its header, and in the key it is kept under (gate/incremental.ts). */
export const SNAPSHOT_SCHEMA = 'receipt-gate.verification-snapshot.v5';

/** One input file of a kept verification: its key in the evidence cache, its facts, and the findings its reading made. */
export interface KeptFile {
  readonly key: string;
  readonly facts: FileFacts;
  readonly findings: readonly Finding[];
}

/** A snapshot read back: the kept part (its lists not decoded) and its report's lists as bytes. */
export interface Snapshot {
  readonly part: Part;
  /** Its lists, read and checked against the CRC-32 its header names when first asked for (only a merge needs them), or why they are refused. */
  readonly lists: () => Result<KeptLists, string>;
  /** Every input file of the kept verification, by path. */
  readonly files: ReadonlyMap<string, KeptFile>;
}

/** A file of a snapshot as its header names it: its path, its key in the evidence cache, its facts. */
export type FileEntry = readonly [string, string, FileFacts];

const LIST_NAMES = ['runs', 'calls', 'records'] as const;

/** Why a verification keeps no snapshot (a merge onto it would always decline), or null. */
function unkept(part: Part): string | null {
  if (part.heldUntil.kind === 'this_instant') return 'its report holds for its own instant only';
  if (part.couplings.statements > 0) return 'it read coverage statements';
  return null;
}

/**
 * Digests as a snapshot holds them: every `sha256:` one as its 32 bytes, sorted, in a section of the
 * file after the header line (measured in the header's `digests`), and every other listed in the
 * header. 100 000 digests as a JSON list cost their reader ~150 ms to parse and put in a set, and as
 * one string of hex ~90 ms (JSON.parse reads a long string a character at a time); as bytes they are
 * read as they are and looked up by halving.
 */
const SHA256_DIGEST = /^sha256:[0-9a-f]{64}$/;
const DIGEST_BYTES = 32;

/** Below this many digests, a digest's place fits beside its first 32 bits in one float64 (2^32 × 2^21 = 2^53). */
const PLACES = 2 ** 21;

/**
 * Digests as a section's bytes, sorted, and the others. Each is decoded into one buffer and sorted by
 * its first 32 bits with its place (a Float64Array's numeric sort), the few that share those bits then
 * by their bytes: 2.5x faster than sorting 220 000 hex strings (~500 ms when a snapshot is kept at
 * 100 000 calls; BENCHMARKS.md, "Issue 44, twenty-third stop: added records that bind no call merge").
 */
function packed(digests: Iterable<string>): { readonly bytes: Buffer; readonly others: readonly string[] } {
  const hex: string[] = [];
  const others: string[] = [];
  for (const d of digests) {
    if (SHA256_DIGEST.test(d)) hex.push(d.slice(7));
    else others.push(d);
  }
  const n = hex.length;
  if (n >= PLACES) return { bytes: Buffer.from(hex.sort().join(''), 'hex'), others: others.sort() };
  const raw = Buffer.allocUnsafe(n * DIGEST_BYTES);
  for (let i = 0; i < n; i++) raw.write(hex[i] ?? '', i * DIGEST_BYTES, DIGEST_BYTES, 'hex');
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = raw.readUInt32BE(i * DIGEST_BYTES) * PLACES + i;
  keys.sort();
  const bytes = Buffer.allocUnsafe(n * DIGEST_BYTES);
  for (let j = 0; j < n; j++) {
    const i = (keys[j] ?? 0) % PLACES;
    raw.copy(bytes, j * DIGEST_BYTES, i * DIGEST_BYTES, (i + 1) * DIGEST_BYTES);
  }
  // Digests that share their first 32 bits: in the order of their places so far; put in the order of their bytes.
  for (let from = 0; from < n; ) {
    let to = from + 1;
    while (to < n && bytes.readUInt32BE(to * DIGEST_BYTES) === bytes.readUInt32BE(from * DIGEST_BYTES)) to++;
    if (to - from > 1) {
      const run = [];
      for (let j = from; j < to; j++) run.push(Buffer.from(bytes.subarray(j * DIGEST_BYTES, (j + 1) * DIGEST_BYTES)));
      run.sort(Buffer.compare).forEach((d, k) => {
        d.copy(bytes, (from + k) * DIGEST_BYTES);
      });
    }
    from = to;
  }
  return { bytes, others: others.sort() };
}

/** A packed section as its header measures it: its digests, its bytes, their sha256. */
const measured = (bytes: Buffer): Measure => [bytes.length / DIGEST_BYTES, bytes.length, sha256Hex(bytes)];

/** The digest sections in the order they follow the header line, each with what its refusal calls it. */
const SECTIONS = [
  ['calls', 'its calls’ digests'],
  ['records', 'its records’ digests'],
  ['identities', 'its records’ identities'],
] as const;
type SectionName = (typeof SECTIONS)[number][0];

/** Digests a block of a section holds: a look-up reads one block (4 KiB), never the section. */
const BLOCK_DIGESTS = 128;
const BLOCK = BLOCK_DIGESTS * DIGEST_BYTES;
/** How much of a section is read at once when it is checked (whole blocks). */
const SCAN = 16 * BLOCK;

/**
 * A digest section as its check found it: where it is, how many digests it holds, and per block its
 * first digest and its CRC-32 (`listCheck`): what a look-up finds and checks a block by.
 */
interface Scanned {
  readonly from: number;
  readonly count: number;
  readonly firsts: Buffer;
  readonly checks: Uint32Array;
}

/** Whether the 32 bytes of `a` at `i` come before those of `b` at `j`. */
const before = (a: Buffer, i: number, b: Buffer, j: number): boolean => a.compare(b, j, j + DIGEST_BYTES, i, i + DIGEST_BYTES) < 0;

/** Whether each digest of `bytes` comes after the one before it, byte by byte (Buffer.compare per pair cost 35 ms for 160 000). */
function ascending(bytes: Buffer, length: number): boolean {
  for (let at = DIGEST_BYTES; at < length; at += DIGEST_BYTES) {
    let i = 0;
    while (i < DIGEST_BYTES && bytes[at - DIGEST_BYTES + i] === bytes[at + i]) i++;
    if (i === DIGEST_BYTES || (bytes[at - DIGEST_BYTES + i] ?? 0) > (bytes[at + i] ?? 0)) return false;
  }
  return true;
}

/**
 * A digest section of the file open as `fd`, from `from`, checked through `chunk` (a few reused
 * blocks): whole digests, the bytes its header names (their sha256), strictly ascending (a look-up by
 * halving finds every one); or why not. Never held whole: 7 MB read into a buffer of its own cost the
 * merge ~27 ms of page faults at N = 100 000
 * (BENCHMARKS.md, "Issue 44, twenty-fourth stop: a declined merge hashes each file once; a snapshot written and read in blocks").
 */
function scanned(fd: number, from: number, [count, length, sha256]: Measure, what: string, chunk: Buffer): Result<Scanned, string> {
  if (length !== count * DIGEST_BYTES) return { ok: false, reason: `${what} are not ${count} whole sha256 digests` };
  const blocks = Math.ceil(count / BLOCK_DIGESTS);
  const firsts = Buffer.allocUnsafe(blocks * DIGEST_BYTES);
  const checks = new Uint32Array(blocks);
  const hash = createHash('sha256');
  const span = new FileSpan(fd, from, length);
  const last = Buffer.alloc(DIGEST_BYTES);
  for (let off = 0; off < length; ) {
    const n = Math.min(chunk.length, length - off);
    hash.update(span.fill(chunk, off, n));
    if (!ascending(chunk, n) || (off > 0 && !before(last, 0, chunk, 0))) return { ok: false, reason: `${what} are not in ascending order` };
    chunk.copy(last, 0, n - DIGEST_BYTES, n);
    for (let b = 0; b < n; b += BLOCK) {
      const i = (off + b) / BLOCK;
      checks[i] = listCheck(chunk.subarray(b, Math.min(b + BLOCK, n)));
      chunk.copy(firsts, i * DIGEST_BYTES, b, b + DIGEST_BYTES);
    }
    off += n;
  }
  if (hash.digest('hex') !== sha256) return { ok: false, reason: `${what} are not the bytes its header names (their sha256 differs)` };
  return { ok: true, value: { from, count, firsts, checks } };
}

/**
 * A snapshot's packed digests (`Members`, core/incremental.ts), left in its file: many are looked up
 * at once (`among`), sorted, each in the one block its first digests place it in, read from the file
 * opened again and checked against the CRC-32 the section's check took; a block that is not those
 * bytes now (the file changed since) is a doubt (`doubt`), and the merge declines.
 */
class PackedDigests implements Members {
  readonly size: number;
  private problem: string | null = null;
  constructor(
    private readonly file: string,
    private readonly section: Scanned,
    private readonly others: ReadonlySet<string>,
    private readonly what: string,
  ) {
    this.size = section.count + others.size;
  }

  has(value: string): boolean {
    return this.among([value]).length > 0;
  }

  among(values: Iterable<string>): string[] {
    const out: string[] = [];
    const wanted: string[] = [];
    for (const v of values) {
      if (SHA256_DIGEST.test(v)) wanted.push(v);
      else if (this.others.has(v)) out.push(v);
    }
    if (wanted.length === 0 || this.section.count === 0) return out;
    // Lowercase hex: the texts' order is the bytes'.
    wanted.sort();
    this.reading((block) => {
      const want = Buffer.allocUnsafe(DIGEST_BYTES);
      let current: Buffer | null = null;
      let at = -1;
      for (const v of wanted) {
        want.write(v.slice(7), 0, DIGEST_BYTES, 'hex');
        const b = this.blockOf(want);
        if (b < 0) continue;
        if (b !== at) {
          current = block(b);
          at = b;
        }
        if (current === null) return;
        if (holds(current, want)) out.push(v);
      }
    });
    return out;
  }

  doubt(): string | null {
    return this.problem;
  }

  *[Symbol.iterator](): Iterator<string> {
    const blocks = this.section.checks.length;
    const list: string[] = [];
    this.reading((block) => {
      for (let b = 0; b < blocks; b++) {
        const bytes = block(b);
        if (bytes === null) return;
        for (let i = 0; i < bytes.length; i += DIGEST_BYTES) list.push(`sha256:${bytes.toString('hex', i, i + DIGEST_BYTES)}`);
      }
    });
    yield* list;
    yield* this.others;
  }

  /** The last block whose first digest is not after `want` (-1: every one is). */
  private blockOf(want: Buffer): number {
    const { firsts } = this.section;
    let found = -1;
    for (let lo = 0, hi = this.section.checks.length - 1; lo <= hi; ) {
      const mid = (lo + hi) >>> 1;
      if (before(want, 0, firsts, mid * DIGEST_BYTES)) hi = mid - 1;
      else {
        found = mid;
        lo = mid + 1;
      }
    }
    return found;
  }

  /** `use` given a reader of blocks (null: refused, a doubt said), the file open meanwhile. */
  private reading(use: (block: (b: number) => Buffer | null) => void): void {
    const opened = openInCache(this.file);
    if (opened === null || !opened.ok) {
      this.problem ??= `${this.what}: ${opened === null ? 'the snapshot was removed' : opened.reason}`;
      return;
    }
    const fd = opened.value;
    const into = Buffer.allocUnsafe(BLOCK);
    const { from, count, checks } = this.section;
    try {
      use((b) => {
        const length = Math.min(BLOCK, (count - b * BLOCK_DIGESTS) * DIGEST_BYTES);
        const bytes = new FileSpan(fd, from + b * BLOCK, length).fill(into, 0, length);
        if (listCheck(bytes) === checks[b]) return bytes;
        this.problem ??= `${this.what}: a block is not the bytes read when the snapshot was opened (its CRC-32 differs)`;
        return null;
      });
    } catch (error) {
      this.problem ??= `${this.what}: ${messageOf(error)}`;
    } finally {
      closeSync(fd);
    }
  }
}

/** Whether a block of ascending digests holds `want` (by halving). */
function holds(block: Buffer, want: Buffer): boolean {
  for (let lo = 0, hi = block.length / DIGEST_BYTES - 1; lo <= hi; ) {
    const mid = (lo + hi) >>> 1;
    const order = block.compare(want, 0, DIGEST_BYTES, mid * DIGEST_BYTES, (mid + 1) * DIGEST_BYTES);
    if (order === 0) return true;
    if (order < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** A span of the file after the header line: its elements, its bytes, their sha256. */
type Measure = readonly [number, number, string];
/** A list after the digest sections: its elements, its bytes, their CRC-32 (`listCheck`), and by file in the list's order: [the file, its elements, their bytes]. */
type ListMeasure = readonly [number, number, number, readonly (readonly [string, number, number])[]];

/**
 * A list's check: zlib's CRC-32 of its bytes, continued piece by piece. The lists are most of a
 * snapshot's bytes (80 MB at 100 000 calls) and every merge checks them: read and hashed with sha256
 * they cost a merged run 60–70 ms, with the CRC-32 ~30 ms (13 ms of it the CRC;
 * BENCHMARKS.md, "Issue 44, twenty-second stop: a lighter snapshot to open and check"). A check
 * against damage (a file cut short, a byte changed), which is all any digest here can be: whoever
 * can write the cache can write any digest with it (docs/cache.md, "What the cache is trusted
 * with"). The header, which the merge believes member by member, and the digest sections keep their
 * sha256 (they cost ~5 ms).
 */
const listCheck = (bytes: Uint8Array | string, crc = 0): number => crc32(bytes, crc);

/** The header line's members, as written and as read (after the shape check). */
interface Header {
  readonly schema: typeof SNAPSHOT_SCHEMA;
  readonly key: string;
  readonly at: string;
  readonly held: string | null;
  readonly policy: string;
  /** Every input file, in the order read (their findings are `shares.read`, in that order). */
  readonly files: readonly FileEntry[];
  /** The digest sections, right after the header line: the calls', the records', then the records' identities' (`packed`). */
  readonly digests: { readonly calls: Measure; readonly records: Measure; readonly identities: Measure };
  /** The kept calls' blocks, after the digest sections, one per (class, verb) (gate/kept-calls.ts). */
  readonly kinds: readonly KindMeasure[];
  /** Per list, after the kept calls' blocks: its elements, its bytes, their CRC-32, by file. */
  readonly lists: { readonly [name in (typeof LIST_NAMES)[number]]: ListMeasure };
  readonly shares: {
    readonly read: readonly Finding[];
    readonly unattested: readonly Finding[];
    readonly calls: readonly Finding[];
    readonly records: readonly Finding[];
    readonly usage: UsageJson;
    readonly classes: readonly string[];
    readonly under_claimed: {
      readonly count: number;
      readonly verified: number;
      readonly first: {
        readonly tool: string | null;
        readonly claimed_level: string;
        readonly level: string;
        readonly artifact: string;
        readonly line: number;
        readonly column: number;
        readonly member: string | null;
      };
    } | null;
    readonly signed: {
      readonly count: number;
      readonly signer: string;
      readonly file: string;
      readonly line: number;
      readonly column: number;
      readonly member: string | null;
    } | null;
    readonly levels: { readonly [level: string]: number };
    /** unmet, warned, excepted, grandfathered, pending, effect not logged. */
    readonly shortfalls: readonly [number, number, number, number, number, number];
    readonly outcomes: { readonly [outcome: string]: number };
    readonly copies: number;
  };
  readonly couplings: {
    /** The digests no section holds (not `sha256:` and 64 hex digits). */
    readonly call_digests: readonly string[];
    readonly record_digests: readonly string[];
    readonly call_kinds: readonly string[];
    readonly unbound_kinds: readonly string[];
    /** [kind, target, nearness of its nearest call, the run that call is in] (core/incremental.ts `UnboundRecord`). */
    readonly unbound: readonly (readonly [string, JsonObject, number | null, string | null])[];
  };
}

/**
 * A report's runs, calls and records as the JSON writer writes them, rendered once, file by file
 * (`layouts`: its part's, core/incremental.ts `Part.layouts`): what a snapshot keeps, and what the
 * report is then written from.
 */
export function keptListsOf(report: Report, layouts: Layouts): KeptLists {
  const list = (name: (typeof LIST_NAMES)[number]): KeptList => {
    let from = 0;
    const files = layouts[name].map(([file, count]): KeptListFile => {
      const pieces = [...listPieces(report, name, from, from + count)];
      from += count;
      return { file, count, pieces };
    });
    return { count: from, files };
  };
  return { runs: list('runs'), calls: list('calls'), records: list('records'), close: () => {} };
}

/** A list's measure (`ListMeasure`): its bytes and check (`listCheck`), each file's bytes. */
function measure(list: KeptList): ListMeasure {
  let crc = 0;
  let length = 0;
  const files = list.files.map((f): readonly [string, number, number] => {
    let bytes = 0;
    for (const piece of f.pieces) {
      const b = typeof piece === 'string' ? piece : pieceBytes(piece);
      crc = listCheck(b, crc);
      bytes += typeof b === 'string' ? Buffer.byteLength(b, 'utf8') : b.length;
    }
    length += bytes;
    return [f.file, f.count, bytes];
  });
  return [list.count, length, crc, files];
}

/**
 * The header line of a verification's snapshot, its digest sections and its kept calls' blocks, as
 * pieces (the caller writes them, then its lists' pieces, to one file), or why it keeps none.
 * @param lists the report's lists as the writer writes them (`keptListsOf`)
 * @param key what the verification depended on besides its files (the caller's; checked on reading)
 */
export function snapshotHeader(part: Part, lists: KeptLists, key: string, files: readonly FileEntry[]): Result<readonly Buffer[], string> {
  const why = unkept(part);
  if (why !== null) return { ok: false, reason: why };
  const s = part.shares;
  const c = part.couplings;
  const under = s.underClaimed;
  const signed = s.signed;
  const packs = { calls: packed(c.callDigests), records: packed(c.recordDigests), identities: packed(c.identities) };
  const blocks = keptCallBlocks(c.calls(), listCheck);
  // Identities are digests the core made (`identityDigest`): every one packs.
  const odd = packs.identities.others[0];
  if (odd !== undefined) return { ok: false, reason: `a record's identity is not a sha256 digest (${odd})` };
  const header: Header = {
    schema: SNAPSHOT_SCHEMA,
    key,
    at: rfc3339(part.at),
    held: part.heldUntil.kind === 'until' ? rfc3339(part.heldUntil.at) : null,
    policy: part.policy,
    files,
    digests: { calls: measured(packs.calls.bytes), records: measured(packs.records.bytes), identities: measured(packs.identities.bytes) },
    kinds: blocks.map((b) => b.measure),
    lists: { runs: measure(lists.runs), calls: measure(lists.calls), records: measure(lists.records) },
    shares: {
      read: s.read,
      unattested: s.unattested,
      calls: s.calls_,
      records: s.records_,
      usage: s.usage.toJson(),
      classes: [...s.classes],
      under_claimed: under
        ? {
            count: under.count,
            verified: under.verified,
            first: {
              tool: under.first.tool,
              claimed_level: under.first.claimed_level ?? '',
              level: under.first.level ?? '',
              artifact: under.first.artifact,
              line: under.first.line,
              column: under.first.column,
              member: under.first.member,
            },
          }
        : null,
      signed: signed
        ? {
            count: signed.count,
            signer: signed.first.signer ?? '',
            file: signed.first.loc.file,
            line: signed.first.loc.line,
            column: signed.first.loc.column,
            member: signed.first.loc.member ?? null,
          }
        : null,
      levels: Object.fromEntries(s.tally.levels),
      shortfalls: [s.tally.unmet, s.tally.warned, s.tally.excepted, s.tally.grandfathered, s.tally.pending, s.tally.notLogged],
      outcomes: Object.fromEntries(s.outcomes),
      copies: s.copies,
    },
    couplings: {
      call_digests: packs.calls.others,
      record_digests: packs.records.others,
      call_kinds: [...c.callKinds],
      unbound_kinds: [...c.unboundKinds],
      unbound: [...c.unbound].flatMap(([kind, rs]) => rs.map((r) => [kind, r.target, r.nearest, r.at] as const)),
    },
  };
  const line = Buffer.from(asciiJson(header), 'latin1');
  return {
    ok: true,
    value: [
      Buffer.from(`${sha256Hex(line)}\n`, 'latin1'),
      line,
      NEWLINE,
      ...SECTIONS.map(([name]) => packs[name].bytes),
      ...blocks.flatMap((b) => b.pieces),
    ],
  };
}

const FINDING_CODE_SET: ReadonlySet<string> = new Set(FINDING_CODES);
const SEVERITY_SET: ReadonlySet<string> = new Set(SEVERITIES);
const OUTCOME_SET: ReadonlySet<string> = new Set(RECORD_OUTCOME_NAMES);

/** A finding's members, each the program's own name for it (its shape checked: no other is present). */
const FINDING_MEMBERS: ReadonlyMap<string, keyof Finding> = new Map(
  (['severity', 'code', 'input', 'file', 'line', 'column', 'message', 'member', 'commit'] as const).map((k) => [k, k]),
);

/**
 * A finding of the header, rebuilt member by member in the order it was written (the report writes
 * a finding as it is: its bytes depend on that order), or null when a vocabulary member is not in its table.
 */
function findingOf(f: Finding): Finding | null {
  if (!FINDING_CODE_SET.has(f.code) || !SEVERITY_SET.has(f.severity)) return null;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(f)) {
    const member = FINDING_MEMBERS.get(k);
    if (member !== undefined) out[member] = f[member];
  }
  return out as unknown as Finding;
}

function findingsOf(list: readonly Finding[], where: string): Result<Finding[], string> {
  const out: Finding[] = [];
  for (const f of list) {
    const g = findingOf(f);
    if (g === null)
      return { ok: false, reason: `a finding of ${where} names a code or severity not in the table (${f.code}, ${f.severity})` };
    out.push(g);
  }
  return { ok: true, value: out };
}

function instant(text: string, what: string): Result<Instant, string> {
  const t = parseRfc3339(text);
  return t.ok ? t : { ok: false, reason: `its ${what} is not a time (${t.reason})` };
}

/** The header's parts once checked, with its digest sections as checked and left in the file (`digests`) and its kept calls (`earlier`); each step says why it refuses. */
function partOf(h: Header, policy: Policy, digests: Readonly<Record<SectionName, Members>>, earlier: KeptCalls): Result<Part, string> {
  const at = instant(h.at, 'time');
  if (!at.ok) return at;
  let heldUntil: HeldUntil = { kind: 'always' };
  if (h.held !== null) {
    const held = instant(h.held, 'hold');
    if (!held.ok) return held;
    heldUntil = { kind: 'until', at: held.value };
  }
  const lists: Finding[][] = [];
  for (const [list, where] of [
    [h.shares.read, 'the readers'],
    [h.shares.unattested, 'the runs'],
    [h.shares.calls, 'the calls'],
    [h.shares.records, 'the records'],
  ] as const) {
    const got = findingsOf(list, where);
    if (!got.ok) return got;
    lists.push(got.value);
  }
  const usage = readUsage(policy, h.shares.usage);
  if (!usage.ok) return { ok: false, reason: `what its calls used of the policy: ${usage.reason}` };
  const levels = new Map<Level | 'no_effect', number>();
  for (const [level, n] of Object.entries(h.shares.levels)) {
    if (level !== 'no_effect' && !isLevel(level))
      return { ok: false, reason: `its calls' levels name ${JSON.stringify(level)}, not a level` };
    levels.set(level, n);
  }
  const outcomes = new Map<RecordOutcome, number>();
  for (const [outcome, n] of Object.entries(h.shares.outcomes)) {
    if (!OUTCOME_SET.has(outcome)) return { ok: false, reason: `its records' outcomes name ${JSON.stringify(outcome)}, not an outcome` };
    outcomes.set(outcome as RecordOutcome, n);
  }
  const [unmet, warned, excepted, grandfathered, pending, notLogged] = h.shares.shortfalls;
  const tally: CallTally = { levels, unmet, warned, excepted, grandfathered, pending, notLogged };
  const u = h.shares.under_claimed;
  let underClaimed: UnderClaimed | null = null;
  if (u) {
    const { claimed_level, level } = u.first;
    if (!isLevel(claimed_level) || !isLevel(level)) return { ok: false, reason: 'its under-claimed call names a level not in the table' };
    const { tool, artifact, line, column, member } = u.first;
    underClaimed = { count: u.count, verified: u.verified, first: { tool, claimed_level, level, artifact, line, column, member } };
  }
  const g = h.shares.signed;
  const shares: Shares = {
    runCount: h.lists.runs[0],
    runs: [],
    calls: [],
    records: [],
    statements: [],
    gaps: [],
    read: lists[0] ?? [],
    unattested: lists[1] ?? [],
    calls_: lists[2] ?? [],
    coverage: [],
    records_: lists[3] ?? [],
    usage: usage.value,
    classes: new Set(h.shares.classes),
    underClaimed,
    signed: g
      ? {
          count: g.count,
          first: {
            loc: { file: g.file, line: g.line, column: g.column, ...(g.member !== null ? { member: g.member } : {}) },
            signer: g.signer,
          },
        }
      : null,
    tally,
    outcomes,
    copies: h.shares.copies,
  };
  const c = h.couplings;
  const unbound = new Map<string, UnboundRecord[]>();
  for (const [kind, target, nearest, at] of c.unbound) {
    // Its nearest call's run exactly when it has one (a nearness).
    if ((nearest === null) !== (at === null))
      return { ok: false, reason: `a record that bound no call has a nearest call ${at} of nearness ${nearest}` };
    const list = unbound.get(kind) ?? [];
    list.push({ target, nearest, at });
    unbound.set(kind, list);
  }
  const couplings: Couplings = {
    callDigests: digests.calls,
    recordDigests: digests.records,
    identities: digests.identities,
    callKinds: new Set(c.call_kinds),
    unboundKinds: new Set(c.unbound_kinds),
    unbound,
    // A kept part's calls are not kept as values, only as the table an added part is diagnosed against (`earlier`).
    calls: () => new Map(),
    earlier,
    statements: 0,
  };
  const layout = (name: (typeof LIST_NAMES)[number]): Layout => h.lists[name][3].map(([file, n]) => [file, n] as const);
  const layouts = { runs: layout('runs'), calls: layout('calls'), records: layout('records') };
  return { ok: true, value: { after: null, at: at.value, heldUntil, shares, couplings, policy: h.policy, layouts } };
}

const NEWLINE = Buffer.from('\n', 'latin1');

/**
 * The first line: the sha256 (hex) of the header line's bytes (a red team: a header was believed as it
 * was, so a digit changed in a kept file's facts turned a failing run's report into a pass).
 */
const FIRST_LINE = 65;
const HEX_DIGEST = /^[0-9a-f]{64}$/;

/** The digest a first line names, or null. */
function namedDigest(first: Buffer): string | null {
  if (first.length !== FIRST_LINE || first[FIRST_LINE - 1] !== 10) return null;
  const hex = first.toString('latin1', 0, FIRST_LINE - 1);
  return HEX_DIGEST.test(hex) ? hex : null;
}

/** A header line longer than this is no header the gate wrote (it would hold the couplings of some 2 million calls). */
const MAX_HEADER_BYTES = 512 * 1024 * 1024;
const CHUNK = 1024 * 1024;

/** The header line of the open snapshot `fd`: its text and the sha256 of its bytes, or why not. Read through one buffer, each chunk hashed and taken as text as it comes (never joined as bytes). */
function headerLine(fd: number, chunk: Buffer): Result<{ readonly text: string; readonly sha256: string }, string> {
  const hash = createHash('sha256');
  let text = '';
  for (let length = 0; ; ) {
    const n = readSync(fd, chunk, 0, CHUNK, FIRST_LINE + length);
    if (n === 0) return { ok: false, reason: 'it has no header line (truncated?)' };
    const newline = chunk.subarray(0, n).indexOf(10);
    const bytes = chunk.subarray(0, newline < 0 ? n : newline);
    if (!isAscii(bytes)) return { ok: false, reason: 'its header line is not ASCII (this gate writes it so)' };
    hash.update(bytes);
    text += bytes.toString('latin1');
    length += bytes.length;
    if (newline >= 0) return { ok: true, value: { text, sha256: hash.digest('hex') } };
    if (length > MAX_HEADER_BYTES) return { ok: false, reason: `its header line is longer than ${MAX_HEADER_BYTES} bytes` };
  }
}

/**
 * The snapshot kept in `file`, its header read and checked (see `snapshotFrom`); null when there is
 * none. Its lists are read from the file when a merge asks for them, checked against their CRC-32.
 */
export function openSnapshot(file: string, key: string, policy: Policy, shape: GeneratedValidator): Result<Snapshot, string> | null {
  const opened = openInCache(file);
  if (opened === null) return null;
  if (!opened.ok) return opened;
  const fd = opened.value;
  try {
    return snapshotFrom(file, fd, key, policy, shape);
  } catch (error) {
    return { ok: false, reason: `it cannot be read (${messageOf(error)})` };
  } finally {
    closeSync(fd);
  }
}

/** The digest sections from `from` of `file` open as `fd`, each checked (`scanned`) and left in the file to be looked up; or why they are refused. */
function digestSections(file: string, fd: number, from: number, h: Header): Result<Record<SectionName, Members>, string> {
  // The digests no section holds: every identity is one a section holds.
  const others: { readonly [name in SectionName]: ReadonlySet<string> } = {
    calls: new Set(h.couplings.call_digests),
    records: new Set(h.couplings.record_digests),
    identities: new Set(),
  };
  const chunk = Buffer.allocUnsafe(SCAN);
  const out: Partial<Record<SectionName, Members>> = {};
  let at = from;
  for (const [name, what] of SECTIONS) {
    const measure = h.digests[name];
    let got: Result<Scanned, string>;
    try {
      got = scanned(fd, at, measure, what, chunk);
    } catch {
      return { ok: false, reason: 'its digest sections are cut short' };
    }
    if (!got.ok) return got;
    out[name] = new PackedDigests(file, got.value, others[name], what);
    at += measure[1];
  }
  const { calls, records, identities } = out;
  if (!(calls && records && identities)) return { ok: false, reason: 'its digest sections are missing' };
  return { ok: true, value: { calls, records, identities } };
}

/**
 * The snapshot open as `fd`, checked against `key` and the policy it must have been judged under, or
 * why it is refused: its header and digest sections read now, its lists only when asked for
 * (`Snapshot.lists`, from the file opened again): a run that declines its merge never reads them.
 */
function snapshotFrom(file: string, fd: number, key: string, policy: Policy, shape: GeneratedValidator): Result<Snapshot, string> {
  if (!fstatSync(fd).isFile()) return { ok: false, reason: 'it is not a regular file' };
  const chunk = Buffer.allocUnsafe(CHUNK);
  const named = namedDigest(chunk.subarray(0, readSync(fd, chunk, 0, FIRST_LINE, 0)));
  const line = headerLine(fd, chunk);
  if (!line.ok) return line;
  if (named === null) return { ok: false, reason: 'its first line is not the sha256 of its header' };
  if (named !== line.value.sha256) return { ok: false, reason: 'its header is not the bytes its first line names (their sha256 differs)' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(line.value.text);
  } catch (error) {
    return { ok: false, reason: `its header is not JSON (${messageOf(error)})` };
  }
  if (!shape(parsed)) {
    const e = shape.errors?.[0];
    return {
      ok: false,
      reason: `its header does not have a snapshot's shape (${e ? `${e.instancePath || '/'} ${e.message ?? ''}` : 'unknown'})`,
    };
  }
  const h = parsed as Header;
  if (h.key !== key) return { ok: false, reason: 'it was made under another build, read set-up, policy or options (its key differs)' };
  for (const name of LIST_NAMES) {
    const [count, length, , files] = h.lists[name];
    if ((count === 0) !== (length === 0)) return { ok: false, reason: `its ${name} are ${count} in ${length} bytes` };
    // By file, in path order, adding up: a merge puts each file's bytes where its path sorts among the added files'.
    let n = 0;
    let bytes = 0;
    let before: string | null = null;
    for (const [file, elements, b] of files) {
      if (before !== null && cmp(before, file) >= 0) return { ok: false, reason: `its ${name} by file are not in path order (${file})` };
      before = file;
      n += elements;
      bytes += b;
    }
    if (n !== count || bytes !== length)
      return { ok: false, reason: `its ${name} by file are ${n} in ${bytes} bytes, not the ${count} in ${length} it measures` };
  }
  // The digest sections follow the header line; the lists follow them.
  const from = FIRST_LINE + line.value.text.length + 1;
  const sections = digestSections(file, fd, from, h);
  if (!sections.ok) return sections;
  const kindsFrom = from + SECTIONS.reduce((n, [name]) => n + h.digests[name][1], 0);
  const part = partOf(h, policy, sections.value, new KeptCalls(file, kindsFrom, h.kinds, listCheck));
  if (!part.ok) return part;
  const files = new Map<string, KeptFile>();
  let at = 0;
  const read = part.value.shares.read;
  for (const [rel, k, facts] of h.files) {
    if (files.has(rel)) return { ok: false, reason: `it names ${rel} twice` };
    files.set(rel, { key: k, facts, findings: read.slice(at, at + facts.findings) });
    at += facts.findings;
  }
  if (at !== read.length) return { ok: false, reason: `its files made ${at} finding(s) and its readers' findings are ${read.length}` };
  // Copied into a report as they are, never decoded: their digest is their only check, made once a merge needs them.
  let checked: Result<KeptLists, string> | null = null;
  const lists = (): Result<KeptLists, string> => {
    checked ??= listsOf(h, file, kindsFrom + KeptCalls.length(h.kinds));
    return checked;
  };
  return { ok: true, value: { part: part.value, lists, files } };
}

/**
 * A snapshot's lists, from `at` in `file` opened again (whatever is there then is checked against the
 * header's lengths and checks), each the bytes its header measures with the CRC-32 it names, or why
 * not. Hashed through one reused buffer and copied the same way by the writer (report/json-report.ts
 * `FileSpan`), never held whole; the file stays open until `close` (a snapshot written over it
 * meanwhile is renamed into place: this one's bytes stay what was checked).
 */
function listsOf(h: Header, file: string, at: number): Result<KeptLists, string> {
  const opened = openInCache(file);
  if (opened === null) return { ok: false, reason: 'it was removed' };
  if (!opened.ok) return opened;
  const fd = opened.value;
  const refuse = (reason: string): Result<KeptLists, string> => {
    closeSync(fd);
    return { ok: false, reason };
  };
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return refuse('it is not a regular file');
    const chunk = Buffer.allocUnsafe(CHUNK);
    let from = at;
    const kept: Partial<Record<(typeof LIST_NAMES)[number], KeptList>> = {};
    for (const name of LIST_NAMES) {
      const [count, length, check] = h.lists[name];
      if (from + length > st.size) return refuse(`its ${name} are not the ${length} bytes its header says (truncated?)`);
      const span = new FileSpan(fd, from, length);
      let crc = 0;
      for (let off = 0; off < length; ) {
        const n = span.readInto(chunk, 0, off, CHUNK);
        crc = listCheck(chunk.subarray(0, n), crc);
        off += n;
      }
      if (crc !== check) return refuse(`its ${name} are not the bytes its header names (their CRC-32 differs)`);
      let off = from;
      const files = h.lists[name][3].map(([path, n, bytes]): KeptListFile => {
        const piece = new FileSpan(fd, off, bytes);
        off += bytes;
        return { file: path, count: n, pieces: [piece] };
      });
      kept[name] = { count, files };
      from += length;
    }
    if (from !== st.size) return refuse(`${st.size - from} byte(s) follow its lists`);
    const { runs, calls, records } = kept;
    if (!(runs && calls && records)) return refuse('its lists are missing');
    let open = true;
    const close = (): void => {
      if (open) closeSync(fd);
      open = false;
    };
    return { ok: true, value: { runs, calls, records, close } };
  } catch (error) {
    return refuse(`it cannot be read (${messageOf(error)})`);
  }
}
