/**
 * The CLI can be installed: the staged npm package (scripts/package.mjs) holds the bundle, its
 * licences and the docs, no dev-only path and no dependency; installed from its tarball into an
 * empty folder, `receipt-gate verify` runs on the demo. The publish workflow packs the same way and
 * publishes with npm provenance from the tag, only when the tag names package.json's version.
 */

import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { Report } from '../../src/core/report.js';
import { cleanup, DYING_READER, distFile, ROOT, tempDir } from '../support/workspace.js';

afterAll(cleanup);

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function pack(dir: string): string {
  distFile('cli.js'); // the package is the committed build: refuse a stale one
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/package.mjs'), dir], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.trim();
}

describe('the npm package', () => {
  const out = tempDir();
  const tarball = pack(out);

  it('holds the bundle, its licences and the docs; no source, test, fixture or dependency', () => {
    expect(path.basename(tarball)).toBe(`receipt-gate-${pkg.version}.tgz`);
    const list = spawnSync('tar', ['tzf', tarball], { encoding: 'utf8' }).stdout.trim().split('\n').sort();
    // The launchers, the CLI bundle and its reading thread with their lazily loaded chunks, the licences, the report schema, the docs.
    const allowed =
      /^package\/(dist\/cli\.js|dist\/read-worker\.js|dist\/(cli|read-worker)\/[\w.-]+\.js|dist\/package\.json|dist\/licenses\.txt|package\.json|schemas\/report\.schema\.json|README\.md|LICENSE|CHANGELOG\.md)$/;
    expect(list.filter((f) => !allowed.test(f))).toEqual([]);
    expect(list).toEqual(
      expect.arrayContaining([
        'package/dist/cli.js',
        'package/dist/cli/index.js',
        // Without its reading thread the installed CLI would read every input on one thread, whatever --jobs says.
        'package/dist/read-worker.js',
        'package/dist/read-worker/index.js',
        'package/dist/licenses.txt',
        'package/README.md',
        'package/LICENSE',
      ]),
    );
    const manifest = JSON.parse(spawnSync('tar', ['xzfO', tarball, 'package/package.json'], { encoding: 'utf8' }).stdout);
    expect(manifest).toMatchObject({ name: 'receipt-gate', version: pkg.version, bin: { 'receipt-gate': 'dist/cli.js' }, license: 'MIT' });
    expect(manifest.private).toBeUndefined();
    for (const k of ['dependencies', 'optionalDependencies', 'devDependencies', 'scripts']) expect(manifest[k], k).toBeUndefined();
  });

  it('installed from its tarball into an empty folder, `receipt-gate verify` runs on the demo', () => {
    const home = tempDir();
    writeFileSync(path.join(home, 'package.json'), '{"name":"consumer","private":true}\n');
    const install = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--offline', tarball], { cwd: home, encoding: 'utf8' });
    expect(install.status, install.stderr).toBe(0);
    const demo = path.join(home, 'demo');
    cpSync(path.join(ROOT, 'fixtures/demo'), demo, { recursive: true });
    const bin = path.join(home, 'node_modules', '.bin', process.platform === 'win32' ? 'receipt-gate.cmd' : 'receipt-gate');
    const r = spawnSync(bin, ['verify', '-C', demo, '--format', 'json'], { encoding: 'utf8', shell: process.platform === 'win32' });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).totals).toMatchObject({ calls: 9, verified: 4 });
    const version = spawnSync(bin, ['--version'], { encoding: 'utf8', shell: process.platform === 'win32' });
    expect(version.stdout).toBe(`receipt-gate ${pkg.version}\n`);
    // The installed CLI starts its own reading thread when asked: one that dies on its first file fails that file, so it ran.
    const reader = path.join(home, 'node_modules/receipt-gate/dist/read-worker.js');
    expect(existsSync(reader)).toBe(true);
    writeFileSync(reader, DYING_READER);
    const threads = spawnSync(bin, ['verify', '-C', demo, '--format', 'json', '--jobs', '2'], {
      encoding: 'utf8',
      shell: process.platform === 'win32',
    });
    expect(threads.status, threads.stderr).toBe(1);
    const failed = (JSON.parse(threads.stdout) as Report).findings.filter((f) => f.code === 'invalid_artifact');
    expect(failed.length).toBeGreaterThan(0);
    for (const f of failed) expect(f.message).toMatch(/^the thread reading this file stopped \(.*code 9\); it is not verified$/);
  });
});

interface Step {
  readonly name?: string;
  readonly run?: string;
}

describe.skipIf(process.platform === 'win32')('.github/workflows/publish.yml', () => {
  const wf = parseYaml(readFileSync(path.join(ROOT, '.github/workflows/publish.yml'), 'utf8')) as {
    on: { push: { tags: string[] } };
    permissions: Record<string, string>;
    jobs: { publish: { steps: Step[] } };
  };
  const publish = wf.jobs.publish.steps.find((s) => s.name?.startsWith('Publish')) as Step;

  /** The publish step with `npm publish` recorded (every other npm call is the real npm). */
  function run(tag: string) {
    const root = tempDir();
    const bin = path.join(root, 'bin');
    mkdirSync(bin);
    const log = path.join(root, 'npm.log');
    writeFileSync(log, '');
    const real = spawnSync('bash', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
    writeFileSync(
      path.join(bin, 'npm'),
      `#!/usr/bin/env bash\nif [ "$1" = publish ]; then printf "%s\\n" "$*" >> "${log}"; exit 0; fi\nexec "${real}" "$@"\n`,
    );
    chmodSync(path.join(bin, 'npm'), 0o755);
    const temp = path.join(root, 'runner-temp');
    mkdirSync(temp);
    const r = spawnSync('bash', ['-e', '-c', publish.run as string], {
      cwd: ROOT,
      encoding: 'utf8',
      env: {
        PATH: `${bin}:${path.dirname(process.execPath)}:${process.env['PATH'] ?? ''}`,
        GITHUB_REF_NAME: tag,
        RUNNER_TEMP: temp,
        HOME: root,
      },
    });
    return { status: r.status, stderr: r.stderr, stdout: r.stdout, published: readFileSync(log, 'utf8') };
  }

  it('runs on release tags with the id-token npm provenance needs', () => {
    expect(wf.on.push.tags).toEqual(['v*']);
    expect(wf.permissions).toMatchObject({ 'id-token': 'write', contents: 'read' });
  });

  it("publishes the staged tarball with --provenance when the tag is package.json's version", () => {
    const r = run(`v${pkg.version}`);
    expect(r.status, r.stderr).toBe(0);
    expect(r.published).toMatch(
      new RegExp(`^publish --provenance --access public \\S+/receipt-gate-${pkg.version.replace(/\./g, '\\.')}\\.tgz$`, 'm'),
    );
  });

  it('refuses a tag that is not the version, and publishes nothing', () => {
    const r = run('v9.9.9');
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`tag v9.9.9 is not v${pkg.version}`);
    expect(r.published).toBe('');
  });
});
