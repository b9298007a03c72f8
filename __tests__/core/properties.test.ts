/** Invariants of the core, checked with fast-check over generated runs and audit exports. */

import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binding, jcs } from '../../src/core/binding.js';
import type { Call } from '../../src/core/call.js';
import { prepareDecision } from '../../src/core/decision.js';
import type { JsonObject } from '../../src/core/json.js';
import type { AuditRecord, Evidence, RecordInput, RunInput } from '../../src/core/model.js';
import { NearestCalls } from '../../src/core/nearest.js';
import { type CallSubject, KNOWN_CLASSES, narrowTarget, targetKey } from '../../src/core/projection.js';
import { verify } from '../../src/core/verify.js';
import { decision, deployKey, record } from '../support/corpus.js';

const options = { allowUnmatchedRecords: false, strictObserved: false };
const REPOS = ['a', 'b', 'c'];
const target = (repo: string, provider: string | undefined) => deployKey({ provider: provider ?? null, repo, title: 'k' });

const arbDecision = fc
  .record({
    repo: fc.constantFrom(...REPOS),
    verb: fc.constantFrom('create', 'delete', 'get', 'list'),
    provider: fc.constantFrom('github', 'gitlab', undefined),
    asserted: fc.boolean(),
    claim: fc.constantFrom('asserted', 'observed_confirmed', 'verified', 'legacy-verified', 'none') as fc.Arbitrary<
      'asserted' | 'observed_confirmed' | 'verified' | 'legacy-verified' | 'none'
    >,
    status: fc.constantFrom('success', 'error'),
    effect: fc.constantFrom('allow', 'deny') as fc.Arbitrary<'allow' | 'deny'>,
  })
  .map((d) =>
    decision({
      tool: 'github.x',
      verb: d.verb,
      resourceType: 'github_deploy_key',
      target: target(d.repo, d.provider),
      asserted: d.asserted,
      claim: d.claim,
      status: d.status,
      effect: d.effect,
    }),
  );

const arbRecord = fc
  .record({
    repo: fc.constantFrom(...REPOS),
    verb: fc.constantFrom('create', 'delete', 'get'),
    provider: fc.constantFrom('github', 'gitlab'),
    id: fc.constantFrom('1', '2', '3', '4', '5', '6'),
    tamper: fc.constantFrom(false, false, false, true),
  })
  .map((r) => {
    const d = decision({ tool: 't', verb: r.verb, resourceType: 'github_deploy_key', target: target(r.repo, undefined) });
    return record(r.provider, r.id, d, r.tamper ? { editTarget: { owner: 'evil' } } : {}) as unknown as AuditRecord;
  });

const arbEvidence: fc.Arbitrary<Evidence & { raw: JsonObject[][] }> = fc
  .record({
    runs: fc.array(fc.array(arbDecision, { maxLength: 6 }), { maxLength: 4 }),
    records: fc.array(fc.array(arbRecord, { maxLength: 4 }), { maxLength: 3 }),
  })
  .map(({ runs, records }) => ({
    runs: runs.map(
      (ds, i): RunInput => ({
        artifact: `runs/${i}.json`,
        decisions: ds.map((decision, index) => prepareDecision({ file: `runs/${i}.json`, line: index + 1, column: 1 }, index, decision)),
      }),
    ),
    raw: runs,
    records: records.flatMap((rs, i) =>
      rs.map(
        (record, j): RecordInput => ({
          loc: { file: `audit/${i}.json`, line: j + 1, column: 1 },
          record,
          recomputed: binding(record.subject),
          signer: null,
          trust: { kind: 'unchecked' },
        }),
      ),
    ),
    findings: [],
  }));

const shuffled = <T>(xs: readonly T[], seed: number): T[] => {
  const out = [...xs];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 300);

describe('core invariants', () => {
  it('a record binds at most one call, and only a call whose recomputed subject it binds', () => {
    fc.assert(
      fc.property(arbEvidence, (ev) => {
        const r = verify(ev, options);
        const used = new Map<string, number>();
        for (const c of r.calls) {
          if (!c.record) continue;
          const k = `${c.record.file}:${c.record.line}`;
          used.set(k, (used.get(k) ?? 0) + 1);
          const rec = ev.records.find((x) => `${x.loc.file}:${x.loc.line}` === k)!.record;
          expect(binding(rec.subject)).toEqual({ ok: true, digest: c.subject_digest });
          expect(rec.binding_digest).toBe(c.subject_digest);
        }
        for (const n of used.values()) expect(n).toBe(1);
        expect(r.records.filter((x) => x.outcome === 'bound')).toHaveLength(used.size);
      }),
      { numRuns: RUNS, seed: 1 },
    );
  });

  it('nothing earns more than its evidence', () => {
    fc.assert(
      fc.property(arbEvidence, (ev) => {
        const r = verify(ev, options);
        for (const c of r.calls) {
          const runNo = ev.runs.findIndex((x) => x.artifact === c.artifact);
          const raw = ev.raw[runNo]!;
          const d = raw[c.index] as any;
          // No rung exactly when the call asserts no side effect.
          expect(c.level === null).toBe(d.response.side_effect_asserted === false);
          if (c.level !== 'asserted' && c.level !== null) {
            expect(d.response.side_effect_asserted).toBe(true);
            expect(d.decision.effect).not.toBe('deny');
            expect(c.subject_digest).not.toBeNull();
          }
          if (c.level === 'verified') {
            const p = d.action.target.provider;
            if (typeof p === 'string') expect(c.record!.provider).toBe(p);
          }
          if (c.level === 'observed_confirmed') {
            const later = raw.slice(c.index + 1) as any[];
            expect(
              later.some(
                (x) =>
                  x.response.status === 'success' &&
                  ['get', 'list'].includes(x.action.verb) &&
                  x.action.verb !== d.action.verb &&
                  x.action.target.repo === d.action.target.repo,
              ),
            ).toBe(true);
          }
        }
        // Every claim above what was earned fails (or warns for observed_confirmed).
        for (const c of r.calls) {
          if (c.claimed_level === 'verified' && c.level !== 'verified') {
            expect(r.findings.some((f) => f.code === 'verified_not_reproduced' && f.file === c.artifact && f.line === c.line)).toBe(true);
            expect(r.ok).toBe(false);
          }
        }
      }),
      { numRuns: RUNS, seed: 2 },
    );
  });

  it('a mutated subject never binds', () => {
    const fields = ['owner', 'repo', 'key_title_hash'] as const;
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.string({ minLength: 1, maxLength: 8 }), fc.boolean(), (field, value, mutateRecord) => {
        const d = decision({
          tool: 't',
          verb: 'create',
          resourceType: 'github_deploy_key',
          target: target('a', 'github'),
          claim: 'verified',
        });
        const rec = record('github', '1', d) as any;
        const original = (d as any).action.target[field];
        fc.pre(value !== original);
        if (mutateRecord) rec.subject.target[field] = value;
        else (d as any).action.target[field] = value;
        const r = verify(
          {
            runs: [{ artifact: 'r', decisions: [prepareDecision({ file: 'r', line: 1, column: 1 }, 0, d)] }],
            records: [
              {
                loc: { file: 'a', line: 1, column: 1 },
                record: rec,
                recomputed: binding(rec.subject),
                signer: null,
                trust: { kind: 'unchecked' },
              },
            ],
            findings: [],
          },
          options,
        );
        expect(r.calls[0]!.level).toBe('asserted');
        expect(r.ok).toBe(false);
        expect(r.records[0]!.outcome).toBe(mutateRecord ? 'inconsistent' : 'unmatched');
      }),
      { numRuns: RUNS, seed: 3 },
    );
  });

  it('the result does not depend on the order files are listed in', () => {
    fc.assert(
      fc.property(arbEvidence, fc.integer({ min: 1, max: 1_000_000 }), (ev, seed) => {
        const a = verify(ev, options);
        const b = verify({ runs: shuffled(ev.runs, seed), records: shuffled(ev.records, seed + 1), findings: [] }, options);
        expect(b).toEqual(a);
      }),
      { numRuns: RUNS, seed: 4 },
    );
  });

  it('claim digests never come from the claim: a verified call always carries the recomputed digest', () => {
    fc.assert(
      fc.property(arbEvidence, (ev) => {
        for (const c of verify(ev, options).calls) {
          if (c.level === 'verified') expect(c.subject_digest).toMatch(/^sha256:[0-9a-f]{64}$/);
        }
      }),
      { numRuns: RUNS, seed: 5 },
    );
  });
});

describe('the nearest call to an unmatched record (diagnose.ts)', () => {
  // The oracle: a plain scan of the calls of the record's class and verb, most bound fields equal
  // (absent on both counts as equal; a string equals only the same string), ties to the first.
  const FIELDS = ['owner', 'repo', 'key_title_hash'] as const;
  const same = (a: JsonObject, b: JsonObject, k: string): boolean => {
    const ha = Object.hasOwn(a, k);
    if (ha !== Object.hasOwn(b, k)) return false;
    if (!ha) return true;
    return typeof a[k] === 'string' || typeof b[k] === 'string' ? a[k] === b[k] : canonicalize(a[k]) === canonicalize(b[k]);
  };
  // Objects in two key orders: one value to the binding (JCS), so one value here too.
  const value = fc.oneof(
    fc.constantFrom('a', 'b', '1', '\u00011'),
    fc.constantFrom(1, null, true, { x: 1, y: 'a' }, { y: 'a', x: 1 }, [1]),
  );
  const arbTarget = fc.record({ owner: value, repo: value, key_title_hash: value }, { requiredKeys: [] });

  it('the index gives exactly what a scan gives', () => {
    fc.assert(
      fc.property(
        fc.array(arbTarget, { minLength: 1, maxLength: 12 }),
        fc.array(arbTarget, { minLength: 1, maxLength: 6 }),
        (callTargets, recordTargets) => {
          const run = { artifact: 'r.json', decisions: [] as ReturnType<typeof prepareDecision>[] };
          const calls: Call[] = callTargets.map((t, i) => {
            const input = prepareDecision(
              { file: 'r.json', line: i + 1, column: 1 },
              i,
              decision({ tool: 'x', verb: 'create', resourceType: 'github_deploy_key', target: t }),
            );
            return {
              order: i,
              run,
              input,
              claim: { asserted: true, level: 'asserted', digest: null, legacy: false },
              eligibility: { ok: false, reason: 'test' },
            };
          });
          const withSubject = calls.filter((c) => c.input.projection.kind === 'subject');
          // Half the targets are given first (the index), half are not (a scan): both must agree with this scan.
          const index = new NearestCalls(
            calls,
            recordTargets
              .filter((_, i) => i % 2 === 0)
              .map((t) => ({ actionClass: 'github_deploy_key', verb: 'create', target: t as JsonObject })),
          );
          for (const t of recordTargets) {
            const target = t as JsonObject;
            let best: Call | null = null;
            let bestEqual = -1;
            for (const c of withSubject) {
              const ct = (c.input.projection as { subject: { target: JsonObject } }).subject.target;
              const equal = FIELDS.filter((f) => same(ct, target, f)).length;
              if (equal === FIELDS.length) continue; // an exact subject is found by digest, never here
              if (equal > bestEqual) {
                best = c;
                bestEqual = equal;
              }
            }
            const exact = withSubject.some((c) =>
              FIELDS.every((f) => same((c.input.projection as { subject: { target: JsonObject } }).subject.target, target, f)),
            );
            if (exact) continue;
            expect(index.find('github_deploy_key', 'create', target)).toBe(best);
          }
        },
      ),
      { numRuns: 500, seed: 17 },
    );
  });
});

describe('the target key', () => {
  // Values that collide often (few strings), and values of every JSON kind, nested objects in any key order.
  const value = fc.oneof(
    // Strings that read like another value's key text or a length prefix, to catch a key that is not one to one.
    fc.constantFrom('a', 'b', '"', '\u0000', 'é', '', '1', 's1:a', '\u0000s0:', ':', '"a"', 'null'),
    fc.integer({ min: -2, max: 2 }),
    fc.constantFrom(true, false, null),
    fc.constantFrom({ x: 1, y: 'a' }, { y: 'a', x: 1 }, [1, 'a'], ['a', 1], {}),
  );
  const subject = fc
    .tuple(
      fc.constantFrom(...KNOWN_CLASSES),
      fc.dictionary(
        fc.constantFrom('owner', 'repo', 'key_title_hash', 'workspace_id_hash', 'channel_id_hash', 'principal_hash', 'role', 'other'),
        value,
      ),
    )
    .map(([c, t]): CallSubject => ({ action_class: c, verb: 'create', target: narrowTarget(c, t) as JsonObject }));
  const canonical = (s: CallSubject): string => {
    const c = jcs({ action_class: s.action_class, target: s.target });
    if (!c.ok) throw new Error(c.reason);
    return c.text;
  };
  it('a string that holds what the key writes between fields never makes two targets one key', () => {
    const of = (owner: unknown, repo: unknown): CallSubject => ({
      action_class: 'github_deploy_key',
      verb: 'create',
      target: narrowTarget('github_deploy_key', { owner, repo }) as JsonObject,
    });
    const pairs: [CallSubject, CallSubject][] = [
      [of('a\u0000sb', 'c'), of('a', 'b\u0000sc')],
      [of('a\u0000s1:b', 'c'), of('a', 'b\u0000s1:c')],
      [of('1', 'x'), of(1, 'x')],
    ];
    for (const [a, b] of pairs) {
      expect(canonical(a)).not.toBe(canonical(b));
      expect(targetKey(a)).not.toBe(targetKey(b));
    }
  });

  it('two subjects have the same key exactly when canonical {action_class, target} are equal (property)', () => {
    fc.assert(
      fc.property(subject, subject, (a, b) => {
        expect(targetKey(a) === targetKey(b)).toBe(canonical(a) === canonical(b));
        expect(targetKey(a)).toBe(targetKey({ ...a, verb: 'get' }));
      }),
      { numRuns: 5000, seed: 20261201 },
    );
  });
});
