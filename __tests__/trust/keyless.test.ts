/**
 * Keyless trust (docs/keyless.md): Sigstore bundles built offline with mocks (a CA with chosen SAN
 * and Fulcio extensions, a CT log, a transparency log) and a trusted root made from their keys,
 * checked in the doc's order, each refusal with its own reason.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/read/limits.js';
import { checkBundleFile, type IdentityPolicy, parseTrustedRoots, publicGoodRoots, type Root } from '../../src/trust/sigstore.js';
import { EXPORT_IDENTITY, ISSUER, mockSigstore, OID, REPO, statementFor } from '../support/sigstore.js';

const RECORDS_V1 = 'https://github.com/receipt-gate/receipt-gate/blob/main/docs/predicates/records-v1.md';
const BYTES = Buffer.from('{"schema":"assay.provider_audit_record.v0"}\n');
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const FILE = { name: '.assay/audit/github/2026-12-01.ndjson', sha256: sha(BYTES) };
const policy: IdentityPolicy = {
  identities: new Set([EXPORT_IDENTITY]),
  sourceRepository: REPO,
  sourceRefs: new Set(['refs/heads/main']),
  issuer: ISSUER,
};

let world: Awaited<ReturnType<typeof mockSigstore>>;
let roots: Root[];
beforeAll(async () => {
  world = await mockSigstore();
  const r = parseTrustedRoots('root.json', JSON.stringify(world.trustedRoot), DEFAULT_LIMITS);
  if (!r.ok) throw new Error(r.reason);
  roots = r.value;
});

const check = (bundle: unknown, over: Partial<IdentityPolicy> = {}, file = FILE, rs: readonly Root[] = roots) =>
  checkBundleFile(
    `${file.name}.sigstore.json`,
    Buffer.from(JSON.stringify(bundle)),
    file,
    { ...policy, ...over },
    rs,
    { type: RECORDS_V1 },
    DEFAULT_LIMITS,
  );
const good = () => world.attest(statementFor('2026-12-01.ndjson', BYTES, RECORDS_V1));

describe('a bundle from a trusted workflow identity', () => {
  it('passes, naming the identity, source repository, ref, issuer and signing time', async () => {
    const r = check(await good());
    expect(r).toMatchObject({
      ok: true,
      value: {
        identity: EXPORT_IDENTITY,
        sourceRepository: `https://github.com/${REPO}`,
        sourceRef: 'refs/heads/main',
        issuer: ISSUER,
        signedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      },
    });
  });

  it('the source repository in another ASCII case passes (GitHub names are case-insensitive)', async () => {
    expect(check(await good(), { sourceRepository: 'ACME/Agents' }).ok).toBe(true);
  });
});

describe('every refusal has its own reason', () => {
  const ext = (over: Record<string, string | null>) =>
    [
      { oid: OID.issuer, value: ISSUER },
      { oid: OID.repo, value: `https://github.com/${REPO}` },
      { oid: OID.ref, value: 'refs/heads/main' },
    ]
      .map((e) => (e.oid in over ? { ...e, value: over[e.oid] } : e))
      .filter((e): e is { oid: string; value: string } => e.value !== null);
  const signedAs = (san: string, over: Record<string, string | null> = {}) =>
    world.attest(statementFor('2026-12-01.ndjson', BYTES, RECORDS_V1), { san, extensions: ext(over) });

  it.each([
    [
      'an identity not trusted',
      () => signedAs(`https://github.com/${REPO}/.github/workflows/other.yml@refs/heads/main`),
      /certificate identity "https:\/\/github\.com\/acme\/agents\/\.github\/workflows\/other\.yml@refs\/heads\/main" is not trusted/,
    ],
    ['a prefix of a trusted identity is no match', () => signedAs(`${EXPORT_IDENTITY}x`), /is not trusted/],
    [
      'a pull request ref',
      () => signedAs(EXPORT_IDENTITY, { [OID.ref]: 'refs/pull/7/merge' }),
      /source ref "refs\/pull\/7\/merge" is not allowed/,
    ],
    [
      'another repository',
      () => signedAs(EXPORT_IDENTITY, { [OID.repo]: 'https://github.com/evil/agents' }),
      /source repository "https:\/\/github\.com\/evil\/agents" is not https:\/\/github\.com\/acme\/agents/,
    ],
    [
      'a missing Source Repository extension',
      () => signedAs(EXPORT_IDENTITY, { [OID.repo]: null }),
      /no Source Repository URI and Ref extensions/,
    ],
    [
      'another issuer',
      () => signedAs(EXPORT_IDENTITY, { [OID.issuer]: 'https://accounts.example.com' }),
      /certificate issuer "https:\/\/accounts\.example\.com" is not https:\/\/token\.actions\.githubusercontent\.com/,
    ],
  ])('%s', async (_name, make, why) => {
    const r = check(await make());
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.reason).toMatch(why);
  });

  it('an edited file: the subject digest differs', async () => {
    const r = check(await good(), {}, { ...FILE, sha256: sha(Buffer.from('edited\n')) });
    expect(r).toMatchObject({ ok: false, reason: 'subject digest differs from the file' });
  });

  it('two subjects, another subject name, another predicate type', async () => {
    const s = statementFor('2026-12-01.ndjson', BYTES, RECORDS_V1);
    const two = await world.attest({ ...s, subject: [...s.subject, ...s.subject] });
    expect(check(two)).toMatchObject({ ok: false, reason: expect.stringMatching(/exactly one subject/) });
    const named = await world.attest(statementFor('other.ndjson', BYTES, RECORDS_V1));
    expect(check(named)).toMatchObject({ ok: false, reason: 'subject name "other.ndjson" is not "2026-12-01.ndjson"' });
    const typed = await world.attest(statementFor('2026-12-01.ndjson', BYTES, 'https://slsa.dev/provenance/v1'));
    expect(check(typed)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/predicate type is "https:\/\/slsa\.dev\/provenance\/v1", not/),
    });
  });

  it('a CA or log outside the trusted root: the signature does not verify', async () => {
    const other = await mockSigstore();
    const r = check(await other.attest(statementFor('2026-12-01.ndjson', BYTES, RECORDS_V1)));
    expect(r).toMatchObject({ ok: false, reason: expect.stringMatching(/does not verify against the trusted root/) });
    // …and the public-good root does not know the mocks either.
    expect(check(await good(), {}, FILE, publicGoodRoots()).ok).toBe(false);
  });

  it('JSON lines with one good bundle among bad ones: trusted', async () => {
    const bad = await world.attest(statementFor('x', BYTES, RECORDS_V1));
    const text = `${JSON.stringify(bad)}\n${JSON.stringify(await good())}\n`;
    const r = checkBundleFile('f.sigstore.json', Buffer.from(text), FILE, policy, roots, { type: RECORDS_V1 }, DEFAULT_LIMITS);
    expect(r.ok).toBe(true);
    const none = checkBundleFile(
      'f.sigstore.json',
      Buffer.from(`${JSON.stringify(bad)}\n${JSON.stringify(bad)}\n`),
      FILE,
      policy,
      roots,
      { type: RECORDS_V1 },
      DEFAULT_LIMITS,
    );
    expect(none).toMatchObject({ ok: false, reason: expect.stringMatching(/\(bundle 1; none of 2 passes\)/) });
  });

  it('garbage is not a bundle; an empty file holds none', () => {
    expect(checkBundleFile('f', Buffer.from('{"mediaType":1}'), FILE, policy, roots, { type: RECORDS_V1 }, DEFAULT_LIMITS)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^not a Sigstore bundle/),
    });
    expect(checkBundleFile('f', Buffer.from('\n'), FILE, policy, roots, { type: RECORDS_V1 }, DEFAULT_LIMITS)).toMatchObject({
      ok: false,
      reason: 'no attestation: the .sigstore.json holds no bundle',
    });
  });
});

describe('trusted roots', () => {
  it('one root, or JSON lines of them; one that does not parse or has no CA is refused', () => {
    const text = JSON.stringify(world.trustedRoot);
    expect(parseTrustedRoots('r', `${text}\n${text}\n`, DEFAULT_LIMITS)).toMatchObject({
      ok: true,
      value: [expect.anything(), expect.anything()],
    });
    expect(parseTrustedRoots('r', '{"x":1}', DEFAULT_LIMITS)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not a Sigstore trusted root/),
    });
    expect(parseTrustedRoots('r', JSON.stringify({ ...world.trustedRoot, certificateAuthorities: [] }), DEFAULT_LIMITS)).toMatchObject({
      ok: false,
      reason: 'r: the trusted root has no certificate authority',
    });
  });

  it('the shipped public-good root loads', () => {
    expect(publicGoodRoots()).toHaveLength(1);
  });
});
