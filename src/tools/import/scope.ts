/**
 * Scope (docs/importers.md, "Scope"): import what the agent did. An entry is kept when its actor is
 * one of the agent's identities (`--actor`), its repository one of `--repo` (case-insensitive, as
 * GitHub names are), and its own time inside the half-open window `[--since, --until)`. Entries
 * outside are skipped and counted by reason; nothing about the actor is written into a record.
 */
import type { Result } from '../../core/result.js';

/** What an entry says about who, where and when (each mapper reads its provider's fields). */
export interface EntryScope {
  /** Every identity the entry names for its actor (a login; a Slack member id and e-mail). */
  readonly actors: readonly string[];
  /** owner/name, when the entry names a repository. */
  readonly repo: string | null;
  /** The entry's own time, ms since the epoch, or null when it has none. */
  readonly time: number | null;
}

export interface ScopeFilter {
  readonly actors: ReadonlySet<string> | null;
  /** Lower-cased owner/name. */
  readonly repos: ReadonlySet<string> | null;
  readonly since: number | null;
  readonly until: number | null;
}

/** Why an entry is out of scope (the skip reason), or null when it is in scope. */
export function outOfScope(f: ScopeFilter, s: EntryScope): string | null {
  if (f.actors && !s.actors.some((a) => f.actors?.has(a))) return 'by another actor';
  if (f.repos && (s.repo === null || !f.repos.has(s.repo.toLowerCase())))
    return s.repo === null ? 'without a repository' : 'in another repository';
  if (f.since !== null || f.until !== null) {
    if (s.time === null) return 'without a time (a window is set)';
    if ((f.since !== null && s.time < f.since) || (f.until !== null && s.time >= f.until)) return 'outside the window';
  }
  return null;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** `--since` / `--until`: RFC 3339 (any offset), or YYYY-MM-DD for midnight UTC; ms since the epoch. */
export function parseWindowTime(text: string): Result<number> {
  const day = DAY.exec(text);
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const t = Date.UTC(y, m - 1, d);
    const back = new Date(t);
    if (back.getUTCFullYear() === y && back.getUTCMonth() === m - 1 && back.getUTCDate() === d) return { ok: true, value: t };
    return { ok: false, reason: `"${text}" is not a calendar date` };
  }
  if (RFC3339.test(text)) {
    const t = Date.parse(text);
    if (!Number.isNaN(t)) return { ok: true, value: t };
  }
  return { ok: false, reason: `"${text}" is not an RFC 3339 time or a YYYY-MM-DD date` };
}

/** An entry time: a number of ms (GitHub's audit log), or an RFC 3339 string; null otherwise. */
export function entryTime(v: unknown, unit: 'ms' | 's' = 'ms'): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return unit === 's' ? v * 1000 : v;
  if (typeof v === 'string' && RFC3339.test(v)) {
    const t = Date.parse(v);
    return Number.isNaN(t) ? null : t;
  }
  return null;
}
