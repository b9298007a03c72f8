// Lint (scripts/lint.mjs), then the whole test suite on every Node present that satisfies engines
// (scripts/node-runtimes.mjs): the machine's Node when it is new enough, and the registry's Node 22
// and 24 binaries (optional dependencies, installed only on Linux x64; Node 24 is the runtime GitHub
// uses for node24 actions). End-to-end tests spawn process.execPath, so each runtime also runs the
// bundled dist/.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runtimes as present } from './node-runtimes.mjs';

const root = path.resolve(import.meta.dirname, '..');
const extra = process.argv.slice(2);

if (spawnSync(process.execPath, [path.join(root, 'scripts/lint.mjs')], { cwd: root, stdio: 'inherit' }).status !== 0) process.exit(1);

const runtimes = present();
if (runtimes.length === 0) {
  console.log('no Node that satisfies engines is present: install Node 22 or 24');
  process.exit(1);
}
const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');
// Checks that do not depend on the runtime run once, on the first: actionlint on the workflows and
// recipes is the same program whatever Node starts it.
const ONCE = ['__tests__/e2e/workflows.test.ts'];
const tmp = mkdtempSync(path.join(tmpdir(), 'receipt-gate-test-'));
let passed = 0;
let failed = 0;
let skipped = 0;
let broken = false;
for (const [i, { node, version }] of runtimes.entries()) {
  const out = path.join(tmp, `results-${i}.json`);
  console.log(`\n=== tests on Node ${version} (${node}) ===`);
  const once = i === 0 ? [] : ONCE.flatMap((f) => ['--exclude', f]);
  const r = spawnSync(node, [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile=${out}`, ...once, ...extra], {
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
  console.log(`note: ran on Node ${runtimes[0].version} only (the registry's Node binaries are optional, Linux x64 only)`);
console.log(`\ntotal: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(broken || failed > 0 || passed === 0 ? 1 : 0);
