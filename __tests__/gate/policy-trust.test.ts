/**
 * Trust in the policy file (issue 40; docs/policy.md §9): the workflow file is part of the pull
 * request it gates, so trust may be written in the policy file, read at the base with the rules (key
 * and root files at the same commit). Trust inputs beside a trust: section are a configuration error;
 * `trust.mode: warn` rolls trust out; grandfathered `audit:` entries and `policy baseline` adopt a
 * history of unattested runs and unsigned records: warn → baseline → enforce.
 */
import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.js';
import { addKey, deployKey, json, record, seededKey, signed, surface, testSigner } from '../support/corpus.js';
import { cleanup, cli, tempDir, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

const NOW = '2026-12-01T12:00:00Z';
const POLICY = '.github/receipt-gate.yml';
const KEY = '.github/receipt-gate/export.pub.pem';
const signer = testSigner();
const call = (i: number) => addKey({ target: deployKey({ owner: 'acme', repo: 'prod-api', title: `k${i}` }) });
const RULES = `version: 1
rules:
  - name: prod-keys
    match: {class: github_deploy_key}
    require: verified
`;
const trustSection = (mode = 'enforce') => `trust:\n  mode: ${mode}\n  trusted-keys: [${KEY}]\n  require-signed-records: true\n`;

async function verify(dir: string, ...extra: string[]): Promise<{ code: number; report: Report; stderr: string }> {
  const r = await cli(['verify', '-C', dir, '--format', 'json', '--now', NOW, ...extra], dir);
  if (r.code === 2) return { code: 2, report: JSON.parse('{}') as Report, stderr: r.stderr };
  return { code: r.code ?? -1, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
}
const codes = (r: Report) => r.findings.filter((f) => f.code !== 'skipped_object').map((f) => `${f.severity} ${f.code}`);

/** A history: one call verified by a signed record, one by an unsigned record (before signing existed). */
function history(): string {
  return writeFiles(tempDir(), {
    '.assay/runs/a.json': json(surface([call(1), call(2)])),
    '.assay/audit/signed.ndjson': `${JSON.stringify(signed(record('github', 'r1', call(1)), signer))}\n`,
    '.assay/audit/old.ndjson': `${JSON.stringify(record('github', 'r2', call(2)))}\n`,
    [KEY]: signer.pem,
  });
}

describe('trust written in the policy file', () => {
  it('trusts what its trusted-keys (read beside it) signed; require-signed-records fails an unsigned record', async () => {
    const dir = history();
    writeFileSync(path.join(dir, POLICY), `${RULES}${trustSection()}`);
    const r = await verify(dir);
    expect(r.code).toBe(1);
    expect(r.report.records.map((x) => [x.record_id, x.outcome])).toEqual([
      ['r2', 'untrusted'],
      ['r1', 'bound'],
    ]);
    expect(codes(r.report)).toContain('error record_untrusted');
    expect(r.report.policy.trusted_signers).toHaveLength(1);
  });

  it('a trust input beside a trust: section is a configuration error naming both places', async () => {
    const dir = history();
    writeFileSync(path.join(dir, POLICY), `${RULES}${trustSection()}`);
    const r = await verify(dir, '--trusted-key', KEY);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /--trusted-key given, and the policy file \.github\/receipt-gate\.yml has a trust: section \(line 6\): trust has one place/,
    );
  });

  it('a key file the section names that does not exist, or require-signed-records with nothing trusted, is a problem of the policy', async () => {
    const dir = history();
    writeFileSync(path.join(dir, POLICY), `${RULES}trust:\n  trusted-keys: [nope.pem]\n`);
    const missing = await verify(dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/trust\.trusted-keys: nope\.pem does not exist at the working tree/);
    writeFileSync(path.join(dir, POLICY), `${RULES}trust:\n  require-signed-records: true\n`);
    const nothing = await verify(dir);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/require-signed-records: true with no trusted-keys and no trusted-signer-identities/);
  });

  it('read at --policy-ref, the key is read at the same commit: a key changed on disk afterwards is not trusted', async () => {
    const dir = history();
    writeFileSync(path.join(dir, POLICY), `${RULES}${trustSection()}`);
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'policy with trust');
    // The working tree swaps the key for another (a pull request would): the committed one still decides.
    writeFileSync(path.join(dir, KEY), seededKey(3).pem);
    const atRef = await verify(dir, '--policy-ref', 'HEAD');
    expect(atRef.report.records.find((x) => x.record_id === 'r1')?.outcome).toBe('bound');
    const onDisk = await verify(dir);
    expect(onDisk.report.records.find((x) => x.record_id === 'r1')?.outcome).toBe('untrusted');
  });
});

describe('a mistake in a path or value of the trust: section is located at it, as every policy_invalid is (docs/policy.md §9, §11)', () => {
  /** The policy's trust: section with one entry (its value on line 7). */
  const withTrust = (dir: string, entry: string) => writeFileSync(path.join(dir, POLICY), `${RULES}trust:\n  ${entry}\n`);
  const IDENTITY = 'https://github.com/acme/exports/.github/workflows/x.yml@refs/heads/main';

  it("outside the repository, a folder, a link, no PEM key, a private key, a root that does not parse, a bad identity, ref or issuer: the entry's file:line:column, never the --help line (a red team)", async () => {
    const dir = history();
    mkdirSync(path.join(dir, '.github/receipt-gate/folder'));
    symlinkSync('export.pub.pem', path.join(dir, '.github/receipt-gate/link.pem'));
    const privateKey = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    writeFiles(dir, { '.github/receipt-gate/private.pem': privateKey, '.github/receipt-gate/garbage.pem': 'garbage\n' });
    const cases: readonly (readonly [string, string, RegExp])[] = [
      ['trusted-keys: [/etc/hostname]', '7:18', /trust\.trusted-keys: \/etc\/hostname is outside the repository/],
      ['trusted-keys: [../outside.pem]', '7:18', /trust\.trusted-keys: \.\.\/outside\.pem is outside the repository/],
      [
        'trusted-keys: [.github/receipt-gate/folder]',
        '7:18',
        /trust\.trusted-keys: \.github\/receipt-gate\/folder: not a regular file; not read/,
      ],
      [
        'trusted-keys: [.github/receipt-gate/link.pem]',
        '7:18',
        /trust\.trusted-keys: \.github\/receipt-gate\/link\.pem is a symbolic link/,
      ],
      ['trusted-keys: [.assay/runs/a.json]', '7:18', /trust\.trusted-keys \.assay\/runs\/a\.json: no PEM "PUBLIC KEY" block/],
      [
        'trusted-producers: [.github/receipt-gate/garbage.pem]',
        '7:23',
        /trust\.trusted-producers \.github\/receipt-gate\/garbage\.pem: no PEM/,
      ],
      ['trusted-keys: [.github/receipt-gate/private.pem]', '7:18', /a private key must never be given as a trusted key/],
      [
        'trusted-producers: [.github/receipt-gate/folder]',
        '7:23',
        /trust\.trusted-producers: \.github\/receipt-gate\/folder: not a regular file/,
      ],
      ['trusted-root: ../root.json', '7:17', /trust\.trusted-root: \.\.\/root\.json is outside the repository/],
      ['trusted-root: .github/receipt-gate/folder', '7:17', /trust\.trusted-root: \.github\/receipt-gate\/folder: not a regular file/],
      ['trusted-signer-identities: [not-a-uri]', '7:31', /trust\.trusted-signer-identities: "not-a-uri" is not a workflow identity/],
      [
        `trusted-producer-identities: ["${IDENTITY}", ftp://x@refs/heads/main]`,
        '7:108',
        /trust\.trusted-producer-identities: "ftp:\/\/x@refs\/heads\/main"/,
      ],
      [`trusted-signer-identities: ["${IDENTITY}"]\n  source-refs: [main]`, '8:17', /trust\.source-refs: "main" is not a ref/],
      [
        `certificate-oidc-issuer: http://x\n  trusted-keys: [${KEY}]`,
        '7:28',
        /trust\.certificate-oidc-issuer: "http:\/\/x" is not an https:\/\/ URL/,
      ],
      // A root that does not load is located at its entry, and in its own file.
      [
        `trusted-signer-identities: ["${IDENTITY}"]\n  trusted-root: .github/receipt-gate/garbage.pem`,
        '8:17',
        /trust\.trusted-root \.github\/receipt-gate\/garbage\.pem:1:1: not a trusted root/,
      ],
    ];
    for (const [entry, at, message] of cases) {
      withTrust(dir, entry);
      const r = await cli(['verify', '-C', dir, '--format', 'json', '--now', NOW, '--source-repository', 'acme/agents'], dir);
      expect(r.code, entry).toBe(2);
      expect(r.stdout, entry).toBe('');
      expect(r.stderr, entry).toMatch(new RegExp(`^receipt-gate: \\.github/receipt-gate\\.yml:${at}: `));
      expect(r.stderr, entry).toMatch(message);
      expect(r.stderr, entry).not.toMatch(/--help/);
      expect(r.stderr.trim().split('\n'), entry).toHaveLength(1);
    }
    // The same section naming the key as it is: it loads.
    withTrust(dir, `trusted-keys: [${KEY}]`);
    const loads = await verify(dir);
    expect(loads.code, loads.stderr).toBe(1);
    expect(loads.report.policy.trusted_signers).toHaveLength(1);
  });

  it('read at --policy-ref, a folder or a link of that commit is located at the entry too, naming the commit', async () => {
    const dir = history();
    writeFiles(dir, { '.github/receipt-gate/folder/x.pem': 'x' });
    symlinkSync('export.pub.pem', path.join(dir, '.github/receipt-gate/link.pem'));
    withTrust(dir, 'trusted-keys: [.github/receipt-gate/folder, .github/receipt-gate/link.pem]');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' }).trim();
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'trust naming a folder and a link');
    const short = git('rev-parse', 'HEAD').slice(0, 12);
    const folder = await verify(dir, '--policy-ref', 'HEAD');
    expect(folder.code).toBe(2);
    expect(folder.stderr).toMatch(
      new RegExp(
        `^receipt-gate: \\.github/receipt-gate\\.yml:7:18: trust\\.trusted-keys: \\.github/receipt-gate/folder at ${short} is a tree, not a file`,
      ),
    );
    expect(folder.stderr).not.toMatch(/--help/);
    withTrust(dir, 'trusted-keys: [.github/receipt-gate/link.pem]');
    git('commit', '-qam', 'trust naming a link');
    const link = await verify(dir, '--policy-ref', 'HEAD');
    expect(link.stderr).toMatch(
      /^receipt-gate: \.github\/receipt-gate\.yml:7:18: trust\.trusted-keys: \.github\/receipt-gate\/link\.pem is a symbolic link.*\(\.github\/receipt-gate\.yml at commit [0-9a-f]{12}\)$/m,
    );
    expect(link.stderr).not.toMatch(/--help/);
    // A link beside the key, in its folder, is not on its way: the key is read (git lists the folder's every entry).
    withTrust(dir, `trusted-keys: [${KEY}]`);
    git('commit', '-qam', 'trust naming the key beside the link');
    const beside = await verify(dir, '--policy-ref', 'HEAD');
    expect(beside.code, beside.stderr).toBe(1);
    expect(beside.report.policy.trusted_signers).toHaveLength(1);
  });
});

describe('a rollout on a history of unsigned records: warn → baseline → enforce', () => {
  it('warn: trust failures are warnings, the summary counts what would fail, and an untrusted record still verifies nothing', async () => {
    const dir = history();
    writeFileSync(path.join(dir, POLICY), `${RULES.replace('require: verified', 'require: asserted')}${trustSection('warn')}`);
    const r = await verify(dir);
    expect(r.code).toBe(0);
    expect(codes(r.report)).toContain('warning record_untrusted');
    expect(r.report.policy.trust_mode).toBe('warn');
    expect(r.report.calls.map((c) => c.level)).toEqual(['verified', 'asserted']);
    const summary = await cli(['verify', '-C', dir, '--format', 'json', '--now', NOW], dir);
    expect(summary.code).toBe(0);
  });

  it('baseline pins the record file that fails trust (audit:), never one that fails honesty; then enforce passes, and a changed file is judged in full', async () => {
    const dir = history();
    // A record that lies (its binding does not match its subject) fails honesty: never pinned.
    writeFiles(dir, {
      '.assay/audit/forged.ndjson': `${JSON.stringify(record('github', 'r3', call(3), { digest: `sha256:${'e'.repeat(64)}` }))}\n`,
    });
    writeFileSync(path.join(dir, POLICY), `${RULES}${trustSection('warn')}`);
    const b = await cli(['policy', 'baseline', '-C', dir, '--now', NOW, '--reason', 'exported before records were signed'], dir);
    expect(b.code, b.stderr).toBe(0);
    const text = readFileSync(path.join(dir, POLICY), 'utf8');
    expect(text).toMatch(/- audit: \.assay\/audit\/old\.ndjson\n {4}sha256: [0-9a-f]{64}\n {4}reason: exported before records were signed/);
    expect(text).not.toMatch(/forged/);
    // Enforce: the pinned file's records bind their calls, trust not asked of them.
    writeFileSync(path.join(dir, POLICY), text.replace('mode: warn', 'mode: enforce'));
    writeFileSync(path.join(dir, '.assay/audit/forged.ndjson'), '');
    const enforced = await verify(dir);
    expect(enforced.report.records.find((x) => x.record_id === 'r2')?.outcome).toBe('bound');
    expect(codes(enforced.report)).not.toContain('error record_untrusted');
    // A new unsigned record in the pinned file changes its bytes: the entry is stale and trust is asked again.
    writeFileSync(
      path.join(dir, '.assay/audit/old.ndjson'),
      `${JSON.stringify(record('github', 'r2', call(2)))}\n${JSON.stringify(record('github', 'r4', call(4)))}\n`,
    );
    const changed = await verify(dir);
    expect(codes(changed.report)).toEqual(expect.arrayContaining(['error record_untrusted', 'warning grandfather_stale']));
    // An audit: entry naming a run file, its sha256 right: stale, never silent (a red team).
    const runs = readdirSync(path.join(dir, '.assay/runs'));
    const run = `.assay/runs/${runs[0]}`;
    const sha = createHash('sha256')
      .update(readFileSync(path.join(dir, run)))
      .digest('hex');
    writeFileSync(
      path.join(dir, POLICY),
      `${RULES}${trustSection('enforce')}grandfathered:\n  - audit: ${run}\n    sha256: ${sha}\n    reason: wrong kind\n`,
    );
    const misnamed = await verify(dir);
    expect(misnamed.report.findings.find((f) => f.code === 'grandfather_stale' && f.message.includes(run))?.message).toMatch(
      /it is a run file, not an audit export \(a run is grandfathered with run:\); this entry grandfathers nothing/,
    );
  });
});
