// node bench/cache.mjs [--calls 100000] [--pairs 5] [--jobs auto] [--dist dist] [--signed] [--clean-pr] [--among] [--waiting]
// What a pull request costs with the evidence cache (docs/cache.md): the default branch's history
// (the deterministic corpus, seed 42) has been verified once with --cache (the entries are kept
// aside); a pull request adds one run of 200 calls and the export with its records. Three runs,
// interleaved round by round (the order rotating), each pull request run starting from the default
// branch's entries (copied back, untimed):
//   full   the pull request's files, every byte read (no cache)
//   pr     the same files with the default branch's entries (--cache): only the new files read
//   cold   the same files with an empty cache folder (what the default branch pays to store)
//   floor  bench/pr-floor.mjs: read and sha256 every input on the gate's threads, write the full
//          run's report bytes and sha256 them; the least a pull request's run pays while it reads
//          every input and writes the same report (design/incremental-verification.md)
// Prints medians and minimums, pr / full, cold / full and floor / full, and fails unless the three reports are
// the same bytes and the pull request run read exactly the two new files. `--signed`: every record
// signed, its key trusted (the history's signatures are checked once, by the default branch).
// The default branch's run also keeps a verification snapshot (gate/incremental.ts), and the pull
// request's run merges onto it when it can; what it did is printed. `--clean-pr`: the pull request's
// export records every call (a pull request that passes: none of its records is unmatched), and the
// pull request run must have merged. `--among`: the pull request's run and export are named to sort
// right after the history's middle run and middle export (a folder per agent or per provider), not
// after every kept file. `--waiting` (records that wait for their run, docs/policy.md §12; implies
// --clean-pr): the pull request's run is in the default branch's history already, its calls pending,
// and the pull request adds only the export that records them.
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from './corpus.mjs';
import { median, timedNode } from './timing.mjs';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '100000' },
    pairs: { type: 'string', default: '5' },
    jobs: { type: 'string', default: 'auto' },
    dist: { type: 'string', default: path.join(root, 'dist') },
    signed: { type: 'boolean', default: false },
    'clean-pr': { type: 'boolean', default: false },
    among: { type: 'boolean', default: false },
    waiting: { type: 'boolean', default: false },
  },
});
const clean = values['clean-pr'] || values.waiting;
const tmp = mkdtempSync(path.join(tmpdir(), 'receipt-gate-cache-'));
const corpus = path.join(tmp, 'corpus');
const c = generate(corpus, Number(values.calls), 42, { signed: values.signed });
const cli = path.join(values.dist, 'cli.js');
const NOW = '2026-12-01T12:00:00Z';
const args = (out, cache) => [
  cli,
  'verify',
  '--now',
  NOW,
  '-C',
  corpus,
  '--runs',
  'runs',
  '--audit',
  'audit',
  '--format',
  'json',
  '--output',
  out,
  '--jobs',
  values.jobs,
  ...(cache ? ['--cache', cache] : []),
  ...(c.trustedKey ? ['--trusted-key', c.trustedKey] : []),
];

// The pull request: one run of 200 calls and the export with its records, new work: its calls are
// numbered after the history's, so their targets and record ids are ones the history does not hold
// (a call's target and record id follow from its number; the seed only draws the claims).
const pr = generate(path.join(tmp, 'pr'), 200, 7, { signed: values.signed, first: Number(values.calls), recorded: clean });
const [run] = readdirSync(pr.runs).filter((f) => f.endsWith('.json'));
const audits = readdirSync(pr.audit);
if (!run || audits.length !== 1) throw new Error(`the pull request corpus: ${run} and ${audits.length} exports`);
// After every kept file, or (--among) right after the middle one of its folder.
const before = (dir) => {
  if (!values.among) return 'zz-';
  const names = readdirSync(dir).sort();
  return `${(names[names.length >> 1] ?? '').replace(/\.[a-z]+$/, '')}x-`;
};
const addRun = () =>
  cpSync(path.join(pr.runs, run), path.join(corpus, 'runs', `${before(path.join(corpus, 'runs'))}pull-request-run.json`));
// --waiting: the run merged before, and verified on the default branch with the history.
if (values.waiting) addRun();

// The default branch: verified once, its entries kept.
const branch = path.join(tmp, 'branch-cache');
const warm = timedNode(args(path.join(tmp, 'warm.json'), branch), root);
if (warm.status !== 1) throw new Error(`the warm-up exited ${warm.status}: ${warm.stderr}`);

if (!values.waiting) addRun();
cpSync(path.join(pr.audit, audits[0]), path.join(corpus, 'audit', `${before(path.join(corpus, 'audit'))}pull-request-${audits[0]}`));
// What the pull request adds: its run and export, or (--waiting) its export alone.
const added = values.waiting ? 1 : 2;
const history = c.files + 2 - added;

// Every input of the pull request's corpus, for the floor's check that it read them all.
const inputs = { files: 0, bytes: 0 };
for (const dir of ['runs', 'audit'])
  for (const f of readdirSync(path.join(corpus, dir))) {
    inputs.files++;
    inputs.bytes += statSync(path.join(corpus, dir, f)).size;
  }

const pairs = Number(values.pairs);
const modes = ['full', 'pr', 'cold', 'floor'];
const times = new Map(modes.map((m) => [m, []]));
const digests = new Map();
let said = '';
for (let i = 0; i < pairs; i++) {
  for (let k = 0; k < modes.length; k++) {
    const mode = modes[(i + k) % modes.length];
    const work = path.join(tmp, 'work-cache');
    rmSync(work, { recursive: true, force: true });
    if (mode === 'pr') cpSync(branch, work, { recursive: true });
    const out = path.join(tmp, `${mode}.json`);
    if (mode === 'floor') {
      // Round 0 starts with the full run, so its report is there to copy.
      const full = path.join(tmp, 'full.json');
      const f = timedNode([path.join(root, 'bench/pr-floor.mjs'), path.join(corpus, 'runs'), path.join(corpus, 'audit'), full, out], root);
      if (f.status !== 0) throw new Error(`the floor failed: ${f.stderr}`);
      const [files, bytes] = f.stdout.trim().split(' ').map(Number);
      if (files !== inputs.files || bytes !== inputs.bytes)
        throw new Error(`the floor hashed ${files} file(s), ${bytes} bytes, not ${inputs.files} and ${inputs.bytes}`);
      times.get(mode).push(f.ms);
      continue;
    }
    const r = timedNode(args(out, mode === 'full' ? null : work), root);
    if (r.status !== 1) throw new Error(`${mode} exited ${r.status}: ${r.stderr}`);
    if (mode === 'pr' && !r.stderr.includes(`${history} of ${c.files + 2} file(s) from the cache; ${added} read and stored`))
      throw new Error(`the pull request run did not read exactly its ${added} file(s): ${r.stderr}`);
    if (mode === 'pr') said = /incremental: (.*)/.exec(r.stderr)?.[1] ?? '(nothing said)';
    if (mode === 'pr' && clean && !said.includes('merged onto the snapshot'))
      throw new Error(`the clean pull request did not merge: ${said}`);
    times.get(mode).push(r.ms);
    digests.set(mode, createHash('sha256').update(readFileSync(out)).digest('hex'));
  }
}
if (new Set(digests.values()).size !== 1) throw new Error(`the reports differ: ${JSON.stringify([...digests])}`);
const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;
const med = (m) => median(times.get(m));
const min = (m) => Math.min(...times.get(m));
console.log(
  `evidence cache, ${c.calls} calls in ${c.files} files${values.signed ? ' (every record signed, its key trusted)' : ''} + a pull request of 200 calls (${values.waiting ? 'its run in the history, its calls pending; the pull request adds their export' : '2 files'}${clean ? ', every call recorded' : ''}), --jobs ${values.jobs}, ${pairs} rounds`,
);
for (const m of modes) console.log(`  ${m.padEnd(5)} median ${fmt(med(m))}, min ${fmt(min(m))}`);
console.log(
  `  pr / full ${(med('pr') / med('full')).toFixed(3)} (minimums ${(min('pr') / min('full')).toFixed(3)}); cold / full ${(med('cold') / med('full')).toFixed(3)} (minimums ${(min('cold') / min('full')).toFixed(3)}); floor / full ${(med('floor') / med('full')).toFixed(3)} (minimums ${(min('floor') / min('full')).toFixed(3)})`,
);
console.log(`  reports byte-identical: sha256 ${[...digests.values()][0]}`);
console.log(`  the pull request run: ${said}`);
writeFileSync(path.join(tmp, 'done'), '');
rmSync(tmp, { recursive: true, force: true });
