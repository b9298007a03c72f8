/** What several commands read the same way: the read limits, a signing time, the clock. */

import { type Instant, instantOf, parseRfc3339 } from '../../core/time.js';
import { readLimits } from '../../gate/settings/parsers.js';
import { UsageError } from '../../gate/settings/types.js';
import type { ReadLimits } from '../../read/limits.js';
import { isSignedAt } from '../../read/signature.js';

/** --max-file-size and --max-line-size, each the default when not given. */
export const limitsOf = (flags: { readonly 'max-file-size'?: string; readonly 'max-line-size'?: string }): ReadLimits =>
  readLimits(flags['max-file-size'], flags['max-line-size'], '--');

/** --signed-at as given (RFC 3339 UTC), or null (now). */
export function signedAtOf(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!isSignedAt(value)) throw new UsageError('value', `--signed-at: "${value}" is not an RFC 3339 UTC time (e.g. 2026-11-30T12:00:00Z)`);
  return value;
}

/** --now (RFC 3339), or the time the command runs. */
export function nowOf(given: string | undefined, now: Date): Instant {
  if (given === undefined) return instantOf(now);
  const t = parseRfc3339(given);
  if (!t.ok) throw new UsageError('value', `--now: "${given}" ${t.reason}`);
  return t.value;
}
