/**
 * The CLI's surface: argv → one typed command with its settings. Every flag's default comes from
 * the settings table (settings.ts); a mistake is one UsageError naming the flag. Reading a key file
 * named by a flag happens here, so a key that does not parse is a usage error naming the file.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { DOMAINS, type Domain } from './import/target-hash.js';
import { isSignedAt } from './sign/signature.js';
import { IMPORT_KINDS, type ImportKind } from './import/run.js';
import { DEFAULT_SLACK, type SlackOptions } from './import/slack.js';
import { defaultSettings, parseChoice, readLimits, readPolicy, readTrustedKeys, UsageError, type ReadLimits, type Settings } from './settings.js';

export const USAGE = `Usage: receipt-gate <command> [options]

Commands:
  verify    recompute every side-effect receipt binding from committed bytes and
            fail when a record mismatches, a claim cannot be reproduced or a
            required level is not reached
  keygen    write a new Ed25519 key pair for signing audit records
  sign      sign audit records with an export job's private key
  import    turn a provider's audit export into audit records
  hash      print the target hash of a raw value

receipt-gate verify [options]
  --runs PATH|GLOB          run artifacts (.json surfaces, .ndjson/.jsonl logs,
                            .tar.gz evidence bundles); repeatable.
                            Default: .assay/runs
  --audit PATH|GLOB         provider audit exports (.json, .ndjson, .jsonl);
                            repeatable. Default: .assay/audit
                            A directory means every *.json, *.jsonl, *.ndjson
                            and *.tar.gz beneath it.
  --require SELECTOR=LEVEL  a required level; SELECTOR is *, CLASS or
                            CLASS:VERB, LEVEL asserted, observed_confirmed or
                            verified (e.g. github_deploy_key:create=verified);
                            repeatable, the most specific rule applies
  --trusted-key FILE        PEM public key(s) of trusted record signers
                            (Ed25519, SPKI; relative to -C); repeatable. With
                            any, every record must be signed by one of them
  --format table|json       output format. Default: table on a terminal,
                            json otherwise
  --output FILE             write the report to FILE instead of stdout
  --allow-unmatched-records an audit record bound to no call is a warning,
                            not an error
  --strict-observed         an unreproduced observed_confirmed claim is an
                            error, not a warning
  -C, --working-directory DIR
                            run as if started in DIR (inputs and reported
                            paths are relative to it; nothing outside it is read)
  --max-file-size SIZE      largest artifact read (default 64MiB)
  --max-line-size SIZE      largest NDJSON line (default 8MiB)

receipt-gate keygen --out PREFIX
  writes PREFIX.key.pem (PKCS#8, mode 0600; never overwrites) and PREFIX.pub.pem
  (SPKI), and prints the key_id

receipt-gate import github-audit-log|github-webhook|slack-audit-log --output FILE
                    [--sign-key FILE] [--signed-at TIME] INPUT...
  turns provider audit exports (read from files: nothing is queried) into
  audit records, written as NDJSON only when the whole import succeeds
  Slack: --principal id|email (default id: what the agent passed as the user),
         --workspace context|none (default context: the agent passed the
         workspace; none: it did not), --role-verb ROLE=VERB (repeatable;
         default admin=grant, owner=grant, user=change_role,
         guest=change_role), --member-provider NAME (default slack),
         --role-provider NAME (default workspace)

receipt-gate hash DOMAIN VALUE
  prints the target hash of a raw value (domains: github_key_title,
  slack_workspace, slack_channel, slack_principal, workspace,
  workspace_principal), to see why a call and a record differ

receipt-gate sign --key FILE --output FILE [--signed-at TIME] INPUT...
  reads audit records from INPUT files (.json, .ndjson, .jsonl), signs each with
  the Ed25519 private key and writes them as NDJSON to --output; refuses (exit 1,
  nothing written) any input that is invalid or a record whose binding does not
  recompute

  -h, --help                show this help
  -V, --version             print the version

Exit status: 0 the gate passed (or the command succeeded), 1 it failed,
2 usage error. Colour only on a terminal; set NO_COLOR to turn it off.
`;

export interface VerifyCommand {
  readonly command: 'verify';
  readonly settings: Settings;
  readonly format: 'table' | 'json';
  /** Absolute path of --output, or null for stdout. */
  readonly output: string | null;
}

export interface KeygenCommand {
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
}

export type CliCommand =
  | VerifyCommand
  | KeygenCommand
  | SignCommand
  | ImportCommand
  | { readonly command: 'hash'; readonly domain: Domain; readonly value: string }
  | { readonly command: 'help' }
  | { readonly command: 'version' };

type Options = NonNullable<ParseArgsConfig['options']>;

const VERIFY: Options = {
  runs: { type: 'string', multiple: true },
  audit: { type: 'string', multiple: true },
  require: { type: 'string', multiple: true },
  'trusted-key': { type: 'string', multiple: true },
  format: { type: 'string' },
  output: { type: 'string' },
  'allow-unmatched-records': { type: 'boolean' },
  'strict-observed': { type: 'boolean' },
  'working-directory': { type: 'string', short: 'C' },
  'max-file-size': { type: 'string' },
  'max-line-size': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};
const KEYGEN: Options = { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } };
const SIGN: Options = {
  key: { type: 'string' },
  output: { type: 'string' },
  'signed-at': { type: 'string' },
  'max-file-size': { type: 'string' },
  'max-line-size': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};
const IMPORT: Options = {
  output: { type: 'string' },
  'sign-key': { type: 'string' },
  'signed-at': { type: 'string' },
  principal: { type: 'string' },
  workspace: { type: 'string' },
  'role-verb': { type: 'string', multiple: true },
  'member-provider': { type: 'string' },
  'role-provider': { type: 'string' },
  'max-file-size': { type: 'string' },
  'max-line-size': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};
const HASH: Options = { help: { type: 'boolean', short: 'h' } };
const COMMANDS: { readonly [c: string]: Options } = { verify: VERIFY, keygen: KEYGEN, sign: SIGN, import: IMPORT, hash: HASH };

function signedAtOf(v: string | undefined): string | null {
  if (v === undefined) return null;
  if (!isSignedAt(v)) throw new UsageError(`--signed-at: "${v}" is not an RFC 3339 UTC time (e.g. 2026-11-30T12:00:00Z)`);
  return v;
}

function parse(argv: readonly string[], options: Options) {
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

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * @param isTTY whether stdout is a terminal (the default format depends on it)
 * @param cwd   the process's working directory (relative paths resolve against it)
 */
export function parseCli(argv: readonly string[], isTTY: boolean, cwd: string): CliCommand {
  // The command comes first, as in git: `receipt-gate verify --runs …`.
  const command = argv[0];
  if (command === '--version' || command === '-V' || command === 'version') return { command: 'version' };
  if (command === undefined || command === 'help' || command === '-h' || command === '--help') {
    if (command !== undefined) return { command: 'help' };
    throw new UsageError('missing command: verify, keygen or sign');
  }
  if (command.startsWith('-')) throw new UsageError(`the command comes first (verify, keygen or sign), before "${command}"`);
  const options = COMMANDS[command];
  if (!options) throw new UsageError(`unknown command "${command}"`);
  const parsed = parse(argv, options);
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
    if (!(DOMAINS as readonly string[]).includes(domain)) throw new UsageError(`hash: unknown domain "${domain}" (one of ${DOMAINS.join(', ')})`);
    return { command: 'hash', domain: domain as Domain, value };
  }

  if (command === 'import') {
    const [kind, ...inputs] = rest;
    if (!kind || !Object.hasOwn(IMPORT_KINDS, kind)) throw new UsageError(`import: the export kind comes first: ${Object.keys(IMPORT_KINDS).join(', ')}`);
    const output = str('output');
    if (!output) throw new UsageError('import: --output FILE is required');
    if (inputs.length === 0) throw new UsageError('import: at least one INPUT export file is required');
    const roleVerbs: Record<string, string> = { ...DEFAULT_SLACK.roleVerbs };
    for (const rv of list('role-verb') ?? []) {
      const m = /^([a-z_]+)=([a-z_]+)$/.exec(rv.trim());
      if (!m) throw new UsageError(`--role-verb: "${rv}" is not ROLE=VERB (e.g. admin=grant)`);
      roleVerbs[m[1]!] = m[2]!;
    }
    return {
      command: 'import',
      kind: kind as ImportKind,
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
  const dir = path.resolve(cwd, str('working-directory') ?? '.');
  if (!isDirectory(dir)) throw new UsageError(`-C/--working-directory: "${str('working-directory')}" is not a directory`);
  const output = str('output') ?? null;
  const defaults = defaultSettings(dir);
  const keyFiles = list('trusted-key') ?? [];
  return {
    command: 'verify',
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
      trustedKeys: readTrustedKeys(keyFiles.map((f) => ({ name: `--trusted-key ${f}`, pem: readNamed('--trusted-key', path.resolve(dir, f)) }))),
    },
    format: str('format') !== undefined ? parseChoice('--format', str('format')!, ['table', 'json'] as const) : isTTY && output === null ? 'table' : 'json',
    output: output === null ? null : path.resolve(cwd, output),
  };
}
