/**
 * Incremental verification through the bundled CLI as a real process (gate/incremental.ts): a
 * history verified with --cache keeps a snapshot; a pull request's run and export
 * (new work, every call recorded) added after it or among its files are verified alone, on reading threads, and merged
 * to the bytes of a run without the cache. A pull request whose records match no call merges too
 * (their nearest calls are kept ones), and declines, saying why, once the snapshot's table of its
 * calls is damaged: the same bytes as a full run either way.
 */
import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs benchmark module, no types
import { generate } from '../../bench/corpus.mjs';
import { cleanup, spawnCli, TEST_NOW, tempDir } from '../support/workspace.js';

afterEach(cleanup);

const sha = (p: string): string => createHash('sha256').update(readFileSync(p)).digest('hex');

interface Made {
  readonly files: number;
  readonly runs: string;
  readonly audit: string;
}

/**
 * A history of `calls` signed calls, and a pull request of 200 more (its run and its export, named to
 * sort after the history's, or with `among` right after its first run and its first export).
 */
function history(
  dir: string,
  calls: number,
  cleanPr: boolean,
  among = false,
): { corpus: string; addPr: () => void; addRun: () => void; addExport: () => void } {
  const corpus = path.join(dir, 'corpus');
  generate(corpus, calls, 11);
  const pr = generate(path.join(dir, 'pr'), 200, 7, { first: calls, recorded: cleanPr }) as Made;
  const [run] = readdirSync(pr.runs).filter((f) => f.endsWith('.json'));
  const [exported] = readdirSync(pr.audit);
  const [firstRun] = readdirSync(path.join(corpus, 'runs')).sort();
  const [firstExport] = readdirSync(path.join(corpus, 'audit')).sort();
  const named = (first: string | undefined, name: string) =>
    among ? `${(first ?? '').replace(/\.[a-z]+$/, '')}x-pr-${name}` : `zz-pr-${name}`;
  const addRun = () => cpSync(path.join(pr.runs, run ?? ''), path.join(corpus, 'runs', named(firstRun, 'run.json')));
  const addExport = () => cpSync(path.join(pr.audit, exported ?? ''), path.join(corpus, 'audit', named(firstExport, exported ?? '')));
  return {
    corpus,
    addPr: () => {
      addRun();
      addExport();
    },
    addRun,
    addExport,
  };
}

function verify(dir: string, h: { corpus: string }, name: string, cache: boolean): { stderr: string; sha: string } {
  const out = path.join(dir, `${name}.json`);
  const r = spawnCli(
    [
      'verify',
      '-C',
      h.corpus,
      '--now',
      TEST_NOW.toISOString(),
      '--runs',
      'runs',
      '--audit',
      'audit',
      '--format',
      'json',
      '--output',
      out,
      '--jobs',
      '2',
      ...(cache ? ['--cache', path.join(dir, 'cache')] : []),
    ],
    dir,
  );
  expect(r.code, r.stderr).toBe(1);
  return { stderr: r.stderr, sha: sha(out) };
}

describe('incremental verification, the bundled CLI', () => {
  it('a pull request that records every call merges onto the kept verification: the bytes of a run without the cache', () => {
    const dir = tempDir();
    const h = history(dir, 1_000, true);
    expect(verify(dir, h, 'branch', true).stderr).toContain('snapshot kept');
    h.addPr();
    const pr = verify(dir, h, 'pr', true);
    // Every kept file hashed and never decoded, on the reading threads too.
    const kept =
      /incremental: 2 added file\(s\) verified and merged onto the snapshot verified at .* \((\d+) file\(s\), (\d+) of them hashed and not decoded\)/.exec(
        pr.stderr,
      );
    expect(kept?.[1]).toBeDefined();
    expect(kept?.[2]).toBe(kept?.[1]);
    expect(pr.sha).toBe(verify(dir, h, 'full', false).sha);
  });

  it('a pull request whose run and export sort among the kept ones (right after the first of each) merges: the bytes of a run without the cache', () => {
    const dir = tempDir();
    const h = history(dir, 1_000, false, true);
    verify(dir, h, 'branch', true);
    h.addPr();
    const pr = verify(dir, h, 'pr', true);
    expect(pr.stderr).toContain('incremental: 2 added file(s) verified and merged onto the snapshot');
    expect(pr.sha).toBe(verify(dir, h, 'full', false).sha);
    const report = JSON.parse(readFileSync(path.join(dir, 'pr.json'), 'utf8')) as {
      runs: { artifact: string }[];
      records: { file: string }[];
    };
    // Second of the runs, and its export's records after the first export's and before the rest.
    expect(report.runs[1]?.artifact).toMatch(/x-pr-run\.json$/);
    expect(report.runs.length).toBeGreaterThan(2);
    const files = [...new Set(report.records.map((r) => r.file))];
    expect(files[1]).toMatch(/x-pr-/);
    expect(files.length).toBeGreaterThan(2);
  });

  it('records that wait for their run: the export of a kept run’s calls merges, that run read again from its entry on the reading threads; the bytes of a run without the cache', () => {
    const dir = tempDir();
    // The run merged first (among the kept ones), verified with the history on the default branch; its export comes by a pull request.
    const h = history(dir, 1_000, true, true);
    h.addRun();
    verify(dir, h, 'branch', true);
    h.addExport();
    const pr = verify(dir, h, 'pr', true);
    // The export read; every kept file hashed, never decoded (the run taken out is decoded from its entry by the second collection).
    expect(pr.stderr).toMatch(/cache .*: (\d+) of \d+ file\(s\) from the cache; 1 read and stored/);
    expect(pr.stderr).toMatch(/\((\d+) file\(s\), \1 of them hashed and not decoded\)/);
    expect(pr.stderr).toContain(
      'incremental: 1 added file(s) verified, with 1 kept run(s) whose calls they bind verified again and merged onto the snapshot',
    );
    expect(pr.sha).toBe(verify(dir, h, 'full', false).sha);
    const report = JSON.parse(readFileSync(path.join(dir, 'pr.json'), 'utf8')) as { calls: { artifact: string; level: string }[] };
    const waited = report.calls.filter((c) => /x-pr-run\.json$/.test(c.artifact));
    expect(waited).toHaveLength(200);
    expect(waited.every((c) => c.level === 'verified')).toBe(true);
  });

  it('a pull request with records that match no call merges: their nearest calls, kept ones, found in the snapshot’s table; with that table damaged, a full run; the same bytes either way', () => {
    const dir = tempDir();
    const h = history(dir, 1_000, false);
    verify(dir, h, 'branch', true);
    h.addPr();
    const pr = verify(dir, h, 'pr', true);
    expect(pr.stderr).toContain('incremental: 2 added file(s) verified and merged onto the snapshot');
    const full = verify(dir, h, 'full', false);
    expect(pr.sha).toBe(full.sha);
    const report = JSON.parse(readFileSync(path.join(dir, 'pr.json'), 'utf8')) as { findings: { code: string; message: string }[] };
    expect(report.findings.some((f) => f.code === 'record_unmatched' && /nearest is runs\/(?!zz-)/.test(f.message))).toBe(true);
    // A byte of every kind's index changed (the blocks follow the header line and the digest sections): a doubt, and the merge declines.
    const cache = path.join(dir, 'cache');
    const [name] = readdirSync(cache).filter((f) => f.startsWith('snapshot-'));
    const file = path.join(cache, name ?? '');
    const bytes = readFileSync(file);
    const headerEnd = bytes.indexOf(10, 65);
    const header = JSON.parse(bytes.toString('latin1', 65, headerEnd)) as {
      digests: Record<string, [number, number, string]>;
      kinds: [string, string, number, number, number][];
    };
    let at = headerEnd + 1 + Object.values(header.digests).reduce((n, d) => n + d[1], 0);
    for (const [, , , length] of header.kinds) {
      bytes[at] = (bytes[at] ?? 0) ^ 0x01;
      at += length;
    }
    writeFileSync(file, bytes);
    const damaged = verify(dir, h, 'damaged', true);
    expect(damaged.stderr).toMatch(
      /incremental: a full run \(the kept calls an added record was diagnosed against cannot be read \(the kept calls of \w+ \w+: its index is not the bytes its header names \(their CRC-32 differs\)\)\)/,
    );
    expect(damaged.sha).toBe(full.sha);
    // That full run kept a new snapshot of every file, over the damaged one: the next run merges onto it.
    const after = verify(dir, h, 'after', true);
    expect(after.stderr).toContain('incremental: 0 added file(s) verified and merged onto the snapshot');
    expect(after.sha).toBe(full.sha);
  });
});
