/**
 * The export recipe, run: the shell steps of examples/export-audit-records.yml, exactly as
 * committed, night after night, with `gh` replaced by recorded outputs (pages one after another, an
 * array of pages, an empty day, a night whose export overlaps the one before), the pull request
 * "merged" into a real git repository, and the gate run on the result after each night: every
 * night passes and commits what it covered (a quiet night its statement alone), a human's key is
 * skipped by scope, an agent's key with no run fails saying that no committed run declares it, and
 * a call the agent claimed that the covered day does not hold fails as never logged.
 */

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.js';
import { addKey, decision, deployKey, json, serverLog, surface } from '../support/corpus.js';
import { commitAll, git, merge, receiptGate, runSteps, stepsOf, type World, world } from '../support/recipe.js';
import { mockSigstore, RECORDS_V1, statementFor } from '../support/sigstore.js';
import { cleanup } from '../support/workspace.js';

afterAll(cleanup);

const steps = stepsOf('examples/export-audit-records.yml', 'export');
const AGENT = 'deploy-agent[bot]';
/** What `gh attestation download` returns here: a bundle signed by a mock Sigstore (its shape is what the gate checks without identities). */
const RECORDED_BUNDLE = await (await mockSigstore()).attest(statementFor('records.ndjson', Buffer.from('x'), RECORDS_V1));

/** The world of examples/export-audit-records.yml: the agent's committed runs, a signing key, the recorded bundle. */
function exportWorld(): World {
  const w = world();
  receiptGate(['keygen', '--out', path.join(w.root, 'signer')], w.root);
  writeFileSync(path.join(w.root, 'bundle.jsonl'), `${JSON.stringify(RECORDED_BUNDLE)}\n`);
  // The agent's committed runs: the deploy keys it added on the first two days (claiming only
  // `asserted`, as a stock producer does; the imported records then earn them `verified`).
  const call = (repoName: string, title: string) =>
    decision({
      tool: 'github.add_deploy_key',
      verb: 'create',
      resourceType: 'github_deploy_key',
      target: deployKey({ owner: 'acme', repo: repoName, title }),
    });
  mkdirSync(path.join(w.repo, '.assay/runs'), { recursive: true });
  writeFileSync(path.join(w.repo, '.assay/runs/2026-11-19-rotate.json'), json(surface([call('api', 'deploy-1'), call('web', 'deploy-2')])));
  writeFileSync(
    path.join(w.repo, '.assay/runs/2026-11-20-rotate.json'),
    json(surface([call('api', 'deploy-3'), addKey({ asserted: false })])),
  );
  commitAll(w.repo, 'runs');
  return w;
}

const entry = (id: string, actor: string, repo: string, title: string, day: string, hour: number) => {
  const at = Date.parse(`${day}T00:00:00Z`) + hour * 3_600_000;
  return { '@timestamp': at, created_at: at, _document_id: id, action: 'public_key.create', actor, repo, title, fingerprint: 'SHA256:x' };
};

/** The recipe's conditions: `env.X != ''` and `vars.X == 'true'` (this test's variables are unset); anything else is a new case for this test. */
const holds = (cond: string, carried: Record<string, string>): boolean => {
  const e = /^env\.(\w+) != ''$/.exec(cond.trim());
  if (e) return (carried[e[1] as string] ?? '') !== '';
  if (/^vars\.\w+ == 'true'$/.test(cond.trim())) return false;
  throw new Error(`the recipe's condition ${cond} is not one this test evaluates`);
};

/** One night: the workflow's run steps in order (GITHUB_ENV carried between them), then "merge" the pull request and run the gate. */
function night(w: World, day: string, recorded: string, mergeIt = true, signingKey: string | null = null) {
  const out = path.join(w.root, `gh-${day}.json`);
  writeFileSync(out, recorded);
  writeFileSync(w.ghLog, '');
  runSteps(
    w,
    steps,
    {
      'secrets.AUDIT_LOG_TOKEN': 'audit-token',
      'secrets.RECEIPT_GATE_SIGNING_KEY': signingKey ?? readFileSync(path.join(w.root, 'signer.key.pem'), 'utf8'),
      'vars.RECEIPT_GATE_AGENT': AGENT,
      'github.repository_owner': 'acme',
      'inputs.day': day,
      'steps.app.outputs.token': 'app-installation-token',
      'github.token': 'github-token',
    },
    { env: { FAKE_GH_OUTPUT: out, FAKE_GH_BUNDLE: path.join(w.root, 'bundle.jsonl') }, holds },
  );
  const calls = readFileSync(w.ghLog, 'utf8');
  const opened = calls.includes('pr create');
  const branch = `audit-records/${day}`;
  if (mergeIt && git(w.repo, 'branch', '--list', branch) !== '') merge(w, branch);
  else if (!mergeIt) git(w.repo, 'switch', '-q', 'main');
  // The gate of the morning after the last night (a fixed time: the nights are dates of their own).
  const gate = receiptGate(
    ['verify', '-C', w.repo, '--trusted-key', path.join(w.root, 'signer.pub.pem'), '--format', 'json', '--now', '2026-11-26T06:00:00Z'],
    w.repo,
  );
  const report = JSON.parse(gate.stdout) as Report;
  const file = path.join(w.repo, `.assay/audit/github/${day}.ndjson`);
  const lines = existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
    : [];
  return { calls, opened, report, file, statement: lines[0], records: lines.slice(1) };
}

// The recipe runs on ubuntu-latest (GNU date, bash): so does this test.
describe.skipIf(process.platform !== 'linux')('examples/export-audit-records.yml, run night after night', () => {
  const w = exportWorld();
  const page = (xs: unknown[]) => JSON.stringify(xs);

  it('night 1 (pages one after another, a human key among them): what the day covered, then the agent’s records only; the gate passes', () => {
    const n = night(
      w,
      '2026-11-19',
      page([entry('a1', AGENT, 'acme/api', 'deploy-1', '2026-11-19', 3), entry('h1', 'alice', 'acme/api', 'laptop', '2026-11-19', 4)]) +
        page([entry('a2', AGENT, 'acme/web', 'deploy-2', '2026-11-19', 5)]),
    );
    expect(n.calls).toMatch(/audit-log\?phrase=action:public_key\.create\+created:2026-11-19&per_page=100/);
    expect(n.opened).toBe(true);
    expect(n.statement).toMatchObject({
      schema: 'receipt-gate.audit_coverage.v1',
      actors: [AGENT],
      since: '2026-11-19T00:00:00Z',
      until: '2026-11-20T00:00:00Z',
      entries_read: 3,
      records: 2,
      signature: expect.objectContaining({ payload_type: 'application/vnd.receipt-gate.audit-coverage+json;v=1' }),
    });
    expect(n.records).toHaveLength(2);
    expect(JSON.stringify(n.records)).not.toMatch(/alice|deploy-agent/);
    expect(n.report.ok, JSON.stringify(n.report.findings)).toBe(true);
    expect(n.report.totals).toMatchObject({ verified: 2, bound: 2 });
    expect(n.report.coverage).toEqual([expect.objectContaining({ usable: true, since: '2026-11-19T00:00:00Z' })]);
    // The attestation is kept beside the records and committed with them.
    expect(n.calls).toMatch(/^attestation download \.assay\/audit\/github\/2026-11-19\.ndjson --repo /m);
    expect(existsSync(`${n.file}.sigstore.json`)).toBe(true);
    expect(git(w.repo, 'ls-files', '.assay/audit/github/2026-11-19.ndjson.sigstore.json')).not.toBe('');
  });

  it('night 2 (an array of pages, overlapping night 1 at the boundary): the overlap is outside the window, the gate passes', () => {
    const n = night(
      w,
      '2026-11-20',
      JSON.stringify([
        [entry('a2', AGENT, 'acme/web', 'deploy-2', '2026-11-19', 23), entry('a3', AGENT, 'acme/api', 'deploy-3', '2026-11-20', 1)],
        [],
      ]),
    );
    expect(n.opened).toBe(true);
    expect(n.records.map((r) => r.record_id)).toEqual(['github-audit:a3']);
    expect(n.report.ok, JSON.stringify(n.report.findings)).toBe(true);
    expect(n.report.totals).toMatchObject({ verified: 3, bound: 3, imported_twice: 0 });
  });

  it('night 3 (a quiet day, an empty page): the statement alone is committed by pull request; the gate still passes', () => {
    const n = night(w, '2026-11-21', '[]');
    expect(n.statement).toMatchObject({ records: 0, entries_read: 0, since: '2026-11-21T00:00:00Z' });
    expect(n.records).toEqual([]);
    expect(n.opened).toBe(true);
    expect(n.report.ok).toBe(true);
    expect(n.report.coverage).toHaveLength(3);
  });

  it('night 4 (the agent added a key no committed run declares): the gate fails and says exactly that', () => {
    const n = night(w, '2026-11-22', page([entry('a4', AGENT, 'acme/api', 'backdoor', '2026-11-22', 2)]));
    expect(n.opened).toBe(true);
    expect(n.report.ok).toBe(false);
    const f = n.report.findings.find((x) => x.code === 'record_unmatched');
    expect(f?.file).toBe('.assay/audit/github/2026-11-22.ndjson');
    expect(f?.message).toMatch(/binds no call/);
    expect(f?.message).toMatch(/a side effect the provider logged for the agent that no committed run declares/);
    // Fixed the way the message says: the run is committed.
    writeFileSync(
      path.join(w.repo, '.assay/runs/2026-11-22-backdoor.json'),
      json(surface([addKey({ target: deployKey({ owner: 'acme', repo: 'api', title: 'backdoor' }) })])),
    );
    commitAll(w.repo, 'the run');
  });

  it('night 5 (a run claims a key the covered day does not hold): effect_not_logged, naming the export', () => {
    // A server log: its decision has a time, inside the day the next export covers.
    writeFileSync(
      path.join(w.repo, '.assay/runs/2026-11-23-claims.log'),
      serverLog([['2026-11-23T09:15:00Z', addKey({ target: deployKey({ owner: 'acme', repo: 'api', title: 'ghost' }) })]]),
    );
    commitAll(w.repo, 'a run whose key was never added');
    const n = night(w, '2026-11-23', page([]));
    expect(n.report.ok).toBe(false);
    const f = n.report.findings.find((x) => x.code === 'effect_not_logged');
    expect(f).toMatchObject({ file: '.assay/runs/2026-11-23-claims.log', severity: 'error' });
    expect(f?.message).toMatch(
      /on acme\/api at 2026-11-23T09:15:00Z claims a side effect; the github-audit-log export for deploy-agent\[bot\] \(organisation acme\), \[2026-11-23T00:00:00Z, 2026-11-24T00:00:00Z\) holds no entry for it/,
    );
  });

  it('a retry of a day whose branch and pull request exist (a failed run, a backfill): the branch is replaced, no second pull request', () => {
    const first = night(w, '2026-11-24', page([entry('a5', AGENT, 'acme/api', 'deploy-5', '2026-11-24', 2)]), false);
    expect(first.opened).toBe(true);
    // The retry's export has one more entry: the branch is pushed again (not a fast-forward) and the open pull request updated.
    const retry = night(
      w,
      '2026-11-24',
      page([entry('a5', AGENT, 'acme/api', 'deploy-5', '2026-11-24', 2), entry('a6', AGENT, 'acme/web', 'deploy-6', '2026-11-24', 3)]),
    );
    expect(retry.opened).toBe(false);
    expect(retry.records).toHaveLength(2);
  });

  it('without the optional signing key (identities alone): the night still imports, unsigned, and never passes --sign-key an empty file', () => {
    const n = night(w, '2026-11-25', page([entry('a7', AGENT, 'acme/api', 'deploy-7', '2026-11-25', 4)]), true, '');
    expect(n.opened).toBe(true);
    expect(n.statement).toMatchObject({ schema: 'receipt-gate.audit_coverage.v1', owner: 'acme' });
    expect(n.records.map((r: { signature?: unknown }) => r.signature)).toEqual([undefined]);
    expect(existsSync(path.join(w.temp, 'signer.key.pem'))).toBe(false);
  });
});
