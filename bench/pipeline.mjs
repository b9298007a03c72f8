// node bench/pipeline.mjs [--calls 100000] [--pairs 7] [--jobs auto] [--dist dist]
// The cost of issue 40's pipeline (docs/policy.md §10, §12), against the same run without it:
// - records that wait for their run: the corpus plus one export file holding a coverage statement
//   and records of 10 % as many calls that no committed run holds, judged with `pending: 0` (every
//   such record is record_unmatched) and with `pending: 30d` (each looks up its own file's statements
//   and is record_pending): the same number of findings, the lookups are the difference;
// - the break-glass read: the corpus committed with git, then what the action does when a pull
//   request adds an exception: the base tree listed once (`git ls-tree -r -l`) and every file of the
//   same size hashed as a git blob (src/gate/repository.ts, bundled here), against the gate's own run.
// Pairs interleaved, the order alternating; medians and minimums. Prints ratios.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import ncc from '@vercel/ncc';
import canonicalize from 'canonicalize';
import { generate } from './corpus.mjs';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '100000' },
    pairs: { type: 'string', default: '7' },
    jobs: { type: 'string', default: 'auto' },
    dist: { type: 'string', default: path.join(root, 'dist') },
  },
});
const N = Number(values.calls);
const tmp = mkdtempSync(path.join(tmpdir(), 'receipt-gate-pipeline-'));
const corpus = path.join(tmp, 'corpus');
const c = generate(corpus, N, 42);
const sha = (s) => createHash('sha256').update(s).digest('hex');

// One export file: its statement, then records of calls no run holds (their runs "not merged yet").
const waiting = Math.round(N / 10);
const lines = [
  JSON.stringify({
    schema: 'receipt-gate.audit_coverage.v1',
    provider: 'github',
    export: 'github-audit-log',
    actors: ['agent'],
    repos: null,
    owner: 'acme',
    actions: ['github_deploy_key:create'],
    since: '2026-11-30T00:00:00Z',
    until: '2026-12-01T00:00:00Z',
    entries_read: waiting,
    records: waiting,
  }),
];
for (let i = 0; i < waiting; i++) {
  const subject = {
    action_class: 'github_deploy_key',
    verb: 'create',
    target: { provider: 'github', owner: 'acme', repo: `waiting-${i}`, key_title_hash: `sha256:${sha(`waiting ${i}`)}` },
  };
  lines.push(
    JSON.stringify({
      schema: 'assay.provider_audit_record.v0',
      provider: 'github',
      record_id: `waiting:${i}`,
      subject,
      binding_digest: `sha256:${sha(canonicalize(subject))}`,
      non_claims: ['bench'],
    }),
  );
}
mkdirSync(path.join(corpus, 'waiting'));
writeFileSync(path.join(corpus, 'waiting/2026-11-30.ndjson'), `${lines.join('\n')}\n`);
const policy = (pending) => {
  const file = path.join(tmp, `policy-${pending}.yml`);
  writeFileSync(file, `version: 1\ndefault: asserted\npending: ${pending}\n`);
  return file;
};
const policies = { unmatched: policy('0'), waiting: policy('30d') };
const cli = path.join(values.dist, 'cli.js');
const gateArgs = (which) => [
  cli,
  'verify',
  '-C',
  corpus,
  '--runs',
  'runs',
  '--audit',
  'audit',
  '--audit',
  'waiting',
  '--policy',
  policies[which],
  '--format',
  'json',
  '--jobs',
  values.jobs,
  '--now',
  '2026-12-01T06:00:00Z',
];
const timed = (argv) => {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { encoding: 'utf8', maxBuffer: 1 << 29 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`exit ${r.status}: ${r.stderr.slice(0, 2000)}`);
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, stdout: r.stdout };
};
const check = JSON.parse(timed(gateArgs('waiting')).stdout);
if (check.totals.awaiting_run !== waiting) throw new Error(`${check.totals.awaiting_run} records wait, not ${waiting}`);

// The break-glass read, bundled from the source the action runs.
const bundled = path.join(tmp, 'repository.mjs');
const { code } = await ncc(path.join(root, 'src/gate/repository.ts'), { quiet: true, minify: false, target: 'es2022' });
writeFileSync(bundled, code);
const { identicalAtBase, treeAtCommit } = await import(bundled);
const git = (...args) => execFileSync('git', ['-C', corpus, '-c', 'user.name=b', '-c', 'user.email=b@b', ...args], { stdio: 'pipe' });
git('init', '-q');
git('add', '-A');
git('commit', '-qm', 'base');
const base = git('rev-parse', 'HEAD').toString().trim();
const breakGlass = () => {
  const t0 = process.hrtime.bigint();
  const tree = treeAtCommit(corpus, base);
  if (!tree.ok) throw new Error(tree.reason);
  const same = identicalAtBase(corpus, corpus, tree.value);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (same.size !== tree.value.size) throw new Error(`${same.size} of ${tree.value.size} files compared equal`);
  return { ms, files: same.size };
};

const t = { unmatched: [], waiting: [], breakGlass: [] };
let files = 0;
for (let i = 0; i < Number(values.pairs); i++) {
  const order = i % 2 === 0 ? ['unmatched', 'waiting'] : ['waiting', 'unmatched'];
  for (const k of order) t[k].push(timed(gateArgs(k)).ms);
  const b = breakGlass();
  t.breakGlass.push(b.ms);
  files = b.files;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
console.log(
  `${N.toLocaleString('en')} calls, ${c.records.toLocaleString('en')} records, and ${waiting.toLocaleString('en')} records whose run is not committed; --jobs ${values.jobs}, ${values.pairs} interleaved pairs`,
);
for (const k of ['unmatched', 'waiting']) console.log(`  ${k.padEnd(10)} median ${fmt(median(t[k]))}, min ${fmt(Math.min(...t[k]))}`);
console.log(
  `  records waiting (pending 30d) / unmatched (pending 0): ${(median(t.waiting) / median(t.unmatched)).toFixed(3)} (medians), ${(Math.min(...t.waiting) / Math.min(...t.unmatched)).toFixed(3)} (minimums)`,
);
console.log(
  `  break-glass read (the base tree listed once, ${files} files compared by blob id): median ${fmt(median(t.breakGlass))}; (gate + read) / gate ${((median(t.waiting) + median(t.breakGlass)) / median(t.waiting)).toFixed(3)}`,
);
if (process.env['BENCH_KEEP']) console.log(`  kept: ${tmp}`);
else rmSync(tmp, { recursive: true, force: true });
