/**
 * A mistake never turns the gate green, and says what it is: the mistakes a new user makes, each
 * reproduced (semantics §6, §7, §12). Every case here passed silently, or said something else, before.
 */

import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { COMMAND_SPECS } from '../../src/cli/registry.js';
import type { DEFAULTS } from '../../src/gate/settings/defaults.js';
import { renderSarif } from '../../src/report/sarif.js';
import { renderSummary } from '../../src/report/summary.js';
import { inert } from '../../src/report/text.js';
import { addKey, decision, getKey, json, ndjson, record, surface } from '../support/corpus.js';
import { cleanup, cli, cliJson, gate, ROOT, spawnCli, tempDir, writeFiles } from '../support/workspace.js';

afterAll(cleanup);

const workspace = (extra: Record<string, string | Buffer> = {}) =>
  writeFiles(tempDir(), {
    '.assay/runs/r.json': json(surface([addKey({ claim: 'verified' })])),
    '.assay/audit/a.json': json(record('github', 'g1', addKey())),
    ...extra,
  });

describe('rules that name nothing are refused (§7)', () => {
  it('a misspelt class is a usage error with the nearest known class, not a passing gate', async () => {
    const r = await cli(['verify', '-C', workspace(), '--require', 'github_deplyo_key:create=verified'], ROOT);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--require: "github_deplyo_key:create=verified": no action class "github_deplyo_key"');
    expect(r.stderr).toContain('did you mean "github_deploy_key"?');
  });

  it('a misspelt verb is a usage error naming the nearest verb of that class', async () => {
    const r = await cli(['verify', '-C', workspace(), '--require', 'github_deploy_key:craete=verified'], ROOT);
    expect(r).toMatchObject({ code: 2, stderr: expect.stringContaining('did you mean "github_deploy_key:create"?') });
  });

  it('a misspelt level names the nearest level; a second path after --runs (an unquoted glob the shell expanded) says each takes its own flag (a newcomer)', async () => {
    const dir = workspace();
    const level = await cli(['verify', '-C', dir, '--require', 'github_deploy_key=verifed'], ROOT);
    expect(level).toMatchObject({ code: 2, stderr: expect.stringContaining('(did you mean "verified"?)') });
    const paths = await cli(['verify', '-C', dir, '--runs', 'a.json', 'b.json'], ROOT);
    expect(paths.code).toBe(2);
    expect(paths.stderr).toContain('unexpected argument "b.json": each path takes its own --runs (--runs a.json --runs b.json)');
    const policy = await cli(['policy', 'check', '-C', dir, '--audit', 'a.json', 'b.json'], ROOT);
    expect(policy).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('policy: unexpected argument "b.json": each path takes its own --audit'),
    });
  });

  it('a known class absent from the input stays the rule_unused warning; a class the input has is accepted', async () => {
    const absent = await cliJson(['-C', workspace(), '--require', 'workspace_role=verified'], ROOT);
    expect(absent.code).toBe(0);
    expect(absent.report.findings).toContainEqual(
      expect.objectContaining({ code: 'rule_unused', input: 'require: workspace_role=verified', file: null }),
    );
    const custom = workspace({ '.assay/runs/c.json': json(surface([addKey({ resourceType: 'custom_thing', verb: 'poke' })])) });
    expect((await cli(['verify', '-C', custom, '--require', 'custom_thing:poke=asserted'], ROOT)).code).not.toBe(2);
  });

  it("the CLI takes the action's rule syntax: several rules, comma- or newline-separated, in one --require", async () => {
    const r = await cliJson(['-C', workspace(), '--require', 'github_deploy_key=verified,workspace_role=asserted\n*=asserted'], ROOT);
    expect(r.report.policy.rules.map((x) => `${x.selector}=${x.level}`)).toEqual([
      'github_deploy_key=verified',
      'workspace_role=asserted',
      '*=asserted',
    ]);
  });
  it('any flag given an empty value is a usage error naming it, never its default taken in silence (a red team: -C "" and --max-line-size "")', async () => {
    for (const args of [['-C', ''], ['--max-line-size='], ['--max-file-size', ' '], ['--now', ''], ['--policy', '']]) {
      const r = await cli(['verify', ...args], ROOT);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/: an empty value \(an unset variable\?\): give one, or leave the flag out for its default/);
    }
    expect(await cli(['import', 'github-audit-log', '--output', 'o.ndjson', '--actor', '', 'x.json'], workspace())).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--actor: an empty value'),
    });
  });

  it('--require "" or "," (an unset variable) is a usage error, never a gate that requires nothing (a red team)', async () => {
    for (const v of ['', ',', ' \n '])
      expect(await cli(['verify', '-C', workspace(), '--require', v], ROOT)).toMatchObject({
        code: 2,
        stderr: expect.stringContaining(
          v.trim() === '' ? '--require: an empty value (an unset variable?)' : `--require: ${JSON.stringify(v)} names no rule`,
        ),
      });
  });
});

describe('findings about inputs are about the input, first, and never at an invented place (§6)', () => {
  it('a glob that matched nothing: no file, no line; first among the findings; no SARIF location; no blob link', async () => {
    const dir = workspace();
    const r = await cliJson(['-C', dir, '--runs', '.assay/run/*.json', '--runs', '.assay/runs'], ROOT);
    expect(r.code).toBe(1);
    expect(r.report.findings[0]).toMatchObject({
      code: 'no_match',
      input: 'runs: .assay/run/*.json',
      file: null,
      line: null,
      column: null,
    });
    // The reporters, on the same input in-process (they read each call's own findings).
    const report = await gate(dir, { runs: ['.assay/run/*.json', '.assay/runs'], explicit: { runs: true, audit: false } });
    const sarif = JSON.parse(renderSarif(report, '', '0'));
    expect(JSON.stringify(sarif.runs[0].results)).not.toContain('.assay/run/*.json');
    expect(sarif.runs[0].invocations[0].toolConfigurationNotifications).toContainEqual(
      expect.objectContaining({ descriptor: { id: 'no_match' }, message: { text: expect.stringContaining('runs: .assay/run/*.json') } }),
    );
    const md = renderSummary(report, {
      prefix: '',
      blobBase: 'https://github.com/o/r/blob/x',
      reportFile: null,
      budgetBytes: 60_000,
    }).markdown;
    expect(md).not.toMatch(/blob\/x\/\.assay\/run\/\*/);
    expect(md).toContain('runs&#58; .assay/run/&#42;.json');
  });

  it('root causes first: a run that did not parse is named before the record it left unmatched', async () => {
    const dir = workspace({ '.assay/runs/r.json': `\ufeff${json(surface([addKey({ claim: 'verified' })]))}` });
    const r = await gate(dir);
    expect(r.findings.map((f) => f.code)).toEqual(['invalid_artifact', 'record_unmatched']);
    expect(r.findings[0]!.message).toMatch(/byte-order mark/);
  });

  it('SARIF carries no note-level results: notices never become code-scanning alerts', async () => {
    const r = await gate(path.join(ROOT, 'fixtures/demo'));
    expect(r.findings.some((f) => f.severity === 'notice')).toBe(true);
    expect(JSON.parse(renderSarif(r, 'fixtures/demo', '0')).runs[0].results).toEqual([]);
  });

  it('a failed summary does not say "Verified": it checked the commit and says what failed', async () => {
    const r = await gate(path.join(ROOT, 'fixtures/demo-failing'));
    const md = renderSummary(r, { prefix: '', blobBase: null, reportFile: null, budgetBytes: 60_000, commit: '0'.repeat(40) }).markdown;
    expect(md).toMatch(/^## ❌ receipt-gate: failed[^\n]*\n\nChecked commit 0{40}\./);
  });
});

describe('paths on the command line (§6)', () => {
  it('-C works as git -C: --output is written inside DIR', async () => {
    const dir = workspace();
    const r = await cli(['verify', '-C', dir, '--format', 'json', '--output', 'report.json'], ROOT);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(path.join(dir, 'report.json'))).toBe(true);
    expect(existsSync(path.join(ROOT, 'report.json'))).toBe(false);
  });

  it('an --output that cannot be written (a directory) is exit 2 naming it, never a crash or an unhandled rejection', async () => {
    const dir = workspace();
    mkdirSync(path.join(dir, 'out.json'));
    const r = await cli(['verify', '-C', dir, '--format', 'json', '--output', 'out.json'], ROOT);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^receipt-gate: --output: "out\.json" is a directory; name a file to write/);
  });

  it.skipIf(process.platform !== 'linux')('a write that fails part way (a full disk: /dev/full) is exit 2 naming it', async () => {
    const r = await cli(['verify', '-C', workspace(), '--format', 'json', '--output', '/dev/full'], ROOT);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^receipt-gate: cannot write --output \/dev\/full: ENOSPC/);
  });

  it('two outputs naming one file are a usage error, and nothing is written', async () => {
    const dir = workspace();
    writeFileSync(path.join(dir, 'k.pem'), '');
    const r = await cli(
      ['verify', '-C', dir, '--output', 'r.json', '--vsa-predicate', 'r.json', '--resource-uri', 'git+https://x/y@z'],
      ROOT,
    );
    expect(r).toMatchObject({ code: 2, stderr: expect.stringContaining('--vsa-predicate: names the same file as --output') });
    expect(existsSync(path.join(dir, 'r.json'))).toBe(false);
  });

  it('audit inputs pointed at the runs folder read no export: an error, never a pass with a notice (a red team)', async () => {
    const dir = workspace({ '.assay/runs/s.json': json(surface([getKey()])) });
    expect((await cli(['verify', '-C', dir, '--require', '*=asserted'], ROOT)).code).toBe(0);
    const r = await cliJson(['-C', dir, '--require', '*=asserted', '--audit', '.assay/runs'], ROOT);
    expect(r.code).toBe(1);
    expect(r.report.findings.find((f) => f.code === 'no_match' && f.severity === 'error')?.message).toMatch(
      /the audit inputs \(\.assay\/runs\) hold \d+ run object\(s\) and not one audit record or coverage statement: no audit export was read; are runs and audit swapped\?/,
    );
  });

  it('an output naming a file the gate reads (an audit export, a run, the policy file, a trusted key) is a usage error, and the file is kept (a red team: the report replaced an export)', async () => {
    const dir = workspace({ '.github/receipt-gate.yml': 'version: 1\n', 'k.pub.pem': 'x' });
    const run = readdirSync(path.join(dir, '.assay/runs'))[0] ?? '';
    const kept = readFileSync(path.join(dir, '.assay/runs', run));
    for (const [flag, file] of [
      ['--output', `.assay/runs/${run}`],
      ['--sarif-file', `./.assay/runs/${run}`],
      ['--output', '.github/receipt-gate.yml'],
    ] as const) {
      const r = await cli(['verify', '-C', dir, flag, file], ROOT);
      expect(r.code, `${flag} ${file}`).toBe(2);
      expect(r.stderr).toContain(`${flag}: names the input`);
    }
    expect(readFileSync(path.join(dir, '.assay/runs', run))).toEqual(kept);
    expect(readFileSync(path.join(dir, '.github/receipt-gate.yml'), 'utf8')).toBe('version: 1\n');
    // Reached through a link to its folder: the same file (a red team).
    const audit = readFileSync(path.join(dir, '.assay/audit/a.json'));
    symlinkSync('.assay/audit', path.join(dir, 'auditlink'));
    const linked = await cli(['verify', '-C', dir, '--audit', 'auditlink', '--output', '.assay/audit/a.json'], ROOT);
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain('--output: names the input');
    expect(readFileSync(path.join(dir, '.assay/audit/a.json'))).toEqual(audit);
  });

  it('--policy-uri "" is a usage error: a verdict never names an empty policy (a red team)', async () => {
    const r = await cli(
      [
        'verify',
        '-C',
        workspace(),
        '--output',
        'r.json',
        '--vsa-predicate',
        'p.json',
        '--policy-uri',
        '',
        '--resource-uri',
        'git+https://x/y@0123456789abcdef0123456789abcdef01234567',
      ],
      ROOT,
    );
    expect(r).toMatchObject({ code: 2, stderr: expect.stringContaining('--policy-uri: an empty value (an unset variable?)') });
  });

  it('--resource-uri must be a URI', async () => {
    const r = await cli(
      ['verify', '-C', workspace(), '--output', 'r.json', '--vsa-predicate', 'p.json', '--resource-uri', 'notauri'],
      ROOT,
    );
    expect(r).toMatchObject({ code: 2, stderr: expect.stringContaining('--resource-uri: "notauri" is not a URI') });
  });

  it('--trusted-key "" is a usage error saying so, never EISDIR', async () => {
    const r = await cli(['verify', '-C', workspace(), '--trusted-key', ''], ROOT);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--trusted-key: an empty value (an unset variable?)');
    expect(r.stderr).not.toContain('EISDIR');
  });

  it('--audit "" or --runs= (an unset variable) is a usage error, never an input read from nowhere (a red team: every export dropped, coverage with it, and PASS)', async () => {
    for (const args of [['--audit', ''], ['--audit='], ['--runs', ' '], ['--audit', '.assay/audit', '--audit', '']]) {
      const r = await cli(['verify', '-C', workspace(), ...args], ROOT);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/--(audit|runs): an empty value \(an unset variable\?\)/);
    }
    // Exclusions alone read nothing either.
    const only = await cli(['verify', '-C', workspace(), '--audit', '!.assay/audit/drafts/**'], ROOT);
    expect(only).toMatchObject({ code: 2, stderr: expect.stringContaining('--audit: only exclusions (!.assay/audit/drafts/**)') });
  });

  it('evidence a folder holds under a name the gate does not read is an error, never dropped (a red team: a bundle renamed .tgz, a statement renamed .log among exports); a linked folder is a warning', async () => {
    const ws = workspace({
      '.assay/runs/hotfix.tgz': 'x',
      '.assay/audit/2026-05-14.log': '{}\n',
      '.assay/runs/notes.md': 'kept out, quietly',
    });
    const r = await cliJson(['-C', ws], ROOT);
    const errors = r.report.findings.filter((f) => f.code === 'invalid_artifact').map((f) => [f.file, f.severity, f.message.slice(0, 40)]);
    expect(errors).toEqual([
      ['.assay/audit/2026-05-14.log', 'warning', 'a .log file among the audit exports: exp'],
      ['.assay/runs/hotfix.tgz', 'error', 'a .tgz file: receipt-gate reads evidence'],
    ]);
    expect(r.code).toBe(1);
    // A .log among the exports that holds evidence (an import's records saved as .log, a record that would be
    // unmatched) is an error where it holds it (a red team: the record was never read, and the gate passed).
    const held = workspace({
      '.assay/audit/2026-05-15.log': ndjson([
        record('github', 'g9', addKey({ target: { owner: 'acme', repo: 'x', key_title_hash: 'sha256:' + '0'.repeat(64) } })),
      ]),
    });
    const h = await cliJson(['-C', held], ROOT);
    expect(h.code).toBe(1);
    expect(h.report.findings.find((f) => f.file === '.assay/audit/2026-05-15.log')).toMatchObject({
      severity: 'error',
      code: 'invalid_artifact',
      line: 1,
      message: expect.stringMatching(/a \.log file among the audit exports.*; it holds .*: this evidence is not read$/),
    });
    // Rotated, backed-up and renamed copies too (a red team on the fix).
    const copies = workspace(
      Object.fromEntries(
        [
          'new.json.1',
          'new.json.bak',
          'new.ndjson.txt',
          'agent.log.1',
          'x.json~',
          'b.tar.gz.1',
          'c.json-20261203',
          'd.json_old',
          'e.json.sha256',
          'f.json.license',
          ...['sha384', 'sha512sum', 'crt', 'cert', 'bundle', 'sigstore', 'sigstore.json', 'p7s', 'gpg'].map((end) => `g.json.${end}`),
        ].map((n) => [`.assay/runs/${n}`, 'x']),
      ),
    );
    const c = await cliJson(['-C', copies], ROOT);
    expect(
      c.report.findings.filter((f) => f.code === 'invalid_artifact' && /under another name/.test(f.message)).map((f) => f.file),
      // A checksum or a licence beside evidence is no copy of it.
    ).toEqual(
      ['agent.log.1', 'b.tar.gz.1', 'c.json-20261203', 'd.json_old', 'new.json.1', 'new.json.bak', 'new.ndjson.txt', 'x.json~'].map(
        (n) => `.assay/runs/${n}`,
      ),
    );
    // A checksum, signature or certificate whose file is not beside it may be that evidence renamed: an error (a red team: agent.log.sig, agent.log.bak.sig, agent.log.1.sha256).
    const orphans = [
      'e.json.sha256',
      'f.json.license',
      'agent.log.sig',
      'agent.log.bak.sig',
      'agent.log.1.sha256',
      ...['sha384', 'sha512sum', 'crt', 'cert', 'bundle', 'sigstore', 'p7s', 'gpg'].map((end) => `g.json.${end}`),
    ];
    expect(
      c.report.findings
        .filter(
          (f) =>
            f.code === 'invalid_artifact' &&
            /named like a checksum, signature or certificate of .*, which is not beside it/.test(f.message),
        )
        .map((f) => [f.file, f.severity]),
    ).toEqual(['e.json.sha256', 'f.json.license', ...orphans.slice(5)].sort().map((n) => [`.assay/runs/${n}`, 'error']));
    const lone = await cliJson(['-C', workspace(Object.fromEntries(orphans.map((n) => [`.assay/runs/${n}`, 'x'])))], ROOT);
    expect(lone.code).toBe(1);
    expect(lone.report.findings.filter((f) => f.code === 'invalid_artifact').map((f) => f.file)).toEqual(
      orphans.map((n) => `.assay/runs/${n}`).sort(),
    );
    // A folder of the base's name is not its file (a red team: an empty agent.json/ hid agent.json.sig, a failing run).
    const folder = workspace({ '.assay/runs/agent.json.sig': json(surface([addKey()])), '.assay/runs/agent.json/.gitkeep': '' });
    const f = await cliJson(['-C', folder], ROOT);
    expect(f.report.findings.filter((x) => x.code === 'invalid_artifact').map((x) => x.file)).toEqual(['.assay/runs/agent.json.sig']);
    expect(f.code).toBe(1);
    // Beside its file, a sidecar is none of the gate's business: the run passes.
    const run = json(surface([addKey()]));
    const beside = await cliJson(
      [
        '-C',
        workspace(
          Object.fromEntries(
            ['r.json', ...orphans.filter((n) => /^[efg]\.json/.test(n)).map((n) => n.replace(/^[efg]\.json/, 'r.json'))].map((n) => [
              `.assay/runs/${n}`,
              n === 'r.json' ? run : 'x',
            ]),
          ),
        ),
      ],
      ROOT,
    );
    expect(beside.report.findings.filter((f) => f.code === 'invalid_artifact')).toEqual([]);
    // Beside its file, a "sidecar" that holds evidence is that evidence renamed (a red team: a failing
    // run as ok.json.sha256 beside ok.json passed, exit 0): a JSON document or line a reader takes that
    // the file beside it does not hold, gzip bytes. Real ones stay quiet (below).
    const failing = json(surface([addKey({ claim: 'verified', digest: `sha256:${'0'.repeat(64)}` })]));
    const event = (data: unknown) => JSON.stringify({ type: 'assay.tool_decision_surface.v0', data });
    const events = `${event(surface([addKey()]))}\n`;
    const tracing = (rid: string) =>
      JSON.stringify({
        timestamp: '2026-05-14T10:02:41Z',
        level: 'INFO',
        fields: { event: 'tool_decision', rid },
        target: 'assay_mcp_server',
      });
    const disguised = await cliJson(
      [
        '-C',
        workspace({
          '.assay/runs/r.json': run,
          '.assay/runs/r.json.sha256': failing,
          '.assay/runs/r.json.license': `MIT licence\n\n${event(surface([addKey({ claim: 'verified', digest: `sha256:${'0'.repeat(64)}` })]))}\n`,
          '.assay/runs/r.json.sig': Buffer.from([0x1f, 0x8b, 8, 0]),
          '.assay/runs/r.json.bundle': json([record('github', '1', addKey())]),
          // A clear-signed copy of the log beside it, with one line more; a log line behind a container runtime's prefix.
          '.assay/runs/e.ndjson': events,
          '.assay/runs/e.ndjson.asc': `-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n${events}${event(surface([getKey()]))}\n-----BEGIN PGP SIGNATURE-----\n`,
          '.assay/runs/s.log': `${JSON.stringify({ timestamp: '2026-05-14T10:02:41Z', level: 'INFO', fields: { event: 'server_start' }, target: 'assay_mcp_server' })}\n`,
          '.assay/runs/s.log.sig': `2026-05-14T10:02:41.000Z stderr F ${tracing('r-1')}\n`,
          // With nothing beside it, said so.
          '.assay/runs/lone.sha256': failing,
        }),
      ],
      ROOT,
    );
    expect(disguised.code).toBe(1);
    const holds = (r: typeof disguised) =>
      r.report.findings
        .filter((f) => f.code === 'invalid_artifact' && f.message.startsWith('named like a checksum'))
        .map((f) => [
          f.file,
          f.line,
          f.severity,
          /^named like a checksum, signature, certificate or licence(.*?), but it holds (.*?):/.exec(f.message)?.slice(1),
        ]);
    const READ = 'a line the gate reads as evidence';
    const LINE = '(an evidence event, an export entry or a server tracing line?)';
    const DOCUMENT = 'a JSON document the gate reads as evidence (a run or an export?)';
    const BESIDE = ' of the file beside it';
    expect(holds(disguised)).toEqual([
      ['.assay/runs/e.ndjson.asc', 5, 'error', [BESIDE, `${READ} that the file beside it does not hold ${LINE}`]],
      ['.assay/runs/lone.sha256', 1, 'error', ['', DOCUMENT]],
      ['.assay/runs/r.json.bundle', 1, 'error', [BESIDE, DOCUMENT]],
      ['.assay/runs/r.json.license', 3, 'error', [BESIDE, `${READ} that the file beside it does not hold ${LINE}`]],
      ['.assay/runs/r.json.sha256', 1, 'error', [BESIDE, DOCUMENT]],
      ['.assay/runs/r.json.sig', 1, 'error', [BESIDE, 'gzip bytes (an evidence bundle?)']],
      ['.assay/runs/s.log.sig', 1, 'error', [BESIDE, `${READ} that the file beside it does not hold ${LINE}`]],
    ]);
    const real = await cliJson(
      [
        '-C',
        workspace({
          '.assay/runs/r.json': run,
          '.assay/runs/r.json.sha256': `${'a'.repeat(64)}  r.json\n`,
          '.assay/runs/r.json.asc': '-----BEGIN PGP SIGNATURE-----\n\niQEz\n-----END PGP SIGNATURE-----\n',
          '.assay/runs/r.json.pem': '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
          '.assay/runs/r.json.license':
            'Licensed under the Apache License, Version 2.0 {see LICENSE}\n[1] https://www.apache.org/licenses/\n',
          '.assay/runs/r.json.sigstore': JSON.stringify({
            mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json',
            verificationMaterial: {},
          }),
          // cosign's own bundle, a DSSE envelope, Node's JSON of a signature's bytes, a CloudEvent of another kind: JSON, nothing the gate reads.
          '.assay/runs/r.json.bundle': JSON.stringify({ base64Signature: 'MEUC', cert: 'LS0t', rekorBundle: { Payload: {} } }),
          '.assay/runs/r.json.sig': `${JSON.stringify({ payloadType: 'application/vnd.in-toto+json', payload: 'e30=', signatures: [] })}\n`,
          '.assay/runs/r.json.gpg': JSON.stringify({ type: 'Buffer', data: [229, 199, 7] }),
          '.assay/runs/r.json.p7s': JSON.stringify({ specversion: '1.0', type: 'com.example.signed', id: '1', source: 'x', data: {} }),
          // A copy of the run beside it (as a document), and a clear-signed copy of an NDJSON run: nothing unread.
          '.assay/runs/r.json.minisig': run,
          '.assay/runs/e.ndjson': events,
          '.assay/runs/e.ndjson.asc': `-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n${events}-----BEGIN PGP SIGNATURE-----\n`,
          // A checksum list past a megabyte.
          '.assay/runs/all.sha256sums': Array.from({ length: 12_000 }, (_, i) => `${'a'.repeat(64)}  runs/tool_decision_${i}.json\n`).join(
            '',
          ),
        }),
      ],
      ROOT,
    );
    expect(holds(real)).toEqual([]);
    expect(real.code).toBe(0);
    const linked = workspace({ 'archive/2026-11/a.json': json(surface([addKey()])) });
    symlinkSync(path.join(linked, 'archive/2026-11'), path.join(linked, '.assay/runs/2026-11'));
    const l = await cliJson(['-C', linked], ROOT);
    expect(l.report.findings.find((f) => f.code === 'no_match' && f.file === '.assay/runs/2026-11')).toMatchObject({ severity: 'warning' });
  });

  it('a failing run hidden where a reader does not take it is an error, never a pass (a red team): an attestation name not read as one, a name that is not UTF-8 beside a decoy, the other role’s folder, any other name under an input folder, a schema under another name, decisions in a log whose server failed, flattened tracing lines', async () => {
    const failing = json(surface([addKey({ claim: 'verified', digest: `sha256:${'0'.repeat(64)}` })]));
    const passing = json(surface([addKey()]));
    const errorsIn = async (files: Record<string, string | Buffer>) => {
      const r = await cliJson(['-C', writeFiles(tempDir(), files)], ROOT);
      return { code: r.code, errors: r.report.findings.filter((f) => f.severity === 'error').map((f) => [f.code, f.file, f.line]) };
    };
    const audit = { '.assay/audit/a.json': json(record('github', 'g1', addKey())) };
    const runs = { ...audit, '.assay/runs/ok.json': passing };
    // Attestation names the readers do not open: another case, beside a folder or a file of neither role, an orphan.
    for (const name of ['ok.json.SIGSTORE.JSON', 'sub.sigstore.json', 'notes.txt.sigstore.json', 'gone.sigstore.json']) {
      const r = await errorsIn({ ...runs, '.assay/runs/sub/.keep': '', '.assay/runs/notes.txt': 'hi', [`.assay/runs/${name}`]: failing });
      expect(r.code, name).toBe(1);
      expect(r.errors, name).toEqual([['invalid_artifact', `.assay/runs/${name}`, 1]]);
    }
    // A real Sigstore bundle under another case is not read, and said (a warning): it attests nothing.
    const cased = await cliJson(
      [
        '-C',
        writeFiles(tempDir(), {
          ...runs,
          '.assay/runs/ok.json.Sigstore.json': JSON.stringify({ mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json' }),
        }),
      ],
      ROOT,
    );
    expect(cased.report.findings.filter((f) => f.code === 'orphan_attestation').map((f) => [f.file, f.severity])).toEqual([
      ['.assay/runs/ok.json.Sigstore.json', 'warning'],
    ]);
    // Two names that are not UTF-8 read alike: neither is read by a name it does not have.
    const bytes = tempDir();
    writeFiles(bytes, runs);
    writeFileSync(
      Buffer.concat([Buffer.from(path.join(bytes, '.assay/runs/ok')), Buffer.from([0xef, 0xbf, 0xbd]), Buffer.from('.json')]),
      passing,
    );
    writeFileSync(Buffer.concat([Buffer.from(path.join(bytes, '.assay/runs/ok')), Buffer.from([0xff]), Buffer.from('.json')]), failing);
    const utf = await cliJson(['-C', bytes], ROOT);
    expect(utf.code).toBe(1);
    expect(utf.report.findings.filter((f) => f.code === 'invalid_artifact').map((f) => f.message.slice(0, 40))).toEqual([
      'a file whose name is not UTF-8 (it reads',
      'a file whose name is not UTF-8 (it reads',
    ]);
    // The other role's folder, by a file no input of that role names.
    expect(await errorsIn({ ...runs, '.assay/audit/incident.json': failing })).toEqual({
      code: 1,
      errors: [['invalid_artifact', '.assay/audit/incident.json', 1]],
    });
    // Any other name under an input folder (a trailing space, #1, .txt, none).
    for (const name of ['incident.json ', 'incident.json#1', 'incident.txt', 'incident']) {
      expect(await errorsIn({ ...runs, [`.assay/runs/${name}`]: failing }), name).toEqual({
        code: 1,
        errors: [['invalid_artifact', `.assay/runs/${name}`, 1]],
      });
    }
    // A surface under a schema name no reader takes.
    const renamed = failing.replace('assay.tool_decision_surface.v0', 'assay.tool_decisions_surface.v0');
    expect((await errorsIn({ ...runs, '.assay/runs/inc.json': renamed })).errors).toEqual([
      ['invalid_artifact', '.assay/runs/inc.json', 1],
    ]);
    // A server log whose server failed to start, with decisions after: they are judged.
    const start = JSON.stringify({
      timestamp: '2026-05-14T10:02:41Z',
      level: 'INFO',
      fields: { event: 'server_start' },
      target: 'assay_mcp_server',
    });
    const log = `${start}\nError: invalid policy root\n${failing.replace(/\n\s*/g, '')}\n`;
    const judged = await errorsIn({ ...runs, '.assay/runs/inc.log': log });
    expect(judged.code).toBe(1);
    expect(judged.errors).toContainEqual(['verified_not_reproduced', '.assay/runs/inc.log', 3]);
    // A tracing line flattened (event and decision at the top): never skipped as JSON that is no tracing event.
    const flat = JSON.stringify({
      timestamp: '2026-05-14T10:02:42Z',
      level: 'INFO',
      target: 'assay_mcp_server',
      event: 'tool_decision',
      rid: 'r-1',
      decision: '{}',
    });
    expect((await errorsIn({ ...runs, '.assay/runs/inc.log': `${start}\n${flat}\n` })).errors).toEqual([
      ['invalid_artifact', '.assay/runs/inc.log', 2],
    ]);
  });

  it('what stays quiet under the inputs (a red team on false reds): Assay’s enforcement decisions, a README or YAML that names tool_decision, a Sigstore bundle of a checksum list', async () => {
    const enforcement = JSON.stringify({
      schema: 'assay.enforcement_decision.v0',
      caller: { id: 'ci-agent' },
      tool: { name: 'misc.do_thing', action_class: null },
      action: { verb: null, resource_type: null, target: null, target_digest: null },
      decision: 'deny',
      reason: 'unclassified_tool_call',
      fail_closed: true,
      non_claims: [],
    });
    const r = await cliJson(
      [
        '-C',
        workspace({
          '.assay/runs/enforcement-decisions.ndjson': `${enforcement}\n`,
          '.assay/runs/README.md':
            'jq -r ".observed_tool_decisions[] | {tool: .tool.name}" .assay/runs/*.json\nServer logs carry one `tool_decision` event per call (see {docs}).\n',
          '.assay/runs/12345/eval.yaml': 'expected: {type: tool_decision, decision: allow}\n',
          '.assay/runs/checksums.txt': `${'a'.repeat(64)}  r.json\n`,
          '.assay/runs/checksums.txt.sigstore.json': JSON.stringify({ mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json' }),
        }),
      ],
      ROOT,
    );
    expect(r.report.findings.filter((f) => f.severity !== 'notice')).toEqual([]);
    expect(r.code).toBe(0);
    // A quoted "tool_decision" member behind a container runtime's prefix is still evidence, in a file not read by its name.
    const prefixed = await cliJson(
      [
        '-C',
        workspace({
          '.assay/runs/agent.log.txt': `2026-05-14T10:02:41Z stderr F {"timestamp":"t","level":"INFO","fields":{"event":"tool_decision","rid":"r-1"},"target":"assay_mcp_server"}\n`,
        }),
      ],
      ROOT,
    );
    expect(prefixed.report.findings.filter((f) => f.severity === 'error').map((f) => [f.code, f.file])).toEqual([
      ['invalid_artifact', '.assay/runs/agent.log.txt'],
    ]);
  });

  it('a DSSE envelope beside a run or an export that is not a bundle is an error, never ignored (a red team: garbage, or a run renamed so, passed)', async () => {
    const ws = workspace({
      '.assay/runs/r.json.intoto.jsonl': 'this is garbage {{{\n',
      '.assay/audit/a.ndjson': '',
      '.assay/audit/a.ndjson.intoto.jsonl': json(surface([addKey()])),
    });
    const r = await cliJson(['-C', ws], ROOT);
    expect(r.code).toBe(1);
    expect(r.report.findings.filter((f) => f.code === 'invalid_artifact').map((f) => [f.file, f.severity, f.message.slice(0, 60)])).toEqual(
      [
        ['.assay/audit/a.ndjson.intoto.jsonl', 'error', 'named like an attestation, but not read as one (only <file>.'],
        ['.assay/runs/r.json.intoto.jsonl', 'error', 'a DSSE envelope beside r.json, which is not an evidence bund'],
      ],
    );
  });

  it('a policy with a collection as a key is refused, located, and the YAML library’s own warning never reaches stderr (a red team)', () => {
    const dir = writeFiles(tempDir(), { 'p.yml': 'version: 1\n? [a]\n: b\n' });
    const r = spawnCli(['verify', '--policy', 'p.yml'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/p\.yml:1:1: unknown key "\[ a \]"/);
    expect(r.stderr).not.toMatch(/Warning|mapAsMap|--trace-warnings/);
  });

  it('a trust key written at the top says where it belongs; yes for true says YAML 1.2 reads it as text (a newcomer)', () => {
    const dir = writeFiles(tempDir(), {
      'top.yml': 'version: 1\nrequire-signed-records: true\n',
      'yes.yml': 'version: 1\ntrust:\n  trusted-keys: [k.pem]\n  require-signed-records: yes\n',
    });
    const top = spawnCli(['verify', '--policy', 'top.yml'], dir);
    expect(top.code).toBe(2);
    expect(top.stderr).toContain(
      'top.yml:2:1: unknown key "require-signed-records" in the file (it belongs under trust: write it inside the trust: section)',
    );
    const yes = spawnCli(['verify', '--policy', 'yes.yml'], dir);
    expect(yes.code).toBe(2);
    expect(yes.stderr).toContain(
      'yes.yml:4:27: trust.require-signed-records must be true or false (YAML 1.2 reads "yes" as text: write true)',
    );
  });

  it('a key written twice in the policy is named (a newcomer: "Map keys must be unique" named none)', () => {
    const dir = writeFiles(tempDir(), { 'p.yml': 'version: 1\ndefault: asserted\ndefault: verified\n' });
    const r = spawnCli(['verify', '--policy', 'p.yml'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('p.yml:3:1: Map keys must be unique ("default" is written twice in one mapping: keep one)');
  });

  it('a flag of one value given twice is a usage error, never the last one taken silently; a repeatable flag stays repeatable', async () => {
    const ws = workspace();
    for (const args of [
      ['-C', ws, '-C', tempDir()],
      ['-C', ws, '--format', 'json', '--format=table'],
      ['-C', ws, '--policy', 'a.yml', '--policy', 'b.yml'],
    ]) {
      const r = await cli(['verify', ...args], ROOT);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/--(working-directory|format|policy) is given twice; it takes one value/);
    }
    expect((await cli(['verify', '-C', ws, '--runs', '.assay/runs', '--runs', '.assay/runs/r.json', '--format', 'json'], ROOT)).code).toBe(
      0,
    );
  });

  it('names from the evidence never start a workflow command on the CLI’s stderr (a red team: a class or a folder named with a line break and ::error::)', async () => {
    const evil = 'zz\n::error file=README.md,line=1::Looks fine\n::add-mask::abc';
    const dir = writeFiles(tempDir(), {
      '.assay/runs/r.json': json(surface([decision({ tool: 't', verb: 'create', resourceType: evil, target: { provider: 'github' } })])),
      '.assay/runs/a\n::error::Y/keep': 'x',
    });
    const lines = (text: string) => text.split('\n').filter((l) => /^\s*(::|##\[)/.test(l));
    const classes = spawnCli(['verify', '-C', dir, '--require', 'qqqqqqqqqqqqqqqqqqqq=verified'], dir);
    expect(classes.code).toBe(2);
    expect(classes.stderr).toContain('zz\\u000a::error file=README.md');
    expect(lines(classes.stderr)).toEqual([]);
    const folder = spawnCli(['verify', '-C', dir, '--runs', '.assay/runs/a\n::error::Z'], dir);
    expect(folder.code).toBe(2);
    expect(lines(folder.stderr)).toEqual([]);
    // Whatever else a message carries, a line the runner would read is made inert.
    expect(inert('x\n::error::y\n  ##[group]z\nok :: fine')).toBe('x\n\\u003a:error::y\n  \\u0023#[group]z\nok :: fine');
    // `##[` anywhere in a line, and `::` after any white space (the runner's own parsing; a red team).
    expect(inert('tool deploy ##[add-mask]acme\n\u00a0::error::x')).toBe('tool deploy \\u0023#[add-mask]acme\n\u00a0\\u003a:error::x');
    // U+0085 is white space to the runner (.NET's TrimStart), not to JavaScript's \s (a red team: stop-commands through a file name).
    expect(inert('a\n\u0085::stop-commands::tok')).toBe('a\n\u0085\\u003a:stop-commands::tok');
    const { cacheText } = await import('../../src/gate/cache.js');
    const text = cacheText(
      {
        files: 1,
        hits: 0,
        stored: 0,
        ignored: 0,
        firstIgnored: null,
        unstored: 1,
        firstUnstored: 'runs/0\n\u0085::notice::PASS\n.tar.gz: refused',
      },
      '/c',
    );
    expect(text).not.toMatch(/\n/);
    expect(text).toContain('runs/0\\u000a\\u0085::notice::PASS\\u000a.tar.gz');
    const tool = 'deploy ##[add-mask]acme';
    const runs = writeFiles(tempDir(), { '.assay/runs/r.json': json(surface([addKey({ tool })])) });
    for (const format of ['json', 'table']) {
      const out = spawnCli(['verify', '-C', runs, '--format', format], runs);
      expect(out.stdout, format).not.toContain('##[');
      if (format === 'json') expect(JSON.parse(out.stdout).calls[0].tool).toBe(tool);
    }
  });

  it('--require-signed-records without a trusted signer is a usage error (trust never turned off by an empty list)', async () => {
    const r = await cli(['verify', '-C', workspace(), '--require-signed-records'], ROOT);
    expect(r).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--require-signed-records is on, but neither --trusted-key nor --trusted-signer-identity is given'),
    });
  });
});

describe('every action input that selects what is verified or trusted has a CLI flag of the same name', () => {
  // Inputs about GitHub only (annotations, the check run, the token, the job summary, the Actions
  // cache: the CLI's --cache DIR is a folder the user fills, not GitHub's service; docs/cache.md).
  const GITHUB_ONLY = ['annotations', 'annotate', 'check-run-id', 'check-name', 'github-token', 'summary', 'max-annotations', 'cache'];
  it('checked against action.yml', () => {
    const action = parseYaml(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> };
    const verify = COMMAND_SPECS.find((c) => c.name === 'verify')!;
    const mapped = new Set(verify.options.map((o) => o.input).filter((i) => i !== undefined));
    for (const input of Object.keys(action.inputs)) {
      if (GITHUB_ONLY.includes(input)) continue;
      expect(mapped.has(input as keyof typeof DEFAULTS), `action input ${input} has no CLI flag`).toBe(true);
      const flag = verify.options.find((o) => o.input === input)!.flag;
      const plural = [`${flag}s`, flag.replace(/y$/, 'ies')];
      expect(input === flag || plural.includes(input) || (input === 'report-file' && flag === 'output'), `${input} ↔ --${flag}`).toBe(true);
    }
  });
});

describe('keys: say what was given', () => {
  const pub = readFileSync(path.join(ROOT, 'fixtures/signed/test-signer.pub.pem'), 'utf8');

  it('a public key where a private one is wanted (sign, attest-bundle) is a usage error naming it', async () => {
    const dir = writeFiles(tempDir(), { 'pub.pem': pub, 'a.json': json(record('github', 'g1', addKey())) });
    const sign = await cli(
      ['sign', '--key', path.join(dir, 'pub.pem'), '--output', path.join(dir, 'o.ndjson'), path.join(dir, 'a.json')],
      ROOT,
    );
    expect(sign.code).toBe(2);
    expect(sign.stderr).toContain('is a public key (PUBLIC KEY); signing needs the private key');
    expect(sign.stderr).not.toMatch(/DECODER|error:1E/);
    const attest = await cli(
      ['attest-bundle', '--key', path.join(dir, 'pub.pem'), path.join(ROOT, 'fixtures/bundles/verified-call.tar.gz')],
      ROOT,
    );
    expect(attest).toMatchObject({ code: 2, stderr: expect.stringContaining('is a public key') });
  });

  it('keygen says which file is secret and that *.key.pem belongs in .gitignore; this repository ignores it', async () => {
    const dir = tempDir();
    const r = await cli(['keygen', '--out', path.join(dir, 'k')], ROOT);
    expect(r.stderr).toContain('never commit it; *.key.pem belongs in .gitignore');
    expect(r.stderr).not.toContain('export job');
    expect(readFileSync(path.join(ROOT, '.gitignore'), 'utf8')).toMatch(/^\*\.key\.pem$/m);
  });

  it('a trusted-keys input holding a file name says the input takes PEM text', async () => {
    const { readTrustedKeys } = await import('../../src/gate/settings/parsers.js');
    expect(() => readTrustedKeys([{ name: 'trusted-keys', pem: 'path/to.pem' }])).toThrow(
      /takes the PEM text of a public key.*not a file name/,
    );
  });
});

describe('outputs stay where they are named', () => {
  it('--output, --sarif-file and --vsa-predicate below a directory link out of -C are usage errors; nothing is written there', async () => {
    const dir = workspace();
    const elsewhere = tempDir();
    symlinkSync(elsewhere, path.join(dir, 'out'));
    // A folder whose name only begins with two dots is in the workspace (a red team: ..out led out unchecked).
    symlinkSync(elsewhere, path.join(dir, '..out'));
    for (const args of [
      ['--format', 'json', '--output', 'out/r.json'],
      ['--sarif-file', 'out/r.sarif'],
      ['--format', 'json', '--output', 'r.json', '--vsa-predicate', 'out/v.json', '--resource-uri', 'git+https://x/y@z'],
      ['--format', 'json', '--output', '..out/r.json'],
      ['--sarif-file', '..out/r.sarif'],
    ]) {
      const r = await cli(['verify', '-C', dir, ...args], ROOT);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(
        /: "(\.\.)?out\/[a-z.]+" leads out of the workspace through a symbolic link \((\.\.)?out is .*\); not written/,
      );
    }
    expect(readdirSync(elsewhere)).toEqual([]);
    // A path outside -C was chosen by whoever typed it, and is taken as given.
    const r = await cli(['verify', '-C', dir, '--sarif-file', path.join(elsewhere, 'r.sarif')], ROOT);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(elsewhere)).toEqual(['r.sarif']);
  });
});

describe('a file a flag names is read only if it is a regular file, within the file limit', () => {
  const ID = [
    '--trusted-producer-identity',
    'https://github.com/a/b/.github/workflows/x.yml@refs/heads/main',
    '--source-repository',
    'a/b',
  ];

  it.skipIf(process.platform !== 'linux')(
    'a device where a file is wanted is refused at once, never read until memory runs out',
    async () => {
      const dir = workspace();
      const root = await cli(['verify', '-C', dir, '--trusted-root', '/dev/zero', ...ID], ROOT);
      expect(root).toMatchObject({ code: 2, stderr: expect.stringContaining('trusted-root /dev/zero: not a regular file; not read') });
      const sign = await cli(
        ['sign', '--key', '/dev/zero', '--output', path.join(dir, 'o.ndjson'), path.join(dir, '.assay/audit/a.json')],
        ROOT,
      );
      expect(sign).toMatchObject({ code: 2, stderr: expect.stringContaining('--key /dev/zero: not a regular file; not read') });
      const imported = await cli(['import', 'github-audit-log', '--output', path.join(dir, 'i.ndjson'), '/dev/zero'], ROOT);
      expect(imported.stderr).toContain('/dev/zero: not a regular file; not read');
      expect(existsSync(path.join(dir, 'i.ndjson'))).toBe(false);
    },
  );

  it('a trusted root past max-file-size is refused with the limit named', async () => {
    const dir = workspace({ 'root.json': `${' '.repeat(2048)}{}` });
    const r = await cli(['verify', '-C', dir, '--trusted-root', 'root.json', '--max-file-size', '1KiB', ...ID], ROOT);
    expect(r).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/trusted-root .*root\.json: file is 2050 bytes, over the 1024-byte limit \(max-file-size\)/),
    });
  });
});

describe('messages that say what happened', () => {
  it('a UTF-16 file says it is UTF-16', async () => {
    const text = json(surface([addKey()]));
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const r = await gate(writeFiles(tempDir(), { '.assay/runs/r.json': utf16 }));
    expect(r.findings[0]!.message).toMatch(/the file is UTF-16 \(little-endian, with a byte-order mark\), not UTF-8/);
  });

  it('verify-attestation given the predicate file says it is a predicate, not an envelope', async () => {
    const dir = writeFiles(tempDir(), {
      'p.json': JSON.stringify({ verifier: { id: 'x' }, verificationResult: 'PASSED' }),
      'r.json': '{}',
      'k.pem': readFileSync(path.join(ROOT, 'fixtures/signed/test-signer.pub.pem'), 'utf8'),
    });
    const r = await cli(['verify-attestation', '--trusted-key', 'k.pem', '--report', 'r.json', 'p.json'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('this is a Verification Summary predicate');
    expect(r.stderr).not.toContain('unknown member');
  });

  it('COMMAND --help prints that command alone', async () => {
    const r = await cli(['sign', '--help'], ROOT);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('receipt-gate sign --key FILE');
    expect(r.stdout).not.toContain('receipt-gate verify ');
  });

  it('the directory rule names *.log everywhere it is stated (--help, action.yml)', async () => {
    expect((await cli(['verify', '--help'], ROOT)).stdout.replace(/\s+/g, ' ')).toContain('*.json, *.jsonl, *.ndjson, *.log and *.tar.gz');
    expect(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')).toContain('*.json, *.jsonl, *.ndjson, *.log and *.tar.gz');
  });
});
