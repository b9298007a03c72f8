/**
 * Incremental verification through the bundled CLI as a real process (gate/incremental.ts): a
 * history verified with --cache keeps a snapshot; a pull request's run and export
 * (new work, every call recorded) added after it are verified alone, on reading threads, and merged
 * to the bytes of a run without the cache. A second history verified the same way with a record
 * made not to match declines and says why, with the same bytes as a full run.
 */
import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
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

/** A history of `calls` signed calls, and a pull request of 200 more (its run and its export, named to sort after the history's). */
function history(dir: string, calls: number, cleanPr: boolean): { corpus: string; addPr: () => void } {
  const corpus = path.join(dir, 'corpus');
  generate(corpus, calls, 11);
  return {
    corpus,
    addPr: () => {
      const pr = generate(path.join(dir, 'pr'), 200, 7, { first: calls, recorded: cleanPr }) as Made;
      const [run] = readdirSync(pr.runs).filter((f) => f.endsWith('.json'));
      const [exported] = readdirSync(pr.audit);
      cpSync(path.join(pr.runs, run ?? ''), path.join(corpus, 'runs', 'zz-pr-run.json'));
      cpSync(path.join(pr.audit, exported ?? ''), path.join(corpus, 'audit', `zz-pr-${exported}`));
    },
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

  it('a pull request with a record that matches no call declines (its nearest call would be a kept one): a full run, the same bytes', () => {
    const dir = tempDir();
    const h = history(dir, 1_000, false);
    verify(dir, h, 'branch', true);
    h.addPr();
    const pr = verify(dir, h, 'pr', true);
    expect(pr.stderr).toContain(
      'incremental: a full run (an added record that bound no call has kept calls of its kind); the snapshot kept as it was',
    );
    expect(pr.sha).toBe(verify(dir, h, 'full', false).sha);
  });
});
