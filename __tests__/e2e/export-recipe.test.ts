/**
 * The export recipe, run: the shell steps of examples/export-audit-records.yml, exactly
 * as committed, on four nights, with `gh` replaced by recorded outputs (pages one after another, an
 * array of pages, an empty day, a night whose export overlaps the one before), the pull request
 * "merged" into a real git repository, and the gate run on the result after each night: every
 * night passes, a human's key is skipped by scope, and an agent's key with no run fails saying that
 * no committed run declares it.
 */

import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { addKey, decision, deployKey, json, surface } from '../support/corpus.js';
import { mockSigstore, RECORDS_V1, statementFor } from '../support/sigstore.js';
import { cleanup, distFile, ROOT, tempDir } from '../support/workspace.js';

afterAll(cleanup);

interface Step {
  readonly name?: string;
  readonly if?: string;
  readonly run?: string;
  readonly env?: Record<string, string>;
}
const workflow = parseYaml(readFileSync(path.join(ROOT, 'examples/export-audit-records.yml'), 'utf8')) as {
  jobs: { export: { steps: Step[] } };
};
const steps = workflow.jobs.export.steps.filter((s) => s.run !== undefined);

const AGENT = 'deploy-agent[bot]';
/** What `gh attestation download` returns here: a bundle signed by a mock Sigstore (its shape is what the gate checks without identities). */
const RECORDED_BUNDLE = await (await mockSigstore()).attest(statementFor('records.ndjson', Buffer.from('x'), RECORDS_V1));
const sh = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) => {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

/** A world: the repository (with origin), the runner's temp dir, a fake `gh`, the signing key pair. */
function world() {
  const root = tempDir();
  const origin = path.join(root, 'origin.git');
  const repo = path.join(root, 'repo');
  const temp = path.join(root, 'runner-temp');
  const bin = path.join(root, 'bin');
  for (const d of [repo, temp, bin]) mkdirSync(d, { recursive: true });
  sh('git', ['init', '-q', '--bare', '-b', 'main', origin], root);
  sh('git', ['init', '-q', '-b', 'main', repo], root);
  sh('git', ['remote', 'add', 'origin', origin], repo);
  // The CLI the workflow checks out beside the repository.
  mkdirSync(path.join(repo, '.receipt-gate'));
  symlinkSync(path.dirname(distFile('cli.js')), path.join(repo, '.receipt-gate', 'dist'));
  writeFileSync(path.join(repo, '.gitignore'), '.receipt-gate/\n');
  // `gh api` prints the recorded export; `gh pr create` is logged.
  writeFileSync(
    path.join(bin, 'gh'),
    [
      '#!/usr/bin/env bash',
      'if [ "$1" = api ]; then printf "%s\\n" "$*" >> "$FAKE_GH_LOG"; cat "$FAKE_GH_OUTPUT"; exit 0; fi',
      // `gh pr view BRANCH`: OPEN while a pull request created for that branch is not merged.
      'if [ "$1 $2" = "pr view" ]; then if grep -qx -- "$3" "$FAKE_GH_OPEN" 2>/dev/null; then echo OPEN; exit 0; fi; echo "no pull requests found for branch $3" >&2; exit 1; fi',
      'if [ "$1 $2" = "pr create" ]; then printf "%s\\n" "$*" >> "$FAKE_GH_LOG"; printf "%s\\n" "$4" >> "$FAKE_GH_OPEN"; exit 0; fi',
      // `gh attestation download FILE`: writes <digest>.jsonl with the bundle actions/attest stored (a recorded one).
      'if [ "$1 $2" = "attestation download" ]; then printf "%s\\n" "$*" >> "$FAKE_GH_LOG"; cp "$FAKE_GH_BUNDLE" "sha256:$(sha256sum "$3" | cut -d" " -f1).jsonl"; exit 0; fi',
      'exit 3',
    ].join('\n'),
  );
  chmodSync(path.join(bin, 'gh'), 0o755);
  sh(process.execPath, [distFile('cli.js'), 'keygen', '--out', path.join(root, 'signer')], root);
  writeFileSync(path.join(root, 'bundle.jsonl'), `${JSON.stringify(RECORDED_BUNDLE)}\n`);
  // The agent's committed runs: the deploy keys it added on the first two days (claiming only
  // `asserted`, as a stock producer does; the imported records then earn them `verified`).
  const call = (repoName: string, title: string) =>
    decision({
      tool: 'github.add_deploy_key',
      verb: 'create',
      resourceType: 'github_deploy_key',
      target: deployKey({ owner: 'acme', repo: repoName, title }),
    });
  mkdirSync(path.join(repo, '.assay/runs'), { recursive: true });
  writeFileSync(path.join(repo, '.assay/runs/2026-11-29-rotate.json'), json(surface([call('api', 'deploy-1'), call('web', 'deploy-2')])));
  writeFileSync(
    path.join(repo, '.assay/runs/2026-11-30-rotate.json'),
    json(surface([call('api', 'deploy-3'), addKey({ asserted: false })])),
  );
  sh('git', ['add', '-A'], repo);
  sh('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'runs'], repo);
  sh('git', ['push', '-q', 'origin', 'main'], repo);
  return { root, repo, temp, bin };
}

type World = ReturnType<typeof world>;

const entry = (id: string, actor: string, repo: string, title: string, day: string, hour: number) => {
  const at = Date.parse(`${day}T00:00:00Z`) + hour * 3_600_000;
  return { '@timestamp': at, created_at: at, _document_id: id, action: 'public_key.create', actor, repo, title, fingerprint: 'SHA256:x' };
};

/** One night: the workflow's run steps in order (GITHUB_ENV carried between them), then "merge" the PR. */
function night(w: World, day: string, recorded: string, merge = true) {
  const out = path.join(w.root, `gh-${day}.json`);
  const log = path.join(w.root, `gh-${day}.log`);
  writeFileSync(out, recorded);
  writeFileSync(log, '');
  const githubEnv = path.join(w.temp, `env-${day}`);
  writeFileSync(githubEnv, '');
  const values: Record<string, string> = {
    'secrets.AUDIT_LOG_TOKEN': 'audit-token',
    'secrets.RECEIPT_GATE_SIGNING_KEY': readFileSync(path.join(w.root, 'signer.key.pem'), 'utf8'),
    'vars.RECEIPT_GATE_AGENT': AGENT,
    'github.repository_owner': 'acme',
    'inputs.day': day,
    'steps.app.outputs.token': 'app-installation-token',
    'github.token': 'github-token',
  };
  const expr = (v: string) =>
    v.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_m, k: string) => {
      if (!(k in values)) throw new Error(`the recipe uses \${{ ${k} }}, which this test does not provide`);
      return values[k] as string;
    });
  let carried: Record<string, string> = {};
  /** The recipe's conditions: `env.X != ''` and `vars.X == 'true'` (this test's variables are unset); anything else is a new case for this test. */
  const holds = (cond: string | undefined): boolean => {
    if (cond === undefined) return true;
    const e = /^env\.(\w+) != ''$/.exec(cond.trim());
    if (e) return (carried[e[1] as string] ?? '') !== '';
    if (/^vars\.\w+ == 'true'$/.test(cond.trim())) return false;
    throw new Error(`the recipe's condition ${cond} is not one this test evaluates`);
  };
  for (const step of steps) {
    if (!holds(step.if)) continue;
    const env: NodeJS.ProcessEnv = {
      PATH: `${w.bin}:${process.env['PATH'] ?? ''}`,
      HOME: w.root,
      RUNNER_TEMP: w.temp,
      GITHUB_ENV: githubEnv,
      FAKE_GH_OUTPUT: out,
      FAKE_GH_LOG: log,
      FAKE_GH_OPEN: path.join(w.root, 'open-pull-requests'),
      FAKE_GH_BUNDLE: path.join(w.root, 'bundle.jsonl'),
      GITHUB_REPOSITORY: 'acme/agents',
      GIT_CONFIG_NOSYSTEM: '1',
      ...carried,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expr(String(v))])),
    };
    const r = spawnSync('bash', ['-e', '-c', step.run as string], { cwd: w.repo, env, encoding: 'utf8' });
    expect(r.status, `${day} ${step.name}: ${r.stderr}${r.stdout}`).toBe(0);
    carried = Object.fromEntries(
      readFileSync(githubEnv, 'utf8')
        .split('\n')
        .filter((l) => l.includes('='))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
  }
  const calls = readFileSync(log, 'utf8');
  const opened = calls.includes('pr create');
  const branch = `audit-records/${day}`;
  if (merge && sh('git', ['branch', '--list', branch], w.repo).trim() !== '') {
    sh('git', ['switch', '-q', 'main'], w.repo);
    sh('git', ['merge', '-q', '--ff-only', branch], w.repo);
    const open = path.join(w.root, 'open-pull-requests');
    if (existsSync(open)) writeFileSync(open, readFileSync(open, 'utf8').replace(`${branch}\n`, ''));
  } else if (!merge) sh('git', ['switch', '-q', 'main'], w.repo);
  const gate = spawnSync(
    process.execPath,
    [distFile('cli.js'), 'verify', '-C', w.repo, '--trusted-key', path.join(w.root, 'signer.pub.pem'), '--format', 'json'],
    { encoding: 'utf8' },
  );
  const report = JSON.parse(gate.stdout) as {
    ok: boolean;
    findings: { code: string; message: string; file: string }[];
    totals: Record<string, number>;
  };
  return { calls, opened, report, file: path.join(w.repo, `.assay/audit/github/${day}.ndjson`) };
}

// The recipe runs on ubuntu-latest (GNU date, bash): so does this test.
describe.skipIf(process.platform !== 'linux')('examples/export-audit-records.yml, run night after night', () => {
  const w = world();
  const page = (xs: unknown[]) => JSON.stringify(xs);

  it('night 1 (pages one after another, a human key among them): the agent’s records only, the gate passes', () => {
    const n = night(
      w,
      '2026-11-29',
      page([entry('a1', AGENT, 'acme/api', 'deploy-1', '2026-11-29', 3), entry('h1', 'alice', 'acme/api', 'laptop', '2026-11-29', 4)]) +
        page([entry('a2', AGENT, 'acme/web', 'deploy-2', '2026-11-29', 5)]),
    );
    expect(n.calls).toMatch(/audit-log\?phrase=action:public_key\.create\+created:2026-11-29&per_page=100/);
    expect(n.opened).toBe(true);
    expect(readFileSync(n.file, 'utf8').trim().split('\n')).toHaveLength(2);
    expect(readFileSync(n.file, 'utf8')).not.toMatch(/alice|deploy-agent/);
    expect(n.report.ok, JSON.stringify(n.report.findings)).toBe(true);
    expect(n.report.totals).toMatchObject({ verified: 2, bound: 2 });
    // The attestation is kept beside the records and committed with them.
    expect(n.calls).toMatch(/^attestation download \.assay\/audit\/github\/2026-11-29\.ndjson --repo /m);
    expect(existsSync(`${n.file}.sigstore.json`)).toBe(true);
    expect(sh('git', ['ls-files', '.assay/audit/github/2026-11-29.ndjson.sigstore.json'], w.repo).trim()).not.toBe('');
  });

  it('night 2 (an array of pages, overlapping night 1 at the boundary): the overlap is outside the window, the gate passes', () => {
    const n = night(
      w,
      '2026-11-30',
      JSON.stringify([
        [entry('a2', AGENT, 'acme/web', 'deploy-2', '2026-11-29', 23), entry('a3', AGENT, 'acme/api', 'deploy-3', '2026-11-30', 1)],
        [],
      ]),
    );
    expect(n.opened).toBe(true);
    expect(
      readFileSync(n.file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).record_id),
    ).toEqual(['github-audit:a3']);
    expect(n.report.ok, JSON.stringify(n.report.findings)).toBe(true);
    expect(n.report.totals).toMatchObject({ verified: 3, bound: 3, imported_twice: 0 });
  });

  it('night 3 (a quiet day, an empty page): no file, no pull request, the gate still passes', () => {
    const n = night(w, '2026-12-01', '[]');
    expect(existsSync(n.file)).toBe(false);
    expect(n.opened).toBe(false);
    expect(n.report.ok).toBe(true);
  });

  it('night 4 (the agent added a key no committed run declares): the gate fails and says exactly that', () => {
    const n = night(w, '2026-12-02', page([entry('a4', AGENT, 'acme/api', 'backdoor', '2026-12-02', 2)]));
    expect(n.opened).toBe(true);
    expect(n.report.ok).toBe(false);
    const f = n.report.findings.find((x) => x.code === 'record_unmatched');
    expect(f?.file).toBe('.assay/audit/github/2026-12-02.ndjson');
    expect(f?.message).toMatch(/binds no call/);
    expect(f?.message).toMatch(/a side effect the provider logged for the agent that no committed run declares/);
  });

  it('a retry of a day whose branch and pull request exist (a failed run, a backfill): the branch is replaced, no second pull request', () => {
    const first = night(w, '2026-12-03', page([entry('a5', AGENT, 'acme/api', 'deploy-5', '2026-12-03', 2)]), false);
    expect(first.opened).toBe(true);
    // The retry's export has one more entry: the branch is pushed again (not a fast-forward) and the open pull request updated.
    const retry = night(
      w,
      '2026-12-03',
      page([entry('a5', AGENT, 'acme/api', 'deploy-5', '2026-12-03', 2), entry('a6', AGENT, 'acme/web', 'deploy-6', '2026-12-03', 3)]),
    );
    expect(retry.opened).toBe(false);
    expect(readFileSync(retry.file, 'utf8').trim().split('\n')).toHaveLength(2);
  });
});
