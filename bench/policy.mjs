// node bench/policy.mjs [--calls 100000] [--pairs 7] [--jobs auto] [--dist dist] [--shape rolled-out|strict]
// The cost of a policy file (docs/policy.md): the same corpus judged with no policy and under a
// policy of 20 rules with target globs and hashed raw-value lists, and 500 exceptions each excusing
// a call that falls short, interleaved pair by pair (the order alternating), with the parse floor
// between pairs. Prints medians, minimums and the ratio policy / none. The two reports differ by
// design (rules, exceptions), so they are not compared; the policy run must except 500 calls.
// `--shape rolled-out` (default): a policy a team lives with: four rules require `verified`, the
// rest `asserted`; about 700 calls fall short, 500 of them excepted. `--shape strict`: the rules
// require every rung in turn and a quarter warn: about 10 000 calls fall short, so the policy run
// also reports 10 000 more findings than the run without (what that costs is in this number too).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from './corpus.mjs';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '100000' },
    pairs: { type: 'string', default: '7' },
    jobs: { type: 'string', default: 'auto' },
    dist: { type: 'string', default: path.join(root, 'dist') },
    shape: { type: 'string', default: 'rolled-out' },
  },
});
const tmp = mkdtempSync(path.join(tmpdir(), 'receipt-gate-policy-'));
const corpus = path.join(tmp, 'corpus');
const c = generate(corpus, Number(values.calls), 42);
const cli = path.join(values.dist, 'cli.js');
const NOW = '2026-12-01T12:00:00Z';

// Twenty rules: sixteen on deploy keys by owner and repo globs (most calls pass several before the
// one that matches), two on memberships by hashed workspace and channel values, two on roles.
if (values.shape !== 'rolled-out' && values.shape !== 'strict') throw new Error('--shape: rolled-out or strict');
const strict = values.shape === 'strict';
const rules = [];
for (let i = 0; i < 16; i++)
  rules.push(
    [
      `  - name: keys-${i}`,
      '    match:',
      '      class: github_deploy_key',
      '      verb: create',
      '      target:',
      `        owner: [org${i}*, org${i + 20}]`,
      `        repo: [repo-*${i % 10}, repo-${i}*]`,
      strict
        ? `    require: ${['verified', 'observed_confirmed', 'asserted'][i % 3]}`
        : `    require: ${i % 4 === 3 ? 'verified' : 'asserted'}`,
      ...(strict && i % 4 === 3 ? ['    mode: warn'] : []),
    ].join('\n'),
  );
rules.push(
  `  - name: members-a\n    match:\n      class: workspace_member\n      target:\n        workspace_id: [T1, T2, T3, T4]\n        channel_id: [C1, C2, C3, C4, C5, C6, C7, C8]\n    require: ${strict ? 'verified' : 'asserted'}`,
  `  - name: members\n    match:\n      class: workspace_member\n      target:\n        workspace_id: [T0, T5, T6, T7, T8, T9, T10, T11, T12]\n    require: ${strict ? 'observed_confirmed' : 'asserted'}`,
  `  - name: owners\n    match:\n      class: workspace_role\n      target:\n        role: owner\n    require: ${strict ? 'verified' : 'asserted'}`,
  `  - name: roles\n    match:\n      class: workspace_role\n    require: ${strict ? 'observed_confirmed' : 'asserted'}`,
);
const base = `version: 1\ndefault: asserted\nrules:\n${rules.join('\n')}\n`;
const policyFile = path.join(tmp, 'policy.yml');
writeFileSync(policyFile, base);

const gateArgs = (extra) => [
  cli,
  'verify',
  '-C',
  corpus,
  '--runs',
  'runs',
  '--audit',
  'audit',
  '--format',
  'json',
  '--jobs',
  values.jobs,
  '--now',
  NOW,
  ...extra,
];
const timed = (argv) => {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`exit ${r.status}: ${r.stderr.slice(0, 2000)}`);
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, stdout: r.stdout };
};

// 500 exceptions, each for a call that falls short of its rule (found by a first run).
const first = JSON.parse(timed(gateArgs(['--policy', policyFile])).stdout);
const RANK = { asserted: 0, observed_confirmed: 1, verified: 2 };
const short = first.calls.filter(
  (call) => call.rule !== null && call.subject_digest && call.level !== null && RANK[call.level] < RANK[call.required_level],
);
if (short.length < 500) throw new Error(`only ${short.length} calls fall short: the bench needs 500`);
const seen = new Set();
const exceptions = [];
for (const call of short) {
  if (exceptions.length === 500) break;
  if (seen.has(call.subject_digest)) continue;
  seen.add(call.subject_digest);
  exceptions.push(
    `  - binding: "${call.subject_digest}"\n    rule: ${call.rule}\n    reason: bench exception ${exceptions.length}\n    owner: "@bench"\n    expires: 2027-06-01`,
  );
}
writeFileSync(policyFile, `${base}exceptions:\n${exceptions.join('\n')}\n`);
const check = JSON.parse(timed(gateArgs(['--policy', policyFile])).stdout);
if (check.totals.excepted !== 500) throw new Error(`the policy run excepted ${check.totals.excepted} calls, not 500`);
const ruled = check.calls.filter((call) => call.rule !== null).length;
const unmet = check.totals.policy_unmet + check.totals.policy_warned;

const t = { floor: [], none: [], policy: [] };
const floorArgs = [path.join(root, 'bench/floor.mjs'), c.runs, c.audit];
for (let i = 0; i < Number(values.pairs); i++) {
  t.floor.push(timed(floorArgs).ms);
  const order = i % 2 === 0 ? ['none', 'policy'] : ['policy', 'none'];
  for (const k of order) t[k].push(timed(gateArgs(k === 'policy' ? ['--policy', policyFile] : [])).ms);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
console.log(
  `${c.calls.toLocaleString('en')} calls, ${c.records.toLocaleString('en')} records; a policy of ${rules.length} rules and ${exceptions.length} exceptions (--shape ${values.shape}: ${ruled.toLocaleString('en')} calls ruled by name, 500 excepted, ${unmet.toLocaleString('en')} short), --jobs ${values.jobs}, ${values.pairs} interleaved pairs`,
);
for (const k of ['floor', 'none', 'policy']) console.log(`  ${k.padEnd(6)} median ${fmt(median(t[k]))}, min ${fmt(Math.min(...t[k]))}`);
console.log(
  `  policy / none ${(median(t.policy) / median(t.none)).toFixed(3)} (medians), ${(Math.min(...t.policy) / Math.min(...t.none)).toFixed(3)} (minimums)`,
);
if (process.env['BENCH_KEEP']) console.log(`  kept: ${tmp}`);
else rmSync(tmp, { recursive: true, force: true });
