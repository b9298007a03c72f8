import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineIndex } from '../../src/read/json/positions.js';
import { firstValueEnd, offsetAt, pathKey, scan } from '../../src/read/json/scanner.js';
import { parseStrict } from '../../src/read/json/strict.js';

const opts = { maxDepth: 64 };
const err = (text: string) => {
  const r = scan(text, opts);
  if (r.ok) throw new Error(`accepted: ${text}`);
  const { line, column } = new LineIndex(text).locate(r.reason.offset);
  return { line, column, message: r.reason.message };
};

describe('strict JSON scanner', () => {
  it('rejects duplicate keys after unescaping, at the second key', () => {
    expect(err('{"a":1,\n  "\\u0061":2}')).toEqual({ line: 2, column: 3, message: 'duplicate key "a"' });
    expect(err('{"x":{"k":1,"k":2}}').message).toBe('duplicate key "k"');
  });
  it('finds duplicates among many keys', () => {
    const keys = Array.from({ length: 100_000 }, (_, i) => `"k${i}":${i}`);
    expect(scan(`{${keys.join(',')}}`, opts).ok).toBe(true);
    expect(err(`{${keys.join(',')},"k99999":0}`).message).toBe('duplicate key "k99999"');
  });
  it('rejects lone surrogates in strings and keys, accepts pairs', () => {
    expect(err('{"a":"\\ud800"}').message).toMatch(/lone UTF-16 surrogate/);
    expect(err('{"\\udc00":1}').message).toMatch(/lone UTF-16 surrogate/);
    expect(err('["\\ud83d\\u0041"]').message).toMatch(/lone UTF-16 surrogate/);
    expect(scan('["\\ud83d\\ude00", "😀"]', opts).ok).toBe(true);
  });
  it('rejects nesting deeper than the limit without recursion trouble', () => {
    expect(scan('['.repeat(64) + ']'.repeat(64), opts).ok).toBe(true);
    expect(err('['.repeat(65) + ']'.repeat(65)).message).toBe('nesting deeper than 64 levels');
    expect(err('['.repeat(100_000)).column).toBe(65);
  });
  it('rejects a BOM, trailing garbage, truncation, control characters and bad numbers', () => {
    expect(err('\ufeff{}').message).toMatch(/byte-order mark/);
    expect(err('{} x').message).toMatch(/after the JSON value/);
    expect(err('{"a":').message).toMatch(/truncated/);
    expect(err('{"a":"b\n"}').message).toMatch(/control character U\+000A/);
    expect(err('[01]').message).toMatch(/leading zeros/);
    expect(err('[1e400]').message).toMatch(/out of range/);
    expect(err('[-1e400]').message).toMatch(/out of range/);
    expect(err(`[1${'0'.repeat(400)}]`).message).toMatch(/out of range/);
    expect(err('[NaN]').message).toMatch(/expected a value/);
    expect(err("{'a':1}").message).toMatch(/expected a string key/);
  });
  it('keeps __proto__ an ordinary own key', () => {
    const r = parseStrict('{"__proto__":{"polluted":true}}', opts);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Object.keys(r.value.json as object)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
  it('records where the elements of selected arrays start', () => {
    const text = '{"observed_tool_decisions":[\n {"a":1},\n  {"b":2}\n], "x":[1]}';
    const r = scan(text, { maxDepth: 64, collect: [['observed_tool_decisions']] });
    expect(r.ok && r.value.get(pathKey(['observed_tool_decisions']))!.map((o) => new LineIndex(text).locate(o))).toEqual([
      { line: 2, column: 2 },
      { line: 3, column: 3 },
    ]);
  });
  it('agrees with JSON.parse on everything JSON.parse accepts that has no duplicate keys or lone surrogates', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 10 }), (v) => {
        const text = JSON.stringify(v);
        const r = parseStrict(text, opts);
        expect(r.ok).toBe(true);
        if (r.ok) expect(r.value.json).toEqual(JSON.parse(text));
      }),
      { numRuns: 300, seed: 42 },
    );
  });
  it('never accepts what JSON.parse rejects', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        if (!parses) expect(scan(text, opts).ok).toBe(false);
      }),
      { numRuns: 2000, seed: 7 },
    );
  });
});

describe('object size limit', () => {
  it('rejects an object with more members than maxKeys, at the first member past it', () => {
    const keys = Array.from({ length: 20 }, (_, i) => `"k${i}":${i}`);
    expect(scan(`{${keys.join(',')}}`, { maxDepth: 64, maxKeys: 20 }).ok).toBe(true);
    const r = scan(`{${keys.join(',')},"x":1}`, { maxDepth: 64, maxKeys: 20 });
    expect(r.ok ? null : r.reason.message).toBe('object has more than 20 members');
  });
  it('reuses per-depth key sets correctly across sibling objects', () => {
    const obj = (p: string) => `{${Array.from({ length: 30 }, (_, i) => `"${p}${i}":0`).join(',')}}`;
    expect(scan(`[${obj('a')},${obj('a')},${obj('b')}]`, { maxDepth: 64 }).ok).toBe(true);
    const dup = `[${obj('a')},{${Array.from({ length: 30 }, (_, i) => `"c${i}":0`).join(',')},"c29":1}]`;
    expect(scan(dup, { maxDepth: 64 }).ok).toBe(false);
  });
});

describe('trusted mode (after JSON.parse accepted the text) agrees with the full scan', () => {
  const KEYS = [
    '"a"',
    '"\\u0061"',
    '"b"',
    '"ab"',
    '"ba"',
    '"side_effect_asserted"',
    '"side_effect_verified"',
    '"x\\"y"',
    '"x\\\\"',
    '"\\"\\""',
    '"\\ud800"',
    '"\\ud83d\\ude00"',
    '"😀"',
    '"__proto__"',
    // Colons in keys: the proof without a scan counts them (strict-json.ts provablyClean).
    '"a:"',
    '":"',
    '"\\u003a"',
  ];
  const STRINGS = [
    '"v"',
    '"\\\\"',
    '"\\udc00"',
    '"a\\nb"',
    '"\\ud83d\\ude00"',
    '"é"',
    // Escaped quotes and runs of backslashes (a JSON text inside a string, as a server log's decision).
    '"{\\"k\\":\\"v\\",\\"n\\":1}"',
    '"\\\\\\""',
    '"a\\\\"',
    '"\\\\u0041"',
    '"\\"\\ud800\\""',
    '"\\"x\\u00e9\\""',
    '"\\\\\\\\"',
    '":"',
    '"sha256:ab:cd"',
    '"\\u003a"',
  ];
  const { value } = fc.letrec<{ value: string }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom(...STRINGS, '1', '-0.5e3', '1e400', 'true', 'null'),
      fc
        .array(fc.tuple(fc.constantFrom(...KEYS), tie('value')), { maxLength: 20 })
        .map((ms) => `{${ms.map(([k, v]) => `${k}:${v}`).join(',')}}`),
      fc.array(tie('value'), { maxLength: 5 }).map((xs) => `[${xs.join(', ')}]`),
    ),
  }));
  it('same verdict, same error location and message, same element offsets', () => {
    fc.assert(
      fc.property(value, fc.boolean(), (text, pretty) => {
        const t = pretty ? `\n  ${text}\n` : text;
        const o = { maxDepth: 64, maxKeys: 30, collect: [[], ['a']] };
        const full = scan(t, o);
        const fast = parseStrict(t, o);
        expect(fast.ok).toBe(full.ok);
        if (!full.ok && !fast.ok) expect(fast.reason).toEqual(full.reason);
        if (full.ok && fast.ok) expect([...fast.value.elements]).toEqual([...full.value]);
      }),
      { numRuns: 3000, seed: 99 },
    );
  });
  it('with nothing to collect (the proof without a scan): same verdict, same error location and message', () => {
    fc.assert(
      fc.property(value, fc.boolean(), fc.integer({ min: 1, max: 6 }), (text, pretty, maxDepth) => {
        const t = pretty ? `\n  ${text}\n` : text;
        const o = { maxDepth, maxKeys: 12 };
        const full = scan(t, o);
        const fast = parseStrict(t, o);
        expect(fast.ok).toBe(full.ok);
        if (!full.ok && !fast.ok) expect(fast.reason).toEqual(full.reason);
        if (fast.ok) expect(fast.value.json).toEqual(JSON.parse(t));
      }),
      { numRuns: 5000, seed: 7 },
    );
  });
  it.each([
    ['a duplicate whose colons a colon in a value would hide', '{"a":"x","a":"y:"}'],
    ['a duplicate key holding a colon', '{"k:":1,"k:":1}'],
    ['a duplicate in a nested object', '{"o":{"a":1,"b":{"c":[1,{"d":2,"d":3}]}}}'],
    ['an escaped colon in a key, then a duplicate', '{"\\u003a":1,"a":2,"a":3}'],
  ])('refuses %s, at the second key', (_, text) => {
    const r = parseStrict(text, { maxDepth: 64 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toEqual((scan(text, { maxDepth: 64 }) as { reason: unknown }).reason);
    if (!r.ok) expect(r.reason.message).toMatch(/^duplicate key/);
  });
  it('an object past maxKeys, a number past a double and nesting past maxDepth are refused without collect too', () => {
    expect(parseStrict('{"a":1,"b":2,"c":3}', { maxDepth: 8, maxKeys: 2 })).toEqual(
      scan('{"a":1,"b":2,"c":3}', { maxDepth: 8, maxKeys: 2 }),
    );
    expect(parseStrict('{"a":[1e400]}', { maxDepth: 8 }).ok).toBe(false);
    expect(parseStrict('[[[[1]]]]', { maxDepth: 3 })).toEqual(scan('[[[[1]]]]', { maxDepth: 3 }));
  });
});

describe('offsetAt: where a member of a parsed value is in its text', () => {
  /** Every path into a value (keys and indices), the root's included. */
  const pathsOf = (v: unknown, at: (string | number)[] = []): (string | number)[][] => {
    const out = [at];
    if (Array.isArray(v)) for (const [i, x] of v.entries()) out.push(...pathsOf(x, [...at, i]));
    else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) out.push(...pathsOf(x, [...at, k]));
    return out;
  };
  const memberAt = (v: unknown, path: readonly (string | number)[]): unknown =>
    path.reduce<unknown>((x, step) => (x as Record<string | number, unknown>)[step], v);

  it('finds every member of any value, however the text is spaced, after text before it', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(undefined, 1, '\t', ' \r\n '), fc.nat(5), (value, space, pad) => {
        const before = `${' '.repeat(pad)}\n`;
        const text = `${before}${JSON.stringify(value, null, space as never)}`;
        const parsed: unknown = JSON.parse(text);
        for (const path of pathsOf(parsed)) {
          const at = offsetAt(text, 0, path, opts);
          expect(at, JSON.stringify(path)).not.toBeNull();
          const end = firstValueEnd(text, opts, at!);
          expect(end.ok && JSON.parse(text.slice(at!, end.value))).toEqual(memberAt(parsed, path));
        }
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it('is null for a member the value does not have', () => {
    const text = '{"a": [1, {"b": 2}], "c": {}}';
    expect(offsetAt(text, 0, ['a', 1, 'b'], opts)).toBe(text.indexOf('2'));
    for (const path of [['x'], ['a', 2], ['a', 1, 'c'], ['c', 'd'], ['a', 'b'], [0]]) expect(offsetAt(text, 0, path, opts)).toBeNull();
  });
});

describe('LineIndex', () => {
  const reference = (text: string, offset: number) => {
    const before = text.slice(0, offset);
    const nl = before.lastIndexOf('\n');
    return { line: before.split('\n').length, column: offset - (nl + 1) + 1 };
  };
  it('locates any sequence of offsets (forward, backward, repeated) as counting lines from the start does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', '\n', 'é', '\r', ' '), { maxLength: 60 }).map((cs) => cs.join('')),
        fc.array(fc.nat(), { maxLength: 20 }),
        (text, picks) => {
          const index = new LineIndex(text);
          for (const p of picks) {
            const offset = p % (text.length + 1);
            expect(index.locate(offset)).toEqual(reference(text, offset));
          }
        },
      ),
      { numRuns: 2000, seed: 5 },
    );
  });
});
