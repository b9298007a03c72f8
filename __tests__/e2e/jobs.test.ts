/**
 * Reading on every core, through the bundled CLI as a real process: the report is byte-identical
 * whatever the number of reading threads, a reading thread that dies fails closed naming each file
 * it could not read, and a wrong --jobs is a usage error.
 */
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs benchmark module, no types
import { generate } from '../../bench/corpus.mjs';
import type { Report } from '../../src/core/report.js';
import { WORKER_THRESHOLD_BYTES } from '../../src/gate/readers.js';
import { cleanup, distFile, ROOT, spawnCli, tempDir } from '../support/workspace.js';

afterEach(cleanup);

const sha = (p: string): string => createHash('sha256').update(readFileSync(p)).digest('hex');

describe('--jobs', () => {
  it('the report of a 20 MB corpus is byte-identical with 1, 2, 3 threads and auto', () => {
    const dir = tempDir();
    const c = generate(path.join(dir, 'corpus'), 10_000) as { bytes: number; calls: number };
    // Under the threshold: auto reads on the main thread, 2 and 3 on workers as asked.
    expect(c.bytes).toBeLessThan(WORKER_THRESHOLD_BYTES);
    const digests = new Map<string, string>();
    for (const jobs of ['1', '2', '3', 'auto']) {
      const out = path.join(dir, `report-${jobs}.json`);
      const r = spawnCli(
        ['verify', '-C', path.join(dir, 'corpus'), '--runs', 'runs', '--audit', 'audit', '--output', out, '--jobs', jobs],
        dir,
      );
      // The corpus holds mismatched records on purpose: the gate fails, and says so the same way each time.
      expect(r.code, r.stderr).toBe(1);
      digests.set(jobs, sha(out));
    }
    expect(new Set(digests.values()).size).toBe(1);
    const report = JSON.parse(readFileSync(path.join(dir, 'report-2.json'), 'utf8')) as Report;
    expect(report.totals.calls).toBe(c.calls);
    expect(report.findings.filter((f) => f.code === 'invalid_artifact')).toEqual([]);
  });

  it('signed records checked against a trusted key, and the byte limits: the same report on 1 and 2 threads', () => {
    const dir = tempDir();
    const c = generate(path.join(dir, 'corpus'), 2_000, 7, { signed: true }) as { trustedKey: string; files: number };
    const run = (jobs: string, extra: readonly string[]): string => {
      const out = path.join(dir, `r-${jobs}-${extra.length}.json`);
      const r = spawnCli(
        ['verify', '-C', path.join(dir, 'corpus'), '--runs', 'runs', '--audit', 'audit', '--output', out, '--jobs', jobs, ...extra],
        dir,
      );
      expect(r.code, r.stderr).toBe(1);
      return readFileSync(out, 'utf8');
    };
    const key = ['--trusted-key', c.trustedKey];
    const signed = run('1', key);
    expect(run('2', key)).toBe(signed);
    const report = JSON.parse(signed) as Report;
    expect(report.records.length).toBeGreaterThan(1000);
    expect(report.records.every((r) => r.signer !== null && r.untrusted === null)).toBe(true);
    // A limit every run file breaks: each is the same located error on a worker as on the main thread.
    const limited = ['--max-file-size', '20KiB'];
    const one = run('1', limited);
    expect(run('2', limited)).toBe(one);
    const tooLarge = (JSON.parse(one) as Report).findings.filter((f) => f.code === 'invalid_artifact' && /max-file-size/.test(f.message));
    expect(tooLarge.length).toBe(c.files);
  });

  it('a reading thread that dies: every file it could not read is an error naming it, never a skipped file', () => {
    const dir = tempDir();
    // A copy of dist/ whose reading thread starts, then dies on its first file.
    cpSync(path.dirname(distFile('read-worker.js')), path.join(dir, 'dist'), { recursive: true });
    writeFileSync(
      path.join(dir, 'dist/read-worker.js'),
      "import { parentPort } from 'node:worker_threads';\nparentPort.postMessage({ ready: true });\nparentPort.on('message', () => process.exit(9));\n",
    );
    const cli = path.join(dir, 'dist/cli.js');
    const demo = path.join(ROOT, 'fixtures/demo');
    const run = (jobs: string): { code: number | null; report: Report } => {
      const out = path.join(dir, `r-${jobs}.json`);
      const r = spawnCli(['verify', '-C', demo, '--output', out, '--jobs', jobs], dir, {}, cli);
      return { code: r.code, report: JSON.parse(readFileSync(out, 'utf8')) as Report };
    };
    const threads = run('2');
    expect(threads.code).toBe(1);
    expect(threads.report.ok).toBe(false);
    // The worker is given the largest file first and dies on it; the main thread reads files too, so
    // which others fail depends on timing, but every file is either read or an error naming it.
    const failed = threads.report.findings.filter((f) => f.code === 'invalid_artifact');
    expect(failed.map((f) => f.file)).toContain('.assay/runs/2026-11-03-rotate-deploy-keys.json');
    for (const f of failed) expect(f.message).toMatch(/^the thread reading this file stopped \(.*code 9\); it is not verified$/);
    const all = [
      '.assay/audit/github/2026-11.json',
      '.assay/audit/slack/2026-11.ndjson',
      '.assay/runs/2026-11-03-rotate-deploy-keys.json',
      '.assay/runs/2026-11-12-onboarding.ndjson',
      '.assay/runs/2026-11-20-release.tar.gz',
    ];
    const read = new Set([...threads.report.runs.map((r) => r.artifact), ...threads.report.records.map((r) => r.file)]);
    for (const file of all) expect(read.has(file) !== failed.some((f) => f.file === file), file).toBe(true);
    // One thread reads on the main thread: the same copy passes.
    const inline = run('1');
    expect(inline.code).toBe(0);
    expect(inline.report.totals.calls).toBe(9);
  });

  it.each([['0'], ['-1'], ['two'], ['257'], ['']])('--jobs %j is a usage error', (jobs) => {
    const r = spawnCli(['verify', '-C', path.join(ROOT, 'fixtures/demo'), `--jobs=${jobs}`], ROOT);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--jobs: "${jobs}" is not a number of threads from 1 to 256, or auto`);
  });
});
