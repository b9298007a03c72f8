/**
 * A newcomer's first hour and a red team's findings (issue 35): every mistake below gave a green gate,
 * a silent skip or a misleading message before. Each test names its item. Items covered elsewhere:
 * 4 and 7–9 in __tests__/action/run.test.ts ("GitHub's contract"), 10, 11, 13 in
 * __tests__/trust/keyless.test.ts, the workers cap of 15 in __tests__/gate/readers.test.ts.
 */

import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.js';
import { renderSummary } from '../../src/report/summary.js';
import { SHIPPED_ROOT_TAKEN } from '../../src/trust/shipped-root.js';
import { bundleParts, gzip, tar } from '../support/bundle-writer.js';
import { addKey, decision, getKey, json, ndjson, record, serverLog, signed, surface, testSigner } from '../support/corpus.js';
import { EXPORT_IDENTITY, REPO } from '../support/sigstore.js';
import { cleanup, cli, cliJson, gate, ROOT, tempDir, writeFiles } from '../support/workspace.js';

afterAll(cleanup);

const FX = path.join(ROOT, 'fixtures/import/github');
const run = () => json(surface([addKey({ claim: 'verified' })]));
const rec = () => json(record('github', 'g1', addKey()));
const codes = (r: Report) => r.findings.map((f) => f.code);
const about = (r: Report, code: string) => r.findings.filter((f) => f.code === code);

describe('mistakes that passed (fail closed)', () => {
  it('1: runs and audit swapped: the gate read no call, fails, and says the inputs look swapped', async () => {
    const ws = writeFiles(tempDir(), {
      '.assay/runs/records.ndjson': ndjson([record('github', 'g1', addKey())]),
      '.assay/audit/run.json': run(),
    });
    const r = await cliJson(['-C', ws, '--require', 'github_deploy_key=verified'], ROOT);
    expect(r.code).toBe(1);
    const [f] = about(r.report, 'no_artifacts');
    expect(f?.severity).toBe('error');
    expect(f?.message).toContain('not one decision');
    expect(f?.message).toContain('are runs and audit swapped?');
  });

  it.each([
    ['a 0-byte .log', 'capture.log', ''],
    ['a .log of text lines only', 'capture.log', 'starting server\nlistening on stdio\n'],
  ])('2: %s is not an assay-mcp-server capture: invalid_artifact, the gate fails', async (_n, name, text) => {
    const r = await cliJson(['-C', writeFiles(tempDir(), { [`.assay/runs/${name}`]: text })], ROOT);
    expect(r.code).toBe(1);
    expect(about(r.report, 'invalid_artifact')[0]).toMatchObject({ file: `.assay/runs/${name}`, line: 1, column: 1 });
    expect(about(r.report, 'invalid_artifact')[0]?.message).toContain('server_start');
  });

  it('2: a 0-byte .ndjson as the only run yields no decision: no_artifacts, the gate fails', async () => {
    const r = await cliJson(['-C', writeFiles(tempDir(), { '.assay/runs/r.ndjson': '' })], ROOT);
    expect(r.code).toBe(1);
    expect(about(r.report, 'no_artifacts')[0]?.message).toContain('an empty or truncated capture');
  });

  it('2: a log that starts with server_start is read as before', async () => {
    const log = serverLog([['2026-11-30T10:00:00Z', addKey()]]);
    const r = await cliJson(['-C', writeFiles(tempDir(), { '.assay/runs/capture.log': log })], ROOT);
    expect(r.code).toBe(0);
    expect(r.report.totals.calls).toBe(1);
  });

  it.each(['.assay/runs/r.ndjson.gz', '.assay/runs/capture.log.gz', '.assay/audit/a.json.gz'])(
    '3: %s is refused by name, never skipped in silence',
    async (name) => {
      const ws = writeFiles(tempDir(), { '.assay/runs/ok.json': run(), [name]: gzipSync('{}\n') });
      const r = await cliJson(['-C', ws], ROOT);
      expect(r.code).toBe(1);
      const [f] = about(r.report, 'invalid_artifact').filter((x) => x.file === name);
      expect(f?.message).toMatch(/compressed/);
    },
  );
});

describe('a pull request that writes outside the workspace (5)', () => {
  const outside = () => tempDir();
  const linked = () => {
    const ws = tempDir();
    const away = outside();
    symlinkSync(away, path.join(ws, 'od'));
    writeFileSync(path.join(ws, 'key.pem'), testSigner().privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    writeFileSync(path.join(ws, 'records.ndjson'), ndjson([record('github', 'g1', addKey())]));
    return { ws, away };
  };
  const exportFile = path.join(FX, 'audit-log-rest-page.json');

  it.each([
    ['import --output', ['import', 'github-audit-log', '--output', 'od/victim', exportFile]],
    ['import --predicate', ['import', 'github-audit-log', '--output', 'r.ndjson', '--predicate', 'od/victim', exportFile]],
    ['sign --output', ['sign', '--key', 'key.pem', '--output', 'od/victim', 'records.ndjson']],
    ['keygen --out', ['keygen', '--out', 'od/victim']],
  ])('%s through a committed directory link is refused; nothing is written out there', async (_n, args) => {
    const { ws, away } = linked();
    const r = await cli(args, ws);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('leads out of the workspace through a symbolic link (od is');
    expect(readdirSync(away)).toEqual([]);
  });

  it('two outputs naming one file (directly, or through a link) and --output . are usage errors that say why', async () => {
    const ws = tempDir();
    mkdirSync(path.join(ws, 'real'));
    symlinkSync(path.join(ws, 'real'), path.join(ws, 'alias'));
    const same = await cli(['import', 'github-audit-log', '--output', 'x', '--predicate', 'x', exportFile], ws);
    expect(same).toMatchObject({ code: 2, stderr: expect.stringContaining('--predicate: names the same file as --output') });
    const viaLink = await cli(['import', 'github-audit-log', '--output', 'real/r.json', '--predicate', 'alias/r.json', exportFile], ws);
    expect(viaLink).toMatchObject({ code: 2, stderr: expect.stringContaining('names the same file as --output') });
    const dot = await cli(['import', 'github-audit-log', '--output', '.', exportFile], ws);
    expect(dot).toMatchObject({ code: 2, stderr: expect.stringContaining('"." is a directory; name a file to write') });
    expect(existsSync(path.join(ws, 'x'))).toBe(false);
  });
});

describe("GitHub's contract: a file name a pull request controls (6)", () => {
  it('links in the summary and SARIF uris are percent-encoded in full: ( ) # ? % never break out', async () => {
    const name = 'r(1) #x?y%41.json';
    const ws = writeFiles(tempDir(), { [`.assay/runs/${name}`]: json(surface([addKey({ claim: 'verified' })])) });
    const sarifFile = path.join(ws, 'out.sarif');
    await cliJson(['-C', ws, '--sarif-file', sarifFile], ROOT);
    const encoded = '.assay/runs/r%281%29%20%23x%3Fy%2541.json';
    const sarif = JSON.parse(readFileSync(sarifFile, 'utf8'));
    const uris = sarif.runs[0].results.flatMap((x: any) => x.locations.map((l: any) => l.physicalLocation.artifactLocation.uri));
    expect(uris.length).toBeGreaterThan(0);
    expect(new Set(uris)).toEqual(new Set([encoded]));
    const md = renderSummary(await gate(ws), {
      prefix: '',
      blobBase: 'https://github.com/acme/agents/blob/abc',
      reportFile: null,
      budgetBytes: 60_000,
      commit: '0'.repeat(40),
    }).markdown;
    expect(md).toContain(`(https://github.com/acme/agents/blob/abc/${encoded}#L`);
    expect(md).not.toContain('r(1)');
  });
});

describe('trust edges (red team)', () => {
  it('12: an attestation of an attestation is orphan_attestation', async () => {
    const ws = writeFiles(tempDir(), {
      '.assay/runs/r.json': run(),
      '.assay/runs/r.json.sigstore.json': '{}',
      '.assay/runs/r.json.sigstore.json.sigstore.json': '{}',
    });
    const r = await cliJson(['-C', ws], ROOT);
    expect(about(r.report, 'orphan_attestation').map((f) => f.message)).toContainEqual(
      expect.stringContaining('an attestation of an attestation'),
    );
  });

  it('14: a rule for a class outside ASCII that the input has is accepted; a look-alike selector is refused with the nearest name and its code point', async () => {
    const ws = writeFiles(tempDir(), {
      '.assay/runs/r.json': json(
        surface([addKey(), decision({ tool: 'x.poke', verb: 'poke', resourceType: 'repoé', target: { id: 'a' } })]),
      ),
    });
    expect((await cli(['verify', '-C', ws, '--require', 'repoé=asserted'], ROOT)).code).toBe(0);
    const r = await cli(['verify', '-C', ws, '--require', 'github_dеploy_key=verified'], ROOT);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('did you mean "github_deploy_key"?');
    expect(r.stderr).toContain('U+0435');
  });

  it('15: a rule naming a class seen only in a rejected run says the class is only in that invalid file', async () => {
    const bad = surface([
      decision({ tool: 'x.poke', verb: 'poke', resourceType: 'zz_custom', target: { id: 'a' } }),
      decision({ tool: 'x.poke', verb: 'poke', resourceType: 'zz_custom', target: { id: 'b' }, effect: 'deny' }),
    ]);
    const text = json(bad).replace('"effect": "deny"', '"effect": "maybe"');
    const ws = writeFiles(tempDir(), { '.assay/runs/ok.json': run(), '.assay/runs/bad.json': text });
    const r = await cli(['verify', '-C', ws, '--require', 'zz_custom=asserted'], ROOT);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the class is only in .assay/runs/bad.json, a run that is rejected (invalid_artifact): fix that file');
  });

  it('15: a tar member named by both a GNU long name and a PAX path is refused', async () => {
    const parts = bundleParts({ runId: 'r1', events: [] });
    const longName = `${'d/'.repeat(60)}events.ndjson`;
    const pax = (k: string, v: string) => {
      const body = ` ${k}=${v}\n`;
      let n = body.length;
      while (`${n}${body}`.length !== n) n = `${n}${body}`.length;
      return `${n}${body}`;
    };
    const bytes = gzip(
      tar([
        { name: 'manifest.json', data: parts.manifest },
        { name: '././@LongLink', type: 'L', data: `${longName}\0` },
        { name: 'PaxHeader', type: 'x', data: pax('path', 'events.ndjson') },
        { name: 'events.ndjson', data: parts.events },
      ]),
    );
    const ws = writeFiles(tempDir(), { '.assay/runs/b.tar.gz': bytes });
    const r = await cliJson(['-C', ws], ROOT);
    expect(r.code).toBe(1);
    expect(about(r.report, 'invalid_artifact')[0]?.message).toContain('two extended headers before one member');
    // A red team (this stop): a PAX path, then a PAX header without one (GNU tar drops the first: it
    // names the manifest zzz), and a GNU long name with a NUL inside, are refused too.
    const refused = async (members: Parameters<typeof tar>[0]) => {
      const dir = writeFiles(tempDir(), { '.assay/runs/b.tar.gz': gzip(tar(members)) });
      const out = await cliJson(['-C', dir], ROOT);
      expect(out.code).toBe(1);
      return about(out.report, 'invalid_artifact')[0]?.message;
    };
    expect(
      await refused([
        { name: 'PaxHeader', type: 'x', data: pax('path', 'manifest.json') },
        { name: 'PaxHeader', type: 'x', data: pax('mtime', '1') },
        { name: 'zzz', data: parts.manifest },
        { name: 'events.ndjson', data: parts.events },
      ]),
    ).toContain('two extended headers before one member');
    expect(
      await refused([
        { name: '././@LongLink', type: 'L', data: 'manifest.json\0evil\0' },
        { name: 'zzz', data: parts.manifest },
        { name: 'events.ndjson', data: parts.events },
      ]),
    ).toContain('a GNU long name with a NUL inside');
  });

  it('15: an evidence bundle is one gzip member: a second member is refused, NUL padding after the first is not', async () => {
    const parts = bundleParts({ runId: 'r1', events: [{ type: 'assay.tool_decision_surface.v0', data: surface([addKey()]) }] });
    const one = gzip(
      tar([
        { name: 'manifest.json', data: parts.manifest },
        { name: 'events.ndjson', data: parts.events },
      ]),
    );
    const twice = await cliJson(
      ['-C', writeFiles(tempDir(), { '.assay/runs/b.tar.gz': Buffer.concat([one, gzip(Buffer.from('x'))]) })],
      ROOT,
    );
    expect(about(twice.report, 'invalid_artifact')[0]?.message).toMatch(/gzip member/);
    expect(twice.code).toBe(1);
    const padded = await cliJson(['-C', writeFiles(tempDir(), { '.assay/runs/b.tar.gz': Buffer.concat([one, Buffer.alloc(512)]) })], ROOT);
    expect(padded.code).toBe(0);
    expect(padded.report.totals.calls).toBe(1);
  });

  it('15: import reads a one-line .json export larger than max-line-size (up to max-file-size)', async () => {
    const ws = tempDir();
    const entries = JSON.parse(readFileSync(path.join(FX, 'audit-log-rest-page.json'), 'utf8'));
    writeFileSync(path.join(ws, 'big.json'), JSON.stringify(entries));
    const r = await cli(['import', 'github-audit-log', '--max-line-size', '1KiB', '--output', 'r.ndjson', 'big.json'], ws);
    expect(r.code).toBe(0);
    expect(existsSync(path.join(ws, 'r.ndjson'))).toBe(true);
  });

  it('16: the shipped root records when it was taken, and the gate warns past 180 days (trusted_root_stale)', async () => {
    expect(SHIPPED_ROOT_TAKEN).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const ws = writeFiles(tempDir(), { '.assay/runs/r.json': json(surface([addKey()])) });
    const at = (days: number) => new Date(Date.parse(SHIPPED_ROOT_TAKEN) + days * 86_400_000).toISOString();
    const keyless = ['--trusted-signer-identity', EXPORT_IDENTITY, '--source-repository', REPO];
    const fresh = await cliJson(['-C', ws, ...keyless, '--now', at(170)], ROOT);
    expect(codes(fresh.report)).not.toContain('trusted_root_stale');
    const old = await cliJson(['-C', ws, ...keyless, '--now', at(200)], ROOT);
    expect(old.code).toBe(0);
    expect(about(old.report, 'trusted_root_stale')[0]).toMatchObject({ severity: 'warning', file: null });
    expect(about(old.report, 'trusted_root_stale')[0]?.message).toContain('gh attestation trusted-root');
    // A root the user passes is theirs to keep fresh: no warning about the shipped one.
    const shipped = path.join(ROOT, 'src/trust/public-good-root.generated.ts');
    expect(existsSync(shipped)).toBe(true);
  });
});

describe('messages that name the fix', () => {
  it('17: --actor a letter off ([bot] missing) is a usage error naming the actor seen; nothing is written', async () => {
    const ws = tempDir();
    const r = await cli(
      ['import', 'github-audit-log', '--actor', 'deploy-agent', '--output', 'r.ndjson', path.join(FX, 'audit-log-rest-page.json')],
      ws,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('deploy-agent[bot]');
    expect(r.stderr).toContain('nothing was written');
    expect(existsSync(path.join(ws, 'r.ndjson'))).toBe(false);
  });

  it('18: signed records with no trusted key: one warning and one summary line say their signatures were not checked', async () => {
    const key = testSigner();
    const ws = writeFiles(tempDir(), {
      '.assay/runs/r.json': run(),
      '.assay/audit/a.ndjson': ndjson([
        signed(record('github', 'g1', addKey()), key),
        signed(record('github', 'g2', addKey({ target: { owner: 'o', repo: 'r2', key_title_hash: 'x' } })), key),
      ]),
    });
    const r = await cliJson(['-C', ws, '--allow-unmatched-records'], ROOT);
    const found = about(r.report, 'signatures_unchecked');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'warning', file: '.assay/audit/a.ndjson', line: 1 });
    expect(found[0]?.message).toMatch(/^2 audit record\(s\) are signed .* no trusted key is configured/);
    const md = renderSummary(await gate(ws, { allowUnmatchedRecords: true }), {
      prefix: '',
      blobBase: null,
      reportFile: null,
      budgetBytes: 60_000,
      commit: '0'.repeat(40),
    }).markdown;
    expect(md).toContain('**Signatures not checked:**');
    const trusted = writeFiles(ws, { 'key.pub': key.pem });
    const withKey = await cliJson(['-C', trusted, '--allow-unmatched-records', '--trusted-key', 'key.pub'], ROOT);
    expect(codes(withKey.report)).not.toContain('signatures_unchecked');
  });

  it('19: a raw GitHub audit-log export committed as records names itself and the import command', async () => {
    const ws = writeFiles(tempDir(), {
      '.assay/runs/r.json': run(),
      '.assay/audit/export.json': readFileSync(path.join(FX, 'audit-log-rest-page.json'), 'utf8'),
    });
    const r = await cliJson(['-C', ws], ROOT);
    expect(r.code).toBe(1);
    expect(r.report.findings.map((f) => f.message)).toContainEqual(expect.stringContaining('receipt-gate import github-audit-log'));
  });

  it('20: run from a subfolder, the gate names the repository root and -C', async () => {
    const ws = writeFiles(tempDir(), { '.assay/runs/r.json': run(), '.assay/audit/a.json': rec() });
    const r = await cliJson([], path.join(ws, '.assay'));
    expect(r.code).toBe(1);
    expect(about(r.report, 'no_artifacts')[0]?.message).toContain('the gate runs from the repository root (run it there, or give -C ..');
  });

  it('20: records under a misspelt .assay/audits/ (or assay/audit/) are named, and the gate fails: what the folder holds is not read (a red team: a coverage statement there passed)', async () => {
    for (const [runs, audit] of [
      ['.assay/runs', '.assay/audits'],
      ['assay/runs', 'assay/audit'],
    ] as const) {
      const ws = writeFiles(tempDir(), { [`${runs}/r.json`]: run(), [`${audit}/a.json`]: rec() });
      const r = await cliJson(['-C', ws, '--runs', runs], ROOT);
      const near = r.report.findings.find((f) => f.code === 'no_match' && f.message.includes(audit));
      expect(near, audit).toMatchObject({ severity: 'error' });
      expect(near?.message).toContain(`did you mean it? What it holds is not read (give --audit ${audit}`);
      expect(r.code).toBe(1);
    }
  });

  it.each([
    ['--trusted-keys', 'trusted-key'],
    ['--requires', 'require'],
  ])('21: %s (the action input name, a plural) suggests --%s', async (flag, near) => {
    const r = await cli(['verify', flag, 'x'], ROOT);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`(did you mean --${near}?)`);
    expect(r.stderr).not.toContain('positional');
  });

  it('22: observed_confirmed with no digest says what was not reproduced', async () => {
    const ws = writeFiles(tempDir(), {
      '.assay/runs/r.json': json(surface([addKey({ claim: 'observed_confirmed', digest: null }), getKey()])),
    });
    const r = await cliJson(['-C', ws], ROOT);
    const [f] = about(r.report, 'observed_confirmed_not_reproduced');
    expect(f?.message).toContain('names no verification_subject_digest');
    expect(f?.message).not.toContain('earned observed_confirmed; claimed observed_confirmed');
  });

  it('23: a repository with no run yet: no_artifacts says how to bootstrap', async () => {
    const r = await cliJson(['-C', writeFiles(tempDir(), { 'README.md': 'x' })], ROOT);
    expect(r.code).toBe(1);
    expect(about(r.report, 'no_artifacts')[0]?.message).toContain("commit the agent's first run before making this check required");
    expect(about(r.report, 'no_artifacts')[0]?.message).toContain('examples/agent-run.yml');
  });
});

describe('the small messages of the first hour (issue 36)', () => {
  it('keygen --out keys/signer makes keys/; run again, it keeps the pair and prints the same key_id; a half pair is refused', async () => {
    const ws = tempDir();
    const first = await cli(['keygen', '--out', 'keys/signer'], ws);
    expect(first.code).toBe(0);
    expect(existsSync(path.join(ws, 'keys/signer.key.pem'))).toBe(true);
    const again = await cli(['keygen', '--out', 'keys/signer'], ws);
    expect(again).toMatchObject({ code: 0, stdout: first.stdout, stderr: expect.stringContaining('kept as they are') });
    writeFileSync(path.join(ws, 'keys/half.pub.pem'), readFileSync(path.join(ws, 'keys/signer.pub.pem')));
    const half = await cli(['keygen', '--out', 'keys/half'], ws);
    expect(half).toMatchObject({ code: 2, stderr: expect.stringContaining('exists without the other file of its pair') });
  });

  it('a UTF-8 byte-order mark in an import says to save it without one', async () => {
    const ws = writeFiles(tempDir(), {
      'bom.json': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(path.join(FX, 'audit-log-rest-page.json'))]),
    });
    const r = await cli(['import', 'github-audit-log', '--output', 'o.ndjson', 'bom.json'], ws);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('bom.json:1:1: byte-order mark (U+FEFF) is not allowed: save the file as UTF-8 without a byte-order mark');
  });

  it('a CSV export says it is CSV and which JSON export to use', async () => {
    const ws = writeFiles(tempDir(), { 'audit.csv': 'action,actor,created_at\npublic_key.create,deploy-agent[bot],2026-01-01\n' });
    const r = await cli(['import', 'github-audit-log', '--output', 'o.ndjson', 'audit.csv'], ws);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('audit.csv:1:1: this is a CSV export: the importer reads the JSON export');
    expect(r.stderr.match(/audit\.csv:/g)).toHaveLength(1);
  });

  it("the webhook list endpoint's summaries (no payloads) say to fetch each delivery by id", async () => {
    const summary = {
      id: 12345,
      guid: 'g-1',
      delivered_at: '2026-01-01T00:00:00Z',
      status_code: 200,
      event: 'deploy_key',
      action: 'created',
    };
    const ws = writeFiles(tempDir(), { 'list.json': JSON.stringify([summary]) });
    const r = await cli(['import', 'github-webhook', '--output', 'o.ndjson', 'list.json'], ws);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('is a summary from the deliveries list (no request, no payload): fetch each delivery by id');
    expect(r.stderr).toContain('/deliveries/12345');
  });

  it.runIf(path.sep === '/')("--runs '.assay\\runs' suggests .assay/runs", async () => {
    const ws = writeFiles(tempDir(), { '.assay/runs/r.json': run() });
    const r = await cli(['verify', '-C', ws, '--runs', '.assay\\runs'], ROOT);
    expect(r).toMatchObject({ code: 2, stderr: expect.stringContaining('(did you mean ".assay/runs"? paths take / on every OS)') });
  });

  it('calls verified later than they claim are counted in one notice, not one finding per call', async () => {
    const ws = writeFiles(tempDir(), {
      '.assay/runs/r.json': json(surface([addKey(), addKey({ target: { owner: 'org', repo: 'other', key_title_hash: 'a'.repeat(64) } })])),
      '.assay/audit/a.json': json([
        record('github', 'g1', addKey()),
        record('github', 'g2', addKey({ target: { owner: 'org', repo: 'other', key_title_hash: 'a'.repeat(64) } })),
      ]),
    });
    const r = await cliJson(['-C', ws], ROOT);
    expect(r.code).toBe(0);
    const notes = about(r.report, 'under_claimed');
    expect(notes).toHaveLength(1);
    expect(notes[0]?.message).toMatch(
      /^2 call\(s\) earned a higher level than they claim \(2 verified by an audit record exported after the run/,
    );
    expect(r.report.calls.map((c) => c.level)).toEqual(['verified', 'verified']);
  });
});
