/**
 * Incremental verification's core (core/incremental.ts; design/incremental-verification.md, stop 2):
 * a kept verification and one of files added after it, merged, give the report a full verification
 * of both gives, byte for byte, or the merge declines and says why. Generated histories couple the
 * two sides in every way the design lists (a subject in both, a record identity in both, a replay of
 * a kept run, an unmatched record whose nearest call is on the other side, files that do not sort
 * after the kept ones, coverage statements, equal findings, a time before the kept one or past its
 * hold), each drawn often enough that dropping its check fails the property.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { binding } from '../../src/core/binding.js';
import type { Finding } from '../../src/core/findings.js';
import { mergeAdded, partOf } from '../../src/core/incremental.js';
import type { JsonObject } from '../../src/core/json.js';
import type { VerifyOptions } from '../../src/core/model.js';
import { compareInstants, type Instant } from '../../src/core/time.js';
import { verifyHeld } from '../../src/core/verify.js';
import { readPolicyFile } from '../../src/read/policy-file.js';
import { loadYamlParser } from '../../src/read/strict-yaml.js';
import { addKey, record } from '../support/corpus.js';
import { OPTIONS, recordAt } from '../support/evidence.js';
import { arbCase, type Built, build, type Case, mergeBuilt, NOW, PROD_CREATE, readFinding } from '../support/incremental.js';
import { POLICY } from '../support/policies.js';

beforeAll(loadYamlParser);

/** Both sides verified under `options` (the kept one at its own time), merged. */
function under(b: Built, options: VerifyOptions): ReturnType<typeof mergeAdded> {
  const kept = partOf(b.kept, { ...options, now: b.before.now }).part;
  const added = kept && partOf(b.added, options, kept.couplings.earlier).part;
  if (!kept || !added) throw new Error('a verification with a time keeps a part');
  return mergeAdded(kept, added, options, b.full);
}

/** A report without its time: what must hold until a verification's hold ends. */
const timeless = (r: object): string => JSON.stringify({ ...r, verified_at: null });

const RUNS = 1000;

/** A case with nothing drawn: the examples' start. */
const BASE: Case = {
  kept: { runs: [], records: [] },
  added: { runs: [], records: [] },
  sameSubjects: false,
  sameIds: false,
  crossRecords: false,
  waits: false,
  replay: null,
  place: 'after',
  covered: false,
  read: 'none',
  readsFirst: false,
  exceptions: [],
  excused: null,
  commits: false,
  later: 0,
};

/** A record of a github key created in repository a, binding the side's `of`-th call when it is that key. */
const bindsCall = (of: number): Case['added']['records'][number] => ({
  of,
  repo: 0,
  owner: 0,
  title: 0,
  verb: 'create',
  id: '1',
  provider: 'github',
  signed: false,
  tampered: false,
});

/** A record of a github key read (repo prod-d, title j) that binds no call: drawn, not a call's subject. */
const UNMATCHED: Case['added']['records'][number] = { ...bindsCall(0), of: null, repo: 3, title: 1, verb: 'get' };

describe('merging a verification of added files onto a kept one (design/incremental-verification.md, stop 2)', () => {
  it('gives a full verification’s report byte for byte, or declines with a reason; each coupling the design lists is drawn, and more than a tenth of cases merge', () => {
    const reasons = new Map<string, number>();
    let merged = 0;
    let rich = 0;
    let keptNearest = 0;
    let commits = 0;
    let retaken = 0;
    const placed = new Map<string, number>();
    fc.assert(
      fc.property(arbCase, fc.integer({ min: 0, max: 1_000_000 }), (c, draw) => {
        const b = build(c);
        const kept = partOf(b.kept, b.before).part;
        if (!kept) throw new Error('a verification with a time keeps a part');
        const full = verifyHeld(b.full, b.after);
        // Diagnosed against the kept calls, as the gate does (an added record's nearest call may be one), unless drawn otherwise.
        const m = mergeBuilt(kept, b, draw % 8 === 0 ? null : kept.couplings.earlier);
        if (m.kind === 'declined') {
          const key = m.reason.replace(/[0-9a-f]{64}/, 'D').replace(/runs\/\S+|audit\/\S+/, 'P');
          reasons.set(key, (reasons.get(key) ?? 0) + 1);
          return;
        }
        merged++;
        if (m.weaves.calls.some(([side]) => side === 'dropped')) retaken++;
        if (b.added.runs.length + b.added.records.length > 0 && b.kept.runs.length + b.kept.records.length > 0)
          placed.set(c.place, (placed.get(c.place) ?? 0) + 1);
        if (b.kept.records.length + b.kept.runs.length > 1 && b.added.records.length + b.added.runs.length > 1) rich++;
        // An added record whose nearest call is a kept one (the kept calls' table at work).
        if (m.report.findings.some((f) => f.file === 'audit/b.json' && f.message.includes('nearest is runs/a-'))) keptNearest++;
        // The policy read at another commit than the kept part's, and a finding placed in it (its words name the commit).
        if (c.commits && m.report.findings.some((f) => f.message.includes(`at commit ${'b'.repeat(12)}`))) commits++;
        expect(JSON.stringify(m.report)).toBe(JSON.stringify(full.report));
        // What the merge says it holds until, it holds until: a full verification at a later time before it says the same.
        if (m.heldUntil.kind === 'this_instant') return;
        const span = m.heldUntil.kind === 'until' ? m.heldUntil.at.seconds - (b.after.now?.seconds ?? 0) : 30 * 86_400;
        const t: Instant = { seconds: (b.after.now?.seconds ?? 0) + (draw % Math.max(1, span)), fraction: '' };
        if (m.heldUntil.kind === 'until' && compareInstants(t, m.heldUntil.at) >= 0) return;
        expect(timeless(verifyHeld(b.full, { ...b.after, now: t }).report)).toBe(timeless(m.report));
      }),
      { numRuns: RUNS },
    );
    // Not vacuous (measured over 5 runs: 151–183 merges of 1 000, 54–82 with two or more files on each side): merges happen, between sides that both hold something, and every coupling declines somewhere.
    expect(merged).toBeGreaterThan(RUNS / 10);
    expect(rich).toBeGreaterThan(RUNS / 40);
    expect(keptNearest).toBeGreaterThan(RUNS / 100);
    // Merges with the policy read at another commit than the kept part's, a finding naming it: 68–81 of 1 000 over 4 runs.
    expect(commits).toBeGreaterThan(RUNS / 100);
    // Merges whose added files sort among the kept ones, and before them (measured over 3 runs: 73–80 and 27–34 of 1 000).
    expect(placed.get('among')).toBeGreaterThan(RUNS / 40);
    expect(placed.get('before')).toBeGreaterThan(RUNS / 100);
    // Merges whose added records bind kept calls, their runs taken out and verified again (measured over 8 runs: 28–47 of 1 000).
    expect(retaken).toBeGreaterThan(RUNS / 100);
    const said = [...reasons.keys()].join('\n');
    for (const why of [
      'subject digest',
      'identity',
      'as its nearest',
      'was not diagnosed against them',
      'coverage statements',
      'sort equal but differ',
      'before the kept',
      'no longer holds',
    ])
      expect(said).toContain(why);
  });

  describe('added files that sort among the kept ones (stop 3): what goes to the call that comes first', () => {
    const base: Case = { ...BASE, place: 'among' };
    const call = {
      repo: 3,
      owner: 0,
      title: 0,
      verb: 'get',
      provider: 'github',
      asserted: false,
      claim: 'asserted',
      status: 'success',
      hour: null,
    } as const;

    it('an unmatched kept record whose nearest call ties with an added call that sorts before it: declined (the full run names the added one)', () => {
      // Kept runs a-0 (no call) and a-1 (one call); the added run a-0x0 sorts between them. The kept record (repo 3, title 1) is as
      // near to the kept call (repo 3, title 0: two fields equal) as to the added one (repo 0 of the other repos, title 1: two).
      const drawnRecord = [UNMATCHED];
      const b = build({
        ...base,
        kept: { runs: [[], [call]], records: drawnRecord },
        added: { runs: [[{ ...call, repo: 0, title: 1 }]], records: [] },
      });
      const full = verifyHeld(b.full, b.after).report;
      expect(full.findings.find((f) => f.file === 'audit/a.json')?.message).toContain('nearest is runs/a-0x0.json');
      expect(under(b, b.after)).toEqual({
        kind: 'declined',
        reason: 'a kept record that bound no call would have an added call as its nearest',
      });
      // The kept call in a-0, before the added run (a kept call of another kind in a-1, after it): the tie goes to the kept call, merged.
      const after = build({
        ...base,
        kept: { runs: [[call], [{ ...call, verb: 'delete' }]], records: drawnRecord },
        added: { runs: [[{ ...call, repo: 0, title: 1 }]], records: [] },
      });
      const m = under(after, after.after);
      if (m.kind !== 'merged') throw new Error(m.reason);
      expect(JSON.stringify(m.report)).toBe(JSON.stringify(verifyHeld(after.full, after.after).report));
      expect(m.report.findings.find((f) => f.file === 'audit/a.json')?.message).toContain('nearest is runs/a-0.json');
    });

    it('an unmatched added record whose kept nearest call ties with an added call that sorts before it: declined (the full run names the added one)', () => {
      // The added export's record (repo prod-d, title j) is as near to the kept call of a-1 (prod-d, title k: two fields equal) as to
      // the added call of a-0x0 (x, title j: two), which comes first; its part was diagnosed with the kept calls first.
      const unmatched = UNMATCHED;
      const sides = (kept: Case['kept']['runs']): Case => ({
        ...base,
        crossRecords: true,
        kept: { runs: kept, records: [] },
        added: { runs: [[{ ...call, repo: 0, title: 1 }]], records: [unmatched] },
      });
      const b = build(sides([[], [call]]));
      expect(verifyHeld(b.full, b.after).report.findings.find((f) => f.file === 'audit/a1.json')?.message).toContain(
        'nearest is runs/a-0x0.json',
      );
      expect(under(b, b.after)).toEqual({
        kind: 'declined',
        reason: 'an added record that bound no call would have an added call before its kept nearest call as its nearest',
      });
      // The kept call in a-0, before the added run (a kept call of another kind after it): the tie goes to the kept call, merged.
      const after = build(sides([[call], [{ ...call, verb: 'delete' }]]));
      const m = under(after, after.after);
      if (m.kind !== 'merged') throw new Error(m.reason);
      expect(JSON.stringify(m.report)).toBe(JSON.stringify(verifyHeld(after.full, after.after).report));
      expect(m.report.findings.find((f) => f.file === 'audit/a1.json')?.message).toContain('nearest is runs/a-0.json');
    });

    it('an expired exception whose calls are in both parts: its first lapsed call is the added one that sorts first', () => {
      const prod = PROD_CREATE;
      // Runs a-0, a-1 (kept), a-0x0 (added, between them); the exception names run 1's call (a-1), whose subject a-0x0's call has too.
      const b = build({
        ...base,
        sameSubjects: true,
        kept: { runs: [[], [prod]], records: [] },
        added: { runs: [[prod]], records: [] },
        exceptions: [{ run: 1, i: 0, expires: '2026-11-01' }],
      });
      const m = under(b, b.after);
      if (m.kind !== 'merged') throw new Error(m.reason);
      const full = verifyHeld(b.full, b.after).report;
      expect(JSON.stringify(m.report)).toBe(JSON.stringify(full));
      expect(full.findings.some((f) => f.message.includes('(runs/a-0x0.json decision 0 and 1 more call(s))'))).toBe(true);
    });

    it('calls in both parts that earned more than they claim: the notice names the first, the added one that sorts first', () => {
      const key = { ...PROD_CREATE, repo: 0, provider: 'github' } as const;
      const bound = bindsCall(0);
      const b = build({ ...base, kept: { runs: [[], [key]], records: [bound] }, added: { runs: [[key]], records: [bound] } });
      const m = under(b, b.after);
      if (m.kind !== 'merged') throw new Error(m.reason);
      const full = verifyHeld(b.full, b.after).report;
      expect(JSON.stringify(m.report)).toBe(JSON.stringify(full));
      expect(full.findings.find((f) => f.code === 'under_claimed')?.file).toBe('runs/a-0x0.json');
    });

    it('a rule no call used, matched by calls of both parts that earlier rules took: its finding names the rule that took the first, so declined', () => {
      const text = [
        'version: 1',
        'rules:',
        '  - {name: x-keys, match: {class: github_deploy_key, target: {repo: [x]}}, require: asserted}',
        '  - {name: a-keys, match: {class: github_deploy_key, target: {repo: [a]}}, require: asserted}',
        '  - {name: all-keys, match: {class: github_deploy_key}, require: asserted}',
        '',
      ].join('\n');
      const read = readPolicyFile(text, { path: POLICY, commit: null, now: NOW, signers: { keyIds: [], identities: [] } });
      if (!read.ok) throw new Error('the policy reads');
      const key = { ...PROD_CREATE, repo: 0, provider: 'github' } as const;
      // The kept run a-1's call (repo a) went to a-keys; the added a-0x0's (repo x, of the other repos) to x-keys, and it comes first.
      const sides = { kept: { runs: [[], [key]], records: [] }, added: { runs: [[key]], records: [] } };
      const among = build({ ...base, ...sides });
      const options = { ...among.after, policy: read.value };
      expect(verifyHeld(among.full, options).report.findings.find((f) => f.code === 'rule_unused')?.message).toContain(
        'the first to x-keys',
      );
      expect(under(among, options)).toEqual({
        kind: 'declined',
        reason: 'a rule no call used was taken from calls of both parts by other rules',
      });
      // Added after every kept run: the kept call is the first, and the merge is the full run's.
      const after = build({ ...base, ...sides, place: 'after' });
      const m = under(after, options);
      if (m.kind !== 'merged') throw new Error(m.reason);
      expect(JSON.stringify(m.report)).toBe(JSON.stringify(verifyHeld(after.full, options).report));
      expect(m.report.findings.find((f) => f.code === 'rule_unused')?.message).toContain('the first to a-keys');
    });

    it('findings of the kept part that sort equal but differ keep its order: merged (with an added one among them, declined)', () => {
      const at = (member: string): Finding => readFinding('runs/a-0.json', member);
      const drawn = build({ ...base, kept: { runs: [[call]], records: [] }, added: { runs: [[{ ...call, repo: 1 }]], records: [] } });
      // Two bundle members' findings at one place (the order does not compare members), both kept, in the order the gate read them.
      const two = [at('second'), at('first')];
      const b: Built = { ...drawn, kept: { ...drawn.kept, findings: two }, full: { ...drawn.full, findings: two } };
      const m = under(b, b.after);
      if (m.kind !== 'merged') throw new Error(m.reason);
      expect(JSON.stringify(m.report)).toBe(JSON.stringify(verifyHeld(b.full, b.after).report));
      // One of them added (its place among the kept one's is the gate's order, not the parts'), or both added (the gate's own findings
      // come first in an added part's, wherever the full run puts them): declined.
      const tie = { kind: 'declined', reason: 'two findings sort equal but differ (their order is the full run’s, not known here)' };
      const split: Built = { ...b, kept: { ...b.kept, findings: [at('second')] }, added: { ...b.added, findings: [at('first')] } };
      expect(under(split, split.after)).toEqual(tie);
      const added: Built = { ...b, kept: { ...b.kept, findings: [] }, added: { ...b.added, findings: two } };
      expect(under(added, added.after)).toEqual(tie);
    });
  });

  describe('records that wait for their run (stop 3): the kept runs whose calls an added record binds are verified again with it', () => {
    const base: Case = { ...BASE, crossRecords: true };
    // A key created, only asserted, then read back in the same run: observed_confirmed, more than its claim (the under-claimed notice).
    const created = { ...PROD_CREATE, repo: 0, provider: 'github' } as const;
    const readBack = { ...created, verb: 'get', hour: 11 } as const;
    const merge = (b: Built) => {
      const kept = partOf(b.kept, b.before).part;
      if (!kept) throw new Error('a verification with a time keeps a part');
      return mergeBuilt(kept, b);
    };

    it('merged byte for byte, the kept run dropped from the kept lists and its calls now verified; its own counts subtracted', () => {
      // Kept: a-0 (a key, bound by a kept record) and a-1 (a key of another repository, pending its export); added: that export.
      const other = { ...created, repo: 2 } as const;
      const b = build({
        ...base,
        waits: true,
        kept: {
          runs: [
            [created, readBack],
            [other, { ...readBack, repo: 2 }],
          ],
          records: [bindsCall(0)],
        },
        added: { runs: [], records: [bindsCall(0)] },
      });
      const m = merge(b);
      if (m.kind !== 'merged') throw new Error(m.reason);
      const full = verifyHeld(b.full, b.after).report;
      expect(JSON.stringify(m.report)).toBe(JSON.stringify(full));
      expect(m.weaves.calls).toEqual([
        ['kept', 2],
        ['dropped', 2],
        ['added', 2],
      ]);
      // Both runs' keys earned more than they claim: counted once each (the dropped run's share taken away), the first the kept one's.
      expect(full.findings.find((f) => f.code === 'under_claimed')?.message).toMatch(/^2 call\(s\) earned a higher level/);
      // The run taken out, alone, earned more than it claims too (observed_confirmed): that share is the one subtracted.
      const alone = partOf({ runs: b.kept.runs.slice(1), records: [], statements: [], findings: [] }, b.after).part;
      expect(alone?.shares.underClaimed?.count).toBe(1);
      expect(full.calls.filter((c) => c.level === 'verified')).toHaveLength(2);
    });

    it('an added record that binds no call, its nearest a call of the run taken out, as near as an added call that sorts first: declined', () => {
      // Kept a-0 (a key the added record binds); added 0-0 (before it) and an export: its second record binds nothing, and its
      // nearest is a-0's key or 0-0's, each one field off: the full run names 0-0's, which the kept calls it was diagnosed against do not hold.
      const call = { ...created, verb: 'get', repo: 3, title: 1, asserted: false } as const;
      const b = build({
        ...base,
        place: 'before',
        kept: { runs: [[call]], records: [] },
        added: {
          runs: [[{ ...call, repo: 0, title: 0 }]],
          records: [
            { ...bindsCall(0), verb: 'get', provider: 'github' },
            { ...bindsCall(0), of: null, repo: 3, verb: 'get', id: '1', provider: 'gitlab' },
          ],
        },
      });
      expect(merge(b)).toEqual({
        kind: 'declined',
        reason: 'an added record that bound no call would have an added call before its kept nearest call as its nearest',
      });
    });

    it('the under-claimed notice’s first call in the run taken out, with calls of another kept run left: declined (their first is not kept)', () => {
      const b = build({
        ...base,
        kept: {
          runs: [
            [created, readBack],
            [
              { ...created, repo: 2 },
              { ...readBack, repo: 2 },
            ],
          ],
          records: [],
        },
        added: { runs: [], records: [bindsCall(0)] },
      });
      expect(merge(b)).toEqual({ kind: 'declined', reason: 'the first under-claimed call is in a file taken out' });
    });

    it('a lapsed exception’s first call in the run taken out, with calls of another kept run left: declined', () => {
      // Kept a-0 (a key the added record binds, then a prod key) and a-1 (the same prod key): an expired exception names the prod key.
      const prod = { ...PROD_CREATE, provider: 'github' } as const;
      const b = build({
        ...base,
        kept: { runs: [[created, prod], [prod]], records: [] },
        added: { runs: [], records: [bindsCall(0)] },
        exceptions: [{ run: 0, i: 1, expires: '2026-11-01' }],
      });
      expect(merge(b)).toEqual({ kind: 'declined', reason: 'a lapsed exception’s first call is in a file taken out' });
    });
  });

  it('declines what a part does not hold: a policy that grandfathers files, exceptions a pull request adds, other rules or trust settings', () => {
    // The first drawn case that merges with both sides holding a run, changed only in what is declined.
    const b = fc
      .sample(arbCase, { seed: 7, numRuns: 300 })
      .map(build)
      .find((x) => {
        const k = partOf(x.kept, x.before).part;
        const a = partOf(x.added, x.after).part;
        return x.kept.runs.length > 0 && x.added.runs.length > 0 && k && a && mergeAdded(k, a, x.after, x.full).kind === 'merged';
      });
    const policy = b?.after.policy;
    const kept = b && partOf(b.kept, b.before).part;
    const added = b && partOf(b.added, b.after).part;
    if (!b || !policy || !kept || !added) throw new Error('a drawn case merges');
    const entry = { kind: 'run' as const, run: 'runs/b-0.json', sha256: 'a'.repeat(64), at: { file: 'p', line: 1, column: 1 } };
    const grandfathering = { ...b.after, policy: { ...policy, grandfathered: [entry as never] } };
    expect(under(b, grandfathering)).toEqual({ kind: 'declined', reason: 'the policy grandfathers files' });
    const e = {
      binding: 'sha256:x',
      rule: 'prod',
      owner: 'o',
      reason: 'r',
      expires: NOW,
      expiresText: '2026-12-01',
      at: { file: 'p', line: 2, column: 1 },
    };
    const adding = { ...b.after, policy: { ...policy, exceptions: [{ ...e, onlyIn: new Set(['runs/a-0.json']) } as never] } };
    expect(under(b, adding)).toEqual({ kind: 'declined', reason: 'the pull request adds exceptions' });
    // The same bytes read from another path (its report says so): only the commit a file was read at may differ.
    const source = policy.source;
    if (!source) throw new Error('the drawn policy is a file');
    const elsewhere = { ...b.after, policy: { ...policy, source: { ...source, path: '.github/other.yml' } } };
    const addedElsewhere = partOf(b.added, elsewhere).part;
    if (!addedElsewhere) throw new Error('a verification with a time keeps a part');
    expect(mergeAdded(kept, addedElsewhere, elsewhere, b.full)).toEqual({
      kind: 'declined',
      reason: 'the kept verification was judged under other rules or trust settings',
    });
    const strict = { ...b.after, strictObserved: true };
    const addedStrict = partOf(b.added, strict).part;
    if (!addedStrict) throw new Error('a verification with a time keeps a part');
    expect(mergeAdded(kept, addedStrict, strict, b.full)).toEqual({
      kind: 'declined',
      reason: 'the kept verification was judged under other rules or trust settings',
    });
  });

  it('a record’s narrowed digest is in its part’s couplings when its subject carries more than the class, verb and target (its binding then differs)', () => {
    const d = addKey({ target: { owner: 'acme', repo: 'r', key_title_hash: 'sha256:'.padEnd(71, '1') } });
    const made = record('github', 'x-1', d);
    const subject = made['subject'] as JsonObject;
    const more = { ...subject, note: 'more' };
    const bound = binding(more);
    if (!bound.ok) throw new Error('the subject binds');
    // A consistent record: its binding_digest is its whole subject's.
    const extra = { ...made, subject: more, binding_digest: bound.digest };
    const part = partOf({ runs: [], records: [recordAt(extra, 1)], findings: [] }, { ...OPTIONS, now: NOW }).part;
    const narrowed = binding({ action_class: subject['action_class'], verb: subject['verb'], target: subject['target'] });
    if (!narrowed.ok || !part) throw new Error('the subject binds');
    expect(bound.digest).not.toBe(narrowed.digest);
    expect(part.couplings.recordDigests.has(narrowed.digest)).toBe(true);
  });
});
