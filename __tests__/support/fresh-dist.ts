/**
 * The end-to-end tests run dist/ as a real process, so dist/ must have been built from the sources
 * under test: the digest the build recorded (dist/build-inputs.sha256) must be the sources' digest
 * now. Checked once per test process, on the first use of a bundle.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
// @ts-expect-error a plain .mjs build script, no types
import { buildInputsDigest } from '../../scripts/build-inputs.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
let checked = false;

/** The path of a bundle in dist/, after making sure dist/ is not stale. */
export function distFile(name: 'cli.js' | 'index.js' | 'read-worker.js'): string {
  if (!checked) {
    const recorded = path.join(ROOT, 'dist/build-inputs.sha256');
    const now = buildInputsDigest(ROOT) as string;
    const built = existsSync(recorded) ? readFileSync(recorded, 'utf8').trim() : '(no dist/build-inputs.sha256)';
    if (built !== now) {
      throw new Error(
        `dist/ is stale: it was built from other sources (${built}; the sources are ${now}). Run \`npm run build\`: the end-to-end tests run dist/.`,
      );
    }
    checked = true;
  }
  return path.join(ROOT, 'dist', name);
}
