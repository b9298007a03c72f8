/**
 * The CLI's logic, free of process globals so tests can call it: argv → command (cli-args.ts) →
 * the gate or a signing tool → output → exit code (0 passed, 1 failed, 2 usage error).
 */
import { existsSync } from 'node:fs';
import type { Finding } from '../core/findings.js';
import type { Result } from '../core/result.js';
import { runGate } from '../gate/gate.js';
import { readNamedFile } from '../read/files.js';
import { DEFAULT_LIMITS, type ReadLimits } from '../read/limits.js';
import { renderJson, writeJson } from '../report/json-report.js';
import { renderSarif } from '../report/sarif.js';
import { renderTable } from '../report/table.js';
import { located, visible } from '../report/text.js';
import { attestBundle } from '../tools/attest-bundle.js';
import { type ImportSettings, runImport } from '../tools/import/run.js';
import { targetHash } from '../tools/import/target-hash.js';
import type { ToolInput } from '../tools/input.js';
import { keygen } from '../tools/keygen.js';
import { signRecords } from '../tools/sign.js';
import { parsePrivateKey, type SigningKey, signedAtNow } from '../tools/signing.js';
import { writeVerdict } from '../tools/verdict.js';
import { writeNew, writeWhole } from '../tools/write.js';
import { verifyVerdict, verifyVerdictKeyless } from '../trust/verdict.js';
import { VERSION } from '../version.js';
import { usageText } from './options.js';
import {
  type AttestBundleCommand,
  type ImportCommand,
  parseCli,
  type SignCommand,
  USAGE,
  type VerifyAttestationCommand,
  type VerifyCommand,
} from './parse.js';

export interface CliOutcome {
  readonly code: 0 | 1 | 2;
  readonly stdout: string;
  readonly stderr: string;
}

/** A tool's findings as lines of stderr, at most 50 and a count of the rest. */
function findingLines(tool: string, findings: readonly Finding[]): string {
  const shown = findings.slice(0, 50).map((f) => `receipt-gate: ${tool}: ${located(f)}\n`);
  if (findings.length > 50) shown.push(`receipt-gate: ${tool}: … and ${findings.length - 50} more error(s)\n`);
  return shown.join('');
}

/** A usage error: exit 2, the problem, and where to read about the commands. */
const usageError = (message: string): CliOutcome => ({
  code: 2,
  stdout: '',
  stderr: `receipt-gate: ${message}\nRun 'receipt-gate --help' for the commands and their options.\n`,
});

/**
 * @param now the time a signature is made at when --signed-at is not given
 */
export async function main(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  isTTY: boolean,
  cwd: string,
  now = new Date(),
): Promise<CliOutcome> {
  const parsed = parseCli(argv, isTTY, cwd, env);
  if (!parsed.ok) return usageError(parsed.reason.message);
  const cmd = parsed.value;
  switch (cmd.command) {
    case 'help':
      return { code: 0, stdout: cmd.of === undefined ? USAGE : usageText(cmd.of), stderr: '' };
    case 'version':
      return { code: 0, stdout: `receipt-gate ${VERSION}\n`, stderr: '' };
    case 'keygen': {
      const r = keygen(cmd.prefix);
      return r.ok
        ? {
            code: 0,
            stdout: r.value,
            stderr: `receipt-gate: wrote ${cmd.prefix}.key.pem (the private key: keep it secret, never commit it; *.key.pem belongs in .gitignore) and ${cmd.prefix}.pub.pem (the public key: what a gate trusts)\n`,
          }
        : { code: 1, stdout: '', stderr: findingLines('keygen', r.reason) };
    }
    case 'sign':
      return sign(cmd, now);
    case 'hash':
      return { code: 0, stdout: `${targetHash(cmd.domain, cmd.value)}\n`, stderr: '' };
    case 'import':
      return importExports(cmd, now);
    case 'verify':
      return verify(cmd, env, isTTY, now);
    case 'verify-attestation':
      return verifyAttestation(cmd);
    case 'attest-bundle':
      return attest(cmd);
  }
}

/**
 * What verify-attestation reads: a report is the gate's own output, as large as its input makes it
 * (0.7 GB for a million calls), so only Node's own bound on one read applies; still never a FIFO or a device.
 */
const VERDICT_INPUTS: ReadLimits = { ...DEFAULT_LIMITS, maxFileBytes: 2 ** 31 - 1 };

/** The input files of a tool, read whole within the file limit; the first that cannot be read is named. */
function readInputs(files: readonly string[], limits: ReadLimits): Result<ToolInput[]> {
  const inputs: ToolInput[] = [];
  for (const file of files) {
    const got = readNamedFile(file, limits);
    if (!got.ok) return { ok: false, reason: `${file}: ${got.reason}` };
    inputs.push({ name: file, bytes: got.value });
  }
  return { ok: true, value: inputs };
}

/** Why a key file named by a flag cannot be used: it cannot be read at all, or it is not a usable private key. */
interface KeyProblem {
  readonly code: 'unreadable' | 'unusable';
  readonly message: string;
}

/** The exit code of each key problem (never chosen from a message's words). */
const KEY_EXIT: { readonly [C in KeyProblem['code']]: 1 | 2 } = { unreadable: 2, unusable: 2 };

/** A private key named by a flag. */
function readSigningKey(flag: string, file: string): Result<SigningKey, KeyProblem> {
  // Bounded, and only a regular file (a FIFO would block, a device never end); parsePrivateKey refuses past a few KiB.
  const got = readNamedFile(file, DEFAULT_LIMITS);
  if (!got.ok) return { ok: false, reason: { code: 'unreadable', message: `${flag} ${file}: ${got.reason}` } };
  const k = parsePrivateKey(got.value.toString('utf8'));
  return k.ok ? k : { ok: false, reason: { code: 'unusable', message: `${flag} ${k.reason}` } };
}

function importExports(cmd: ImportCommand, now: Date): CliOutcome {
  const tool = `import ${cmd.kind}`;
  const fail = (lines: string, summary = ''): CliOutcome => ({
    code: 1,
    stdout: '',
    stderr: `${lines}${summary ? `receipt-gate: ${tool}: ${summary}\n` : ''}receipt-gate: ${tool}: nothing written\n`,
  });
  const say = (line: string): string => `receipt-gate: ${tool}: ${line}\n`;
  let sign: ImportSettings['sign'] = null;
  if (cmd.signKey) {
    const k = readSigningKey('--sign-key', cmd.signKey);
    if (!k.ok) return fail(say(k.reason.message));
    sign = { key: k.value, signedAt: cmd.signedAt ?? signedAtNow(now) };
  }
  const read = readInputs(cmd.inputs, cmd.limits);
  if (!read.ok) return fail(say(read.reason));
  const r = runImport({ kind: cmd.kind, inputs: read.value, limits: cmd.limits, slack: cmd.slack, sign, scope: cmd.scope });
  if (!r.ok) return fail(findingLines(tool, r.reason.findings), r.reason.summary);
  const done = r.value;
  // A quiet night: nothing to write, and no empty file for a job to commit.
  if (done.records === 0) return { code: 0, stdout: '', stderr: say(`${done.summary}; no records, so ${cmd.output} was not written`) };
  try {
    // The predicate first: when it cannot be written, no records file is left without it.
    if (cmd.predicate) writeWhole(cmd.predicate, recordsPredicate(cmd, done));
    writeWhole(cmd.output, done.ndjson);
  } catch (e) {
    return fail(say(`cannot write ${cmd.output}: ${(e as Error).message}`), done.summary);
  }
  const also = cmd.predicate ? ` (predicate → ${cmd.predicate})` : '';
  return { code: 0, stdout: '', stderr: say(`${done.summary}${sign ? ', signed' : ''} → ${cmd.output}${also}`) };
}

/** The records predicate (docs/predicates/records-v1.md): the kind, the scope as given (absent members left out), the counts. */
function recordsPredicate(cmd: ImportCommand, done: { readonly entries: number; readonly records: number }): string {
  const g = cmd.given;
  const scope: { [k: string]: unknown } = {};
  if (g.actors.length > 0) scope['actor'] = g.actors;
  if (g.repos.length > 0) scope['repo'] = g.repos;
  if (g.since !== null) scope['since'] = g.since;
  if (g.until !== null) scope['until'] = g.until;
  return `${JSON.stringify({ kind: cmd.kind, scope, entries_read: done.entries, records_written: done.records }, null, 2)}\n`;
}

function sign(cmd: SignCommand, now: Date): CliOutcome {
  const k = readSigningKey('--key', cmd.key);
  if (!k.ok)
    return {
      code: KEY_EXIT[k.reason.code],
      stdout: '',
      stderr: `receipt-gate: sign: ${k.reason.message}\nreceipt-gate: sign: nothing written\n`,
    };
  const read = readInputs(cmd.inputs, cmd.limits);
  if (!read.ok) return { code: 1, stdout: '', stderr: `receipt-gate: sign: ${read.reason}; nothing written\n` };
  const r = signRecords(k.value, read.value, cmd.limits, cmd.signedAt ?? signedAtNow(now));
  if (!r.ok) return { code: 1, stdout: '', stderr: `${findingLines('sign', r.reason)}receipt-gate: sign: nothing written\n` };
  try {
    writeWhole(cmd.output, r.value);
  } catch (e) {
    return { code: 1, stdout: '', stderr: `receipt-gate: sign: cannot write ${cmd.output}: ${(e as Error).message}; nothing written\n` };
  }
  const n = r.value.split('\n').length - 1;
  return { code: 0, stdout: '', stderr: `receipt-gate: signed ${n} record(s) into ${cmd.output}\n` };
}

async function attest(cmd: AttestBundleCommand): Promise<CliOutcome> {
  const fail = (why: string, code: 1 | 2 = 1): CliOutcome => ({
    code,
    stdout: '',
    stderr: `${why}receipt-gate: attest-bundle: nothing written\n`,
  });
  const k = cmd.key === null ? null : readSigningKey('--key', cmd.key);
  if (k && !k.ok) return fail(`receipt-gate: attest-bundle: ${k.reason.message}\n`, KEY_EXIT[k.reason.code]);
  if (cmd.output !== null && existsSync(cmd.output))
    return fail(`receipt-gate: attest-bundle: ${cmd.output} exists; attest-bundle never overwrites (--output to choose another file)\n`);
  const read = readInputs([cmd.bundle], cmd.limits);
  if (!read.ok) return fail(`receipt-gate: attest-bundle: ${read.reason}\n`);
  const r = await attestBundle(read.value[0] as ToolInput, k ? k.value : null, cmd.limits);
  if (!r.ok) return fail(findingLines('attest-bundle', r.reason));
  if (cmd.output === null) return { code: 0, stdout: r.value, stderr: '' };
  try {
    writeNew(cmd.output, r.value);
  } catch (e) {
    return fail(`receipt-gate: attest-bundle: cannot write ${cmd.output}: ${(e as Error).message}\n`);
  }
  return { code: 0, stdout: '', stderr: `receipt-gate: attest-bundle: wrote ${cmd.output}\n` };
}

async function verifyAttestation(cmd: VerifyAttestationCommand): Promise<CliOutcome> {
  const read = readInputs([cmd.report, cmd.envelope], VERDICT_INPUTS);
  if (!read.ok) return { code: 2, stdout: '', stderr: `receipt-gate: verify-attestation: ${read.reason}\n` };
  const [report, envelope] = read.value as [ToolInput, ToolInput];
  const r = cmd.keyless?.signers
    ? await verifyVerdictKeyless(
        cmd.envelope,
        envelope.bytes,
        cmd.report,
        report.bytes,
        cmd.keyless.signers,
        cmd.keyless.trustedRoot,
        DEFAULT_LIMITS,
        cmd.resourceUri,
      )
    : cmd.keys
      ? await verifyVerdict(cmd.envelope, envelope.bytes, report.bytes, cmd.keys, DEFAULT_LIMITS, cmd.resourceUri)
      : null;
  // The parser asks for exactly one of the two; a command with neither is refused, never checked against nothing.
  if (r === null) return usageError('verify-attestation: --trusted-key FILE or --certificate-identity URI is required');
  if (!r.ok) return { code: r.reason.usage ? 2 : 1, stdout: '', stderr: `receipt-gate: verify-attestation: ${visible(r.reason.text)}\n` };
  return { code: 0, stdout: `${visible(r.value)}\n`, stderr: '' };
}

async function verify(cmd: VerifyCommand, env: NodeJS.ProcessEnv, isTTY: boolean, now: Date): Promise<CliOutcome> {
  // A verdict key that cannot be used stops the run before anything is read or written.
  let key: SigningKey | null = null;
  if (cmd.vsa?.key) {
    const k = readSigningKey('--vsa-key', cmd.vsa.key);
    if (!k.ok) return { code: 2, stdout: '', stderr: `receipt-gate: ${k.reason.message}\n` };
    key = k.value;
  }
  const gated = await runGate(cmd.settings, cmd.vsa !== null);
  if (!gated.ok) return usageError(gated.reason.input ? `--${gated.reason.input}: ${gated.reason.message}` : gated.reason.message);
  const { report, inputs } = gated.value;
  const color = cmd.format === 'table' && isTTY && cmd.output === null && !env['NO_COLOR'];
  const code = report.ok ? 0 : 1;
  if (cmd.sarif) {
    try {
      writeWhole(cmd.sarif, renderSarif(report, '', VERSION));
    } catch (e) {
      return { code: 2, stdout: '', stderr: `receipt-gate: cannot write --sarif-file ${cmd.sarif}: ${(e as Error).message}\n` };
    }
  }
  if (cmd.output) {
    let digest = '';
    try {
      if (cmd.format === 'json') digest = await writeJson(report, cmd.output);
      else writeWhole(cmd.output, renderTable(report, { color: false }));
    } catch (e) {
      return { code: 2, stdout: '', stderr: `receipt-gate: cannot write --output ${cmd.output}: ${(e as Error).message}\n` };
    }
    let attested = '';
    if (cmd.vsa) {
      const v = cmd.vsa;
      const origin = {
        workspace: cmd.settings.workspace,
        reportFile: cmd.output,
        reportDigest: digest,
        resourceUri: v.resourceUri,
        policyUri: v.policyUri,
        inputs,
        timeVerified: now,
        version: VERSION,
      };
      const w = writeVerdict(report, origin, { predicate: v.predicate, envelope: v.envelope, key });
      if (!w.ok) return { code: 2, stdout: '', stderr: findingLines('verify', w.reason) };
      attested = `; verdict (${report.ok ? 'PASSED' : 'FAILED'}) written to ${w.value.split('\n').join(', ')}`;
    }
    return { code, stdout: '', stderr: `receipt-gate: ${report.ok ? 'PASS' : 'FAIL'}; report written to ${cmd.output}${attested}\n` };
  }
  return { code, stdout: cmd.format === 'json' ? renderJson(report) : renderTable(report, { color }), stderr: '' };
}
