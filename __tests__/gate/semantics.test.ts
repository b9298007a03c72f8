/**
 * The semantics document and the upstream fixture conclusions, through the real readers
 * (files in a temporary workspace → runGate).
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.js';
import { addKey, type DecisionSpec, deployKey, event, getKey, json, ndjson, record, surface, targetHash } from '../support/corpus.js';
import { cleanup, gate, tempDir, UPSTREAM, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

const up = (rel: string): string => readFileSync(path.join(UPSTREAM, rel), 'utf8');
const codes = (r: Report, severity = 'error') =>
  r.findings
    .filter((f) => f.severity === severity)
    .map((f) => f.code)
    .sort();
const levels = (r: Report) => r.calls.map((c) => c.level);

async function run(runs: Record<string, string>, audit: Record<string, string> = {}, opts = {}) {
  const dir = tempDir();
  writeFiles(
    dir,
    Object.fromEntries([
      ...Object.entries(runs).map(([k, v]) => [`.assay/runs/${k}`, v]),
      ...Object.entries(audit).map(([k, v]) => [`.assay/audit/${k}`, v]),
    ]),
  );
  return gate(dir, opts);
}

const key = (repo = 'prod-repo') => deployKey({ repo, readOnly: false });
const write = (over: Partial<DecisionSpec> = {}) => addKey({ target: key(), ...over });
const read = (over: Partial<DecisionSpec> = {}) => getKey({ target: key(), ...over });

describe('upstream fixture conclusions', () => {
  it('the upstream target hash recipe gives the documented key-title hash', () => {
    expect(targetHash('github_key_title', 'ci-key')).toBe('sha256:a65a94d25524f87fbb5ce6d3fde202c02a5b532f27e1ba3b5708076e1ba75ccf');
  });

  it('verified.json + its record: passes, verified, digest sha256:31f2007b…4ec3', async () => {
    const r = await run(
      { 'verified.json': up('side_effect/verified.json') },
      { 'r.json': up('side_effect/audit_record_github_deploy_key.json') },
    );
    expect(r.ok).toBe(true);
    expect(r.calls).toMatchObject([
      {
        level: 'verified',
        claimed_level: 'verified',
        subject_digest: 'sha256:31f2007b91477601789c8803c3e32912a8a4510851cc55397d49a65bbc5e4ec3',
        record: { record_id: 'audit-log-entry-9931', file: '.assay/audit/r.json', line: 1 },
        line: 4,
      },
    ]);
    expect(r.records).toMatchObject([{ outcome: 'bound', recomputed_digest: r.records[0]!.binding_digest }]);
  });

  it('verified.json + the mismatch record: verified_not_reproduced and record_unmatched, at their lines, with reasons', async () => {
    const r = await run({ 'verified.json': up('side_effect/verified.json') }, { 'm.json': up('side_effect/audit_record_mismatch.json') });
    expect(r.ok).toBe(false);
    expect(codes(r)).toEqual(['record_unmatched', 'verified_not_reproduced']);
    const nr = r.findings.find((f) => f.code === 'verified_not_reproduced')!;
    expect(nr).toMatchObject({ file: '.assay/runs/verified.json', line: 4, column: 5 });
    expect(nr.message).toContain('no audit record binds its subject sha256:31f2007b');
    const um = r.findings.find((f) => f.code === 'record_unmatched')!;
    expect(um).toMatchObject({ file: '.assay/audit/m.json', line: 1, column: 1 });
    expect(um.message).toMatch(/target differs in repo/);
    expect(r.records[0]).toMatchObject({
      outcome: 'unmatched',
      recomputed_digest: 'sha256:3546cc0feefe1a918cd2498c03c341a2e003527e815c51cd1b4aa0acb7774484',
    });
  });

  it('verified.json alone fails', async () => {
    const r = await run({ 'verified.json': up('side_effect/verified.json') });
    expect(codes(r)).toEqual(['verified_not_reproduced']);
  });

  it('asserted.json passes at asserted, and earns verified with the record (a notice, not a failure)', async () => {
    expect(levels(await run({ 'a.json': up('side_effect/asserted.json') }))).toEqual(['asserted']);
    const r = await run({ 'a.json': up('side_effect/asserted.json') }, { 'r.json': up('side_effect/audit_record_github_deploy_key.json') });
    expect(r.ok).toBe(true);
    expect(levels(r)).toEqual(['verified']);
    expect(codes(r, 'notice')).toEqual(['under_claimed']);
  });

  it('observed_confirmed.json passes with a warning and earns asserted; --strict-observed makes it an error', async () => {
    const r = await run({ 'o.json': up('side_effect/observed_confirmed.json') });
    expect(r.ok).toBe(true);
    expect(levels(r)).toEqual(['asserted']);
    expect(codes(r, 'warning')).toEqual(['observed_confirmed_not_reproduced']);
    const strict = await run({ 'o.json': up('side_effect/observed_confirmed.json') }, {}, { strictObserved: true });
    expect(strict.ok).toBe(false);
    expect(codes(strict)).toEqual(['observed_confirmed_not_reproduced']);
  });

  it('the seven classifier outputs all pass and none claims above asserted', async () => {
    const names = [
      'github_deploy_key_allow',
      'github_deploy_key_deny',
      'github_deploy_key_incomplete',
      'redacted_and_sanitized',
      'slack_add_member_allow',
      'unknown_tool_observed',
      'workspace_admin_allow',
    ];
    const r = await run(Object.fromEntries(names.map((n) => [`${n}.json`, up(`tool_decisions/${n}.json`)])));
    expect(r.ok).toBe(true);
    expect(r.calls).toHaveLength(7);
    // A call that asserts nothing (the denied and incomplete ones) has no rung; the rest stay asserted.
    expect(
      r.calls.every((c) =>
        c.asserted ? c.claimed_level === 'asserted' && c.level === 'asserted' : c.claimed_level === null && c.level === null,
      ),
    ).toBe(true);
    expect(r.findings.filter((f) => f.code !== 'no_match')).toEqual([]);
  });
});

describe('cases the upstream verifier exercises', () => {
  const verified = up('side_effect/verified.json');
  const rec = JSON.parse(up('side_effect/audit_record_github_deploy_key.json'));

  it('a record whose binding_digest was replaced is record_inconsistent (and the call is not verified)', async () => {
    const r = await run({ 'v.json': verified }, { 'r.json': json({ ...rec, binding_digest: `sha256:${'0'.repeat(64)}` }) });
    expect(codes(r)).toEqual(['record_inconsistent', 'verified_not_reproduced']);
    expect(r.records[0]!.outcome).toBe('inconsistent');
  });

  it('a record whose subject was edited (digest kept) is record_inconsistent', async () => {
    const edited = JSON.parse(up('side_effect/audit_record_github_deploy_key.json'));
    edited.subject.target.repo = 'other-repo';
    const r = await run({ 'v.json': verified }, { 'r.json': json(edited) });
    expect(codes(r)).toEqual(['record_inconsistent', 'verified_not_reproduced']);
    expect(r.findings.find((f) => f.code === 'verified_not_reproduced')!.message).toMatch(/declares this binding but is inconsistent/);
  });

  it('a call that asserted nothing carries no rung, and is never promoted even when a record binds its shape', async () => {
    const r = await run(
      { 'd.json': json(surface([write({ asserted: false })])) },
      { 'r.json': up('side_effect/audit_record_github_deploy_key.json') },
    );
    expect(levels(r)).toEqual([null]);
    expect(r.calls[0]).toMatchObject({ claimed_level: null, required_level: null });
    expect(r.totals).toMatchObject({ no_effect: 1, asserted: 0, weakest_level: null });
    expect(codes(r)).toEqual(['record_unmatched']);
    expect(r.findings[0]!.message).toMatch(/cannot be verified: the call does not assert a side effect/);
  });

  it('a denied call cannot be verified', async () => {
    const d = write({ effect: 'deny', asserted: true, status: 'blocked' });
    const r = await run({ 'd.json': json(surface([d])) }, { 'r.json': json(record('github', 'x', d)) });
    expect(levels(r)).toEqual(['asserted']);
    expect(r.calls[0]!.reason).toMatch(/denied/);
  });

  it.each([
    ['resource_type: null', { resourceType: null }],
    ['verb: null', { verb: null }],
    ['a target with none of the bound fields', { target: { provider: 'github', read_only: false } }],
    ['an unknown action class', { resourceType: 'k8s_cluster_role' }],
    ['a target that is not an object', { target: null }],
  ])('%s → no subject, never verified', async (_n, over) => {
    const r = await run(
      { 'd.json': json(surface([write({ ...over, claim: 'verified', digest: rec.binding_digest })])) },
      { 'r.json': json(rec) },
    );
    expect(levels(r)).toEqual(['asserted']);
    expect(r.calls[0]!.subject_digest).toBeNull();
    expect(codes(r)).toContain('verified_not_reproduced');
  });

  it('a later read of a different target does not confirm a write; a read of the same target does', async () => {
    const other = await run({ 'r.json': json(surface([write({ claim: 'observed_confirmed' }), read({ target: key('other-repo') })])) });
    expect(levels(other)).toEqual(['asserted', null]);
    // The read asserts nothing (no rung), yet it confirms the write.
    const same = await run({ 'r.json': json(surface([write({ claim: 'observed_confirmed' }), read()])) });
    expect(levels(same)).toEqual(['observed_confirmed', null]);
    expect(same.findings.filter((f) => f.code !== 'no_match')).toEqual([]);
  });

  it('an earlier read, a failed read, or a read in another run does not confirm', async () => {
    expect(levels(await run({ 'r.json': json(surface([read(), write()])) }))).toEqual([null, 'asserted']);
    expect(levels(await run({ 'r.json': json(surface([write(), read({ status: 'error' })])) }))).toEqual(['asserted', null]);
    expect(levels(await run({ 'a.json': json(surface([write()])), 'b.json': json(surface([read()])) }))).toEqual(['asserted', null]);
  });

  it('a read never overwrites verified', async () => {
    const r = await run(
      { 'r.json': json(surface([write({ claim: 'verified' }), read()])) },
      { 'r.json': json(record('github', 'a', write())) },
    );
    expect(levels(r)).toEqual(['verified', null]);
  });

  it('two identical asserting calls and one record: exactly one is verified (the one that claims it)', async () => {
    const r = await run(
      { 'r.json': json(surface([write(), write({ claim: 'verified' })])) },
      { 'r.json': json(record('github', 'a', write())) },
    );
    expect(levels(r)).toEqual(['asserted', 'verified']);
    expect(r.ok).toBe(true);
  });

  it('two copies of one record (one entry exported twice) count once: one call verified, the copy imported_twice (§3.2)', async () => {
    const rr = record('github', 'a', write());
    const r = await run(
      { 'r.json': json(surface([write({ claim: 'verified' }), write({ claim: 'verified' })])) },
      { 'one.json': json(rr), 'two.json': json(rr) },
    );
    expect(levels(r)).toEqual(['verified', 'asserted']);
    expect(codes(r)).toEqual(['verified_not_reproduced']);
    expect(r.findings.find((f) => f.code === 'imported_twice')).toMatchObject({ file: '.assay/audit/two.json', severity: 'notice' });
    expect(r.findings.find((f) => f.code === 'imported_twice')!.message).toMatch(
      /is the same audit entry as the record at \.assay\/audit\/one\.json:1/,
    );
    // Listed once, with every place it was found; counted once (§3.2).
    expect(r.totals).toMatchObject({ records: 1, bound: 1, imported_twice: 1, duplicate: 0 });
    expect(r.records).toHaveLength(1);
    expect(r.records[0]).toMatchObject({
      file: '.assay/audit/one.json',
      outcome: 'bound',
      also_at: [{ file: '.assay/audit/two.json', line: 1, column: 1 }],
    });
  });

  it('one identity with two meanings: duplicate_record on both, and neither verifies a call (§3.2)', async () => {
    const r = await run(
      { 'r.json': json(surface([write({ claim: 'verified' })])) },
      {
        'one.json': json(record('github', 'a', write())),
        'two.json': json(record('github', 'a', write({ target: { ...key(), repo: 'elsewhere' } }))),
      },
    );
    expect(levels(r)).toEqual(['asserted']);
    expect(r.findings.filter((f) => f.code === 'duplicate_record').map((f) => f.file)).toEqual([
      '.assay/audit/one.json',
      '.assay/audit/two.json',
    ]);
  });

  it('projection drops provider and read_only from the call target', async () => {
    const d = write({ target: { ...key(), read_only: true, provider: 'github' } });
    const r = await run({ 'r.json': json(surface([d])) }, { 'r.json': up('side_effect/audit_record_github_deploy_key.json') });
    expect(r.calls[0]!.subject_digest).toBe('sha256:31f2007b91477601789c8803c3e32912a8a4510851cc55397d49a65bbc5e4ec3');
  });

  it('a record for gitlab cannot verify a github call', async () => {
    const r = await run({ 'r.json': json(surface([write({ claim: 'verified' })])) }, { 'r.json': json(record('gitlab', 'a', write())) });
    expect(levels(r)).toEqual(['asserted']);
    expect(codes(r)).toEqual(['record_unmatched', 'verified_not_reproduced']);
    expect(r.findings.find((f) => f.code === 'record_unmatched')!.message).toMatch(/targets provider "github", not "gitlab"/);
  });

  it('a call without target.provider accepts a record of any provider', async () => {
    const t = key();
    delete (t as Record<string, unknown>)['provider'];
    const r = await run({ 'r.json': json(surface([write({ target: t })])) }, { 'r.json': json(record('gitlab', 'a', write())) });
    expect(levels(r)).toEqual(['verified']);
  });
});

describe('claims', () => {
  it('a claimed digest that differs from the recomputed binding is verified_not_reproduced', async () => {
    const r = await run(
      { 'r.json': json(surface([write({ claim: 'verified', digest: `sha256:${'a'.repeat(64)}` })])) },
      { 'r.json': json(record('github', 'a', write())) },
    );
    expect(levels(r)).toEqual(['verified']);
    expect(codes(r)).toEqual(['verified_not_reproduced']);
  });

  it('a legacy side_effect_verified claim has no digest to compare', async () => {
    const r = await run(
      { 'r.json': json(surface([write({ claim: 'legacy-verified' })])) },
      { 'r.json': json(record('github', 'a', write())) },
    );
    expect(r.calls[0]).toMatchObject({ claimed_level: 'verified', level: 'verified' });
    expect(r.ok).toBe(true);
    const alone = await run({ 'r.json': json(surface([write({ claim: 'legacy-verified' })])) });
    expect(codes(alone)).toEqual(['verified_not_reproduced']);
  });

  it.each([
    ['side_effect.asserted differs', (d: any) => (d.response.side_effect.asserted = false)],
    ['wrong verification_source', (d: any) => (d.response.side_effect.verification_source = 'observed_read_followup')],
    ['side_effect_verified contradicts the level', (d: any) => (d.response.side_effect_verified = false)],
    [
      'above asserted while not asserting',
      (d: any) => {
        d.response.side_effect_asserted = false;
        d.response.side_effect.asserted = false;
      },
    ],
  ])('inconsistent_claim: %s', async (_n, mutate) => {
    const d = JSON.parse(JSON.stringify(write({ claim: 'verified' })));
    mutate(d);
    const r = await run({ 'r.json': json(surface([d])) }, { 'r.json': json(record('github', 'a', write())) });
    expect(codes(r)).toContain('inconsistent_claim');
  });

  it('an asserted claim carrying a digest is inconsistent', async () => {
    const r = await run({ 'r.json': json(surface([write({ claim: 'asserted', digest: `sha256:${'b'.repeat(64)}` })])) });
    expect(codes(r)).toEqual(['inconsistent_claim']);
  });

  it.each([
    ['side_effect_asserted is not a boolean', (d: any) => (d.response.side_effect_asserted = 'yes')],
    ['the level is unknown', (d: any) => (d.response.side_effect.level = 'probably')],
    ['side_effect is not an object', (d: any) => (d.response.side_effect = true)],
  ])('invalid_artifact when %s (the run contributes no calls)', async (_n, mutate) => {
    const d = JSON.parse(JSON.stringify(write({ claim: 'verified' })));
    mutate(d);
    const r = await run({ 'r.json': json(surface([write(), d])) });
    expect(codes(r)).toEqual(['invalid_artifact']);
    expect(r.calls).toEqual([]);
    expect(r.findings[0]).toMatchObject({ file: '.assay/runs/r.json', line: expect.any(Number) });
    expect(r.findings[0]!.line).toBeGreaterThan(4);
  });
});

describe('inputs', () => {
  it('no run artifacts at all is an error', async () => {
    const r = await run({});
    expect(codes(r)).toEqual(['no_artifacts']);
    expect(r.ok).toBe(false);
  });

  it('other artifact kinds are skipped with a notice; another version of ours is an error', async () => {
    const r = await run(
      {
        'e.json': json({ schema: 'assay.enforcement_decision.v0', x: 1 }),
        'log.ndjson': ndjson([event('assay.session.started', {}, 0), event('assay.tool_decision_surface.v0', surface([write()]), 1)]),
      },
      { 'a.json': json({ ...record('github', 'a', write()), schema: 'assay.provider_audit_record.v2' }) },
    );
    expect(codes(r)).toEqual(['invalid_artifact']);
    expect(r.findings.find((f) => f.severity === 'error')!.message).toMatch(/unsupported version "assay.provider_audit_record.v2"/);
    expect(codes(r, 'notice')).toEqual(['skipped_object', 'skipped_object']);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ artifact: '.assay/runs/log.ndjson', line: 2 });
  });

  it('a surface of version v1 is an error, not a skip', async () => {
    const r = await run({ 's.json': json({ ...surface([write()]), schema: 'assay.tool_decision_surface.v1' }) });
    expect(codes(r)).toEqual(['invalid_artifact']);
  });

  it.each([
    ['a bare number', '42'],
    ['an array in a run file', '[]'],
    ['an object without schema', '{"observed_tool_decisions":[]}'],
  ])('%s in a run file is an error', async (_n, text) => {
    expect(codes(await run({ 'x.json': text }))).toEqual(['invalid_artifact']);
  });

  it('a malformed file invalidates that file only', async () => {
    const r = await run(
      {
        'bad.json': '{"schema": "assay.tool_decision_surface.v0", "observed_tool_decisions": [',
        'good.json': json(surface([write({ claim: 'verified' })])),
      },
      { 'r.json': json(record('github', 'a', write())) },
    );
    expect(codes(r)).toEqual(['invalid_artifact']);
    expect(r.findings[0]).toMatchObject({ file: '.assay/runs/bad.json', line: 1 });
    expect(r.calls).toMatchObject([{ artifact: '.assay/runs/good.json', level: 'verified' }]);
  });

  it('audit exports: arrays and NDJSON, a broken record is reported and the rest still bind', async () => {
    const a = write({ target: key('a') });
    const b = write({ target: key('b') });
    const r = await run(
      { 'r.json': json(surface([a, b])) },
      {
        'x.ndjson': ndjson([record('github', '1', a), { schema: 'assay.provider_audit_record.v0', provider: 'github' }]),
        'y.json': json([record('github', '2', b)]),
      },
    );
    expect(levels(r)).toEqual(['verified', 'verified']);
    expect(r.findings.filter((f) => f.severity === 'error')).toMatchObject([
      { code: 'invalid_artifact', file: '.assay/audit/x.ndjson', line: 2, message: expect.stringMatching(/record_id/) },
    ]);
  });

  it('--allow-unmatched-records downgrades record_unmatched to a warning', async () => {
    const r = await run(
      { 'r.json': json(surface([write()])) },
      { 'r.json': json(record('github', '1', write({ target: key('zzz') }))) },
      { allowUnmatchedRecords: true },
    );
    expect(r.ok).toBe(true);
    expect(codes(r, 'warning')).toEqual(['record_unmatched']);
  });
});

describe('nothing is dropped silently', () => {
  it('an empty NDJSON run file and an empty audit export each say so', async () => {
    const r = await run({ 'empty.ndjson': '', 'ok.json': json(surface([write()])) }, { 'none.ndjson': '\n\n', 'empty.json': '[]' });
    expect(r.findings.filter((f) => f.severity === 'notice').map((f) => [f.code, f.file])).toEqual([
      ['no_records', '.assay/audit/empty.json'],
      ['no_records', '.assay/audit/none.ndjson'],
      ['no_decisions', '.assay/runs/empty.ndjson'],
    ]);
    expect(r.ok).toBe(true);
  });
});
