/**
 * `receipt-gate verify`: its options, its flags read into the one settings builder (the action's
 * inputs feed the same), the gate, and the report, SARIF and verdict written.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Result } from '../../core/result.js';
import { visible } from '../../core/text.js';
import { buildOf, cacheText } from '../../gate/cache.js';
import { runGate } from '../../gate/gate.js';
import {
  checkoutDiffers,
  linkOnDisk,
  nearMissAtCommit,
  nearMissOnDisk,
  readAtCommit,
  resolveUserRef,
  unchangedSince,
  verdictRestsOn,
} from '../../gate/repository.js';
import { buildSettings, type GateInputs } from '../../gate/settings/build.js';
import { DEFAULTS } from '../../gate/settings/defaults.js';
import { parseChoice, parseRules } from '../../gate/settings/parsers.js';
import { directoryIn, distinctOutputs, given, outputIn, trustPathIn } from '../../gate/settings/paths.js';
import { historyOnly, type PolicyGiven, type RepoText } from '../../gate/settings/policy.js';
import type { Settings } from '../../gate/settings/types.js';
import { UsageError } from '../../gate/settings/types.js';
import { readNamedFile } from '../../read/files.js';
import { DEFAULT_LIMITS, type ReadLimits } from '../../read/limits.js';
import { digestedPieces, jsonPieces, writeJsonOnly } from '../../report/json-report.js';
import { cannotWriteText } from '../../report/output.js';
import { renderSarif } from '../../report/sarif.js';
import { renderTable } from '../../report/table.js';
import { DEFAULT_POLICY_URI, resourceUriFromEnv } from '../../report/verification-summary.js';
import type { SigningKey } from '../../tools/signing.js';
import { writeVerdict } from '../../tools/verdict.js';
import { type FileText, writeWhole } from '../../tools/write.js';
import { type CliOutcome, type Command, type CommandContext, EXIT, findingLines, usageError } from '../command.js';
import { readKeyText, readSigningKey, readTextFile } from '../files.js';
import { type Flags, LIMITS, type OptionSpec, parseFlags, unexpectedArgument } from '../options.js';
import { limitsOf, nowOf } from './shared.js';

/** What selects, trusts and judges the evidence: the options `verify` and `policy` share. */
export const GATE_OPTIONS = [
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
    flag: 'policy',
    kind: 'string',
    arg: 'FILE',
    input: 'policy',
    help: 'the policy file (docs/policy.md; relative to -C); a missing default means none (the --require rules apply)',
  },
  {
    flag: 'policy-ref',
    kind: 'string',
    arg: 'REF',
    help: 'read the policy file as it is at REF (git), as the action reads it at a pull request base',
  },
  {
    flag: 'now',
    kind: 'string',
    arg: 'TIME',
    help: 'the verification time (RFC 3339), to reproduce a verdict: exceptions expire and exports fall due against it. Default: now',
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
    help: 'run as if started in DIR (paths are relative to it, and reports name files from it; evidence outside it is refused: the runs and audit inputs; a key, a policy or an output may be elsewhere)',
  },
  ...LIMITS,
  {
    flag: 'jobs',
    kind: 'string',
    arg: 'N',
    input: 'jobs',
    help: "threads that read the input files and check the Sigstore bundles beside them: a number, or auto (the machine's cores when the input is over 64 MiB or 128 files have a bundle checked by identity, else one); 1 reads on the main thread",
  },
] as const satisfies readonly OptionSpec[];

/** What `verify` writes: the report, SARIF, the verdict. */
const REPORT_OPTIONS = [
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
    default: `the policy file's PATH@COMMIT (or PATH) when one is in effect, else ${DEFAULT_POLICY_URI}`,
    help: "a name for the policy, named in the verdict (its digest is the report's policy object's)",
  },
] as const satisfies readonly OptionSpec[];

/** The evidence cache (gate/cache.ts): verify only. */
const CACHE_OPTIONS = [
  {
    flag: 'cache',
    kind: 'string',
    arg: 'DIR',
    help: "keep each input file's evidence in DIR, keyed by the sha256 of its bytes, the bytes beside it, every read and trust setting and this build: a file whose key is there is not read again (the report is the same bytes). DIR is trusted like the gate itself: fill it only from runs on your default branch, and keep it outside the checkout (inside it is a usage error: a pull request could commit entries). With --format json --output FILE and nothing else written, it also keeps a snapshot of the verification, and a later run whose files are its files unchanged plus added files (after them or among them) verifies only those, with the kept runs whose calls added records bind (docs/cache.md; else a full run, said with why). A verdict (--vsa, --vsa-predicate) writes it and never reads it. Relative to -C",
  },
  { flag: 'no-cache', kind: 'boolean', help: 'read every file and keep nothing (overrides --cache)' },
] as const satisfies readonly OptionSpec[];

const OPTIONS = [...GATE_OPTIONS, ...REPORT_OPTIONS, ...CACHE_OPTIONS] as const satisfies readonly OptionSpec[];

type VerifyFlags = Flags<typeof OPTIONS>;

/** The verdict attestation asked for. */
interface VerdictRequest {
  readonly predicate: string | null;
  readonly envelope: string | null;
  readonly key: SigningKey | null;
  readonly resourceUri: string;
  readonly policyUri: string | null;
  /** The runner's commit, when the resource URI was taken from GITHUB_SHA: the checkout must be it. */
  readonly commit: string | null;
  /** The trust files the flags name (absolute): those inside the clone are what the verdict rests on too. */
  readonly trustFiles: readonly string[];
}

/** --resource-uri as given: it must be a URI (a scheme, then what URL parsing accepts); undefined when not given. */
export function resourceUriOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value) || !URL.canParse(value))
    throw new UsageError('value', `--resource-uri: "${value}" is not a URI (e.g. git+https://github.com/OWNER/REPO@<commit sha>)`);
  return value;
}

/** The verdict flags, checked together; a verdict key that cannot be used stops the run before anything is read or written. */
function verdictRequest(
  flags: VerifyFlags,
  at: (value: string | undefined) => string | null,
  out: (flag: 'vsa-predicate' | 'vsa', value: string | undefined) => string | null,
  env: NodeJS.ProcessEnv,
  output: string | null,
  format: 'table' | 'json',
): VerdictRequest | null {
  if (flags['vsa-predicate'] === undefined && flags.vsa === undefined) {
    if (flags['vsa-key'] !== undefined) throw new UsageError('conflict', '--vsa-key: only with --vsa FILE');
    return null;
  }
  const flag = flags.vsa !== undefined ? '--vsa' : '--vsa-predicate';
  if (output === null || format !== 'json')
    throw new UsageError('missing', `${flag}: the verdict is about the report file: also give --output REPORT (JSON)`);
  if (flags.vsa !== undefined && flags['vsa-key'] === undefined)
    throw new UsageError('missing', '--vsa: a signed verdict needs --vsa-key FILE');
  const named = resourceUriOf(flags['resource-uri']);
  const resourceUri = named ?? resourceUriFromEnv(env);
  if (!resourceUri)
    throw new UsageError(
      'missing',
      `${flag}: SLSA requires resourceUri: give --resource-uri URI (or run where GITHUB_SERVER_URL, GITHUB_REPOSITORY and GITHUB_SHA are set)`,
    );
  const keyFile = at(flags['vsa-key']);
  return {
    predicate: out('vsa-predicate', flags['vsa-predicate']),
    envelope: out('vsa', flags.vsa),
    key: keyFile === null ? null : readSigningKey('--vsa-key', keyFile),
    resourceUri,
    policyUri: flags['policy-uri'] ?? null,
    commit: named === undefined ? (env['GITHUB_SHA'] ?? null) : null,
    trustFiles: trustFlagFiles(flags, at),
  };
}

/** The key and root files the trust flags name (absolute). */
const trustFlagFiles = (flags: Flags<typeof GATE_OPTIONS>, at: (v: string | undefined) => string | null): string[] =>
  [...(flags['trusted-key'] ?? []), ...(flags['trusted-producer'] ?? []), flags['trusted-root']].flatMap((f) => at(f) ?? []);

/** PEM texts of the key files a repeatable flag names (relative to `dir`). */
function pemFiles(flag: string, files: readonly string[] | undefined, dir: string): { readonly name: string; readonly pem: string }[] {
  return (files ?? []).map((file) => ({ name: `${flag} ${file}`, pem: readKeyText(flag, path.resolve(dir, file)) }));
}

/** The flags as the one settings builder takes them. */
export function gateInputs(flags: Flags<typeof GATE_OPTIONS>, dir: string, ctxNow: Date): GateInputs {
  return {
    names: {
      runs: '--runs',
      audit: '--audit',
      require: '--require',
      jobs: '--jobs',
      trustedKeys: '--trusted-key',
      requireSignedRecords: '--require-signed-records',
      trustedProducers: '--trusted-producer',
      requireAttestedRuns: '--require-attested-runs',
      signerIdentities: '--trusted-signer-identity',
      producerIdentities: '--trusted-producer-identity',
      sourceRepository: '--source-repository',
      sourceRefs: '--source-ref',
      issuer: '--certificate-oidc-issuer',
      trustedRoot: '--trusted-root',
      limitsPrefix: '--',
    },
    cwd: dir,
    workspace: dir,
    runs: flags.runs ?? null,
    audit: flags.audit ?? null,
    allowUnmatchedRecords: flags['allow-unmatched-records'] ?? null,
    strictObserved: flags['strict-observed'] ?? null,
    maxFileSize: flags['max-file-size'] ?? null,
    maxLineSize: flags['max-line-size'] ?? null,
    jobs: flags.jobs ?? null,
    require: (flags.require ?? []).flatMap((v) => parseRules('--require', v)),
    trustedKeys: pemFiles('--trusted-key', flags['trusted-key'], dir),
    requireSignedRecords: flags['require-signed-records'] ?? false,
    trustedProducers: pemFiles('--trusted-producer', flags['trusted-producer'], dir),
    requireAttestedRuns: flags['require-attested-runs'] ?? false,
    identities: {
      signerIdentities: flags['trusted-signer-identity'] ?? [],
      producerIdentities: flags['trusted-producer-identity'] ?? [],
      sourceRepository: flags['source-repository'] ?? null,
      sourceRefs: flags['source-ref'] ?? [],
      defaultRef: 'refs/heads/main',
      issuer: flags['certificate-oidc-issuer'] ?? null,
    },
    trustedRoot:
      flags['trusted-root'] === undefined
        ? null
        : { kind: 'file', file: diskText('--trusted-root', dir, flags['trusted-root'], limitsOf(flags)) },
    policy: policyGiven(flags, dir),
    now: nowOf(flags.now, ctxNow),
    trustGiven: TRUST_FLAGS.filter(([flag]) => {
      const v = flags[flag];
      return Array.isArray(v) ? v.length > 0 : v !== undefined && v !== false;
    }).map(([, name]) => name),
    trustFile: (file, commit) => trustFileAt(dir, file, commit),
    cache: null,
    writes: [],
  };
}

/** The trust flags (given beside a policy's trust: section, a conflict), as messages name them. */
const TRUST_FLAGS = [
  ['trusted-key', '--trusted-key'],
  ['require-signed-records', '--require-signed-records'],
  ['trusted-producer', '--trusted-producer'],
  ['require-attested-runs', '--require-attested-runs'],
  ['trusted-signer-identity', '--trusted-signer-identity'],
  ['trusted-producer-identity', '--trusted-producer-identity'],
  ['source-ref', '--source-ref'],
  ['certificate-oidc-issuer', '--certificate-oidc-issuer'],
  ['trusted-root', '--trusted-root'],
] as const;

/** A policy or trust file is read only as a regular file: it, or a folder on its way from -C, being a link is a usage error (docs/policy.md §11). */
function refuseLink(label: string, dir: string, rel: string): void {
  const link = linkOnDisk(dir, rel);
  if (link !== null) throw new UsageError('file', `${label}: ${link}`);
}

/**
 * A file a policy's trust: section names: on disk under -C, or at the commit the policy was read at
 * (--policy-ref); never through a link, never outside the repository, only a regular file. Why not,
 * in words naming it: the settings builder locates it at the policy's entry.
 */
function trustFileAt(dir: string, file: string, commit: string | null): Result<string | null> {
  const at = trustPathIn(dir, file);
  if (!at.ok) return at;
  const rel = at.value;
  const abs = path.resolve(dir, rel);
  if (commit !== null) return readAtCommit(dir, commit, abs);
  const link = linkOnDisk(dir, rel);
  if (link !== null) return { ok: false, reason: link };
  if (!existsSync(abs)) return { ok: true, value: null };
  const got = readNamedFile(abs, DEFAULT_LIMITS);
  return got.ok ? { ok: true, value: got.value.toString('utf8') } : { ok: false, reason: `${rel}: ${got.reason}` };
}

/** A file a flag names, its text as on disk, named relative to -C. */
function diskText(flag: string, dir: string, file: string, limits: ReadLimits): RepoText {
  const abs = path.resolve(dir, file);
  const rel = path.relative(dir, abs).split(path.sep).join('/');
  refuseLink(flag, dir, rel);
  return { path: rel, commit: null, text: readTextFile(flag, abs, limits) };
}

/** --policy (default: .github/receipt-gate.yml, none when absent) read on disk, or at --policy-ref with git. */
function policyGiven(flags: Flags<typeof GATE_OPTIONS>, dir: string): PolicyGiven {
  const file = flags.policy ?? DEFAULTS.policy;
  const explicit = flags.policy !== undefined;
  const abs = path.resolve(dir, file);
  const rel = path.relative(dir, abs).split(path.sep).join('/');
  const ref = flags['policy-ref'];
  if (ref !== undefined) {
    const resolved = resolveUserRef(dir, ref);
    if (!resolved.ok) throw new UsageError('value', `--policy-ref: ${resolved.reason}`);
    const commit = resolved.value;
    const text = readAtCommit(dir, commit, abs);
    if (!text.ok) throw new UsageError('file', `--policy-ref ${ref}: ${text.reason}`);
    if (text.value === null) {
      if (explicit) throw new UsageError('path', `--policy: ${rel} does not exist at ${ref} (${commit.slice(0, 12)})`);
      const near = nearMissAtCommit(dir, commit);
      if (!near.ok)
        throw new UsageError(
          'file',
          `--policy-ref ${ref}: no policy file at ${rel}, and the tree cannot be listed for one at a near-miss path: ${near.reason}`,
        );
      nearMiss(rel, near.value, ` at ${ref}`);
      return { kind: 'none' };
    }
    return { kind: 'file', file: { path: rel, commit, text: text.value } };
  }
  refuseLink('--policy', dir, rel);
  if (!existsSync(abs)) {
    if (explicit)
      throw new UsageError(
        'path',
        `--policy: "${file}" does not exist (a missing default means no policy file; an explicit one must exist)`,
      );
    nearMiss(rel, nearMissOnDisk(dir), '');
    return { kind: 'none' };
  }
  return { kind: 'file', file: { path: rel, commit: null, text: readTextFile('--policy', abs) } };
}

/** A policy at a near-miss path while the default is missing: a configuration error, never a gate run without it (docs/policy.md §11). */
function nearMiss(rel: string, found: string | null, where: string): void {
  if (found !== null)
    throw new UsageError(
      'policy',
      `no policy file at ${rel}${where}, but ${found} exists: move it to ${rel}, or name it with --policy ${found}`,
    );
}

/** What `verify` was asked to do. */
interface VerifyRequest {
  readonly settings: Settings;
  readonly format: 'table' | 'json';
  readonly output: string | null;
  readonly sarif: string | null;
  readonly vsa: VerdictRequest | null;
}

/** The flags → the request (settings through the one builder); a mistake throws a UsageError naming the flag. */
export function verifyRequest(
  argv: readonly string[],
  ctx: Pick<CommandContext, 'cwd' | 'env' | 'isTTY' | 'version'> & { readonly now?: Date },
): VerifyRequest | 'help' {
  const { flags: f, rest, help } = parseFlags(argv, OPTIONS);
  if (help) return 'help';
  if (rest.length > 0) throw new UsageError('value', unexpectedArgument(argv, rest[0] ?? ''));
  // -C works as git -C: every relative path the command takes (inputs, keys, outputs) is relative to it.
  const dir = directoryIn(null, ctx.cwd, f['working-directory'] ?? '.', '-C/--working-directory');
  const at = (v: string | undefined): string | null => (v === undefined ? null : path.resolve(dir, v));
  /** A file the gate writes: never out of -C's directory through a link it holds. */
  const out = (flag: string, v: string | undefined): string | null => (v === undefined ? null : outputIn(dir, dir, v, `--${flag}`));
  const output = out('output', f.output);
  const format =
    f.format !== undefined
      ? parseChoice('--format', f.format, ['table', 'json'] as const)
      : ctx.isTTY && output === null
        ? 'table'
        : 'json';
  const sarif = out('sarif-file', f['sarif-file']);
  const vsa = verdictRequest(f, at, out, ctx.env, output, format);
  const outputs = [
    ['--output', output],
    ['--sarif-file', sarif],
    ['--vsa-predicate', vsa?.predicate ?? null],
    ['--vsa', vsa?.envelope ?? null],
  ] as const;
  // The files the flags name that are read: the policy file, keys and roots (the gate refuses an evidence file among the outputs).
  distinctOutputs(
    [...outputs, ['--vsa-key', at(f['vsa-key'])]],
    [path.resolve(dir, f.policy ?? DEFAULTS.policy), ...trustFlagFiles(f, at)],
  );
  // A verdict rests on every byte: it stores what it read and reads no entry.
  // A JSON report written to a file, and nothing else, can be merged onto a kept verification (gate/incremental.ts).
  const incremental = vsa === null && format === 'json' && output !== null && sarif === null;
  const cache =
    f.cache === undefined || f['no-cache'] ? null : { dir: f.cache, read: vsa === null, build: buildOf(ctx.version).key, incremental };
  return {
    settings: historyAtRef(buildSettings({ ...gateInputs(f, dir, ctx.now ?? new Date()), cache, writes: given(outputs) }), dir),
    format,
    output,
    sarif,
    vsa,
  };
}

/**
 * A policy read at --policy-ref (or `policy check --against REF`) is read as the action reads a pull
 * request's base (docs/policy.md §10): its grandfathered audit files' records bind only calls of run
 * files present with the same bytes at that commit (a red team: a run the checkout adds replayed a
 * grandfathered unsigned record under require-signed-records, and met a verified rule). Every command
 * that reads a policy at a commit goes through here (a red team: `--against REF` judged without it).
 */
export function historyAtRef(settings: Settings, dir: string): Settings {
  const commit = settings.policy.kind === 'file' ? settings.policy.source?.commit : null;
  if (settings.policy.kind !== 'file' || !commit || !settings.policy.grandfathered.some((g) => g.kind === 'audit')) return settings;
  const pinned = historyOnly(settings.policy, unchangedSince(dir, commit));
  const review = settings.policyReview;
  return {
    ...settings,
    policy: pinned.policy,
    policyReview:
      pinned.findings.length === 0
        ? review
        : { ...review, head: review?.head ?? null, findings: [...(review?.findings ?? []), ...pinned.findings] },
  };
}

/** An output the gate could not write: a configuration problem (exit 2). */
const cannotWrite = (flag: string, file: string, e: unknown): CliOutcome => ({
  code: EXIT.usage,
  stdout: '',
  stderr: `receipt-gate: ${cannotWriteText(flag, file, e)}\n`,
});

async function run(ctx: CommandContext): Promise<CliOutcome | 'help'> {
  const req = verifyRequest(ctx.argv, ctx);
  if (req === 'help') return req;
  const gated = await runGate(req.settings, req.vsa !== null);
  if (!gated.ok)
    return usageError(
      gated.reason.input ? `--${gated.reason.input}: ${gated.reason.message}` : gated.reason.message,
      gated.reason.code !== 'policy',
    );
  const { report, inputs } = gated.value;
  const code = report.ok ? EXIT.pass : EXIT.problem;
  const merged = gated.value.incremental === null ? '' : `${visible(`receipt-gate: incremental: ${gated.value.incremental}`)}\n`;
  const cached = gated.value.cache && req.settings.cache ? `${cacheText(gated.value.cache, req.settings.cache.dir)}\n${merged}` : '';
  const sarifText = req.sarif ? renderSarif(report, '', ctx.version) : null;
  if (req.sarif && sarifText !== null && (req.vsa === null || req.output === null)) {
    try {
      writeWhole(req.sarif, sarifText);
    } catch (error) {
      return cannotWrite('--sarif-file', req.sarif, error);
    }
  }
  if (req.output === null) {
    const color = req.format === 'table' && ctx.isTTY && !ctx.env['NO_COLOR'];
    return { code, stdout: req.format === 'json' ? jsonPieces(report) : renderTable(report, { color }), stderr: cached };
  }
  let attested = '';
  if (req.vsa) {
    // A verdict is written with the report it is about and the SARIF, all or none (a signer that fails writes nothing).
    const { pieces, digest } = digestedPieces(report);
    const v = req.vsa;
    const origin = {
      workspace: req.settings.workspace,
      reportFile: req.output,
      reportDigest: digest,
      resourceUri: v.resourceUri,
      policyUri: v.policyUri,
      inputs,
      version: ctx.version,
      checkoutDiffers:
        v.commit === null
          ? null
          : checkoutDiffers(
              req.settings.cwd,
              v.commit,
              verdictRestsOn(req.settings.cwd, inputs, req.settings.policy, v.trustFiles, [...req.settings.runs, ...req.settings.audit]),
            ),
    };
    const beside: (readonly [string, FileText])[] = [[req.output, pieces]];
    if (req.sarif && sarifText !== null) beside.push([req.sarif, sarifText]);
    const result = writeVerdict(report, origin, { predicate: v.predicate, envelope: v.envelope, key: v.key }, beside);
    if (!result.ok) return { code: EXIT.usage, stdout: '', stderr: findingLines('verify', result.reason) };
    attested = `; verdict (${report.ok ? 'PASSED' : 'FAILED'}) written to ${result.value.split('\n').join(', ')}`;
  } else {
    try {
      if (req.format === 'json') await writeJsonOnly(report, req.output, gated.value.kept);
      else writeWhole(req.output, renderTable(report, { color: false }));
    } catch (thrown) {
      return cannotWrite('--output', req.output, thrown);
    } finally {
      gated.value.kept?.close();
    }
  }
  return {
    code,
    stdout: '',
    stderr: `${cached}receipt-gate: ${report.ok ? 'PASS' : 'FAIL'}; report written to ${req.output}${attested}\n`,
  };
}

export const verify: Command = {
  spec: {
    name: 'verify',
    synopsis: '[options]',
    summary:
      'recompute every side-effect receipt binding from committed bytes and fail when a record mismatches, a claim cannot be reproduced or a required level is not reached',
    options: OPTIONS,
  },
  run,
};
