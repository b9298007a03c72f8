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
import { expectImport, runImporter, verifyIn } from '../support/importer.js';
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
  // A red team's: GitHub sends `opened` to the repository an issue is transferred to; no issue was created there.
  [
    'an issue transferred in',
    delivery('g19', 'issues', {
      action: 'opened',
      issue: { number: 101 },
      changes: { old_issue: { number: 7 }, old_repository: { name: 'legacy', full_name: 'acme/legacy', owner: { login: 'acme' } } },
    }),
    'issue transferred in, not created',
  ],
  [
    'an issue opened whose changes are not a transfer’s',
    delivery('g20', 'issues', { action: 'opened', issue: { number: 5 }, changes: { title: { from: 'x' } } }),
    /an issues opened delivery "?g20"? with changes that are not a transfer’s .*created or transferred cannot be told/,
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

describe('one event, one identity, whichever shape carries it (a red team: a deploy key given as a delivery and as its raw payload made two records)', () => {
  const key = (id: unknown, title = 'deploy-2026-11') => ({ id, title, created_at: '2026-11-30T10:00:00Z' });
  const viaDelivery = (guid: string, id: unknown, title?: string) =>
    delivery(guid, 'deploy_key', { action: 'created', key: key(id, title) });
  /** The body a receiver stored: no delivery around it, no headers. */
  const rawPayload = (id: unknown, title?: string) => ({ action: 'created', key: key(id, title), repository, sender: { login: AGENT } });
  const claim = decision({
    tool: 'github.add_deploy_key',
    verb: 'create',
    resourceType: 'github_deploy_key',
    target: { provider: 'github', owner: 'acme', repo: 'api', key_title_hash: targetHash('github_key_title', 'deploy-2026-11') },
  });

  it('a deploy key created, given as a delivery and as its raw payload, is one record named by its key; two keys are two records', async () => {
    const once = await importOne([viaDelivery('d1', 91827364), rawPayload(91827364)]);
    expect(once.code, once.stderr).toBe(0);
    expect(once.lines.map((l) => l.record_id)).toEqual(['github-deploy-key:acme/api:91827364']);
    expect(once.stderr).toMatch(/2 entries read, 1 record\(s\) written, 0 skipped, 1 duplicate\(s\) merged/);
    // A key id written as text is the same key.
    expect((await importOne([viaDelivery('d1', 91827364), rawPayload('91827364')])).lines).toHaveLength(1);
    // Two keys of one title in one repository are two events, never merged, whatever carries them.
    const two = await importOne([viaDelivery('d1', 91827364), rawPayload(91827365)]);
    expect(two.lines.map((l) => l.record_id)).toEqual(['github-deploy-key:acme/api:91827364', 'github-deploy-key:acme/api:91827365']);
    // One key told two ways: an error naming it, nothing written.
    expectImport(await importOne([viaDelivery('d1', 91827364), rawPayload(91827364, 'other-title')]), {
      refuses: /in\.ndjson:2:1: two entries with record id "?github-deploy-key:acme\/api:91827364"? map to different records/,
    });
    // A key without an id a record can be named by: located.
    for (const id of [undefined, 1.5, 'k-1'])
      expectImport(await importOne([viaDelivery('d1', id)]), { refuses: /a deploy_key created payload without key\.id, a whole number/ });
  });

  it('imported once each way into two files, the gate counts the one event once: a second call claiming the key is not verified', async () => {
    const dir = writeFiles(tempDir(), {
      'delivery.ndjson': ndjson([viaDelivery('d1', 91827364)]),
      'raw.json': JSON.stringify(rawPayload(91827364)),
      '.assay/runs/agent.log': serverLog([
        ['2026-11-30T09:59:00Z', claim],
        ['2026-11-30T10:01:00Z', claim],
      ]),
    });
    for (const [input, out] of [
      ['delivery.ndjson', '.assay/audit/a.ndjson'],
      ['raw.json', '.assay/audit/b.ndjson'],
    ] as const)
      expect((await cli(['import', 'github-webhook', '--output', out, input], dir)).code).toBe(0);
    const { code, report } = await verifyIn(dir, '2026-12-01T12:00:00Z', ['--require', 'github_deploy_key:create=verified']);
    // One entry exported twice: one record, its copy named beside it, never a second record.
    expect(report.records.map((r) => [r.record_id, r.file, (r.also_at ?? []).map((a) => a.file)])).toEqual([
      ['github-deploy-key:acme/api:91827364', '.assay/audit/a.ndjson', ['.assay/audit/b.ndjson']],
    ]);
    expect(report.totals.imported_twice).toBe(1);
    expect(report.calls.map((c) => c.level)).toEqual(['verified', 'asserted']);
    expect(code).toBe(1);
  });

  it('an issue transferred in and an issue opened under one guid contradict each other: an error, never the create taken', async () => {
    const opened = delivery('g1', 'issues', { action: 'opened', issue: { number: 101 } });
    const moved = delivery('g1', 'issues', {
      action: 'opened',
      issue: { number: 101 },
      changes: { old_issue: { number: 7 }, old_repository: { name: 'legacy', full_name: 'acme/legacy', owner: { login: 'acme' } } },
    });
    for (const entries of [
      [opened, moved],
      [moved, opened],
    ])
      expectImport(await importOne(entries), { refuses: /two entries with record id "?github-delivery:g1"? say different things/ });
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

  // A red team's: a stored request body without its X-GitHub-Event header (the agent's issue opened) was counted "other event" beside a statement.
  it('a raw payload whose event is not named, of the scope, refuses the statement; another actor’s is counted; without a window it is counted', async () => {
    const body = { action: 'opened', issue: { number: 101 }, repository, sender: { login: AGENT } };
    const comment = delivery('c1', 'issue_comment', { action: 'created', comment: { id: 9001 } });
    const windowed = await importOne([comment, body], 'github-webhook', window);
    expectImport(windowed, {
      refuses:
        /in\.ndjson:2:1: an entry of the scope that does not say whether or what it changed \(raw payload whose event is not named: store X-GitHub-Event with it, or import the delivery\): the window cannot be claimed complete/,
    });
    const stranger = await importOne([comment, { ...body, sender: { login: 'octocat' } }], 'github-webhook', window);
    expect(stranger.code, stranger.stderr).toBe(0);
    expect(stranger.stderr).toMatch(/1 skipped \(1 raw payload whose event is not named/);
    const plain = await importOne([comment, body]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.lines.map((l) => l.record_id)).toEqual(['github-delivery:c1']);
    expect(plain.stderr).toMatch(/1 skipped \(1 raw payload whose event is not named/);
    // A delivery that names no event (no `event`, no X-GitHub-Event header): an error, with or without a window.
    const d = delivery('n1', 'issues', { action: 'opened', issue: { number: 5 } });
    const eventless = { ...d, event: undefined, request: { ...d.request, headers: { 'X-GitHub-Delivery': 'n1' } } };
    for (const args of [[], window])
      expectImport(await importOne([eventless], 'github-webhook', args), {
        refuses: /in\.ndjson:1:1: delivery "?n1"? names no event \(no event, no X-GitHub-Event header\)/,
      });
  });

  // A red team's: an issues opened delivery without its repository was "other event" beside a statement, and the gate passed.
  it('a delivery of an event this maps without its repository is an error, with or without a window; another event without one is counted', async () => {
    const comment = delivery('c1', 'issue_comment', { action: 'created', comment: { id: 9001 } });
    const opened = delivery('o1', 'issues', { action: 'opened', issue: { number: 5 } });
    const bare = { ...opened, request: { ...opened.request, payload: { ...opened.request.payload, repository: { name: 'api' } } } };
    for (const args of [[], window])
      expectImport(await importOne([comment, bare], 'github-webhook', args), {
        refuses: /in\.ndjson:2:\d+: a issues opened delivery "?o1"? without repository\.owner\.login and repository\.name/,
      });
    const star = delivery('s1', 'star', { action: 'created' });
    const other = { ...star, request: { ...star.request, payload: { action: 'created', sender: { login: AGENT } } } };
    const r = await importOne([comment, other], 'github-webhook', window);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/1 skipped \(1 other event\)/);
  });

  // A red team's second pass: "Issues", or two X-GitHub-Event headers (ping and issues), were "other event" beside a statement.
  it('an event GitHub does not spell so, or two X-GitHub-Event headers naming two events, is an error; not other event', async () => {
    const comment = delivery('c1', 'issue_comment', { action: 'created', comment: { id: 9001 } });
    const opened = delivery('o1', 'issues', { action: 'opened', issue: { number: 5 } });
    const capital = { ...opened, event: 'Issues', request: { ...opened.request, headers: { 'X-GitHub-Delivery': 'o1' } } };
    expectImport(await importOne([comment, capital], 'github-webhook', window), {
      refuses: /in\.ndjson:2:1: delivery "?o1"? names the event "?Issues"?, which GitHub does not send/,
    });
    const twice = {
      ...opened,
      event: undefined,
      request: { ...opened.request, headers: { 'X-GitHub-Event': 'ping', 'x-github-event': 'issues', 'X-GitHub-Delivery': 'o1' } },
    };
    expectImport(await importOne([comment, twice], 'github-webhook', window), {
      refuses: /in\.ndjson:2:1: delivery "?o1"? gives its X-GitHub-Event header twice, with two events/,
    });
  });

  it('a Slack page whose next cursor says more pages follow claims no window unless a page after it in its file ends the listing; a page of another file never does', async () => {
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
      /in1\.json:1:1: this page says more pages follow \(its next cursor is set\) and it is the last page of its file/,
    );
    // Every page of the listing in one file, one after another (the recipe's `cat >>`): covered.
    const both = await runImporter('import', 'slack-audit-log', { 'in.json': page('e1', 'dXNlcjpVMEc5V0ZYTlo=') + page('e2', '') }, args);
    expect(both.code, both.stderr).toBe(0);
    expect(both.lines.map((l) => (l as { schema: string }).schema)).toContain('receipt-gate.audit_coverage.v1');
    // A last page that names no cursor at all ends the listing too (the recipe stops there; CloudTrail leaves NextToken out).
    const bare = await runImporter(
      'import',
      'slack-audit-log',
      { 'in.json': page('e1', 'dXNlcjpVMEc5V0ZYTlo=') + JSON.stringify({ entries: [entry('e2')] }) },
      args,
    );
    expect(bare.code, bare.stderr).toBe(0);
    // A page does not name its own cursor: a last page in another file may be another listing's, so it ends nothing here.
    const split = await runImporter(
      'import',
      'slack-audit-log',
      { 'in1.json': page('e1', 'dXNlcjpVMEc5V0ZYTlo='), 'in2.json': page('e2', '') },
      args,
    );
    expectImport(split, { refuses: /in1\.json:1:1: this page says more pages follow/ });
  });
});
