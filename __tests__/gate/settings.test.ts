/**
 * Settings with one home: the parsers, the defaults table against action.yml and docs/action.md, and
 * both entries' mapping of their surface onto settings (the findings catalogue: __tests__/docs).
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { readContext } from '../../src/action/github-client.js';
import { readSettings } from '../../src/action/inputs.js';
import { verifyRequest } from '../../src/cli/commands/verify.js';
import { optionDefault, parseArgsOptions } from '../../src/cli/options.js';
import { COMMAND_SPECS } from '../../src/cli/registry.js';
import { main } from '../../src/cli/run.js';
import { usageText } from '../../src/cli/usage.js';
import { FINDING_CODES } from '../../src/core/findings.js';
import { TRUST_CODE_NAMES } from '../../src/core/trust.js';
import { LEVELS, RECORD_OUTCOME_NAMES } from '../../src/core/vocabulary.js';
import { DEFAULTS } from '../../src/gate/settings/defaults.js';
import { defaultSettings, parseBool, parseChoice, parseCount, parseList, parseRules, parseSize } from '../../src/gate/settings/parsers.js';
import { UsageError, usage } from '../../src/gate/settings/types.js';
import { DEFAULT_LIMITS } from '../../src/read/limits.js';
import { ROOT } from '../support/workspace.js';

const actionDoc = readFileSync(path.join(ROOT, 'docs/action.md'), 'utf8');

/** A repository with no policy file and no trust file (the action's readers of repository files). */
const NO_FILES = {
  read: async () => ({ kind: 'absent' as const }),
  readTrust: async () => ({ base: null, head: { ok: true as const, value: null } }),
  nearMiss: async () => null,
  baseTree: async () => ({ ok: false as const, reason: 'not a pull request' }),
};

/** `receipt-gate verify …` read into its request, or the usage problem. */
const parseVerify = (argv: readonly string[], isTTY = false) =>
  usage(() => verifyRequest(argv, { cwd: ROOT, env: {}, isTTY, version: '0.0.0-test' }));

describe('parsers', () => {
  it('sizes take binary units, case-insensitively, and refuse anything else naming the option', () => {
    expect(parseSize('x', '64MiB')).toBe(64 * 1024 * 1024);
    expect(parseSize('x', '512k')).toBe(512 * 1024);
    expect(parseSize('x', ' 1048576 ')).toBe(1048576);
    expect(parseSize('x', '1.5 KiB')).toBe(1536);
    expect(() => parseSize('max-file-size', '64 parsecs')).toThrow(
      new UsageError('value', 'max-file-size: "64 parsecs" is not a size (e.g. 64MiB, 512KiB, 1048576)'),
    );
    expect(() => parseSize('x', '0')).toThrow(/out of range/);
    expect(() => parseSize('x', '99999999999G')).toThrow(/out of range/);
  });

  it('booleans are the YAML 1.2 core ones; empty is false', () => {
    expect(['true', 'True', 'TRUE'].map((v) => parseBool('b', v))).toEqual([true, true, true]);
    expect(['false', 'False', 'FALSE', ''].map((v) => parseBool('b', v))).toEqual([false, false, false, false]);
    expect(() => parseBool('summary', 'yes')).toThrow('summary: "yes" is not a boolean (true or false)');
  });

  it('rules: a value of separators only names no rule and is refused; an empty action input is none given (an empty flag: every flag, __tests__/cli) (a red team: --require "" required nothing)', () => {
    expect(parseRules('require', 'a=verified,\n b=asserted')).toEqual(['a=verified', 'b=asserted']);
    expect(parseRules('require', '')).toEqual([]);
    expect(parseRules('require', '  ')).toEqual([]);
    for (const v of [',', ' , \n '])
      expect(() => parseRules('require', v)).toThrow(`require: ${JSON.stringify(v)} names no rule (an unset variable?)`);
  });

  it('choices, counts and lists', () => {
    expect(parseChoice('a', ' off ', ['auto', 'off'] as const)).toBe('off');
    expect(() => parseChoice('annotations', 'all', ['auto', 'off'] as const)).toThrow('annotations: "all" must be one of auto, off');
    expect(parseCount('n', '5000')).toBe(5000);
    expect(() => parseCount('max-annotations', '-1')).toThrow(/not a whole number/);
    expect(parseList('a, b\n\n c,')).toEqual(['a', 'b', 'c']);
  });
});

describe('one table of defaults', () => {
  const action = parseYaml(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }> };

  it("action.yml's description fits the Marketplace (under 125 characters)", () => {
    const meta = parseYaml(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as { description: string };
    expect(meta.description.length).toBeLessThan(125);
  });

  it('action.yml declares exactly the inputs of the settings table, with the same defaults', () => {
    expect(Object.keys(action.inputs).sort()).toEqual(Object.keys(DEFAULTS).sort());
    for (const [name, input] of Object.entries(action.inputs))
      expect(String(input.default ?? ''), name).toBe(DEFAULTS[name as keyof typeof DEFAULTS]);
  });

  it("docs/action.md's inputs table lists every input with its default", () => {
    for (const [name, value] of Object.entries(DEFAULTS)) {
      const row = new RegExp(`^\\| \`${name}\` \\| ([^|]+) \\|`, 'm').exec(actionDoc);
      expect(row, name).not.toBeNull();
      expect(row![1]!.trim(), name).toBe(value === '' ? 'empty' : `\`${value}\``);
    }
  });

  it("the limits the readers apply by default are the table's", () => {
    expect(DEFAULT_LIMITS.maxFileBytes).toBe(parseSize('', DEFAULTS['max-file-size']));
    expect(DEFAULT_LIMITS.maxLineBytes).toBe(parseSize('', DEFAULTS['max-line-size']));
  });
});

describe('the entries map their surface onto the same settings', () => {
  const ctx = readContext({ GITHUB_WORKSPACE: ROOT }, ROOT);

  it('an action run with no inputs set and a CLI run with no flags verify the same way', async () => {
    const now = new Date('2026-12-01T12:00:00Z');
    const action = await readSettings(() => '', ctx, {}, NO_FILES, now);
    const fromAction = action.ok ? action.value.gate : null;
    const parsed = usage(() => verifyRequest([], { cwd: ROOT, env: {}, isTTY: false, now, version: '0.0.0-test' }));
    const fromCli = parsed.ok && parsed.value !== 'help' ? parsed.value : null;
    // What each entry writes is its own: the action always writes its report (by default under RUNNER_TEMP), the CLI here prints it.
    expect(fromAction?.writes.map(([input]) => input)).toEqual(['report-file']);
    expect(fromCli?.settings.writes).toEqual([]);
    expect(fromCli?.settings).toEqual({ ...fromAction, writes: [] });
    expect({ ...fromAction, writes: [] }).toEqual(defaultSettings(ROOT, now));
  });

  it('the action refuses a bad input by name, before anything runs', async () => {
    const problem = async (bad: Record<string, string>) => {
      const r = await readSettings((name: string) => bad[name] ?? '', ctx, {}, NO_FILES);
      return r.ok ? '(accepted)' : r.reason.message;
    };
    expect(await problem({ 'max-file-size': 'big' })).toContain('max-file-size: "big" is not a size');
    expect(await problem({ 'working-directory': '../..' })).toMatch(/working-directory: "\.\.\/\.\." is outside the workspace/);
    expect(await problem({ 'check-run-id': 'abc' })).toMatch(/^check-run-id: "abc" is not a check run id/);
    expect(await problem({ annotations: 'loud' })).toMatch(/^annotations: "loud" must be one of/);
  });

  it("the action's identities: the source repository from GITHUB_REPOSITORY, the ref the event's default branch unless source-refs", async () => {
    const id = 'https://github.com/acme/agents/.github/workflows/agent.yml@refs/heads/trunk';
    const inputs: Record<string, string> = { 'trusted-producer-identities': id };
    const read = (env: NodeJS.ProcessEnv, extra: Record<string, string> = {}, defaultBranch: string | null = 'trunk') =>
      readSettings((name: string) => extra[name] ?? inputs[name] ?? '', { ...ctx, defaultBranch }, env, NO_FILES);
    const r = await read({ GITHUB_REPOSITORY: 'acme/agents' });
    expect(r.ok && r.value.gate.keyless).toMatchObject({ signers: null, trustedRoot: null });
    const producers = r.ok ? r.value.gate.keyless?.producers : null;
    expect(producers && [...producers.identities]).toEqual([id]);
    expect(producers && [producers.sourceRepository, [...producers.sourceRefs], producers.issuer]).toEqual([
      'acme/agents',
      ['refs/heads/trunk'],
      'https://token.actions.githubusercontent.com',
    ]);
    // An event that names no default branch: the refs must be given, never a guessed main (a red team, this stop).
    const noEvent = await read({ GITHUB_REPOSITORY: 'acme/agents' }, {}, null);
    expect(noEvent.ok ? '(accepted)' : noEvent.reason.message).toMatch(/source-refs: this event names no default branch/);
    const given = await read({ GITHUB_REPOSITORY: 'acme/agents' }, { 'source-refs': 'refs/heads/trunk' }, null);
    expect(given.ok && [...(given.value.gate.keyless?.producers?.sourceRefs ?? [])]).toEqual(['refs/heads/trunk']);
    const refs = await read({ GITHUB_REPOSITORY: 'acme/agents' }, { 'source-refs': 'refs/heads/main\nrefs/tags/v1' });
    expect(refs.ok && [...(refs.value.gate.keyless?.producers?.sourceRefs ?? [])]).toEqual(['refs/heads/main', 'refs/tags/v1']);
    const none = await read({});
    expect(none.ok ? '(accepted)' : none.reason.message).toMatch(/^GITHUB_REPOSITORY: /);
    // An issuer that is no https URL is refused even with no identity set (a red team, this stop: it waited, unseen).
    const issuer = await read(
      { GITHUB_REPOSITORY: 'acme/agents' },
      { 'trusted-producer-identities': '', 'certificate-oidc-issuer': 'token.actions' },
    );
    expect(issuer.ok ? '(accepted)' : issuer.reason.message).toMatch(/^certificate-oidc-issuer: "token\.actions" is not an https:\/\/ URL/);
    const bad = await read({ GITHUB_REPOSITORY: 'acme/agents' }, { 'trusted-signer-identities': 'acme/agents' });
    expect(bad.ok ? '(accepted)' : bad.reason.message).toMatch(/^trusted-signer-identities: "acme\/agents" is not a workflow identity/);
    // Without an identity nothing keyless is configured (and nothing Sigstore is loaded).
    const plain = await readSettings(() => '', ctx, { GITHUB_REPOSITORY: 'acme/agents' }, NO_FILES);
    expect(plain.ok && plain.value.gate.keyless).toBeNull();
  });

  it('the CLI refuses a bad flag by name', async () => {
    const problem = (argv: string[]) => {
      const r = parseVerify(argv);
      return r.ok ? '(accepted)' : r.reason.message;
    };
    expect(problem(['--max-line-size', 'x'])).toContain('--max-line-size: "x" is not a size');
    expect(problem(['--format', 'xml'])).toContain('--format: "xml" must be one of table, json');
    expect((await main(['check'], {}, false, ROOT)).stderr).toContain('unknown command "check"');
    expect(parseVerify(['--runs', 'demo', '--runs', 'bundles', '-C', 'fixtures'], true)).toMatchObject({
      ok: true,
      value: { settings: { runs: ['demo', 'bundles'], cwd: path.join(ROOT, 'fixtures') }, format: 'table' },
    });
  });
});

describe('the option tables (cli/commands/*.ts)', () => {
  it('every flag that shares an action input shares its default, and the usage text shows it', () => {
    const usage = usageText();
    for (const c of COMMAND_SPECS) {
      expect(usage.replace(/\s+/g, ' '), c.name).toContain(`receipt-gate ${c.name} ${c.synopsis}`);
      for (const o of c.options) {
        if (o.input) expect(Object.keys(DEFAULTS), `--${o.flag}`).toContain(o.input);
        const d = optionDefault(o);
        const flat = usage.replace(/\s+/g, ' ');
        expect(flat, `--${o.flag}`).toContain(`--${o.flag}`);
        if (d !== undefined) expect(flat, `--${o.flag}`).toContain(`Default: ${d}`);
      }
    }
    expect(optionDefault(COMMAND_SPECS[0]!.options.find((o) => o.flag === 'max-file-size')!)).toBe(DEFAULTS['max-file-size']);
  });

  it('the parseArgs configuration is the table: every flag, its kind, its short name', () => {
    for (const c of COMMAND_SPECS) {
      const config = parseArgsOptions(c.options) ?? {};
      expect(Object.keys(config).sort()).toEqual([...c.options.map((o) => o.flag), 'help'].sort());
      for (const o of c.options) {
        expect(config[o.flag]!.type, o.flag).toBe(o.kind === 'boolean' ? 'boolean' : 'string');
        expect(Boolean(config[o.flag]!.multiple), o.flag).toBe(o.kind === 'list');
        expect(config[o.flag]!.short, o.flag).toBe(o.short);
      }
    }
  });

  it('no usage line is wider than 80 columns', () => {
    for (const line of usageText().split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
  });
});

describe('the report schema follows the vocabularies', () => {
  const schema = JSON.parse(readFileSync(path.join(ROOT, 'schemas/report.schema.json'), 'utf8'));
  const enums: string[][] = [];
  const walk = (o: unknown): void => {
    if (Array.isArray(o)) o.forEach(walk);
    else if (o && typeof o === 'object')
      for (const [k, v] of Object.entries(o)) k === 'enum' && Array.isArray(v) ? enums.push(v as string[]) : walk(v);
  };
  walk(schema);

  it('finding codes, record outcomes and the totals are exactly the tables', () => {
    expect(enums.some((e) => [...e].sort().join() === [...FINDING_CODES].sort().join())).toBe(true);
    expect(enums.some((e) => e.join() === RECORD_OUTCOME_NAMES.join())).toBe(true);
    const totals = schema.properties.totals.required as string[];
    for (const k of [...LEVELS, ...RECORD_OUTCOME_NAMES]) expect(totals, k).toContain(k);
  });

  it('trust codes are exactly the table', () => {
    expect(schema.$defs.trust_code.enum).toEqual([...TRUST_CODE_NAMES]);
  });
});
