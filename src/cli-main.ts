/**
 * The CLI's logic, free of process globals so tests can call it: argv → command (cli-args.ts) →
 * the gate or a signing tool → output → exit code (0 passed, 1 failed, 2 usage error).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { runGate } from './gate.js';
import { UsageError } from './settings.js';
import { parseCli, USAGE, type CliCommand, type ImportCommand, type SignCommand, type VerifyCommand } from './cli-args.js';
import { runImport, type ImportSettings } from './import/run.js';
import { targetHash } from './import/target-hash.js';
import { parsePrivateKey } from './sign/keys.js';
import { signedAtNow } from './sign/signature.js';
import { renderTable } from './report/table.js';
import { renderJson, writeJson } from './report/json.js';
import { keygen, signRecords, writeWhole } from './sign/tools.js';
import { VERSION } from './version.js';

export { USAGE };

export interface CliOutcome {
  readonly code: 0 | 1 | 2;
  readonly stdout: string;
  readonly stderr: string;
}

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv, isTTY: boolean, cwd: string): Promise<CliOutcome> {
  let cmd: CliCommand;
  try {
    cmd = parseCli(argv, isTTY, cwd);
  } catch (e) {
    if (e instanceof UsageError)
      return { code: 2, stdout: '', stderr: `receipt-gate: ${e.message}\nRun 'receipt-gate --help' for the commands and their options.\n` };
    throw e;
  }
  switch (cmd.command) {
    case 'help':
      return { code: 0, stdout: USAGE, stderr: '' };
    case 'version':
      return { code: 0, stdout: `receipt-gate ${VERSION}\n`, stderr: '' };
    case 'keygen': {
      const r = keygen(cmd.prefix);
      return r.ok
        ? {
            code: 0,
            stdout: r.message,
            stderr: `receipt-gate: wrote ${cmd.prefix}.key.pem (keep it secret: the export job's secrets) and ${cmd.prefix}.pub.pem\n`,
          }
        : { code: 1, stdout: '', stderr: r.errors.map((e) => `receipt-gate: keygen: ${e}\n`).join('') };
    }
    case 'sign':
      return sign(cmd);
    case 'hash':
      return { code: 0, stdout: `${targetHash(cmd.domain, cmd.value)}\n`, stderr: '' };
    case 'import':
      return importExports(cmd);
    case 'verify':
      return verify(cmd, env, isTTY);
  }
}

const readError = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? (e as Error).message;

/** The input files of a signing tool, read whole; the first that cannot be read is named. */
function readInputs(files: readonly string[]): { ok: true; inputs: { name: string; bytes: Uint8Array }[] } | { ok: false; error: string } {
  const inputs: { name: string; bytes: Uint8Array }[] = [];
  for (const file of files) {
    try {
      inputs.push({ name: file, bytes: readFileSync(file) });
    } catch (e) {
      return { ok: false, error: `${file}: cannot read (${readError(e)})` };
    }
  }
  return { ok: true, inputs };
}

function importExports(cmd: ImportCommand): CliOutcome {
  const fail = (lines: readonly string[], summary = ''): CliOutcome => ({
    code: 1,
    stdout: '',
    stderr: `${lines.map((l) => `receipt-gate: import ${cmd.kind}: ${l}\n`).join('')}${summary ? `receipt-gate: import ${cmd.kind}: ${summary}\n` : ''}receipt-gate: import ${cmd.kind}: nothing written\n`,
  });
  let sign: ImportSettings['sign'] = null;
  if (cmd.signKey) {
    let pem: string;
    try {
      pem = readFileSync(cmd.signKey, 'utf8');
    } catch (e) {
      return fail([`--sign-key ${cmd.signKey}: cannot read (${readError(e)})`]);
    }
    const k = parsePrivateKey(pem);
    if (!k.ok) return fail([`--sign-key ${k.reason}`]);
    sign = { ...k.value, signedAt: cmd.signedAt ?? signedAtNow() };
  }
  const read = readInputs(cmd.inputs);
  if (!read.ok) return fail([read.error]);
  const r = runImport({ kind: cmd.kind, inputs: read.inputs, limits: cmd.limits, slack: cmd.slack, sign });
  if (!r.ok) return fail(r.errors.slice(0, 50).concat(r.errors.length > 50 ? [`… and ${r.errors.length - 50} more error(s)`] : []), r.summary);
  try {
    writeWhole(cmd.output, r.ndjson);
  } catch (e) {
    return fail([`cannot write ${cmd.output}: ${(e as Error).message}`], r.summary);
  }
  return { code: 0, stdout: '', stderr: `receipt-gate: import ${cmd.kind}: ${r.summary}${sign ? ', signed' : ''} → ${cmd.output}\n` };
}

function sign(cmd: SignCommand): CliOutcome {
  let keyPem: string;
  try {
    keyPem = readFileSync(cmd.key, 'utf8');
  } catch (e) {
    return {
      code: 2,
      stdout: '',
      stderr: `receipt-gate: sign: --key ${cmd.key}: cannot read (${readError(e)})\n`,
    };
  }
  const read = readInputs(cmd.inputs);
  if (!read.ok) return { code: 1, stdout: '', stderr: `receipt-gate: sign: ${read.error}; nothing written\n` };
  const r = signRecords(keyPem, read.inputs, cmd.limits, cmd.signedAt ?? signedAtNow());
  if (!r.ok) return { code: 1, stdout: '', stderr: `${r.errors.map((e) => `receipt-gate: sign: ${e}\n`).join('')}receipt-gate: sign: nothing written\n` };
  try {
    writeWhole(cmd.output, r.message);
  } catch (e) {
    return { code: 1, stdout: '', stderr: `receipt-gate: sign: cannot write ${cmd.output}: ${(e as Error).message}; nothing written\n` };
  }
  const n = r.message.split('\n').length - 1;
  return { code: 0, stdout: '', stderr: `receipt-gate: signed ${n} record(s) into ${cmd.output}\n` };
}

async function verify(cmd: VerifyCommand, env: NodeJS.ProcessEnv, isTTY: boolean): Promise<CliOutcome> {
  const report = await runGate(cmd.settings);
  const color = cmd.format === 'table' && isTTY && cmd.output === null && !env['NO_COLOR'];
  const code = report.ok ? 0 : 1;
  if (cmd.output) {
    try {
      if (cmd.format === 'json') writeJson(report, cmd.output);
      else writeFileSync(cmd.output, renderTable(report, { color: false }));
    } catch (e) {
      return { code: 2, stdout: '', stderr: `receipt-gate: cannot write --output ${cmd.output}: ${(e as Error).message}\n` };
    }
    return { code, stdout: '', stderr: `receipt-gate: ${report.ok ? 'PASS' : 'FAIL'}; report written to ${cmd.output}\n` };
  }
  return { code, stdout: cmd.format === 'json' ? renderJson(report) : renderTable(report, { color }), stderr: '' };
}
