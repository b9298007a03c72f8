/**
 * A team's week on a repository under branch protection (issue 40): every pull request is judged
 * under the base's policy and trust; the agent's run and the export that verifies it merge in
 * either order; a call that fell due on main is excused by an exception pull request that can merge;
 * trust is rolled out warn → baseline → enforce on a history of unattested runs; a fork's pull
 * request that loosens the policy never gets a green check. Git repositories and a loopback GitHub.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.js';
import { type ActionRun, HEAD_SHA, runAction } from '../support/action-harness.js';
import { addKey, coverageStatement, deployKey, ndjson, record, serverLog } from '../support/corpus.js';
import { mockSigstore, RUN_V1, statementFor } from '../support/sigstore.js';
import { cleanup, cli, tempDir, writeFiles } from '../support/workspace.js';

afterAll(cleanup);

let sigstore: Awaited<ReturnType<typeof mockSigstore>>;
beforeAll(async () => {
  sigstore = await mockSigstore();
});
/** A run log and its attestation by the agent workflow (what examples/agent-run.yml delivers). */
async function attestedRun(name: string, log: string): Promise<Record<string, string>> {
  const bundle = await sigstore.attest(statementFor(path.basename(name), Buffer.from(log), RUN_V1), { san: AGENT_RUN });
  return { [name]: log, [`${name}.sigstore.json`]: `${JSON.stringify(bundle)}\n` };
}

const POLICY = '.github/receipt-gate.yml';
const RULES = `version: 1
default: asserted
pending: 2d
rules:
  - name: prod-keys
    match: {class: github_deploy_key, verb: create, target: {repo: [prod-*]}}
    require: verified
`;
const AGENT_RUN = 'https://github.com/acme/agents/.github/workflows/agent-run.yml@refs/heads/main';
const ROOT_FILE = '.github/receipt-gate/trusted-root.jsonl';
const TRUST = (mode: string) =>
  `trust:\n  mode: ${mode}\n  trusted-producer-identities: [${AGENT_RUN}]\n  require-attested-runs: true\n  trusted-root: ${ROOT_FILE}\n`;
const key = (title: string) => addKey({ target: deployKey({ owner: 'acme', repo: 'prod-api', title }) });
const reportOf = (r: ActionRun): Report => JSON.parse(readFileSync(r.outputs['report-file'] ?? '', 'utf8')) as Report;

describe('a team’s week', () => {
  const repo = tempDir();
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo, encoding: 'utf8' }).trim();
  const commit = (message: string) => {
    git('add', '-A');
    git('commit', '-qm', message);
    return git('rev-parse', 'HEAD');
  };
  /** A pull request: its files on a branch off main, judged by the action at the merge (the checkout) against main. */
  async function pullRequest(files: Record<string, string>, now: string, event: 'pull_request' | 'workflow_run' = 'pull_request') {
    const base = git('rev-parse', 'main');
    git('switch', '-q', '-c', `pr-${Date.now()}`);
    writeFiles(repo, files);
    commit('the pull request');
    const payload =
      event === 'pull_request'
        ? { pull_request: { number: 9, head: { sha: HEAD_SHA }, base: { sha: base } } }
        : { workflow_run: { event: 'pull_request', head_sha: HEAD_SHA, pull_requests: [] } };
    const r = await runAction({ workspace: repo, event: { name: event, payload }, now: new Date(now), env: { GITHUB_SHA: base } });
    return { r, branch: git('rev-parse', '--abbrev-ref', 'HEAD') };
  }
  const mergeInto = (branch: string) => {
    git('switch', '-q', 'main');
    git('merge', '-q', '--no-edit', branch);
  };
  const drop = (branch: string) => {
    git('switch', '-q', 'main');
    git('branch', '-q', '-D', branch);
  };
  const onMain = async (now: string, ...extra: string[]) => {
    const r = await cli(['verify', '-C', repo, '--format', 'json', '--now', now, '--source-repository', 'acme/agents', ...extra], repo);
    return { code: r.code, report: JSON.parse(r.stdout || '{}') as Report, stderr: r.stderr };
  };

  it('Monday: trust is rolled out on a history of unattested runs, warn → baseline → enforce', async () => {
    git('init', '-q', '-b', 'main');
    writeFiles(repo, {
      '.assay/runs/2026-11-20-old.log': serverLog([['2026-11-20T10:00:00Z', key('old-1')]]),
      '.assay/audit/github/2026-11-20.ndjson': ndjson([record('github', 'g-old-1', key('old-1'))]),
      [POLICY]: `${RULES}${TRUST('warn')}`,
      [ROOT_FILE]: `${JSON.stringify(sigstore.trustedRoot)}\n`,
    });
    commit('the history, and trust in warn');
    const warn = await onMain('2026-11-30T08:00:00Z');
    expect(warn.code).toBe(0);
    expect(warn.report.findings.filter((f) => f.code === 'run_unattested').map((f) => f.severity)).toEqual(['warning']);
    const b = await cli(
      [
        'policy',
        'baseline',
        '-C',
        repo,
        '--now',
        '2026-11-30T08:00:00Z',
        '--reason',
        'before the agent workflow attested its runs',
        '--source-repository',
        'acme/agents',
      ],
      repo,
    );
    expect(b.code, b.stderr).toBe(0);
    writeFileSync(path.join(repo, POLICY), readFileSync(path.join(repo, POLICY), 'utf8').replace('mode: warn', 'mode: enforce'));
    commit('the baseline, and trust enforced');
    const enforced = await onMain('2026-11-30T08:00:00Z');
    expect(enforced.code, JSON.stringify(enforced.report.findings)).toBe(0);
    expect(enforced.report.totals.grandfathered).toBe(1);
    // From now on a run that is not attested fails: the rollout is done.
    writeFiles(repo, { '.assay/runs/2026-11-30-unattested.log': serverLog([['2026-11-30T07:00:00Z', key('mon-x')]]) });
    expect((await onMain('2026-11-30T08:00:00Z')).code).toBe(1);
    execFileSync('rm', [path.join(repo, '.assay/runs/2026-11-30-unattested.log')]);
  });

  it('Tuesday: the export’s pull request merges before the agent’s run (its record waits), then the run’s; the call is verified', async () => {
    const call = key('tue-1');
    const exportPr = await pullRequest(
      {
        '.assay/audit/github/2026-12-01.ndjson': ndjson([
          coverageStatement('2026-12-01', '2026-12-02', { owner: 'acme', records: 1 }),
          record('github', 'g-tue-1', call),
        ]),
      },
      '2026-12-02T04:00:00Z',
    );
    expect(exportPr.r.outputs['result']).toBe('pass');
    expect(reportOf(exportPr.r).totals.awaiting_run).toBe(1);
    mergeInto(exportPr.branch);
    const runPr = await pullRequest(
      await attestedRun('.assay/runs/2026-12-01-agent.log', serverLog([['2026-12-01T09:00:00Z', call]])),
      '2026-12-02T06:00:00Z',
    );
    expect(runPr.r.outputs['result'], JSON.stringify(reportOf(runPr.r).findings.filter((f) => f.severity === 'error'))).toBe('pass');
    expect(reportOf(runPr.r).calls.find((c) => c.artifact.endsWith('2026-12-01-agent.log'))?.level).toBe('verified');
    mergeInto(runPr.branch);
  });

  it('Thursday: a call whose export never came fell due on main; the exception’s pull request applies now and merges; main is green again', async () => {
    const bypass = key('wed-bypass');
    const runPr = await pullRequest(
      await attestedRun('.assay/runs/2026-12-02-bypass.log', serverLog([['2026-12-02T09:00:00Z', bypass]])),
      '2026-12-02T12:00:00Z',
    );
    expect(runPr.r.outputs['result']).toBe('pass'); // pending
    mergeInto(runPr.branch);
    const due = await onMain('2026-12-05T06:00:00Z');
    expect(due.code).toBe(1);
    const binding = due.report.calls.find((c) => c.artifact.endsWith('bypass.log'))?.subject_digest ?? '';
    const policy = `${readFileSync(path.join(repo, POLICY), 'utf8')}exceptions:\n  - binding: "${binding}"\n    rule: prod-keys\n    reason: INC-7 key added by hand during the outage\n    owner: "@acme/secops"\n    expires: 2027-01-15\n`;
    const exceptionPr = await pullRequest({ [POLICY]: policy }, '2026-12-05T06:00:00Z');
    expect(exceptionPr.r.outputs['result']).toBe('pass');
    expect(reportOf(exceptionPr.r).findings.find((f) => f.code === 'policy_excepted')?.message).toMatch(/it applies now/);
    mergeInto(exceptionPr.branch);
    expect((await onMain('2026-12-05T06:00:00Z')).code).toBe(0);
  });

  it('Friday: a fork’s pull request that loosens the policy never gets a green check (workflow_run reads the base’s)', async () => {
    const fork = await pullRequest(
      {
        [POLICY]: RULES.replace('require: verified', 'require: asserted'),
        ...(await attestedRun('.assay/runs/2026-12-05-fork.log', serverLog([['2026-12-05T09:00:00Z', key('fri-1')]]))),
      },
      '2026-12-09T06:00:00Z',
      'workflow_run',
    );
    expect(fork.r.outputs['result']).toBe('fail');
    expect(reportOf(fork.r).findings.find((f) => f.code === 'policy_changed')?.severity).toBe('warning');
    drop(fork.branch);
  });
});

describe.skipIf(process.platform !== 'linux')('a root rotation (examples/export-audit-records.yml, private repositories)', () => {
  it('the records pull request attested under a rotated root fails until the root’s own pull request has merged, then passes', async () => {
    const { commitAll, git: inRepo, merge, runSteps, stepsOf, world } = await import('../support/recipe.js');
    const { EXPORT_IDENTITY, RECORDS_V1 } = await import('../support/sigstore.js');
    const before = await mockSigstore();
    const after = await mockSigstore(); // GitHub's instance, rotated: another CA, another log
    const w = world();
    const call = key('rot-1');
    const policy = `${RULES}trust:\n  trusted-signer-identities: [${EXPORT_IDENTITY}]\n  require-signed-records: true\n  trusted-root: ${ROOT_FILE}\n`;
    writeFiles(w.repo, {
      [POLICY]: policy,
      [ROOT_FILE]: `${JSON.stringify(before.trustedRoot)}\n`,
      '.assay/runs/2026-12-01-agent.log': serverLog([['2026-12-01T09:00:00Z', call]]),
    });
    commitAll(w.repo, 'main, trusting the old root');
    const recordsText = ndjson([record('github', 'g-rot-1', call)]);
    const recordsFiles = async (sigstoreOf: typeof after) => ({
      '.assay/audit/github/2026-12-01.ndjson': recordsText,
      '.assay/audit/github/2026-12-01.ndjson.sigstore.json': `${JSON.stringify(await sigstoreOf.attest(statementFor('2026-12-01.ndjson', Buffer.from(recordsText), RECORDS_V1)))}\n`,
    });
    /** The gate on a branch's pull request against main, through the action (git reads the base). */
    const gateOn = async (branch: string) => {
      const base = inRepo(w.repo, 'rev-parse', 'main');
      inRepo(w.repo, 'switch', '-q', branch);
      const r = await runAction({
        workspace: w.repo,
        event: { name: 'pull_request', payload: { pull_request: { number: 3, head: { sha: HEAD_SHA }, base: { sha: base } } } },
        now: new Date('2026-12-02T06:00:00Z'),
      });
      inRepo(w.repo, 'switch', '-q', 'main');
      return r;
    };
    // The night's records, attested under the rotated root, on their own branch.
    inRepo(w.repo, 'switch', '-q', '-c', 'audit-records/2026-12-01');
    writeFiles(w.repo, await recordsFiles(after));
    inRepo(w.repo, 'add', '-A');
    inRepo(w.repo, 'commit', '-qm', 'records');
    inRepo(w.repo, 'switch', '-q', 'main');
    const early = await gateOn('audit-records/2026-12-01');
    expect(early.outputs['result']).toBe('fail');
    expect(reportOf(early).records[0]?.untrusted_code).toBe('chain_untrusted');
    // The recipe's trusted-root job: the new root, in a pull request of its own.
    const root = path.join(w.root, 'new-root.jsonl');
    writeFileSync(root, `${JSON.stringify(after.trustedRoot)}\n`);
    runSteps(
      w,
      stepsOf('examples/export-audit-records.yml', 'trusted-root'),
      { 'steps.app.outputs.token': 'app-token' },
      { env: { FAKE_GH_ROOT: root } },
    );
    expect(readFileSync(w.ghLog, 'utf8')).toMatch(/^pr create --head receipt-gate\/trusted-root /m);
    inRepo(w.repo, 'switch', '-q', 'main');
    const rootPr = await gateOn('receipt-gate/trusted-root');
    expect(rootPr.outputs['result']).toBe('pass');
    expect(reportOf(rootPr).findings.find((f) => f.code === 'policy_changed')?.message).toMatch(
      /changes trust\.trusted-root|trust material is read at the base/,
    );
    merge(w, 'receipt-gate/trusted-root');
    // Re-run on the records' pull request: its base now holds the new root.
    inRepo(w.repo, 'switch', '-q', 'audit-records/2026-12-01');
    inRepo(w.repo, 'merge', '-q', '--no-edit', 'main');
    inRepo(w.repo, 'switch', '-q', 'main');
    const late = await gateOn('audit-records/2026-12-01');
    expect(late.outputs['result'], JSON.stringify(reportOf(late).findings)).toBe('pass');
    expect(reportOf(late).calls[0]?.level).toBe('verified');
  });
});
