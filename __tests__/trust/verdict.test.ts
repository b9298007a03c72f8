/**
 * The verdict attestation(docs/attestations.md §2): the Statement read field by field
 * against the doc (an independent reading, not the code's constants), an envelope the CLI made
 * verified with node:crypto alone, and verify-attestation refusing every tampering in its order.
 */

import { createHash, createPrivateKey, createPublicKey, verify as edVerify, generateKeyPairSync, sign } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import canonicalize from 'canonicalize';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.js';
import { vsaStatement } from '../../src/report/verification-summary.js';
import { checkout } from '../support/action-harness.js';
import { addKey, deployKey, json, ndjson, record, surface, testSigner } from '../support/corpus.js';
import { cleanup, cli, ROOT, tempDir, writeFiles } from '../support/workspace.js';

afterAll(cleanup);

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const RESOURCE = 'git+https://github.com/acme/agents@0123456789abcdef0123456789abcdef01234567';

/** Run the gate on a demo with a verdict requested; returns the files. */
async function attest(demo: string, extra: string[] = []) {
  const dir = tempDir();
  const key = path.join(dir, 'verdict');
  expect((await cli(['keygen', '--out', key], dir)).code).toBe(0);
  const report = path.join(dir, 'receipt-report.json');
  const r = await cli(
    [
      'verify',
      '-C',
      path.join(ROOT, demo),
      '--output',
      report,
      '--vsa-predicate',
      path.join(dir, 'predicate.json'),
      '--vsa',
      `${report}.intoto.jsonl`,
      '--vsa-key',
      `${key}.key.pem`,
      '--resource-uri',
      RESOURCE,
      ...extra,
    ],
    dir,
  );
  return { dir, r, report, envelope: `${report}.intoto.jsonl`, pub: `${key}.pub.pem`, predicate: path.join(dir, 'predicate.json') };
}

const pae = (type: string, body: Buffer) => Buffer.concat([Buffer.from(`DSSEv1 ${Buffer.byteLength(type)} ${type} ${body.length} `), body]);

describe('the Statement, read field by field against the doc', async () => {
  const a = await attest('fixtures/demo');
  const envelope = JSON.parse(readFileSync(a.envelope, 'utf8'));
  const payload = Buffer.from(envelope.payload, 'base64');
  const statement = JSON.parse(payload.toString('utf8'));
  const report = readFileSync(a.report);
  const parsedReport = JSON.parse(report.toString('utf8'));

  it('is written, and the gate still passes', () => {
    expect(a.r.code, a.r.stderr).toBe(0);
    expect(a.r.stderr).toMatch(/verdict \(PASSED\) written to/);
  });

  it('the envelope: in-toto payload type, the payload is JCS of the Statement, one signature that node:crypto verifies over PAE', () => {
    expect(Object.keys(envelope)).toEqual(['payload', 'payloadType', 'signatures']);
    expect(envelope.payloadType).toBe('application/vnd.in-toto+json');
    expect(payload.toString('utf8')).toBe(canonicalize(statement));
    expect(envelope.signatures).toHaveLength(1);
    const pub = createPublicKey(readFileSync(a.pub, 'utf8'));
    expect(envelope.signatures[0].keyid).toBe(`sha256:${sha(pub.export({ type: 'spki', format: 'der' }))}`);
    expect(edVerify(null, pae('application/vnd.in-toto+json', payload), pub, Buffer.from(envelope.signatures[0].sig, 'base64'))).toBe(true);
  });

  it('subject: the report file by name, with the sha256 of its exact bytes', () => {
    expect(statement._type).toBe('https://in-toto.io/Statement/v1');
    expect(statement.subject).toEqual([{ name: 'receipt-report.json', digest: { sha256: sha(report) } }]);
    expect(statement.predicateType).toBe('https://slsa.dev/verification_summary/v1');
  });

  it('predicate: verifier, time, resourceUri, policy digest over the policy object the report carries, every input with its sha256', () => {
    const p = statement.predicate;
    expect(p.verifier).toEqual({
      id: 'https://github.com/receipt-gate/receipt-gate',
      version: { 'receipt-gate': JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version },
    });
    expect(p.timeVerified).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(p.resourceUri).toBe(RESOURCE);
    expect(parsedReport.policy).toEqual({
      rules: [],
      trusted_signers: [],
      trusted_producers: [],
      allow_unmatched_records: false,
      strict_observed: false,
    });
    expect(p.policy.digest).toEqual({ sha256: sha(canonicalize(parsedReport.policy) as string) });
    const demo = path.join(ROOT, 'fixtures/demo');
    const files = [
      '.assay/audit/github/2026-11.json',
      '.assay/audit/slack/2026-11.ndjson',
      '.assay/runs/2026-11-03-rotate-deploy-keys.json',
      '.assay/runs/2026-11-12-onboarding.ndjson',
      '.assay/runs/2026-11-20-release.tar.gz',
    ];
    expect(p.inputAttestations).toEqual(files.map((uri) => ({ uri, digest: { sha256: sha(readFileSync(path.join(demo, uri))) } })));
    expect(p.verificationResult).toBe('PASSED');
    expect(p.verifiedLevels).toEqual(['RECEIPTS_WEAKEST_ASSERTED']);
    expect(JSON.parse(readFileSync(a.predicate, 'utf8'))).toEqual(p);
  });

  it('deterministic apart from timeVerified', async () => {
    const b = await attest('fixtures/demo');
    const other = JSON.parse(Buffer.from(JSON.parse(readFileSync(b.envelope, 'utf8')).payload, 'base64').toString('utf8'));
    const strip = (s: { predicate: Record<string, unknown> }) => ({ ...s, predicate: { ...s.predicate, timeVerified: null } });
    expect(strip(other)).toEqual(strip(statement));
  });

  it('a failed gate still gets a Statement: FAILED and no levels; policy and signers show in the levels when in force', async () => {
    const f = await attest('fixtures/demo-failing');
    expect(f.r.code).toBe(1);
    const s = JSON.parse(Buffer.from(JSON.parse(readFileSync(f.envelope, 'utf8')).payload, 'base64').toString('utf8'));
    expect(s.predicate.verificationResult).toBe('FAILED');
    expect(s.predicate.verifiedLevels).toEqual([]);
    const signedDemo = path.join(ROOT, 'fixtures/demo-signed');
    const g = await attest('fixtures/demo-signed', [
      '--trusted-key',
      'trusted-signer.pub.pem',
      '--require',
      'github_deploy_key:create=verified',
      '--require',
      'workspace_role=observed_confirmed',
    ]);
    expect(g.r.code, g.r.stderr).toBe(0);
    const gs = JSON.parse(Buffer.from(JSON.parse(readFileSync(g.envelope, 'utf8')).payload, 'base64').toString('utf8'));
    expect(gs.predicate.verifiedLevels).toEqual(['RECEIPTS_WEAKEST_ASSERTED', 'RECEIPTS_POLICY_MET', 'RECEIPTS_SIGNED_RECORDS']);
    expect(gs.predicate.inputAttestations.map((i: { uri: string }) => i.uri)).toContain('.assay/audit/github/2026-12.ndjson');
    expect(readFileSync(path.join(signedDemo, '.assay/audit/github/2026-12.ndjson')).length).toBeGreaterThan(0);
  });

  it('asking for a verdict without --output, without a key for --vsa, or without any resourceUri is a usage error', async () => {
    const dir = tempDir();
    const demo = path.join(ROOT, 'fixtures/demo');
    expect((await cli(['verify', '-C', demo, '--vsa-predicate', 'p.json', '--resource-uri', RESOURCE], dir)).code).toBe(2);
    expect((await cli(['verify', '-C', demo, '--output', 'r.json', '--vsa', 'v.jsonl', '--resource-uri', RESOURCE], dir)).code).toBe(2);
    const noUri = await cli(['verify', '-C', demo, '--output', 'r.json', '--vsa-predicate', 'p.json'], dir);
    expect(noUri.code).toBe(2);
    expect(noUri.stderr).toMatch(/SLSA requires resourceUri/);
  });

  it('a resourceUri taken from GITHUB_SHA names a checkout of that commit as committed, or no verdict is written (a red team); --resource-uri is the user’s word', async () => {
    const ws = tempDir();
    cpSync(path.join(ROOT, 'fixtures/demo'), ws, { recursive: true });
    const commit = checkout(ws);
    const env = { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/agents', GITHUB_SHA: commit };
    const args = ['verify', '--output', 'r.json', '--vsa-predicate', 'p.json'];
    const ok = await cli(args, ws, env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(ws, 'p.json'), 'utf8')).resourceUri).toBe(`git+https://github.com/acme/agents@${commit}`);
    rmSync(path.join(ws, 'p.json'));
    rmSync(path.join(ws, 'r.json'));
    const other = await cli(args, ws, { ...env, GITHUB_SHA: 'e'.repeat(40) });
    expect(other.code).not.toBe(0);
    expect(other.stderr).toMatch(/the checkout is at [0-9a-f]{12}, not at eeeeeeeeeeee, the commit the verdict would name/);
    const run = readdirSync(path.join(ws, '.assay/runs'))[0] ?? '';
    writeFileSync(path.join(ws, '.assay/runs', run), `${readFileSync(path.join(ws, '.assay/runs', run), 'utf8')} `);
    const edited = await cli(args, ws, env);
    expect(edited.code).not.toBe(0);
    expect(edited.stderr).toContain(`.assay/runs/${run} differs from ${commit.slice(0, 12)}'s in the checkout`);
    expect(existsSync(path.join(ws, 'p.json'))).toBe(false);
    expect(existsSync(path.join(ws, 'r.json'))).toBe(false);
    // A trusted key a flag names inside the clone is what the verdict rests on too (a red team: a step rewrote it).
    writeFileSync(path.join(ws, '.assay/runs', run), readFileSync(path.join(ROOT, 'fixtures/demo/.assay/runs', run)));
    expect((await cli(['keygen', '--out', path.join(ws, 'signer')], ws)).code).toBe(0);
    const key = await cli([...args, '--trusted-key', 'signer.pub.pem'], ws, env);
    expect(key.stderr).toMatch(/signer\.pub\.pem is not in [0-9a-f]{12}'s tree/);
    expect(existsSync(path.join(ws, 'p.json'))).toBe(false);
    rmSync(path.join(ws, 'signer.pub.pem'));
    rmSync(path.join(ws, 'signer.key.pem'));
    const named = await cli([...args, '--resource-uri', RESOURCE], ws, env);
    expect(named.code, named.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(ws, 'p.json'), 'utf8')).resourceUri).toBe(RESOURCE);
  });

  it('a --vsa-key that cannot be used stops the run before anything is written', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'bad.pem'), 'not a key');
    const r = await cli(
      [
        'verify',
        '-C',
        path.join(ROOT, 'fixtures/demo'),
        '--output',
        path.join(dir, 'r.json'),
        '--vsa',
        path.join(dir, 'v.jsonl'),
        '--vsa-key',
        path.join(dir, 'bad.pem'),
        '--resource-uri',
        RESOURCE,
      ],
      dir,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--vsa-key holds no PEM block/);
    expect(existsSync(path.join(dir, 'r.json'))).toBe(false);
  });
});

describe('verify-attestation', async () => {
  const a = await attest('fixtures/demo');
  const verifyAt = async (report: string, envelope: string, pub = a.pub) =>
    await cli(['verify-attestation', '--trusted-key', pub, '--report', report, envelope], a.dir);
  const rewrite = (
    name: string,
    edit: (e: { payload: string; payloadType: string; signatures: { keyid: string; sig: string }[] }) => void,
  ) => {
    const e = JSON.parse(readFileSync(a.envelope, 'utf8'));
    edit(e);
    const file = path.join(a.dir, name);
    writeFileSync(file, `${JSON.stringify(e)}\n`);
    return file;
  };
  const signWith = (
    name: string,
    statementText: string,
    type = 'application/vnd.in-toto+json',
    key = readFileSync(`${path.join(a.dir, 'verdict')}.key.pem`, 'utf8'),
  ) => {
    const body = Buffer.from(statementText, 'utf8');
    const priv = createPrivateKey(key);
    const sig = sign(null, pae(type, body), priv).toString('base64');
    const file = path.join(a.dir, name);
    writeFileSync(file, `${JSON.stringify({ payload: body.toString('base64'), payloadType: type, signatures: [{ keyid: 'x', sig }] })}\n`);
    return file;
  };
  const statementText = () => Buffer.from(JSON.parse(readFileSync(a.envelope, 'utf8')).payload, 'base64').toString('utf8');

  it('a valid, trusted, PASSED verdict about these report bytes: exit 0 and one line', async () => {
    const r = await verifyAt(a.report, a.envelope);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        `^PASSED ${RESOURCE.replace(/[.+]/g, '\\$&')} · RECEIPTS_WEAKEST_ASSERTED · policy sha256:[0-9a-f]{64} · signed by sha256:[0-9a-f]{64}\n$`,
      ),
    );
  });

  it('an edited report', async () => {
    const edited = path.join(a.dir, 'edited.json');
    writeFileSync(edited, readFileSync(a.report, 'utf8').replace('"ok": true', '"ok": true '));
    const r = await verifyAt(edited, a.envelope);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the subject digest differs from the report offered/);
  });

  it('a flipped signature byte', async () => {
    const file = rewrite('flipped.jsonl', (e) => {
      const b = Buffer.from(e.signatures[0]!.sig, 'base64');
      b[10] = (b[10] as number) ^ 1;
      e.signatures[0]!.sig = b.toString('base64');
    });
    expect((await verifyAt(a.report, file)).stderr).toMatch(/signature does not verify/);
  });

  it('an untrusted key', async () => {
    const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }) as string;
    const pub = path.join(a.dir, 'other.pub.pem');
    writeFileSync(pub, other);
    const r = await verifyAt(a.report, a.envelope, pub);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/unknown signer sha256:[0-9a-f]{64}/);
  });

  it('a FAILED verdict', async () => {
    const f = await attest('fixtures/demo-failing');
    const r = await cli(['verify-attestation', '--trusted-key', f.pub, '--report', f.report, f.envelope], f.dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/verificationResult is "FAILED": the gate did not pass/);
  });

  it('a wrong payload type, checked before the signature', async () => {
    const file = signWith('type.jsonl', statementText(), 'application/json');
    // Located at its file and line, one envelope or several (a red team).
    expect((await verifyAt(a.report, file)).stderr).toMatch(
      /type\.jsonl:1: payload type is "application\/json", not application\/vnd\.in-toto\+json/,
    );
  });

  it('a non-strict payload (a duplicate member), even when signed by the trusted key', async () => {
    const text = statementText().replace('{"_type":', '{"_type":"x","_type":');
    const r = await verifyAt(a.report, signWith('dup.jsonl', text));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/payload is not strict JSON: duplicate key "_type"/);
  });

  it('usage errors are exit 2', async () => {
    expect((await cli(['verify-attestation', '--report', a.report, a.envelope], a.dir)).code).toBe(2);
    expect((await cli(['verify-attestation', '--trusted-key', a.pub, a.envelope], a.dir)).code).toBe(2);
    expect((await cli(['verify-attestation', '--trusted-key', a.pub, '--report', a.report], a.dir)).code).toBe(2);
    // The keyless checks' flags with a key are never taken silently (a red team: a root that does not exist passed).
    for (const extra of [['--trusted-root', 'nonexistent.json'], ['--source-ref', 'x'], ['--certificate-oidc-issuer=https://x']]) {
      const r = await cli(['verify-attestation', '--trusted-key', a.pub, '--report', a.report, ...extra, a.envelope], a.dir);
      expect(r.code, extra.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/check a Sigstore bundle \(with --certificate-identity\), not a key-signed envelope/);
    }
    expect((await cli(['verify-attestation', '--trusted-key', a.pub, '--report', a.report, a.envelope], a.dir)).code).toBe(0);
  });
});

const KEY = addKey();
const OTHER = addKey({ target: deployKey({ title: 'other-key' }) });
const RUNS = { '.assay/runs/a.json': json(surface([KEY, OTHER])) };

/** A corpus with a policy file (and a signer's public key), verified with a verdict predicate; the report and the predicate. */
async function levelsOf(files: Record<string, string>, policy: string) {
  const dir = tempDir();
  writeFiles(dir, { ...files, 'signer.pub.pem': testSigner().pem, 'policy.yml': policy });
  const out = tempDir();
  const r = await cli(
    [
      'verify',
      '-C',
      dir,
      '--policy',
      'policy.yml',
      '--output',
      path.join(out, 'report.json'),
      '--vsa-predicate',
      path.join(out, 'predicate.json'),
      '--resource-uri',
      RESOURCE,
    ],
    dir,
  );
  const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8'));
  const predicate = JSON.parse(readFileSync(path.join(out, 'predicate.json'), 'utf8'));
  return { r, report, levels: predicate.verifiedLevels as string[], result: predicate.verificationResult as string };
}

describe('verifiedLevels claims only what held for every call, record and run (red teams: a PASSED verdict overstated them)', () => {
  it('a rule in mode warn that fell short is no RECEIPTS_POLICY_MET; the same rule met is', async () => {
    const rule = (level: string, mode: string) =>
      `version: 1\nrules:\n  - name: keys\n    match: {class: github_deploy_key}\n    require: ${level}\n    mode: ${mode}\n`;
    const warned = await levelsOf(RUNS, rule('verified', 'warn'));
    expect(warned.r.code, warned.r.stderr).toBe(0);
    expect(warned.report.totals.policy_warned).toBe(2);
    expect(warned.result).toBe('PASSED');
    expect(warned.levels).toEqual(['RECEIPTS_WEAKEST_ASSERTED']);
    const met = await levelsOf(RUNS, rule('asserted', 'enforce'));
    expect(met.r.code, met.r.stderr).toBe(0);
    expect(met.levels).toEqual(['RECEIPTS_WEAKEST_ASSERTED', 'RECEIPTS_POLICY_MET']);
  });

  it('trust in mode warn, with a record no trusted signer signed and runs no producer attested, is no RECEIPTS_SIGNED_RECORDS nor RECEIPTS_ATTESTED_RUNS', async () => {
    const warn = await levelsOf(
      { ...RUNS, '.assay/audit/a.ndjson': ndjson([record('github', 'gh-1', KEY)]) },
      'version: 1\ntrust:\n  mode: warn\n  trusted-keys: [signer.pub.pem]\n  trusted-producers: [signer.pub.pem]\n  require-signed-records: true\n',
    );
    expect(warn.r.code, warn.r.stderr).toBe(0);
    expect(warn.report.findings.map((f: { code: string }) => f.code)).toEqual(
      expect.arrayContaining(['record_untrusted', 'run_unattested']),
    );
    expect(warn.result).toBe('PASSED');
    expect(warn.levels).toEqual(['RECEIPTS_WEAKEST_ASSERTED']);
  });

  it('a grandfathered audit file’s records (trust not asked) are said so in the report and are no RECEIPTS_SIGNED_RECORDS', async () => {
    const audit = ndjson([record('github', 'gh-1', KEY), record('github', 'gh-2', OTHER)]);
    const sum = createHash('sha256').update(audit).digest('hex');
    const g = await levelsOf(
      { ...RUNS, '.assay/audit/a.ndjson': audit },
      `version: 1\ntrust:\n  trusted-keys: [signer.pub.pem]\n  require-signed-records: true\ngrandfathered:\n  - audit: .assay/audit/a.ndjson\n    sha256: ${sum}\n    reason: before the export job signed\n`,
    );
    expect(g.r.code, g.r.stderr).toBe(0);
    expect(g.report.totals.verified).toBe(2);
    expect(g.report.records.map((x: { trust_not_asked?: boolean; untrusted: string | null }) => [x.trust_not_asked, x.untrusted])).toEqual([
      [true, null],
      [true, null],
    ]);
    expect(g.levels).toEqual(['RECEIPTS_WEAKEST_VERIFIED']);
  });

  it('a requirement still waiting for its export, a call excused or grandfathered is no RECEIPTS_POLICY_MET; a record vouched for by a key is a signed one', () => {
    const base = JSON.parse(
      readFileSync(path.join(ROOT, 'fixtures/demo-signed/.assay/audit/github/2026-12.ndjson'), 'utf8').split('\n')[0] as string,
    );
    const report = {
      schema: 'receipt-gate.report.v1',
      ok: true,
      verified_at: '2026-12-01T12:00:00Z',
      policy: { rules: [{ name: 'r' }], trusted_signers: [base.signature.key_id], trusted_producers: [] },
      runs: [],
      calls: [{ required_level: 'verified', rule: 'r' }],
      records: [{ signer: base.signature.key_id, untrusted: null }],
      coverage: [],
      totals: { weakest_level: 'verified', policy_unmet: 0, policy_warned: 0, pending: 0, excepted: 0, grandfathered: 0 },
    };
    const ctx = {
      reportName: 'r.json',
      reportSha256: '0'.repeat(64),
      resourceUri: RESOURCE,
      policyUri: null,
      inputs: new Map(),
      version: '0',
    };
    const levels = (r: unknown) => vsaStatement(r as Report, ctx).predicate.verifiedLevels;
    expect(levels(report)).toEqual(['RECEIPTS_WEAKEST_VERIFIED', 'RECEIPTS_POLICY_MET', 'RECEIPTS_SIGNED_RECORDS']);
    for (const held of ['pending', 'excepted', 'grandfathered'])
      expect(levels({ ...report, totals: { ...report.totals, [held]: 1 } }), held).toEqual([
        'RECEIPTS_WEAKEST_VERIFIED',
        'RECEIPTS_SIGNED_RECORDS',
      ]);
    expect(levels({ ...report, records: [{ signer: base.signature.key_id, untrusted: null, trust_not_asked: true }] })).toEqual([
      'RECEIPTS_WEAKEST_VERIFIED',
      'RECEIPTS_POLICY_MET',
    ]);
    // A call it verifies met its rule only by the grandfathering (a red team).
    expect(
      levels({ ...report, records: [{ signer: base.signature.key_id, untrusted: null, trust_not_asked: true, outcome: 'bound' }] }),
    ).toEqual(['RECEIPTS_WEAKEST_VERIFIED']);
    expect(levels({ ...report, records: [{ signer: 'sha256:other', untrusted: null }] })).not.toContain('RECEIPTS_SIGNED_RECORDS');
    // Never over an empty set (a red team): rules that applied to no call, no record, no run vouch for nothing.
    expect(levels({ ...report, calls: [{ required_level: null, rule: null }], records: [] })).toEqual(['RECEIPTS_WEAKEST_VERIFIED']);
    // The default of asserted asks honesty only: no rule met by it.
    expect(levels({ ...report, calls: [{ required_level: 'asserted', rule: null }] })).not.toContain('RECEIPTS_POLICY_MET');
    expect(levels({ ...report, calls: [{ required_level: 'verified', rule: null }] })).toContain('RECEIPTS_POLICY_MET');
    // A policy of a default alone (no rule) applied is a policy met (a red team: `default: verified` never earned it).
    expect(levels({ ...report, policy: { ...report.policy, rules: [] }, calls: [{ required_level: 'verified', rule: null }] })).toContain(
      'RECEIPTS_POLICY_MET',
    );
    const producers = { ...report.policy, trusted_producers: ['sha256:p'] };
    expect(levels({ ...report, policy: producers, runs: [] })).not.toContain('RECEIPTS_ATTESTED_RUNS');
    expect(levels({ ...report, policy: producers, runs: [{ producer: { checked: true } }] })).toContain('RECEIPTS_ATTESTED_RUNS');
  });

  it('a rule that applies to no call and trusted signers with no record to vouch for claim nothing, end to end (a red team)', async () => {
    const none = await levelsOf(
      RUNS,
      'version: 1\ntrust:\n  trusted-keys: [signer.pub.pem]\n  require-signed-records: true\nrules:\n  - name: aws\n    match: {class: aws_iam_access_key}\n    require: verified\n',
    );
    expect(none.r.code, none.r.stderr).toBe(0);
    expect(none.report.records).toEqual([]);
    expect(none.result).toBe('PASSED');
    expect(none.levels).toEqual(['RECEIPTS_WEAKEST_ASSERTED']);
  });
});
