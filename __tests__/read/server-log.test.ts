/**
 * Runs as Assay's server writes them(docs/assay-server-logs.md): every shared server-log
 * sample read as a run, byte for byte as upstream's formatter wrote it, and mutations of them that
 * must be errors (never skips) or run_incomplete.
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.js';
import { rfc3339 } from '../../src/core/time.js';
import { verify } from '../../src/core/verify.js';
import { readArtifact } from '../../src/read/files.js';
import { DEFAULT_LIMITS } from '../../src/read/limits.js';
import { addKey, getKey, surface } from '../support/corpus.js';
import { policyOf, uncheckedRecords } from '../support/evidence.js';
import { cliJson, tempDir, UPSTREAM, writeFiles } from '../support/workspace.js';

const LOGS = path.join(UPSTREAM, 'server-logs');
const log = (name: string) => readFileSync(path.join(LOGS, name), 'utf8');
const RECORD = readFileSync(path.join(UPSTREAM, 'side_effect/audit_record_github_deploy_key.json'));

async function gate(files: Record<string, string | Buffer>, record = true): Promise<Report> {
  const runs = [];
  const findings = [];
  for (const [name, text] of Object.entries(files)) {
    const r = await readArtifact(name, 'runs', Buffer.from(text), DEFAULT_LIMITS);
    if (r.run) runs.push(r.run);
    findings.push(...r.findings);
  }
  const audit = record ? await readArtifact('audit/r.json', 'audit', RECORD, DEFAULT_LIMITS) : { entries: [], findings: [] };
  return verify(
    { runs, records: uncheckedRecords(audit.entries), findings: [...findings, ...audit.findings] },
    { allowUnmatchedRecords: true, strictObserved: false },
  );
}
const codes = (r: Report) => r.findings.map((f) => f.code);

describe('the shared samples, as runs', () => {
  it('02: the deploy-key create (r-000004) is verified by the upstream record; the decision is located at its line and the column of its value', async () => {
    const r = await gate({ 'runs/02.log': log('02_deploy_key_create_then_get.stderr.log') });
    expect(r.runs).toHaveLength(1);
    expect(r.calls.map((c) => [c.tool, c.level, c.line])).toEqual([
      ['github.add_deploy_key', 'verified', 6],
      ['github.get_deploy_key', 'asserted', 10],
    ]);
    const line = log('02_deploy_key_create_then_get.stderr.log').split('\n')[5] as string;
    expect(r.calls[0]!.column).toBe(line.indexOf('"decision":') + '"decision":'.length + 1);
    expect(r.ok).toBe(true);
  });

  // A newcomer's: a log saved with a BOM read its first line as text, then said the capture began after the server started.
  it('a log that begins with a byte-order mark is refused as such at 1:1, one finding', async () => {
    const r = await gate({ 'runs/02.log': `\uFEFF${log('02_deploy_key_create_then_get.stderr.log')}` });
    const errors = r.findings.filter((f) => f.severity === 'error' && f.file === 'runs/02.log');
    expect(errors.map((f) => [f.code, f.line, f.column, f.message])).toEqual([
      [
        'invalid_artifact',
        1,
        1,
        'byte-order mark (U+FEFF) is not allowed: save the file as UTF-8 without a byte-order mark (the run is rejected and contributes no calls)',
      ],
    ]);
    expect(r.ok).toBe(false);
  });

  it('04: interleaved events, an ANSI banner, string rpc ids, timeouts and execution errors: r-000006 binds the record; the rest is skipped and counted', async () => {
    const r = await gate({ 'runs/04.log': log('04_interleaved_events.stderr.log') });
    expect(r.calls.map((c) => c.tool)).toEqual([
      'assay_check_args',
      'github.add_deploy_key',
      'workspace.grant_admin',
      'github.create_deploy_key',
      'assay_explain_trace',
      'github.add_deploy_key',
    ]);
    expect(r.calls[1]!.level).toBe('verified');
    // A timed-out or failed call logs its decision (effect error): no rung, never a side effect.
    expect(r.calls.slice(4).map((c) => c.level)).toEqual([null, null]);
    const skipped = r.findings.find((f) => f.code === 'skipped_object')!;
    expect(skipped.message).toMatch(/text line \(ANSI banner\) ×5/);
    expect(skipped.message).toMatch(/tracing event tool_call_timeout ×1/);
    expect(r.ok).toBe(true);
  });

  it('06: stdout mixed in (2>&1): the JSON-RPC responses are skipped, never an error; nothing is asserted but a check', async () => {
    const r = await gate({ 'runs/06.log': log('06_merged_stdout_stderr.log') });
    expect(r.findings.find((f) => f.code === 'skipped_object')!.message).toMatch(/JSON-RPC message \(stdout mixed in\) ×3/);
    expect(r.calls.map((c) => c.level)).toEqual(['asserted', null]);
    expect(codes(r)).not.toContain('invalid_artifact');
  });

  it('07: a server that never started (server_start, then its plain-text error): run_not_started naming the error; alone, the gate fails as with no decision', async () => {
    const r = await gate({ 'runs/07.log': log('07_startup_failure_policy_root.stderr.log') }, false);
    expect(r.calls).toEqual([]);
    expect(r.findings.find((f) => f.code === 'run_not_started')).toMatchObject({
      severity: 'notice',
      file: 'runs/07.log',
      line: 2,
      message: expect.stringMatching(
        /the agent's server never started \(assay-mcp-server: invalid --policy-root: No such file or directory/,
      ),
    });
    expect(r.findings.map((f) => f.code)).not.toContain('no_decisions');
    // Every run input is such a file: no call was read, and the gate says why.
    const alone = await cliJson([], writeFiles(tempDir(), { '.assay/runs/07.log': log('07_startup_failure_policy_root.stderr.log') }));
    expect(alone.code).toBe(1);
    expect(alone.report.findings.find((f) => f.code === 'no_artifacts')?.message).toMatch(
      /^the agent's server failed to start \(\.assay\/runs\/07\.log:2: /,
    );
    // Beside a run that did start, it is one notice and the gate judges the rest.
    const both = await cliJson(
      [],
      writeFiles(tempDir(), {
        '.assay/runs/07.log': log('07_startup_failure_policy_root.stderr.log'),
        '.assay/runs/02.log': log('02_deploy_key_create_then_get.stderr.log'),
      }),
    );
    expect(both.report.findings.filter((f) => f.code === 'run_not_started')).toHaveLength(1);
    expect(both.report.findings.map((f) => f.code)).not.toContain('no_artifacts');
  });

  it('a startup_failure line (proxy-enforce mode, before any server_start): run_not_started with its reason_code and next_step, never "not a capture of assay-mcp-server"', async () => {
    const line = JSON.stringify({
      event: 'startup_failure',
      reason_code: 'policy_root_missing',
      next_step: 'create the policy root or pass --policy-root',
    });
    const r = await gate({ 'runs/failed.log': `${line}\n` }, false);
    const f = r.findings.find((x) => x.code === 'run_not_started');
    expect(f?.message).toMatch(/reason_code policy_root_missing; next step: create the policy root or pass --policy-root/);
    expect(r.findings.map((x) => x.message).join('\n')).not.toMatch(/not a capture of assay-mcp-server/);
    const alone = await cliJson([], writeFiles(tempDir(), { '.assay/runs/failed.log': `${line}\n` }));
    expect(alone.report.findings.find((x) => x.code === 'no_artifacts')?.message).toMatch(/the agent's server failed to start/);
    // A log with neither server_start nor startup_failure stays invalid_artifact.
    const other = await gate({ 'runs/other.log': 'hello from another program\n' }, false);
    expect(other.findings.find((x) => x.code === 'invalid_artifact')?.message).toMatch(/no server_start line/);
  });

  it('a startup_failure line in a capture whose server started and worked (a failed restart appended, or one before it) never drops the calls: they are judged, the line counted', async () => {
    const failure = JSON.stringify({ event: 'startup_failure', reason_code: 'x', next_step: 'y' });
    const worked = log('02_deploy_key_create_then_get.stderr.log');
    const plain = await gate({ 'runs/02.log': worked });
    for (const text of [`${worked}${failure}\n`, `${failure}\n${worked}`]) {
      const r = await gate({ 'runs/02.log': text });
      expect(r.calls.map((c) => c.level)).toEqual(plain.calls.map((c) => c.level));
      expect(r.calls).toHaveLength(2);
      expect(r.findings.map((f) => f.code)).not.toContain('run_not_started');
      expect(r.findings.find((f) => f.code === 'skipped_object')?.message).toMatch(
        /startup_failure line \(the server also started and worked\)/,
      );
    }
    // End to end, without the export and with a rule requiring verified: the call still fails the gate.
    const out = await cliJson(
      ['--require', 'github_deploy_key=verified'],
      writeFiles(tempDir(), { '.assay/runs/02.log': `${worked}${failure}\n` }),
    );
    expect(out.code).toBe(1);
    expect(out.report.findings.map((f) => f.code)).toContain('policy_unmet');
  });

  it('tracing lines inside .ndjson are read the same way as in a .log', async () => {
    const text = log('02_deploy_key_create_then_get.stderr.log');
    const a = await gate({ 'runs/02.ndjson': text });
    expect(a.calls.map((c) => c.level)).toEqual(['verified', 'asserted']);
  });

  it('by default discovery finds *.log under the runs (and never under the audit exports); verify passes on the sample', async () => {
    const dir = tempDir();
    writeFiles(dir, {
      '.assay/runs/2026-11-30-release.log': log('02_deploy_key_create_then_get.stderr.log'),
      '.assay/audit/github/r.json': RECORD,
      '.assay/audit/notes.log': 'x',
    });
    const r = await cliJson([], dir);
    expect(r.report.calls.map((c) => c.level)).toEqual(['verified', 'asserted']);
    expect(r.report.ok).toBe(true);
    // Not read, and not dropped in silence either (a coverage statement renamed .log would be): a warning at the file.
    expect(r.report.findings.find((f) => f.file === '.assay/audit/notes.log')).toMatchObject({
      code: 'invalid_artifact',
      severity: 'warning',
    });
  });
});

describe('what a server log must never skip', () => {
  const base = log('02_deploy_key_create_then_get.stderr.log');
  const lines = base.split('\n');
  const decisionLine = lines.findIndex((l) => l.includes('"event":"tool_decision"'));

  it('a truncated last line (a line that starts with "{" but is not strict JSON) is an error, and the run is rejected', async () => {
    const r = await gate({ 'runs/x.log': `${base.trimEnd()}\n${lines[decisionLine]!.slice(0, 120)}` });
    expect(codes(r)).toContain('invalid_artifact');
    expect(r.runs).toHaveLength(0);
    expect(r.findings.find((f) => f.code === 'invalid_artifact')!.message).toMatch(
      /a line that starts with "\{" is not strict JSON \(a truncated line\?\)/,
    );
  });

  it('a decision carried by a server_start or tool_call_start line is an error at its line, never skipped as what its event says (a red team, this stop)', async () => {
    const event = JSON.parse(lines[decisionLine]!);
    for (const as of ['server_start', 'tool_call_start']) {
      const smuggled = JSON.stringify({ ...event, fields: { ...event.fields, event: as } });
      const r = await gate({ 'runs/x.log': [...lines.slice(0, decisionLine), smuggled, ...lines.slice(decisionLine)].join('\n') });
      const f = r.findings.find((x) => x.code === 'invalid_artifact');
      expect(f, as).toMatchObject({ line: decisionLine + 1 });
      expect(f!.message).toMatch(
        new RegExp(
          `a fields\\.decision member with fields\\.event "${as}": a decision that is not exactly a tool_decision event is never skipped`,
        ),
      );
      expect(r.runs).toHaveLength(0);
    }
  });

  it('a second tool_call_start of one rid before its decision is run_incomplete: one of the two calls has no decision', async () => {
    const start = lines.findIndex((l) => l.includes('"event":"tool_call_start"'));
    const r = await gate({ 'runs/x.log': [...lines.slice(0, start + 1), lines[start]!, ...lines.slice(start + 1)].join('\n') });
    const f = r.findings.find((x) => x.code === 'run_incomplete');
    expect(f).toMatchObject({ line: start + 2 });
    expect(f!.message).toMatch(/a second tool_call_start for "r-\d+" in one server session/);
  });

  it('a second tool_call_start of one rid after its decision is run_incomplete too: one decision answers one start (a red team: the restart passed, exit 0)', async () => {
    const decided = lines.findIndex((l) => l.includes('"event":"tool_decision"'));
    const rid = /"rid":"(r-\d+)"/.exec(lines[decided]!)?.[1] ?? '';
    const start = lines.findIndex((l) => l.includes('"event":"tool_call_start"') && l.includes(`"rid":"${rid}"`));
    expect(start).toBeGreaterThan(-1);
    const r = await gate({ 'runs/x.log': [...lines.slice(0, decided + 1), lines[start]!, ...lines.slice(decided + 1)].join('\n') });
    const f = r.findings.find((x) => x.code === 'run_incomplete');
    expect(f).toMatchObject({ line: decided + 2 });
    expect(r.ok).toBe(false);
  });

  it('a call’s event before any server_start is an error, in a .log and among NDJSON tracing lines: the capture began late (a red team: a restart’s server_start last, or the decision alone, passed)', async () => {
    const first = lines.findIndex((l) => l.includes('"event":"tool_call_start"'));
    const started = lines.findIndex((l) => l.includes('"event":"server_start"'));
    const tail = lines.slice(first);
    for (const [name, text] of [
      ['runs/late.log', [...tail, lines[started]!].join('\n')],
      ['runs/late.ndjson', `${lines[decisionLine]!}\n`],
    ] as const) {
      const r = await gate({ [name]: text });
      const f = r.findings.find((x) => x.code === 'invalid_artifact');
      expect(f, name).toMatchObject({ line: 1 });
      expect(f!.message).toMatch(/event (of rid "r-\d+" )?before any server_start line: this capture began after the server started/);
      expect(r.ok).toBe(false);
    }
    // Any event of a call (a rid) counts: what is left of a first process's tail (a red team), never start-up chatter.
    const done = JSON.stringify({
      timestamp: '2026-06-01T00:00:00Z',
      level: 'INFO',
      fields: { event: 'tool_call_done', rid: 'r-000041' },
      target: 'assay_mcp_server',
    });
    const chatter = JSON.stringify({
      timestamp: '2026-06-01T00:00:00Z',
      level: 'WARN',
      fields: { message: 'deprecated flag' },
      target: 'assay_core',
    });
    const cut = await gate({ 'runs/x.log': [done, ...lines].join('\n') });
    expect(cut.findings.find((x) => x.code === 'invalid_artifact')?.message).toMatch(
      /a tool_call_done event of rid "r-000041" before any server_start line/,
    );
    const warned = await gate({ 'runs/x.log': [chatter, ...lines].join('\n') });
    expect(warned.findings.filter((x) => x.code === 'invalid_artifact')).toEqual([]);
  });

  it('a decision that is not a string, is empty, or is not strict JSON is an error at its line', async () => {
    const event = JSON.parse(lines[decisionLine]!);
    for (const [value, why] of [
      [{ a: 1 }, /fields\.decision is not a string/],
      ['', /fields\.decision is empty/],
      ['{"a":1,"a":2}', /fields\.decision is not strict JSON .*duplicate key "a"/],
      ['[1]', /fields\.decision is not a JSON object/],
      ['{"response":{}}', /decision 0 \(tool_decision r-000004\): /],
    ] as const) {
      event.fields.decision = value;
      const mutated = [...lines];
      mutated[decisionLine] = JSON.stringify(event);
      const r = await gate({ 'runs/x.log': mutated.join('\n') });
      const f = r.findings.find((x) => x.code === 'invalid_artifact');
      expect(f, String(value)).toMatchObject({ line: decisionLine + 1 });
      expect(f!.message).toMatch(why);
    }
  });

  it('two tool_decision lines with one rid in one session are an error; the same rid after a new server_start is not', async () => {
    const twice = [...lines.slice(0, decisionLine + 1), lines[decisionLine]!, ...lines.slice(decisionLine + 1)].join('\n');
    const r = await gate({ 'runs/x.log': twice });
    expect(r.findings.find((f) => f.code === 'invalid_artifact')!.message).toMatch(
      /a second tool_decision for rid "r-000004" in one server session/,
    );
    const restarted = `${base.trimEnd()}\n${base}`;
    const ok = await gate({ 'runs/y.log': restarted });
    expect(codes(ok)).not.toContain('invalid_artifact');
    expect(ok.calls).toHaveLength(4);
  });

  it('a call started with no decision (killed mid-call, or ASSAY_LOG=warn) is run_incomplete naming the rid; the run still counts', async () => {
    const r = await gate({ 'runs/x.log': lines.filter((_, i) => i !== decisionLine).join('\n') });
    const f = r.findings.find((x) => x.code === 'run_incomplete')!;
    expect(f.message).toMatch(
      /^rid "r-000004" started a tool call with no tool_decision in its session .* a side effect may have happened that no decision records$/,
    );
    expect(f.severity).toBe('error');
    expect(r.ok).toBe(false);
    expect(r.calls).toHaveLength(1);
  });

  it('an event tracing could not format is run_incomplete; a text line that mentions tool_decision is an error', async () => {
    const lost = await gate({ 'runs/x.log': `${base}Unable to format the following event. Name: event src/server.rs:120; Fields: …\n` });
    expect(codes(lost)).toContain('run_incomplete');
    const near = await gate({ 'runs/y.log': `${base}tool_decision rid=r-000009 decision={...}\n` });
    expect(near.findings.find((f) => f.code === 'invalid_artifact')!.message).toMatch(/a text line that mentions tool_decision/);
  });

  // The red team's cases: each was skipped (or accepted) before, and must be an error now.
  const at = (i: number, f: (e: any) => void) => {
    const e = JSON.parse(lines[i]!);
    f(e);
    return lines.map((l, j) => (j === i ? JSON.stringify(e) : l)).join('\n');
  };
  const startLine = lines.findIndex((l) => l.includes('"event":"tool_call_start"') && l.includes('r-000004'));

  it('a tool_decision tracing line that also carries a top-level type or schema names two kinds: an error, never a skip', async () => {
    for (const extra of [{ type: 'assay.enforcement_decision.v0' }, { schema: 'assay.session.started' }]) {
      const r = await gate({ 'runs/x.log': at(decisionLine, (e) => Object.assign(e, extra)) });
      expect(r.findings.find((f) => f.code === 'invalid_artifact')?.message, JSON.stringify(extra)).toMatch(
        /ambiguous: a server tracing line that also carries a top-level (type|schema)/,
      );
      expect(r.calls.filter((c) => c.level === 'verified')).toEqual([]);
      expect(r.ok).toBe(false);
    }
  });

  it('a decision is never skipped: fields.decision on another event, or fields.event tool_decision in another case, is an error', async () => {
    const other = await gate({ 'runs/x.log': at(decisionLine, (e) => (e.fields.event = 'tool_call_done')) });
    expect(other.findings.find((f) => f.code === 'invalid_artifact')?.message).toMatch(
      /a decision that is not exactly a tool_decision event is never skipped/,
    );
    const cased = await gate({ 'runs/y.log': at(decisionLine, (e) => (e.fields.event = 'Tool_Decision')) });
    expect(cased.findings.find((f) => f.code === 'invalid_artifact')?.message).toMatch(/fields\.event "Tool_Decision"/);
    const untraced = await gate({ 'runs/z.log': at(decisionLine, (e) => delete e.timestamp) });
    expect(untraced.findings.find((f) => f.code === 'invalid_artifact')?.message).toMatch(
      /carries a tool decision .* but is not a tracing line/,
    );
  });

  it('a text line that mentions tool_decision anywhere (past 4 096 characters, in any case) is an error', async () => {
    const r = await gate({ 'runs/x.log': `${base}${'x'.repeat(5000)} TOOL_DECISION rid=r-9\n` });
    expect(r.findings.find((f) => f.code === 'invalid_artifact')?.message).toMatch(/a text line that mentions tool_decision/);
  });

  it('JSON lines in a .log go through the one classifier: a v0 surface is read, another version is an error', async () => {
    const surfaceLine = JSON.stringify(JSON.parse(readFileSync(path.join(UPSTREAM, 'side_effect/verified.json'), 'utf8')));
    const read = await gate({ 'runs/x.log': `${base}${surfaceLine}\n` });
    expect(read.calls).toHaveLength(3);
    const v1 = await gate({ 'runs/y.log': `${base}${surfaceLine.replace('surface.v0', 'surface.v1')}\n` });
    expect(v1.findings.find((f) => f.code === 'invalid_artifact')?.message).toMatch(/unsupported version/);
  });

  it('a tool_call_start without a string rid is an error at its line; pairing does not depend on order', async () => {
    const r = await gate({ 'runs/x.log': at(startLine, (e) => delete e.fields.rid) });
    expect(r.findings.find((f) => f.code === 'invalid_artifact')).toMatchObject({
      line: startLine + 1,
      message: expect.stringMatching(/tool_call_start event without a string fields\.rid/),
    });
    // The decision logged before its start still pairs: no run_incomplete.
    const swapped = [...lines];
    [swapped[startLine], swapped[decisionLine]] = [swapped[decisionLine]!, swapped[startLine]!];
    const ok = await gate({ 'runs/y.log': swapped.join('\n') });
    expect(codes(ok)).not.toContain('run_incomplete');
  });

  it('30 000 calls started without a decision are listed up to the per-file limit and counted, not 30 000 findings', async () => {
    const start = lines[startLine]!;
    const many = Array.from({ length: 30_000 }, (_, i) => start.replace('r-000004', `r-${i}`)).join('\n');
    const r = await gate({ 'runs/x.log': `${lines[0]}\n${many}\n` }, false);
    const own = r.findings.filter((f) => f.file === 'runs/x.log');
    // The listed ones, one count of the rest, and the notices of what was skipped and that no decision was seen.
    expect(own.length).toBeLessThanOrEqual(DEFAULT_LIMITS.maxFindingsPerFile + 3);
    expect(own.some((f) => /more problem\(s\) in this file not listed/.test(f.message))).toBe(true);
  });

  it('the decision is located at its value when the line is written with ": "', async () => {
    const spaced = lines[decisionLine]!.replace('"decision":"', '"decision": "');
    const r = await gate({ 'runs/x.log': lines.map((l, j) => (j === decisionLine ? spaced : l)).join('\n') });
    expect(r.calls[0]!.column).toBe(spaced.indexOf('"decision": ') + '"decision": '.length + 1);
  });

  it('a .json run file must be a surface: one tracing line in a .json file is an error, not a run', async () => {
    const r = await gate({ 'runs/x.json': lines[decisionLine]! });
    expect(r.runs).toEqual([]);
    expect(r.findings.find((f) => f.code === 'invalid_artifact')?.message).toMatch(/a \.json run file must be a decision surface/);
  });

  it('CRLF line ends read the same; blank lines are nothing', async () => {
    const crlf = await gate({ 'runs/x.log': base.replace(/\n/g, '\r\n\r\n') });
    expect(crlf.calls.map((c) => c.level)).toEqual(['verified', 'asserted']);
    expect(codes(crlf)).not.toContain('invalid_artifact');
  });

  it('both decision shapes: the live server’s (null rule_id, no digest members) and the fixtures’ surface decisions', async () => {
    const surface = readFileSync(path.join(UPSTREAM, 'side_effect/verified.json'), 'utf8');
    const r = await gate({ 'runs/live.log': base, 'runs/surface.json': surface });
    expect(codes(r)).not.toContain('invalid_artifact');
    expect(r.calls).toHaveLength(3);
    expect(r.calls.map((c) => c.artifact)).toEqual(['runs/live.log', 'runs/live.log', 'runs/surface.json']);
  });
});

describe('tools/call answers with no decision (stdout mixed in): run_incomplete, never a server that never started', () => {
  const start = log('06_merged_stdout_stderr.log').split('\n')[0] as string;
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'assay-mcp-server', version: '5.4.0' } },
    id: 0,
  });
  const request = (id: unknown) =>
    JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'github.add_deploy_key', arguments: { repo: 'prod' } } });
  const answer = (id: unknown) =>
    JSON.stringify({ jsonrpc: '2.0', result: { content: [{ type: 'text', text: 'key added' }], isError: false }, id });
  const failed = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'internal' }, id });
  const text = (...l: string[]) => `${l.join('\n')}\n`;
  const incomplete = (r: Report) => r.findings.filter((f) => f.code === 'run_incomplete').map((f) => [f.line, f.column, f.message]);

  it('the red team’s log: initialize, a tools/call request and answer, no tool_decision, then a panic and an error: run_incomplete at the call, no run_not_started', async () => {
    const r = await gate({
      'runs/s.log': text(start, initialize, request(2), answer(2), "thread 'main' panicked at src/server.rs:88:5:", 'Error: broken pipe'),
    });
    expect(incomplete(r)).toEqual([
      [
        3,
        1,
        'a tools/call request on a JSON-RPC line (id 2) with no tool_decision in its server session: 1 tools/call on its JSON-RPC lines, 0 call(s) in its tracing events (decisions filtered out, e.g. ASSAY_LOG=warn, or the process killed): a call happened that no decision records, so a side effect may have gone unrecorded',
      ],
    ]);
    expect(r.findings.find((f) => f.code === 'run_incomplete')?.severity).toBe('error');
    expect(codes(r)).not.toContain('run_not_started');
    expect(r.ok).toBe(false);
    // End to end beside a run that passes: exit 1 (it passed: the log was judged a server that never started).
    const out = await cliJson(
      [],
      writeFiles(tempDir(), {
        '.assay/runs/s.log': text(start, initialize, request(2), answer(2), 'Error: broken pipe'),
        '.assay/runs/02.log': log('02_deploy_key_create_then_get.stderr.log'),
      }),
    );
    expect(out.code).toBe(1);
    expect(out.report.findings.map((f) => f.code)).toContain('run_incomplete');
    expect(out.report.findings.map((f) => f.code)).not.toContain('run_not_started');
  });

  it('answers alone (stdout only, no requests) are calls by their shape; an error answer is one when its request is in the log', async () => {
    const r = await gate({
      'runs/s.log': text(start, initialize, answer(2), answer('req-7'), request(9), failed(9), failed(10), 'Error: x'),
    });
    expect(incomplete(r).map(([line, , message]) => [line, (message as string).slice(0, 48)])).toEqual([
      [3, 'a tools/call answer on a JSON-RPC line (id 2) wi'],
      [4, 'a tools/call answer on a JSON-RPC line (id "req-'],
      [5, 'a tools/call request on a JSON-RPC line (id 9) w'],
    ]);
  });

  it('calls its tracing events know are not counted twice: a start without a decision is said once, by its rid', async () => {
    const startOf = (rid: string) =>
      JSON.stringify({
        timestamp: '2026-05-14T12:30:01Z',
        level: 'INFO',
        fields: { event: 'tool_call_start', rid },
        target: 'assay_mcp_server::server',
      });
    const r = await gate({ 'runs/s.log': text(start, startOf('r-000003'), answer(2)) });
    expect(incomplete(r).map(([line]) => line)).toEqual([2]);
    expect(r.findings.find((f) => f.code === 'run_incomplete')?.message).toMatch(/^rid "r-000003" started a tool call/);
  });

  it('06: every answer has its decision (two answers, two decisions): no run_incomplete; the sample is unchanged', async () => {
    const r = await gate({ 'runs/06.log': log('06_merged_stdout_stderr.log') });
    expect(codes(r)).not.toContain('run_incomplete');
    expect(r.calls).toHaveLength(2);
  });

  it('answers count per server session: a restart’s answers need that session’s decisions', async () => {
    const sample = log('06_merged_stdout_stderr.log').trimEnd();
    const r = await gate({ 'runs/06.log': text(sample, start, answer(2)) });
    expect(incomplete(r).map(([line]) => line)).toEqual([sample.split('\n').length + 2]);
  });

  it('an answer shows the server started: text after an initialize answer is not run_not_started (a server_start and its error alone still are)', async () => {
    const r = await gate({ 'runs/s.log': text(start, initialize, 'Error: broken pipe') }, false);
    expect(codes(r)).not.toContain('run_not_started');
    expect(codes(r)).toContain('no_decisions');
    const never = await gate({ 'runs/07.log': log('07_startup_failure_policy_root.stderr.log') }, false);
    expect(codes(never)).toContain('run_not_started');
  });
});

describe('when a call began: a read begun before a write was decided confirms nothing (§5, a red team)', () => {
  const line = (timestamp: string, fields: Record<string, unknown>) =>
    JSON.stringify({ timestamp, level: 'INFO', fields, target: 'assay_mcp_server::server' });
  const t = (s: number) => `2026-11-30T10:00:${String(s).padStart(2, '0')}.5Z`;
  const start = (s: number, rid: string) => line(t(s), { event: 'tool_call_start', rid });
  const decided = (s: number, rid: string, d: unknown) => line(t(s), { event: 'tool_decision', rid, decision: JSON.stringify(d) });
  const logOf = (...ls: string[]) => `${[line(t(0), { event: 'server_start' }), ...ls].join('\n')}\n`;
  const runOf = async (text: string) => readArtifact('runs/x.log', 'runs', Buffer.from(text), DEFAULT_LIMITS);

  it("a decision's begun is its tool_call_start line's time, whatever the order of the lines between", async () => {
    const r = await runOf(logOf(start(1, 'w'), start(2, 'r'), decided(3, 'w', addKey()), decided(4, 'r', getKey())));
    expect(r.run!.decisions.map((d) => [d.time && rfc3339(d.time), d.begun && rfc3339(d.begun)])).toEqual([
      ['2026-11-30T10:00:03.5Z', '2026-11-30T10:00:01.5Z'],
      ['2026-11-30T10:00:04.5Z', '2026-11-30T10:00:02.5Z'],
    ]);
  });

  it('a read whose request began before the write was decided ran alongside it: the write stays asserted, and its reason says when the read began', async () => {
    const r = await gate(
      { 'runs/x.log': logOf(start(1, 'w'), start(2, 'r'), decided(3, 'w', addKey()), decided(4, 'r', getKey())) },
      false,
    );
    expect(r.calls.map((c) => c.level)).toEqual(['asserted', null]);
    expect(r.calls[0]!.reason).toBe(
      'no audit record binds its subject; no later successful read of the same target in this run confirms it: the read at line 5 began at 2026-11-30T10:00:02.5Z, before this call was decided (2026-11-30T10:00:03.5Z): it ran alongside the call and may have read the state before it',
    );
    // The same read begun after the write was decided confirms it.
    const after = await gate(
      { 'runs/y.log': logOf(start(1, 'w'), decided(3, 'w', addKey()), start(4, 'r'), decided(5, 'r', getKey())) },
      false,
    );
    expect(after.calls.map((c) => c.level)).toEqual(['observed_confirmed', null]);
  });

  it('a policy that wants observed_confirmed says why the read did not count', async () => {
    const runs = [];
    const r0 = await runOf(logOf(start(1, 'w'), start(2, 'r'), decided(3, 'w', addKey()), decided(4, 'r', getKey())));
    runs.push(r0.run!);
    const report = verify(
      { runs, records: [], findings: [] },
      { allowUnmatchedRecords: true, strictObserved: false, policy: policyOf('github_deploy_key=observed_confirmed') },
    );
    expect(report.findings.find((f) => f.code === 'policy_unmet')?.message).toMatch(
      /earned asserted: no later successful read of the same target in this run confirms it: the read at line 5 began at .*, before this call was decided/,
    );
  });

  it("a decision with no tool_call_start before it began no later than its session's server_start: it confirms no write of that session", async () => {
    const r = await runOf(logOf(start(1, 'w'), decided(3, 'w', addKey()), decided(5, 'r', getKey())));
    expect(r.run!.decisions.map((d) => d.begun && rfc3339(d.begun))).toEqual(['2026-11-30T10:00:01.5Z', '2026-11-30T10:00:00.5Z']);
    const report = await gate({ 'runs/x.log': logOf(start(1, 'w'), decided(3, 'w', addKey()), decided(5, 'r', getKey())) }, false);
    expect(report.calls[0]!.level).toBe('asserted');
    expect(report.calls[0]!.reason).toMatch(/the read at line 4 began at 2026-11-30T10:00:00.5Z, before this call was decided/);
  });

  // A red team's: a leap second was read as 23:59:59 and nine nines, so a 23:59:59 written with ten digits came after it.
  it('around a leap second, at any number of digits: a read begun in 23:59:59 confirms no write decided in 23:59:60; one begun in 23:59:60 confirms a write decided in 23:59:59', async () => {
    const D = '2016-12-31T23:59:';
    const at = (ts: string, fields: Record<string, unknown>) => line(`${D}${ts}Z`, fields);
    const logAt = (writeDecided: string, readBegun: string, readDecided: string) =>
      `${[
        at('00', { event: 'server_start' }),
        at('40', { event: 'tool_call_start', rid: 'w' }),
        at(writeDecided, { event: 'tool_decision', rid: 'w', decision: JSON.stringify(addKey()) }),
        at(readBegun, { event: 'tool_call_start', rid: 'r' }),
        at(readDecided, { event: 'tool_decision', rid: 'r', decision: JSON.stringify(getKey()) }),
      ].join('\n')}\n`;
    const levels = async (text: string) => (await gate({ 'runs/x.log': text }, false)).calls.map((c) => c.level);
    expect(await levels(logAt('60', '59.9999999991', '59.9999999992'))).toEqual(['asserted', null]);
    expect(await levels(logAt('60', '59.999999998', '59.999999999'))).toEqual(['asserted', null]);
    expect(await levels(logAt('59.9999999991', '60', '60.5'))).toEqual(['observed_confirmed', null]);
    expect(await levels(logAt('60.25', '60.5', '60.75'))).toEqual(['observed_confirmed', null]);
    expect(await levels(logAt('60.5', '60.25', '60.75'))).toEqual(['asserted', null]);
    const r = await gate({ 'runs/y.log': logAt('60', '59.9999999991', '59.9999999992') }, false);
    expect(r.calls[0]!.reason).toMatch(
      /the read at line 5 was decided at 2016-12-31T23:59:59\.9999999992Z, not after this call \(2016-12-31T23:59:60Z\)$/,
    );
  });

  it('a tool_call_start or server_start line whose timestamp is not RFC 3339 is an error at its line (when a call began is read from it)', async () => {
    const bad = line('yesterday', { event: 'tool_call_start', rid: 'w' });
    const r = await runOf(logOf(bad, decided(3, 'w', addKey())));
    expect(r.run).toBeNull();
    expect(r.findings.find((f) => f.code === 'invalid_artifact')).toMatchObject({
      line: 2,
      column: 1,
      message: expect.stringMatching(/^tool_call_start w: the line's timestamp "yesterday" is not an RFC 3339 date-time/),
    });
    const server = await runOf(`${line('24:00', { event: 'server_start' })}\n${start(1, 'w')}\n${decided(3, 'w', addKey())}\n`);
    expect(server.run).toBeNull();
    expect(server.findings.find((f) => f.code === 'invalid_artifact')).toMatchObject({
      line: 1,
      message: expect.stringMatching(/^server_start: the line's timestamp "24:00"/),
    });
  });
});

describe('JSON-RPC batches (a JSON array line, JSON-RPC 2.0 batching, MCP 2025-03-26): each message read as a line of its own (a red team)', () => {
  const line = (timestamp: string, fields: Record<string, unknown>) =>
    JSON.stringify({ timestamp, level: 'INFO', fields, target: 'assay_mcp_server::server' });
  const serverStart = line('2026-05-14T12:30:00Z', { event: 'server_start', policy_root: '"policies"' });
  const callStart = line('2026-05-14T12:30:01Z', { event: 'tool_call_start', rid: 'r-3', rpc_id: 'Some(Number(2))' });
  const decided = line('2026-05-14T12:30:02Z', {
    event: 'tool_decision',
    rid: 'r-3',
    rpc_id: 'Some(Number(2))',
    decision: JSON.stringify(addKey()),
  });
  const answer = (id: unknown) => ({
    jsonrpc: '2.0',
    result: { content: [{ type: 'text', text: '{"allowed": true}' }], isError: false },
    id,
  });
  const request = (id: unknown) => ({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'github.add_deploy_key', arguments: {} }, id });
  const text = (...l: unknown[]) => `${l.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join('\n')}\n`;
  const base = [serverStart, callStart, decided, answer(2)];
  const incomplete = (r: Report) => r.findings.filter((f) => f.code === 'run_incomplete').map((f) => [f.line, f.column, f.message]);

  it('a batched answer with no decision is run_incomplete at its line and element, as the same answer alone on its line is', async () => {
    const single = await gate({ 'runs/a.log': text(...base, answer(3)) }, false);
    const batch = await gate({ 'runs/a.log': text(...base, [answer(3)]) }, false);
    expect(incomplete(single)).toEqual([
      [5, 1, expect.stringMatching(/^a tools\/call answer on a JSON-RPC line \(id 3\) with no tool_decision/)],
    ]);
    expect(incomplete(batch)).toEqual([[5, 2, incomplete(single)[0]![2]]]);
    expect(batch.ok).toBe(false);
  });

  it('a log whose calls are all batched is judged on them, never "a server that never started" (it passed beside another run)', async () => {
    const r = await gate(
      { 'runs/a.log': text(serverStart, [request(2)], [answer(2)]), 'runs/other.json': JSON.stringify(surface([addKey()])) },
      false,
    );
    expect(codes(r)).not.toContain('run_not_started');
    expect(incomplete(r).map(([l, c]) => [l, c])).toEqual([[2, 2]]);
    expect(r.ok).toBe(false);
  });

  it('each element counts, at its column; notifications and other answers in a batch are no calls', async () => {
    const notification = { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } };
    const batched = JSON.stringify([request(2), notification, request(7)]);
    const r = await gate(
      { 'runs/a.log': text(serverStart, callStart, decided, batched, [{ jsonrpc: '2.0', result: {}, id: 9 }, answer(2), answer(7)]) },
      false,
    );
    expect(incomplete(r).map(([l, c]) => [l, c])).toEqual([[4, batched.indexOf('{"jsonrpc":"2.0","method":"tools/call"', 2) + 1]]);
  });

  it('a batch whose every call has its decision is what its lines alone are: no run_incomplete, the calls judged', async () => {
    const sample = log('06_merged_stdout_stderr.log');
    const answers = sample.split('\n').filter((l) => l.startsWith('{"jsonrpc"'));
    expect(answers.length).toBeGreaterThan(1);
    const batched = `${sample
      .split('\n')
      .filter((l) => !l.startsWith('{"jsonrpc"'))
      .join('\n')
      .trimEnd()}\n[${answers.join(',')}]\n`;
    const alone = await gate({ 'runs/06.log': sample });
    const r = await gate({ 'runs/06.log': batched });
    expect(codes(r)).not.toContain('run_incomplete');
    expect(codes(r)).not.toContain('invalid_artifact');
    expect(r.calls.map((c) => c.level)).toEqual(alone.calls.map((c) => c.level));
    expect(r.ok).toBe(alone.ok);
  });

  it('an array line of no JSON-RPC message stays a text line (a timestamp in brackets, an array of numbers, an empty array)', async () => {
    const r = await gate({ 'runs/a.log': text(...base, '[2026-05-14 12:30:03 INFO] ready', '[1, 2]', '[]') }, false);
    expect(codes(r)).not.toContain('invalid_artifact');
    expect(codes(r)).not.toContain('run_incomplete');
    expect(r.findings.find((f) => f.code === 'skipped_object')?.message).toMatch(/text line ×3/);
    // A server that never started, its error in brackets, is still one.
    const never = await gate({ 'runs/07.log': text(serverStart, '[error] invalid --policy-root') }, false);
    expect(codes(never)).toContain('run_not_started');
  });

  it('a truncated batch line is an error, never a text line; a batched decision is read or refused as on its own line', async () => {
    const cut = JSON.stringify([answer(3)]).slice(0, 40);
    const r = await gate({ 'runs/a.log': text(...base, cut) }, false);
    expect(r.findings.find((f) => f.code === 'invalid_artifact')).toMatchObject({
      line: 5,
      message: expect.stringMatching(
        /^a line that starts with "\[\{" and names "jsonrpc" is not strict JSON \(a truncated JSON-RPC batch\?\)/,
      ),
    });
    expect(r.runs).toHaveLength(0);
    const carried = await gate({ 'runs/a.log': text(...base, [answer(3), { jsonrpc: '2.0', decision: JSON.stringify(addKey()) }]) }, false);
    expect(carried.findings.find((f) => f.code === 'invalid_artifact')).toMatchObject({
      line: 5,
      column: JSON.stringify([answer(3)]).length + 1,
    });
    const named = await gate({ 'runs/a.log': text(...base, [answer(3), 'tool_decision rid=r-9 decision={}']) }, false);
    expect(named.findings.find((f) => f.code === 'invalid_artifact')?.message).toMatch(
      /an element of a JSON-RPC batch line that mentions tool_decision/,
    );
  });

  it('an indented batch or message (spaces or a tab before "[" or "{") is read as the line alone is, at the columns that count the indent (a red team)', async () => {
    const batched = JSON.stringify([request(7), request(8)]);
    const second = batched.indexOf('{"jsonrpc"', 2);
    for (const indent of [' ', '\t', ' \t  ']) {
      const batch = await gate({ 'runs/a.log': text(...base, `${indent}${batched}`) }, false);
      // Each undecided call at its element's column, the indent counted (before: a text line, and the run passed).
      expect(
        incomplete(batch).map(([l, c]) => [l, c]),
        JSON.stringify(indent),
      ).toEqual([
        [5, indent.length + 2],
        [5, indent.length + second + 1],
      ]);
      expect(batch.ok).toBe(false);
      const single = await gate({ 'runs/a.log': text(...base, `${indent}${JSON.stringify(answer(3))}`) }, false);
      expect(incomplete(single), JSON.stringify(indent)).toEqual([
        [5, indent.length + 1, expect.stringMatching(/^a tools\/call answer on a JSON-RPC line \(id 3\) with no tool_decision/)],
      ]);
      expect(single.ok).toBe(false);
    }
    // Truncated, indented: an error at its line, never a text line.
    for (const cut of [JSON.stringify([answer(3)]).slice(0, 40), JSON.stringify(answer(3)).slice(0, 40)]) {
      const r = await gate({ 'runs/a.log': text(...base, `  ${cut}`) }, false);
      expect(
        r.findings.find((f) => f.code === 'invalid_artifact'),
        cut,
      ).toMatchObject({
        line: 5,
        message: expect.stringMatching(/names "jsonrpc" is not strict JSON \(a truncated JSON-RPC (batch|message)\?\)/),
      });
      expect(r.runs).toHaveLength(0);
    }
  });

  it('indented, what is no JSON-RPC stays a text line: an array of no message, a brace of panic text, an object of another kind; a tracing line that mentions tool_decision stays an error', async () => {
    const r = await gate(
      {
        'runs/a.log': text(
          ...base,
          '  [2026-05-14 12:30:03 INFO] ready',
          '\t[1, 2]',
          '    {}',
          '    {',
          '  {"event":"other"}',
          `\t${JSON.stringify(answer(2))}`,
        ),
      },
      false,
    );
    expect(codes(r)).not.toContain('invalid_artifact');
    expect(codes(r)).not.toContain('run_incomplete');
    expect(r.findings.find((f) => f.code === 'skipped_object')?.message).toMatch(/text line ×5/);
    expect(r.ok).toBe(true);
    // The first-character rule of a tracing line is kept: indented, a decision is a text line that mentions tool_decision (an error).
    const indented = await gate({ 'runs/a.log': text(serverStart, callStart, ` ${decided}`) }, false);
    expect(indented.findings.find((f) => f.code === 'invalid_artifact')).toMatchObject({
      line: 3,
      column: 1,
      message: expect.stringMatching(/^a text line that mentions tool_decision/),
    });
  });

  it('a JSON line behind a byte-order mark, a NUL, a control character or a no-break space is an error at its line, never a skipped text line (a red team)', async () => {
    for (const hidden of ['\uFEFF', '\u0000', '\u000B', '\r', '\u00A0', ' \uFEFF']) {
      const r = await gate({ 'runs/a.log': text(...base, `${hidden}${JSON.stringify([request(7), request(8)])}`) }, false);
      expect(
        r.findings.find((f) => f.code === 'invalid_artifact'),
        JSON.stringify(hidden),
      ).toMatchObject({
        line: 5,
        column: 1,
        message: expect.stringMatching(
          /^a JSON line behind U\+[0-9A-F]{4} \(a byte-order mark or a control character the server never writes\)/,
        ),
      });
      expect(r.runs).toHaveLength(0);
    }
    // A second server_start so hidden is refused the same way (it merged two processes' sessions).
    const start = `\uFEFF${serverStart}`;
    const merged = await gate({ 'runs/a.log': text(serverStart, callStart, start) }, false);
    expect(merged.findings.find((f) => f.code === 'invalid_artifact')).toMatchObject({
      line: 3,
      message: expect.stringMatching(/U\+FEFF/),
    });
    // An ANSI banner (ESC) and plain text behind a no-break space stay text lines.
    const banner = await gate({ 'runs/a.log': text(...base, '\u001b[1massay-mcp-server\u001b[0m', '\u00A0ready') }, false);
    expect(codes(banner)).not.toContain('invalid_artifact');
  });
});

describe('several server sessions in one log (a restart, or stderr appended with 2>>): a read of one never confirms a write of another (a red team)', () => {
  const line = (timestamp: string, fields: Record<string, unknown>) =>
    JSON.stringify({ timestamp, level: 'INFO', fields, target: 'assay_mcp_server::server' });
  const serverStart = (ts: string) => line(ts, { event: 'server_start', policy_root: '"policies"' });
  const callStart = (ts: string, rid: string) => line(ts, { event: 'tool_call_start', rid, rpc_id: 'Some(Number(2))' });
  const decided = (ts: string, rid: string, d: unknown) =>
    line(ts, { event: 'tool_decision', rid, rpc_id: 'Some(Number(2))', decision: JSON.stringify(d) });
  const monday = [
    serverStart('2026-11-02T10:00:00Z'),
    callStart('2026-11-02T10:00:01Z', 'r-000004'),
    decided('2026-11-02T10:00:02Z', 'r-000004', addKey()),
  ];
  const wednesday = [
    serverStart('2026-11-04T09:00:00Z'),
    callStart('2026-11-04T09:00:01Z', 'r-000004'),
    decided('2026-11-04T09:00:02Z', 'r-000004', getKey()),
  ];
  const otherSession =
    "no later successful read of the same target in this run confirms it: the read at line 6 was decided in another server process's session than this call (after the log's server_start #2): the log cannot show that two server processes served one agent run, so a read of one confirms no write of the other";

  it('two initialized events in one session (two processes writing the log at once) are an error at the second, never a session the two share (a red team)', async () => {
    const initialized = (ts: string) => line(ts, { event: 'initialized', rid: 'r-000002' });
    const text = `${[
      serverStart('2026-11-02T10:00:00Z'),
      serverStart('2026-11-02T10:00:00.5Z'),
      initialized('2026-11-02T10:00:00.6Z'),
      initialized('2026-11-02T10:00:00.7Z'),
      callStart('2026-11-02T10:00:01Z', 'r-000009'),
      decided('2026-11-02T10:00:02Z', 'r-000009', addKey()),
      callStart('2026-11-02T10:00:03Z', 'r-000003'),
      decided('2026-11-02T10:00:04Z', 'r-000003', getKey()),
    ].join('\n')}\n`;
    const r = await gate({ 'runs/agent.log': text }, false);
    expect(r.findings.find((f) => f.code === 'invalid_artifact')).toMatchObject({
      line: 4,
      message: expect.stringMatching(
        /^a second initialized event in one server session \(the first at line 3\): two server processes wrote this log at once/,
      ),
    });
    expect(r.calls.filter((c) => c.level === 'observed_confirmed')).toEqual([]);
    // One initialized per session, as a restart writes it: read.
    const restart = `${[serverStart('2026-11-02T10:00:00Z'), initialized('2026-11-02T10:00:00.1Z'), serverStart('2026-11-02T11:00:00Z'), initialized('2026-11-02T11:00:00.1Z')].join('\n')}\n`;
    expect((await gate({ 'runs/agent.log': restart }, false)).findings.filter((f) => f.code === 'invalid_artifact')).toEqual([]);
  });

  it("Wednesday's read never confirms Monday's write: the log is read as one run, both sessions' calls judged, the write asserted naming the read", async () => {
    const text = `${[...monday, ...wednesday].join('\n')}\n`;
    const r = await readArtifact('runs/agent.log', 'runs', Buffer.from(text), DEFAULT_LIMITS);
    expect(r.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(r.run?.decisions.map((d) => [d.loc.line, d.session])).toEqual([
      [3, 1],
      [6, 2],
    ]);
    const report = await gate({ 'runs/agent.log': text }, false);
    expect(report.calls.map((c) => [c.tool, c.line, c.level])).toEqual([
      ['github.add_deploy_key', 3, 'asserted'],
      ['github.get_deploy_key', 6, null],
    ]);
    expect(report.calls[0]!.reason).toBe(`no audit record binds its subject; ${otherSession}`);
    const out = await cliJson(
      ['--require', 'github_deploy_key:create=observed_confirmed'],
      writeFiles(tempDir(), { '.assay/runs/agent.log': text }),
    );
    expect(out.code).toBe(1);
    expect(out.report.calls.map((c) => c.level)).toEqual(['asserted', null]);
    expect(out.report.findings.find((f) => f.code === 'policy_unmet')?.message).toContain(otherSession);
    // Among tracing lines in NDJSON the same.
    const nd = await gate({ 'runs/agent.ndjson': text }, false);
    expect(nd.calls.map((c) => c.level)).toEqual(['asserted', null]);
    expect(nd.calls[0]!.reason).toContain(otherSession);
  });

  it('a read in the same session confirms, in the first process and after a restart (a write and a read both in session 2)', async () => {
    const read = (ts: string, rid: string) => [callStart(ts, rid), decided(ts.replace(':01Z', ':02Z'), rid, getKey())];
    const first = [...monday, ...read('2026-11-02T10:01:01Z', 'r-000005'), ...wednesday];
    const r = await gate({ 'runs/agent.log': `${first.join('\n')}\n` }, false);
    expect(codes(r)).not.toContain('invalid_artifact');
    expect(r.calls.map((c) => [c.line, c.level])).toEqual([
      [3, 'observed_confirmed'],
      [5, null],
      [8, null],
    ]);
    expect(r.calls[0]!.reason).toMatch(/^confirmed by a later read at line 5;/);
    // The process restarted mid-run: its write confirmed by its own later read; the first process's write by none of them.
    const restarted = [
      ...monday,
      serverStart('2026-11-02T11:00:00Z'),
      callStart('2026-11-02T11:00:01Z', 'r-000001'),
      decided('2026-11-02T11:00:02Z', 'r-000001', addKey()),
      ...read('2026-11-02T11:01:01Z', 'r-000002'),
    ];
    const again = await gate({ 'runs/agent.log': `${restarted.join('\n')}\n` }, false);
    expect(codes(again)).not.toContain('invalid_artifact');
    expect(again.runs).toHaveLength(1);
    expect(again.calls.map((c) => [c.line, c.level])).toEqual([
      [3, 'asserted'],
      [6, 'observed_confirmed'],
      [8, null],
    ]);
    expect(again.calls[0]!.reason).toContain('the read at line 8 was decided in another server process');
    expect(again.calls[1]!.reason).toMatch(/^confirmed by a later read at line 8;/);
  });

  it('a surface line in the log is of the session it sits in: an untimed write of session 1 is confirmed by no read of session 2, one of its own session confirms', async () => {
    const plain = (d: ReturnType<typeof addKey>) => JSON.stringify(surface([d]));
    const across = [serverStart('2026-11-02T10:00:00Z'), plain(addKey()), ...wednesday];
    const r = await gate({ 'runs/agent.log': `${across.join('\n')}\n` }, false);
    expect(r.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(r.calls.map((c) => [c.line, c.level])).toEqual([
      [2, 'asserted'],
      [5, null],
    ]);
    expect(r.calls[0]!.reason).toContain('the read at line 5 was decided in another server process');
    const within = [serverStart('2026-11-02T10:00:00Z'), plain(addKey()), plain(getKey())];
    const ok = await gate({ 'runs/agent.log': `${within.join('\n')}\n` }, false);
    expect(ok.calls.map((c) => c.level)).toEqual(['observed_confirmed', null]);
  });

  it('each process in its own .log: both read, and the later read confirms nothing of the other file', async () => {
    const r = await gate({ 'runs/monday.log': `${monday.join('\n')}\n`, 'runs/wednesday.log': `${wednesday.join('\n')}\n` }, false);
    expect(codes(r)).not.toContain('invalid_artifact');
    expect(r.runs).toHaveLength(2);
    expect(r.calls.find((c) => c.tool === 'github.add_deploy_key')?.level).toBe('asserted');
  });

  it('a restart that never worked (its server_start and error appended): the calls are judged as without it', async () => {
    const worked = log('02_deploy_key_create_then_get.stderr.log');
    const plain = await gate({ 'runs/02.log': worked });
    const r = await gate({ 'runs/02.log': `${worked}${log('07_startup_failure_policy_root.stderr.log')}` });
    expect(codes(r)).not.toContain('invalid_artifact');
    expect(r.calls.map((c) => c.level)).toEqual(plain.calls.map((c) => c.level));
    expect(r.ok).toBe(plain.ok);
  });

  it('a later session seen only by a tools/call answer is read: the answer with no decision of its session is run_incomplete there', async () => {
    const sample = log('06_merged_stdout_stderr.log');
    const start = sample.split('\n')[0]!;
    const answer = JSON.stringify({ jsonrpc: '2.0', result: { content: [] }, id: 2 });
    const at = sample.trimEnd().split('\n').length + 2;
    const r = await gate({ 'runs/06.log': `${sample.trimEnd()}\n${start}\n${answer}\n` });
    expect(codes(r)).not.toContain('invalid_artifact');
    expect(r.findings.filter((f) => f.code === 'run_incomplete').map((f) => f.line)).toEqual([at]);
  });
});
