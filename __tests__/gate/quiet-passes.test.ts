/**
 * Nothing passes quietly (issue 42; docs/policy.md §11, docs/coverage.md §6): the red team's false
 * greens, coverage an import can prove, and a newcomer's mistakes, each reproduced as it was found
 * and held to its fix. The action's side (the base read, outputs, the check run) is in
 * __tests__/action/quiet-passes.test.ts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compileGlob, globMatches } from '../../src/core/glob.js';
import type { Report } from '../../src/core/report.js';
import { parseRfc3339 } from '../../src/core/time.js';
import { readPolicyFile } from '../../src/read/policy-file.js';
import { COVERAGE_PAYLOAD_TYPE } from '../../src/read/signature.js';
import { loadYamlParser } from '../../src/read/strict-yaml.js';
import { keyIdOf } from '../../src/trust/keys.js';
import {
  addKey,
  coverageStatement,
  decision,
  deployKey,
  getKey,
  json,
  ndjson,
  record,
  seededKey,
  serverLog,
  signed,
  subjectDigest,
  surface,
  testSigner,
} from '../support/corpus.js';
import { cleanup, cli, distFile, tempDir, writeFiles } from '../support/workspace.js';

beforeAll(loadYamlParser);
afterEach(cleanup);

const NOW = '2026-12-01T12:00:00Z';
const now = (() => {
  const t = parseRfc3339(NOW);
  if (!t.ok) throw new Error(t.reason);
  return t.value;
})();
const POLICY = '.github/receipt-gate.yml';
const problems = (text: string, signers = { keyIds: [] as string[], identities: [] as string[] }): string[] => {
  const r = readPolicyFile(text, { path: POLICY, commit: null, now, signers });
  return r.ok ? [] : r.reason.map((f) => `${f.line}:${f.column} ${f.message}`);
};
const RULE = `version: 1
rules:
  - name: prod-keys
    match:
      class: github_deploy_key
      target:
        repo: [prod-*]
    require: verified
`;
const prod = (title: string, repo = 'prod-api') => addKey({ target: deployKey({ owner: 'acme', repo, title }) });

async function verify(dir: string, ...extra: string[]): Promise<{ code: number; report: Report; stderr: string }> {
  const r = await cli(['verify', '-C', dir, '--format', 'json', '--now', NOW, ...extra], dir);
  if (r.code === 2) return { code: 2, report: JSON.parse('{}') as Report, stderr: r.stderr };
  return { code: r.code ?? -1, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
}
const codes = (r: Report) => r.findings.filter((f) => f.code !== 'skipped_object').map((f) => `${f.severity} ${f.code}`);

describe('false greens a pull request controls', () => {
  it('1: a policy file that is a symbolic link is refused on disk, at --policy-ref (git gives the link text) and when it leads out of -C', async () => {
    const dir = writeFiles(tempDir(), { '.assay/runs/a.json': json(surface([prod('k1')])), 'real.yml': RULE });
    mkdirSync(path.join(dir, '.github'));
    symlinkSync('../real.yml', path.join(dir, POLICY));
    const onDisk = await verify(dir);
    expect(onDisk.code).toBe(2);
    expect(onDisk.stderr).toMatch(/\.github\/receipt-gate\.yml is a symbolic link: a policy or trust file is read only as a regular file/);
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'a linked policy');
    const atRef = await verify(dir, '--policy-ref', 'HEAD');
    expect(atRef.code).toBe(2);
    expect(atRef.stderr).toMatch(/--policy-ref HEAD: \.github\/receipt-gate\.yml is a symbolic link/);
    // A folder above it that is a link is the same refusal.
    const out = writeFiles(tempDir(), { 'receipt-gate.yml': RULE });
    const linked = writeFiles(tempDir(), { '.assay/runs/a.json': json(surface([prod('k1')])) });
    symlinkSync(out, path.join(linked, '.github'));
    const folder = await verify(linked);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toMatch(/\.github \(above \.github\/receipt-gate\.yml\) is a symbolic link/);
    // --policy naming a link out of -C.
    const outside = writeFiles(tempDir(), { 'p.yml': RULE });
    symlinkSync(path.join(outside, 'p.yml'), path.join(linked, 'p.yml'));
    const flag = await verify(linked, '--policy', 'p.yml');
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--policy: p\.yml is a symbolic link/);
  });

  it('4: signed-by holds at every level: a rule requiring observed_confirmed is met by the read, or by a record from a listed signer only', async () => {
    const signer = testSigner();
    const listed = seededKey(9);
    const call = prod('k1');
    const policy = `version: 1\nrules:\n  - name: keys\n    match: {class: github_deploy_key}\n    require: observed_confirmed\n    signed-by: ["${keyIdOf(listed.publicKey)}"]\n`;
    const files = {
      '.assay/audit/a.ndjson': `${JSON.stringify(signed(record('github', 'r1', call), signer))}\n`,
      'k.pem': signer.pem,
      'listed.pem': listed.pem,
      [POLICY]: policy,
    };
    const trust = ['--trusted-key', 'k.pem', '--trusted-key', 'listed.pem'];
    // No read: the record of an unlisted signer verifies the call but does not meet the rule.
    const alone = await verify(writeFiles(tempDir(), { ...files, '.assay/runs/a.json': json(surface([call])) }), ...trust);
    expect(alone.report.calls[0]).toMatchObject({ level: 'verified', rule: 'keys' });
    expect(alone.report.totals.policy_unmet).toBe(1);
    expect(alone.code).toBe(1);
    expect(alone.report.findings.find((f) => f.code === 'policy_unmet')?.message).toMatch(
      new RegExp(`vouched for by ${keyIdOf(signer.publicKey)}; the rule wants one of ${keyIdOf(listed.publicKey)}`),
    );
    // A later read of the same target confirms it: the rule is met by the read.
    const read = getKey({ target: deployKey({ owner: 'acme', repo: 'prod-api', title: 'k1' }) });
    const withRead = await verify(writeFiles(tempDir(), { ...files, '.assay/runs/a.json': json(surface([call, read])) }), ...trust);
    expect(withRead.report.calls[0]).toMatchObject({ level: 'verified', rule: 'keys' });
    expect(withRead.report.totals.policy_unmet).toBe(0);
    expect(withRead.code).toBe(0);
  });

  it('5: one logged entry covers one effect: two calls claim one deploy-key create in a covered window, the export holds one entry; the second is effect_not_logged, a replayed run file is not', async () => {
    const call = prod('k1');
    const statement = coverageStatement('2026-11-30', '2026-12-01', { owner: 'acme', records: 1 });
    const audit = { '.assay/audit/day.ndjson': ndjson([statement, record('github', 'r1', call)]) };
    const twice = writeFiles(tempDir(), {
      ...audit,
      '.assay/runs/a.log': serverLog([
        ['2026-11-30T10:00:00Z', call],
        ['2026-11-30T11:00:00Z', call],
      ]),
    });
    const r = await verify(twice);
    expect(r.report.calls.map((c) => c.level)).toEqual(['verified', 'asserted']);
    expect(r.report.totals.effect_not_logged).toBe(1);
    expect(codes(r.report)).toContain('error effect_not_logged');
    expect(r.code).toBe(1);
    // The same run file committed twice is one call read twice, not a second effect.
    const log = serverLog([['2026-11-30T10:00:00Z', call]]);
    const replay = await verify(writeFiles(tempDir(), { ...audit, '.assay/runs/a.log': log, '.assay/runs/copy.log': log }));
    expect(codes(replay.report)).not.toContain('error effect_not_logged');
    // policy check counts the unlogged call as unmet, never met, and the table says it (a red team).
    writeFiles(twice, { [POLICY]: RULE });
    const check = await cli(['policy', 'check', '-C', twice, '--now', NOW], twice);
    expect(check.stdout).toContain('prod-keys: 2 call(s), 1 met, 1 unmet');
    const table = await cli(['verify', '-C', twice, '--now', NOW, '--format', 'table'], twice);
    expect(table.stdout).toContain('0 call(s) below it, 1 not logged by the provider');
  });

  it('6: globs are linear: a pathological glob against a 10 000-character repository name (the pull request writes it) answers at once', async () => {
    const name = `prod-${'-'.repeat(10_000)}x`;
    const policy = `version: 1\nrules:\n  - name: eu\n    match: {class: github_deploy_key, target: {repo: [prod-*-*-*-eu]}}\n    require: verified\n`;
    const dir = writeFiles(tempDir(), { '.assay/runs/a.json': json(surface([prod('k1', name)])), [POLICY]: policy });
    // The backtracking matcher took seconds per call here (9 s at 3 000 characters); the test's own timeout is the bound.
    const r = await verify(dir);
    expect(r.report.calls[0]?.rule).toBeNull();
  });

  it('6: the linear matcher says what the anchored pattern says, for every glob and value (* is any run but /)', () => {
    const alphabet = fc.constantFrom('a', 'b', '-', '/', '*');
    const text = (max: number) => fc.array(alphabet, { maxLength: max }).map((xs) => xs.join(''));
    fc.assert(
      fc.property(text(8), text(14), (glob, value) => {
        const parts = glob.split('*').map((p) => p.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'));
        const reference = new RegExp(`^${parts.join('[^/]*')}$`, 's').test(value);
        expect(globMatches(compileGlob(glob), value)).toBe(reference);
      }),
      { numRuns: 3000 },
    );
  });

  it('7, 16: pending is bounded: 30d is the most, the grammar’s largest value is refused (never a crash), 0 as a number is zero, a bare 72 asks what unit', async () => {
    expect(problems(`${RULE}pending: 30d\n`)).toEqual([]);
    expect(problems(`${RULE}pending: 0\n`)).toEqual([]);
    expect(problems(`${RULE}pending: "0"\n`)).toEqual([]);
    expect(problems(`${RULE}pending: 30d1m\n`)).toEqual([expect.stringMatching(/^9:10 pending: 30d1m is more than 30d/)]);
    expect(problems(`${RULE}pending: 99999999999d\n`)).toEqual([expect.stringMatching(/pending: 99999999999d is more than 30d/)]);
    expect(problems(`${RULE}pending: ${'9'.repeat(400)}d\n`)).toEqual([expect.stringMatching(/is more than 30d/)]);
    expect(problems(`${RULE}pending: 72\n`)).toEqual([expect.stringMatching(/pending: 72 what\? write 72h/)]);
    expect(problems(`${RULE}pending: "72"\n`)).toEqual([expect.stringMatching(/pending: 72 what\? write 72h/)]);
    // The reproduction: every run with a pending call died with RangeError: Invalid time value.
    const dir = writeFiles(tempDir(), {
      '.assay/runs/a.log': serverLog([['2026-12-01T11:00:00Z', prod('k1')]]),
      [POLICY]: `${RULE}pending: 99999999999d\n`,
    });
    const r = await verify(dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is more than 30d/);
    expect(r.stderr).not.toMatch(/RangeError/);
  });

  it('8: YAML 1.2 only: a %YAML 1.1 directive (which turns merge keys on), a %TAG, an explicit tag and a merge key are policy_invalid', () => {
    const merge = `version: 1\nbase: &b {require: verified}\n`;
    expect(problems(`%YAML 1.1\n---\n${RULE}`)).toEqual([expect.stringMatching(/^1:1 a YAML directive \(%YAML\)/)]);
    expect(problems(`%TAG !e! tag:example.com,2000:\n---\n${RULE}`)).toEqual([expect.stringMatching(/^1:1 a YAML directive \(%TAG\)/)]);
    expect(problems(RULE.replace('require: verified', 'require: !!str verified'))).toEqual([
      expect.stringMatching(/^8:14 an explicit tag \(tag:yaml\.org,2002:str\)/),
    ]);
    expect(
      problems(
        `version: 1\nrules:\n  - name: a\n    match: {class: github_deploy_key}\n    <<: {require: verified, mode: warn}\n    require: verified\n`,
      ),
    ).toEqual([expect.stringMatching(/^5:5 a merge key \(<<\)/)]);
    expect(problems(merge)[0]).toMatch(/^2:7 an anchor \(&b\)/);
  });

  it('9: policy baseline writes nothing outside the workspace: a .github that is a link out is refused, nothing written there', async () => {
    const outside = writeFiles(tempDir(), { 'receipt-gate.yml': RULE });
    const dir = writeFiles(tempDir(), { '.assay/runs/a.json': json(surface([prod('k1')])) });
    symlinkSync(outside, path.join(dir, '.github'));
    const r = await cli(['policy', 'baseline', '-C', dir, '--now', NOW, '--reason', 'history'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/symbolic link/);
    expect(readFileSync(path.join(outside, 'receipt-gate.yml'), 'utf8')).toBe(RULE);
  });
});

describe('coverage an import can prove (coverage.md §6)', () => {
  const AGENT = 'deploy-agent[bot]';
  const entry = (id: string, at: string) => ({
    '@timestamp': Date.parse(at),
    _document_id: id,
    action: 'public_key.create',
    actor: AGENT,
    repo: 'acme/prod-api',
    title: 'k1',
  });
  const importer = (dir: string, ...args: string[]) =>
    cli(['import', 'github-audit-log', '--output', 'out.ndjson', ...args], dir, {}, new Date(NOW));

  it('10: a window that has not ended is a usage error; a statement records exported_at (the import’s clock, --now)', async () => {
    const dir = writeFiles(tempDir(), { 'e.json': JSON.stringify([entry('a1', '2026-11-30T10:00:00Z')]) });
    const open = await importer(dir, '--actor', AGENT, '--owner', 'acme', '--since', '2026-12-01', '--until', '2026-12-02', 'e.json');
    expect(open.code).toBe(2);
    expect(open.stderr).toMatch(/the window has not ended; the provider may still log entries in it/);
    expect(existsSync(path.join(dir, 'out.ndjson'))).toBe(false);
    const later = await importer(
      dir,
      '--actor',
      AGENT,
      '--owner',
      'acme',
      '--since',
      '2026-12-01',
      '--until',
      '2026-12-02',
      '--now',
      '2026-12-02T03:00:00Z',
      'e.json',
    );
    expect(later.code, later.stderr).toBe(0);
    const first = JSON.parse(readFileSync(path.join(dir, 'out.ndjson'), 'utf8').split('\n')[0] ?? '{}');
    expect(first).toMatchObject({ schema: 'receipt-gate.audit_coverage.v1', exported_at: '2026-12-02T03:00:00Z' });
  });

  it('11: a window needs --actor, and for GitHub --owner or --repo; the gate holds a GitHub statement naming neither to cover nothing', async () => {
    const dir = writeFiles(tempDir(), { 'e.json': JSON.stringify([entry('a1', '2026-11-30T10:00:00Z')]) });
    const noActor = await importer(dir, '--owner', 'acme', '--since', '2026-11-30', '--until', '2026-12-01', 'e.json');
    expect(noActor).toMatchObject({ code: 2, stderr: expect.stringMatching(/--since\/--until need --actor/) });
    // The README's command before the fix: no --owner, a statement that claimed every organisation.
    const noScope = await importer(dir, '--actor', AGENT, '--since', '2026-11-30', '--until', '2026-12-01', 'e.json');
    expect(noScope).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/need --owner ORG or --repo OWNER\/NAME for github-audit-log/),
    });
    expect(existsSync(path.join(dir, 'out.ndjson'))).toBe(false);
    // A statement committed without a scope: a call in another organisation is not effect_not_logged.
    const elsewhere = addKey({ target: deployKey({ owner: 'other-org', repo: 'api', title: 'k9' }) });
    const gateDir = writeFiles(tempDir(), {
      '.assay/runs/a.log': serverLog([['2026-11-30T10:00:00Z', elsewhere]]),
      '.assay/audit/day.ndjson': ndjson([coverageStatement('2026-11-30', '2026-12-01', { owner: null, repos: null })]),
    });
    const r = await verify(gateDir);
    expect(codes(r.report)).not.toContain('error effect_not_logged');
    expect(r.report.calls[0]?.coverage).toBeNull();
  });

  it('12: a 0-byte or white-space-only export is refused (exit 1, nothing written); [] is a quiet page', async () => {
    const dir = writeFiles(tempDir(), { 'empty.json': '', 'blank.json': ' \n\t\n', 'quiet.json': '[]' });
    for (const f of ['empty.json', 'blank.json']) {
      const r = await importer(dir, '--actor', AGENT, '--owner', 'acme', '--since', '2026-11-30', '--until', '2026-12-01', f);
      expect(r.code, f).toBe(1);
      expect(r.stderr, f).toMatch(/an empty download is not an empty log/);
      expect(existsSync(path.join(dir, 'out.ndjson')), f).toBe(false);
    }
    const quiet = await importer(dir, '--actor', AGENT, '--owner', 'acme', '--since', '2026-11-30', '--until', '2026-12-01', 'quiet.json');
    expect(quiet.code, quiet.stderr).toBe(0);
  });

  it('13: a raw paginated export or a webhook deliveries list among the audit files is one finding naming the import, never a parse error or one per entry', async () => {
    const page = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => entry(`a${i}`, '2026-11-30T10:00:00Z')));
    const delivery = (i: number) => ({
      id: i,
      guid: `g-${i}`,
      delivered_at: '2026-11-30T10:00:00Z',
      event: 'deploy_key',
      action: 'created',
      status_code: 200,
    });
    const dir = writeFiles(tempDir(), {
      '.assay/runs/a.json': json(surface([prod('k1')])),
      '.assay/audit/paged.json': `${page(3)}${page(2)}`,
      '.assay/audit/deliveries.json': JSON.stringify([delivery(1), delivery(2), delivery(3)]),
    });
    const r = await verify(dir);
    const of = (file: string) => r.report.findings.filter((f) => f.file === file && f.severity === 'error');
    expect(of('.assay/audit/paged.json')).toEqual([
      expect.objectContaining({ code: 'invalid_artifact', message: expect.stringMatching(/receipt-gate import github-audit-log/) }),
    ]);
    expect(of('.assay/audit/deliveries.json')).toEqual([
      expect.objectContaining({ code: 'invalid_artifact', message: expect.stringMatching(/receipt-gate import github-webhook/) }),
    ]);
  });
});

describe('a newcomer’s mistakes (policy.md §11)', () => {
  it.each([
    '.github/receipt-gate.yaml',
    '.github/receipt-gate.json',
    'receipt-gate.yml',
    'receipt-gate.yaml',
    '.github/receipt-gate/policy.yml',
  ])('14: a policy at %s while the default is missing is a configuration error naming it and --policy', async (near) => {
    const dir = writeFiles(tempDir(), { '.assay/runs/a.json': json(surface([prod('k1')])), [near]: RULE });
    const r = await verify(dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `no policy file at .github/receipt-gate.yml, but ${near} exists: move it to .github/receipt-gate.yml, or name it with --policy ${near}`,
    );
  });

  it('a call with no subject is still matched by its target fields: a table class without a verb, a class outside the table with many fields (a red team: both escaped the rule)', async () => {
    const noVerb = prod('k1') as { action: { verb?: unknown } };
    delete noVerb.action.verb;
    const dir = writeFiles(tempDir(), { '.assay/runs/a.json': json(surface([noVerb])), [POLICY]: RULE });
    const r = await verify(dir);
    expect(r.code).toBe(1);
    expect(r.report.calls[0]).toMatchObject({ rule: 'prod-keys', required_level: 'verified' });
    expect(codes(r.report)).toContain('error policy_unmet');
    // A class outside the table: a field after 40 others still matches.
    const target: Record<string, string> = {};
    for (let i = 0; i < 40; i++) target[`f${i}`] = 'x';
    target['env'] = 'prod';
    const misc = decision({ tool: 'deploy', verb: 'run', resourceType: 'misc_deploy', target });
    const rule = 'version: 1\nrules:\n  - name: prod-misc\n    match: {class: misc_deploy, target: {env: prod}}\n    require: verified\n';
    const many = await verify(writeFiles(tempDir(), { '.assay/runs/a.json': json(surface([misc])), [POLICY]: rule }));
    expect(many.report.calls[0]).toMatchObject({ rule: 'prod-misc', required_level: 'verified' });
    expect(many.code).toBe(1);
  });

  it('a field a rule tests given as something else than text fails the call, whichever rule it might be under (a red team: repo: ["prod-api"] escaped the prod rule to the default)', async () => {
    const LOOSE_FIRST = `version: 1
rules:
  - name: sandbox
    match: {class: github_deploy_key, target: {repo: [sandbox-*]}}
    require: asserted
  - name: prod-keys
    match: {class: github_deploy_key, target: {repo: [prod-*]}}
    require: verified
default: asserted
`;
    const given = (repo: unknown) => {
      const call = prod('k1') as { action: { target: { repo?: unknown } } };
      call.action.target.repo = repo;
      return call;
    };
    for (const policy of [RULE, LOOSE_FIRST])
      for (const [repo, kind] of [
        [['prod-api'], 'an array'],
        [{ name: 'prod-api' }, 'an object'],
        [7, 'a number'],
      ] as const) {
        const r = await verify(writeFiles(tempDir(), { '.assay/runs/a.json': json(surface([given(repo)])), [POLICY]: policy }));
        expect(r.code, `${JSON.stringify(repo)}`).toBe(1);
        const f = r.report.findings.find((x) => x.code === 'invalid_artifact');
        expect(f?.message).toMatch(
          new RegExp(
            `whether rule (sandbox|prod-keys) applies cannot be told \\(its target gives repo as ${kind}, not text\\), so the call fails`,
          ),
        );
      }
    // A call with no subject (no verb) and a class outside the table: the same.
    const noVerb = given(['prod-api']) as { action: { verb?: unknown } };
    delete noVerb.action.verb;
    const misc = decision({ tool: 'deploy', verb: 'run', resourceType: 'misc_deploy', target: { env: ['prod'] } });
    const miscRule =
      'version: 1\nrules:\n  - name: prod-misc\n    match: {class: misc_deploy, target: {env: prod}}\n    require: verified\n';
    for (const [call, policy] of [
      [noVerb, RULE],
      [misc, miscRule],
    ] as const) {
      const r = await verify(writeFiles(tempDir(), { '.assay/runs/a.json': json(surface([call])), [POLICY]: policy }));
      expect(r.code).toBe(1);
      expect(codes(r.report)).toContain('error invalid_artifact');
    }
    // A verb or class that is not text or differs only in case, and a bound field the rule tests left out: the same (a red team on the fix).
    const variants: [string, (c: { action: Record<string, unknown> & { target: Record<string, unknown> } }) => void, RegExp][] = [
      ['verb null', (c) => (c.action.verb = null), /it gives no verb as text, and the rule names one/],
      ['verb an array', (c) => (c.action.verb = ['create']), /it gives no verb as text/],
      ['verb in another case', (c) => (c.action.verb = 'Create'), /its verb "Create" differs from the rule's "create" only in case/],
      ['class in another case', (c) => (c.action.resource_type = 'GitHub_Deploy_Key'), /its action class "GitHub_Deploy_Key" differs/],
      ['repo left out', (c) => delete c.action.target.repo, /its target gives no repo, which the rule tests/],
    ];
    const VERB_RULE = RULE.replace('class: github_deploy_key', 'class: github_deploy_key\n      verb: create');
    for (const [name, change, why] of variants) {
      const call = given('prod-api') as unknown as { action: Record<string, unknown> & { target: Record<string, unknown> } };
      change(call);
      const r = await verify(writeFiles(tempDir(), { '.assay/runs/a.json': json(surface([call])), [POLICY]: VERB_RULE }));
      expect(r.code, name).toBe(1);
      expect(r.report.findings.find((x) => x.code === 'invalid_artifact')?.message, name).toMatch(why);
    }
    // A call of another class, without the field: no match, as before.
    const invite = decision({ tool: 'misc.add', verb: 'create', resourceType: 'misc_invite', target: { channel: 'x' } });
    const none = await verify(writeFiles(tempDir(), { '.assay/runs/a.json': json(surface([invite])), [POLICY]: VERB_RULE }));
    expect(codes(none.report)).not.toContain('error invalid_artifact');
    // A field no rule tests may be anything: the call is judged as before.
    const other = await verify(writeFiles(tempDir(), { '.assay/runs/a.json': json(surface([given('prod-api')])), [POLICY]: RULE }));
    expect(codes(other.report)).not.toContain('error invalid_artifact');
  });

  it('15: a / in a repo or owner glob and a rule shadowed by an earlier one are policy_invalid; rule_unused guesses no misspelling when none is near', async () => {
    expect(problems(RULE.replace('repo: [prod-*]', 'repo: [acme-corp/prod-*]'))).toEqual([
      expect.stringMatching(/^7:16 repo is the name alone; put the organisation in owner/),
    ]);
    expect(problems(RULE.replace('repo: [prod-*]', 'owner: acme/x'))).toEqual([expect.stringMatching(/owner is the organisation alone/)]);
    // A glob on a whole-number field matches no subject, whose numbers are JSON numbers (a red team: number: "*" was valid and matched nothing).
    for (const [cls, field] of [
      ['github_pull_request', 'number'],
      ['github_issue_comment', 'comment_id'],
    ])
      expect(
        problems(
          RULE.replace('class: github_deploy_key', `class: ${cls}`).replace('repo: [prod-*]', `repo: [prod-*]\n        ${field}: "*"`),
        ),
      ).toEqual([
        expect.stringMatching(
          new RegExp(`^8:\\d+ ${field} is a whole number in ${cls}'s subjects: a glob matches text only, so this rule could never match`),
        ),
      ]);
    const shadowed = `${RULE}  - name: prod-api-keys\n    match:\n      class: github_deploy_key\n      verb: create\n      target:\n        repo: [prod-*]\n        owner: [acme]\n    require: observed_confirmed\n`;
    expect(problems(shadowed)).toEqual([
      expect.stringMatching(/^9:5 rule prod-api-keys can never apply: the earlier rule prod-keys \(line 3\) matches every call it matches/),
    ]);
    // A narrower earlier rule does not shadow a wider later one.
    const narrowFirst = `version: 1\nrules:\n  - name: a\n    match: {class: github_deploy_key, target: {repo: [prod-*], owner: [acme]}}\n    require: verified\n  - name: b\n    match: {class: github_deploy_key, target: {repo: [prod-*]}}\n    require: observed_confirmed\n`;
    expect(problems(narrowFirst)).toEqual([]);
    const dir = writeFiles(tempDir(), {
      '.assay/runs/a.json': json(surface([prod('k1')])),
      [POLICY]: `version: 1\nrules:\n  - name: slack\n    match: {class: workspace_member}\n    require: verified\n`,
    });
    const r = await verify(dir);
    const unused = r.report.findings.find((f) => f.code === 'rule_unused');
    expect(unused?.message).toMatch(/no call of workspace_member was read/);
    expect(unused?.message).not.toMatch(/misspelt/);
  });

  // A red team (f7): prod-api-strict after prod-general (prod-*) was dead, the file valid, the gate green on the weaker rule.
  it('15b: a stricter rule after a broader glob rule that takes all its calls is policy_invalid at the later rule, naming the earlier; a rule whose calls an earlier one took says so in rule_unused', async () => {
    const repro = `version: 1
rules:
  - name: prod-general
    match:
      class: github_deploy_key
      target:
        repo: [prod-*]
    require: observed_confirmed
  - name: prod-api-strict          # meant: prod-api deploy keys must be verified
    match:
      class: github_deploy_key
      target:
        repo: [prod-api]
    require: verified
`;
    expect(problems(repro)).toEqual([
      '9:5 rule prod-api-strict can never apply: the earlier rule prod-general (line 3) matches every call it matches, and the first match wins; narrow the earlier rule or move this one above it',
    ]);
    const gated = await verify(writeFiles(tempDir(), { '.assay/runs/a.json': json(surface([prod('k1')])), [POLICY]: repro }));
    expect(gated.code).toBe(2);
    expect(gated.stderr).toMatch(/receipt-gate\.yml:9:5: rule prod-api-strict can never apply: the earlier rule prod-general/);

    const pair = (earlier: string, later: string) =>
      problems(
        `version: 1\nrules:\n  - name: earlier\n    match: ${earlier}\n    require: observed_confirmed\n  - name: later\n    match: ${later}\n    require: verified\n`,
      );
    const key = (target: string, verb = '') => `{class: github_deploy_key${verb}, target: ${target}}`;
    const k8s = (target: string) => `{class: k8s_rbac_binding, target: ${target}}`;
    const SHADOWED = /^6:5 rule later can never apply: the earlier rule earlier \(line 3\)/;
    for (const [earlier, later] of <[string, string][]>[
      [key('{repo: [prod-*]}'), key('{repo: [prod-a*, prod-b]}')],
      [key('{repo: ["*"]}'), key('{repo: [prod-*], owner: [acme]}')],
      // owner and repo ignore case: PROD-* takes prod-api and PROD-API alike.
      [key('{repo: [PROD-*]}'), key('{repo: [prod-api]}')],
      [key('{repo: [prod-*]}'), key('{repo: [prod-api]}', ', verb: create')],
      [key('{key_title: [a, b]}'), key('{key_title: [a]}')],
      [k8s('{namespace: ["*-prod"]}'), k8s('{namespace: [team-*-prod], name: [admin]}')],
    ])
      expect(pair(earlier, later), `${earlier} before ${later}`).toEqual([expect.stringMatching(SHADOWED)]);
    // A call can reach each of these later rules: never shadowed.
    for (const [earlier, later] of <[string, string][]>[
      [key('{repo: [prod-*]}'), key('{repo: [prod-api, staging-api]}')],
      [key('{repo: [prod-a*]}'), key('{repo: [prod-*]}')],
      [key('{repo: [prod-*]}'), key('{repo: ["*"]}')],
      [key('{repo: [prod-*], owner: [acme]}'), key('{repo: [prod-api]}')],
      [key('{repo: [prod-*]}', ', verb: create'), key('{repo: [prod-api]}')],
      [key('{key_title: [a]}'), key('{key_title: [a, b]}')],
      // namespace and name are exact: Admin* misses admin; * never crosses /.
      [k8s('{name: [Admin*]}'), k8s('{name: [admin]}')],
      [k8s('{namespace: ["*"]}'), k8s('{namespace: [kube/*]}')],
    ])
      expect(pair(earlier, later), `${earlier} before ${later}`).toEqual([]);

    // Not shadowed in the file (staging-api reaches it), but every call read went to the earlier rule.
    const partly = `version: 1\nrules:\n  - name: prod-general\n    match: {class: github_deploy_key, target: {repo: [prod-*]}}\n    require: observed_confirmed\n  - name: prod-strict\n    match: {class: github_deploy_key, target: {repo: [prod-api, staging-api]}}\n    require: verified\n`;
    const r = await verify(writeFiles(tempDir(), { '.assay/runs/a.json': json(surface([prod('k1')])), [POLICY]: partly }));
    const unused = r.report.findings.filter((f) => f.code === 'rule_unused');
    expect(unused).toEqual([expect.objectContaining({ severity: 'warning', line: 6, column: 5 })]);
    expect(unused[0]?.message).toMatch(
      /^rule prod-strict applies to no call \(classes seen: github_deploy_key\): calls matched it, but each went to an earlier rule \(the first match wins\), the first to prod-general \(line 3\)/,
    );
    expect(unused[0]?.message).not.toMatch(/none matched/);
    expect(r.report.calls.map((c) => c.rule)).toEqual(['prod-general']);
  });

  it('18: a call the export never logged is one error (effect_not_logged), not also policy_unmet', async () => {
    const dir = writeFiles(tempDir(), {
      '.assay/runs/a.log': serverLog([['2026-11-30T10:00:00Z', prod('k1')]]),
      '.assay/audit/day.ndjson': ndjson([coverageStatement('2026-11-30', '2026-12-01', { owner: 'acme' })]),
      [POLICY]: RULE,
    });
    const r = await verify(dir);
    expect(codes(r.report)).toEqual(['error effect_not_logged']);
    expect(r.report.totals).toMatchObject({ effect_not_logged: 1, policy_unmet: 0 });
  });

  it('19: YAML messages: a hint for indentation under "- " and for a value starting with @; mode: warning names warn; no --help line after a policy error', async () => {
    expect(problems('version: 1\nrules:\n  - name: x\n   match: {class: github_deploy_key}\n    require: verified\n')[0]).toMatch(
      /check the indentation: the keys of a "- " item line up/,
    );
    expect(problems(`${RULE}exceptions:\n  - owner: @acme/secops\n`)[0]).toMatch(/quote it/);
    expect(problems(RULE.replace('require: verified', 'require: verified\n    mode: warning'))).toEqual([
      expect.stringMatching(/mode must be one of enforce, warn \(did you mean "warn"\?\)/),
    ]);
    const dir = writeFiles(tempDir(), { '.assay/runs/a.json': json(surface([prod('k1')])), [POLICY]: 'version: 1\nrulez: []\n' });
    const r = await cli(['verify', '-C', dir], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown key "rulez"/);
    expect(r.stderr).not.toMatch(/--help/);
  });

  it('20: policy baseline changes only what it adds: CRLF, a BOM, flow-list spacing and aligned comments stay byte for byte', async () => {
    const runs = { '.assay/runs/a.json': json(surface([prod('k1')])) };
    const texts = [
      `\uFEFF# team policy\r\nversion: 1   # the format\r\nrules:\r\n  - name: prod-keys\r\n    match: { class: github_deploy_key,  target: { repo: [ prod-* ] } }   # spacing kept\r\n    require: verified\r\n`,
      `version: 1\nrules:\n  - name: prod-keys\n    match: {class: github_deploy_key}\n    require: verified     # aligned\ngrandfathered:\n  - run: old.json      # aligned too\n    sha256: "${'0'.repeat(64)}"\n    reason: before\n# trailing comment\n`,
      `version: 1\nrules: [ {name: prod-keys, match: {class: github_deploy_key}, require: verified} ]\ngrandfathered: [ ]\n`,
    ];
    for (const text of texts) {
      const dir = writeFiles(tempDir(), { ...runs, [POLICY]: text });
      const r = await cli(['policy', 'baseline', '-C', dir, '--now', NOW, '--reason', 'history before the gate'], dir);
      expect(r.code, r.stderr).toBe(0);
      const after = readFileSync(path.join(dir, POLICY), 'utf8');
      // Every byte of the old file is still there, in order, and the new entry is what was added.
      let at = 0;
      for (const ch of text) {
        const found = after.indexOf(ch, at);
        expect(found, JSON.stringify(text)).toBeGreaterThanOrEqual(0);
        at = found + 1;
      }
      const added = after.length - text.length;
      expect(added).toBeGreaterThan(0);
      expect(after).toContain('.assay/runs/a.json');
      expect(after.split('\r\n').length > 1).toBe(text.includes('\r\n'));
      // The result reads back, with the run grandfathered.
      const again = await verify(dir);
      expect(again.report.totals.grandfathered).toBe(1);
    }
  });

  it('20b: policy baseline adds to a flow list with a trailing comma or its bracket on its own line, before a `...` end marker, and a reason with a line break, each reading back', async () => {
    const runs = { '.assay/runs/a.json': json(surface([prod('k1')])) };
    const head = 'version: 1\nrules:\n  - name: prod-keys\n    match: {class: github_deploy_key}\n    require: verified\n';
    const old = `{run: old.json, sha256: "${'0'.repeat(64)}", reason: before}`;
    for (const [text, reason] of [
      [`${head}grandfathered: [ ${old}, ]\n`, 'history'],
      [`${head}grandfathered: [\n    ${old}  # kept\n  ]\n`, 'history'],
      [`${head}...\n`, 'history'],
      [head, 'INC-1\nsee the incident doc'],
    ] as const) {
      const dir = writeFiles(tempDir(), { ...runs, [POLICY]: text });
      const r = await cli(['policy', 'baseline', '-C', dir, '--now', NOW, '--reason', reason], dir);
      expect(r.code, r.stderr).toBe(0);
      const check = await cli(['policy', 'check', '-C', dir, '--now', NOW], dir);
      expect(check.code, `${JSON.stringify(text)}\n${readFileSync(path.join(dir, POLICY), 'utf8')}\n${check.stderr}`).toBe(0);
      expect((await verify(dir)).report.totals.grandfathered).toBe(1);
    }
  });

  it('20c: an owner or repository value holding a character no GitHub name has (a look-alike hyphen pasted from chat, a space) is refused at its place', () => {
    for (const [value, code] of [
      ['prod\u2011web', 'U+2011'],
      ['"prod-web "', 'U+0020'],
      ['"prod\\u00a0web"', 'U+00A0'],
    ] as const)
      expect(problems(RULE.replace('repo: [prod-*]', `repo: [prod-api, ${value}]`))).toEqual([
        expect.stringMatching(new RegExp(`^7:26 .* holds ${code.replace('+', '\\+')}, which no GitHub repository name has`)),
      ]);
    expect(problems(RULE.replace('repo: [prod-*]', 'repo: [prod_api.v2-*]'))).toEqual([]);
  });

  it('25: findings about a policy read at --policy-ref name the commit in their message; policy check lists every problem of a file', async () => {
    const dir = writeFiles(tempDir(), {
      '.assay/runs/a.json': json(surface([prod('k1')])),
      [POLICY]: `version: 1\nrules:\n  - name: slack\n    match: {class: workspace_member}\n    require: verified\n`,
    });
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' }).trim();
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'policy');
    const commit = git('rev-parse', 'HEAD');
    const r = await verify(dir, '--policy-ref', 'HEAD');
    expect(r.report.findings.find((f) => f.code === 'rule_unused')?.message).toContain(
      `(.github/receipt-gate.yml at commit ${commit.slice(0, 12)})`,
    );
    writeFileSync(
      path.join(dir, POLICY),
      `version: 1\nrules:\n  - name: keys\n    match: {class: github_deploy_key}\n    require: verifed\n  - name: keys\n    match: {class: workspace_role}\n    require: verified\n`,
    );
    const check = await cli(['policy', 'check', '-C', dir, '--now', NOW], dir);
    expect(check.code).toBe(2);
    expect(check.stderr).toMatch(/rules\.0\.require must be one of/);
    expect(check.stderr).toMatch(/a second rule named keys/);
  });
});

describe('exits and pointers', () => {
  it('26: an internal error exits 3, its own code in the one exit table, never 1 (a problem in the evidence)', () => {
    const dir = tempDir();
    const preload = path.join(dir, 'break.cjs');
    // A bug stands in: the entry's first call into the process throws what no input problem throws.
    writeFileSync(preload, "process.cwd = () => { throw new TypeError('a bug'); };\n");
    const r = spawnSync(process.execPath, ['--require', preload, distFile('cli.js'), 'verify'], { cwd: dir, encoding: 'utf8' });
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/receipt-gate: internal error: TypeError: a bug/);
  });

  it('27: the comments cite what exists: BENCHMARKS.md and bench/HISTORY.md sections, and source files by name', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const files = execFileSync('git', ['ls-files', 'src'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f.endsWith('.ts'));
    const sources = new Set(files.map((f) => path.basename(f)));
    const headings = (doc: string) =>
      new Set(
        readFileSync(path.join(root, doc), 'utf8')
          .split('\n')
          .filter((l) => l.startsWith('#'))
          .map((l) => l.replace(/^#+\s*/, '')),
      );
    const docs = { 'BENCHMARKS.md': headings('BENCHMARKS.md'), 'bench/HISTORY.md': headings('bench/HISTORY.md') };
    const bad: string[] = [];
    for (const f of files) {
      const text = readFileSync(path.join(root, f), 'utf8');
      for (const m of text.matchAll(/(BENCHMARKS\.md|bench\/HISTORY\.md), "([^"]+)"/g))
        if (!docs[m[1] as keyof typeof docs].has(m[2] ?? '')) bad.push(`${f}: ${m[1]} "${m[2]}"`);
      for (const m of text.matchAll(/\(([a-z][a-z0-9-]*\.ts)\)/g)) if (!sources.has(m[1] ?? '')) bad.push(`${f}: ${m[1]}`);
    }
    expect(bad).toEqual([]);
    expect(readFileSync(path.join(root, 'CONTRIBUTING.md'), 'utf8')).not.toMatch(/class table \(`src\/core\/binding\.ts`\)/);
  });
});

describe('the core’s false greens a red team found (this stop): a record that cannot bind a call never quiets its export', () => {
  const call = prod('k1');
  const day = coverageStatement('2026-11-30', '2026-12-01', { owner: 'acme', records: 1 });
  const twoCalls = serverLog([
    ['2026-11-30T10:00:00Z', call],
    ['2026-11-30T10:05:00Z', call],
  ]);

  it('a second copy of the one logged entry (two overlapping exports) is no entry for the second call: effect_not_logged', async () => {
    const file = ndjson([day, record('github', 'r1', call)]);
    const r = await verify(
      writeFiles(tempDir(), { '.assay/runs/a.log': twoCalls, '.assay/audit/x.ndjson': file, '.assay/audit/y.ndjson': file }),
    );
    expect(r.report.totals.imported_twice).toBe(1);
    expect(r.report.calls.map((c) => c.level)).toEqual(['verified', 'asserted']);
    expect(r.report.totals.effect_not_logged).toBe(1);
    expect(r.code).toBe(1);
    const f = r.report.findings.find((x) => x.code === 'effect_not_logged');
    expect(f).toMatchObject({ severity: 'error', file: '.assay/runs/a.log' });
    expect(f?.message).toMatch(/holds no entry for it that can bind it \(the records of its subject cannot: see its reason\)/);
  });

  it('another provider’s record of the same subject does not quiet a covered call, pending or allow-unmatched-records', async () => {
    const files = {
      '.assay/runs/a.log': serverLog([['2026-11-30T10:00:00Z', call]]),
      '.assay/audit/x.ndjson': ndjson([{ ...day, records: 0 }]),
      '.assay/audit/z.ndjson': ndjson([record('gitlab', 'g1', call)]),
      [POLICY]: 'version: 1\npending: 72h\n',
    };
    for (const extra of [[], ['--allow-unmatched-records']]) {
      const dir = writeFiles(tempDir(), files);
      const r = await verify(dir, ...extra);
      expect(r.report.totals.effect_not_logged).toBe(1);
      expect(r.code).toBe(1);
    }
  });

  it('trust mode warn: an untrusted (unsigned, forged) record of the call’s subject does not turn effect_not_logged into a warning', async () => {
    const key = testSigner();
    const policy = 'version: 1\ntrust:\n  mode: warn\n  trusted-keys: [.github/k.pub.pem]\n';
    const base = {
      '.assay/runs/a.log': serverLog([['2026-11-30T10:00:00Z', call]]),
      '.assay/audit/x.ndjson': ndjson([signed({ ...day, records: 0 }, key, undefined, COVERAGE_PAYLOAD_TYPE)]),
      '.github/k.pub.pem': key.pem,
      [POLICY]: policy,
    };
    const without = await verify(writeFiles(tempDir(), base));
    expect(without.report.totals.effect_not_logged).toBe(1);
    const forged = await verify(writeFiles(tempDir(), { ...base, '.assay/audit/forged.json': json(record('github', 'forged', call)) }));
    expect(forged.report.totals.untrusted).toBe(1);
    expect(forged.report.totals.effect_not_logged).toBe(1);
    expect(codes(forged.report)).toContain('error effect_not_logged');
    expect(forged.code).toBe(1);
  });

  it('a replay is the same run file read twice; another run with a call at the same index and time is a second call', async () => {
    const one = serverLog([['2026-11-30T10:00:00Z', call]]);
    const other = serverLog([
      ['2026-11-30T10:00:00Z', call],
      ['2026-11-30T10:30:00Z', getKey({ target: deployKey({ owner: 'acme', repo: 'prod-api', title: 'k1' }) })],
    ]);
    const audit = { '.assay/audit/day.ndjson': ndjson([day, record('github', 'r1', call)]) };
    const copied = await verify(writeFiles(tempDir(), { ...audit, '.assay/runs/a.log': one, '.assay/runs/b.log': one }));
    expect(copied.report.totals.effect_not_logged).toBe(0);
    const distinct = await verify(writeFiles(tempDir(), { ...audit, '.assay/runs/a.log': one, '.assay/runs/b.log': other }));
    expect(distinct.report.totals.effect_not_logged).toBe(1);
    expect(distinct.code).toBe(1);
  });

  it('an observed_confirmed claim naming another subject’s digest is not reproduced even when a record verifies the call (error with strict-observed)', async () => {
    const other = subjectDigest(prod('k-other'));
    const claimed = addKey({
      target: deployKey({ owner: 'acme', repo: 'prod-api', title: 'k1' }),
      claim: 'observed_confirmed',
      digest: other,
    });
    const dir = writeFiles(tempDir(), {
      '.assay/runs/a.json': json(surface([claimed])),
      '.assay/audit/r.json': json(record('github', 'r1', claimed)),
    });
    const r = await verify(dir, '--strict-observed');
    expect(r.report.calls[0]?.level).toBe('verified');
    expect(r.report.findings.find((f) => f.code === 'observed_confirmed_not_reproduced')).toMatchObject({ severity: 'error' });
    expect(r.code).toBe(1);
  });

  it('a surface event whose data has no schema is refused (semantics §1: data.schema must be exactly the surface’s)', async () => {
    const event = { type: 'assay.tool_decision_surface.v0', time: '2026-11-30T10:00:00Z', data: { observed_tool_decisions: [prod('k1')] } };
    const r = await verify(writeFiles(tempDir(), { '.assay/runs/a.ndjson': ndjson([event]) }));
    expect(r.report.findings.find((f) => f.code === 'invalid_artifact')?.message).toMatch(/event data has no schema/);
    expect(r.code).toBe(1);
  });

  it('a decision from the future is invalid_artifact whatever it asserts: a read from the future confirms no write that passes', async () => {
    const write = { ...prod('k1'), time: '2026-11-30T10:00:00Z' };
    const read = getKey({ target: deployKey({ owner: 'acme', repo: 'prod-api', title: 'k1' }) });
    const log = serverLog([
      ['2026-11-30T10:00:00Z', write],
      ['2099-01-01T00:00:00Z', read],
    ]);
    const r = await verify(writeFiles(tempDir(), { '.assay/runs/a.log': log, [POLICY]: 'version: 1\ndefault: observed_confirmed\n' }));
    const future = r.report.findings.find((f) => f.code === 'invalid_artifact');
    expect(future?.message).toMatch(/a decision from the future/);
    expect(future?.line).toBeGreaterThan(1);
    expect(r.code).toBe(1);
  });

  it('a record waits for its run only on a statement of its scope whose window has ended (never one ending in 2099, one for no actor or another repository)', async () => {
    const lone = record('github', 'r1', call);
    const policy = { [POLICY]: 'version: 1\npending: 1h\n', '.assay/runs/a.json': json(surface([prod('other-key')])) };
    const waits = async (statement: Record<string, unknown>) => {
      const r = await verify(writeFiles(tempDir(), { ...policy, '.assay/audit/x.ndjson': ndjson([statement, lone]) }));
      return { pending: r.report.totals.awaiting_run, unmatched: r.report.totals.unmatched, code: r.code };
    };
    const recent = coverageStatement('2026-12-01', '2026-12-01', {
      since: '2026-12-01T11:00:00Z',
      until: '2026-12-01T11:30:00Z',
      owner: 'acme',
    });
    expect(await waits(recent)).toMatchObject({ pending: 1, unmatched: 0 });
    for (const over of [
      { until: '2099-01-01T00:00:00Z' },
      { actors: [] },
      { owner: null, repos: ['acme/unrelated'] },
      { owner: 'another-org' },
    ])
      expect(await waits({ ...recent, ...over }), JSON.stringify(over)).toMatchObject({ pending: 0, unmatched: 1, code: 1 });
  });
});
