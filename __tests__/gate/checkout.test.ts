/**
 * `checkoutDiffers` (gate/repository.ts): a verdict names the runner's commit only when every file it
 * rests on is that commit's blob, compared byte for byte with the bytes the gate judged; git's word
 * on the checkout is never taken (red teams: a replace ref, a clean filter, a file restored after it
 * was judged, each let a PASSED verdict name a commit whose evidence fails).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseRfc3339 } from '../../src/core/time.js';
import { checkoutDiffers, verdictRestsOn } from '../../src/gate/repository.js';
import { readPolicyFile } from '../../src/read/policy-file.js';
import { loadYamlParser } from '../../src/read/strict-yaml.js';
import { cleanup, tempDir, writeFiles } from '../support/workspace.js';

afterEach(cleanup);
beforeAll(loadYamlParser);

const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' }).trim();
const sha256 = (dir: string, file: string) =>
  createHash('sha256')
    .update(readFileSync(path.join(dir, file)))
    .digest('hex');

function clone(files: Record<string, string>): { dir: string; commit: string } {
  const dir = writeFiles(tempDir(), files);
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'c');
  return { dir, commit: git(dir, 'rev-parse', 'HEAD') };
}
/** What a verdict rests on: these files, and no input to find missing from the checkout. */
const only = (files: ReadonlyMap<string, string | null>) => ({ files, whole: [] as string[] });
const judged = (dir: string, ...files: string[]) => only(new Map(files.map((f) => [f, sha256(dir, f)] as const)));

describe.skipIf(process.platform === 'win32')('checkoutDiffers', () => {
  it('the commit as committed: null; a file judged with other bytes than it holds now: refused', () => {
    const { dir, commit } = clone({ 'a.json': '{"a":1}\n' });
    expect(checkoutDiffers(dir, commit, judged(dir, 'a.json'))).toBeNull();
    // Judged with other bytes, then the commit's restored (a process left running by an earlier step).
    expect(checkoutDiffers(dir, commit, only(new Map([['a.json', '0'.repeat(64)]])))).toBe(
      'a.json changed while the gate ran: the bytes judged are not on disk now',
    );
  });

  it('a replace ref never shows another tree under the commit’s id', () => {
    const { dir, commit } = clone({ 'a.json': '{"a":"fails"}\n' });
    writeFiles(dir, { 'a.json': '{"a":"passes"}\n' });
    git(dir, 'commit', '-qam', 'fake');
    const fake = git(dir, 'rev-parse', 'HEAD');
    git(dir, 'reset', '-q', '--soft', commit);
    git(dir, 'replace', commit, fake);
    expect(checkoutDiffers(dir, commit, judged(dir, 'a.json'))).toMatch(/^a\.json differs from [0-9a-f]{12}'s in the checkout$/);
  });

  it('a clean filter is never run: only CRLF line ends a checkout made are undone', () => {
    const { dir, commit } = clone({ 'a.json': '{"a":"fails"}\n' });
    writeFileSync(path.join(dir, '.git/info/attributes'), '* filter=hide\n');
    git(dir, 'config', 'filter.hide.clean', 'git cat-file blob HEAD:%f');
    writeFiles(dir, { 'a.json': '{"a":"passes"}\n' });
    expect(checkoutDiffers(dir, commit, judged(dir, 'a.json'))).toMatch(/^a\.json differs from/);
    // A checkout with CRLF line ends (core.autocrlf on Windows): the same commit.
    writeFiles(dir, { 'a.json': '{"a":"fails"}\r\n' });
    expect(checkoutDiffers(dir, commit, judged(dir, 'a.json'))).toBeNull();
  });

  // A red team's false red: a blob with mixed line ends, checked out under eol=crlf (its CRLFs kept, each lone LF made CRLF), was refused.
  it('a blob with mixed line ends checked out under eol=crlf is the commit; other bytes beside it are not', () => {
    const { dir, commit } = clone({ 'a.json': '{"a":1,\r\n"b":2}\n' });
    writeFiles(dir, { 'a.json': '{"a":1,\r\n"b":2}\r\n' });
    expect(checkoutDiffers(dir, commit, judged(dir, 'a.json'))).toBeNull();
    writeFiles(dir, { 'a.json': '{"a":1,\r\n"b":3}\r\n' });
    expect(checkoutDiffers(dir, commit, judged(dir, 'a.json'))).toMatch(/^a\.json differs from/);
    // The blob's own CRLF made LF is no checkout's.
    writeFiles(dir, { 'a.json': '{"a":1,\n"b":2}\r\n' });
    expect(checkoutDiffers(dir, commit, judged(dir, 'a.json'))).toMatch(/^a\.json differs from/);
  });

  it('a Git LFS pointer in the commit holds the bytes whose sha256 and size it names, and no others', () => {
    const content = '{"a":"large export"}\n';
    const oid = createHash('sha256').update(content).digest('hex');
    const { dir, commit } = clone({ 'a.json': `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${content.length}\n` });
    writeFiles(dir, { 'a.json': content });
    expect(checkoutDiffers(dir, commit, judged(dir, 'a.json'))).toBeNull();
    writeFiles(dir, { 'a.json': '{"a":"other bytes"}\n' });
    expect(checkoutDiffers(dir, commit, judged(dir, 'a.json'))).toMatch(/^a\.json differs from/);
  });

  it('paths are read as the tree names them (./, a folder), a link in the commit is refused, a file outside it is not in its tree', () => {
    const { dir, commit } = clone({ '.github/k.pem': 'k', 'x/y.json': '{}' });
    expect(checkoutDiffers(dir, commit, only(new Map([['./.github/k.pem', null]])))).toBeNull();
    // From a subfolder (-C, a working-directory): paths relative to it, one above it too; none outside the clone.
    expect(
      checkoutDiffers(
        path.join(dir, 'x'),
        commit,
        only(
          new Map([
            ['y.json', null],
            ['../.github/k.pem', null],
          ]),
        ),
      ),
    ).toBeNull();
    expect(checkoutDiffers(path.join(dir, 'x'), commit, only(new Map([['../../elsewhere.pem', null]])))).toMatch(
      /is not in [0-9a-f]{12}'s tree/,
    );
    expect(checkoutDiffers(dir, commit, only(new Map([['gone.json', null]])))).toMatch(/^gone\.json is not in [0-9a-f]{12}'s tree/);
    const other = clone({ 'target.json': '{}' });
    symlinkSync('target.json', path.join(other.dir, 'l.json'));
    git(other.dir, 'add', '-A');
    git(other.dir, 'commit', '-qm', 'link');
    expect(checkoutDiffers(other.dir, git(other.dir, 'rev-parse', 'HEAD'), only(new Map([['l.json', null]])))).toMatch(
      /^l\.json is a symbolic link in [0-9a-f]{12}/,
    );
    expect(checkoutDiffers(dir, 'f'.repeat(40), only(new Map()))).toMatch(/^the checkout is at [0-9a-f]{12}, not at ffffffffffff/);
  });

  // A sparse checkout, or a step that deleted a failing run, let a signed PASSED verdict name a commit whose full tree fails (a red team).
  it('every file of the commit under an input, and the policy path, is in the checkout as a file: a missing one is refused, whatever its name', () => {
    const { dir, commit } = clone({ 'runs/a.json': '{}', 'runs/b.json': '{}', 'runs/notes.md': 'x', 'other/c.json': '{}', 'p.yml': 'x' });
    const rests = (asked: string[]) => {
      const policy = { kind: 'none' } as unknown as Parameters<typeof verdictRestsOn>[2];
      return verdictRestsOn(dir, new Map([['runs/a.json', sha256(dir, 'runs/a.json')]]), policy, [], asked);
    };
    const head = commit;
    expect(checkoutDiffers(dir, head, rests(['runs']))).toBeNull();
    // Whatever its name: the gate reads a folder's other files for evidence; a folder at a file's path is no file.
    execFileSync('rm', [path.join(dir, 'runs/notes.md')]);
    expect(checkoutDiffers(dir, head, rests(['runs']))).toMatch(
      /^runs\/notes\.md is in [0-9a-f]{12}'s tree under runs, but not in the checkout/,
    );
    mkdirSync(path.join(dir, 'runs/notes.md'));
    expect(checkoutDiffers(dir, head, rests(['runs']))).toMatch(/^runs\/notes\.md is in/);
    execFileSync('rmdir', [path.join(dir, 'runs/notes.md')]);
    writeFiles(dir, { 'runs/notes.md': 'x' });
    expect(checkoutDiffers(dir, head, rests(['runs']))).toBeNull();
    execFileSync('rm', [path.join(dir, 'runs/b.json'), path.join(dir, 'other/c.json')]);
    expect(checkoutDiffers(dir, head, rests(['runs']))).toMatch(
      /^runs\/b\.json is in [0-9a-f]{12}'s tree under runs, but not in the checkout/,
    );
    expect(checkoutDiffers(dir, head, rests(['runs/*.json']))).toMatch(/^runs\/b\.json is in/);
    expect(checkoutDiffers(dir, head, rests(['runs/a.json']))).toBeNull();
    expect(checkoutDiffers(dir, head, rests(['runs/a.json', 'other/c.json']))).toMatch(
      /^other\/c\.json is in [0-9a-f]{12}'s tree, but not/,
    );
    // The policy's default path, when no policy was read: a policy the checkout lacks is no policy.
    writeFiles(dir, { 'runs/b.json': '{}', 'other/c.json': '{}' });
    writeFiles(dir, { '.github/receipt-gate.yml': 'version: 1\n' });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'policy');
    const withPolicy = git(dir, 'rev-parse', 'HEAD');
    expect(checkoutDiffers(dir, withPolicy, rests(['runs']))).toBeNull();
    execFileSync('rm', [path.join(dir, '.github/receipt-gate.yml')]);
    expect(checkoutDiffers(dir, withPolicy, rests(['runs']))).toMatch(
      /^\.github\/receipt-gate\.yml is in [0-9a-f]{12}'s tree, but not in the checkout/,
    );
  });

  // The policy was compared with its blob only: one swapped in for the run and restored before the check passed.
  it('the policy read from disk is compared with the bytes judged: restored after the run, it is refused', () => {
    const text = '\uFEFFversion: 1\nrules: []\n';
    const { dir, commit } = clone({ 'p.yml': text });
    const now = parseRfc3339('2026-12-01T00:00:00Z');
    if (!now.ok) throw new Error(now.reason);
    const read = (t: string) => {
      const r = readPolicyFile(t, { path: 'p.yml', commit: null, now: now.value, signers: null });
      if (!r.ok) throw new Error(JSON.stringify(r.reason));
      return r.value;
    };
    const rests = verdictRestsOn(dir, new Map(), read(text), [], []);
    expect(rests.files.get('p.yml')).toBe(sha256(dir, 'p.yml'));
    expect(checkoutDiffers(dir, commit, rests)).toBeNull();
    // A looser policy judged the run; the commit's bytes are back on disk when the verdict is asked for.
    const swapped = verdictRestsOn(dir, new Map(), read('version: 1\ndefault: asserted\nrules: []\n'), [], []);
    expect(checkoutDiffers(dir, commit, swapped)).toBe('p.yml changed while the gate ran: the bytes judged are not on disk now');
  });
});
