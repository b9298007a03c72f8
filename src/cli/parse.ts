/**
 * The CLI's surface: argv → one typed command with its settings. The flags, their defaults and the
 * usage text come from the option tables (options.ts), one parser per command; a mistake is a
 * UsageProblem naming the flag. Reading a key file named by a flag happens here, so a key that does
 * not parse is a usage error naming the file.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Result } from '../core/result.js';
import { asciiLower } from '../core/text.js';
import { compareInstants, type Instant } from '../core/time.js';
import {
  defaultSettings,
  directoryIn,
  type KeylessSettings,
  outputIn,
  parseChoice,
  parseJobs,
  parseList,
  readKeyless,
  readLimits,
  readPolicy,
  readTrustedKeys,
  requireExistingPaths,
  type Settings,
  UsageError,
  type UsageProblem,
  usage,
} from '../gate/settings.js';
import { readNamedFile } from '../read/files.js';
import { sidecarOf } from '../read/formats.js';
import { DEFAULT_LIMITS, type ReadLimits } from '../read/limits.js';
import { isSignedAt } from '../read/signature.js';
import { DEFAULT_POLICY_URI, resourceUriFromEnv } from '../report/verification-summary.js';
import { IMPORT_KINDS, type ImportKind, importKind } from '../tools/import/run.js';
import { parseWindowTime, type ScopeFilter } from '../tools/import/scope.js';
import { DEFAULT_SLACK, type SlackOptions } from '../tools/import/slack.js';
import { DOMAINS, type Domain } from '../tools/import/target-hash.js';
import type { TrustedKeys } from '../trust/keys.js';
import { COMMAND_SPECS, commandSpec, parseArgsOptions, usageText } from './options.js';

export const USAGE = usageText();
/** The command names, from the option tables: "a, b or c". */
const COMMAND_NAMES = ((names) => `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`)(COMMAND_SPECS.map((c) => c.name));

export interface VerifyCommand {
  readonly command: 'verify';
  readonly settings: Settings;
  readonly format: 'table' | 'json';
  /** Absolute path of --output, or null for stdout. */
  readonly output: string | null;
  /** Absolute path of --sarif-file, or null. */
  readonly sarif: string | null;
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
  /** The signing key, or null with --predicate-only. */
  readonly key: string | null;
  readonly bundle: string;
  /** Where it goes; null: standard output (--predicate-only without --output). */
  readonly output: string | null;
  readonly limits: ReadLimits;
}

export interface VerifyAttestationCommand {
  readonly command: 'verify-attestation';
  /** Trusted keys (a key-signed envelope), or null for a Sigstore bundle checked by identity. */
  readonly keys: TrustedKeys | null;
  /** The identity a Sigstore bundle must come from (null: a key-signed envelope). */
  readonly keyless: KeylessSettings | null;
  readonly report: string;
  readonly envelope: string;
  /** The resourceUri the verdict must name, or null (any). */
  readonly resourceUri: string | null;
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
  /** Where the records predicate goes (for actions/attest), or null. */
  readonly predicate: string | null;
  /** The scope as given, for the predicate. */
  readonly given: {
    readonly actors: readonly string[];
    readonly repos: readonly string[];
    readonly since: string | null;
    readonly until: string | null;
  };
}

export type CliCommand =
  | VerifyCommand
  | KeygenCommand
  | SignCommand
  | ImportCommand
  | VerifyAttestationCommand
  | AttestBundleCommand
  | { readonly command: 'hash'; readonly domain: Domain; readonly value: string }
  /** `command`: the help of one command (`receipt-gate verify --help`); absent: all of them. */
  | { readonly command: 'help'; readonly of?: string }
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
  if (!existsSync(file) || !statSync(file).isFile()) {
    const why = existsSync(file) ? 'is not a file' : 'does not exist';
    throw new UsageError(`${flag} ${file}: ${why} (this flag takes the path of a PEM key file)`);
  }
  // Bounded, and a regular file at the moment it is read (trust/keys.ts then refuses past a few KiB).
  const got = readNamedFile(file, DEFAULT_LIMITS);
  if (!got.ok) throw new UsageError(`${flag} ${file}: ${got.reason}`);
  return got.value.toString('utf8');
}

/** Trusted keys from the PEM files a repeatable flag names (relative to `dir`); none: null. */
function keyFiles(flag: string, files: readonly string[], dir: string): TrustedKeys | null {
  if (files.some((f) => f.trim() === '')) throw new UsageError(`${flag}: an empty file name (an unset variable?)`);
  return readTrustedKeys(files.map((f) => ({ name: `${flag} ${f}`, pem: readNamed(flag, path.resolve(dir, f)) })));
}

/** --resource-uri as given: it must be a URI (a scheme, then what URL parsing accepts); undefined when not given. */
function resourceUriOf(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(v) || !URL.canParse(v))
    throw new UsageError(`--resource-uri: "${v}" is not a URI (e.g. git+https://github.com/OWNER/REPO@<commit sha>)`);
  return v;
}

/** The verdict attestation flags of verify, checked together. */
function verdictRequest(
  str: (k: string) => string | undefined,
  at: (flag: string) => string | null,
  out: (flag: string) => string | null,
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
  const resourceUri = resourceUriOf(str('resource-uri')) ?? resourceUriFromEnv(env);
  if (!resourceUri) {
    throw new UsageError(
      `${flag}: SLSA requires resourceUri: give --resource-uri URI (or run where GITHUB_SERVER_URL, GITHUB_REPOSITORY and GITHUB_SHA are set)`,
    );
  }
  return {
    predicate: out('vsa-predicate'),
    envelope: out('vsa'),
    key: at('vsa-key'),
    resourceUri,
    policyUri: str('policy-uri') ?? DEFAULT_POLICY_URI,
  };
}

/** What every command's parser reads: its flags' values, its positional arguments, where it runs. */
interface Args {
  readonly str: (flag: string) => string | undefined;
  readonly list: (flag: string) => string[] | undefined;
  readonly bool: (flag: string) => boolean | undefined;
  readonly rest: readonly string[];
  readonly cwd: string;
  readonly isTTY: boolean;
  readonly env: NodeJS.ProcessEnv;
}

const limitsOf = (a: Args): ReadLimits => readLimits(a.str('max-file-size'), a.str('max-line-size'), '--');

function keygenCommand(a: Args): CliCommand {
  if (a.rest.length > 0) throw new UsageError(`keygen: unexpected argument "${a.rest[0]}"`);
  const out = a.str('out');
  if (!out) throw new UsageError('keygen: --out PREFIX is required');
  return { command: 'keygen', prefix: path.resolve(a.cwd, out) };
}

function hashCommand(a: Args): CliCommand {
  const [domain, value, ...more] = a.rest;
  if (!domain || value === undefined || more.length > 0) throw new UsageError('hash: usage: receipt-gate hash DOMAIN VALUE');
  if (!(DOMAINS as readonly string[]).includes(domain))
    throw new UsageError(`hash: unknown domain "${domain}" (one of ${DOMAINS.join(', ')})`);
  return { command: 'hash', domain: domain as Domain, value };
}

/** --since / --until: the window [since, until). */
function windowOf(a: Args): { readonly since: Instant | null; readonly until: Instant | null } {
  const time = (flag: string): Instant | null => {
    const v = a.str(flag);
    if (v === undefined) return null;
    const t = parseWindowTime(v);
    if (!t.ok) throw new UsageError(`--${flag}: ${t.reason}`);
    return t.value;
  };
  const since = time('since');
  const until = time('until');
  if (since !== null && until !== null && compareInstants(until, since) <= 0)
    throw new UsageError('--until must be later than --since (the window is [since, until))');
  return { since, until };
}

function slackOptions(a: Args): SlackOptions {
  const roleVerbs = new Map(DEFAULT_SLACK.roleVerbs);
  for (const rv of a.list('role-verb') ?? []) {
    const m = /^([a-z_]+)=([a-z_]+)$/.exec(rv.trim());
    if (!m) throw new UsageError(`--role-verb: "${rv}" is not ROLE=VERB (e.g. admin=grant)`);
    roleVerbs.set(m[1] as string, m[2] as string);
  }
  return {
    principal: parseChoice('--principal', a.str('principal') ?? DEFAULT_SLACK.principal, ['id', 'email'] as const),
    workspace: parseChoice('--workspace', a.str('workspace') ?? DEFAULT_SLACK.workspace, ['context', 'none'] as const),
    roleVerbs,
    memberProvider: a.str('member-provider') ?? DEFAULT_SLACK.memberProvider,
    roleProvider: a.str('role-provider') ?? DEFAULT_SLACK.roleProvider,
  };
}

function importCommand(a: Args): CliCommand {
  const [kind, ...inputs] = a.rest;
  const k = kind === undefined ? null : importKind(kind);
  if (!k) throw new UsageError(`import: the export kind comes first: ${Object.keys(IMPORT_KINDS).join(', ')}`);
  const output = a.str('output');
  if (!output) throw new UsageError('import: --output FILE is required');
  if (inputs.length === 0) throw new UsageError('import: at least one INPUT export file is required');
  const slack = slackOptions(a);
  const { since, until } = windowOf(a);
  const repos = a.list('repo');
  if (repos && k === 'slack-audit-log') throw new UsageError('--repo: Slack audit entries name no repository');
  for (const r of repos ?? []) if (!/^[^/\s]+\/[^/\s]+$/.test(r)) throw new UsageError(`--repo: "${r}" is not OWNER/NAME`);
  const actors = a.list('actor');
  for (const x of actors ?? []) if (x.trim() === '') throw new UsageError('--actor: an empty identity');
  const signKey = a.str('sign-key');
  return {
    command: 'import',
    kind: k,
    scope: {
      actors: actors ? new Set(k === 'slack-audit-log' ? actors : actors.map(asciiLower)) : null,
      caseless: k !== 'slack-audit-log',
      repos: repos ? new Set(repos.map(asciiLower)) : null,
      since,
      until,
    },
    inputs: inputs.map((f) => path.resolve(a.cwd, f)),
    output: path.resolve(a.cwd, output),
    signKey: signKey ? path.resolve(a.cwd, signKey) : null,
    signedAt: signedAtOf(a.str('signed-at')),
    limits: limitsOf(a),
    slack,
    predicate: a.str('predicate') ? path.resolve(a.cwd, a.str('predicate') as string) : null,
    given: { actors: actors ?? [], repos: repos ?? [], since: a.str('since') ?? null, until: a.str('until') ?? null },
  };
}

function attestBundleCommand(a: Args): CliCommand {
  const key = a.str('key');
  const predicateOnly = a.bool('predicate-only') ?? false;
  if (predicateOnly && key) throw new UsageError('attest-bundle: --predicate-only writes no signature: no --key');
  if (!predicateOnly && !key) throw new UsageError('attest-bundle: --key FILE is required (or --predicate-only for actions/attest)');
  if (a.rest.length !== 1) throw new UsageError('attest-bundle: exactly one BUNDLE (.tar.gz) is required');
  const bundle = path.resolve(a.cwd, a.rest[0] as string);
  const output = a.str('output');
  return {
    command: 'attest-bundle',
    key: key ? path.resolve(a.cwd, key) : null,
    bundle,
    output: output ? path.resolve(a.cwd, output) : predicateOnly ? null : sidecarOf(bundle),
    limits: limitsOf(a),
  };
}

function verifyAttestationCommand(a: Args): CliCommand {
  const report = a.str('report');
  const files = a.list('trusted-key') ?? [];
  const identity = a.str('certificate-identity');
  if (!report) throw new UsageError('verify-attestation: --report FILE is required');
  if (files.length === 0 && identity === undefined)
    throw new UsageError(
      'verify-attestation: --trusted-key FILE (a key-signed envelope) or --certificate-identity URI (a Sigstore bundle) is required',
    );
  if (files.length > 0 && identity !== undefined)
    throw new UsageError('verify-attestation: --trusted-key or --certificate-identity, not both');
  if (a.rest.length !== 1) throw new UsageError('verify-attestation: exactly one ENVELOPE file is required');
  const keys = files.length > 0 ? keyFiles('--trusted-key', files, a.cwd) : null;
  const trustedRoot = a.str('trusted-root');
  const keyless =
    identity === undefined
      ? null
      : readKeyless(
          {
            signerIdentities: [identity],
            producerIdentities: [],
            sourceRepository: a.str('source-repository') ?? null,
            sourceRefs: a.list('source-ref') ?? [],
            defaultRef: 'refs/heads/main',
            issuer: a.str('certificate-oidc-issuer') ?? null,
            trustedRoot: trustedRoot ? path.resolve(a.cwd, trustedRoot) : null,
          },
          {
            signerIdentities: '--certificate-identity',
            producerIdentities: '--certificate-identity',
            sourceRepository: '--source-repository',
            sourceRefs: '--source-ref',
            issuer: '--certificate-oidc-issuer',
          },
        );
  return {
    command: 'verify-attestation',
    keys,
    keyless,
    report: path.resolve(a.cwd, report),
    envelope: path.resolve(a.cwd, a.rest[0] as string),
    resourceUri: resourceUriOf(a.str('resource-uri')) ?? null,
  };
}

function signCommand(a: Args): CliCommand {
  const key = a.str('key');
  const output = a.str('output');
  if (!key) throw new UsageError('sign: --key FILE is required');
  if (!output) throw new UsageError('sign: --output FILE is required');
  if (a.rest.length === 0) throw new UsageError('sign: at least one INPUT file of audit records is required');
  return {
    command: 'sign',
    key: path.resolve(a.cwd, key),
    output: path.resolve(a.cwd, output),
    inputs: a.rest.map((f) => path.resolve(a.cwd, f)),
    signedAt: signedAtOf(a.str('signed-at')),
    limits: limitsOf(a),
  };
}

/** Every file the verify command writes, each named once (two flags naming one file are a usage error). */
function distinctOutputs(named: readonly (readonly [string, string | null])[]): void {
  const seen = new Map<string, string>();
  for (const [flag, file] of named) {
    if (file === null) continue;
    const other = seen.get(file);
    if (other) throw new UsageError(`${flag}: names the same file as ${other} (${file}); each output needs its own file`);
    seen.set(file, flag);
  }
}

/** A trust set that must not be empty when its switch is on: trust is never turned off by an empty list (semantics §12). */
function required(keys: TrustedKeys | null, on: boolean | undefined, flag: string, keysFlag: string): TrustedKeys | null {
  if (on && !keys) throw new UsageError(`--${flag}: no ${keysFlag} given (the gate would accept what no trusted key signed)`);
  return keys;
}

function verifyCommand(a: Args): CliCommand {
  const { str, list, bool, cwd } = a;
  if (a.rest.length > 0) throw new UsageError(`unexpected argument "${a.rest[0]}" (use --runs / --audit for paths)`);
  // -C works as git -C: every relative path the command takes (inputs, keys, outputs) is relative to it.
  const dir = directoryIn(null, cwd, str('working-directory') ?? '.', '-C/--working-directory');
  const at = (flag: string): string | null => {
    const v = str(flag);
    return v === undefined ? null : path.resolve(dir, v);
  };
  /** A file the gate writes: never out of -C's directory through a link it holds (gate/settings.ts outputIn). */
  const out = (flag: string): string | null => {
    const v = str(flag);
    return v === undefined ? null : outputIn(dir, dir, v, `--${flag}`);
  };
  const output = out('output');
  const defaults = defaultSettings(dir);
  const given = str('format');
  const format =
    given !== undefined ? parseChoice('--format', given, ['table', 'json'] as const) : a.isTTY && output === null ? 'table' : 'json';
  for (const role of ['runs', 'audit'] as const) requireExistingPaths(list(role) ?? [], dir, `--${role}`);
  const sarif = out('sarif-file');
  const keyless = readKeyless(
    {
      signerIdentities: list('trusted-signer-identity') ?? [],
      producerIdentities: list('trusted-producer-identity') ?? [],
      sourceRepository: str('source-repository') ?? null,
      sourceRefs: list('source-ref') ?? [],
      defaultRef: 'refs/heads/main',
      issuer: str('certificate-oidc-issuer') ?? null,
      trustedRoot: at('trusted-root'),
    },
    {
      signerIdentities: '--trusted-signer-identity',
      producerIdentities: '--trusted-producer-identity',
      sourceRepository: '--source-repository',
      sourceRefs: '--source-ref',
      issuer: '--certificate-oidc-issuer',
    },
  );
  const vsa = verdictRequest(str, at, out, a.env, output, format);
  distinctOutputs([
    ['--output', output],
    ['--sarif-file', sarif],
    ['--vsa-predicate', vsa?.predicate ?? null],
    ['--vsa', vsa?.envelope ?? null],
    ['--vsa-key', vsa?.key ?? null],
  ]);
  return {
    command: 'verify',
    vsa,
    settings: {
      ...defaults,
      runs: list('runs') ?? defaults.runs,
      audit: list('audit') ?? defaults.audit,
      explicit: { runs: list('runs') !== undefined, audit: list('audit') !== undefined },
      allowUnmatchedRecords: bool('allow-unmatched-records') ?? defaults.allowUnmatchedRecords,
      strictObserved: bool('strict-observed') ?? defaults.strictObserved,
      limits: limitsOf(a),
      jobs: a.str('jobs') === undefined ? defaults.jobs : parseJobs('--jobs', a.str('jobs') as string),
      policy: readPolicy('--require', (list('require') ?? []).flatMap(parseList)),
      // Key files are inputs: relative to the working directory, as the runs and audit exports are.
      trustedKeys: required(
        keyFiles('--trusted-key', list('trusted-key') ?? [], dir),
        bool('require-signed-records') && !keyless?.signers,
        'require-signed-records',
        '--trusted-key or --trusted-signer-identity',
      ),
      trustedProducers: required(
        keyFiles('--trusted-producer', list('trusted-producer') ?? [], dir),
        bool('require-attested-runs') && !keyless?.producers,
        'require-attested-runs',
        '--trusted-producer or --trusted-producer-identity',
      ),
      keyless,
    },
    format,
    output,
    sarif,
  };
}

/** One parser per command of the option tables. */
const PARSERS: { readonly [name: string]: (a: Args) => CliCommand } = {
  verify: verifyCommand,
  'verify-attestation': verifyAttestationCommand,
  'attest-bundle': attestBundleCommand,
  keygen: keygenCommand,
  sign: signCommand,
  import: importCommand,
  hash: hashCommand,
};

/**
 * argv → one typed command, or the usage problem (never an exception).
 * @param isTTY whether stdout is a terminal (the default format depends on it)
 * @param cwd   the process's working directory (relative paths resolve against it)
 * @param env   the environment (only for the verdict's default resourceUri)
 */
export function parseCli(
  argv: readonly string[],
  isTTY: boolean,
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Result<CliCommand, UsageProblem> {
  return usage(() => commandOf(argv, isTTY, cwd, env));
}

function commandOf(argv: readonly string[], isTTY: boolean, cwd: string, env: NodeJS.ProcessEnv): CliCommand {
  // The command comes first, as in git: `receipt-gate verify --runs …`.
  const command = argv[0];
  if (command === '--version' || command === '-V' || command === 'version') return { command: 'version' };
  if (command === undefined || command === 'help' || command === '-h' || command === '--help') {
    if (command !== undefined) return { command: 'help' };
    throw new UsageError(`missing command: ${COMMAND_NAMES}`);
  }
  if (command.startsWith('-')) throw new UsageError(`the command comes first (${COMMAND_NAMES}), before "${command}"`);
  const spec = commandSpec(command);
  const parser = spec ? PARSERS[spec.name] : undefined;
  if (!spec || !parser) throw new UsageError(`unknown command "${command}" (one of ${COMMAND_NAMES})`);
  const parsed = parse(argv, parseArgsOptions(spec));
  const v = parsed.values as Record<string, string | string[] | boolean | undefined>;
  if (v['help']) return { command: 'help', of: spec.name };
  return parser({
    str: (k) => v[k] as string | undefined,
    list: (k) => v[k] as string[] | undefined,
    bool: (k) => v[k] as boolean | undefined,
    rest: parsed.positionals.slice(1),
    cwd,
    isTTY,
    env,
  });
}
