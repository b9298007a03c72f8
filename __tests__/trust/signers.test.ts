/**
 * no rung without a claim, required levels, trusted signers and the signing tools, on the
 * shared test vector, the signed demos and generated records.
 */

import { createHash, generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordInput } from '../../src/core/model.js';
import { parsePolicy, ruleFor } from '../../src/core/policy.js';
import type { Report } from '../../src/core/report.js';
import { verify } from '../../src/core/verify.js';
import { LEVELS, type Level, levelRank } from '../../src/core/vocabulary.js';
import { inlineReaders } from '../../src/gate/readers.js';
import { readAuditFile } from '../../src/read/artifacts.js';
import type { RecordRead } from '../../src/read/record-read.js';
import { PAYLOAD_TYPE, pae, paeText, payloadOf } from '../../src/read/signature.js';
import { checkRecordSignature } from '../../src/trust/check.js';
import type { TrustedKeys } from '../../src/trust/keys.js';
import { keyIdOf, parsePublicKeys, trustedKeys } from '../../src/trust/keys.js';
import { addKey, deployKey, getKey, record, SIGNED_DEMO_POLICY, seededKey, signed, testSigner } from '../support/corpus.js';
import { evidence, OPTIONS, policyOf } from '../support/evidence.js';
import { cleanup, cli, cliJson, gate, ROOT, spawnCliJson, tempDir, UPSTREAM, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

const SIGNED = path.join(ROOT, 'fixtures/signed');
const vectorText = readFileSync(path.join(SIGNED, 'audit_record_github_deploy_key.signed.json'), 'utf8');
const vector = JSON.parse(vectorText);
const TEST_KEY_ID = 'sha256:646d6be49d9f0048f94f67749eca35156eed4f7a7be18e4fc4a94bfd44e300b0';
const codes = (r: Report) =>
  r.findings
    .filter((f) => f.severity === 'error')
    .map((f) => f.code)
    .sort();

/** A workspace with upstream's verified.json and the given audit export; verified with the given keys. */
/** Records with their trust decided by the check the record-keys checker runs, checked both ways (on libuv's pool and on this thread) to the same decision. */
async function checked(records: readonly RecordRead[], keys: TrustedKeys | null): Promise<RecordInput[]> {
  return Promise.all(
    records.map(async (r): Promise<RecordInput> => {
      if (!keys) return { loc: r.loc, record: r.record, recomputed: r.recomputed, signer: r.signer, trust: { kind: 'unchecked' } };
      const d = await checkRecordSignature(r.signature ?? null, r.payload, keys, 'pool');
      expect(await checkRecordSignature(r.signature ?? null, r.payload, keys, 'inline')).toEqual(d);
      const trust =
        d.kind === 'trusted'
          ? { kind: 'trusted' as const, by: d.by }
          : d.kind === 'untrusted'
            ? { kind: 'untrusted' as const, code: d.code, reason: d.detail }
            : { kind: 'unchecked' as const };
      return { loc: r.loc, record: r.record, recomputed: r.recomputed, signer: r.signer, trust };
    }),
  );
}

async function withRecord(text: string, keys: readonly string[] = [readFileSync(path.join(SIGNED, 'test-signer.pub.pem'), 'utf8')]) {
  const dir = writeFiles(tempDir(), {
    '.assay/runs/verified.json': readFileSync(path.join(UPSTREAM, 'side_effect/verified.json')),
    '.assay/audit/r.json': text,
  });
  if (keys.length === 0) return gate(dir);
  const p = parsePublicKeys(keys.join('\n'));
  if (!p.ok) throw new Error(p.reason);
  const settings = { trustedKeys: trustedKeys(p.value) };
  const pooled = await gate(dir, settings);
  // Checked on the reading thread itself, as every reading thread does when each core has one: the same report.
  expect(await gate(dir, settings, (_files, setup) => (tasks) => inlineReaders(tasks, { ...setup, signatures: 'inline' }))).toEqual(pooled);
  return pooled;
}

describe('the shared test vector (docs/records-provenance.md)', () => {
  it('P, the PAE and the key id reproduce byte for byte', () => {
    const p = payloadOf(vector);
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(`sha256:${createHash('sha256').update(p.text).digest('hex')}`).toBe(
      'sha256:980d69cb1e391a5f1d50a44a6448e9284e18ecdae5b28676f79eb161a76e160b',
    );
    expect(
      createHash('sha256')
        .update(pae(PAYLOAD_TYPE, Buffer.from(p.text)))
        .digest('hex'),
    ).toBe('5dec5570fd699512837b9837755c7faee2fff261c8d8362534eba91d999aa6d1');
    expect(keyIdOf(testSigner().publicKey)).toBe(TEST_KEY_ID);
    // The check frames P from its text: the same bytes as from P's buffer, whatever P holds.
    expect(paeText(PAYLOAD_TYPE, p.text)).toEqual(pae(PAYLOAD_TYPE, Buffer.from(p.text)));
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme-ascii' }), (body, type) => {
        expect(paeText(type, body)).toEqual(pae(type, Buffer.from(body, 'utf8')));
      }),
      { numRuns: 500, seed: 44 },
    );
  });

  it('with the test signer trusted, the signed record verifies verified.json and names its signer', async () => {
    const r = await withRecord(vectorText);
    expect(r.ok).toBe(true);
    expect(r.calls[0]!.level).toBe('verified');
    expect(r.calls[0]!.reason).toContain(`signed by trusted signer ${TEST_KEY_ID}`);
    expect(r.records[0]).toMatchObject({ outcome: 'bound', signer: TEST_KEY_ID, untrusted: null });
    expect(r.policy.trusted_signers).toEqual([TEST_KEY_ID]);
  });

  it('with any other key trusted, it is record_untrusted (unknown signer) and verifies nothing', async () => {
    const r = await withRecord(vectorText, [seededKey(0x40).pem]);
    expect(codes(r)).toEqual(['record_untrusted', 'verified_not_reproduced']);
    expect(r.records[0]).toMatchObject({ outcome: 'untrusted', untrusted: `unknown signer ${TEST_KEY_ID}` });
  });

  it('with no trusted keys, a well-formed signature is reported and not checked', async () => {
    const r = await withRecord(vectorText, []);
    expect(r.ok).toBe(true);
    expect(r.records[0]).toMatchObject({ outcome: 'bound', signer: TEST_KEY_ID });
    expect(r.calls[0]!.reason).toContain(`signed by key_id ${TEST_KEY_ID}, not checked: no trusted keys`);
  });

  it('`sign` with the test key reproduces its signature byte for byte, and writes nothing for an inconsistent record', async () => {
    const dir = tempDir();
    const out = path.join(dir, 'signed.ndjson');
    const r = await cli(
      [
        'sign',
        '--key',
        path.join(SIGNED, 'test-signer.key.pem'),
        '--output',
        out,
        '--signed-at',
        '2026-11-30T12:00:00Z',
        path.join(UPSTREAM, 'side_effect/audit_record_github_deploy_key.json'),
      ],
      ROOT,
    );
    expect(r.code, r.stderr).toBe(0);
    const line = JSON.parse(readFileSync(out, 'utf8'));
    expect(line.signature).toEqual(vector.signature);
    const bad = JSON.parse(readFileSync(path.join(UPSTREAM, 'side_effect/audit_record_github_deploy_key.json'), 'utf8'));
    bad.subject.target.repo = 'other';
    const badFile = path.join(dir, 'bad.json');
    writeFileSync(badFile, JSON.stringify(bad));
    const out2 = path.join(dir, 'never.ndjson');
    const r2 = await cli(
      [
        'sign',
        '--key',
        path.join(SIGNED, 'test-signer.key.pem'),
        '--output',
        out2,
        path.join(UPSTREAM, 'side_effect/audit_record_github_deploy_key.json'),
        badFile,
      ],
      ROOT,
    );
    expect(r2.code).toBe(1);
    expect(r2.stderr).toMatch(/bad\.json:1:1: record "audit-log-entry-9931": binding_digest does not recompute/);
    expect(r2.stderr).toMatch(/nothing written/);
    expect(existsSync(out2)).toBe(false);
  });
});

describe('tampering with a signed record', () => {
  const tampered = (edit: (r: any) => void): string => {
    const r = JSON.parse(vectorText);
    edit(r);
    return JSON.stringify(r);
  };

  it.each([
    ['a covered member (non_claims)', (r: any) => r.non_claims.push('added later'), 'payload digest differs'],
    ['the record id', (r: any) => (r.record_id = 'audit-log-entry-9932'), 'payload digest differs'],
    ['the provider', (r: any) => (r.provider = 'github-enterprise'), 'payload digest differs'],
    ['the signed payload digest', (r: any) => (r.signature.signed_payload_digest = `sha256:${'0'.repeat(64)}`), 'payload digest differs'],
    ['the key id', (r: any) => (r.signature.key_id = `sha256:${'1'.repeat(64)}`), `unknown signer sha256:${'1'.repeat(64)}`],
    ['the signature', (r: any) => (r.signature.signature = Buffer.alloc(64, 7).toString('base64')), 'signature does not verify'],
    [
      'the digest and the covered member together',
      (r: any) => {
        r.non_claims = [];
        const { signature, ...rest } = r;
        r.signature.signed_payload_digest = `sha256:${createHash('sha256')
          .update(payloadOf(rest).ok ? (payloadOf(rest) as { text: string }).text : '')
          .digest('hex')}`;
        void signature;
      },
      'signature does not verify',
    ],
  ])('%s → record_untrusted with the exact reason', async (_name, edit, reason) => {
    const r = await withRecord(tampered(edit));
    expect(r.records[0]).toMatchObject({ outcome: 'untrusted', untrusted: reason });
    expect(r.calls[0]!.level).toBe('asserted');
    expect(codes(r)).toContain('record_untrusted');
  });

  it('an edited subject is record_inconsistent first (binding before trust)', async () => {
    const r = await withRecord(tampered((x) => (x.subject.target.repo = 'other-repo')));
    expect(r.records[0]!.outcome).toBe('inconsistent');
  });

  it('an unsigned record is record_untrusted (unsigned) once keys are trusted', async () => {
    const r = await withRecord(readFileSync(path.join(UPSTREAM, 'side_effect/audit_record_github_deploy_key.json'), 'utf8'));
    expect(r.records[0]).toMatchObject({ outcome: 'untrusted', untrusted: 'unsigned', signer: null });
  });

  it.each([
    ['version 2', (s: any) => (s.version = 2)],
    ['another algorithm', (s: any) => (s.algorithm = 'rsa')],
    ['another payload type', (s: any) => (s.payload_type = 'application/json')],
    ['a member missing', (s: any) => delete s.signed_at],
    ['an extra member', (s: any) => (s.comment = 'hi')],
    ['a short signature', (s: any) => (s.signature = 'AAAA')],
    ['a local time', (s: any) => (s.signed_at = '2026-11-30T12:00:00+01:00')],
    ['an upper-case key id', (s: any) => (s.key_id = s.key_id.toUpperCase())],
    [
      'empty',
      (s: any) => {
        for (const k of Object.keys(s)) delete s[k];
      },
    ],
  ])('a malformed signature member (%s) is invalid_artifact, with or without keys', async (_name, edit) => {
    const text = tampered((r) => edit(r.signature));
    for (const keys of [[], [readFileSync(path.join(SIGNED, 'test-signer.pub.pem'), 'utf8')]]) {
      const r = await withRecord(text, keys);
      expect(r.records).toEqual([]);
      expect(r.findings.find((f) => f.code === 'invalid_artifact')).toMatchObject({ file: '.assay/audit/r.json', line: 1, column: 1 });
      expect(r.ok).toBe(false);
    }
  });
});

describe('trusted signers: properties', () => {
  it('a record signed by a key that is not trusted never verifies any call', async () => {
    const trusted = seededKey(1);
    const arb = fc.record({
      repo: fc.constantFrom('a', 'b', 'c'),
      seed: fc.integer({ min: 2, max: 250 }),
      // forged: another key's signature under the trusted key's id; flipped: the trusted key's with one byte changed (both reach the Ed25519 check and fail it).
      signer: fc.constantFrom('trusted', 'other', 'none', 'forged', 'flipped'),
      claim: fc.constantFrom('asserted', 'verified') as fc.Arbitrary<'asserted' | 'verified'>,
      tamper: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(arb, { minLength: 1, maxLength: 6 }), async (specs) => {
        const calls = specs.map((s) => addKey({ target: deployKey({ repo: s.repo }), claim: s.claim }));
        const records = specs.map((s, i) => {
          const rec = record('github', `r${i}`, addKey({ target: deployKey({ repo: s.repo }) }));
          if (s.signer === 'none') return rec;
          const made = signed(rec, s.signer === 'trusted' || s.signer === 'flipped' ? trusted : seededKey(s.seed));
          const member = made['signature'] as { key_id: string; signature: string };
          const bytes = Buffer.from(member.signature, 'base64');
          bytes[s.seed % 64] = (bytes[s.seed % 64] ?? 0) ^ 1;
          const out =
            s.signer === 'forged'
              ? { ...made, signature: { ...member, key_id: keyIdOf(trusted.publicKey) } }
              : s.signer === 'flipped'
                ? { ...made, signature: { ...member, signature: bytes.toString('base64') } }
                : made;
          return s.tamper ? { ...out, non_claims: ['edited after signing'] } : out;
        });
        const ev = evidence({ 'r.json': calls }, []);
        const parsed = records.map((rec, i) => {
          const r = readAuditFile(`audit/${i}.json`, Buffer.from(JSON.stringify(rec)), 'json');
          const first = r.entries[0];
          if (first?.kind !== 'record') throw new Error('not a record');
          return first;
        });
        const report = verify({ ...ev, records: await checked(parsed, trustedKeys([trusted.publicKey])) }, OPTIONS);
        for (const rr of report.records) {
          const spec = specs[Number(rr.record_id.slice(1))]!;
          if (rr.outcome === 'bound') {
            expect(spec.signer).toBe('trusted');
            expect(spec.tamper).toBe(false);
          }
          if (spec.signer === 'forged' || spec.signer === 'flipped')
            expect([rr.outcome, rr.untrusted_code]).toEqual(['untrusted', spec.tamper ? 'payload_digest_differs' : 'signature_invalid']);
        }
      }),
      { numRuns: 200, seed: 9 },
    );
  });
});

describe('no rung without a claim (§5)', () => {
  it('a read that asserts nothing has no rung, is counted as no_effect, gets no annotation, and still confirms a write', () => {
    const r = verify(evidence({ 'r.json': [addKey({ claim: 'observed_confirmed' }), getKey()] }), OPTIONS);
    expect(r.calls.map((c) => [c.level, c.claimed_level])).toEqual([
      ['observed_confirmed', 'observed_confirmed'],
      [null, null],
    ]);
    expect(r.totals).toMatchObject({ no_effect: 1, asserted: 0, weakest_level: 'observed_confirmed' });
    expect(r.runs).toEqual([
      { artifact: 'runs/r.json', calls: 2, unattested_code: null, weakest_level: 'observed_confirmed', producer: null },
    ]);
  });

  it('the weakest rung is null when no call asserts a side effect, and one strong call never raises it', () => {
    expect(verify(evidence({ 'r.json': [getKey()] }), OPTIONS).totals.weakest_level).toBeNull();
    const r = verify(
      evidence({ 'a.json': [addKey({ claim: 'verified' })], 'b.json': [addKey({ target: deployKey({ repo: 'x' }) })] }, [
        record('github', '1', addKey({ claim: 'verified' })),
      ]),
      OPTIONS,
    );
    expect(r.runs.map((x) => x.weakest_level)).toEqual(['verified', 'asserted']);
    expect(r.totals.weakest_level).toBe('asserted');
  });
});

describe('required levels (§7)', () => {
  const policy = policyOf;

  it('a malformed rule, an unknown level or two rules for one selector is refused by name', async () => {
    expect(parsePolicy(['github_deploy_key'])).toEqual({
      ok: false,
      reason: '"github_deploy_key" is not SELECTOR=LEVEL (e.g. github_deploy_key:create=verified)',
    });
    expect(parsePolicy(['*=trusted'])).toMatchObject({
      ok: false,
      reason: '"*=trusted": the level must be one of asserted, observed_confirmed, verified',
    });
    expect(parsePolicy(['a:b:c=verified'])).toMatchObject({
      ok: false,
      reason: '"a:b:c=verified": the selector must be *, CLASS or CLASS:VERB',
    });
    expect(parsePolicy(['x=verified', ' x = asserted'])).toMatchObject({
      ok: false,
      reason: '" x = asserted": a second rule for x'.replace('" x', '"x'),
    });
    const r = await cli(['verify', '--require', 'github_deploy_key=sure'], ROOT);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^receipt-gate: --require: "github_deploy_key=sure": the level must be one of/);
  });

  it('the most specific rule applies: CLASS:VERB over CLASS over *', () => {
    const p = policy('*=asserted', 'github_deploy_key=observed_confirmed', 'github_deploy_key:create=verified');
    expect(ruleFor(p, { actionClass: 'github_deploy_key', verb: 'create', target: null })?.level).toBe('verified');
    expect(ruleFor(p, { actionClass: 'github_deploy_key', verb: 'delete', target: null })?.level).toBe('observed_confirmed');
    expect(ruleFor(p, { actionClass: 'workspace_role', verb: 'grant', target: null })?.level).toBe('asserted');
    expect(ruleFor(p, { actionClass: null, verb: null, target: null })?.level).toBe('asserted');
    expect(ruleFor(policy('github_deploy_key=verified'), { actionClass: 'workspace_role', verb: 'grant', target: null })).toBeNull();
  });

  it('a call below its requirement is policy_unmet at its decision, with the reason it earned no more; denied calls and calls that assert nothing are outside every rule', () => {
    const ev = evidence({
      'r.json': [
        addKey({ target: deployKey({ repo: 'z' }) }),
        addKey({ effect: 'deny', status: 'blocked' }),
        getKey(),
        addKey({ target: deployKey({ repo: 'y' }) }),
        getKey({ target: deployKey({ repo: 'y' }) }),
      ],
    });
    const r = verify(ev, {
      ...OPTIONS,
      policy: policy('github_deploy_key:create=verified', 'github_deploy_key=observed_confirmed', '*=verified'),
    });
    expect(r.calls.map((c) => c.required_level)).toEqual(['verified', null, null, 'verified', null]);
    const unmet = r.findings.filter((f) => f.code === 'policy_unmet');
    expect(unmet.map((f) => [f.line, f.message])).toEqual([
      [
        4,
        expect.stringMatching(
          /^github\.add_deploy_key \(decision 0\): github_deploy_key:create requires verified; earned asserted: no audit record binds its subject sha256:[0-9a-f]{64}$/,
        ),
      ],
      [
        34,
        expect.stringMatching(
          /^github\.add_deploy_key \(decision 3\): github_deploy_key:create requires verified; earned observed_confirmed: no audit record binds its subject sha256:/,
        ),
      ],
    ]);
    expect(r.ok).toBe(false);
    expect(r.totals.policy_unmet).toBe(2);
    expect(r.policy.rules).toHaveLength(3);
  });

  it('an observed_confirmed requirement names the missing read, not the missing record', () => {
    const r = verify(evidence({ 'r.json': [addKey()] }), { ...OPTIONS, policy: policy('github_deploy_key=observed_confirmed') });
    expect(r.findings.find((f) => f.code === 'policy_unmet')!.message).toMatch(
      /requires observed_confirmed; earned asserted: no later successful read of the same target in this run$/,
    );
  });

  it('policy never passes a call below its requirement (property)', () => {
    const arbLevel = fc.constantFrom(...LEVELS);
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            repo: fc.constantFrom('a', 'b'),
            claim: fc.constantFrom('asserted', 'verified') as fc.Arbitrary<'asserted' | 'verified'>,
            read: fc.boolean(),
            rec: fc.boolean(),
            asserted: fc.boolean(),
          }),
          { maxLength: 6 },
        ),
        fc.option(arbLevel, { nil: undefined }),
        fc.option(arbLevel, { nil: undefined }),
        (specs, star, cls) => {
          const ds = specs.flatMap((s) => [
            addKey({ target: deployKey({ repo: s.repo }), claim: s.asserted ? s.claim : 'none', asserted: s.asserted }),
            ...(s.read ? [getKey({ target: deployKey({ repo: s.repo }) })] : []),
          ]);
          const recs = specs.filter((s) => s.rec).map((s, i) => record('github', `r${i}`, addKey({ target: deployKey({ repo: s.repo }) })));
          const rules = [...(star ? [`*=${star}`] : []), ...(cls ? [`github_deploy_key=${cls}`] : [])];
          const r = verify(evidence({ 'r.json': ds }, recs), { ...OPTIONS, policy: policy(...rules) });
          for (const c of r.calls) {
            if (c.required_level !== null && c.level !== null && levelRank(c.level) < levelRank(c.required_level as Level)) {
              expect(r.ok).toBe(false);
              expect(r.findings.some((f) => f.code === 'policy_unmet' && f.line === c.line && f.column === c.column)).toBe(true);
            }
            if (c.level === null) expect(c.required_level).toBeNull();
          }
        },
      ),
      { numRuns: 300, seed: 11 },
    );
  });
});

describe('keys and signing tools', () => {
  it('keygen writes a PKCS#8 key (mode 0600) and an SPKI public key, prints the key_id, and never overwrites (a pair already there is kept)', async () => {
    const dir = tempDir();
    const prefix = path.join(dir, 'export');
    const r = await cli(['keygen', '--out', prefix], ROOT);
    expect(r.code, r.stderr).toBe(0);
    const pub = readFileSync(`${prefix}.pub.pem`, 'utf8');
    expect(readFileSync(`${prefix}.key.pem`, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    if (process.platform !== 'win32') expect(statSync(`${prefix}.key.pem`).mode & 0o777).toBe(0o600);
    const parsed = parsePublicKeys(pub);
    expect(parsed.ok && keyIdOf(parsed.value[0]!)).toBe(r.stdout.trim());
    const before = readFileSync(`${prefix}.key.pem`, 'utf8');
    const again = await cli(['keygen', '--out', prefix], ROOT);
    // Run again: the pair is kept, never overwritten, and its key_id printed again.
    expect(again).toMatchObject({
      code: 0,
      stdout: r.stdout,
      stderr: expect.stringMatching(/kept as they are \(keygen never overwrites a key\)/),
    });
    expect(readFileSync(`${prefix}.key.pem`, 'utf8')).toBe(before);
  });

  it('a trusted key that does not parse, is private or is not Ed25519 is a usage error naming it', async () => {
    const dir = tempDir();
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }) as string;
    writeFiles(dir, { 'rsa.pem': rsa, 'junk.pem': 'hello', 'private.pem': readFileSync(path.join(SIGNED, 'test-signer.key.pem')) });
    expect((await cli(['verify', '-C', dir, '--trusted-key', 'rsa.pem'], ROOT)).stderr).toMatch(
      /^receipt-gate: --trusted-key rsa\.pem: is an RSA key; only Ed25519 keys sign records/,
    );
    expect((await cli(['verify', '-C', dir, '--trusted-key', 'junk.pem'], ROOT)).stderr).toMatch(
      /^receipt-gate: --trusted-key junk\.pem: no PEM "PUBLIC KEY" block/,
    );
    expect((await cli(['verify', '-C', dir, '--trusted-key', 'private.pem'], ROOT)).stderr).toMatch(
      /not a "PUBLIC KEY" block \(a private key must never be given as a trusted key\)/,
    );
    expect(await cli(['verify', '-C', dir, '--trusted-key', 'none.pem'], ROOT)).toMatchObject({ code: 2 });
  });

  it('sign refuses an invalid input and writes nothing', async () => {
    const dir = writeFiles(tempDir(), { 'dup.json': '{"schema":"assay.provider_audit_record.v0","schema":"x"}' });
    const r = await cli(
      ['sign', '--key', path.join(SIGNED, 'test-signer.key.pem'), '--output', path.join(dir, 'out.ndjson'), path.join(dir, 'dup.json')],
      ROOT,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/dup\.json:1:\d+: duplicate key/);
    expect(existsSync(path.join(dir, 'out.ndjson'))).toBe(false);
  });
});

describe('sign never launders (a red team)', () => {
  const signWith = (dir: string, input: string) =>
    cli(['sign', '--key', path.join(SIGNED, 'test-signer.key.pem'), '--output', path.join(dir, 'out.ndjson'), path.join(dir, input)], ROOT);

  it('an entry already signed (by another key, or edited after it was signed) is refused, located; nothing is written', async () => {
    const genuine = record('github', 'gh-1', addKey());
    const other = signed(genuine, seededKey(9));
    const edited = { ...other, subject: record('github', 'gh-1', addKey({ target: deployKey({ repo: 'evil-repo' }) }))['subject'] };
    const dir = writeFiles(tempDir(), { 'other.ndjson': `${JSON.stringify(other)}\n`, 'edited.ndjson': `${JSON.stringify(edited)}\n` });
    for (const input of ['other.ndjson', 'edited.ndjson']) {
      const r = await signWith(dir, input);
      expect(r.code, input).toBe(1);
      expect(r.stderr).toMatch(
        new RegExp(`${input.replace('.', '\\.')}:1:1: record "gh-1" is already signed \\(key sha256:[0-9a-f]{64}\\)`),
      );
      expect(existsSync(path.join(dir, 'out.ndjson'))).toBe(false);
    }
  });

  it('one record id with two subjects is refused (the gate would find both duplicate_record); the same entry twice is signed', async () => {
    const a = record('github', 'gh-1', addKey());
    const b = record('github', 'gh-1', addKey({ target: deployKey({ title: 'another' }) }));
    const dir = writeFiles(tempDir(), {
      'dup.ndjson': `${JSON.stringify(a)}\n${JSON.stringify(b)}\n`,
      'twice.ndjson': `${JSON.stringify(a)}\n${JSON.stringify(a)}\n`,
    });
    const dup = await signWith(dir, 'dup.ndjson');
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(
      /dup\.ndjson:2:1: record "gh-1" \(github\) has another subject than the record of the same id at .*dup\.ndjson:1/,
    );
    expect(existsSync(path.join(dir, 'out.ndjson'))).toBe(false);
    const twice = await signWith(dir, 'twice.ndjson');
    expect(twice.code, twice.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'out.ndjson'), 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('--output naming an input or the key is a usage error; the input is kept (a red team: sign --output X X)', async () => {
    const a = record('github', 'gh-1', addKey());
    const dir = writeFiles(tempDir(), { 'in.ndjson': `${JSON.stringify(a)}\n` });
    const r = await cli(
      ['sign', '--key', path.join(SIGNED, 'test-signer.key.pem'), '--output', path.join(dir, 'in.ndjson'), path.join(dir, 'in.ndjson')],
      ROOT,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--output: names the input');
    expect(readFileSync(path.join(dir, 'in.ndjson'), 'utf8')).toBe(`${JSON.stringify(a)}\n`);
  });

  it('an object of another kind beside the records is not signed and is said so, located (it was dropped in silence)', async () => {
    const a = record('github', 'gh-1', addKey());
    const dir = writeFiles(tempDir(), {
      'mixed.ndjson': `${JSON.stringify(a)}\n${JSON.stringify({ schema: 'acme.export_note.v1', n: 1 })}\n`,
    });
    const r = await signWith(dir, 'mixed.ndjson');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/mixed\.ndjson(:\d+:\d+)?: skipped 1 object\(s\) of other kinds: acme\.export_note\.v1 ×1/);
    expect(r.stderr).toMatch(/not signed, not written: the above/);
    expect(readFileSync(path.join(dir, 'out.ndjson'), 'utf8').trim().split('\n')).toHaveLength(1);
  });
});

describe('signature checks on the thread pool (dist/ as a real process)', () => {
  it('600 signed records checked by the bundled CLI reach the same verdicts as the gate in-process', async () => {
    const key = seededKey(3);
    const other = seededKey(4);
    const n = 600;
    const calls = Array.from({ length: n }, (_, i) => addKey({ target: deployKey({ repo: `r${i}` }), claim: 'verified' }));
    const recs = calls.map((c, i) => {
      const rec = record('github', `id-${i}`, c);
      if (i === 17) return signed(rec, other);
      const out = signed(rec, key);
      return i === 401 ? { ...out, non_claims: ['edited after signing'] } : out;
    });
    const dir = writeFiles(tempDir(), {
      '.assay/runs/r.json': JSON.stringify({ schema: 'assay.tool_decision_surface.v0', observed_tool_decisions: calls }),
      '.assay/audit/a.ndjson': recs.map((r) => JSON.stringify(r)).join('\n'),
      'k.pem': key.pem,
    });
    const viaWorkers = spawnCliJson(['-C', dir, '--trusted-key', 'k.pem'], ROOT).report;
    const inline = await gate(dir, { trustedKeys: trustedKeys([key.publicKey]) });
    expect(viaWorkers.records).toEqual(inline.records);
    expect(viaWorkers.totals).toMatchObject({ verified: n - 2, untrusted: 2 });
    expect(viaWorkers.records[17]!.untrusted).toBe(`unknown signer ${keyIdOf(other.publicKey)}`);
    expect(viaWorkers.records[401]!.untrusted).toBe('payload digest differs');
  });
});

describe('the signed demos', () => {
  const args = ['--trusted-key', 'trusted-signer.pub.pem', ...SIGNED_DEMO_POLICY.flatMap((r) => ['--require', r])];

  it('fixtures/demo-signed passes: every deploy key verified by a trusted signer, the admin grant observed', async () => {
    const { code, report } = await cliJson(['-C', path.join(ROOT, 'fixtures/demo-signed'), ...args], ROOT);
    expect(code).toBe(0);
    expect(report.totals).toMatchObject({
      verified: 1,
      observed_confirmed: 1,
      asserted: 1,
      no_effect: 2,
      policy_unmet: 0,
      untrusted: 0,
      weakest_level: 'asserted',
    });
  });

  it('fixtures/demo-signed-failing fails: a forged signer, an unsigned record, a deploy key and an admin grant below the policy', async () => {
    const { code, report } = await cliJson(['-C', path.join(ROOT, 'fixtures/demo-signed-failing'), ...args], ROOT);
    expect(code).toBe(1);
    expect(report.records.map((r) => [r.outcome, r.untrusted])).toEqual([
      ['bound', null],
      ['untrusted', expect.stringMatching(/^unknown signer sha256:/)],
      ['untrusted', 'unsigned'],
    ]);
    expect(report.totals).toMatchObject({ policy_unmet: 4, untrusted: 2 });
  });

  it('without the trusted key the forged demo would pass honesty checks: exactly what trusted signers close', async () => {
    const { report } = await cliJson(['-C', path.join(ROOT, 'fixtures/demo-signed-failing')], ROOT);
    expect(report.totals.verified).toBe(3);
    expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
  });
});

describe('trusted-key text is scanned in one pass', () => {
  it('unterminated PEM blocks are refused by name, in linear time; a key text over 64 KiB is refused', () => {
    // ~50 KB of unclosed blocks: the old backtracking pattern took seconds here (the benchmark of issue 19 measures it).
    const unterminated = '-----BEGIN PUBLIC KEY-----\nAAAA\n'.repeat(1500);
    expect(parsePublicKeys(unterminated)).toEqual({
      ok: false,
      reason: 'a "PUBLIC KEY" block is never closed (no -----END PUBLIC KEY-----)',
    });
    expect(parsePublicKeys('x'.repeat(70 * 1024) + '-----BEGIN PUBLIC KEY-----')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/over 65536 bytes/),
    });
  });
});
