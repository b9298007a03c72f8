/**
 * Fuzzing the readers and the whole pipeline. In the normal suite: a seed-fixed run of a few hundred
 * cases per property. `npm run fuzz` runs FUZZ_RUNS (100 000) cases per property with random seeds,
 * and the timing properties of `resources.fuzz.ts`.
 */

import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.js';
import { parseStrict } from '../../src/read/json/strict.js';
import { demoCorpus } from '../support/corpus.js';
import { arbByteOps, arbStructOp, assertNoNewVerified, type Corpus, mutateBytes, mutateStructure, verifyCorpus } from '../support/fuzz.js';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 400);
const seeded = process.env['FUZZ_RUNS'] ? {} : { seed: 20261129 };
const params = { numRuns: RUNS, ...seeded };

let corpus: Corpus;
let names: string[];
let original: Report;
beforeAll(async () => {
  corpus = new Map([...demoCorpus().entries()].map(([k, v]) => [k, Buffer.from(v)]));
  names = [...corpus.keys()].sort();
  original = await verifyCorpus(corpus);
  expect(original.ok).toBe(true);
  expect(original.totals.verified).toBe(4);
});

const withFile = (i: number, bytes: Buffer): Corpus => new Map([...corpus, [names[i % names.length]!, bytes]]);

describe('fuzzing the pipeline on the demo corpus', () => {
  it('byte mutations of any file (bundles included): no crash, no new verified', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), arbByteOps, async (i, ops) => {
        const rel = names[i % names.length]!;
        const mutated = await verifyCorpus(withFile(i, mutateBytes(corpus.get(rel)!, ops)));
        assertNoNewVerified(original, mutated);
      }),
      params,
    );
  });

  it('structure mutations of runs, events and records (bundles re-hashed, so still valid): no crash, no new verified', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.nat(), arbStructOp, async (i, doc, op) => {
        const rel = names[i % names.length]!;
        const mutated = await verifyCorpus(withFile(i, mutateStructure(rel, corpus.get(rel)!, doc, op)));
        assertNoNewVerified(original, mutated);
      }),
      params,
    );
  });

  it('the strict parser never throws and never accepts what JSON.parse rejects', () => {
    const json = JSON.stringify(JSON.parse(corpus.get(names.find((n) => n.endsWith('.json'))!)!.toString()));
    fc.assert(
      fc.property(arbByteOps, (ops) => {
        const text = mutateBytes(Buffer.from(json), ops).toString('latin1');
        const r = parseStrict(text, { maxDepth: 64 });
        let ok = true;
        try {
          JSON.parse(text);
        } catch {
          ok = false;
        }
        if (!ok) expect(r.ok).toBe(false);
      }),
      params,
    );
  });
});
