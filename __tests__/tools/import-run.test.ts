/**
 * Runs from producers that are not Assay's proxy (docs/producers.md): a gh-aw safe-outputs manifest
 * and OpenTelemetry JSON lines (execute_tool spans, Copilot CLI's span lines, Claude Code's
 * tool_result events) become runs the gate reads. Tables of lines → the calls written (subject,
 * asserted or not, the reason a subject is missing), counted skips and located errors; the mapping
 * file's problems located in it; and round trips against webhook deliveries to `verified`,
 * `effect_not_logged` and a record that must not bind.
 */
import { cpSync, existsSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { targetHash } from '../../src/core/target-hash.js';
import { decisionsOf, type Expected, expectEnvelopes, expectImport, runImporter, subjectOf, verifyIn } from '../support/importer.js';
import { cleanup, cli, ROOT, tempDir, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

const FX = path.join(ROOT, 'fixtures/producers');
const MAP = readFileSync(path.join(ROOT, 'examples/mappings/github-mcp-server.yml'), 'utf8');
const SHA = '3b7e41d2c0a9f8e7d6c5b4a3928170615f4e3d2c';
const line = (o: unknown) => `${JSON.stringify(o)}\n`;
const at = '2026-11-30T09:14:07.412Z';

/** One manifest line, and what it becomes. */
const MANIFEST: readonly [string, Record<string, unknown>, Expected][] = [
  [
    'create_issue (the current shape)',
    {
      type: 'create_issue',
      url: 'https://github.com/acme/api/issues/101',
      number: 101,
      repo: 'acme/api',
      provider: 'github',
      id: 2876543101,
      timestamp: at,
    },
    {
      writes: (l) => expect(subjectOf(decisionsOf(l)[0])).toEqual(['github_issue', 'create', { owner: 'acme', repo: 'api', number: 101 }]),
    },
  ],
  [
    'create_issue (an early gh-aw: type, url, timestamp only): owner, repo and number from the url',
    { type: 'create_issue', url: 'https://github.com/acme/api/issues/7', timestamp: at },
    { writes: (l) => expect(subjectOf(decisionsOf(l)[0])).toEqual(['github_issue', 'create', { owner: 'acme', repo: 'api', number: 7 }]) },
  ],
  [
    'close_issue (gh-aw writes no repo for a close)',
    { type: 'close_issue', url: 'https://github.com/acme/api/issues/101', number: 101, provider: 'github', timestamp: at },
    { writes: (l) => expect(subjectOf(decisionsOf(l)[0])).toEqual(['github_issue', 'close', { owner: 'acme', repo: 'api', number: 101 }]) },
  ],
  [
    'add_comment: the comment id, from its field',
    {
      type: 'add_comment',
      url: 'https://github.com/acme/api/pull/7#issuecomment-3561000101',
      number: 7,
      repo: 'acme/api',
      id: 3561000101,
      timestamp: at,
    },
    {
      writes: (l) =>
        expect(subjectOf(decisionsOf(l)[0])).toEqual([
          'github_issue_comment',
          'create',
          { owner: 'acme', repo: 'api', comment_id: 3561000101 },
        ]),
    },
  ],
  [
    'add_comment (no id field): the comment id from the url',
    { type: 'add_comment', url: 'https://github.com/acme/api/issues/9#issuecomment-42', number: 9, timestamp: at },
    {
      writes: (l) =>
        expect(subjectOf(decisionsOf(l)[0])).toEqual(['github_issue_comment', 'create', { owner: 'acme', repo: 'api', comment_id: 42 }]),
    },
  ],
  [
    'create_pull_request',
    { type: 'create_pull_request', url: 'https://github.com/acme/api/pull/102', number: 102, repo: 'acme/api', timestamp: at },
    {
      writes: (l) =>
        expect(subjectOf(decisionsOf(l)[0])).toEqual(['github_pull_request', 'create', { owner: 'acme', repo: 'api', number: 102 }]),
    },
  ],
  [
    'create_pull_request that fell back to an issue (its url says /issues/): an issue was created',
    { type: 'create_pull_request', url: 'https://github.com/acme/api/issues/43', number: 43, repo: 'acme/api', timestamp: at },
    { writes: (l) => expect(subjectOf(decisionsOf(l)[0])).toEqual(['github_issue', 'create', { owner: 'acme', repo: 'api', number: 43 }]) },
  ],
  [
    'close_pull_request',
    { type: 'close_pull_request', url: 'https://github.com/acme/api/pull/5', number: 5, timestamp: at },
    {
      writes: (l) =>
        expect(subjectOf(decisionsOf(l)[0])).toEqual(['github_pull_request', 'close', { owner: 'acme', repo: 'api', number: 5 }]),
    },
  ],
  [
    'push_to_pull_request_branch without --pull-requests: asserted, no subject, and the summary says why',
    {
      type: 'push_to_pull_request_branch',
      url: 'https://github.com/acme/api/pull/102',
      number: 102,
      repo: 'acme/api',
      after_state: { head_sha: SHA },
      timestamp: at,
    },
    {
      writes: (l) => {
        const [d] = decisionsOf(l);
        expect(subjectOf(d)).toBeNull();
        expect(d.response.side_effect_asserted).toBe(true);
        expect(d.import.note).toMatch(
          /no ref \(the manifest names no branch: --pull-requests gives the head of a pull request in this repository\)/,
        );
      },
      says: /1 asserting without one, 0 asserting nothing\); 1 gh-aw\.push_to_pull_request_branch without a subject/,
    },
  ],
  [
    'push_to_pull_request_branch refused for protected files (an issue instead, head unchanged): an issue was created, nothing pushed',
    {
      type: 'push_to_pull_request_branch',
      url: 'https://github.com/acme/api/issues/44',
      number: 44,
      before_state: { head_sha: SHA },
      after_state: { head_sha: SHA },
      timestamp: at,
    },
    { writes: (l) => expect(subjectOf(decisionsOf(l)[0])).toEqual(['github_issue', 'create', { owner: 'acme', repo: 'api', number: 44 }]) },
  ],
  [
    'add_labels: one call per label added, each hashed',
    { type: 'add_labels', number: 101, repo: 'acme/api', labelsAdded: ['bug', 'Needs Triage'], timestamp: at },
    {
      writes: (l) =>
        expect(decisionsOf(l).map(subjectOf)).toEqual(
          ['bug', 'needs triage'].map((name) => [
            'github_label',
            'add',
            { owner: 'acme', repo: 'api', number: 101, label_hash: targetHash('github_label', name) },
          ]),
        ),
    },
  ],
  [
    'add_labels that added none: counted, no call',
    { type: 'add_labels', number: 101, repo: 'acme/api', labelsAdded: [], timestamp: at },
    { skips: /1 add_labels with no label added/ },
  ],
  [
    'a type with no class (update_issue): a call asserting its write with no subject, never dropped',
    { type: 'update_issue', number: 101, repo: 'acme/api', timestamp: at },
    {
      writes: (l) => {
        const [d] = decisionsOf(l);
        expect([d.tool.name, subjectOf(d), d.response.side_effect_asserted]).toEqual(['gh-aw.update_issue', null, true]);
      },
      says: /1 gh-aw\.update_issue without a subject/,
    },
  ],
  [
    'another provider’s item (Jira): no GitHub subject',
    { type: 'jira_create_issue', provider: 'jira', identifier: 'OPS-12', timestamp: at },
    { writes: (l) => expect(decisionsOf(l)[0].import.note).toMatch(/provider "jira" \(not GitHub\)/) },
  ],
  [
    'a provider given as an object: located, never read as GitHub (a red team)',
    { type: 'create_issue', provider: { name: 'jira' }, url: 'https://github.com/acme/api/issues/201', timestamp: at },
    { refuses: /"create_issue" item: provider is given, but not as text/ },
  ],
  ['noop: not a write', { type: 'noop', timestamp: at }, { skips: /1 noop \(not a write\)/ }],
  [
    'a repo field and a url naming two repositories: no subject (the line does not say which was written)',
    { type: 'create_issue', url: 'https://github.com/acme/other/issues/5', number: 5, repo: 'acme/api', timestamp: at },
    {
      writes: (l) =>
        expect(decisionsOf(l)[0].import.note).toBe('the repo field, target.repository and the url name different repositories'),
    },
  ],
  [
    'a number field and a url naming two numbers: no subject',
    { type: 'close_issue', url: 'https://github.com/acme/api/issues/5', number: 6, timestamp: at },
    { writes: (l) => expect(decisionsOf(l)[0].import.note).toBe('the number field and the url name different numbers') },
  ],
  [
    'an id field and a url naming two comments: no subject',
    {
      type: 'add_comment',
      url: 'https://github.com/acme/api/issues/101#issuecomment-999',
      repo: 'acme/api',
      id: 3561000101,
      timestamp: at,
    },
    { writes: (l) => expect(decisionsOf(l)[0].import.note).toBe('the id field and the url name different comments') },
  ],
  [
    'the repo field and target.repository naming two repositories: no subject',
    { type: 'create_issue', number: 5, repo: 'acme/api', target: { repository: 'other/x' }, timestamp: at },
    {
      writes: (l) =>
        expect(decisionsOf(l)[0].import.note).toBe('the repo field, target.repository and the url name different repositories'),
    },
  ],
  ...(['-101', '101.5', '"101"'] as const).map((n): [string, Record<string, unknown>, Expected] => [
    `a number field that is no whole number (${n}) never falls back to the url`,
    { type: 'create_issue', url: 'https://github.com/acme/api/issues/101', number: JSON.parse(n), timestamp: at },
    { writes: (l) => expect(decisionsOf(l)[0].import.note).toBe('the number field is not a whole number') },
  ]),
  [
    'a url on another host binds nothing (a subject names no host)',
    { type: 'create_issue', url: 'https://evil.example/acme/api/issues/101', timestamp: at },
    { writes: (l) => expect(subjectOf(decisionsOf(l)[0])).toBeNull() },
  ],
  [
    'a url with a leading zero or a query is no GitHub url: no id from it',
    { type: 'create_issue', url: 'https://github.com/acme/api/issues/012', timestamp: at },
    { writes: (l) => expect(subjectOf(decisionsOf(l)[0])).toBeNull() },
  ],
  [
    'a line without a timestamp: located',
    { type: 'create_issue', url: 'https://github.com/acme/api/issues/1' },
    { refuses: /in\.jsonl:1:1: .*timestamp is missing/ },
  ],
  ['a line without a type: located', { number: 3 }, { refuses: /in\.jsonl:1:1: a manifest line without a type/ }],
];

describe('import-run gh-aw-manifest: each line as gh-aw writes it', () => {
  it.each(MANIFEST)('%s', async (_name, item, expected) => {
    const r = await runImporter('import-run', 'gh-aw-manifest', { 'in.jsonl': line(item) });
    expectImport(r, expected);
    if ('writes' in expected) expectEnvelopes(r.lines, 'gh-aw-manifest');
  });

  it('a pull request from a fork gives no branch: its head is not in this repository', async () => {
    const pr = JSON.parse(readFileSync(path.join(FX, 'gh-aw/week/pull-requests.json'), 'utf8'));
    pr.head.repo.full_name = 'someone/api';
    const r = await runImporter(
      'import-run',
      'gh-aw-manifest',
      {
        'in.jsonl': line({
          type: 'push_to_pull_request_branch',
          url: 'https://github.com/acme/api/pull/102',
          number: 102,
          repo: 'acme/api',
          after_state: { head_sha: SHA },
          timestamp: at,
        }),
        'pulls.json': JSON.stringify(pr),
      },
      ['--pull-requests', 'pulls.json'],
    );
    expect(r.code, r.stderr).toBe(0);
    expect(subjectOf(decisionsOf(r.lines)[0])).toBeNull();
  });

  it('a push’s branch is its pull request’s head (--pull-requests: GET /repos/O/R/pulls/N as exported)', async () => {
    const r = await runImporter(
      'import-run',
      'gh-aw-manifest',
      {
        'in.jsonl': line({
          type: 'push_to_pull_request_branch',
          url: 'https://github.com/acme/api/pull/102',
          number: 102,
          repo: 'acme/api',
          after_state: { head_sha: SHA },
          timestamp: at,
        }),
        'pulls.json': readFileSync(path.join(FX, 'gh-aw/week/pull-requests.json'), 'utf8'),
      },
      ['--pull-requests', 'pulls.json'],
    );
    expect(r.code, r.stderr).toBe(0);
    expect(subjectOf(decisionsOf(r.lines)[0])).toEqual([
      'github_branch_push',
      'push',
      { owner: 'acme', repo: 'api', ref: 'refs/heads/agent/fix-retry-loop', after: SHA },
    ]);
  });

  it('a push whose places disagree, or that moved nothing, binds nothing (a red team, this stop)', async () => {
    const pulls = readFileSync(path.join(FX, 'gh-aw/week/pull-requests.json'), 'utf8');
    const push = (over: Record<string, unknown>) =>
      runImporter(
        'import-run',
        'gh-aw-manifest',
        {
          'in.jsonl': line({
            type: 'push_to_pull_request_branch',
            url: 'https://github.com/acme/api/pull/102',
            number: 102,
            repo: 'acme/api',
            after_state: { head_sha: SHA },
            timestamp: at,
            ...over,
          }),
          'pulls.json': pulls,
        },
        ['--pull-requests', 'pulls.json'],
      );
    const noteOf = async (over: Record<string, unknown>) => {
      const r = await push(over);
      expect(r.code, r.stderr).toBe(0);
      const [d] = decisionsOf(r.lines);
      expect(subjectOf(d)).toBeNull();
      return d.import.note;
    };
    expect(await noteOf({ metadata: { branch_name: 'main' } })).toBe("the branch the line names and its pull request's head differ");
    expect(await noteOf({ metadata: { commit_sha: 'b'.repeat(40) } })).toBe(
      'metadata.commit_sha and after_state.head_sha name different commits',
    );
    expect(await noteOf({ before_state: { head_sha: SHA } })).toBe('nothing was pushed: before_state and after_state name the same commit');
    // The same branch named twice, in both spellings, still binds.
    const same = await push({ metadata: { branch_name: 'agent/fix-retry-loop', ref: 'refs/heads/agent/fix-retry-loop' } });
    expect(subjectOf(decisionsOf(same.lines)[0])).toEqual([
      'github_branch_push',
      'push',
      { owner: 'acme', repo: 'api', ref: 'refs/heads/agent/fix-retry-loop', after: SHA },
    ]);
  });

  it.each([
    'https://ghe.corp.example/acme/api/issues/5',
    'https://github.com/evil/fork/issues/9/',
    'https://github.com/evil/fork/issues/9?x=1#issuecomment-77',
    'https://www.github.com/evil/fork/issues/9',
  ])('a url that is no github.com issue (%s) beside a repo field binds nothing: the repo field is never taken instead', async (url) => {
    const r = await runImporter('import-run', 'gh-aw-manifest', {
      'in.jsonl': line({ type: 'create_issue', url, repo: 'acme/api', number: 5, timestamp: at }),
    });
    expect(r.code, r.stderr).toBe(0);
    const [d] = decisionsOf(r.lines);
    expect(subjectOf(d)).toBeNull();
    expect(d.import.note).toMatch(/the url is not a github\.com issue, pull request or comment/);
  });

  it('an empty manifest (gh-aw writes one for a run that wrote nothing): no calls, no file; a hostile one: located errors, nothing written', async () => {
    const empty = await runImporter('import-run', 'gh-aw-manifest', { 'in.jsonl': '' });
    expect([empty.code, empty.lines]).toEqual([0, []]);
    expect(empty.stderr).toMatch(/0 lines read, 0 calls written .*not written/);
    const hostile = await runImporter('import-run', 'gh-aw-manifest', {
      'in.jsonl': [
        '{"type":"create_issue","__proto__":{"number":5},"url":"https://github.com/acme/api/issues/8","timestamp":"2026-11-30T09:00:00Z"}',
        '{"type":"create_issue","number":1e400,"timestamp":"2026-11-30T09:00:00Z"}',
        `{"type":"${'x'.repeat(5000)}","timestamp":"2026-11-30T09:00:00Z"}`,
        '{"type":"add_comment","id":"12","timestamp":"not a time"}',
        '{"type": "create_issue", "type": "close_issue", "timestamp":"2026-11-30T09:00:00Z"}',
        '{not json',
      ].join('\n'),
    });
    expect(hostile.code).toBe(1);
    expect(hostile.stderr).toMatch(/in\.jsonl:4:1: "add_comment" item: timestamp/);
    expect(hostile.stderr).toMatch(/in\.jsonl:5:\d+: .*duplicate/i);
    expect(hostile.stderr).toMatch(/in\.jsonl:6:\d+: /);
    expect(hostile.stderr).toMatch(/nothing written/);
  });

  it('__proto__ in a line is a member like any other: it never supplies a number', async () => {
    const r = await runImporter('import-run', 'gh-aw-manifest', {
      'in.jsonl': '{"type":"create_issue","__proto__":{"number":5},"repo":"acme/api","timestamp":"2026-11-30T09:00:00Z"}\n',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(decisionsOf(r.lines)[0].import.note).toBe('no number (number or the url)');
  });

  it('the run is the same bytes for the same manifest; it is never written over a different run', async () => {
    const dir = tempDir();
    const first = await runImporter('import-run', 'gh-aw-manifest', { 'in.jsonl': line(MANIFEST[0]?.[1]) }, [], undefined, dir);
    const bytes = readFileSync(path.join(dir, 'out.ndjson'), 'utf8');
    const again = await cli(['import-run', 'gh-aw-manifest', '--output', 'out.ndjson', 'in.jsonl'], dir);
    expect([first.code, again.code]).toEqual([0, 0]);
    expect(again.stderr).toMatch(/already there, the same bytes/);
    writeFiles(dir, { 'in.jsonl': line(MANIFEST[2]?.[1]) });
    const other = await cli(['import-run', 'gh-aw-manifest', '--output', 'out.ndjson', 'in.jsonl'], dir);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/exists and holds another run: a run is evidence, never replaced/);
    expect(readFileSync(path.join(dir, 'out.ndjson'), 'utf8')).toBe(bytes);
    // A link at the output (to a file, or to nothing) is never written through nor compared through.
    symlinkSync(path.join(dir, 'elsewhere.ndjson'), path.join(dir, 'link.ndjson'));
    const linked = await cli(['import-run', 'gh-aw-manifest', '--output', 'link.ndjson', 'in.jsonl'], dir);
    expect([linked.code, linked.stderr]).toEqual([2, expect.stringMatching(/it is a symbolic link: nothing is written through one/)]);
    expect(existsSync(path.join(dir, 'elsewhere.ndjson'))).toBe(false);
    const first0 = decisionsOf(first.lines)[0];
    expect(first0.import).toMatchObject({ kind: 'gh-aw-manifest', file: 'in.jsonl', line: 1 });
    expect(first0.import.source_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('usage: the kind comes first; --map is refused (the mapping is built in)', async () => {
    const dir = writeFiles(tempDir(), { 'in.jsonl': line(MANIFEST[0]?.[1]), 'm.yml': MAP });
    expect((await cli(['import-run', 'gh-aw', '--output', 'o.ndjson', 'in.jsonl'], dir)).stderr).toMatch(/gh-aw-manifest, otlp-json/);
    const r = await cli(['import-run', 'gh-aw-manifest', '--map', 'm.yml', '--output', 'o.ndjson', 'in.jsonl'], dir);
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/the mapping of gh-aw-manifest is built in/)]);
  });
});

describe('the gh-aw week against GitHub’s webhook deliveries (fixtures/producers/gh-aw/week)', () => {
  async function week(dir: string, deliveries = 'deliveries.json') {
    cpSync(path.join(FX, 'gh-aw/week'), dir, { recursive: true });
    for (const day of ['2026-11-30', '2026-12-01', '2026-12-02']) {
      const r = await cli(
        [
          'import-run',
          'gh-aw-manifest',
          '--pull-requests',
          'pull-requests.json',
          '--output',
          `.assay/runs/gh-aw-${day}.ndjson`,
          `${day}/safe-output-items.jsonl`,
        ],
        dir,
      );
      expect(r.code, r.stderr).toBe(0);
    }
    const imported = await cli(
      [
        'import',
        'github-webhook',
        '--actor',
        'acme-agents[bot]',
        '--repo',
        'acme/api',
        '--since',
        '2026-11-30',
        '--until',
        '2026-12-03',
        '--now',
        '2026-12-03T04:00:00Z',
        '--output',
        '.assay/audit/webhook.ndjson',
        deliveries,
      ],
      dir,
    );
    expect(imported.code, imported.stderr).toBe(0);
    return verifyIn(dir, '2026-12-03T12:00:00Z');
  }

  it('each write is verified by its delivery; the issue the export never saw is effect_not_logged', async () => {
    const { code, report } = await week(tempDir());
    expect(report.calls.map((c) => [c.tool, c.level])).toEqual([
      ['gh-aw.create_issue', 'verified'],
      ['gh-aw.add_comment', 'verified'],
      ['gh-aw.add_labels', 'verified'],
      ['gh-aw.add_labels', 'verified'],
      ['gh-aw.create_pull_request', 'verified'],
      ['gh-aw.push_to_pull_request_branch', 'verified'],
      ['gh-aw.add_comment', 'verified'],
      ['gh-aw.close_issue', 'verified'],
      ['gh-aw.create_issue', 'asserted'],
    ]);
    expect(report.totals).toMatchObject({ verified: 8, effect_not_logged: 1, bound: 8, unmatched: 0 });
    expect(report.findings.filter((f) => f.severity === 'error').map((f) => f.code)).toEqual(['effect_not_logged']);
    expect(code).toBe(1);
  });

  it('a delivery of another target (the label on another issue) binds nothing: the call stays asserted, the record is unmatched', async () => {
    const dir = tempDir();
    cpSync(path.join(FX, 'gh-aw/week'), dir, { recursive: true });
    const deliveries = JSON.parse(readFileSync(path.join(dir, 'deliveries.json'), 'utf8'));
    deliveries[2].request.payload.issue = { ...deliveries[2].request.payload.issue, number: 999 };
    writeFiles(dir, { 'other.json': JSON.stringify(deliveries) });
    const { report } = await week(dir, 'other.json');
    const labels = report.calls.filter((c) => c.tool === 'gh-aw.add_labels').map((c) => c.level);
    expect(labels.sort()).toEqual(['asserted', 'verified']);
    expect(report.totals.unmatched).toBe(1);
  });
});

/** One OTLP line with one execute_tool span. */
function spanLine(tool: string, attrs: Record<string, string>, status: unknown = {}): string {
  const kv = Object.entries({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool, ...attrs }).map(([key, v]) => ({
    key,
    value: { stringValue: v },
  }));
  return line({
    resourceSpans: [
      {
        scopeSpans: [
          {
            spans: [
              {
                traceId: 'a'.repeat(32),
                spanId: Math.random().toString(16).slice(2, 18).padEnd(16, '0'),
                name: `execute_tool ${tool}`,
                endTimeUnixNano: '1764583205250000000',
                attributes: kv,
                status,
              },
            ],
          },
        ],
      },
    ],
  });
}
const args = (o: unknown) => ({ 'gen_ai.tool.call.arguments': JSON.stringify(o) });
const result = (o: unknown) => ({ 'gen_ai.tool.call.result': JSON.stringify(o) });
/** The call asserts its write with no subject, and says why. */
const assertedWithout = (note: RegExp): Expected => ({
  writes: (l) => {
    const [d] = decisionsOf(l);
    expect(subjectOf(d)).toBeNull();
    expect(d.response.side_effect_asserted).toBe(true);
    expect(d.import.note).toMatch(note);
  },
});

const SPANS: readonly [string, string, Expected][] = [
  [
    'create_issue: owner and repo from the arguments, the number from the URL the server returned',
    spanLine('create_issue', {
      ...args({ owner: 'acme', repo: 'web' }),
      ...result({ id: '1', url: 'https://github.com/acme/web/issues/201' }),
    }),
    {
      writes: (l) => {
        const [d] = decisionsOf(l);
        expect(subjectOf(d)).toEqual(['github_issue', 'create', { owner: 'acme', repo: 'web', number: 201 }]);
        expect(d.action.target.provider).toBe('github');
        expect(l[0].time).toBe('2025-12-01T10:00:05.25Z');
      },
    },
  ],
  [
    'merge_pull_request: a number from the arguments (a digit string is the number)',
    spanLine('merge_pull_request', args({ owner: 'acme', repo: 'web', pullNumber: '202' })),
    {
      writes: (l) =>
        expect(subjectOf(decisionsOf(l)[0])).toEqual(['github_pull_request', 'merge', { owner: 'acme', repo: 'web', number: 202 }]),
    },
  ],
  [
    'push_files: ref and sha from the result',
    spanLine('push_files', {
      ...args({ owner: 'acme', repo: 'web', branch: 'x' }),
      ...result({ ref: 'refs/heads/x', object: { sha: SHA } }),
    }),
    {
      writes: (l) =>
        expect(subjectOf(decisionsOf(l)[0])).toEqual([
          'github_branch_push',
          'push',
          { owner: 'acme', repo: 'web', ref: 'refs/heads/x', after: SHA },
        ]),
    },
  ],
  [
    'a failed call (status ERROR): imported, asserting nothing',
    spanLine('create_issue', args({ owner: 'acme', repo: 'web' }), { code: 2, message: 'Not Found' }),
    {
      writes: (l) => expect(decisionsOf(l)[0].response).toMatchObject({ status: 'error', side_effect_asserted: false }),
      says: /1 failed/,
    },
  ],
  [
    'a tool the mapping does not name: asserting nothing, counted',
    spanLine('get_issue', args({ owner: 'acme', repo: 'web', issue_number: 1 })),
    { writes: (l) => expect(decisionsOf(l)[0].response.side_effect_asserted).toBe(false), says: /1 not in the mapping/ },
  ],
  [
    'content capture off: the write is asserted with no subject, and the import says how to turn capture on',
    spanLine('create_issue', {}),
    {
      writes: (l) => expect(subjectOf(decisionsOf(l)[0])).toBeNull(),
      says: /1 named without arguments.*OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true/,
    },
  ],
  [
    'a result without the URL: asserted, no subject, the field said',
    spanLine('create_issue', { ...args({ owner: 'acme', repo: 'web' }), ...result({ id: '1' }) }),
    { writes: (l) => expect(decisionsOf(l)[0].import.note).toBe('number: nothing at result.url') },
  ],
  [
    'a span without a time: located',
    line({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  name: 'x',
                  attributes: [
                    { key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } },
                    { key: 'gen_ai.tool.name', value: { stringValue: 'create_issue' } },
                  ],
                },
              ],
            },
          ],
        },
      ],
    }),
    { refuses: /in\.jsonl:1:1: the execute_tool span of "create_issue" has no end time/ },
  ],
  ['a line that is not OpenTelemetry: located', line({ hello: 'world' }), { refuses: /in\.jsonl:1:1: not an OTLP JSON line/ }],
  [
    'a result URL of another repository than the arguments’: no subject',
    spanLine('create_issue', { ...args({ owner: 'acme', repo: 'web' }), ...result({ url: 'https://github.com/other/x/issues/201' }) }),
    { writes: (l) => expect(decisionsOf(l)[0].import.note).toBe('the URL names another repository than acme/web') },
  ],
  // Embedded JSON is read as strictly as the file around it: a key given twice gives nothing (JSON.parse would take the last, another reader the first).
  [
    'arguments with a key given twice: asserted, no subject, the duplicate said',
    spanLine('create_issue', {
      'gen_ai.tool.call.arguments': '{"owner":"acme","repo":"web","repo":"prod"}',
      ...result({ url: 'https://github.com/acme/web/issues/201' }),
    }),
    assertedWithout(/gen_ai\.tool\.call\.arguments is not strict JSON \(duplicate key "repo"\)/),
  ],
  [
    'a result with a key given twice: asserted, no subject (never the last URL taken)',
    spanLine('create_issue', {
      ...args({ owner: 'acme', repo: 'web' }),
      'gen_ai.tool.call.result': '{"url":"https://github.com/acme/web/issues/201","url":"https://github.com/acme/web/issues/7"}',
    }),
    assertedWithout(/gen_ai\.tool\.call\.result is not strict JSON \(duplicate key "url"\)/),
  ],
  [
    'an MCP result whose text content holds a key twice: nothing read from it, no subject, the duplicate said',
    spanLine('create_issue', {
      ...args({ owner: 'acme', repo: 'web' }),
      ...result({
        content: [{ type: 'text', text: '{"url":"https://github.com/acme/web/issues/201","url":"https://github.com/acme/web/issues/7"}' }],
      }),
    }),
    {
      writes: (l) => {
        expect(subjectOf(decisionsOf(l)[0])).toBeNull();
        expect(decisionsOf(l)[0].import.note).toBe(`the result's text content is not strict JSON (duplicate key "url")`);
      },
    },
  ],
  [
    'a refused text content is never passed over for the next one (another reader would take the first)',
    spanLine('create_issue', {
      ...args({ owner: 'acme', repo: 'web' }),
      ...result({
        content: [
          { type: 'text', text: '{"url":"https://github.com/acme/web/issues/201","url":"https://github.com/acme/web/issues/7"}' },
          { type: 'text', text: '{"url":"https://github.com/acme/web/issues/9"}' },
        ],
      }),
    }),
    { writes: (l) => expect(subjectOf(decisionsOf(l)[0])).toBeNull() },
  ],
  [
    'a result that says isError beside a key given twice: never a success with a subject (the write asserted, unbound, the reason said)',
    spanLine('merge_pull_request', {
      ...args({ owner: 'acme', repo: 'web', pullNumber: 7 }),
      'gen_ai.tool.call.result': '{"isError":true,"content":[{"type":"text","text":"merge failed"}],"meta":1,"meta":2}',
    }),
    {
      writes: (l) => {
        expect(subjectOf(decisionsOf(l)[0])).toBeNull();
        expect(decisionsOf(l)[0].import.note).toMatch(/gen_ai\.tool\.call\.result is not strict JSON \(duplicate key "meta"\)/);
      },
    },
  ],
  [
    'arguments with a lone surrogate (JSON.parse takes it, the strict reader does not): no subject, the reason said',
    spanLine('create_issue', {
      'gen_ai.tool.call.arguments': '{"owner":"acme","repo":"web","title":"x \\ud83d"}',
      ...result({ url: 'https://github.com/acme/web/issues/201' }),
    }),
    {
      writes: (l) => {
        expect(subjectOf(decisionsOf(l)[0])).toBeNull();
        expect(decisionsOf(l)[0].import.note).toMatch(/gen_ai\.tool\.call\.arguments is not strict JSON \(lone UTF-16 surrogate/);
      },
    },
  ],
  [
    'a plain-text result (not JSON to anyone) stays text: the fields it cannot give are said',
    spanLine('create_issue', { ...args({ owner: 'acme', repo: 'web' }), 'gen_ai.tool.call.result': 'created issue 201' }),
    { writes: (l) => expect(decisionsOf(l)[0].import.note).toBe('number: nothing at result.url') },
  ],
  [
    'an MCP result with isError, the span OK: failed, asserting nothing',
    spanLine('create_issue', {
      ...args({ owner: 'acme', repo: 'web' }),
      ...result({ isError: true, content: [{ type: 'text', text: '{"url":"https://github.com/acme/web/issues/201"}' }] }),
    }),
    { writes: (l) => expect(decisionsOf(l)[0].response).toMatchObject({ status: 'error', side_effect_asserted: false }) },
  ],
  ...(['2', 'STATUS_CODE_ERROR'] as const).map((code): [string, string, Expected] => [
    `status.code ${JSON.stringify(code)}: failed`,
    spanLine('merge_pull_request', args({ owner: 'acme', repo: 'web', pullNumber: 1 }), { code }),
    { writes: (l) => expect(decisionsOf(l)[0].response.status).toBe('error') },
  ]),
  [
    'a status code that is no OpenTelemetry status: located',
    spanLine('merge_pull_request', args({ owner: 'acme', repo: 'web', pullNumber: 1 }), { code: 7 }),
    { refuses: /has status\.code 7, not an OpenTelemetry status/ },
  ],
  // A red team's: a status of another shape was read as unset, and the failed call as a success.
  ...(
    [
      ['a string', 'STATUS_CODE_ERROR'],
      ['"Code" for "code"', { Code: 2, message: 'boom' }],
    ] as const
  ).map(([what, status]): [string, string, Expected] => [
    `a status that is ${what}: located, never read as unset`,
    spanLine('create_issue', args({ owner: 'acme', repo: 'web' }), status),
    { refuses: /in\.jsonl:1:1: the execute_tool span of "create_issue" has a status that is not an object of code and message/ },
  ]),
  [
    'a status of a message alone (proto3 JSON leaves the unset code out): unset',
    spanLine('merge_pull_request', args({ owner: 'acme', repo: 'web', pullNumber: 1 }), { message: 'fine' }),
    { writes: (l) => expect(decisionsOf(l)[0].response.status).toBe('success') },
  ],
  [
    'gen_ai.tool.name given as a number: located, never the span name taken instead (a red team)',
    line({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: 'a'.repeat(32),
                  spanId: 'b'.repeat(16),
                  name: 'execute_tool create_issue',
                  endTimeUnixNano: '1764583205250000000',
                  attributes: [
                    { key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } },
                    { key: 'gen_ai.tool.name', value: { intValue: '7' } },
                  ],
                },
              ],
            },
          ],
        },
      ],
    }),
    { refuses: /in\.jsonl:1:1: an execute_tool span gives gen_ai\.tool\.name, but not as text/ },
  ],
  [
    'a structure that is not lists of objects: located, never skipped',
    line({ resourceSpans: [{ scopeSpans: [{ spans: [5, null] }] }, { scopeSpans: 'oops' }] }),
    {
      refuses:
        /in\.jsonl:1:1: scopeSpans\[\]\.spans holds 2 item\(s\) that are not objects[\s\S]*resourceSpans\[\]\.scopeSpans is not a list/,
    },
  ],
  ...(['instrumentationLibrarySpans', 'scope_spans'] as const).map((key): [string, string, Expected] => [
    `spans under ${key} (an older collector, the proto's spelling): refused, never passed over (a red team)`,
    line({
      resourceSpans: [
        {
          resource: {},
          [key]: JSON.parse(spanLine('merge_pull_request', args({ owner: 'acme', repo: 'web', pullNumber: 1 }))).resourceSpans[0]
            .scopeSpans,
        },
      ],
    }),
    {
      refuses: new RegExp(
        `in\\.jsonl:1:1: resourceSpans\\[\\] holds "${key}", which OTLP JSON does not give there \\(its list is scopeSpans\\)`,
      ),
    },
  ]),
  [
    'a line holding spans under another key beside resourceSpans: refused (a red team on the fix)',
    line({ resourceSpans: [], resource_spans: [{ scopeSpans: [] }] }),
    { refuses: /in\.jsonl:1:1: the line holds "resource_spans" beside its lists, which OTLP JSON does not give/ },
  ],
  // A red team on the fix: three levels it did not check.
  [
    'a line giving "type" and OTLP lists in any spelling: refused, never passed over',
    line({ type: 'otlp', resourceSpans: [], resource_spans: JSON.parse(spanLine('merge_pull_request', {})).resourceSpans }),
    { refuses: /in\.jsonl:1:1: the line gives "type" \(a Copilot CLI line\) and "resourceSpans", "resource_spans" \(OTLP JSON\)/ },
  ],
  [
    "a span's attributes as a flat object, not OTLP's key-value list: refused, never read as none",
    (() => {
      const l = JSON.parse(spanLine('merge_pull_request', {}));
      l.resourceSpans[0].scopeSpans[0].spans[0].attributes = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'x' };
      return line(l);
    })(),
    { refuses: /in\.jsonl:1:1: a span's attributes are not a list of OTLP key-value pairs/ },
  ],
  [
    "an attribute's value in the proto's spelling (string_value), or a key-value item with another member: refused, never read as absent",
    spanLine('merge_pull_request', {}).replace('{"stringValue":"execute_tool"}', '{"string_value":"execute_tool"}'),
    { refuses: /in\.jsonl:1:1: a span attribute "gen_ai\.operation\.name" is not an OTLP JSON value/ },
  ],
  ...(['{"intValue":"execute_tool"}', '{"stringValue":["execute_tool"]}', '{"stringValue":"execute_tool","intValue":1}'] as const).map(
    (value): [string, string, Expected] => [
      `an attribute value of the wrong type or with two members (${value}): refused, never read as empty (a red team on the fix)`,
      spanLine('merge_pull_request', {}).replace('{"stringValue":"execute_tool"}', value),
      { refuses: /in\.jsonl:1:1: a span attribute "gen_ai\.operation\.name" is not an OTLP JSON value/ },
    ],
  ),
  [
    'gen_ai.operation.name given as a number: refused, never "not a tool call"',
    spanLine('merge_pull_request', {}).replace('{"stringValue":"execute_tool"}', '{"intValue":"7"}'),
    { refuses: /in\.jsonl:1:1: a span gives gen_ai\.operation\.name, but not as text/ },
  ],
  [
    'a Copilot CLI line typed "Span", or with its attributes as a list, or an operation name as an OTLP value: refused (a red team)',
    line({ type: 'Span', name: 'execute_tool x', attributes: { 'gen_ai.operation.name': 'execute_tool' } }) +
      line({
        type: 'span',
        name: 'execute_tool x',
        attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } }],
      }) +
      line({ type: 'span', name: 'execute_tool x', attributes: { 'gen_ai.operation.name': { stringValue: 'execute_tool' } } }),
    {
      refuses:
        /in\.jsonl:1:1: the line's type is "Span"[\s\S]*in\.jsonl:2:1: a Copilot CLI span line's attributes are not an object[\s\S]*in\.jsonl:3:1: a span gives gen_ai\.operation\.name, but not as text/,
    },
  ],
  [
    'a key-value item with a member besides key and value: refused',
    spanLine('merge_pull_request', {}).replace('{"key":"gen_ai.tool.name",', '{"key":"gen_ai.tool.name","type":"string",'),
    { refuses: /in\.jsonl:1:1: a span's attributes are not a list of OTLP key-value pairs/ },
  ],
  [
    'a scope holding another key than scope, schemaUrl and spans: refused',
    line({ resourceSpans: [{ scopeSpans: [{ scope: {}, span: [] }] }] }),
    { refuses: /scopeSpans\[\] holds "span", which OTLP JSON does not give there \(its list is spans\)/ },
  ],
];

describe('import-run otlp-json: execute_tool spans through the mapping file', () => {
  it.each(SPANS)('%s', async (_name, text, expected) => {
    const r = await runImporter('import-run', 'otlp-json', { 'in.jsonl': text, 'map.yml': MAP }, ['--map', 'map.yml']);
    expectImport(r, expected);
    if ('writes' in expected) expectEnvelopes(r.lines, 'otlp-json');
  });

  it('a mapping rule whose tool is one letter from a tool the calls name, and names none, is a mistake of the mapping: nothing written (a red team: create_isue left every create asserting nothing, and the gate passed)', async () => {
    for (const misspelt of ['create_isue', 'craete_issue']) {
      const typo = MAP.replace('  - tool: create_issue\n', `  - tool: ${misspelt}\n`);
      expect(typo).not.toBe(MAP);
      const calls = spanLine('create_issue', {
        ...args({ owner: 'acme', repo: 'web', title: 'x' }),
        ...result({ url: 'https://github.com/acme/web/issues/3' }),
      });
      const r = await runImporter('import-run', 'otlp-json', { 'in.jsonl': calls, 'map.yml': typo }, ['--map', 'map.yml']);
      expectImport(r, {
        refuses: new RegExp(`no call is named ${misspelt}, but 1 call\\(s\\) named create_issue are not in the mapping`),
        code: 2,
      });
    }
    const typo = MAP.replace('  - tool: create_issue\n', '  - tool: create_isue\n');
    const calls = spanLine('create_issue', {
      ...args({ owner: 'acme', repo: 'web', title: 'x' }),
      ...result({ url: 'https://github.com/acme/web/issues/3' }),
    });
    const r = await runImporter('import-run', 'otlp-json', { 'in.jsonl': calls, 'map.yml': typo }, ['--map', 'map.yml']);
    expectImport(r, {
      refuses:
        /map\.yml:\d+:\d+: tools\[\d+\] \(create_isue\): no call is named create_isue, but 1 call\(s\) named create_issue are not in the mapping/,
      code: 2,
    });
    // Rules naming tools other servers have, beside a call of a name further away, are no typo.
    const far = await runImporter(
      'import-run',
      'otlp-json',
      { 'in.jsonl': spanLine('get_pull_request', args({ owner: 'acme', repo: 'web', pullNumber: 1 })), 'map.yml': MAP },
      ['--map', 'map.yml'],
    );
    expect(far.code, far.stderr).toBe(0);
  });

  it('a rule that takes no call while calls it nearly names went unmapped is a mistake of the mapping, located at the rule: letter case, a glob behind a qualifier, a server the spans do not carry (a red team: each left every create asserting nothing, and the gate passed)', async () => {
    const created = spanLine('create_issue', {
      ...args({ owner: 'acme', repo: 'web', title: 'x' }),
      ...result({ url: 'https://github.com/acme/web/issues/3' }),
    });
    const rule = '  - tool: create_issue\n';
    const row = MAP.split('\n').indexOf('  - tool: create_issue') + 1;
    for (const [edit, says] of [
      [
        '  - tool: Create_Issue\n',
        /no call is named Create_Issue, but 1 call\(s\) named create_issue are not in the mapping \(the tool differs in letter case only\)/,
      ],
      [
        '  - tool: "github.create_*"\n',
        /no call is named github\.create_\*, but 1 call\(s\) named create_issue are not in the mapping \(the calls name the tool without github\.\)/,
      ],
      // docs/producers.md's example names the server; spans carry none.
      [
        `${rule}    server: github\n`,
        /no call is named create_issue on server github, but 1 call\(s\) named create_issue with no server are not in the mapping \(the calls name no server: this source does not; leave server: out\)/,
      ],
    ] as const) {
      const map = MAP.replace(rule, edit);
      expect(map).not.toBe(MAP);
      const r = await runImporter('import-run', 'otlp-json', { 'in.jsonl': created, 'map.yml': map }, ['--map', 'map.yml']);
      expectImport(r, { refuses: says, code: 2 });
      expect(r.stderr).toMatch(new RegExp(`map\\.yml:${row}:\\d+: tools\\[\\d+\\]`));
    }
  });

  // A red team's: spans naming the tool behind its server (as several instrumentations do) were "not in the mapping", and the gate passed.
  it('a call naming the tool behind its server (mcp__github__, github., github/, github-mcp-server-) is a mistake of the mapping at the rule', async () => {
    const row = MAP.split('\n').indexOf('  - tool: create_issue') + 1;
    for (const qualified of [
      'mcp__github__create_issue',
      'github.create_issue',
      'github/create_issue',
      'github-mcp-server-create_issue',
      // A second red team: one letter joins (VS Code names MCP tools mcp_SERVER_TOOL).
      'mcp_github_create_issue',
      'mcp-github-create_issue',
      'github_create_issue',
      'github-create_issue',
    ]) {
      const span = spanLine(qualified, {
        ...args({ owner: 'acme', repo: 'web', title: 'x' }),
        ...result({ url: 'https://github.com/acme/web/issues/3' }),
      });
      const r = await runImporter('import-run', 'otlp-json', { 'in.jsonl': span, 'map.yml': MAP }, ['--map', 'map.yml']);
      expectImport(r, {
        refuses: new RegExp(
          `map\\.yml:${row}:\\d+: tools\\[\\d+\\] \\(create_issue\\): no call is named create_issue, but 1 call\\(s\\) named ${qualified.replace(/[.]/g, '\\.')} are not in the mapping \\(the calls name the tool with ${qualified.slice(0, -'create_issue'.length).replace(/[.]/g, '\\.')} before it\\)`,
        ),
        code: 2,
      });
    }
  });

  it('another tool whose name ends in a rule’s (bulk_create_issue) is no near miss: counted, the import passes', async () => {
    const span = spanLine('bulk_create_issue', args({ owner: 'acme', repo: 'web' }));
    const r = await runImporter('import-run', 'otlp-json', { 'in.jsonl': span, 'map.yml': MAP }, ['--map', 'map.yml']);
    expectImport(r, { skips: /1 not in the mapping/ });
  });

  it('a mapping that names tools the run did not call stays fine: no call near a rule, a near call another rule took, a glob that matches', async () => {
    const created = spanLine('create_issue', {
      ...args({ owner: 'acme', repo: 'web', title: 'x' }),
      ...result({ url: 'https://github.com/acme/web/issues/3' }),
    });
    const read = spanLine('get_issue', args({ owner: 'acme', repo: 'web', issue_number: 3 }));
    // The example maps sixteen tools; a run that only read calls none of them.
    const quiet = await runImporter('import-run', 'otlp-json', { 'in.jsonl': read, 'map.yml': MAP }, ['--map', 'map.yml']);
    expectImport(quiet, {
      writes: (l) => expect(decisionsOf(l)[0].response.side_effect_asserted).toBe(false),
      says: /1 not in the mapping/,
    });
    // A rule in another case beside the exact one: the exact one takes the calls, nothing went unmapped.
    const both = MAP.replace(
      '  - tool: create_issue\n',
      '  - tool: CREATE_ISSUE\n    class: github_issue\n    verb: create\n    target: {owner: {arg: owner}, repo: {arg: repo}, number: {result: url, url-part: number}}\n  - tool: create_issue\n',
    );
    expect(both).not.toBe(MAP);
    const taken = await runImporter('import-run', 'otlp-json', { 'in.jsonl': created + read, 'map.yml': both }, ['--map', 'map.yml']);
    expectImport(taken, {
      writes: (l) => expect(subjectOf(decisionsOf(l)[0])).toEqual(['github_issue', 'create', { owner: 'acme', repo: 'web', number: 3 }]),
    });
    const glob = MAP.replace('  - tool: create_issue\n', '  - tool: "create_*"\n');
    const globbed = await runImporter('import-run', 'otlp-json', { 'in.jsonl': created, 'map.yml': glob }, ['--map', 'map.yml']);
    expectImport(globbed, { writes: (l) => expect(subjectOf(decisionsOf(l)[0])?.[0]).toBe('github_issue') });
  });

  it('the fixtures: spans out of order and a retried batch, Copilot CLI’s own lines, Claude Code’s events; verified against the day’s deliveries', async () => {
    const dir = tempDir();
    cpSync(path.join(FX, 'otlp'), dir, { recursive: true });
    writeFiles(dir, { 'map.yml': MAP });
    const said: string[] = [];
    for (const f of ['agent-spans', 'copilot-cli', 'claude-code-logs']) {
      const r = await cli(['import-run', 'otlp-json', '--map', 'map.yml', '--output', `.assay/runs/${f}.ndjson`, `${f}.jsonl`], dir);
      expect(r.code, r.stderr).toBe(0);
      said.push(r.stderr);
    }
    expect(said[0]).toMatch(
      /8 calls written \(6 asserting with a subject, 0 asserting without one, 2 asserting nothing\).*1 repeat merged/,
    );
    expect(said[1]).toMatch(/OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT/);
    expect(said[2]).toMatch(/1 MCP tools not named.*OTEL_LOG_TOOL_DETAILS=1/);
    const imported = await cli(
      [
        'import',
        'github-webhook',
        '--actor',
        'acme-agents[bot]',
        '--repo',
        'acme/web',
        '--since',
        '2026-12-01',
        '--until',
        '2026-12-02',
        '--now',
        '2026-12-02T04:00:00Z',
        '--output',
        '.assay/audit/webhook.ndjson',
        'deliveries.json',
      ],
      dir,
    );
    expect(imported.code, imported.stderr).toBe(0);
    const { code, report } = await verifyIn(dir, '2026-12-02T12:00:00Z');
    const spans = report.calls.filter((c) => c.artifact === '.assay/runs/agent-spans.ndjson').map((c) => [c.tool, c.level]);
    // In time order: the push (10:19) before the pull request (10:20), whatever the batches' order.
    expect(spans).toEqual([
      ['create_issue', 'verified'],
      ['get_issue', null],
      ['add_issue_comment', 'verified'],
      ['push_files', 'verified'],
      ['create_pull_request', 'verified'],
      ['merge_pull_request', 'verified'],
      ['create_issue', null],
      ['create_issue', 'verified'],
    ]);
    const claude = report.calls.filter((c) => c.artifact === '.assay/runs/claude-code-logs.ndjson').map((c) => [c.tool, c.level]);
    expect(claude).toEqual([
      ['Bash', null],
      ['merge_pull_request', 'verified'],
      ['merge_pull_request', null],
      ['mcp_tool', null],
    ]);
    expect(report.totals).toMatchObject({ verified: 7, bound: 7, unmatched: 0 });
    expect(code).toBe(0);
  });

  it('a mapping that reads a result from Claude Code’s events (which carry none) is the mapping’s error, located in it (exit 2)', async () => {
    const dir = tempDir();
    cpSync(path.join(FX, 'otlp/claude-code-logs.jsonl'), path.join(dir, 'in.jsonl'));
    const map = MAP.replace('tool: merge_pull_request', 'tool: merge_pull_request_x').replace(
      '- tool: create_issue',
      '- tool: "merge_pull_request"',
    );
    const r = await runImporter('import-run', 'otlp-json', { 'map.yml': map }, ['--map', 'map.yml'], ['in.jsonl'], dir);
    expect(r.code).toBe(2);
    // Located at the rule's field that reads the result: its line in the file; the rule's index among the tools.
    const lines = map.split('\n');
    const start = lines.findIndex((l) => l.includes('- tool: "merge_pull_request"'));
    const line = start + lines.slice(start).findIndex((l) => l.includes('{result:')) + 1;
    const index = (map.slice(0, map.indexOf('- tool: "merge_pull_request"')).match(/^ {2}- tool:/gm) ?? []).length;
    expect(r.stderr).toMatch(
      new RegExp(
        `map\\.yml:${line}:\\d+: tools\\[${index}\\] \\(merge_pull_request\\) reads the tool's result, but Claude Code's tool_result events carry none`,
      ),
    );
  });

  it('--map is required', async () => {
    const dir = writeFiles(tempDir(), { 'in.jsonl': spanLine('x', {}) });
    const r = await cli(['import-run', 'otlp-json', '--output', 'o.ndjson', 'in.jsonl'], dir);
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/--map FILE is required/)]);
  });

  it('hostile lines: a kvlist with __proto__, deep arrays, a huge intValue, a bad time: no prototype reached, located refusals', async () => {
    const proto = spanLine('create_issue', {}).replace(
      '"attributes":[',
      '"attributes":[{"key":"gen_ai.tool.call.arguments","value":{"kvlistValue":{"values":[{"key":"__proto__","value":{"stringValue":"x"}},{"key":"owner","value":{"stringValue":"acme"}},{"key":"repo","value":{"stringValue":"web"}}]}}},',
    );
    const r = await runImporter('import-run', 'otlp-json', { 'in.jsonl': proto, 'map.yml': MAP }, ['--map', 'map.yml']);
    expect(r.code, r.stderr).toBe(0);
    expect(({} as Record<string, unknown>)['owner']).toBeUndefined();
    expect(decisionsOf(r.lines)[0].import.note).toBe('number: no result captured');
    const deep = `{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"k","value":${'{"arrayValue":{"values":['.repeat(40)}${']}}'.repeat(40)}}]}]}]}]}\n`;
    const bad = await runImporter(
      'import-run',
      'otlp-json',
      {
        'in.jsonl': `${deep}{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"execute_tool a","endTimeUnixNano":"999999999999999999999","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"execute_tool"}},{"key":"gen_ai.tool.call.id","value":{"stringValue":"c1"}}]}]}]}]}\n`,
        'map.yml': MAP,
      },
      ['--map', 'map.yml'],
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/in\.jsonl:1:\d+: .*(depth|deep)/i);
    expect(bad.stderr).toMatch(/in\.jsonl:2:1: the execute_tool span of "a" has no end time/);
  });
});

describe('the mapping file: read like the policy file, every problem located', () => {
  const CASES: readonly [string, string, RegExp][] = [
    [
      'an unknown class, with the nearest',
      'version: 1\ntools:\n  - tool: a\n    class: github_isue\n    verb: create\n    target: {owner: {arg: o}}\n',
      /m\.yml:4:12: class "github_isue" is not in the class table \(did you mean "github_issue"\?\)/,
    ],
    [
      'a verb the class does not have',
      'version: 1\ntools:\n  - tool: a\n    class: github_issue\n    verb: delete\n    target: {owner: {arg: o}, repo: {arg: r}, number: {arg: n}}\n',
      /m\.yml:5:11: github_issue has the verbs create, close, not "delete"/,
    ],
    [
      'a bound field missing',
      'version: 1\ntools:\n  - tool: a\n    class: github_issue\n    verb: create\n    target:\n      owner: {arg: o}\n      repo: {arg: r}\n',
      /m\.yml:6:5: github_issue binds owner, repo, number: the target gives no number/,
    ],
    [
      'a field the class does not bind',
      'version: 1\ntools:\n  - tool: a\n    class: github_issue\n    verb: create\n    target: {owner: {arg: o}, repo: {arg: r}, number: {arg: n}, title: {arg: t}}\n',
      /m\.yml:6:\d+: github_issue binds owner, repo, number: not title/,
    ],
    [
      'a hashed field without its domain',
      'version: 1\ntools:\n  - tool: a\n    class: github_label\n    verb: add\n    target: {owner: {arg: o}, repo: {arg: r}, number: {arg: n}, label_hash: {arg: l}}\n',
      /label_hash is hashed in the domain github_label: write hash: github_label/,
    ],
    [
      'two sources for a field',
      'version: 1\ntools:\n  - tool: a\n    class: github_issue\n    verb: create\n    target: {owner: {arg: o, value: acme}, repo: {arg: r}, number: {arg: n}}\n',
      /owner: give exactly one of arg, result or value \(not arg and value\)/,
    ],
    [
      'a misspelt key',
      'version: 1\ntools:\n  - tool: a\n    clas: github_issue\n    verb: create\n    target: {owner: {arg: o}}\n',
      /m\.yml:4:5: unknown key "clas" in tools\.0 \(did you mean "class"\?\)/,
    ],
    [
      'another provider than the class’s (a red team: `GitHub` turned coverage off)',
      'version: 1\ntools:\n  - tool: a\n    class: github_issue\n    verb: create\n    provider: GitHub\n    target: {owner: {arg: o}, repo: {arg: r}, number: {arg: n}}\n',
      /m\.yml:6:\d+: github_issue is "github"'s \(its records and exports name it so\): a call naming "GitHub" would be bound by no record/,
    ],
    ['an anchor', 'version: 1\ntools:\n  - &t\n    tool: a\n', /m\.yml:3:5: an anchor \(&t\)/],
    [
      'a path that is not dotted names',
      'version: 1\ntools:\n  - tool: a\n    class: github_issue\n    verb: create\n    target: {owner: {arg: "owner[0]"}, repo: {arg: r}, number: {arg: n}}\n',
      /m\.yml:6:\d+: tools\.0\.target\.owner\.arg must match pattern/,
    ],
  ];
  it.each(CASES)('%s', async (_name, text, expected) => {
    const dir = writeFiles(tempDir(), { 'm.yml': text, 'in.jsonl': spanLine('a', {}) });
    const r = await cli(['import-run', 'otlp-json', '--map', 'm.yml', '--output', 'o.ndjson', 'in.jsonl'], dir);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(expected);
  });
});

describe('import-run mcp-jsonrpc: gh-aw’s MCP gateway log (v1 and v2 lines), through the mapping file', () => {
  it('pairs each tools/call with its response; verified against the day’s deliveries; failures, reads and other lines counted', async () => {
    const dir = tempDir();
    cpSync(path.join(FX, 'mcp/rpc-messages.jsonl'), path.join(dir, 'rpc-messages.jsonl'));
    cpSync(path.join(FX, 'otlp/deliveries.json'), path.join(dir, 'deliveries.json'));
    writeFiles(dir, { 'map.yml': MAP });
    const r = await cli(['import-run', 'mcp-jsonrpc', '--map', 'map.yml', '--output', '.assay/runs/rpc.ndjson', 'rpc-messages.jsonl'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /13 lines read, 4 calls written \(2 asserting with a subject, 0 asserting without one, 2 asserting nothing\); 1 failed, 1 not in the mapping/,
    );
    expect(r.stderr).toMatch(/1 tools\/call requests never answered/);
    const events = readFileSync(path.join(dir, '.assay/runs/rpc.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expectEnvelopes(events, 'mcp-jsonrpc');
    const [first] = decisionsOf(events);
    // The request's line (v1: line 3), the server the gateway names, the JSON-RPC id.
    expect(first.import).toMatchObject({ line: 3, call_id: '1' });
    expect(first.server).toEqual({ id: 'github' });
    const imported = await cli(
      [
        'import',
        'github-webhook',
        '--actor',
        'acme-agents[bot]',
        '--repo',
        'acme/web',
        '--since',
        '2026-12-01',
        '--until',
        '2026-12-02',
        '--now',
        '2026-12-02T04:00:00Z',
        '--output',
        '.assay/audit/webhook.ndjson',
        'deliveries.json',
      ],
      dir,
    );
    expect(imported.code, imported.stderr).toBe(0);
    const { report } = await verifyIn(dir, '2026-12-02T12:00:00Z', ['--allow-unmatched-records']);
    expect(report.calls.map((c) => [c.tool, c.level])).toEqual([
      ['create_issue', 'verified'],
      ['issue_read', null],
      ['add_issue_comment', 'verified'],
      ['add_issue_comment', null],
    ]);
  });

  const rpc = (o: Record<string, unknown>) =>
    line({
      timestamp: '2026-12-01T10:00:00Z',
      _schema: 'rpc-message/v2',
      direction: o['event'] === 'rpc_response' ? 'IN' : 'OUT',
      server_id: 'github',
      ...o,
    });
  /** A tools/call creating an issue in acme/web titled `title`, under `id`. */
  const createIssue = (id: number, title: string) =>
    rpc({
      event: 'rpc_request',
      payload: { id, method: 'tools/call', params: { name: 'create_issue', arguments: { owner: 'acme', repo: 'web', title } } },
    });
  /** The answer under `id` naming acme/web's issue `n`. */
  const issueAnswer = (id: number, n: number) =>
    rpc({ event: 'rpc_response', payload: { id, result: { structuredContent: { url: `https://github.com/acme/web/issues/${n}` } } } });
  const ROWS: readonly [string, string, Expected][] = [
    [
      'a server rule matches the gateway’s server_id only',
      rpc({
        event: 'rpc_request',
        payload: {
          id: 'a',
          method: 'tools/call',
          params: { name: 'merge_pull_request', arguments: { owner: 'acme', repo: 'web', pullNumber: 9 } },
        },
      }) + rpc({ event: 'rpc_response', payload: { id: 'a', result: { content: [] } } }),
      {
        writes: (l) =>
          expect(subjectOf(decisionsOf(l)[0])).toEqual(['github_pull_request', 'merge', { owner: 'acme', repo: 'web', number: 9 }]),
      },
    ],
    [
      'a JSON-RPC error answer: failed, asserting nothing',
      rpc({ event: 'rpc_request', payload: { id: 1, method: 'tools/call', params: { name: 'merge_pull_request', arguments: {} } } }) +
        rpc({ event: 'rpc_response', payload: { id: 1, error: { code: -32602, message: 'bad params' } } }),
      { writes: (l) => expect(decisionsOf(l)[0].response.status).toBe('error'), says: /1 failed/ },
    ],
    [
      'a request without an id: located',
      rpc({ event: 'rpc_request', payload: { method: 'tools/call', params: { name: 'create_issue' } } }),
      { refuses: /in\.jsonl:1:1: the tools\/call request of "create_issue" has no id/ },
    ],
    ['a line that is no gateway log line: located', line({ hello: 1 }), { refuses: /in\.jsonl:1:1: not a gateway log line/ }],
    [
      'an id used by two requests before an answer: no answer is paired, whatever comes (a red team: a failed create took a read’s answer and verified)',
      rpc({
        event: 'rpc_request',
        payload: {
          id: 7,
          method: 'tools/call',
          params: { name: 'issue_read', arguments: { owner: 'acme', repo: 'web', issue_number: 5 } },
        },
      }) +
        createIssue(7, 'x') +
        issueAnswer(7, 5) +
        rpc({ event: 'rpc_response', payload: { id: 7, result: { isError: true, content: [] } } }) +
        createIssue(7, 'y') +
        issueAnswer(7, 6),
      {
        // Once every owed answer came, the id pairs again: the third request is its answer's.
        writes: (l) =>
          expect(decisionsOf(l).map((d) => subjectOf(d))).toEqual([['github_issue', 'create', { owner: 'acme', repo: 'web', number: 6 }]]),
        says: /skipped: 2 answers to an id two requests used, 2 tools\/call requests whose answer cannot be told \(an id used again before its answer\)/,
      },
    ],
    [
      'a JSON-RPC message under a log schema the reader does not know, or a type it does not spell, is refused, never skipped (a red team)',
      line({ _schema: 'rpc-message/v3', direction: 'OUT', server_id: 'github', payload: { jsonrpc: '2.0', id: 1, method: 'tools/call' } }),
      { refuses: /in\.jsonl:1:1: an RPC message of a log schema this reader does not know \(_schema "rpc-message\/v3"/ },
    ],
    ...[
      [{ id: 1, method: 'tools/call', params: { name: 'create_issue' } }],
      { id: 1, method: 'tools/call', params: { name: 'create_issue' } },
    ].map((payload): [string, string, Expected] => [
      `a ${Array.isArray(payload) ? 'batch' : 'message without jsonrpc'} under an unknown schema: refused (a red team on the fix)`,
      line({ _schema: 'rpc-message/v3', direction: 'OUT', server_id: 'github', payload }),
      { refuses: /in\.jsonl:1:1: an RPC message of a log schema this reader does not know/ },
    ]),
    ...[
      { event: 'rpc_request', message: { id: 1, method: 'tools/call', params: { name: 'create_issue' } } },
      { method: 'tools/call', params: { name: 'create_issue' }, id: 1 },
      { type: 'RESPONSE', body: { id: 1, result: {} } },
    ].map((fields): [string, string, Expected] => [
      `a message under an unknown schema, not under payload (${Object.keys(fields).join(', ')}): refused (a red team on the fix: counted as not an RPC message)`,
      line({ _schema: 'rpc-message/v3', direction: 'OUT', server_id: 'github', ...fields }),
      { refuses: /in\.jsonl:1:1: an RPC message of a log schema this reader does not know/ },
    ]),
    [
      'the gateway’s own events under other schemas (an HTTP method, no params or id) are not RPC messages: counted, never refused (a red team: a difc-event line failed the import)',
      line({
        timestamp: '2026-12-01T10:00:09.000Z',
        event: 'unrecognized_endpoint_passthrough',
        _schema: 'difc-event/v1',
        method: 'GET',
        path: '/repos/acme/web/rulesets',
      }),
      { skips: /not an RPC message/ },
    ],
    [
      'a request of another method under the id of a pending tools/call (or before it): no answer is paired (a red team: a ping’s error answer failed the call)',
      createIssue(3, 'x') +
        rpc({ event: 'rpc_request', payload: { id: 3, method: 'ping' } }) +
        rpc({ event: 'rpc_response', payload: { id: 3, error: { code: -32601, message: 'no' } } }) +
        issueAnswer(3, 5) +
        // A ping first, then a tools/call under its id before the ping's answer: the same.
        rpc({ event: 'rpc_request', payload: { id: 4, method: 'ping' } }) +
        createIssue(4, 'y') +
        rpc({ event: 'rpc_response', payload: { id: 4, result: {} } }) +
        issueAnswer(4, 6) +
        // A ping answered before the next request: ids pair again.
        rpc({ event: 'rpc_request', payload: { id: 8, method: 'ping' } }) +
        rpc({ event: 'rpc_response', payload: { id: 8, result: {} } }) +
        createIssue(8, 'z') +
        issueAnswer(8, 7),
      {
        writes: (l) =>
          expect(decisionsOf(l).map((d) => subjectOf(d))).toEqual([['github_issue', 'create', { owner: 'acme', repo: 'web', number: 7 }]]),
        says: /2 tools\/call requests whose answer cannot be told/,
      },
    ],
    [
      'a v1 line typed "request" carrying a JSON-RPC message: refused',
      line({ type: 'request', direction: 'OUT', server_id: 'github', payload: { jsonrpc: '2.0', id: 1, method: 'tools/call' } }),
      { refuses: /in\.jsonl:1:1: not a gateway log line/ },
    ],
    [
      'a server’s request with the id of a pending tools/call, and the client’s answer to it, never answer the tools/call (a red team, this stop)',
      rpc({
        event: 'rpc_request',
        payload: {
          id: 5,
          method: 'tools/call',
          params: { name: 'merge_pull_request', arguments: { owner: 'acme', repo: 'web', pullNumber: 9 } },
        },
      }) +
        rpc({ event: 'rpc_request', direction: 'IN', payload: { id: 5, method: 'ping' } }) +
        rpc({ event: 'rpc_response', direction: 'OUT', payload: { id: 5, result: {} } }) +
        rpc({
          event: 'rpc_response',
          payload: { id: 5, result: { isError: true, content: [{ type: 'text', text: 'Pull Request is not mergeable' }] } },
        }),
      { writes: (l) => expect(decisionsOf(l)[0].response.status).toBe('error'), says: /1 answers the client sent/ },
    ],
    [
      'a result whose structuredContent and text content name two issues binds neither (a red team, this stop)',
      createIssue(3, 'x') +
        rpc({
          event: 'rpc_response',
          payload: {
            id: 3,
            result: {
              structuredContent: { url: 'https://github.com/acme/web/issues/5' },
              content: [{ type: 'text', text: '{"url": "https://github.com/acme/web/issues/6"}' }],
            },
          },
        }),
      {
        writes: (l) => {
          expect(subjectOf(decisionsOf(l)[0])).toBeNull();
          expect(decisionsOf(l)[0].import.note).toMatch(/result\.url is given differently by the result's places/);
        },
      },
    ],
    [
      'the same url in structuredContent and a text content binds it',
      createIssue(4, 'x') +
        rpc({
          event: 'rpc_response',
          payload: {
            id: 4,
            result: {
              structuredContent: { url: 'https://github.com/acme/web/issues/6' },
              content: [{ type: 'text', text: '{"url": "https://github.com/acme/web/issues/6"}' }],
            },
          },
        }),
      {
        writes: (l) => expect(subjectOf(decisionsOf(l)[0])).toEqual(['github_issue', 'create', { owner: 'acme', repo: 'web', number: 6 }]),
      },
    ],
    // The red team's: the server's newer issue_write (method create | update) is named too, never a write asserting nothing.
    [
      'issue_write creating an issue binds it; one closing an issue (state closed) binds the close; an update that closes nothing is no write of the file',
      rpc({
        event: 'rpc_request',
        payload: {
          id: 6,
          method: 'tools/call',
          params: { name: 'issue_write', arguments: { method: 'create', owner: 'acme', repo: 'web', title: 'x' } },
        },
      }) +
        issueAnswer(6, 7) +
        rpc({
          event: 'rpc_request',
          payload: {
            id: 7,
            method: 'tools/call',
            params: { name: 'issue_write', arguments: { method: 'update', owner: 'acme', repo: 'web', issue_number: 7, state: 'closed' } },
          },
        }) +
        rpc({ event: 'rpc_response', payload: { id: 7, result: { content: [] } } }) +
        rpc({
          event: 'rpc_request',
          payload: {
            id: 8,
            method: 'tools/call',
            params: { name: 'issue_write', arguments: { method: 'update', owner: 'acme', repo: 'web', issue_number: 7, title: 'y' } },
          },
        }) +
        rpc({ event: 'rpc_response', payload: { id: 8, result: { content: [] } } }) +
        // The older update_issue closing one (a red team on the fix).
        rpc({
          event: 'rpc_request',
          payload: {
            id: 9,
            method: 'tools/call',
            params: { name: 'update_issue', arguments: { owner: 'acme', repo: 'web', issue_number: 8, state: 'closed' } },
          },
        }) +
        rpc({ event: 'rpc_response', payload: { id: 9, result: { content: [] } } }),
      {
        writes: (l) =>
          expect(decisionsOf(l).map(subjectOf)).toEqual([
            ['github_issue', 'create', { owner: 'acme', repo: 'web', number: 7 }],
            ['github_issue', 'close', { owner: 'acme', repo: 'web', number: 7 }],
            null,
            ['github_issue', 'close', { owner: 'acme', repo: 'web', number: 8 }],
          ]),
      },
    ],
    [
      'a pull request closed by update_pull_request is a close; a file written or deleted is a push asserted with no subject (a red team: both asserted nothing, and no policy saw them)',
      [
        ['update_pull_request', { owner: 'acme', repo: 'web', pullNumber: 9, state: 'closed' }, { content: [] }],
        ['update_pull_request', { owner: 'acme', repo: 'web', pullNumber: 9, title: 'z' }, { content: [] }],
        [
          'create_or_update_file',
          { owner: 'acme', repo: 'web', path: 'a.txt', branch: 'main' },
          { structuredContent: { commit: { sha: SHA } } },
        ],
        ['delete_file', { owner: 'acme', repo: 'web', path: 'a.txt', branch: 'main' }, { structuredContent: { commit: { sha: SHA } } }],
        // The granular tools (a red team on the fix).
        ['update_issue_state', { owner: 'acme', repo: 'web', issue_number: 4, state: 'closed' }, { content: [] }],
        ['update_pull_request_state', { owner: 'acme', repo: 'web', pullNumber: 9, state: 'closed' }, { content: [] }],
        ['update_issue_labels', { owner: 'acme', repo: 'web', issue_number: 4, labels: ['bug', 'p1'] }, { content: [] }],
        [
          'create_branch',
          { owner: 'acme', repo: 'web', branch: 'x' },
          { structuredContent: { ref: 'refs/heads/x', object: { sha: SHA } } },
        ],
        ['update_pull_request_branch', { owner: 'acme', repo: 'web', pullNumber: 9 }, { content: [] }],
        // Copilot's coding agent asked for a pull request: bound by the URL it answers, else asserted with no subject.
        [
          'create_pull_request_with_copilot',
          { owner: 'acme', repo: 'web', title: 't' },
          { structuredContent: { url: 'https://github.com/acme/web/pull/12' } },
        ],
        ['create_pull_request_with_copilot', { owner: 'acme', repo: 'web', title: 't' }, { content: [{ type: 'text', text: 'queued' }] }],
      ]
        .map(
          ([name, a, result], i) =>
            rpc({ event: 'rpc_request', payload: { id: 20 + i, method: 'tools/call', params: { name, arguments: a } } }) +
            rpc({ event: 'rpc_response', payload: { id: 20 + i, result } }),
        )
        .join(''),
      {
        writes: (l) =>
          expect(decisionsOf(l).map((d) => [d.tool.name, subjectOf(d), d.response.side_effect_asserted])).toEqual([
            ['update_pull_request', ['github_pull_request', 'close', { owner: 'acme', repo: 'web', number: 9 }], true],
            // No state given: the guard cannot say which write it is (a title edit is one too): asserted, no subject.
            ['update_pull_request', null, true],
            ['create_or_update_file', null, true],
            ['delete_file', null, true],
            ['update_issue_state', ['github_issue', 'close', { owner: 'acme', repo: 'web', number: 4 }], true],
            ['update_pull_request_state', ['github_pull_request', 'close', { owner: 'acme', repo: 'web', number: 9 }], true],
            ['update_issue_labels', null, true],
            ['create_branch', ['github_branch_push', 'push', { owner: 'acme', repo: 'web', ref: 'refs/heads/x', after: SHA }], true],
            ['update_pull_request_branch', null, true],
            ['create_pull_request_with_copilot', ['github_pull_request', 'create', { owner: 'acme', repo: 'web', number: 12 }], true],
            ['create_pull_request_with_copilot', null, true],
          ]),
      },
    ],
    [
      'a line without its direction: located',
      line({
        timestamp: '2026-12-01T10:00:00Z',
        _schema: 'rpc-message/v2',
        server_id: 'github',
        event: 'rpc_request',
        payload: { id: 1, method: 'tools/call', params: { name: 'x' } },
      }),
      { refuses: /in\.jsonl:1:1: an RPC request without direction OUT or IN/ },
    ],
  ];
  it('a tool whose every guard reads an argument the call does not give (a manifest instead of a resource type) is asserted with no subject, never a call asserting nothing (a red team)', async () => {
    const k8s = readFileSync(path.join(ROOT, 'examples/mappings/kubernetes-mcp-server.yml'), 'utf8');
    const call = (id: number, a: Record<string, unknown>) =>
      rpc({ event: 'rpc_request', payload: { id, method: 'tools/call', params: { name: 'kubectl_create', arguments: a } } }) +
      rpc({ event: 'rpc_response', payload: { id, result: { content: [{ type: 'text', text: 'created' }] } } });
    const manifest = 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: agent-admin\n';
    const r = await runImporter(
      'import-run',
      'mcp-jsonrpc',
      {
        'in.jsonl':
          call(1, { manifest }) +
          call(2, { resourceType: 'configmap', name: 'x' }) +
          call(3, { resourceType: 'rolebinding', name: 'ci', namespace: 'prod' }),
        'map.yml': k8s,
      },
      ['--map', 'map.yml'],
    );
    expect(r.code, r.stderr).toBe(0);
    const [byManifest, configmap, binding] = decisionsOf(r.lines);
    expect(subjectOf(byManifest)).toBeNull();
    expect(byManifest.import.note).toMatch(
      /\(kubectl_create\): its guard reads arguments\.resourceType, which the call does not give as text/,
    );
    expect(r.stderr).toMatch(/1 asserting with a subject, 1 asserting without one, 1 asserting nothing/);
    expect(r.stderr).toMatch(/1 named without its target/);
    // A resource type the file binds no rule for is no write of it; one it binds is bound.
    expect(subjectOf(configmap)).toBeNull();
    expect(r.stderr).toMatch(/1 not in the mapping \(asserting nothing\)/);
    expect(subjectOf(binding)).toEqual([
      'k8s_rbac_binding',
      'create',
      { cluster: 'prod-eu', namespace: 'prod', kind: 'RoleBinding', name: 'ci' },
    ]);
  });

  it('a command AWS refused (the server’s answer gives AWS’s error_code) is a failed call asserting nothing; a success, an exception after the call, the old server’s error, a batch, and places that disagree are not (a false red: effect_not_logged; a red team on the first version)', async () => {
    const aws = readFileSync(path.join(ROOT, 'examples/mappings/aws-api-mcp-server.yml'), 'utf8');
    const cmd = (user: string) => `aws iam create-access-key --user-name ${user}`;
    const call = (id: number, user: string, result: Record<string, unknown>) =>
      rpc({
        event: 'rpc_request',
        payload: { id, method: 'tools/call', params: { name: 'call_aws', arguments: { cli_command: cmd(user) } } },
      }) + rpc({ event: 'rpc_response', payload: { id, result } });
    // The server's answer (awslabs/mcp, call_aws → list[CallAWSResponse], FastMCP: one JSON text content and structuredContent.result).
    const answer = (items: unknown[]) => ({
      content: items.length === 0 ? [] : [{ type: 'text', text: JSON.stringify(items) }],
      structuredContent: { result: items },
      isError: false,
    });
    const item = (user: string, response: Record<string, unknown>) => ({
      cli_command: cmd(user),
      response: { pagination_token: null, as_json: null, ...response },
      metadata: { service: 'iam', operation: 'CreateAccessKey' },
      validation_failures: null,
      missing_context_failures: null,
      failed_constraints: [],
    });
    const denied = (user: string) =>
      item(user, {
        error: 'An error occurred (AccessDenied) when calling the CreateAccessKey operation',
        status_code: 403,
        error_code: 'AccessDenied',
      });
    const made = (user: string) => item(user, { error: null, status_code: 200, error_code: null, as_json: '{"AccessKey":{}}' });
    const r = await runImporter(
      'import-run',
      'mcp-jsonrpc',
      {
        'in.jsonl':
          call(1, 'denied', answer([denied('denied')])) +
          call(2, 'made', answer([made('made')])) +
          // An exception after AWS answered (a --query that fails once evaluated): the write may have happened.
          call(3, 'after', answer([{ cli_command: cmd('after'), error: 'JMESPathTypeError: abs() expected number' }])) +
          // The server before November 2025 answered any exception so, after the call or not.
          call(4, 'old', {
            content: [{ type: 'text', text: JSON.stringify({ error: true, detail: 'Error while executing the command' }) }],
          }) +
          // A command expanded to two answers: which one failed cannot be said.
          call(5, 'two', answer([denied('two'), made('two')])) +
          call(6, 'split', {
            content: [
              { type: 'text', text: JSON.stringify([denied('split')]) },
              { type: 'text', text: JSON.stringify([made('split')]) },
            ],
          }),
        'map.yml': aws,
      },
      ['--map', 'map.yml'],
    );
    expect(r.code, r.stderr).toBe(0);
    const [refused, success, after, old, two, split] = decisionsOf(r.lines);
    expect(refused.response.side_effect_asserted).toBe(false);
    expect(refused.import.note).toBe('the call failed (its result gives 0.response.error_code)');
    for (const write of [success, after, old, two]) expect(subjectOf(write)?.[0]).toBe('aws_iam_access_key');
    expect(split.response.side_effect_asserted).toBe(true);
    expect(subjectOf(split)).toBeNull();
    expect(split.import.note).toMatch(
      /result\.0\.response\.error_code is given differently by the result's places: whether the call failed cannot be said/,
    );
    expect(r.stderr).toMatch(/1 failed/);
    // A mapping's failed names a dotted path, located when it is not one.
    const bad = await runImporter(
      'import-run',
      'mcp-jsonrpc',
      {
        'in.jsonl': call(1, 'x', answer([])),
        'map.yml': aws.replace('failed: {result: 0.response.error_code}', 'failed: {result: "no such path"}'),
      },
      ['--map', 'map.yml'],
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/map\.yml:\d+:\d+: tools\.0\.failed\.result must match pattern/);
  });

  it.each(ROWS)('%s', async (_name, text, expected) => {
    const map = MAP.replace('  - tool: merge_pull_request\n', '  - tool: merge_pull_request\n    server: github\n');
    const r = await runImporter('import-run', 'mcp-jsonrpc', { 'in.jsonl': text, 'map.yml': map }, ['--map', 'map.yml']);
    expectImport(r, expected);
  });

  it('a rule naming a server no call carries, while calls of its tool on another server went unmapped, is a mistake of the mapping (a red team: server: githb); a server some call carries, or calls another rule took, are fine', async () => {
    const onServer = (server: string) => MAP.replace('  - tool: create_issue\n', `  - tool: create_issue\n    server: ${server}\n`);
    const log = readFileSync(path.join(FX, 'mcp/rpc-messages.jsonl'), 'utf8');
    const typo = await runImporter('import-run', 'mcp-jsonrpc', { 'in.jsonl': log, 'map.yml': onServer('githb') }, ['--map', 'map.yml']);
    expectImport(typo, {
      refuses:
        /map\.yml:\d+:\d+: tools\[\d+\] \(create_issue\): no call is named create_issue on server githb, but 1 call\(s\) named create_issue on server github are not in the mapping \(no call carries server githb\)/,
      code: 2,
    });
    const right = await runImporter('import-run', 'mcp-jsonrpc', { 'in.jsonl': log, 'map.yml': onServer('github') }, ['--map', 'map.yml']);
    expectImport(right, {
      writes: (l) => expect(subjectOf(decisionsOf(l)[0])?.[0]).toBe('github_issue'),
      says: /2 asserting with a subject/,
    });
    // Another server's create_issue beside a github read: the rule's server is one the run used, and not for this tool.
    const other =
      rpc({
        event: 'rpc_request',
        server_id: 'linear',
        payload: { id: 1, method: 'tools/call', params: { name: 'create_issue', arguments: { title: 't' } } },
      }) +
      rpc({ event: 'rpc_response', server_id: 'linear', payload: { id: 1, result: { content: [] } } }) +
      rpc({
        event: 'rpc_request',
        payload: {
          id: 2,
          method: 'tools/call',
          params: { name: 'issue_read', arguments: { owner: 'acme', repo: 'web', issue_number: 1 } },
        },
      }) +
      rpc({ event: 'rpc_response', payload: { id: 2, result: { content: [] } } });
    const used = await runImporter('import-run', 'mcp-jsonrpc', { 'in.jsonl': other, 'map.yml': onServer('github') }, ['--map', 'map.yml']);
    expectImport(used, {
      writes: (l) => expect(decisionsOf(l).map((d) => d.response.side_effect_asserted)).toEqual([false, false]),
      says: /2 not in the mapping/,
    });
    // A rule per server: github's takes the calls, gitea's (unused today) names a server no call carries, and nothing went unmapped.
    const shared = onServer('github').replace(
      '  - tool: create_issue\n',
      '  - tool: create_issue\n    server: gitea\n    class: github_issue\n    verb: create\n    target: {owner: {arg: owner}, repo: {arg: repo}, number: {result: url, url-part: number}}\n  - tool: create_issue\n',
    );
    expect(shared).toMatch(/server: gitea[\s\S]*server: github/);
    const both = await runImporter(
      'import-run',
      'mcp-jsonrpc',
      { 'in.jsonl': createIssue(1, 'x') + issueAnswer(1, 4), 'map.yml': shared },
      ['--map', 'map.yml'],
    );
    expectImport(both, {
      writes: (l) => expect(subjectOf(decisionsOf(l)[0])).toEqual(['github_issue', 'create', { owner: 'acme', repo: 'web', number: 4 }]),
    });
  });
});

describe('import-run: what the red team found', () => {
  const span = (id: string, tool: string, a: unknown) =>
    JSON.parse(spanLine(tool, args(a))).resourceSpans[0].scopeSpans[0].spans.map((x: Record<string, unknown>) => ({
      ...x,
      spanId: id,
      traceId: id === '' ? '' : 'a'.repeat(32),
    }))[0];
  const batch = (...spans: unknown[]) => line({ resourceSpans: [{ scopeSpans: [{ spans }] }] });

  it('spans without ids are never merged; one id with two different calls is located', async () => {
    const noIds = await runImporter(
      'import-run',
      'otlp-json',
      { 'in.jsonl': batch(span('', 'get_issue', {}), span('', 'add_issue_comment', {})), 'map.yml': MAP },
      ['--map', 'map.yml'],
    );
    expect(noIds.code, noIds.stderr).toBe(0);
    expect(noIds.lines).toHaveLength(2);
    const twoCalls = await runImporter(
      'import-run',
      'otlp-json',
      {
        'in.jsonl':
          batch(span('00000000000000aa', 'get_issue', {})) +
          batch(span('00000000000000aa', 'merge_pull_request', { owner: 'a', repo: 'b', pullNumber: 1 })),
        'map.yml': MAP,
      },
      ['--map', 'map.yml'],
    );
    expect(twoCalls.code).toBe(1);
    expect(twoCalls.stderr).toMatch(
      /in\.jsonl:2:1: a span or event with the id of one at in\.jsonl:1 says something else: one id, two calls/,
    );
  });

  it('an attribute key given twice gives nothing, never the first or the last (a red team, this stop)', async () => {
    const kv = (pairs: readonly [string, unknown][]) =>
      pairs.map(([key, v]) => ({ key, value: typeof v === 'string' ? { stringValue: v } : v }));
    const spanWith = (attributes: readonly [string, unknown][]) =>
      batch({
        traceId: 'a'.repeat(32),
        spanId: Math.random().toString(16).slice(2, 18).padEnd(16, '0'),
        name: 'execute_tool merge_pull_request',
        endTimeUnixNano: '1796205603840000000',
        status: {},
        attributes: kv(attributes),
      });
    const base: [string, unknown][] = [
      ['gen_ai.operation.name', 'execute_tool'],
      ['gen_ai.tool.name', 'merge_pull_request'],
      ['gen_ai.tool.call.arguments', JSON.stringify({ owner: 'acme', repo: 'api', pullNumber: 102 })],
    ];
    const run = (attributes: readonly [string, unknown][]) =>
      runImporter('import-run', 'otlp-json', { 'in.jsonl': spanWith(attributes), 'map.yml': MAP }, ['--map', 'map.yml']);
    // The result twice (merged, then isError): the call binds nothing.
    const results = await run([...base, ['gen_ai.tool.call.result', '{"merged":true}'], ['gen_ai.tool.call.result', '{"isError":true}']]);
    expect(results.code, results.stderr).toBe(0);
    expect(subjectOf(decisionsOf(results.lines)[0])).toBeNull();
    // The arguments twice, naming two pull requests: no subject.
    const twoArgs = await run([...base, ['gen_ai.tool.call.arguments', JSON.stringify({ owner: 'acme', repo: 'other', pullNumber: 7 })]]);
    expect(subjectOf(decisionsOf(twoArgs.lines)[0])).toBeNull();
    // A key twice inside a structured value (a kvlist) makes the whole value nothing.
    const nested = await run([
      ['gen_ai.operation.name', 'execute_tool'],
      ['gen_ai.tool.name', 'merge_pull_request'],
      [
        'gen_ai.tool.call.arguments',
        {
          kvlistValue: {
            values: kv([
              ['owner', 'acme'],
              ['repo', 'api'],
              ['repo', 'other'],
              ['pullNumber', { intValue: '102' }],
            ]),
          },
        },
      ],
    ]);
    expect(subjectOf(decisionsOf(nested.lines)[0])).toBeNull();
    // The tool's name twice: located, nothing written.
    const names = await run([...base, ['gen_ai.tool.name', 'create_issue']]);
    expect(names.code).toBe(1);
    expect(names.stderr).toMatch(/in\.jsonl:1:1: an execute_tool span gives gen_ai\.tool\.name twice: which one is meant cannot be said/);
  });

  it('cli-option given twice (the CLI takes the last) gives no subject', async () => {
    const map = readFileSync(path.join(ROOT, 'examples/mappings/aws-api-mcp-server.yml'), 'utf8');
    const cmd =
      'aws iam attach-role-policy --role-name victim --policy-arn arn:aws:iam::aws:policy/ReadOnlyAccess --role-name admin --policy-arn arn:aws:iam::aws:policy/AdministratorAccess';
    const r = await runImporter(
      'import-run',
      'otlp-json',
      { 'in.jsonl': spanLine('call_aws', args({ cli_command: cmd })), 'map.yml': map },
      ['--map', 'map.yml'],
    );
    expect(r.code, r.stderr).toBe(0);
    expect(decisionsOf(r.lines)[0].import.note).toBe('role_name: arguments.cli_command is not a command line with --role-name given once');
  });

  it.each([
    [
      'words before the guard’s (a global option naming another profile)',
      'aws --profile prod iam create-access-key --user-name admin',
      /the command holds its guard's words with others before or between them/,
    ],
    ['a doubled space, still the guard’s words', 'aws  iam create-access-key --user-name ci-uploader', null],
    ['a quoted word, still the guard’s words', 'aws "iam" create-access-key --user-name ci-uploader', null],
    [
      'an option the rule names in unless (another profile’s account)',
      'aws iam create-access-key --user-name ci-uploader --profile prod',
      /the command gives --profile: the target's constants may not hold/,
    ],
    ['the same option abbreviated', 'aws iam create-access-key --user-name ci-uploader --prof prod', /the command gives --profile/],
    [
      'an abbreviated option beside the whole one (argparse takes the last)',
      'aws iam create-access-key --user-name ci-uploader --user break-glass',
      /user_name_hash: .* given once/,
    ],
  ])('the AWS mapping’s call_aws: %s (a red team, this stop)', async (_name, cmd, note) => {
    const map = readFileSync(path.join(ROOT, 'examples/mappings/aws-api-mcp-server.yml'), 'utf8');
    const r = await runImporter(
      'import-run',
      'otlp-json',
      { 'in.jsonl': spanLine('call_aws', args({ cli_command: cmd })), 'map.yml': map },
      ['--map', 'map.yml'],
    );
    expect(r.code, r.stderr).toBe(0);
    const [d] = decisionsOf(r.lines);
    expect(d.response.side_effect_asserted).toBe(true);
    if (note === null) expect(subjectOf(d)?.[2]).toMatchObject({ account: '123456789012' });
    else {
      expect(subjectOf(d)).toBeNull();
      expect(d.import.note).toMatch(note);
    }
  });

  it('Claude Code: a tool_name and tool_parameters naming two tools, or a success that is neither true nor false, are located', async () => {
    const event = (attrs: Record<string, string>) =>
      line({
        resourceLogs: [
          {
            scopeLogs: [
              {
                logRecords: [
                  {
                    timeUnixNano: '1764583205250000000',
                    body: { stringValue: 'claude_code.tool_result' },
                    attributes: Object.entries(attrs).map(([key, v]) => ({ key, value: { stringValue: v } })),
                  },
                ],
              },
            ],
          },
        ],
      });
    const params = JSON.stringify({ mcp_server_name: 'github', mcp_tool_name: 'merge_pull_request' });
    const r = await runImporter(
      'import-run',
      'otlp-json',
      {
        'in.jsonl': event({ tool_name: 'Bash', success: 'true', tool_parameters: params }) + event({ tool_name: 'Read', success: 'yes' }),
        'map.yml': MAP,
      },
      ['--map', 'map.yml'],
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /in\.jsonl:1:1: a tool_result event whose tool_name "Bash" and tool_parameters \("merge_pull_request"\) name different tools/,
    );
    expect(r.stderr).toMatch(/in\.jsonl:2:1: the tool_result event of "Read" says neither true nor false in success/);
  });

  it('an output that is no regular file (a FIFO, /dev/null) is refused before anything is made; the same file twice is refused; --pull-requests is part of the run id', async () => {
    const dir = writeFiles(tempDir(), { 'in.jsonl': line(MANIFEST[0]?.[1]), 'copy.jsonl': line(MANIFEST[0]?.[1]) });
    for (const out of ['/dev/null']) {
      const r = await cli(['import-run', 'gh-aw-manifest', '--output', out, 'in.jsonl'], dir);
      expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/it is not a regular file/)]);
    }
    const twice = await cli(['import-run', 'gh-aw-manifest', '--output', 'o.ndjson', 'in.jsonl', 'copy.jsonl'], dir);
    expect([twice.code, twice.stderr]).toEqual([
      1,
      expect.stringMatching(/copy\.jsonl:1:1: the same bytes as .*in\.jsonl: a file given twice/),
    ]);
    const pulls = readFileSync(path.join(FX, 'gh-aw/week/pull-requests.json'), 'utf8');
    writeFiles(dir, { 'pulls.json': pulls });
    const a = await runImporter('import-run', 'gh-aw-manifest', { 'in.jsonl': line(MANIFEST[0]?.[1]) }, []);
    const b = await runImporter(
      'import-run',
      'gh-aw-manifest',
      { 'in.jsonl': line(MANIFEST[0]?.[1]), 'pulls.json': pulls },
      ['--pull-requests', 'pulls.json'],
      ['in.jsonl'],
    );
    expect(a.lines[0].assayrunid).not.toBe(b.lines[0].assayrunid);
  });
});
