/**
 * provider exports → records, offline, through dist/cli.js as a real process. Each export
 * kind, as a user downloads it (fixtures/import/, field lists from the providers' documented
 * formats, values invented), imports into records that verify the matching agent calls with no hand
 * editing; whatever cannot be mapped is said, counted and located.
 */

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { normalize, targetHash } from '../../src/core/target-hash.js';
import { decision, json, surface } from '../support/corpus.js';
import { cleanup, cli, cliJson, ROOT, tempDir, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

const FX = path.join(ROOT, 'fixtures/import');
const SIGNED = path.join(ROOT, 'fixtures/signed');

/** The calls an agent made for the fixtures' events, hashed as the agent side hashes them. */
function agentRun(): string {
  const key = (repo: string, title: string) => ({
    provider: 'github',
    owner: 'acme-corp',
    repo,
    key_title_hash: targetHash('github_key_title', title),
    read_only: false,
  });
  const add = (repo: string, title: string) =>
    decision({
      tool: 'github.add_deploy_key',
      verb: 'create',
      resourceType: 'github_deploy_key',
      target: key(repo, title),
      claim: 'verified',
    });
  const member = (principal: string) =>
    decision({
      tool: 'slack.add_member',
      verb: 'add',
      resourceType: 'workspace_member',
      target: {
        provider: 'slack',
        workspace_id_hash: targetHash('slack_workspace', 'T024BE7LD'),
        channel_id_hash: targetHash('slack_channel', 'C02ONBOARD'),
        principal_hash: targetHash('slack_principal', principal),
      },
      claim: 'verified',
    });
  const grant = decision({
    tool: 'workspace.grant_admin',
    verb: 'grant',
    resourceType: 'workspace_role',
    target: {
      provider: 'workspace',
      workspace_id_hash: targetHash('workspace', 'T024BE7LD'),
      principal_hash: targetHash('workspace_principal', 'U0ADA'),
      role: 'admin',
    },
    claim: 'verified',
  });
  return json(
    surface([
      add('payments-api', 'deploy-2026-11'),
      add('billing-worker', 'deploy-2026-11'),
      add('release-bot', 'release-2026-11'),
      member('U0ADA'),
      member('U0GRACE'),
      grant,
    ]),
  );
}

async function importInto(dir: string, kind: string, out: string, inputs: readonly string[], extra: readonly string[] = []) {
  return await cli(['import', kind, '--output', path.join(dir, out), ...extra, ...inputs.map((f) => path.join(FX, f))], ROOT);
}

describe('hash vectors (docs/importers.md)', () => {
  it.each([
    ['github_key_title', 'ci-key', 'sha256:a65a94d25524f87fbb5ce6d3fde202c02a5b532f27e1ba3b5708076e1ba75ccf'],
    ['slack_workspace', 'T0123', 'sha256:e4cfe2c3698fd59b58fd5a075e378f38d857421174faffe3317d3f86473f0190'],
    ['slack_channel', 'C0123', 'sha256:d7f40313c37246eca3ae64aaa3c65db4fc52d02e73f1d3e01cd9c8650ee42e1a'],
    ['slack_principal', 'alice@example.com', 'sha256:fccfe5ed09f484c1f7523fd8f9fea1bb2e85ddb0845ad61225e604f2c013620d'],
    ['workspace', 'acme', 'sha256:2443f42f97a4e38e039eaab087b51040b31f61dfac89d7cf75d397cd2033675b'],
    ['workspace_principal', 'bob@example.com', 'sha256:879a6f5abcca30d0334b3238baac9ea116a195b66d3d56eebf447552f8e1aede'],
    ['github_key_title', '  CI-Key ', 'sha256:a65a94d25524f87fbb5ce6d3fde202c02a5b532f27e1ba3b5708076e1ba75ccf'],
  ] as const)('H(%s, %j) and `receipt-gate hash` agree with the vector', async (domain, value, h) => {
    expect(targetHash(domain, value)).toBe(h);
    expect(await cli(['hash', domain, value], ROOT)).toMatchObject({ code: 0, stdout: `${h}\n` });
  });

  it('trims the explicit White_Space class but not U+FEFF, then lower-cases fully', () => {
    expect(normalize('\u3000\u00a0Ärger\u2029')).toBe('ärger');
    expect(normalize('\ufeffx')).toBe('\ufeffx');
  });
});

describe('each export kind verifies the matching agent calls, with no hand editing', () => {
  it('GitHub audit log (REST page + gzipped streaming lines), GitHub webhook deliveries + a raw payload, Slack Audit Logs page', async () => {
    const dir = writeFiles(tempDir(), { '.assay/runs/agent.json': agentRun() });
    const a = await importInto(dir, 'github-audit-log', '.assay/audit/github.ndjson', [
      'github/audit-log-rest-page.json',
      'github/audit-log-stream.json.gz',
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stderr).toMatch(
      /8 entries read, 3 record\(s\) written, 4 skipped \(1 no title, 2 other action, 1 user key without repo\), 1 duplicate\(s\) merged/,
    );
    const s = await importInto(dir, 'slack-audit-log', '.assay/audit/slack.ndjson', ['slack/audit-logs-page.json']);
    expect(s.stderr).toMatch(/4 entries read, 3 record\(s\) written, 1 skipped \(1 other action\)/);
    const { code, report } = await cliJson(['-C', dir], ROOT);
    expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(code).toBe(0);
    expect(report.calls.map((c) => c.level)).toEqual(['verified', 'verified', 'verified', 'verified', 'verified', 'verified']);

    // The webhook route binds the same two deploy keys it saw (one source per event, so in its own workspace).
    const dir2 = writeFiles(tempDir(), { '.assay/runs/agent.json': agentRun() });
    const w = await importInto(dir2, 'github-webhook', '.assay/audit/webhook.ndjson', [
      'github/webhook-deliveries.json',
      'github/webhook-payload-raw.json',
    ]);
    expect(w.stderr).toMatch(/3 entries read, 2 record\(s\) written, 1 skipped \(1 other event\)/);
    const r2 = (await cliJson(['-C', dir2, '--allow-unmatched-records'], ROOT)).report;
    expect(r2.calls.slice(0, 2).map((c) => c.level)).toEqual(['verified', 'verified']);
    // A deploy key is named by the key GitHub made, whether a delivery or a raw payload carries it.
    expect(r2.records.map((x) => x.record_id)).toEqual([
      'github-deploy-key:acme-corp/billing-worker:91827365',
      'github-deploy-key:acme-corp/payments-api:91827364',
    ]);
  });

  it('--sign-key signs every record; with the key trusted they verify, and sign reproduces byte for byte', async () => {
    const dir = writeFiles(tempDir(), { '.assay/runs/agent.json': agentRun() });
    const args = ['--sign-key', path.join(SIGNED, 'test-signer.key.pem'), '--signed-at', '2026-11-30T12:00:00Z'];
    expect((await importInto(dir, 'slack-audit-log', '.assay/audit/slack.ndjson', ['slack/audit-logs-page.json'], args)).code).toBe(0);
    const lines = readFileSync(path.join(dir, '.assay/audit/slack.ndjson'), 'utf8').trim().split('\n');
    expect(
      lines.every((l) => JSON.parse(l).signature.key_id === 'sha256:646d6be49d9f0048f94f67749eca35156eed4f7a7be18e4fc4a94bfd44e300b0'),
    ).toBe(true);
    const again = tempDir();
    await importInto(again, 'slack-audit-log', 'slack.ndjson', ['slack/audit-logs-page.json'], args);
    expect(readFileSync(path.join(again, 'slack.ndjson'), 'utf8')).toBe(lines.join('\n') + '\n');
    const r = (await cliJson(['-C', dir, '--trusted-key', path.join(SIGNED, 'test-signer.pub.pem'), '--allow-unmatched-records'], ROOT))
      .report;
    expect(r.records.map((x) => [x.outcome, x.signer !== null])).toEqual([
      ['bound', true],
      ['bound', true],
      ['bound', true],
    ]);
  });

  it('records carry non_claims naming their export, and never a raw key, fingerprint, actor or e-mail', async () => {
    const dir = tempDir();
    await importInto(dir, 'github-audit-log', 'gh.ndjson', ['github/audit-log-rest-page.json']);
    await importInto(dir, 'slack-audit-log', 'sl.ndjson', ['slack/audit-logs-page.json'], ['--principal', 'email']);
    const text = readFileSync(path.join(dir, 'gh.ndjson'), 'utf8') + readFileSync(path.join(dir, 'sl.ndjson'), 'utf8');
    expect(JSON.parse(text.split('\n')[0]!).non_claims[0]).toBe(
      'imported from a GitHub audit-log export (audit-log-rest-page.json); receipt-gate queried nothing',
    );
    for (const secret of ['ssh-ed25519', 'SHA256:', 'deploy-agent', 'example.com', '198.51.100.7']) expect(text).not.toContain(secret);
  });
});

describe('what cannot be mapped is said, counted and located; on any error nothing is written', () => {
  const entry = (id: string, title: string) => ({
    _document_id: id,
    action: 'public_key.create',
    repo: 'acme/x',
    title,
    key: 'ssh-ed25519 AAAASECRET',
    fingerprint: 'SHA256:SECRET',
  });

  it('entries under one _document_id that map to different records are an error naming it; identical ones merge', async () => {
    const dir = writeFiles(tempDir(), {
      'a.json': JSON.stringify([entry('d1', 'k'), entry('d1', 'k'), entry('d2', 'k'), entry('d2', 'other')]),
    });
    const r = await cli(['import', 'github-audit-log', '--output', path.join(dir, 'out.ndjson'), path.join(dir, 'a.json')], ROOT);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /a\.json:1:\d+: two entries with record id "github-audit:d2" map to different records \(the other at .*a\.json:1:\d+\)/,
    );
    expect(r.stderr).toMatch(/nothing written/);
    expect(r.stderr).not.toMatch(/SECRET/);
    expect(existsSync(path.join(dir, 'out.ndjson'))).toBe(false);
  });

  it.each([
    ['not JSON', Buffer.from('{"action": '), /:1:\d+: /],
    ['duplicate keys', Buffer.from('[{"action":"public_key.create","action":"x"}]'), /duplicate key "action"/],
    ['an entry that is not an object', Buffer.from('[1]'), /an entry is not a JSON object/],
    ['a gzip bomb', gzipSync(Buffer.alloc(80 * 1024 * 1024, 32)), /decompresses to more than 67108864 bytes/],
    [
      'a repo that is not owner/name',
      Buffer.from(JSON.stringify([{ _document_id: 'z', action: 'public_key.create', repo: 'noslash', title: 't' }])),
      /entry "z": repo is not "owner\/name"/,
    ],
  ])('%s: a located error, exit 1, nothing written', async (_n, bytes, why) => {
    const dir = writeFiles(tempDir(), { 'x.json': bytes });
    const r = await cli(['import', 'github-audit-log', '--output', path.join(dir, 'out.ndjson'), path.join(dir, 'x.json')], ROOT);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(why);
    expect(r.stderr).toMatch(/x\.json:\d+:\d+: /);
    expect(existsSync(path.join(dir, 'out.ndjson'))).toBe(false);
  });

  it('Slack: a missing principal in the chosen form is an error naming the option; an unmapped role change is a counted skip', async () => {
    const dir = tempDir();
    const page = {
      entries: [
        {
          id: 'e1',
          action: 'user_channel_join',
          actor: { user: { id: 'U1' } },
          entity: { channel: { id: 'C1' } },
          context: { location: { type: 'workspace', id: 'T1' } },
        },
      ],
    };
    writeFileSync(path.join(dir, 'p.json'), JSON.stringify(page));
    const r = await cli(
      ['import', 'slack-audit-log', '--principal', 'email', '--output', path.join(dir, 'o.ndjson'), path.join(dir, 'p.json')],
      ROOT,
    );
    expect(r.stderr).toMatch(/entry "e1": user_channel_join without actor\.user\.email \(--principal email\)/);
    const page2 = {
      entries: [{ id: 'e2', action: 'role_change_to_billing', entity: { user: { id: 'U1' } }, context: { location: { id: 'T1' } } }],
    };
    writeFileSync(path.join(dir, 'q.json'), JSON.stringify(page2));
    const r2 = await cli(['import', 'slack-audit-log', '--output', path.join(dir, 'o.ndjson'), path.join(dir, 'q.json')], ROOT);
    expect(r2.code).toBe(0);
    expect(r2.stderr).toMatch(/1 skipped \(1 role change to billing \(no verb mapped\)\)/);
    const r3 = await cli(
      ['import', 'slack-audit-log', '--role-verb', 'billing=grant', '--output', path.join(dir, 'o2.ndjson'), path.join(dir, 'q.json')],
      ROOT,
    );
    expect(JSON.parse(readFileSync(path.join(dir, 'o2.ndjson'), 'utf8')).subject).toMatchObject({
      verb: 'grant',
      target: { role: 'billing' },
    });
    expect(r3.code).toBe(0);
  });
});

describe('a record that binds nothing because of letter case', () => {
  it('says so when the nearest call differs only in the case of owner or repo', async () => {
    const dir = writeFiles(tempDir(), {
      '.assay/runs/agent.json': json(
        surface([
          decision({
            tool: 'github.add_deploy_key',
            verb: 'create',
            resourceType: 'github_deploy_key',
            target: {
              provider: 'github',
              owner: 'Acme-Corp',
              repo: 'Payments-API',
              key_title_hash: targetHash('github_key_title', 'deploy-2026-11'),
            },
          }),
        ]),
      ),
    });
    await importInto(dir, 'github-audit-log', '.assay/audit/gh.ndjson', ['github/audit-log-rest-page.json']);
    const r = (await cliJson(['-C', dir], ROOT)).report;
    const f = r.findings.find((x) => x.code === 'record_unmatched' && x.message.includes('Qm9ndXNEb2NJZDEyMw'))!;
    expect(f.message).toMatch(
      /whose target differs in owner, repo: only in letter case \(GitHub names are case-insensitive; the binding is not\)\. With an export scoped to the agent/,
    );
  });
});

describe('every shape the export routes write (one document pipeline)', () => {
  const page = JSON.parse(readFileSync(path.join(FX, 'github/audit-log-rest-page.json'), 'utf8')) as unknown[];
  const half = Math.ceil(page.length / 2);
  const pages = [page.slice(0, half), page.slice(half)];
  const shapes: Record<string, string | Buffer> = {
    'paginate.json': pages.map((p) => JSON.stringify(p)).join(''),
    'paginate-pretty.json': pages.map((p) => JSON.stringify(p, null, 2)).join('\n'),
    'slurp.json': JSON.stringify([...pages, []]),
    'lines.json': `${page.map((e) => JSON.stringify(e)).join('\n')}\n`,
    'paginate.json.gz': gzipSync(pages.map((p) => JSON.stringify(p)).join('')),
  };

  it('concatenated pages, an array of pages, one entry per line, gzipped or not: the same records', async () => {
    const dir = tempDir();
    writeFiles(dir, shapes);
    const want = await cli(
      ['import', 'github-audit-log', '--output', 'want.ndjson', path.join(FX, 'github/audit-log-rest-page.json')],
      dir,
    );
    expect(want.code, want.stderr).toBe(0);
    for (const name of Object.keys(shapes)) {
      const r = await cli(['import', 'github-audit-log', '--output', `${name}.ndjson`, name], dir);
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      // The records are the same but for the export file their non_claims name.
      const got = readFileSync(path.join(dir, `${name}.ndjson`), 'utf8').replaceAll(`(${name})`, '(audit-log-rest-page.json)');
      expect(got, name).toBe(readFileSync(path.join(dir, 'want.ndjson'), 'utf8'));
    }
  });

  it('each entry keeps its own file:line:column, on the second page too', async () => {
    const dir = tempDir();
    const bad = [...pages[1]!];
    bad[0] = 7;
    writeFiles(dir, { 'p.json': `${JSON.stringify(pages[0])}\n${JSON.stringify(bad)}` });
    const r = await cli(['import', 'github-audit-log', '--output', 'o.ndjson', 'p.json'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`p.json:2:2: an entry is not a JSON object`);
    expect(existsSync(path.join(dir, 'o.ndjson'))).toBe(false);
  });
});

describe('real exports: redeliveries, quiet nights, scope', () => {
  const deliveries = JSON.parse(readFileSync(path.join(FX, 'github/webhook-deliveries.json'), 'utf8')) as Record<string, unknown>[];
  const ghEntry = (id: string, actor: string, repo: string, at: number, title = 'k') => ({
    '@timestamp': at,
    created_at: at,
    _document_id: id,
    action: 'public_key.create',
    actor,
    repo,
    title,
  });
  const DAY = Date.UTC(2026, 10, 30);

  it('a redelivery (one guid, another delivery id and time) is the same record: merged, not an error', async () => {
    const first = deliveries[0]!;
    const again = JSON.parse(JSON.stringify(first)) as Record<string, unknown>;
    again['id'] = 99999;
    again['delivered_at'] = '2026-11-28T11:00:00Z';
    again['redelivery'] = true;
    const dir = writeFiles(tempDir(), { 'd.json': JSON.stringify([first, again]) });
    const r = await cli(['import', 'github-webhook', '--output', 'o.ndjson', 'd.json'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/1 duplicate\(s\) merged/);
    expect(readFileSync(path.join(dir, 'o.ndjson'), 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('a quiet night (an empty page, or empty pages) writes no file and says so, exit 0', async () => {
    const dir = writeFiles(tempDir(), { 'empty.json': '[]', 'pages.json': '[][]', 'lines.ndjson': '[]\n' });
    for (const f of ['empty.json', 'pages.json', 'lines.ndjson']) {
      const r = await cli(['import', 'github-audit-log', '--output', `${f}.ndjson`, f], dir);
      expect(r.code, `${f}: ${r.stderr}`).toBe(0);
      expect(r.stderr, f).toMatch(/0 entries read, 0 record\(s\) written.*no records, so .* was not written/);
      expect(existsSync(path.join(dir, `${f}.ndjson`)), f).toBe(false);
    }
  });

  it('--actor, --repo and the [since, until) window keep only the agent’s entries, count the rest by reason, write nothing about the actor', async () => {
    const entries = [
      ghEntry('a1', 'deploy-agent[bot]', 'acme/api', DAY + 1000),
      ghEntry('h1', 'alice', 'acme/api', DAY + 2000),
      ghEntry('a2', 'deploy-agent[bot]', 'acme/other', DAY + 3000),
      ghEntry('a3', 'deploy-agent[bot]', 'ACME/API', DAY - 1),
      ghEntry('a4', 'deploy-agent[bot]', 'acme/api', DAY + 86_400_000),
      ghEntry('a5', 'deploy-agent[bot]', 'Acme/Api', DAY + 86_399_999),
    ];
    const dir = writeFiles(tempDir(), { 'e.json': JSON.stringify(entries) });
    const r = await cli(
      [
        'import',
        'github-audit-log',
        '--actor',
        'deploy-agent[bot]',
        '--repo',
        'acme/api',
        '--since',
        '2026-11-30',
        '--until',
        '2026-12-01T00:00:00Z',
        '--output',
        'o.ndjson',
        'e.json',
      ],
      dir,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /6 entries read, 2 record\(s\) written, 4 skipped \(1 by another actor, 1 in another repository, 2 outside the window\)/,
    );
    // The window given, the coverage statement comes first and names the scope; the records name no actor.
    const [statement, ...records] = readFileSync(path.join(dir, 'o.ndjson'), 'utf8').trim().split('\n');
    expect(JSON.parse(statement ?? '')).toMatchObject({ schema: 'receipt-gate.audit_coverage.v1', records: 2, entries_read: 6 });
    expect(records.map((l) => JSON.parse(l).record_id)).toEqual(['github-audit:a1', 'github-audit:a5']);
    expect(records.join('\n')).not.toMatch(/deploy-agent|alice/);
  });

  it('--owner, --repo or --actor a near miss of what the export names (a red team: --owner acme for acme-corp, payment-api for payments-api) is a usage error naming it: nothing written, no coverage statement', async () => {
    const dir = writeFiles(tempDir(), { 'e.json': readFileSync(path.join(FX, 'github/audit-log-rest-page.json'), 'utf8') });
    const window = ['--since', '2026-01-01T00:00:00Z', '--until', '2026-01-02T00:00:00Z', '--now', '2026-01-03T00:00:00Z'];
    for (const [args, says] of [
      [
        ['--actor', 'deploy-agent[bot]', '--owner', 'acme', ...window],
        '--owner: no entry that maps to a record has acme, and 2 were in another organisation: acme-corp (2); did you mean --owner acme-corp (for acme)?',
      ],
      [
        ['--actor', 'deploy-agent[bot]', '--repo', 'acme-corp/payment-api'],
        '--repo: no entry that maps to a record has acme-corp/payment-api, and 2 were in another repository: acme-corp/billing-worker (1), acme-corp/payments-api (1); did you mean --repo acme-corp/payments-api (for acme-corp/payment-api)?',
      ],
      // One repository kept, the other given a letter off: its entries are dropped all the same.
      [
        ['--actor', 'deploy-agent[bot]', '--repo', 'acme-corp/payments-api', '--repo', 'acme-corp/biling-worker', ...window],
        'did you mean --repo acme-corp/billing-worker (for acme-corp/biling-worker)?',
      ],
      [['--actor', 'deploy-agent', '--owner', 'acme-corp', ...window], 'did you mean --actor deploy-agent[bot] (for deploy-agent)?'],
    ] as const) {
      const r = await cli(['import', 'github-audit-log', ...args, '--output', 'o.ndjson', 'e.json'], dir);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(says);
      expect(r.stderr).toContain('nothing was written');
      expect(existsSync(path.join(dir, 'o.ndjson'))).toBe(false);
    }
    // A tenant's flag is the same mechanism: an AWS account a digit off.
    const trail = '123456789012_CloudTrail_us-east-1_20261201T1020Z_Ab3dE5fG7hI9jK1l.json.gz';
    writeFileSync(path.join(dir, 'trail.json.gz'), readFileSync(path.join(ROOT, 'fixtures/providers/aws', trail)));
    const account = await cli(['import', 'aws-cloudtrail', '--account', '123456789013', '--output', 'o.ndjson', 'trail.json.gz'], dir);
    expect(account.code, account.stderr).toBe(2);
    expect(account.stderr).toContain('did you mean --account 123456789012 (for 123456789013)?');
    expect(existsSync(path.join(dir, 'o.ndjson'))).toBe(false);
    // The right owner: the statement and the agent's two keys.
    const right = await cli(
      ['import', 'github-audit-log', '--actor', 'deploy-agent[bot]', '--owner', 'acme-corp', ...window, '--output', 'o.ndjson', 'e.json'],
      dir,
    );
    expect(right.code, right.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'o.ndjson'), 'utf8').trim().split('\n')).toHaveLength(3);
    // An organisation nothing near: another organisation's export, a quiet night for this one (said, not refused).
    const other = await cli(
      ['import', 'github-audit-log', '--actor', 'deploy-agent[bot]', '--owner', 'globex', '--output', 'g.ndjson', 'e.json'],
      dir,
    );
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).toContain('no entry that maps to a record was kept: 2 in another organisation: acme-corp (2)');
    expect(existsSync(path.join(dir, 'g.ndjson'))).toBe(false);
  });

  it('scope flags are checked: a bad time, an empty window, --repo for Slack are usage errors', async () => {
    const dir = writeFiles(tempDir(), { 'e.json': '[]' });
    for (const args of [
      ['--since', 'yesterday'],
      ['--since', '2026-02-30'],
      ['--since', '2026-12-01', '--until', '2026-12-01'],
      ['--repo', 'not-a-repo'],
    ]) {
      const r = await cli(['import', 'github-audit-log', ...args, '--output', 'o.ndjson', 'e.json'], dir);
      expect(r.code, args.join(' ')).toBe(2);
    }
    expect((await cli(['import', 'slack-audit-log', '--repo', 'a/b', '--output', 'o.ndjson', 'e.json'], dir)).code).toBe(2);
  });

  it('Slack and deliveries are scoped by their own actor fields (actor.user.id or email; sender.login)', async () => {
    const slack = JSON.parse(readFileSync(path.join(FX, 'slack/audit-logs-page.json'), 'utf8')) as { entries: Record<string, unknown>[] };
    const dir = writeFiles(tempDir(), { 's.json': JSON.stringify(slack), 'd.json': JSON.stringify(deliveries) });
    const bySlack = await cli(['import', 'slack-audit-log', '--actor', 'ada@example.com', '--output', 's.ndjson', 's.json'], dir);
    expect(bySlack.code, bySlack.stderr).toBe(0);
    expect(bySlack.stderr).toMatch(/by another actor/);
    // A join by invitation is the inviter's too: the agent that added ada is details.inviter, not the
    // entry's actor (a red team: the agent's invitations were skipped, its calls effect_not_logged).
    const byInviter = await cli(['import', 'slack-audit-log', '--actor', 'UAGENT', '--output', 'i.ndjson', 's.json'], dir);
    expect(byInviter.code, byInviter.stderr).toBe(0);
    const kept = readFileSync(path.join(dir, 'i.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { schema: string; record_id?: string; subject?: { action_class: string } })
      .filter((l) => l.schema !== 'receipt-gate.audit_coverage.v1')
      .map((l) => [l.record_id, l.subject?.action_class]);
    expect(kept).toEqual([
      ['slack-audit:0123a45b-6c7d-8e9f-a0b1-c2d3e4f5a6b7', 'workspace_member'],
      ['slack-audit:2345c67d-8e9f-0a1b-c2d3-e4f5a6b7c8d9', 'workspace_role'],
    ]);
    const byHook = await cli(['import', 'github-webhook', '--actor', 'someone-else', '--output', 'd.ndjson', 'd.json'], dir);
    expect(byHook.code, byHook.stderr).toBe(0);
    expect(byHook.stderr).toMatch(/0 record\(s\) written.*by another actor/);
  });

  it('an export of the wrong kind imports nothing quietly no more: refused, saying what it looks like, nothing written', async () => {
    const slack = readFileSync(path.join(FX, 'slack/audit-logs-page.json'), 'utf8');
    const github = readFileSync(path.join(FX, 'github/audit-log-rest-page.json'), 'utf8');
    const dir = writeFiles(tempDir(), { 's.json': slack, 'g.json': github });
    const a = await cli(['import', 'github-audit-log', '--output', 'o.ndjson', 's.json'], dir);
    expect(a.code).toBe(1);
    expect(a.stderr).toMatch(/this looks like a Slack audit-log page: try import slack-audit-log/);
    expect(a.stderr).toMatch(/nothing written/);
    expect(existsSync(path.join(dir, 'o.ndjson'))).toBe(false);
    const b = await cli(['import', 'slack-audit-log', '--output', 'o.ndjson', 'g.json'], dir);
    expect(b).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/this looks like a GitHub audit-log export: try import github-audit-log/),
    });
    // Beside an export of the kind, the same: each file is judged (a red team: the Slack page's entries counted as "other action", exit 0).
    const both = await cli(['import', 'github-audit-log', '--output', 'o.ndjson', 'g.json', 's.json'], dir);
    expect(both).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /s\.json:\d+:\d+: no entry has the shape of a GitHub audit-log export: this looks like a Slack audit-log page/,
      ),
    });
    expect(existsSync(path.join(dir, 'o.ndjson'))).toBe(false);
  });

  it('an --output naming one of its inputs (or the mapping) is a usage error, and the input is left as it was (a red team: an export replaced by its records)', async () => {
    const github = readFileSync(path.join(FX, 'github/audit-log-rest-page.json'), 'utf8');
    const dir = writeFiles(tempDir(), { 'g.json': github, 'sub/x': '' });
    for (const out of ['g.json', './sub/../g.json'])
      expect(await cli(['import', 'github-audit-log', '--output', out, 'g.json'], dir)).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('a command never writes over what it reads'),
      });
    expect(readFileSync(path.join(dir, 'g.json'), 'utf8')).toBe(github);
    const run = await cli(['import-run', 'otlp-json', '--map', 'g.json', '--output', 'g.json', 'sub/x'], dir);
    expect(run).toMatchObject({ code: 2, stderr: expect.stringContaining('--output: names the input') });
    // Nor the signing key, the AWS public keys, or a file among the digests (a red team: --output k.key.pem replaced the key).
    expect((await cli(['keygen', '--out', path.join(dir, 'k')], dir)).code).toBe(0);
    const key = readFileSync(path.join(dir, 'k.key.pem'), 'utf8');
    const signed = await cli(['import', 'github-audit-log', '--sign-key', 'k.key.pem', '--output', 'k.key.pem', 'g.json'], dir);
    expect(signed).toMatchObject({ code: 2, stderr: expect.stringContaining('--output: names the input') });
    expect(readFileSync(path.join(dir, 'k.key.pem'), 'utf8')).toBe(key);
    const digests = await cli(
      [
        'import',
        'aws-cloudtrail',
        '--cloudtrail-digests',
        'sub',
        '--cloudtrail-public-keys',
        'g.json',
        '--output',
        'sub/r.ndjson',
        'g.json',
      ],
      dir,
    );
    expect(digests).toMatchObject({ code: 2, stderr: expect.stringContaining('--output: lies in --cloudtrail-digests sub') });
  });

  it('the window is exact at the precision the bound is written with (never rounded to milliseconds); one entry is "1 entry"', async () => {
    const dir = writeFiles(tempDir(), {
      'e.json': JSON.stringify([ghEntry('a0', 'bot', 'acme/api', DAY), ghEntry('a1', 'bot', 'acme/api', DAY + 1)]),
    });
    const r = await cli(['import', 'github-audit-log', '--since', '2026-11-30T00:00:00.0005Z', '--output', 'o.ndjson', 'e.json'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/2 entries read, 1 record\(s\) written, 1 skipped \(1 outside the window\)/);
    expect(JSON.parse(readFileSync(path.join(dir, 'o.ndjson'), 'utf8')).record_id).toBe('github-audit:a1');
    writeFileSync(path.join(dir, 'one.json'), JSON.stringify([ghEntry('a2', 'bot', 'acme/api', DAY)]));
    expect((await cli(['import', 'github-audit-log', '--output', 'p.ndjson', 'one.json'], dir)).stderr).toMatch(/1 entry read, 1 record/);
  });

  it('--actor and --repo ignore ASCII case on GitHub; Slack ids compare exactly', async () => {
    const dir = writeFiles(tempDir(), {
      'e.json': JSON.stringify([ghEntry('a1', 'Deploy-Agent[bot]', 'Acme/API', DAY)]),
      's.json': readFileSync(path.join(FX, 'slack/audit-logs-page.json'), 'utf8'),
    });
    const gh = await cli(
      ['import', 'github-audit-log', '--actor', 'deploy-agent[BOT]', '--repo', 'ACME/api', '--output', 'o.ndjson', 'e.json'],
      dir,
    );
    expect(gh.stderr).toMatch(/1 record\(s\) written, 0 skipped/);
    const sl = await cli(['import', 'slack-audit-log', '--actor', 'ADA@EXAMPLE.COM', '--output', 's.ndjson', 's.json'], dir);
    expect(sl.stderr).toMatch(/0 record\(s\) written.*by another actor/);
  });
});
