/**
 * What users see, committed: the rendered outputs of both demo corpora (table, job summary, SARIF,
 * annotations, JSON report) under __tests__/__outputs__/, compared byte for byte, so a reviewer sees
 * every change to them in the diff. UPDATE_OUTPUTS=1 rewrites them.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildAnnotations } from '../src/report/annotations.js';
import { renderSummary, SUMMARY_BUDGET } from '../src/report/summary.js';
import { renderTable } from '../src/report/table.js';
import { renderSarif } from '../src/report/sarif.js';
import { renderJson } from '../src/report/json.js';
import { VERSION } from '../src/action-main.js';
import { gate, ROOT } from './support/workspace.js';

const OUT = path.join(ROOT, '__tests__/__outputs__');
const BLOB = `https://github.com/receipt-gate/receipt-gate/blob/${'0'.repeat(40)}`;

describe('rendered outputs of the demos are the committed ones', () => {
  for (const demo of ['demo', 'demo-failing']) {
    it(demo, async () => {
      const prefix = `fixtures/${demo}`;
      const report = await gate(path.join(ROOT, prefix));
      const outputs: Record<string, string> = {
        'table.txt': renderTable(report, { color: false }),
        'summary.md': renderSummary(report, { prefix, blobBase: BLOB, reportFile: 'report.json', budgetBytes: SUMMARY_BUDGET }).markdown,
        'sarif.json': renderSarif(report, prefix, VERSION),
        'annotations.json': `${JSON.stringify(buildAnnotations(report, prefix), null, 2)}\n`,
        'report.json': renderJson(report),
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
