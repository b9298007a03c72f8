/**
 * The pure core, module by module: claims, records, the allocation, the ladder and its explanations.
 * Test names state the rule they guard, in the semantics document's words.
 */

import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate } from '../../src/core/allocation.js';
import { binding } from '../../src/core/binding.js';
import { type Call, eligibility } from '../../src/core/call.js';
import { readClaim } from '../../src/core/claims.js';
import { prepareDecision } from '../../src/core/decision.js';
import { SNAGS_LISTED } from '../../src/core/diagnose.js';
import { outcomeText } from '../../src/core/explain.js';
import { FINDINGS, finding } from '../../src/core/findings.js';
import { climb as climbMap, confirmationsOf, READS_LOOKED_PAST } from '../../src/core/ladder.js';
import type { DecisionInput, RecordInput, RunInput } from '../../src/core/model.js';
import { checkRecords } from '../../src/core/records.js';
import { flat, quote } from '../../src/core/text.js';
import { compareInstants, type Instant } from '../../src/core/time.js';
import { verify } from '../../src/core/verify.js';
import { addKey, deployKey, getKey, record } from '../support/corpus.js';
import { evidence, OPTIONS } from '../support/evidence.js';

const claimOf = (response: Record<string, unknown>) => readClaim({ response: { status: 'success', ...response } });

describe('claims (§4)', () => {
  it('without a side_effect block the claim is verified exactly when side_effect_verified is true (a legacy claim)', () => {
    expect(claimOf({ side_effect_asserted: true, side_effect_verified: true })).toMatchObject({
      kind: 'claim',
      claim: { level: 'verified', legacy: true, digest: null },
    });
    expect(claimOf({ side_effect_asserted: true })).toMatchObject({ kind: 'claim', claim: { level: 'asserted', legacy: false } });
  });

  it('side_effect_asserted that is not a boolean is an invalid artifact, not a claim', () => {
    expect(claimOf({ side_effect_asserted: 'yes' })).toEqual({ kind: 'invalid', reason: 'response.side_effect_asserted is not a boolean' });
    expect(readClaim({})).toEqual({ kind: 'invalid', reason: 'response is not an object' });
  });

  it('a block with an unknown level is invalid', () => {
    expect(claimOf({ side_effect_asserted: true, side_effect: { asserted: true, level: 'trusted' } })).toMatchObject({ kind: 'invalid' });
  });

  it('every contradiction in a block is listed as an inconsistency', () => {
    const r = claimOf({
      side_effect_asserted: false,
      side_effect_verified: false,
      side_effect: { asserted: true, level: 'verified', verification_source: 'observed_read_followup', verification_subject_digest: null },
    });
    expect(r.kind).toBe('claim');
    if (r.kind !== 'claim') return;
    expect(r.inconsistencies).toEqual([
      'side_effect.asserted (true) differs from side_effect_asserted (false)',
      'verification_source "observed_read_followup" does not fit level "verified" (expected "provider_audit_import")',
      'side_effect_verified (false) contradicts level "verified"',
      'claims "verified" while side_effect_asserted is false',
    ]);
  });

  it('an asserted block carrying a digest is inconsistent', () => {
    const r = claimOf({
      side_effect_asserted: true,
      side_effect: { asserted: true, level: 'asserted', verification_subject_digest: 'sha256:00' },
    });
    expect(r.kind === 'claim' && r.inconsistencies).toEqual(['an "asserted" claim carries a verification_subject_digest']);
  });
});

const located = (rs: readonly Record<string, unknown>[]): RecordInput[] =>
  rs.map((r, i) => ({
    loc: { file: 'a.json', line: i + 1, column: 1 },
    record: r as unknown as RecordInput['record'],
    recomputed: binding(r['subject']),
    signer: null,
    trust: { kind: 'unchecked' },
  }));

describe('records (§3)', () => {
  it('a record whose subject does not hash to its binding_digest is inconsistent, whatever else it is', () => {
    const r = record('github', '1', addKey(), { editTarget: { repo: 'other' } });
    const [c] = checkRecords(located([r]));
    expect(c!.check).toMatchObject({ outcome: 'inconsistent' });
    expect(c!.check.outcome === 'inconsistent' && c!.check.reason).toMatch(
      /^subject recomputes to sha256:[0-9a-f]{64} but binding_digest says sha256:/,
    );
  });

  it('one entry exported twice (one identity, one meaning) is one record: the copy is imported_twice and names the first (§3.2)', () => {
    const r = record('github', '1', addKey());
    const checked = checkRecords(located([r, r, record('gitlab', '1', addKey())]));
    expect(checked.map((c) => c.check.outcome)).toEqual(['usable', 'imported_twice', 'usable']);
    expect(checked[1]!.check.outcome === 'imported_twice' && checked[1]!.check.first.loc.line).toBe(1);
  });

  it('one identity with two meanings makes every record of it a duplicate, each naming the other (§3.2)', () => {
    const a = record('github', '1', addKey());
    const b = record('github', '1', addKey({ target: deployKey({ repo: 'other' }) }));
    const checked = checkRecords(located([a, b, a]));
    expect(checked.map((c) => c.check.outcome)).toEqual(['duplicate', 'duplicate', 'duplicate']);
    expect(checked.map((c) => (c.check.outcome === 'duplicate' ? c.check.other.loc.line : 0))).toEqual([2, 1, 2]);
  });

  it('identity is the pair (provider, record_id), never their text run together (with or without a separator): "gh" and "1:2", "gh1" and ":2" are two identities', () => {
    const a = record('gh', '1:2', addKey());
    const b = record('gh1', ':2', addKey({ target: deployKey({ repo: 'other' }) }));
    const c = record('2:gh', '', addKey({ target: deployKey({ repo: 'third' }) }));
    const d = record('', '2:gh', addKey({ target: deployKey({ repo: 'fourth' }) }));
    const e = record('a:b', 'c', addKey({ target: deployKey({ repo: 'fifth' }) }));
    const f = record('a', 'b:c', addKey({ target: deployKey({ repo: 'sixth' }) }));
    expect(checkRecords(located([a, b, c, d, e, f])).map((x) => x.check.outcome)).toEqual(Array(6).fill('usable'));
  });

  it('identity is taken only by records that passed the earlier checks: an inconsistent copy makes no duplicate (§3.2)', () => {
    const good = record('github', '1', addKey());
    const bad = record('github', '1', addKey(), { editTarget: { repo: 'z' } });
    const checked = checkRecords(located([bad, good]));
    expect(checked.map((c) => c.check.outcome)).toEqual(['inconsistent', 'usable']);
  });
});

describe('the allocation (§5)', () => {
  const usable = (n: number, provider = 'github') =>
    checkRecords(located(Array.from({ length: n }, (_, i) => record(provider, `r${i}`, addKey()))));
  const digest = (usable(1)[0]!.check as { recomputed: string }).recomputed;

  const ids = (cs: readonly object[], got: readonly ({ input: { record: { record_id: string } } } | undefined)[]) =>
    cs.map((_, k) => got[k]?.input.record.record_id ?? null);

  it('gives each record to one call only, claimed-verified calls first', () => {
    const claimants = [
      { digest, provider: null, claimsVerified: false },
      { digest, provider: null, claimsVerified: true },
    ];
    const got = allocate(claimants, usable(1));
    expect(ids(claimants, got)).toEqual([null, 'r0']);
  });

  it('never gives a record of another provider to a call that names one', () => {
    const claimants = [
      { digest, provider: 'gitlab', claimsVerified: true },
      { digest, provider: 'github', claimsVerified: false },
    ];
    expect(ids(claimants, allocate(claimants, usable(1)))).toEqual([null, 'r0']);
  });

  it('never gives a record that is not usable', () => {
    const recs = checkRecords(located([record('github', 'x', addKey(), { editTarget: { repo: 'z' } })]));
    expect(allocate([{ digest, provider: null, claimsVerified: true }], recs).filter(Boolean)).toEqual([]);
  });
});

/** The ladder's outcomes in call order (as Call.order indexes them). */
function climb(runs: readonly (readonly Call[])[], recs: Parameters<typeof climbMap>[1]) {
  const r = climbMap(runs, recs);
  return { outcomes: runs.flat().map((c) => r.outcomes[c.order]!), records: r.records };
}

/** The calls of one run, as verify() builds them. */
function callsOf(ds: readonly ReturnType<typeof addKey>[]): Call[] {
  const run = evidence({ 'r.json': ds }).runs[0]!;
  return run.decisions.map((input, order) => {
    const c = input.claim;
    if (c.kind !== 'claim') throw new Error('test decision has an invalid claim');
    return { order, run, input, claim: c.claim, eligibility: eligibility(input, c.claim) };
  });
}

/** An instant `s` seconds into 2026-12-01 (`half`: and half a second more, so fractions are compared too). */
const sec = (s: number, half = false): Instant => ({ seconds: 1_796_083_200 + s, fraction: half ? '5' : '' });

/** The calls of one run whose decisions carry their time and, where given, when their request began and their server session (a server log's). */
function timedCallsOf(ds: readonly (readonly [ReturnType<typeof addKey>, Instant | null, Instant | null, number?])[]): Call[] {
  const run: RunInput = {
    artifact: 'runs/r.log',
    decisions: ds.map(([d, time, begun, session], i) =>
      prepareDecision({ file: 'runs/r.log', line: i + 1, column: 1 }, i, d, time, begun, session),
    ),
  };
  return run.decisions.map((input, order) => {
    const c = input.claim;
    if (c.kind !== 'claim') throw new Error('test decision has an invalid claim');
    return { order, run, input, claim: c.claim, eligibility: eligibility(input, c.claim) };
  });
}

describe('the ladder (§5)', () => {
  it('verified is reached only with the record the allocation gave, and carries that record', () => {
    const calls = callsOf([addKey({ claim: 'verified' })]);
    const { outcomes, records } = climb([calls], checkRecords(located([record('github', '1', addKey())])));
    expect(outcomes[0]).toMatchObject({ level: 'verified', record: { input: { record: { record_id: '1' } } } });
    expect(records[0]).toMatchObject({ outcome: 'bound', call: calls[0] });
  });

  it('observed_confirmed carries the read that confirmed it and why it was not verified', () => {
    const calls = callsOf([addKey(), getKey()]);
    const { outcomes } = climb([calls], []);
    expect(outcomes[0]).toMatchObject({ level: 'observed_confirmed', read: { index: 1 }, notVerified: { kind: 'no_record', snags: [] } });
    expect(outcomeText(outcomes[0]!)).toBe('confirmed by a later read at line 14; not verified: no audit record binds its subject');
  });

  it('a read earlier in the run, a failed read or a read of another target confirms nothing', () => {
    const calls = callsOf([getKey(), addKey(), getKey({ status: 'error' }), getKey({ target: deployKey({ repo: 'other' }) })]);
    const { outcomes } = climb([calls], []);
    expect(outcomes[1]).toEqual({
      level: 'asserted',
      why: { kind: 'no_record', digest: expect.any(String), snags: [], more: new Map() },
      replayed: false,
      unconfirmed: null,
    });
  });

  it('a later read decided at or before the write confirms nothing, and the reason names it and both times; the next later read decided after it does', () => {
    // Later in the file, earlier (or no later) in time: two runs' lines interleaved, or a clock set back.
    const calls = timedCallsOf([
      [addKey(), sec(10), null],
      [getKey(), sec(9), null],
      [getKey({ verb: 'list' }), sec(10), null],
    ]);
    const { outcomes } = climb([calls], []);
    expect(outcomes[0]).toMatchObject({
      level: 'asserted',
      unconfirmed: { read: { index: 1 }, why: 'decided_before', skipped: 2, capped: false },
    });
    expect(outcomeText(outcomes[0]!)).toBe(
      'no audit record binds its subject; no later successful read of the same target in this run confirms it: the read at line 2 was decided at 2026-12-01T00:00:09Z, not after this call (2026-12-01T00:00:10Z); 1 more later read(s) of it cannot confirm it either',
    );
    const after = climb(
      [
        timedCallsOf([
          [addKey(), sec(10), null],
          [getKey(), sec(9), null],
          [getKey(), sec(10, true), null],
        ]),
      ],
      [],
    );
    expect(after.outcomes[0]).toMatchObject({ level: 'observed_confirmed', read: { index: 2 } });
  });

  it('a later read whose request began before the write was decided ran alongside it and confirms nothing; one begun after it does', () => {
    const alongside = timedCallsOf([
      [addKey(), sec(10), sec(8)],
      [getKey(), sec(12), sec(9)],
    ]);
    const { outcomes } = climb([alongside], []);
    expect(outcomes[0]).toMatchObject({ level: 'asserted', unconfirmed: { read: { index: 1 }, why: 'begun_before' } });
    expect(outcomeText(outcomes[0]!)).toMatch(
      /the read at line 2 began at 2026-12-01T00:00:09Z, before this call was decided \(2026-12-01T00:00:10Z\): it ran alongside the call/,
    );
    // Begun at the very instant the write was decided is not after it.
    expect(
      climb(
        [
          timedCallsOf([
            [addKey(), sec(10), null],
            [getKey(), sec(12), sec(10)],
          ]),
        ],
        [],
      ).outcomes[0]!.level,
    ).toBe('asserted');
    expect(
      climb(
        [
          timedCallsOf([
            [addKey(), sec(10), null],
            [getKey(), sec(12), sec(10, true)],
          ]),
        ],
        [],
      ).outcomes[0],
    ).toMatchObject({
      level: 'observed_confirmed',
      read: { index: 1 },
    });
  });

  it('without a time on the write the order in the run decides, as before (a decision surface has none); a timed write needs a timed read (a red team)', () => {
    expect(
      climb(
        [
          timedCallsOf([
            [addKey(), null, null],
            [getKey(), sec(1), sec(0)],
          ]),
        ],
        [],
      ).outcomes[0]!.level,
    ).toBe('observed_confirmed');
    expect(
      climb(
        [
          timedCallsOf([
            [addKey(), sec(5), null],
            [getKey(), null, null],
          ]),
        ],
        [],
      ).outcomes[0],
    ).toMatchObject({ level: 'asserted', unconfirmed: { why: 'untimed', skipped: 1 } });
  });

  it(`the search looks past at most ${READS_LOOKED_PAST} reads of one verb that cannot confirm a write, and says when it stopped`, () => {
    const early = (n: number) => Array.from({ length: n }, () => [getKey(), sec(1), null] as const);
    const within = timedCallsOf([[addKey(), sec(10), null], ...early(READS_LOOKED_PAST - 1), [getKey(), sec(11), null]]);
    expect(climb([within], []).outcomes[0]).toMatchObject({ level: 'observed_confirmed', read: { index: READS_LOOKED_PAST } });
    const past = timedCallsOf([[addKey(), sec(10), null], ...early(READS_LOOKED_PAST), [getKey(), sec(11), null]]);
    const { outcomes } = climb([past], []);
    expect(outcomes[0]).toMatchObject({ level: 'asserted', unconfirmed: { skipped: READS_LOOKED_PAST, capped: true } });
    expect(outcomeText(outcomes[0]!)).toMatch(
      new RegExp(
        `; ${READS_LOOKED_PAST - 1} more later read\\(s\\) of it cannot confirm it either; reads past the first ${READS_LOOKED_PAST} of one verb are not looked at$`,
      ),
    );
    // Another verb has its own reads to look past: a confirming list read is still found.
    const other = timedCallsOf([[addKey(), sec(10), null], ...early(READS_LOOKED_PAST + 5), [getKey({ verb: 'list' }), sec(11), null]]);
    expect(climb([other], []).outcomes[0]).toMatchObject({ level: 'observed_confirmed', read: { index: READS_LOOKED_PAST + 6 } });
  });

  it('a later read of another server session of the log confirms nothing, whatever its times (two processes appended with 2>>: a red team); a read of the same session does', () => {
    // Monday's process (session 1) wrote; Wednesday's (session 2) read, days later.
    const appended = timedCallsOf([
      [addKey(), sec(10), sec(9), 1],
      [getKey(), sec(200_000), sec(199_999), 2],
    ]);
    const { outcomes } = climb([appended], []);
    expect(outcomes[0]).toMatchObject({ level: 'asserted', unconfirmed: { read: { index: 1 }, why: 'other_session', skipped: 1 } });
    expect(outcomeText(outcomes[0]!)).toBe(
      "no audit record binds its subject; no later successful read of the same target in this run confirms it: the read at line 2 was decided in another server process's session than this call (after the log's server_start #2): the log cannot show that two server processes served one agent run, so a read of one confirms no write of the other",
    );
    // A write with no time (a surface line in the log) is held to its session too.
    const untimed = timedCallsOf([
      [addKey(), null, null, 1],
      [getKey(), null, null, 2],
    ]);
    expect(climb([untimed], []).outcomes[0]).toMatchObject({ level: 'asserted', unconfirmed: { why: 'other_session', decided: null } });
    // The same session confirms, in the first process or after a restart; a later read of the write's session is found past another's.
    for (const session of [1, 2]) {
      const same = timedCallsOf([
        [addKey(), sec(10), sec(9), session],
        [getKey(), sec(12), sec(11), session],
      ]);
      expect(climb([same], []).outcomes[0]).toMatchObject({ level: 'observed_confirmed', read: { index: 1 } });
    }
    const both = timedCallsOf([
      [addKey(), sec(10), sec(9), 1],
      [getKey(), sec(12), sec(11), 1],
      [addKey(), sec(20), sec(19), 2],
      [getKey({ verb: 'list' }), sec(22), sec(21), 2],
    ]);
    expect(climb([both], []).outcomes.map((o) => o.level)).toEqual(['observed_confirmed', null, 'observed_confirmed', null]);
  });

  it('the confirming read is the first later successful read of the same target, another verb, in the same server session, decided after the write and begun after it was decided (an oracle)', () => {
    const arbStep = fc.record({
      kind: fc.constantFrom('write', 'get', 'list', 'failed'),
      repo: fc.constantFrom('a', 'b'),
      time: fc.option(fc.integer({ min: 0, max: 6 }), { nil: null }),
      begun: fc.option(fc.integer({ min: 0, max: 6 }), { nil: null }),
      half: fc.boolean(),
      // A server_start line before this decision: a new session (sessions only grow along a log).
      restart: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(arbStep, { maxLength: 12 }), (steps) => {
        let session = 0;
        const sessions = steps.map((s) => (s.restart ? ++session : session));
        const calls = timedCallsOf(
          steps.map((s, i) => {
            const target = deployKey({ repo: s.repo });
            const d =
              s.kind === 'write'
                ? addKey({ target })
                : getKey({ target, verb: s.kind === 'list' ? 'list' : 'get', ...(s.kind === 'failed' ? { status: 'error' } : {}) });
            return [d, s.time === null ? null : sec(s.time, s.half), s.begun === null ? null : sec(s.begun), sessions[i]] as const;
          }),
        );
        const { outcomes } = climb([calls], []);
        // A write with a time needs a read with one after it; a write with none, any later read.
        const laterThan = (a: Instant | null, b: Instant | null) => b === null || (a !== null && compareInstants(a, b) > 0);
        calls.forEach((call, i) => {
          const step = steps[i]!;
          if (step.kind !== 'write') return;
          const w: DecisionInput = call.input;
          // A write with no time was decided no earlier than the latest time of the run's decisions before it.
          const bound =
            w.time ??
            calls
              .slice(0, i)
              .reduce<Instant | null>(
                (m, c) => (c.input.time !== null && (m === null || compareInstants(c.input.time, m) > 0) ? c.input.time : m),
                null,
              );
          const expected = calls.find(
            (c, j) =>
              j > i &&
              steps[j]!.kind !== 'write' &&
              steps[j]!.kind !== 'failed' &&
              steps[j]!.repo === step.repo &&
              sessions[j] === sessions[i] &&
              laterThan(c.input.time, bound) &&
              (bound === null || c.input.begun === null || laterThan(c.input.begun, bound)),
          );
          const o = outcomes[i]!;
          if (expected) expect(o).toMatchObject({ level: 'observed_confirmed', read: { index: expected.input.index } });
          else expect(o.level).toBe('asserted');
          // Never a read of another server session; never a read with no time, or one whose time is not strictly after the write's, nor one begun before it was decided.
          if (o.level === 'observed_confirmed') expect(o.read.session).toBe(w.session);
          if (o.level === 'observed_confirmed' && bound !== null) {
            expect(o.read.time).not.toBeNull();
            expect(compareInstants(o.read.time as Instant, bound)).toBeGreaterThan(0);
            if (o.read.begun !== null) expect(compareInstants(o.read.begun, bound)).toBeGreaterThan(0);
          }
        });
      }),
      { numRuns: 500, seed: 5 },
    );
  });

  it('confirmations are a function of the run alone: made once per run (as the gate makes them while it reads), the same outcomes whoever made them first', () => {
    const ds = [
      addKey(),
      getKey(),
      addKey({ target: deployKey({ repo: 'b' }) }),
      getKey({ target: deployKey({ repo: 'b' }), status: 'error' }),
    ];
    const fresh = climb([callsOf(ds)], []).outcomes;
    const calls = callsOf(ds);
    const run = calls[0]!.run;
    const early = confirmationsOf(run);
    expect(confirmationsOf(run)).toBe(early);
    expect(Array.from(early.confirmed, (d) => d?.index ?? null)).toEqual([1, null, null, null]);
    const { outcomes } = climb([calls], []);
    expect(JSON.stringify(outcomes)).toBe(JSON.stringify(fresh));
    expect(outcomes.map((o) => o.level)).toEqual(['observed_confirmed', null, 'asserted', null]);
  });

  it("a run's calls that are not its decisions in order are refused (an internal error), never confirmed by another decision's read", () => {
    const calls = callsOf([addKey(), getKey()]);
    const swapped = [calls[1]!, calls[0]!].map((c, order) => ({ ...c, order }));
    expect(() => climbMap([swapped], [])).toThrow(RangeError);
  });

  it('a call that asserts nothing carries no rung; a denied call and a call with no subject stay asserted with the reason they cannot climb', () => {
    const calls = callsOf([addKey({ asserted: false }), addKey({ effect: 'deny' }), addKey({ resourceType: null })]);
    const { outcomes } = climb([calls], checkRecords(located([record('github', '1', addKey())])));
    expect(outcomes[0]).toEqual({ level: null });
    expect(outcomeText(outcomes[0]!)).toMatch(/asserts no side effect .* no rung/);
    expect(outcomes.slice(1).map((o) => o.level === 'asserted' && o.why.kind === 'ineligible' && o.why.reason)).toEqual([
      'the call was denied (decision.effect is "deny")',
      'the call has no subject: action.resource_type is not a string',
    ]);
  });

  it(`a reason names at most ${SNAGS_LISTED} records and counts the rest by kind`, () => {
    const calls = callsOf(Array.from({ length: 6 }, () => addKey()));
    const recs = checkRecords(located(Array.from({ length: 5 }, (_, i) => record('github', `r${i}`, addKey()))));
    const { outcomes } = climb([calls], recs);
    const last = outcomes[5]!;
    expect(last.level).toBe('asserted');
    expect(outcomeText(last)).toMatch(
      /already verifies runs\/r\.json decision 2 \(line 24\); … and 2 more record\(s\) for this subject, all already verify other calls; no later successful read/,
    );
  });
});

describe("explanations read the ladder's reasons", () => {
  it('an unmatched record is not explained as "every call already verified" when a call with its subject targets another provider', () => {
    const r = verify(
      evidence({ 'r.json': [addKey(), addKey({ target: deployKey({ provider: 'gitlab' }) })] }, [
        record('github', '1', addKey()),
        record('github', '2', addKey()),
      ]),
      OPTIONS,
    );
    expect(r.calls.map((c) => c.level)).toEqual(['verified', 'asserted']);
    expect(r.calls[1]!.reason).toContain('is from provider "github", the call targets "gitlab"');
    const unmatched = r.findings.find((f) => f.code === 'record_unmatched')!;
    expect(unmatched.message).not.toContain('every call with its subject is already verified');
    expect(unmatched.message).toBe(
      'record "2" (github) binds no call: its subject matches runs/r.json decision 1 (line 14) but the call targets provider "gitlab", not "github"; ' +
        'runs/r.json decision 0 (line 4) is already verified by record "1" (github) at audit/a.json:1 (one audit entry vouches for one call only). ' +
        'With an export scoped to the agent (import --actor), this is a side effect the provider logged for the agent that no committed run declares, or one whose run is not committed yet',
    );
  });

  it('"nearest" is the call with the fewest differing bound fields, ties to the first', () => {
    const far = addKey({ target: deployKey({ owner: 'acme', repo: 'payments-api', title: 'hotfix-key' }) });
    const near = addKey({ target: deployKey({ repo: 'prod-repo' }) });
    const tie = addKey({ target: deployKey({ repo: 'prod-repo-2' }) });
    const r = verify(
      evidence({ 'a.json': [far], 'b.json': [near, tie] }, [record('github', 'm', addKey({ target: deployKey({ repo: 'other-repo' }) }))]),
      OPTIONS,
    );
    expect(r.findings.find((f) => f.code === 'record_unmatched')!.message).toMatch(
      /nearest is runs\/b\.json decision 0 \(line 4\), whose target differs in repo\. With an export scoped to the agent/,
    );
  });

  it('a bound value that is an object in another key order is the same value, as in the binding: only the field that truly differs is named', () => {
    const call = addKey({ target: { provider: 'github', owner: { org: 'acme', id: 7 }, repo: 'payments-api', key_title_hash: 'h1' } });
    const r = verify(
      evidence({ 'r.json': [call] }, [
        record(
          'github',
          'm',
          addKey({ target: { provider: 'github', owner: { id: 7, org: 'acme' }, repo: 'payments-api', key_title_hash: 'h2' } }),
        ),
      ]),
      OPTIONS,
    );
    // Before, the owner objects compared by JSON.stringify and "owner" was named as differing too.
    expect(r.findings.find((f) => f.code === 'record_unmatched')!.message).toMatch(
      /nearest is runs\/r\.json decision 0 \(line 4\), whose target differs in key_title_hash\. With an export scoped to the agent/,
    );
  });

  it('a verified_not_reproduced finding gives only the reason the verified claim failed', () => {
    const r = verify(evidence({ 'r.json': [addKey({ claim: 'verified' })] }), OPTIONS);
    const f = r.findings.find((x) => x.code === 'verified_not_reproduced')!;
    expect(f.message).toMatch(
      /^github\.add_deploy_key \(decision 0\) claims verified, but no audit record binds its subject sha256:[0-9a-f]{64}$/,
    );
  });

  it('a record whose target carries more than the bound fields is nearest to the call equal on all of them', () => {
    const rec = record('github', 'x', addKey());
    const subject = rec['subject'] as { target: Record<string, unknown> };
    subject.target['provider'] = 'github';
    const { binding } = { binding: (s: unknown) => `sha256:${createHash('sha256').update(canonicalize(s)!).digest('hex')}` };
    const extra = { ...rec, binding_digest: binding(subject) };
    const r = verify(
      evidence({ 'r.json': [addKey({ target: deployKey({ repo: 'near' }) }), addKey({ claim: 'verified' })] }, [
        record('github', 'y', addKey({ claim: 'verified' })),
        extra,
      ]),
      OPTIONS,
    );
    expect(r.findings.find((f) => f.code === 'record_unmatched')!.message).toMatch(
      /nearest is runs\/r\.json decision 1 \(line 14\), whose target differs in provider\. With an export scoped to the agent/,
    );
  });

  it('a record of a class and verb no call has says so', () => {
    const r = verify(evidence({ 'r.json': [addKey()] }, [record('github', 'x', addKey({ verb: 'delete' }))]), OPTIONS);
    expect(r.findings.find((f) => f.code === 'record_unmatched')!.message).toMatch(
      /\(no "github_deploy_key" call with verb "delete" at all\)\. With an export scoped to the agent/,
    );
  });
});

describe('findings', () => {
  it('every code has a severity, a title and help text', () => {
    for (const [code, e] of Object.entries(FINDINGS)) {
      expect(['error', 'warning', 'notice'], code).toContain(e.severity);
      expect(e.title.length, code).toBeGreaterThan(3);
      expect(e.help.length, code).toBeGreaterThan(10);
    }
  });

  it('a finding takes its severity from the catalogue unless an option changes it', () => {
    expect(finding('no_match', { file: 'f', line: 1, column: 1 }, 'm').severity).toBe('notice');
    expect(finding('record_unmatched', { file: 'f', line: 1, column: 1 }, 'm', 'warning').severity).toBe('warning');
  });

  it('a flattened text is the same string, whatever it holds (a reason is kept flat, never changed)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        const joined = `${a}${b}`;
        expect(flat(joined)).toBe(joined);
      }),
      { numRuns: 2000, seed: 11 },
    );
    expect(flat('')).toBe('');
    expect(flat('\u0000 bound by record "r" (github) at audit/a.json:2 \ud800')).toBe(
      '\u0000 bound by record "r" (github) at audit/a.json:2 \ud800',
    );
  });

  it('quoted untrusted text is clipped at a code-point boundary', () => {
    const s = `${'a'.repeat(198)}😀😀`;
    const q = quote(s);
    expect(q.length).toBeLessThanOrEqual(200);
    expect(q).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(q.endsWith('…')).toBe(true);
  });
});
