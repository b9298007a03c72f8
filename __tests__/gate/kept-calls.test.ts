/**
 * A snapshot's table of kept calls (gate/kept-calls.ts): the nearest kept call to a record's subject,
 * found through hashes and read back from a file, is the rule's own scan's answer (core/nearest.ts
 * `firstNearest`), also when every hash collides; a changed byte is a doubt, never an answer.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { kind } from '../../src/core/incremental.js';
import type { JsonObject } from '../../src/core/json.js';
import { equalFields, firstNearest, type KindCall } from '../../src/core/nearest.js';
import { boundFields } from '../../src/core/projection.js';
import { KeptCalls, keptCallBlocks } from '../../src/gate/kept-calls.js';

const SCRATCH = mkdtempSync(path.join(tmpdir(), 'kept-calls-'));
afterAll(() => rmSync(SCRATCH, { recursive: true, force: true }));
let written = 0;

const CLASS = 'github_deploy_key';
const VERB = 'create';
const FIELDS = boundFields(CLASS) ?? [];
const check = (bytes: Uint8Array, from = 0): number => crc32(bytes, from);

/** A field's value drawn from a few, so calls and records share some: absent, strings (one outside ASCII), a number, an object. */
const arbValue = fc.constantFrom<unknown>(undefined, 'acme', 'Acme', 'prod-api', 'prod-ápi', 'sha256:1', 7, '7', { a: 1 }, null);
const arbTarget = fc
  .tuple(arbValue, arbValue, arbValue, fc.option(fc.constantFrom('x', 'y'), { nil: undefined }))
  .map(([owner, repo, title, extra]): JsonObject => {
    const t: Record<string, unknown> = {};
    if (owner !== undefined) t['owner'] = owner;
    if (repo !== undefined) t['repo'] = repo;
    if (title !== undefined) t['key_title_hash'] = title;
    if (extra !== undefined) t['note'] = extra;
    return t as JsonObject;
  });

const callsOf = (targets: readonly JsonObject[]): KindCall[] =>
  targets.map((target, i) => ({ call: { artifact: `runs/a-${i % 3}.json`, index: i, line: 2 + i, order: i }, target }));

/** A block's index length: per call its hashes (two int32 a field), where its details end and their CRC-32. */
const indexLength = (count: number): number => count * (FIELDS.length * 8 + 8);

/** The checks of an edited block taken again: each call's details' CRC-32 in its index, then the index's (what its header names). */
function recheck(bytes: Buffer, count: number): number {
  const endsAt = count * FIELDS.length * 8;
  const details = bytes.subarray(indexLength(count));
  for (let i = 0, start = 0; i < count; i++) {
    const end = bytes.readInt32LE(endsAt + 4 * i);
    bytes.writeInt32LE(check(details.subarray(start, end)) | 0, endsAt + 4 * count + 4 * i);
    start = end;
  }
  return check(bytes.subarray(0, indexLength(count)));
}

/**
 * The blocks of these calls written after a few bytes of something else, and read back as a snapshot
 * reads them; `edit` changes the block's bytes first, and with `measured` its checks are taken after.
 */
function keptFrom(calls: readonly KindCall[], edit?: (bytes: Buffer) => void, measured = false): KeptCalls {
  const [block] = keptCallBlocks(new Map([[kind(CLASS, VERB), calls]]), check);
  if (!block) throw new Error('a kind with calls has a block');
  const lead = Buffer.from('header\n');
  const bytes = Buffer.concat(block.pieces);
  edit?.(bytes);
  const [c, v, count, length, crc] = block.measure;
  const file = path.join(SCRATCH, `kept-${written++}`);
  const named = measured ? recheck(bytes, count) : crc;
  writeFileSync(file, Buffer.concat([lead, bytes]));
  return new KeptCalls(file, lead.length, [[c, v, count, length, named]], check);
}

describe('a snapshot’s table of kept calls (gate/kept-calls.ts)', () => {
  it('finds the nearest kept call the rule’s scan finds, for any calls and subjects, by a scan and then through its levels (property)', () => {
    fc.assert(
      fc.property(
        fc.array(arbTarget, { minLength: 1, maxLength: 30 }),
        fc.array(arbTarget, { minLength: 1, maxLength: 12 }),
        (targets, asked) => {
          const calls = callsOf(targets);
          const kept = keptFrom(calls);
          for (const target of asked) expect(kept.nearest(CLASS, VERB, target)).toEqual(firstNearest(FIELDS, calls, target));
          expect(kept.doubt()).toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  });

  it('when hashes collide, still the scan’s answer (the call found is checked against its details)', () => {
    fc.assert(
      fc.property(fc.array(arbTarget, { minLength: 2, maxLength: 20 }), fc.nat(), (targets, pick) => {
        const calls = callsOf(targets);
        const j = pick % calls.length;
        // Every row given call j's hashes: to a subject equal to j's target, each call looks all-equal (a collision
        // on every field adds equal hashes, never removes one), and the first call is found first.
        const rowBytes = FIELDS.length * 8;
        const collided = keptFrom(
          calls,
          (block) => {
            for (let r = 0; r < calls.length; r++) block.copy(block, r * rowBytes, j * rowBytes, (j + 1) * rowBytes);
          },
          true,
        );
        const target = targets[j] ?? {};
        // Asked again and again: by a scan of the rows, then through the kind's levels.
        for (let again = 0; again < 6; again++) expect(collided.nearest(CLASS, VERB, target)).toEqual(firstNearest(FIELDS, calls, target));
        expect(collided.doubt()).toBeNull();
      }),
      { numRuns: 200 },
    );
  });

  it('finds every kept call whose bound fields all equal a subject’s, the scan’s, also when every hash collides (property)', () => {
    const scan = (calls: readonly KindCall[], target: JsonObject) =>
      calls.filter((c) => equalFields(FIELDS, c.target, target) === FIELDS.length);
    fc.assert(
      fc.property(
        fc.array(arbTarget, { minLength: 1, maxLength: 30 }),
        fc.array(arbTarget, { minLength: 1, maxLength: 8 }),
        fc.nat(),
        (targets, drawn, pick) => {
          const calls = callsOf(targets);
          // Asked about subjects of some calls (those are held), and drawn ones.
          const asked = [...drawn, targets[pick % targets.length] ?? {}];
          expect(keptFrom(calls).holding(CLASS, VERB, asked)).toEqual(asked.map((t) => scan(calls, t)));
          // Every row given call j's hashes: to j's subject every call matches by hash, and only those equal by their details are held.
          const rowBytes = FIELDS.length * 8;
          const j = pick % calls.length;
          const own = [targets[j] ?? {}];
          const collided = keptFrom(
            calls,
            (block) => {
              for (let r = 0; r < calls.length; r++) block.copy(block, r * rowBytes, j * rowBytes, (j + 1) * rowBytes);
            },
            true,
          );
          expect(collided.holding(CLASS, VERB, own)).toEqual(own.map((t) => scan(calls, t)));
          expect(collided.doubt()).toBeNull();
        },
      ),
      { numRuns: 200 },
    );
    // None kept of a kind, or a class that binds no field: none held; a block that cannot be read: null, and a doubt.
    const one = callsOf([{ owner: 'acme', repo: 'r', key_title_hash: 't' }]);
    expect(keptFrom(one).holding(CLASS, 'delete', [{ owner: 'acme' }])).toEqual([[]]);
    expect(keptFrom(one).holding('no_such_class', VERB, [{ owner: 'acme' }])).toEqual([[]]);
    const damaged = keptFrom(one, (block) => {
      block[0] = (block[0] ?? 0) ^ 1;
    });
    expect(damaged.holding(CLASS, VERB, [{ owner: 'acme', repo: 'r', key_title_hash: 't' }])).toBeNull();
    expect(damaged.doubt()).toMatch(/its index is not the bytes its header names/);
  });

  it('a kind with no kept call, or a class that binds no field: none; the other kinds are not read', () => {
    const kept = keptFrom(callsOf([{ owner: 'acme', repo: 'r', key_title_hash: 't' }]));
    expect(kept.nearest(CLASS, 'delete', { owner: 'acme' })).toBeNull();
    expect(kept.nearest('no_such_class', VERB, { owner: 'acme' })).toBeNull();
    expect(kept.doubt()).toBeNull();
  });

  it('a byte changed in a block: no answer, and a doubt that says why (the merge then declines)', () => {
    const calls = callsOf([
      { owner: 'acme', repo: 'r', key_title_hash: 't' },
      { owner: 'acme', repo: 's', key_title_hash: 't' },
    ]);
    const asked = { owner: 'acme', repo: 's', key_title_hash: 'u' };
    // In the index (a hash, an end, a CRC-32): its check; in the details of the call found (the second): theirs.
    for (const [at, said] of [
      [0, /its index is not the bytes its header names \(their CRC-32 differs\)/],
      [indexLength(2) - 5, /its index is not the bytes its header names/],
      [-3, /the details of its call 1 are not the bytes its index names \(their CRC-32 differs\)/],
    ] as const) {
      const kept = keptFrom(calls, (block) => {
        const i = at < 0 ? block.length + at : at;
        block[i] = (block[i] ?? 0) ^ 0x20;
      });
      expect(kept.nearest(CLASS, VERB, asked)).toBeNull();
      expect(kept.doubt()).toMatch(/^the kept calls of github_deploy_key create: /);
      expect(kept.doubt()).toMatch(said);
    }
    // A changed byte in the details of a call no query reads is not read at all: the answer stands.
    const kept = keptFrom(calls, (block) => {
      block[indexLength(2) + 3] = 0x20;
    });
    expect(kept.nearest(CLASS, VERB, asked)).toEqual(firstNearest(FIELDS, calls, asked));
  });

  it('details that are not what the writer writes, under a matching check: a doubt', () => {
    const kept = keptFrom(
      callsOf([{ owner: 'acme', repo: 'r', key_title_hash: 't' }]),
      (block) => block.write('{', block.indexOf('["runs'), 'latin1'),
      true,
    );
    expect(kept.nearest(CLASS, VERB, { owner: 'acme' })).toBeNull();
    expect(kept.doubt()).toMatch(/the details of its call 0 are not what this gate writes/);
  });
});
