/** Reporters as pure functions: rendered outputs for a known report, and GitHub's limits. */

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/run.js';
import type { Report } from '../../src/core/report.js';
import { buildAnnotations } from '../../src/report/annotations.js';
import type { GitHubApi } from '../../src/report/check-run.js';
import { publishCheckRun } from '../../src/report/check-run.js';
import { CHECKS_API } from '../../src/report/github-limits.js';
import { renderSarif } from '../../src/report/sarif.js';
import { md, renderSummary } from '../../src/report/summary.js';
import { renderTable } from '../../src/report/table.js';
import { clipBytes, visible } from '../../src/report/text.js';
import { gate, ROOT, stdoutText, TEST_NOW } from '../support/workspace.js';

const demo = (): Promise<Report> => gate(path.join(ROOT, 'fixtures/demo-failing'));

describe('text safety', () => {
  it('escapes control and bidi characters, and clips on a character boundary with a marker', () => {
    expect(visible('a\nb\u001b[31m\u202e')).toBe('a\\u000ab\\u001b[31m\\u202e');
    const clipped = clipBytes('é'.repeat(100), 50);
    expect(Buffer.byteLength(clipped)).toBeLessThanOrEqual(50);
    expect(clipped).toMatch(/^é+ … \[trimmed by receipt-gate\]$/);
    expect(md('[x](http://e) @team `c` <b>|')).not.toMatch(/[[\]()@`<>|]/);
    // GitHub's extended autolinks: a bare URL, an e-mail address and a www. name never become links.
    expect(md('see https://evil.example, ops@evil.example or WWW.evil.example')).not.toMatch(/https?:|@|www\./i);
    expect(md('www.a.b')).toBe('www&#46;a.b');
  });
});

describe('check run payloads', () => {
  it('trims titles, messages and the summary to the API limits', async () => {
    const bodies: any[] = [];
    const api: GitHubApi = {
      request: async (_m, _p, body) => {
        bodies.push(body);
        return { status: 201, data: { id: 1 } };
      },
    };
    const big = 'x'.repeat(200 * 1024);
    const r = await publishCheckRun(
      api,
      { owner: 'o', repo: 'r', headSha: 'a'.repeat(40), name: 'n', checkRunId: null, conclusion: 'success', completedAt: new Date(0) },
      { title: 't'.repeat(1000), summary: big },
      [{ path: 'f.json', line: 1, column: null, level: 'notice', title: 'T'.repeat(1000), message: big }],
    );
    expect(r.ok).toBe(true);
    const out = bodies[0].output;
    expect(out.title.length).toBeLessThanOrEqual(CHECKS_API.title);
    expect(Buffer.byteLength(out.summary)).toBeLessThanOrEqual(CHECKS_API.summaryBytes);
    expect(out.summary).toMatch(/trimmed by receipt-gate\]$/);
    expect(out.annotations[0].title.length).toBeLessThanOrEqual(255);
    expect(Buffer.byteLength(out.annotations[0].message)).toBeLessThanOrEqual(64 * 1024);
  });
});

describe('rendered outputs for the failing demo', () => {
  it('annotations: one per call, failures first, reasons included', async () => {
    const anns = buildAnnotations(await demo(), 'fixtures/demo-failing');
    expect(anns.map((a) => [a.level, a.path, a.line, a.title])).toEqual([
      ['failure', 'fixtures/demo-failing/.assay/audit/github/2026-11.json', 2, 'record_inconsistent'],
      ['failure', 'fixtures/demo-failing/.assay/runs/2026-11-25-incident.json', 4, 'asserted (claimed verified) · github.add_deploy_key'],
      ['failure', 'fixtures/demo-failing/.assay/runs/2026-11-25-incident.json', 49, 'asserted (claimed verified) · workspace.grant_admin'],
      ['notice', 'fixtures/demo-failing/.assay/runs/2026-11-25-incident.json', 93, 'asserted · slack.add_member'],
    ]);
    // The claim's finding says why verified was not reached; the level's own reason is not repeated,
    // and nothing about confirming reads (which concern no verified claim) is said.
    expect(anns[1]!.message).toMatch(
      /^Earned level: asserted; claimed: verified; tool: github\.add_deploy_key\.\nverified_not_reproduced: [^\n]+$/,
    );
    expect(anns[1]!.message).not.toMatch(/later successful read/);
    expect(anns.find((a) => a.title.startsWith('asserted · slack'))!.message).toMatch(/\nWhy: /);
  });

  it('summary: banner, totals, findings before calls, links at the head commit', async () => {
    const { markdown, trimmed } = renderSummary(await demo(), {
      prefix: '',
      blobBase: 'https://github.com/o/r/blob/abc',
      reportFile: null,
      budgetBytes: 1 << 20,
    });
    expect(trimmed).toBe(0);
    expect(markdown.startsWith('## ❌ receipt-gate: failed · weakest rung: asserted\n')).toBe(true);
    expect(markdown.indexOf('### Findings')).toBeLessThan(markdown.indexOf('### Calls'));
    expect(markdown).toContain(
      '| ❌ ⚪ asserted | verified | github.add&#95;deploy&#95;key | [.assay/runs/2026-11-25-incident.json&#58;4](https://github.com/o/r/blob/abc/.assay/runs/2026-11-25-incident.json#L4) |',
    );
    // failing rows carry the marker and come first; the call with no failure comes last, unmarked
    expect(markdown).toMatch(/\| ⚪ asserted \| asserted \| slack\.add&#95;member \| [^\n]+\|\n\n?$/);
  });

  it('summary: the totals’ lists are cut at the budget as the rows are, what failed first (a red team: 12 000 coverage scopes made 1.5 MB)', async () => {
    const report = await demo();
    const statement = (i: number) => ({
      file: '.assay/audit/s.ndjson',
      line: i + 1,
      column: 1,
      provider: 'github',
      export: 'audit-log',
      actors: null,
      repos: [`repo-${i}`],
      owner: 'acme',
      actions: ['github_deploy_key:create'],
      since: '2026-11-01T00:00:00Z',
      until: '2026-11-02T00:00:00Z',
      usable: true,
      untrusted_code: null,
    });
    const big = { ...report, coverage: Array.from({ length: 12_000 }, (_, i) => statement(i)) } as unknown as Report;
    const budget = 1 << 20;
    const { markdown, trimmed } = renderSummary(big, { prefix: '', blobBase: null, reportFile: 'report.json', budgetBytes: budget });
    expect(Buffer.byteLength(markdown)).toBeLessThanOrEqual(budget);
    expect(trimmed).toBeGreaterThan(0);
    expect(markdown.indexOf('### What failed')).toBeGreaterThan(0);
    expect(markdown).toMatch(/> Summary trimmed: \d+ more row\(s\) not shown/);
  });

  it('table: colour only when asked, NO_COLOR respected by the CLI', async () => {
    const report = await demo();
    expect(renderTable(report, { color: true })).toContain('\u001b[');
    expect(renderTable(report, { color: false })).not.toContain('\u001b[');
    const tty = await main(['verify', '-C', 'fixtures/demo-failing'], {}, true, ROOT);
    expect(tty.stdout).toContain('\u001b[');
    const noColor = await main(['verify', '-C', 'fixtures/demo-failing'], { NO_COLOR: '1' }, true, ROOT);
    expect(noColor.stdout).not.toContain('\u001b[');
    expect(noColor.stdout).toMatch(/^ {2}LEVEL/);
  });

  it('SARIF: one rule per code, results with repo-relative locations', async () => {
    const sarif = JSON.parse(renderSarif(await demo(), 'x', '0.1.0'));
    expect(sarif.runs[0].tool.driver.rules.map((r: any) => r.id)).toEqual(['record_inconsistent', 'verified_not_reproduced']);
    expect(
      sarif.runs[0].results.map((r: any) => [
        r.ruleId,
        r.level,
        r.locations[0].physicalLocation.artifactLocation.uri,
        r.locations[0].physicalLocation.region.startLine,
      ]),
    ).toEqual([
      ['record_inconsistent', 'error', 'x/.assay/audit/github/2026-11.json', 2],
      ['verified_not_reproduced', 'error', 'x/.assay/runs/2026-11-25-incident.json', 4],
      ['verified_not_reproduced', 'error', 'x/.assay/runs/2026-11-25-incident.json', 49],
    ]);
  });

  it('the report does not depend on the order inputs are given in', async () => {
    const a = await main(
      [
        'verify',
        '--format',
        'json',
        '--runs',
        'side_effect',
        '--runs',
        'tool_decisions',
        '--audit',
        'side_effect/audit_record_github_deploy_key.json',
      ],
      {},
      false,
      path.join(ROOT, 'fixtures/upstream'),
      TEST_NOW,
    );
    const b = await main(
      [
        'verify',
        '--format',
        'json',
        '--runs',
        'tool_decisions',
        '--runs',
        'side_effect',
        '--audit',
        'side_effect/audit_record_github_deploy_key.json',
      ],
      {},
      false,
      path.join(ROOT, 'fixtures/upstream'),
      TEST_NOW,
    );
    expect(stdoutText(b.stdout)).toBe(stdoutText(a.stdout));
  });
});
