/**
 * Runs as Assay's server writes them(docs/assay-server-logs.md): every shared server-log
 * sample read as a run, byte for byte as upstream's formatter wrote it, and mutations of them that
 * must be errors (never skips) or run_incomplete.
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.js';
import { verify } from '../../src/core/verify.js';
import { readArtifact } from '../../src/read/files.js';
import { DEFAULT_LIMITS } from '../../src/read/limits.js';
import { unchecked } from '../../src/trust/pool.js';
import { cliJson, ROOT, tempDir, UPSTREAM, writeFiles } from '../support/workspace.js';

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
  const audit = record ? await readArtifact('audit/r.json', 'audit', RECORD, DEFAULT_LIMITS) : { records: [], findings: [] };
  return verify(
    { runs, records: audit.records.map(unchecked), findings: [...findings, ...audit.findings] },
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

  it('07: a startup failure: no decisions and no call started, said in a notice', async () => {
    const r = await gate({ 'runs/07.log': log('07_startup_failure_policy_root.stderr.log') }, false);
    expect(r.calls).toEqual([]);
    expect(r.findings.map((f) => [f.code, f.message])).toContainEqual([
      'no_decisions',
      'the server log holds no tool_decision event: it contributes no calls',
    ]);
    expect(r.ok).toBe(true);
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
    expect(ROOT).toBeTruthy();
  });
});
