/** How the tools write files: whole or not at all; never by replacing a device or a FIFO, never through a link. */

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeAllWhole, writeNew, writeWhole } from '../../src/tools/write.js';
import { addKey, json, surface } from '../support/corpus.js';
import { cleanup, cli, distFile, ROOT, tempDir, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

/** What a reader of the FIFO at `p` receives (it is opened for reading before anything writes). */
function readerOf(p: string): { readonly got: Promise<string>; stop(): void } {
  const cat = spawn('cat', [p]);
  let out = '';
  cat.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  return { got: new Promise((resolve) => cat.on('close', () => resolve(out))), stop: () => cat.kill() };
}

const listing = (dir: string): string => execFileSync('ls', ['-A', dir], { encoding: 'utf8' }).trim();

describe('writeWhole', () => {
  it('replaces a file whole, leaving no temporary file beside it', () => {
    const dir = writeFiles(tempDir(), { 'out.json': 'old' });
    writeWhole(path.join(dir, 'out.json'), 'new');
    expect(readFileSync(path.join(dir, 'out.json'), 'utf8')).toBe('new');
    expect(listing(dir)).toBe('out.json');
  });

  it('replaces a link, never writing through it: a link committed to a repository must not redirect a write', () => {
    const dir = writeFiles(tempDir(), { 'runner/.bashrc': 'mine' });
    symlinkSync(path.join(dir, 'runner/.bashrc'), path.join(dir, 'out.sarif'));
    writeWhole(path.join(dir, 'out.sarif'), 'new');
    expect(lstatSync(path.join(dir, 'out.sarif')).isFile()).toBe(true);
    expect(readFileSync(path.join(dir, 'out.sarif'), 'utf8')).toBe('new');
    expect(readFileSync(path.join(dir, 'runner/.bashrc'), 'utf8')).toBe('mine');
  });

  it.skipIf(process.platform === 'win32')('refuses a link to a device, and leaves the link as it was', () => {
    const dir = tempDir();
    symlinkSync('/dev/null', path.join(dir, 'out.sarif'));
    expect(() => writeWhole(path.join(dir, 'out.sarif'), 'x')).toThrow(
      /a symbolic link to something that is not a regular file; not written/,
    );
    expect(lstatSync(path.join(dir, 'out.sarif')).isSymbolicLink()).toBe(true);
    expect(listing(dir)).toBe('out.sarif');
  });

  it.skipIf(process.platform === 'win32')('writes into a FIFO in place, never renaming a file over it', async () => {
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
    expect(listing(dir)).toBe('out.json');
  });
});

describe('writeAllWhole: several files as one (a red team, this stop: import --predicate left the predicate when the records failed)', () => {
  it('all written whole, replacing what was there', () => {
    const dir = writeFiles(tempDir(), { 'a.json': 'old' });
    writeAllWhole([
      [path.join(dir, 'a.json'), 'A'],
      [path.join(dir, 'b.ndjson'), 'B'],
    ]);
    expect([readFileSync(path.join(dir, 'a.json'), 'utf8'), readFileSync(path.join(dir, 'b.ndjson'), 'utf8')]).toEqual(['A', 'B']);
    expect(listing(dir)).toBe('a.json\nb.ndjson');
  });

  it.skipIf(process.platform === 'win32')(
    'a text in pieces is written piece after piece, to a file and into a FIFO, never joined',
    async () => {
      const dir = tempDir();
      const fifo = path.join(dir, 'pipe');
      execFileSync('mkfifo', [fifo]);
      const reader = readerOf(fifo);
      try {
        writeAllWhole([
          [path.join(dir, 'report.json'), ['{"a":', '1}', '\n']],
          [fifo, ['the ', 'verdict', '\n']],
        ]);
        expect(readFileSync(path.join(dir, 'report.json'), 'utf8')).toBe('{"a":1}\n');
        expect(await reader.got).toBe('the verdict\n');
      } finally {
        reader.stop();
      }
    },
  );

  it('one that cannot be written (under a file, or a directory in the way): none is, what was there is kept, nothing left behind', () => {
    const dir = writeFiles(tempDir(), { 'a.json': 'old', notadir: 'x' });
    mkdirSync(path.join(dir, 'busy'));
    writeFiles(dir, { 'busy/keep': 'k' });
    for (const other of [path.join(dir, 'notadir', 'out.ndjson'), path.join(dir, 'busy')]) {
      expect(() =>
        writeAllWhole([
          [path.join(dir, 'a.json'), 'A'],
          [other, 'B'],
        ]),
      ).toThrow();
      expect(readFileSync(path.join(dir, 'a.json'), 'utf8')).toBe('old');
      expect(listing(dir)).toBe('a.json\nbusy\nnotadir');
    }
    expect(() =>
      writeAllWhole([
        [path.join(dir, 'new.json'), 'N'],
        [path.join(dir, 'busy'), 'B'],
      ]),
    ).toThrow();
    expect(listing(dir)).toBe('a.json\nbusy\nnotadir');
  });

  it('import --predicate with a records file that cannot be written writes neither', async () => {
    const dir = writeFiles(tempDir(), { notadir: 'x', 'pred.json': 'before' });
    const deliveries = readFileSync(path.join(ROOT, 'fixtures/import/github/webhook-deliveries.json'), 'utf8');
    writeFiles(dir, { 'd.json': deliveries });
    const r = await cli(['import', 'github-webhook', '--predicate', 'pred.json', '--output', 'notadir/out.ndjson', 'd.json'], dir);
    expect(r.code).toBe(2);
    expect(readFileSync(path.join(dir, 'pred.json'), 'utf8')).toBe('before');
    expect(listing(dir)).toBe('d.json\nnotadir\npred.json');
    // The one that failed is named by its flag.
    const wrong = await cli(['import', 'github-webhook', '--output', 'ok.ndjson', '--predicate', 'notadir/p.json', 'd.json'], dir);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/cannot write --predicate .*notadir\/p\.json/);
    expect(listing(dir)).toBe('d.json\nnotadir\npred.json');
  });
});

describe('writes that fail leave nothing (a red team)', () => {
  it.skipIf(process.platform !== 'linux')(
    'an in-place output that fails (/dev/full) is written before any rename: the staged files are not left',
    () => {
      const dir = writeFiles(tempDir(), { 'pred.json': 'before' });
      expect(() =>
        writeAllWhole([
          [path.join(dir, 'pred.json'), 'P'],
          [path.join(dir, 'new', 'sub', 'r.json'), 'R'],
          ['/dev/full', 'V'],
        ]),
      ).toThrow(/ENOSPC/);
      expect(readFileSync(path.join(dir, 'pred.json'), 'utf8')).toBe('before');
      // The folders made for the staged file are removed again.
      expect(listing(dir)).toBe('pred.json');
    },
  );

  it('a file whose folders had to be made and that fails takes the folders with it; a legal 250-byte name is written', () => {
    const dir = writeFiles(tempDir(), { notadir: 'x' });
    expect(() =>
      writeAllWhole([
        [path.join(dir, 'made', 'deeper', 'a.json'), 'A'],
        [path.join(dir, 'notadir', 'b.json'), 'B'],
      ]),
    ).toThrow();
    expect(listing(dir)).toBe('notadir');
    const long = `${'y'.repeat(244)}.ndjson`;
    writeWhole(path.join(dir, long), 'L');
    expect(readFileSync(path.join(dir, long), 'utf8')).toBe('L');
  });

  it('import with an output on /dev/full writes no predicate', async () => {
    if (process.platform !== 'linux') return;
    const dir = writeFiles(tempDir(), {
      'd.json': readFileSync(path.join(ROOT, 'fixtures/import/github/webhook-deliveries.json'), 'utf8'),
    });
    const r = await cli(['import', 'github-webhook', '--predicate', 'pred.json', '--output', '/dev/full', 'd.json'], dir);
    expect(r.code).toBe(2);
    expect(listing(dir)).toBe('d.json');
  });

  it('verify --vsa: a verdict that cannot be written leaves neither the report nor the SARIF (a red team)', async () => {
    const dir = writeFiles(tempDir(), { '.assay/runs/a.json': json(surface([addKey()])), notadir: 'x' });
    expect((await cli(['keygen', '--out', 'keys/v'], dir)).code).toBe(0);
    const r = await cli(
      [
        'verify',
        '--output',
        'r.json',
        '--sarif-file',
        's.sarif',
        '--vsa-predicate',
        'p.json',
        '--vsa',
        'notadir/v.intoto.jsonl',
        '--vsa-key',
        'keys/v.key.pem',
        '--resource-uri',
        'git+https://github.com/acme/agents@0123456789abcdef0123456789abcdef01234567',
      ],
      dir,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/notadir\/v\.intoto\.jsonl: cannot write the verdict/);
    expect(listing(dir)).toBe('.assay\nkeys\nnotadir');
    // Written, the report's digest is the verdict's subject, as before.
    const ok = await cli(
      [
        'verify',
        '--output',
        'r.json',
        '--vsa-predicate',
        'p.json',
        '--resource-uri',
        'git+https://github.com/acme/agents@0123456789abcdef0123456789abcdef01234567',
      ],
      dir,
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(listing(dir)).toBe('.assay\nkeys\nnotadir\np.json\nr.json');
  });

  it('verify --vsa under a file-size limit: a report the system cut short is an error and nothing is left, never a verdict beside a truncated report (a red team)', async () => {
    if (process.platform !== 'linux') return;
    const dir = writeFiles(tempDir(), { '.assay/runs/a.json': json(surface(Array.from({ length: 40 }, () => addKey()))) });
    expect((await cli(['keygen', '--out', 'keys/v'], dir)).code).toBe(0);
    const args = ['verify', '--output', 'out/r.json', '--vsa', 'out/v.intoto.jsonl', '--vsa-key', 'keys/v.key.pem'];
    args.push('--resource-uri', 'git+https://github.com/acme/agents@0123456789abcdef0123456789abcdef01234567');
    // bash's ulimit -f counts 1 024-byte blocks: the report (~25 KB) passes the limit, the key and the verdict do not.
    const r = spawnSync('bash', ['-c', 'ulimit -f 8; exec "$0" "$@"', process.execPath, distFile('cli.js'), ...args], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/out\/r\.json: .*(file too large|EFBIG)/i);
    expect(listing(dir)).toBe('.assay\nkeys');
    // Without the limit, the same command writes both, the verdict about the report's bytes.
    const ok = spawnSync(process.execPath, [distFile('cli.js'), ...args], { cwd: dir, encoding: 'utf8' });
    expect(ok.status, ok.stderr).toBe(0);
    const v = await cli(['verify-attestation', '--trusted-key', 'keys/v.pub.pem', '--report', 'out/r.json', 'out/v.intoto.jsonl'], dir);
    expect(v.code, v.stderr).toBe(0);
    // The JSON report alone, streamed to its file: cut short, it is not left in place (a red team: 2 048 bytes of it were).
    rmSync(path.join(dir, 'out'), { recursive: true });
    const alone = ['verify', '--format', 'json', '--output', 'out/r.json'];
    const cut = spawnSync('bash', ['-c', 'ulimit -f 8; exec "$0" "$@"', process.execPath, distFile('cli.js'), ...alone], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(cut.status, cut.stderr).toBe(2);
    expect(cut.stderr).toMatch(/--output \S*out\/r\.json: .*(file too large|EFBIG)/i);
    expect(listing(dir)).toBe('.assay\nkeys');
  });

  it('keygen: a public key that cannot be written takes the private key with it (a dangling link is there); --out naming a folder is a usage error', async () => {
    const dir = tempDir();
    symlinkSync('nowhere', path.join(dir, 'p.pub.pem'));
    const r = await cli(['keygen', '--out', 'p'], dir);
    expect(r.code).toBe(2);
    expect(listing(dir)).toBe('p.pub.pem');
    mkdirSync(path.join(dir, 'keys'));
    for (const out of ['keys/', 'keys']) {
      const f = await cli(['keygen', '--out', out], dir);
      expect(f.code, out).toBe(2);
      expect(f.stderr).toMatch(/names a folder; --out is the prefix of the two files \(e\.g\. keys\/signer/);
    }
    expect(listing(dir)).toBe('keys\np.pub.pem');
    expect(listing(path.join(dir, 'keys'))).toBe('');
  });
});

describe('an output whose folder cannot be made', () => {
  it.skipIf(process.platform !== 'linux')(
    'under /proc (Node’s recursive mkdir never returns there): exit 2 naming the path, never a hang',
    async () => {
      const dir = writeFiles(tempDir(), { '.assay/runs/a.json': json(surface([addKey()])) });
      const r = await cli(['verify', '--format', 'json', '--output', '/proc/self/nope/r.json'], dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/\/proc\/self\/nope/);
    },
  );
});

describe('writeNew', () => {
  it('never replaces a file that exists', () => {
    const dir = writeFiles(tempDir(), { 'key.pem': 'mine' });
    expect(() => writeNew(path.join(dir, 'key.pem'), 'other')).toThrow(/EEXIST/);
    expect(readFileSync(path.join(dir, 'key.pem'), 'utf8')).toBe('mine');
    expect(listing(dir)).toBe('key.pem');
  });
});

describe('the JSON report and the table', () => {
  it('--output committed as a link to a file is replaced, never written through, in both formats', async () => {
    const dir = writeFiles(tempDir(), { '.assay/runs/a.json': json(surface([addKey()])), 'runner/notes.txt': 'mine' });
    for (const format of ['json', 'table']) {
      symlinkSync(path.join(dir, 'runner/notes.txt'), path.join(dir, `out.${format}`));
      const r = await cli(['verify', '-C', dir, '--format', format, '--output', `out.${format}`], ROOT);
      expect(r.code, r.stderr).toBe(0);
      expect(lstatSync(path.join(dir, `out.${format}`)).isFile()).toBe(true);
      expect(readFileSync(path.join(dir, `out.${format}`), 'utf8')).toMatch(
        format === 'json' ? /"schema": "receipt-gate.report.v1"/ : /asserted/,
      );
    }
    expect(readFileSync(path.join(dir, 'runner/notes.txt'), 'utf8')).toBe('mine');
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

  it.skipIf(process.platform === 'win32')(
    '--output into a FIFO writes the JSON report into it in order (it cannot seek: a red team’s ESPIPE)',
    async () => {
      const calls = Array.from({ length: 3000 }, (_, i) =>
        addKey({ target: { provider: 'github', owner: 'acme', repo: `r${i}`, key_title_hash: `sha256:${'0'.repeat(64)}` } }),
      );
      const dir = writeFiles(tempDir(), { '.assay/runs/a.json': json(surface(calls)) });
      const fifo = path.join(dir, 'report.pipe');
      execFileSync('mkfifo', [fifo]);
      const reader = readerOf(fifo);
      try {
        const r = await cli(['verify', '-C', dir, '--format', 'json', '--output', 'report.pipe'], ROOT);
        expect(r.code, r.stderr).toBe(0);
        const text = await reader.got;
        expect(text.length).toBeGreaterThan(1 << 20);
        expect(JSON.parse(text).calls).toHaveLength(3000);
      } finally {
        reader.stop();
      }
    },
  );

  it.skipIf(process.platform !== 'linux')(
    '--sarif-file through a link to its own standard output (as /dev/stdout is) writes the SARIF there, and the link stays',
    () => {
      const dir = writeFiles(tempDir(), { '.assay/runs/a.json': json(surface([addKey()])) });
      symlinkSync('/proc/self/fd/1', path.join(dir, 'stdout'));
      // Through a shell pipe, as a workflow step's output is (Node's own child pipes are sockets, which cannot be opened by path).
      const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
      const command = `${q(process.execPath)} ${q(distFile('cli.js'))} verify -C ${q(dir)} --sarif-file stdout --output r.json | cat`;
      const r = spawnSync('sh', ['-c', command], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      expect(lstatSync(path.join(dir, 'stdout')).isSymbolicLink()).toBe(true);
      expect(JSON.parse(r.stdout)).toMatchObject({ version: '2.1.0' });
    },
  );
});
