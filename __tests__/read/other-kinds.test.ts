/**
 * Evidence inside another kind's data (docs/verification-semantics.md §1, "Other kinds"): an
 * envelope a log shipper or collector wrote around an evidence event, a surface, a record or a
 * server tracing line, and upstream Assay's `assay.tool.decision` event, are errors located at their
 * line, never skipped as another kind, never "no calls" (a red team: such runs passed beside a run
 * that did pass). An object of another kind that only mentions a kind's name in its text is skipped
 * as before.
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.js';
import { classify } from '../../src/read/classify.js';
import { buildBundle } from '../support/bundle-writer.js';
import { addKey, event, json, ndjson, record, serverLog, surface } from '../support/corpus.js';
import { cleanup, cliJson, gate, tempDir, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A call that claims verified with a digest no record has: a run holding it fails the gate when read. */
const failing = addKey({ claim: 'verified', digest: `sha256:${'0'.repeat(64)}` });
const surfaceEvent = event('assay.tool_decision_surface.v0', surface([failing]), 0);
/** A tracing line of the server's tool_decision for the failing call (its second line: the first is server_start). */
const decisionLine = serverLog([['2026-11-30T10:00:00Z', failing]]).split('\n')[2] as string;

async function runs(files: Record<string, string | Uint8Array>, audit: Record<string, string> = {}): Promise<Report> {
  const dir = writeFiles(tempDir(), {
    // A run that passes beside the wrapped one: the gate must still fail on the wrapped one.
    '.assay/runs/ok.json': json(surface([addKey()])),
    ...Object.fromEntries(Object.entries(files).map(([k, v]) => [`.assay/runs/${k}`, v])),
    ...Object.fromEntries(Object.entries(audit).map(([k, v]) => [`.assay/audit/${k}`, v])),
  });
  return gate(dir);
}
const errorsOf = (r: Report, file: string) =>
  r.findings
    .filter((f) => f.severity === 'error' && f.file === file)
    .map((f) => ({ code: f.code, line: f.line, column: f.column, message: f.message }));

describe('evidence wrapped in another kind’s data is an error, never a skip', () => {
  it.each([
    [
      'a log shipper’s message (Filebeat, Vector)',
      { '@timestamp': '2026-11-30T10:00:00Z', message: JSON.stringify(surfaceEvent), host: { name: 'ci-7' } },
      /the JSON text in its member "message" is an assay\.tool_decision_surface\.v0 evidence event/,
    ],
    [
      'a container runtime’s log line (Docker json-file)',
      { log: `${decisionLine}\n`, stream: 'stderr', time: '2026-11-30T10:00:00.1Z' },
      /the JSON text in its member "log" is a server tool_decision line/,
    ],
    [
      'an event nested under another kind’s event',
      { type: 'collector.log.v1', data: { event: surfaceEvent } },
      /its member "data\.event" is an assay\.tool_decision_surface\.v0 evidence event/,
    ],
    [
      'a surface under a record member of another schema',
      { schema: 'vector.record.v1', record: surface([failing]) },
      /its member "record" is a decision surface/,
    ],
    [
      'one line of a multi-line message',
      { '@timestamp': '2026-11-30T10:00:00Z', message: `batch of 2\n${JSON.stringify(surfaceEvent)}\n` },
      /the JSON text in its member "message \(its line 2\)" is an assay\.tool_decision_surface\.v0 evidence event/,
    ],
    [
      'an event in a list of a cloud log export',
      { logGroup: 'agents', logEvents: [{ id: '1', message: JSON.stringify(surfaceEvent) }] },
      /the JSON text in its member "logEvents\[0\]\.message"/,
    ],
    [
      'an envelope inside an envelope',
      { '@timestamp': '2026-11-30T10:00:00Z', message: JSON.stringify({ log: `${decisionLine}\n`, stream: 'stderr' }) },
      /is a server tool_decision line/,
    ],
  ])('in .ndjson: %s is invalid_artifact at its line and column, and the gate fails', async (_what, wrapper, where) => {
    const r = await runs({ 'w.ndjson': ndjson([{ schema: 'assay.session.note.v0', note: 'first' }, wrapper]) });
    const errors = errorsOf(r, '.assay/runs/w.ndjson');
    expect(errors).toEqual([{ code: 'invalid_artifact', line: 2, column: 1, message: expect.stringMatching(where) }]);
    expect(errors[0]!.message).toMatch(/^evidence wrapped in another kind's data: /);
    expect(errors[0]!.message).toMatch(/commit the evidence itself as its producer wrote it/);
    expect(r.ok).toBe(false);
  });

  it('in a .log: a container runtime’s envelope of a tool_decision line is an error at its line, never JSON that is not a tracing event', async () => {
    const start = serverLog([]).trim();
    const r = await runs({ 'agent.log': `${start}\n${JSON.stringify({ log: `${decisionLine}\n`, stream: 'stderr' })}\n` });
    expect(errorsOf(r, '.assay/runs/agent.log')).toEqual([
      {
        code: 'invalid_artifact',
        line: 2,
        column: 1,
        message: expect.stringMatching(
          /^evidence wrapped in another kind's data: the JSON text in its member "log" is a server tool_decision line/,
        ),
      },
    ]);
    expect(r.ok).toBe(false);
  });

  it('a record wrapped by a collector among the audit exports is an error, not a skip', async () => {
    const rec = record('github', 'r-1', addKey());
    const r = await runs({}, { 'a.ndjson': ndjson([{ schema: 'collector.entry.v1', entry: rec }]) });
    expect(errorsOf(r, '.assay/audit/a.ndjson')).toEqual([
      {
        code: 'invalid_artifact',
        line: 1,
        column: 1,
        message: expect.stringMatching(/its member "entry" is an audit record \(assay\.provider_audit_record\.v0\)/),
      },
    ]);
  });

  it('an evidence bundle event of another type whose data wraps a surface rejects the bundle', async () => {
    const b = buildBundle({ runId: 'r1', events: [{ type: 'assay.log.forwarded', data: { line: JSON.stringify(surfaceEvent) } }] });
    const r = await runs({ 'b.tar.gz': b.gz });
    expect(errorsOf(r, '.assay/runs/b.tar.gz')).toEqual([
      {
        code: 'invalid_artifact',
        line: 1,
        column: 1,
        message: expect.stringMatching(
          /^evidence bundle rejected: events\.ndjson line 1: evidence wrapped in another kind's data: the JSON text in its member "data\.line"/,
        ),
      },
    ]);
  });

  it('end to end: the CLI exits 1 on a wrapped run beside a passing one (it exited 0 with a notice)', async () => {
    const dir = writeFiles(tempDir(), {
      '.assay/runs/ok.json': json(surface([addKey()])),
      '.assay/runs/w.ndjson': ndjson([{ type: 'log.record', data: { event: surfaceEvent } }]),
    });
    const out = await cliJson([], dir);
    expect(out.code).toBe(1);
    expect(out.report.findings.map((f) => f.code)).not.toContain('skipped_object');
  });
});

describe('upstream Assay’s assay.tool.decision event is refused as such', () => {
  const upstream = (type: string) => event(type, { tool: 'github.add_deploy_key', effect: 'allow' }, 0);

  it.each(['assay.tool.decision', 'Assay.Tool.Decision', 'assay.tool.decision.v1', 'assay.tool-decisions'])(
    'in .ndjson, an event of type %j is invalid_artifact saying what to commit instead',
    async (type) => {
      const r = await runs({ 'u.ndjson': ndjson([upstream(type)]) });
      const errors = errorsOf(r, '.assay/runs/u.ndjson');
      expect(errors).toEqual([
        {
          code: 'invalid_artifact',
          line: 1,
          column: 1,
          message: expect.stringContaining("is upstream Assay's tool decision event, which this gate does not read"),
        },
      ]);
      expect(errors[0]!.message).toMatch(
        /commit the server's stderr capture as a \.log, or the decisions as an assay\.tool_decision_surface\.v0 surface/,
      );
      expect(r.ok).toBe(false);
    },
  );

  it('in a .log after server_start, and in an evidence bundle, it is an error too, never skipped', async () => {
    const log = `${serverLog([]).trim()}\n${JSON.stringify(upstream('assay.tool.decision'))}\n`;
    const bundle = buildBundle({ runId: 'r1', events: [{ type: 'assay.tool.decision', data: { effect: 'allow' } }] });
    const r = await runs({ 'u.log': log, 'u.tar.gz': bundle.gz });
    expect(errorsOf(r, '.assay/runs/u.log').map((f) => [f.line, f.message.slice(0, 70)])).toEqual([
      [2, `"assay.tool.decision" is upstream Assay's tool decision event, which t`],
    ]);
    expect(errorsOf(r, '.assay/runs/u.tar.gz')[0]?.message).toMatch(
      /events\.ndjson line 1: "assay\.tool\.decision" is upstream Assay's tool decision event/,
    );
  });

  it('wrapped in an envelope it is named as what is inside', () => {
    const kind = classify({ '@timestamp': 'x', message: JSON.stringify(upstream('assay.tool.decision')) });
    expect(kind).toMatchObject({
      kind: 'error',
      named: true,
      reason: expect.stringMatching(/is upstream Assay's "assay\.tool\.decision" decision event/),
    });
  });
});

describe('another kind that only mentions a kind in its text is still skipped', () => {
  it('names in prose, JSON text of another kind, and a bare decision member in a tool’s answer are skipped with the notice; the gate passes', async () => {
    const r = await runs({
      'n.ndjson': ndjson([
        {
          type: 'assay.session.note',
          data: {
            text: 'forwarded the assay.tool_decision_surface.v0 events and the tool_decision lines; see {"event":"tool_decision"} in the docs',
            detail: JSON.stringify({ schema: 'assay.enforcement_decision.v0', decision: 'allow' }),
            answer: JSON.stringify({ decision: 'approve', reason: 'tool_decision ok' }),
          },
        },
        { schema: 'assay.enforcement_decision.v0', decision: { effect: 'deny' }, payload: { note: 'assay.tool.decision' } },
      ]),
    });
    expect(errorsOf(r, '.assay/runs/n.ndjson')).toEqual([]);
    expect(r.findings.find((f) => f.file === '.assay/runs/n.ndjson')).toMatchObject({ code: 'skipped_object', severity: 'notice' });
    expect(r.ok).toBe(true);
  });

  it('the classifier still names another kind by its type, and an object naming none by that', () => {
    expect(classify({ type: 'assay.profile.started', data: { message: '{"note":"assay.tool_decision_surface.v0"}' } })).toEqual({
      kind: 'other',
      name: 'assay.profile.started',
    });
    expect(classify({ '@timestamp': 'x', message: 'hello {"a":1}' })).toMatchObject({ kind: 'error', named: false });
  });
});

describe('ordinary data nested in another kind is never taken for wrapped evidence (a red team’s false reds)', () => {
  const sample = readFileSync(path.join(ROOT, 'fixtures/upstream/server-logs/06_merged_stdout_stderr.log'), 'utf8').split('\n');
  /** An MCP tools/list answer whose tool has a parameter named `schema` (a JSON Schema object, not a string). */
  const toolsList = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    result: {
      tools: [
        {
          name: 'db.query',
          inputSchema: { type: 'object', properties: { schema: { type: 'string' }, sql: { type: 'string' } }, required: ['sql'] },
        },
      ],
    },
  });

  it('upstream sample 06 with the tools/list answer the client got reads as the sample does: two calls, no error', async () => {
    const r = await runs({ '06.log': [...sample.slice(0, 2), toolsList, ...sample.slice(2)].join('\n') });
    expect(errorsOf(r, '.assay/runs/06.log')).toEqual([]);
    expect(r.calls.filter((c) => c.artifact === '.assay/runs/06.log')).toHaveLength(2);
  });

  it.each([
    ['a "schema" that is null', { db: { host: 'x', schema: null } }],
    ['a JSON Schema under "schema"', { form: { schema: { type: 'object' } } }],
    ['a receipt with a binding_digest and no name', { linked: { record_id: 'gh-1', binding_digest: `sha256:${'a'.repeat(64)}` } }],
  ])('a session event holding %s is skipped as another kind, in .ndjson and in a bundle; the gate passes', async (_what, data) => {
    const bundle = buildBundle({ runId: 'r1', events: [{ type: 'assay.session.started', data }] });
    const r = await runs({ 's.ndjson': ndjson([event('assay.session.started', data, 0)]), 's.tar.gz': bundle.gz });
    expect([...errorsOf(r, '.assay/runs/s.ndjson'), ...errorsOf(r, '.assay/runs/s.tar.gz')]).toEqual([]);
    expect(r.ok).toBe(true);
  });

  it('another service’s tracing line in a tool’s answer (kubectl logs, docker compose logs) and a table row’s fields.decision are a tool’s data (red team false reds)', async () => {
    const apiLine = JSON.stringify({
      timestamp: '2026-05-14T12:30:00Z',
      level: 'INFO',
      fields: { message: 'GET /health 200' },
      target: 'api::http',
    });
    const answer = (text: string) =>
      JSON.stringify({ jsonrpc: '2.0', result: { content: [{ type: 'text', text }], isError: false }, id: 2 });
    const row = { records: [{ id: 'rec1', createdTime: '2026-05-14T12:30:00Z', fields: { name: 'ops', decision: 'approved' } }] };
    const withAnswer = (text: string) => [...sample.slice(0, 7), answer(text), ...sample.slice(8)].join('\n');
    const r = await runs({
      'k.log': withAnswer(`2026-05-14T12:30:00.123456789Z ${apiLine}`),
      'c.log': withAnswer(`api-1  | ${apiLine}`),
      'a.log': withAnswer(JSON.stringify(row)),
    });
    for (const f of ['k.log', 'c.log', 'a.log']) expect(errorsOf(r, `.assay/runs/${f}`)).toEqual([]);
    // An authz service's line with a decision field, with or without its time or target (tracing's
    // .without_time(), .with_target(false)), is that service's data too (a red team's false red).
    for (const authz of [
      { level: 'INFO', fields: { decision: 'allow', user: 'ops' }, target: 'authz::policy' },
      { timestamp: '2026-05-14T12:30:00Z', level: 'INFO', fields: { decision: 'allow', user: 'ops' } },
    ])
      expect(classify({ '@timestamp': 'x', message: `2026-05-14T12:30:00Z stdout F ${JSON.stringify(authz)}` })).toMatchObject({
        kind: 'error',
        named: false,
      });
    // The server's own tracing line there still counts.
    expect(classify({ '@timestamp': 'x', message: `2026-05-14T12:30:00Z ${decisionLine}` })).toMatchObject({ kind: 'error', named: true });
  });

  it('a nested object that names a kind with a string (a near miss) still counts as wrapped evidence', () => {
    expect(classify({ type: 'collector.log.v1', data: { inner: { schema: 'assay.provider_audit_record.v1', x: 1 } } })).toMatchObject({
      kind: 'error',
      reason: expect.stringMatching(/its member "data\.inner" is an object this gate reads or refuses \(unsupported version/),
    });
  });
});

describe('evidence behind a prefix, encoded twice, or beside a surface’s decisions is an error, never a skip (a red team)', () => {
  it.each([
    [
      'a container runtime’s CRI prefix in a shipper’s message',
      { schema: 'vector.log.v1', message: `2026-11-01T10:00:01.123Z stdout F ${JSON.stringify(surfaceEvent)}` },
      /the JSON text in its member "message" is an assay\.tool_decision_surface\.v0 evidence event/,
    ],
    [
      'JSON text encoded twice',
      { schema: 'vector.log.v1', message: JSON.stringify(JSON.stringify(surfaceEvent)) },
      /the JSON text in its member "message" is an assay\.tool_decision_surface\.v0 evidence event/,
    ],
    [
      'a compose service’s prefix on one line of a message',
      { schema: 'vector.log.v1', message: `batch of 1\nagent-1 | ${decisionLine}\n` },
      /the JSON text in its member "message \(its line 2\)" is a server tool_decision line/,
    ],
  ])('in .ndjson: %s is invalid_artifact and the gate fails', async (_what, wrapper, where) => {
    const r = await runs({ 'w.ndjson': ndjson([wrapper]) });
    expect(errorsOf(r, '.assay/runs/w.ndjson')).toEqual([
      { code: 'invalid_artifact', line: 1, column: 1, message: expect.stringMatching(where) },
    ]);
    expect(r.ok).toBe(false);
  });

  it('in a .log: a container runtime’s JSON line around a compose-prefixed tool_decision line is an error at its line', async () => {
    const start = serverLog([]).trim();
    const r = await runs({ 'agent.log': `${start}\n${JSON.stringify({ stream: 'stderr', log: `agent-1 | ${decisionLine}` })}\n` });
    expect(errorsOf(r, '.assay/runs/agent.log')).toEqual([
      {
        code: 'invalid_artifact',
        line: 2,
        column: 1,
        message: expect.stringMatching(/the JSON text in its member "log" is a server tool_decision line/),
      },
    ]);
    expect(r.ok).toBe(false);
  });

  it('an audit record beside a bundle surface’s decisions rejects the bundle (it was dropped unread); a plain surface’s too', async () => {
    const rec = record('github', 'r-x', addKey());
    const held = { ...surface([addKey()]), provider_records: [rec] };
    const bundle = buildBundle({ runId: 'r1', events: [{ type: 'assay.tool_decision_surface.v0', data: held }] });
    const r = await runs({ 'b.tar.gz': bundle.gz, 'p.json': json(held) });
    expect(errorsOf(r, '.assay/runs/b.tar.gz')[0]?.message).toMatch(
      /^evidence bundle rejected: events\.ndjson line 1: evidence wrapped in a decision surface event: its member "data\.provider_records\[0\]" is an audit record/,
    );
    expect(errorsOf(r, '.assay/runs/p.json')[0]?.message).toMatch(
      /^evidence wrapped in a decision surface: its member "provider_records\[0\]"/,
    );
    expect(r.ok).toBe(false);
  });

  it.each([
    [
      'as a decision’s extra member',
      (rec: unknown) => JSON.stringify(surface([{ ...addKey(), audit: rec }])),
      /its member "observed_tool_decisions\[0\]\.audit" is an audit record/,
    ],
    [
      'as JSON text in a decision’s response',
      (rec: unknown) => {
        const d = addKey();
        return JSON.stringify(surface([{ ...d, response: { ...(d['response'] as object), audit: JSON.stringify(rec) } }]));
      },
      /the JSON text in its member "observed_tool_decisions\[0\]\.response\.audit" is an audit record/,
    ],
    [
      'beside an evidence event’s data',
      (rec: unknown) => JSON.stringify({ ...event('assay.tool_decision_surface.v0', surface([addKey()]), 0), record: rec }),
      /^evidence wrapped in a decision surface event: its member "record" is an audit record/,
    ],
  ])('an audit record %s is refused, never dropped (a red team)', async (_what, file, where) => {
    // One line, read as NDJSON: a surface document or an evidence event.
    const r = await runs({ 'x.ndjson': `${file(record('github', 'r-x', addKey()))}\n` });
    expect(errorsOf(r, '.assay/runs/x.ndjson')).toEqual([
      { code: 'invalid_artifact', line: 1, column: 1, message: expect.stringMatching(where) },
    ]);
    expect(r.ok).toBe(false);
  });

  it('prose that ends with a brace but holds no JSON, and a surface’s non_claims, are read as before', () => {
    expect(classify({ '@timestamp': 'x', message: 'retrying {attempt 2}' })).toMatchObject({ kind: 'error', named: false });
    expect(classify({ ...surface([addKey()]), non_claims: ['provider_state'] })).toMatchObject({ kind: 'surface' });
  });
});
