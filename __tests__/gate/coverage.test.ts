/**
 * Export coverage (docs/coverage.md): the importer writes what an export covered; the gate reads it,
 * trusts it like a record, and tells a call whose record is not due yet (pending) from one an export
 * covered and holds nothing for (effect_not_logged); decisions from the future are refused.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.js';
import { renderSummary, SUMMARY_BUDGET } from '../../src/report/summary.js';
import {
  addKey,
  coverageStatement,
  decision,
  deployKey,
  json,
  ndjson,
  record,
  serverLog,
  surface,
  targetHash,
  testSigner,
} from '../support/corpus.js';
import { cleanup, cli, cliJson, gate, tempDir, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

const NOW = '2026-12-01T12:00:00Z';
const AGENT = 'deploy-agent[bot]';
/** A deploy key the agent added on prod-repo at `time`, claiming `claim`. */
const key = (title: string, claim: 'asserted' | 'verified' = 'asserted', repo = 'prod-repo', owner = 'org') =>
  addKey({ target: deployKey({ owner, repo, title }), claim });
/** The findings but the notice of skipped tracing events every server log has. */
const judged = (r: Report) => r.findings.filter((f) => f.code !== 'skipped_object');
const codes = (r: Report) => judged(r).map((f) => `${f.severity} ${f.code}`);
const verify = (dir: string, ...extra: string[]) => cliJson(['-C', dir, '--now', NOW, ...extra], dir);

describe('the importer writes what an export covered', () => {
  const entry = (id: string, actor: string, repo: string, title: string, at: string) => ({
    '@timestamp': Date.parse(at),
    _document_id: id,
    action: 'public_key.create',
    actor,
    repo,
    title,
  });
  const exportFile = (entries: unknown[]) => writeFiles(tempDir(), { 'export.json': JSON.stringify(entries) });
  const importer = (dir: string, ...args: string[]) =>
    cli(['import', 'github-audit-log', '--output', 'out.ndjson', ...args, 'export.json'], dir, {}, new Date(NOW));
  const lines = (dir: string) =>
    readFileSync(path.join(dir, 'out.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));

  it('with --since and --until, the statement is the first line, then the records; its window in UTC, the actors as given, entries counted before any filter', async () => {
    const dir = exportFile([
      entry('a1', AGENT, 'Org/Prod-Repo', 'ci-1', '2026-11-30T10:00:00Z'),
      entry('h1', 'alice', 'org/prod-repo', 'laptop', '2026-11-30T11:00:00Z'),
      entry('a2', AGENT, 'org/prod-repo', 'ci-2', '2026-12-01T01:00:00Z'),
    ]);
    const r = await importer(
      dir,
      '--actor',
      AGENT,
      '--repo',
      'Org/Prod-Repo',
      '--since',
      '2026-11-30',
      '--until',
      '2026-12-01T01:00:00.500+01:00',
    );
    expect(r.code, r.stderr).toBe(0);
    const [statement, ...records] = lines(dir);
    expect(statement).toEqual({
      schema: 'receipt-gate.audit_coverage.v1',
      provider: 'github',
      export: 'github-audit-log',
      actors: [AGENT],
      repos: ['org/prod-repo'],
      owner: null,
      actions: ['github_deploy_key:create', 'github_repo_member:add'],
      since: '2026-11-30T00:00:00Z',
      until: '2026-12-01T00:00:00.500Z',
      entries_read: 3,
      records: 1,
      exported_at: '2026-12-01T12:00:00Z',
    });
    expect(records.map((x) => x.record_id)).toEqual(['github-audit:a1']);
    expect(r.stderr).toMatch(/1 coverage statement\(s\) for \[2026-11-30T00:00:00Z, 2026-12-01T00:00:00.500Z\)/);
  });

  it('a quiet night writes the statement alone; without a window nothing is written, as before', async () => {
    const dir = exportFile([]);
    expect((await importer(dir, '--actor', AGENT, '--owner', 'org', '--since', '2026-11-30', '--until', '2026-12-01')).code).toBe(0);
    expect(lines(dir)).toEqual([expect.objectContaining({ schema: 'receipt-gate.audit_coverage.v1', records: 0, entries_read: 0 })]);
    const none = exportFile([]);
    const r = await importer(none, '--actor', AGENT);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/was not written \(give --since and --until to record what was covered\)/);
  });

  it('--owner keeps one organisation (any case) and names it; Slack refuses it', async () => {
    const dir = exportFile([
      entry('a1', AGENT, 'ACME/api', 'ci-1', '2026-11-30T10:00:00Z'),
      entry('a2', AGENT, 'other/api', 'ci-2', '2026-11-30T10:00:00Z'),
    ]);
    const r = await importer(dir, '--actor', AGENT, '--owner', 'acme', '--since', '2026-11-30', '--until', '2026-12-01');
    expect(r.stderr).toMatch(/1 in another organisation/);
    const [statement, ...records] = lines(dir);
    expect(statement).toMatchObject({ owner: 'acme', repos: null, records: 1 });
    expect(records).toHaveLength(1);
    const slack = await cli(['import', 'slack-audit-log', '--owner', 'acme', '--output', 'o.ndjson', 'export.json'], dir);
    expect(slack).toMatchObject({ code: 2, stderr: expect.stringMatching(/--owner: Slack audit entries name no organisation/) });
  });

  it('a Slack import writes one statement per provider it maps, each with its actions, whether or not it found a record', async () => {
    const dir = writeFiles(tempDir(), { 'slack.json': JSON.stringify({ entries: [] }) });
    const r = await cli(
      [
        'import',
        'slack-audit-log',
        '--actor',
        'U0AGENT',
        '--since',
        '2026-11-30',
        '--until',
        '2026-12-01',
        '--output',
        'out.ndjson',
        'slack.json',
      ],
      dir,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(lines(dir).map((s) => [s.provider, s.actions])).toEqual([
      ['slack', ['workspace_member:add']],
      ['workspace', ['workspace_role:change_role', 'workspace_role:grant']],
    ]);
  });

  it('with --sign-key the statement is signed under its own payload type, and a trusted key trusts it', async () => {
    const signer = testSigner();
    const dir = exportFile([]);
    writeFileSync(path.join(dir, 'signer.pem'), signer.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(path.join(dir, 'signer.pub.pem'), signer.pem);
    await importer(dir, '--actor', AGENT, '--owner', 'org', '--since', '2026-11-30', '--until', '2026-12-01', '--sign-key', 'signer.pem');
    const [statement] = lines(dir);
    expect(statement.signature).toMatchObject({ payload_type: 'application/vnd.receipt-gate.audit-coverage+json;v=1' });
    writeFiles(dir, {
      '.assay/runs/r.json': json(surface([key('ci-1')])),
      '.assay/audit/2026-11-30.ndjson': readFileSync(path.join(dir, 'out.ndjson'), 'utf8'),
    });
    const r = await verify(dir, '--trusted-key', 'signer.pub.pem');
    expect(r.report.coverage).toEqual([expect.objectContaining({ usable: true, untrusted_code: null })]);
    expect(codes(r.report)).not.toContain('error record_untrusted');
  });
});

describe('the gate reads statements', () => {
  const runs = (calls: readonly (readonly [string, ReturnType<typeof key>])[]) => ({ '.assay/runs/agent.log': serverLog(calls) });
  const day = (d: string, next: string, over: Record<string, unknown> = {}) => ndjson([coverageStatement(d, next, over)]);

  it('a call naming another provider than its class’s is still held to its class’s exports (a red team: `GitHub` was covered by none, and passed)', async () => {
    const dir = writeFiles(tempDir(), {
      ...runs([
        ['2026-11-30T10:02:11Z', addKey({ target: deployKey({ owner: 'org', repo: 'prod-repo', title: 'ci-1', provider: 'GitHub' }) })],
      ]),
      '.assay/audit/2026-11-30.ndjson': day('2026-11-30', '2026-12-01'),
    });
    const r = await verify(dir);
    expect(r.code).toBe(1);
    expect(codes(r.report)).toEqual(['error effect_not_logged']);
  });

  it('a Slack import naming the role provider as the calls do (--role-provider slack) covers them (a red team: its role calls escaped coverage, green)', async () => {
    const role = (provider: string) =>
      decision({
        tool: 'workspace.grant_admin',
        verb: 'grant',
        resourceType: 'workspace_role',
        target: {
          provider,
          workspace_id_hash: targetHash('workspace', 'T0123'),
          principal_hash: targetHash('workspace_principal', 'U0ADA'),
          role: 'admin',
        },
      });
    for (const [flags, provider] of [
      [['--role-provider', 'slack'], 'slack'],
      [[], 'workspace'],
      [[], 'slack'],
    ] as const) {
      const dir = writeFiles(tempDir(), {
        'slack.json': JSON.stringify({ entries: [] }),
        ...runs([['2026-11-30T10:02:11Z', role(provider)]]),
      });
      const window = ['--actor', 'U0AGENT', '--since', '2026-11-30', '--until', '2026-12-01'];
      const imported = await cli(
        ['import', 'slack-audit-log', ...window, ...flags, '--output', '.assay/audit/slack.ndjson', 'slack.json'],
        dir,
      );
      expect(imported.code, imported.stderr).toBe(0);
      const r = await verify(dir);
      expect(codes(r.report), `${flags.join(' ')} ${provider}`).toEqual(['error effect_not_logged']);
      expect(r.code).toBe(1);
    }
  });

  it('a call naming no provider is held to every provider’s statements, as any provider’s record may verify it (a red team: it escaped a Slack export beside a call naming slack, green)', async () => {
    const role = (principal: string, provider: string | null) =>
      decision({
        tool: 'workspace.grant_admin',
        verb: 'grant',
        resourceType: 'workspace_role',
        target: {
          ...(provider === null ? {} : { provider }),
          workspace_id_hash: targetHash('workspace', 'T0123'),
          principal_hash: targetHash('workspace_principal', principal),
          role: 'admin',
        },
      });
    const slackEntry = (principal: string) => ({
      id: `e-${principal}`,
      date_create: 1796032931,
      action: 'role_change_to_admin',
      actor: { type: 'user', user: { id: 'U0AGENT', name: 'agent' } },
      entity: { type: 'user', user: { id: principal, name: principal } },
      context: { location: { type: 'workspace', id: 'T0123' } },
    });
    const at = '2026-11-30T10:02:11Z';
    const check = async (logged: string) => {
      const dir = writeFiles(tempDir(), {
        'slack.json': JSON.stringify({ entries: [slackEntry(logged)] }),
        ...runs([
          [at, role('U0ADA', 'slack')],
          [at, role('U0EVE', null)],
        ]),
      });
      const window = ['--actor', 'U0AGENT', '--since', '2026-11-30', '--until', '2026-12-01', '--now', '2026-12-01T12:00:00Z'];
      const imported = await cli(
        ['import', 'slack-audit-log', ...window, '--role-provider', 'slack', '--output', '.assay/audit/slack.ndjson', 'slack.json'],
        dir,
      );
      expect(imported.code, imported.stderr).toBe(0);
      return verify(dir);
    };
    // The export logged U0ADA's grant only: U0EVE's, naming no provider, is due a record it does not hold.
    const r = await check('U0ADA');
    expect(r.report.calls.map((c) => c.level)).toEqual(['verified', 'asserted']);
    expect(codes(r.report).filter((c) => !c.startsWith('notice'))).toEqual(['error effect_not_logged']);
    expect(r.code).toBe(1);
    // The same export logging U0EVE's grant verifies it (and U0ADA's, naming slack, is then due its own).
    const other = await check('U0EVE');
    expect(other.report.calls.map((c) => c.level)).toEqual(['asserted', 'verified']);
    expect(codes(other.report).filter((c) => !c.startsWith('notice'))).toEqual(['error effect_not_logged']);
  });

  it('a call whose target gives no owner (or repo) as text for a statement scoped by it is an error, never quietly outside the export (a red team)', async () => {
    const at = '2026-11-30T10:02:11Z';
    const withTarget = (target: Record<string, unknown>) => addKey({ target });
    const title = deployKey()['key_title_hash'];
    const cases: [Record<string, unknown>, Record<string, unknown>, string | null][] = [
      [{ provider: 'github', owner: 'org', repo: 'prod-repo', key_title_hash: title }, {}, null],
      [{ provider: 'github', repo: 'prod-repo', key_title_hash: title }, {}, 'owner'],
      [{ provider: 'github', owner: 7, repo: 'prod-repo', key_title_hash: title }, {}, 'owner'],
      [{ provider: 'github', owner: ['org'], repo: 'prod-repo', key_title_hash: title }, {}, 'owner'],
      [{ key_title_hash: title }, {}, 'owner'],
      [{ provider: 'github', owner: 'org', key_title_hash: title }, { owner: null, repos: ['org/prod-repo'] }, 'repo'],
    ];
    for (const [target, over, field] of cases) {
      const dir = writeFiles(tempDir(), {
        ...runs([[at, withTarget(target)]]),
        '.assay/audit/2026-11-30.ndjson': day('2026-11-30', '2026-12-01', over),
      });
      const r = await verify(dir);
      expect(r.code, JSON.stringify(target)).toBe(1);
      if (field === null) expect(codes(r.report)).toEqual(['error effect_not_logged']);
      else {
        expect(codes(r.report), JSON.stringify(target)).toEqual(['error invalid_artifact']);
        expect(judged(r.report)[0]?.message).toMatch(
          new RegExp(
            `its target gives no ${field} as text, and the coverage statements of its action are scoped by it \\(\\.assay/audit/2026-11-30\\.ndjson:1\\)`,
          ),
        );
      }
    }
    // Without a statement of its action, such a call is none of coverage's business (as before).
    const none = writeFiles(tempDir(), { ...runs([[at, withTarget({ key_title_hash: title })]]) });
    expect((await verify(none)).code).toBe(0);
    // An organisation's statement of another day holds it by owner, but speaks not of its time: the
    // repository statement of its day still cannot place it (a red team: that switched the error off);
    // an empty repo is no repo.
    for (const repo of [undefined, '']) {
      const noRepo = { provider: 'github', owner: 'org', ...(repo === undefined ? {} : { repo }), key_title_hash: title };
      const twoDays = writeFiles(tempDir(), {
        ...runs([['2026-12-01T10:02:11Z', withTarget(noRepo)]]),
        '.assay/audit/2026-11-30.ndjson': day('2026-11-30', '2026-12-01'),
        '.assay/audit/2026-12-01.ndjson': day('2026-12-01', '2026-12-02', { owner: null, repos: ['org/prod-repo'] }),
      });
      const t = await cliJson(['-C', twoDays, '--now', '2026-12-03T00:00:00Z'], twoDays);
      expect(codes(t.report), String(repo)).toEqual(['error invalid_artifact']);
      expect(judged(t.report)[0]?.message).toMatch(/gives no repo as text.*\(\.assay\/audit\/2026-12-01\.ndjson:1\)/);
    }
    // A call older than every statement: no statement could have spoken of it, whatever its target holds
    // (a red team: such runs could be neither judged nor grandfathered once the first export was committed).
    const old = writeFiles(tempDir(), {
      ...runs([['2026-06-01T10:02:11Z', withTarget({ provider: 'github', key_title_hash: title })]]),
      '.assay/audit/2026-11-30.ndjson': day('2026-11-30', '2026-12-01', { owner: null, repos: ['org/prod-repo'] }),
    });
    const o = await verify(old);
    expect(codes(o.report).filter((c) => !c.startsWith('notice'))).toEqual([]);
    expect(o.code).toBe(0);
    // A statement that covers nothing (repositories, for a class without them) places nothing either: its warning alone.
    const aws = writeFiles(tempDir(), {
      ...runs([
        [
          at,
          decision({
            tool: 'aws.create_access_key',
            verb: 'create',
            resourceType: 'aws_iam_access_key',
            target: { provider: 'aws', account: '123456789012', user_name: 'deployer' },
          }),
        ],
      ]),
      '.assay/audit/2026-11-30.ndjson': day('2026-11-30', '2026-12-01', {
        provider: 'aws',
        export: 'aws-cloudtrail',
        actions: ['aws_iam_access_key:create'],
        owner: null,
        repos: ['acme/api'],
      }),
    });
    const a = await verify(aws);
    expect(codes(a.report)).toEqual(['warning coverage_empty']);
  });

  it('a statement of another provider than its class’s covers the calls naming it, and is a warning when calls of the class name none', async () => {
    const named = (provider: string) => addKey({ target: deployKey({ owner: 'org', repo: 'prod-repo', title: 'ci-1', provider }) });
    const dir = writeFiles(tempDir(), {
      ...runs([['2026-11-30T10:02:11Z', named('ghe')]]),
      '.assay/audit/2026-11-30.ndjson': day('2026-11-30', '2026-12-01', { provider: 'ghe', owner: 'org' }),
    });
    const r = await verify(dir);
    expect(codes(r.report)).toEqual(['error effect_not_logged']);
    writeFiles(dir, runs([['2026-11-30T10:02:11Z', named('github')]]));
    const other = await verify(dir);
    expect(codes(other.report)).toEqual(['warning coverage_empty']);
    expect(judged(other.report)[0]?.message).toMatch(
      /its provider "ghe" is not github_deploy_key's \(github\), and no call of it names "ghe"/,
    );
  });

  it('a statement that covers no call is a warning at its line, never quiet (a red team: each of these let the call pass with no word)', async () => {
    for (const [over, why] of [
      [{ actors: [] }, /its actors list is empty: it covers no call/],
      [{ owner: null, repos: null }, /names no organisation \(owner\) or repository \(repos\)/],
      [{ actions: ['github_deploy_key:add'] }, /its action "github_deploy_key:add" names no verb of github_deploy_key \(create\)/],
      [{ actions: ['github_deplyo_key:create'] }, /names no class the gate binds/],
      [{ provider: 'GitHub', owner: 'org' }, /its provider "GitHub" is not github_deploy_key's \(github\)/],
      [{ repos: [], owner: null }, /its repos list is empty: it covers no call/],
      [
        { provider: 'aws', export: 'aws-cloudtrail', actions: ['aws_iam_access_key:create'], repos: ['org/prod-repo'], owner: null },
        /it names repositories, which aws_iam_access_key has none of/,
      ],
      [
        { provider: 'slack', export: 'slack-audit-log', actions: ['workspace_member:add'], repos: null, owner: 'T0123' },
        /it names an owner/,
      ],
    ] as const) {
      const dir = writeFiles(tempDir(), {
        ...runs([['2026-11-30T10:02:11Z', key('ci-1')]]),
        '.assay/audit/2026-11-30.ndjson': day('2026-11-30', '2026-12-01', over),
      });
      const r = await verify(dir);
      expect(codes(r.report), JSON.stringify(over)).toEqual(['warning coverage_empty']);
      const f = judged(r.report)[0];
      expect(f).toMatchObject({ file: '.assay/audit/2026-11-30.ndjson', line: 1 });
      expect(f?.message).toMatch(why);
    }
  });

  it('a call an export covered that holds no record of it is effect_not_logged: an error, with or without a policy, naming the export', async () => {
    const dir = writeFiles(tempDir(), {
      ...runs([['2026-11-30T10:02:11Z', key('ci-1')]]),
      '.assay/audit/2026-11-30.ndjson': day('2026-11-30', '2026-12-01'),
    });
    const r = await verify(dir);
    expect(r.code).toBe(1);
    expect(codes(r.report)).toEqual(['error effect_not_logged']);
    expect(judged(r.report)[0]?.message).toBe(
      'github.add_deploy_key (decision 0) on org/prod-repo at 2026-11-30T10:02:11Z claims a side effect; the github-audit-log export for deploy-agent[bot] (organisation org), [2026-11-30T00:00:00Z, 2026-12-01T00:00:00Z) holds no entry for it (.assay/audit/2026-11-30.ndjson:1). Was it done under another identity?',
    );
    expect(r.report.calls[0]).toMatchObject({
      time: '2026-11-30T10:02:11Z',
      coverage: { status: 'covered', statement: { file: '.assay/audit/2026-11-30.ndjson', line: 1 } },
    });
    expect(r.report.totals).toMatchObject({ effect_not_logged: 1, records: 0 });
  });

  it('a call that claims verified gets one finding, verified_not_reproduced, with that reason; a recorded call is judged as before', async () => {
    const claimed = key('ci-1', 'verified');
    const recorded = key('ci-2', 'verified');
    const dir = writeFiles(tempDir(), {
      ...runs([
        ['2026-11-30T10:00:00Z', claimed],
        ['2026-11-30T11:00:00Z', recorded],
      ]),
      '.assay/audit/2026-11-30.ndjson': ndjson([
        coverageStatement('2026-11-30', '2026-12-01', { records: 1 }),
        record('github', 'g2', recorded),
      ]),
    });
    const r = await verify(dir);
    expect(codes(r.report)).toEqual(['error verified_not_reproduced']);
    expect(judged(r.report)[0]?.message).toMatch(/claims verified, but github.add_deploy_key .* holds no entry for it/);
    expect(r.report.calls.map((c) => c.level)).toEqual(['asserted', 'verified']);
    expect(r.report.totals).toMatchObject({ effect_not_logged: 1, records: 1, bound: 1 });
  });

  it('what a statement covers: its actions, its window [since, until), its scope (repositories without regard to case, an organisation), non-empty actors, a call with a time', async () => {
    const statements = [
      coverageStatement('2026-11-30', '2026-12-01', { repos: ['org/prod-repo'] }),
      coverageStatement('2026-11-29', '2026-11-30', { owner: 'ACME', actions: ['github_deploy_key:create'] }),
      coverageStatement('2026-11-28', '2026-11-29', { actors: [] }),
    ];
    const dir = writeFiles(tempDir(), {
      ...runs([
        ['2026-11-30T10:00:00Z', key('in-repo', 'asserted', 'Prod-Repo', 'ORG')],
        ['2026-11-30T10:00:00Z', key('other-repo', 'asserted', 'dev-repo')],
        ['2026-12-01T00:00:00Z', key('at-until')],
        ['2026-11-29T12:00:00Z', key('in-org', 'asserted', 'api', 'acme')],
        ['2026-11-29T12:00:00Z', key('other-org', 'asserted', 'api', 'other')],
        ['2026-11-28T12:00:00Z', key('no-actors')],
      ]),
      '.assay/audit/s.ndjson': ndjson(statements),
      // A decision surface has no time: never covered.
      '.assay/runs/surface.json': json(surface([key('surface')])),
    });
    const r = await verify(dir);
    const covered = r.report.calls.map((c) => c.coverage?.status ?? null);
    expect(covered).toEqual(['covered', null, null, 'covered', null, null, null]);
    expect(r.report.totals.effect_not_logged).toBe(2);
  });

  it('pending: a call newer than every statement of its scope and younger than the policy’s pending waits; past it, it is judged and the reason says no export covers it', async () => {
    const policy = 'version: 1\npending: 72h\nrules:\n  - name: keys\n    match: {class: github_deploy_key}\n    require: verified\n';
    const dir = writeFiles(tempDir(), {
      ...runs([
        ['2026-12-01T09:00:00Z', key('fresh')],
        ['2026-11-27T09:00:00Z', key('old')],
      ]),
      '.assay/audit/s.ndjson': day('2026-11-25', '2026-11-26'),
      '.github/receipt-gate.yml': policy,
    });
    const r = await verify(dir);
    const [fresh, old] = r.report.calls;
    expect(fresh).toMatchObject({
      coverage: { status: 'pending', statement: { file: '.assay/audit/s.ndjson', line: 1 } },
      required_level: 'verified',
    });
    expect(old?.coverage).toBeNull();
    expect(r.report.totals).toMatchObject({ pending: 1, policy_unmet: 1 });
    const pending = r.report.findings.find((f) => f.code === 'pending');
    expect(pending).toMatchObject({ severity: 'notice' });
    expect(pending?.message).toMatch(
      /its export is not due yet \(the latest export of its scope \(.assay\/audit\/s.ndjson:1\) ends 2026-11-26T00:00:00Z\); its requirement waits until 2026-12-04T09:00:00Z/,
    );
    const unmet = r.report.findings.filter((f) => f.code === 'policy_unmet');
    expect(unmet).toHaveLength(1);
    expect(unmet[0]?.message).toMatch(/no export covers this call's time/);
    // Without a pending in the policy, nothing waits.
    writeFileSync(path.join(dir, '.github/receipt-gate.yml'), policy.replace('pending: 72h\n', ''));
    expect((await verify(dir)).report.totals).toMatchObject({ pending: 0, policy_unmet: 2 });
  });

  it('a call in a gap between two statements is not pending; the summary lists the gap', async () => {
    const dir = writeFiles(tempDir(), {
      ...runs([['2026-11-28T10:00:00Z', key('in-gap')]]),
      '.assay/audit/a.ndjson': day('2026-11-27', '2026-11-28'),
      '.assay/audit/b.ndjson': day('2026-11-29', '2026-11-30'),
      '.github/receipt-gate.yml': 'version: 1\npending: 30d\n',
    });
    const r = await verify(dir);
    expect(r.report.calls[0]?.coverage).toBeNull();
    expect(r.report.coverage_gaps).toEqual([
      {
        provider: 'github',
        scope: 'organisation org',
        actions: ['github_deploy_key:create'],
        from: '2026-11-28T00:00:00Z',
        to: '2026-11-29T00:00:00Z',
      },
    ]);
    const { markdown } = renderSummary(await gate(dir), { prefix: '', blobBase: null, reportFile: null, budgetBytes: SUMMARY_BUDGET });
    const text = markdown.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)));
    expect(text).toContain('Coverage: 2 export statement(s) · 0 call(s) pending · no call the provider failed to log.');
    expect(text).toContain('- github github-audit-log (org): 2 statement(s), 2026-11-27T00:00:00Z to 2026-11-30T00:00:00Z');
    expect(text).toContain('- ⚠️ no github export covers 2026-11-28T00:00:00Z–2026-11-29T00:00:00Z (organisation org)');
  });

  it('an evidence event gives its decisions its time; an event time that is not RFC 3339 rejects the run', async () => {
    const ev = (time: unknown) => ({ type: 'assay.tool_decision_surface.v0', time, data: surface([key('ci-1')]) });
    const dir = writeFiles(tempDir(), { '.assay/runs/events.ndjson': ndjson([ev('2026-11-30T10:00:00+02:00')]) });
    const r = await verify(dir);
    expect(r.report.calls[0]?.time).toBe('2026-11-30T08:00:00Z');
    writeFiles(dir, { '.assay/runs/events.ndjson': ndjson([ev('yesterday')]) });
    const bad = await verify(dir);
    expect(bad.report.calls).toEqual([]);
    expect(judged(bad.report)[0]?.message).toMatch(/^the evidence event's time "yesterday" is not an RFC 3339 date-time/);
  });

  it('a decision more than five minutes after the verification time is invalid_artifact, never pending', async () => {
    const dir = writeFiles(tempDir(), {
      ...runs([
        ['2026-12-01T12:04:00Z', key('skewed')],
        ['2026-12-01T12:06:00Z', key('future')],
      ]),
      '.github/receipt-gate.yml': 'version: 1\npending: 72h\n',
    });
    const r = await verify(dir);
    expect(r.code).toBe(1);
    const future = r.report.findings.filter((f) => f.code === 'invalid_artifact');
    expect(future).toHaveLength(1);
    expect(future[0]?.message).toMatch(
      /decided at 2026-12-01T12:06:00Z, after the verification time 2026-12-01T12:00:00Z \(by more than 5 minutes\): a decision from the future/,
    );
    expect(r.report.calls.map((c) => c.coverage?.status ?? null)).toEqual(['pending', null]);
  });

  it('effect_not_logged is never excused: not by an exception, not by grandfathering', async () => {
    const call = key('ci-1');
    const dir = writeFiles(tempDir(), {
      ...runs([['2026-11-30T10:00:00Z', call]]),
      '.assay/audit/s.ndjson': day('2026-11-30', '2026-12-01'),
    });
    const first = await verify(dir);
    const binding = first.report.calls[0]?.subject_digest ?? '';
    const sha = (await import('node:crypto'))
      .createHash('sha256')
      .update(readFileSync(path.join(dir, '.assay/runs/agent.log')))
      .digest('hex');
    writeFiles(dir, {
      '.github/receipt-gate.yml': `version: 1\nrules:\n  - name: keys\n    match: {class: github_deploy_key}\n    require: verified\nexceptions:\n  - {binding: "${binding}", rule: keys, reason: r, owner: o, expires: 2027-01-01}\ngrandfathered:\n  - {run: .assay/runs/agent.log, sha256: "${sha}", reason: old}\n`,
    });
    const r = await verify(dir);
    expect(r.code).toBe(1);
    expect(codes(r.report)).toContain('error effect_not_logged');
    expect(r.report.calls[0]).toMatchObject({ grandfathered: true, coverage: { status: 'covered' } });
  });

  it('shape: a member missing or of another type, an unknown member, since not before until, another version: invalid_artifact at the line', async () => {
    const bad = [
      { ...coverageStatement('2026-11-30', '2026-12-01'), actors: null },
      { ...coverageStatement('2026-11-30', '2026-12-01'), color: 'red' },
      coverageStatement('2026-12-01', '2026-11-30'),
      { ...coverageStatement('2026-11-30', '2026-12-01'), schema: 'receipt-gate.audit_coverage.v2' },
      { ...coverageStatement('2026-11-30', '2026-12-01'), actions: ['github_deploy_key'] },
    ];
    const dir = writeFiles(tempDir(), { ...runs([['2026-11-30T10:00:00Z', key('x')]]), '.assay/audit/s.ndjson': ndjson(bad) });
    const r = await verify(dir);
    expect(r.report.findings.filter((f) => f.code === 'invalid_artifact').map((f) => [f.line, f.message])).toEqual([
      [1, 'coverage statement: actors must be a list of strings (empty: the statement covers nothing)'],
      [2, 'coverage statement: unknown member "color"'],
      [3, 'coverage statement: since must be before until (the window is [since, until))'],
      [4, expect.stringMatching(/unsupported version "receipt-gate.audit_coverage.v2"/)],
      [5, 'coverage statement: actions: "github_deploy_key" is not CLASS:VERB'],
    ]);
    expect(r.report.coverage).toEqual([]);
  });

  it('trust as for records: with a trusted key an unsigned statement is record_untrusted and covers nothing; an identical copy counts once, with no finding', async () => {
    const signer = testSigner();
    const statement = coverageStatement('2026-11-30', '2026-12-01');
    const dir = writeFiles(tempDir(), {
      ...runs([['2026-11-30T10:00:00Z', key('ci-1')]]),
      '.assay/audit/s.ndjson': ndjson([statement]),
      'signer.pub.pem': signer.pem,
    });
    const untrusted = await verify(dir, '--trusted-key', 'signer.pub.pem');
    expect(codes(untrusted.report)).toEqual(['error record_untrusted']);
    expect(judged(untrusted.report)[0]?.message).toMatch(
      /^coverage statement \(github-audit-log, \[2026-11-30T00:00:00Z, 2026-12-01T00:00:00Z\)\) is not from a trusted signer: unsigned; it covers nothing$/,
    );
    expect(untrusted.report.calls[0]?.coverage).toBeNull();
    writeFiles(dir, { '.assay/audit/copy.ndjson': ndjson([statement]) });
    const twice = await verify(dir);
    expect(codes(twice.report)).toEqual(['error effect_not_logged']);
    expect(twice.report.coverage.map((s) => [s.file, s.usable, s.same_as ?? null])).toEqual([
      ['.assay/audit/copy.ndjson', true, null],
      ['.assay/audit/s.ndjson', false, { file: '.assay/audit/copy.ndjson', line: 1 }],
    ]);
  });
});
