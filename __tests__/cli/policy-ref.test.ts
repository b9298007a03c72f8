/**
 * `--policy-ref` and `policy check --against`: what a ref names is read as the action reads a pull
 * request's base (docs/policy.md §9–§11), never more loosely (red teams: a blobless clone read the
 * base's policy as absent, a case variant of the policy's name left no policy, a tag chose the
 * commit, a replayed call took a grandfathered record).
 */

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.js';
import { addKey, deployKey, json, ndjson, record, surface, testSigner } from '../support/corpus.js';
import { LOOSE, POLICY, STRICT } from '../support/policies.js';
import { cleanup, cli, tempDir, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

const NOW = '2026-12-01T12:00:00Z';
const key = (title: string, claim: 'asserted' | 'verified' = 'asserted') =>
  addKey({ target: deployKey({ owner: 'acme', repo: 'prod-api', title }), claim });
const RUNS = { '.assay/runs/a.json': json(surface([key('k1')])) };

const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...args], {
    cwd: dir,
    encoding: 'utf8',
  }).trim();
/** `files` committed in a new repository at `dir` (or on its current branch), the commit's id. */
function commit(dir: string, files: Record<string, string>, message = 'c'): string {
  writeFiles(dir, files);
  if (!git(dir, 'rev-parse', '--is-inside-work-tree').startsWith('true')) git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', message);
  return git(dir, 'rev-parse', 'HEAD');
}
const repo = (): string => {
  const dir = tempDir();
  git(dir, 'init', '-q');
  return dir;
};
const verify = (dir: string, ...extra: string[]) => cli(['verify', '-C', dir, '--format', 'json', '--now', NOW, ...extra], dir);

/**
 * A repository whose one commit holds a strict policy that requires signed records but grandfathers
 * an unsigned 2025 audit file, that file, and the 2025 run its record binds.
 */
function grandfatheredHistory(): { readonly dir: string; readonly base: string } {
  const AUDIT = '.assay/audit/github/2025-legacy.ndjson';
  const audit = ndjson([record('github', 'r-legacy', key('legacy'))]);
  const sha = createHash('sha256').update(audit).digest('hex');
  const signer = testSigner();
  const policy = `${STRICT}trust:\n  trusted-keys: [.github/export.pub.pem]\n  require-signed-records: true\ngrandfathered:\n  - audit: ${AUDIT}\n    sha256: ${sha}\n    reason: exports before signing\n`;
  const dir = repo();
  const base = commit(dir, {
    [POLICY]: policy,
    '.github/export.pub.pem': signer.pem,
    [AUDIT]: audit,
    '.assay/runs/2025-old.json': json(surface([key('legacy')])),
  });
  return { dir, base };
}

describe('--policy-ref reads the commit as the action reads a base', () => {
  it('a blobless clone that cannot fetch the base’s policy is a configuration error, never "no policy at the base"', async () => {
    const origin = repo();
    const base = commit(origin, { ...RUNS, [POLICY]: STRICT });
    commit(origin, { [POLICY]: LOOSE }, 'loosen');
    const bare = path.join(tempDir(), 'origin.git');
    git(origin, 'clone', '-q', '--bare', origin, bare);
    git(bare, 'config', 'uploadpack.allowFilter', 'true');
    const clone = path.join(tempDir(), 'clone');
    git(origin, 'clone', '-q', '--filter=blob:none', `file://${bare}`, clone);
    renameSync(bare, `${bare}.gone`);
    const r = await verify(clone, '--policy-ref', base);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`--policy-ref ${base}: git show ${base.slice(0, 12)}:\\.github/receipt-gate\\.yml failed`));
    // The control: fetched, the base's policy judges.
    renameSync(`${bare}.gone`, bare);
    const fetched = await verify(clone, '--policy-ref', base);
    expect(fetched.code).toBe(1);
    expect((JSON.parse(fetched.stdout) as Report).policy.source).toMatchObject({ commit: base });
  });

  it.each([
    '.github/Receipt-Gate.yml',
    '.github/receipt-gate.YML',
    'RECEIPT-GATE.yaml',
    '.GitHub/receipt-gate.yml',
    '.github/Receipt-Gate/main.yml',
    // Misspelt names (a newcomer's red team: each ran the gate with no policy).
    '.github/recipt-gate.yml',
    '.github/receipt_gate.yml',
    '.github/receipt-gates.yml',
    '.github/receipt-gate.yml.yml',
    '.github/receipt-gate.yml.txt',
    '.github/receipt-gate.ym',
    '.github/receipt.gate.yml',
    'receipt.gate.yml',
    '.github/receipt-gate',
    // Words before the extension (a red team).
    '.github/receipt-gate.policy.yml',
    '.github/receipt-gate.prod.yaml',
    'receipt-gate.config.yml',
  ])('a policy at %s, a case variant of a near-miss path, is a configuration error at the ref', async (variant) => {
    const dir = repo();
    const at = commit(dir, { ...RUNS, [variant]: STRICT });
    const r = await verify(dir, '--policy-ref', at);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(variant);
  });

  it.skipIf(process.platform !== 'linux')(
    'on a case-sensitive disk too, with no --policy-ref; files of other names are not near misses',
    async () => {
      const dir = writeFiles(tempDir(), { ...RUNS, '.github/Receipt-Gate.yml': STRICT });
      const r = await verify(dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('.github/Receipt-Gate.yml');
      const others = writeFiles(tempDir(), {
        ...RUNS,
        '.github/dependabot.yml': 'version: 2\n',
        '.github/release-drafter.yml': 'x: 1\n',
        'receipt-report.json': '{}',
        'receipt-gate.json': '{}',
        'receipt-page.yml': 'x: 1\n',
        '.github/receipt-date.json': '{}',
        '.receipt-gate/README.md': 'the CLI, cloned by a recipe',
      });
      expect((await verify(others)).code).toBe(0);
      // At a commit too: a folder at the root is no file there.
      git(others, 'init', '-q');
      const at = commit(others, {});
      expect((await verify(others, '--policy-ref', at)).code).toBe(0);
    },
  );

  it('a name that is both a tag and a remote branch is refused, naming both; the full ref name is read', async () => {
    const dir = repo();
    const strict = commit(dir, { ...RUNS, [POLICY]: STRICT });
    git(dir, 'update-ref', 'refs/remotes/origin/main', strict);
    const loose = commit(dir, { [POLICY]: LOOSE }, 'loosen');
    git(dir, 'tag', 'origin/main', loose);
    const r = await verify(dir, '--policy-ref', 'origin/main');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /--policy-ref: "origin\/main" is ambiguous: refs\/tags\/origin\/main \([0-9a-f]{12}\), refs\/remotes\/origin\/main \([0-9a-f]{12}\)/,
    );
    const against = await cli(['policy', 'check', '-C', dir, '--now', NOW, '--against', 'origin/main'], dir);
    expect(against.code).toBe(2);
    expect(against.stderr).toMatch(/--against: no such file, and "origin\/main" is ambiguous/);
    const full = await verify(dir, '--policy-ref', 'refs/remotes/origin/main');
    expect(full.code).toBe(1);
    expect((JSON.parse(full.stdout) as Report).policy.source).toMatchObject({ commit: strict });
    // Revision suffixes skipped the check (a red team): not read.
    for (const suffixed of ['origin/main^0', 'origin/main~0', 'origin/main^{commit}']) {
      const r = await verify(dir, '--policy-ref', suffixed);
      expect(r.code, suffixed).toBe(2);
      expect(r.stderr).toContain('is not a ref name or a commit id (revision suffixes such as ^, ~ or @{…} are not read');
    }
    // A tag named like the abbreviated id of the strict commit: git takes the tag (a red team).
    const short = strict.slice(0, 12);
    git(dir, 'tag', short, loose);
    const abbreviated = await verify(dir, '--policy-ref', short);
    expect(abbreviated.code).toBe(2);
    expect(abbreviated.stderr).toMatch(new RegExp(`"${short}" is ambiguous: refs/tags/${short} \\([0-9a-f]{12}\\), the commit ${short}`));
    git(dir, 'tag', '-d', short);
    expect((await verify(dir, '--policy-ref', short)).code).toBe(1);
    // A name only one ref holds is read as git reads it.
    git(dir, 'tag', '-d', 'origin/main');
    expect((await verify(dir, '--policy-ref', 'origin/main')).code).toBe(1);
  });

  it('a grandfathered audit file’s records bind only calls of runs the ref holds with the same bytes, never a call the checkout adds', async () => {
    const { dir, base } = grandfatheredHistory();
    const same = await verify(dir, '--policy-ref', base);
    expect(same.code, same.stderr).toBe(0);
    writeFiles(dir, { '.assay/runs/2026-new.json': json(surface([key('legacy', 'verified')])) });
    const replay = await verify(dir, '--policy-ref', base);
    expect(replay.code).toBe(1);
    const report = JSON.parse(replay.stdout) as Report;
    expect(report.calls.find((c) => c.artifact === '.assay/runs/2026-new.json')?.level).not.toBe('verified');
    expect(report.totals.policy_unmet).toBeGreaterThan(0);
  });

  it('policy check --against REF and --policy-ref REF hold a grandfathered audit file to the history at REF, as verify --policy-ref does (a red team)', async () => {
    const { dir, base } = grandfatheredHistory();
    const check = (...extra: string[]) => cli(['policy', 'check', '-C', dir, '--now', NOW, ...extra], dir);
    // The history as the ref holds it: the grandfathered record meets the old run's call, and nothing changes.
    const history = await check('--policy-ref', base, '--against', base);
    expect(history.code, history.stderr).toBe(0);
    expect(history.stdout).toMatch(/prod-keys: 1 call\(s\), 1 met, 0 unmet/);
    expect(history.stdout).toContain(`against ${base}: no call, record, statement or run changes verdict`);
    // The checkout replaces the old run by one replaying its call: under the ref's policy the grandfathered record binds it no more.
    rmSync(path.join(dir, '.assay/runs/2025-old.json'));
    writeFiles(dir, { '.assay/runs/2026-new.json': json(surface([key('legacy', 'verified')])) });
    const verified = await verify(dir, '--policy-ref', base);
    expect(verified.code).toBe(1);
    expect((JSON.parse(verified.stdout) as Report).totals.policy_unmet).toBe(1);
    // policy check at the ref judges as verify --policy-ref does.
    const atRef = await check('--policy-ref', base);
    expect(atRef.code, atRef.stderr).toBe(0);
    expect(atRef.stdout).toMatch(/prod-keys: 1 call\(s\), 0 met, 1 unmet/);
    // --against REF too: the file on disk (the same text, no commit to hold it to) meets the call; the ref does not.
    const against = await check('--against', base);
    expect(against.code, against.stderr).toBe(0);
    expect(against.stdout).toMatch(/prod-keys: 1 call\(s\), 1 met, 0 unmet/);
    expect(against.stdout).toContain(`against ${base}: 1 call(s) of prod-keys: under ${base}: unmet; under this file: met`);
  });
});
