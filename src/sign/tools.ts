/**
 * The signing tools of an export job: `keygen` (a new Ed25519 key pair) and `sign` (audit records,
 * signed, as NDJSON). Both fail closed: keygen never overwrites a file, sign writes nothing unless
 * every input is valid and every record's binding recomputes, and its output appears only whole
 * (written to a temporary file, then renamed).
 */
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { binding } from '../core/binding.js';
import type { Finding } from '../core/findings.js';
import type { RecordInput } from '../core/model.js';
import { readAuditFile } from '../read/artifacts.js';
import { formatOf } from '../read/formats.js';
import type { ReadLimits } from '../settings.js';
import { newKeyPair, parsePrivateKey } from './keys.js';
import { signedLine } from './signature.js';

export type ToolResult = { readonly ok: true; readonly message: string } | { readonly ok: false; readonly errors: readonly string[] };

const where = (f: Finding): string => `${f.file}:${f.line}:${f.column}: ${f.message}`;

/** PREFIX.key.pem (PKCS#8, 0600) and PREFIX.pub.pem (SPKI); refuses when either exists. */
export function keygen(prefix: string): ToolResult {
  const keyFile = `${prefix}.key.pem`;
  const pubFile = `${prefix}.pub.pem`;
  for (const f of [keyFile, pubFile]) if (existsSync(f)) return { ok: false, errors: [`${f} exists; keygen never overwrites a key`] };
  const pair = newKeyPair();
  try {
    // 'wx': fail if the file appeared meanwhile; mode 0600 from the first byte.
    writeFileSync(keyFile, pair.privatePem, { flag: 'wx', mode: 0o600 });
    writeFileSync(pubFile, pair.publicPem, { flag: 'wx', mode: 0o644 });
  } catch (e) {
    return { ok: false, errors: [`cannot write the key pair: ${(e as Error).message}`] };
  }
  return { ok: true, message: `${pair.keyId}\n` };
}

/** Write `text` to `file` only whole: a temporary file beside it, then a rename. */
export function writeWhole(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  const fd = openSync(tmp, 'wx', 0o644);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * Read records from the inputs with the gate's strict readers, refuse any problem, sign each record
 * and return the NDJSON text (one signed record per line, in input then record order).
 */
export function signRecords(
  keyPem: string,
  inputs: readonly { readonly name: string; readonly bytes: Uint8Array }[],
  limits: ReadLimits,
  signedAt: string,
): ToolResult {
  const key = parsePrivateKey(keyPem);
  if (!key.ok) return { ok: false, errors: [`--key ${key.reason}`] };
  const errors: string[] = [];
  const records: RecordInput[] = [];
  for (const input of inputs) {
    const format = formatOf(input.name);
    if (format !== 'json' && format !== 'ndjson') {
      errors.push(`${input.name}: not an audit export (.json, .jsonl or .ndjson)`);
      continue;
    }
    const r = readAuditFile(input.name, input.bytes, format, limits, { payloads: true });
    for (const f of r.findings) if (f.severity === 'error') errors.push(where(f));
    if (r.records.length === 0 && !r.findings.some((f) => f.severity === 'error')) errors.push(`${input.name}: no audit record to sign`);
    records.push(...r.records);
  }
  const lines: string[] = [];
  for (const r of records) {
    const b = binding(r.record.subject);
    if (!b.ok || b.digest !== r.record.binding_digest) {
      errors.push(
        `${r.loc.file}:${r.loc.line}:${r.loc.column}: record ${JSON.stringify(r.record.record_id.slice(0, 200))}: binding_digest does not recompute (${b.ok ? b.digest : b.reason}); never sign a binding that does not recompute`,
      );
      continue;
    }
    lines.push(signedLine(r.payload!, key.value.privateKey, key.value.publicKey, signedAt));
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, message: lines.join('\n') + '\n' };
}
