/** The bundled CLI (dist/cli.js) as a real process, on the demo corpora and the upstream fixtures. */

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, ROOT, spawnCli, spawnCliJson, tempDir, UPSTREAM, writeFiles } from '../support/workspace.js';

afterEach(cleanup);
const reportSchema = JSON.parse(readFileSync(path.join(ROOT, 'schemas/report.schema.json'), 'utf8'));
const validateReport = new Ajv({ strict: false }).compile(reportSchema);

describe('dist/cli.js', () => {
  it('passes the demo corpus and shows every level', () => {
    const { code, report } = spawnCliJson([], path.join(ROOT, 'fixtures/demo'));
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    expect(new Set(report.calls.map((c) => c.level))).toEqual(new Set(['verified', 'observed_confirmed', 'asserted', null]));
    expect(report.totals).toMatchObject({
      calls: 9,
      verified: 4,
      observed_confirmed: 1,
      asserted: 2,
      no_effect: 2,
      weakest_level: 'asserted',
      errors: 0,
    });
    expect(report.runs.map((r) => r.weakest_level)).toEqual(['observed_confirmed', 'asserted', 'asserted']);
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    // ordered by artifact, then index
    const keys = report.calls.map((c) => `${c.artifact}#${String(c.index).padStart(3, '0')}`);
    expect(keys).toEqual([...keys].sort());
    expect(report.calls.find((c) => c.artifact.endsWith('.tar.gz') && c.level === 'verified')).toMatchObject({
      member: 'events.ndjson',
      line: 2,
    });
  });

  it('fails the tampered demo with record_inconsistent and verified_not_reproduced', () => {
    const { code, report } = spawnCliJson(['-C', 'fixtures/demo-failing'], ROOT);
    expect(code).toBe(1);
    expect(report.findings.filter((f) => f.severity === 'error').map((f) => f.code)).toEqual([
      'record_inconsistent',
      'verified_not_reproduced',
      'verified_not_reproduced',
    ]);
    expect(validateReport(report)).toBe(true);
  });

  it('upstream: verified.json + mismatch record fails at the right lines', () => {
    const { code, report } = spawnCliJson(
      ['--runs', 'side_effect/verified.json', '--audit', 'side_effect/audit_record_mismatch.json'],
      UPSTREAM,
    );
    expect(code).toBe(1);
    expect(report.findings.map((f) => [f.code, f.file, f.line])).toEqual([
      ['record_unmatched', 'side_effect/audit_record_mismatch.json', 1],
      ['verified_not_reproduced', 'side_effect/verified.json', 4],
    ]);
  });

  it('accepts globs and repeated flags', () => {
    const { code, report } = spawnCliJson(
      ['--runs', 'side_effect/v*.json', '--runs', 'tool_decisions/*allow.json', '--audit', 'side_effect/audit_record_github_*.json'],
      UPSTREAM,
    );
    expect(code).toBe(0);
    expect(report.calls.map((c) => c.artifact)).toEqual([
      'side_effect/verified.json',
      'tool_decisions/github_deploy_key_allow.json',
      'tool_decisions/slack_add_member_allow.json',
      'tool_decisions/workspace_admin_allow.json',
    ]);
  });

  it('table format: one line per call, findings by severity, totals; no colour off a TTY', () => {
    const r = spawnCli(['verify', '--format', 'table'], path.join(ROOT, 'fixtures/demo-failing'));
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('\u001b[');
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^ {2}LEVEL\s+CLAIMED\s+TOOL\s+LOCATION$/);
    expect(lines[1]).toMatch(/^✗ asserted\s+verified\s+github\.add_deploy_key\s+\.assay\/runs\/2026-11-25-incident\.json:4$/);
    expect(r.stdout).toMatch(/Errors \(3\)[\s\S]*record_inconsistent/);
    expect(r.stdout).toMatch(/FAIL {2}3 call\(s\) in 1 run\(s\): 0 verified, 0 observed_confirmed, 3 asserted/);
  });

  it('--output writes the report to a file', () => {
    const dir = tempDir();
    const out = path.join(dir, 'report.json');
    const r = spawnCli(['verify', '--output', out], path.join(ROOT, 'fixtures/demo'));
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).ok).toBe(true);
    expect(r.stderr).toMatch(/PASS; report written/);
  });

  it('usage errors exit 2 with one clear line and where to find the usage', () => {
    for (const args of [['verify', '--format', 'xml'], ['frobnicate'], ['verify', '--nope'], []]) {
      const r = spawnCli(args, ROOT);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0]).toMatch(/^receipt-gate: /);
      expect(r.stderr).toContain("Run 'receipt-gate --help'");
    }
    const help = spawnCli(['--help'], ROOT);
    expect(help.code).toBe(0);
    for (const flag of ['--runs', '--audit', '--format', '--output', '--allow-unmatched-records', '--strict-observed', 'Exit status'])
      expect(help.stdout).toContain(flag);
  });

  it('an empty workspace fails with no_artifacts', () => {
    const { code, report } = spawnCliJson([], tempDir());
    expect(code).toBe(1);
    expect(report.findings.map((f) => f.code)).toContain('no_artifacts');
  });

  it('inputs outside the working directory are refused', () => {
    const dir = writeFiles(tempDir(), { 'ws/.assay/runs/a.json': readFileSync(path.join(UPSTREAM, 'side_effect/asserted.json')) });
    const { code, report } = spawnCliJson(['--runs', '../*.json', '--runs', '.assay/runs'], path.join(dir, 'ws'));
    expect(code).toBe(1);
    expect(report.findings.find((f) => f.code === 'invalid_artifact')!.message).toMatch(/outside the workspace/);
    expect(report.calls).toHaveLength(1);
  });
});

describe('dist/cli.js on the bundle fixtures', () => {
  const dir = path.join(ROOT, 'fixtures/bundles');
  it('verified-call.tar.gz + its audit export: verified, the read has no rung', () => {
    const { code, report } = spawnCliJson(['--runs', 'verified-call.tar.gz', '--audit', 'verified-call.audit.json'], dir);
    expect(code).toBe(0);
    expect(report.calls.map((c) => [c.level, c.member, c.line])).toEqual([
      ['verified', 'events.ndjson', 2],
      [null, 'events.ndjson', 2],
    ]);
  });
  it('with a record for another target: verified_not_reproduced and record_unmatched', () => {
    const { code, report } = spawnCliJson(['--runs', 'verified-call.tar.gz', '--audit', 'mismatched-record.audit.json'], dir);
    expect(code).toBe(1);
    expect(report.findings.filter((f) => f.severity === 'error').map((f) => f.code)).toEqual([
      'record_unmatched',
      'verified_not_reproduced',
    ]);
  });
  it('tampered after hashing: rejected, naming the rule, no calls', () => {
    const { code, report } = spawnCliJson(['--runs', 'tampered-after-hashing.tar.gz', '--audit', 'verified-call.audit.json'], dir);
    expect(code).toBe(1);
    expect(report.calls).toEqual([]);
    expect(report.findings.find((f) => f.code === 'invalid_artifact')!.message).toBe(
      'evidence bundle rejected: events.ndjson sha256 does not match the manifest',
    );
  });
});

describe('dist/cli.js loads costly built-ins where it first uses them', () => {
  /** The run's exit code and the Node built-ins its main thread loaded (a `--require` hook lists them at exit). */
  function builtinsOf(args: readonly string[], cwd: string): { code: number | null; builtins: ReadonlySet<string> } {
    const d = tempDir();
    const hook = path.join(d, 'hook.cjs');
    const out = path.join(d, 'loaded.txt');
    writeFiles(d, {
      'hook.cjs': `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, process.moduleLoadList.join('\\n')));\n`,
    });
    const r = spawnCli(args, cwd, { NODE_OPTIONS: `--require ${JSON.stringify(hook)}` });
    const names = readFileSync(out, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('NativeModule '))
      .map((l) => l.slice('NativeModule '.length));
    return { code: r.code, builtins: new Set(names) };
  }

  it('a verify that calls no git and reads no gzip loads neither child_process nor zlib', () => {
    // The demo's JSON run and its exports (the demo's bundle would load zlib, rightly).
    const { code, builtins } = builtinsOf(
      ['verify', '-C', 'fixtures/demo', '--runs', '.assay/runs/2026-11-03-rotate-deploy-keys.json', '--audit', '.assay/audit'],
      ROOT,
    );
    expect(code).toBe(1); // its other runs' records are unmatched
    expect(builtins.has('crypto')).toBe(true); // the list is the run's: it hashed
    // (net is loaded all the same here: stdout is a pipe, a socket to Node.)
    for (const name of ['child_process', 'zlib']) expect(builtins.has(name), name).toBe(false);
  });

  it('a bundle read loads zlib then, and still no child_process', () => {
    const { code, builtins } = builtinsOf(
      ['verify', '--runs', 'verified-call.tar.gz', '--audit', 'verified-call.audit.json'],
      path.join(ROOT, 'fixtures/bundles'),
    );
    expect(code).toBe(0);
    expect(builtins.has('zlib')).toBe(true);
    expect(builtins.has('child_process')).toBe(false);
  });
});

describe('dist/cli.js compiles the importers only for the commands that run them', () => {
  it('import and import-run load their code when they run: it is in chunks of its own, not in the bundle every command compiles', () => {
    const dir = path.join(ROOT, 'dist/cli');
    const main = readFileSync(path.join(dir, 'index.js'), 'utf8');
    const chunks = readdirSync(dir)
      .filter((f) => f !== 'index.js' && f.endsWith('.js'))
      .map((f) => readFileSync(path.join(dir, f), 'utf8'));
    // What an importer's and a producer's rows say of their sources: in their code only.
    for (const marker of ['the Okta System Log', 'a GitHub Agentic Workflows safe-outputs manifest']) {
      expect(main.includes(marker), marker).toBe(false);
      expect(
        chunks.filter((c) => c.includes(marker)),
        marker,
      ).toHaveLength(1);
    }
    // And both still run from the bundle, their usage and kinds named without them.
    const out = path.join(tempDir(), 'records.ndjson');
    const imported = spawnCli(['import', 'github-audit-log', '--output', out, 'fixtures/import/github/audit-log-stream.json.gz'], ROOT);
    expect(imported.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('"provider":"github"');
    const unknown = spawnCli(['import-run', 'no-such-kind', '--output', out, 'x'], ROOT);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('import-run: the producer kind comes first: gh-aw-manifest, otlp-json, mcp-jsonrpc');
  });
});
