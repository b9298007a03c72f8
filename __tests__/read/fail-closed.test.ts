/**
 * fail closed at scale and at the edges. Each class the adversarial review found is a
 * test here: near misses refused, blank lines exact, one classifier for logs and bundles, bounded
 * reasons and reports, the decision limit per run, the allocation a maximum matching, denied calls
 * confirming nothing, and the gate's own output strict JSON.
 */

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import canonicalize from 'canonicalize';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Digest } from '../../src/core/binding.js';
import type { Report } from '../../src/core/report.js';
import { verify } from '../../src/core/verify.js';
import { parseStrict } from '../../src/read/json/strict.js';
import { DEFAULT_LIMITS } from '../../src/read/limits.js';
import { renderJson } from '../../src/report/json-report.js';
import { buildBundle } from '../support/bundle-writer.js';
import { addKey, decision, deployKey, event, getKey, json, ndjson, record, serverLog, surface } from '../support/corpus.js';
import { evidence, OPTIONS } from '../support/evidence.js';
import { cleanup, gate, tempDir, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

const errors = (r: Report) => r.findings.filter((f) => f.severity === 'error');
async function runs(files: Record<string, string | Uint8Array>, audit: Record<string, string> = {}): Promise<Report> {
  const dir = tempDir();
  writeFiles(
    dir,
    Object.fromEntries([
      ...Object.entries(files).map(([k, v]) => [`.assay/runs/${k}`, v]),
      ...Object.entries(audit).map(([k, v]) => [`.assay/audit/${k}`, v]),
    ]),
  );
  return gate(dir);
}

describe('near misses are refused, never skipped (§1)', () => {
  const claim = addKey({ claim: 'verified' });
  it.each([
    'assay.tool_decision_surface.V0',
    'assay.tool_decision_surface.v0.1',
    'assay.tool_decision_surface.v0 ',
    ' Assay.Tool_Decision_Surface.v0',
    'assay.tool_decision_surface.v1',
  ])('a surface whose schema is %j is invalid_artifact, so its verified claim cannot slip past', async (schema) => {
    const r = await runs({ 'r.json': json({ schema, observed_tool_decisions: [claim] }) });
    expect(r.ok).toBe(false);
    expect(errors(r)).toEqual([expect.objectContaining({ code: 'invalid_artifact', file: '.assay/runs/r.json', line: 1, column: 1 })]);
    expect(errors(r)[0]!.message).toMatch(/unsupported version|not exactly the kind/);
  });

  it('a tampered record renamed …record.V0 is refused, not skipped', async () => {
    const rec = record('github', 'x', addKey(), { editTarget: { repo: 'evil' } });
    const r = await runs({ 'r.json': json(surface([addKey()])) }, { 'a.json': json({ ...rec, schema: 'assay.provider_audit_record.V0' }) });
    expect(errors(r).map((f) => f.code)).toEqual(['invalid_artifact']);
  });

  it('an NDJSON evidence event of type surface with a stray top-level schema of another kind is ambiguous: an error', async () => {
    const e = { ...event('assay.tool_decision_surface.v0', surface([claim]), 0), schema: 'assay.enforcement_decision.v0' };
    const r = await runs({ 'r.ndjson': ndjson([e]) });
    expect(errors(r)[0]!.message).toMatch(
      /^ambiguous: an evidence event of type "assay\.tool_decision_surface\.v0" with a top-level schema "assay\.enforcement_decision\.v0"/,
    );
  });

  it('a bundle surface event whose data.schema is …surface.v1 is refused, as the same event in a log is', async () => {
    const data = { ...surface([claim]), schema: 'assay.tool_decision_surface.v1' };
    const gz = buildBundle({
      runId: 'r',
      source: 'urn:a:b',
      time: '2026-11-01T00:00:00Z',
      events: [{ type: 'assay.tool_decision_surface.v0', data }],
    }).gz;
    const r = await runs({ 'b.tar.gz': gz, 'l.ndjson': ndjson([event('assay.tool_decision_surface.v0', data, 0)]) });
    const msgs = errors(r).map((f) => `${f.file}: ${f.message}`);
    expect(msgs).toEqual([
      expect.stringMatching(
        /^\.assay\/runs\/b\.tar\.gz: evidence bundle rejected: events\.ndjson line 1: event data has schema "assay\.tool_decision_surface\.v1": unsupported version/,
      ),
      expect.stringMatching(/^\.assay\/runs\/l\.ndjson: event data has schema "assay\.tool_decision_surface\.v1": unsupported version/),
    ]);
  });

  it.each([
    ['a BOM', '\uFEFF'],
    ['U+00A0', '\u00A0'],
    ['U+2028', '\u2028'],
  ])('an NDJSON line holding only %s is an error, not a blank line', async (_n, ch) => {
    const r = await runs({ 'r.ndjson': `${JSON.stringify(surface([addKey()]))}\n${ch}\n` });
    expect(errors(r)).toEqual([expect.objectContaining({ code: 'invalid_artifact', line: 2 })]);
  });

  it('lines of spaces and tabs (and a final CR) are blank', async () => {
    const r = await runs({ 'r.ndjson': `${JSON.stringify(surface([addKey()]))}\r\n \t \r\n\n` });
    expect(r.ok).toBe(true);
    expect(r.calls).toHaveLength(1);
  });
});

describe('§5: effect values, denied calls, the maximum matching', () => {
  it('decision.effect other than allow, deny or error is invalid_artifact', async () => {
    const d = addKey();
    (d['decision'] as Record<string, unknown>)['effect'] = 'Deny';
    const r = await runs({ 'r.json': json(surface([d])) });
    expect(errors(r)[0]).toMatchObject({ code: 'invalid_artifact', line: 4 });
    expect(errors(r)[0]!.message).toMatch(/decision\.effect must be \["allow","deny","error"\]/);
  });

  it('a denied read never confirms a write, even when it says success', () => {
    const r = verify(
      evidence({ 'r.json': [addKey({ claim: 'observed_confirmed' }), getKey({ effect: 'deny', status: 'success' })] }),
      OPTIONS,
    );
    expect(r.calls[0]!.level).toBe('asserted');
    expect(r.findings.map((f) => f.code)).toContain('observed_confirmed_not_reproduced');
  });

  it('within a pass, a call that names a provider is served before one that names none (a maximum matching)', () => {
    // The first call could take any record; the second only a github one. One github record, one gitlab.
    const any = addKey({ target: deployKey({ provider: null }) });
    const github = addKey();
    const r = verify(evidence({ 'r.json': [any, github] }, [record('github', 'g', addKey()), record('gitlab', 'l', addKey())]), OPTIONS);
    expect(r.calls.map((c) => c.record?.provider ?? null)).toEqual(['gitlab', 'github']);
    expect(r.ok).toBe(true);
  });
});

describe('§5: the same run, later in time (red team)', () => {
  const surfaceEvent = (d: ReturnType<typeof addKey>, seq: number, runId: string, time: string) => ({
    ...event('assay.tool_decision_surface.v0', surface([d]), seq, runId),
    assayrunid: runId,
    time,
  });

  it('a run file whose events name two runs (assayrunid) is refused at the first event of the second: a read of one run never confirms a write of the other', async () => {
    const r = await runs({
      'r.ndjson': ndjson([
        surfaceEvent(addKey({ claim: 'observed_confirmed' }), 0, 'run_a', '2026-11-12T09:00:01Z'),
        { ...event('assay.session.ended', {}, 1, 'run_a'), assayrunid: 'run_a' },
        surfaceEvent(getKey(), 0, 'run_b', '2026-11-12T09:00:05Z'),
      ]),
    });
    expect(r.runs).toEqual([]);
    expect(r.calls.filter((c) => c.level === 'observed_confirmed')).toEqual([]);
    expect(errors(r)).toEqual([
      expect.objectContaining({
        code: 'invalid_artifact',
        file: '.assay/runs/r.ndjson',
        line: 3,
        column: 1,
        message: expect.stringMatching(
          /^this event names run "run_b" \(assayrunid\), the file's first event \(line 1\) run "run_a" \(assayrunid\): a run file holds one run .*; commit each run as a file of its own \(the run is rejected and contributes no calls\)$/,
        ),
      }),
    ]);
  });

  // A red team's: Monday's and Wednesday's runs concatenated, named only by their CloudEvents ids (as the demo's events are), read as one run.
  it('a run file whose events name two runs only by their ids (<run>:<n>) is refused at the first event of the second', async () => {
    const byId = (d: ReturnType<typeof addKey>, seq: number, runId: string, time: string) => ({
      ...event('assay.tool_decision_surface.v0', surface([d]), seq, runId),
      time,
    });
    const r = await runs({
      'r.ndjson': ndjson([
        byId(addKey({ claim: 'observed_confirmed' }), 0, 'run_monday', '2026-11-02T10:00:00Z'),
        { ...event('assay.session.ended', {}, 1, 'run_monday'), time: '2026-11-02T10:00:05Z' },
        byId(getKey(), 0, 'run_wednesday', '2026-11-04T09:00:00Z'),
      ]),
    });
    expect(r.runs).toEqual([]);
    expect(r.calls.filter((c) => c.level === 'observed_confirmed')).toEqual([]);
    expect(errors(r)).toEqual([
      expect.objectContaining({
        code: 'invalid_artifact',
        file: '.assay/runs/r.ndjson',
        line: 3,
        column: 1,
        message: expect.stringMatching(
          /^this event names run "run_wednesday" \(its id "run_wednesday:0"\), the file's first event \(line 1\) run "run_monday" \(its id "run_monday:0"\): a run file holds one run .*; commit each run as a file of its own \(the run is rejected/,
        ),
      }),
    ]);
    // One run named by an assayrunid, the next only by its id: two runs too.
    const mixed = await runs({
      'r.ndjson': ndjson([
        { ...byId(addKey({ claim: 'observed_confirmed' }), 0, 'run_monday', '2026-11-02T10:00:00Z'), assayrunid: 'run_monday' },
        byId(getKey(), 0, 'run_wednesday', '2026-11-04T09:00:00Z'),
      ]),
    });
    expect(errors(mixed)).toEqual([
      expect.objectContaining({
        line: 2,
        message: expect.stringMatching(
          /^this event names run "run_wednesday" \(its id "run_wednesday:0"\), the file's first event \(line 1\) run "run_monday" \(assayrunid\)/,
        ),
      }),
    ]);
  });

  it('an event whose assayrunid and id name two runs is refused at it', async () => {
    const r = await runs({
      'r.ndjson': ndjson([
        { ...event('assay.tool_decision_surface.v0', surface([addKey({ claim: 'observed_confirmed' })]), 0, 'run_a'), assayrunid: 'run_a' },
        { ...event('assay.tool_decision_surface.v0', surface([getKey()]), 1, 'run_b'), assayrunid: 'run_a', time: '2026-11-12T09:00:05Z' },
      ]),
    });
    expect(r.runs).toEqual([]);
    expect(errors(r)).toEqual([
      expect.objectContaining({
        code: 'invalid_artifact',
        line: 2,
        column: 1,
        message: expect.stringMatching(
          /^this event's assayrunid names run "run_a" and its id "run_b:1" run "run_b": an event names one run \(its id is <assayrunid>:<sequence number>\); commit each run as a file of its own/,
        ),
      }),
    ]);
  });

  it('an id of another shape names no run: plain numbers, uuids, urns, a second colon, a sequence with a leading zero, a JSON-RPC id (one run, the later read confirms the write)', async () => {
    const ids = [
      '1',
      '2',
      '3f2c8a4e-9b1d-4c7e-8a2f-5d6e7f8a9b0c',
      'urn:uuid:0b7e41d2-c0a9-4f8e-9d6c-5b4a39281706',
      'a:b:3',
      'run_x:01',
      'x:',
      ':4',
      'evt:1a',
    ];
    for (const [i, other] of ids.entries()) {
      const r = await runs({
        'r.ndjson': ndjson([
          {
            ...event('assay.tool_decision_surface.v0', surface([addKey({ claim: 'observed_confirmed' })]), 0),
            id: ids[(i + 1) % ids.length],
          },
          { ...event('assay.session.ended', {}, 1), id: other },
          { ...event('assay.tool_decision_surface.v0', surface([getKey()]), 2), id: other, time: '2026-11-12T09:00:05Z' },
        ]),
      });
      expect(errors(r), other).toEqual([]);
      expect(
        r.calls.map((c) => c.level),
        other,
      ).toEqual(['observed_confirmed', null]);
    }
    // A JSON-RPC message mixed into a server log names no run either, whatever its id.
    const log = serverLog([['2026-11-12T09:00:00Z', addKey()]]).replace(
      /\n$/,
      `\n${JSON.stringify({ jsonrpc: '2.0', id: 'req:1', result: {} })}\n${JSON.stringify({ jsonrpc: '2.0', id: 'call:2', result: {} })}\n`,
    );
    expect(errors(await runs({ 'agent.log': log }))).toEqual([]);
  });

  it('events of one run (and events that name none) are one run: the later read confirms the write', async () => {
    const r = await runs({
      'r.ndjson': ndjson([
        surfaceEvent(addKey({ claim: 'observed_confirmed' }), 0, 'run_a', '2026-11-12T09:00:01Z'),
        { ...event('assay.session.ended', {}, 1, 'run_a') },
        surfaceEvent(getKey(), 2, 'run_a', '2026-11-12T09:00:05Z'),
      ]),
    });
    expect(r.calls.map((c) => c.level)).toEqual(['observed_confirmed', null]);
    expect(errors(r)).toEqual([]);
  });

  it('an assayrunid that is not a string is refused at its event', async () => {
    const r = await runs({ 'r.ndjson': ndjson([{ ...surfaceEvent(addKey(), 0, 'run_a', '2026-11-12T09:00:01Z'), assayrunid: 7 }]) });
    expect(errors(r)).toEqual([
      expect.objectContaining({ code: 'invalid_artifact', line: 1, message: expect.stringMatching(/assayrunid is number, not a string/) }),
    ]);
  });

  it('a read later in the file but at or before the write in time (an earlier event, or another event at the same time) confirms nothing, and says so; in one event, the order does', async () => {
    const earlier = await runs({
      'r.ndjson': ndjson([
        surfaceEvent(addKey({ claim: 'observed_confirmed' }), 0, 'run_a', '2026-11-12T09:00:05Z'),
        surfaceEvent(getKey(), 1, 'run_a', '2026-11-12T09:00:01Z'),
      ]),
    });
    expect(earlier.calls.map((c) => c.level)).toEqual(['asserted', null]);
    expect(earlier.findings.find((f) => f.code === 'observed_confirmed_not_reproduced')?.message).toMatch(
      /no later successful read of the same target in this run confirms it: the read at line 2 was decided at 2026-11-12T09:00:01Z, not after this call \(2026-11-12T09:00:05Z\)$/,
    );
    const same = await runs({
      'r.ndjson': ndjson([
        surfaceEvent(addKey({ claim: 'observed_confirmed' }), 0, 'run_a', '2026-11-12T09:00:05Z'),
        surfaceEvent(getKey(), 1, 'run_a', '2026-11-12T09:00:05Z'),
      ]),
    });
    expect(same.calls.map((c) => c.level)).toEqual(['asserted', null]);
    // Decisions of one event share its time, which orders neither: the later one in it confirms.
    const one = await runs({
      'r.ndjson': ndjson([{ ...event('assay.tool_decision_surface.v0', surface([addKey(), getKey()]), 0, 'run_a'), assayrunid: 'run_a' }]),
    });
    expect(one.calls.map((c) => c.level)).toEqual(['observed_confirmed', null]);
    const reversed = await runs({
      'r.ndjson': ndjson([{ ...event('assay.tool_decision_surface.v0', surface([getKey(), addKey()]), 0, 'run_a'), assayrunid: 'run_a' }]),
    });
    expect(reversed.calls.map((c) => c.level)).toEqual([null, 'asserted']);
  });
});

describe('§2: a subject number JSON.parse rounded (a red team: a record for one target bound another)', () => {
  const BIG = '12345678901234567890';
  const NEAR = '12345678901234567891'; // another issue: both read as 12345678901234567000
  const target = (n: number) => ({ provider: 'github', owner: 'o', repo: 'r', number: n });
  /** The digest an attacker computes of the rounded subject (what both texts bind to). */
  const rounded = sha256Digest(
    canonicalize({ action_class: 'github_issue', target: { owner: 'o', repo: 'r', number: Number(BIG) }, verb: 'create' }) as string,
  );
  const issue = (n: number, digest?: string) =>
    decision({
      tool: 'github.create_issue',
      verb: 'create',
      resourceType: 'github_issue',
      target: target(n),
      claim: 'verified',
      ...(digest ? { digest } : {}),
    });
  const recordText = (digits: string) =>
    json({
      schema: 'assay.provider_audit_record.v0',
      provider: 'github',
      record_id: 'github-audit:1',
      subject: { action_class: 'github_issue', verb: 'create', target: { owner: 'o', repo: 'r', number: 7 } },
      binding_digest: rounded,
    }).replace('"number": 7', `"number": ${digits}`);

  it('a run whose subject holds one is refused at the number (file, line, column); a record whose subject holds one is refused, never bound', async () => {
    const runText = json(surface([issue(7, rounded)])).replace('"number": 7', `"number": ${BIG}`);
    const r = await runs({ 'r.json': runText }, { 'a.json': recordText(NEAR) });
    expect(r.calls.filter((c) => c.level === 'verified')).toEqual([]);
    expect(r.ok).toBe(false);
    const lines = runText.split('\n');
    const line = lines.findIndex((l) => l.includes(BIG));
    const run = errors(r).find((f) => f.file === '.assay/runs/r.json');
    expect(run).toMatchObject({
      code: 'invalid_artifact',
      line: line + 1,
      column: lines[line]!.indexOf(BIG) + 1,
      message: expect.stringMatching(
        /^decision 0: action\.target\.number is an integer beyond ±\(2\^53−1\) \(read as 12345678901234567000\): .* \(the run is rejected and contributes no calls\)$/,
      ),
    });
    expect(errors(r).find((f) => f.file === '.assay/audit/a.json')).toMatchObject({
      code: 'record_inconsistent',
      message: expect.stringMatching(/subject cannot be canonicalized: target\.number is an integer beyond ±\(2\^53−1\)/),
    });
    expect(r.records.map((x) => x.outcome)).toEqual(['inconsistent']);
  });

  it('in an evidence event and in a server log too: at the number, and at the decision in the log line', async () => {
    const e = JSON.stringify(event('assay.tool_decision_surface.v0', surface([issue(7, rounded)]), 0)).replace(
      '"number":7',
      `"number":${BIG}`,
    );
    const r = await runs({ 'r.ndjson': `\n${e}\n` });
    expect(errors(r)).toEqual([
      expect.objectContaining({
        code: 'invalid_artifact',
        line: 2,
        column: e.indexOf(BIG) + 1,
        message: expect.stringMatching(/action\.target\.number is an integer beyond/),
      }),
    ]);
    const log = serverLog([['2026-11-30T10:00:01Z', issue(7, rounded)]]).replace('\\"number\\":7', `\\"number\\":${BIG}`);
    expect(log).toContain(BIG);
    const l = await runs({ 'r.log': log });
    expect(errors(l)).toEqual([
      expect.objectContaining({
        code: 'invalid_artifact',
        line: 3,
        message: expect.stringMatching(/^decision 0 \(tool_decision r-000001\): action\.target\.number is an integer beyond/),
      }),
    ]);
  });

  it('an integer within ±(2^53−1) binds as before, end to end; a big number outside the bound fields is no concern', async () => {
    const max = Number.MAX_SAFE_INTEGER;
    const d = issue(max);
    (d['action'] as { target: Record<string, unknown> }).target['request_id'] = 7;
    const text = json(surface([d])).replace('"request_id": 7', `"request_id": ${BIG}`);
    const r = await runs({ 'r.json': text }, { 'a.json': json(record('github', 'github-audit:1', issue(max))) });
    expect(r.calls.map((c) => c.level)).toEqual(['verified']);
    expect(errors(r)).toEqual([]);
  });
});

describe('bounded output', () => {
  it('5 000 identical calls and 2 500 records for their subject: passes, with short reasons and a linear report', () => {
    const calls = Array.from({ length: 5000 }, () => addKey());
    const recs = Array.from({ length: 2500 }, (_, i) => record('github', `r${i}`, addKey()));
    const r = verify(evidence({ 'r.json': calls }, recs), OPTIONS);
    expect(r.ok).toBe(true);
    expect(r.totals).toMatchObject({ verified: 2500, asserted: 2500 });
    const longest = Math.max(...r.calls.map((c) => c.reason.length));
    expect(longest).toBeLessThan(1200);
    expect(r.calls.at(-1)!.reason).toMatch(/… and 2497 more record\(s\) for this subject, all already verify other calls/);
    expect(renderJson(r).length).toBeLessThan(5000 * 1500);
  });

  it('a record whose provider is 1 MB long is quoted clipped, however many reasons name it', () => {
    const huge = 'p'.repeat(1 << 20);
    const calls = Array.from({ length: 400 }, () => addKey());
    const r = verify(evidence({ 'r.json': calls }, [record(huge, 'x', addKey())]), OPTIONS);
    for (const c of r.calls) expect(c.reason.length).toBeLessThan(1000);
    for (const f of r.findings) expect(f.message.length).toBeLessThan(1000);
  });

  it('a tool name clipped inside a surrogate pair never makes the report break strict JSON', () => {
    const name = `${'a'.repeat(199)}😀${'b'.repeat(10)}`;
    const r = verify(evidence({ 'r.json': [addKey({ tool: name, claim: 'verified' })] }), OPTIONS);
    const text = renderJson(r);
    expect(parseStrict(text, { maxDepth: 64 }).ok).toBe(true);
    expect(r.findings[0]!.message).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});

describe('bounded memory: decisions per run', () => {
  const tiny = { response: { side_effect_asserted: true } };
  const limit = DEFAULT_LIMITS.maxDecisions;

  it(`a run with more than ${limit} decisions is one located invalid_artifact, and contributes nothing`, async () => {
    const per = 30_000;
    const lines = Array.from({ length: 4 }, () => JSON.stringify(surface(Array.from({ length: per }, () => tiny))));
    const r = await runs({ 'r.ndjson': lines.join('\n') });
    expect(r.calls).toEqual([]);
    expect(errors(r)).toEqual([expect.objectContaining({ code: 'invalid_artifact', file: '.assay/runs/r.ndjson', line: 4 })]);
    expect(errors(r)[0]!.message).toMatch(new RegExp(`more than ${limit} decisions`));
  });

  it('so is a bundle whose events hold more', async () => {
    // Distinct tool names keep the bundle under the 200:1 decompression ratio.
    const name = (i: number) => createHash('sha256').update(String(i)).digest('hex').slice(0, 12);
    const events = Array.from({ length: 9 }, (_, e) => ({
      type: 'assay.tool_decision_surface.v0',
      data: surface(
        Array.from({ length: 12_000 }, (_, i) => ({ tool: { name: name(e * 12_000 + i) }, response: { side_effect_asserted: true } })),
      ),
    }));
    const gz = buildBundle({ runId: 'r', source: 'urn:a:b', time: '2026-11-01T00:00:00Z', events }).gz;
    const r = await runs({ 'b.tar.gz': gz });
    expect(errors(r)[0]!.message).toMatch(/^evidence bundle rejected: events\.ndjson line 9: the run holds more than 100000 decisions/);
  });
});

describe('special files', () => {
  it.skipIf(process.platform === 'win32')(
    'a symbolic link to a FIFO is "not a regular file", never "a link to a directory"; a FIFO named like an artifact is reported',
    async () => {
      const dir = tempDir();
      writeFiles(dir, { '.assay/runs/ok.json': json(surface([addKey()])) });
      mkdirSync(path.join(dir, 'pipes'));
      execFileSync('mkfifo', [path.join(dir, 'pipes/p')]);
      execFileSync('mkfifo', [path.join(dir, '.assay/runs/pipe.ndjson')]);
      symlinkSync(path.join(dir, 'pipes/p'), path.join(dir, '.assay/runs/link.json'));
      const r = await gate(dir);
      const msgs = errors(r).map((f) => `${f.file}: ${f.message}`);
      expect(msgs).toEqual([
        '.assay/runs/link.json: symbolic link to something that is not a regular file (a FIFO); not read',
        '.assay/runs/pipe.ndjson: not a regular file (a FIFO); not read',
      ]);
      expect(r.calls).toHaveLength(1);
    },
  );

  it.skipIf(process.platform === 'win32')(
    'an attestation beside its artifact that is a broken link, a link out or a FIFO is refused once (§6: one fact, one finding)',
    async () => {
      const dir = tempDir();
      const outside = writeFiles(tempDir(), { 'x.sigstore.json': '{}', 'x.intoto.jsonl': '' });
      const events = [{ type: 'assay.tool_decision_surface.v0', data: surface([addKey()]) }];
      const gz = buildBundle({ runId: 'r', source: 'urn:a:b', time: '2026-11-01T00:00:00Z', events }).gz;
      writeFiles(dir, {
        '.assay/runs/a.json': json(surface([addKey()])),
        '.assay/runs/b.json': json(surface([addKey()])),
        '.assay/runs/c.json': json(surface([addKey()])),
        '.assay/runs/d.tar.gz': gz,
        '.assay/runs/e.tar.gz': gz,
      });
      const runsDir = path.join(dir, '.assay/runs');
      symlinkSync('nowhere', path.join(runsDir, 'a.json.sigstore.json'));
      symlinkSync(path.join(outside, 'x.sigstore.json'), path.join(runsDir, 'b.json.sigstore.json'));
      execFileSync('mkfifo', [path.join(runsDir, 'c.json.sigstore.json')]);
      symlinkSync('nowhere', path.join(runsDir, 'd.tar.gz.intoto.jsonl'));
      symlinkSync(path.join(outside, 'x.intoto.jsonl'), path.join(runsDir, 'e.tar.gz.intoto.jsonl'));
      const r = await gate(dir);
      expect(r.findings.filter((f) => f.code === 'invalid_artifact').map((f) => `${f.file}: ${f.message}`)).toEqual([
        '.assay/runs/a.json.sigstore.json: the Sigstore bundle is a broken symbolic link',
        '.assay/runs/b.json.sigstore.json: the Sigstore bundle is a symbolic link that points outside the workspace; not followed',
        '.assay/runs/c.json.sigstore.json: the Sigstore bundle is not a regular file; not read',
        '.assay/runs/d.tar.gz.intoto.jsonl: the attestation sidecar is a broken symbolic link',
        '.assay/runs/e.tar.gz.intoto.jsonl: the attestation sidecar is a symbolic link that points outside the workspace; not followed',
      ]);
      // Named explicitly, the artifacts alone are walked: the attestations beside them are refused by their reader, once each.
      const named = await gate(dir, { runs: ['.assay/runs/a.json', '.assay/runs/d.tar.gz'], explicit: { runs: true, audit: false } });
      expect(named.findings.filter((f) => f.code === 'invalid_artifact').map((f) => `${f.file}: ${f.message}`)).toEqual([
        '.assay/runs/a.json.sigstore.json: the Sigstore bundle is a broken symbolic link',
        '.assay/runs/d.tar.gz.intoto.jsonl: the attestation sidecar is a broken symbolic link',
      ]);
    },
  );
});

void decision;
