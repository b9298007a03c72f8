/**
 * The seam between the allocation and judging (design/threads-that-judge.md, stop 1): a run file is
 * judged from its `FileToJudge` alone, so a copy of it (what would cross to another thread) judges to
 * the same lines; what files used of the policy adds up whatever the split; a file handed outcomes
 * that are not its calls' is refused, never judged.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type FileJudgement, judgeFile } from '../../src/core/judge.js';
import type { Evidence, RunInput, StatementInput } from '../../src/core/model.js';
import { parseRfc3339 } from '../../src/core/time.js';
import { allocateAll, verify } from '../../src/core/verify.js';
import { checkStatement } from '../../src/read/coverage-statement.js';
import { loadYamlParser } from '../../src/read/strict-yaml.js';
import { coverageStatement, decision, deployKey, record } from '../support/corpus.js';
import { DRAWN_CALL, deployKeyRun, recordAt } from '../support/evidence.js';
import { prodKeysPolicy } from '../support/policies.js';

beforeAll(loadYamlParser);

const at = (s: string) => {
  const t = parseRfc3339(s);
  if (!t.ok) throw new Error(t.reason);
  return t.value;
};
const NOW = at('2026-12-01T12:00:00Z');
const REPOS = ['a', 'prod-b'];
const keyOn = (repo: string, provider: string | null) => deployKey({ owner: 'org', provider, repo, title: 'k' });

const arbDecision = fc.record({
  repo: fc.constantFrom(...REPOS),
  ...DRAWN_CALL,
  hour: fc.option(fc.integer({ min: 0, max: 40 }), { nil: null }),
});
type Drawn = typeof arbDecision extends fc.Arbitrary<infer T> ? T : never;

const arbCase = fc.record({
  runs: fc.array(fc.array(arbDecision, { maxLength: 5 }), { minLength: 1, maxLength: 4 }),
  // Runs committed twice (a replay: the same decisions, the same times).
  copies: fc.array(fc.nat(3), { maxLength: 2 }),
  records: fc.array(
    fc.record({ repo: fc.constantFrom(...REPOS), verb: fc.constantFrom('create', 'delete'), id: fc.constantFrom('1', '2', '3', '4') }),
    { maxLength: 6 },
  ),
  exceptions: fc.array(fc.record({ run: fc.nat(3), i: fc.nat(4), expired: fc.boolean() }), { maxLength: 3 }),
  covered: fc.boolean(),
});

/**
 * The digest of the 400 reports by afc0edb's verify() (computed with that commit's src/core), re-pinned
 * when a later read whose time is not after the write's stopped confirming it (§5, a red team): with
 * that check off, the reports are afc0edb's again (9a59dbe5…). Re-pinned once more when a read with
 * no time stopped confirming a write with one (a red team): with that check off, a7f3a736… again.
 * And once more when a write with no time was bounded by the run's latest time before it (a red
 * team): with that bound off, 13dbd587… again.
 */
const PINNED = 'd56962bddf8d2ba7f1e6287356cafe45286f4e86561bf7a9311dc3c7c8ca3a82';

const hour = (h: number) => at(`2026-11-${29 + Math.floor(h / 24)}T${String(h % 24).padStart(2, '0')}:00:00Z`);

const runOf = (ds: readonly Drawn[], artifact: string): RunInput =>
  deployKeyRun(
    artifact,
    ds.map((d) => ({
      verb: d.verb,
      target: keyOn(d.repo, d.provider),
      asserted: d.asserted,
      claim: d.claim,
      status: d.status,
      time: d.hour === null ? null : hour(d.hour),
    })),
  );

type Case = typeof arbCase extends fc.Arbitrary<infer T> ? T : never;

function build(c: Case): { evidence: Evidence; options: Parameters<typeof verify>[1] } {
  const runs = c.runs.map((ds, i) => runOf(ds, `runs/${i}.json`));
  c.copies.forEach((k, j) => {
    const ds = c.runs[k];
    if (ds) runs.push(runOf(ds, `runs/copy-${j}.json`));
  });
  const records = c.records.map((r, i) =>
    recordAt(
      record('github', r.id, decision({ tool: 't', verb: r.verb, resourceType: 'github_deploy_key', target: keyOn(r.repo, null) })),
      i + 1,
    ),
  );
  const statements: StatementInput[] = [];
  if (c.covered) {
    const s = checkStatement(coverageStatement('2026-11-29', '2026-11-30', { actors: ['bot'] }) as never);
    if (!s.ok) throw new Error(s.reason);
    statements.push({ loc: { file: 'audit/s.json', line: 1, column: 1 }, statement: s.value, signer: null, trust: { kind: 'unchecked' } });
  }
  const policy = prodKeysPolicy(
    NOW,
    'default: observed_confirmed\n',
    runs,
    c.exceptions.map((e) => ({ run: e.run, i: e.i, expires: e.expired ? '2026-11-01' : '2027-06-01' })),
  );
  return {
    evidence: { runs, records, statements, findings: [] },
    options: { allowUnmatchedRecords: false, strictObserved: false, now: NOW, policy },
  };
}

describe('judging a file on its own (design/threads-that-judge.md, stop 1)', () => {
  it('a copy of each file to judge (what would cross to a thread) judges to the same lines as verify(), and its use of the policy adds up to the same findings', () => {
    fc.assert(
      fc.property(arbCase, (c) => {
        const { evidence, options } = build(c);
        const report = verify(evidence, options);
        const allocation = allocateAll(evidence, options);
        const copied = allocation.files.map((f) => judgeFile(structuredClone(f), allocation.judging));
        expect(JSON.stringify(copied.map((j) => j.run))).toBe(JSON.stringify(report.runs));
        expect(JSON.stringify(copied.flatMap((j) => j.calls))).toBe(JSON.stringify(report.calls));
        // What the files used of the policy, merged in path order, says what the whole verification says.
        const usage = allocation.judging.requirements.usage();
        for (const j of copied) usage.merge(j.usage);
        const said = allocation.judging.requirements.findings(usage, (rule) => ({ code: 'rule_unused', rule: rule.name }) as never);
        const codes = report.findings.filter((f) => f.code.startsWith('exception_')).map((f) => `${f.code} ${f.message}`);
        expect(said.filter((f) => f.code.startsWith('exception_')).map((f) => `${f.code} ${f.message}`)).toEqual(codes);
      }),
      { numRuns: 300 },
    );
  });

  it('the reports of 400 generated corpora are, byte for byte, those of the build before the seam (afc0edb: one verify() over every call)', () => {
    // Both paths cannot stay side by side, so the old one's reports are pinned by digest; a change
    // that means to alter a report re-pins it (and says why in its commit).
    const hash = createHash('sha256');
    for (const c of fc.sample(arbCase, { seed: 44, numRuns: 400 })) {
      const { evidence, options } = build(c);
      hash.update(JSON.stringify(verify(evidence, options)));
    }
    expect(hash.digest('hex')).toBe(PINNED);
  });

  it('an expired exception names the first call it would have excused across files, and counts the rest, however the files were judged', () => {
    const { evidence, options } = build({
      runs: [
        [{ repo: 'prod-b', verb: 'create', provider: null, asserted: true, claim: 'asserted', status: 'success', hour: null }],
        [{ repo: 'prod-b', verb: 'create', provider: null, asserted: true, claim: 'asserted', status: 'success', hour: null }],
      ],
      copies: [],
      records: [],
      exceptions: [{ run: 0, i: 0, expired: true }],
      covered: false,
    });
    const allocation = allocateAll(evidence, options);
    const [a, b] = allocation.files.map((f) => judgeFile(f, allocation.judging));
    const usage = allocation.judging.requirements.usage();
    usage.merge((a as FileJudgement).usage);
    usage.merge((b as FileJudgement).usage);
    const expired = allocation.judging.requirements
      .findings(usage, () => {
        throw new Error('no rule is unused');
      })
      .find((f) => f.code === 'exception_expired');
    expect(expired?.message).toContain('(runs/0.json decision 0 and 1 more call(s))');
    expect(verify(evidence, options).findings.find((f) => f.code === 'exception_expired')?.message).toBe(expired?.message);
  });

  it('one exception object at two places of a policy is merged once per file, as one verify() over every call counted it (a red team: counted twice more)', () => {
    const { evidence, options } = build({
      runs: [[{ repo: 'prod-b', verb: 'create', provider: null, asserted: true, claim: 'asserted', status: 'success', hour: null }]],
      copies: [],
      records: [],
      exceptions: [{ run: 0, i: 0, expired: true }],
      covered: false,
    });
    const policy = options.policy;
    const [e] = policy?.exceptions ?? [];
    if (!policy || !e) throw new Error('the case has one exception');
    const twice = { ...options, policy: { ...policy, exceptions: [e, e] } };
    const expired = verify(evidence, twice).findings.filter((f) => f.code === 'exception_expired');
    // afc0edb's count: its per-binding list held the object twice, so one call lapsed it twice.
    expect(expired.map((f) => /\((.*)\)/.exec(f.message.split('expired on')[1] ?? '')?.[1])).toEqual([
      'runs/0.json decision 0 and 1 more call(s)',
      'runs/0.json decision 0 and 1 more call(s)',
    ]);
  });

  it('a file handed outcomes that are not its calls’ is refused, never judged: too few, or calls of another run', () => {
    const { evidence, options } = build({
      runs: [
        [{ repo: 'a', verb: 'create', provider: null, asserted: true, claim: 'asserted', status: 'success', hour: null }],
        [{ repo: 'a', verb: 'create', provider: null, asserted: true, claim: 'asserted', status: 'success', hour: null }],
      ],
      copies: [],
      records: [],
      exceptions: [],
      covered: false,
    });
    const { files, judging } = allocateAll(evidence, options);
    const [a, b] = files as [NonNullable<(typeof files)[0]>, NonNullable<(typeof files)[0]>];
    expect(() => judgeFile({ ...a, outcomes: [] }, judging)).toThrow(/no element at 0 of 0/);
    expect(() => judgeFile({ ...a, outcomes: [...a.outcomes, ...b.outcomes] }, judging)).toThrow(
      /2 outcome\(s\) for the 1 call\(s\) of runs\/0.json/,
    );
    expect(() => judgeFile({ ...a, calls: b.calls }, judging)).toThrow(/call 1 is not of runs\/0.json/);
  });
});
