/**
 * The action as the runner starts it, against a recording HTTP server on 127.0.0.1: in this process
 * through its exported `run()` (the real toolkit, the run's environment), and, where a fresh process
 * matters (the bundle, a proxy read when the client loads, a missing outputs file), dist/index.js.
 */

import { cpSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/binding.js';
import type { Report } from '../../src/core/report.js';
import { BASE_SHA, checkout, forbidden, HEAD_SHA, MERGE_SHA, runAction } from '../support/action-harness.js';
import { decision, deployKey, json, record, SIGNED_DEMO_POLICY, surface } from '../support/corpus.js';
import { cleanup, cli, DYING_READER, distFile, ROOT, tempDir, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

const demo = (): string => {
  const ws = tempDir();
  cpSync(path.join(ROOT, 'fixtures/demo'), ws, { recursive: true });
  return ws;
};

const key = (i: number) => deployKey({ owner: 'acme', repo: `repo-${i}`, title: `k${i}` });
const call = (i: number, claim: 'asserted' | 'verified' = 'asserted', tool = 'github.add_deploy_key') =>
  decision({ tool, verb: 'create', resourceType: 'github_deploy_key', target: key(i), claim });

/** 120 calls: 1 verified, 19 claiming verified without a record (failures), 100 asserted. */
function corpus120(dir = ''): string {
  const ws = tempDir();
  const calls = [
    call(0, 'verified'),
    ...Array.from({ length: 19 }, (_, i) => call(i + 1, 'verified')),
    ...Array.from({ length: 100 }, (_, i) => call(i + 100)),
  ];
  writeFiles(ws, {
    [path.join(dir, '.assay/runs/big.json')]: json(surface(calls)),
    [path.join(dir, '.assay/audit/a.json')]: json(record('github', 'r0', calls[0]!)),
  });
  return ws;
}

/** A push: no base to read the policy at (a pull request's is read through the contents API). */
const PUSH = { name: 'push', payload: { after: HEAD_SHA } };

const commands = (stdout: string, kind: string) =>
  stdout.split(/\r?\n/).filter((l) => l.startsWith(`::${kind} `) || l.startsWith(`::${kind}::`));

describe('the entry', () => {
  it('src/action/main.ts exports run() and does nothing on import (what @github/local-action imports and calls)', async () => {
    const before = process.exitCode;
    const main = await import('../../src/action/main.js');
    expect(typeof main.run).toBe('function');
    expect(process.exitCode).toBe(before);
    // The bundled entry only calls it.
    expect(readFileSync(path.join(ROOT, 'src/action.ts'), 'utf8')).toMatch(/await run\(core\);/);
  });
});

describe('the action on a pull request', () => {
  it('passes the demo, writes outputs, report and summary, and annotates through the Checks API', async () => {
    const ws = demo();
    const r = await runAction({ workspace: ws, spawn: true });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs).toMatchObject({
      result: 'pass',
      calls: '9',
      verified: '4',
      'observed-confirmed': '1',
      asserted: '2',
      'no-effect': '2',
      'weakest-level': 'asserted',
      'policy-unmet': '0',
      errors: '0',
      warnings: '0',
      'sarif-file': '',
    });
    const report = readFileSync(r.outputs['report-file']!);
    expect(r.outputs['report-digest']).toBe(`sha256:${sha256Hex(report)}`);
    expect(JSON.parse(report.toString()).ok).toBe(true);
    expect(r.requests).toHaveLength(1);
    const [post] = r.requests;
    expect(post).toMatchObject({ method: 'POST', url: '/repos/acme/agents/check-runs' });
    expect(post!.headers['authorization']).toBe('token ghs_test_token');
    expect(post!.body).toMatchObject({ name: 'side-effect receipts', head_sha: HEAD_SHA, status: 'completed', conclusion: 'success' });
    const anns = post!.body.output.annotations;
    // 7 calls that assert a side effect + 2 skipped-object notices (the NDJSON log's and the
    // bundle's) + the one under_claimed notice that counts every call verified later than it claims;
    // the 2 calls that assert nothing have no annotation.
    expect(anns).toHaveLength(10);
    expect(anns).toContainEqual(
      expect.objectContaining({
        path: '.assay/runs/2026-11-03-rotate-deploy-keys.json',
        start_line: 4,
        annotation_level: 'notice',
        title: 'verified · github.add_deploy_key',
      }),
    );
    expect(r.summary).toContain('## ✅ receipt-gate: passed');
    expect(r.summary).toContain(`https://github.com/acme/agents/blob/${HEAD_SHA}/.assay/runs/2026-11-03-rotate-deploy-keys.json#L4`);
    expect(commands(r.stdout, 'error')).toEqual([]);
  });

  it('sends 120 annotations as 50 + 50 + 20, failures first, with the right lines and levels', async () => {
    const r = await runAction({ workspace: corpus120() });
    expect(r.code).toBe(1);
    expect(r.outputs['result']).toBe('fail');
    expect(r.requests.map((q) => [q.method, q.url, q.body.output.annotations.length])).toEqual([
      ['POST', '/repos/acme/agents/check-runs', 50],
      ['PATCH', '/repos/acme/agents/check-runs/4242', 50],
      ['PATCH', '/repos/acme/agents/check-runs/4242', 20],
    ]);
    expect(r.requests[0]!.body.conclusion).toBe('failure');
    const all = r.requests.flatMap((q) => q.body.output.annotations);
    expect(all.slice(0, 19).every((a: any) => a.annotation_level === 'failure')).toBe(true);
    expect(all.slice(19).every((a: any) => a.annotation_level === 'notice')).toBe(true);
    const lines = readFileSync(path.join(corpus120(), '.assay/runs/big.json'), 'utf8').split('\n');
    for (const a of all) expect(lines[a.start_line - 1]!.trim()).toBe('{');
    const failing = all.find((a: any) => a.annotation_level === 'failure');
    expect(failing.message).toMatch(/verified_not_reproduced: .*no audit record binds its subject/);
    expect(commands(r.stdout, 'error')).toEqual([
      '::error::receipt-gate: the gate failed with 19 error(s); see the annotations and the job summary.',
    ]);
  });

  it("uses the job's own check run when check-run-id is given", async () => {
    const r = await runAction({ workspace: corpus120(), inputs: { 'check-run-id': '987654' } });
    expect(r.requests.map((q) => [q.method, q.url])).toEqual(Array(3).fill(['PATCH', '/repos/acme/agents/check-runs/987654']));
    expect(r.requests[0]!.body.conclusion).toBeUndefined();
  });

  it('falls back to workflow commands on 403, says so once, and never fails the step for it', async () => {
    const r = await runAction({ workspace: demo(), responder: forbidden });
    expect(r.code).toBe(0);
    const warnings = commands(r.stdout, 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/403.*falling back to workflow commands/);
    expect(commands(r.stdout, 'notice').length).toBeGreaterThan(0);
    expect(r.stdout).toContain(
      '::notice title=verified · github.add_deploy_key,file=.assay/runs/2026-11-03-rotate-deploy-keys.json,line=4,col=5::',
    );
  });

  it("with no token: workflow commands within GitHub's 10 per level per step, the step's own lines counted, then one notice for the rest", async () => {
    const r = await runAction({ workspace: corpus120(), token: '', event: PUSH });
    expect(r.requests).toEqual([]);
    // GitHub shows 10 error annotations per step: 9 calls + the gate's own failure message.
    expect(commands(r.stdout, 'error')).toHaveLength(10);
    expect(commands(r.stdout, 'error').at(-1)).toMatch(/the gate failed/);
    const notices = commands(r.stdout, 'notice');
    expect(notices).toHaveLength(10);
    expect(notices.at(-1)).toMatch(
      /^::notice title=receipt-gate%3A more annotations::102 more annotation\(s\) not shown: GitHub shows at most 10 error, 10 warning and 10 notice annotations per step/,
    );
    expect(r.summary).toContain('## ❌ receipt-gate: failed');
  });

  it('annotations: off posts nothing; workflow-commands never calls the API', async () => {
    const off = await runAction({ workspace: demo(), inputs: { annotations: 'off' } });
    expect(off.requests).toEqual([]);
    expect(commands(off.stdout, 'notice')).toEqual([]);
    const wc = await runAction({ workspace: demo(), inputs: { annotations: 'workflow-commands' } });
    expect(wc.requests).toEqual([]);
    expect(commands(wc.stdout, 'notice')).toHaveLength(10);
  });

  it('input jobs: the report file is the same bytes on reading threads as on the main thread', async () => {
    const one = await runAction({ workspace: corpus120(), inputs: { annotations: 'off', 'report-file': 'one.json', jobs: '1' } });
    const three = await runAction({ workspace: corpus120(), inputs: { annotations: 'off', 'report-file': 'three.json', jobs: '3' } });
    expect(one.code).toBe(three.code);
    expect(three.outputs['report-digest']).toBe(one.outputs['report-digest']);
    expect(three.outputs['report-digest']).toMatch(/^sha256:[0-9a-f]{64}$/);
    // The action starts its reading thread (dist/read-worker.js beside it): one that dies on its first file fails that file.
    const copy = tempDir();
    cpSync(path.dirname(distFile('index.js')), copy, { recursive: true });
    writeFileSync(path.join(copy, 'read-worker.js'), DYING_READER);
    const ws = corpus120();
    const dying = await runAction({
      workspace: ws,
      inputs: { annotations: 'off', 'report-file': 'dying.json', jobs: '3' },
      bundle: path.join(copy, 'index.js'),
    });
    expect(dying.code).toBe(1);
    const failed = (JSON.parse(readFileSync(path.join(ws, 'dying.json'), 'utf8')) as Report).findings.filter(
      (f) => f.code === 'invalid_artifact',
    );
    expect(failed.length).toBeGreaterThan(0);
    for (const f of failed) expect(f.message).toMatch(/^the thread reading this file stopped \(.*code 9\); it is not verified$/);
    const bad = await runAction({ workspace: demo(), inputs: { jobs: '0' } });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('jobs: "0" is not a number of threads from 1 to 256, or auto');
  });

  it('annotates repository-relative paths when working-directory is set', async () => {
    const ws = corpus120('agents/prod');
    const r = await runAction({ workspace: ws, inputs: { 'working-directory': 'agents/prod', 'sarif-file': 'out/receipts.sarif' } });
    const all = r.requests.flatMap((q) => q.body.output.annotations);
    expect(new Set(all.map((a: any) => a.path))).toEqual(new Set(['agents/prod/.assay/runs/big.json']));
    const sarif = JSON.parse(readFileSync(path.join(ws, 'out/receipts.sarif'), 'utf8'));
    expect(r.outputs['sarif-file']).toBe(path.join(ws, 'out/receipts.sarif'));
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0].tool.driver.rules.map((x: any) => x.id)).toEqual(['verified_not_reproduced']);
    expect(sarif.runs[0].results).toHaveLength(19);
    expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation).toEqual({
      uri: 'agents/prod/.assay/runs/big.json',
      uriBaseId: '%SRCROOT%',
    });
    const again = await runAction({ workspace: ws, inputs: { 'working-directory': 'agents/prod', 'sarif-file': 'out/receipts2.sarif' } });
    const sarif2 = JSON.parse(readFileSync(path.join(ws, 'out/receipts2.sarif'), 'utf8'));
    expect(sarif2.runs[0].results.map((x: any) => x.partialFingerprints)).toEqual(
      sarif.runs[0].results.map((x: any) => x.partialFingerprints),
    );
    expect(again.outputs['report-digest']).toBe(r.outputs['report-digest']);
  });

  it('on a push (no pull request) annotations go to the pushed commit', async () => {
    const r = await runAction({ workspace: demo(), event: { name: 'push', payload: { ref: 'refs/tags/v1.2.0' } } });
    expect(r.requests[0]!.body.head_sha).toBe(MERGE_SHA);
    expect(r.code).toBe(0);
  });

  it('merge_group annotates the merge group head', async () => {
    const r = await runAction({
      workspace: demo(),
      event: { name: 'merge_group', payload: { merge_group: { head_sha: 'c'.repeat(40), base_sha: 'd'.repeat(40) } } },
    });
    expect(r.requests[0]!.body.head_sha).toBe('c'.repeat(40));
  });

  it.each([
    ['annotations', 'sometimes', /invalid input annotations: "sometimes" must be one of auto, check-run, workflow-commands, off/],
    ['strict-observed', 'yes', /invalid input strict-observed: "yes" is not a boolean/],
    ['check-run-id', 'abc', /invalid input check-run-id/],
    ['working-directory', '../elsewhere', /invalid input working-directory: "..\/elsewhere" is outside the workspace/],
    ['max-file-size', 'lots', /invalid input max-file-size/],
    ['require', 'github_deploy_key=always', /invalid input require: "github_deploy_key=always": the level must be one of/],
    [
      'trusted-keys',
      '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8g\n-----END PRIVATE KEY-----',
      /invalid input trusted-keys: not a "PUBLIC KEY" block/,
    ],
  ])('a bad %s fails with one clear message naming it', async (name, value, why) => {
    const r = await runAction({ workspace: demo(), inputs: { [name]: value } });
    expect(r.code).toBe(1);
    const errors = commands(r.stdout, 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(why);
    expect(r.requests).toEqual([]);
    // `if: always()` steps can tell a misconfigured gate from a failed one.
    expect(r.outputs['result']).toBe('error');
  });

  it('require and trusted-keys: the signed demo passes with its policy and signer; the forged one fails and says why', async () => {
    const inputs = (dir: string) => ({
      require: SIGNED_DEMO_POLICY.join('\n'),
      'trusted-keys': readFileSync(path.join(ROOT, dir, 'trusted-signer.pub.pem'), 'utf8'),
    });
    const ok = tempDir();
    cpSync(path.join(ROOT, 'fixtures/demo-signed'), ok, { recursive: true });
    const pass = await runAction({ workspace: ok, inputs: inputs('fixtures/demo-signed') });
    expect(pass.code, pass.stdout).toBe(0);
    expect(pass.outputs).toMatchObject({ result: 'pass', 'policy-unmet': '0', 'weakest-level': 'asserted', verified: '1' });
    const bad = tempDir();
    cpSync(path.join(ROOT, 'fixtures/demo-signed-failing'), bad, { recursive: true });
    const fail = await runAction({ workspace: bad, inputs: inputs('fixtures/demo-signed-failing') });
    expect(fail.code).toBe(1);
    expect(fail.outputs).toMatchObject({ result: 'fail', 'policy-unmet': '4' });
    const summary = fail.summary;
    expect(summary).toContain('Policy: `github_deploy_key:create=verified`, `workspace_role=observed_confirmed` · **4 call(s) below it**');
    expect(summary).toMatch(/Trusted signers: `sha256:646d6be49d9f…`/);
  });

  it('trims a summary that would pass 1 MiB, and says where the full report is', async () => {
    const ws = tempDir();
    const calls = Array.from({ length: 12_000 }, (_, i) => call(i, 'asserted', `github.add_deploy_key.${'x'.repeat(60)}`));
    writeFiles(ws, { '.assay/runs/huge.json': json(surface(calls)) });
    const r = await runAction({ workspace: ws, token: '', event: PUSH });
    expect(r.code).toBe(0);
    expect(Buffer.byteLength(r.summary)).toBeLessThan(1024 * 1024);
    expect(r.summary).toMatch(/> Summary trimmed: \d+ more row\(s\) not shown\. The full report is in `.*report\.json`/);
    expect(JSON.parse(readFileSync(r.outputs['report-file']!, 'utf8')).calls).toHaveLength(12_000);
  });

  it('escapes workflow-command sequences and control characters from artifacts', async () => {
    const ws = tempDir();
    const evil = 'x\n::error::pwned%0A\u001b[31m@org/team';
    writeFiles(ws, { '.assay/runs/e.json': json(surface([call(1, 'verified', evil)])) });
    const r = await runAction({ workspace: ws, token: '', event: PUSH });
    expect(r.stdout.split('\n').filter((l) => l.startsWith('::error::pwned'))).toEqual([]);
    const line = commands(r.stdout, 'error').find((l) => l.includes('title='))!;
    expect(line).toContain('x\\u000a%3A%3Aerror%3A%3Apwned%250A\\u001b[31m@org/team');
    expect(r.summary).not.toContain('@org');
    expect(r.summary).toContain('&#64;org/team');
  });
});

describe('edge cases', () => {
  it('a 5xx is retried; one that persists falls back only for what was not posted; input findings go to workflow commands, never to the Checks API', async () => {
    const ws = corpus120();
    const r = await runAction({
      workspace: ws,
      inputs: { audit: '.assay/audit\nmissing-dir/*.json' },
      responder: (req, n) =>
        n >= 2
          ? { status: 502, body: { message: 'Bad gateway' } }
          : req.method === 'POST'
            ? { status: 201, body: { id: 9 } }
            : { status: 200, body: {} },
    });
    // The PATCH is tried once and retried twice (plugin-retry), then the rest falls back.
    expect(r.requests.map((q) => q.method)).toEqual(['POST', 'PATCH', 'PATCH', 'PATCH']);
    expect(r.requests.flatMap((q) => q.body.output.annotations).every((a: any) => typeof a.path === 'string' && a.path.length > 0)).toBe(
      true,
    );
    expect(commands(r.stdout, 'warning')[0]).toMatch(
      /Checks API failed \(502: Bad gateway\); 50 annotation\(s\) are on check run 9; falling back to workflow commands for the 70 annotation\(s\) not yet posted/,
    );
    // The outputs name the run the posted annotations went to.
    expect(r.outputs['check-run-id']).toBe('9');
    expect(r.summary).toContain('no_match');
  });

  it('no run artifacts: the step fails and says why, with no file to annotate', async () => {
    const r = await runAction({ workspace: tempDir(), token: '', event: PUSH });
    expect(r.code).toBe(1);
    expect(r.outputs['result']).toBe('fail');
    expect(commands(r.stdout, 'error').some((l) => l.startsWith('::error title=no_artifacts::'))).toBe(true);
  });
});

describe('max-annotations', () => {
  it('caps what goes through the Checks API, failures first, and says how many were left out', async () => {
    const r = await runAction({ workspace: corpus120(), inputs: { 'max-annotations': '60' } });
    expect(r.requests.map((q) => q.body.output.annotations.length)).toEqual([50, 10]);
    const all = r.requests.flatMap((q) => q.body.output.annotations);
    expect(all.filter((a: any) => a.annotation_level === 'failure')).toHaveLength(19);
    expect(r.requests[0]!.body.output.summary).toMatch(/^> 60 more annotation\(s\) were not posted \(max-annotations: 60\)/);
    const bad = await runAction({ workspace: corpus120(), inputs: { 'max-annotations': 'many' } });
    expect(commands(bad.stdout, 'error')[0]).toMatch(/invalid input max-annotations: "many" is not a whole number/);
  });
});

describe('network failure while reporting', () => {
  it('a secondary rate limit (403 or 429) and a plain 429 are retried after their Retry-After, then the annotations arrive', async () => {
    const secondary = 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.';
    for (const [status, message] of [
      [403, secondary],
      [429, secondary],
      [429, 'Too many requests'],
    ] as const) {
      const r = await runAction({
        workspace: demo(),
        responder: (req, n) =>
          n === 1
            ? { status, body: { message }, headers: { 'retry-after': '1' } }
            : req.method === 'POST'
              ? { status: 201, body: { id: 77 } }
              : { status: 200, body: {} },
      });
      expect(r.code, r.stdout).toBe(0);
      expect(r.requests.map((q) => q.method)).toEqual(['POST', 'POST']);
      expect(r.stdout).toMatch(/rate limit( \(429\))? on POST \/repos\/acme\/agents\/check-runs; retrying after 1 s as GitHub asks/);
      expect(commands(r.stdout, 'warning')).toEqual([]);
    }
  });

  it('a rate limit that asks for longer than the bounded wait falls back at once, never failing the step', async () => {
    const t0 = Date.now();
    const r = await runAction({
      workspace: demo(),
      responder: () => ({
        status: 403,
        body: { message: 'You have exceeded a secondary rate limit.' },
        headers: { 'retry-after': '3600' },
      }),
    });
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(r.code).toBe(0);
    expect(r.requests).toHaveLength(1);
    expect(r.stdout).toMatch(/not waiting 3600 s more/);
    expect(commands(r.stdout, 'warning')[0]).toMatch(/falling back to workflow commands/);
  });

  it('a job summary that cannot be written is a warning, never a different verdict', async () => {
    const r = await runAction({ workspace: demo(), env: { GITHUB_STEP_SUMMARY: tempDir() } });
    expect(r.code).toBe(0);
    expect(r.outputs['result']).toBe('pass');
    expect(commands(r.stdout, 'warning')).toContainEqual(expect.stringMatching(/the job summary could not be written/));
  });

  it('sarif-file and report-file committed as links are replaced, never written through (to a file of the runner)', async () => {
    const ws = demo();
    const runner = writeFiles(tempDir(), { '.bashrc': 'mine', 'notes.txt': 'mine too' });
    symlinkSync(path.join(runner, '.bashrc'), path.join(ws, 'receipts.sarif'));
    symlinkSync(path.join(runner, 'notes.txt'), path.join(ws, 'report.json'));
    const r = await runAction({ workspace: ws, inputs: { 'sarif-file': 'receipts.sarif', 'report-file': 'report.json' } });
    expect(r.code, r.stdout).toBe(0);
    expect(readFileSync(path.join(runner, '.bashrc'), 'utf8')).toBe('mine');
    expect(readFileSync(path.join(runner, 'notes.txt'), 'utf8')).toBe('mine too');
    expect(JSON.parse(readFileSync(path.join(ws, 'receipts.sarif'), 'utf8'))).toMatchObject({ version: '2.1.0' });
    expect(JSON.parse(readFileSync(path.join(ws, 'report.json'), 'utf8'))).toMatchObject({ schema: 'receipt-gate.report.v1' });
  });

  it('an output below a directory link the checkout holds, leading out of the workspace, is a configuration error', async () => {
    const ws = demo();
    const runner = tempDir();
    symlinkSync(runner, path.join(ws, 'out'));
    const r = await runAction({ workspace: ws, inputs: { 'sarif-file': 'out/receipts.sarif' } });
    expect(r.code).toBe(1);
    expect(r.outputs['result']).toBe('error');
    expect(commands(r.stdout, 'error').join('\n')).toContain(
      `sarif-file: "out/receipts.sarif" leads out of the workspace through a symbolic link (out is ${realpathSync(runner)}); not written`,
    );
    expect(readdirSync(runner)).toEqual([]);
    // A link that stays inside the workspace is followed, as any directory is.
    mkdirSync(path.join(ws, 'reports'));
    symlinkSync(path.join(ws, 'reports'), path.join(ws, 'here'));
    const inside = await runAction({ workspace: ws, inputs: { 'sarif-file': 'here/receipts.sarif' } });
    expect(inside.code, inside.stdout).toBe(0);
    expect(readdirSync(path.join(ws, 'reports'))).toEqual(['receipts.sarif']);
  });

  it('an outputs file that is missing fails the step with one plain error, never a stack trace', async () => {
    const r = await runAction({ workspace: demo(), spawn: true, env: { GITHUB_OUTPUT: path.join(tempDir(), 'gone', 'output') } });
    expect(r.code).toBe(1);
    expect(commands(r.stdout, 'error')).toEqual([
      expect.stringMatching(/^::error::receipt-gate: internal error: Missing file at path: .*output$/),
    ]);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('goes through the proxy in HTTPS_PROXY / HTTP_PROXY (self-hosted runners)', async () => {
    const r = await runAction({ workspace: demo(), proxy: true });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.proxied).toBeGreaterThan(0);
    expect(r.requests.map((q) => q.method)).toEqual(['POST']);
    expect(commands(r.stdout, 'warning')).toEqual([]);
  });

  it('an unreachable API falls back to workflow commands and never changes the verdict', async () => {
    const r = await runAction({ workspace: demo(), event: PUSH, env: { GITHUB_API_URL: 'http://127.0.0.1:9' } });
    expect(r.code).toBe(0);
    expect(r.requests).toEqual([]);
    expect(commands(r.stdout, 'warning')[0]).toMatch(/the Checks API failed \(network: .*\); falling back to workflow commands/);
    expect(commands(r.stdout, 'notice').length).toBeGreaterThan(0);
    expect(r.outputs['result']).toBe('pass');
  });
});

describe('what a user sees in the first hour', () => {
  afterEach(cleanup);

  it('require-signed-records: an empty trusted-keys (an unset variable) is a configuration error naming both inputs', async () => {
    const r = await runAction({ workspace: demo(), inputs: { 'require-signed-records': 'true', 'trusted-keys': '' } });
    expect(r.code).toBe(1);
    expect(r.outputs['result']).toBe('error');
    expect(r.stdout).toMatch(
      /::error::receipt-gate: invalid input require-signed-records is on, but neither trusted-keys nor trusted-signer-identities is given/,
    );
    expect(r.requests).toEqual([]);
    // Without the switch an empty value still means "no trusted signers".
    const off = await runAction({ workspace: demo(), inputs: { 'trusted-keys': '' } });
    expect(off.outputs['result']).toBe('pass');
  });

  it('a misspelt class in require is a configuration error (result=error) with a suggestion, never a passing gate', async () => {
    const r = await runAction({ workspace: demo(), inputs: { require: 'github_deplyo_key:create=verified' } });
    expect(r.code).toBe(1);
    expect(r.outputs['result']).toBe('error');
    expect(r.stdout).toMatch(/::error::receipt-gate: invalid input require: .*did you mean "github_deploy_key"\?/);
    expect(r.requests).toEqual([]);
  });

  it('in Checks-API mode a finding about an input (a rule that applies to no call) is annotated by a workflow command', async () => {
    const r = await runAction({ workspace: demo(), inputs: { require: 'workspace_member:add=verified\nworkspace_role:modify=verified' } });
    expect(r.requests.length).toBeGreaterThan(0);
    expect(
      commands(r.stdout, 'warning').some((l) => l.includes('rule_unused') && l.includes('require: workspace_role:modify=verified')),
    ).toBe(true);
    expect(r.requests.flatMap((q) => q.body.output.annotations).some((a: any) => a.title === 'rule_unused')).toBe(false);
  });

  it('on a pull request the summary names the merge that was verified; the check run stays on the head', async () => {
    const r = await runAction({ workspace: demo() });
    expect(r.summary).toContain(`Verified the merge of head ${HEAD_SHA} into base ${BASE_SHA}, commit ${MERGE_SHA}`);
    expect(r.requests[0]!.body).toMatchObject({ head_sha: HEAD_SHA });
  });

  it('annotate: failures annotates only what failed or warns; the summary still lists every call', async () => {
    const all = await runAction({ workspace: demo() });
    const failures = await runAction({ workspace: demo(), inputs: { annotate: 'failures' } });
    expect(all.requests[0]!.body.output.annotations.length).toBeGreaterThan(0);
    expect(failures.requests[0]!.body.output.annotations).toEqual([]);
    expect(failures.summary).toContain('### Calls');
    expect(failures.summary.split('\n').filter((l) => l.startsWith('| ') && l.includes('.assay/runs')).length).toBe(9);
  });

  it('outputs check-run-id and check-run-url when a check run was written, empty when none was', async () => {
    const r = await runAction({ workspace: demo() });
    expect(r.outputs).toMatchObject({ 'check-run-id': '4242', 'check-run-url': 'https://github.com/acme/agents/runs/4242' });
    const none = await runAction({ workspace: demo(), token: '', event: PUSH });
    expect(none.outputs).toMatchObject({ 'check-run-id': '', 'check-run-url': '' });
  });
});

describe('the verdict attestation from the action', () => {
  afterEach(cleanup);

  it('vsa-predicate, vsa and vsa-key (PEM text from a secret) write the verdict; the outputs name the files; verify-attestation accepts it', async () => {
    const ws = demo();
    const sha = checkout(ws);
    const keys = tempDir();
    expect((await cli(['keygen', '--out', path.join(keys, 'v')], keys)).code).toBe(0);
    const r = await runAction({
      workspace: ws,
      env: { GITHUB_SHA: sha },
      inputs: {
        'report-file': 'receipt-report.json',
        'vsa-predicate': 'verdict.json',
        vsa: 'receipt-report.json.intoto.jsonl',
        'vsa-key': readFileSync(path.join(keys, 'v.key.pem'), 'utf8'),
      },
    });
    expect(r.code, r.stdout).toBe(0);
    expect(r.outputs).toMatchObject({
      'vsa-predicate-file': path.join(ws, 'verdict.json'),
      'vsa-file': path.join(ws, 'receipt-report.json.intoto.jsonl'),
    });
    const check = await cli(
      [
        'verify-attestation',
        '--trusted-key',
        path.join(keys, 'v.pub.pem'),
        '--report',
        'receipt-report.json',
        'receipt-report.json.intoto.jsonl',
      ],
      ws,
    );
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout.startsWith(`PASSED git+https://github.com/acme/agents@${sha} `)).toBe(true);
    // The key never reaches the disk or the log.
    expect(r.stdout).not.toMatch(/PRIVATE KEY/);
  });

  it('vsa without vsa-key, or a vsa-key that is not a private key, is a configuration error naming the input', async () => {
    const a = await runAction({ workspace: demo(), inputs: { vsa: 'v.jsonl' } });
    expect(a.outputs['result']).toBe('error');
    expect(a.stdout).toMatch(/invalid input vsa: a signed verdict needs vsa-key/);
    const b = await runAction({ workspace: demo(), inputs: { vsa: 'v.jsonl', 'vsa-key': 'not a key' } });
    expect(b.stdout).toMatch(/invalid input vsa-key: holds no PEM block/);
  });
});

describe('producer attestations from the action', () => {
  afterEach(cleanup);

  it('trusted-producers (PEM text): a demo of JSON surfaces is run_unattested; require-attested-runs with it empty is a configuration error', async () => {
    const pem = readFileSync(path.join(ROOT, 'fixtures/signed/test-signer.pub.pem'), 'utf8');
    const r = await runAction({ workspace: demo(), inputs: { 'trusted-producers': pem } });
    expect(r.outputs['result']).toBe('fail');
    expect(JSON.parse(readFileSync(r.outputs['report-file']!, 'utf8')).findings.map((f: { code: string }) => f.code)).toContain(
      'run_unattested',
    );
    const empty = await runAction({ workspace: demo(), inputs: { 'require-attested-runs': 'true' } });
    expect(empty.outputs['result']).toBe('error');
    expect(empty.stdout).toMatch(
      /invalid input require-attested-runs is on, but neither trusted-producers nor trusted-producer-identities is given/,
    );
  });
});

describe("GitHub's contract and a misspelt input (issue 35, items 4 and 7–9)", () => {
  afterEach(cleanup);

  it('4: an input that is not in action.yml (requires, trusted-key) is a configuration error naming the nearest input', async () => {
    for (const [given, near] of [
      ['requires', 'require'],
      ['trusted-key', 'trusted-keys'],
    ] as const) {
      const r = await runAction({ workspace: demo(), inputs: { [given]: 'github_deploy_key=verified' } });
      expect(r.code).toBe(1);
      expect(r.outputs['result']).toBe('error');
      expect(r.stdout).toContain(`${given}: not an input of receipt-gate (did you mean ${near}?)`);
      expect(r.requests).toEqual([]);
    }
  });

  it('7: a 403 after the first batch went out: the outputs name the run the annotations are on, and the warning says what happened', async () => {
    const r = await runAction({
      workspace: corpus120(),
      responder: (req) =>
        req.method === 'POST' ? { status: 201, body: { id: 77, html_url: 'https://github.com/acme/agents/runs/77' } } : forbidden(req, 0),
    });
    expect(r.requests.map((q) => q.method)).toEqual(['POST', 'PATCH']);
    expect(r.outputs).toMatchObject({ 'check-run-id': '77', 'check-run-url': 'https://github.com/acme/agents/runs/77' });
    expect(commands(r.stdout, 'warning')[0]).toContain(
      'a later update of the check run was refused (403); 50 annotation(s) are on check run 77; falling back to workflow commands for the 70 annotation(s) not yet posted',
    );
    expect(commands(r.stdout, 'warning')[0]).not.toContain('may not write checks');
  });

  it('8: a check run id past 2^53 is kept digit for digit', async () => {
    const r = await runAction({
      workspace: demo(),
      responder: (req) =>
        req.method === 'POST'
          ? { status: 201, body: null, text: '{"id":9007199254740993,"html_url":"https://github.com/acme/agents/runs/9007199254740993"}' }
          : { status: 200, body: {} },
    });
    expect(r.outputs['check-run-id']).toBe('9007199254740993');
  });

  it('9: a 502 after GitHub made the run: the retry finds it by name, head SHA and its own external_id (never another job’s run of the name) instead of creating a second one; Accept is vnd.github+json', async () => {
    let made: { name?: string; completed_at?: string; external_id?: string } = {};
    const r = await runAction({
      workspace: corpus120(),
      responder: (req) => {
        if (req.method === 'POST') {
          made = req.body;
          return { status: 502, body: { message: 'Bad gateway' } };
        }
        if (req.method === 'GET')
          return {
            status: 200,
            body: {
              total_count: 1,
              check_runs: [
                // Another job's run of the same name, completed the same second (a matrix job): never this one's.
                { id: 30, name: made.name, completed_at: made.completed_at, external_id: 'another-job', conclusion: 'success' },
                {
                  id: 31,
                  name: made.name,
                  completed_at: made.completed_at,
                  external_id: made.external_id,
                  html_url: 'https://github.com/acme/agents/runs/31',
                },
              ],
            },
          };
        return { status: 200, body: { id: 31 } };
      },
    });
    expect(r.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
    expect(r.requests.map((q) => q.method)).toEqual(['POST', 'GET', 'PATCH', 'PATCH']);
    expect(r.requests.every((q) => q.headers.accept === 'application/vnd.github+json')).toBe(true);
    expect(r.requests[1]?.url).toContain(`/commits/${HEAD_SHA}/check-runs?check_name=`);
    expect(r.outputs['check-run-id']).toBe('31');
  });

  it('9b: a lost create with only another job’s run of the name completed that second: not adopted (a red team), the create is sent again', async () => {
    let made: { name?: string; completed_at?: string } = {};
    let posts = 0;
    const r = await runAction({
      workspace: corpus120(),
      responder: (req) => {
        if (req.method === 'POST') {
          made = req.body;
          posts++;
          return posts === 1 ? { status: 502, body: { message: 'Bad gateway' } } : { status: 201, body: { id: 32 } };
        }
        if (req.method === 'GET')
          return {
            status: 200,
            body: { total_count: 1, check_runs: [{ id: 777, name: made.name, completed_at: made.completed_at, conclusion: 'success' }] },
          };
        return { status: 200, body: { id: 32 } };
      },
    });
    expect(r.requests.map((q) => q.method).slice(0, 3)).toEqual(['POST', 'GET', 'POST']);
    expect(r.outputs['check-run-id']).toBe('32');
  });
});
