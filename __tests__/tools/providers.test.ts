/**
 * Providers beyond GitHub and Slack (docs/importers.md): AWS CloudTrail, the Kubernetes audit log and
 * the Okta System Log, each as a table of the shared importer tester (entries → the records written,
 * the skips counted, the refusals located), and per provider a round trip: the agent's spans through
 * the provider's mapping file (examples/mappings/) → a run, the provider's export → records, the gate
 * `verified`; another target stays unbound; a duplicate entry is one record.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { targetHash } from '../../src/core/target-hash.js';
import { digestKey, makeDigest, publicKeysJson } from '../support/cloudtrail.js';
import { type Expected, expectImport, runImporter, verifyIn } from '../support/importer.js';
import { cleanup, cli, ROOT, tempDir, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

const FX = path.join(ROOT, 'fixtures/providers');
const TRAIL = path.join(FX, 'aws/123456789012_CloudTrail_us-east-1_20261201T1020Z_Ab3dE5fG7hI9jK1l.json.gz');
const trailRecords = (): Record<string, unknown>[] => JSON.parse(gunzipSync(readFileSync(TRAIL)).toString('utf8')).Records;
const k8sLines = (): Record<string, unknown>[] =>
  readFileSync(path.join(FX, 'k8s/audit.log'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
const oktaEntries = (): Record<string, unknown>[] => {
  const text = readFileSync(path.join(FX, 'okta/system-log.json'), 'utf8');
  const split = text.indexOf('][') + 1;
  return [...JSON.parse(text.slice(0, split)), ...JSON.parse(text.slice(split))];
};
const json = (v: unknown) => `${JSON.stringify(v)}\n`;
const subjects = (lines: readonly { subject: unknown }[]) => lines.map((l) => l.subject);

const ROLE = 'arn:aws:iam::123456789012:role/agent-deployer';
/** The fixtures' day as a window, and a clock after it: a coverage statement is claimed. */
const WINDOW = ['--since', '2026-12-01', '--until', '2026-12-02', '--now', '2026-12-03T00:00:00Z'];

describe('import aws-cloudtrail', () => {
  const [key, attach, denied, read, s3, human] = trailRecords();
  const ROWS: readonly [string, Record<string, string>, string[], Expected][] = [
    [
      'a log file as CloudTrail writes it to S3 (gzipped): CreateAccessKey (the user hashed) and AttachRolePolicy; a failed call, a read and another service counted',
      { 'in.json.gz': readFileSync(TRAIL) as unknown as string },
      ['--actor', ROLE],
      {
        writes: (l) =>
          expect(subjects(l)).toEqual([
            {
              action_class: 'aws_iam_access_key',
              verb: 'create',
              target: { account: '123456789012', user_name_hash: targetHash('aws_iam_user', 'ci-uploader') },
            },
            {
              action_class: 'aws_iam_role_policy',
              verb: 'attach',
              target: { account: '123456789012', role_name: 'deploy-runner', policy_arn: 'arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess' },
            },
          ]),
        says: /6 entries read, 2 record\(s\) written, 4 skipped \(1 by another actor, 1 failed call \(errorCode\), 1 not an IAM event, 1 other IAM event\)/,
      },
    ],
    [
      'lookup-events output (each event JSON text): the same records',
      { 'in.json': readFileSync(path.join(FX, 'aws/lookup-events.json'), 'utf8') },
      [],
      {
        writes: (l) =>
          expect(l.map((r) => r.record_id)).toEqual([
            'aws-cloudtrail:3f1c6a2e-5b7d-4e8f-9a01-2b3c4d5e6f70',
            'aws-cloudtrail:8a9b0c1d-2e3f-4a5b-8c6d-7e8f9a0b1c2d',
          ]),
      },
    ],
    [
      'one event delivered twice (two log files): one record',
      { 'in-1.json': json({ Records: [key, denied] }), 'in-2.json': json({ Records: [key, read, s3] }) },
      [],
      { writes: (l) => expect(l).toHaveLength(1), says: /1 duplicate\(s\) merged/ },
    ],
    [
      '--account keeps one account’s entries; a window needs it',
      { 'in.json': json({ Records: [key, { ...attach, recipientAccountId: '999999999999' }] }) },
      ['--account', '123456789012'],
      { writes: (l) => expect(l).toHaveLength(1), says: /1 in another account/ },
    ],
    [
      'a CreateAccessKey naming no user anywhere: located',
      { 'in.json': json({ Records: [{ ...key, requestParameters: {}, responseElements: null }] }) },
      [],
      { refuses: /in\.json:1:\d+: event "3f1c6a2e-5b7d-4e8f-9a01-2b3c4d5e6f70": a CreateAccessKey naming no user/ },
    ],
    [
      'a hostile file: a lookup entry whose CloudTrailEvent is not JSON, prototype keys, an event with no eventID',
      {
        'in.json': json({
          Events: [
            { CloudTrailEvent: '{"eventSource":' },
            { CloudTrailEvent: JSON.stringify({ ...attach, eventID: undefined, __proto__: { x: 1 } }) },
          ],
        }),
      },
      [],
      {
        refuses:
          /in\.json:1:\d+: a lookup-events entry whose CloudTrailEvent is not JSON[\s\S]*an AttachRolePolicy event without an eventID/,
      },
    ],
    // The red team's: two values for one target field, a field of the wrong type, an account guessed, two lists in one page.
    [
      'a CreateAccessKey whose request and response name two users: refused, never the request’s taken',
      {
        'in.json': json({
          Records: [{ ...key, responseElements: { accessKey: { userName: 'admin-user', status: 'Active', accessKeyId: 'AKIA0' } } }],
        }),
      },
      [],
      { refuses: /two userNames \("ci-uploader" and "admin-user"\): which one is meant cannot be said/ },
    ],
    [
      'a request and a response naming one IAM user in two cases name one user (IAM names are caseless): one record (a red team, this stop)',
      {
        'in.json': json({
          Records: [
            {
              ...key,
              requestParameters: { userName: 'CI-Uploader' },
              responseElements: { accessKey: { userName: 'ci-uploader', status: 'Active', accessKeyId: 'AKIA0' } },
            },
          ],
        }),
      },
      [],
      { writes: (l) => expect(l).toHaveLength(1) },
    ],
    [
      'a userName that is no text is refused, never passed over for the response’s',
      {
        'in.json': json({
          Records: [
            {
              ...key,
              requestParameters: { userName: 7 },
              responseElements: { accessKey: { userName: 'admin-user', status: 'Active', accessKeyId: 'AKIA0' } },
            },
          ],
        }),
      },
      [],
      { refuses: /requestParameters\.userName is not text/ },
    ],
    [
      'the account is the recipient’s, never the caller’s: a number, or none, is refused',
      {
        'in.json': json({ Records: [{ ...attach, recipientAccountId: 999999999999 }] }),
        'in-2.json': json({ Records: [{ ...key, recipientAccountId: undefined }] }),
      },
      [],
      { refuses: /recipientAccountId is not text[\s\S]*no recipientAccountId/ },
    ],
    [
      'an errorMessage without its errorCode is a failed call',
      { 'in.json': json({ Records: [{ ...attach, errorMessage: 'User is not authorized to perform: iam:AttachRolePolicy' }] }) },
      [],
      { writes: (l) => expect(l).toHaveLength(0), says: /1 failed call \(errorCode\)/ },
    ],
    [
      'a page with both Records and Events: refused, located, never one list read',
      { 'in.json': json({ Records: [key], Events: [{ CloudTrailEvent: JSON.stringify(attach) }] }) },
      [],
      { refuses: /in\.json:1:1: a page holding entries under Records and Events: which list is the export cannot be said/ },
    ],
    // A red team's: an in-window time written as a number, read as ms, fell in 1970 and was skipped as outside a window claimed complete.
    [
      'an eventTime that is not RFC 3339 text (seconds since the epoch, in the window; an object) is located, never read as some epoch',
      {
        'in.json': json({ Records: [{ ...key, eventTime: Date.parse(String(key?.['eventTime'])) / 1000 }] }),
        'in-2.json': json({ Records: [{ ...attach, eventTime: { seconds: 1796119200 } }] }),
      },
      [...['--actor', ROLE, '--account', '123456789012'], ...WINDOW],
      {
        refuses:
          /in\.json:1:\d+: event "3f1c6a2e-5b7d-4e8f-9a01-2b3c4d5e6f70": its time 1796120102 is not an RFC 3339 time \(this log writes its times as RFC 3339 text; a number is not read as seconds or milliseconds\)[\s\S]*in-2\.json:1:\d+: event "8a9b0c1d-2e3f-4a5b-8c6d-7e8f9a0b1c2d": its time \{"seconds":1796119200\} is not an RFC 3339 time/,
      },
    ],
    [
      'a CloudTrailEvent with a key twice (two readers would see two events): refused, located',
      { 'in.json': json({ Events: [{ CloudTrailEvent: JSON.stringify(attach).replace('{', '{"eventName":"ListUsers",') }] }) },
      [],
      { refuses: /in\.json:1:\d+: a lookup-events entry whose CloudTrailEvent is not JSON, read strictly \(duplicate key "eventName"\)/ },
    ],
  ];
  it.each(ROWS)('%s', async (_name, files, args, expected) => {
    const r = await runImporter('import', 'aws-cloudtrail', files, args);
    expectImport(r, expected);
  });

  it('a window without --account is a usage error; with it the statement’s owner is the account', async () => {
    const dir = writeFiles(tempDir(), { 'in.json': json({ Records: [human] }) });
    const without = await cli(
      ['import', 'aws-cloudtrail', '--actor', ROLE, '--since', '2026-12-01', '--until', '2026-12-02', '--output', 'o.ndjson', 'in.json'],
      dir,
    );
    expect([without.code, without.stderr]).toEqual([2, expect.stringMatching(/--since\/--until need --account for aws-cloudtrail/)]);
    const r = await runImporter('import', 'aws-cloudtrail', { 'in.json': json({ Records: [human] }) }, [
      '--actor',
      ROLE,
      '--account',
      '123456789012',
      '--since',
      '2026-12-01',
      '--until',
      '2026-12-02',
      '--now',
      '2026-12-02T04:00:00Z',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.lines[0]).toMatchObject({
      provider: 'aws',
      export: 'aws-cloudtrail',
      owner: '123456789012',
      repos: null,
      records: 0,
      actions: ['aws_iam_access_key:create', 'aws_iam_role_policy:attach'],
    });
  });
});

describe('exports that stopped early or hold what is no entry (a red team: the window was claimed complete, exit 0)', () => {
  const [key, attach, , , , human] = trailRecords();
  const day = ['--since', '2026-12-01', '--until', '2026-12-02', '--now', '2026-12-02T04:00:00Z'];
  const window = ['--account', '123456789012', ...day];
  it('an array of CloudTrail pages (jq -s) is read page by page, each page’s NextToken read: one that says more follow stops the window', async () => {
    const slurped = json([{ Records: [key] }, { Records: [attach, human] }]);
    const r = await runImporter('import', 'aws-cloudtrail', { 'in.json': slurped }, ['--actor', ROLE, ...window]);
    expect(r.code, r.stderr).toBe(0);
    expect(subjects(r.lines.slice(1)).map((x) => (x as { action_class: string }).action_class)).toEqual([
      'aws_iam_access_key',
      'aws_iam_role_policy',
    ]);
    const lookup = (e: Record<string, unknown> | undefined) => ({ CloudTrailEvent: JSON.stringify(e), EventId: e?.['eventID'] });
    const more = json([{ Events: [lookup(key)], NextToken: 'page-2' }]);
    const stopped = await runImporter('import', 'aws-cloudtrail', { 'in.json': more }, ['--actor', ROLE, ...window]);
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toMatch(/in\.json:1:2: .*this page says more pages follow/);
    expect(stopped.lines).toEqual([]);
  });
  // A red team's: beside another listing's last page (another query's, or an empty page), a listing that stopped early was claimed complete.
  it('each file is one listing read to its end: a listing stopped after a page is refused whatever another file holds; its next page in its own file completes it', async () => {
    const lookup = (e: Record<string, unknown> | undefined) => ({ CloudTrailEvent: JSON.stringify(e), EventId: e?.['eventID'] });
    // lookup-events takes one attribute per query: one listing per event name.
    const stopped = json({ Events: [lookup(key)], NextToken: 'page-2' });
    const complete = json({ Events: [lookup(attach)] });
    const args = ['--actor', ROLE, ...window];
    const beside = await runImporter('import', 'aws-cloudtrail', { 'in1.json': stopped, 'in2.json': complete }, args);
    expectImport(beside, {
      refuses:
        /in1\.json:1:1: this page says more pages follow \(its next cursor is set\) and it is the last page of its file: the listing stopped early/,
    });
    const empty = await runImporter('import', 'aws-cloudtrail', { 'in1.json': stopped, 'in2.json': json({ Records: [] }) }, args);
    expectImport(empty, { refuses: /in1\.json:1:1: this page says more pages follow/ });
    // The complete listing alone, and the stopped one with its next page after it in its file: covered.
    const alone = await runImporter('import', 'aws-cloudtrail', { 'in2.json': complete }, args);
    expect(alone.code, alone.stderr).toBe(0);
    const whole = await runImporter('import', 'aws-cloudtrail', { 'in1.json': stopped + complete, 'in2.json': complete }, args);
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.lines[0]).toMatchObject({ schema: 'receipt-gate.audit_coverage.v1', owner: '123456789012', records: 2 });
    // A file whose last page says more follow is refused even when an earlier page of it ended a listing.
    const tail = await runImporter('import', 'aws-cloudtrail', { 'in.json': complete + stopped }, args);
    expectImport(tail, { refuses: /in\.json:2:1: this page says more pages follow/ });
    // Without a window nothing is claimed: the records are written.
    expect(
      (await runImporter('import', 'aws-cloudtrail', { 'in1.json': stopped, 'in2.json': complete }, ['--account', '123456789012'])).code,
    ).toBe(0);
  });
  it('an API error body a paging script appended is an error under a window, never "other event type" beside a statement', async () => {
    const [grant, login] = oktaEntries();
    const files = {
      'in.json': JSON.stringify([grant, login]) + JSON.stringify({ errorCode: 'E0000047', errorSummary: 'API call exceeded rate limit' }),
    };
    const windowed = await runImporter('import', 'okta-system-log', files, ['--org', 'acme', '--actor', 'agent@acme.example', ...day]);
    expect(windowed.code).toBe(1);
    expect(windowed.stderr).toMatch(
      /not an entry of .*an API error body, a page of another shape\?.*cannot be claimed complete for the window/,
    );
    expect(windowed.lines).toEqual([]);
    // Without a window nothing is claimed: counted, as before.
    const plain = await runImporter('import', 'okta-system-log', files, ['--org', 'acme']);
    expect(plain.code, plain.stderr).toBe(0);
  });
  it('webhook deliveries: GitHub’s error body after a page is no delivery and no payload of any event: an error under a window (a red team: skipped as "other event")', async () => {
    const deliveries = JSON.parse(readFileSync(path.join(ROOT, 'fixtures/producers/gh-aw/week/deliveries.json'), 'utf8')) as {
      delivered_at: string;
    }[];
    const first = deliveries.filter((d) => d.delivered_at.startsWith('2026-11-30')).slice(0, 1);
    const body = {
      message: 'API rate limit exceeded for installation ID 60011.',
      documentation_url: 'https://docs.github.com/rest',
      status: '403',
    };
    const files = { 'in.json': JSON.stringify(first) + JSON.stringify(body) };
    const window = [
      '--owner',
      'acme',
      '--actor',
      'acme-agents[bot]',
      '--since',
      '2026-11-30',
      '--until',
      '2026-12-01',
      '--now',
      '2026-12-02T00:00:00Z',
    ];
    const windowed = await runImporter('import', 'github-webhook', files, window);
    expectImport(windowed, { refuses: /in\.json:1:\d+: not an entry of .*an API error body, a page of another shape\?/ });
    // A raw payload of another event (a sender, no delivery around it) is still an entry: counted.
    const other = { 'in.json': JSON.stringify(first) + JSON.stringify({ action: 'created', sender: { login: 'someone' }, zen: 'x' }) };
    expect((await runImporter('import', 'github-webhook', other, window)).code).toBe(0);
  });
});

describe('an export that contradicts itself, or holds an event of the scope it cannot read whole (a red team: a refused call verified; a window claimed over an entry it could not name)', () => {
  const day = ['--since', '2026-12-01', '--until', '2026-12-02', '--now', '2026-12-02T04:00:00Z'];
  const AGENT = 'system:serviceaccount:agents:deployer';
  const [received, complete, , , , metadata] = k8sLines();
  it('one event id given as refused and as done (CloudTrail errorCode, a 403, an Okta FAILURE): an error, nothing written, never the success taken', async () => {
    const [key] = trailRecords();
    const denied = { ...key, errorCode: 'AccessDenied', errorMessage: 'not authorized', responseElements: null };
    const aws = await runImporter('import', 'aws-cloudtrail', {
      'in-1.json': json({ Records: [denied] }),
      'in-2.json': json({ Records: [key] }),
    });
    expectImport(aws, {
      refuses:
        /in-2\.json:1:\d+: two entries with record id "aws-cloudtrail:[^"]+" say different things \(the other at \S*in-1\.json:1:\d+: failed call \(errorCode\)\)/,
    });
    const forbidden = { ...complete, responseStatus: { code: 403 } };
    // In either order.
    const k8s = await runImporter('import', 'k8s-audit', { 'in.log': json(complete) + json(forbidden) }, ['--cluster', 'prod-eu']);
    expectImport(k8s, {
      refuses:
        /in\.log:2:1: two entries with record id "k8s-audit:6a1e9c20[^"]*" say different things \(the other at \S*in\.log:1:1: a record written\)/,
    });
    const [grant] = oktaEntries();
    const okta = await runImporter(
      'import',
      'okta-system-log',
      { 'in.json': JSON.stringify([{ ...grant, outcome: { result: 'FAILURE' } }, grant]) },
      ['--org', 'acme'],
    );
    expectImport(okta, { refuses: /say different things \(the other at \S*in\.json:1:2: outcome not SUCCESS\)/ });
    // One id by another actor and by the agent: another entry, not a copy (another time is a redelivery, not a contradiction).
    const other = { ...complete, user: { username: 'someone-else' } };
    const actors = await runImporter('import', 'k8s-audit', { 'in.log': json(other) + json(complete) }, [
      '--cluster',
      'prod-eu',
      '--actor',
      AGENT,
    ]);
    expectImport(actors, { refuses: /say different things \(the other at \S*in\.log:1:1: by another actor\)/ });
  });
  it('under a window: a create of the scope that names no binding, or a request whose complete stage is not given, refuses the statement; outside the scope, or without a window, each is counted', async () => {
    const unnamed = await runImporter('import', 'k8s-audit', { 'in.log': json(metadata) }, [
      '--cluster',
      'prod-eu',
      '--actor',
      AGENT,
      ...day,
    ]);
    expectImport(unnamed, {
      refuses: /in\.log:1:1: an entry of the scope that does not say whether or what it changed \(a binding the entry does not name/,
    });
    const started = await runImporter('import', 'k8s-audit', { 'in.log': json(received) }, [
      '--cluster',
      'prod-eu',
      '--actor',
      AGENT,
      ...day,
    ]);
    expectImport(started, {
      refuses:
        /in\.log:1:1: a request of the scope \(record id "k8s-audit:6a1e9c20[^"]*"\) whose completing entry the export does not hold/,
    });
    // Its complete stage given (after it, or in another file): the statement is written.
    const whole = await runImporter('import', 'k8s-audit', { 'in.log': json(received) + json(complete) }, [
      '--cluster',
      'prod-eu',
      '--actor',
      AGENT,
      ...day,
    ]);
    expectImport(whole, { writes: (l) => expect(l).toHaveLength(2), says: /1 coverage statement\(s\)/ });
    const elsewhere = await runImporter('import', 'k8s-audit', { 'in.log': json(metadata) + json(received) }, [
      '--cluster',
      'prod-eu',
      '--actor',
      'another',
      ...day,
    ]);
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    const plain = await runImporter('import', 'k8s-audit', { 'in.log': json(metadata) + json(received) }, ['--cluster', 'prod-eu']);
    expect(plain.code, plain.stderr).toBe(0);
    // A binding applied again (patch answered 200: updated, nothing created) completes its request: the statement is written (a red team's false red).
    const reapplied = { ...complete, verb: 'patch', responseStatus: { code: 200 } };
    const again = await runImporter('import', 'k8s-audit', { 'in.log': json({ ...received, verb: 'patch' }) + json(reapplied) }, [
      '--cluster',
      'prod-eu',
      '--actor',
      AGENT,
      ...day,
    ]);
    expectImport(again, { writes: (l) => expect(l).toHaveLength(1), says: /1 coverage statement\(s\)/ });
    // A request that panicked may have stored its binding first: under a window, of the scope, the statement is refused.
    const panicked = await runImporter(
      'import',
      'k8s-audit',
      { 'in.log': json(received) + json({ ...received, stage: 'Panic', responseStatus: { code: 500 } }) },
      ['--cluster', 'prod-eu', '--actor', AGENT, ...day],
    );
    expectImport(panicked, {
      refuses: /in\.log:2:1: an entry of the scope that does not say whether or what it changed \(not ResponseComplete\)/,
    });
  });
});

describe('import k8s-audit', () => {
  const [received, complete, cluster, forbidden, get, metadata] = k8sLines();
  const ROWS: readonly [string, Record<string, string>, string[], Expected][] = [
    [
      'the log backend’s lines: only the complete, 2xx creates of role bindings; a Metadata-level create (no name) counted',
      { 'in.log': readFileSync(path.join(FX, 'k8s/audit.log'), 'utf8') },
      ['--cluster', 'prod-eu'],
      {
        writes: (l) =>
          expect(subjects(l)).toEqual([
            {
              action_class: 'k8s_rbac_binding',
              verb: 'create',
              target: { cluster: 'prod-eu', namespace: 'payments', kind: 'RoleBinding', name: 'ci-edit' },
            },
            {
              action_class: 'k8s_rbac_binding',
              verb: 'create',
              target: { cluster: 'prod-eu', namespace: null, kind: 'ClusterRoleBinding', name: 'ci-view-all' },
            },
          ]),
        says: /4 skipped \(1 a binding the entry does not name \(log rbac at the Request level\), 1 failed \(not 2xx\), 1 not ResponseComplete, 1 not a role binding created\)/,
      },
    ],
    [
      'an EventList',
      { 'in.json': readFileSync(path.join(FX, 'k8s/audit-eventlist.json'), 'utf8') },
      ['--cluster', 'prod-eu'],
      { writes: (l) => expect(l).toHaveLength(2) },
    ],
    [
      'one event twice (at-least-once shipping): one record',
      { 'in.log': json(complete) + json(complete) + json(received) },
      ['--cluster', 'prod-eu'],
      { writes: (l) => expect(l).toHaveLength(1), says: /1 duplicate/ },
    ],
    [
      'a line that is no audit event: located',
      { 'in.log': json(get) + json({ kind: 'Pod' }) },
      ['--cluster', 'prod-eu'],
      { refuses: /in\.log:2:1: not an audit\.k8s\.io Event/ },
    ],
    [
      'a RoleBinding without its namespace: located',
      {
        'in.log': json({
          ...complete,
          objectRef: { resource: 'rolebindings', apiGroup: 'rbac.authorization.k8s.io', name: 'x' },
          requestObject: undefined,
          responseObject: undefined,
        }),
      },
      ['--cluster', 'prod-eu'],
      { refuses: /a RoleBinding without its namespace/ },
    ],
    // The red team's: what the API server answers 2xx for without creating, and creating by other verbs.
    [
      'a dry run (?dryRun=All: answered 201, nothing created) is no record',
      { 'in.log': json({ ...complete, requestURI: `${String(complete?.['requestURI'])}?dryRun=All&fieldManager=kubectl` }) },
      ['--cluster', 'prod-eu'],
      { writes: (l) => expect(l).toHaveLength(0), says: /1 a dry run \(nothing was created\)/ },
    ],
    ...(['patch', 'update'] as const).map((verb): [string, Record<string, string>, string[], Expected] => [
      `a binding created by ${verb} (server-side apply, a PUT that creates: 201) is a record; ${verb} answered 200 changed one that was there`,
      {
        'in.log':
          json({ ...complete, verb, auditID: `${verb}-1` }) +
          json({ ...complete, verb, auditID: `${verb}-2`, responseStatus: { metadata: {}, code: 200 } }),
      },
      ['--cluster', 'prod-eu'],
      {
        writes: (l) => expect(subjects(l).map((x) => (x as { target: { name: string } }).target.name)).toEqual(['ci-edit']),
        says: /1 not a role binding created/,
      },
    ]),
    [
      'a name the reference and the created object give differently: located, never one of them taken',
      {
        'in.log': json({
          ...complete,
          objectRef: { resource: 'rolebindings', apiGroup: 'rbac.authorization.k8s.io', namespace: 'payments', name: 'rb1' },
        }),
      },
      ['--cluster', 'prod-eu'],
      { refuses: /two names \("rb1" and "ci-edit"\): which one is meant cannot be said/ },
    ],
    [
      'a namespace the reference and the created object give differently: located',
      {
        'in.log': json({
          ...complete,
          objectRef: { resource: 'rolebindings', apiGroup: 'rbac.authorization.k8s.io', namespace: 'kube-system' },
        }),
      },
      ['--cluster', 'prod-eu'],
      { refuses: /two namespaces \("kube-system" and "payments"\)/ },
    ],
    [
      'a name that is no text is located, never passed over for the next place',
      {
        'in.log': json({
          ...complete,
          objectRef: { resource: 'rolebindings', apiGroup: 'rbac.authorization.k8s.io', namespace: 'payments', name: 5 },
        }),
      },
      ['--cluster', 'prod-eu'],
      { refuses: /objectRef\.name is not text/ },
    ],
    [
      'a time given and unreadable is located, never passed over for another',
      { 'in.log': json({ ...complete, stageTimestamp: 'yesterday' }) },
      ['--cluster', 'prod-eu'],
      { refuses: /its time "yesterday" is not an RFC 3339 time/ },
    ],
    [
      'a time written as a number (seconds since the epoch, in the window) is located, never read as ms and skipped as outside the window',
      { 'in.log': json({ ...complete, stageTimestamp: Date.parse('2026-12-01T10:30:00Z') / 1000 }) },
      ['--cluster', 'prod-eu', '--actor', 'system:serviceaccount:agents:deployer', ...WINDOW],
      {
        refuses:
          /in\.log:1:1: entry "6a1e9c20-3f1b-4d7a-9c5e-0b1a2c3d4e5f": its time 1796121000 is not an RFC 3339 time \(this log writes its times as RFC 3339 text/,
      },
    ],
  ];
  it.each(ROWS)('%s', async (_name, files, args, expected) => {
    expectImport(await runImporter('import', 'k8s-audit', files, args), expected);
  });

  it('--cluster is required (the log does not name its cluster); --repo is refused', async () => {
    const dir = writeFiles(tempDir(), { 'in.log': json(cluster) + json(forbidden) + json(metadata) });
    const r = await cli(['import', 'k8s-audit', '--output', 'o.ndjson', 'in.log'], dir);
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/--cluster NAME is required/)]);
    const repo = await cli(['import', 'k8s-audit', '--cluster', 'c', '--repo', 'a/b', '--output', 'o.ndjson', 'in.log'], dir);
    expect([repo.code, repo.stderr]).toEqual([2, expect.stringMatching(/--repo: k8s-audit entries name no repository/)]);
  });
});

describe('import okta-system-log', () => {
  const [grant, login, failed] = oktaEntries();
  const ROWS: readonly [string, Record<string, string>, string[], Expected][] = [
    [
      'System Log pages one after another: a privilege granted; a failed grant and a login counted',
      { 'in.json': readFileSync(path.join(FX, 'okta/system-log.json'), 'utf8') },
      ['--org', 'acme', '--actor', 'agent@acme.example'],
      {
        writes: (l) =>
          expect(subjects(l)).toEqual([
            { action_class: 'idp_admin_role', verb: 'grant', target: { org: 'acme', principal_id: '00u2dana0000000002' } },
          ]),
        says: /3 entries read, 1 record\(s\) written, 2 skipped \(1 other event type, 1 outcome not SUCCESS\)/,
      },
    ],
    [
      'the same grant on two pages: one record',
      { 'in.json': JSON.stringify([grant, login]) + JSON.stringify([grant, failed]) },
      ['--org', 'acme'],
      { writes: (l) => expect(l).toHaveLength(1), says: /1 duplicate/ },
    ],
    [
      'a grant naming no target: located',
      { 'in.json': JSON.stringify([{ ...grant, target: [] }]) },
      ['--org', 'acme'],
      { refuses: /in\.json:1:2: .*a privilege grant naming no target user/ },
    ],
    // The red team's: the principal is never guessed.
    [
      'a grant whose only target is a group: located, never the first target taken',
      { 'in.json': JSON.stringify([{ ...grant, target: [{ id: '00gGroup', type: 'UserGroup' }] }]) },
      ['--org', 'acme'],
      { refuses: /a privilege grant naming no target user \(a target of type User\)/ },
    ],
    [
      'a grant naming two users: located',
      {
        'in.json': JSON.stringify([
          {
            ...grant,
            target: [
              { id: '00u1', type: 'User' },
              { id: '00u2', type: 'User' },
            ],
          },
        ]),
      },
      ['--org', 'acme'],
      { refuses: /a privilege grant with 2 target users: which one was granted cannot be said/ },
    ],
    [
      'a published time written as a number (milliseconds since the epoch, in the window) or null is located, never read as some epoch',
      {
        'in.json': JSON.stringify([
          { ...grant, published: Date.parse('2026-12-01T10:40:00.123Z') },
          { ...grant, uuid: 'untimed', published: null },
        ]),
      },
      ['--org', 'acme', '--actor', 'agent@acme.example', ...WINDOW],
      {
        refuses:
          /in\.json:1:2: entry "[^"]+": its time 1796121600123 is not an RFC 3339 time \(this log writes its times as RFC 3339 text[\s\S]*in\.json:1:\d+: entry "untimed": its time null is not an RFC 3339 time/,
      },
    ],
  ];
  it.each(ROWS)('%s', async (_name, files, args, expected) => {
    expectImport(await runImporter('import', 'okta-system-log', files, args), expected);
  });

  // A red team's: --since 23:59:60Z filtered as 23:59:59.999999999 while the statement said 23:59:59Z: an entry at 23:59:59.5 skipped, its second claimed read.
  // Another's: a leap second read as 23:59:59.999999999 came before a 23:59:59 written with ten digits; it is its own second now, and written as such.
  it('a window that starts at a leap second: the statement’s since is the instant filtered on, so the entry before it is outside both', async () => {
    const entry = (uuid: string, published: string) => ({ ...grant, uuid, published });
    const r = await runImporter(
      'import',
      'okta-system-log',
      {
        'in.json': JSON.stringify([
          entry('before', '2026-12-31T23:59:59.500Z'),
          entry('just-before', '2026-12-31T23:59:59.9999999995Z'),
          entry('in', '2026-12-31T23:59:60.25Z'),
          entry('after', '2027-01-01T00:00:00Z'),
        ]),
      },
      [
        ...['--org', 'acme', '--actor', 'agent@acme.example'],
        ...['--since', '2026-12-31T23:59:60Z', '--until', '2027-01-01T01:00:00Z', '--now', '2027-01-02T00:00:00Z'],
      ],
    );
    expectImport(r, {
      writes: (l) => {
        expect(l[0]).toMatchObject({
          schema: 'receipt-gate.audit_coverage.v1',
          since: '2026-12-31T23:59:60Z',
          until: '2027-01-01T01:00:00Z',
        });
        expect(
          l
            .slice(1)
            .map((x) => x.record_id)
            .sort(),
        ).toEqual(['okta:after', 'okta:in']);
      },
      says: /2 outside the window/,
    });
  });
});

describe('round trips: the agent’s calls through the providers’ mappings, verified by the providers’ records', () => {
  it('call_aws, kubectl_create and assign_role_to_user are verified; a call of another target stays asserted, its record unmatched', async () => {
    const dir = tempDir();
    const maps = ['aws-api-mcp-server', 'kubernetes-mcp-server', 'okta-mcp-server'].map((m) =>
      readFileSync(path.join(ROOT, `examples/mappings/${m}.yml`), 'utf8'),
    );
    // One mapping file of the three examples' rules.
    const merged = `version: 1\ntools:\n${maps.map((m) => m.slice(m.indexOf('tools:\n') + 7)).join('')}`;
    writeFiles(dir, { 'map.yml': merged });
    cpSync(path.join(ROOT, 'fixtures/producers/otlp/cloud-spans.jsonl'), path.join(dir, 'spans.jsonl'));
    const steps: string[][] = [
      ['import-run', 'otlp-json', '--map', 'map.yml', '--output', '.assay/runs/cloud.ndjson', 'spans.jsonl'],
      ['import', 'aws-cloudtrail', '--actor', ROLE, '--output', '.assay/audit/aws.ndjson', TRAIL],
      ['import', 'k8s-audit', '--cluster', 'prod-eu', '--output', '.assay/audit/k8s.ndjson', path.join(FX, 'k8s/audit.log')],
      ['import', 'okta-system-log', '--org', 'acme', '--output', '.assay/audit/okta.ndjson', path.join(FX, 'okta/system-log.json')],
    ];
    for (const s of steps) {
      const r = await cli(s, dir);
      expect(r.code, r.stderr).toBe(0);
    }
    const { code, report } = await verifyIn(dir, '2026-12-02T12:00:00Z');
    expect(report.calls.map((c) => [c.tool, c.level])).toEqual([
      ['call_aws', 'verified'],
      ['call_aws', 'verified'],
      ['call_aws', null],
      ['kubectl_create', 'verified'],
      ['kubectl_create', 'verified'],
      ['assign_role_to_user', 'verified'],
    ]);
    expect(code).toBe(0);
    // The same run against another cluster's log: the two kubectl calls stay asserted (the cluster is bound), both records unmatched.
    const other = await cli(
      ['import', 'k8s-audit', '--cluster', 'prod-us', '--output', '.assay/audit/k8s.ndjson', path.join(FX, 'k8s/audit.log')],
      dir,
    );
    expect(other.code, other.stderr).toBe(0);
    const { report: mixed } = await verifyIn(dir, '2026-12-02T12:00:00Z');
    expect(mixed.calls.filter((c) => c.tool === 'kubectl_create').map((c) => c.level)).toEqual(['asserted', 'asserted']);
    expect(mixed.totals.unmatched).toBe(2);
  });
});

describe('CloudTrail’s own signature: log files checked against AWS-signed digests before they are read', () => {
  const DIGESTS = path.join(FX, 'aws/digests');
  const KEYS = path.join(FX, 'aws/public-keys.json');
  const LOG_OBJECT = `AWSLogs/123456789012/CloudTrail/us-east-1/2026/12/01/${path.basename(TRAIL)}`;
  const withDigests = (dir: string, digests = DIGESTS, keys = KEYS, log = TRAIL) =>
    cli(
      ['import', 'aws-cloudtrail', '--cloudtrail-digests', digests, '--cloudtrail-public-keys', keys, '--output', 'out.ndjson', log],
      dir,
    );

  it('the fixture’s log file is listed by a digest AWS’s key signed: its records say which digest vouched', async () => {
    const dir = tempDir();
    const r = await withDigests(dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/2 AWS-signed digest\(s\) checked → /);
    const records = readFileSync(path.join(dir, 'out.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    for (const rec of records)
      expect(rec.non_claims[2]).toMatch(
        /^log file AWSLogs\/123456789012\/CloudTrail\/us-east-1\/2026\/12\/01\/.+\.json\.gz is AWS's as delivered: listed in the AWS-signed CloudTrail digest acme-cloudtrail-logs\/AWSLogs\/123456789012\/CloudTrail-Digest\/us-east-1\/2026\/12\/01\/123456789012_CloudTrail-Digest_us-east-1_agents-trail_us-east-1_20261201T110000Z\.json\.gz \(SHA256withRSA, key [0-9a-f]{32}\)$/,
      );
  });

  it('a log file edited after its digest is refused, located, and nothing is written', async () => {
    const dir = tempDir();
    const records = trailRecords();
    const edited = {
      ...records[1],
      requestParameters: { roleName: 'deploy-runner', policyArn: 'arn:aws:iam::aws:policy/AdministratorAccess' },
    };
    writeFiles(dir, { 'edited.json': JSON.stringify({ Records: [records[0], edited] }) });
    const r = await withDigests(dir, DIGESTS, KEYS, path.join(dir, 'edited.json'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /edited\.json:1:1: no AWS-signed digest lists this log file \(sha256 [0-9a-f]{64}\): edited after CloudTrail delivered it/,
    );
    expect(r.stderr).toMatch(/nothing written/);
  });

  it('a digest signed by another key is refused (the key not listed, or listed and the signature wrong); a digest edited after signing too', async () => {
    const own = digestKey();
    const stranger = digestKey();
    const log = readFileSync(TRAIL);
    const made = makeDigest(
      {
        account: '123456789012',
        bucket: 'acme-cloudtrail-logs',
        start: '2026-12-01T10:00:00Z',
        end: '2026-12-01T11:00:00Z',
        logs: [{ s3Object: LOG_OBJECT, bytes: log }],
        previous: null,
      },
      stranger,
    );
    const dir = tempDir();
    writeFiles(dir, { [`d/${made.name}`]: made.gz, [`d/${made.name}.sig`]: made.signature, 'keys.json': publicKeysJson([own]) });
    const unlisted = await withDigests(dir, path.join(dir, 'd'), path.join(dir, 'keys.json'));
    expect(unlisted.code).toBe(1);
    expect(unlisted.stderr).toMatch(
      /d\/123456789012_CloudTrail-Digest_.+\.json\.gz:1:1: this CloudTrail digest is refused: signed by the key [0-9a-f]{32}, which the public keys file does not list/,
    );
    // The stranger's fingerprint, the owner's key: the keys file itself is refused (a fingerprint is its key's MD5).
    const forged = publicKeysJson([own]).replace(own.fingerprint, stranger.fingerprint);
    writeFiles(dir, { 'forged.json': forged });
    const wrong = await withDigests(dir, path.join(dir, 'd'), path.join(dir, 'forged.json'));
    expect([wrong.code, wrong.stderr]).toEqual([2, expect.stringMatching(/its Fingerprint is not the MD5 of its Value/)]);
    // Our own key, and the digest edited after it was signed (another log file's hash): refused.
    const good = makeDigest(
      {
        account: '123456789012',
        bucket: 'acme-cloudtrail-logs',
        start: '2026-12-01T10:00:00Z',
        end: '2026-12-01T11:00:00Z',
        logs: [{ s3Object: LOG_OBJECT, bytes: log }],
        previous: null,
      },
      own,
    );
    const tampered = gzipSync(
      Buffer.from(
        gunzipSync(good.gz)
          .toString('utf8')
          .replace(/"hashValue":"[0-9a-f]{64}"/, `"hashValue":"${'0'.repeat(64)}"`),
      ),
    );
    writeFiles(dir, { [`t/${good.name}`]: tampered, [`t/${good.name}.sig`]: good.signature, 'own.json': publicKeysJson([own]) });
    const edited = await withDigests(dir, path.join(dir, 't'), path.join(dir, 'own.json'));
    expect(edited.stderr).toMatch(/its signature does not verify/);
    // Untouched, with its .sig: vouched.
    writeFiles(dir, { [`g/${good.name}`]: good.gz, [`g/${good.name}.sig`]: good.signature });
    const fine = await withDigests(dir, path.join(dir, 'g'), path.join(dir, 'own.json'));
    expect(fine.code, fine.stderr).toBe(0);
  });

  it('a gap in a trail’s chain of digests is said; a digest without its .sig is refused', async () => {
    const key = digestKey();
    const log = readFileSync(TRAIL);
    const spec = { account: '123456789012', bucket: 'b', logs: [] as { s3Object: string; bytes: Uint8Array }[] };
    const first = makeDigest({ ...spec, start: '2026-12-01T09:00:00Z', end: '2026-12-01T10:00:00Z', previous: null }, key);
    const second = makeDigest(
      {
        ...spec,
        start: '2026-12-01T10:00:00Z',
        end: '2026-12-01T11:00:00Z',
        logs: [{ s3Object: LOG_OBJECT, bytes: log }],
        previous: { bucket: 'b', object: first.object, signature: first.signature, sha256: first.sha256 },
      },
      key,
    );
    const third = makeDigest(
      {
        ...spec,
        start: '2026-12-01T11:00:00Z',
        end: '2026-12-01T12:00:00Z',
        previous: { bucket: 'b', object: second.object, signature: second.signature, sha256: second.sha256 },
      },
      key,
    );
    const dir = tempDir();
    // The middle digest is missing from the chain given: a gap before the third.
    writeFiles(dir, {
      [`d/${first.name}`]: first.gz,
      [`d/${first.name}.sig`]: first.signature,
      [`d/${third.name}`]: third.gz,
      [`d/${third.name}.sig`]: third.signature,
      [`d/${second.name}`]: second.gz,
      'keys.json': publicKeysJson([key]),
    });
    const r = await withDigests(dir, path.join(dir, 'd'), path.join(dir, 'keys.json'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/has no .+_20261201T110000Z\.json\.gz\.sig beside it/);
    writeFiles(dir, { [`d/${second.name}.sig`]: second.signature });
    rmSync(path.join(dir, `d/${second.name}`));
    rmSync(path.join(dir, `d/${second.name}.sig`));
    writeFiles(dir, {
      [`e/${second.name}`]: second.gz,
      [`e/${second.name}.sig`]: second.signature,
      [`e/${third.name}`]: third.gz,
      [`e/${third.name}.sig`]: third.signature,
    });
    const whole = await withDigests(dir, path.join(dir, 'e'), path.join(dir, 'keys.json'));
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stderr).not.toMatch(/gap/);
    writeFiles(dir, {
      [`f/${first.name}`]: first.gz,
      [`f/${first.name}.sig`]: first.signature,
      [`f/${third.name}`]: third.gz,
      [`f/${third.name}.sig`]: third.signature,
    });
    const gap = await withDigests(dir, path.join(dir, 'f'), path.join(dir, 'keys.json'));
    // The log file is listed by the missing digest: refused; and the gap is said.
    expect(gap.code).toBe(1);
    expect(gap.stderr).toMatch(/the digest chain has a gap before b\/AWSLogs\/.+_20261201T120000Z\.json\.gz/);
  });

  // The red team's: a statement over a window the digests do not vouch for; a key's validity that fails open; a digest that inflates.
  it('a window is covered only when the digests span it and every log file they list in it was read', async () => {
    const windowed = (dir: string, digests: string, since: string, until: string, keys = KEYS) =>
      cli(
        [
          'import',
          'aws-cloudtrail',
          ...['--cloudtrail-digests', digests, '--cloudtrail-public-keys', keys],
          ...['--actor', ROLE, '--account', '123456789012', '--since', since, '--until', until, '--now', '2026-12-02T00:00:00Z'],
          ...['--output', 'out.ndjson', TRAIL],
        ],
        dir,
      );
    const dir = tempDir();
    const spanned = await windowed(dir, DIGESTS, '2026-12-01T10:00:00Z', '2026-12-01T11:00:00Z');
    expect(spanned.code, spanned.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'out.ndjson'), 'utf8')).toMatch(/receipt-gate\.audit_coverage\.v1/);
    // Two hours claimed, their digests given but not the hour after (the window's last events are delivered then): nothing is written (a red team).
    const edge = await windowed(tempDir(), DIGESTS, '2026-12-01T10:00:00Z', '2026-12-01T12:00:00Z');
    expect(edge.code).toBe(1);
    expect(edge.stderr).toMatch(
      /spans 2026-12-01T12:00:00Z to 2026-12-01T13:00:00Z, the hour after the window: CloudTrail delivers a window's last events then/,
    );
    // A day claimed, two hours signed: nothing is written.
    const day = await windowed(tempDir(), DIGESTS, '2026-12-01', '2026-12-02');
    expect(day.code).toBe(1);
    expect(day.stderr).toMatch(
      /the CloudTrail digests do not vouch for the window --since\/--until claims: no AWS-signed digest of .+agents-trail_us-east-1 spans 2026-12-01T00:00:00Z to 2026-12-01T10:00:00Z/,
    );
    expect(day.stderr).toMatch(/nothing written/);
    // A digest in the window lists a second log file, not given: nothing is written.
    const key = digestKey();
    const other = { s3Object: 'AWSLogs/123456789012/CloudTrail/us-east-1/2026/12/01/other.json.gz', bytes: Buffer.from('{"Records":[]}') };
    const d = makeDigest(
      {
        account: '123456789012',
        bucket: 'b',
        start: '2026-12-01T10:00:00Z',
        end: '2026-12-01T11:00:00Z',
        logs: [{ s3Object: LOG_OBJECT, bytes: readFileSync(TRAIL) }, other],
        previous: null,
      },
      key,
    );
    const missing = tempDir();
    writeFiles(missing, { [`d/${d.name}`]: d.gz, [`d/${d.name}.sig`]: d.signature, 'keys.json': publicKeysJson([key]) });
    const r = await windowed(
      missing,
      path.join(missing, 'd'),
      '2026-12-01T10:00:00Z',
      '2026-12-01T11:00:00Z',
      path.join(missing, 'keys.json'),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/log file AWSLogs\/.+\/other\.json\.gz, listed by the digest .+ in the window, was not given/);
    expect(existsSync(path.join(missing, 'out.ndjson'))).toBe(false);
    // The next hour's digest lists a log file whose events reach back into the window (delivered late): it is required too (a red team).
    const first = makeDigest(
      {
        account: '123456789012',
        bucket: 'b',
        start: '2026-12-01T10:00:00Z',
        end: '2026-12-01T11:00:00Z',
        logs: [{ s3Object: LOG_OBJECT, bytes: readFileSync(TRAIL) }],
        previous: null,
      },
      key,
    );
    const late = { ...other, oldest: '2026-12-01T10:58:30Z', newest: '2026-12-01T11:02:00Z' };
    const next = makeDigest(
      {
        account: '123456789012',
        bucket: 'b',
        start: '2026-12-01T11:00:00Z',
        end: '2026-12-01T12:00:00Z',
        logs: [late],
        previous: { bucket: 'b', object: first.object, signature: first.signature, sha256: first.sha256 },
      },
      key,
    );
    const reaching = tempDir();
    writeFiles(reaching, {
      [`d/${first.name}`]: first.gz,
      [`d/${first.name}.sig`]: first.signature,
      [`d/${next.name}`]: next.gz,
      [`d/${next.name}.sig`]: next.signature,
      'keys.json': publicKeysJson([key]),
    });
    const args = [path.join(reaching, 'd'), '2026-12-01T10:00:00Z', '2026-12-01T11:00:00Z', path.join(reaching, 'keys.json')] as const;
    const lateMissing = await windowed(reaching, ...args);
    expect(lateMissing.code).toBe(1);
    expect(lateMissing.stderr).toMatch(
      /log file AWSLogs\/.+\/other\.json\.gz, listed by the digest .+, holds events from 2026-12-01T10:58:30Z to 2026-12-01T11:02:00Z, inside the window, and was not given/,
    );
    // Its events after the window only: not required.
    const after = makeDigest(
      {
        account: '123456789012',
        bucket: 'b',
        start: '2026-12-01T11:00:00Z',
        end: '2026-12-01T12:00:00Z',
        logs: [{ ...other, oldest: '2026-12-01T11:00:00Z', newest: '2026-12-01T11:02:00Z' }],
        previous: { bucket: 'b', object: first.object, signature: first.signature, sha256: first.sha256 },
      },
      key,
    );
    writeFiles(reaching, { [`d/${next.name}`]: after.gz, [`d/${next.name}.sig`]: after.signature });
    const fine = await windowed(reaching, ...args);
    expect(fine.code, fine.stderr).toBe(0);
    // The hour after's digest listing a file without its event times: it may hold the window's last events, so it is required.
    const untimed = makeDigest(
      {
        account: '123456789012',
        bucket: 'b',
        start: '2026-12-01T11:00:00Z',
        end: '2026-12-01T12:00:00Z',
        logs: [{ ...other, oldest: null, newest: null }],
        previous: { bucket: 'b', object: first.object, signature: first.signature, sha256: first.sha256 },
      },
      key,
    );
    writeFiles(reaching, { [`d/${next.name}`]: untimed.gz, [`d/${next.name}.sig`]: untimed.signature });
    const unknown = await windowed(reaching, ...args);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/listed by the digest .+ of the hour after the window without its event times .*was not given/);
    // A chain broken outside the window (an earlier day's digests given too) is said, not fatal; broken inside it, it is.
    const hour = (h: number) => `2026-12-01T${String(h).padStart(2, '0')}:00:00Z`;
    const chain: ReturnType<typeof makeDigest>[] = [];
    for (const h of [7, 8, 9, 10, 11]) {
      const before = chain.at(-1);
      chain.push(
        makeDigest(
          {
            account: '123456789012',
            bucket: 'b',
            start: hour(h),
            end: hour(h + 1),
            logs: h === 10 ? [{ s3Object: LOG_OBJECT, bytes: readFileSync(TRAIL) }] : [],
            previous: before ? { bucket: 'b', object: before.object, signature: before.signature, sha256: before.sha256 } : null,
          },
          key,
        ),
      );
    }
    const broken = tempDir();
    const [d7, , d9, d10, d11] = chain as [ReturnType<typeof makeDigest>, ...ReturnType<typeof makeDigest>[]];
    for (const x of [d7, d9, d10, d11]) if (x) writeFiles(broken, { [`d/${x.name}`]: x.gz, [`d/${x.name}.sig`]: x.signature });
    writeFiles(broken, { 'keys.json': publicKeysJson([key]) });
    const outside = await windowed(broken, path.join(broken, 'd'), hour(10), hour(11), path.join(broken, 'keys.json'));
    expect(outside.code, outside.stderr).toBe(0);
    expect(outside.stderr).toMatch(/the digest chain has a gap before/);
    const inside = await windowed(tempDir(), path.join(broken, 'd'), hour(7), hour(11), path.join(broken, 'keys.json'));
    expect(inside.code).toBe(1);
    expect(inside.stderr).toMatch(/no AWS-signed digest of .+ spans 2026-12-01T08:00:00Z to 2026-12-01T09:00:00Z/);
  });

  // A red team's: a logFiles entry the digest's reader could not take was dropped, and the window claimed complete without its log file.
  it.each([
    [
      'a hashAlgorithm AWS does not write',
      (e: Record<string, unknown>): void => {
        e['hashAlgorithm'] = 'SHA256';
      },
      /has hashAlgorithm "SHA256", not "SHA-256"/,
    ],
    [
      'no hashAlgorithm',
      (e: Record<string, unknown>): void => {
        delete e['hashAlgorithm'];
      },
      /has hashAlgorithm null, not "SHA-256"/,
    ],
    [
      'no hashValue',
      (e: Record<string, unknown>): void => {
        delete e['hashValue'];
      },
      /has no hashValue that is a hex SHA-256/,
    ],
    [
      'a hashValue that is no text',
      (e: Record<string, unknown>): void => {
        e['hashValue'] = 5;
      },
      /has no hashValue that is a hex SHA-256/,
    ],
    [
      'a hashValue that is no SHA-256',
      (e: Record<string, unknown>): void => {
        e['hashValue'] = 'abc';
      },
      /has no hashValue that is a hex SHA-256/,
    ],
    [
      'an oldestEventTime that is no RFC 3339 time',
      (e: Record<string, unknown>): void => {
        e['oldestEventTime'] = 1796119200;
      },
      /has an oldestEventTime that is not an RFC 3339 time/,
    ],
  ] as const)(
    'a signed digest whose logFiles entry has %s is refused, naming the digest and the entry, nothing written (never the entry dropped and the window claimed)',
    async (_what, edit, wrong) => {
      const key = digestKey();
      const other = {
        s3Object: 'AWSLogs/123456789012/CloudTrail/us-east-1/2026/12/01/other.json.gz',
        bytes: Buffer.from('{"Records":[]}'),
        edit,
      };
      const spec = { account: '123456789012', bucket: 'b' };
      const first = makeDigest(
        {
          ...spec,
          start: '2026-12-01T10:00:00Z',
          end: '2026-12-01T11:00:00Z',
          logs: [{ s3Object: LOG_OBJECT, bytes: readFileSync(TRAIL) }, other],
          previous: null,
        },
        key,
      );
      const next = makeDigest(
        {
          ...spec,
          start: '2026-12-01T11:00:00Z',
          end: '2026-12-01T12:00:00Z',
          logs: [],
          previous: { bucket: 'b', object: first.object, signature: first.signature, sha256: first.sha256 },
        },
        key,
      );
      const dir = writeFiles(tempDir(), {
        [`d/${first.name}`]: first.gz,
        [`d/${first.name}.sig`]: first.signature,
        [`d/${next.name}`]: next.gz,
        [`d/${next.name}.sig`]: next.signature,
        'keys.json': publicKeysJson([key]),
      });
      const r = await cli(
        [
          'import',
          'aws-cloudtrail',
          ...['--cloudtrail-digests', path.join(dir, 'd'), '--cloudtrail-public-keys', path.join(dir, 'keys.json')],
          ...['--actor', ROLE, '--account', '123456789012', '--since', '2026-12-01T10:00:00Z', '--until', '2026-12-01T11:00:00Z'],
          ...['--now', '2026-12-02T00:00:00Z', '--output', 'out.ndjson', TRAIL],
        ],
        dir,
      );
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(
        new RegExp(
          `d/${first.name.replace(/\./g, '\\.')}:1:1: this CloudTrail digest is refused: its logFiles\\[1\\] \\(AWSLogs/123456789012/CloudTrail/us-east-1/2026/12/01/other\\.json\\.gz\\) ${wrong.source}: which log file it vouches for cannot be said`,
        ),
      );
      expect(r.stderr).toMatch(/nothing written/);
      expect(existsSync(path.join(dir, 'out.ndjson'))).toBe(false);
    },
  );

  it('a signed digest whose logFiles entry names no s3Object (none, or not text) is refused, naming the entry by its place', async () => {
    const key = digestKey();
    const dir = tempDir();
    const log = { s3Object: LOG_OBJECT, bytes: readFileSync(TRAIL) };
    for (const [folder, edit] of [
      [
        'a',
        (e: Record<string, unknown>): void => {
          delete e['s3Object'];
        },
      ],
      [
        'b',
        (e: Record<string, unknown>): void => {
          e['s3Object'] = 7;
        },
      ],
    ] as const) {
      const d = makeDigest(
        {
          account: '123456789012',
          bucket: 'b',
          start: '2026-12-01T10:00:00Z',
          end: '2026-12-01T11:00:00Z',
          logs: [log, { ...log, edit }],
          previous: null,
        },
        key,
      );
      writeFiles(dir, { [`${folder}/${d.name}`]: d.gz, [`${folder}/${d.name}.sig`]: d.signature, 'keys.json': publicKeysJson([key]) });
      const r = await cli(
        [
          'import',
          'aws-cloudtrail',
          '--cloudtrail-digests',
          folder,
          '--cloudtrail-public-keys',
          'keys.json',
          '--output',
          'out.ndjson',
          TRAIL,
        ],
        dir,
      );
      expect([r.code, r.stderr], folder).toEqual([
        1,
        expect.stringMatching(
          /this CloudTrail digest is refused: its logFiles\[1\] has no s3Object \(text\): which log file it vouches for cannot be said/,
        ),
      ]);
      expect(existsSync(path.join(dir, 'out.ndjson'))).toBe(false);
    }
  });

  it('a key whose validity cannot be read, or listed under another key’s fingerprint, is refused (never a key that signs for ever); a digest that inflates past --max-file-size is refused, located', async () => {
    const dir = tempDir();
    const keys = JSON.parse(readFileSync(KEYS, 'utf8')) as { PublicKeyList: Record<string, unknown>[] };
    // A key listed under another key's fingerprint (its MD5 is the fingerprint): refused.
    const [listed] = keys.PublicKeyList;
    writeFiles(dir, {
      'keys.json': JSON.stringify({ PublicKeyList: [{ ...listed, Fingerprint: '0123456789abcdef0123456789abcdef' }] }),
    });
    const foreign = await withDigests(dir, DIGESTS, path.join(dir, 'keys.json'));
    expect([foreign.code, foreign.stderr]).toEqual([2, expect.stringMatching(/its Fingerprint is not the MD5 of its Value/)]);
    // A key that is not RSA (AWS signs SHA256withRSA), under its own fingerprint: refused, never an internal error at the check (a red team: exit 3).
    for (const type of ['ed25519', 'ec'] as const) {
      const { publicKey } = type === 'ec' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('ed25519');
      const der = publicKey.export({ format: 'der', type: 'spki' });
      const other = { ...listed, Value: der.toString('base64'), Fingerprint: createHash('md5').update(der).digest('hex') };
      writeFiles(dir, { 'keys.json': JSON.stringify({ PublicKeyList: [other] }) });
      const r = await withDigests(dir, DIGESTS, path.join(dir, 'keys.json'));
      expect([r.code, r.stderr], type).toEqual([2, expect.stringMatching(/PublicKeyList\[0\] .*Value is not a DER RSA public key/)]);
    }
    for (const end of ['2026-06-01 00:00:00', '2026-06-01T00:00:00.000+0000', 'Mon, 01 Jun 2026 00:00:00 GMT', null]) {
      const edited = { PublicKeyList: keys.PublicKeyList.map((k) => ({ ...k, ValidityEndTime: end })) };
      writeFiles(dir, { 'keys.json': JSON.stringify(edited) });
      const r = await withDigests(dir, DIGESTS, path.join(dir, 'keys.json'));
      expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/ValidityEndTime is not an RFC 3339 time or seconds since the epoch/)]);
    }
    const bomb = tempDir();
    const [first] = readdirSync(DIGESTS).filter((n) => n.endsWith('.json.gz'));
    writeFiles(bomb, {
      [`d/${first}`]: gzipSync(Buffer.alloc(4 * 1024 ** 2, 0x20)),
      [`d/${first}.sig`]: readFileSync(path.join(DIGESTS, `${first}.sig`)),
    });
    const r = await cli(
      [
        'import',
        'aws-cloudtrail',
        ...['--max-file-size', '1MiB', '--cloudtrail-digests', path.join(bomb, 'd'), '--cloudtrail-public-keys', KEYS],
        ...['--output', 'out.ndjson', TRAIL],
      ],
      bomb,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/:1:1: this CloudTrail digest is refused: not a gzip file that decompresses within 1048576 bytes/);
  });

  // A red team's: a complete, signed, chained trail of account 999999999999 made --account 123456789012's window complete.
  it('digests vouch only for the account they are of and, for IAM, the region IAM logs in: another account’s or another region’s complete trail is refused', async () => {
    const key = digestKey();
    const hour = (h: number) => `2026-12-01T${String(h).padStart(2, '0')}:00:00Z`;
    /** A chained trail of this account and region for 10:00–12:00 (the window 10:00–11:00 and the hour after), each hour one quiet log file. */
    const trail = (account: string, region: string, awsAccountId?: string) => {
      const dir = tempDir();
      const inputs: string[] = [];
      let before: ReturnType<typeof makeDigest> | null = null;
      for (const h of [10, 11]) {
        const log = Buffer.from(JSON.stringify({ Records: [] }));
        const s3Object = `AWSLogs/${account}/CloudTrail/${region}/2026/12/01/${account}_CloudTrail_${region}_h${h}.json`;
        const d: ReturnType<typeof makeDigest> = makeDigest(
          {
            account,
            region,
            ...(awsAccountId ? { awsAccountId } : {}),
            bucket: 'b',
            start: hour(h),
            end: hour(h + 1),
            logs: [{ s3Object, bytes: log, oldest: null, newest: null }],
            previous: before ? { bucket: 'b', object: before.object, signature: before.signature, sha256: before.sha256 } : null,
          },
          key,
        );
        writeFiles(dir, { [`d/${d.name}`]: d.gz, [`d/${d.name}.sig`]: d.signature, [`h${h}.json`]: log });
        inputs.push(`h${h}.json`);
        before = d;
      }
      writeFiles(dir, { 'keys.json': publicKeysJson([key]) });
      return { dir, inputs };
    };
    const run = (t: ReturnType<typeof trail>, account: string, window = true) =>
      cli(
        [
          'import',
          'aws-cloudtrail',
          ...['--cloudtrail-digests', 'd', '--cloudtrail-public-keys', 'keys.json', '--account', account],
          ...(window ? ['--actor', ROLE, '--since', hour(10), '--until', hour(11), '--now', '2026-12-02T00:00:00Z'] : []),
          ...['--output', 'out.ndjson', ...t.inputs],
        ],
        t.dir,
      );
    // The trail of the account named, in us-east-1: the window is covered.
    const own = trail('123456789012', 'us-east-1');
    const covered = await run(own, '123456789012');
    expect(covered.code, covered.stderr).toBe(0);
    expect(readFileSync(path.join(own.dir, 'out.ndjson'), 'utf8')).toMatch(/"owner":"123456789012"/);
    // Another account's trail, as complete: every digest refused, located, nothing written; with a window or without.
    const other = trail('999999999999', 'us-east-1');
    for (const window of [true, false]) {
      const r = await run(other, '123456789012', window);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /d\/999999999999_CloudTrail-Digest_us-east-1_.+_20261201T110000Z\.json\.gz:1:1: this CloudTrail digest is refused: it is account 999999999999's \(its awsAccountId and S3 path\), not 123456789012's \(--account\): it vouches for nothing of that account's log/,
      );
      expect(r.stderr).toMatch(/nothing written/);
      expect(existsSync(path.join(other.dir, 'out.ndjson'))).toBe(false);
    }
    // The same digests, for the account they are of: covered (the account is what refused them).
    expect((await run(other, '999999999999')).code).toBe(0);
    // A digest whose awsAccountId is not the account its signed S3 path names: refused, whatever --account says.
    const split = trail('123456789012', 'us-east-1', '999999999999');
    const two = await run(split, '123456789012', false);
    expect(two.code).toBe(1);
    expect(two.stderr).toMatch(
      /this CloudTrail digest is refused: its awsAccountId \(999999999999\) is not the account its S3 path names \(123456789012\)/,
    );
    // The account's trail of another region: IAM's calls are logged in us-east-1, so eu-west-1's digests do not cover the window.
    const elsewhere = trail('123456789012', 'eu-west-1');
    const region = await run(elsewhere, '123456789012');
    expect(region.code).toBe(1);
    expect(region.stderr).toMatch(
      /no digest given is of the region CloudTrail logs IAM's calls in \(us-east-1, us-gov-west-1, cn-north-1; given: eu-west-1\)/,
    );
    expect(existsSync(path.join(elsewhere.dir, 'out.ndjson'))).toBe(false);
    // Without a window nothing is claimed: its log files are vouched for as AWS's, whatever the region.
    expect((await run(elsewhere, '123456789012', false)).code).toBe(0);
  });

  it('--cloudtrail-digests and --cloudtrail-public-keys go together, and only with aws-cloudtrail', async () => {
    const dir = writeFiles(tempDir(), { 'in.log': '{}' });
    const alone = await cli(['import', 'aws-cloudtrail', '--cloudtrail-digests', DIGESTS, '--output', 'o.ndjson', TRAIL], dir);
    expect([alone.code, alone.stderr]).toEqual([2, expect.stringMatching(/go together/)]);
    const other = await cli(
      [
        'import',
        'k8s-audit',
        '--cluster',
        'c',
        '--cloudtrail-digests',
        DIGESTS,
        '--cloudtrail-public-keys',
        KEYS,
        '--output',
        'o.ndjson',
        'in.log',
      ],
      dir,
    );
    expect([other.code, other.stderr]).toEqual([2, expect.stringMatching(/are for aws-cloudtrail, not k8s-audit/)]);
  });
});

describe('a tenant’s coverage statement: a call of the covered account that the log never saw is effect_not_logged', () => {
  it('call_aws creating a key for a user CloudTrail never logged, in the account and day the export covered', async () => {
    const dir = tempDir();
    const spans = JSON.parse(readFileSync(path.join(ROOT, 'fixtures/producers/otlp/cloud-spans.jsonl'), 'utf8'));
    const list = spans.resourceSpans[0].scopeSpans[0].spans;
    const ghost = JSON.parse(JSON.stringify(list[0]));
    ghost.spanId = '00000000000099aa';
    for (const a of ghost.attributes)
      if (a.key === 'gen_ai.tool.call.arguments')
        a.value.stringValue = JSON.stringify({ cli_command: 'aws iam create-access-key --user-name ghost' });
    list.splice(0, list.length, ghost);
    writeFiles(dir, {
      'spans.jsonl': json(spans),
      'map.yml': readFileSync(path.join(ROOT, 'examples/mappings/aws-api-mcp-server.yml'), 'utf8'),
    });
    for (const s of [
      ['import-run', 'otlp-json', '--map', 'map.yml', '--output', '.assay/runs/r.ndjson', 'spans.jsonl'],
      [
        'import',
        'aws-cloudtrail',
        '--actor',
        ROLE,
        '--account',
        '123456789012',
        '--since',
        '2026-12-01',
        '--until',
        '2026-12-02',
        '--now',
        '2026-12-02T04:00:00Z',
        '--output',
        '.assay/audit/aws.ndjson',
        TRAIL,
      ],
    ]) {
      const r = await cli(s, dir);
      expect(r.code, r.stderr).toBe(0);
    }
    const { code, report } = await verifyIn(dir, '2026-12-02T12:00:00Z', ['--allow-unmatched-records']);
    expect(report.totals.effect_not_logged).toBe(1);
    expect(report.findings.find((f) => f.code === 'effect_not_logged')?.message).toMatch(
      /the aws-cloudtrail export for arn:aws:iam::123456789012:role\/agent-deployer \(account 123456789012\)/,
    );
    expect(code).toBe(1);
  });
});
