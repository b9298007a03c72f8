/**
 * The policy roll-out of examples/policy/, run: weeks of runs that only reached `asserted`; stage 1
 * merges examples/policy/warn.yml (nothing fails, the shortfalls are counted); stage 2 runs the
 * steps of examples/policy-baseline.yml exactly as committed (`gh` recorded), whose pull request
 * grandfathers the history and passes under the base's policy; stage 3 turns warn into enforce:
 * the history passes, a new production key below `verified` fails, a development one does not, and
 * a grandfathered run edited afterwards is judged in full.
 */

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.js';
import { addKey, deployKey, json, record, surface } from '../support/corpus.js';
import { commitAll, git, merge, receiptGate, runSteps, stepsOf, type World, world } from '../support/recipe.js';
import { cleanup, ROOT } from '../support/workspace.js';

afterAll(cleanup);

const POLICY = '.github/receipt-gate.yml';
const key = (repo: string, title: string, claim: 'asserted' | 'verified' = 'asserted') =>
  addKey({ target: deployKey({ owner: 'acme', repo, title }), claim });
const steps = stepsOf('examples/policy-baseline.yml', 'baseline');
const REASON = 'recorded before the nightly audit export existed';

/** The gate on the checkout (as the action runs it on main), its report. */
function gate(w: World, ...extra: string[]): { code: number | null; report: Report } {
  const r = receiptGate(['verify', '-C', w.repo, '--format', 'json', ...extra], w.repo);
  expect(r.stdout, r.stderr).not.toBe('');
  return { code: r.code, report: JSON.parse(r.stdout) as Report };
}
const write = (w: World, files: Record<string, string>) => {
  for (const [name, text] of Object.entries(files)) {
    const abs = path.join(w.repo, name);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }
};

describe.skipIf(process.platform !== 'linux')('examples/policy/: warn, baseline, enforce', () => {
  const w = world();
  // The history: two runs with production keys (asserted only), one with a development key.
  for (const [name, calls] of [
    ['2026-10-01.json', [key('prod-api', 'ci-1'), key('dev-api', 'ci-2')]],
    ['2026-10-15.json', [key('PROD-web', 'ci-3')]],
    ['2026-10-20.json', [key('dev-web', 'ci-4')]],
  ] as const)
    write(w, { [`.assay/runs/${name}`]: json(surface([...calls])) });
  commitAll(w.repo, 'runs');

  it('stage 1, warn: the shortfalls on production keys are warnings counted as "would fail under enforce"; development keys are not ruled', () => {
    write(w, { [POLICY]: readFileSync(path.join(ROOT, 'examples/policy/warn.yml'), 'utf8') });
    commitAll(w.repo, 'receipt-gate policy, warn mode');
    const { code, report } = gate(w);
    expect(code, JSON.stringify(report.findings)).toBe(0);
    expect(report.totals).toMatchObject({ policy_unmet: 0, policy_warned: 2 });
    expect(report.calls.filter((c) => c.rule === 'prod-deploy-keys').map((c) => c.artifact)).toEqual([
      '.assay/runs/2026-10-01.json',
      '.assay/runs/2026-10-15.json',
    ]);
    expect(report.findings.filter((f) => f.code === 'policy_unmet').map((f) => f.severity)).toEqual(['warning', 'warning']);
    const table = receiptGate(['verify', '-C', w.repo, '--format', 'table'], w.repo);
    expect(table.stdout).toMatch(/2 would fail under enforce/);
  });

  it('stage 2, the baseline workflow: grandfathers the two runs below the rule, keeps the comments, opens the pull request', () => {
    runSteps(w, steps, { 'inputs.reason': REASON, 'steps.app.outputs.token': 'app-installation-token' });
    const written = git(w.repo, 'show', `receipt-gate/baseline:${POLICY}`);
    // Comments and order kept; one entry per run below the rule, pinned by the bytes of the file.
    expect(written.startsWith('# Stage 1 of 3 — warn.')).toBe(true);
    const sha = (run: string) =>
      createHash('sha256')
        .update(readFileSync(path.join(w.repo, run)))
        .digest('hex');
    for (const run of ['.assay/runs/2026-10-01.json', '.assay/runs/2026-10-15.json'])
      expect(written).toContain(`- run: ${run}\n    sha256: ${sha(run)}\n    reason: ${REASON}`);
    expect(written).not.toContain('2026-10-20.json');
    const log = readFileSync(w.ghLog, 'utf8');
    expect(log).toMatch(
      /^pr create --head receipt-gate\/baseline --title receipt-gate: grandfather the history before enforcing --body-file /m,
    );
    const body = readFileSync(path.join(w.temp, 'body.md'), 'utf8');
    expect(body).toMatch(/prod-deploy-keys: 0 call\(s\), 0 met, 0 unmet, 0 warned/);
    expect(body).toMatch(/3 call\(s\) grandfathered/);
    expect(body).not.toMatch(/rule_unused/);
    // The pull request is judged under the base's policy (main's warn file): it passes.
    const pr = gate(w, '--policy-ref', 'main');
    expect(pr.code).toBe(0);
    expect(pr.report.policy.source).toMatchObject({ commit: git(w.repo, 'rev-parse', 'main') });
    merge(w, 'receipt-gate/baseline');
  });

  it('a second baseline with nothing below the rule opens no pull request', () => {
    writeFileSync(w.ghLog, '');
    const run = runSteps(w, steps, { 'inputs.reason': REASON, 'steps.app.outputs.token': 'app-installation-token' });
    expect([...run.outputs.values()].join('\n')).toMatch(/nothing to grandfather/);
    expect(readFileSync(w.ghLog, 'utf8')).toBe('');
  });

  it('stage 3, enforce: the history passes grandfathered; a new production key below verified fails; a development key, or a verified one, passes', () => {
    const text = readFileSync(path.join(w.repo, POLICY), 'utf8');
    expect(text).toMatch(/^ {4}mode: warn\n/m);
    write(w, { [POLICY]: text.replace(/^ {4}mode: warn\n/m, '') });
    commitAll(w.repo, 'enforce');
    const history = gate(w);
    expect(history.code, JSON.stringify(history.report.findings)).toBe(0);
    // Three calls in the two grandfathered runs (a development key among them).
    expect(history.report.totals).toMatchObject({ grandfathered: 3, policy_unmet: 0, policy_warned: 0 });
    expect(history.report.findings.map((f) => f.code)).not.toContain('rule_unused');

    const verified = key('prod-db', 'ci-6', 'verified');
    write(w, {
      '.assay/runs/2026-12-01.json': json(surface([key('prod-api', 'ci-5'), key('dev-db', 'ci-7'), verified])),
      '.assay/audit/2026-12-01.ndjson': `${JSON.stringify(record('github', 'r6', verified))}\n`,
    });
    const fresh = gate(w);
    expect(fresh.code).toBe(1);
    expect(fresh.report.findings.filter((f) => f.code === 'policy_unmet').map((f) => [f.file, f.severity])).toEqual([
      ['.assay/runs/2026-12-01.json', 'error'],
    ]);
    const byTitle = fresh.report.calls.filter((c) => c.artifact === '.assay/runs/2026-12-01.json').map((c) => [c.rule, c.level]);
    expect(byTitle).toEqual([
      ['prod-deploy-keys', 'asserted'],
      [null, 'asserted'],
      ['prod-deploy-keys', 'verified'],
    ]);
  });

  it('a grandfathered run edited afterwards is judged in full (grandfather_stale)', () => {
    const run = path.join(w.repo, '.assay/runs/2026-10-15.json');
    writeFileSync(run, json(surface([key('PROD-web', 'ci-3'), key('prod-web', 'ci-8')])));
    const edited = gate(w, '--runs', '.assay/runs/2026-10-01.json', '--runs', '.assay/runs/2026-10-15.json');
    expect(edited.code).toBe(1);
    expect(edited.report.findings.map((f) => `${f.severity} ${f.code} ${f.file}`)).toEqual(
      expect.arrayContaining([`warning grandfather_stale ${POLICY}`, 'error policy_unmet .assay/runs/2026-10-15.json']),
    );
  });
});
