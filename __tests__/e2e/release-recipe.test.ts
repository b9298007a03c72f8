/**
 * examples/release.yml, run: the gate step is the bundled action itself (through the
 * harness: a real process, a real HTTP server on loopback for GitHub), then every later step whose
 * `if:` holds, with `gh` replaced by a recorder: a passing tag attests and publishes the report, its
 * digest and the verdict; a failing tag publishes nothing.
 */

import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { checkout, runAction } from '../support/action-harness.js';
import { ISSUER, mockSigstore, OID, statementFor } from '../support/sigstore.js';
import { cleanup, distFile, ROOT, tempDir } from '../support/workspace.js';

afterAll(cleanup);

interface Step {
  readonly id?: string;
  readonly name?: string;
  readonly if?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly with?: Record<string, string>;
  readonly env?: Record<string, string>;
}
const wf = parseYaml(readFileSync(path.join(ROOT, 'examples/release.yml'), 'utf8')) as {
  permissions: Record<string, string>;
  jobs: { receipts: { steps: Step[] }; 'check-verdict': { steps: Step[] } };
};
const steps = wf.jobs.receipts.steps;
const gateStep = steps.find((s) => s.id === 'gate') as Step;

/** The recipe's conditions: exactly `steps.gate.outputs.result == 'pass'` (anything else is a new case for this test). */
function holds(cond: string | undefined, outputs: Record<string, string>): boolean {
  if (cond === undefined) return true;
  const m = /^steps\.gate\.outputs\.result == '(\w+)'$/.exec(cond.trim());
  if (!m) throw new Error(`the recipe has a condition this test does not evaluate: ${cond}`);
  return outputs['result'] === m[1];
}

async function release(demo: string) {
  const ws = tempDir();
  cpSync(path.join(ROOT, demo), ws, { recursive: true });
  const inputs: Record<string, string> = {};
  for (const [k, v] of Object.entries(gateStep.with ?? {})) inputs[k] = String(v).includes('${{') ? '' : String(v);
  // The recipe trusts workflow identities of the repository (an expression: blank here); these
  // demos are not attested, so the switches are off here (coverage-recipes.test.ts runs them on).
  inputs['require-signed-records'] = 'false';
  inputs['require-attested-runs'] = 'false';
  const sha = checkout(ws);
  const gate = await runAction({
    workspace: ws,
    inputs,
    event: { name: 'push', payload: {} },
    env: { GITHUB_REF_NAME: 'v1.2.3', GITHUB_SHA: sha },
  });
  const bin = path.join(ws, '.bin');
  mkdirSync(bin);
  const log = path.join(ws, '.gh.log');
  writeFileSync(log, '');
  writeFileSync(
    path.join(bin, 'gh'),
    '#!/usr/bin/env bash\nprintf "%s\\n" "$*" >> "$GH_LOG"\nif [ "$1 $2" = "release view" ]; then exit 1; fi\nexit 0\n',
  );
  chmodSync(path.join(bin, 'gh'), 0o755);
  const attested: Record<string, string>[] = [];
  for (const step of steps.slice(steps.indexOf(gateStep) + 1)) {
    if (!holds(step.if, gate.outputs)) continue;
    if (step.uses) {
      attested.push(step.with ?? {});
      continue;
    }
    const env: NodeJS.ProcessEnv = {
      PATH: `${bin}:${process.env['PATH'] ?? ''}`,
      GH_LOG: log,
      GITHUB_REF_NAME: 'v1.2.3',
      GH_TOKEN: 'token',
      DIGEST: gate.outputs['report-digest'] ?? '',
    };
    const r = spawnSync('bash', ['-e', '-c', step.run as string], { cwd: ws, env, encoding: 'utf8' });
    expect(r.status, `${step.name}: ${r.stderr}`).toBe(0);
  }
  return { ws, sha, gate, attested, gh: readFileSync(log, 'utf8') };
}

describe.skipIf(process.platform === 'win32')('examples/release.yml', () => {
  it('asks for the permissions artifact attestations need', () => {
    expect(wf.permissions).toMatchObject({ contents: 'write', 'id-token': 'write', attestations: 'write' });
  });

  it('a passing tag: the verdict is attested over the report, and the release gets the report, its digest and the verdict', async () => {
    const r = await release('fixtures/demo');
    expect(r.gate.outputs['result']).toBe('pass');
    expect(r.attested).toEqual([
      {
        'subject-path': 'receipt-report.json',
        'predicate-type': 'https://slsa.dev/verification_summary/v1',
        'predicate-path': 'receipt-verdict.json',
      },
    ]);
    const predicate = JSON.parse(readFileSync(path.join(r.ws, 'receipt-verdict.json'), 'utf8'));
    expect(predicate.verificationResult).toBe('PASSED');
    expect(predicate.resourceUri).toBe(`git+https://github.com/acme/agents@${r.sha}`);
    expect(r.gh).toMatch(/^release create v1\.2\.3 --verify-tag/m);
    expect(r.gh).toMatch(/^release upload v1\.2\.3 receipt-report\.json receipt-report\.json\.sha256 receipt-verdict\.json --clobber$/m);
    expect(readFileSync(path.join(r.ws, 'receipt-report.json.sha256'), 'utf8')).toBe(
      `${r.gate.outputs['report-digest']!.slice(7)}  receipt-report.json\n`,
    );
  });

  it('a tag on a commit that is not on the default branch stops the job before the gate (a red team: its own loosened policy judged it)', () => {
    const step = steps.find((x) => x.name === "The tag's commit is on the default branch") as Step;
    expect(steps.indexOf(step)).toBeLessThan(steps.indexOf(gateStep));
    const root = tempDir();
    const origin = path.join(root, 'origin.git');
    const clone = path.join(root, 'clone');
    const git = (cwd: string, ...args: string[]) => {
      const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args], {
        cwd,
        encoding: 'utf8',
      });
      if (r.status !== 0) throw new Error(r.stderr);
      return r.stdout.trim();
    };
    git(root, 'init', '-q', '--bare', origin);
    git(root, 'init', '-q', '-b', 'main', clone);
    writeFileSync(path.join(clone, 'a'), '1');
    git(clone, 'add', 'a');
    git(clone, 'commit', '-qm', 'reviewed');
    git(clone, 'remote', 'add', 'origin', origin);
    git(clone, 'push', '-q', 'origin', 'HEAD:refs/heads/main');
    const reviewed = git(clone, 'rev-parse', 'HEAD');
    // A long first-parent line (more than a pipe holds), the tag on its tip: a red team's SIGPIPE under pipefail.
    const stream = Array.from(
      { length: 3000 },
      (_, i) =>
        `commit refs/heads/main\ncommitter t <t@example.com> ${1_700_000_000 + i} +0000\ndata 2\nc${i % 10}\n${i === 0 ? `from ${reviewed}\n` : ''}\n`,
    ).join('');
    const imported = spawnSync('git', ['fast-import', '--quiet'], { cwd: clone, input: stream, encoding: 'utf8' });
    if (imported.status !== 0) throw new Error(imported.stderr);
    git(clone, 'reset', '-q', '--hard', 'main');
    git(clone, 'push', '-q', 'origin', 'HEAD:refs/heads/main');
    const tip = git(clone, 'rev-parse', 'HEAD');
    git(clone, 'checkout', '-q', '-b', 'loose');
    writeFileSync(path.join(clone, 'a'), '2');
    git(clone, 'commit', '-qam', 'unreviewed');
    const unreviewed = git(clone, 'rev-parse', 'HEAD');
    // Merged with a merge commit: the branch's own commit is reachable from main, but was never main (a red team).
    git(clone, 'checkout', '-q', 'main');
    git(clone, 'merge', '-q', '--no-ff', '-m', 'merge', 'loose');
    git(clone, 'push', '-q', 'origin', 'HEAD:refs/heads/main');
    const merged = git(clone, 'rev-parse', 'HEAD');
    const run = (sha: string) =>
      spawnSync('bash', ['-e', '-c', step.run as string], {
        cwd: clone,
        env: { PATH: process.env['PATH'], DEFAULT_BRANCH: 'main', GITHUB_SHA: sha, GITHUB_REF_NAME: 'v9.9.9' },
        encoding: 'utf8',
      });
    expect(run(reviewed).status).toBe(0);
    expect(run(merged).status).toBe(0);
    expect(run(tip).status).toBe(0);
    const refused = run(unreviewed);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toMatch(/^::error::the tag v9\.9\.9 points at [0-9a-f]{40}, which is not on main/m);
  });

  it('a failing tag: nothing is attested and nothing is published', async () => {
    const r = await release('fixtures/demo-failing');
    expect(r.gate.outputs['result']).toBe('fail');
    expect(r.attested).toEqual([]);
    expect(r.gh).toBe('');
    expect(existsSync(path.join(r.ws, 'receipt-report.json.sha256'))).toBe(false);
  });

  it('check-verdict: GitHub’s verifier is pinned to the release workflow, the tag and its commit; verify-attestation checks the verdict offline, and refuses one another workflow attested', async () => {
    const r = await release('fixtures/demo');
    expect(r.gate.outputs['result']).toBe('pass');
    const tag = 'refs/tags/v1.2.3';
    const releaseWorkflow = 'https://github.com/acme/agents/.github/workflows/release.yml';
    const sigstore = await mockSigstore();
    const report = readFileSync(path.join(r.ws, 'receipt-report.json'));
    const statement = statementFor(
      'receipt-report.json',
      report,
      'https://slsa.dev/verification_summary/v1',
      JSON.parse(readFileSync(path.join(r.ws, 'receipt-verdict.json'), 'utf8')),
    );
    const identity = (san: string, ref: string) => ({
      san,
      extensions: [
        { oid: OID.issuer, value: ISSUER },
        { oid: OID.repo, value: 'https://github.com/acme/agents' },
        { oid: OID.ref, value: ref },
      ],
    });
    const [step] = wf.jobs['check-verdict'].steps.filter((x) => x.run !== undefined);
    const consume = async (san: string, ref: string) => {
      const dir = tempDir();
      mkdirSync(path.join(dir, '.receipt-gate'));
      symlinkSync(path.dirname(distFile('cli.js')), path.join(dir, '.receipt-gate', 'dist'));
      writeFileSync(path.join(dir, 'bundle.jsonl'), `${JSON.stringify(await sigstore.attest(statement, identity(san, ref)))}\n`);
      writeFileSync(path.join(dir, 'root.jsonl'), `${JSON.stringify(sigstore.trustedRoot)}\n`);
      cpSync(path.join(r.ws, 'receipt-report.json'), path.join(dir, 'released.json'));
      const bin = path.join(dir, '.bin');
      mkdirSync(bin);
      writeFileSync(
        path.join(bin, 'gh'),
        [
          '#!/usr/bin/env bash',
          'printf "%s\\n" "$*" >> "$GH_LOG"',
          'if [ "$1 $2" = "release download" ]; then cp released.json receipt-report.json; exit 0; fi',
          'if [ "$1 $2" = "attestation verify" ]; then exit 0; fi',
          'if [ "$1 $2" = "attestation download" ]; then cp bundle.jsonl "sha256:$(sha256sum "$3" | cut -d" " -f1).jsonl"; exit 0; fi',
          'if [ "$1 $2" = "attestation trusted-root" ]; then cat root.jsonl; exit 0; fi',
          'exit 3',
        ].join('\n'),
      );
      chmodSync(path.join(bin, 'gh'), 0o755);
      const log = path.join(dir, 'gh.log');
      const env: NodeJS.ProcessEnv = {
        PATH: `${bin}:${process.env['PATH'] ?? ''}`,
        GH_LOG: log,
        GH_TOKEN: 'token',
        GITHUB_REPOSITORY: 'acme/agents',
        GITHUB_REF: tag,
        GITHUB_REF_NAME: 'v1.2.3',
        GITHUB_SHA: r.sha,
      };
      const run = spawnSync('bash', ['-e', '-c', step?.run ?? ''], { cwd: dir, env, encoding: 'utf8' });
      return { status: run.status, out: `${run.stdout}${run.stderr}`, gh: readFileSync(log, 'utf8') };
    };
    const ok = await consume(`${releaseWorkflow}@${tag}`, tag);
    expect(ok.status, ok.out).toBe(0);
    expect(ok.out).toContain(`PASSED git+https://github.com/acme/agents@${r.sha} `);
    expect(ok.gh).toContain(
      `attestation verify receipt-report.json --repo acme/agents --predicate-type https://slsa.dev/verification_summary/v1 --signer-workflow acme/agents/.github/workflows/release.yml --source-ref ${tag} --source-digest ${r.sha}`,
    );
    // Attested by another workflow of the repository, on a branch: refused offline as GitHub's verifier is told to.
    const other = await consume('https://github.com/acme/agents/.github/workflows/ci.yml@refs/heads/feature', 'refs/heads/feature');
    expect(other.status).not.toBe(0);
    expect(other.out).toMatch(
      /certificate identity "https:\/\/github\.com\/acme\/agents\/\.github\/workflows\/ci\.yml@refs\/heads\/feature" is not trusted/,
    );
  });
});
