/**
 * Incremental verification in the gate (gate/incremental.ts; design/incremental-verification.md,
 * stops 2 and 3): with --cache and a JSON report written to a file, a full run keeps a verification
 * snapshot beside the entries, and a later run whose files are its files, unchanged, plus added files
 * (after them or among them) verifies only those and merges them onto it: the same report bytes as
 * a run without the cache. A changed or removed file, a refused snapshot or an added file coupled to
 * the kept ones is a full run, said with why; any other output takes no part in it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildOf } from '../../src/gate/cache.js';
import type { ReadTask } from '../../src/gate/evidence.js';
import { type OpenReaders, runGate } from '../../src/gate/gate.js';
import { startReaders } from '../../src/gate/readers.js';
import { defaultSettings } from '../../src/gate/settings/parsers.js';
import { renderJson } from '../../src/report/json-report.js';
import { buildBundle } from '../support/bundle-writer.js';
import { addKey, decision, demoCorpus, json, record, surface } from '../support/corpus.js';
import { git } from '../support/recipe.js';
import { cleanup, cli, ROOT, TEST_NOW, tempDir, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

const NEW_RUN = '.assay/runs/2026-12-01-more-keys.json';
const NEW_EXPORT = '.assay/audit/zz/2026-12.json';

/** The demo in a fresh repository, a cache folder outside it, and where reports go. */
function repo(): { dir: string; cache: string; out: string } {
  return { dir: writeFiles(tempDir(), demoCorpus()), cache: path.join(tempDir(), 'cache'), out: tempDir() };
}

/** A run adding a key to a new repository, and the export that records it (as `recordId`): new work. */
function addWork(dir: string, runPath = NEW_RUN, exportPath = NEW_EXPORT, recordId = 'github-audit-9000001'): void {
  const d = addKey({ target: { owner: 'acme', repo: 'new-service', key_title_hash: 'sha256:'.padEnd(71, '7') }, claim: 'verified' });
  writeFiles(
    dir,
    new Map([
      [runPath, json(surface([d]))],
      [exportPath, json([record('github', recordId, d)])],
    ]),
  );
}

/** `verify --format json --output <out>/<name>` with the cache (or not): its stderr and the report's bytes. */
async function verify(r: ReturnType<typeof repo>, name: string, cache = true, extra: readonly string[] = []) {
  const file = path.join(r.out, name);
  const got = await cli(['verify', '--format', 'json', '--output', file, ...(cache ? ['--cache', r.cache] : []), ...extra], r.dir);
  return { code: got.code, stderr: got.stderr, bytes: readFileSync(file, 'utf8') };
}

/** All that changed in the repository at `dir` committed (the first time, `dir` made one). */
function commit(dir: string, message: string): void {
  if (!existsSync(path.join(dir, '.git'))) git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', message);
}

/** New work whose export holds a kept record's identity again (the history's first export holds github-audit-8842211): a merge declines. */
const COUPLED = (dir: string): void => addWork(dir, NEW_RUN, NEW_EXPORT, 'github-audit-8842211');
const IDENTITY = /an audit record’s identity is in both/;

const snapshots = (cache: string): string[] => readdirSync(cache).filter((f) => f.startsWith('snapshot-'));

describe('incremental verification in the gate (stop 2)', () => {
  it('a full run keeps a snapshot; files added after it are verified alone and merged: the bytes of a run without the cache', async () => {
    const r = repo();
    const first = await verify(r, 'first.json');
    expect(first.stderr).toContain('incremental: a full run (no snapshot for this set-up, policy and options); snapshot kept');
    expect(snapshots(r.cache)).toHaveLength(1);
    addWork(r.dir);
    const merged = await verify(r, 'merged.json');
    expect(merged.stderr).toContain('incremental: 2 added file(s) verified and merged onto the snapshot verified at');
    const full = await verify(r, 'full.json', false);
    expect(full.stderr).not.toContain('incremental');
    expect(merged.bytes).toBe(full.bytes);
    expect(merged.code).toBe(full.code);
    // The merged report holds the kept calls and the added one.
    expect(JSON.parse(merged.bytes).calls.some((c: { artifact: string }) => c.artifact === NEW_RUN)).toBe(true);
    expect(JSON.parse(merged.bytes).totals.calls).toBe(JSON.parse(first.bytes).totals.calls + 1);
  });

  it('files added among the kept ones (a run sorting first, an export between two kept ones) merge: the bytes of a run without the cache', async () => {
    const r = repo();
    await verify(r, 'first.json');
    // Runs and exports in folders of their own, as a team with one folder per agent and per provider has them.
    addWork(r.dir, '.assay/runs/2026-10-01-early.json', '.assay/audit/github/2026-11b.json');
    const merged = await verify(r, 'merged.json');
    expect(merged.stderr).toContain('incremental: 2 added file(s) verified and merged onto the snapshot verified at');
    const full = await verify(r, 'full.json', false);
    expect(merged.bytes).toBe(full.bytes);
    expect(merged.code).toBe(full.code);
    const report = JSON.parse(merged.bytes) as { runs: { artifact: string }[]; records: { file: string }[] };
    // The added run is the first run; the added export's record sits between the kept exports'.
    expect(report.runs[0]?.artifact).toBe('.assay/runs/2026-10-01-early.json');
    const files = report.records.map((x) => x.file);
    const at = files.indexOf('.assay/audit/github/2026-11b.json');
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(files.length - 1);
  });

  it('records that wait for their run (stop 3): an export binding a kept run’s calls merges, that run read again from its entry and verified with it', async () => {
    const r = repo();
    // Day one: the agent's run is merged, its call only asserted (its export is not committed yet), and the default branch keeps a snapshot.
    const key = addKey({ target: { owner: 'acme', repo: 'new-service', key_title_hash: 'sha256:'.padEnd(71, '7') }, claim: 'verified' });
    writeFiles(r.dir, new Map([[NEW_RUN, json(surface([key]))]]));
    const first = await verify(r, 'first.json');
    expect(first.code).toBe(1);
    expect(JSON.parse(first.bytes).calls.find((c: { artifact: string }) => c.artifact === NEW_RUN).level).toBe('asserted');
    // Day two: the export that records it.
    writeFiles(r.dir, new Map([[NEW_EXPORT, json([record('github', 'github-audit-9000001', key)])]]));
    const merged = await verify(r, 'merged.json');
    expect(merged.stderr).toContain(
      'incremental: 1 added file(s) verified, with 1 kept run(s) whose calls they bind verified again and merged onto the snapshot verified at',
    );
    // The kept files but that run are hashed and not decoded.
    expect(merged.stderr).toMatch(/\(6 file\(s\), 6 of them hashed and not decoded\)/);
    const full = await verify(r, 'full.json', false);
    expect(merged.bytes).toBe(full.bytes);
    expect(merged.code).toBe(full.code);
    expect(merged.code).toBe(0);
    expect(JSON.parse(merged.bytes).calls.find((c: { artifact: string }) => c.artifact === NEW_RUN).level).toBe('verified');
    // With both kept (a snapshot of day two), another export binding that call: a kept record binds it already, so the run's share of
    // the kept verification is not its own alone: a full run.
    const dayTwo = { ...r, cache: path.join(tempDir(), 'cache') };
    await verify(dayTwo, 'day-two.json');
    writeFiles(r.dir, new Map([['.assay/audit/zz/2027-01.json', json([record('github', 'github-audit-9000002', key)])]]));
    const again = await verify(dayTwo, 'again.json');
    expect(again.stderr).toMatch(/incremental: a full run \(subject digest sha256:[0-9a-f]{64} is in both\)/);
    expect(again.bytes).toBe((await verify(r, 'full2.json', false)).bytes);
  });

  it('a merge that declines keeps a snapshot of every file: the files that made it decline merge on the next run, not decline on each', async () => {
    const r = repo();
    await verify(r, 'first.json');
    const [before] = snapshots(r.cache);
    // An export holding a kept record's identity again (in the default branch once its pull request is merged): the merge declines.
    COUPLED(r.dir);
    const declined = await verify(r, 'declined.json');
    expect(declined.stderr).toMatch(/incremental: a full run \(an audit record’s identity is in both\); snapshot kept \(verified at /);
    expect(declined.bytes).toBe((await verify(r, 'full.json', false)).bytes);
    // Written over the one it declined (the same key: the same set-up, policy and options).
    expect(snapshots(r.cache)).toEqual([before]);
    const again = await verify(r, 'again.json');
    expect(again.stderr).toContain('incremental: 0 added file(s) verified and merged onto the snapshot verified at');
    expect(again.bytes).toBe(declined.bytes);
    // And the work added after it merges onto it.
    const later = addKey({
      target: { owner: 'acme', repo: 'later-service', key_title_hash: 'sha256:'.padEnd(71, '8') },
      claim: 'verified',
    });
    writeFiles(
      r.dir,
      new Map([
        ['.assay/runs/2026-12-02-later.json', json(surface([later]))],
        ['.assay/audit/zz/2027-01.json', json([record('github', 'github-audit-9000002', later)])],
      ]),
    );
    const merged = await verify(r, 'merged.json');
    expect(merged.stderr).toContain('incremental: 2 added file(s) verified and merged onto the snapshot verified at');
    expect(merged.bytes).toBe((await verify(r, 'full2.json', false)).bytes);
  });

  it('a policy under which no merge is made (it grandfathers files) keeps no snapshot: none written on each run for nothing', async () => {
    const r = repo();
    const run = '.assay/runs/2026-11-03-rotate-deploy-keys.json';
    const sha = createHash('sha256')
      .update(readFileSync(path.join(r.dir, run)))
      .digest('hex');
    writeFiles(
      r.dir,
      new Map([
        ['.github/receipt-gate.yml', `version: 1\ngrandfathered:\n  - {run: ${run}, sha256: "${sha}", reason: before the export}\n`],
      ]),
    );
    const first = await verify(r, 'first.json');
    expect(first.stderr).toContain(
      'incremental: a full run (no snapshot for this set-up, policy and options); no snapshot kept: the policy grandfathers files, and no merge is made under it',
    );
    expect(existsSync(r.cache) ? snapshots(r.cache) : []).toEqual([]);
    expect(JSON.parse(first.bytes).totals.grandfathered).toBeGreaterThan(0);
    addWork(r.dir);
    const second = await verify(r, 'second.json');
    expect(second.stderr).toContain('incremental: a full run (no snapshot for this set-up, policy and options); no snapshot kept');
    expect(second.bytes).toBe((await verify(r, 'full.json', false)).bytes);
  });

  it('the same policy bytes read at two paths keep two snapshots: two jobs sharing a cache each merge, neither writes over the other (a red team)', async () => {
    const r = repo();
    const text = 'version: 1\nrules:\n  - name: keys\n    match: {class: github_deploy_key}\n    require: asserted\n';
    writeFiles(
      r.dir,
      new Map([
        ['.github/receipt-gate.yml', text],
        ['policies/copy.yml', text],
      ]),
    );
    const other = ['--policy', 'policies/copy.yml'];
    await verify(r, 'a1.json');
    const b1 = await verify(r, 'b1.json', true, other);
    expect(b1.stderr).toContain('incremental: a full run (no snapshot for this set-up, policy and options); snapshot kept');
    expect(snapshots(r.cache)).toHaveLength(2);
    addWork(r.dir);
    for (const [name, extra] of [
      ['a2.json', []],
      ['b2.json', other],
      ['a3.json', []],
    ] as const) {
      const got = await verify(r, name, true, extra);
      expect(got.stderr).toContain('incremental: 2 added file(s) verified and merged onto the snapshot');
      expect(got.bytes).toBe((await verify(r, `full-${name}`, false, extra)).bytes);
    }
  });

  it('a kept file is hashed, never decoded: its entry is not looked up when the merge holds, and looked up (and read past when damaged) when it declines', async () => {
    const r = repo();
    const first = await verify(r, 'first.json');
    const files = Number(/0 of (\d+) file\(s\) from the cache/.exec(first.stderr)?.[1]);
    expect(files).toBeGreaterThan(3);
    // Every kept file's entry made garbage: a run that looked one up would say it ignored it.
    const entries = readdirSync(r.cache).filter((f) => /^[0-9a-f]{64}\.json$/.test(f));
    expect(entries).toHaveLength(files);
    for (const e of entries) writeFileSync(path.join(r.cache, e), 'garbage\n');
    addWork(r.dir);
    const merged = await verify(r, 'merged.json');
    expect(merged.stderr).toContain(`(${files} file(s), ${files} of them hashed and not decoded)`);
    expect(merged.stderr).toContain(`${files} of ${files + 2} file(s) from the cache; 2 read and stored`);
    expect(merged.stderr).not.toContain('ignored');
    expect(merged.bytes).toBe((await verify(r, 'full.json', false)).bytes);
    // Added work coupled to a kept record: the merge declines, every kept file is collected again, and its damaged entry is said and
    // read past (the added files as the first collection read and stored them).
    const r2 = repo();
    await verify(r2, 'first.json');
    for (const e of readdirSync(r2.cache).filter((f) => /^[0-9a-f]{64}\.json$/.test(f))) writeFileSync(path.join(r2.cache, e), 'garbage\n');
    COUPLED(r2.dir);
    const declined = await verify(r2, 'declined.json');
    expect(declined.stderr).toMatch(IDENTITY);
    expect(declined.stderr).toContain(
      `0 of ${files + 2} file(s) from the cache; ${files + 2} read and stored; ${files} entries ignored and the file read`,
    );
    expect(declined.bytes).toBe((await verify(r2, 'full.json', false)).bytes);
  });

  it('a merge that declines hashes each file once: the second collection takes every file from the entry of the key the first gave it', async () => {
    const r = repo();
    const cache = { dir: r.cache, read: true, build: buildOf('1.0.0').key, incremental: true };
    const collections: ReadTask[][] = [];
    const open: OpenReaders = async (files, setup, jobs) => {
      const take = await startReaders(files, setup, jobs);
      return (tasks) => {
        collections.push([...tasks]);
        return take(tasks);
      };
    };
    const run = async (withCache: boolean) => {
      const g = await runGate({ ...defaultSettings(r.dir, TEST_NOW), cache: withCache ? cache : null }, false, open);
      if (!g.ok) throw new Error(g.reason.message);
      return g.value;
    };
    await run(true);
    COUPLED(r.dir);
    collections.length = 0;
    const declined = await run(true);
    expect(declined.incremental).toMatch(IDENTITY);
    const [first, second, ...more] = collections;
    expect(more).toHaveLength(0);
    // The first collection: the files the snapshot names given with its keys; the second: none kept, each with the key the first gave it.
    const kept = first?.filter((t) => t.kept !== undefined) ?? [];
    expect(kept.length).toBeGreaterThan(3);
    expect(second?.map((t) => t.file.rel)).toEqual(first?.map((t) => t.file.rel));
    expect(second?.every((t) => t.kept === undefined && t.hashed !== undefined)).toBe(true);
    for (const t of kept) expect(second?.find((u) => u.file.rel === t.file.rel)?.hashed).toBe(t.kept);
    // Every key is an entry stored: the files added were read and stored by the first collection.
    for (const t of second ?? []) expect(existsSync(path.join(r.cache, `${t.hashed}.json`))).toBe(true);
    expect(declined.cache).toMatchObject({ files: first?.length, hits: kept.length, stored: 2 });
    expect(renderJson(declined.report, declined.kept)).toBe(renderJson((await run(false)).report));
  });

  it('a declined merge gives no key of its first collection to a path read under two roles, though one reading had none (a red team’s false green)', async () => {
    const r = repo();
    const d = addKey({ target: { owner: 'acme', repo: 'bundled', key_title_hash: 'sha256:'.padEnd(71, '9') }, claim: 'asserted' });
    const bundle = buildBundle({
      runId: 'run_bundled',
      source: 'urn:assay:mcp-proxy',
      time: '2026-11-30T16:30:00Z',
      events: [{ type: 'assay.tool_decision_surface.v0', data: surface([d]) }],
    });
    const B = '.assay/runs/2026-11-30-bundled.tar.gz';
    writeFiles(r.dir, new Map<string, string | Uint8Array>([[B, bundle.gz]]));
    await verify(r, 'first.json');
    // The bundle read as an audit export fails, with no key; read as a run it has one.
    const both = ['--runs', '.assay/runs', '--audit', '.assay/audit', '--audit', B];
    const again = await verify(r, 'again.json', true, both);
    expect(again.stderr).toContain(`incremental: a full run (${B} is read as a run and as an audit export)`);
    const full = await verify(r, 'full.json', false, both);
    expect(full.code).toBe(1);
    expect(JSON.parse(full.bytes).findings.some((f: { code: string; file: string }) => f.code === 'invalid_artifact' && f.file === B)).toBe(
      true,
    );
    expect(again.code).toBe(full.code);
    expect(again.bytes).toBe(full.bytes);
  });

  it('the gate’s checks over every file read a kept file’s facts: a run among the exports, a rule naming a class only kept runs hold', async () => {
    const r = repo();
    // A run object in an export the runs inputs do not read: an error about that file, made by the gate on every run.
    // A kept run of a class the gate's table does not hold: a rule may name it because the input does.
    const vault = decision({
      tool: 'vault.rotate',
      verb: 'rotate',
      resourceType: 'vault_secret',
      target: { path: 'kv/ci' },
      claim: 'none',
    });
    writeFiles(
      r.dir,
      new Map([
        ['.assay/audit/github/2026-11-stray.json', json(surface([addKey()]))],
        ['.assay/runs/2026-11-25-vault.json', json(surface([vault]))],
      ]),
    );
    const rule = ['--require', 'vault_secret:rotate=asserted'];
    const first = await verify(r, 'first.json', true, rule);
    expect(first.stderr).toContain('snapshot kept');
    addWork(r.dir);
    const merged = await verify(r, 'merged.json', true, rule);
    expect(merged.stderr).toMatch(/2 added file\(s\) verified and merged .* of them hashed and not decoded/);
    const full = await verify(r, 'full.json', false, rule);
    expect(merged.bytes).toBe(full.bytes);
    expect(merged.code).toBe(full.code);
    const findings = JSON.parse(merged.bytes).findings as { code: string; file?: string; message: string }[];
    expect(findings.some((f) => f.file === '.assay/audit/github/2026-11-stray.json' && /holds 1 run object/.test(f.message))).toBe(true);
  });

  it.each([
    [
      'a kept file changed',
      (dir: string) => writeFileSync(path.join(dir, '.assay/audit/slack/2026-11.ndjson'), '\n', { flag: 'a' }),
      /slack\/2026-11\.ndjson changed since the snapshot/,
    ],
    [
      'a kept file removed',
      (dir: string) => rmSync(path.join(dir, '.assay/audit/slack/2026-11.ndjson')),
      /slack\/2026-11\.ndjson is no longer read/,
    ],
    ['an added export holding a kept record’s identity again (a copy that means another thing: both are duplicates)', COUPLED, IDENTITY],
  ])('%s: a full run, said with why, the bytes of a run without the cache', async (_what, change, why) => {
    const r = repo();
    await verify(r, 'first.json');
    change(r.dir);
    const again = await verify(r, 'again.json');
    expect(again.stderr).toMatch(why);
    expect(again.stderr).toContain('a full run');
    expect(again.bytes).toBe((await verify(r, 'full.json', false)).bytes);
  });

  it('a policy read at another commit than the kept run’s (a pull request reads it at its base) merges: the bytes of a run without the cache, naming this commit', async () => {
    const r = repo();
    // A rule no call of the demo meets: its finding is placed in the policy file, and names the commit it was read at.
    writeFiles(r.dir, {
      '.github/receipt-gate.yml':
        'version: 1\nrules:\n  - name: archive\n    match: {class: github_deploy_key, target: {repo: [archive-*]}}\n    require: verified\n',
    });
    commit(r.dir, 'history');
    const first = await verify(r, 'first.json', true, ['--policy-ref', 'HEAD']);
    expect(first.stderr).toContain('snapshot kept');
    addWork(r.dir);
    commit(r.dir, 'more work');
    const head = git(r.dir, 'rev-parse', 'HEAD');
    const merged = await verify(r, 'merged.json', true, ['--policy-ref', 'HEAD']);
    expect(merged.stderr).toContain('incremental: 2 added file(s) verified and merged onto the snapshot verified at');
    const full = await verify(r, 'full.json', false, ['--policy-ref', 'HEAD']);
    expect(merged.bytes).toBe(full.bytes);
    expect(merged.code).toBe(full.code);
    const report = JSON.parse(merged.bytes);
    expect(report.policy.source.commit).toBe(head);
    expect(report.findings.filter((f: { message: string }) => f.message.includes(`at commit ${head.slice(0, 12)}`))).not.toEqual([]);
    expect(JSON.parse(first.bytes).policy.source.commit).not.toBe(head);
  });

  it('a trusted root read at another commit with the policy (the same bytes) keeps the cache’s keys: the files come from the cache, and the run merges (a red team)', async () => {
    const r = repo();
    writeFiles(r.dir, {
      '.github/root.json': readFileSync(
        path.join(ROOT, '__tests__/vectors/sigstore-conformance/bundle-verify/rekor2-dsse-happy-path/trusted_root.json'),
      ),
      '.github/receipt-gate.yml':
        'version: 1\nrules:\n  - name: deploy\n    match: {class: github_deploy_key, verb: create}\n    require: observed_confirmed\ntrust:\n  trusted-signer-identities: [https://github.com/acme/x/.github/workflows/a.yml@refs/heads/main]\n  trusted-root: .github/root.json\n',
    });
    commit(r.dir, 'history');
    const flags = ['--policy-ref', 'HEAD', '--source-repository', 'acme/x'];
    const first = await verify(r, 'first.json', true, flags);
    expect(first.stderr).toContain('snapshot kept');
    addWork(r.dir);
    commit(r.dir, 'more work');
    const merged = await verify(r, 'merged.json', true, flags);
    expect(merged.stderr).toMatch(/cache .*: 5 of 7 file\(s\) from the cache/);
    expect(merged.stderr).toContain('incremental: 2 added file(s) verified and merged onto the snapshot verified at');
    const full = await verify(r, 'full.json', false, flags);
    expect(merged.bytes).toBe(full.bytes);
    expect(merged.code).toBe(full.code);
  });

  it('a snapshot changed, cut short or made under another policy is refused with why: a full run, the same bytes', async () => {
    const r = repo();
    await verify(r, 'first.json');
    const [name] = snapshots(r.cache);
    const file = path.join(r.cache, name ?? '');
    const bytes = readFileSync(file);
    addWork(r.dir);
    writeFileSync(file, Buffer.concat([bytes.subarray(0, bytes.length - 2), Buffer.from('x\n')]));
    const changed = await verify(r, 'changed.json');
    expect(changed.stderr).toMatch(/the snapshot is refused: its records are not the bytes its header names/);
    writeFileSync(file, bytes.subarray(0, bytes.length - 100));
    const cut = await verify(r, 'cut.json');
    expect(cut.stderr).toMatch(/the snapshot is refused: .*truncated/);
    const full = await verify(r, 'full.json', false);
    expect(changed.bytes).toBe(full.bytes);
    expect(cut.bytes).toBe(full.bytes);
    // Another policy is another snapshot: none is kept for it yet.
    const strict = await verify(r, 'strict.json', true, ['--strict-observed']);
    expect(strict.stderr).toContain('no snapshot for this set-up, policy and options');
  });

  it('a digit of the snapshot’s header changed is refused (a red team: a kept run’s facts said 1 decision, not 0, and a run with none passed)', async () => {
    const r = repo();
    const empty = json({ schema: 'assay.tool_decision_surface.v0', observed_tool_decisions: [], non_claims: [] });
    writeFiles(
      r.dir,
      new Map([
        ['none/runs/a.json', empty],
        ['none/audit/a.json', '[]\n'],
      ]),
    );
    const only = ['--runs', 'none/runs', '--audit', 'none/audit'];
    await verify(r, 'first.json', true, only);
    const [name] = snapshots(r.cache);
    const file = path.join(r.cache, name ?? '');
    const bytes = readFileSync(file);
    const at = bytes.indexOf('"decisions":0', 65) + 12;
    expect(at).toBeGreaterThan(77);
    bytes[at] = (bytes[at] ?? 0) ^ 1;
    writeFileSync(file, bytes);
    writeFiles(r.dir, new Map([['none/runs/b.json', empty]]));
    const again = await verify(r, 'again.json', true, only);
    expect(again.stderr).toMatch(/the snapshot is refused: its header is not the bytes its first line names/);
    const full = await verify(r, 'full.json', false, only);
    expect(again.bytes).toBe(full.bytes);
    expect(again.code).toBe(full.code);
    expect(full.code).toBe(1);
  });

  it('only a JSON report written to a file takes part: with a SARIF file, or the report on standard output, nothing is kept or said', async () => {
    const r = repo();
    const sarif = await verify(r, 'with-sarif.json', true, ['--sarif-file', path.join(r.out, 'x.sarif')]);
    expect(sarif.stderr).not.toContain('incremental');
    const stdout = await cli(['verify', '--format', 'json', '--cache', r.cache], r.dir);
    expect(stdout.stderr).not.toContain('incremental');
    expect(snapshots(r.cache)).toHaveLength(0);
  });

  it('a file read as a run and as an audit export is a full run, and keeps no snapshot (a red team: its records were left out of both parts, a pass where a full run fails)', async () => {
    const r = repo();
    const mixed = '.assay/runs/zz-mixed.ndjson';
    const d = addKey({ target: { owner: 'acme', repo: 'new-service', key_title_hash: 'sha256:'.padEnd(71, '7') } });
    const stray = addKey({ target: { owner: 'acme', repo: 'nobody-called', key_title_hash: 'sha256:'.padEnd(71, '8') } });
    writeFiles(
      r.dir,
      new Map([[mixed, `${JSON.stringify(surface([d]))}\n${JSON.stringify(record('github', 'github-audit-7777777', stray))}\n`]]),
    );
    await verify(r, 'first.json');
    const both = ['--runs', '.assay/runs', '--audit', '.assay/audit', '--audit', mixed];
    const again = await verify(r, 'again.json', true, both);
    expect(again.stderr).toContain(`incremental: a full run (${mixed} is read as a run and as an audit export); no snapshot kept`);
    const full = await verify(r, 'full.json', false, both);
    expect(again.bytes).toBe(full.bytes);
    expect(again.code).toBe(full.code);
    expect(JSON.parse(full.bytes).records.some((x: { record_id: string }) => x.record_id === 'github-audit-7777777')).toBe(true);
  });

  it('a snapshot that cannot be written is said, leaves nothing half written, and the report is still the full run’s', async () => {
    const r = repo();
    await verify(r, 'first.json');
    const [name] = snapshots(r.cache);
    // Where the snapshot goes, a folder that is not empty: it is refused, and the one kept in its place cannot be renamed there.
    rmSync(path.join(r.cache, name as string));
    writeFiles(path.join(r.cache, name as string), new Map([['in-the-way', 'x']]));
    const again = await verify(r, 'again.json');
    expect(again.stderr).toMatch(
      /incremental: a full run \(the snapshot is refused: [^\n]*\); no snapshot kept: [^\n]*E(ISDIR|NOTEMPTY|EXIST|PERM|ACCES)/,
    );
    expect(readdirSync(r.cache).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(again.bytes).toBe((await verify(r, 'full.json', false)).bytes);
  });

  it("an added evidence bundle merges too: its calls are found by the bundle's path (a red team asked)", async () => {
    const r = repo();
    await verify(r, 'first.json');
    const d = addKey({ target: { owner: 'acme', repo: 'bundled', key_title_hash: 'sha256:'.padEnd(71, '9') }, claim: 'verified' });
    const bundle = buildBundle({
      runId: 'run_bundled',
      source: 'urn:assay:mcp-proxy',
      time: '2026-11-30T16:30:00Z',
      events: [{ type: 'assay.tool_decision_surface.v0', data: surface([d]) }],
    });
    writeFiles(
      r.dir,
      new Map<string, string | Buffer>([
        ['.assay/runs/2026-12-02-bundled.tar.gz', bundle.gz],
        [NEW_EXPORT, json([record('github', 'github-audit-9000555', d)])],
      ]),
    );
    const merged = await verify(r, 'merged.json');
    expect(merged.stderr).toContain('incremental: 2 added file(s) verified and merged');
    expect(merged.bytes).toBe((await verify(r, 'full.json', false)).bytes);
    const calls = JSON.parse(merged.bytes).calls as { artifact: string; level: string }[];
    expect(calls.filter((c) => c.artifact === '.assay/runs/2026-12-02-bundled.tar.gz').map((c) => c.level)).toEqual(['verified']);
  });

  it('an added export with a record that binds no call merges: its nearest call, a kept one, is found in the snapshot’s table (gate/kept-calls.ts)', async () => {
    const r = repo();
    await verify(r, 'first.json');
    // A key added to a kept call's repository under another title: no call has its subject; the nearest is the kept payments-api call.
    const d = addKey({ target: { owner: 'acme', repo: 'payments-api', key_title_hash: 'sha256:'.padEnd(71, '5') } });
    writeFiles(r.dir, new Map([[NEW_EXPORT, json([record('github', 'github-audit-9000777', d)])]]));
    const merged = await verify(r, 'merged.json');
    expect(merged.stderr).toContain('incremental: 1 added file(s) verified and merged onto the snapshot');
    const full = await verify(r, 'full.json', false);
    expect(merged.bytes).toBe(full.bytes);
    expect(merged.code).toBe(full.code);
    const findings = JSON.parse(merged.bytes).findings as { code: string; message: string }[];
    expect(findings.find((f) => f.code === 'record_unmatched')?.message).toMatch(
      /nearest is \.assay\/runs\/\S+ decision \d+ \(line \d+\), whose target differs in key_title_hash\./,
    );
  });
});
