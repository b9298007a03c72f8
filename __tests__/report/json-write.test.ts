/**
 * The JSON report written to a file (report/json-report.ts `writeJson`): the same bytes as the report
 * rendered whole, whatever the lines hold and wherever the pieces and buffers end (many buffers' worth,
 * a line longer than a buffer, characters of two, three and four bytes), with the digest of exactly
 * the bytes written; in place (a FIFO) in order.
 */

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallReport, Report } from '../../src/core/report.js';
import { renderJson, writeJson, writeJsonOnly } from '../../src/report/json-report.js';
import { cleanup, gate, ROOT, tempDir } from '../support/workspace.js';

afterEach(cleanup);

const sha256 = (bytes: Buffer | string): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** The demo's report with its calls repeated `times` times, the reason of call k replaced by `reason(k)`. */
async function inflated(times: number, reason: (k: number) => string): Promise<Report> {
  const report = await gate(path.join(ROOT, 'fixtures/demo'));
  const calls: CallReport[] = [];
  for (let t = 0; t < times; t++) for (const c of report.calls) calls.push({ ...c, index: calls.length, reason: reason(calls.length) });
  return { ...report, calls };
}

async function written(report: Report): Promise<{ bytes: Buffer; digest: string }> {
  const file = path.join(tempDir(), 'out', 'report.json');
  const digest = await writeJson(report, file);
  return { bytes: readFileSync(file), digest };
}

describe('the JSON report written to a file', () => {
  it('is the rendered report, byte for byte, across many buffers, with the digest of its bytes', async () => {
    // ~6 MB of lines: several buffers of the ring, each reused.
    const report = await inflated(4000, (k) => `reason ${k} é ✓ 😀 ##[error] ${'x'.repeat(k % 700)}`);
    const { bytes, digest } = await written(report);
    const whole = renderJson(report);
    expect(bytes.length).toBeGreaterThan(5 * 2 ** 20);
    expect(bytes.equals(Buffer.from(whole, 'utf8'))).toBe(true);
    expect(digest).toBe(sha256(bytes));
    // `##[` is never written as such, even where pieces end.
    expect(bytes.includes('##[')).toBe(false);
  });

  it('a line longer than a buffer, and lines of wide characters around it, are written whole and in order', async () => {
    const long = (k: number): string => (k === 7 ? '😀'.repeat(700_000) : k === 8 ? 'ы'.repeat(400_000) : `short ${k}`);
    const report = await inflated(3, long);
    const { bytes, digest } = await written(report);
    expect(bytes.equals(Buffer.from(renderJson(report), 'utf8'))).toBe(true);
    expect(digest).toBe(sha256(bytes));
  });

  it('any reasons, any lengths: the same bytes as rendered whole (property)', async () => {
    const base = await gate(path.join(ROOT, 'fixtures/demo'));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: 'binary', maxLength: 40_000 }), { minLength: 1, maxLength: 120 }), async (reasons) => {
        const calls = reasons.map((reason, index) => ({ ...(base.calls[index % base.calls.length] as CallReport), index, reason }));
        const report = { ...base, calls };
        const { bytes, digest } = await written(report);
        expect(bytes.equals(Buffer.from(renderJson(report), 'utf8'))).toBe(true);
        expect(digest).toBe(sha256(bytes));
      }),
      { numRuns: 25 },
    );
  });

  it.skipIf(process.platform === 'win32')('in place (a FIFO): every buffer in order', async () => {
    const report = await inflated(3000, (k) => `in place ${k} ${'é'.repeat(k % 300)}`);
    const fifo = path.join(tempDir(), 'report.fifo');
    await new Promise<void>((resolve, reject) => {
      const p = spawn('mkfifo', [fifo]);
      p.on('error', reject);
      p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`mkfifo exited ${code}`))));
    });
    const chunks: Buffer[] = [];
    const reading = new Promise<void>((resolve, reject) => {
      const s = createReadStream(fifo);
      s.on('data', (c) => chunks.push(c as Buffer));
      s.on('end', resolve);
      s.on('error', reject);
    });
    await writeJsonOnly(report, fifo);
    await reading;
    expect(Buffer.concat(chunks).equals(Buffer.from(renderJson(report), 'utf8'))).toBe(true);
  });
});
