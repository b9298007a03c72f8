/**
 * Text from inputs never reaches Object.prototype, and rules are parsed, never compared as text:
 * every table looked up with input text, with hostile keys; policy
 * selectors matched by class and verb; asserted-while-denied claims; rules that apply to no call.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandNamed } from '../../src/cli/registry.js';
import { ruleFor } from '../../src/core/policy.js';
import { boundFields } from '../../src/core/projection.js';
import { verify } from '../../src/core/verify.js';
import { parseSize } from '../../src/gate/settings/parsers.js';
import { UsageError } from '../../src/gate/settings/types.js';
import { importKind } from '../../src/tools/import/kinds.js';
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
