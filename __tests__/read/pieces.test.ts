/**
 * A large ASCII .json document read in pieces (read/json/pieces.ts) is read exactly as its whole
 * text is: the same value and element offsets whenever the pieces are read, and never read when the
 * whole text has a problem (the whole-text reader then says it, at its place). A large ASCII NDJSON
 * file is read a block of lines at a time, with the same documents and problems as its whole text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readAuditFile, readRunFile } from '../../src/read/artifacts.js';
import { decodeSource, documents, type Source } from '../../src/read/documents.js';
import { parsePieces } from '../../src/read/json/pieces.js';
import { LineIndex } from '../../src/read/json/positions.js';
import { pathKey } from '../../src/read/json/scanner.js';
import { parseStrict } from '../../src/read/json/strict.js';
import { DEFAULT_LIMITS } from '../../src/read/limits.js';
import { addKey, getKey, json, record, surface } from '../support/corpus.js';

const RUN_PATHS = [[], ['observed_tool_decisions'], ['data', 'observed_tool_decisions']];

describe('a document read in pieces is its whole text read', () => {
  const KEYS = ['"a"', '"b"', '"c"', '"d"', '"e"', '"observed_tool_decisions"', '"data"', '"__proto__"', '"x\\"y"', '":"'];
  const STRINGS = ['"v"', '"\\\\"', '"a\\nb"', '"\\ud83d\\ude00"', '"[1,2]"', '"{\\"k\\":1}"', '"\\\\\\""', '":"', '"]"'];
  // Rarely, what the whole reader refuses (a lone surrogate, a number past a double) or reads another way (an escaped key).
  const scalar = fc.oneof(
    { arbitrary: fc.constantFrom(...STRINGS, '1', '-0.5e3', 'true', 'null', '0'), weight: 12 },
    { arbitrary: fc.constantFrom('"\\udc00"', '1e400'), weight: 1 },
  );
  const key = fc.oneof(
    { arbitrary: fc.constantFrom(...KEYS), weight: 12 },
    { arbitrary: fc.constant('"observed_tool_decision\\u0073"'), weight: 1 },
  );
  const { value } = fc.letrec<{ value: string }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      scalar,
      fc
        .uniqueArray(fc.tuple(key, tie('value')), { maxLength: 4, selector: ([k]) => k })
        .map((ms) => `{${ms.map(([k, v]) => `${k}:${v}`).join(',')}}`),
      fc.array(tie('value'), { maxLength: 4 }).map((xs) => `[${xs.join(',')}]`),
      // Now and then, a key given twice, which the whole reader refuses wherever it is.
      fc.tuple(key, tie('value'), tie('value'), fc.nat(7)).map(([k, a, b, r]) => (r === 0 ? `{${k}:${a},${k}:${b}}` : `{${k}:${a}}`)),
    ),
  }));
  const glue = fc.oneof(
    { arbitrary: fc.constantFrom(',', ', ', ',\n  ', ' ,\r\n\t'), weight: 30 },
    { arbitrary: fc.constantFrom(',,', '', ' '), weight: 1 },
  );
  const array = fc
    .tuple(fc.array(fc.tuple(value, glue), { minLength: 1, maxLength: 8 }), fc.constantFrom('', ' ', '\n  ', '', ' ', ','))
    .map(([xs, end]) => `[${xs.map(([v, g], j) => (j === xs.length - 1 ? v : v + g)).join('')}${end}]`);
  const member = fc.oneof(
    fc.tuple(key, value).map(([k, v]) => `${k}: ${v}`),
    array.map((a) => `"observed_tool_decisions": ${a}`),
    array.map((a) => `"data": {"observed_tool_decisions": ${a}}`),
  );
  const doc = fc.oneof(
    array,
    fc.array(member, { maxLength: 4 }).map((ms) => `{\n  ${ms.join(',\n  ')}\n}`),
    fc.tuple(fc.array(member, { maxLength: 2 }), array).map(([ms, a]) => `{${[`"observed_tool_decisions":${a}`, ...ms].join(',')}}`),
  );
  // One byte changed, inserted or taken out, sometimes: where a walk on bytes would go wrong.
  const change = fc.oneof(
    { arbitrary: fc.constant(null), weight: 3 },
    { arbitrary: fc.constantFrom('', ',', '[', ']', '{', '}', '"', '\\', ':', ' ', '0'), weight: 1 },
  );
  const mutated = fc.tuple(doc, fc.nat(), change).map(([t, at, c]) => {
    if (c === null) return t;
    const i = at % (t.length + 1);
    return c === '' ? t.slice(0, i) + t.slice(i + 1) : t.slice(0, i) + c + t.slice(i);
  });

  it('the same value and element offsets, or null; never a value for a text the whole reader refuses', () => {
    let read = 0;
    fc.assert(
      fc.property(
        mutated,
        fc.constantFrom(RUN_PATHS, [[]], [['observed_tool_decisions']]),
        fc.integer({ min: 2, max: 8 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 2, max: 8 }),
        (t, collect, maxDepth, chunk, maxKeys) => {
          const options = { maxDepth, maxKeys, collect };
          const pieces = parsePieces(Buffer.from(t, 'latin1'), options, chunk);
          if (pieces === null) return;
          read++;
          const whole = parseStrict(t, options);
          expect(pieces.ok).toBe(true);
          expect(whole.ok).toBe(true);
          if (!pieces.ok || !whole.ok) return;
          expect(pieces.value.json).toEqual(whole.value.json);
          expect([...pieces.value.elements]).toEqual([...whole.value.elements]);
        },
      ),
      { numRuns: 10_000, seed: 44 },
    );
    // The property is about something: a good share of the documents were read in pieces.
    expect(read).toBeGreaterThan(400);
  });

  it('reads a one-element array, an array of arrays, a root array at the depth limit', () => {
    const o = (maxDepth: number) => ({ maxDepth, collect: [[]] });
    for (const [t, depth] of [
      ['[{"a":1}]', 2],
      ['[[1],[2,[3]],4]', 3],
      ['[ "x" ,\n "y"\n]', 1],
    ] as const) {
      const pieces = parsePieces(Buffer.from(t), o(depth), 4);
      expect(pieces).toEqual(parseStrict(t, o(depth)));
      expect(pieces?.ok).toBe(true);
      // One level less, and the whole text is refused: so are the pieces.
      expect(parseStrict(t, o(depth - 1)).ok).toBe(false);
      expect(parsePieces(Buffer.from(t), o(depth - 1), 4)).toBeNull();
    }
  });

  it('a colon count given with a slice of a text is not the slice’s: the slice is proved as without one, its arrays still collected', () => {
    const text = 'xx{"a":[1,{"b":2}],"c":":"}yy';
    const plain = { maxDepth: 8, collect: [['a']] };
    for (const colons of [0, 3, 999])
      expect(parseStrict(text, { ...plain, colons }, 2, text.length - 2)).toEqual(parseStrict(text, plain, 2, text.length - 2));
    const got = parseStrict(text, { ...plain, colons: 3 }, 2, text.length - 2);
    expect(got.ok && got.value.elements.get(pathKey(['a']))).toEqual([8, 10]);
  });
});

/** A run of `n` decisions, pretty-printed: well over the size read in pieces. */
const bigRun = (n: number) => surface(Array.from({ length: n }, (_, j) => (j % 3 === 2 ? getKey() : addKey({ claim: 'asserted' }))));

describe('the run and audit readers read a large ASCII .json file in pieces, with the same result', () => {
  it('a run: pieces are read, and the reader says what it says of the whole text', () => {
    const text = json(bigRun(400));
    expect(text.length).toBeGreaterThan(128 * 1024);
    const bytes = Buffer.from(text);
    const pieces = parsePieces(bytes, { maxDepth: 64, maxKeys: 10_000, collect: RUN_PATHS });
    expect(pieces).not.toBeNull();
    expect(pieces).toEqual(parseStrict(text, { maxDepth: 64, maxKeys: 10_000, collect: RUN_PATHS }));
    // The same document whose array key is escaped is read from its whole text (the walk compares raw keys).
    const escaped = text.replace('"observed_tool_decisions"', '"observed_tool_decision\\u0073"');
    expect(parsePieces(Buffer.from(escaped), { maxDepth: 64, collect: RUN_PATHS })).toBeNull();
    const a = readRunFile('runs/a.json', bytes, 'json');
    const b = readRunFile('runs/a.json', Buffer.from(escaped), 'json');
    expect(a.run?.decisions.length).toBe(400);
    expect(a).toEqual(b);
  });

  it('a problem deep in a large run is said at the whole text’s line and column, in its words', () => {
    const text = json(bigRun(400));
    const at = text.indexOf('"verb"', text.length >> 1);
    for (const broken of [
      `${text.slice(0, at)}"verb": "create", ${text.slice(at)}`, // a key given twice
      `${text.slice(0, at)}${text.slice(at + 1)}`, // a string left open
      text.replace(/\}\s*\]\s*,\s*"non_claims"/, '},\n  ],\n  "non_claims"'), // a trailing comma
      `${text.slice(0, -2)}`, // truncated
    ]) {
      const read = readRunFile('runs/a.json', Buffer.from(broken), 'json');
      const whole = parseStrict(broken, { maxDepth: 64, collect: RUN_PATHS });
      expect(whole.ok).toBe(false);
      if (whole.ok) continue;
      const { line, column } = new LineIndex(broken).locate(whole.reason.offset);
      expect(read.run).toBeNull();
      expect(read.findings[0]).toMatchObject({ code: 'invalid_artifact', line, column });
      expect(read.findings[0]?.message).toContain(whole.reason.message);
    }
  });

  it('an audit export: its records read in pieces, each located as in the whole text', () => {
    const records = Array.from({ length: 600 }, (_, j) => record('github', `r${j}`, addKey()));
    const text = json(records);
    expect(text.length).toBeGreaterThan(128 * 1024);
    const options = { maxDepth: 64, collect: [[]] };
    expect(parsePieces(Buffer.from(text), options)).toEqual(parseStrict(text, options));
    // A record made wrong in the middle: the finding is at its line, as read from the whole text.
    const broken = text.replace('"r300"', '300');
    const read = readAuditFile('audit/a.json', Buffer.from(broken), 'json');
    const line = new LineIndex(broken).locate(broken.lastIndexOf('{', broken.indexOf('"record_id": 300'))).line;
    expect(read.entries.length).toBe(599);
    expect(read.findings.map((f) => f.line)).toEqual([line]);
  });
});

describe('what a reader returns holds nothing of the bytes it read (a reading thread reuses its buffer for the next file)', () => {
  it('a run and an export, good and broken, .json and NDJSON: the same after the bytes are overwritten', () => {
    const run = json(bigRun(400));
    const records = Array.from({ length: 600 }, (_, j) => record('github', `r${j}`, addKey()));
    const cases = [
      () => ({ text: run, read: (b: Buffer) => readRunFile('runs/a.json', b, 'json') }),
      () => ({ text: run.replace('"verb": "get"', '"verb": 7'), read: (b: Buffer) => readRunFile('runs/a.json', b, 'json') }),
      () => ({ text: json(records).replace('"r300"', '300'), read: (b: Buffer) => readAuditFile('audit/a.json', b, 'json') }),
      () => ({
        text: `${records.map((r) => JSON.stringify(r)).join('\n')}\n{"a":\n`,
        read: (b: Buffer) => readAuditFile('audit/a.ndjson', b, 'ndjson'),
      }),
    ];
    for (const make of cases) {
      const { text, read } = make();
      expect(text.length).toBeGreaterThan(128 * 1024);
      const bytes = Buffer.from(text);
      const result = read(bytes);
      const copy = structuredClone(result);
      bytes.fill(0x20);
      expect(result).toEqual(copy);
      expect(result).toEqual(read(Buffer.from(text)));
    }
  });
});

describe('LineIndex over the bytes of an ASCII text', () => {
  it('locates as over the text', () => {
    const text = json(bigRun(20));
    const bytes = new LineIndex(Buffer.from(text));
    const chars = new LineIndex(text);
    for (let at = 0; at < text.length; at += 97) expect(bytes.locate(at)).toEqual(chars.locate(at));
    expect(bytes.locate(5)).toEqual(chars.locate(5));
  });
});

describe('a large ASCII NDJSON file is read a block of lines at a time, as its whole text is', () => {
  /** Every document and every problem, at its offset, as the pipeline gives them. */
  const readAll = (input: string | Source, limits = DEFAULT_LIMITS) => {
    const errors: unknown[] = [];
    const docs = [
      ...documents(
        input,
        'ndjson',
        { limits, collect: [['observed_tool_decisions']] },
        { error: (at, message) => errors.push({ at, message }) },
      ),
    ];
    return { docs, errors };
  };
  const good = (j: number) => JSON.stringify({ ...surface([addKey()]), n: j });
  const line = fc.oneof(
    { arbitrary: fc.nat(1000).map(good), weight: 20 },
    {
      arbitrary: fc.constantFrom('', '   \t', '{"a":1,"a":2}', '{"a":', 'not json', '[1,2', '{"observed_tool_decisions":[1, 2,3]}', '{}\r'),
      weight: 3,
    },
    // Lines long enough to cross a block, or the line limit.
    { arbitrary: fc.integer({ min: 60_000, max: 140_000 }).map((n) => JSON.stringify({ pad: 'x'.repeat(n) })), weight: 1 },
  );
  it('the same documents at the same offsets, the same problems at the same places', () => {
    const limits = { ...DEFAULT_LIMITS, maxLineBytes: 100_000 };
    let large = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 150, maxLength: 400 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), (ls, eol, last) => {
        const text = ls.join(eol) + (last ? eol : '');
        const bytes = Buffer.from(text);
        const source = decodeSource(bytes, limits, { error: () => expect.unreachable() });
        if (bytes.length < 128 * 1024) return;
        large++;
        expect(source?.ascii).not.toBeNull();
        expect(readAll(source as Source, limits)).toEqual(readAll(text, limits));
      }),
      { numRuns: 60, seed: 12 },
    );
    expect(large).toBeGreaterThan(40);
  });
});
