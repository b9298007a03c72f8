/**
 * What users see, committed: the rendered outputs of every demo corpus (table, job summary with its
 * banner, SARIF, annotations, JSON report) under __tests__/__outputs__/, compared byte for byte, so a reviewer sees
 * every change to them in the diff. UPDATE_OUTPUTS=1 rewrites them.
 */

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPolicy, readTrustedKeys } from '../../src/gate/settings/parsers.js';
import type { Settings } from '../../src/gate/settings/types.js';
import { buildAnnotations } from '../../src/report/annotations.js';
import { renderJson } from '../../src/report/json-report.js';
import { renderSarif } from '../../src/report/sarif.js';
import { renderSummary, SUMMARY_BUDGET } from '../../src/report/summary.js';
import { renderTable } from '../../src/report/table.js';
import { VERSION } from '../../src/version.js';
import { SIGNED_DEMO_POLICY } from '../support/corpus.js';
import { gate, ROOT } from '../support/workspace.js';

const OUT = path.join(ROOT, '__tests__/__outputs__');
const BLOB = `https://github.com/receipt-gate/receipt-gate/blob/${'0'.repeat(40)}`;

const signedDemo = (dir: string): Partial<Settings> => ({
  policy: readPolicy('require', SIGNED_DEMO_POLICY),
  trustedKeys: readTrustedKeys([{ name: 'trusted-keys', pem: readFileSync(path.join(ROOT, dir, 'trusted-signer.pub.pem'), 'utf8') }]),
});

/** Every demo: the plain pair, the signed pair (with their policy and signer), and the bundle fixtures. */
const DEMOS: readonly { readonly name: string; readonly dir: string; readonly over: () => Partial<Settings> }[] = [
  { name: 'demo', dir: 'fixtures/demo', over: () => ({}) },
  { name: 'demo-failing', dir: 'fixtures/demo-failing', over: () => ({}) },
  { name: 'demo-signed', dir: 'fixtures/demo-signed', over: () => signedDemo('fixtures/demo-signed') },
  { name: 'demo-signed-failing', dir: 'fixtures/demo-signed-failing', over: () => signedDemo('fixtures/demo-signed-failing') },
  {
    name: 'bundles',
    dir: 'fixtures/bundles',
    over: () => ({ runs: ['*.tar.gz'], audit: ['*.audit.json'], explicit: { runs: true, audit: true } }),
  },
];

describe('rendered outputs of the demos are the committed ones', () => {
  for (const { name: demo, dir, over } of DEMOS) {
    it(demo, async () => {
      const prefix = dir;
      const settings = over();
      const report = await gate(path.join(ROOT, prefix), settings);
      const json = renderJson(report);
      const inputs = { runs: settings.runs ?? ['.assay/runs'], audit: settings.audit ?? ['.assay/audit'] };
      const banner = { commit: '0'.repeat(40), inputs, reportDigest: `sha256:${createHash('sha256').update(json).digest('hex')}` };
      const outputs: Record<string, string> = {
        'table.txt': renderTable(report, { color: false }),
        'summary.md': renderSummary(report, { prefix, blobBase: BLOB, reportFile: 'report.json', budgetBytes: SUMMARY_BUDGET, ...banner })
          .markdown,
        'sarif.json': renderSarif(report, prefix, VERSION),
        'annotations.json': `${JSON.stringify(buildAnnotations(report, prefix), null, 2)}\n`,
        'report.json': json,
      };
      for (const [name, text] of Object.entries(outputs)) {
        const file = path.join(OUT, `${demo}.${name}`);
        if (process.env['UPDATE_OUTPUTS'] === '1') {
          mkdirSync(OUT, { recursive: true });
          writeFileSync(file, text);
        }
        expect(existsSync(file), `${demo}.${name} is committed (UPDATE_OUTPUTS=1 writes it)`).toBe(true);
        expect(text, `${demo}.${name}`).toBe(readFileSync(file, 'utf8'));
      }
    });
  }
});
