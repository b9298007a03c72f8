/**
 * Generated histories split in two (core/incremental.ts): a kept side and files added after it, before
 * it or among its files, coupled in every way the design lists (design/incremental-verification.md,
 * stops 2 and 3), for the
 * merge's property (__tests__/core/incremental.test.ts) and the snapshot's (__tests__/gate/snapshot.test.ts).
 */
import fc from 'fast-check';
import { binding } from '../../src/core/binding.js';
import type { Finding } from '../../src/core/findings.js';
import { type Merged, mergeAdded, type Part, partOf, waiting } from '../../src/core/incremental.js';
import type { Evidence, RecordInput, RunInput, StatementInput, VerifyOptions } from '../../src/core/model.js';
import type { EarlierCalls } from '../../src/core/nearest.js';
import { type Instant, parseRfc3339 } from '../../src/core/time.js';
import { checkStatement } from '../../src/read/coverage-statement.js';
import { coverageStatement, decision, deployKey, record } from './corpus.js';
import { DRAWN_CALL, deployKeyRun } from './evidence.js';
import { prodKeysPolicy } from './policies.js';

const at = (s: string): Instant => {
  const t = parseRfc3339(s);
  if (!t.ok) throw new Error(t.reason);
  return t.value;
};
export const NOW = at('2026-12-01T12:00:00Z');
const minutesFrom = (base: Instant, minutes: number): Instant => ({ seconds: base.seconds + minutes * 60, fraction: base.fraction });
/** Hours from 2026-11-29T00:00Z: the verification time is hour 60; past 60 a call may be from the future. */
const hour = (h: number): Instant => minutesFrom(at('2026-11-29T00:00:00Z'), h * 60);

const KEPT_REPOS = ['a', 'prod-b', 'c', 'prod-d'];
const OTHER_REPOS = ['x', 'prod-y', 'z', 'prod-w'];
const OWNERS = ['org', 'other'];
const TITLES = ['k', 'j'];
/** A deploy key's target: its bound fields (owner, repo, title) each drawn, so a record's nearest call is nearer or farther. */
const keyOn = (repo: string, provider: string | null, owner = 0, title = 0) =>
  deployKey({ owner: OWNERS[owner] ?? 'org', provider, repo, title: TITLES[title] ?? 'k' });

const arbDecision = fc.record({
  repo: fc.nat(3),
  owner: fc.nat(1),
  title: fc.nat(1),
  ...DRAWN_CALL,
  // Mostly before the verification time, now and then from the future (past its 5 minutes' grace).
  hour: fc.option(
    fc.oneof({ weight: 30, arbitrary: fc.integer({ min: 0, max: 59 }) }, { weight: 1, arbitrary: fc.integer({ min: 60, max: 64 }) }),
    {
      nil: null,
    },
  ),
});
type Drawn = typeof arbDecision extends fc.Arbitrary<infer T> ? T : never;

const arbRecord = fc.record({
  // Mostly the subject of a decision of its side (the k-th, in run order), so it binds; else drawn.
  of: fc.option(fc.nat(11), { nil: null, freq: 3 }),
  repo: fc.nat(3),
  owner: fc.nat(1),
  title: fc.nat(1),
  verb: fc.constantFrom('create', 'delete', 'get'),
  id: fc.constantFrom('1', '2', '3', '4'),
  provider: fc.constantFrom('github', 'gitlab'),
  signed: fc.boolean(),
  tampered: fc.constantFrom(false, false, false, true),
});
type DrawnRecord = typeof arbRecord extends fc.Arbitrary<infer T> ? T : never;

const arbSide = fc.record({
  runs: fc.array(fc.array(arbDecision, { maxLength: 4 }), { maxLength: 3 }),
  records: fc.array(arbRecord, { maxLength: 4 }),
});

export const arbCase = fc.record({
  kept: arbSide,
  added: arbSide,
  // The couplings: the added side's subjects and record ids drawn from the kept side's, a replay of a kept run.
  sameSubjects: fc.constantFrom(false, false, false, true),
  sameIds: fc.constantFrom(false, false, false, true),
  // The added export holds records of the kept calls' subjects (their run was committed before their export).
  crossRecords: fc.constantFrom(false, false, false, true),
  // Records that waited for their run: the added ones hold subjects of the last kept run's calls only, the kept ones of the other runs'.
  waits: fc.constantFrom(false, false, false, true),
  replay: fc.constantFrom(null, null, null, null, null, null, 0, 1, 2),
  // Where the added files sort: after the kept ones, among them (between two kept runs, between two kept exports), before them.
  place: fc.constantFrom('after', 'after', 'after', 'after', 'among', 'among', 'among', 'before'),
  covered: fc.constantFrom(false, false, false, false, false, false, false, false, false, false, false, true),
  // A reader's finding on each side: none, the side's own, or the same finding on both.
  read: fc.constantFrom('none', 'own', 'own', 'own', 'own', 'same'),
  // The readers' findings in either order (the core takes them as given).
  readsFirst: fc.boolean(),
  exceptions: fc.array(
    fc.record({
      run: fc.nat(5),
      i: fc.nat(3),
      expires: fc.constantFrom('2026-11-01', '2026-12-01', '2026-12-02', '2026-12-04', '2026-12-12', '2027-06-01'),
    }),
    { maxLength: 3 },
  ),
  // A kept prod key created and only asserted, excused by an exception that expires within the days drawn below.
  excused: fc.constantFrom(null, null, null, null, null, null, '2026-12-02', '2026-12-04'),
  // The policy file read at a commit, another one for the added files (a pull request reads it at its base; the kept run was made at another).
  commits: fc.constantFrom(false, false, true),
  // The added files are verified this many minutes after the kept ones (before, sometimes).
  later: fc.oneof(
    { weight: 1, arbitrary: fc.integer({ min: -2 * 24 * 60, max: -1 }) },
    { weight: 8, arbitrary: fc.integer({ min: 0, max: 6 * 24 * 60 }) },
  ),
});
export type Case = typeof arbCase extends fc.Arbitrary<infer T> ? T : never;

const runOf = (ds: readonly Drawn[], artifact: string, repos: readonly string[]): RunInput =>
  deployKeyRun(
    artifact,
    ds.map((d) => ({
      verb: d.verb,
      target: keyOn(repos[d.repo] ?? 'a', d.provider, d.owner, d.title),
      asserted: d.asserted,
      claim: d.claim,
      status: d.status,
      time: d.hour === null ? null : hour(d.hour),
    })),
  );

function recordOf(
  r: DrawnRecord,
  file: string,
  line: number,
  repos: readonly string[],
  ids: string,
  side: readonly Drawn[][],
): RecordInput {
  const ds = side.flat();
  const d = r.of === null ? undefined : ds[r.of % Math.max(1, ds.length)];
  const made = record(
    d?.provider ?? r.provider,
    `${ids}${r.id}`,
    decision({
      tool: 't',
      verb: d?.verb ?? r.verb,
      resourceType: 'github_deploy_key',
      target: keyOn(repos[d?.repo ?? r.repo] ?? 'a', null, d?.owner ?? r.owner, d?.title ?? r.title),
    }),
    r.tampered ? { editTarget: { title: 'changed' } } : {},
  );
  return {
    loc: { file, line, column: 1 },
    record: made as never,
    recomputed: binding(made['subject']),
    signer: r.signed ? 'k1' : null,
    trust: { kind: 'unchecked' },
  };
}

/** A reader's finding at a file's first line, of a bundle member (what the findings' order does not compare). */
export const readFinding = (file: string, member: string): Finding => ({
  code: 'invalid_artifact',
  severity: 'error',
  file,
  line: 1,
  column: 1,
  member,
  message: `${file}: a reader's finding`,
});

export interface Built {
  readonly kept: Evidence;
  readonly added: Evidence;
  readonly full: Evidence;
  readonly before: VerifyOptions;
  readonly after: VerifyOptions;
}

/** A prod deploy key created and only asserted (what an exception excuses, and a call the core's tests place). */
export const PROD_CREATE: Drawn = {
  repo: 1,
  owner: 0,
  title: 0,
  verb: 'create',
  provider: null,
  asserted: true,
  claim: 'asserted',
  status: 'success',
  hour: 10,
};

export function build(drawn: Case): Built {
  const c: Case =
    drawn.excused === null
      ? drawn
      : {
          ...drawn,
          kept: { ...drawn.kept, runs: [[PROD_CREATE, ...(drawn.kept.runs[0] ?? [])], ...drawn.kept.runs.slice(1)] },
          exceptions: [...drawn.exceptions, { run: 0, i: 0, expires: drawn.excused }],
        };
  // Kept runs a-0, a-1, a-2; added ones b-i (after), 0-i (before), or a-<k>x<i> (right after kept run k: "a-0." < "a-0x" < "a-1").
  const runName = (i: number | string): string =>
    c.place === 'after'
      ? `runs/b-${i}.json`
      : c.place === 'before'
        ? `runs/0-${i}.json`
        : `runs/a-${typeof i === 'number' ? i % 3 : 0}x${i}.json`;
  // Kept records in audit/a.json and audit/a2.json; added ones in audit/b.json (after), audit/0.json (before), audit/a1.json (among).
  const auditName = c.place === 'after' ? 'audit/b.json' : c.place === 'before' ? 'audit/0.json' : 'audit/a1.json';
  const keptRuns = c.kept.runs.map((ds, i) => runOf(ds, `runs/a-${i}.json`, KEPT_REPOS));
  const addedRepos = c.sameSubjects ? KEPT_REPOS : OTHER_REPOS;
  const addedRuns = c.added.runs.map((ds, i) => runOf(ds, runName(i), addedRepos));
  const copied = c.replay === null ? undefined : c.kept.runs[c.replay];
  if (copied) addedRuns.push(runOf(copied, runName('copy'), KEPT_REPOS));
  const waits = c.waits && c.kept.runs.length > 1;
  const keptRecords = c.kept.records.map((r, i) =>
    recordOf(r, i % 2 === 0 ? 'audit/a.json' : 'audit/a2.json', i + 1, KEPT_REPOS, '', waits ? c.kept.runs.slice(0, -1) : c.kept.runs),
  );
  const addedRecords = c.added.records.map((r, i) =>
    c.crossRecords || waits
      ? recordOf(r, auditName, i + 1, KEPT_REPOS, c.sameIds ? '' : 'n', waits ? c.kept.runs.slice(-1) : c.kept.runs)
      : recordOf(r, auditName, i + 1, addedRepos, c.sameIds ? '' : 'n', c.added.runs),
  );
  const statements: StatementInput[] = [];
  if (c.covered) {
    const s = checkStatement(coverageStatement('2026-11-29', '2026-11-30', { actors: ['bot'] }) as never);
    if (!s.ok) throw new Error(s.reason);
    statements.push({
      loc: { file: auditName, line: 99, column: 1 },
      statement: s.value,
      signer: null,
      trust: { kind: 'unchecked' },
    });
  }
  // 'same': one place and words on both sides, another bundle member (what the findings' order does not compare).
  const keptRead = c.read === 'none' ? [] : [readFinding('runs/a-0.json', 'kept')];
  const addedRead = c.read === 'none' ? [] : [readFinding(c.read === 'same' ? 'runs/a-0.json' : runName(0), 'added')];
  const all = [...keptRuns, ...addedRuns];
  const policyAt = (now: Instant, commit: string | null) =>
    prodKeysPolicy(
      now,
      'default: observed_confirmed\n',
      all,
      c.exceptions.map((e) => ({ run: e.run, i: e.i, expires: e.expires })),
      commit,
    );
  const later = minutesFrom(NOW, c.later);
  // One policy for both times (what the snapshot's key asks: the same rules and exceptions), read at one commit or at two.
  const policy = policyAt(NOW, c.commits ? 'a'.repeat(40) : null);
  const policyNow = c.commits ? policyAt(NOW, 'b'.repeat(40)) : policy;
  return {
    kept: { runs: keptRuns, records: keptRecords, statements: [], findings: keptRead },
    added: { runs: addedRuns, records: addedRecords, statements, findings: addedRead },
    full: {
      runs: all,
      records: [...keptRecords, ...addedRecords],
      statements,
      findings: c.readsFirst ? [...addedRead, ...keptRead] : [...keptRead, ...addedRead],
    },
    before: { allowUnmatchedRecords: false, strictObserved: false, now: NOW, policy },
    after: { allowUnmatchedRecords: false, strictObserved: false, now: later, policy: policyNow },
  };
}

/**
 * The gate's merge of a case's added side onto a kept part (gate/incremental.ts): the added side
 * verified with the kept calls before it (`diagnosed`; null: drawn otherwise), and when its records bind
 * kept calls (records that waited for their run: core/incremental.ts `waiting`), those kept runs
 * verified again with it, and alone (the share subtracted).
 */
export function mergeBuilt(kept: Part, b: Built, diagnosed: EarlierCalls | null = kept.couplings.earlier): Merged {
  const earlier = diagnosed ?? undefined;
  const overlap = waiting(kept, b.added.records);
  if (typeof overlap === 'string') return { kind: 'declined', reason: overlap };
  if (overlap === null) {
    const added = partOf(b.added, b.after, earlier).part;
    if (!added) throw new Error('a verification with a time keeps a part');
    return mergeAdded(kept, added, b.after, b.full);
  }
  const files = overlap.files;
  const t: Evidence = {
    runs: b.kept.runs.filter((r) => files.has(r.artifact)),
    records: [],
    statements: [],
    findings: b.kept.findings.filter((f) => f.file !== null && files.has(f.file)),
  };
  const withThem = partOf(
    {
      runs: [...t.runs, ...b.added.runs],
      records: b.added.records,
      statements: b.added.statements ?? [],
      findings: [...t.findings, ...b.added.findings],
    },
    b.after,
    earlier,
  ).part;
  const alone = partOf(t, b.after).part;
  if (!withThem || !alone) throw new Error('a verification with a time keeps a part');
  return mergeAdded(kept, withThem, b.after, b.full, { ...overlap, alone });
}
