// node bench/coverage.mjs [--calls 100000] [--pairs 7] [--jobs auto] [--dist dist] [--recorded]
// The cost of export coverage (docs/coverage.md): one corpus whose runs are evidence events spread
// over the 365 days of 2026, judged with its records only, and with its records and a coverage
// statement per night for the year for each of its three providers (3 × 365 statements), pairs
// interleaved (the order alternating) with the parse floor between them. Every timed call is looked
// up. By default a third of the calls have no record and become effect_not_logged, so the second
// run also reports those findings (their cost is in this number too); with `--recorded` every call
// has its record, and the difference is reading the statements and the lookups alone.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
    recorded: { type: 'boolean', default: false },
  },
});
const tmp = mkdtempSync(path.join(tmpdir(), 'receipt-gate-coverage-'));
const corpus = path.join(tmp, 'corpus');
const c = generate(corpus, Number(values.calls), 42, { timed: true, recorded: values.recorded });
const coverage = path.join(corpus, 'coverage');
mkdirSync(coverage);
const ACTIONS = { github: ['github_deploy_key:create'], slack: ['workspace_member:add'], workspace: ['workspace_role:grant'] };
for (const [provider, actions] of Object.entries(ACTIONS)) {
  const lines = [];
  for (let d = 0; d < 365; d++) {
    const day = (n) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString().replace('.000Z', 'Z');
    lines.push(
      JSON.stringify({
        schema: 'receipt-gate.audit_coverage.v1',
        provider,
        export: 'bench',
        actors: ['agent'],
        repos: null,
        owner: null,
        actions,
        since: day(d),
        until: day(d + 1),
        entries_read: 0,
        records: 0,
      }),
    );
  }
  writeFileSync(path.join(coverage, `${provider}.ndjson`), `${lines.join('\n')}\n`);
}
const cli = path.join(values.dist, 'cli.js');
const gateArgs = (withCoverage) => [
  cli,
  'verify',
  '-C',
  corpus,
  '--runs',
  'runs',
  '--audit',
  'audit',
  ...(withCoverage ? ['--audit', 'coverage'] : []),
  '--format',
  'json',
  '--jobs',
  values.jobs,
  '--now',
  '2027-01-02T00:00:00Z',
];
const timed = (argv) => {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { encoding: 'utf8', maxBuffer: 1 << 29 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`exit ${r.status}: ${r.stderr.slice(0, 2000)}`);
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, stdout: r.stdout };
};
const covered = JSON.parse(timed(gateArgs(true)).stdout);
const statements = covered.coverage.length;
if (statements !== 3 * 365) throw new Error(`the gate read ${statements} statements, not ${3 * 365}`);
const inScope = covered.calls.filter((call) => call.coverage !== null).length;

const t = { floor: [], none: [], coverage: [] };
const floorArgs = [path.join(root, 'bench/floor.mjs'), c.runs, c.audit];
for (let i = 0; i < Number(values.pairs); i++) {
  t.floor.push(timed(floorArgs).ms);
  const order = i % 2 === 0 ? ['none', 'coverage'] : ['coverage', 'none'];
  for (const k of order) t[k].push(timed(gateArgs(k === 'coverage')).ms);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
console.log(
  `${c.calls.toLocaleString('en')} timed calls over 365 days, ${c.records.toLocaleString('en')} records; ${statements} coverage statements (365 per provider): ${inScope.toLocaleString('en')} calls covered, ${covered.totals.effect_not_logged.toLocaleString('en')} effect_not_logged; --jobs ${values.jobs}, ${values.pairs} interleaved pairs`,
);
for (const k of ['floor', 'none', 'coverage']) console.log(`  ${k.padEnd(8)} median ${fmt(median(t[k]))}, min ${fmt(Math.min(...t[k]))}`);
console.log(
  `  coverage / none ${(median(t.coverage) / median(t.none)).toFixed(3)} (medians), ${(Math.min(...t.coverage) / Math.min(...t.none)).toFixed(3)} (minimums)`,
);
if (process.env['BENCH_KEEP']) console.log(`  kept: ${tmp}`);
else rmSync(tmp, { recursive: true, force: true });
