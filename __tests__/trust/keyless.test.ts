/**
 * Keyless trust (docs/keyless.md): Sigstore bundles built offline with mocks (a CA with chosen SAN
 * and Fulcio extensions, a CT log, a transparency log) and a trusted root made from their keys,
 * checked in the doc's order, each refusal with its own reason.
 */
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/read/limits.js';
import { PUBLIC_GOOD_ROOT } from '../../src/trust/public-good-root.generated.js';
import {
  type BundleExpectation,
  checkBundleFile,
  type IdentityPolicy,
  parseTrustedRoots,
  publicGoodRoots,
  type Root,
} from '../../src/trust/sigstore.js';
import { addKey, json, record, surface } from '../support/corpus.js';
import { EXPORT_IDENTITY, ISSUER, mockSigstore, OID, RECORDS_V1, REPO, RUN_V1, statementFor } from '../support/sigstore.js';
import { cli, cliJson, ROOT, tempDir, UPSTREAM, writeFiles } from '../support/workspace.js';

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
    { subject: file, policy: { ...policy, ...over }, roots: rs, predicate: { type: RECORDS_V1 } },
    DEFAULT_LIMITS,
  );
const good = () => world.attest(statementFor('2026-12-01.ndjson', BYTES, RECORDS_V1));
/** FILE's records attested by the policy's identity under the mock root. */
const expectRecords = (): BundleExpectation => ({ subject: FILE, policy, roots, predicate: { type: RECORDS_V1 } });
/** LINE:COLUMN (1-based) of the value of the first `member` ('"key": value') written in `text`: where a problem of that value is placed. */
const valueAt = (text: string, member: string): string => {
  const i = text.indexOf(member);
  if (i < 0) throw new Error(`${member} is not in the text`);
  const before = text.slice(0, i + member.indexOf(': ') + 2).split('\n');
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
};
/** A trusted root as its publishers write it (`trusted_root.json`: two-space indented), so a place has a line and a column. */
const pretty = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

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
    const r = checkBundleFile('f.sigstore.json', Buffer.from(text), expectRecords(), DEFAULT_LIMITS);
    expect(r.ok).toBe(true);
    const none = checkBundleFile(
      'f.sigstore.json',
      Buffer.from(`${JSON.stringify(bad)}\n${JSON.stringify(bad)}\n`),
      expectRecords(),
      DEFAULT_LIMITS,
    );
    expect(none).toMatchObject({ ok: false, reason: expect.stringMatching(/\(bundle 1; none of 2 passes\)/) });
  });

  it('garbage is not a bundle; an empty file holds none', () => {
    expect(checkBundleFile('f', Buffer.from('{"mediaType":1}'), expectRecords(), DEFAULT_LIMITS)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^not a Sigstore bundle/),
    });
    expect(checkBundleFile('f', Buffer.from('\n'), expectRecords(), DEFAULT_LIMITS)).toMatchObject({
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
    // Each problem names the line and column where its root starts, or where the JSON broke.
    expect(parseTrustedRoots('r', `${text}\n{"x":1}\n`, DEFAULT_LIMITS)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^r:2:1: not a Sigstore/),
    });
    expect(parseTrustedRoots('r', '{\n  "mediaType": 3', DEFAULT_LIMITS)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^r:2:\d+: not a trusted root: /),
    });
    expect(parseTrustedRoots('r', '{"x":1}', DEFAULT_LIMITS)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not a Sigstore trusted root/),
    });
    expect(parseTrustedRoots('r', JSON.stringify({ ...world.trustedRoot, certificateAuthorities: [] }), DEFAULT_LIMITS)).toMatchObject({
      ok: false,
      reason: 'r:1:1: the trusted root has no certificate authority',
    });
  });

  it('a key or authority whose validFor has no start is malformed, never unbounded (a conformance case the library alone accepts)', () => {
    const tlogs = world.trustedRoot.tlogs.map((t) => ({ ...t, publicKey: { ...t.publicKey, validFor: {} } }));
    const text = pretty({ ...world.trustedRoot, tlogs });
    // Placed at the validFor (a red team: at 1:1, the reader searched a file of hundreds of lines).
    expect(valueAt(text, '"validFor": {}')).toMatch(/^(?!1:)\d+:\d+$/);
    expect(parseTrustedRoots('r', text, DEFAULT_LIMITS)).toMatchObject({
      ok: false,
      reason: `r:${valueAt(text, '"validFor": {}')}: the trusted root is malformed: tlogs[0] has a validFor without a start`,
    });
  });

  it('a validFor whose start or end is not an RFC 3339 time is malformed, located, never a root every certificate fails to chain to (a red team)', () => {
    const caRoot = (validFor: unknown) => ({
      ...world.trustedRoot,
      certificateAuthorities: world.trustedRoot.certificateAuthorities.map((c) => ({ ...c, validFor })),
    });
    const ca = (validFor: unknown) => pretty(caRoot(validFor));
    const ct = (validFor: unknown) =>
      pretty({
        ...world.trustedRoot,
        ctlogs: world.trustedRoot.ctlogs.map((t) => ({ ...t, publicKey: { ...t.publicKey, validFor } })),
      });
    const start = world.trustedRoot.certificateAuthorities[0]!.validFor.start;
    // Each placed at the offending value's line and column (a red team: at 1:1, the reader searched the whole root).
    const notADate = ca({ start: 'not a date' });
    expect(parseTrustedRoots('r', notADate, DEFAULT_LIMITS)).toEqual({
      ok: false,
      reason: `r:${valueAt(notADate, '"start": "not a date"')}: the trusted root is malformed: certificateAuthorities[0] has a validFor whose start "not a date" is not an RFC 3339 date-time (YYYY-MM-DDThh:mm:ss[.fraction](Z|±hh:mm))`,
    });
    const noDay = ca({ start, end: '2027-02-30T00:00:00Z' });
    expect(parseTrustedRoots('r', noDay, DEFAULT_LIMITS)).toMatchObject({
      ok: false,
      reason: `r:${valueAt(noDay, '"end": "2027-02-30T00:00:00Z"')}: the trusted root is malformed: certificateAuthorities[0] has a validFor whose end "2027-02-30T00:00:00Z" is not a calendar date: 2027-02 has no day 30`,
    });
    const number = ct({ start: 1700000000 });
    expect(parseTrustedRoots('r', number, DEFAULT_LIMITS)).toMatchObject({
      ok: false,
      reason: `r:${valueAt(number, '"start": 1700000000')}: the trusted root is malformed: ctlogs[0] has a validFor whose start is not an RFC 3339 date-time (a number)`,
    });
    // A timestamp authority's window is checked the same way, and placed the same way.
    const tsa = pretty({
      ...world.trustedRoot,
      timestampAuthorities: [{ ...world.trustedRoot.certificateAuthorities[0]!, validFor: { start, end: '2016-12-31T23:59:60Z' } }],
    });
    expect(parseTrustedRoots('r', tsa, DEFAULT_LIMITS)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(
        new RegExp(
          `^r:${valueAt(tsa, '"end": "2016-12-31T23:59:60Z"')}: the trusted root is malformed: timestampAuthorities\\[0\\] has a validFor whose end "2016-12-31T23:59:60Z" is a time the Sigstore library cannot read`,
        ),
      ),
    });
    // On its own line of a JSON-lines file, located there, at the value's column.
    const line = JSON.stringify(caRoot({ start: '2026-12-01' }));
    expect(parseTrustedRoots('r', `${JSON.stringify(world.trustedRoot)}\n${line}\n`, DEFAULT_LIMITS)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(
        new RegExp(
          `^r:2:${line.indexOf('"2026-12-01"') + 1}: the trusted root is malformed: certificateAuthorities\\[0\\] has a validFor whose start "2026-12-01" is not an RFC 3339`,
        ),
      ),
    });
    // A start and an end that are times (a fraction, an offset, an end absent or null) load.
    for (const validFor of [{ start, end: '2099-01-01T00:00:00.123456789Z' }, { start: '2020-01-01T01:00:00+01:00' }, { start, end: null }])
      expect(parseTrustedRoots('r', ca(validFor), DEFAULT_LIMITS).ok, JSON.stringify(validFor)).toBe(true);
  });

  it('a validFor whose end is before its start holds no instant: malformed, located, never a root that vouches for nothing (a red team)', () => {
    const ca = (validFor: unknown) =>
      pretty({
        ...world.trustedRoot,
        certificateAuthorities: world.trustedRoot.certificateAuthorities.map((c) => ({ ...c, validFor })),
      });
    const tlog = (validFor: unknown) =>
      pretty({
        ...world.trustedRoot,
        tlogs: world.trustedRoot.tlogs.map((t) => ({ ...t, publicKey: { ...t.publicKey, validFor } })),
      });
    // Placed at the end that is before its start (a red team: at 1:1, the reader searched the whole root).
    const swapped = ca({ start: '2030-01-01T00:00:00Z', end: '2020-01-01T00:00:00Z' });
    expect(parseTrustedRoots('r', swapped, DEFAULT_LIMITS)).toEqual({
      ok: false,
      reason: `r:${valueAt(swapped, '"end": "2020-01-01T00:00:00Z"')}: the trusted root is malformed: certificateAuthorities[0] has a validFor whose end "2020-01-01T00:00:00Z" is before its start "2030-01-01T00:00:00Z": it holds no instant (swapped?)`,
    });
    // Compared as instants, offsets and fractions included: 00:30+01:00 is 23:30Z the day before; .0001 before .0009.
    const offset = tlog({ start: '2020-01-01T00:00:00Z', end: '2020-01-01T00:30:00+01:00' });
    expect(parseTrustedRoots('r', offset, DEFAULT_LIMITS)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(
        new RegExp(
          `^r:${valueAt(offset, '"end": "2020-01-01T00:30:00+01:00"')}: .*tlogs\\[0\\] has a validFor whose end "2020-01-01T00:30:00\\+01:00" is before`,
        ),
      ),
    });
    expect(parseTrustedRoots('r', ca({ start: '2020-01-01T00:00:00.0009Z', end: '2020-01-01T00:00:00.0001Z' }), DEFAULT_LIMITS).ok).toBe(
      false,
    );
    // A leap second is an RFC 3339 time the library reads as none: refused too, never every certificate failing to chain.
    expect(parseTrustedRoots('r', ca({ start: '2016-12-31T23:59:60Z' }), DEFAULT_LIMITS)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('whose start "2016-12-31T23:59:60Z" is a time the Sigstore library cannot read (a leap second'),
    });
    // The interval is closed: an end equal to its start holds that one instant, and an end after it (in another offset) loads.
    for (const validFor of [
      { start: '2020-01-01T00:00:00Z', end: '2020-01-01T00:00:00Z' },
      { start: '2020-01-01T00:00:00Z', end: '2020-01-01T01:00:00+01:00' },
      { start: '2020-01-01T00:00:00Z', end: '2020-01-01T02:00:00+01:00' },
    ])
      expect(parseTrustedRoots('r', ca(validFor), DEFAULT_LIMITS).ok, JSON.stringify(validFor)).toBe(true);
  });

  it('a typo in a hand-edited root (a trailing comma, a missing comma, a duplicate key) is said at its place as what it is, never as a fragment that is no root (a red team)', () => {
    const text = pretty({
      ...world.trustedRoot,
      certificateAuthorities: world.trustedRoot.certificateAuthorities.map((c) => ({ ...c, validFor: { start: '2022-04-14T21:38:40Z' } })),
    });
    const S = '"start": "2022-04-14T21:38:40Z"';
    const line = valueAt(text, S).split(':')[0];
    for (const typo of [
      `${S},`,
      `${S}\n        "end": "2030-01-01T00:00:00Z"`,
      `${S},\n        "end": "2030-01-01T00:00:00Z",\n        "end": "2000-01-01T00:00:00Z"`,
    ]) {
      const r = parseTrustedRoots('r', text.replace(S, typo), DEFAULT_LIMITS);
      expect(r.ok).toBe(false);
      if (r.ok) continue;
      expect(r.reason).toMatch(/^r:(\d+):\d+: not a trusted root: /);
      // At the typo (its line, or the one after it that shows it), never past the root's end.
      expect(Number(/^r:(\d+)/.exec(r.reason)![1]) - Number(line)).toBeLessThanOrEqual(2);
      expect(r.reason).not.toMatch(/mediaType/);
    }
  });

  it('the shipped public-good root loads, and dist/ records its origin: the pinned package, its digest, its date', () => {
    expect(publicGoodRoots()).toHaveLength(1);
    const origin = JSON.parse(readFileSync(path.join(ROOT, 'dist/trusted-root.origin.json'), 'utf8'));
    const pinned = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@sigstore/tuf/package.json'), 'utf8')).version;
    expect(origin).toMatchObject({ package: `@sigstore/tuf@${pinned}`, target: 'trusted_root.json' });
    expect(origin.sha256).toBe(createHash('sha256').update(PUBLIC_GOOD_ROOT.json).digest('hex'));
    expect(Date.parse(origin.newestValidFrom)).toBeLessThan(Date.parse(origin.tufRootExpires));
  });
});

describe('identities in the trust sets, through the gate', () => {
  const call = addKey({ claim: 'verified' });
  const exportText = `${JSON.stringify(record('github', 'g1', call))}\n`;
  const base = ['--audit', 'audit', '--source-repository', REPO, '--trusted-root', 'root.json'];

  async function workspace(bundle: unknown | null, extra: Record<string, string> = {}) {
    const files: Record<string, string> = {
      'runs/r.json': json(surface([call])),
      'audit/a.ndjson': exportText,
      'root.json': JSON.stringify(world.trustedRoot),
      ...extra,
    };
    if (bundle !== null) files['audit/a.ndjson.sigstore.json'] = `${JSON.stringify(bundle)}\n`;
    return writeFiles(tempDir(), files);
  }
  const recordsStatement = () => statementFor('a.ndjson', Buffer.from(exportText), RECORDS_V1, { kind: 'github-audit-log' });

  it('a record file attested by a trusted signer identity: its records trusted, named in trusted_by; the call verified', async () => {
    const dir = await workspace(await world.attest(recordsStatement()));
    const r = await cliJson(
      ['-C', dir, '--runs', 'runs', ...base, '--trusted-signer-identity', EXPORT_IDENTITY, '--require-signed-records'],
      ROOT,
    );
    expect(r.code, JSON.stringify(r.report.findings)).toBe(0);
    expect(r.report.records[0]).toMatchObject({
      outcome: 'bound',
      trusted_by: { identity: EXPORT_IDENTITY, source_ref: 'refs/heads/main', issuer: ISSUER },
    });
    expect(r.report.calls[0]!.level).toBe('verified');
  });

  it("a trusted root whose authority's validFor.start is no time is a configuration error located in the root, never every record untrusted (a red team)", async () => {
    const bad = {
      ...world.trustedRoot,
      certificateAuthorities: world.trustedRoot.certificateAuthorities.map((c) => ({ ...c, validFor: { start: 'not a date' } })),
    };
    const rootText = pretty(bad);
    const dir = await workspace(await world.attest(recordsStatement()), { 'root.json': rootText });
    const r = await cli(
      ['verify', '-C', dir, '--runs', 'runs', ...base, '--trusted-signer-identity', EXPORT_IDENTITY, '--format', 'json'],
      ROOT,
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    // At the start's own line and column, never the root's 1:1 (a red team).
    expect(valueAt(rootText, '"start": "not a date"')).toMatch(/^(?!1:)\d+:\d+$/);
    expect(r.stderr).toMatch(
      new RegExp(
        `^receipt-gate: --trusted-root root\\.json:${valueAt(rootText, '"start": "not a date"')}: the trusted root is malformed: certificateAuthorities\\[0\\] has a validFor whose start "not a date" is not an RFC 3339 date-time`,
      ),
    );
    // The same evidence under the root as it was: verified.
    writeFileSync(path.join(dir, 'root.json'), JSON.stringify(world.trustedRoot));
    const good = await cliJson(['-C', dir, '--runs', 'runs', ...base, '--trusted-signer-identity', EXPORT_IDENTITY], ROOT);
    expect(good.code, JSON.stringify(good.report.findings)).toBe(0);
  });

  it("a trusted root a policy's trust: section names, whose authority's validFor ends before it starts, is policy_invalid at the entry and in the root (a red team)", async () => {
    const swapped = {
      ...world.trustedRoot,
      certificateAuthorities: world.trustedRoot.certificateAuthorities.map((c) => ({
        ...c,
        validFor: { start: '2099-01-01T00:00:00Z', end: c.validFor.start },
      })),
    };
    const policyText = `version: 1\ntrust:\n  trusted-signer-identities: ["${EXPORT_IDENTITY}"]\n  trusted-root: root.json\n`;
    const rootText = pretty(swapped);
    const end = valueAt(rootText, `"end": ${JSON.stringify(world.trustedRoot.certificateAuthorities[0]!.validFor.start)}`);
    expect(end).toMatch(/^(?!1:)\d+:\d+$/);
    const dir = await workspace(await world.attest(recordsStatement()), {
      'root.json': rootText,
      '.github/receipt-gate.yml': policyText,
    });
    const args = ['verify', '-C', dir, '--runs', 'runs', '--audit', 'audit', '--source-repository', REPO, '--format', 'json'];
    const r = await cli(args, ROOT);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    // At the entry that names the root, and in the root at the end that is before its start (never its 1:1: a red team).
    expect(r.stderr).toMatch(
      new RegExp(
        `^receipt-gate: \\.github/receipt-gate\\.yml:4:17: trust\\.trusted-root root\\.json:${end}: the trusted root is malformed: certificateAuthorities\\[0\\] has a validFor whose end "[^"]+" is before its start "2099-01-01T00:00:00Z": it holds no instant`,
      ),
    );
    expect(r.stderr).not.toMatch(/--help/);
    // Given by the flag, located in the root.
    const bare = await workspace(await world.attest(recordsStatement()), { 'root.json': rootText });
    const flag = await cli(['verify', '-C', bare, '--runs', 'runs', ...base, '--trusted-signer-identity', EXPORT_IDENTITY], ROOT);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(
      new RegExp(`^receipt-gate: --trusted-root root\\.json:${end}: the trusted root is malformed: .* is before its start`),
    );
    // The same policy naming the root as it was: the record is trusted, the call verified.
    writeFileSync(path.join(dir, 'root.json'), JSON.stringify(world.trustedRoot));
    const good = await cliJson(['-C', dir, '--runs', 'runs', '--audit', 'audit', '--source-repository', REPO], ROOT);
    expect(good.code, JSON.stringify(good.report.findings)).toBe(0);
    expect(good.report.calls[0]!.level).toBe('verified');
  });

  /** The gate on a workspace, trusting the export workflow's identity for records. */
  const asSigner = async (dir: string) =>
    cliJson(['-C', dir, '--runs', 'runs', ...base, '--trusted-signer-identity', EXPORT_IDENTITY], ROOT);

  it('issue 35, 10: a bundle of another mediaType version is refused, never trusted', async () => {
    const good = await world.attest(recordsStatement());
    for (const mediaType of [
      'application/vnd.dev.sigstore.bundle.v0.9+json',
      'application/vnd.dev.sigstore.bundle+json;version=9.9',
      'application/vnd.dev.sigstore.bundle.v0.3+jsonGARBAGE',
    ]) {
      const r = await asSigner(await workspace({ ...(good as object), mediaType }));
      expect(r.code, mediaType).toBe(1);
      expect(r.report.records[0]).toMatchObject({ outcome: 'untrusted', untrusted: expect.stringContaining('unsupported version') });
      expect(r.report.calls[0]!.level).not.toBe('verified');
    }
  });

  it('issue 35, 11: shape is checked always: garbage under the other role, or a {} line beside a good bundle, is a finding', async () => {
    const producerOnly = await cliJson(
      [
        '-C',
        await workspace(null, { 'audit/a.ndjson.sigstore.json': 'not json' }),
        '--runs',
        'runs',
        ...base,
        '--trusted-producer-identity',
        `https://github.com/${REPO}/.github/workflows/agent.yml@refs/heads/main`,
      ],
      ROOT,
    );
    expect(producerOnly.code).toBe(1);
    expect(producerOnly.report.findings).toContainEqual(
      expect.objectContaining({ code: 'invalid_artifact', file: 'audit/a.ndjson.sigstore.json' }),
    );
    const good = await world.attest(recordsStatement());
    const mixed = await asSigner(await workspace(null, { 'audit/a.ndjson.sigstore.json': `${JSON.stringify(good)}\n{}\n` }));
    expect(mixed.report.findings).toContainEqual(
      expect.objectContaining({ code: 'invalid_artifact', file: 'audit/a.ndjson.sigstore.json', line: 2 }),
    );
  });

  it('issue 35, 15: a file of thousands of failing bundles stops checking at the per-file cap, and says so', async () => {
    const other = await world.attest(statementFor('other.ndjson', Buffer.from('x'), RECORDS_V1));
    const line = JSON.stringify(other);
    const dir = await workspace(null, { 'audit/a.ndjson.sigstore.json': `${Array(2000).fill(line).join('\n')}\n` });
    const r = await asSigner(dir);
    expect(r.code).toBe(1);
    expect(r.report.records[0]!.untrusted).toContain(
      '20 of 2000 bundles checked and none passes, the rest not checked (max-findings-per-file)',
    );
  });

  it('issue 35, 15: an attestation file holds one value (pretty-printed or not) or one compact value per line, never two pretty-printed', async () => {
    const good = await world.attest(recordsStatement());
    const one = await asSigner(await workspace(null, { 'audit/a.ndjson.sigstore.json': JSON.stringify(good, null, 2) }));
    expect(one.code, JSON.stringify(one.report.findings)).toBe(0);
    const pretty = JSON.stringify(good, null, 2);
    const two = await asSigner(await workspace(null, { 'audit/a.ndjson.sigstore.json': `${pretty}\n${pretty}\n` }));
    expect(two.code).toBe(1);
    expect(two.report.findings).toContainEqual(expect.objectContaining({ code: 'invalid_artifact', file: 'audit/a.ndjson.sigstore.json' }));
  });

  it('issue 35, 13: the verdict names what keyless trust rests on: the bundles among inputAttestations, RECEIPTS_SIGNED_RECORDS granted by identity', async () => {
    const dir = await workspace(await world.attest(recordsStatement()));
    const r = await cli(
      [
        'verify',
        '-C',
        dir,
        '--runs',
        'runs',
        ...base,
        '--trusted-signer-identity',
        EXPORT_IDENTITY,
        '--output',
        'rep.json',
        '--vsa-predicate',
        'vsa.json',
        '--resource-uri',
        'git+https://github.com/acme/agents@0123456789abcdef0123456789abcdef01234567',
      ],
      ROOT,
    );
    expect(r.code, r.stderr).toBe(0);
    const vsa = JSON.parse(readFileSync(path.join(dir, 'vsa.json'), 'utf8'));
    expect(vsa.inputAttestations.map((i: { uri: string }) => i.uri)).toContain('audit/a.ndjson.sigstore.json');
    expect(vsa.verifiedLevels).toContain('RECEIPTS_SIGNED_RECORDS');
  });

  it('from a pull request ref, or with no bundle at all: record_untrusted with the reason, the gate fails', async () => {
    const pr = await world.attest(recordsStatement(), {
      san: EXPORT_IDENTITY,
      extensions: [
        { oid: OID.issuer, value: ISSUER },
        { oid: OID.repo, value: `https://github.com/${REPO}` },
        { oid: OID.ref, value: 'refs/pull/7/merge' },
      ],
    });
    const fromPr = await cliJson(
      ['-C', await workspace(pr), '--runs', 'runs', ...base, '--trusted-signer-identity', EXPORT_IDENTITY],
      ROOT,
    );
    expect(fromPr.code).toBe(1);
    expect(fromPr.report.records[0]).toMatchObject({ outcome: 'untrusted', untrusted: 'source ref "refs/pull/7/merge" is not allowed' });
    const none = await cliJson(
      ['-C', await workspace(null), '--runs', 'runs', ...base, '--trusted-signer-identity', EXPORT_IDENTITY],
      ROOT,
    );
    expect(none.report.records[0]!.untrusted).toBe('no attestation (no a.ndjson.sigstore.json beside it)');
  });

  it('a legacy issuer extension whose bytes differ from the issuer only in a high bit is another issuer (a red team, this stop)', async () => {
    const bytes = Buffer.from(ISSUER);
    bytes[8] = (bytes[8] ?? 0) | 0x80;
    const bundle = await world.attest(recordsStatement(), {
      san: EXPORT_IDENTITY,
      extensions: [
        // The mock CA writes a legacy extension's value as its bytes.
        { oid: OID.issuerV1, value: bytes as unknown as string, legacy: true },
        { oid: OID.repo, value: `https://github.com/${REPO}` },
        { oid: OID.ref, value: 'refs/heads/main' },
      ],
    });
    const out = await cliJson(
      ['-C', await workspace(bundle), '--runs', 'runs', ...base, '--trusted-signer-identity', EXPORT_IDENTITY],
      ROOT,
    );
    expect(out.code).toBe(1);
    expect(out.report.records[0]).toMatchObject({ outcome: 'untrusted' });
    expect(out.report.records[0]!.untrusted).toMatch(/certificate issuer .* is not https:\/\/token\.actions\.githubusercontent\.com/);
    // The same extension with the issuer's own bytes is trusted.
    const exact = await world.attest(recordsStatement(), {
      san: EXPORT_IDENTITY,
      extensions: [
        { oid: OID.issuerV1, value: ISSUER, legacy: true },
        { oid: OID.repo, value: `https://github.com/${REPO}` },
        { oid: OID.ref, value: 'refs/heads/main' },
      ],
    });
    const ok = await cliJson(['-C', await workspace(exact), '--runs', 'runs', ...base, '--trusted-signer-identity', EXPORT_IDENTITY], ROOT);
    expect(ok.report.records[0]!.untrusted).toBeNull();
  });

  it('a .sigstore.json that links out of the workspace is refused, as a DSSE sidecar is; one that links inside is followed', async () => {
    const good = await world.attest(recordsStatement());
    const outside = writeFiles(tempDir(), { 'b.sigstore.json': JSON.stringify(good) });
    const dir = await workspace(null);
    symlinkSync(path.join(outside, 'b.sigstore.json'), path.join(dir, 'audit/a.ndjson.sigstore.json'));
    const out = await cliJson(['-C', dir, '--runs', 'runs', ...base, '--trusted-signer-identity', EXPORT_IDENTITY], ROOT);
    expect(out.code).toBe(1);
    expect(out.report.records[0]!.untrusted).toBe(
      'audit/a.ndjson.sigstore.json: the Sigstore bundle is a symbolic link that points outside the workspace; not followed',
    );
    const plain = await cliJson(['-C', dir, '--runs', 'runs', '--audit', 'audit'], ROOT);
    expect(plain.report.findings).toContainEqual(
      expect.objectContaining({
        code: 'invalid_artifact',
        file: 'audit/a.ndjson.sigstore.json',
        message: expect.stringMatching(/outside the workspace/),
      }),
    );
    const inside = await workspace(null, { 'keep/b.sigstore.json': JSON.stringify(good) });
    symlinkSync(path.join(inside, 'keep/b.sigstore.json'), path.join(inside, 'audit/a.ndjson.sigstore.json'));
    const followed = await cliJson(['-C', inside, '--runs', 'runs', ...base, '--trusted-signer-identity', EXPORT_IDENTITY], ROOT);
    expect(followed.code, JSON.stringify(followed.report.findings)).toBe(0);
  });

  it('a server log attested by a trusted producer identity (run-v1): attested, named in runs[].producer.identity', async () => {
    const log = readFileSync(path.join(UPSTREAM, 'server-logs/02_deploy_key_create_then_get.stderr.log'));
    const bundle = await world.attest(statementFor('02.log', log, RUN_V1, {}), {
      san: `https://github.com/${REPO}/.github/workflows/agent.yml@refs/heads/main`,
    });
    const dir = writeFiles(tempDir(), {
      'runs/02.log': log.toString('utf8'),
      'runs/02.log.sigstore.json': JSON.stringify(bundle, null, 2),
      'audit/r.json': readFileSync(path.join(UPSTREAM, 'side_effect/audit_record_github_deploy_key.json'), 'utf8'),
      'root.json': JSON.stringify(world.trustedRoot),
    });
    const id = `https://github.com/${REPO}/.github/workflows/agent.yml@refs/heads/main`;
    const r = await cliJson(['-C', dir, '--runs', 'runs', ...base, '--trusted-producer-identity', id, '--require-attested-runs'], ROOT);
    expect(r.code, JSON.stringify(r.report.findings)).toBe(0);
    expect(r.report.runs[0]!.producer).toMatchObject({ key_id: null, checked: true, identity: { identity: id } });
    const other = await cliJson(['-C', dir, '--runs', 'runs', ...base, '--trusted-producer-identity', `${id}x`], ROOT);
    expect(other.report.findings.find((f) => f.code === 'run_unattested')?.message).toMatch(/certificate identity .* is not trusted/);
  });

  it('bad configuration is a usage error: an identity without a source repository, a malformed identity, a root that does not parse or has no CA', async () => {
    const dir = await workspace(null, {
      'bad-root.json': '{"mediaType":"application/vnd.dev.sigstore.trustedroot+json;version=0.1","certificateAuthorities":[]}',
    });
    const run = (args: string[]) => cli(['verify', '-C', dir, '--runs', 'runs', '--audit', 'audit', ...args], ROOT);
    expect(await run(['--trusted-signer-identity', EXPORT_IDENTITY])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--source-repository: required with any trusted identity'),
    });
    expect(await run(['--trusted-signer-identity', 'export.yml', '--source-repository', REPO])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('is not a workflow identity'),
    });
    expect(
      await run(['--trusted-signer-identity', EXPORT_IDENTITY, '--source-repository', REPO, '--trusted-root', 'bad-root.json']),
    ).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('the trusted root has no certificate authority'),
    });
    expect(
      await run(['--trusted-signer-identity', EXPORT_IDENTITY, '--source-repository', REPO, '--trusted-root', 'runs/r.json']),
    ).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('not a Sigstore trusted root'),
    });
  });
});

describe("the producer's side", () => {
  it('attest-bundle --predicate-only writes upstream’s predicate; actions/attest over the bundle with it attests the run by identity', async () => {
    const vector = path.join(UPSTREAM, 'attestations/attested-run.tar.gz');
    const p = await cli(['attest-bundle', '--predicate-only', vector], ROOT);
    expect(p.code, p.stderr).toBe(0);
    const sidecar = readFileSync(`${vector}.intoto.jsonl`, 'utf8');
    const upstream = JSON.parse(Buffer.from(JSON.parse(sidecar).payload, 'base64').toString('utf8'));
    expect(JSON.parse(p.stdout)).toEqual(upstream.predicate);
    const archive = readFileSync(vector);
    const id = `https://github.com/${REPO}/.github/workflows/agent.yml@refs/heads/main`;
    const bundle = await world.attest(
      statementFor('run.tar.gz', archive, 'https://docs.getassay.dev/attestation/evidence-bundle/v1', JSON.parse(p.stdout)),
      { san: id },
    );
    const dir = writeFiles(tempDir(), {
      'runs/run.tar.gz': archive,
      'runs/run.tar.gz.sigstore.json': JSON.stringify(bundle),
      'audit/r.json': readFileSync(path.join(UPSTREAM, 'side_effect/audit_record_github_deploy_key.json'), 'utf8'),
      'root.json': JSON.stringify(world.trustedRoot),
    });
    const args = [
      '-C',
      dir,
      '--runs',
      'runs',
      '--audit',
      'audit',
      '--source-repository',
      REPO,
      '--trusted-root',
      'root.json',
      '--trusted-producer-identity',
      id,
    ];
    const r = await cliJson(args, ROOT);
    expect(r.code, JSON.stringify(r.report.findings)).toBe(0);
    expect(r.report.runs[0]!.producer).toMatchObject({ checked: true, name: 'assay-cli', identity: { identity: id } });
    // A predicate field that disagrees with the bundle is refused, as for key-signed sidecars.
    const edited = { ...JSON.parse(p.stdout), run: { ...JSON.parse(p.stdout).run, event_count: 3 } };
    writeFileSync(
      path.join(dir, 'runs/run.tar.gz.sigstore.json'),
      JSON.stringify(
        await world.attest(statementFor('run.tar.gz', archive, 'https://docs.getassay.dev/attestation/evidence-bundle/v1', edited), {
          san: id,
        }),
      ),
    );
    const bad = await cliJson(args, ROOT);
    expect(bad.report.findings.find((f) => f.code === 'run_unattested')?.message).toMatch(
      /predicate field run\.event_count disagrees with the bundle/,
    );
  });

  it('import --predicate writes the records predicate: kind, the scope as given, entries read, records written', async () => {
    const dir = writeFiles(tempDir(), {
      'e.json': readFileSync(path.join(ROOT, 'fixtures/import/github/audit-log-rest-page.json'), 'utf8'),
    });
    const r = await cli(
      ['import', 'github-audit-log', '--since', '2020-01-01', '--output', 'o.ndjson', '--predicate', 'p.json', 'e.json'],
      dir,
    );
    expect(r.code, r.stderr).toBe(0);
    const predicate = JSON.parse(readFileSync(path.join(dir, 'p.json'), 'utf8'));
    expect(predicate).toMatchObject({
      kind: 'github-audit-log',
      scope: { since: '2020-01-01' },
      entries_read: expect.any(Number),
      records_written: expect.any(Number),
    });
    expect(predicate.records_written).toBe(readFileSync(path.join(dir, 'o.ndjson'), 'utf8').trim().split('\n').length);
    expect(Object.keys(predicate.scope)).toEqual(['since']);
  });
});

describe('verify-attestation with a Sigstore bundle (actions/attest over the report)', () => {
  const RESOURCE = 'git+https://github.com/acme/agents@0123456789abcdef0123456789abcdef01234567';
  const RELEASE = `https://github.com/${REPO}/.github/workflows/release.yml@refs/tags/v1.2.3`;

  it('passes by identity, names the signer; another commit, another identity or an edited report fails', async () => {
    const dir = tempDir();
    cpSync(path.join(ROOT, 'fixtures/demo'), dir, { recursive: true });
    writeFileSync(path.join(dir, 'root.json'), JSON.stringify(world.trustedRoot));
    const v = await cli(
      ['verify', '-C', dir, '--output', 'receipt-report.json', '--vsa-predicate', 'verdict.json', '--resource-uri', RESOURCE],
      ROOT,
    );
    expect(v.code, v.stderr).toBe(0);
    const report = readFileSync(path.join(dir, 'receipt-report.json'));
    const predicate = JSON.parse(readFileSync(path.join(dir, 'verdict.json'), 'utf8'));
    const bundle = await world.attest(statementFor('receipt-report.json', report, 'https://slsa.dev/verification_summary/v1', predicate), {
      san: RELEASE,
      extensions: [
        { oid: OID.issuer, value: ISSUER },
        { oid: OID.repo, value: `https://github.com/${REPO}` },
        { oid: OID.ref, value: 'refs/tags/v1.2.3' },
      ],
    });
    writeFileSync(path.join(dir, 'receipt-report.json.sigstore.json'), JSON.stringify(bundle));
    const check = (extra: string[]) =>
      cli(
        [
          'verify-attestation',
          '--certificate-identity',
          RELEASE,
          '--source-repository',
          REPO,
          '--source-ref',
          'refs/tags/v1.2.3',
          '--trusted-root',
          'root.json',
          '--report',
          'receipt-report.json',
          ...extra,
          'receipt-report.json.sigstore.json',
        ],
        dir,
      );
    const ok = await check(['--resource-uri', RESOURCE]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(
      new RegExp(
        `^PASSED ${RESOURCE.replace(/[.+]/g, '\\$&')} · .* · signed by ${RELEASE.replace(/[./]/g, '\\$&')} \\(refs/tags/v1\\.2\\.3, `,
      ),
    );
    expect(await check(['--resource-uri', `${RESOURCE.slice(0, -1)}8`])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/the verdict is about another commit or repository/),
    });
    const other = await cli(
      [
        'verify-attestation',
        '--certificate-identity',
        `${RELEASE}x`,
        '--source-repository',
        REPO,
        '--trusted-root',
        'root.json',
        '--report',
        'receipt-report.json',
        'receipt-report.json.sigstore.json',
      ],
      dir,
    );
    expect(other).toMatchObject({ code: 1, stderr: expect.stringMatching(/is not trusted/) });
    // A trusted root that cannot be used is a usage error (exit 2), not a refused verdict.
    writeFileSync(path.join(dir, 'root.json'), '{"mediaType": "application/vnd.dev.sigstore.trustedroot+json;version=0.1"');
    expect(await check([])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--trusted-root .*root\.json:1:\d+: not a trusted root: /),
    });
    writeFileSync(path.join(dir, 'root.json'), JSON.stringify(world.trustedRoot));
    writeFileSync(path.join(dir, 'receipt-report.json'), Buffer.concat([report, Buffer.from(' ')]));
    expect(await check([])).toMatchObject({ code: 1, stderr: expect.stringMatching(/subject digest differs from the file/) });
  });
});

describe('without identities', () => {
  it('a .sigstore.json is still read and its shape checked: malformed is invalid_artifact, a bundle a notice (not checked)', async () => {
    const good = await world.attest(statementFor('a.json', Buffer.from('x'), RECORDS_V1));
    const dir = writeFiles(tempDir(), {
      'runs/r.json': json(surface([addKey()])),
      'runs/r.json.sigstore.json': JSON.stringify(good),
      'audit/a.json': json(record('github', 'g1', addKey())),
      'audit/a.json.sigstore.json': '{"mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json"}',
    });
    const r = await cliJson(['-C', dir, '--runs', 'runs', '--audit', 'audit'], ROOT);
    expect(r.code).toBe(1);
    expect(r.report.findings).toContainEqual(
      expect.objectContaining({
        code: 'invalid_artifact',
        file: 'audit/a.json.sigstore.json',
        message: expect.stringMatching(/not a Sigstore bundle/),
      }),
    );
    expect(r.report.findings).toContainEqual(
      expect.objectContaining({
        code: 'skipped_object',
        file: 'runs/r.json.sigstore.json',
        message: expect.stringMatching(/1 Sigstore bundle\(s\), not checked: no trusted identities/),
      }),
    );
  });
});

describe('the test world itself', () => {
  it('bundles of a mock instance made across a second boundary verify (the cause of a flaky suite: a clock fixed before the root certificate)', async () => {
    // Start a few milliseconds before a second boundary, so the root certificate (real time) is made after it.
    const next = Math.ceil((Date.now() + 50) / 1000) * 1000;
    await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now() - 3)));
    const across = await mockSigstore();
    const rs = parseTrustedRoots('root.json', JSON.stringify(across.trustedRoot), DEFAULT_LIMITS);
    if (!rs.ok) throw new Error(rs.reason);
    const bundle = await across.attest(statementFor('2026-12-01.ndjson', BYTES, RECORDS_V1));
    expect(check(bundle, {}, FILE, rs.value)).toMatchObject({ ok: true });
  });
});
