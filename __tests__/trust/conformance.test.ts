/**
 * The public sigstore-conformance `bundle-verify` vectors (Apache-2.0, github.com/sigstore/sigstore-conformance,
 * test/assets/bundle-verify), through the project's Sigstore layer: every certificate-based happy
 * path verifies and every certificate-based `_fail` case is refused; the `managed-key-*` cases need
 * a bare key and are out of scope. The vectors are committed, unmodified, in
 * __tests__/vectors/sigstore-conformance (commit a73de49, its licence and origin beside them; 66
 * certificate-based cases: 19 happy paths, 47 `_fail`; the one the library alone accepts, a trusted
 * root whose tlog key's validFor has no start, is refused by the project's root reader).
 * SIGSTORE_CONFORMANCE names another checkout's test/assets/bundle-verify to run those instead.
 *
 * Per case (the suite's own conventions): bundle.sigstore.json; the artifact (`artifact`, else
 * ../a.txt: for DSSE, the Statement's subject); the identity (`identity`, else the conformance
 * beacon workflow) and issuer (`issuer`, else GitHub Actions'); `trusted_root.json`, else the
 * shipped public-good root.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isObject } from '../../src/core/json.js';
import type { Result } from '../../src/core/result.js';
import { DEFAULT_LIMITS } from '../../src/read/limits.js';
import { checkSigner, parseTrustedRoots, publicGoodRoots, verifySigned } from '../../src/trust/sigstore.js';

const DIR = process.env['SIGSTORE_CONFORMANCE'] || path.join(import.meta.dirname, '../vectors/sigstore-conformance/bundle-verify');
const BEACON =
  'https://github.com/sigstore-conformance/extremely-dangerous-public-oidc-beacon/.github/workflows/extremely-dangerous-oidc-beacon.yml@refs/heads/main';
const ISSUER = 'https://token.actions.githubusercontent.com';

/** One case through the Sigstore layer: signature against the root, identity, and a DSSE Statement's subject against the artifact. */
function verifyCase(dir: string): Result {
  const file = (name: string) => path.join(dir, name);
  const text = (name: string, fallback: string) => (existsSync(file(name)) ? readFileSync(file(name), 'utf8').trim() : fallback);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file('bundle.sigstore.json'), 'utf8'));
  } catch (e) {
    return { ok: false, reason: `not JSON: ${(e as Error).message}` };
  }
  const artifact = readFileSync(existsSync(file('artifact')) ? file('artifact') : path.join(dir, '..', 'a.txt'));
  let roots = publicGoodRoots();
  if (existsSync(file('trusted_root.json'))) {
    const r = parseTrustedRoots('trusted_root.json', readFileSync(file('trusted_root.json'), 'utf8'), DEFAULT_LIMITS);
    if (!r.ok) return r;
    roots = r.value;
  }
  const dsse = isObject(value) && isObject(value['dsseEnvelope']);
  const signed = verifySigned(value, roots, dsse ? undefined : artifact);
  if (!signed.ok) return signed;
  const who = checkSigner(signed.value.cert, new Set([text('identity', BEACON)]), text('issuer', ISSUER));
  if (!who.ok) return who;
  if (dsse) {
    const content = signed.value.bundle.content;
    if (content.$case !== 'dsseEnvelope') return { ok: false, reason: 'not a DSSE bundle' };
    const statement = JSON.parse(Buffer.from(content.dsseEnvelope.payload).toString('utf8')) as {
      subject?: { digest?: { sha256?: string } }[];
    };
    const digest = createHash('sha256').update(artifact).digest('hex');
    if (!statement.subject?.some((s) => s.digest?.sha256 === digest)) return { ok: false, reason: 'no subject digest equals the artifact' };
  }
  return { ok: true };
}

describe('sigstore-conformance bundle-verify vectors', () => {
  const cases = readdirSync(DIR, { withFileTypes: true }).filter((d) => d.isDirectory() && !d.name.startsWith('managed-key'));
  it('has the vectors: 66 certificate-based cases at a73de49, 19 happy paths and 47 _fail', () => {
    if (process.env['SIGSTORE_CONFORMANCE']) expect(cases.length).toBeGreaterThan(40);
    else expect([cases.length, cases.filter((c) => c.name.endsWith('_fail')).length]).toEqual([66, 47]);
  });
  for (const c of cases) {
    const fail = c.name.endsWith('_fail');
    it(`${c.name}: ${fail ? 'refused' : 'verifies'}`, () => {
      const r = verifyCase(path.join(DIR, c.name));
      expect(r.ok, r.ok ? 'accepted' : r.reason).toBe(!fail);
    });
  }
});
