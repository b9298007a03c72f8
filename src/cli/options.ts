/**
 * The CLI's option tables, one per command: each option's flag, the action input of the same
 * meaning (whose default, from the settings table, the flag shares), its argument and its help.
 * From these come the `parseArgs` configuration, the usage text, and the comparison with
 * action.yml and the README (a test); nothing about an option is written twice.
 */
import type { ParseArgsConfig } from 'node:util';
import { DEFAULTS, type OptionName } from '../gate/settings.js';
import { DEFAULT_POLICY_URI } from '../report/verification-summary.js';

export interface OptionSpec {
  readonly flag: string;
  readonly short?: string;
  /** string: one value; list: repeatable; boolean: a switch. */
  readonly kind: 'string' | 'list' | 'boolean';
  /** The argument's name in the usage text (FILE, PATH|GLOB, …). */
  readonly arg?: string;
  /** The action input with the same meaning: its default is the flag's, shown in the usage text. */
  readonly input?: OptionName;
  /** A default of the CLI's own (when there is no input of the same meaning). */
  readonly default?: string;
  readonly help: string;
}

export interface CommandSpec {
  readonly name: string;
  /** What follows `receipt-gate NAME` in the usage text. */
  readonly synopsis: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Paragraphs after the synopsis. */
  readonly about?: string;
  readonly options: readonly OptionSpec[];
}

const LIMITS: readonly OptionSpec[] = [
  {
    flag: 'max-file-size',
    kind: 'string',
    arg: 'SIZE',
    input: 'max-file-size',
    help: 'largest file read (a gzipped export: what it decompresses to)',
  },
  { flag: 'max-line-size', kind: 'string', arg: 'SIZE', input: 'max-line-size', help: 'largest NDJSON line' },
];
const SIGNED_AT: OptionSpec = {
  flag: 'signed-at',
  kind: 'string',
  arg: 'TIME',
  help: 'the signed_at of every signature (RFC 3339 UTC). Default: now',
};

export const COMMAND_SPECS: readonly CommandSpec[] = [
  {
    name: 'verify',
    synopsis: '[options]',
    summary:
      'recompute every side-effect receipt binding from committed bytes and fail when a record mismatches, a claim cannot be reproduced or a required level is not reached',
    options: [
      {
        flag: 'runs',
        kind: 'list',
        arg: 'PATH|GLOB',
        input: 'runs',
        help: 'run artifacts (.json surfaces, .ndjson/.jsonl logs, .log server logs, .tar.gz evidence bundles); repeatable. A directory means every *.json, *.jsonl, *.ndjson, *.log and *.tar.gz beneath it',
      },
      {
        flag: 'audit',
        kind: 'list',
        arg: 'PATH|GLOB',
        input: 'audit',
        help: 'provider audit exports (.json, .ndjson, .jsonl); repeatable',
      },
      {
        flag: 'require',
        kind: 'list',
        arg: 'SELECTOR=LEVEL',
        input: 'require',
        help: 'required levels; SELECTOR is *, CLASS or CLASS:VERB, LEVEL asserted, observed_confirmed or verified (e.g. github_deploy_key:create=verified); one rule or several, comma- or newline-separated as in the action input; repeatable, the most specific rule applies',
      },
      {
        flag: 'trusted-key',
        kind: 'list',
        arg: 'FILE',
        input: 'trusted-keys',
        help: 'PEM public key(s) of trusted record signers (Ed25519, SPKI; relative to -C); repeatable. With any, every record must be signed by one of them',
      },
      {
        flag: 'trusted-producer',
        kind: 'list',
        arg: 'FILE',
        input: 'trusted-producers',
        help: 'PEM public key(s) of trusted run producers (Ed25519; relative to -C); repeatable. With any, every run must be an evidence bundle attested by one of them (a <bundle>.intoto.jsonl sidecar)',
      },
      {
        flag: 'trusted-signer-identity',
        kind: 'list',
        arg: 'URI',
        input: 'trusted-signer-identities',
        help: 'a workflow identity (the URI a certificate names: the workflow file at its ref) whose GitHub artifact attestations (a <file>.sigstore.json beside an audit export) trust its records; repeatable; needs --source-repository',
      },
      {
        flag: 'trusted-producer-identity',
        kind: 'list',
        arg: 'URI',
        input: 'trusted-producer-identities',
        help: 'a workflow identity whose attestations (a <run>.sigstore.json) attest runs; repeatable; needs --source-repository',
      },
      {
        flag: 'source-repository',
        kind: 'string',
        arg: 'OWNER/NAME',
        help: 'the repository an identity must have run for (its Source Repository URI extension); required with any identity',
      },
      {
        flag: 'source-ref',
        kind: 'list',
        arg: 'REF',
        input: 'source-refs',
        default: 'refs/heads/main',
        help: 'an allowed Source Repository Ref (repeatable; given values replace the default)',
      },
      {
        flag: 'certificate-oidc-issuer',
        kind: 'string',
        arg: 'URL',
        input: 'certificate-oidc-issuer',
        help: "the certificates' OIDC issuer",
      },
      {
        flag: 'trusted-root',
        kind: 'string',
        arg: 'FILE',
        input: 'trusted-root',
        help: 'a Sigstore trusted root, or JSON lines of them (gh attestation trusted-root; relative to -C). Default: the Sigstore public-good root shipped with receipt-gate',
      },
      {
        flag: 'require-signed-records',
        kind: 'boolean',
        input: 'require-signed-records',
        help: 'refuse to run without a trusted signer (--trusted-key): trust is never turned off by an empty list',
      },
      {
        flag: 'require-attested-runs',
        kind: 'boolean',
        input: 'require-attested-runs',
        help: 'refuse to run without a trusted producer (--trusted-producer)',
      },
      { flag: 'format', kind: 'string', arg: 'table|json', default: 'table on a terminal, json otherwise', help: 'output format' },
      {
        flag: 'output',
        kind: 'string',
        arg: 'FILE',
        input: 'report-file',
        help: 'write the report to FILE instead of stdout (relative to -C)',
      },
      {
        flag: 'sarif-file',
        kind: 'string',
        arg: 'FILE',
        input: 'sarif-file',
        help: 'also write SARIF 2.1.0 for code scanning to FILE (relative to -C)',
      },
      {
        flag: 'allow-unmatched-records',
        kind: 'boolean',
        input: 'allow-unmatched-records',
        help: 'an audit record bound to no call is a warning, not an error',
      },
      {
        flag: 'strict-observed',
        kind: 'boolean',
        input: 'strict-observed',
        help: 'an unreproduced observed_confirmed claim is an error, not a warning',
      },
      {
        flag: 'working-directory',
        short: 'C',
        kind: 'string',
        arg: 'DIR',
        input: 'working-directory',
        help: 'run as if started in DIR (inputs and reported paths are relative to it; nothing outside it is read)',
      },
      ...LIMITS,
      {
        flag: 'jobs',
        kind: 'string',
        arg: 'N',
        input: 'jobs',
        help: "threads that read the input files and check the Sigstore bundles beside them: a number, or auto (the machine's cores when the input is over 64 MiB or 128 files have a bundle checked by identity, else one); 1 reads on the main thread",
      },
      {
        flag: 'vsa-predicate',
        kind: 'string',
        arg: 'FILE',
        input: 'vsa-predicate',
        help: 'write the verdict as a SLSA Verification Summary predicate (for actions/attest; relative to -C); needs --output',
      },
      {
        flag: 'vsa',
        kind: 'string',
        arg: 'FILE',
        input: 'vsa',
        help: 'write the verdict as a signed in-toto Statement (a DSSE envelope line; relative to -C); needs --output and --vsa-key',
      },
      {
        flag: 'vsa-key',
        kind: 'string',
        arg: 'FILE',
        input: 'vsa-key',
        help: 'the Ed25519 private key that signs --vsa (a key file from keygen; relative to -C)',
      },
      {
        flag: 'resource-uri',
        kind: 'string',
        arg: 'URI',
        help: 'the commit the bytes were read from, named in the verdict. Default: git+ then $GITHUB_SERVER_URL/$GITHUB_REPOSITORY@$GITHUB_SHA',
      },
      {
        flag: 'policy-uri',
        kind: 'string',
        arg: 'URI',
        default: DEFAULT_POLICY_URI,
        help: "a name for the policy, named in the verdict (its digest is the report's policy object's)",
      },
    ],
  },
  {
    name: 'verify-attestation',
    synopsis: '(--trusted-key PUB | --certificate-identity URI --source-repository OWNER/NAME) --report REPORT ENVELOPE',
    summary: "check a signed verdict offline: the report's digest, the signer, and PASSED",
    about:
      'checks the envelope in order (payload type, a trusted signature, strict payload, Statement and predicate types, the subject digest against REPORT, verificationResult PASSED); exit 0 and one line when valid, 1 with the reason',
    options: [
      { flag: 'trusted-key', kind: 'list', arg: 'FILE', help: 'PEM public key(s) of the verdict signer (Ed25519); repeatable' },
      { flag: 'report', kind: 'string', arg: 'FILE', help: 'the report the verdict is about (required)' },
      {
        flag: 'certificate-identity',
        kind: 'string',
        arg: 'URI',
        help: 'check a Sigstore bundle (GitHub artifact attestation) instead of a key-signed envelope: the workflow identity that must have signed it; needs --source-repository',
      },
      { flag: 'source-repository', kind: 'string', arg: 'OWNER/NAME', help: 'the repository the workflow must have run for' },
      { flag: 'source-ref', kind: 'list', arg: 'REF', default: 'refs/heads/main', help: 'an allowed Source Repository Ref (repeatable)' },
      { flag: 'certificate-oidc-issuer', kind: 'string', arg: 'URL', help: "the certificate's OIDC issuer" },
      {
        flag: 'trusted-root',
        kind: 'string',
        arg: 'FILE',
        help: 'a Sigstore trusted root (or JSON lines of them). Default: the public-good root',
      },
      {
        flag: 'resource-uri',
        kind: 'string',
        arg: 'URI',
        help: "require the verdict's resourceUri to be exactly URI (a verdict for another commit or repository must not pass)",
      },
    ],
  },
  {
    name: 'attest-bundle',
    synopsis: '(--key FILE | --predicate-only) [--output FILE] BUNDLE',
    summary: "attest an evidence bundle as its producer (what upstream's assay evidence attest writes)",
    about:
      'verifies BUNDLE, makes the evidence-bundle/v1 Statement for its exact bytes and writes it, signed (DSSE, Ed25519), as one line to BUNDLE.intoto.jsonl; never overwrites a file. With --predicate-only, writes the predicate alone (for actions/attest predicate-path) to --output or standard output',
    options: [
      { flag: 'key', kind: 'string', arg: 'FILE', help: "the producer's Ed25519 private key (PKCS#8 PEM)" },
      { flag: 'predicate-only', kind: 'boolean', help: "write upstream's evidence-bundle/v1 predicate alone (JSON), no key needed" },
      {
        flag: 'output',
        kind: 'string',
        arg: 'FILE',
        help: 'where it goes. Default: BUNDLE.intoto.jsonl (--predicate-only: standard output)',
      },
      ...LIMITS,
    ],
  },
  {
    name: 'keygen',
    synopsis: '--out PREFIX',
    summary: 'write a new Ed25519 key pair for signing audit records',
    about: 'writes PREFIX.key.pem (PKCS#8, mode 0600; never overwrites) and PREFIX.pub.pem (SPKI), and prints the key_id',
    options: [{ flag: 'out', kind: 'string', arg: 'PREFIX', help: 'where the two key files go (required)' }],
  },
  {
    name: 'sign',
    synopsis: '--key FILE --output FILE [--signed-at TIME] INPUT...',
    summary: "sign audit records with an export job's private key",
    about:
      'reads audit records from INPUT files (.json, .ndjson, .jsonl), signs each with the Ed25519 private key and writes them as NDJSON to --output; refuses (exit 1, nothing written) any input that is invalid or a record whose binding does not recompute',
    options: [
      { flag: 'key', kind: 'string', arg: 'FILE', help: 'the Ed25519 private key (PKCS#8 PEM; required)' },
      { flag: 'output', kind: 'string', arg: 'FILE', help: 'the signed NDJSON (required)' },
      SIGNED_AT,
      ...LIMITS,
    ],
  },
  {
    name: 'import',
    synopsis: 'github-audit-log|github-webhook|slack-audit-log --output FILE [options] INPUT...',
    summary: "turn a provider's audit export into audit records",
    about:
      'turns provider audit exports (read from files: nothing is queried) into audit records, written as NDJSON only when the whole import succeeds',
    options: [
      { flag: 'output', kind: 'string', arg: 'FILE', help: 'the records (NDJSON; required)' },
      { flag: 'sign-key', kind: 'string', arg: 'FILE', help: 'sign every record with this Ed25519 private key' },
      {
        flag: 'predicate',
        kind: 'string',
        arg: 'FILE',
        help: 'also write the records predicate (kind, scope, entries read, records written) for actions/attest predicate-path',
      },
      {
        flag: 'actor',
        kind: 'list',
        arg: 'LOGIN',
        help: "the agent's identity: keep only entries by it (GitHub actor, a delivery's sender.login, Slack actor.user.id or email); repeatable",
      },
      {
        flag: 'repo',
        kind: 'list',
        arg: 'OWNER/NAME',
        help: 'GitHub: keep only entries of this repository (case-insensitive); repeatable',
      },
      {
        flag: 'since',
        kind: 'string',
        arg: 'TIME',
        help: "keep only entries at or after TIME (the entry's own time; RFC 3339, or YYYY-MM-DD for midnight UTC)",
      },
      { flag: 'until', kind: 'string', arg: 'TIME', help: 'keep only entries before TIME (the window is [since, until))' },
      SIGNED_AT,
      { flag: 'principal', kind: 'string', arg: 'id|email', default: 'id', help: 'Slack: what the agent passed as the user' },
      { flag: 'workspace', kind: 'string', arg: 'context|none', default: 'context', help: 'Slack: whether the agent passed the workspace' },
      {
        flag: 'role-verb',
        kind: 'list',
        arg: 'ROLE=VERB',
        default: 'admin=grant, owner=grant, user=change_role, guest=change_role',
        help: 'Slack: the verb of a role change; repeatable',
      },
      { flag: 'member-provider', kind: 'string', arg: 'NAME', default: 'slack', help: 'Slack: the provider of workspace_member records' },
      { flag: 'role-provider', kind: 'string', arg: 'NAME', default: 'workspace', help: 'Slack: the provider of workspace_role records' },
      ...LIMITS,
    ],
  },
  {
    name: 'hash',
    synopsis: 'DOMAIN VALUE',
    summary: 'print the target hash of a raw value',
    about:
      'prints the target hash of a raw value (domains: github_key_title, slack_workspace, slack_channel, slack_principal, workspace, workspace_principal), to see why a call and a record differ',
    options: [],
  },
];

const HELP: OptionSpec = { flag: 'help', short: 'h', kind: 'boolean', help: 'show this help' };

export function commandSpec(name: string): CommandSpec | undefined {
  return COMMAND_SPECS.find((c) => c.name === name);
}

/** The default an option shows: its input's (from the settings table), or its own. */
export function optionDefault(o: OptionSpec): string | undefined {
  if (o.input) return o.kind === 'boolean' ? undefined : DEFAULTS[o.input] || undefined;
  return o.default;
}

/** The `parseArgs` options of a command. */
export function parseArgsOptions(spec: CommandSpec): NonNullable<ParseArgsConfig['options']> {
  const out: NonNullable<ParseArgsConfig['options']> = {};
  for (const o of [...spec.options, HELP]) {
    out[o.flag] = {
      type: o.kind === 'boolean' ? 'boolean' : 'string',
      ...(o.kind === 'list' ? { multiple: true } : {}),
      ...(o.short ? { short: o.short } : {}),
    };
  }
  return out;
}

const WIDTH = 80;
const COLUMN = 28;

/** Words filled into lines of at most `width` characters, each line indented. */
function fill(text: string, indent: number, width = WIDTH): string[] {
  const lines: string[] = [];
  let cur = '';
  for (const w of text.split(/\s+/).filter(Boolean)) {
    if (cur !== '' && indent + cur.length + 1 + w.length > width) {
      lines.push(' '.repeat(indent) + cur);
      cur = w;
    } else cur = cur === '' ? w : `${cur} ${w}`;
  }
  if (cur !== '') lines.push(' '.repeat(indent) + cur);
  return lines;
}

function optionLines(o: OptionSpec): string[] {
  const name = `${o.short ? `-${o.short}, ` : ''}--${o.flag}${o.arg ? ` ${o.arg}` : ''}`;
  const d = optionDefault(o);
  const help = fill(`${o.help}${d !== undefined ? `. Default: ${d}` : ''}`, COLUMN);
  const head = `  ${name}`;
  if (head.length + 1 < COLUMN && help[0]) return [head.padEnd(COLUMN) + help[0].slice(COLUMN), ...help.slice(1)];
  return [head, ...help];
}

/** The usage text, from the tables: every command, or (`receipt-gate COMMAND --help`) that command alone. */
export function usageText(only?: string): string {
  const specs = only === undefined ? COMMAND_SPECS : COMMAND_SPECS.filter((c) => c.name === only);
  const out = only === undefined ? ['Usage: receipt-gate <command> [options]', '', 'Commands:'] : [`Usage: receipt-gate ${only} [options]`];
  if (only === undefined)
    for (const c of COMMAND_SPECS) {
      const lines = fill(c.summary, 22);
      out.push(`  ${c.name.padEnd(20)}${(lines[0] ?? '').slice(22)}`, ...lines.slice(1));
    }
  for (const c of specs) {
    out.push('', ...fill(`receipt-gate ${c.name} ${c.synopsis}`, 0).map((l, i) => (i === 0 ? l : `${' '.repeat(20)}${l}`)));
    if (c.about) out.push(...fill(c.about, 2));
    for (const o of c.options) out.push(...optionLines(o));
  }
  out.push(
    '',
    ...optionLines(HELP),
    ...optionLines({ flag: 'version', short: 'V', kind: 'boolean', help: 'print the version' }),
    '',
    'Exit status: 0 the gate passed (or the command succeeded), 1 it failed,',
    '2 usage error. Colour only on a terminal; set NO_COLOR to turn it off.',
    '',
  );
  return out.join('\n');
}
