/**
 * Reading an input file from disk (read/files.ts readOne): every file is read into one buffer per
 * thread, so a short file read after a long one must see only its own bytes, the limit is the
 * bytes read (not what stat said), and a file read from disk is what its bytes read in memory are.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readArtifact, readOne } from '../../src/read/files.js';
import { DEFAULT_LIMITS } from '../../src/read/limits.js';
import { artifactFiles } from '../support/artifact-files.js';
import { addKey, json, ndjson, record, surface } from '../support/corpus.js';
import { cleanup, ROOT, tempDir } from '../support/workspace.js';

afterEach(cleanup);

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

describe('readOne', () => {
  it('reads every fixture, long and short in turn, as its bytes read in memory (nothing of an earlier file leaks into a later one)', async () => {
    const files = artifactFiles(path.join(ROOT, 'fixtures'));
    // Largest, smallest, next largest, …: each short file follows a longer one in the shared buffer.
    const bySize = files.map((p) => ({ p, n: readFileSync(p).length })).sort((a, b) => b.n - a.n);
    const order: string[] = [];
    for (let lo = 0, hi = bySize.length - 1; lo <= hi; lo++, hi--) order.push(bySize[lo]!.p, ...(lo < hi ? [bySize[hi]!.p] : []));
    expect(order.length).toBe(files.length);
    for (const p of order) {
      const rel = path.relative(ROOT, p).split(path.sep).join('/');
      const bytes = readFileSync(p);
      const fromDisk = await readOne({ path: p, rel }, 'runs', DEFAULT_LIMITS, true);
      const { sha256, ...rest } = fromDisk;
      expect(sha256, rel).toBe(sha(bytes));
      expect(rest, rel).toEqual(await readArtifact(rel, 'runs', bytes, DEFAULT_LIMITS));
    }
  });

  it('a short file after a file larger than the buffer has grown to is read exactly', async () => {
    const dir = tempDir();
    const big = path.join(dir, 'big.ndjson');
    const small = path.join(dir, 'small.json');
    // Three megabytes of records, then a one-call run: the run must not see the records' bytes.
    const rec = record('github', 'r', addKey());
    writeFileSync(big, ndjson(Array.from({ length: 6000 }, (_, i) => ({ ...rec, record_id: `r-${i}` }))));
    writeFileSync(small, json(surface([addKey()])));
    const a = await readOne({ path: big, rel: 'big.ndjson' }, 'audit', DEFAULT_LIMITS);
    expect(a.entries.length).toBe(6000);
    expect(a.findings.filter((f) => f.severity === 'error')).toEqual([]);
    const b = await readOne({ path: small, rel: 'small.json' }, 'runs', DEFAULT_LIMITS, true);
    expect(b.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(b.run?.decisions.length).toBe(1);
    expect(b.sha256).toBe(sha(readFileSync(small)));
  });

  it('a file of exactly max-file-size is read; one byte more is refused with its size', async () => {
    const dir = tempDir();
    const text = json(surface([addKey()]));
    const limits = { ...DEFAULT_LIMITS, maxFileBytes: Buffer.byteLength(text) };
    const at = path.join(dir, 'at.json');
    const over = path.join(dir, 'over.json');
    writeFileSync(at, text);
    writeFileSync(over, `${text} `);
    const ok = await readOne({ path: at, rel: 'at.json' }, 'runs', limits);
    expect(ok.run?.decisions.length).toBe(1);
    const refused = await readOne({ path: over, rel: 'over.json' }, 'runs', limits);
    expect(refused.run).toBeNull();
    expect(refused.findings.map((f) => [f.code, f.line, f.column, f.message])).toEqual([
      ['invalid_artifact', 1, 1, `file is ${limits.maxFileBytes + 1} bytes, over the ${limits.maxFileBytes}-byte limit (max-file-size)`],
    ]);
  });

  it.skipIf(process.platform === 'win32')(
    'a file that yields more than max-file-size while it is read is refused, whatever stat said',
    async () => {
      // A FIFO: stat says 0 bytes, then a writer sends 5000.
      const dir = tempDir();
      const fifo = path.join(dir, 'grows.json');
      await new Promise<void>((resolve, reject) => {
        const p = spawn('mkfifo', [fifo]);
        p.on('error', reject);
        p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`mkfifo exited ${code}`))));
      });
      const writer = spawn(process.execPath, [
        '-e',
        `require('node:fs').writeFileSync(${JSON.stringify(fifo)}, '[' + ' '.repeat(4998) + ']')`,
      ]);
      const done = new Promise((resolve) => writer.on('exit', resolve));
      const r = await readOne({ path: fifo, rel: 'grows.json' }, 'runs', { ...DEFAULT_LIMITS, maxFileBytes: 1000 });
      await done;
      expect(r.run).toBeNull();
      expect(r.findings.map((f) => [f.code, f.line, f.column, f.message])).toEqual([
        ['invalid_artifact', 1, 1, 'file grew past the 1000-byte limit while it was read (max-file-size)'],
      ]);
    },
  );

  it('a file that cannot be opened is an error naming the reason', async () => {
    const r = await readOne({ path: path.join(tempDir(), 'absent.json'), rel: 'absent.json' }, 'runs', DEFAULT_LIMITS);
    expect(r.findings.map((f) => [f.code, f.message])).toEqual([
      ['invalid_artifact', expect.stringMatching(/^cannot read file: .*ENOENT/)],
    ]);
  });
});
