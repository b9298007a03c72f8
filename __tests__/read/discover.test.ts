/** Inputs → files: directories, globs, de-duplication, pruning, order, and the workspace boundary. */

import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discover } from '../../src/read/discover.js';
import { evidenceIn, SIDECAR_MAX_BYTES } from '../../src/read/formats.js';
import { cleanup, tempDir, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

function tree(): string {
  return writeFiles(tempDir(), {
    'a/one.json': '{}',
    'a/two.ndjson': '',
    'a/three.jsonl': '',
    'a/bundle.tar.gz': '',
    'a/readme.md': '',
    'a/deep/er/four.json': '{}',
    'a/.hidden/five.json': '{}',
    'a/node_modules/x.json': '{}',
    'a/.git/y.json': '{}',
    'b/B.json': '{}',
    'b/a.json': '{}',
  });
}
const rels = (d: ReturnType<typeof discover>) => d.files.map((f) => f.rel);

describe('discover', () => {
  it('a directory means every artifact beneath it (dot-directories included, .git pruned; node_modules only from the workspace: a red team hid a failing run in .assay/runs/node_modules), sorted by code unit', () => {
    const ws = tree();
    expect(rels(discover(['a', 'b'], ws, ws))).toEqual([
      'a/.hidden/five.json',
      'a/bundle.tar.gz',
      'a/deep/er/four.json',
      'a/node_modules/x.json',
      'a/one.json',
      'a/three.jsonl',
      'a/two.ndjson',
      'b/B.json',
      'b/a.json',
    ]);
    // From the workspace itself (or by a glob from it), a repository's dependencies are passed over.
    for (const input of ['.', '**/*.json']) {
      const all = rels(discover([input], ws, ws));
      expect(all).toContain('a/one.json');
      expect(all.filter((f) => f.includes('node_modules') || f.includes('.git/'))).toEqual([]);
    }
  });

  it('globs match relative to the working directory; other file types are counted in a notice, not read', () => {
    const ws = tree();
    const d = discover(['a/**/*', 'b/*.json'], ws, ws);
    expect(rels(d)).toContain('a/deep/er/four.json');
    expect(rels(d)).not.toContain('a/readme.md');
    expect(d.findings).toMatchObject([
      { severity: 'notice', code: 'no_match', input: 'runs: a/**/*', message: expect.stringMatching(/matched 1 file\(s\) that are not/) },
    ]);
  });

  it('a file named twice is read once; a default that matches nothing is a notice, an absent default no input', () => {
    const ws = tree();
    const d = discover(['b/a.json', 'b', 'nope', 'b/*.yaml'], ws, ws);
    expect(rels(d)).toEqual(['b/B.json', 'b/a.json']);
    expect(d.findings.map((f) => [f.code, f.severity, f.input])).toEqual([['no_match', 'notice', 'runs: b/*.yaml']]);
    const explicit = discover(['nope', 'b/*.yaml'], ws, ws, true);
    expect(explicit.findings.map((f) => [f.code, f.severity, f.input, f.file])).toEqual([
      ['no_match', 'error', 'runs: nope', null],
      ['no_match', 'error', 'runs: b/*.yaml', null],
    ]);
  });

  it('nothing outside the workspace: paths, globs, links', () => {
    const root = tempDir();
    const ws = path.join(root, 'ws');
    mkdirSync(path.join(ws, 'runs'), { recursive: true });
    writeFileSync(path.join(root, 'secret.json'), '{}');
    symlinkSync(path.join(root, 'secret.json'), path.join(ws, 'runs', 'leak.json'));
    symlinkSync(root, path.join(ws, 'runs', 'up'));
    const d = discover(['runs', '../secret.json', '../*.json', path.join(root, 'secret.json')], ws, ws);
    expect(rels(d)).toEqual([]);
    expect(d.findings.filter((f) => f.severity === 'error').map((f) => f.message)).toEqual([
      'symbolic link points outside the workspace; not followed',
      'symbolic link points outside the workspace; not followed',
      '"../secret.json" is outside the workspace (' + ws + '); not read',
      '"../*.json" is outside the workspace (' + ws + '); not read',
      `"${path.join(root, 'secret.json')}" is outside the workspace (${ws}); not read`,
    ]);
  });

  it('a glob names only what it matches: a broken link or a link out it does not match is neither read nor reported', () => {
    const root = tempDir();
    const ws = path.join(root, 'ws');
    writeFiles(ws, { 'runs/a1.json': '{}' });
    writeFileSync(path.join(root, 'secret.json'), '{}');
    symlinkSync('nowhere', path.join(ws, 'runs/b.json'));
    symlinkSync(path.join(root, 'secret.json'), path.join(ws, 'runs/c.json'));
    const d = discover(['runs/a*.json'], ws, ws);
    expect(rels(d)).toEqual(['runs/a1.json']);
    expect(d.findings).toEqual([]);
    // Walked as a directory, both are named, and both are refused.
    expect(discover(['runs'], ws, ws).findings.map((f) => `${f.file}: ${f.message}`)).toEqual([
      'runs/b.json: broken symbolic link',
      'runs/c.json: symbolic link points outside the workspace; not followed',
    ]);
  });

  it('a broken link without an artifact name is not reported (it would not be read if it resolved); with one it is', () => {
    const ws = writeFiles(tempDir(), { 'runs/a.json': '{}' });
    symlinkSync('nowhere', path.join(ws, 'runs/notes.txt'));
    symlinkSync('nowhere', path.join(ws, 'runs/gone.ndjson'));
    const d = discover(['runs'], ws, ws);
    expect(rels(d)).toEqual(['runs/a.json']);
    expect(d.findings.map((f) => `${f.file}: ${f.message}`)).toEqual(['runs/gone.ndjson: broken symbolic link']);
  });

  it('links inside the workspace are read; links to directories are not descended', () => {
    const ws = tree();
    symlinkSync(path.join(ws, 'b/a.json'), path.join(ws, 'a/link.json'));
    symlinkSync(path.join(ws, 'b'), path.join(ws, 'a/linkdir'));
    const d = discover(['a'], ws, ws);
    expect(rels(d)).toContain('a/link.json');
    expect(rels(d).some((r) => r.startsWith('a/linkdir'))).toBe(false);
    expect(d.findings).toMatchObject([
      {
        code: 'no_match',
        severity: 'warning',
        file: 'a/linkdir',
        message: 'symbolic link to a directory; not descended (name the folder it leads to as an input)',
      },
    ]);
  });
});

describe('what a file the gate does not read by its name holds (formats.ts evidenceIn)', () => {
  const text = (s: string) => new TextEncoder().encode(s);
  it('past 64 MiB it is evidence whatever it holds (too large to tell); gzip bytes are a bundle; a checksum list, a tracing line without a decision behind a prefix, and JSON no reader takes are nothing', () => {
    expect(evidenceIn(text('x'), SIDECAR_MAX_BYTES + 1)).toEqual({
      kind: 'evidence',
      why: `${SIDECAR_MAX_BYTES + 1} bytes, more than any checksum, signature, certificate or licence (${SIDECAR_MAX_BYTES})`,
    });
    expect(evidenceIn(text('x'), SIDECAR_MAX_BYTES).kind).toBe('nothing');
    // A file not named like a sidecar (a recording beside the runs) is looked at, never refused for its size.
    expect(evidenceIn(text('x'), SIDECAR_MAX_BYTES + 1, false).kind).toBe('nothing');
    expect(evidenceIn(new Uint8Array([0x1f, 0x8b, 8]), 3)).toEqual({ kind: 'evidence', why: 'gzip bytes (an evidence bundle?)' });
    expect(evidenceIn(text(`${'a'.repeat(64)}  tool_decision.json\n`), 80).kind).toBe('nothing');
    expect(
      evidenceIn(text('2026-05-14 stderr F {"timestamp":"t","level":"INFO","fields":{"event":"server_start"},"target":"x"}\n'), 99),
    ).toEqual({
      kind: 'nothing',
    });
    expect(evidenceIn(text('{"type":"Buffer","data":[1,2]}'), 30).kind).toBe('nothing');
    // A near miss of a kind the gate reads is never skipped: evidence, as the readers say.
    expect(evidenceIn(text('{"schema":"assay.tool_decision_surface.v1"}'), 40)).toMatchObject({ kind: 'document' });
    expect(evidenceIn(text('see {docs}: one tool_decision per call\n'), 40).kind).toBe('nothing');
    expect(evidenceIn(text('junk\n  {"x":1,"fields":{"event":"TOOL_DECISION"}}  \r\n'), 50)).toEqual({
      kind: 'lines',
      lines: [{ line: 2, text: '{"x":1,"fields":{"event":"TOOL_DECISION"}}' }],
    });
  });
});
