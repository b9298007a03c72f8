/**
 * The evidence cache in the action (src/action/cache.ts) through the real @actions/cache against
 * GitHub's cache service on loopback (support/cache-service.ts): the default branch reads every byte
 * and saves; a pull request restores the default branch's entries, checks with GitHub's list of
 * caches that the key was saved there alone, and reads only what changed, with the same report
 * bytes; an archive a pull request saved under the default branch's key prefix is never used.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { BASE_SHA, HEAD_SHA, type Responder, runAction } from '../support/action-harness.js';
import { type CacheServer, cacheServer } from '../support/cache-service.js';
import { decision, demoCorpus, json, record, surface } from '../support/corpus.js';
import { cleanup, tempDir, writeFiles } from '../support/workspace.js';

let server: CacheServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  cleanup();
});

const repository = { default_branch: 'main', full_name: 'acme/agents' };
const push = { name: 'push', payload: { repository, after: 'b'.repeat(40) } };
const pullRequest = {
  name: 'pull_request',
  payload: { repository, pull_request: { number: 7, head: { sha: HEAD_SHA }, base: { sha: BASE_SHA } } },
};
/** The check run's API answers; the list of caches from the cache service's store. */
const answering =
  (s: CacheServer): Responder =>
  (req, n) =>
    req.url.includes('/actions/caches')
      ? s.listing(req, n)
      : req.method === 'POST'
        ? { status: 201, body: { id: 4242, html_url: 'https://github.com/acme/agents/runs/4242' } }
        : { status: 200, body: { id: 4242 } };

const inputs = { annotations: 'workflow-commands', summary: 'false', cache: 'true' };

describe('the evidence cache in the action', () => {
  it('the default branch saves; a pull request restores it, reads only what changed, and writes the same report bytes', async () => {
    server = await cacheServer();
    const s = server;
    const workspace = writeFiles(tempDir(), demoCorpus());
    const onMain = await runAction({ workspace, inputs, event: push, env: s.env('refs/heads/main'), responder: answering(s) });
    expect(onMain.code, onMain.stdout).toBe(0);
    expect(onMain.stdout).toMatch(/0 of 5 file\(s\) from the cache; 5 read and stored/);
    expect(onMain.stdout).toMatch(
      /receipt-gate: cache: 5 entries saved as receipt-gate-evidence-v3-\S+-refs\/heads\/main-[0-9a-f]{12}-b{40}-\d+-\d+-[0-9a-f]{64}\n/,
    );
    expect(s.saved.map((x) => x.ref)).toEqual(['refs/heads/main']);

    const plain = await runAction({ workspace, inputs: { ...inputs, cache: 'false' }, event: pullRequest, responder: answering(s) });
    expect(plain.stdout).toMatch(/receipt-gate: cache: off \(cache: false\)/);
    const pr = await runAction({
      workspace,
      inputs,
      event: pullRequest,
      env: s.env('refs/pull/7/merge'),
      responder: answering(s),
    });
    expect(pr.stdout).toContain(`receipt-gate: cache: ${s.saved[0]?.key} restored from refs/heads/main (5 entries)`);
    expect(pr.stdout).toMatch(/5 of 5 file\(s\) from the cache; 0 read and stored/);
    expect(pr.outputs['report-digest']).toBe(plain.outputs['report-digest']);
    expect(s.saved).toHaveLength(1);

    // The pull request adds a run and its export: only they are read.
    const call = decision({
      tool: 'github.add_deploy_key',
      verb: 'create',
      resourceType: 'github_deploy_key',
      target: { provider: 'github', owner: 'acme', repo: 'new-svc', key_title: 'k' } as never,
      claim: 'verified',
    });
    writeFileSync(path.join(workspace, '.assay/runs/2026-11-30-new.json'), json(surface([call])));
    writeFileSync(path.join(workspace, '.assay/audit/github/2026-11-30.json'), json([record('github', 'github-audit-new', call)]));
    const added = await runAction({ workspace, inputs, event: pullRequest, env: s.env('refs/pull/7/merge'), responder: answering(s) });
    expect(added.stdout).toMatch(/5 of 7 file\(s\) from the cache; 2 read and stored/);
    const addedPlain = await runAction({ workspace, inputs: { ...inputs, cache: 'false' }, event: pullRequest, responder: answering(s) });
    expect(added.outputs['report-digest']).toBe(addedPlain.outputs['report-digest']);

    // A schedule's event names no repository: it runs on the default branch, and saves.
    const nightly = await runAction({
      workspace,
      inputs,
      event: { name: 'schedule', payload: { schedule: '47 5 * * *' } },
      env: s.env('refs/heads/main'),
      responder: answering(s),
    });
    expect(nightly.stdout).toMatch(/receipt-gate: cache: 7 entries saved as /);
  });

  it('the bundled action as a real process: its cache code (a chunk loaded only when used) saves and restores', async () => {
    server = await cacheServer();
    const s = server;
    const workspace = writeFiles(tempDir(), demoCorpus());
    const onMain = await runAction({ workspace, inputs, event: push, env: s.env('refs/heads/main'), responder: answering(s), spawn: true });
    expect(onMain.stdout, onMain.stderr).toMatch(
      /receipt-gate: cache: 5 entries saved as receipt-gate-evidence-v3-\d+\.\d+\.\d+-[0-9a-f]{12}-refs\/heads\/main-/,
    );
    const pr = await runAction({
      workspace,
      inputs,
      event: pullRequest,
      env: s.env('refs/pull/7/merge'),
      responder: answering(s),
      spawn: true,
    });
    expect(pr.stdout, pr.stderr).toMatch(/receipt-gate: cache: \S+ restored from refs\/heads\/main \(5 entries\)/);
    expect(pr.stdout).toMatch(/5 of 5 file\(s\) from the cache; 0 read and stored/);
    expect(pr.outputs['result']).toBe('pass');
  });

  it("a pull request's own archive is never written into the cache folder unless it is the default branch's entries byte for byte", async () => {
    server = await cacheServer();
    const s = server;
    const workspace = writeFiles(tempDir(), demoCorpus());
    const plain = await runAction({ workspace, inputs: { ...inputs, cache: 'false' }, event: pullRequest, responder: answering(s) });
    await runAction({ workspace, inputs, event: push, env: s.env('refs/heads/main'), responder: answering(s) });
    const main = s.saved[0];
    if (!main?.bytes) throw new Error('nothing saved');
    // What a workflow of the pull request can do: save any bytes under any key in its own scope (a restore looks there first).
    const plant = (key: string, bytes: Buffer) =>
      s.saved.push({ key, version: main.version, ref: 'refs/pull/7/merge', bytes, created: s.saved.length });
    const forged = (edit: (text: string) => string): Buffer => gzipSync(edit(gunzipSync(main.bytes as Buffer).toString('utf8')));

    // A key that begins with the default branch's: GitHub would match it first; it is not that key.
    plant(`${main.key}0`, main.bytes);
    const longer = await runAction({ workspace, inputs, event: pullRequest, env: s.env('refs/pull/7/merge'), responder: answering(s) });
    expect(longer.stdout).toContain(
      `receipt-gate: cache: ${main.key} not restored (the cache service has no archive of exactly that key); every file read`,
    );
    expect(longer.outputs['report-digest']).toBe(plain.outputs['report-digest']);

    // The very key, with other entries (a record renamed in one of them): their digest is not the key's.
    s.saved.pop();
    plant(
      main.key,
      forged((t) => t.replace('github-audit-8842211', 'forged-8842211')),
    );
    const same = await runAction({ workspace, inputs, event: pullRequest, env: s.env('refs/pull/7/merge'), responder: answering(s) });
    expect(same.stdout).toContain(`receipt-gate: cache: ${main.key} not used: its entries are not the ones its key names; every file read`);
    expect(same.stdout).not.toMatch(/forged/);
    expect(same.outputs['report-digest']).toBe(plain.outputs['report-digest']);

    // An archive naming a file out of the folder is refused whatever its digest says.
    s.saved.pop();
    plant(
      main.key,
      forged((t) => t.replace(/"name":"[0-9a-f]{64}\.json"/, '"name":"../../escape.json"')),
    );
    const outside = await runAction({ workspace, inputs, event: pullRequest, env: s.env('refs/pull/7/merge'), responder: answering(s) });
    expect(outside.stdout).toMatch(/not used: an entry line is not a name of 64 hex digits/);
    expect(existsSync(path.join(workspace, '..', 'escape.json'))).toBe(false);

    // The same bytes under the same key: the default branch's entries, wherever they were saved.
    s.saved.pop();
    plant(main.key, main.bytes);
    const copy = await runAction({ workspace, inputs, event: pullRequest, env: s.env('refs/pull/7/merge'), responder: answering(s) });
    expect(copy.stdout).toMatch(/5 of 5 file\(s\) from the cache/);
    expect(copy.outputs['report-digest']).toBe(plain.outputs['report-digest']);
  });

  it('a token that may not list caches, a verdict, another branch and pull_request_target: no cache is read or saved', async () => {
    server = await cacheServer();
    const s = server;
    const workspace = writeFiles(tempDir(), demoCorpus());
    await runAction({ workspace, inputs, event: push, env: s.env('refs/heads/main'), responder: answering(s) });
    const denied: Responder = (req, n) =>
      req.url.includes('/actions/caches')
        ? { status: 403, body: { message: 'Resource not accessible by integration' } }
        : answering(s)(req, n);
    const pr = await runAction({ workspace, inputs, event: pullRequest, env: s.env('refs/pull/7/merge'), responder: denied });
    expect(pr.stdout).toMatch(
      /receipt-gate: cache: not restored: listing the repository's caches was refused \(403: the token needs actions: read\); every file read/,
    );
    const verdict = await runAction({
      workspace,
      inputs: { ...inputs, 'vsa-predicate': 'vsa.json' },
      event: push,
      env: { ...s.env('refs/heads/main'), GITHUB_SERVER_URL: 'https://github.com' },
      responder: answering(s),
    });
    expect(verdict.stdout).toMatch(/receipt-gate: cache: off \(a verdict reads every byte\)/);
    const branch = await runAction({ workspace, inputs, event: push, env: s.env('refs/heads/feature'), responder: answering(s) });
    expect(branch.stdout).toMatch(/receipt-gate: cache: off \(refs\/heads\/feature is not the default branch\)/);
    const target = await runAction({
      workspace,
      inputs,
      event: { name: 'pull_request_target', payload: pullRequest.payload },
      env: s.env('refs/heads/main'),
      responder: answering(s),
    });
    expect(target.stdout).toMatch(/receipt-gate: cache: off \(a pull_request_target neither saves nor restores\)/);
    const noService = await runAction({ workspace, inputs, event: pullRequest, responder: answering(s) });
    expect(noService.stdout).toMatch(/receipt-gate: cache: off \(no cache service in this job/);
    expect(s.saved).toHaveLength(1);
  });
});
