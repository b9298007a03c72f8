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
import { binding } from '../../src/core/binding.js';
import type { HeldUntil } from '../../src/core/clock.js';
import { prepareDecision } from '../../src/core/decision.js';
import type { AuditRecord, Evidence, RecordInput, RunInput, StatementInput, VerifyOptions } from '../../src/core/model.js';
import type { Report } from '../../src/core/report.js';
import { compareInstants, type Instant, parseRfc3339, rfc3339 } from '../../src/core/time.js';
import { verifyHeld } from '../../src/core/verify.js';
import { checkStatement } from '../../src/read/coverage-statement.js';
import { readPolicyFile } from '../../src/read/policy-file.js';
import { loadYamlParser } from '../../src/read/strict-yaml.js';
import { coverageStatement, decision, deployKey, record } from '../support/corpus.js';

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
/** A time `minutes` from the verification time (negative: before it). */
const minutesFromNow = (minutes: number): Instant => ({ seconds: NOW.seconds + minutes * 60, fraction: '' });

const arbCase = fc.record({
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
  // Daily windows ending from two days before the verification time to a day after it.
  windows: fc.array(fc.constantFrom('2026-11-29', '2026-11-30', '2026-12-01'), { maxLength: 2 }),
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
  const runs = c.runs.map((ds, r): RunInput => {
    const artifact = `runs/${r}.json`;
    return {
      artifact,
      decisions: ds.map((d, i) =>
        prepareDecision(
          { file: artifact, line: 3 * i + 2, column: 3 },
          i,
          decision({ tool: 'github.x', verb: d.verb, resourceType: 'github_deploy_key', target: keyOn(d.repo), claim: d.claim }),
          d.minutes === null ? null : minutesFromNow(d.minutes),
        ),
      ),
    };
  });
  // Records and statements in one export: a record that binds no call waits on its own file's statements.
  const records = c.records.map((r, i): RecordInput => {
    const rec = record('github', r.id, decision({ tool: 't', verb: 'create', resourceType: 'github_deploy_key', target: keyOn(r.repo) }));
    return {
      loc: { file: 'audit/a.json', line: i + 1, column: 1 },
      record: rec as unknown as AuditRecord,
      recomputed: binding(rec['subject']),
      signer: null,
      trust: { kind: 'unchecked' },
    };
  });
  const statements = c.windows.map((day, i): StatementInput => {
    const s = checkStatement(coverageStatement(day, nextDay(day)) as never);
    if (!s.ok) throw new Error(s.reason);
    return { loc: { file: 'audit/a.json', line: 100 + i, column: 1 }, statement: s.value, signer: null, trust: { kind: 'unchecked' } };
  });
  const excepted = c.exceptions.flatMap((e) => {
    const d = runs[e.run]?.decisions[e.i];
    return d?.projection.kind === 'subject'
      ? [`  - {binding: "${d.projection.digest}", rule: prod, reason: r, owner: o, expires: ${e.expires}}`]
      : [];
  });
  const text = `version: 1\ndefault: asserted\npending: ${c.pending}\nrules:\n  - name: prod\n    match:\n      class: github_deploy_key\n      verb: create\n      target:\n        repo: [prod-*]\n    require: verified\n${excepted.length > 0 ? `exceptions:\n${excepted.join('\n')}\n` : ''}`;
  const policy = readPolicyFile(text, {
    path: '.github/receipt-gate.yml',
    commit: null,
    now: NOW,
    signers: { keyIds: [], identities: [] },
  });
  if (!policy.ok) throw new Error(policy.reason.map((f) => f.message).join('; '));
  return {
    evidence: { runs, records, statements, findings: [] },
    options: { allowUnmatchedRecords: false, strictObserved: false, now: NOW, policy: policy.value },
  };
}

/** The report's bytes but for the verification time. */
const timeless = (r: Report): string => JSON.stringify({ ...r, verified_at: null });

/** How many seconds after the verification time the report holds (null: for ever). */
const span = (held: HeldUntil): number | null =>
  held.kind === 'until' ? held.at.seconds - NOW.seconds : held.kind === 'always' ? null : 0;

describe('how long a verification holds (core/clock.ts)', () => {
  it('the same evidence verified at any later time before the noted instant gives the same report but for verified_at; at the instant, often not', () => {
    let changedAtTheInstant = 0;
    let untilCases = 0;
    fc.assert(
      fc.property(arbCase, fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (c, u) => {
        const { evidence, options } = build(c);
        const first = verifyHeld(evidence, options);
        const seconds = span(first.heldUntil);
        if (seconds === 0) return; // it prints the verification time: it holds for this instant only
        expect(seconds === null || seconds > 0).toBe(true);
        // A later time before the instant (or up to 60 days on when it holds for ever).
        const later: Instant = { seconds: NOW.seconds + Math.floor(u * (seconds ?? 60 * DAY)), fraction: '5' };
        expect(timeless(verifyHeld(evidence, { ...options, now: later }).report)).toBe(timeless(first.report));
        if (first.heldUntil.kind === 'until') {
          untilCases++;
          const then = verifyHeld(evidence, { ...options, now: first.heldUntil.at }).report;
          if (timeless(then) !== timeless(first.report)) changedAtTheInstant++;
        }
      }),
      { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 400) },
    );
    // Not vacuous: most cases have an instant, and it is where something changes, not merely a bound.
    expect(untilCases).toBeGreaterThan(100);
    expect(changedAtTheInstant / untilCases).toBeGreaterThan(0.5);
  });

  const one = (over: Partial<Case>): Case => ({
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
  it('outside core/clock.ts the core reads it only where the clocks are made and the report says when (verify.ts), and in the words of a call from the future (verdicts.ts, pinned by the clock)', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const dir = new URL('../../src/core/', import.meta.url);
    const readers = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && f !== 'clock.ts')
      .filter((f) =>
        readFileSync(new URL(f, dir), 'utf8')
          .split('\n')
          .some((line) => !/^\s*(\/\/|\*|\/\*\*)/.test(line) && /\.now\b/.test(line)),
      );
    expect(readers.sort()).toEqual(['verdicts.ts', 'verify.ts']);
  });
});
