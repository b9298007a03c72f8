/**
 * How long a verification holds (core/clock.ts; design/incremental-verification.md, stop 1): every
 * comparison with the verification time notes when its answer would change, so the same evidence
 * verified at any later time before that instant gives the same report but for `verified_at`.
 * Generated corpora put every kind of time near the verification time: calls from the future and
 * pending, coverage windows that end around it, records waiting for their run, exceptions expired,
 * live and expiring.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HeldUntil } from '../../src/core/clock.js';
import { prepareDecision } from '../../src/core/decision.js';
import type { Evidence, RunInput, StatementInput, VerifyOptions } from '../../src/core/model.js';
import type { Report } from '../../src/core/report.js';
import { compareInstants, type Instant, parseRfc3339, rfc3339 } from '../../src/core/time.js';
import { verifyHeld } from '../../src/core/verify.js';
import { checkStatement } from '../../src/read/coverage-statement.js';
import { loadYamlParser } from '../../src/read/strict-yaml.js';
import { coverageStatement, decision, deployKey, record } from '../support/corpus.js';
import { recordAt } from '../support/evidence.js';
import { prodKeysPolicy } from '../support/policies.js';

beforeAll(loadYamlParser);

const at = (s: string): Instant => {
  const t = parseRfc3339(s);
  if (!t.ok) throw new Error(t.reason);
  return t.value;
};
const NOW = at('2026-12-01T12:00:00Z');
const DAY = 86_400;
const REPOS = ['a', 'prod-b'];
const keyOn = (repo: string) => deployKey({ owner: 'org', provider: null, repo, title: 'k' });
/** A verification time in a UTC day's last second: 23:59:60 (a leap second, read on any day) comes after it. */
const LAST = at('2026-12-01T23:59:59.7Z');
/** A time `minutes` from the verification time `base` (negative: before it), its fraction kept. */
const minutesFrom = (base: Instant, minutes: number): Instant => ({ seconds: base.seconds + minutes * 60, fraction: base.fraction });

const arbCase = fc.record({
  base: fc.constantFrom('noon', 'last'),
  runs: fc.array(
    fc.array(
      fc.record({
        repo: fc.constantFrom(...REPOS),
        verb: fc.constantFrom('create', 'get'),
        claim: fc.constantFrom('asserted', 'verified') as fc.Arbitrary<'asserted' | 'verified'>,
        // From two days before the verification time to an hour after it (more than the 5 minutes' grace: from the future).
        minutes: fc.option(fc.integer({ min: -2 * 24 * 60, max: 60 }), { nil: null }),
      }),
      { maxLength: 4 },
    ),
    { minLength: 1, maxLength: 3 },
  ),
  records: fc.array(fc.record({ repo: fc.constantFrom(...REPOS, 'c'), id: fc.constantFrom('1', '2', '3') }), { maxLength: 4 }),
  // Daily windows ending from two days before the verification time to a day after it, and one
  // ending within the 5 minutes' grace of the last second's (a fraction past it).
  windows: fc.array(fc.constantFrom('2026-11-29', '2026-11-30', '2026-12-01', 'odd'), { maxLength: 2 }),
  pending: fc.constantFrom('0', '3h', '1d', '3d'),
  exceptions: fc.array(
    fc.record({
      run: fc.nat(2),
      i: fc.nat(3),
      expires: fc.constantFrom('2026-11-30', '2026-12-02', '2026-12-10', '2026-12-16', '2027-06-01'),
    }),
    { maxLength: 2 },
  ),
});
type Case = typeof arbCase extends fc.Arbitrary<infer T> ? T : never;

const nextDay = (day: string): string => rfc3339({ seconds: at(`${day}T00:00:00Z`).seconds + DAY, fraction: '' }).slice(0, 10);

function build(c: Case): { evidence: Evidence; options: VerifyOptions } {
  const base = c.base === 'last' ? LAST : NOW;
  const runs = c.runs.map((ds, r): RunInput => {
    const artifact = `runs/${r}.json`;
    return {
      artifact,
      decisions: ds.map((d, i) =>
        prepareDecision(
          { file: artifact, line: 3 * i + 2, column: 3 },
          i,
          decision({ tool: 'github.x', verb: d.verb, resourceType: 'github_deploy_key', target: keyOn(d.repo), claim: d.claim }),
          d.minutes === null ? null : minutesFrom(base, d.minutes),
        ),
      ),
    };
  });
  // Records and statements in one export: a record that binds no call waits on its own file's statements.
  const records = c.records.map((r, i) =>
    recordAt(
      record('github', r.id, decision({ tool: 't', verb: 'create', resourceType: 'github_deploy_key', target: keyOn(r.repo) })),
      i + 1,
    ),
  );
  const statements = c.windows.map((day, i): StatementInput => {
    const window =
      day === 'odd'
        ? coverageStatement('2026-12-01', '2026-12-02', { until: '2026-12-02T00:04:59.5Z' })
        : coverageStatement(day, nextDay(day));
    const s = checkStatement(window as never);
    if (!s.ok) throw new Error(s.reason);
    return { loc: { file: 'audit/a.json', line: 100 + i, column: 1 }, statement: s.value, signer: null, trust: { kind: 'unchecked' } };
  });
  const policy = prodKeysPolicy(NOW, `default: asserted\npending: ${c.pending}\n`, runs, c.exceptions);
  return {
    evidence: { runs, records, statements, findings: [] },
    options: { allowUnmatchedRecords: false, strictObserved: false, now: base, policy },
  };
}

/** The report's bytes but for the verification time. */
const timeless = (r: Report): string => JSON.stringify({ ...r, verified_at: null });

/** Whether `t` is before the instant the report holds until. */
const beforeEnd = (t: Instant, held: HeldUntil): boolean =>
  held.kind === 'always' || (held.kind === 'until' && compareInstants(t, held.at) < 0);

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 400);

describe('how long a verification holds (core/clock.ts)', () => {
  it('the same evidence verified at any later time before the noted instant gives the same report but for verified_at; at the instant, often not', () => {
    let changedAtTheInstant = 0;
    let untilCases = 0;
    fc.assert(
      fc.property(
        arbCase,
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.constantFrom('', '1', '5', '9'),
        (c, u, leapFraction) => {
          const { evidence, options } = build(c);
          const now = options.now as Instant;
          const first = verifyHeld(evidence, options);
          if (first.heldUntil.kind === 'this_instant') return; // it holds for this instant only
          if (first.heldUntil.kind === 'until') expect(compareInstants(first.heldUntil.at, now)).toBeGreaterThan(0);
          // A later time before the instant (up to 60 days on when it holds for ever), and after a
          // day's last second its leap second, when that is before the instant.
          const seconds = first.heldUntil.kind === 'until' ? first.heldUntil.at.seconds - now.seconds : 60 * DAY;
          const laters: Instant[] = [{ seconds: now.seconds + Math.floor(u * seconds), fraction: '95' }];
          if (c.base === 'last') laters.push({ seconds: now.seconds, fraction: leapFraction, leap: true });
          for (const later of laters)
            if (compareInstants(later, now) > 0 && beforeEnd(later, first.heldUntil))
              expect(timeless(verifyHeld(evidence, { ...options, now: later }).report)).toBe(timeless(first.report));
          if (first.heldUntil.kind === 'until') {
            untilCases++;
            const then = verifyHeld(evidence, { ...options, now: first.heldUntil.at }).report;
            if (timeless(then) !== timeless(first.report)) changedAtTheInstant++;
          }
        },
      ),
      { numRuns: RUNS },
    );
    // Not vacuous: over half the cases have an instant (207–239 of 400 in 12 runs), and at it the
    // report changes in most (0.66–0.76 of them): it is a change, not merely a bound.
    expect(untilCases).toBeGreaterThan(RUNS / 4);
    expect(changedAtTheInstant / untilCases).toBeGreaterThan(0.5);
  });

  const one = (over: Partial<Case>): Case => ({
    base: 'noon',
    runs: [[{ repo: 'prod-b', verb: 'create', claim: 'asserted', minutes: -60 }]],
    records: [],
    windows: [],
    pending: '0',
    exceptions: [],
    ...over,
  });
  const heldUntil = (c: Case): string => {
    const h = verifyHeld(build(c).evidence, build(c).options).heldUntil;
    return h.kind === 'until' ? rfc3339(h.at) : h.kind;
  };

  it('names the instant each kind of time changes at', () => {
    // Nothing compares the time: it holds for ever.
    expect(heldUntil(one({}))).toBe('always');
    // A call from the future prints the verification time in its finding.
    expect(heldUntil(one({ runs: [[{ repo: 'a', verb: 'create', claim: 'asserted', minutes: 30 }]] }))).toBe('this_instant');
    // A call pending for 3 hours from its decision, an hour ago: two hours on.
    expect(heldUntil(one({ pending: '3h' }))).toBe('2026-12-01T14:00:00Z');
    // A live exception until it expires; 14 days before it, it starts to say it expires soon.
    expect(heldUntil(one({ exceptions: [{ run: 0, i: 0, expires: '2026-12-10' }] }))).toBe('2026-12-10T00:00:00Z');
    expect(heldUntil(one({ exceptions: [{ run: 0, i: 0, expires: '2027-06-01' }] }))).toBe('2027-05-18T00:00:00Z');
    // A record that binds no call, beside a window ending at midnight: it waits from 5 minutes before its end ...
    expect(heldUntil(one({ runs: [[]], records: [{ repo: 'c', id: '1' }], windows: ['2026-12-01'], pending: '1d' }))).toBe(
      '2026-12-01T23:55:00Z',
    );
    // ... until pending after it.
    expect(heldUntil(one({ runs: [[]], records: [{ repo: 'c', id: '1' }], windows: ['2026-11-30'], pending: '1d' }))).toBe(
      '2026-12-02T00:00:00Z',
    );
  });

  it('after a day’s last second comes its leap second (23:59:60, read on any day), where the 5 minutes’ grace starts that second over: an answer that would change there is noted there (a red team)', () => {
    const leap = '2026-12-01T23:59:60Z';
    const late = one({ base: 'last', runs: [[{ repo: 'prod-b', verb: 'create', claim: 'asserted', minutes: 5 }]], pending: '3h' });
    // A call decided 5 minutes after the verification time: not from the future until 23:59:60, where the grace ends earlier.
    expect(heldUntil(late)).toBe(leap);
    const { evidence, options } = build(late);
    const future = (now: Instant) =>
      verifyHeld(evidence, { ...options, now }).report.findings.some((f) => f.message.includes('a decision from the future'));
    expect(future(LAST)).toBe(false);
    expect(future(at(leap))).toBe(true);
    // A window ending within the grace of the last second: its record stops waiting there.
    expect(heldUntil(one({ base: 'last', runs: [[]], records: [{ repo: 'c', id: '1' }], windows: ['odd'], pending: '1d' }))).toBe(leap);
  });

  it('an answer that changes within the verification time’s own second, or no verification time at all: no later time is claimed', () => {
    const { evidence, options } = build(one({ pending: '3h' }));
    const time = at('2026-12-01T09:00:00.7Z');
    const inSecond = { ...evidence, runs: evidence.runs.map((r) => ({ ...r, decisions: r.decisions.map((d) => ({ ...d, time })) })) };
    // Pending until 12:00:00.7, the verification time 12:00:00.5: it changes within the verification time's second.
    expect(verifyHeld(inSecond, { ...options, now: at('2026-12-01T12:00:00.5Z') }).heldUntil).toEqual({ kind: 'this_instant' });
    const { now: _, ...untimed } = options;
    expect(verifyHeld(evidence, untimed).heldUntil).toEqual({ kind: 'this_instant' });
  });

  it('an instant is never later than the exact change: a time between two whole seconds is noted at the earlier', () => {
    const c = one({ pending: '3h' });
    const { evidence, options } = build(c);
    const half: Instant = { seconds: NOW.seconds, fraction: '5' };
    const shifted = { ...evidence, runs: evidence.runs.map((r) => ({ ...r, decisions: r.decisions.map((d) => ({ ...d, time: half })) })) };
    const h = verifyHeld(shifted, options).heldUntil;
    // Pending until 15:00:00.5: noted at 15:00:00.
    expect(h.kind === 'until' && compareInstants(h.at, { seconds: NOW.seconds + 3 * 3600, fraction: '' })).toBe(0);
  });
});

describe('one home for the verification time inside verify()', () => {
  it('outside core/clock.ts the core reads it only where the clocks are made and the report says when (verify.ts), in the words of a call from the future (verdicts.ts, pinned by the clock), and where a kept verification’s hold is checked against it (incremental.ts)', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const dir = new URL('../../src/core/', import.meta.url);
    const readers = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && f !== 'clock.ts')
      .filter((f) =>
        readFileSync(new URL(f, dir), 'utf8')
          .split('\n')
          .some((line) => !/^\s*(\/\/|\*|\/\*\*)/.test(line) && /\.now\b/.test(line)),
      );
    expect(readers.sort()).toEqual(['incremental.ts', 'verdicts.ts', 'verify.ts']);
  });
});
