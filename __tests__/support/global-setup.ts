/**
 * Before any test: the end-to-end tests run dist/ as a real process, so dist/ must have been built
 * from the sources under test. Compares the digest the build recorded with the sources' digest now.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
// @ts-expect-error a plain .mjs build script, no types
import { buildInputsDigest } from '../../scripts/build-inputs.mjs';

export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  const recorded = path.join(root, 'dist/build-inputs.sha256');
  const now = buildInputsDigest(root) as string;
  const built = existsSync(recorded) ? readFileSync(recorded, 'utf8').trim() : '(no dist/build-inputs.sha256)';
  if (built !== now) {
    throw new Error(
      `dist/ is stale: it was built from other sources (${built}, the sources are ${now}). Run \`npm run build\` first; the end-to-end tests run dist/.`,
    );
  }
}
