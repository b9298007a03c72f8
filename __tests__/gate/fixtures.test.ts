import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleCorpus, demoCorpus, failingCorpus, signedCorpus, signedFailingCorpus } from '../support/corpus.js';
import { ROOT, writeFiles } from '../support/workspace.js';

const corpora = {
  'fixtures/demo': demoCorpus,
  'fixtures/demo-failing': failingCorpus,
  'fixtures/bundles': bundleCorpus,
  'fixtures/demo-signed': signedCorpus,
  'fixtures/demo-signed-failing': signedFailingCorpus,
};

describe('committed demo corpora are reproducible from the builders', () => {
  for (const [dir, build] of Object.entries(corpora)) {
    it(dir, () => {
      const files = build();
      if (process.env['UPDATE_FIXTURES'] === '1') writeFiles(path.join(ROOT, dir), files);
      for (const [rel, data] of files) {
        const p = path.join(ROOT, dir, rel);
        expect(existsSync(p), `${dir}/${rel} is committed`).toBe(true);
        expect(Buffer.compare(readFileSync(p), Buffer.from(data)), `${dir}/${rel} matches its builder`).toBe(0);
      }
    });
  }
});
