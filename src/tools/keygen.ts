/** `keygen`: a new Ed25519 key pair for an export job (or a producer); never overwrites a file. */
import { existsSync, writeFileSync } from 'node:fs';
import type { Finding } from '../core/findings.js';
import { inputFinding } from '../core/findings.js';
import type { Result } from '../core/result.js';
import { messageOf } from '../core/text.js';
import { newKeyPair } from './signing.js';

/** PREFIX.key.pem (PKCS#8, 0600) and PREFIX.pub.pem (SPKI); refuses when either exists. */
export function keygen(prefix: string): Result<string, readonly Finding[]> {
  const keyFile = `${prefix}.key.pem`;
  const pubFile = `${prefix}.pub.pem`;
  for (const f of [keyFile, pubFile])
    if (existsSync(f)) return { ok: false, reason: [inputFinding('invalid_artifact', f, 'exists; keygen never overwrites a key')] };
  const pair = newKeyPair();
  try {
    // 'wx': fail if the file appeared meanwhile; mode 0600 from the first byte.
    writeFileSync(keyFile, pair.privatePem, { flag: 'wx', mode: 0o600 });
    writeFileSync(pubFile, pair.publicPem, { flag: 'wx', mode: 0o644 });
  } catch (error) {
    return { ok: false, reason: [inputFinding('invalid_artifact', prefix, `cannot write the key pair: ${messageOf(error)}`)] };
  }
  return { ok: true, value: `${pair.keyId}\n` };
}
