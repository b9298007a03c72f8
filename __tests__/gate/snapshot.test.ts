/**
 * A verification snapshot (gate/snapshot.ts; design/incremental-verification.md, stop 2): a kept
 * verification written as one file and read back merges a verification of added files to the full
 * run's report, byte for byte as the JSON report writes it, its lists copied as bytes; a snapshot
 * that is cut short, changed, made under another key or naming what no table holds is refused with
 * why, never merged.
 */
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeAdded, partOf, type Weaves } from '../../src/core/incremental.js';
import type { Policy } from '../../src/core/policy.js';
import { verifyHeld } from '../../src/core/verify.js';
import { keptListsOf, openSnapshot, type Snapshot, snapshotHeader } from '../../src/gate/snapshot.js';
import { snapshot as shape } from '../../src/read/cache-entry.generated.js';
import { loadYamlParser } from '../../src/read/strict-yaml.js';
import { type KeptLists, keptPieces, pieceBytes, renderJson, writeJson } from '../../src/report/json-report.js';
import { arbCase, type Built, build, mergeBuilt } from '../support/incremental.js';

// The cases below are drawn as the file is collected (before any hook): the policy reader's YAML parser first.
await loadYamlParser();

const KEY = 'a'.repeat(64);

/** Where the snapshots read below are written (a snapshot is read from its file; its lists when a merge asks). */
const SCRATCH = mkdtempSync(path.join(tmpdir(), 'snapshots-'));
afterAll(() => rmSync(SCRATCH, { recursive: true, force: true }));
let written = 0;

/** These bytes as a snapshot's file, read back (a file that is none: refused, never absent). */
function readSnapshot(bytes: Buffer, key: string, policy: Policy, validate: typeof shape): ReturnType<typeof openSnapshot> & object {
  const file = path.join(SCRATCH, `snapshot-${written++}`);
  writeFileSync(file, bytes);
  return openSnapshot(file, key, policy, validate) ?? { ok: false, reason: 'none written' };
}

/** A kept side's snapshot bytes, or why it keeps none. */
function snapshotBytes(b: Built): { readonly bytes: Buffer | null; readonly why: string | null } {
  const { report, part } = partOf(b.kept, b.before);
  if (!part) throw new Error('a verification with a time keeps a part');
  const lists = keptListsOf(report, part.layouts);
  const facts = { findings: part.shares.read.length, strays: 0, decisions: 0, entries: 0, rejected: [], classes: [] };
  const made = snapshotHeader(part, lists, KEY, [['runs/a-0.json', KEY, facts]]);
  const pieces = [lists.runs, lists.calls, lists.records].flatMap((l) => keptPieces(l)).map(pieceBytes);
  return made.ok ? { bytes: Buffer.concat([...made.value, ...pieces]), why: null } : { bytes: null, why: made.reason };
}

/** A snapshot's header line (after its first line, the header's sha256). */
const headerOf = (bytes: Buffer): string => bytes.toString('latin1', 65, bytes.indexOf(10, 65));

/** A snapshot of this header text and what follows its line (`rest`, from its line break): its first line the header's sha256. */
const withHeader = (text: string, rest: Buffer): Buffer => {
  const line = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from(`${createHash('sha256').update(line).digest('hex')}\n`), line, rest]);
};

/** A snapshot's lists, checked, woven as a merge says (its added files among the kept). */
function listsOf(s: Snapshot, weaves?: Weaves): KeptLists {
  const lists = s.lists();
  if (!lists.ok) throw new Error(lists.reason);
  const { runs, calls, records, close } = lists.value;
  return { runs, calls, records, close, ...(weaves ? { weaves } : {}) };
}

const policyOf = (b: Built): Policy => {
  const p = b.after.policy;
  if (!p) throw new Error('the case has a policy');
  return p;
};

describe('a verification snapshot (design/incremental-verification.md, stop 2)', () => {
  it('read back, merges added files to the bytes of the full run’s JSON report, or declines as the kept verification itself does', () => {
    let merged = 0;
    let keptNearest = 0;
    let retaken = 0;
    fc.assert(
      fc.property(arbCase, (c) => {
        const b = build(c);
        const kept = partOf(b.kept, b.before).part;
        if (!kept) throw new Error('a verification with a time keeps a part');
        const inMemory = mergeBuilt(kept, b);
        const { bytes, why } = snapshotBytes(b);
        if (bytes === null) {
          // A snapshot is kept only of what a merge could use: the in-memory merge declines too.
          expect(why).toMatch(/own instant|coverage statements/);
          expect(inMemory.kind).toBe('declined');
          return;
        }
        const read = readSnapshot(bytes, KEY, policyOf(b), shape);
        if (!read.ok) throw new Error(read.reason);
        // The added files diagnosed against the snapshot's table of kept calls (gate/kept-calls.ts), as the gate does; the kept
        // runs an added record binds found in it too.
        const m = mergeBuilt(read.value.part, b);
        if (inMemory.kind === 'declined') {
          expect(m).toEqual(inMemory);
          return;
        }
        merged++;
        if (m.kind === 'merged' && m.weaves.calls.some(([side]) => side === 'dropped')) retaken++;
        if (m.kind === 'merged' && m.report.findings.some((f) => f.file === 'audit/b.json' && f.message.includes('nearest is runs/a-')))
          keptNearest++;
        if (m.kind !== 'merged') throw new Error(`the snapshot declined what the kept verification merged: ${m.reason}`);
        expect(m.heldUntil).toEqual(inMemory.heldUntil);
        expect(renderJson(m.report, listsOf(read.value, m.weaves))).toBe(renderJson(verifyHeld(b.full, b.after).report));
      }),
      { numRuns: 500 },
    );
    // Kept runs taken out and verified again (records that waited for their run), their lists' bytes dropped (measured: 14–26 of 500).
    expect(retaken).toBeGreaterThan(5);
    expect(merged).toBeGreaterThan(50);
    // The table at work: an added record's nearest call found among the kept ones (measured: NN of 500).
    expect(keptNearest).toBeGreaterThan(5);
  });

  it('a weave that drops the first kept file and writes another first: its separator taken off, as text and as the file’s bytes', () => {
    const b = fc
      .sample(arbCase, { seed: 7, numRuns: 300 })
      .map(build)
      .find((x) => x.kept.runs.filter((r) => r.decisions.length > 0).length > 1 && snapshotBytes(x).bytes !== null);
    if (!b) throw new Error('a drawn case keeps a snapshot of two runs with calls');
    const { report, part } = partOf(b.kept, b.before);
    if (!part) throw new Error('a part');
    const [first] = part.layouts.runs;
    const [firstCalls] = part.layouts.calls;
    if (!first || !firstCalls) throw new Error('runs with calls');
    const weaves: Weaves = {
      runs: [
        ['dropped', first[1]],
        ['kept', report.runs.length - first[1]],
      ],
      calls: [
        ['dropped', firstCalls[1]],
        ['kept', report.calls.length - firstCalls[1]],
      ],
      records: [['kept', report.records.length]],
    };
    const bare = { ...report, runs: [], calls: [], records: [] };
    const read = readSnapshot(snapshotBytes(b).bytes ?? Buffer.alloc(0), KEY, policyOf(b), shape);
    if (!read.ok) throw new Error(read.reason);
    const expected = renderJson({ ...report, runs: report.runs.slice(first[1]), calls: report.calls.slice(firstCalls[1]) });
    expect(renderJson(bare, { ...keptListsOf(report, part.layouts), weaves })).toBe(expected);
    expect(renderJson(bare, listsOf(read.value, weaves))).toBe(expected);
  });

  it('writes the merged report to a file with the full report’s bytes and digest, its added files among the kept', async () => {
    const b = fc
      .sample(arbCase, { seed: 3, numRuns: 400 })
      .filter((c) => c.place === 'among')
      .map(build)
      .find((x) => {
        const a = partOf(x.added, x.after).part;
        const s = snapshotBytes(x).bytes;
        const r = s && readSnapshot(s, KEY, policyOf(x), shape);
        return (
          x.kept.runs.length > 1 &&
          x.kept.records.length > 0 &&
          a &&
          r?.ok &&
          mergeAdded(r.value.part, a, x.after, x.full).kind === 'merged'
        );
      });
    if (!b) throw new Error('a drawn case merges');
    const read = readSnapshot(snapshotBytes(b).bytes ?? Buffer.alloc(0), KEY, policyOf(b), shape);
    const added = partOf(b.added, b.after).part;
    if (!read.ok || !added) throw new Error('the case merges');
    const m = mergeAdded(read.value.part, added, b.after, b.full);
    if (m.kind !== 'merged') throw new Error(m.reason);
    const dir = mkdtempSync(path.join(tmpdir(), 'snapshot-'));
    try {
      const full = verifyHeld(b.full, b.after).report;
      const fullDigest = await writeJson(full, path.join(dir, 'full.json'));
      const mergedDigest = await writeJson(m.report, path.join(dir, 'merged.json'), listsOf(read.value, m.weaves));
      expect(readFileSync(path.join(dir, 'merged.json'), 'utf8')).toBe(readFileSync(path.join(dir, 'full.json'), 'utf8'));
      expect(mergedDigest).toBe(fullDigest);
      expect(full.calls.length).toBeGreaterThan(m.report.calls.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('refused with why, never merged', () => {
    const b = fc
      .sample(arbCase, { seed: 5, numRuns: 300 })
      .map(build)
      .find((x) => {
        const s = snapshotBytes(x).bytes;
        // No statements: a merge onto it reads the kept digests.
        return (
          s !== null && x.kept.records.length > 0 && x.kept.runs.some((r) => r.decisions.length > 0) && x.added.statements?.length === 0
        );
      });
    const bytes = (b && snapshotBytes(b).bytes) ?? Buffer.alloc(0);
    const header = headerOf(bytes);
    const lists = bytes.subarray(bytes.indexOf(10, 65));
    /** The snapshot with its header edited as JSON (its lists as they are), its first line naming the edited header's sha256. */
    const edited = (edit: (h: { shares: Record<string, unknown> } & Record<string, unknown>) => void): Buffer => {
      const h = JSON.parse(header);
      edit(h);
      return withHeader(JSON.stringify(h), lists);
    };
    /** The snapshot with its calls' digests these (its lists as they are). */
    const withDigests = (digests: readonly string[]): Buffer => {
      if (!b) throw new Error('a drawn case keeps a snapshot');
      const { report, part } = partOf(b.kept, b.before);
      if (!part) throw new Error('a part');
      const facts = { findings: part.shares.read.length, strays: 0, decisions: 0, entries: 0, rejected: [], classes: [] };
      const made = snapshotHeader(
        { ...part, couplings: { ...part.couplings, callDigests: new Set(digests) } },
        keptListsOf(report, part.layouts),
        KEY,
        [['runs/a-0.json', KEY, facts]],
      );
      if (!made.ok) throw new Error(made.reason);
      return Buffer.concat([...made.value, lists.subarray(1)]);
    };
    const DRAWN_DIGESTS = ['1', '2'].map((x) => `sha256:${createHash('sha256').update(x).digest('hex')}`);
    const refused = (x: Buffer, key = KEY) => {
      if (!b) throw new Error('a drawn case keeps a snapshot');
      const got = readSnapshot(x, key, policyOf(b), shape);
      if (!got.ok) return got.reason;
      const lists = got.value.lists();
      return lists.ok ? 'read' : lists.reason;
    };

    it('the same bytes read back', () => {
      expect(refused(bytes)).toBe('read');
    });
    it('any byte of its lists changed, or any two, is refused (property: a CRC-32 misses no change of up to 32 bits in a row)', () => {
      const { lists: l } = JSON.parse(header);
      const listsAt = bytes.length - (l.runs[1] + l.calls[1] + l.records[1]);
      expect(listsAt).toBeLessThan(bytes.length);
      fc.assert(
        fc.property(
          fc.integer({ min: listsAt, max: bytes.length - 1 }),
          fc.integer({ min: 1, max: 255 }),
          fc.integer({ min: 0, max: 3 }),
          (at, flip, next) => {
            const x = Buffer.from(bytes);
            x[at] = (x[at] ?? 0) ^ flip;
            if (at + next < x.length) x[at + next] = (x[at + next] ?? 0) ^ (flip >> 1);
            expect(refused(x)).toMatch(/CRC-32 differs/);
          },
        ),
        { numRuns: 200 },
      );
    });
    it.each([
      ['cut short in its lists', () => bytes.subarray(0, bytes.length - 5), /truncated|CRC-32/],
      ['cut in its header', () => bytes.subarray(0, 40), /no header line/],
      [
        'a byte of its lists changed',
        () => Buffer.concat([bytes.subarray(0, bytes.length - 3), Buffer.from('X'), bytes.subarray(bytes.length - 2)]),
        /CRC-32 differs/,
      ],
      ['bytes after its lists', () => Buffer.concat([bytes, Buffer.from('\n')]), /follow its lists/],
      ['a header that is not JSON', () => withHeader('{"schema"', lists), /not JSON/],
      [
        'a byte of its header changed (a kept file’s decisions counted 1, not 0: a red team’s false green)',
        () => {
          const x = Buffer.from(bytes);
          const at = x.indexOf('"decisions":0', 65) + 12;
          if (at < 65 + 12) throw new Error('the header holds a kept file’s decisions');
          x[at] = (x[at] ?? 0) ^ 1;
          return x;
        },
        /its header is not the bytes its first line names \(their sha256 differs\)/,
      ],
      [
        'a first line that names no digest',
        () => Buffer.concat([Buffer.from('x'.repeat(64)), bytes.subarray(64)]),
        /its first line is not the sha256 of its header/,
      ],
      ['another schema', () => edited((h) => Object.assign(h, { schema: 'receipt-gate.verification-snapshot.v0' })), /shape/],
      ['an unknown member', () => edited((h) => Object.assign(h, { extra: 1 })), /shape/],
      [
        'a finding code not in the table',
        () =>
          edited((h) =>
            Object.assign(h.shares, { read: [{ severity: 'error', code: 'no_such_code', file: 'f', line: 1, column: 1, message: 'm' }] }),
          ),
        /code or severity/,
      ],
      ['a level not in the table', () => edited((h) => Object.assign(h.shares, { levels: { proven: 1 } })), /not a level/],
      ['an outcome not in the table', () => edited((h) => Object.assign(h.shares, { outcomes: { kept: 1 } })), /not an outcome/],
      [
        'an exception position the policy does not have',
        () => edited((h) => Object.assign(h.shares, { usage: { excused: [[99, 1]], lapsed: [], rules: { unused: [], taken: [] } } })),
        /exception position 99/,
      ],
      [
        'a rule position the policy does not have',
        () => edited((h) => Object.assign(h.shares, { usage: { excused: [], lapsed: [], rules: { unused: [7], taken: [] } } })),
        /rule position 7/,
      ],
      ['a time that is not one', () => edited((h) => Object.assign(h, { at: 'yesterday' })), /not a time/],
      [
        'its lists by file not adding up to what it measures (a merge weaves the kept files’ bytes by them)',
        () =>
          edited((h) => {
            const l = h['lists'] as { runs: [number, number, number, [string, number, number][]] };
            const first = l.runs[3][0];
            if (first) first[2] += 1;
          }),
        /its runs by file are \d+ in \d+ bytes, not the \d+ in \d+ it measures/,
      ],
      [
        'a record that bound no call with a nearness and no nearest call',
        () =>
          edited((h) => {
            const c = h['couplings'] as { unbound: unknown[] };
            c.unbound.push(['github_deploy_key\u0000create', {}, 1, null]);
          }),
        /a record that bound no call has a nearest call null of nearness 1/,
      ],
      [
        'its lists by file not in path order (one file named twice)',
        () =>
          edited((h) => {
            const l = h['lists'] as { runs: [number, number, number, [string, number, number][]] };
            const first = l.runs[3][0];
            if (first) l.runs[3].push([first[0], 1, 1]);
          }),
        /its runs by file are not in path order/,
      ],
      [
        "its files' findings not the readers' findings",
        () =>
          edited((h) => {
            const files = h.files as [string, string, { findings: number }][];
            const first = files[0];
            if (first) first[2].findings += 1;
          }),
        /its files made \d+ finding\(s\) and its readers' findings are \d+/,
      ],
      [
        'a digest section of another length than its header says',
        () =>
          edited((h) => {
            const d = h.digests as { calls: [number, number, string] };
            d.calls[0] += 1;
          }),
        /its calls’ digests are not \d+ whole sha256 digests/,
      ],
      [
        'a digest section changed',
        () => {
          const x = withDigests(DRAWN_DIGESTS);
          const at = x.indexOf(10, 65) + 1;
          x[at + 3] = (x[at + 3] ?? 0) ^ 1;
          return x;
        },
        /its calls’ digests are not the bytes its header names/,
      ],
      [
        'a digest section out of order (a look-up by halving would miss one)',
        () => {
          const x = withDigests(DRAWN_DIGESTS);
          const at = x.indexOf(10, 65) + 1;
          const first = Buffer.from(x.subarray(at, at + 32));
          x.copy(x, at, at + 32, at + 64);
          first.copy(x, at + 32);
          const h = JSON.parse(headerOf(x));
          h.digests.calls[2] = createHash('sha256')
            .update(x.subarray(at, at + 64))
            .digest('hex');
          return withHeader(JSON.stringify(h), x.subarray(at - 1));
        },
        /its calls’ digests are not in ascending order/,
      ],
      [
        'its records’ identities changed (the third digest section)',
        () => {
          const x = Buffer.from(bytes);
          const at = x.indexOf(10, 65) + 1;
          const d = JSON.parse(headerOf(x)).digests;
          if (!(d.identities[0] > 0)) throw new Error('the drawn case keeps records');
          const i = at + d.calls[1] + d.records[1];
          x[i] = (x[i] ?? 0) ^ 1;
          return x;
        },
        /its records’ identities are not the bytes its header names/,
      ],
      ['a header that is not ASCII', () => edited((h) => Object.assign(h, { policy: 'é' })), /header line is not ASCII/],
      [
        'a file named twice',
        () =>
          edited((h) => {
            const files = h.files as unknown[];
            files.push(files[0]);
          }),
        /names runs\/a-0\.json twice/,
      ],
    ])('%s', (_what, make, why) => {
      expect(refused(make())).toMatch(why);
    });

    /** `n` distinct sha256 digests, from `seed`. */
    const digestsOf = (n: number, seed: string): string[] =>
      Array.from({ length: n }, (_, i) => `sha256:${createHash('sha256').update(`${seed}-${i}`).digest('hex')}`);
    /** The calls' digests of a snapshot of these, read back (its file's path too). */
    const readDigests = (digests: readonly string[]) => {
      if (!b) throw new Error('a drawn case keeps a snapshot');
      const read = readSnapshot(withDigests(digests), KEY, policyOf(b), shape);
      if (!read.ok) throw new Error(read.reason);
      return { members: read.value.part.couplings.callDigests, part: read.value.part, file: path.join(SCRATCH, `snapshot-${written - 1}`) };
    };

    it('left in the file, its digests are found block by block as a set finds them: one or many at once, in any order, or each in turn (property)', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 700 }),
          fc.array(fc.nat(900), { maxLength: 40 }),
          fc.array(fc.constantFrom('not-a-digest', 'sha256:XYZ', `sha256:${'0'.repeat(64)}`, `sha256:${'f'.repeat(64)}`), { maxLength: 3 }),
          (n, picks, odd) => {
            const all = digestsOf(n, `case-${n}`);
            const { members } = readDigests([...all, 'not-a-digest']);
            const set = new Set([...all, 'not-a-digest']);
            // Members and strangers: digests of another seed, and strings that are no digest.
            const asked = [
              ...picks.map((i) => all[i % Math.max(n, 1)] ?? digestsOf(1, `other-${i}`)[0] ?? ''),
              ...digestsOf(3, `other-${n}`),
              ...odd,
            ];
            expect(members.size).toBe(set.size);
            expect([...(members.among?.(asked) ?? [])].sort()).toEqual(asked.filter((x) => set.has(x)).sort());
            for (const x of asked.slice(0, 5)) expect(members.has(x)).toBe(set.has(x));
            expect([...members].sort()).toEqual([...set].sort());
            expect(members.doubt?.()).toBeNull();
          },
        ),
        { numRuns: 60 },
      );
    });

    it('a section out of order only where two of the chunks it is checked in meet is refused (a look-up by halving would miss one)', () => {
      // 2 048 digests a chunk: the last of the first and the first of the second swapped.
      const x = withDigests(digestsOf(2100, 'junction'));
      const at = x.indexOf(10, 65) + 1;
      const i = at + 2047 * 32;
      const last = Buffer.from(x.subarray(i, i + 32));
      x.copy(x, i, i + 32, i + 64);
      last.copy(x, i + 32);
      const h = JSON.parse(headerOf(x));
      h.digests.calls[2] = createHash('sha256')
        .update(x.subarray(at, at + h.digests.calls[1]))
        .digest('hex');
      expect(refused(withHeader(JSON.stringify(h), x.subarray(at - 1)))).toMatch(/its calls’ digests are not in ascending order/);
    });

    it('a block that changed after the snapshot was opened is a doubt: nothing found in it is believed, and the merge declines', () => {
      if (!b) throw new Error('a drawn case keeps a snapshot');
      const all = digestsOf(600, 'changed');
      const { members, part, file } = readDigests(all);
      expect(members.among?.(all.slice(0, 10))).toHaveLength(10);
      // A byte of the third block changed in place (the file written again with it).
      const x = readFileSync(file);
      const at = x.indexOf(10, 65) + 1 + 2 * 4096 + 7;
      x[at] = (x[at] ?? 0) ^ 1;
      writeFileSync(file, x);
      expect(members.among?.(all)).not.toHaveLength(all.length);
      expect(members.doubt?.()).toMatch(
        /its calls’ digests: a block is not the bytes read when the snapshot was opened \(its CRC-32 differs\)/,
      );
      const added = partOf(b.added, b.after, part.couplings.earlier).part;
      if (!added) throw new Error('a part');
      const m = mergeAdded(part, added, b.after, b.full);
      expect(m).toEqual({
        kind: 'declined',
        reason: expect.stringMatching(/^the kept digests cannot be read \(its calls’ digests: a block is not/),
      });
      // Removed: a doubt too.
      const again = readDigests(all);
      rmSync(again.file);
      expect(again.members.has(all[0] ?? '')).toBe(false);
      expect(again.members.doubt?.()).toMatch(/the snapshot was removed/);
    });

    describe('from its file, its header read first and its lists only when asked', () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'snapshot-file-'));
      afterAll(() => rmSync(dir, { recursive: true, force: true }));
      const opened = (file: string) => {
        if (!b) throw new Error('a drawn case keeps a snapshot');
        return openSnapshot(file, KEY, policyOf(b), shape);
      };
      it('read back whole: its files’ facts and findings, and its lists the bytes written', () => {
        if (!b) throw new Error('a drawn case keeps a snapshot');
        const file = path.join(dir, 'same');
        writeFileSync(file, bytes);
        const got = opened(file);
        if (!got?.ok) throw new Error('read');
        const { part } = partOf(b.kept, b.before);
        expect([...got.value.files]).toEqual([
          [
            'runs/a-0.json',
            { key: KEY, facts: expect.objectContaining({ findings: part?.shares.read.length }), findings: part?.shares.read },
          ],
        ]);
        expect(got.value.files.get('runs/a-0.json')?.findings).toEqual(got.value.part.shares.read);
        const l = got.value.lists();
        if (!l.ok) throw new Error('lists');
        const written = [l.value.runs, l.value.calls, l.value.records].flatMap((x) => keptPieces(x).map(pieceBytes));
        expect(Buffer.concat(written)).toEqual(bytes.subarray(bytes.length - Buffer.concat(written).length));
        l.value.close();
      });
      it('a header written in ASCII: text past it read back as written', () => {
        if (!b) throw new Error('a drawn case keeps a snapshot');
        const { report, part } = partOf(b.kept, b.before);
        if (!part) throw new Error('a part');
        const said = {
          severity: 'notice',
          code: 'skipped_object',
          file: 'runs/é中😀.json',
          line: 1,
          column: 1,
          message: 'ж “quoted” \u2028 😀',
        } as const;
        const lists = keptListsOf(report, part.layouts);
        const facts = { findings: 1, strays: 0, decisions: 0, entries: 0, rejected: [], classes: [['classé', ['vérb']]] as const };
        const made = snapshotHeader({ ...part, shares: { ...part.shares, read: [said] } }, lists, KEY, [['runs/é中😀.json', KEY, facts]]);
        if (!made.ok) throw new Error(made.reason);
        const text = Buffer.concat(made.value);
        expect(isAscii(text.subarray(0, text.indexOf(10, 65)))).toBe(true);
        const file = path.join(dir, 'ascii');
        writeFileSync(
          file,
          Buffer.concat([text, ...[lists.runs, lists.calls, lists.records].flatMap((l) => keptPieces(l)).map(pieceBytes)]),
        );
        const got = opened(file);
        if (!got?.ok) throw new Error(got?.reason ?? 'none');
        expect(got.value.part.shares.read).toEqual([said]);
        expect(got.value.files.get('runs/é中😀.json')).toEqual({ key: KEY, facts, findings: [said] });
      });
      it('200 000 packed digests read back, each found by halving, and no other', () => {
        const hex = Array.from({ length: 200_000 }, (_, i) => createHash('sha256').update(String(i)).digest('hex')).sort();
        const file = path.join(dir, 'many');
        writeFileSync(file, withDigests([...hex.map((x) => `sha256:${x}`).reverse(), 'not-sha256']));
        const got = opened(file);
        if (!got?.ok) throw new Error(got?.reason ?? 'none');
        const digests = got.value.part.couplings.callDigests;
        expect(digests.size).toBe(200_001);
        for (const i of [0, 1, 99_999, 199_998, 199_999]) expect(digests.has(`sha256:${hex[i]}`)).toBe(true);
        expect(digests.has('not-sha256')).toBe(true);
        expect(digests.has(`sha256:${createHash('sha256').update('x').digest('hex')}`)).toBe(false);
        expect(digests.has(`sha256:${'0'.repeat(64)}`)).toBe(false);
        expect(digests.has(`sha256:${'f'.repeat(64)}`)).toBe(false);
        expect([...digests].slice(0, 2)).toEqual([`sha256:${hex[0]}`, `sha256:${hex[1]}`]);
      });
      it('digests that share their first 32 bits are packed in the order of their bytes (property: read back in order, each found)', () => {
        fc.assert(
          fc.property(
            fc.uniqueArray(fc.tuple(fc.constantFrom('00000000', '7fffffff', 'ffffffff', '12345678'), fc.nat()), {
              minLength: 1,
              maxLength: 60,
              selector: ([p, n]) => `${p}${n}`,
            }),
            (drawn) => {
              const hex = drawn.map(([prefix, n]) => `${prefix}${createHash('sha256').update(String(n)).digest('hex').slice(8)}`);
              const file = path.join(dir, `shared-${written++}`);
              writeFileSync(file, withDigests(hex.map((x) => `sha256:${x}`)));
              const got = opened(file);
              if (!got?.ok) throw new Error(got?.reason ?? 'none');
              const digests = got.value.part.couplings.callDigests;
              expect([...digests]).toEqual([...hex].sort().map((x) => `sha256:${x}`));
              for (const x of hex) expect(digests.has(`sha256:${x}`)).toBe(true);
            },
          ),
          { numRuns: 100 },
        );
      });
      it('none there: null; a folder or a link in its place: refused', () => {
        expect(opened(path.join(dir, 'absent'))).toBeNull();
        mkdirSync(path.join(dir, 'folder'));
        expect(opened(path.join(dir, 'folder'))).toMatchObject({ ok: false });
        writeFileSync(path.join(dir, 'target'), bytes);
        symlinkSync(path.join(dir, 'target'), path.join(dir, 'link'));
        expect(opened(path.join(dir, 'link'))).toMatchObject({ ok: false, reason: expect.stringMatching(/symbolic link|cannot be read/) });
      });
      it('lists changed after its header was read: refused when a merge asks for them', () => {
        const file = path.join(dir, 'changed');
        writeFileSync(file, bytes);
        const got = opened(file);
        if (!got?.ok) throw new Error('read');
        writeFileSync(file, Buffer.concat([bytes.subarray(0, bytes.length - 3), Buffer.from('X'), bytes.subarray(bytes.length - 2)]));
        const lists = got.value.lists();
        expect(lists).toMatchObject({ ok: false, reason: expect.stringMatching(/CRC-32 differs/) });
      });
      it('lists removed after its header was read: refused, with why', () => {
        const file = path.join(dir, 'removed');
        writeFileSync(file, bytes);
        const got = opened(file);
        if (!got?.ok) throw new Error('read');
        rmSync(file);
        expect(got.value.lists()).toMatchObject({ ok: false, reason: 'it was removed' });
      });
      it('a header line longer than a read (several chunks) is read whole', () => {
        const file = path.join(dir, 'long');
        // Its policy member made 2.5 MB long (the header is read 1 MB at a time).
        const long = edited((h) => Object.assign(h, { policy: 'p'.repeat(2_500_000) }));
        writeFileSync(file, long);
        expect(long.indexOf(10, 65)).toBeGreaterThan(2_500_000);
        const got = opened(file);
        if (!got?.ok) throw new Error(got?.reason ?? 'none');
        expect(got.value.part.policy).toHaveLength(2_500_000);
        expect(got.value.lists().ok).toBe(true);
      });
    });
    it('made under another key', () => {
      expect(refused(bytes, 'b'.repeat(64))).toMatch(/key differs/);
    });
  });
});
