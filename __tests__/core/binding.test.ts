import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { binding, jcs } from '../../src/core/binding.js';
import { UPSTREAM } from '../support/workspace.js';

const vectors = JSON.parse(readFileSync(path.join(UPSTREAM, 'jcs/rfc8785.json'), 'utf8')) as Record<
  string,
  { input: string; expected: string }
>;
const cases = Object.entries(vectors).filter(([k]) => k !== '_about');

describe('RFC 8785 canonicalization (upstream vectors)', () => {
  it('has all 31 vectors', () => expect(cases).toHaveLength(31));
  it.each(cases)('%s', (_name, v) => {
    const c = jcs(JSON.parse(v.input));
    expect(c).toEqual({ ok: true, text: v.expected });
  });
});

describe('binding', () => {
  it('refuses lone surrogates and non-finite numbers instead of coercing them', () => {
    expect(binding({ a: '\ud800' }).ok).toBe(false);
    expect(binding({ a: '\udc00x' }).ok).toBe(false);
    expect(binding({ a: Number.NaN }).ok).toBe(false);
    expect(binding({ a: Number.POSITIVE_INFINITY }).ok).toBe(false);
  });
  it('hashes __proto__ and toJSON as ordinary keys', () => {
    const v = JSON.parse('{"__proto__":{"x":1},"toJSON":"y"}') as object;
    expect(jcs(v)).toEqual({ ok: true, text: '{"__proto__":{"x":1},"toJSON":"y"}' });
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });
  it('matches the upstream deploy-key digest', () => {
    const subject = JSON.parse(readFileSync(path.join(UPSTREAM, 'side_effect/audit_record_github_deploy_key.json'), 'utf8')).subject;
    expect(binding(subject)).toEqual({ ok: true, digest: 'sha256:31f2007b91477601789c8803c3e32912a8a4510851cc55397d49a65bbc5e4ec3' });
  });
});
