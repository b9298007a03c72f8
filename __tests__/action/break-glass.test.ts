/**
 * The break-glass path (issue 40; docs/policy.md §10): a call that already fails on the default
 * branch makes every pull request red, the one adding its exception included. The exceptions and
 * grandfathered entries a pull request adds apply in that pull request to run files present with the
 * same bytes at the base (git blob ids, through git or one tree request), never to what it adds or
 * changes; when the base tree cannot be compared nothing of the head applies, and the PR says why.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.js';
import { type ActionRun, checkout, HEAD_SHA, runAction } from '../support/action-harness.js';
import { addKey, deployKey, json, ndjson, record, signedFailingCorpus, surface, testSigner } from '../support/corpus.js';
import { POLICY, STRICT } from '../support/policies.js';
import { cleanup, tempDir, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

const RUN = '.assay/runs/2026-11-28-bypass.json';
const bypass = addKey({ target: deployKey({ owner: 'acme', repo: 'prod-api', title: 'break-glass' }) });
const runText = json(surface([bypass]));
const reportOf = (r: ActionRun): Report => JSON.parse(readFileSync(r.outputs['report-file'] ?? '', 'utf8')) as Report;
const PUSH = { name: 'push', payload: { after: HEAD_SHA } };

/** The call's binding, as the report names it (what an exception is keyed by). */
async function bindingOf(): Promise<string> {
  const probe = await runAction({ workspace: writeFiles(tempDir(), { [RUN]: runText }), event: PUSH });
  return reportOf(probe).calls[0]?.subject_digest ?? '';
}
const withException = (binding: string) =>
  `${STRICT}exceptions:\n  - binding: "${binding}"\n    rule: prod-keys\n    reason: INC-4312 break-glass key added by hand\n    owner: "@acme/secops"\n    expires: 2027-02-01\n`;

describe('exceptions a pull request adds apply now to what is already on the base', () => {
  it('the exception PR for a call already failing on main passes (contents API and one tree request); the finding says it applies now', async () => {
    const binding = await bindingOf();
    // On main the call fails: every pull request is red.
    const red = await runAction({
      workspace: writeFiles(tempDir(), { [RUN]: runText, [POLICY]: STRICT }),
      base: { [POLICY]: STRICT, [RUN]: runText },
    });
    expect(red.outputs['result']).toBe('fail');
    const r = await runAction({
      workspace: writeFiles(tempDir(), { [RUN]: runText, [POLICY]: withException(binding) }),
      base: { [POLICY]: STRICT, [RUN]: runText },
    });
    expect(r.outputs['result']).toBe('pass');
    const excepted = reportOf(r).findings.find((f) => f.code === 'policy_excepted');
    expect(excepted?.message).toMatch(
      /added by this pull request, it applies now: it excuses a call already on the base with the same bytes/,
    );
    expect(r.summary).toMatch(/it applies now/);
    expect(r.contentRequests.filter((q) => q.url.includes('/git/trees/'))).toHaveLength(1);
    // What it applies now is measured from the base's own policy: a loosening a reviewer approves (a red team: a quiet notice, "no call changes verdict").
    const changed = reportOf(r).findings.find((f) => f.code === 'policy_changed');
    expect(changed?.severity).toBe('warning');
    expect(changed?.message).toMatch(
      /the exceptions and grandfathered entries it adds apply now to what the base already holds; its effect on this corpus: 1 call\(s\) of prod-keys: under the base's policy: unmet; under this pull request's policy: excepted; it loosens the policy: a reviewer must approve it/,
    );
    expect(r.outputs['result']).toBe('pass');
  });

  it('an exception added beside a loosened rule does not hide the loosening (a red team: the rule turned to asserted said "under the base: excepted")', async () => {
    const binding = await bindingOf();
    const r = await runAction({
      workspace: writeFiles(tempDir(), {
        [RUN]: runText,
        [POLICY]: withException(binding).replace('require: verified', 'require: asserted'),
      }),
      base: { [POLICY]: STRICT, [RUN]: runText },
    });
    const changed = reportOf(r).findings.find((f) => f.code === 'policy_changed');
    expect(changed?.severity).toBe('warning');
    expect(changed?.message).toMatch(/under the base's policy: unmet; under this pull request's policy: met; it loosens the policy/);
  });

  it('never to a call the pull request adds, or to a run file whose bytes differ from the base’s: a pull request that moves evidence has nothing applied now', async () => {
    const binding = await bindingOf();
    const added = await runAction({
      workspace: writeFiles(tempDir(), { [RUN]: runText, [POLICY]: withException(binding) }),
      base: { [POLICY]: STRICT },
    });
    expect(added.outputs['result']).toBe('fail');
    // A pull request that adds a run carries more than its policy: nothing it adds applies now.
    expect(reportOf(added).findings.find((f) => f.code === 'policy_changed' && /none applies now/.test(f.message))?.message).toMatch(
      /none applies now: this pull request also adds or changes \.assay\/runs\/2026-11-28-bypass\.json .*they apply after merge/,
    );
    const changed = await runAction({
      workspace: writeFiles(tempDir(), { [RUN]: `${runText}\n`, [POLICY]: withException(binding) }),
      base: { [POLICY]: STRICT, [RUN]: runText },
    });
    expect(changed.outputs['result']).toBe('fail');
  });

  it('never when it adds an attestation the gate reads, beside a run or an export (a red team: a Sigstore bundle or a DSSE envelope added with the exception)', async () => {
    const binding = await bindingOf();
    for (const sidecar of [`${RUN}.sigstore.json`, '.assay/runs/orphan.json.intoto.jsonl']) {
      const r = await runAction({
        workspace: writeFiles(tempDir(), { [RUN]: runText, [POLICY]: withException(binding), [sidecar]: '{}\n' }),
        base: { [POLICY]: STRICT, [RUN]: runText },
      });
      expect(r.outputs['result'], sidecar).toBe('fail');
      const changed = reportOf(r).findings.find((f) => f.code === 'policy_changed' && /none applies now/.test(f.message));
      expect(changed?.message).toContain(
        `this pull request also adds or changes ${sidecar} (a break-glass pull request carries its policy alone`,
      );
    }
  });

  it('never when the pull request changes or deletes an audit export the base holds: the failure it excuses could be its own (a red team: a record deleted, its call excused)', async () => {
    const binding = await bindingOf();
    const AUDIT = '.assay/audit/github/2026-11.ndjson';
    const exported = ndjson([record('github', 'gh-1', bypass)]);
    // On main the call is verified by its record: green.
    const green = await runAction({
      workspace: writeFiles(tempDir(), { [RUN]: runText, [POLICY]: STRICT, [AUDIT]: exported }),
      base: { [POLICY]: STRICT, [RUN]: runText, [AUDIT]: exported },
    });
    expect(green.outputs['result']).toBe('pass');
    for (const head of [{ [AUDIT]: '' }, {}] as Record<string, string>[]) {
      const r = await runAction({
        workspace: writeFiles(tempDir(), { [RUN]: runText, [POLICY]: withException(binding), ...head }),
        base: { [POLICY]: STRICT, [RUN]: runText, [AUDIT]: exported },
      });
      expect(r.outputs['result']).toBe('fail');
      const changed = reportOf(r).findings.find((f) => f.code === 'policy_changed' && /none applies now/.test(f.message));
      expect(changed?.message).toMatch(
        /this pull request also (adds or changes|changes, deletes or renames) \.assay\/audit\/github\/2026-11\.ndjson \(a break-glass pull request carries its policy alone/,
      );
    }
  });

  it('never when it edits a workflow (the inputs that name the exports), nor when it adds a run that could take a base call’s record; a standing exclusion of the base blocks nothing (red teams on the fix)', async () => {
    const binding = await bindingOf();
    const AUDIT = '.assay/audit/github/2026-11.ndjson';
    const exported = ndjson([record('github', 'gh-1', bypass)]);
    const WORKFLOW = '.github/workflows/receipts.yml';
    const base = {
      [POLICY]: STRICT,
      [RUN]: runText,
      [AUDIT]: exported,
      [WORKFLOW]: 'audit: .assay/audit\n',
      '.assay/audit/drafts/wip.ndjson': '',
    };
    const head = { [RUN]: runText, [POLICY]: withException(binding), [AUDIT]: exported, '.assay/audit/drafts/wip.ndjson': '' };
    // The workflow edited to stop reading the export (a file list, or a `!` input): nothing applies now.
    const narrowed = await runAction({
      workspace: writeFiles(tempDir(), { ...head, [WORKFLOW]: 'audit: .assay/audit/drafts\n' }),
      base,
      inputs: { audit: '.assay/audit/drafts' },
    });
    expect(narrowed.outputs['result']).toBe('fail');
    expect(
      reportOf(narrowed)
        .findings.map((f) => f.message)
        .join('\n'),
    ).toMatch(/also changes, deletes or renames \.github\/workflows\/receipts\.yml/);
    // The base's own exclusion, unchanged: the exception applies now.
    const standing = await runAction({
      workspace: writeFiles(tempDir(), { ...head, [WORKFLOW]: 'audit: .assay/audit\n' }),
      base,
      inputs: { audit: '.assay/audit\n!.assay/audit/drafts/**' },
    });
    const said = (r: ActionRun) =>
      reportOf(r)
        .findings.map((f) => f.message)
        .join('\n');
    expect(said(standing)).not.toMatch(/none applies now/);
    // A composite action below .github/ names the inputs as a workflow does (a red team on the fix).
    const composite = await runAction({
      workspace: writeFiles(tempDir(), { ...head, [WORKFLOW]: 'audit: .assay/audit\n', '.github/actions/gate/action.yml': 'audit: x\n' }),
      base: { ...base, '.github/actions/gate/action.yml': 'audit: .assay/audit\n' },
    });
    expect(said(composite)).toMatch(/also changes, deletes or renames \.github\/actions\/gate\/action\.yml/);
    // What does not name or hold evidence blocks nothing: a helper folder below workflows, a package.json (red teams on the fix).
    const unrelated = await runAction({
      workspace: writeFiles(tempDir(), {
        ...head,
        [WORKFLOW]: 'audit: .assay/audit\n',
        '.github/workflows/scripts/helper.sh': 'echo\n',
        'package.json': '{"version":"2"}\n',
      }),
      base: { ...base, '.github/workflows/scripts/helper.sh': 'echo\n', 'package.json': '{"version":"1"}\n' },
    });
    expect(said(unrelated)).not.toMatch(/none applies now/);
    const taker = await runAction({
      workspace: writeFiles(tempDir(), {
        [RUN]: runText,
        '.assay/runs/2026-12-09-new.json': runText,
        [POLICY]: withException(binding),
        [AUDIT]: exported,
      }),
      base: { [POLICY]: STRICT, [RUN]: runText, [AUDIT]: exported },
    });
    expect(taker.outputs['result']).toBe('fail');
    expect(
      reportOf(taker)
        .findings.map((f) => f.message)
        .join('\n'),
    ).toMatch(/also adds or changes \.assay\/runs\/2026-12-09-new\.json/);
  });

  it('a grandfathered entry the pull request adds applies now to a run on the base with the same bytes', async () => {
    const sha256 = (await import('node:crypto')).createHash('sha256').update(runText).digest('hex');
    const grandfather = `${STRICT}grandfathered:\n  - run: ${RUN}\n    sha256: "${sha256}"\n    reason: before the export existed\n`;
    const r = await runAction({
      workspace: writeFiles(tempDir(), { [RUN]: runText, [POLICY]: grandfather }),
      base: { [POLICY]: STRICT, [RUN]: runText },
    });
    expect(r.outputs['result']).toBe('pass');
    expect(reportOf(r).totals.grandfathered).toBe(1);
  });

  it('through git when the base commit is in the clone: no API request', async () => {
    const binding = await bindingOf();
    const ws = writeFiles(tempDir(), { [RUN]: runText, [POLICY]: STRICT });
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: ws, encoding: 'utf8' }).trim();
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'main, with the failing call');
    const base = git('rev-parse', 'HEAD');
    writeFiles(ws, { [POLICY]: withException(binding) });
    const event = { name: 'pull_request', payload: { pull_request: { number: 8, head: { sha: HEAD_SHA }, base: { sha: base } } } };
    const r = await runAction({ workspace: ws, event });
    expect(r.contentRequests).toEqual([]);
    expect(r.outputs['result']).toBe('pass');
  });

  it('never when it changes how blobs are checked out: a `.gitattributes` added, changed or deleted anywhere (a red team: `ident` rewrote a run whose blob id matched the base’s)', async () => {
    const binding = await bindingOf();
    for (const [where, before, after] of [
      ['.gitattributes', null, '*.json ident\n'],
      ['.assay/.gitattributes', '*.md text\n', '*.json ident\n'],
      ['.gitattributes', '*.md text\n', null],
    ] as const) {
      const ws = writeFiles(tempDir(), { [RUN]: runText, [POLICY]: STRICT, ...(before === null ? {} : { [where]: before }) });
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: ws, encoding: 'utf8' }).trim();
      git('init', '-q');
      git('add', '-A');
      git('commit', '-qm', 'main, with the failing call');
      const base = git('rev-parse', 'HEAD');
      writeFiles(ws, { [POLICY]: withException(binding), ...(after === null ? {} : { [where]: after }) });
      if (after === null) git('rm', '-q', where);
      git('add', '-A');
      git('commit', '-qm', 'the exception, and attributes');
      const event = { name: 'pull_request', payload: { pull_request: { number: 8, head: { sha: HEAD_SHA }, base: { sha: base } } } };
      const r = await runAction({ workspace: ws, event });
      expect(r.outputs['result'], `${where} ${after}`).toBe('fail');
      expect(
        reportOf(r)
          .findings.map((f) => f.message)
          .join('\n'),
      ).toMatch(after === null || before !== null ? /changes, deletes or renames \S*\.gitattributes/ : /adds \.gitattributes/);
    }
  });

  it('when the base tree cannot be compared (a truncated answer), nothing of the head applies, and the pull request says why', async () => {
    const binding = await bindingOf();
    const r = await runAction({
      workspace: writeFiles(tempDir(), { [RUN]: runText, [POLICY]: withException(binding) }),
      base: { [POLICY]: STRICT, [RUN]: runText },
      treeTruncated: true,
    });
    expect(r.outputs['result']).toBe('fail');
    expect(
      reportOf(r)
        .findings.map((f) => f.message)
        .join('\n'),
    ).toMatch(/none applies now: the base commit's files could not be compared \(the base tree is larger than one API answer/);
  });
});

describe('trust written in the policy file, read at the base (docs/policy.md §9)', () => {
  const KEY = '.github/receipt-gate/export.pub.pem';
  it('the key file is read at the base: a pull request that swaps it, or loosens trust, changes nothing now and is told so (a warning)', async () => {
    const { signed, record, testSigner, seededKey } = await import('../support/corpus.js');
    const signer = testSigner();
    const audit = { '.assay/audit/r.ndjson': `${JSON.stringify(signed(record('github', 'r1', bypass), signer))}\n` };
    const policy = `${STRICT}trust:\n  trusted-keys: [${KEY}]\n  require-signed-records: true\n`;
    const base = { [POLICY]: policy, [KEY]: signer.pem };
    const same = await runAction({ workspace: writeFiles(tempDir(), { [RUN]: runText, ...audit, ...base }), base });
    expect(same.outputs['result'], JSON.stringify(reportOf(same).findings.map((f) => [f.code, f.severity, f.message.slice(0, 100)]))).toBe(
      'pass',
    );
    // The head swaps the key for its own: the base's still decides, and the record is still trusted by it.
    const swapped = await runAction({
      workspace: writeFiles(tempDir(), { [RUN]: runText, ...audit, ...base, [KEY]: seededKey(4).pem }),
      base,
    });
    expect(swapped.outputs['result']).toBe('pass');
    expect(reportOf(swapped).records[0]?.outcome).toBe('bound');
    // New bytes at the trusted path trust what they hold once merged: a warning, never a notice (a red team).
    expect(
      reportOf(swapped).findings.find((f) => f.code === 'policy_changed' && f.severity === 'warning' && f.file === KEY)?.message,
    ).toMatch(/changes .*export\.pub\.pem, which the policy's trust: section names.*a reviewer must approve it/);
    // Every key dropped (signed records then go unchecked), or another issuer trusted: warnings too.
    for (const [head, why] of [
      [
        `${STRICT}trust:\n  mode: enforce\n`,
        /loosens trust .*require-signed-records turned off; trusted-keys removes \.github\/receipt-gate\/export\.pub\.pem/,
      ],
      [
        `${policy}  certificate-oidc-issuer: https://accounts.google.com\n`,
        /loosens trust .*certificate-oidc-issuer \(the default\) → https:\/\/accounts\.google\.com/,
      ],
    ] as const) {
      const r = await runAction({ workspace: writeFiles(tempDir(), { [RUN]: runText, ...audit, ...base, [POLICY]: head }), base });
      expect(reportOf(r).findings.find((f) => f.code === 'policy_changed' && f.severity === 'warning')?.message, head).toMatch(why);
    }
    // The head turns require-signed-records off: a warning, first among the annotations.
    const looser = policy.replace('  require-signed-records: true\n', '');
    const loosened = await runAction({ workspace: writeFiles(tempDir(), { [RUN]: runText, ...audit, ...base, [POLICY]: looser }), base });
    const warning = reportOf(loosened).findings.find((f) => f.code === 'policy_changed' && f.severity === 'warning');
    expect(warning?.message).toMatch(/loosens trust .*require-signed-records turned off/);
    // Its effect is measured under the base's trust, and says so: never "no change" for a trust change (a red team).
    for (const f of reportOf(loosened).findings.filter((x) => x.code === 'policy_changed' && x.file === POLICY))
      expect(f.message).toMatch(/its effect on this corpus under the base's trust \(its trust: section changes too/);
    expect(reportOf(swapped).findings.find((f) => f.code === 'policy_changed' && f.file === POLICY)).toBeUndefined();
    // An action input beside the base's trust: section is a configuration error.
    const both = await runAction({
      workspace: writeFiles(tempDir(), { [RUN]: runText, ...audit, ...base }),
      base,
      inputs: { 'require-signed-records': 'true', 'trusted-keys': signer.pem },
    });
    expect(both.outputs['result']).toBe('error');
    expect(both.stdout).toMatch(
      /trusted-keys, require-signed-records given, and the policy file .github\/receipt-gate.yml at commit c{12} has a trust: section/,
    );
  });
});

describe('a grandfathered audit file the pull request adds (a red team, this stop)', () => {
  const AUDIT = '.assay/audit/github/2026-12.ndjson';
  const files = Object.fromEntries(signedFailingCorpus()) as Record<string, string>;
  const auditText = files[AUDIT] ?? '';
  const trust = 'version: 1\ndefault: asserted\ntrust:\n  trusted-keys: [.github/export.pub.pem]\n  require-signed-records: true\n';
  const glass = `${trust}grandfathered:\n  - audit: ${AUDIT}\n    sha256: ${createHash('sha256').update(auditText).digest('hex')}\n    reason: legacy export before signing\n`;
  const head = (policy: string) =>
    writeFiles(tempDir(), { ...files, [POLICY]: policy, '.github/export.pub.pem': files['trusted-signer.pub.pem'] ?? '' });
  const base = (withRun: boolean) => ({
    [POLICY]: trust,
    '.github/export.pub.pem': files['trusted-signer.pub.pem'] ?? '',
    [AUDIT]: auditText,
    ...(withRun ? { '.assay/runs/2026-12-02-incident.json': files['.assay/runs/2026-12-02-incident.json'] ?? '' } : {}),
  });

  it('its untrusted records never verify a call the pull request adds: they stay record_untrusted and the gate fails', async () => {
    const without = await runAction({ workspace: head(trust), base: base(false) });
    expect(without.outputs['result']).toBe('fail');
    const r = await runAction({ workspace: head(glass), base: base(false) });
    expect(r.outputs['result']).toBe('fail');
    const report = reportOf(r);
    expect(report.findings.filter((f) => f.code === 'record_untrusted')).toHaveLength(2);
    expect(report.calls.filter((c) => c.level === 'verified')).toHaveLength(1);
  });

  it('several untrusted records of one subject: none verifies the call the pull request adds (each is held, not the next one taken)', async () => {
    const call = addKey({ target: deployKey({ owner: 'acme', repo: 'prod-api', title: 'k-pr' }), claim: 'verified' });
    const audit = ndjson(['r1', 'r2', 'r3'].map((id) => record('github', id, call)));
    const key = files['trusted-signer.pub.pem'] ?? '';
    const pinnedPolicy = `${trust}grandfathered:\n  - audit: ${AUDIT}\n    sha256: ${createHash('sha256').update(audit).digest('hex')}\n    reason: legacy\n`;
    const r = await runAction({
      workspace: writeFiles(tempDir(), {
        [AUDIT]: audit,
        '.assay/runs/pr.json': json(surface([call])),
        [POLICY]: pinnedPolicy,
        '.github/export.pub.pem': key,
      }),
      base: { [POLICY]: trust, '.github/export.pub.pem': key, [AUDIT]: audit },
    });
    expect(r.outputs['result']).toBe('fail');
    const report = reportOf(r);
    expect(report.calls[0]?.level).toBe('asserted');
    expect(report.records.map((x) => x.outcome)).toEqual(['untrusted', 'untrusted', 'untrusted']);
  });

  it('on calls of a run already on the base with the same bytes it applies now: those records bind, trust not asked', async () => {
    const r = await runAction({ workspace: head(glass), base: base(true) });
    const report = reportOf(r);
    expect(report.findings.filter((f) => f.code === 'record_untrusted')).toHaveLength(0);
    expect(report.calls.filter((c) => c.level === 'verified')).toHaveLength(3);
    // Records that fail under the base's own policy and pass now: a loosening of trust, a warning (a red team: "no call changes verdict").
    const changed = report.findings.find((f) => f.code === 'policy_changed');
    expect(changed?.severity).toBe('warning');
    expect(changed?.message).toMatch(
      /\d+ record\(s\): under the base's policy: record_untrusted; under this pull request's policy: passes/,
    );
    expect(changed?.message).toMatch(/it loosens the policy: a reviewer must approve it/);
  });
});

describe('a grandfathered audit file already in the base’s policy (a red team: a replayed call took its unsigned record and met a verified rule)', () => {
  const AUDIT = '.assay/audit/github/2025-legacy.ndjson';
  const OLD = '.assay/runs/2025-old.json';
  const call = (claim: 'asserted' | 'verified') =>
    addKey({ target: deployKey({ owner: 'acme', repo: 'prod-api', title: 'legacy' }), claim });
  const audit = ndjson([record('github', 'r-legacy', call('asserted'))]);
  const oldRun = json(surface([call('asserted')]));
  const signer = testSigner();
  const sha = (t: string) => createHash('sha256').update(t).digest('hex');
  const policy = `version: 1
rules:
  - name: prod-keys
    match: {class: github_deploy_key, target: {repo: [prod-*]}}
    require: verified
trust:
  trusted-keys: [.github/export.pub.pem]
  require-signed-records: true
grandfathered:
  - audit: ${AUDIT}
    sha256: ${sha(audit)}
    reason: exports before signing
`;
  const base = { [POLICY]: policy, '.github/export.pub.pem': signer.pem, [AUDIT]: audit, [OLD]: oldRun };

  it('its records bind the base’s runs as before, never a call the pull request adds', async () => {
    // The base as it is: the old call is verified by the record whose trust is not asked.
    const same = await runAction({ workspace: writeFiles(tempDir(), base), base });
    expect(same.outputs['result'], JSON.stringify(reportOf(same).findings.map((f) => [f.code, f.severity, f.message.slice(0, 100)]))).toBe(
      'pass',
    );
    expect(reportOf(same).calls.map((c) => c.level)).toEqual(['verified']);
    // A pull request adds a run replaying the subject, claiming verified: it never takes the record.
    const replay = await runAction({
      workspace: writeFiles(tempDir(), { ...base, '.assay/runs/2026-new.json': json(surface([call('verified')])) }),
      base,
    });
    expect(replay.outputs['result']).toBe('fail');
    const report = reportOf(replay);
    const added = report.calls.find((c) => c.artifact === '.assay/runs/2026-new.json');
    expect(added?.level).not.toBe('verified');
    expect(report.totals.policy_unmet).toBeGreaterThan(0);
  });

  // A red team's: under trust mode warn the held record was a warning, the pull request merged, and on main the record verified the call it added.
  it('a record held from a call the pull request adds is an error under trust mode warn too (history_only): a replay is no rollout gap', async () => {
    // The base's record binds no call of the base (it waits, unmatched and allowed): the pull request's run would be its first.
    const warn = {
      [POLICY]: policy.replace('  require-signed-records: true\n', '  require-signed-records: true\n  mode: warn\n'),
      '.github/export.pub.pem': signer.pem,
      [AUDIT]: audit,
    };
    expect(warn[POLICY]).not.toBe(policy);
    const replay = await runAction({
      workspace: writeFiles(tempDir(), { ...warn, '.assay/runs/2026-new.json': json(surface([call('asserted')])) }),
      base: warn,
      inputs: { 'allow-unmatched-records': 'true' },
    });
    expect(replay.outputs['result']).toBe('fail');
    const report = reportOf(replay);
    const held = report.records.find((r) => r.untrusted_code === 'history_only');
    expect(held?.file).toBe(AUDIT);
    const finding = report.findings.find((f) => f.code === 'record_untrusted' && f.file === AUDIT);
    expect(finding?.severity).toBe('error');
    expect(finding?.message).toMatch(
      /bind only calls of runs the base holds with the same bytes, and this one would bind a call the pull request adds or changes/,
    );
    expect(finding?.message).not.toMatch(/would fail under enforce/);
  });

  // A red team's false red: with the project in a folder of the clone, the base tree's paths were joined to the folder, and nothing was unchanged.
  it('with the workspace a folder of the clone, the base’s runs still take its records', async () => {
    const clone = tempDir();
    const proj = `${clone}/proj`;
    writeFiles(proj, base);
    const baseSha = checkout(clone);
    writeFiles(clone, { 'README.md': 'docs\n' });
    const headSha = checkout(clone);
    const event = { name: 'pull_request', payload: { pull_request: { number: 7, head: { sha: headSha }, base: { sha: baseSha } } } };
    const r = await runAction({ workspace: proj, event, env: { GITHUB_SHA: headSha } });
    expect(r.outputs['result']).toBe('pass');
    expect(reportOf(r).calls.map((c) => c.level)).toEqual(['verified']);
  });

  it('when the base’s files cannot be compared, its records bind no call of the pull request, and a warning says why', async () => {
    const r = await runAction({ workspace: writeFiles(tempDir(), base), base, treeStatus: 500 });
    expect(r.outputs['result']).toBe('fail');
    const warning = reportOf(r).findings.find((f) => f.code === 'policy_changed' && f.severity === 'warning');
    expect(warning?.message).toMatch(
      /grandfathered audit file\(s\) of the base's policy bind no call of this pull request: the base commit's files could not be compared/,
    );
  });
});
