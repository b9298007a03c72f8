/**
 * What a merge subtracts when kept runs are verified again with added files (core/incremental.ts
 * `less`: records that wait for their run): a share added then taken away leaves what was there, for
 * tallies (verify.ts `addTallies` with a sign) and for what calls used of the policy's exceptions
 * (requirements.ts `Usage.subtract`), or the subtraction says why it cannot (a first taken away with
 * calls of other files left).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Clock, Validity } from '../../src/core/clock.js';
import { Requirements, type Usage } from '../../src/core/requirements.js';
import { parseRfc3339 } from '../../src/core/time.js';
import { addTallies, type CallTally } from '../../src/core/verify.js';
import { LEVELS_DESCENDING } from '../../src/core/vocabulary.js';
import { readPolicyFile } from '../../src/read/policy-file.js';
import { loadYamlParser } from '../../src/read/strict-yaml.js';
import { POLICY } from '../support/policies.js';

beforeAll(loadYamlParser);

const arbTally = fc
  .record({
    levels: fc.dictionary(fc.constantFrom(...LEVELS_DESCENDING, 'no_effect'), fc.integer({ min: 1, max: 50 })),
    unmet: fc.nat(50),
    warned: fc.nat(50),
    excepted: fc.nat(50),
    grandfathered: fc.nat(50),
    pending: fc.nat(50),
    notLogged: fc.nat(50),
  })
  .map((t): CallTally => ({ ...t, levels: new Map(Object.entries(t.levels)) as CallTally['levels'] }));

/** A tally as plain data, its levels in the table's order (the order of a map's entries is not compared). */
const plain = (t: CallTally) => ({ ...t, levels: [...t.levels].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)) });

describe('what a merge subtracts (records that wait for their run)', () => {
  it('a tally added to another and taken away again is the other, no level left at zero (the weakest level reads which are there)', () => {
    fc.assert(
      fc.property(arbTally, arbTally, (a, b) => {
        expect(plain(addTallies(addTallies(a, b), b, -1))).toEqual(plain(a));
      }),
      { numRuns: 300 },
    );
  });

  it('an exception use added and taken away again is the one before; a lapsed first taken away with calls of other files left: said why', () => {
    const now = parseRfc3339('2026-12-01T12:00:00Z');
    if (!now.ok) throw new Error(now.reason);
    const exceptions = [0, 1, 2].map(
      (i) => `  - {binding: "sha256:${String(i).repeat(64)}", rule: prod, reason: r, owner: o, expires: 2026-11-0${i + 1}}`,
    );
    const text = `version: 1\nrules:\n  - name: prod\n    match:\n      class: github_deploy_key\n    require: verified\nexceptions:\n${exceptions.join('\n')}\n`;
    const read = readPolicyFile(text, { path: POLICY, commit: null, now: now.value, signers: { keyIds: [], identities: [] } });
    if (!read.ok) throw new Error(read.reason.map((f) => f.message).join('; '));
    const policy = read.value;
    const requirements = new Requirements(policy, new Clock(now.value, new Validity()), []);
    const arbUse = fc.record({
      excused: fc.array(fc.tuple(fc.nat(2), fc.integer({ min: 1, max: 9 })), { maxLength: 3 }),
      lapsed: fc.array(fc.tuple(fc.nat(2), fc.constantFrom('runs/a.json', 'runs/m.json', 'runs/z.json'), fc.integer({ min: 1, max: 9 })), {
        maxLength: 3,
      }),
    });
    const useOf = (drawn: typeof arbUse extends fc.Arbitrary<infer T> ? T : never): Usage => {
      const u = requirements.usage();
      for (const [i, n] of drawn.excused) {
        const e = policy.exceptions[i];
        if (e) u.excused.set(e, (u.excused.get(e) ?? 0) + n);
      }
      for (const [i, artifact, n] of drawn.lapsed) {
        const e = policy.exceptions[i];
        if (e && !u.lapsed.has(e)) u.lapsed.set(e, { first: { artifact, index: 0, line: 2, order: 0 }, count: n });
      }
      return u;
    };
    const json = (u: Usage) => u.toJson();
    let refused = 0;
    let restored = 0;
    fc.assert(
      fc.property(arbUse, arbUse, (x, y) => {
        const kept = useOf(x);
        const share = useOf(y);
        const both = requirements.usage();
        both.merge(kept);
        both.merge(share);
        // The share's files: the artifacts its lapsed firsts are in.
        const files = new Set([...share.lapsed.values()].map((l) => l.first.artifact));
        const why = both.subtract(share, files);
        if (why !== null) {
          refused++;
          expect(why).toBe('a lapsed exception’s first call is in a file taken out');
          // Only when a first the merge took is the share's, and the kept use has calls of that exception left.
          const shareFirst = [...both.lapsed].some(([e, l]) => files.has(l.first.artifact) && kept.lapsed.has(e));
          expect(shareFirst).toBe(true);
          return;
        }
        restored++;
        expect(json(both)).toEqual(json(kept));
      }),
      { numRuns: 400 },
    );
    expect(refused).toBeGreaterThan(10);
    expect(restored).toBeGreaterThan(100);
    // A count the use does not hold: said, never a negative count.
    const one = useOf({ excused: [[0, 1]], lapsed: [] });
    expect(one.subtract(useOf({ excused: [[0, 2]], lapsed: [] }), new Set())).toBe(
      'an exception excused fewer calls than the files taken out',
    );
  });
});
