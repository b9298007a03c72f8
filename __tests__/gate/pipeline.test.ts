/**
 * A pipeline a team runs every day (issue 40; docs/policy.md §12): the agent's run and the export
 * that verifies it arrive by separate pull requests, in either order. A record that binds no call
 * waits for its run (`record_pending`) while its export is younger than the policy's `pending`; then
 * it is `record_unmatched`, saying a run may be missing rather than a hash.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.js';
import { addKey, coverageStatement, deployKey, ndjson, record, serverLog } from '../support/corpus.js';
import { cleanup, cli, tempDir, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

const POLICY = '.github/receipt-gate.yml';
const ENFORCE = `version: 1
default: asserted
pending: 2d
rules:
  - name: prod-deploy-keys
    match: {class: github_deploy_key, verb: create, target: {repo: [prod-*]}}
    require: verified
`;
const call = addKey({ target: deployKey({ owner: 'acme', repo: 'prod-api', title: 'deploy-1' }) });
const RUN = { '.assay/runs/2026-11-30-agent.log': serverLog([['2026-11-30T10:00:00Z', call]]) };
const EXPORT = {
  '.assay/audit/github/2026-11-30.ndjson': ndjson([
    coverageStatement('2026-11-30', '2026-12-01', { owner: 'acme', records: 1 }),
    record('github', 'github-audit:a1', call),
  ]),
};

/** The repository's history: an earlier run, verified by an earlier export. */
const earlier = addKey({ target: deployKey({ owner: 'acme', repo: 'prod-api', title: 'deploy-0' }) });
const HISTORY = {
  '.assay/runs/2026-11-20-agent.log': serverLog([['2026-11-20T10:00:00Z', earlier]]),
  '.assay/audit/github/2026-11-20.ndjson': ndjson([record('github', 'github-audit:a0', earlier)]),
};

async function gate(files: Record<string, string>, now: string, policy = ENFORCE): Promise<{ code: number; report: Report }> {
  const dir = writeFiles(tempDir(), { ...HISTORY, ...files, [POLICY]: policy });
  const r = await cli(['verify', '-C', dir, '--format', 'json', '--now', now], dir);
  return { code: r.code ?? -1, report: JSON.parse(r.stdout) as Report };
}
/** The findings but the notices every server log and the history's uncovered call earn. */
const codes = (r: Report) =>
  r.findings.filter((f) => f.code !== 'skipped_object' && !f.file?.includes('2026-11-20')).map((f) => `${f.severity} ${f.code}`);

describe('records wait for their run (docs/policy.md §12)', () => {
  it('a policy that adds pending turns a record from failing to waiting: a change of records, named as a loosening (a red team: "no call changes verdict")', async () => {
    const dir = writeFiles(tempDir(), { ...HISTORY, ...EXPORT, [POLICY]: ENFORCE, 'strict.yml': ENFORCE.replace('pending: 2d\n', '') });
    const r = await cli(['policy', 'check', '-C', dir, '--now', '2026-12-01T03:00:00Z', '--against', 'strict.yml'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/against strict\.yml: 1 record\(s\): under strict\.yml: record_unmatched; under this file: passes/);
    const { loosens, changes } = await import('../../src/core/effect.js');
    const strict = await gate(EXPORT, '2026-12-01T03:00:00Z', ENFORCE.replace('pending: 2d\n', ''));
    const waiting = await gate(EXPORT, '2026-12-01T03:00:00Z');
    expect(loosens(changes(strict.report, waiting.report))).toBe(true);
    expect(loosens(changes(waiting.report, strict.report))).toBe(false);
  });

  it('the export pull request first: its record binds no call yet, record_pending (a notice, counted), and the gate passes', async () => {
    const r = await gate(EXPORT, '2026-12-01T03:00:00Z');
    expect(r.code).toBe(0);
    expect(codes(r.report)).toEqual(['notice record_pending']);
    expect(r.report.records.find((x) => x.record_id === 'github-audit:a1')?.outcome).toBe('awaiting_run');
    expect(r.report.totals).toMatchObject({ awaiting_run: 1, unmatched: 0 });
    expect(r.report.findings.find((f) => f.code === 'record_pending')?.message).toMatch(
      /waits until 2026-12-03T00:00:00Z, then it is record_unmatched/,
    );
  });

  it('the agent’s pull request first: its call is pending, and the gate passes; with both merged the call is verified', async () => {
    const run = await gate(RUN, '2026-11-30T12:00:00Z');
    expect(run.code).toBe(0);
    expect(codes(run.report)).toEqual(['notice pending']);
    const both = await gate({ ...RUN, ...EXPORT }, '2026-12-01T03:00:00Z');
    expect(both.code).toBe(0);
    expect(both.report.calls.find((c) => c.artifact.includes('2026-11-30'))?.level).toBe('verified');
    expect(both.report.totals.awaiting_run).toBe(0);
  });

  it('once pending has run out, a record whose run never came is record_unmatched, and says a run may be missing rather than a hash', async () => {
    const r = await gate(EXPORT, '2026-12-03T00:00:01Z');
    expect(r.code).toBe(1);
    expect(codes(r.report)).toEqual(['error record_unmatched']);
    expect(r.report.findings.find((f) => f.code === 'record_unmatched')?.message).toMatch(
      /No committed run holds this call: was the agent's run merged\?/,
    );
  });

  it('without pending nothing waits (the deadlock the README’s policy now avoids): the export pull request fails at once', async () => {
    const r = await gate(EXPORT, '2026-12-01T03:00:00Z', ENFORCE.replace('pending: 2d\n', ''));
    expect(codes(r.report)).toEqual(['error record_unmatched']);
  });

  it('a record waits only on a statement of its own file, provider and action; one from another export does not make it wait', async () => {
    const elsewhere = {
      '.assay/audit/github/records.ndjson': ndjson([record('github', 'github-audit:a1', call)]),
      '.assay/audit/github/statement.ndjson': ndjson([coverageStatement('2026-11-30', '2026-12-01', { owner: 'acme' })]),
    };
    const r = await gate(elsewhere, '2026-12-01T03:00:00Z');
    expect(codes(r.report)).toEqual(['error record_unmatched']);
  });
});
