/**
 * The CLI's surface: argv → one typed command with its settings. The flags, their defaults and the
 * usage text come from the option tables (cli-options.ts); a mistake is one UsageError naming the flag. Reading a key file
 * named by a flag happens here, so a key that does not parse is a usage error naming the file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { compareInstants, type Instant } from '../core/time.js';
import {
  defaultSettings,
  directoryIn,
  parseChoice,
  readLimits,
  readPolicy,
  readTrustedKeys,
  type Settings,
  UsageError,
} from '../gate/settings.js';
import { sidecarOf } from '../read/formats.js';
import type { ReadLimits } from '../read/limits.js';
import { isSignedAt } from '../read/signature.js';
import { DEFAULT_POLICY_URI, resourceUriFromEnv } from '../report/verification-summary.js';
import { IMPORT_KINDS, type ImportKind, importKind } from '../tools/import/run.js';
import { parseWindowTime, type ScopeFilter } from '../tools/import/scope.js';
import { DEFAULT_SLACK, type SlackOptions } from '../tools/import/slack.js';
import { DOMAINS, type Domain } from '../tools/import/target-hash.js';
import type { TrustedKeys } from '../trust/keys.js';
import { commandSpec, parseArgsOptions, usageText } from './options.js';

export const USAGE = usageText();
const COMMAND_NAMES = 'verify, verify-attestation, attest-bundle, keygen, sign, import or hash';

export interface VerifyCommand {
  readonly command: 'verify';
  readonly settings: Settings;
  readonly format: 'table' | 'json';
  /** Absolute path of --output, or null for stdout. */
  readonly output: string | null;
  /** The verdict attestation asked for, or null. */
  readonly vsa: VerdictRequest | null;
}

interface VerdictRequest {
  readonly predicate: string | null;
  readonly envelope: string | null;
  readonly key: string | null;
  readonly resourceUri: string;
  readonly policyUri: string;
}

export interface AttestBundleCommand {
  readonly command: 'attest-bundle';
  readonly key: string;
  readonly bundle: string;
  readonly output: string;
  readonly limits: ReadLimits;
}

export interface VerifyAttestationCommand {
  readonly command: 'verify-attestation';
  readonly keys: TrustedKeys;
  readonly report: string;
  readonly envelope: string;
}

interface KeygenCommand {
  readonly command: 'keygen';
  /** Absolute path prefix: PREFIX.key.pem and PREFIX.pub.pem. */
  readonly prefix: string;
}

export interface SignCommand {
  readonly command: 'sign';
  /** Absolute paths. */
  readonly key: string;
  readonly output: string;
  readonly inputs: readonly string[];
  readonly signedAt: string | null;
  readonly limits: ReadLimits;
}

export interface ImportCommand {
  readonly command: 'import';
  readonly kind: ImportKind;
  readonly inputs: readonly string[];
  readonly output: string;
  readonly signKey: string | null;
  readonly signedAt: string | null;
  readonly limits: ReadLimits;
  readonly slack: SlackOptions;
  readonly scope: ScopeFilter;
}

export type CliCommand =
  | VerifyCommand
  | KeygenCommand
  | SignCommand
  | ImportCommand
  | VerifyAttestationCommand
  | AttestBundleCommand
  | { readonly command: 'hash'; readonly domain: Domain; readonly value: string }
  | { readonly command: 'help' }
  | { readonly command: 'version' };

function signedAtOf(v: string | undefined): string | null {
  if (v === undefined) return null;
  if (!isSignedAt(v)) throw new UsageError(`--signed-at: "${v}" is not an RFC 3339 UTC time (e.g. 2026-11-30T12:00:00Z)`);
  return v;
}

function parse(argv: readonly string[], options: ReturnType<typeof parseArgsOptions>) {
  try {
    return parseArgs({ args: [...argv], allowPositionals: true, strict: true, options });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** The text of a file a flag names; a file that cannot be read is a usage error naming it. */
function readNamed(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`${flag} ${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** Trusted keys from the PEM files a repeatable flag names (relative to `dir`); none: null. */
function keyFiles(flag: string, files: readonly string[], dir: string): TrustedKeys | null {
  return readTrustedKeys(files.map((f) => ({ name: `${flag} ${f}`, pem: readNamed(flag, path.resolve(dir, f)) })));
}

/** The verdict attestation flags of verify, checked together. */
function verdictRequest(
  str: (k: string) => string | undefined,
  cwd: string,
  env: NodeJS.ProcessEnv,
  output: string | null,
  format: 'table' | 'json',
): VerdictRequest | null {
  const predicate = str('vsa-predicate');
  const envelope = str('vsa');
  const key = str('vsa-key');
  if (predicate === undefined && envelope === undefined) {
    if (key !== undefined) throw new UsageError('--vsa-key: only with --vsa FILE');
    return null;
  }
  const flag = envelope !== undefined ? '--vsa' : '--vsa-predicate';
  if (output === null || format !== 'json')
    throw new UsageError(`${flag}: the verdict is about the report file: also give --output REPORT (JSON)`);
  if (envelope !== undefined && key === undefined) throw new UsageError('--vsa: a signed verdict needs --vsa-key FILE');
  const resourceUri = str('resource-uri') ?? resourceUriFromEnv(env);
  if (!resourceUri) {
    throw new UsageError(
      `${flag}: SLSA requires resourceUri: give --resource-uri URI (or run where GITHUB_SERVER_URL, GITHUB_REPOSITORY and GITHUB_SHA are set)`,
    );
  }
  return {
    predicate: predicate === undefined ? null : path.resolve(cwd, predicate),
    envelope: envelope === undefined ? null : path.resolve(cwd, envelope),
    key: key === undefined ? null : path.resolve(cwd, key),
    resourceUri,
    policyUri: str('policy-uri') ?? DEFAULT_POLICY_URI,
  };
}

/**
 * @param isTTY whether stdout is a terminal (the default format depends on it)
 * @param cwd   the process's working directory (relative paths resolve against it)
 * @param env   the environment (only for the verdict's default resourceUri)
 */
export function parseCli(argv: readonly string[], isTTY: boolean, cwd: string, env: NodeJS.ProcessEnv = {}): CliCommand {
  // The command comes first, as in git: `receipt-gate verify --runs …`.
  const command = argv[0];
  if (command === '--version' || command === '-V' || command === 'version') return { command: 'version' };
  if (command === undefined || command === 'help' || command === '-h' || command === '--help') {
    if (command !== undefined) return { command: 'help' };
    throw new UsageError(`missing command: ${COMMAND_NAMES}`);
  }
  if (command.startsWith('-')) throw new UsageError(`the command comes first (${COMMAND_NAMES}), before "${command}"`);
  const spec = commandSpec(command);
  if (!spec) throw new UsageError(`unknown command "${command}" (one of ${COMMAND_NAMES})`);
  const parsed = parse(argv, parseArgsOptions(spec));
  const v = parsed.values as Record<string, string | string[] | boolean | undefined>;
  const str = (k: string): string | undefined => v[k] as string | undefined;
  const list = (k: string): string[] | undefined => v[k] as string[] | undefined;
  if (v['help']) return { command: 'help' };
  const rest = parsed.positionals.slice(1);

  if (command === 'keygen') {
    if (rest.length > 0) throw new UsageError(`keygen: unexpected argument "${rest[0]}"`);
    const out = str('out');
    if (!out) throw new UsageError('keygen: --out PREFIX is required');
    return { command: 'keygen', prefix: path.resolve(cwd, out) };
  }

  if (command === 'hash') {
    const [domain, value, ...more] = rest;
    if (!domain || value === undefined || more.length > 0) throw new UsageError('hash: usage: receipt-gate hash DOMAIN VALUE');
    if (!(DOMAINS as readonly string[]).includes(domain))
      throw new UsageError(`hash: unknown domain "${domain}" (one of ${DOMAINS.join(', ')})`);
    return { command: 'hash', domain: domain as Domain, value };
  }

  if (command === 'import') {
    const [kind, ...inputs] = rest;
    const k = kind === undefined ? null : importKind(kind);
    if (!k) throw new UsageError(`import: the export kind comes first: ${Object.keys(IMPORT_KINDS).join(', ')}`);
    const output = str('output');
    if (!output) throw new UsageError('import: --output FILE is required');
    if (inputs.length === 0) throw new UsageError('import: at least one INPUT export file is required');
    const roleVerbs = new Map(DEFAULT_SLACK.roleVerbs);
    for (const rv of list('role-verb') ?? []) {
      const m = /^([a-z_]+)=([a-z_]+)$/.exec(rv.trim());
      if (!m) throw new UsageError(`--role-verb: "${rv}" is not ROLE=VERB (e.g. admin=grant)`);
      roleVerbs.set(m[1] as string, m[2] as string);
    }
    const time = (flag: string): Instant | null => {
      const v = str(flag);
      if (v === undefined) return null;
      const t = parseWindowTime(v);
      if (!t.ok) throw new UsageError(`--${flag}: ${t.reason}`);
      return t.value;
    };
    const since = time('since');
    const until = time('until');
    if (since !== null && until !== null && compareInstants(until, since) <= 0)
      throw new UsageError('--until must be later than --since (the window is [since, until))');
    const repos = list('repo');
    if (repos && k === 'slack-audit-log') throw new UsageError('--repo: Slack audit entries name no repository');
    for (const r of repos ?? []) if (!/^[^/\s]+\/[^/\s]+$/.test(r)) throw new UsageError(`--repo: "${r}" is not OWNER/NAME`);
    const actors = list('actor');
    for (const a of actors ?? []) if (a.trim() === '') throw new UsageError('--actor: an empty identity');
    return {
      command: 'import',
      kind: k,
      scope: {
        actors: actors ? new Set(actors) : null,
        repos: repos ? new Set(repos.map((r) => r.toLowerCase())) : null,
        since,
        until,
      },
      inputs: inputs.map((f) => path.resolve(cwd, f)),
      output: path.resolve(cwd, output),
      signKey: str('sign-key') ? path.resolve(cwd, str('sign-key')!) : null,
      signedAt: signedAtOf(str('signed-at')),
      limits: readLimits(str('max-file-size'), str('max-line-size'), '--'),
      slack: {
        principal: parseChoice('--principal', str('principal') ?? DEFAULT_SLACK.principal, ['id', 'email'] as const),
        workspace: parseChoice('--workspace', str('workspace') ?? DEFAULT_SLACK.workspace, ['context', 'none'] as const),
        roleVerbs,
        memberProvider: str('member-provider') ?? DEFAULT_SLACK.memberProvider,
        roleProvider: str('role-provider') ?? DEFAULT_SLACK.roleProvider,
      },
    };
  }

  if (command === 'attest-bundle') {
    const key = str('key');
    if (!key) throw new UsageError('attest-bundle: --key FILE is required');
    if (rest.length !== 1) throw new UsageError('attest-bundle: exactly one BUNDLE (.tar.gz) is required');
    const bundle = path.resolve(cwd, rest[0] as string);
    const output = str('output');
    return {
      command: 'attest-bundle',
      key: path.resolve(cwd, key),
      bundle,
      output: output ? path.resolve(cwd, output) : sidecarOf(bundle),
      limits: readLimits(str('max-file-size'), str('max-line-size'), '--'),
    };
  }

  if (command === 'verify-attestation') {
    const report = str('report');
    const files = list('trusted-key') ?? [];
    if (!report) throw new UsageError('verify-attestation: --report FILE is required');
    if (files.length === 0) throw new UsageError('verify-attestation: at least one --trusted-key FILE is required');
    if (rest.length !== 1) throw new UsageError('verify-attestation: exactly one ENVELOPE file is required');
    const keys = keyFiles('--trusted-key', files, cwd);
    if (!keys) throw new UsageError('verify-attestation: no trusted key');
    return { command: 'verify-attestation', keys, report: path.resolve(cwd, report), envelope: path.resolve(cwd, rest[0] as string) };
  }

  if (command === 'sign') {
    const key = str('key');
    const output = str('output');
    if (!key) throw new UsageError('sign: --key FILE is required');
    if (!output) throw new UsageError('sign: --output FILE is required');
    if (rest.length === 0) throw new UsageError('sign: at least one INPUT file of audit records is required');
    const signedAt = signedAtOf(str('signed-at'));
    return {
      command: 'sign',
      key: path.resolve(cwd, key),
      output: path.resolve(cwd, output),
      inputs: rest.map((f) => path.resolve(cwd, f)),
      signedAt,
      limits: readLimits(str('max-file-size'), str('max-line-size'), '--'),
    };
  }

  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}" (use --runs / --audit for paths)`);
  const dir = directoryIn(null, cwd, str('working-directory') ?? '.', '-C/--working-directory');
  const output = str('output') ?? null;
  const defaults = defaultSettings(dir);
  const format =
    str('format') !== undefined
      ? parseChoice('--format', str('format') as string, ['table', 'json'] as const)
      : isTTY && output === null
        ? 'table'
        : 'json';
  return {
    command: 'verify',
    vsa: verdictRequest(str, cwd, env, output, format),
    settings: {
      ...defaults,
      runs: list('runs') ?? defaults.runs,
      audit: list('audit') ?? defaults.audit,
      explicit: { runs: list('runs') !== undefined, audit: list('audit') !== undefined },
      allowUnmatchedRecords: (v['allow-unmatched-records'] as boolean | undefined) ?? defaults.allowUnmatchedRecords,
      strictObserved: (v['strict-observed'] as boolean | undefined) ?? defaults.strictObserved,
      limits: readLimits(str('max-file-size'), str('max-line-size'), '--'),
      policy: readPolicy('--require', list('require') ?? []),
      // Key files are inputs: relative to the working directory, as the runs and audit exports are.
      trustedKeys: keyFiles('--trusted-key', list('trusted-key') ?? [], dir),
      trustedProducers: keyFiles('--trusted-producer', list('trusted-producer') ?? [], dir),
    },
    format,
    output: output === null ? null : path.resolve(cwd, output),
  };
}
