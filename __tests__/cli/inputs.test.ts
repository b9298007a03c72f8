/** Inputs as a user gives them (paths, globs, -C, --version, runner archives): each through the real CLI or the real readers. */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseList } from '../../src/gate/settings/parsers.js';
import { VERSION } from '../../src/version.js';
import { gzip, tar } from '../support/bundle-writer.js';
import { addKey, json, surface } from '../support/corpus.js';
import { cleanup, cli, cliJson, gate, ROOT, tempDir, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

describe('the CLI', () => {
  it('-C with a missing directory is a usage error naming it', async () => {
    const r = await cli(['verify', '-C', 'no/such/dir'], ROOT);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^receipt-gate: -C\/--working-directory: "no\/such\/dir" is not a directory/);
  });

  it('--version prints the version package.json declares', async () => {
    const r = await cli(['--version'], ROOT);
    expect(r).toMatchObject({ code: 0, stdout: `receipt-gate ${VERSION}\n` });
    expect(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version).toBe(VERSION);
  });

  it('an explicit plain path that does not exist is a usage error naming the nearest path; the absent defaults are no input', async () => {
    const dir = writeFiles(tempDir(), { '.assay/runs/r.json': json(surface([addKey()])), '.assay/audit/keep.txt': '' });
    const quiet = await cliJson(['-C', dir], ROOT);
    expect(quiet.code).toBe(0);
    // A default directory that holds no export is a notice about the input, never an error.
    expect(quiet.report.findings.filter((f) => f.input !== undefined).map((f) => [f.code, f.severity])).toEqual([['no_match', 'notice']]);
    const typo = await cli(['verify', '-C', dir, '--audit', '.assay/audti'], ROOT);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('--audit: ".assay/audti" does not exist (did you mean ".assay/audit"?)');
    const deeper = await cli(['verify', '-C', dir, '--runs', '.assay/run/x.json'], ROOT);
    expect(deeper).toMatchObject({ code: 2, stderr: expect.stringContaining('did you mean ".assay/runs/x.json"?') });
  });

  it('an explicit glob that matches nothing is an error about the input, with no file location', async () => {
    const dir = writeFiles(tempDir(), { '.assay/runs/r.json': json(surface([addKey()])) });
    const r = await cliJson(['-C', dir, '--audit', 'exports/*.json'], ROOT);
    expect(r.code).toBe(1);
    expect(r.report.findings[0]).toMatchObject({
      severity: 'error',
      code: 'no_match',
      input: 'audit: exports/*.json',
      file: null,
      line: null,
      column: null,
    });
  });
});

describe('inputs', () => {
  it('brace globs keep their commas; ! patterns exclude', async () => {
    expect(parseList('.assay/{runs,more}/**, other\n!.assay/runs/old/**')).toEqual([
      '.assay/{runs,more}/**',
      'other',
      '!.assay/runs/old/**',
    ]);
    const dir = writeFiles(tempDir(), {
      '.assay/runs/a.json': json(surface([addKey()])),
      '.assay/more/b.json': json(surface([addKey()])),
      '.assay/runs/old/c.json': json(surface([addKey()])),
    });
    const r = await gate(dir, { runs: parseList('.assay/{runs,more}/**\n!.assay/runs/old/**') });
    expect(r.runs.map((x) => x.artifact)).toEqual(['.assay/more/b.json', '.assay/runs/a.json']);
  });

  it('an Assay runner archive is skipped with a notice naming its kind, not reported as a broken bundle', async () => {
    const manifest = JSON.stringify({ schema: 'assay.runner.archive_manifest.v0', runs: [] });
    const gz = gzip(
      tar([
        { name: 'manifest.json', data: manifest },
        { name: 'runs/x.json', data: '{}' },
      ]),
    );
    const other = gzip(tar([{ name: 'archive.json', data: manifest }]));
    const dir = writeFiles(tempDir(), {
      '.assay/runs/a.tar.gz': gz,
      '.assay/runs/b.tar.gz': other,
      '.assay/runs/ok.json': json(surface([addKey()])),
    });
    const r = await gate(dir);
    expect(r.ok).toBe(true);
    expect(r.findings.filter((f) => f.code === 'skipped_object').map((f) => `${f.file}: ${f.message}`)).toEqual([
      '.assay/runs/a.tar.gz: skipped an archive of another kind: assay.runner.archive_manifest.v0 (not an evidence bundle; it contributes no calls)',
      '.assay/runs/b.tar.gz: skipped an archive of another kind: assay.runner.archive_manifest.v0 (not an evidence bundle; it contributes no calls)',
    ]);
  });

  it('an archive of another kind whose members hold decisions is refused, never skipped (a red team: a failing run’s events under a runner archive’s manifest passed with a notice)', async () => {
    const manifest = JSON.stringify({ schema: 'assay.runner.archive_manifest.v0', run_id: 'r', files: {} });
    const events = `${JSON.stringify({ type: 'assay.tool_decision_surface.v0', data: surface([addKey({ claim: 'verified', digest: `sha256:${'0'.repeat(64)}` })]) })}\n`;
    const gz = gzip(
      tar([
        { name: 'manifest.json', data: manifest },
        { name: 'layers/kernel.bin', data: 'binary' },
        { name: 'events.ndjson', data: events },
      ]),
    );
    const r = await gate(writeFiles(tempDir(), { '.assay/runs/a.tar.gz': gz, '.assay/runs/ok.json': json(surface([addKey()])) }));
    expect(r.ok).toBe(false);
    expect(r.findings.filter((f) => f.severity === 'error').map((f) => `${f.file}: ${f.message}`)).toEqual([
      '.assay/runs/a.tar.gz: evidence bundle rejected: an archive of another kind (assay.runner.archive_manifest.v0) whose member "events.ndjson" holds evidence the gate reads (decision surfaces, records, statements or tracing lines): evidence in an archive is read from an evidence bundle only, and never skipped; extract the member and commit it under the runs (a server log as .log, events as .ndjson, a bundle as its own .tar.gz)',
    ]);
  });

  it('an archive whose manifest claims a near miss of our kinds is refused, never skipped', async () => {
    const gz = gzip(tar([{ name: 'manifest.json', data: JSON.stringify({ schema: 'assay.tool_decision_surface.V0' }) }]));
    const r = await gate(writeFiles(tempDir(), { '.assay/runs/a.tar.gz': gz }));
    expect(r.findings.find((f) => f.severity === 'error')!.message).toMatch(
      /^evidence bundle rejected: the archive's manifest names "assay\.tool_decision_surface\.V0": not exactly the kind/,
    );
  });
});
