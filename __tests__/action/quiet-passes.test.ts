/**
 * Nothing passes quietly, the action's side (issue 42; docs/policy.md §11): the base read refuses
 * links, ref names and a 404 it cannot explain; a near-miss policy path is named; the outputs count
 * what the report counts; a configuration error has a job summary; an output that cannot be written
 * says so as the CLI does; a lost check-run create is retried once. Against a loopback GitHub.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.js';
import { type ActionRun, BASE_SHA, checkout, HEAD_SHA, runAction } from '../support/action-harness.js';
import { addKey, coverageStatement, deployKey, json, ndjson, serverLog, surface } from '../support/corpus.js';
import { LOOSE, POLICY, STRICT } from '../support/policies.js';
import { cleanup, cli, tempDir, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

const prod = (i: number) => addKey({ target: deployKey({ owner: 'acme', repo: 'prod-api', title: `k${i}` }) });
const runs = { '.assay/runs/a.json': json(surface([prod(1), prod(2)])) };
const workspace = (head: Record<string, string> = {}): string => writeFiles(tempDir(), { ...runs, ...head });
const pull = (base: string) => ({
  name: 'pull_request',
  payload: { pull_request: { number: 7, head: { sha: HEAD_SHA }, base: { sha: base } } },
});
const reportOf = (r: ActionRun): Report => JSON.parse(readFileSync(r.outputs['report-file'] ?? '', 'utf8')) as Report;

/** A clone whose one commit holds `files` (the base), its id. */
function commitBase(ws: string, files: Record<string, string>, links: Record<string, string> = {}): string {
  writeFiles(ws, files);
  for (const [at, to] of Object.entries(links)) {
    mkdirSync(path.dirname(path.join(ws, at)), { recursive: true });
    symlinkSync(to, path.join(ws, at));
  }
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: ws, encoding: 'utf8' }).trim();
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'base');
  return git('rev-parse', 'HEAD');
}

describe('the base read holds (a pull request controls the head and the event payload)', () => {
  it('1: a base policy that is a symbolic link is refused through git, where git gives the link text and the repair path judged the PR under its own looser policy', async () => {
    const ws = workspace();
    const base = commitBase(ws, { 'policies/strict.yml': STRICT }, { [POLICY]: '../policies/strict.yml' });
    // The head replaces the link with a looser file of its own.
    execFileSync('rm', [path.join(ws, POLICY)]);
    writeFiles(ws, { [POLICY]: LOOSE });
    const r = await runAction({ workspace: ws, event: pull(base) });
    expect(r.outputs['result']).toBe('error');
    expect(r.stdout).toMatch(/\.github\/receipt-gate\.yml at the base commit [0-9a-f]{12}: \.github\/receipt-gate\.yml is a symbolic link/);
  });

  it('1: through the contents API the same link is refused (GitHub answers with the target’s content and path)', async () => {
    const r = await runAction({ workspace: workspace({ [POLICY]: LOOSE }), base: { [POLICY]: STRICT }, links: [POLICY] });
    expect(r.outputs['result']).toBe('error');
    expect(r.stdout).toMatch(
      /\.github\/receipt-gate\.yml is a symbolic link: a policy or trust file is read only as a regular file.*at the base commit/,
    );
  });

  it('1: a policy file of the checkout that is a link is refused on a push too', async () => {
    const ws = workspace({ 'policies/strict.yml': STRICT });
    mkdirSync(path.join(ws, '.github'));
    symlinkSync('../policies/strict.yml', path.join(ws, POLICY));
    const r = await runAction({ workspace: ws, event: { name: 'push', payload: { after: HEAD_SHA } } });
    expect(r.outputs['result']).toBe('error');
    expect(r.stdout).toMatch(/is a symbolic link/);
  });

  it.each(['HEAD', 'main', 'refs/heads/main', 'cccc'])(
    '2: a base sha %s (a tampered payload) is not a commit id: result=error, never the checkout’s ref',
    async (sha) => {
      const ws = workspace({ [POLICY]: LOOSE });
      commitBase(ws, {});
      const r = await runAction({ workspace: ws, event: pull(sha) });
      expect(r.outputs['result']).toBe('error');
      expect(r.stdout).toMatch(/is not a commit id \(40 or 64 hex digits\)/);
      expect(r.contentRequests).toEqual([]);
    },
  );

  it('3: a 404 is "no file" only when the commit exists; a commit GitHub does not have, or a token without access, is result=error naming the base read', async () => {
    const missing = await runAction({ workspace: workspace({ [POLICY]: LOOSE }), commitStatus: 404 });
    expect(missing.outputs['result']).toBe('error');
    expect(missing.stdout).toMatch(
      /the contents API answered 404 and the commit itself cannot be read \(HTTP 404: No commit found for SHA/,
    );
    // The commit exists: the base has no policy (nor one at a near-miss path: its tree, one request), and the gate runs under the inputs (the head's addition shown).
    const none = await runAction({ workspace: workspace({ [POLICY]: LOOSE }) });
    expect(none.outputs['result']).toBe('pass');
    expect(none.contentRequests.map((q) => q.url.replace(/\?.*/, ''))).toEqual([
      '/repos/acme/agents/contents/.github/receipt-gate.yml',
      expect.stringMatching(/^\/repos\/acme\/agents\/git\/commits\/c{40}$/),
      expect.stringMatching(/^\/repos\/acme\/agents\/git\/trees\/c{40}$/),
    ]);
  });

  it('3: an unreachable API is result=error naming the base read, never "internal error: connect ECONNREFUSED"', async () => {
    const r = await runAction({ workspace: workspace({ [POLICY]: LOOSE }), env: { GITHUB_API_URL: 'http://127.0.0.1:9' } });
    expect(r.outputs['result']).toBe('error');
    expect(r.stdout).toMatch(/\.github\/receipt-gate\.yml at the base commit cannot be read: the GitHub API did not answer/);
    expect(r.stdout).not.toMatch(/internal error/);
  });

  it('14: a policy at a near-miss path while the default is missing: a configuration error naming the file and the policy input, at the base (API and git) and on a push', async () => {
    const viaApi = await runAction({ workspace: workspace(), base: { '.github/receipt-gate.yaml': STRICT } });
    expect(viaApi.outputs['result']).toBe('error');
    expect(viaApi.stdout).toMatch(
      /no policy file at \.github\/receipt-gate\.yml, but \.github\/receipt-gate\.yaml exists at the base commit/,
    );
    expect(viaApi.stdout).toMatch(/policy: \.github\/receipt-gate\.yaml/);
    const ws = workspace();
    const base = commitBase(ws, { 'receipt-gate.yml': STRICT });
    const viaGit = await runAction({ workspace: ws, event: pull(base) });
    expect(viaGit.stdout).toMatch(/but receipt-gate\.yml exists at the base commit/);
    const push = await runAction({
      workspace: workspace({ '.github/receipt-gate/policy.yml': STRICT }),
      event: { name: 'push', payload: { after: HEAD_SHA } },
    });
    expect(push.outputs['result']).toBe('error');
    expect(push.stdout).toMatch(/but \.github\/receipt-gate\/policy\.yml exists/);
  });

  it('a pull request that leaves its policy at a near-miss path (renamed, or added there) fails with policy_invalid: once merged it would stop every pull request (a red team: the rename passed with a notice)', async () => {
    const renamed = await runAction({
      workspace: workspace({ '.github/receipt-gate.yaml': STRICT }),
      base: { '.github/receipt-gate.yml': STRICT },
    });
    expect(renamed.outputs['result']).toBe('fail');
    const report = JSON.parse(readFileSync(renamed.outputs['report-file'] ?? '', 'utf8')) as Report;
    const invalid = report.findings.find((f) => f.code === 'policy_invalid');
    expect(invalid).toMatchObject({ severity: 'error', file: '.github/receipt-gate.yaml', line: 1 });
    expect(invalid?.message).toMatch(
      /this pull request leaves no policy file at \.github\/receipt-gate\.yml, but \.github\/receipt-gate\.yaml exists: once merged the gate stops every pull request/,
    );
    // A first policy added at a near-miss path: the same.
    const added = await runAction({ workspace: workspace({ 'receipt-gate.yml': STRICT }), base: {} });
    expect(added.outputs['result']).toBe('fail');
    const first = JSON.parse(readFileSync(added.outputs['report-file'] ?? '', 'utf8')) as Report;
    expect(first.findings.find((f) => f.code === 'policy_invalid')?.message).toMatch(/but receipt-gate\.yml exists: once merged/);
    // Renamed to a case variant (a red team: it passed with a notice, then no policy was in effect on a case-sensitive runner).
    if (process.platform === 'linux') {
      const cased = await runAction({
        workspace: workspace({ '.github/Receipt-Gate.yml': STRICT }),
        base: { '.github/receipt-gate.yml': STRICT },
      });
      expect(cased.outputs['result']).toBe('fail');
      const caseReport = JSON.parse(readFileSync(cased.outputs['report-file'] ?? '', 'utf8')) as Report;
      expect(caseReport.findings.find((f) => f.code === 'policy_invalid')?.message).toMatch(
        /but \.github\/Receipt-Gate\.yml exists: once merged/,
      );
    }
    // With the policy at the default path too, the other file is not a near miss of a missing one.
    const both = await runAction({
      workspace: workspace({ '.github/receipt-gate.yml': STRICT, '.github/receipt-gate.yaml': STRICT }),
      base: { '.github/receipt-gate.yml': STRICT },
    });
    const kept = JSON.parse(readFileSync(both.outputs['report-file'] ?? '', 'utf8')) as Report;
    expect(kept.findings.filter((f) => f.code === 'policy_invalid')).toEqual([]);
  });

  it('a link at a near-miss path, dangling or not, is a near miss as the commit will list it (a red team: a link to nowhere passed, then stopped every pull request); a folder of that name is not', async () => {
    for (const [at, to] of [
      ['.github/receipt-gate.yaml', 'receipt-gate.yml.old'],
      ['receipt-gate.yml', 'nowhere'],
      ['.github/receipt-gate/policy.yml', '../../gone.yml'],
    ] as const) {
      const dir = workspace({ 'README.md': 'x' });
      mkdirSync(path.dirname(path.join(dir, at)), { recursive: true });
      symlinkSync(to, path.join(dir, at));
      const r = await runAction({ workspace: dir, base: {} });
      expect(r.outputs['result'], at).toBe('fail');
      const report = JSON.parse(readFileSync(r.outputs['report-file'] ?? '', 'utf8')) as Report;
      expect(report.findings.find((f) => f.code === 'policy_invalid')?.message).toContain(`but ${at} exists: once merged`);
    }
    // A folder named like a policy file is no file at the commit: not a near miss.
    const dir = workspace({ '.github/receipt-gate/x.yml/README.md': 'notes' });
    const r = await runAction({ workspace: dir, base: {} });
    const report = JSON.parse(readFileSync(r.outputs['report-file'] ?? '', 'utf8')) as Report;
    expect(report.findings.filter((f) => f.code === 'policy_invalid')).toEqual([]);
  });
});

describe('a base whose tree cannot be read (a red team: a policy at a near-miss path was passed over when the tree request failed, and the gate ran without it)', () => {
  it('the tree answering 500 is a configuration error naming the base read, never a pass without the policy', async () => {
    const r = await runAction({ workspace: workspace(), base: { '.github/receipt-gate.yaml': STRICT }, treeStatus: 500 });
    expect(r.outputs['result']).toBe('error');
    expect(r.stdout).toMatch(
      /the tree of the base commit c{12} cannot be read \(HTTP 500.*a policy at a near-miss path cannot be ruled out/,
    );
    expect(r.stdout).not.toMatch(/internal error/);
  });

  it('a truncated tree whose folder cannot be listed is the same error; a folder the base does not have lists nothing', async () => {
    const failing = await runAction({ workspace: workspace(), base: { 'README.md': 'x' }, treeTruncated: true, listingStatus: 500 });
    expect(failing.outputs['result']).toBe('error');
    expect(failing.stdout).toMatch(
      /the base commit's tree is larger than one API answer and the repository root cannot be listed \(HTTP 500/,
    );
    const absent = await runAction({ workspace: workspace(), base: { 'README.md': 'x' }, treeTruncated: true, listingStatus: 404 });
    expect(absent.stdout).toMatch(/the repository root cannot be listed \(HTTP 404/);
    // .github a link or a file (the contents API answers with an object, not a list), .github/receipt-gate absent: they list nothing (a red team's false red).
    const linked = await runAction({
      workspace: workspace(),
      base: { 'README.md': 'x' },
      treeTruncated: true,
      listing: (folder) =>
        folder === ''
          ? { status: 200, body: [{ path: 'README.md', type: 'file' }] }
          : folder === '.github'
            ? { status: 200, body: { type: 'symlink', path: '.github', target: 'config' } }
            : { status: 404, body: { message: 'Not Found' } },
    });
    expect(linked.outputs['result'], linked.stdout).not.toBe('error');
  });

  it('the policy input spelling the default path another way (./, //, x/..) is the default: a policy at a near-miss path at the base is still a configuration error (a red team)', async () => {
    for (const spelled of ['./.github/receipt-gate.yml', '.github//receipt-gate.yml', '.github/../.github/receipt-gate.yml']) {
      const r = await runAction({
        workspace: workspace({ '.github/receipt-gate.yml': 'version: 1\n' }),
        base: { '.github/receipt-gate.yaml': STRICT },
        inputs: { policy: spelled },
      });
      expect(r.outputs['result'], spelled).toBe('error');
      expect(r.stdout).toMatch(/but \.github\/receipt-gate\.yaml exists at the base commit/);
    }
  });
});

describe('what the step says', () => {
  const PUSH = { name: 'push', payload: { after: HEAD_SHA } };

  it('18: the outputs policy-warned, pending and effect-not-logged count what the report counts', async () => {
    const warn = `${STRICT.replace('require: verified', 'require: verified\n    mode: warn')}pending: 1d\n`;
    const ws = writeFiles(tempDir(), {
      '.assay/runs/a.json': json(surface([prod(1)])),
      '.assay/runs/b.log': serverLog([
        ['2026-11-30T10:00:00Z', prod(2)],
        ['2026-12-01T11:00:00Z', prod(3)],
      ]),
      '.assay/audit/day.ndjson': ndjson([coverageStatement('2026-11-30', '2026-12-01', { owner: 'acme' })]),
      [POLICY]: warn,
    });
    const r = await runAction({ workspace: ws, event: PUSH });
    const totals = reportOf(r).totals;
    expect(totals).toMatchObject({ policy_warned: 1, pending: 1, effect_not_logged: 1, policy_unmet: 0 });
    expect(r.outputs).toMatchObject({ 'policy-warned': '1', pending: '1', 'effect-not-logged': '1', 'policy-unmet': '0' });
  });

  it('21: a configuration error writes a job summary saying what stopped the gate (a red required check never opens on an empty page)', async () => {
    const r = await runAction({ workspace: workspace({ [POLICY]: 'version: 1\nrulez: []\n' }), event: PUSH });
    expect(r.outputs['result']).toBe('error');
    expect(r.summary).toMatch(/^## ⛔ receipt-gate: configuration error/);
    expect(r.summary).toMatch(/unknown key "rulez"/);
  });

  it('26: an unwritable report is result=error in the CLI’s words (the path and why), never an internal error', async () => {
    const ws = workspace({ 'notes.txt': 'a file, not a folder\n' });
    const r = await runAction({ workspace: ws, event: PUSH, inputs: { 'report-file': 'notes.txt/report.json' } });
    expect(r.outputs['result']).toBe('error');
    expect(r.stdout).not.toMatch(/internal error/);
    const cliSays = await cli(['verify', '-C', ws, '--format', 'json', '--output', 'notes.txt/report.json'], ws);
    expect(cliSays.code).toBe(2);
    // One message for both: "cannot write NAME PATH: WHY", the CLI naming its flag, the action its input.
    const why = (s: string, name: string) => new RegExp(`cannot write ${name} (\\S+): ([^\\n%]*)`).exec(s)?.slice(1);
    const fromCli = why(cliSays.stderr, '--output');
    const fromAction = why(r.stdout, 'report-file');
    expect(fromCli?.[1]).toMatch(/^E[A-Z]+: /);
    expect(fromAction?.[1]).toBe(fromCli?.[1]);
    expect(path.resolve(ws, fromAction?.[0] ?? '')).toBe(path.resolve(ws, fromCli?.[0] ?? 'x'));
  });

  it('23: a 502 on the create with no run found by the lookup: the create is sent once more, then the annotations land', async () => {
    let posts = 0;
    const r = await runAction({
      workspace: workspace(),
      event: PUSH,
      responder: (req) => {
        if (req.method === 'POST') {
          posts++;
          return posts === 1
            ? { status: 502, body: { message: 'Bad gateway' } }
            : { status: 201, body: { id: 77, html_url: 'https://github.com/acme/agents/runs/77' } };
        }
        if (req.method === 'GET') return { status: 200, body: { total_count: 0, check_runs: [] } };
        return { status: 200, body: { id: 77 } };
      },
    });
    expect(r.requests.map((q) => q.method)).toEqual(['POST', 'GET', 'POST']);
    expect(r.outputs['check-run-id']).toBe('77');
    expect(r.stdout).not.toMatch(/falling back to workflow commands/);
  });
});

describe('the verdict and its report, all or none (a red team)', () => {
  it('a verdict that cannot be written leaves no report file', async () => {
    const ws = workspace({ notadir: 'x' });
    const r = await runAction({
      workspace: ws,
      env: { GITHUB_SHA: checkout(ws) },
      event: { name: 'push', payload: { after: HEAD_SHA } },
      inputs: { 'report-file': 'r.json', 'vsa-predicate': 'notadir/p.json' },
    });
    expect(r.outputs['result']).toBe('error');
    expect(r.stdout).toMatch(/cannot write the verdict/);
    expect(existsSync(path.join(ws, 'r.json'))).toBe(false);
  });
});

describe('a verdict names the runner’s commit only when the checkout is that commit’s bytes (a red team)', () => {
  const git = (ws: string, ...args: string[]) => execFileSync('git', args, { cwd: ws, encoding: 'utf8' });
  const release = (ws: string, sha: string) =>
    runAction({
      workspace: ws,
      env: { GITHUB_SHA: sha },
      event: { name: 'push', payload: {} },
      inputs: { 'report-file': 'r.json', 'vsa-predicate': 'v.json' },
    });
  const refused = (r: ActionRun, ws: string, why: RegExp) => {
    expect(r.outputs['result']).toBe('error');
    expect(r.stdout).toMatch(why);
    expect(r.stdout).toMatch(/check out that commit, and let no step before the gate change its inputs/);
    expect(existsSync(path.join(ws, 'v.json'))).toBe(false);
    expect(existsSync(path.join(ws, 'r.json'))).toBe(false);
  };

  it('the checkout as committed: the verdict names it; a file that is not an input may be beside it', async () => {
    const ws = workspace();
    const sha = checkout(ws);
    writeFiles(ws, { 'notes.txt': 'not read by the gate' });
    const r = await release(ws, sha);
    expect(r.outputs['result'], r.stdout).toBe('pass');
    expect(JSON.parse(readFileSync(path.join(ws, 'v.json'), 'utf8')).resourceUri).toBe(`git+https://github.com/acme/agents@${sha}`);
  });

  it('a checkout of another commit, or no clone at all, is refused: nothing is written', async () => {
    const ws = workspace();
    checkout(ws);
    refused(
      await release(ws, 'd'.repeat(40)),
      ws,
      /the checkout is at [0-9a-f]{12}, not at dddddddddddd, the commit the verdict would name/,
    );
    const bare = workspace();
    refused(await release(bare, 'd'.repeat(40)), bare, /is not a git clone whose commit can be read/);
  });

  it('an input changed, staged, untracked or ignored in the checkout is refused, naming it', async () => {
    const changed = workspace();
    const a = checkout(changed);
    writeFiles(changed, { '.assay/runs/a.json': json(surface([prod(3)])) });
    refused(await release(changed, a), changed, /\.assay\/runs\/a\.json differs from [0-9a-f]{12}'s in the checkout/);
    const staged = workspace();
    const b = checkout(staged);
    writeFiles(staged, { '.assay/runs/a.json': json(surface([prod(4)])) });
    git(staged, 'add', '-A');
    refused(await release(staged, b), staged, /\.assay\/runs\/a\.json differs from/);
    const untracked = workspace();
    const c = checkout(untracked);
    writeFiles(untracked, { '.assay/runs/b.json': json(surface([prod(5)])) });
    refused(
      await release(untracked, c),
      untracked,
      /\.assay\/runs\/b\.json is not in [0-9a-f]{12}'s tree \(untracked or ignored in the checkout\)/,
    );
    const ignored = workspace({ '.gitignore': '.assay/runs/made-*.json\n' });
    const d = checkout(ignored);
    writeFiles(ignored, { '.assay/runs/made-today.json': json(surface([prod(6)])) });
    refused(await release(ignored, d), ignored, /\.assay\/runs\/made-today\.json is not in [0-9a-f]{12}'s tree/);
  });

  it('a clone at a path below the workspace (actions/checkout with path:, working-directory) gets its verdict (a red team: refused)', async () => {
    const outer = tempDir();
    const ws = writeFiles(path.join(outer, 'repo'), runs);
    const sha = checkout(ws);
    const r = await runAction({
      workspace: outer,
      env: { GITHUB_SHA: sha },
      event: { name: 'push', payload: {} },
      inputs: { 'working-directory': 'repo', 'report-file': 'repo-r.json', 'vsa-predicate': 'repo-v.json' },
    });
    expect(r.outputs['result'], r.stdout).toBe('pass');
    expect(JSON.parse(readFileSync(path.join(outer, 'repo-v.json'), 'utf8')).resourceUri).toBe(`git+https://github.com/acme/agents@${sha}`);
  });

  it('the bytes are compared, never git’s word: a file edited under assume-unchanged, a committed link to an ignored file, an edited policy file are refused (a red team)', async () => {
    const flagged = workspace();
    const a = checkout(flagged);
    git(flagged, 'update-index', '--assume-unchanged', '.assay/runs/a.json');
    writeFiles(flagged, { '.assay/runs/a.json': json(surface([prod(7)])) });
    expect(git(flagged, 'diff', '--name-only', 'HEAD')).toBe('');
    refused(await release(flagged, a), flagged, /\.assay\/runs\/a\.json differs from [0-9a-f]{12}'s in the checkout/);
    const linked = workspace({ '.gitignore': 'gen/\n' });
    mkdirSync(path.join(linked, 'gen'));
    symlinkSync('../../gen/b.json', path.join(linked, '.assay/runs/b.json'));
    const b = checkout(linked);
    writeFiles(linked, { 'gen/b.json': json(surface([prod(8)])) });
    refused(
      await release(linked, b),
      linked,
      /\.assay\/runs\/b\.json is a symbolic link in [0-9a-f]{12}: the bytes read are another file's/,
    );
    // A policy edited in the checkout never judges: the commit's is read with git, and what it fails fails.
    const policy = workspace({ [POLICY]: STRICT });
    const c = checkout(policy);
    writeFiles(policy, { [POLICY]: LOOSE });
    const edited = await release(policy, c);
    expect(edited.outputs['result']).toBe('fail');
    const report = JSON.parse(readFileSync(path.join(policy, 'r.json'), 'utf8')) as Report;
    expect(report.policy.source).toMatchObject({ path: POLICY, commit: c });
  });
});

describe('an output never replaces an input (a red team: the report written over an audit export)', () => {
  it('report-file, sarif-file or vsa-predicate naming an evidence file is a configuration error; the file is kept', async () => {
    for (const [input, file] of [
      ['report-file', '.assay/runs/a.json'],
      ['sarif-file', './.assay/runs/a.json'],
    ] as const) {
      const ws = workspace();
      const kept = readFileSync(path.join(ws, '.assay/runs/a.json'), 'utf8');
      const r = await runAction({ workspace: ws, inputs: { [input]: file } });
      expect(r.outputs['result'], input).toBe('error');
      expect(r.stdout).toContain(`${input}: names the input .assay/runs/a.json; a command never writes over what it reads`);
      expect(readFileSync(path.join(ws, '.assay/runs/a.json'), 'utf8')).toBe(kept);
    }
  });
});

describe('a red team’s trust escapes (this stop)', () => {
  it.each(['pull_request_review', 'pull_request_review_comment'])(
    '%s (GitHub checks out the pull request’s merge) reads the policy at the base, never the head’s looser one',
    async (name) => {
      const r = await runAction({
        workspace: workspace({ [POLICY]: LOOSE }),
        base: { [POLICY]: STRICT },
        event: { name, payload: { pull_request: { number: 7, head: { sha: HEAD_SHA }, base: { sha: BASE_SHA } } } },
      });
      expect(r.outputs['result']).toBe('fail');
      expect(reportOf(r).policy.source).toMatchObject({ commit: BASE_SHA });
    },
  );

  it('a near-miss policy at the base is a configuration error even when the pull request adds a file at the default path', async () => {
    const r = await runAction({ workspace: workspace({ [POLICY]: LOOSE }), base: { '.github/receipt-gate.yaml': STRICT } });
    expect(r.outputs['result']).toBe('error');
    expect(r.stdout).toMatch(
      /no policy file at \.github\/receipt-gate\.yml, but \.github\/receipt-gate\.yaml exists at the base commit.*this pull request adds \.github\/receipt-gate\.yml, which applies only once merged/,
    );
  });

  it('a pull request that names another policy file than the base’s at the default path is a configuration error, whatever it names (red teams: a file it adds, a looser one of the base’s, one it deletes)', async () => {
    const v2 = '.github/receipt-gate-v2.yml';
    for (const [head, base, named] of [
      [{ [v2]: 'version: 1\n' }, {}, v2],
      [{ 'examples/warn.yml': LOOSE }, { 'examples/warn.yml': LOOSE }, 'examples/warn.yml'],
      [{}, { 'examples/warn.yml': LOOSE }, 'examples/warn.yml'],
    ] as const) {
      const r = await runAction({ workspace: workspace(head), base: { [POLICY]: STRICT, ...base }, inputs: { policy: named } });
      expect(r.outputs['result'], named).toBe('error');
      expect(r.stdout).toMatch(
        /is named, but the base's policy is \.github\/receipt-gate\.yml: on a pull request the input is the pull request's to edit/,
      );
    }
    // The default path spelled otherwise is the default path.
    const same = await runAction({
      workspace: workspace({ [POLICY]: STRICT }),
      base: { [POLICY]: STRICT },
      inputs: { policy: './.github/receipt-gate.yml' },
    });
    expect(same.outputs['result']).toBe('fail');
    const ws = workspace({ [POLICY]: STRICT });
    const absolute = await runAction({ workspace: ws, base: { [POLICY]: STRICT }, inputs: { policy: path.join(ws, POLICY) } });
    expect(absolute.outputs['result']).toBe('fail');
    // A near-miss at the base is the same configuration error as without the input.
    const near = await runAction({
      workspace: workspace({ [v2]: 'version: 1\n' }),
      base: { '.github/receipt-gate.yaml': STRICT },
      inputs: { policy: v2 },
    });
    expect(near.outputs['result']).toBe('error');
    expect(near.stdout).toMatch(/\.github\/receipt-gate\.yaml exists at the base commit/);
  });

  it('a pull request that deletes the policy file is a loosening (a warning with its effect), and one whose file held trust: says it removes it', async () => {
    const r = await runAction({ workspace: workspace(), base: { [POLICY]: STRICT } });
    expect(r.outputs['result']).toBe('fail');
    const changed = reportOf(r).findings.filter((f) => f.code === 'policy_changed');
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({ severity: 'warning' });
    expect(changed[0]?.message).toMatch(
      /deletes the policy file \.github\/receipt-gate\.yml.*its effect on this corpus: .*it loosens the policy: a reviewer must approve it/,
    );
    const trusting = `${STRICT}trust:\n  trusted-keys: [.github/k.pem]\n`;
    const key = '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n';
    const t = await runAction({ workspace: workspace({ '.github/k.pem': key }), base: { [POLICY]: trusting, '.github/k.pem': key } });
    expect(
      reportOf(t)
        .findings.filter((f) => f.code === 'policy_changed' && f.severity === 'warning')
        .map((f) => f.message)
        .join('\n'),
    ).toMatch(/loosens trust in the policy file \(it removes the trust: section\)/);
  });

  it('keyless source refs default to the default branch the event names, a schedule’s own branch, and never a guessed main', async () => {
    const inputs = { 'trusted-signer-identities': 'https://github.com/acme/export/.github/workflows/export.yml@refs/heads/trunk' };
    const refsOf = (r: ActionRun) => reportOf(r).policy.identities?.source_refs;
    const push = await runAction({
      workspace: workspace(),
      inputs,
      event: { name: 'push', payload: { after: HEAD_SHA, repository: { default_branch: 'trunk' } } },
    });
    expect(refsOf(push)).toEqual(['refs/heads/trunk']);
    const schedule = await runAction({
      workspace: workspace(),
      inputs,
      event: { name: 'schedule', payload: {} },
      env: { GITHUB_REF: 'refs/heads/trunk' },
    });
    expect(refsOf(schedule)).toEqual(['refs/heads/trunk']);
    const dispatch = await runAction({
      workspace: workspace(),
      inputs,
      event: { name: 'workflow_dispatch', payload: { repository: {} } },
      env: { GITHUB_REF: 'refs/heads/feature' },
    });
    expect(dispatch.outputs['result']).toBe('error');
    expect(dispatch.stdout).toMatch(/source-refs: this event names no default branch/);
  });
});
