// Lint: biome (lint + format + import order), then the house rules: dependency-cruiser (no cycle
// between files, type imports included; no import from a lower floor to a higher one:
// .dependency-cruiser.cjs, ARCHITECTURE.md) and knip (no unused file, export or dependency).
// The tools run on a Node that satisfies engines (scripts/node-runtimes.mjs).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { runtimes } from './node-runtimes.mjs';

const root = path.resolve(import.meta.dirname, '..');
const found = runtimes();
if (found.length === 0) {
  console.log('lint: no Node that satisfies engines (>=22) is present: install Node 22 or 24');
  process.exit(1);
}
const node = found[found.length - 1].node;
const bin = (p) => path.join(root, 'node_modules', p);
const steps = [
  [
    'biome check (lint + format + imports)',
    [bin('@biomejs/biome/bin/biome'), 'check', '.'],
    'run `npm run format`, or fix what it reports',
  ],
  [
    'dependency-cruiser (cycles and floors)',
    [bin('dependency-cruiser/bin/dependency-cruiser.mjs'), 'src', '--output-type', 'err'],
    'see ARCHITECTURE.md: floors and cycles',
  ],
  ['knip (unused files, exports, dependencies)', [bin('knip/bin/knip.js'), '--no-progress'], 'remove what is unused, or un-export it'],
];
for (const [name, args, hint] of steps) {
  console.log(`=== ${name} ===`);
  if (spawnSync(node, args, { cwd: root, stdio: 'inherit' }).status !== 0) {
    console.log(`lint failed at ${name}: ${hint}`);
    process.exit(1);
  }
}
