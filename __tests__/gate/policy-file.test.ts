/**
 * The policy file (docs/policy.md): read strictly and located; rules by class, verb and target, first
 * match, default, modes, signers; exceptions and grandfathered runs; `policy check` and `policy
 * baseline`; the report's shapes. The base-read on pull requests is in __tests__/action/policy.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/findings.js';
import type { Report } from '../../src/core/report.js';
import { parseRfc3339 } from '../../src/core/time.js';
import { readPolicyFile } from '../../src/read/policy-file.js';
import { loadYamlParser } from '../../src/read/strict-yaml.js';
import { addKey, decision, deployKey, json, record, seededKey, signed, surface, testSigner } from '../support/corpus.js';
import { cli, tempDir, writeFiles } from '../support/workspace.js';

// The entries load the YAML parser before they read a policy file; so does this file, which calls the reader itself.
beforeAll(loadYamlParser);

const NOW = '2026-12-01T12:00:00Z';
const now = (() => {
  const t = parseRfc3339(NOW);
  if (!t.ok) throw new Error(t.reason);
  return t.value;
})();
const read = (text: string, signers = { keyIds: [] as string[], identities: [] as string[] }) =>
  readPolicyFile(text, { path: '.github/receipt-gate.yml', commit: null, now, signers });
const problems = (text: string): string[] => {
  const r = read(text);
  return r.ok ? [] : r.reason.map((f: Finding) => `${f.line}:${f.column} ${f.message}`);
};

const RULE = `version: 1
rules:
  - name: prod-deploy-keys
    match:
      class: github_deploy_key
      verb: create
      target:
        repo: [prod-*]
    require: verified
`;

describe('reading the file: every problem located, the nearest key named', () => {
  it('a valid file reads to its rules, default and pending', () => {
    const r = read(`${RULE}default: observed_confirmed\npending: 1d12h\n`);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.rules.map((x) => [x.name, x.selector, x.level, x.mode])).toEqual([
      ['prod-deploy-keys', 'github_deploy_key:create', 'verified', 'enforce'],
    ]);
    expect(r.value.defaultLevel).toBe('observed_confirmed');
    expect(r.value.pendingSeconds).toBe(36 * 3600);
    expect(r.value.source).toMatchObject({
      path: '.github/receipt-gate.yml',
      commit: null,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it.each([
    [
      'a misspelt key, with the nearest',
      RULE.replace('require: verified', 'requir: verified'),
      /^9:5 unknown key "requir" in rules.0 \(did you mean "require"\?\)/,
    ],
    [
      'a misspelt level, with the nearest',
      RULE.replace('require: verified', 'require: verifed'),
      /rules.0.require must be one of asserted, observed_confirmed, verified \(did you mean "verified"\?\)/,
    ],
    ['a duplicate key', 'version: 1\nversion: 1\n', /^2:1 Map keys must be unique/],
    ['a tab in indentation', 'version: 1\nrules:\n\t- name: x\n', /^3:1 Tabs are not allowed as indentation/],
    ['an anchor or an alias', 'version: 1\ndefault: &d verified\npending: *d\n', /^2:10 an anchor \(&d\)/],
    ['a second document', 'version: 1\n---\nversion: 1\n', /a second YAML document/],
    ['another version', 'version: 2\n', /version must be 1/],
    ['a rule without require', RULE.replace('    require: verified\n', ''), /rules.0 has no "require" \(required\)/],
    ['a rule name with capitals', RULE.replace('name: prod-deploy-keys', 'name: Prod'), /rules.0.name must match pattern/],
    [
      'two rules of one name',
      `${RULE}  - name: prod-deploy-keys\n    match: {class: workspace_role}\n    require: verified\n`,
      /a second rule named prod-deploy-keys/,
    ],
    ['a glob on a hashed field', RULE.replace('repo: [prod-*]', 'key_title: [ci-*]'), /key_title is hashed: a glob cannot match a hash/],
    ['a hashed field as one string', RULE.replace('repo: [prod-*]', 'key_title: ci-key'), /key_title is hashed: give a list of raw values/],
    [
      'a hash copied from a report into a hashed field (a red team: hashed again, it matched nothing)',
      RULE.replace('repo: [prod-*]', `key_title: [ci-key, "sha256:${'0a'.repeat(32)}"]`),
      /key_title is hashed: "sha256:0a0a0a0a…" is a hash, not a raw value \(hashed again, it matches nothing\)/,
    ],
    ...[`${'0a'.repeat(32)}`, `sha256-${'0a'.repeat(32)}`, `' sha256:${'0A'.repeat(32)}'`].map((h): [string, string, RegExp] => [
      `a hash in another spelling (${h.slice(0, 10)}…) in a hashed field (a red team on the fix)`,
      RULE.replace('repo: [prod-*]', `key_title: [${h}]`),
      /key_title is hashed: ".*…" is a hash, not a raw value/,
    ]),
    [
      'a field the class does not bind',
      RULE.replace('repo: [prod-*]', 'rep: [prod-*]'),
      /github_deploy_key binds no field "rep" \(did you mean "repo"\?\)/,
    ],
    ['a pending that is not a duration', `${RULE}pending: 3 days\n`, /pending must be a duration of whole units d, h, m/],
    // Read as U+FFFD, the text judged was not the file's bytes, nor the report's sha256 theirs.
    ['bytes that are not UTF-8', `${RULE}# caf\uFFFD\n`, /^10:6 bytes that are not UTF-8 \(read as U\+FFFD\): a policy file is UTF-8 text/],
    [
      'an exception for a rule the file does not have',
      `${RULE}exceptions:\n  - {binding: "sha256:${'a'.repeat(64)}", rule: prod-deploy-key, reason: r, owner: o, expires: 2027-01-01}\n`,
      /names rule "prod-deploy-key", which the file does not have \(did you mean "prod-deploy-keys"\?\)/,
    ],
    [
      'an exception expiring more than 366 days out',
      `${RULE}exceptions:\n  - {binding: "sha256:${'a'.repeat(64)}", rule: prod-deploy-keys, reason: r, owner: o, expires: 2028-01-01}\n`,
      /more than 366 days after the verification time/,
    ],
    [
      'an exception without an owner',
      `${RULE}exceptions:\n  - {binding: "sha256:${'a'.repeat(64)}", rule: prod-deploy-keys, reason: r, expires: 2027-01-01}\n`,
      /exceptions.0 has no "owner" \(required\)/,
    ],
    [
      'an impossible expiry date',
      `${RULE}exceptions:\n  - {binding: "sha256:${'a'.repeat(64)}", rule: prod-deploy-keys, reason: r, owner: o, expires: 2027-02-30}\n`,
      /expires: "2027-02-30" is not a calendar date/,
    ],
    [
      'one run grandfathered twice',
      `${RULE}grandfathered:\n  - {run: a.log, sha256: "${'a'.repeat(64)}", reason: r}\n  - {run: a.log, sha256: "${'b'.repeat(64)}", reason: r}\n`,
      /a second entry for a.log/,
    ],
    [
      'signed-by without any trust configured',
      RULE.replace('require: verified', `require: verified\n    signed-by: ["sha256:${'a'.repeat(64)}"]`),
      /signed-by without any trusted signer configured/,
    ],
    // A red team (this stop): the hash named itself took a glob over hash text, matching every call.
    [
      'a hashed field named by its hash (key_title_hash: "*")',
      'version: 1\nrules:\n  - name: keys\n    match: {class: github_deploy_key, target: {key_title_hash: "*"}}\n    require: verified\n',
      /key_title_hash is a hash: match on key_title with a list of raw values/,
    ],
    // A red team (this stop): owner and repo compare without regard to case, so ACME shadows [acme].
    [
      'a rule shadowed by an earlier one that spells the owner in another case',
      'version: 1\nrules:\n  - name: lax\n    match: {class: github_deploy_key, target: {owner: ACME}}\n    require: asserted\n  - name: strict\n    match: {class: github_deploy_key, target: {owner: [acme]}}\n    require: verified\n',
      /rule strict can never apply: the earlier rule lax/,
    ],
  ])('%s is policy_invalid', (_what, text, message) => {
    expect(problems(text).join('\n')).toMatch(message);
  });

  it('every problem of a file is listed, each at its place', () => {
    const bad = problems(`version: 1\nrules:\n  - name: a\n    match: {klass: x}\n    require: verifed\n  - nme: b\n`);
    expect(bad.length).toBeGreaterThanOrEqual(4);
    expect(bad.some((p) => p.startsWith('4:13 unknown key "klass" in rules.0.match (did you mean "class"?)'))).toBe(true);
    // The misspelt key is one mistake: "class" is not reported missing as well.
    expect(bad.some((p) => p.includes('has no "class"'))).toBe(false);
    // A bad value is located at the value.
    expect(bad.some((p) => p.startsWith('5:14 rules.0.require must be one of'))).toBe(true);
    expect(bad.some((p) => /^6:5 unknown key "nme".*did you mean "name"/.test(p))).toBe(true);
  });

  // A newcomer fixed the parse problems, ran again, and only then learnt of the misspelt names (a red team).
  it('a file that does not parse names the misspelt classes and verbs of the rules that did, in the same list, each at its value', () => {
    const text = `version: 1
rules:
  - name: keys
    match: {class: github_deploy_kye}
    require: verifed
  - name: more
    match: {class: github_deploy_ky}
    require: verified
  - name: verbs
    match: {class: github_deploy_key, verb: creat}
    require: verified
  - {name: flow, match: {class: github_deploy_keys}, require: verifyed}
`;
    const bad = problems(text);
    expect(bad).toEqual([
      expect.stringMatching(
        /^4:20 rule keys: no action class "github_deploy_kye" \(not a class the gate binds; .*\); did you mean "github_deploy_key"\?$/,
      ),
      expect.stringMatching(/^5:14 rules\.0\.require must be one of asserted, observed_confirmed, verified/),
      expect.stringMatching(/^7:20 rule more: no action class "github_deploy_ky" .*did you mean "github_deploy_key"\?$/),
      expect.stringMatching(
        /^10:45 rule verbs: no verb "creat" for github_deploy_key \(not one the producer writes; .*\); did you mean "github_deploy_key:create"\?$/,
      ),
      // A rule on one line: its class said beside the schema's word on that line.
      expect.stringMatching(/^12:33 rule flow: no action class "github_deploy_keys"/),
      expect.stringMatching(/^12:63 rules\.3\.require must be one of/),
    ]);
    // The input is not read while the file is invalid: the words say a class only the input holds is accepted once it is.
    expect(bad[0]).toMatch(/the input is read once the file is valid, and a class it holds is then accepted/);
    // Names the gate binds are no problem; nor is a class outside the table in a valid file (the input may hold it: checked once it is read).
    expect(
      problems(`version: 1\nrules:\n  - name: a\n    match: {class: github_deploy_key, verb: create}\n    require: verifed\n`),
    ).toEqual([expect.stringMatching(/^5:14 rules\.0\.require must be one of/)]);
    expect(read(`version: 1\nrules:\n  - name: a\n    match: {class: acme_widget, verb: spin}\n    require: verified\n`).ok).toBe(true);
    // YAML that does not parse has no rules to name: its problem alone.
    expect(problems('version: 1\nrules:\n  - name: a\n    match: {class: github_deploy_kye\n')).toHaveLength(1);
  });

  // A newcomer: an exception without expires or rule also drew "expires: \"\" is not…" and "names rule \"\"" at 1:1.
  it('a missing field is one finding at its entry, never a second one at 1:1', () => {
    const bad = problems(
      `${RULE}exceptions:\n  - binding: "sha256:${'a'.repeat(64)}"\n    rule: prod-deploy-keys\n    reason: r\n    owner: o\n  - binding: "sha256:${'b'.repeat(64)}"\n    reason: r\n    owner: o\n    expires: 2027-01-01\n`,
    );
    expect(bad).toEqual(['11:5 exceptions.0 has no "expires" (required)', '15:5 exceptions.1 has no "rule" (required)']);
  });

  it('signed-by must name a trusted signer configured', () => {
    const text = RULE.replace(
      'require: verified',
      `require: verified\n    signed-by: ["https://github.com/acme/ops/.github/workflows/export.yml@refs/heads/main"]`,
    );
    const r = read(text, { keyIds: [`sha256:${'a'.repeat(64)}`], identities: [] });
    expect(r.ok ? '' : r.reason[0]?.message).toMatch(/is not among the trusted signers configured/);
    expect(read(text, { keyIds: [], identities: ['https://github.com/acme/ops/.github/workflows/export.yml@refs/heads/main'] }).ok).toBe(
      true,
    );
  });
});

/** A workspace with runs and exports, and a policy file; the CLI's report of it at NOW. */
async function judge(
  files: Record<string, string>,
  policy: string,
  extra: string[] = [],
): Promise<{ code: number; report: Report; stderr: string }> {
  const dir = writeFiles(tempDir(), { ...files, '.github/receipt-gate.yml': policy });
  const r = await cli(['verify', '-C', dir, '--format', 'json', '--now', NOW, ...extra], dir);
  if (r.code === 2) return { code: 2, report: JSON.parse('{}'), stderr: r.stderr };
  return { code: r.code ?? -1, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
}

const prod = addKey({ target: deployKey({ owner: 'acme', repo: 'PROD-api', title: 'ci-key' }) });
const dev = addKey({ target: deployKey({ owner: 'acme', repo: 'dev/api', title: 'dev-key' }) });
const role = decision({
  tool: 'workspace.grant_admin',
  verb: 'grant',
  resourceType: 'workspace_role',
  target: { provider: 'workspace', workspace_id_hash: 'sha256:1', principal_hash: 'sha256:2', role: 'admin' },
});
const runs = { '.assay/runs/a.json': json(surface([prod, dev, role])) };
const codes = (r: Report) => r.findings.map((f) => `${f.severity} ${f.code}`);

describe('rules: first match, globs, hashed raw values, the default, modes', () => {
  it('owner and repo globs ignore ASCII case; * never crosses /; the first rule that matches applies; the rest get the default', async () => {
    const policy = `version: 1
default: observed_confirmed
rules:
  - name: prod
    match: {class: github_deploy_key, target: {repo: [prod-*]}}
    require: verified
  - name: all-keys
    match: {class: github_deploy_key}
    require: asserted
`;
    const { report } = await judge(runs, policy);
    const byRepo = (repo: string) =>
      report.calls.find((c) => c.reason && c.subject_digest && c.artifact && c.index === (repo === 'PROD-api' ? 0 : 1));
    expect(byRepo('PROD-api')).toMatchObject({ rule: 'prod', required_level: 'verified', mode: 'enforce' });
    // dev/api: `*` does not cross `/`, so prod-* could never match it; the second rule does.
    expect(byRepo('dev/api')).toMatchObject({ rule: 'all-keys', required_level: 'asserted' });
    // No rule for workspace_role: the default.
    expect(report.calls[2]).toMatchObject({ rule: null, required_level: 'observed_confirmed' });
    expect(report.totals.policy_unmet).toBe(2);
    expect(report.policy).toMatchObject({ default: 'observed_confirmed', source: { path: '.github/receipt-gate.yml', commit: null } });
  });

  it('an IAM role’s name ignores ASCII case as IAM does: PROD-admin is ruled by a prod-* rule (an agent choosing the case escaped it)', async () => {
    const attach = (role_name: string) =>
      decision({
        tool: 'aws.attach_role_policy',
        verb: 'attach',
        resourceType: 'aws_iam_role_policy',
        target: { provider: 'aws', account: '123456789012', role_name, policy_arn: 'arn:aws:iam::aws:policy/AdministratorAccess' },
      });
    const policy = `version: 1
rules:
  - name: prod-roles
    match: {class: aws_iam_role_policy, target: {role_name: [prod-*]}}
    require: verified
`;
    const { code, report } = await judge({ '.assay/runs/a.json': json(surface([attach('PROD-admin'), attach('dev-admin')])) }, policy);
    expect(report.calls.map((c) => [c.rule, c.required_level])).toEqual([
      ['prod-roles', 'verified'],
      [null, 'asserted'],
    ]);
    expect(report.totals.policy_unmet).toBe(1);
    expect(code).toBe(1);
    // The slash check is GitHub's names' own: a role_name glob holding one is a glob like any other.
    expect(
      problems(
        `version: 1\nrules:\n  - name: r\n    match: {class: aws_iam_role_policy, target: {role_name: [a/b]}}\n    require: verified\n`,
      ),
    ).toEqual([]);
  });

  it('a hashed field matches the raw values listed, hashed as the agent hashes them (trimmed, lower-cased)', async () => {
    const policy = `version: 1\nrules:\n  - name: ci-keys\n    match:\n      class: github_deploy_key\n      target: {key_title: ["  CI-Key "]}\n    require: verified\n`;
    const { report } = await judge(runs, policy);
    expect(report.calls.map((c) => c.rule)).toEqual(['ci-keys', null, null]);
  });

  it('mode warn: the shortfall is a warning and the gate passes, counted as would-fail', async () => {
    const policy = `version: 1\nrules:\n  - name: keys\n    match: {class: github_deploy_key}\n    require: verified\n    mode: warn\n`;
    const { code, report } = await judge(runs, policy);
    expect(code).toBe(0);
    expect(report.totals).toMatchObject({ policy_unmet: 0, policy_warned: 2 });
    expect(report.findings.filter((f) => f.code === 'policy_unmet').map((f) => f.severity)).toEqual(['warning', 'warning']);
    expect(report.findings.find((f) => f.code === 'policy_unmet')?.message).toMatch(/it would fail under enforce/);
  });

  it('a rule that matches no call is rule_unused, located at the rule; a misspelt class is a configuration error located in the file', async () => {
    const unused = await judge(runs, `version: 1\nrules:\n  - name: slack\n    match: {class: workspace_member}\n    require: verified\n`);
    expect(unused.report.findings.find((f) => f.code === 'rule_unused')).toMatchObject({
      file: '.github/receipt-gate.yml',
      line: 3,
      column: 5,
    });
    const typo = await judge(runs, `version: 1\nrules:\n  - name: keys\n    match: {class: github_deploy_ky}\n    require: verified\n`);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(
      /\.github\/receipt-gate\.yml:4:20: rule keys: no action class "github_deploy_ky".*did you mean "github_deploy_key"/,
    );
    // Every misspelt name at once, a class and a verb (a red team: one per run of the gate).
    const two = await judge(
      runs,
      `version: 1\nrules:\n  - name: keys\n    match: {class: github_deploy_ky}\n    require: verified\n  - name: more\n    match: {class: github_deploy_key, verb: creat}\n    require: verified\n`,
    );
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(/:4:20: rule keys: no action class "github_deploy_ky"[^\n]*\n[^\n]*:7:45: rule more: no verb "creat"/);
  });

  it('with a policy file in effect, --require is a usage error naming both; an explicit --policy that does not exist is one too', async () => {
    const both = await judge(runs, RULE, ['--require', 'github_deploy_key=verified']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--require: the policy file \.github\/receipt-gate\.yml is in effect: requirements have one place/);
    const missing = await cli(['verify', '-C', writeFiles(tempDir(), runs), '--policy', 'nope.yml'], '/');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--policy: "nope.yml" does not exist/);
  });

  it('verify and policy check: a policy that does not parse and a misspelt class, in one run (a red team: the class only on the second)', async () => {
    const text = `version: 1\nrules:\n  - name: keys\n    match: {class: github_deploy_key}\n    require: verifed\n  - name: more\n    match: {class: github_deploy_ky}\n    require: verified\n`;
    const dir = writeFiles(tempDir(), { ...runs, '.github/receipt-gate.yml': text });
    for (const args of [
      ['verify', '-C', dir, '--format', 'json', '--now', NOW],
      ['policy', 'check', '-C', dir, '--now', NOW],
    ]) {
      const r = await cli(args, dir);
      expect(r.code, args[0]).toBe(2);
      expect(r.stderr, args[0]).toMatch(
        /\.github\/receipt-gate\.yml:5:14: rules\.0\.require must be one of[^\n]*\n\.github\/receipt-gate\.yml:7:20: rule more: no action class "github_deploy_ky"[^\n]*did you mean "github_deploy_key"\?/,
      );
    }
    // Once it parses, the class is judged with the input read, in the words it always had.
    writeFiles(dir, { '.github/receipt-gate.yml': text.replace('verifed', 'verified') });
    const named = await cli(['verify', '-C', dir, '--format', 'json', '--now', NOW], dir);
    expect(named.code).toBe(2);
    expect(named.stderr).toMatch(
      /:7:20: rule more: no action class "github_deploy_ky" \(neither a class the gate binds nor one in the input\)/,
    );
  });

  it('an invalid policy in effect stops the gate (exit 2) with every problem located', async () => {
    const r = await judge(runs, 'version: 1\nrules:\n  - name: a\n    require: verifed\n');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the policy in effect \(\.github\/receipt-gate\.yml at the working tree\) is invalid \(policy_invalid\)/);
    expect(r.stderr).toMatch(/\.github\/receipt-gate\.yml:3:5: rules\.0 has no "match"/);
  });
});

describe('exceptions: keyed by binding, with an owner, a reason and an expiry', () => {
  const keys = `version: 1\nrules:\n  - name: keys\n    match: {class: github_deploy_key}\n    require: verified\n`;
  const binding = async (): Promise<string> => {
    const { report } = await judge(runs, keys);
    return report.calls[0]?.subject_digest ?? '';
  };
  const exception = (b: string, expires: string) =>
    `exceptions:\n  - binding: "${b}"\n    rule: keys\n    reason: INC-4312 break-glass key\n    owner: "@acme/secops"\n    expires: ${expires}\n`;

  it('a live exception excuses its call: policy_excepted (notice), the call names the exception, SARIF keeps it suppressed', async () => {
    const b = await binding();
    const dir = writeFiles(tempDir(), { ...runs, '.github/receipt-gate.yml': `${keys}${exception(b, '2027-03-01')}` });
    const r = await cli(['verify', '-C', dir, '--format', 'json', '--now', NOW, '--sarif-file', 'out.sarif'], dir);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.calls[0]).toMatchObject({ rule: 'keys', excepted: '.github/receipt-gate.yml:7' });
    expect(report.totals).toMatchObject({ excepted: 1, policy_unmet: 1 });
    expect(report.findings.find((f) => f.code === 'policy_excepted')?.message).toMatch(
      /excused by the exception at \.github\/receipt-gate\.yml:7 \(owner @acme\/secops, reason "INC-4312 break-glass key", until 2027-03-01\)/,
    );
    const sarif = JSON.parse(readFileSync(path.join(dir, 'out.sarif'), 'utf8'));
    const suppressed = sarif.runs[0].results.filter((x: { suppressions?: unknown[] }) => x.suppressions);
    expect(suppressed).toHaveLength(1);
    expect(suppressed[0].suppressions[0]).toMatchObject({
      kind: 'external',
      status: 'accepted',
      justification: expect.stringMatching(/INC-4312/),
    });
  });

  it('an expired exception excuses nothing: the call fails, exception_expired names its line, owner and reason', async () => {
    const b = await binding();
    const { code, report } = await judge(runs, `${keys}${exception(b, '2026-11-30')}`);
    expect(code).toBe(1);
    expect(report.calls[0]?.excepted).toBeNull();
    const expired = report.findings.find((f) => f.code === 'exception_expired');
    expect(expired).toMatchObject({ severity: 'error', file: '.github/receipt-gate.yml', line: 7 });
    expect(expired?.message).toMatch(/owner @acme\/secops, reason "INC-4312 break-glass key"\) expired on 2026-11-30/);
  });

  it('expiring within 14 days is a warning; one that excuses no call is exception_unused; expiry at the verification time is expired', async () => {
    const b = await binding();
    const soon = await judge(runs, `${keys}${exception(b, '2026-12-10')}`);
    expect(codes(soon.report)).toContain('warning exception_expiring');
    const unused = await judge(runs, `${keys}${exception(`sha256:${'e'.repeat(64)}`, '2027-03-01')}`);
    expect(codes(unused.report)).toContain('warning exception_unused');
    const atNow = await judge(runs, `${keys}${exception(b, NOW)}`);
    expect(codes(atNow.report)).toContain('error exception_expired');
  });

  it('an exception never excuses an honesty failure', async () => {
    const claimed = addKey({ target: deployKey({ owner: 'acme', repo: 'x' }), claim: 'verified' });
    const files = { '.assay/runs/a.json': json(surface([claimed])) };
    const first = await judge(files, keys);
    const b = first.report.calls[0]?.subject_digest ?? '';
    const { code, report } = await judge(files, `${keys}${exception(b, '2027-03-01')}`);
    expect(code).toBe(1);
    expect(codes(report)).toContain('error verified_not_reproduced');
    expect(codes(report)).toContain('notice policy_excepted');
  });
});

describe('grandfathered runs and policy baseline', () => {
  const keys = `# what production needs\nversion: 1\nrules:\n  - name: keys # every deploy key\n    match: {class: github_deploy_key}\n    require: verified\n`;

  it('baseline pins every run that falls short, keeping the comments; the runs are then judged for honesty only; a changed run is grandfather_stale and judged in full', async () => {
    const honest = json(surface([prod]));
    const lying = json(surface([addKey({ target: deployKey({ repo: 'lie' }), claim: 'verified' })]));
    const dir = writeFiles(tempDir(), { '.assay/runs/old.json': honest, '.assay/runs/bad.json': lying, '.github/receipt-gate.yml': keys });
    const b = await cli(['policy', 'baseline', '-C', dir, '--reason', 'before the nightly export existed', '--now', NOW], dir);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).toMatch(/1 file\(s\) grandfathered/);
    expect(b.stderr).toMatch(/1 run\(s\) left out: they fail on honesty.*\.assay\/runs\/bad\.json/);
    const written = readFileSync(path.join(dir, '.github/receipt-gate.yml'), 'utf8');
    expect(written).toContain('# what production needs');
    expect(written).toContain('# every deploy key');
    expect(written).toMatch(
      /grandfathered:\n {2}- run: \.assay\/runs\/old\.json\n {4}sha256: [0-9a-f]{64}\n {4}reason: before the nightly export existed/,
    );
    const after = JSON.parse((await cli(['verify', '-C', dir, '--format', 'json', '--now', NOW], dir)).stdout) as Report;
    const old = after.calls.find((c) => c.artifact === '.assay/runs/old.json');
    expect(old).toMatchObject({ grandfathered: true, rule: null, required_level: null });
    expect(after.totals.grandfathered).toBe(1);
    writeFileSync(path.join(dir, '.assay/runs/old.json'), json(surface([prod, prod])));
    const changed = JSON.parse((await cli(['verify', '-C', dir, '--format', 'json', '--now', NOW], dir)).stdout) as Report;
    expect(codes(changed)).toContain('warning grandfather_stale');
    expect(changed.calls.find((c) => c.artifact === '.assay/runs/old.json')).toMatchObject({ grandfathered: false, rule: 'keys' });
  });
});

describe('policy check', () => {
  it('prints the effect per rule; --against lists the calls whose verdict changes; an invalid file is exit 2', async () => {
    const strict = `version: 1\nrules:\n  - name: keys\n    match: {class: github_deploy_key}\n    require: verified\n`;
    const loose = strict.replace('require: verified', 'require: asserted');
    const dir = writeFiles(tempDir(), { ...runs, '.github/receipt-gate.yml': loose, 'strict.yml': strict });
    const r = await cli(['policy', 'check', '-C', dir, '--now', NOW, '--against', 'strict.yml'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/keys: 2 call\(s\), 2 met, 0 unmet/);
    // One direction, as the summary says it: from the policy compared against to this file.
    expect(r.stdout).toMatch(/against strict\.yml: 2 call\(s\) of keys: under strict\.yml: unmet; under this file: met/);
    writeFileSync(path.join(dir, '.github/receipt-gate.yml'), 'version: 1\nrulez: []\n');
    const bad = await cli(['policy', 'check', '-C', dir, '--now', NOW], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/2:1: unknown key "rulez" in the file \(did you mean "rules"\?\)/);
  });

  it('--against judges the corpus under the other policy with its own trust: dropping trust: is a change, from a file or a ref (a red team: "no change")', async () => {
    const signer = testSigner();
    const other = seededKey(5);
    const strict = `version: 1\nrules:\n  - name: keys\n    match: {class: github_deploy_key}\n    require: verified\n`;
    const trusting = `${strict}trust:\n  trusted-keys: [keys/export.pub.pem]\n  require-signed-records: true\n`;
    const write = decision({
      tool: 'github.add_deploy_key',
      verb: 'create',
      resourceType: 'github_deploy_key',
      target: deployKey(),
      claim: 'verified',
    });
    // One record, signed by a key the trust: section does not name: untrusted under it, bound without it.
    const dir = writeFiles(tempDir(), {
      '.assay/runs/a.json': json(surface([write])),
      '.assay/audit/r.ndjson': `${JSON.stringify(signed(record('github', 'r1', write), other))}\n`,
      'keys/export.pub.pem': signer.pem,
      '.github/receipt-gate.yml': strict,
      'trusting.yml': trusting,
    });
    const r = await cli(['policy', 'check', '-C', dir, '--now', NOW, '--against', 'trusting.yml'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /against trusting\.yml: 1 call\(s\) of keys: under trusting\.yml: unmet; under this file: met; 1 record\(s\): under trusting\.yml: record_untrusted; under this file: passes/,
    );
    execFileSync('git', ['init', '-q'], { cwd: dir });
    writeFileSync(path.join(dir, '.github/receipt-gate.yml'), trusting);
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A'], { cwd: dir });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'base'], { cwd: dir });
    writeFileSync(path.join(dir, '.github/receipt-gate.yml'), strict);
    const ref = await cli(['policy', 'check', '-C', dir, '--now', NOW, '--against', 'HEAD'], dir);
    expect(ref.code, ref.stderr).toBe(0);
    expect(ref.stdout).toMatch(
      /against HEAD: 1 call\(s\) of keys: under HEAD: unmet; under this file: met; 1 record\(s\): under HEAD: record_untrusted/,
    );
  });

  it('--policy-ref reads the policy as it is at a git ref', async () => {
    const dir = writeFiles(tempDir(), {
      ...runs,
      '.github/receipt-gate.yml': `version: 1\nrules:\n  - name: keys\n    match: {class: github_deploy_key}\n    require: verified\n`,
    });
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', dir, '-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { encoding: 'utf8' });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'policy');
    writeFileSync(path.join(dir, '.github/receipt-gate.yml'), 'version: 1\n');
    const atHead = JSON.parse(
      (await cli(['verify', '-C', dir, '--format', 'json', '--now', NOW, '--policy-ref', 'HEAD'], dir)).stdout,
    ) as Report;
    expect(atHead.totals.policy_unmet).toBe(2);
    expect(atHead.policy.source).toMatchObject({ commit: expect.stringMatching(/^[0-9a-f]{40}$/) });
    const onDisk = JSON.parse((await cli(['verify', '-C', dir, '--format', 'json', '--now', NOW], dir)).stdout) as Report;
    expect(onDisk.totals.policy_unmet).toBe(0);
  });
});

describe('signed-by: who must vouch for the record that verifies a call', () => {
  it('a record vouched for by a trusted key the rule does not name leaves the call short, naming who vouched and who the rule wants', async () => {
    const { keyIdOf } = await import('../../src/trust/keys.js');
    const signer = testSigner();
    const second = seededKey(7);
    const call = addKey({ target: deployKey({ owner: 'acme', repo: 'prod-api' }) });
    const files = {
      '.assay/runs/a.json': json(surface([call])),
      '.assay/audit/a.ndjson': `${JSON.stringify(signed(record('github', 'r1', call), signer))}\n`,
      'k.pem': signer.pem,
      'second.pem': second.pem,
    };
    const policy = (by: string) =>
      `version: 1\nrules:\n  - name: keys\n    match: {class: github_deploy_key}\n    require: verified\n    signed-by: ["${by}"]\n`;
    const trust = ['--trusted-key', 'k.pem', '--trusted-key', 'second.pem'];
    const met = await judge(files, policy(keyIdOf(signer.publicKey)), trust);
    expect(met.report.calls[0]).toMatchObject({ level: 'verified', rule: 'keys' });
    expect(met.report.totals.policy_unmet).toBe(0);
    const short = await judge(files, policy(keyIdOf(second.publicKey)), trust);
    expect(short.report.calls[0]).toMatchObject({ level: 'verified', rule: 'keys' });
    expect(short.report.totals.policy_unmet).toBe(1);
    expect(codes(short.report)).not.toContain('error verified_not_reproduced');
    expect(short.report.findings.find((f) => f.code === 'policy_unmet')?.message).toMatch(
      new RegExp(`vouched for by ${keyIdOf(signer.publicKey)}; the rule wants one of ${keyIdOf(second.publicKey)}`),
    );
    const unknown = await judge(files, policy(`sha256:${'c'.repeat(64)}`), trust);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/is not among the trusted signers configured/);
  });
});

describe('the report', () => {
  it('verified_at is --now; the policy names its source; calls carry rule, mode, excepted, grandfathered', async () => {
    const { report } = await judge(runs, RULE);
    expect(report.verified_at).toBe(NOW);
    expect(report.calls[0]).toHaveProperty('rule');
    expect(report.calls[0]).toHaveProperty('mode');
    expect(report.calls[0]).toHaveProperty('excepted', null);
    expect(report.calls[0]).toHaveProperty('grandfathered', false);
    expect(report.policy.rules[0]).toMatchObject({
      name: 'prod-deploy-keys',
      selector: 'github_deploy_key:create',
      level: 'verified',
      mode: 'enforce',
      target: { repo: ['prod-*'] },
    });
  });
});

describe('the YAML parser is loaded only for a policy file (cold start)', () => {
  it('the action without a policy file never loads it; with one, it does', async () => {
    const { readFileSync: read } = await import('node:fs');
    const source = read(path.join(import.meta.dirname, '../../src/read/strict-yaml.ts'), 'utf8');
    // No static import of the parser's values: only types, and the one dynamic import.
    expect(source).not.toMatch(/^import \{[^}]*\b(parseAllDocuments|isMap)\b[^}]*\} from 'yaml'/m);
    expect(source).toContain("await import('yaml')");
    const bundle = read(path.join(import.meta.dirname, '../../dist/index.js'), 'utf8');
    // ncc puts a dynamic import in a chunk of its own: the action's main file does not hold the parser.
    expect(bundle).not.toContain('class LineCounter');
  });
});
