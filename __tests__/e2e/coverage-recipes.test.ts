/**
 * The recipes that work under branch protection (docs/coverage.md §4), each run as committed with
 * GitHub (and Slack) replaced by recorded outputs: the agent's run arrives by pull request and
 * passes with its calls pending; the scheduled gate on the default branch catches a call whose
 * export never came; the webhook-deliveries and Slack exports write what they covered; and the
 * pull-request gate and the release gate trust the same identities, a set-up the action accepts.
 */

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.js';
import { HEAD_SHA, runAction } from '../support/action-harness.js';
import { addKey, deployKey, record, serverLog } from '../support/corpus.js';
import { commitAll, git, receiptGate, runSteps, stepsOf, workflowOf, world } from '../support/recipe.js';
import { mockSigstore, RECORDS_V1, REPO, RUN_V1, statementFor } from '../support/sigstore.js';
import { cleanup, ROOT, tempDir, writeFiles } from '../support/workspace.js';

afterAll(cleanup);

let sigstore: Awaited<ReturnType<typeof mockSigstore>>;
beforeAll(async () => {
  sigstore = await mockSigstore();
});
const POLICY = readFileSync(path.join(ROOT, 'examples/policy/coverage.yml'), 'utf8');
const AGENT = 'deploy-agent[bot]';
const keyOn = (repo: string, title: string) => addKey({ target: deployKey({ owner: 'acme', repo, title }) });
const gateJson = (dir: string, now: string): { code: number | null; report: Report } => {
  const r = receiptGate(['verify', '-C', dir, '--format', 'json', '--now', now], dir);
  return { code: r.code, report: JSON.parse(r.stdout) as Report };
};

describe.skipIf(process.platform !== 'linux')('examples/agent-run.yml: the run arrives by pull request', () => {
  const w = world();
  const log = serverLog([['2026-12-01T09:00:00Z', keyOn('prod-api', 'ci-1')]]);

  it('opens a pull request with the log and its attestation, set to merge once the check passes; the pull request passes with its call pending', async () => {
    writeFiles(w.repo, { '.github/receipt-gate.yml': POLICY, 'agent.sh': `#!/usr/bin/env bash\ncat >&2 <<'LOG'\n${log}LOG\n` });
    git(w.repo, 'update-index', '--add', '--chmod=+x', 'agent.sh');
    commitAll(w.repo, 'the policy and the agent');
    const bundle = path.join(w.root, 'run-bundle.jsonl');
    writeFileSync(bundle, `${JSON.stringify(await sigstore.attest(statementFor('run.log', Buffer.from(log), RUN_V1)))}\n`);
    const { execFileSync } = await import('node:child_process');
    execFileSync('chmod', ['+x', path.join(w.repo, 'agent.sh')]);
    // Two jobs, as the runner runs them: the agent's (no id-token, no token left in the checkout),
    // then the delivery (the log arrives as the agent job's artifact: here, the same checkout).
    runSteps(w, stepsOf('examples/agent-run.yml', 'agent'), {}, { env: { GITHUB_RUN_ID: '4242' } });
    git(w.repo, 'status', '--short');
    runSteps(
      w,
      stepsOf('examples/agent-run.yml', 'deliver'),
      { 'steps.app.outputs.token': 'app-installation-token', 'github.token': 'github-token' },
      { env: { GITHUB_RUN_ID: '4242', FAKE_GH_BUNDLE: bundle } },
    );
    const calls = readFileSync(w.ghLog, 'utf8');
    expect(calls).toMatch(/^pr create --head agent-runs\/4242 --title Agent run 4242 /m);
    expect(calls).toMatch(/^pr merge agent-runs\/4242 --auto --squash$/m);
    const files = git(w.repo, 'ls-tree', '-r', '--name-only', 'agent-runs/4242', '.assay/runs').split('\n');
    expect(files).toEqual([
      expect.stringMatching(/^\.assay\/runs\/\d{4}-\d\d-\d\d-4242\.log$/),
      expect.stringMatching(/-4242\.log\.sigstore\.json$/),
    ]);
    // The pull request's check, three hours after the run: no export yet, so the call waits.
    const pr = gateJson(w.repo, '2026-12-01T12:00:00Z');
    expect(pr.code, JSON.stringify(pr.report.findings)).toBe(0);
    expect(pr.report.totals).toMatchObject({ pending: 1, policy_unmet: 0 });
    expect(pr.report.calls[0]).toMatchObject({ coverage: { status: 'pending', statement: null }, required_level: 'verified' });
    git(w.repo, 'switch', '-q', 'main');
    git(w.repo, 'merge', '-q', 'agent-runs/4242');
  });

  it('the agent’s job can reach nothing to abuse: no id-token, no persisted token, its log kept on failure; the job that attests and pushes runs no agent code', () => {
    const wf = workflowOf('examples/agent-run.yml') as unknown as {
      permissions: Record<string, string>;
      jobs: Record<
        string,
        {
          permissions: Record<string, string>;
          needs?: string;
          if?: string;
          steps: { uses?: string; run?: string; if?: string; with?: Record<string, unknown> }[];
        }
      >;
    };
    expect(wf.permissions).toEqual({ contents: 'read' });
    const agent = wf.jobs['agent'];
    const deliver = wf.jobs['deliver'];
    expect(agent?.permissions).toEqual({ contents: 'read' });
    expect(agent?.steps.find((x) => x.uses?.startsWith('actions/checkout'))?.with?.['persist-credentials']).toBe(false);
    expect(agent?.steps.some((x) => x.uses?.startsWith('actions/create-github-app-token') || x.uses?.startsWith('actions/attest'))).toBe(
      false,
    );
    expect(agent?.steps.find((x) => x.uses?.startsWith('actions/upload-artifact'))?.if).toBe('always()');
    expect(deliver?.needs).toBe('agent');
    expect(deliver?.if).toMatch(/always\(\)/);
    expect(deliver?.permissions).toMatchObject({ 'id-token': 'write', attestations: 'write', contents: 'read' });
    expect(deliver?.steps.some((x) => x.run?.includes('agent.sh'))).toBe(false);
    expect(deliver?.steps.find((x) => x.uses?.startsWith('actions/checkout'))?.with?.['persist-credentials']).toBe(false);
  });

  it('the scheduled gate on the default branch fails once pending has run out with no export, even with no pull request open', async () => {
    const late = gateJson(w.repo, '2026-12-04T09:30:00Z');
    expect(late.code).toBe(1);
    expect(late.report.totals).toMatchObject({ pending: 0, policy_unmet: 1 });
    // The same through the action, on the recipe's schedule event.
    const schedule = workflowOf('examples/pr-gate.yml').on as Record<string, unknown>;
    expect(schedule).toHaveProperty('schedule');
    const r = await runAction({
      workspace: w.repo,
      event: { name: 'schedule', payload: { schedule: '47 5 * * *' } },
      // GitHub runs a schedule on the default branch's last commit, the one checked out.
      env: { GITHUB_SHA: git(w.repo, 'rev-parse', 'HEAD').trim() },
      now: new Date('2026-12-04T09:30:00Z'),
    });
    expect(r.outputs).toMatchObject({ result: 'fail', 'policy-unmet': '1' });
    expect(r.contentRequests).toEqual([]);
  });

  it('an export that covers the day binds the call: the gate passes on the default branch', () => {
    const call = keyOn('prod-api', 'ci-1');
    writeFiles(w.repo, {
      '.assay/audit/github/2026-12-01.ndjson': `${JSON.stringify({
        schema: 'receipt-gate.audit_coverage.v1',
        provider: 'github',
        export: 'github-audit-log',
        actors: [AGENT],
        repos: null,
        owner: 'acme',
        actions: ['github_deploy_key:create'],
        since: '2026-12-01T00:00:00Z',
        until: '2026-12-02T00:00:00Z',
        entries_read: 1,
        records: 1,
      })}\n${JSON.stringify(record('github', 'github-audit:x1', call))}\n`,
    });
    const r = gateJson(w.repo, '2026-12-04T09:30:00Z');
    expect(r.code, JSON.stringify(r.report.findings)).toBe(0);
    expect(r.report.calls[0]).toMatchObject({ level: 'verified', coverage: { status: 'covered' } });
  });
});

describe.skipIf(process.platform !== 'linux')('examples/export-webhook-deliveries.yml', () => {
  /** One night of the recipe for a repository's hook (org null) or an organisation's. */
  async function webhookNight(org: string | null) {
    const w = world();
    const routes = path.join(w.root, 'routes');
    mkdirSync(routes);
    const hook = org === null ? '/repos/acme/agents/hooks/77' : `/orgs/${org}/hooks/77`;
    const route = (p: string, body: unknown) => writeFileSync(path.join(routes, p.replace(/[/?&=]/g, '_')), JSON.stringify(body));
    const item = (id: number, event: string, action: string) => ({
      id,
      guid: `g-${id}`,
      delivered_at: '2026-11-30T10:00:00Z',
      event,
      action,
    });
    route(`${hook}/deliveries?per_page=100`, [
      [item(1, 'deploy_key', 'created'), item(2, 'watch', 'started')],
      [item(3, 'deploy_key', 'created')],
    ]);
    const delivery = (id: number, sender: string, title: string) => ({
      ...item(id, 'deploy_key', 'created'),
      request: {
        headers: { 'X-GitHub-Event': 'deploy_key', 'X-GitHub-Delivery': `g-${id}` },
        payload: {
          action: 'created',
          key: { id, title, created_at: '2026-11-30T10:00:00Z' },
          repository: { name: 'agents', full_name: 'acme/agents', owner: { login: 'acme' } },
          sender: { login: sender },
        },
      },
    });
    route(`${hook}/deliveries/1`, delivery(1, AGENT, 'ci-1'));
    route(`${hook}/deliveries/3`, delivery(3, 'alice', 'laptop'));
    const bundle = path.join(w.root, 'bundle.jsonl');
    writeFileSync(bundle, `${JSON.stringify(await sigstore.attest(statementFor('x', Buffer.from('x'), RECORDS_V1)))}\n`);
    runSteps(
      w,
      stepsOf('examples/export-webhook-deliveries.yml', 'export'),
      {
        'secrets.WEBHOOK_READ_TOKEN': 't',
        'vars.RECEIPT_GATE_HOOK_ID': '77',
        'vars.RECEIPT_GATE_HOOK_ORG': org ?? '',
        'inputs.day': '2026-11-30',
        'vars.RECEIPT_GATE_AGENT': AGENT,
        'steps.app.outputs.token': 'app-token',
        'github.token': 'gh-token',
      },
      { env: { FAKE_GH_ROUTES: routes, FAKE_GH_BUNDLE: bundle } },
    );
    const calls = readFileSync(w.ghLog, 'utf8');
    const written = git(w.repo, 'show', 'webhook-records/2026-11-30:.assay/audit/webhook/2026-11-30.ndjson')
      .split('\n')
      .map((l) => JSON.parse(l));
    return { calls, hook, written };
  }

  it('lists the deliveries, fetches each deploy_key one by its id, and imports the agent’s with what the day covered', async () => {
    const { calls, written } = await webhookNight(null);
    expect(calls).toMatch(/^api --paginate --slurp \/repos\/acme\/agents\/hooks\/77\/deliveries\?per_page=100$/m);
    expect(calls).toMatch(/^api \/repos\/acme\/agents\/hooks\/77\/deliveries\/1$/m);
    expect(calls).not.toMatch(/deliveries\/2$/m);
    expect(written[0]).toMatchObject({ export: 'github-webhook', repos: ['acme/agents'], actors: [AGENT], entries_read: 2, records: 1 });
    expect(written.slice(1).map((r) => r.record_id)).toEqual(['github-deploy-key:acme/agents:1']);
    expect(calls).toMatch(/^pr create --head webhook-records\/2026-11-30 /m);
  });

  it('an organisation’s webhook (vars.RECEIPT_GATE_HOOK_ORG): its deliveries, and a statement scoped with --owner to the organisation', async () => {
    const { calls, written } = await webhookNight('acme');
    expect(calls).toMatch(/^api --paginate --slurp \/orgs\/acme\/hooks\/77\/deliveries\?per_page=100$/m);
    expect(calls).toMatch(/^api \/orgs\/acme\/hooks\/77\/deliveries\/1$/m);
    expect(written[0]).toMatchObject({ export: 'github-webhook', owner: 'acme', repos: null, records: 1 });
  });
});

describe.skipIf(process.platform !== 'linux')('examples/export-slack-audit-log.yml', () => {
  it('reads every page with its cursor and imports the agent’s entries, one statement per provider', async () => {
    const w = world();
    const pages = path.join(w.root, 'slack');
    mkdirSync(pages);
    const at = Date.parse('2026-11-30T10:00:00Z') / 1000;
    const join = (id: string, user: string) => ({
      id,
      date_create: at,
      action: 'user_channel_join',
      actor: { type: 'user', user: { id: user } },
      entity: { type: 'channel', channel: { id: 'C1' } },
      context: { location: { type: 'workspace', id: 'T1' } },
    });
    writeFileSync(
      path.join(pages, 'first.json'),
      JSON.stringify({ entries: [join('e1', 'U0AGENT')], response_metadata: { next_cursor: 'c2' } }),
    );
    writeFileSync(
      path.join(pages, 'c2.json'),
      JSON.stringify({ entries: [join('e2', 'U0HUMAN')], response_metadata: { next_cursor: '' } }),
    );
    const bundle = path.join(w.root, 'bundle.jsonl');
    writeFileSync(bundle, `${JSON.stringify(await sigstore.attest(statementFor('x', Buffer.from('x'), RECORDS_V1)))}\n`);
    runSteps(
      w,
      stepsOf('examples/export-slack-audit-log.yml', 'export'),
      {
        'secrets.SLACK_AUDIT_TOKEN': 'xoxp',
        'inputs.day': '2026-11-30',
        'vars.RECEIPT_GATE_SLACK_AGENT': 'U0AGENT',
        'steps.app.outputs.token': 'app-token',
        'github.token': 'gh-token',
      },
      { env: { FAKE_CURL_DIR: pages, FAKE_GH_BUNDLE: bundle } },
    );
    const calls = readFileSync(w.ghLog, 'utf8');
    expect(calls.match(/^curl /gm)).toHaveLength(2);
    expect(calls).toContain(`oldest=${at - 36_000}&latest=${at - 36_000 + 86_400}&limit=200&action=user_channel_join,`);
    expect(calls).toMatch(/&cursor=c2$/m);
    const written = git(w.repo, 'show', 'slack-records/2026-11-30:.assay/audit/slack/2026-11-30.ndjson')
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(written.slice(0, 2).map((s) => [s.provider, s.records, s.entries_read])).toEqual([
      ['slack', 1, 2],
      ['workspace', 0, 2],
    ]);
    expect(written.slice(2).map((r) => r.record_id)).toEqual(['slack-audit:e1']);
  });
});

describe('one trust set-up across the recipes: the policy file’s trust: section', () => {
  const gateStep = (file: string, job: string) => {
    const step = stepsOf(file, job).find((s) => s.uses?.startsWith('receipt-gate/receipt-gate@'));
    if (!step?.with) throw new Error(`${file} has no receipt-gate step`);
    return step.with;
  };
  const TRUST_INPUTS = [
    'trusted-keys',
    'trusted-signer-identities',
    'trusted-producer-identities',
    'require-signed-records',
    'require-attested-runs',
    'trusted-producers',
    'source-refs',
    'trusted-root',
  ];
  const TRUST_POLICY = readFileSync(path.join(ROOT, 'examples/policy/trust.yml'), 'utf8');

  it('the pull-request, fork and release gates give no trust input (the workflow file is part of the pull request); the policy names workflows of examples/', () => {
    for (const [file, job] of [
      ['examples/pr-gate.yml', 'receipts'],
      ['examples/release.yml', 'receipts'],
      ['examples/fork-prs.yml', 'annotate'],
    ] as const)
      for (const k of TRUST_INPUTS) expect(gateStep(file, job), `${file} ${k}`).not.toHaveProperty(k);
    const named = TRUST_POLICY.match(/workflows\/([a-z-]+\.yml)@refs\/heads\/main/g) ?? [];
    expect(named.length).toBe(4);
    for (const n of named)
      expect(readFileSync(path.join(ROOT, 'examples', n.slice('workflows/'.length, -'@refs/heads/main'.length)), 'utf8')).toMatch(
        /^name: /m,
      );
  });

  it('the release gate, with the policy as written, passes on runs and records the recipes attested', async () => {
    const release = gateStep('examples/release.yml', 'receipts');
    const identity = (workflow: string) => `https://github.com/${REPO}/.github/workflows/${workflow}@refs/heads/main`;
    const call = keyOn('prod-api', 'ci-1');
    const runLog = serverLog([['2026-12-01T09:00:00Z', call]]);
    const exportText = `${JSON.stringify(record('github', 'g1', call))}\n`;
    const ws = writeFiles(tempDir(), {
      '.assay/runs/r.log': runLog,
      '.assay/runs/r.log.sigstore.json': `${JSON.stringify(await sigstore.attest(statementFor('r.log', Buffer.from(runLog), RUN_V1), { san: identity('agent-run.yml') }))}\n`,
      '.assay/audit/a.ndjson': exportText,
      '.assay/audit/a.ndjson.sigstore.json': `${JSON.stringify(await sigstore.attest(statementFor('a.ndjson', Buffer.from(exportText), RECORDS_V1), { san: identity('export-audit-records.yml') }))}\n`,
      '.github/receipt-gate/trusted-root.jsonl': JSON.stringify(sigstore.trustedRoot),
      '.github/receipt-gate.yml': TRUST_POLICY.replaceAll('OWNER/REPO', REPO).replace('# trusted-root:', 'trusted-root:'),
    });
    const inputs = Object.fromEntries(Object.entries(release).map(([k, v]) => [k, String(v)]));
    const r = await runAction({
      workspace: ws,
      inputs: { runs: inputs['runs'] ?? '', audit: inputs['audit'] ?? '' },
      event: { name: 'push', payload: { after: HEAD_SHA, ref: 'refs/tags/v1.0.0' } },
      now: new Date('2026-12-01T12:00:00Z'),
    });
    expect(r.outputs, r.stdout).toMatchObject({ result: 'pass', verified: '1' });
    // The same evidence with one unattested run more fails: require-attested-runs is the policy's.
    writeFiles(ws, { '.assay/runs/s.log': serverLog([['2026-12-01T10:00:00Z', keyOn('prod-api', 'ci-2')]]) });
    const unattested = await runAction({
      workspace: ws,
      inputs: { runs: inputs['runs'] ?? '', audit: inputs['audit'] ?? '' },
      event: { name: 'push', payload: { after: HEAD_SHA, ref: 'refs/tags/v1.0.0' } },
      now: new Date('2026-12-01T12:00:00Z'),
    });
    expect(unattested.outputs['result']).toBe('fail');
  });
});
