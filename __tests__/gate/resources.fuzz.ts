/**
 * Timing properties: not in the default suite (a time bound fails under load, and a suite that fails
 * for the machine's load is run less). `npm run fuzz` runs them with the fuzz properties.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verify } from '../../src/core/verify.js';
import { readArtifact } from '../../src/read/files.js';
import { DEFAULT_LIMITS } from '../../src/read/limits.js';
import { renderJson } from '../../src/report/json-report.js';
import { addKey, deployKey, record, surface } from '../support/corpus.js';
import { uncheckedRecords } from '../support/evidence.js';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 400);
const seeded = process.env['FUZZ_RUNS'] ? {} : { seed: 20261129 };

/**
 * The resource target: grow an input along one axis (lines with or without escapes, decisions per
 * surface, calls and records per subject, id lengths) and check that the report and the time stay
 * within a constant factor of a linear baseline (size 10n against n). Time bounds are generous
 * (noise); a quadratic path would be ~100×. The precise ratios are in `npm run bench`.
 */
describe('resources grow linearly', () => {
  const RESOURCE_RUNS = Math.max(4, Math.min(RUNS, 40) / 5);
  const d = (i: number, withEscape: boolean) => ({
    tool: { name: withEscape ? `github.add\\u005fdeploy_key_${i}` : `github.add_deploy_key_${i}` },
    action: {
      resource_type: 'github_deploy_key',
      verb: 'create',
      target: { owner: 'o', repo: `r${i % 97}`, key_title_hash: `sha256:${'a'.repeat(64)}` },
    },
    response: { side_effect_asserted: true },
  });
  const shapes = {
    lines: (n: number, withEscape: boolean) => ({
      runs: new Map([
        [
          'runs/log.ndjson',
          Array.from({ length: n }, (_, i) =>
            JSON.stringify(surface([d(i, false)])).replace(
              '"github.add_deploy_key_',
              withEscape ? '"github.add\\u005fdeploy_key_' : '"github.add_deploy_key_',
            ),
          ).join('\n'),
        ],
      ]),
      audit: [],
    }),
    decisions: (n: number, withEscape: boolean) => ({
      runs: new Map([['runs/one.json', JSON.stringify(surface(Array.from({ length: n }, (_, i) => d(i, withEscape))))]]),
      audit: [],
    }),
    subject: (n: number) => ({
      runs: new Map([['runs/same.json', JSON.stringify(surface(Array.from({ length: n }, () => addKey())))]]),
      audit: Array.from({ length: Math.ceil(n / 2) }, (_, i) => record('github', `r${i}`, addKey())),
    }),
    ids: (n: number) => ({
      runs: new Map([['runs/x.json', JSON.stringify(surface([addKey()]))]]),
      audit: Array.from({ length: 20 }, (_, i) =>
        record(`p${'x'.repeat(n * 50)}`, `${i}-${'y'.repeat(n * 50)}`, addKey({ target: deployKey({ repo: `o${i}` }) })),
      ),
    }),
  } as const;

  async function measure(shape: keyof typeof shapes, n: number, withEscape: boolean): Promise<{ ms: number; bytes: number }> {
    const input = shapes[shape](n, withEscape);
    const t0 = performance.now();
    const runs = [];
    for (const [name, text] of input.runs) runs.push((await readArtifact(name, 'runs', Buffer.from(text), DEFAULT_LIMITS)).run!);
    const audit = await readArtifact('audit/a.json', 'audit', Buffer.from(JSON.stringify(input.audit)), DEFAULT_LIMITS);
    const report = verify(
      { runs, records: uncheckedRecords(audit.entries), findings: [] },
      { allowUnmatchedRecords: true, strictObserved: false },
    );
    const bytes = renderJson(report).length;
    return { ms: performance.now() - t0, bytes };
  }

  it('10× the input costs at most ~10× the output and a constant factor of the time', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...(Object.keys(shapes) as (keyof typeof shapes)[])),
        fc.integer({ min: 1500, max: 3000 }),
        fc.boolean(),
        async (shape, n, withEscape) => {
          await measure(shape, n, withEscape); // warm up
          const small = await measure(shape, n, withEscape);
          const large = await measure(shape, n * 10, withEscape);
          expect(large.bytes, `${shape} n=${n}`).toBeLessThanOrEqual(11 * small.bytes + 4096);
          expect(large.ms, `${shape} n=${n}`).toBeLessThan(25 * small.ms + 250);
        },
      ),
      { numRuns: RESOURCE_RUNS, ...seeded },
    );
  }, 300_000);
});
