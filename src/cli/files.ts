/**
 * Files a flag or an argument names (keys, a tool's inputs), read whole within the limit and only as
 * regular files; one that cannot be used is a usage error naming the flag and the file (exit 2).
 */

import { UsageError } from '../gate/settings/types.js';
import { readNamedFile } from '../read/files.js';
import { DEFAULT_LIMITS, type ReadLimits } from '../read/limits.js';
import type { ToolInput } from '../tools/input.js';
import { parsePrivateKey, type SigningKey } from '../tools/signing.js';

/** The text of a PEM key file a flag names. */
export function readKeyText(flag: string, file: string): string {
  // Bounded, and a regular file at the moment it is read (trust/keys.ts then refuses past a few KiB).
  const got = readNamedFile(file, DEFAULT_LIMITS);
  if (!got.ok) throw new UsageError('file', `${flag} ${file}: ${got.reason} (this flag takes the path of a PEM key file)`);
  return got.value.toString('utf8');
}

/** A private key a flag names (a key file from keygen). */
export function readSigningKey(flag: string, file: string): SigningKey {
  const result = parsePrivateKey(readKeyText(flag, file));
  if (!result.ok) throw new UsageError('file', `${flag} ${result.reason}`);
  return result.value;
}

/** The input files of a tool, read whole within the file limit; the first that cannot be read is a usage error naming it. */
export function readInputs(files: readonly string[], limits: ReadLimits): ToolInput[] {
  return files.map((file) => {
    const got = readNamedFile(file, limits);
    if (!got.ok) throw new UsageError('file', `${file}: ${got.reason}`);
    return { name: file, bytes: got.value };
  });
}

/** The text of a file a flag names (a trusted root), within the file limit. */
export function readTextFile(flag: string, file: string, limits: ReadLimits = DEFAULT_LIMITS): string {
  const got = readNamedFile(file, limits);
  if (!got.ok) throw new UsageError('file', `${flag} ${file}: ${got.reason}`);
  return got.value.toString('utf8');
}
