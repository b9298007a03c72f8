/**
 * Text from inputs never reaches Object.prototype, and rules are parsed, never compared as text:
 * every table looked up with input text, with hostile keys; policy
 * selectors matched by class and verb; asserted-while-denied claims; rules that apply to no call.
 */

import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { commandNamed } from '../../src/cli/registry.js';
import { compileGlob, globCovers, globMatches } from '../../src/core/glob.js';
import { judgeFile } from '../../src/core/judge.js';
import { type CallFacts, type FieldTest, globTest, NO_POLICY, type Policy, type Rule, ruleFor, shadowing } from '../../src/core/policy.js';
import { boundFields } from '../../src/core/projection.js';
import { parseRfc3339 } from '../../src/core/time.js';
import { allocateAll, verify } from '../../src/core/verify.js';
import { parseSize } from '../../src/gate/settings/parsers.js';
import { UsageError } from '../../src/gate/settings/types.js';
import { readPolicyFile } from '../../src/read/policy-file.js';
import { loadYamlParser } from '../../src/read/strict-yaml.js';
import { importKind } from '../../src/tools/import/names.js';
import { DEFAULT_SLACK, slackAuditLog } from '../../src/tools/import/slack.js';
import { addKey, decision, deployKey } from '../support/corpus.js';
import { evidence, OPTIONS, policyOf } from '../support/evidence.js';

/** Keys that name something on Object.prototype, or that a careless lookup turns into one. */
const HOSTILE = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupSetter__',
] as const;
const hostile = fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 12 }));

const roleEntry = (role: string) => ({
  id: 'e1',
  action: `role_change_to_${role}`,
  actor: { user: { id: 'UADMIN' } },
  entity: { user: { id: 'U1' } },
  context: { location: { type: 'workspace', id: 'T1' } },
});

describe('tables looked up with input text', () => {
  it('the Slack role → verb table: a role named after a prototype member is an unmapped role, never a verb', () => {
    const map = slackAuditLog(DEFAULT_SLACK);
    for (const role of HOSTILE.filter((r) => /^[a-z_]+$/.test(r))) {
      expect(map(roleEntry(role)), role).toEqual({ kind: 'skip', reason: `role change to ${role} (no verb mapped)` });
    }
    expect(map(roleEntry('admin'))).toMatchObject({ kind: 'record', subject: { verb: 'grant' } });
  });

  it('every table keyed by input text answers "none" for any key it does not hold (property, hostile keys)', () => {
    const known = {
      classes: ['github_deploy_key', 'workspace_member', 'workspace_role'],
      kinds: ['github-audit-log', 'github-webhook', 'slack-audit-log'],
    };
    const commands = ['verify', 'keygen', 'sign', 'import', 'hash'];
    fc.assert(
      fc.property(hostile, (k) => {
        if (!known.classes.includes(k)) expect(boundFields(k), k).toBeUndefined();
        if (!known.kinds.includes(k)) expect(importKind(k), k).toBeNull();
        if (!commands.includes(k)) expect(commandNamed(k), k).toBeUndefined();
        const role = slackAuditLog(DEFAULT_SLACK)(roleEntry(k));
        if (!['admin', 'owner', 'user', 'guest'].includes(k)) expect(role.kind === 'record', k).toBe(false);
        if (/^[a-z]+$/i.test(k) && !/^(b|kb?|kib|mb?|mib|gb?|gib)$/i.test(k))
          expect(() => parseSize('max-file-size', `1${k}`), k).toThrow(UsageError);
      }),
      { numRuns: 300, seed: 19, examples: HOSTILE.map((h): [string] => [h]) },
    );
  });

  it('a call whose class is a prototype member name has no subject and no rule', () => {
    for (const cls of HOSTILE) {
      const r = verify(evidence({ 'r.json': [addKey({ resourceType: cls })] }), OPTIONS);
      expect(r.calls[0]!.subject_digest, cls).toBeNull();
    }
  });
});

describe('policy selectors are parsed (semantics §7)', () => {
  it('a class that contains ":" never picks up a CLASS:VERB rule written for another class', () => {
    const p = policyOf('*=verified', 'github_deploy_key:create=asserted');
    expect(ruleFor(p, { actionClass: 'github_deploy_key:create', verb: 'delete', target: null })?.selector).toBe('*');
    expect(ruleFor(p, { actionClass: 'github_deploy_key:create', verb: 'create', target: null })?.selector).toBe('*');
    expect(ruleFor(p, { actionClass: 'github_deploy_key', verb: 'create', target: null })?.selector).toBe('github_deploy_key:create');
  });

  it('end to end: such a call is held to the stricter rule', () => {
    const d = decision({ tool: 't', verb: 'delete', resourceType: 'github_deploy_key:create', target: deployKey() });
    const r = verify(evidence({ 'r.json': [d] }), { ...OPTIONS, policy: policyOf('*=verified', 'github_deploy_key:create=asserted') });
    expect(r.calls[0]!.required_level).toBe('verified');
    expect(r.findings.map((f) => f.code)).toContain('policy_unmet');
  });
});

describe('a "denied" write that succeeded (semantics §4)', () => {
  for (const [name, over] of [
    ['decision.effect "deny"', { effect: 'deny' as const }],
    ['decision.effect "error"', { effect: 'error' as const }],
    ['response.status "error"', { status: 'error' }],
  ] as const) {
    it(`side_effect_asserted true with ${name} is inconsistent_claim, and the call is outside every rule`, () => {
      const r = verify(evidence({ 'r.json': [addKey(over as never)] }), { ...OPTIONS, policy: policyOf('*=verified') });
      const codes = r.findings.map((f) => f.code);
      expect(codes).toContain('inconsistent_claim');
      expect(r.ok).toBe(false);
      expect(r.findings.find((f) => f.code === 'inconsistent_claim')!.message).toMatch(/side_effect_asserted is true while/);
    });
  }

  it('an allowed, successful asserted call is not inconsistent', () => {
    const r = verify(evidence({ 'r.json': [addKey()] }), OPTIONS);
    expect(r.findings.map((f) => f.code)).not.toContain('inconsistent_claim');
  });
});

describe('a rule that applies to no call', () => {
  it('a misspelt class is a rule_unused warning naming the classes seen; the gate still judges the rest', () => {
    const r = verify(evidence({ 'r.json': [addKey()] }), { ...OPTIONS, policy: policyOf('GitHub_Deploy_Key=verified') });
    const f = r.findings.find((x) => x.code === 'rule_unused');
    expect(f).toMatchObject({ severity: 'warning', file: null, line: null, input: 'require: GitHub_Deploy_Key=verified' });
    expect(f!.message).toBe(
      'the rule GitHub_Deploy_Key=verified applies to no call (classes seen: github_deploy_key): is its class misspelt? did you mean "github_deploy_key"?',
    );
    expect(r.ok).toBe(true);
  });

  it('a rule that matches a call is not unused, even when a more specific rule wins', () => {
    const r = verify(evidence({ 'r.json': [addKey()] }), {
      ...OPTIONS,
      policy: policyOf('*=asserted', 'github_deploy_key:create=asserted'),
    });
    expect(r.findings.filter((x) => x.code === 'rule_unused')).toEqual([]);
  });

  it('with no asserting call, every rule is unused and says so', () => {
    const r = verify(evidence({ 'r.json': [addKey({ asserted: false })] }), { ...OPTIONS, policy: policyOf('*=verified') });
    expect(r.findings.find((x) => x.code === 'rule_unused')!.message).toMatch(/no call asserts a side effect/);
  });
});

/**
 * A rule shadowed by an earlier one is policy_invalid (docs/policy.md §11): it must be dead, so the
 * check is held to soundness: no call a generated later rule matches may reach it when the check
 * names it shadowed. The values are built from the later rule's own globs (its stars filled with
 * runs of any character but `/`, its letters in either case when it ignores case), so a check that
 * says "shadowed" of a rule some value still reaches is found, not missed among random strings.
 */
describe('a rule shadowed by an earlier one (docs/policy.md §11)', () => {
  // Letters in both cases, `/`, a private-use character (what the coverage check writes for a star) and `*` itself.
  const CHARS = ['a', 'A', 'b', '-', '/', '\ue000'];
  const arbGlob = fc.array(fc.constantFrom(...CHARS, '*'), { maxLength: 5 }).map((cs) => cs.join(''));
  const FIELDS = ['namespace', 'name', 'extra'] as const;
  const arbTest: fc.Arbitrary<FieldTest> = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .record({ field: fc.constantFrom(...FIELDS), globs: fc.array(arbGlob, { maxLength: 3 }), caseless: fc.boolean() })
        .map((t) => globTest(t.field, t.globs, t.caseless)),
    },
    {
      weight: 1,
      arbitrary: fc.subarray(['h1', 'h2', 'h3']).map((hs): FieldTest => ({ kind: 'hash', field: 'tag_hash', hashes: new Set(hs) })),
    },
  );
  const arbRule = (name: string): fc.Arbitrary<Rule> =>
    fc
      .record({
        verb: fc.constantFrom(null, 'create', 'delete'),
        target: fc.uniqueArray(arbTest, { selector: (t) => t.field, maxLength: 3 }),
      })
      .map(
        ({ verb, target }): Rule => ({
          name,
          selector: verb === null ? 'k8s_rbac_binding' : `k8s_rbac_binding:${verb}`,
          actionClass: 'k8s_rbac_binding',
          verb,
          target,
          level: 'verified',
          mode: 'enforce',
          signedBy: null,
          at: null,
          classAt: null,
          verbAt: null,
        }),
      );
  /** An earlier rule made from the later one: tests dropped, kept, or widened (a glob cut and ended with a star, hashes added), its case rule flipped at random. */
  const arbDerived = (later: Rule): fc.Arbitrary<Rule> =>
    fc
      .record({
        verb: fc.boolean(),
        ops: fc.array(fc.record({ op: fc.constantFrom('drop', 'keep', 'widen', 'widen'), cut: fc.nat(), caseless: fc.boolean() }), {
          minLength: 3,
          maxLength: 3,
        }),
        extra: fc.array(arbGlob, { maxLength: 1 }),
      })
      .map(({ verb, ops, extra }): Rule => {
        const target = later.target.flatMap((t, i): FieldTest[] => {
          const { op, cut, caseless } = ops[i % ops.length] ?? { op: 'keep', cut: 0, caseless: false };
          if (op === 'drop') return [];
          if (t.kind === 'hash') return [op === 'keep' ? t : { ...t, hashes: new Set([...t.hashes, 'h3']) }];
          const globs = op === 'keep' ? t.globs : [...t.globs.map((g) => `${g.slice(0, cut % (g.length + 1))}*`), ...extra];
          return [globTest(t.field, globs, caseless)];
        });
        return { ...later, name: 'earlier', verb: verb ? null : later.verb, target };
      });
  /** A value the glob matches: each star filled with a run of characters but `/`, each letter flipped in case when `flip` says so. */
  const fill = (glob: string, runs: readonly string[], flips: readonly boolean[], caseless: boolean): string => {
    let k = 0;
    const filled = glob.split('*').reduce((out, piece, i) => (i === 0 ? piece : `${out}${runs[k++ % runs.length] ?? ''}${piece}`), '');
    return caseless
      ? [...filled].map((c, i) => (flips[i % flips.length] ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c)).join('')
      : filled;
  };
  const arbCallBits = fc.record({
    klass: fc.constantFrom('k8s_rbac_binding', 'K8S_rbac_binding', 'other'),
    verb: fc.constantFrom(null, 'create', 'delete', 'Create', 'get'),
    pick: fc.nat(),
    runs: fc.array(
      fc.array(fc.constantFrom('a', 'A', 'b', '-', '\ue000', '*'), { maxLength: 3 }).map((cs) => cs.join('')),
      { minLength: 1, maxLength: 3 },
    ),
    flips: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
    odd: fc.constantFrom('absent', 'number', 'given', 'given', 'given'),
    free: fc.array(fc.constantFrom(...CHARS, '*'), { maxLength: 4 }).map((cs) => cs.join('')),
    matchVerb: fc.boolean(),
  });
  /** A call built from the later rule's tests (so most reach it when nothing earlier takes them), or a stray one. */
  function callOf(later: Rule, bits: typeof arbCallBits extends fc.Arbitrary<infer T> ? T : never): CallFacts {
    const target: Record<string, unknown> = {};
    for (const field of [...FIELDS, 'tag_hash']) {
      const test = later.target.find((t) => t.field === field);
      if (bits.odd === 'absent' && field === 'namespace') continue;
      if (bits.odd === 'number' && field === 'name') {
        target[field] = 1;
        continue;
      }
      if (!test) target[field] = bits.free;
      else if (test.kind === 'hash') target[field] = [...test.hashes][bits.pick % Math.max(test.hashes.size, 1)] ?? 'h9';
      else target[field] = fill(test.globs[bits.pick % Math.max(test.globs.length, 1)] ?? bits.free, bits.runs, bits.flips, test.caseless);
    }
    return {
      actionClass: bits.matchVerb ? 'k8s_rbac_binding' : bits.klass,
      verb: bits.matchVerb ? later.verb : bits.verb,
      target: target as CallFacts['target'],
    };
  }

  it('a later rule reported shadowed is never the rule of any call (property: calls built to reach it)', () => {
    let shadowed = 0;
    let byGlob = 0;
    let reached = 0;
    fc.assert(
      fc.property(
        arbRule('later').chain((later) => fc.tuple(fc.oneof(arbRule('earlier'), arbDerived(later)), fc.constant(later))),
        fc.array(arbCallBits, { minLength: 1, maxLength: 12 }),
        ([earlier, later], calls) => {
          const policy: Policy = { ...NO_POLICY, kind: 'file', rules: [earlier, later] };
          const alone: Policy = { ...NO_POLICY, kind: 'file', rules: [later] };
          const said = shadowing([earlier], later);
          for (const bits of calls) {
            const call = callOf(later, bits);
            if (ruleFor(alone, call) === later) reached++;
            if (said !== null) expect(ruleFor(policy, call), JSON.stringify(call)).not.toBe(later);
          }
          if (said === null) return;
          expect(said).toBe(earlier);
          shadowed++;
          if (earlier.target.some((t) => t.kind === 'glob' && t.globs.some((g) => g.includes('*')))) byGlob++;
        },
      ),
      { numRuns: 3000, seed: 7 },
    );
    // Not vacuous: the check said "shadowed" often, through a glob often, and the calls reach the later rule when alone.
    expect(shadowed).toBeGreaterThan(500);
    expect(byGlob).toBeGreaterThan(150);
    expect(reached).toBeGreaterThan(5000);
  });

  it('globCovers: a glob said to cover another matches every value the other matches; a literal is judged exactly; a glob covers itself', () => {
    fc.assert(
      fc.property(
        arbGlob,
        arbGlob,
        fc.array(
          fc.array(fc.constantFrom('a', 'A', 'b', '-', '\ue000', '*'), { maxLength: 3 }).map((cs) => cs.join('')),
          { minLength: 1, maxLength: 4 },
        ),
        (outer, inner, runs) => {
          const o = compileGlob(outer);
          expect(globCovers(o, outer)).toBe(true);
          if (!inner.includes('*')) expect(globCovers(o, inner)).toBe(globMatches(o, inner));
          if (!globCovers(o, inner)) return;
          for (let shift = 0; shift < runs.length; shift++) {
            const value = fill(inner, [...runs.slice(shift), ...runs.slice(0, shift)], [false], false);
            expect(globMatches(compileGlob(inner), value)).toBe(true);
            expect(globMatches(o, value), `${outer} ⊇ ${inner} but not ${value}`).toBe(true);
          }
        },
      ),
      { numRuns: 5000, seed: 11 },
    );
    const covers = (outer: string, inner: string) => globCovers(compileGlob(outer), inner);
    expect(covers('prod-*', 'prod-a*')).toBe(true);
    expect(covers('prod-*', 'prod-api')).toBe(true);
    expect(covers('*', 'kube-*-x')).toBe(true);
    expect(covers('*-prod', 'team-*-prod')).toBe(true);
    expect(covers('prod-a*', 'prod-*')).toBe(false);
    expect(covers('prod-*', '*')).toBe(false);
    // `*` never crosses `/`: a glob holding one is covered by no star.
    expect(covers('*', 'kube/*')).toBe(false);
    expect(covers('*/*', 'kube/*')).toBe(true);
  });
});

describe('rule_unused of a rule whose calls an earlier rule took (first match wins)', () => {
  beforeAll(loadYamlParser);
  const now = (() => {
    const t = parseRfc3339('2026-12-01T12:00:00Z');
    if (!t.ok) throw new Error(t.reason);
    return t.value;
  })();
  // late is not shadowed (staging-x reaches it), but the calls read are all taken earlier.
  const TEXT = `version: 1
rules:
  - name: first
    match: {class: github_deploy_key, target: {repo: [prod-api]}}
    require: asserted
  - name: second
    match: {class: github_deploy_key, target: {repo: [prod-*]}}
    require: asserted
  - name: late
    match: {class: github_deploy_key, target: {repo: [prod-api, prod-web, staging-x]}}
    require: verified
`;
  const policyOfText = () => {
    const r = readPolicyFile(TEXT, { path: '.github/receipt-gate.yml', commit: null, now, signers: { keyIds: [], identities: [] } });
    if (!r.ok) throw new Error(r.reason.map((f) => f.message).join('; '));
    return r.value;
  };
  const key = (repo: string) => addKey({ target: deployKey({ owner: 'acme', repo }) });
  const unused = (runs: Record<string, ReturnType<typeof addKey>[]>) =>
    verify(evidence(runs), { ...OPTIONS, now, policy: policyOfText() }).findings.filter((f) => f.code === 'rule_unused');

  it('names the earlier rule that took the first call it matched, in path order, never "none matched"', () => {
    const [webFirst] = unused({ 'a.json': [key('prod-web')], 'b.json': [key('prod-api')] });
    expect(webFirst).toMatchObject({ severity: 'warning', file: '.github/receipt-gate.yml', line: 9, column: 5 });
    expect(webFirst?.message).toBe(
      'rule late applies to no call (classes seen: github_deploy_key): calls matched it, but each went to an earlier rule (the first match wins), the first to second (line 6): move this rule above second, or narrow second',
    );
    const [apiFirst] = unused({ 'a.json': [key('prod-api')], 'b.json': [key('prod-web')] });
    expect(apiFirst?.message).toMatch(/the first to first \(line 3\): move this rule above first, or narrow first$/);
    // A call no earlier rule takes uses it: nothing to say of late (second's prod-api call went to first).
    expect(unused({ 'a.json': [key('prod-api')], 'b.json': [key('staging-x')] }).map((f) => f.message)).toEqual([
      expect.stringMatching(/^rule second .*the first to first \(line 3\)/),
    ]);
    // No call of its target at all: the old words, true again.
    expect(unused({ 'a.json': [key('dev-1')] }).map((f) => f.message)).toEqual([
      expect.stringMatching(/^rule first applies to no call/),
      expect.stringMatching(/^rule second applies to no call/),
      expect.stringMatching(/^rule late applies to no call .*none matched its verb or target$/),
    ]);
  });

  it('what files took, merged from copies judged apart, names the same rule as one verification', () => {
    const runs = { 'a.json': [key('dev-1')], 'b.json': [key('prod-web')], 'c.json': [key('prod-api')] };
    const options = { ...OPTIONS, now, policy: policyOfText() };
    const whole = unused(runs).map((f) => f.message);
    const allocation = allocateAll(evidence(runs), options);
    const usage = allocation.judging.requirements.usage();
    for (const f of allocation.files) usage.merge(judgeFile(structuredClone(f), allocation.judging).usage);
    const said = allocation.judging.requirements.findings(
      usage,
      (rule, takenBy) => ({ message: `${rule.name} ${takenBy?.name ?? '-'}` }) as never,
    );
    expect(said.map((f) => f.message)).toEqual(['late second']);
    expect(whole).toEqual([expect.stringMatching(/^rule late .*the first to second \(line 6\)/)]);
  });
});
