import { readFileSync } from 'node:fs';
import path from 'node:path';
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binding, jcs, jcsWithout, sha256Digest, subjectCanonical, unsafeInteger } from '../../src/core/binding.js';
import { project, unsafeSubjectNumber } from '../../src/core/projection.js';
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

/** canonicalize itself, as jcs reports it (the reference the written-out forms are held to). */
const canonical = (v: unknown): { ok: true; text: string } | { ok: false; reason: string } => {
  try {
    const text = canonicalize(v);
    return text === undefined ? { ok: false, reason: 'value has no JSON representation' } : { ok: true, text };
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
};

describe('JCS of a value as JSON.parse makes them (written out, not walked by canonicalize)', () => {
  /** Text JSON.parse turns into values: own `__proto__` and `toJSON` members, escapes, lone surrogates, -0, big and tiny numbers. */
  const key = fc.constantFrom('"a"', '"b"', '"B"', '"__proto__"', '"toJSON"', '"\\ud800"', '"😀"', '"\\uffff"', '"é"', '""', '"a\\"b"');
  const scalar = fc.oneof(
    fc.constantFrom('-0', '0', '1e21', '1e-7', '0.1', '1E400', '-1e400', '123456789012345678901234567890', 'true', 'false', 'null'),
    fc.constantFrom('"x"', '"\\udc00"', '"\\ud83d\\ude00"', '"\\u2028"', '"\\u0000"', '"\\n"', '"😀"'),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  );
  const { value } = fc.letrec<{ value: string }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      scalar,
      fc
        .uniqueArray(fc.tuple(key, tie('value')), { maxLength: 12, selector: (m) => m[0] })
        .map((ms) => `{${ms.map(([k, v]) => `${k}:${v}`).join(',')}}`),
      fc.array(tie('value'), { maxLength: 6 }).map((xs) => `[${xs.join(',')}]`),
    ),
  }));
  it('equals canonicalize over arbitrary parsed values, failures included, reason for reason', () => {
    fc.assert(
      fc.property(value, (t) => {
        const v: unknown = JSON.parse(t);
        expect(jcs(v)).toEqual(canonical(v));
      }),
      { numRuns: 5000, seed: 31 },
    );
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (v) => {
        expect(jcs(v)).toEqual(canonical(v));
      }),
      { numRuns: 2000, seed: 32 },
    );
  });
  it('a signed entry’s payload (jcsWithout: the object without a member, another member’s text reused) equals canonicalize of the copy without it, failures included', () => {
    const without = (o: Record<string, unknown>, omit: string): Record<string, unknown> => {
      const copy: Record<string, unknown> = {};
      for (const k of Object.keys(o))
        if (k !== omit) Object.defineProperty(copy, k, { value: o[k], enumerable: true, writable: true, configurable: true });
      return copy;
    };
    const entry = fc
      .uniqueArray(
        fc.tuple(fc.constantFrom('"signature"', '"subject"', ...['"a"', '"__proto__"', '"toJSON"', '"\\ud800"', '"é"']), value),
        {
          maxLength: 8,
          selector: (m) => m[0],
        },
      )
      .map((ms) => `{${ms.map(([k, v]) => `${k}:${v}`).join(',')}}`);
    fc.assert(
      fc.property(entry, fc.constantFrom('signature', 'subject', 'a'), (t, omit) => {
        const o = JSON.parse(t) as Record<string, unknown>;
        const expected = canonical(without(o, omit));
        expect(jcsWithout(o, omit)).toEqual(expected);
        // The subject's text made once (for its binding) and reused: the same payload.
        const subject = Object.hasOwn(o, 'subject') ? jcs(o['subject']) : null;
        if (subject?.ok) expect(jcsWithout(o, omit, { key: 'subject', text: subject.text })).toEqual(expected);
      }),
      { numRuns: 3000, seed: 33 },
    );
  });
  it('what JSON.parse does not make is written as canonicalize writes it, or left to it: a toJSON, a Date, a boxed number, undefined, a hole, a cycle, 100 levels', () => {
    const inherited = Object.create({ toJSON: () => ({ x: 1 }) }) as Record<string, unknown>;
    inherited['a'] = 'b';
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    // biome-ignore lint/suspicious/noSparseArray: a hole, on purpose
    const holed = [1, , 3];
    const values: unknown[] = [
      inherited,
      new Date(0),
      { n: Object(1) },
      { u: undefined, a: 1 },
      [undefined, () => 1],
      holed,
      cyclic,
      deep,
      Object.create(null),
      { f: () => 1 },
      { toJSON: () => 'x' },
    ];
    for (const v of values) expect(jcs(v)).toEqual(canonical(v));
    expect(jcs(deep)).toEqual({ ok: true, text: `${'['.repeat(100)}1${']'.repeat(100)}` });
  });
});

describe('a toJSON put on Object.prototype', () => {
  it("is canonicalize's to apply, as it does: a parsed object is then not written out", () => {
    Object.defineProperty(Object.prototype, 'toJSON', { value: () => 'polluted', configurable: true, writable: true });
    try {
      const v: unknown = JSON.parse('{"a":[1,{"b":2}]}');
      expect(jcs(v)).toEqual(canonical(v));
      expect(jcs(v)).toEqual({ ok: true, text: '"polluted"' });
      // A subject too: its digest is canonicalize's, whatever that makes of it.
      const subject: unknown = JSON.parse('{"action_class":"c","verb":"v","target":{"a":"b"}}');
      const c = canonical(subject);
      expect(binding(subject)).toEqual(c.ok ? { ok: true, digest: sha256Digest(c.text) } : c);
    } finally {
      delete (Object.prototype as { toJSON?: unknown }).toJSON;
    }
    expect(jcs(JSON.parse('{"a":1}'))).toEqual({ ok: true, text: '{"a":1}' });
  });
});

/** Whether a value holds a number of magnitude past 2^53 − 1 anywhere (every such double is a rounded integer). */
const holdsUnsafe = (v: unknown): boolean =>
  typeof v === 'number'
    ? Number.isFinite(v) && Math.abs(v) > Number.MAX_SAFE_INTEGER
    : typeof v === 'object' && v !== null && Object.values(v).some(holdsUnsafe);

describe('binding of a subject {action_class, target, verb} (written out, not walked by canonicalize)', () => {
  const reference = (s: unknown) => {
    // A subject holding an integer beyond ±(2^53−1) is refused, whatever canonicalize would make of it.
    if (holdsUnsafe(s)) return { ok: false, reason: expect.stringMatching(/ is an integer beyond ±\(2\^53−1\) \(read as -?[0-9e+.]+\): /) };
    const c = canonical(s);
    return c.ok ? { ok: true, digest: sha256Digest(c.text) } : c;
  };
  /** An object with these own members, as JSON.parse makes one (`__proto__` an ordinary key). */
  const own = (members: readonly (readonly [string, unknown])[]): Record<string, unknown> => {
    const o: Record<string, unknown> = {};
    for (const [k, v] of members) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
    return o;
  };
  const text = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 6 }),
    fc.constantFrom('\ud800', 'a\udc00', '😀', '', 'é', '"', '\\', '\u2028', '\u0000', '__proto__', 'toJSON', 'b', 'B', 'owner', 'repo'),
  );
  const leaf = fc.oneof(
    text,
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0, 1e21, 1e-7, 0.1),
    fc.constantFrom(
      Number.MAX_SAFE_INTEGER,
      -Number.MAX_SAFE_INTEGER,
      2 ** 53,
      -(2 ** 53),
      12345678901234567000,
      1e300,
      4503599627370495.5,
    ),
  );
  const target = fc.oneof(
    // Up to 12 members: both ways a target is sorted (binding.ts sortByKey).
    fc.array(fc.tuple(text, leaf), { maxLength: 12 }).map(own),
    leaf,
    fc.constant([] as unknown[]),
  );
  const subject = fc.oneof(
    fc.record({ action_class: fc.oneof(text, leaf), verb: fc.oneof(text, leaf), target }),
    fc.tuple(text, text, target).map(([a, v, t]) =>
      own([
        ['verb', v],
        ['target', t],
        ['action_class', a],
      ]),
    ),
    fc.tuple(text, text, target, text, leaf).map(([a, v, t, k, x]) =>
      own([
        ['action_class', a],
        ['verb', v],
        ['target', t],
        [k, x],
      ]),
    ),
    fc.tuple(text, target).map(([a, t]) =>
      own([
        ['action_class', a],
        ['target', t],
      ]),
    ),
  );
  it('equals sha256(canonicalize(subject)) over arbitrary subjects, failures included, reason for reason', () => {
    fc.assert(
      fc.property(subject, (s) => {
        expect(binding(s)).toEqual(reference(s));
      }),
      { numRuns: 5000, seed: 23 },
    );
  });
  it("a target that is not an object as JSON.parse makes them is canonicalize's to judge (its toJSON, a Date)", () => {
    const inherited = Object.create({ toJSON: () => ({ x: 1 }) }) as Record<string, unknown>;
    inherited['a'] = 'b';
    for (const t of [inherited, new Date(0)]) {
      const s = { action_class: 'c', verb: 'v', target: t };
      expect(binding(s)).toEqual(reference(s));
    }
    expect(jcs({ action_class: 'c', verb: 'v', target: inherited })).toEqual({
      ok: true,
      text: '{"action_class":"c","target":{"x":1},"verb":"v"}',
    });
  });
  it('a target key is sorted by UTF-16 code units, as canonicalize sorts it', () => {
    const s = {
      action_class: 'c',
      verb: 'v',
      target: own([
        ['b', '1'],
        ['B', '2'],
        ['😀', '3'],
        ['\uffff', '4'],
        ['a', { z: 1, y: [2] }],
      ]),
    };
    expect(binding(s)).toEqual(reference(s));
    expect(jcs(s)).toEqual({
      ok: true,
      text: '{"action_class":"c","target":{"B":"2","a":{"y":[2],"z":1},"b":"1","😀":"3","\uffff":"4"},"verb":"v"}',
    });
  });
});

describe('a subject number JSON.parse rounded is never bound (a red team: two targets, one digest)', () => {
  const issue = (number: unknown) => ({ action_class: 'github_issue', verb: 'create', target: { owner: 'o', repo: 'r', number } });
  const parsed = (text: string): unknown => JSON.parse(text);

  it('two integers past 2^53 that parse to one double are both refused, naming the field and the value read', () => {
    const a = parsed('12345678901234567890');
    const b = parsed('12345678901234567891');
    expect(a).toBe(b); // what the red team used: one digest for two targets
    for (const n of [a, b])
      expect(binding(issue(n))).toEqual({
        ok: false,
        reason:
          'target.number is an integer beyond ±(2^53−1) (read as 12345678901234567000): a number that large is rounded when it is read, so two different values could bind alike; it is never bound',
      });
    expect(subjectCanonical(issue(a)).ok).toBe(false);
  });

  it('the limit is ±(2^53−1): 2^53 and past are refused, wherever they sit; within it, and fractions, bind as JCS writes them', () => {
    for (const n of [2 ** 53, -(2 ** 53), 1e21, -1e300]) expect(binding(issue(n)).ok, String(n)).toBe(false);
    for (const n of [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 0, 1.5, 4503599627370495.5, 1e-7]) {
      const c = canonicalize(issue(n)) as string;
      expect(subjectCanonical(issue(n)), String(n)).toEqual({ ok: true, text: c });
    }
    expect(unsafeInteger({ a: [1, { 'b c': [0, 2 ** 60] }] })).toEqual({ path: ['a', 1, 'b c', 1], value: 2 ** 60 });
    expect(binding(issue({ ids: [1, 2, 2 ** 53] }))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^target\.number\.ids\[2\] is an integer/),
    });
    expect(binding(issue({ 'a b': 2 ** 53 }))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^target\.number\["a b"\] is an integer/),
    });
  });

  it('a decision whose subject holds one has no subject, with the reason; one in a field outside the binding is no concern', () => {
    const d = (target: Record<string, unknown>) => ({ action: { resource_type: 'github_issue', verb: 'create', target } });
    const big = parsed('12345678901234567890');
    expect(project(d({ owner: 'o', repo: 'r', number: big }))).toEqual({
      kind: 'none',
      reason: expect.stringMatching(/^subject cannot be canonicalized: target\.number is an integer beyond ±\(2\^53−1\)/),
    });
    expect(unsafeSubjectNumber(d({ owner: 'o', repo: 'r', number: big }))).toEqual({
      path: ['action', 'target', 'number'],
      reason: expect.stringMatching(/^action\.target\.number is an integer beyond ±\(2\^53−1\) \(read as 12345678901234567000\)/),
    });
    expect(unsafeSubjectNumber(d({ owner: 'o', repo: 'r', number: 7, request_id: big }))).toBeNull();
    expect(project(d({ owner: 'o', repo: 'r', number: 7, request_id: big })).kind).toBe('subject');
  });
});

describe('unsafeInteger', () => {
  it('finds the first such number in member order, wherever it is, and only such numbers (an oracle)', () => {
    const big = fc.constantFrom(2 ** 53, -(2 ** 60), 1e21, 12345678901234567000);
    const small = fc.oneof(fc.integer(), fc.double({ noNaN: true, min: -1e15, max: 1e15 }), fc.constant(Number.MAX_SAFE_INTEGER));
    const leaf = fc.oneof(fc.string(), small, big, fc.constant(null), fc.boolean(), fc.constant(undefined));
    const value = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.array(tie('v'), { maxLength: 4 }),
        fc.dictionary(fc.string({ maxLength: 3 }), tie('v'), { maxKeys: 4 }),
      ),
    })).v;
    const first = (v: unknown, path: (string | number)[] = []): { path: (string | number)[]; value: number } | null => {
      if (typeof v === 'number') return Number.isFinite(v) && Math.abs(v) > Number.MAX_SAFE_INTEGER ? { path, value: v } : null;
      if (typeof v !== 'object' || v === null) return null;
      for (const [k, x] of Array.isArray(v) ? v.entries() : Object.entries(v)) {
        const found = first(x, [...path, k]);
        if (found) return found;
      }
      return null;
    };
    fc.assert(
      fc.property(value, (v) => {
        expect(unsafeInteger(v)).toEqual(first(v));
      }),
      { numRuns: 2000, seed: 11 },
    );
  });
});
