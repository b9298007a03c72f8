// The action's cold start against a minimal action bundled the same way (ncc) that imports
// @actions/core and @actions/github and sets one output: 31 interleaved pairs on a one-call corpus,
// no token; the median of the pairs' ratios (the VM drifts by more than the margin within a run).
// Target (issue 44): ≤ 0.9×. `node bench/cold-start.mjs`, or from bench/bench.mjs.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ncc from '@vercel/ncc';
import { median } from './timing.mjs';

const root = path.resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(path.join(tmpdir(), 'receipt-gate-bench-cold-'));
const fmt = (ms) => `${ms.toFixed(0)} ms`;
try {
  const one = path.join(tmp, 'one');
  mkdirSync(path.join(one, '.assay/runs'), { recursive: true });
  copyFileSync(path.join(root, 'fixtures/upstream/side_effect/asserted.json'), path.join(one, '.assay/runs/asserted.json'));
  const env = { ...process.env, GITHUB_WORKSPACE: one, RUNNER_TEMP: tmp, GITHUB_OUTPUT: path.join(tmp, 'out'), 'INPUT_GITHUB-TOKEN': '' };
  writeFileSync(env.GITHUB_OUTPUT, '');
  const minimal = path.join(tmp, 'minimal');
  mkdirSync(minimal, { recursive: true });
  const src = path.join(root, 'bench', '.minimal-action.mjs');
  writeFileSync(
    src,
    "import * as core from '@actions/core';\nimport * as github from '@actions/github';\ncore.setOutput('result', github.context.eventName ? 'pass' : 'pass');\n",
  );
  try {
    const { code, assets } = await ncc(src, { quiet: true, minify: false, target: 'es2022' });
    writeFileSync(path.join(minimal, 'index.mjs'), code);
    for (const [file, asset] of Object.entries(assets ?? {})) writeFileSync(path.join(minimal, file), asset.source);
  } finally {
    rmSync(src, { force: true });
  }
  const once = (args) => {
    const t0 = process.hrtime.bigint();
    spawnSync(process.execPath, args, { cwd: one, env, encoding: 'utf8' });
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  const ours = [];
  const theirs = [];
  // Which goes first alternates, so neither always starts on the other's warm cache.
  for (let i = 0; i < 31; i++) {
    const pair = [() => theirs.push(once([path.join(minimal, 'index.mjs')])), () => ours.push(once([path.join(root, 'dist/index.js')]))];
    if (i % 2 === 1) pair.reverse();
    for (const run of pair) run();
  }
  console.log(
    `cold start, the action vs a minimal @actions/core + @actions/github action (31 interleaved pairs): medians ${fmt(median(ours))} vs ${fmt(median(theirs))}, median of the pairs' ratios ${median(ours.map((o, i) => o / theirs[i])).toFixed(2)}× (target ≤ 0.9×)`,
  );
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
