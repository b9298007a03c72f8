/**
 * The action reads the policy file and trust material where the pull request cannot edit them
 * (docs/policy.md §1, §8): at the event's base commit, through the contents API of a loopback GitHub
 * (or git when the commit is in the clone), never falling back to the head's; the head's policy is
 * checked and its change shown with its effect; the one repair path; a trusted root read the same way.
 */

import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jcs, sha256Hex } from '../../src/core/binding.js';
import type { Report } from '../../src/core/report.js';
import { keyIdOf } from '../../src/trust/keys.js';
import { type ActionRun, BASE_SHA, checkout, HEAD_SHA, MERGE_SHA, runAction } from '../support/action-harness.js';
import { addKey, deployKey, json, record, surface, testSigner } from '../support/corpus.js';
import { LOOSE, POLICY, STRICT } from '../support/policies.js';
import { EXPORT_IDENTITY, mockSigstore, RECORDS_V1, statementFor } from '../support/sigstore.js';
import { cleanup, tempDir, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

/** Two asserted deploy-key calls on a production repository: unmet under STRICT, met under LOOSE. */
const prod = (i: number) => addKey({ target: deployKey({ owner: 'acme', repo: 'prod-api', title: `k${i}` }) });
const runs = { '.assay/runs/a.json': json(surface([prod(1), prod(2)])) };

const workspace = (head: Record<string, string> = {}): string => writeFiles(tempDir(), { ...runs, ...head });
const reportOf = (r: ActionRun): Report => JSON.parse(readFileSync(r.outputs['report-file'] ?? '', 'utf8')) as Report;
/** The summary's text with its inert entities (`&#40;`) read back. */
const plain = (summary: string) => summary.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)));
const codes = (report: Report) => report.findings.map((f) => `${f.severity} ${f.code}`);

describe('a pull request is judged under the base commit’s policy', () => {
  it('the base’s policy applies, read with one contents request at the base commit; the report names it PATH at the commit', async () => {
    const r = await runAction({ workspace: workspace({ [POLICY]: STRICT }), base: { [POLICY]: STRICT } });
    expect(r.code).toBe(1);
    expect(r.outputs).toMatchObject({ result: 'fail', 'policy-unmet': '2' });
    expect(r.contentRequests.map((q) => q.url)).toEqual([`/repos/acme/agents/contents/.github/receipt-gate.yml?ref=${BASE_SHA}`]);
    expect(r.contentRequests[0]?.headers['authorization']).toMatch(/ghs_test_token/);
    const report = reportOf(r);
    expect(report.policy.source).toMatchObject({ path: POLICY, commit: BASE_SHA });
    expect(report.calls.map((c) => [c.rule, c.required_level])).toEqual([
      ['prod-keys', 'verified'],
      ['prod-keys', 'verified'],
    ]);
    // Same bytes at the base and the head: no change to show.
    expect(codes(report)).not.toContain('notice policy_changed');
  });

  it('a head that loosens the policy does not loosen this check: policy_changed shows the effect, in the summary too', async () => {
    const r = await runAction({ workspace: workspace({ [POLICY]: LOOSE }), base: { [POLICY]: STRICT } });
    expect(r.outputs).toMatchObject({ result: 'fail', 'policy-unmet': '2' });
    const changed = reportOf(r).findings.find((f) => f.code === 'policy_changed');
    expect(changed?.message).toMatch(
      /this pull request changes the policy file .github\/receipt-gate.yml; the change takes effect after merge/,
    );
    expect(changed?.message).toMatch(
      /its effect on this corpus: 2 call\(s\) of prod-keys: under the base's policy: unmet; under this pull request's policy: met/,
    );
    // A loosening is a warning, annotated before every per-call notice (docs/policy.md §11).
    expect(changed?.severity).toBe('warning');
    expect(changed?.message).toMatch(/it loosens the policy/);
    expect(plain(r.summary)).toMatch(/2 call\(s\) of prod-keys: under the base's policy: unmet; under this pull request's policy: met/);
  });

  it('17: a loosening reaches the reader first in every channel: with no token, its warning is the first workflow command, before the ten visible notices', async () => {
    const r = await runAction({
      workspace: workspace({ [POLICY]: LOOSE }),
      base: { [POLICY]: STRICT },
      inputs: { annotations: 'workflow-commands', annotate: 'all' },
    });
    const warnings = r.stdout.split(/\r?\n/).filter((l) => l.startsWith('::warning'));
    expect(warnings[0]).toMatch(/policy_changed/);
    expect(reportOf(r).totals.warnings).toBeGreaterThanOrEqual(1);
  });

  it('a head that tightens it: the PR passes under the base’s, and the summary says which calls the change will fail', async () => {
    const r = await runAction({ workspace: workspace({ [POLICY]: STRICT }), base: { [POLICY]: LOOSE } });
    expect(r.outputs).toMatchObject({ result: 'pass', 'policy-unmet': '0' });
    expect(plain(r.summary)).toMatch(/2 call\(s\) of prod-keys: under the base's policy: met; under this pull request's policy: unmet/);
    // A tightening stays a notice.
    expect(reportOf(r).findings.find((f) => f.code === 'policy_changed')?.severity).toBe('notice');
  });

  it('a head policy that is invalid fails the PR with policy_invalid on its line (the base’s still applies)', async () => {
    const broken = STRICT.replace('require: verified', 'require: verifed');
    const r = await runAction({ workspace: workspace({ [POLICY]: broken }), base: { [POLICY]: LOOSE } });
    expect(r.code).toBe(1);
    expect(r.outputs['result']).toBe('fail');
    const report = reportOf(r);
    expect(codes(report)).toContain('error policy_invalid');
    expect(report.policy.source).toMatchObject({ commit: BASE_SHA });
    // Annotated on its line of the head's file, through the check run.
    const annotation = r.requests
      .flatMap((q) => q.body?.output?.annotations ?? [])
      .find((a: { title: string }) => a.title === 'policy_invalid');
    expect(annotation).toMatchObject({ path: POLICY, start_line: 5, annotation_level: 'failure' });
    expect(annotation.message).toMatch(/must be one of asserted, observed_confirmed, verified \(did you mean "verified"\?\)/);
  });

  it('a head policy whose rule names no class, or whose trust: section does not load, fails the PR with policy_invalid (a red team: each passed, and once merged stopped every pull request, its repair too)', async () => {
    const misspelt = LOOSE.replace('class: github_deploy_key', 'class: github_deploy_kye');
    const r = await runAction({ workspace: workspace({ [POLICY]: misspelt }), base: { [POLICY]: LOOSE } });
    expect(r.outputs['result']).toBe('fail');
    const invalid = reportOf(r).findings.find((f) => f.code === 'policy_invalid');
    expect(invalid).toMatchObject({ severity: 'error', file: POLICY, line: 4 });
    expect(invalid?.message).toMatch(
      /no action class "github_deploy_kye" .*did you mean "github_deploy_key"\?.*this pull request's policy; it must be valid to merge/,
    );
    const keyed = `${LOOSE}trust:\n  trusted-keys: [.github/rg/export.pub.pem]\n  require-signed-records: true\n`;
    const notPem = await runAction({
      workspace: workspace({ [POLICY]: keyed, '.github/rg/export.pub.pem': 'not a pem\n' }),
      base: { [POLICY]: LOOSE },
    });
    expect(notPem.outputs['result']).toBe('fail');
    const bad = reportOf(notPem).findings.find((f) => f.code === 'policy_invalid');
    // At the entry naming the file (its value's line and column), never the section's start.
    expect(bad).toMatchObject({ severity: 'error', file: POLICY, line: 7, column: 18 });
    expect(bad?.message).toMatch(
      /^trust\.trusted-keys \.github\/rg\/export\.pub\.pem: no PEM "PUBLIC KEY" block.*it must be valid to merge/,
    );
    const missing = await runAction({ workspace: workspace({ [POLICY]: keyed }), base: { [POLICY]: LOOSE } });
    expect(reportOf(missing).findings.find((f) => f.code === 'policy_invalid')?.message).toMatch(/export\.pub\.pem does not exist/);
    // The root it names must load too (a red team: garbage passed, then stopped every pull request once merged).
    const rooted = `${LOOSE}trust:\n  trusted-signer-identities: ["https://github.com/acme/exports/.github/workflows/x.yml@refs/heads/main"]\n  trusted-root: .github/rg/root.jsonl\n`;
    const garbage = await runAction({
      workspace: workspace({ [POLICY]: rooted, '.github/rg/root.jsonl': 'garbage\n' }),
      base: { [POLICY]: LOOSE },
    });
    expect(reportOf(garbage).findings.find((f) => f.code === 'policy_invalid')?.message).toMatch(
      /not a trusted root.*it must be valid to merge/,
    );
    // A head that moves trust into the file while its workflow still gives trust inputs: after merge the two clash.
    const both = await runAction({
      workspace: workspace({ [POLICY]: keyed, '.github/rg/export.pub.pem': testSigner().pem }),
      base: { [POLICY]: LOOSE },
      inputs: { 'trusted-keys': testSigner().pem },
    });
    expect(reportOf(both).findings.find((f) => f.code === 'policy_invalid')?.message).toMatch(
      /trusted-keys given, and the policy file .* has a trust: section/,
    );
    // The policy's bytes the same, a key file its trust: names broken by the pull request: invalid too.
    const keyBase = { [POLICY]: keyed, '.github/rg/export.pub.pem': testSigner().pem };
    const broken = await runAction({
      workspace: workspace({ [POLICY]: keyed, '.github/rg/export.pub.pem': 'not a pem\n' }),
      base: keyBase,
    });
    expect(broken.outputs['result']).toBe('fail');
    expect(reportOf(broken).findings.find((f) => f.code === 'policy_invalid')?.message).toMatch(
      /no PEM "PUBLIC KEY" block.*it must be valid to merge/,
    );
    // A key that loads: the change is shown, nothing invalid.
    const good = await runAction({
      workspace: workspace({ [POLICY]: keyed, '.github/rg/export.pub.pem': testSigner().pem }),
      base: { [POLICY]: LOOSE },
    });
    expect(codes(reportOf(good))).not.toContain('error policy_invalid');
  });

  it('a policy that does not read whole names its misspelt classes beside its other problems, the head’s as findings and the base’s in its error (a red team: one more run per mistake)', async () => {
    const both = STRICT.replace('require: verified', 'require: verifed').replace('class: github_deploy_key', 'class: github_deploy_kye');
    const head = await runAction({ workspace: workspace({ [POLICY]: both }), base: { [POLICY]: LOOSE } });
    expect(head.outputs['result']).toBe('fail');
    const invalid = reportOf(head)
      .findings.filter((f) => f.code === 'policy_invalid')
      .map((f) => `${f.line}:${f.column} ${f.message}`);
    expect(invalid).toEqual([
      expect.stringMatching(
        /^4:20 rule prod-keys: no action class "github_deploy_kye" .*did you mean "github_deploy_key"\?.*it must be valid to merge\)$/,
      ),
      expect.stringMatching(/^5:14 .*must be one of asserted, observed_confirmed, verified.*it must be valid to merge\)$/),
    ]);
    const base = await runAction({ workspace: workspace({ [POLICY]: both }), base: { [POLICY]: both } });
    expect(base.outputs['result']).toBe('error');
    expect(base.stdout).toMatch(/\.github\/receipt-gate\.yml:4:20: rule prod-keys: no action class "github_deploy_kye"/);
    expect(base.stdout).toMatch(/\.github\/receipt-gate\.yml:5:14: rules\.0\.require must be one of/);
  });

  it('a base policy that is invalid: result=error located in the base’s file at its commit, unless the head repairs it', async () => {
    const broken = 'version: 1\nrulez: []\n';
    const stuck = await runAction({ workspace: workspace(), base: { [POLICY]: broken } });
    expect(stuck.code).toBe(1);
    expect(stuck.outputs['result']).toBe('error');
    expect(stuck.stdout).toMatch(/the policy in effect \(.github\/receipt-gate.yml at commit cccccccccccc\) is invalid \(policy_invalid\)/);
    expect(stuck.stdout).toMatch(/.github\/receipt-gate.yml:2:1: unknown key "rulez" in the file \(did you mean "rules"\?\)/);
    // A head that is also broken does not repair it.
    expect((await runAction({ workspace: workspace({ [POLICY]: broken }), base: { [POLICY]: broken } })).outputs['result']).toBe('error');
    const repair = await runAction({ workspace: workspace({ [POLICY]: LOOSE }), base: { [POLICY]: broken } });
    expect(repair.outputs).toMatchObject({ result: 'pass' });
    const report = reportOf(repair);
    expect(report.policy.source).toMatchObject({ path: POLICY, commit: null });
    expect(report.findings.find((f) => f.code === 'policy_changed')?.message).toMatch(
      /the base policy .* is invalid; this pull request repairs it/,
    );
    // A warning, never a quiet notice: nothing of the base's applies here (a red team).
    expect(report.findings.find((f) => f.code === 'policy_changed')?.severity).toBe('warning');
  });

  it('a head whose signed-by names a signer its own trust, once merged, does not give fails the PR with policy_invalid (a red team: it passed, and once merged stopped every pull request)', async () => {
    const signer = testSigner();
    const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }) as string;
    const keyed = `${STRICT.replace('require: verified', `require: verified\n    signed-by: ["${keyIdOf(signer.publicKey)}"]`)}trust:\n  trusted-keys: [.github/rg/export.pub.pem]\n`;
    const base = { [POLICY]: keyed, '.github/rg/export.pub.pem': signer.pem };
    // The head trusts another key file and keeps signed-by: valid under the base's signers, not under its own.
    const swapped = keyed.replace('.github/rg/export.pub.pem]', '.github/rg/new.pub.pem]');
    const r = await runAction({ workspace: workspace({ ...base, [POLICY]: swapped, '.github/rg/new.pub.pem': other }), base });

    expect(r.outputs['result']).toBe('fail');
    const invalid = reportOf(r).findings.find((f) => f.code === 'policy_invalid');
    expect(invalid).toMatchObject({ severity: 'error', file: POLICY, line: 6 });
    expect(invalid?.message).toMatch(/is not among the trusted signers configured .*this pull request's policy; it must be valid to merge/);
    // A misspelt class beside it is said once, judged with the input read (the head read whole under the base's signers).
    const misspelt = await runAction({
      workspace: workspace({
        ...base,
        [POLICY]: swapped.replace('class: github_deploy_key', 'class: github_deploy_kye'),
        '.github/rg/new.pub.pem': other,
      }),
      base,
    });
    const named = reportOf(misspelt).findings.filter((f) => f.code === 'policy_invalid' && f.message.includes('github_deploy_kye'));
    expect(named).toHaveLength(1);
    expect(named[0]?.message).toMatch(/\(neither a class the gate binds nor one in the input\)/);
    // The key spelt with a YAML escape is the same key (a red team: a test of the text skipped the check).
    const escaped = await runAction({
      workspace: workspace({ ...base, [POLICY]: swapped.replace('signed-by:', '"signed\\x2Dby":'), '.github/rg/new.pub.pem': other }),
      base,
    });
    expect(reportOf(escaped).findings.find((f) => f.code === 'policy_invalid')?.message).toMatch(
      /is not among the trusted signers configured/,
    );
    // A head that drops its trust: section falls back to the inputs, which give no key here.
    const dropped = keyed.replace(/trust:\n.*\n$/, '');
    const none = await runAction({ workspace: workspace({ ...base, [POLICY]: dropped }), base });
    expect(reportOf(none).findings.find((f) => f.code === 'policy_invalid')?.message).toMatch(
      /signed-by without any trusted signer configured.*it must be valid to merge/,
    );
    // Without its signed-by, the same head is valid: nothing invalid.
    const plainHead = dropped.replace(/\n {4}signed-by: .*/, '');
    const given = await runAction({ workspace: workspace({ ...base, [POLICY]: plainHead }), base });
    expect(codes(reportOf(given))).not.toContain('error policy_invalid');
    // Both keys in the head's trust: valid.
    const both = keyed.replace('.github/rg/export.pub.pem]', '.github/rg/export.pub.pem, .github/rg/new.pub.pem]');
    const kept = await runAction({ workspace: workspace({ ...base, [POLICY]: both, '.github/rg/new.pub.pem': other }), base });
    expect(codes(reportOf(kept))).not.toContain('error policy_invalid');
  });

  it('a base policy valid by itself and invalid only under the trust inputs is never repaired by the head (a red team: a pull request dropped trusted-keys from its workflow, and passed under its own looser policy)', async () => {
    const signer = testSigner();
    const signed = STRICT.replace('require: verified', `require: verified\n    signed-by: ["${keyIdOf(signer.publicKey)}"]`);
    expect(signed).toContain('signed-by');
    // Under main's workflow (the key given) the base decides: two calls without a record fail it.
    const kept = await runAction({
      workspace: workspace({ [POLICY]: LOOSE }),
      base: { [POLICY]: signed },
      inputs: { 'trusted-keys': signer.pem },
    });
    expect(kept.outputs['result']).toBe('fail');
    // The pull request's workflow gives no key: the base is invalid only under that, so nothing is judged.
    const dropped = await runAction({ workspace: workspace({ [POLICY]: LOOSE }), base: { [POLICY]: signed } });
    expect(dropped.outputs['result']).toBe('error');
    expect(dropped.stdout).toMatch(/signed-by without any trusted signer configured/);
    expect(dropped.stdout).toMatch(/It is valid by itself: its signed-by names signers the trust inputs of this run do not give/);
    // A base invalid by itself is still repaired by a valid head (the test above); one whose signed-by its own trust: section does not give is invalid by itself.
  });

  it('a PR that deletes the policy is still judged under the base’s; a PR that adds the first one is judged under the inputs and shown its effect', async () => {
    const deletes = await runAction({ workspace: workspace(), base: { [POLICY]: STRICT } });
    expect(deletes.outputs).toMatchObject({ result: 'fail', 'policy-unmet': '2' });
    expect(reportOf(deletes).findings.find((f) => f.code === 'policy_changed')?.message).toMatch(/deletes the policy file/);
    const adds = await runAction({ workspace: workspace({ [POLICY]: STRICT }) });
    expect(adds.outputs).toMatchObject({ result: 'pass', 'policy-unmet': '0' });
    const report = reportOf(adds);
    expect(report.policy.source ?? null).toBeNull();
    expect(report.findings.find((f) => f.code === 'policy_changed')?.message).toMatch(
      /adds the policy file .github\/receipt-gate.yml; it takes effect after merge.*2 call\(s\) of prod-keys: under the base's policy: not ruled; under this pull request's policy: unmet/,
    );
    // Added while the workflow gives require (a red team: it passed, and every run after the merge was result=error).
    const both = await runAction({ workspace: workspace({ [POLICY]: LOOSE }), inputs: { require: 'github_deploy_key=asserted' } });
    expect(both.outputs['result']).toBe('fail');
    expect(reportOf(both).findings.find((f) => f.code === 'policy_invalid')?.message).toMatch(
      /this pull request adds the policy file .github\/receipt-gate.yml while require gives rules: once merged every run stops with a configuration error/,
    );
  });

  it('the base cannot be read (API error, no token): result=error naming why, never the head’s policy', async () => {
    for (const status of [403, 500]) {
      const r = await runAction({ workspace: workspace({ [POLICY]: LOOSE }), base: { [POLICY]: STRICT }, contentsStatus: status });
      expect(r.outputs['result']).toBe('error');
      expect(r.stdout).toMatch(new RegExp(`cannot be read through the contents API \\(HTTP ${status}.*contents: read`));
      expect(r.requests).toEqual([]);
    }
    const noToken = await runAction({ workspace: workspace({ [POLICY]: LOOSE }), token: '' });
    expect(noToken.outputs['result']).toBe('error');
    expect(noToken.stdout).toMatch(/must be read at the base commit cccccccccccc, which is not in the clone, and there is no github-token/);
    expect(noToken.contentRequests).toEqual([]);
  });

  it('a contents answer with no base64 text is an error that says so; "too large" only for GitHub’s encoding none', async () => {
    const answers: [unknown, RegExp][] = [
      [{ type: 'file', encoding: 'none', content: '' }, /too large for the contents API \(over 1 MB\)/],
      [{ type: 'file', encoding: 'base64', content: 42 }, /holds no base64 text \(encoding base64, content number\)/],
      [{ type: 'file', encoding: 'utf-8', content: 'rules: []' }, /holds no base64 text \(encoding utf-8, content string\)/],
      [{ type: 'file', encoding: 'base64', content: 'cnVsZXM6IFtd!!' }, /holds no base64 text/],
    ];
    for (const [body, why] of answers) {
      const r = await runAction({ workspace: workspace({ [POLICY]: LOOSE }), base: { [POLICY]: STRICT }, contentsBody: () => body });
      expect(r.outputs['result']).toBe('error');
      expect(r.stdout).toMatch(why);
      if (!String(why).includes('too large')) expect(r.stdout).not.toMatch(/too large/);
    }
  });

  it('a pull request event without its base commit is an error, not a head read', async () => {
    const event = { name: 'pull_request', payload: { pull_request: { number: 7, head: { sha: HEAD_SHA } } } };
    const r = await runAction({ workspace: workspace({ [POLICY]: LOOSE }), event });
    expect(r.outputs['result']).toBe('error');
    expect(r.stdout).toMatch(/without its base commit in the payload/);
  });

  it('check suites and runs, and a comment on a pull request, read at the default branch’s commit the event runs on, never the checkout (a red team: a ChatOps gate read the pull request’s own policy, and passed)', async () => {
    const url = (ref: string) => `/repos/acme/agents/contents/.github/receipt-gate.yml?ref=${ref}`;
    const comment = await runAction({
      workspace: workspace({ [POLICY]: LOOSE }),
      base: { [POLICY]: STRICT },
      event: {
        name: 'issue_comment',
        payload: {
          issue: { number: 7, pull_request: { url: 'https://api.github.com/repos/acme/agents/pulls/7' } },
          comment: { body: '/gate' },
        },
      },
    });
    expect(comment.outputs['result']).toBe('fail');
    expect(comment.contentRequests.map((q) => q.url)).toContain(url(MERGE_SHA));
    const suite = (bases: string[]) => ({
      name: 'check_suite',
      payload: {
        check_suite: {
          head_sha: HEAD_SHA,
          head_branch: 'feature',
          pull_requests: bases.map((sha, i) => ({ number: 7 + i, head: { sha: HEAD_SHA }, base: { sha } })),
        },
      },
    });
    // Whatever pull requests the suite lists (none: a fork's; two bases; the default branch's own, heading one): GITHUB_SHA.
    for (const bases of [[BASE_SHA], [], [BASE_SHA, 'd'.repeat(40)]]) {
      const r = await runAction({ workspace: workspace({ [POLICY]: LOOSE }), base: { [POLICY]: STRICT }, event: suite(bases) });
      expect(r.outputs['result'], String(bases.length)).toBe('fail');
      expect(r.contentRequests.map((q) => q.url)).toEqual([url(MERGE_SHA)]);
    }
    const run = await runAction({
      workspace: workspace({ [POLICY]: LOOSE }),
      base: { [POLICY]: STRICT },
      event: { name: 'check_run', payload: { check_run: { head_sha: HEAD_SHA, pull_requests: [] } } },
    });
    expect(run.outputs['result']).toBe('fail');
    // A status an outside CI posts on a fork's head, a ChatOps dispatch carrying the pull request (a red team): the same.
    for (const event of [
      { name: 'status', payload: { sha: HEAD_SHA, state: 'success', branches: [{ name: 'pr' }] } },
      {
        name: 'repository_dispatch',
        payload: { action: 'gate', client_payload: { pull_request: { head: { sha: HEAD_SHA }, base: { sha: BASE_SHA } } } },
      },
    ]) {
      const r = await runAction({ workspace: workspace({ [POLICY]: LOOSE }), base: { [POLICY]: STRICT }, event });
      expect(r.outputs['result'], event.name).toBe('fail');
      expect(r.contentRequests.map((q) => q.url)).toEqual([url(MERGE_SHA)]);
    }
    // A comment on an issue (no pull request) reads the checkout, as a push does.
    const issue = await runAction({
      workspace: workspace({ [POLICY]: LOOSE }),
      base: { [POLICY]: STRICT },
      event: { name: 'issue_comment', payload: { issue: { number: 3 }, comment: { body: '/gate' } } },
    });
    expect(issue.outputs['result']).toBe('pass');
    expect(issue.contentRequests).toEqual([]);
  });

  // A red team's: a dispatched or scheduled job that checked a pull request's head out read its own loosened policy, and passed.
  it('any other event (workflow_dispatch, schedule, push) in a git clone reads the policy at GITHUB_SHA with git: a head checked out, merged uncommitted, or cloned into a folder never judges itself', async () => {
    const ws = workspace({ [POLICY]: STRICT });
    const main = checkout(ws);
    writeFileSync(`${ws}/${POLICY}`, LOOSE);
    const head = checkout(ws);
    for (const name of ['workflow_dispatch', 'schedule', 'push']) {
      const event = { name, payload: { ref: 'refs/heads/main', repository: { id: 1, default_branch: 'main' } } };
      const r = await runAction({ workspace: ws, event, env: { GITHUB_SHA: main, GITHUB_REF: 'refs/heads/main' } });
      expect(r.outputs['result'], name).toBe('fail');
      expect(r.summary, name).toContain(`at ${main.slice(0, 12)}`);
      expect(r.contentRequests, name).toEqual([]);
    }
    const event = { name: 'schedule', payload: {} };
    const own = await runAction({ workspace: ws, event, env: { GITHUB_SHA: head, GITHUB_REF: 'refs/heads/main' } });
    expect(own.outputs['result']).toBe('pass');
    // A second red team: the head merged uncommitted (HEAD is GITHUB_SHA, the tree the head's), or cloned into a folder.
    execFileSync('git', ['reset', '-q', '--soft', main], { cwd: ws });
    const squashed = await runAction({ workspace: ws, event, env: { GITHUB_SHA: main, GITHUB_REF: 'refs/heads/main' } });
    expect(squashed.outputs['result']).toBe('fail');
    expect(squashed.summary).toContain(`at ${main.slice(0, 12)}`);
    const root = tempDir();
    execFileSync('git', ['clone', '-q', ws, path.join(root, 'src')]);
    execFileSync('git', ['checkout', '-q', head], { cwd: path.join(root, 'src') });
    const folder = await runAction({
      workspace: root,
      event,
      env: { GITHUB_SHA: main, GITHUB_REF: 'refs/heads/main' },
      inputs: { 'working-directory': 'src', policy: `src/${POLICY}`, 'github-token': '' },
    });
    expect(folder.outputs['result']).not.toBe('pass');
  });

  it('merge_group reads at merge_group.base_sha; pull_request_target at pull_request.base.sha', async () => {
    const mgBase = 'd'.repeat(40);
    const mg = await runAction({
      workspace: workspace({ [POLICY]: LOOSE }),
      base: { [POLICY]: STRICT },
      event: { name: 'merge_group', payload: { merge_group: { head_sha: HEAD_SHA, base_sha: mgBase } } },
    });
    expect(mg.contentRequests.map((q) => q.url)).toEqual([`/repos/acme/agents/contents/.github/receipt-gate.yml?ref=${mgBase}`]);
    expect(mg.outputs).toMatchObject({ result: 'fail', 'policy-unmet': '2' });
    const target = await runAction({
      workspace: workspace({ [POLICY]: LOOSE }),
      base: { [POLICY]: STRICT },
      event: { name: 'pull_request_target', payload: { pull_request: { number: 7, head: { sha: HEAD_SHA }, base: { sha: BASE_SHA } } } },
    });
    expect(target.outputs).toMatchObject({ result: 'fail', 'policy-unmet': '2' });
    expect(reportOf(target).policy.source).toMatchObject({ commit: BASE_SHA });
  });

  it('a push reads the checked-out file and asks GitHub for nothing', async () => {
    const r = await runAction({
      workspace: workspace({ [POLICY]: STRICT }),
      base: { [POLICY]: LOOSE },
      event: { name: 'push', payload: { after: HEAD_SHA } },
    });
    expect(r.outputs).toMatchObject({ result: 'fail', 'policy-unmet': '2' });
    expect(r.contentRequests).toEqual([]);
    expect(reportOf(r).policy.source).toMatchObject({ commit: null });
  });

  it('with the base commit in the clone, git reads it: no API request', async () => {
    const ws = workspace({ [POLICY]: STRICT });
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: ws, encoding: 'utf8' }).trim();
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'base');
    const base = git('rev-parse', 'HEAD');
    // The head loosens it (uncommitted, as a checkout of the PR would hold it).
    writeFiles(ws, { [POLICY]: LOOSE });
    const event = { name: 'pull_request', payload: { pull_request: { number: 7, head: { sha: HEAD_SHA }, base: { sha: base } } } };
    const r = await runAction({ workspace: ws, event });
    expect(r.contentRequests).toEqual([]);
    expect(r.outputs).toMatchObject({ result: 'fail', 'policy-unmet': '2' });
    expect(reportOf(r).policy.source).toMatchObject({ commit: base });
  });
});

describe('findings about the base’s policy file name their commit', () => {
  it('an expired exception in the base’s file: no line of the checkout is annotated; the workflow command, SARIF and the summary name the commit', async () => {
    // The first call's binding, from a run without a policy.
    const probe = await runAction({ workspace: workspace(), event: { name: 'push', payload: { after: HEAD_SHA } } });
    const binding = reportOf(probe).calls[0]?.subject_digest ?? '';
    expect(binding).toMatch(/^sha256:[0-9a-f]{64}$/);
    const withException = `${STRICT}exceptions:\n  - binding: "${binding}"\n    rule: prod-keys\n    reason: INC-1 break-glass\n    owner: "@acme/secops"\n    expires: 2026-11-01\n`;
    // The head's file differs (the exception was renewed there): its lines are not the base's.
    const renewed = withException.replace('2026-11-01', '2027-01-15');
    const r = await runAction({
      workspace: workspace({ [POLICY]: renewed }),
      base: { [POLICY]: withException },
      inputs: { 'sarif-file': 'out.sarif' },
    });
    expect(r.outputs['result']).toBe('fail');
    const expired = reportOf(r).findings.find((f) => f.code === 'exception_expired');
    expect(expired).toMatchObject({ file: POLICY, line: 7, commit: BASE_SHA });
    const annotated = r.requests.flatMap((q) => q.body?.output?.annotations ?? []);
    // Only the change is annotated in the head's file (and its renewal, which applies after merge: the
    // pull request also adds the call's run, so nothing it adds applies now); the base's expired
    // exception is not a line of it.
    expect(annotated.filter((a: { path: string }) => a.path === POLICY).map((a: { title: string }) => a.title)).toEqual([
      'policy_changed',
      'policy_changed',
    ]);
    expect(r.stdout).toMatch(/::error title=exception_expired::.github\/receipt-gate.yml:7:\d+ at commit cccccccccccc: /);
    const sarif = JSON.parse(readFileSync(r.outputs['sarif-file'] ?? '', 'utf8'));
    const run = sarif.runs[0];
    expect(run.results.filter((x: { ruleId: string }) => x.ruleId === 'exception_expired')).toEqual([]);
    expect(run.invocations[0].toolConfigurationNotifications.map((n: { message: { text: string } }) => n.message.text)).toContainEqual(
      expect.stringMatching(new RegExp(`^.github/receipt-gate.yml:7:\\d+ at commit ${BASE_SHA}: `)),
    );
    expect(r.summary).toContain(`https://github.com/acme/agents/blob/${BASE_SHA}/.github/receipt-gate.yml#L7`);
  });
});

describe('a trusted root named by path is read at the base', () => {
  const call = addKey({ claim: 'verified' });
  const exportText = `${JSON.stringify(record('github', 'g1', call))}\n`;
  let real: Awaited<ReturnType<typeof mockSigstore>>;
  let forged: Awaited<ReturnType<typeof mockSigstore>>;
  beforeAll(async () => {
    real = await mockSigstore();
    forged = await mockSigstore();
  });
  const inputs = {
    runs: 'runs',
    audit: 'audit',
    'trusted-root': 'sigstore/root.json',
    'trusted-signer-identities': EXPORT_IDENTITY,
    'require-signed-records': 'true',
  };
  /** A head whose root is the attacker's, and records the attacker's CA signed for the trusted export workflow. */
  const attacked = async () =>
    writeFiles(tempDir(), {
      'runs/r.json': json(surface([call])),
      'audit/a.ndjson': exportText,
      'audit/a.ndjson.sigstore.json': `${JSON.stringify(await forged.attest(statementFor('a.ndjson', Buffer.from(exportText), RECORDS_V1)))}\n`,
      'sigstore/root.json': JSON.stringify(forged.trustedRoot),
    });

  it('a pull request that swaps the root for its own CA gains nothing: the base’s root judges, the change is named', async () => {
    const ws = await attacked();
    // On a push (the head's root is the branch's own), the forged records would verify: the test's premise.
    const push = await runAction({ workspace: ws, inputs, event: { name: 'push', payload: { after: HEAD_SHA } } });
    expect(push.outputs, push.stdout).toMatchObject({ result: 'pass', verified: '1' });
    const r = await runAction({ workspace: ws, inputs, base: { 'sigstore/root.json': JSON.stringify(real.trustedRoot) } });
    expect(r.outputs).toMatchObject({ result: 'fail', verified: '0' });
    const report = reportOf(r);
    expect(report.records[0]).toMatchObject({ outcome: 'untrusted' });
    expect(report.findings.find((f) => f.code === 'policy_changed')?.message).toMatch(
      /this pull request changes trusted-root \(sigstore\/root.json\): trust material is read at the base/,
    );
    expect(r.contentRequests.map((q) => q.url)).toContain(`/repos/acme/agents/contents/sigstore/root.json?ref=${BASE_SHA}`);
    // The report names the root it used by its digest: the base's.
    const canonical = jcs(real.trustedRoot);
    expect(report.policy.identities?.trusted_roots).toEqual([sha256Hex(canonical.ok ? canonical.text : '')]);
  });

  it('a root the base does not have is an error (merge the root first), never the head’s', async () => {
    const r = await runAction({ workspace: await attacked(), inputs });
    expect(r.outputs['result']).toBe('error');
    expect(r.stdout).toMatch(/trusted-root: sigstore\/root.json does not exist at the base commit/);
  });
});

describe('a mistake in a path or value of a trust: section is located at its entry, as on the CLI (docs/policy.md §9, §11)', () => {
  const KEY_FILE = '.github/rg/export.pub.pem';
  const withTrust = (entry: string) => `${LOOSE}trust:\n  ${entry}\n`;
  const keyed = withTrust(`trusted-keys: [${KEY_FILE}]`);
  /** The step's failure as the runner shows it. */
  const failed = (r: ActionRun) => r.stdout.split(/\r?\n/).find((l) => l.startsWith('::error::')) ?? '';

  it('the base’s section naming a link, a folder, a path outside, a file with no PEM key, or giving a bad identity: result=error at the entry’s line and column (a red team)', async () => {
    const pem = testSigner().pem;
    const cases: readonly (readonly [string, Parameters<typeof runAction>[0], RegExp])[] = [
      [
        'a link',
        { workspace: workspace({ [POLICY]: keyed, [KEY_FILE]: pem }), base: { [POLICY]: keyed, [KEY_FILE]: pem }, links: [KEY_FILE] },
        /:7:18: trust\.trusted-keys: \.github\/rg\/export\.pub\.pem is a symbolic link: .*\(at the base commit cccccccccccc\)/,
      ],
      [
        'a folder',
        {
          workspace: workspace({ [POLICY]: withTrust('trusted-keys: [.github/rg]'), [KEY_FILE]: pem }),
          base: { [POLICY]: withTrust('trusted-keys: [.github/rg]'), '.github/rg': '' },
          contentsBody: (file) => (file === '.github/rg' ? [{ type: 'file', name: 'export.pub.pem', path: KEY_FILE }] : undefined),
        },
        /:7:18: trust\.trusted-keys: \.github\/rg at the base commit is a folder, not a file/,
      ],
      [
        'a path outside',
        {
          workspace: workspace({ [POLICY]: withTrust('trusted-keys: [../outside.pem]') }),
          base: { [POLICY]: withTrust('trusted-keys: [../outside.pem]') },
        },
        /:7:18: trust\.trusted-keys: \.\.\/outside\.pem is outside the repository/,
      ],
      [
        'no PEM key',
        { workspace: workspace({ [POLICY]: keyed, [KEY_FILE]: pem }), base: { [POLICY]: keyed, [KEY_FILE]: 'not a pem\n' } },
        /:7:18: trust\.trusted-keys \.github\/rg\/export\.pub\.pem: no PEM "PUBLIC KEY" block/,
      ],
      [
        'a bad identity',
        {
          workspace: workspace({ [POLICY]: withTrust('trusted-signer-identities: [not-a-uri]') }),
          base: { [POLICY]: withTrust('trusted-signer-identities: [not-a-uri]') },
        },
        /:7:31: trust\.trusted-signer-identities: "not-a-uri" is not a workflow identity/,
      ],
    ];
    for (const [what, options, message] of cases) {
      const r = await runAction(options);
      expect(r.outputs['result'], what).toBe('error');
      expect(failed(r), what).toMatch(/^::error::receipt-gate: invalid input \.github\/receipt-gate\.yml:7:\d+: trust\./);
      expect(failed(r), what).toMatch(message);
    }
  });

  it('read with git at a base in the clone, a folder there is located the same way', async () => {
    const ws = workspace({ [POLICY]: withTrust('trusted-keys: [.github/rg]'), [KEY_FILE]: testSigner().pem });
    const base = checkout(ws);
    const event = { name: 'pull_request', payload: { pull_request: { number: 7, head: { sha: HEAD_SHA }, base: { sha: base } } } };
    const r = await runAction({ workspace: ws, event });
    expect(r.outputs['result']).toBe('error');
    expect(failed(r)).toMatch(
      new RegExp(
        `receipt-gate: invalid input \\.github/receipt-gate\\.yml:7:18: trust\\.trusted-keys: \\.github/rg at the base commit ${base.slice(0, 12)}: \\.github/rg at ${base.slice(0, 12)} is a tree, not a file`,
      ),
    );
    expect(r.contentRequests).toEqual([]);
  });

  it('a pull request whose own section names a folder or a path outside, or that makes the base’s key file a link, fails with policy_invalid at the entry: the base’s trust still judges (a red team: each was a configuration error naming no line)', async () => {
    const pem = testSigner().pem;
    for (const [entry, message] of [
      ['trusted-keys: [.github/rg]', /^trust\.trusted-keys: \.github\/rg: not a regular file; not read.*it must be valid to merge/],
      [
        'trusted-producers: [../outside.pem]',
        /^trust\.trusted-producers: \.\.\/outside\.pem is outside the repository.*it must be valid to merge/,
      ],
    ] as const) {
      const r = await runAction({ workspace: workspace({ [POLICY]: withTrust(entry), [KEY_FILE]: pem }), base: { [POLICY]: LOOSE } });
      expect(r.outputs['result'], entry).toBe('fail');
      const invalid = reportOf(r).findings.find((f) => f.code === 'policy_invalid');
      expect(invalid, entry).toMatchObject({
        severity: 'error',
        file: POLICY,
        line: 7,
        column: entry.startsWith('trusted-keys') ? 18 : 23,
      });
      expect(invalid?.message, entry).toMatch(message);
    }
    // The base's key file replaced by a link in the checkout: the base's key is in effect; the change is shown, and invalid to merge.
    const ws = workspace({ [POLICY]: keyed, '.github/rg/real.pem': pem });
    symlinkSync('real.pem', path.join(ws, KEY_FILE));
    const linked = await runAction({ workspace: ws, base: { [POLICY]: keyed, [KEY_FILE]: pem } });
    expect(linked.outputs['result']).toBe('fail');
    const report = reportOf(linked);
    expect(report.policy.trusted_signers).toHaveLength(1);
    expect(report.findings.find((f) => f.code === 'policy_invalid')).toMatchObject({ file: POLICY, line: 7, column: 18 });
    expect(report.findings.find((f) => f.code === 'policy_invalid')?.message).toMatch(
      /^trust\.trusted-keys: \.github\/rg\/export\.pub\.pem is a symbolic link.*it must be valid to merge/,
    );
    expect(report.findings.find((f) => f.code === 'policy_changed' && f.file === KEY_FILE)?.severity).toBe('warning');
  });
});

describe('workflow_run (the fork recipe): the policy is read at the base of the pull request that triggered the run', () => {
  const runEvent = (pulls: unknown[]) => ({
    name: 'workflow_run',
    payload: {
      workflow_run: { event: 'pull_request', head_sha: HEAD_SHA, pull_requests: pulls },
      repository: { id: 4242, default_branch: 'main' },
    },
  });

  it('a fork’s pull request that loosens the policy never gets a green check: the base’s policy (the default branch’s commit) applies', async () => {
    // A fork's run lists no pull request: the base is the default branch's commit the run started on (GITHUB_SHA).
    const r = await runAction({ workspace: workspace({ [POLICY]: LOOSE }), base: { [POLICY]: STRICT }, event: runEvent([]) });
    expect(r.outputs['result']).toBe('fail');
    expect(r.contentRequests[0]?.url).toBe(`/repos/acme/agents/contents/.github/receipt-gate.yml?ref=${'b'.repeat(40)}`);
    expect(reportOf(r).findings.find((f) => f.code === 'policy_changed')?.severity).toBe('warning');
  });

  it('a pull request of the same repository: its base commit, from the run’s pull_requests', async () => {
    const r = await runAction({
      workspace: workspace({ [POLICY]: LOOSE }),
      base: { [POLICY]: STRICT },
      event: runEvent([{ number: 7, head: { sha: HEAD_SHA }, base: { sha: BASE_SHA, repo: { id: 4242 } } }]),
    });
    expect(r.outputs['result']).toBe('fail');
    expect(r.contentRequests[0]?.url).toBe(`/repos/acme/agents/contents/.github/receipt-gate.yml?ref=${BASE_SHA}`);
  });

  it('a listed pull request into another repository (a fork’s own, whose base commit its author wrote) is not the base: the default branch’s commit is', async () => {
    const forkBase = 'f'.repeat(40);
    for (const pulls of [
      [{ number: 3, head: { sha: HEAD_SHA }, base: { sha: forkBase, repo: { id: 999 } } }],
      [{ number: 3, head: { sha: HEAD_SHA }, base: { sha: forkBase } }],
      [{ number: 3, head: { sha: HEAD_SHA }, base: { sha: forkBase, repo: { id: '4242' } } }],
      // This repository's, but its head is not the run's (another pull request from a branch of that name).
      [{ number: 3, head: { sha: 'e'.repeat(40) }, base: { sha: forkBase, repo: { id: 4242 } } }],
    ]) {
      const r = await runAction({ workspace: workspace({ [POLICY]: LOOSE }), base: { [POLICY]: STRICT }, event: runEvent(pulls) });
      expect(r.outputs['result']).toBe('fail');
      expect(r.contentRequests[0]?.url).toBe(`/repos/acme/agents/contents/.github/receipt-gate.yml?ref=${'b'.repeat(40)}`);
    }
    // Listed after a fork's own, this repository's pull request is found.
    const r = await runAction({
      workspace: workspace({ [POLICY]: LOOSE }),
      base: { [POLICY]: STRICT },
      event: runEvent([
        { number: 3, head: { sha: HEAD_SHA }, base: { sha: forkBase, repo: { id: 999 } } },
        { number: 7, head: { sha: HEAD_SHA }, base: { sha: BASE_SHA, repo: { id: 4242 } } },
      ]),
    });
    expect(r.contentRequests[0]?.url).toBe(`/repos/acme/agents/contents/.github/receipt-gate.yml?ref=${BASE_SHA}`);
  });
});
