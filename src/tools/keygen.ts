/** `keygen`: a new Ed25519 key pair for an export job (or a producer); never overwrites a file. */
import { lstatSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Finding } from '../core/findings.js';
import { inputFinding } from '../core/findings.js';
import type { Result } from '../core/result.js';
import { messageOf } from '../core/text.js';
import { makeDirs } from '../report/output.js';
import { keyIdOf } from '../trust/keys.js';
import { newKeyPair, parsePrivateKey } from './signing.js';

/**
 * PREFIX.key.pem (PKCS#8, 0600) and PREFIX.pub.pem (SPKI), in a folder made when it does not exist.
 * Never overwrites: when both files exist and are one pair, they are kept (running it again is
 * harmless) and `kept` is true; one without the other, or two that are not a pair, is refused.
 */
export function keygen(prefix: string): Result<{ readonly keyId: string; readonly kept: boolean }, readonly Finding[]> {
  const keyFile = `${prefix}.key.pem`;
  const pubFile = `${prefix}.pub.pem`;
  // Anything at either name, a dangling link included, is there: never written through or beside.
  const there = [keyFile, pubFile].filter((f) => present(f));
  if (there.length > 0) return existingPair(keyFile, pubFile, there.length === 2);
  const pair = newKeyPair();
  let made: readonly string[] = [];
  let wroteKey = false;
  try {
    made = makeDirs(path.dirname(keyFile));
    // 'wx': fail if the file appeared meanwhile; mode 0600 from the first byte.
    writeFileSync(keyFile, pair.privatePem, { flag: 'wx', mode: 0o600 });
    wroteKey = true;
    writeFileSync(pubFile, pair.publicPem, { flag: 'wx', mode: 0o644 });
  } catch (error) {
    // Both or neither: a private key without its public key is only a refusal next time.
    if (wroteKey) rmSync(keyFile, { force: true });
    for (const d of [...made].reverse()) {
      try {
        rmdirSync(d);
      } catch {
        break;
      }
    }
    return {
      ok: false,
      reason: [inputFinding('invalid_artifact', prefix, `cannot write the key pair: ${messageOf(error)}; nothing written`)],
    };
  }
  return { ok: true, value: { keyId: pair.keyId, kept: false } };
}

/** Whether anything is at `file` (a dangling link included, which existsSync does not see). */
function present(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

function existingPair(
  keyFile: string,
  pubFile: string,
  both: boolean,
): Result<{ readonly keyId: string; readonly kept: boolean }, readonly Finding[]> {
  const refuse = (file: string, why: string) => ({ ok: false as const, reason: [inputFinding('invalid_artifact', file, why)] });
  if (!both)
    return refuse(
      present(keyFile) ? keyFile : pubFile,
      'exists without the other file of its pair; keygen never overwrites a key (remove it, or choose another --out)',
    );
  let key: ReturnType<typeof parsePrivateKey>;
  let pub: string;
  try {
    key = parsePrivateKey(readFileSync(keyFile, 'utf8'));
    pub = readFileSync(pubFile, 'utf8');
  } catch (error) {
    return refuse(keyFile, `exists and cannot be read (${messageOf(error)}); keygen never overwrites a key`);
  }
  if (!key.ok) return refuse(keyFile, `exists and ${key.reason}; keygen never overwrites a key`);
  const keyId = keyIdOf(key.value.publicKey);
  const written = key.value.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  if (written.trim() !== pub.trim())
    return refuse(pubFile, `exists and is not the public key of ${keyFile}; keygen never overwrites a key`);
  return { ok: true, value: { keyId, kept: true } };
}
