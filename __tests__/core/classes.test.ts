/**
 * The one class table (core/classes.ts) and the GitHub rows of docs/producers-and-providers.md §2:
 * bound on the ids GitHub gives (numbers, shas, refs), hashed fields in their own domains; the
 * projection, the policy checks and coverage all read the table.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLASSES, KNOWN_CLASSES } from '../../src/core/classes.js';
import { project } from '../../src/core/projection.js';
import type { Report } from '../../src/core/report.js';
import { loadYamlParser } from '../../src/read/strict-yaml.js';
import { decision, json, record, surface, targetHash } from '../support/corpus.js';
import { cleanup, cli, tempDir, writeFiles } from '../support/workspace.js';

beforeAll(loadYamlParser);
afterEach(cleanup);

const call = (resourceType: string, verb: string, target: Record<string, unknown>) =>
  decision({ tool: `github.${resourceType}`, verb, resourceType, target: { provider: 'github', ...target } });

async function verify(files: Record<string, string>): Promise<{ code: number; report: Report; stderr: string }> {
  const dir = writeFiles(tempDir(), files);
  const r = await cli(['verify', '-C', dir, '--format', 'json', '--now', '2026-12-01T12:00:00Z'], dir);
  return { code: r.code ?? -1, report: r.code === 2 ? (JSON.parse('{}') as Report) : (JSON.parse(r.stdout) as Report), stderr: r.stderr };
}

describe('the GitHub rows', () => {
  it('each class binds owner, repo and its own fields, in the table’s order, and nothing else of the target', () => {
    expect(KNOWN_CLASSES).toEqual(
      expect.arrayContaining([
        'github_issue',
        'github_issue_comment',
        'github_pull_request',
        'github_branch_push',
        'github_label',
        'github_repo_member',
      ]),
    );
    const p = project(call('github_issue', 'create', { owner: 'acme', repo: 'api', number: 42, title: 'not bound' }));
    expect(p.kind).toBe('subject');
    if (p.kind !== 'subject') return;
    expect(p.subject).toEqual({ action_class: 'github_issue', verb: 'create', target: { owner: 'acme', repo: 'api', number: 42 } });
    expect(CLASSES.get('github_branch_push')?.fields).toEqual(['owner', 'repo', 'ref', 'after']);
    expect(CLASSES.get('github_label')?.hashed.get('label')).toEqual({ field: 'label_hash', domain: 'github_label' });
  });

  it('an issue the agent opened is verified by the record of that issue, and not by another issue’s', async () => {
    const opened = call('github_issue', 'create', { owner: 'acme', repo: 'api', number: 42 });
    const other = call('github_issue', 'create', { owner: 'acme', repo: 'api', number: 43 });
    const r = await verify({ '.assay/runs/a.json': json(surface([opened])), '.assay/audit/a.json': json(record('github', 'd1', opened)) });
    expect(r.report.calls[0]?.level).toBe('verified');
    const wrong = await verify({
      '.assay/runs/a.json': json(surface([opened])),
      '.assay/audit/a.json': json(record('github', 'd1', other)),
    });
    expect(wrong.report.calls[0]?.level).toBe('asserted');
    expect(wrong.report.findings.find((f) => f.code === 'record_unmatched')?.message).toMatch(/differs in number/);
  });

  it('a policy rule names the new fields: a label by its raw name (hashed as the agent hashes it), a repository by a glob; a misspelt class is named', async () => {
    const labelled = call('github_label', 'add', {
      owner: 'acme',
      repo: 'prod-api',
      number: 7,
      label_hash: targetHash('github_label', 'Deploy-Approved'),
    });
    const policy = `version: 1\nrules:\n  - name: approvals\n    match:\n      class: github_label\n      target:\n        repo: [prod-*]\n        label: [deploy-approved]\n    require: verified\n`;
    const r = await verify({ '.assay/runs/a.json': json(surface([labelled])), '.github/receipt-gate.yml': policy });
    expect(r.report.calls[0]).toMatchObject({ rule: 'approvals', required_level: 'verified' });
    expect(r.report.totals.policy_unmet).toBe(1);
    const typo = await verify({
      '.assay/runs/a.json': json(surface([labelled])),
      '.github/receipt-gate.yml': policy.replace('class: github_label', 'class: github_lable'),
    });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/did you mean "github_label"/);
  });
});
