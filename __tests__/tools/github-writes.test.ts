/**
 * The writes agents do most on GitHub, from GitHub's own records (docs/producers-and-providers.md §4,
 * the GitHub rows): webhook deliveries of `issues`, `issue_comment`, `pull_request`, `push`,
 * `labeled` and `member`, and the audit log's `repo.add_member`, each to its github_* class bound on
 * GitHub's ids. A table: per delivery, the subject it maps to, a skip, or a located error; then a
 * round trip to `verified`, and `effect_not_logged` for a write the export never saw.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.js';
import { targetHash } from '../../src/core/target-hash.js';
import { decision, ndjson, serverLog } from '../support/corpus.js';
import { runImporter } from '../support/importer.js';
import { cleanup, cli, tempDir, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

const AGENT = 'agent-app[bot]';
const repository = { name: 'api', full_name: 'acme/api', owner: { login: 'acme' } };
/** A delivery as GET …/hooks/HOOK/deliveries/ID returns it. */
const delivery = (guid: string, event: string, payload: Record<string, unknown>) => ({
  id: 1,
  guid,
  delivered_at: '2026-11-30T10:00:00Z',
  event,
  action: payload['action'] ?? null,
  request: {
    headers: { 'X-GitHub-Event': event, 'X-GitHub-Delivery': guid },
    payload: { repository, sender: { login: AGENT }, ...payload },
  },
});
const SHA = 'a'.repeat(40);
/** A delivery whose X-GitHub-Event header names another event than its `event`. */
const contradicted = (d: ReturnType<typeof delivery>, header: string): ReturnType<typeof delivery> => ({
  ...d,
  request: { ...d.request, headers: { ...d.request.headers, 'X-GitHub-Event': header } },
});

const CASES: readonly [string, ReturnType<typeof delivery>, unknown][] = [
  ['an issue opened', delivery('g1', 'issues', { action: 'opened', issue: { number: 12 } }), ['github_issue', 'create', { number: 12 }]],
  ['an issue closed', delivery('g2', 'issues', { action: 'closed', issue: { number: 12 } }), ['github_issue', 'close', { number: 12 }]],
  [
    'a comment',
    delivery('g3', 'issue_comment', { action: 'created', comment: { id: 9001 }, issue: { number: 12 } }),
    ['github_issue_comment', 'create', { comment_id: 9001 }],
  ],
  [
    'a pull request opened',
    delivery('g4', 'pull_request', { action: 'opened', pull_request: { number: 3 } }),
    ['github_pull_request', 'create', { number: 3 }],
  ],
  [
    'a pull request merged',
    delivery('g5', 'pull_request', { action: 'closed', pull_request: { number: 3, merged: true } }),
    ['github_pull_request', 'merge', { number: 3 }],
  ],
  [
    'a pull request closed',
    delivery('g6', 'pull_request', { action: 'closed', pull_request: { number: 4, merged: false } }),
    ['github_pull_request', 'close', { number: 4 }],
  ],
  [
    'a push',
    delivery('g7', 'push', { ref: 'refs/heads/agent/fix', after: SHA, deleted: false }),
    ['github_branch_push', 'push', { ref: 'refs/heads/agent/fix', after: SHA }],
  ],
  [
    'a label',
    delivery('g8', 'issues', { action: 'labeled', issue: { number: 12 }, label: { name: 'Needs-Review' } }),
    ['github_label', 'add', { number: 12, label_hash: targetHash('github_label', 'needs-review') }],
  ],
  [
    'a member',
    delivery('g9', 'member', { action: 'added', member: { login: 'Octocat' } }),
    ['github_repo_member', 'add', { user_hash: targetHash('github_user', 'octocat') }],
  ],
  ['a deleted branch', delivery('g10', 'push', { ref: 'refs/heads/x', after: '0'.repeat(40), deleted: true }), 'a deleted branch'],
  ['an issue edited', delivery('g11', 'issues', { action: 'edited', issue: { number: 12 } }), 'other action'],
  ['a star', delivery('g12', 'watch', { action: 'started' }), 'other event'],
  [
    'a comment without its id',
    delivery('g13', 'issue_comment', { action: 'created', comment: {} }),
    /issue_comment created delivery "?g13"? without comment\.id/,
  ],
  // A red team's false greens (this stop): each became a record of a side effect that did not happen, or of another repository.
  ['a deploy key deleted', delivery('g14', 'deploy_key', { action: 'deleted', key: { id: 7, title: 'deploy-1' } }), 'other action'],
  [
    'a deploy key payload without its action',
    delivery('g15', 'deploy_key', { key: { id: 7, title: 'deploy-1' } }),
    /a deploy_key payload without action/,
  ],
  ['a tag pushed', delivery('g16', 'push', { ref: 'refs/tags/v9', after: SHA, deleted: false }), 'a push of a ref that is not a branch'],
  [
    'a full_name that names another repository than owner.login/name',
    delivery('g17', 'issues', {
      action: 'opened',
      issue: { number: 5 },
      repository: { name: 'secret', full_name: 'acme/api', owner: { login: 'evil' } },
    }),
    /repository\.full_name \("?acme\/api"?\) is not its owner\.login\/name \("?evil\/secret"?\)/,
  ],
  [
    'an event that its X-GitHub-Event header contradicts',
    contradicted(delivery('g18', 'issues', { action: 'opened', issue: { number: 5 } }), 'ping'),
    /names two events: "?issues"? and its X-GitHub-Event header "?ping"?/,
  ],
];

/** One import of these entries (the shared importer tester). */
const importOne = (entries: unknown[], kind = 'github-webhook', extra: string[] = []) =>
  runImporter('import', kind, { 'in.ndjson': ndjson(entries) }, extra);

describe('webhook deliveries of the writes agents do most', () => {
  it.each(CASES)('%s', async (_name, entry, expected) => {
    const r = await importOne([entry]);
    if (Array.isArray(expected)) {
      const [actionClass, verb, fields] = expected as [string, string, Record<string, unknown>];
      expect(r.code, r.stderr).toBe(0);
      expect(r.lines).toEqual([
        expect.objectContaining({
          provider: 'github',
          record_id: `github-delivery:${entry.guid}`,
          subject: { action_class: actionClass, verb, target: { owner: 'acme', repo: 'api', ...fields } },
        }),
      ]);
    } else if (typeof expected === 'string') {
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`1 ${expected}`);
    } else {
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(expected as RegExp);
    }
  });

  it('the audit log’s repo.add_member → github_repo_member/add, the member hashed; coverage names the new action', async () => {
    const entry = {
      '@timestamp': Date.parse('2026-11-30T10:00:00Z'),
      _document_id: 'm1',
      action: 'repo.add_member',
      actor: AGENT,
      repo: 'acme/api',
      user: 'Octocat',
    };
    const r = await importOne([entry], 'github-audit-log', [
      '--actor',
      AGENT,
      '--owner',
      'acme',
      '--since',
      '2026-11-30',
      '--until',
      '2026-12-01',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.lines[0].actions).toEqual(['github_deploy_key:create', 'github_repo_member:add']);
    expect(r.lines[1]).toMatchObject({
      record_id: 'github-audit:m1',
      subject: {
        action_class: 'github_repo_member',
        verb: 'add',
        target: { owner: 'acme', repo: 'api', user_hash: targetHash('github_user', 'octocat') },
      },
    });
  });
});

describe('round trips: the agent’s claim against GitHub’s record', () => {
  const write = (resourceType: string, verb: string, target: Record<string, unknown>) =>
    decision({ tool: `github.${resourceType}`, verb, resourceType, target: { provider: 'github', owner: 'acme', repo: 'api', ...target } });

  it('an issue and a comment the agent made are verified by the day’s deliveries; an issue the export never saw is effect_not_logged', async () => {
    const dir = writeFiles(tempDir(), {
      'deliveries.ndjson': ndjson([
        delivery('g1', 'issues', { action: 'opened', issue: { number: 12 } }),
        delivery('g3', 'issue_comment', { action: 'created', comment: { id: 9001 } }),
      ]),
      '.assay/runs/agent.log': serverLog([
        ['2026-11-30T09:59:00Z', write('github_issue', 'create', { number: 12 })],
        ['2026-11-30T10:00:00Z', write('github_issue_comment', 'create', { comment_id: 9001 })],
        ['2026-11-30T11:00:00Z', write('github_issue', 'create', { number: 13 })],
      ]),
    });
    const imported = await cli(
      [
        'import',
        'github-webhook',
        '--actor',
        AGENT,
        '--repo',
        'acme/api',
        '--since',
        '2026-11-30',
        '--until',
        '2026-12-01',
        '--output',
        '.assay/audit/webhook.ndjson',
        'deliveries.ndjson',
      ],
      dir,
    );
    expect(imported.code, imported.stderr).toBe(0);
    const r = await cli(['verify', '-C', dir, '--format', 'json', '--now', '2026-12-01T12:00:00Z'], dir);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.calls.map((c) => [c.tool, c.level])).toEqual([
      ['github.github_issue', 'verified'],
      ['github.github_issue_comment', 'verified'],
      ['github.github_issue', 'asserted'],
    ]);
    expect(report.totals.effect_not_logged).toBe(1);
    expect(report.findings.find((f) => f.code === 'effect_not_logged')?.message).toMatch(/github-webhook export/);
    expect(r.code).toBe(1);
  });
});

describe('a statement claims only what the import read (a red team, this stop: coverage.md §6)', () => {
  const window = [
    '--actor',
    AGENT,
    '--repo',
    'acme/api',
    '--since',
    '2026-11-30',
    '--until',
    '2026-12-01',
    '--now',
    '2026-12-01T01:00:00Z',
  ];

  it('an entry of the scope without a time refuses the statement (it may be inside the window): nothing written', async () => {
    const untimed = { ...delivery('u1', 'issues', { action: 'opened', issue: { number: 5 } }), delivered_at: undefined };
    const r = await importOne([delivery('t1', 'issues', { action: 'opened', issue: { number: 4 } }), untimed], 'github-webhook', window);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/in\.ndjson:2:1: an entry of the scope without a time: whether it falls in the window cannot be said/);
    expect(r.stderr).toMatch(/nothing written/);
    expect(r.lines).toEqual([]);
    // Without a window nothing is claimed, and the untimed delivery is a record like any other.
    const plain = await importOne([untimed]);
    expect(plain.code).toBe(0);
    expect(plain.lines).toHaveLength(1);
  });

  it('a Slack page whose next cursor says more pages follow, with no page ending the listing, claims no window; every page given does', async () => {
    const entry = (id: string) => ({
      id,
      date_create: 1796166000,
      action: 'user_channel_join',
      actor: { type: 'user', user: { id: 'UHUMAN' } },
      entity: { type: 'channel', channel: { id: 'C1' } },
      context: { location: { type: 'workspace', id: 'T1' } },
    });
    const page = (id: string, cursor: string) => JSON.stringify({ entries: [entry(id)], response_metadata: { next_cursor: cursor } });
    const args = ['--actor', 'UAGENT', '--since', '2026-12-01', '--until', '2026-12-02', '--now', '2026-12-02T01:00:00Z'];
    const first = await runImporter('import', 'slack-audit-log', { 'in1.json': page('e1', 'dXNlcjpVMEc5V0ZYTlo=') }, args);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(
      /in1\.json:1:1: this page says more pages follow \(its next cursor is set\) and no page given ends the listing/,
    );
    const both = await runImporter(
      'import',
      'slack-audit-log',
      { 'in1.json': page('e1', 'dXNlcjpVMEc5V0ZYTlo='), 'in2.json': page('e2', '') },
      args,
    );
    expect(both.code, both.stderr).toBe(0);
    expect(both.lines.map((l) => (l as { schema: string }).schema)).toContain('receipt-gate.audit_coverage.v1');
    // A last page that names no cursor at all ends the listing too (the recipe stops there; CloudTrail leaves NextToken out).
    const bare = await runImporter(
      'import',
      'slack-audit-log',
      { 'in1.json': page('e1', 'dXNlcjpVMEc5V0ZYTlo='), 'in2.json': JSON.stringify({ entries: [entry('e2')] }) },
      args,
    );
    expect(bare.code, bare.stderr).toBe(0);
  });
});
