/** How the tools write files: whole or not at all, and never by replacing a device, a FIFO or a link. */

import { execFileSync, spawn } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeNew, writeWhole } from '../../src/tools/write.js';
import { addKey, json, surface } from '../support/corpus.js';
import { cleanup, cli, ROOT, tempDir, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

/** What a reader of the FIFO at `p` receives (it is opened for reading before anything writes). */
function readerOf(p: string): { readonly got: Promise<string>; stop(): void } {
  const cat = spawn('cat', [p]);
  let out = '';
  cat.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  return { got: new Promise((resolve) => cat.on('close', () => resolve(out))), stop: () => cat.kill() };
}

describe('writeWhole', () => {
  it('replaces a file whole, leaving no temporary file beside it', () => {
    const dir = writeFiles(tempDir(), { 'out.json': 'old' });
    writeWhole(path.join(dir, 'out.json'), 'new');
    expect(readFileSync(path.join(dir, 'out.json'), 'utf8')).toBe('new');
    expect(execFileSync('ls', ['-A', dir], { encoding: 'utf8' }).trim()).toBe('out.json');
  });

  it('writes through a link to a file: the link stays a link, the file it names gets the text', () => {
    const dir = writeFiles(tempDir(), { 'real/out.json': 'old' });
    symlinkSync('real/out.json', path.join(dir, 'out.json'));
    writeWhole(path.join(dir, 'out.json'), 'new');
    expect(lstatSync(path.join(dir, 'out.json')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path.join(dir, 'out.json'))).toBe('real/out.json');
    expect(readFileSync(path.join(dir, 'real/out.json'), 'utf8')).toBe('new');
  });

  it.skipIf(process.platform === 'win32')('writes into a FIFO in place (as into /dev/stdout), never renaming a file over it', async () => {
    const fifo = path.join(tempDir(), 'pipe');
    execFileSync('mkfifo', [fifo]);
    const reader = readerOf(fifo);
    try {
      writeWhole(fifo, 'the verdict\n');
      expect(lstatSync(fifo).isFIFO()).toBe(true);
      expect(await reader.got).toBe('the verdict\n');
    } finally {
      reader.stop();
    }
  });

  it('a directory in the way is an error, and nothing is left behind', () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'out.json'));
    expect(() => writeWhole(path.join(dir, 'out.json'), 'x')).toThrow();
    expect(execFileSync('ls', ['-A', dir], { encoding: 'utf8' }).trim()).toBe('out.json');
  });
});

describe('writeNew', () => {
  it('never replaces a file that exists', () => {
    const dir = writeFiles(tempDir(), { 'key.pem': 'mine' });
    expect(() => writeNew(path.join(dir, 'key.pem'), 'other')).toThrow(/EEXIST/);
    expect(readFileSync(path.join(dir, 'key.pem'), 'utf8')).toBe('mine');
    expect(execFileSync('ls', ['-A', dir], { encoding: 'utf8' }).trim()).toBe('key.pem');
  });
});

describe('through the CLI', () => {
  it.skipIf(process.platform === 'win32')('--sarif-file into a FIFO writes the SARIF into it, and the FIFO stays', async () => {
    const dir = writeFiles(tempDir(), { '.assay/runs/a.json': json(surface([addKey()])) });
    const fifo = path.join(dir, 'sarif.pipe');
    execFileSync('mkfifo', [fifo]);
    const reader = readerOf(fifo);
    try {
      const r = await cli(['verify', '-C', dir, '--sarif-file', 'sarif.pipe'], ROOT);
      expect(r.code, r.stderr).toBe(0);
      expect(lstatSync(fifo).isFIFO()).toBe(true);
      expect(JSON.parse(await reader.got)).toMatchObject({ version: '2.1.0' });
    } finally {
      reader.stop();
    }
  });
});
