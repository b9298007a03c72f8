// node bench/ab.mjs --before <dist dir> [--after dist] [--calls 100000 [--signed] | --log 100000 | --keyless 1000]
//                   [--jobs auto] [--pairs 9] [--ignore member,member]
// Two builds of the gate, interleaved on one input, with the floor between each pair: on a noisy
// machine only pairs taken side by side say whether a change helped. `--before` is a dist/ of an
// earlier commit, e.g. `mkdir /tmp/before && git archive <rev> dist | tar -x -C /tmp/before` and
// `--before /tmp/before/dist`. Prints medians and minimums, the ratio after / before, each side's CPU
// time (every thread, user + system) and minor page faults (bench/timing.mjs), and fails when
// the two builds write different reports (`--ignore`: JSON members a change added, dropped from both
// before comparing). `--signed`: every record signed, its key trusted; `--keyless N`: N server logs,
// each with a .sigstore.json from mock Sigstore services, checked by a trusted producer identity.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import ncc from '@vercel/ncc';
import { generate } from './corpus.mjs';
import { serverLog } from './shapes.mjs';
import { median, timedNode } from './timing.mjs';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string', default: path.join(root, 'dist') },
    calls: { type: 'string', default: '100000' },
    log: { type: 'string' },
    signed: { type: 'boolean', default: false },
    keyless: { type: 'string' },
    ignore: { type: 'string', default: '' },
    jobs: { type: 'string', default: 'auto' },
    pairs: { type: 'string', default: '9' },
  },
});
if (!values.before) throw new Error('--before <dist dir> is required (a dist/ of the commit to compare with)');
const pairs = Number(values.pairs);
const tmp = mkdtempSync(path.join(tmpdir(), 'receipt-gate-ab-'));

// The input, and the floor for it (the same floors as bench.mjs).
let args;
let floorArgs;
let label;
if (values.log) {
  const lines = Number(values.log);
  const decisions = serverLog(tmp, lines);
  const file = path.join(tmp, 'runs/server.log');
  args = ['verify', '--now', '2026-12-01T12:00:00Z', '-C', tmp, '--runs', 'runs', '--format', 'json', '--jobs', values.jobs];
  const check = `if (n !== ${decisions}) throw new Error('the floor parsed ' + n + ' decisions')`;
  floorArgs = [
    '-e',
    `import(${JSON.stringify(path.join(root, 'bench/shapes.mjs'))}).then((m) => { const n = m.serverLogFloor(require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8')); ${check} })`,
  ];
  label = `a server log of ${lines.toLocaleString('en')} lines (${decisions.toLocaleString('en')} decisions)`;
} else if (values.keyless) {
  const n = Number(values.keyless);
  const dir = path.join(tmp, 'keyless');
  const { code } = await ncc(path.join(root, '__tests__/support/sigstore.ts'), { quiet: true, minify: false });
  mkdirSync(path.join(dir, 'runs'), { recursive: true });
  writeFileSync(path.join(tmp, 'sigstore-mock.mjs'), code);
  const { mockSigstore, statementFor } = await import(path.join(tmp, 'sigstore-mock.mjs'));
  const world = await mockSigstore();
  serverLog(path.join(tmp, 'gen'), 20);
  const text = readFileSync(path.join(tmp, 'gen/runs/server.log'), 'utf8');
  const RUN_V1 = 'https://github.com/receipt-gate/receipt-gate/blob/main/docs/predicates/run-v1.md';
  for (let i = 0; i < n; i++) {
    const name = `run-${String(i).padStart(5, '0')}.log`;
    const bytes = Buffer.from(text.replace('10:02:41.90731102Z', `10:02:41.${String(i).padStart(8, '0')}Z`));
    writeFileSync(path.join(dir, 'runs', name), bytes);
    writeFileSync(
      path.join(dir, 'runs', `${name}.sigstore.json`),
      JSON.stringify(await world.attest(statementFor(name, bytes, RUN_V1, {}))),
    );
  }
  writeFileSync(path.join(dir, 'root.json'), JSON.stringify(world.trustedRoot));
  args = ['verify', '--now', '2026-12-01T12:00:00Z', '-C', dir, '--runs', 'runs', '--format', 'json', '--jobs', values.jobs];
  args.push('--trusted-producer-identity', 'https://github.com/acme/agents/.github/workflows/export.yml@refs/heads/main');
  args.push('--source-repository', 'acme/agents', '--trusted-root', 'root.json');
  const check = `if (n < 1) throw new Error('the floor parsed nothing')`;
  floorArgs = [
    '-e',
    `import(${JSON.stringify(path.join(root, 'bench/shapes.mjs'))}).then((m) => { const fs = require('node:fs'); let n = 0; for (const f of fs.readdirSync(${JSON.stringify(path.join(dir, 'runs'))})) if (f.endsWith('.log')) n += m.serverLogFloor(fs.readFileSync(${JSON.stringify(path.join(dir, 'runs'))} + '/' + f, 'utf8')); ${check} })`,
  ];
  label = `${n.toLocaleString('en')} server logs, each with a Sigstore bundle checked by a trusted producer identity`;
} else {
  const c = generate(path.join(tmp, 'corpus'), Number(values.calls), 42, { signed: values.signed });
  args = [
    'verify',
    '--now',
    '2026-12-01T12:00:00Z',
    '-C',
    path.join(tmp, 'corpus'),
    '--runs',
    'runs',
    '--audit',
    'audit',
    '--format',
    'json',
    '--jobs',
    values.jobs,
  ];
  if (values.signed) args.push('--trusted-key', c.trustedKey);
  floorArgs = [path.join(root, 'bench/floor.mjs'), c.runs, c.audit];
  label = `${c.calls.toLocaleString('en')} calls, ${c.records.toLocaleString('en')} records${values.signed ? ', each signed, its key trusted' : ''} (${(c.bytes / 2 ** 20).toFixed(0)} MiB)`;
}

const timed = (argv) => timedNode(argv, process.cwd());
const run = (dist, out) => {
  const r = timed([path.join(dist, 'cli.js'), ...args, '--output', out]);
  if (r.status !== 0 && r.status !== 1) throw new Error(`${dist} exited ${r.status}: ${r.stderr}`);
  return r;
};
const ignored = new Set(values.ignore.split(',').filter(Boolean));
/** The report's digest, without the members a change added (`--ignore`). */
const sha = (p) => {
  const text = readFileSync(p, 'utf8');
  const kept = ignored.size === 0 ? text : JSON.stringify(JSON.parse(text, (k, v) => (ignored.has(k) ? undefined : v)));
  return createHash('sha256').update(kept).digest('hex');
};

const t = { before: [], after: [], floor: [] };
for (let i = 0; i < pairs; i++) {
  const f = timed(floorArgs);
  if (f.status !== 0) throw new Error(`the floor failed: ${f.stderr}`);
  t.floor.push(f);
  // Alternate which build goes first, so neither always runs on a warmer cache.
  const order = i % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
  for (const k of order) t[k].push(run(values[k], path.join(tmp, `${k}.json`)));
}
if (sha(path.join(tmp, 'before.json')) !== sha(path.join(tmp, 'after.json'))) throw new Error('the two builds wrote different reports');

const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
/** The median of one measure over a side's runs. */
const mid = (k, measure) => median(t[k].map((r) => r[measure]));
console.log(
  `${label}, --jobs ${values.jobs}, ${pairs} interleaved pairs (reports identical: sha256 ${sha(path.join(tmp, 'after.json')).slice(0, 16)}…)`,
);
for (const k of ['floor', 'before', 'after'])
  console.log(
    `  ${k.padEnd(6)} median ${fmt(mid(k, 'ms'))}, min ${fmt(Math.min(...t[k].map((r) => r.ms)))}${k === 'floor' ? '' : ` | ${(mid(k, 'ms') / mid('floor', 'ms')).toFixed(2)}× the floor`}; CPU ${fmt(mid(k, 'cpu'))} (system ${fmt(mid(k, 'sys'))}), ${Math.round(mid(k, 'faults')).toLocaleString('en')} page faults`,
  );
const ratio = (measure) => (mid('after', measure) / mid('before', measure)).toFixed(3);
console.log(`  after / before ${ratio('ms')} (medians); CPU ${ratio('cpu')}, page faults ${ratio('faults')}`);
rmSync(tmp, { recursive: true, force: true });
