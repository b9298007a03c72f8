/**
 * Scope (docs/importers.md, "Scope"): import what the agent did. An entry is kept when its actor is
 * one of the agent's identities (`--actor`), its repository one of `--repo` and of the organisation
 * `--owner` (case-insensitive, as GitHub names are), and its own time inside the half-open window
 * `[--since, --until)`. Entries
 * outside are skipped and counted by reason; nothing about the actor is written into a record.
 */
import type { Result } from '../../core/result.js';
import { asciiLower } from '../../core/text.js';
import { compareInstants, fromEpochNumber, type Instant, parseDay, parseRfc3339 } from '../../core/time.js';

/** What an entry says about who, where and when (each mapper reads its provider's fields). */
export interface EntryScope {
  /** Every identity the entry names for its actor (a login; a Slack member id and e-mail). */
  readonly actors: readonly string[];
  /** owner/name, when the entry names a repository. */
  readonly repo: string | null;
  /** The tenant whose log the entry is from, for a provider whose log is one tenant's (an AWS account, a cluster, an Okta org). */
  readonly tenant?: string | null;
  /** The entry's own time, exactly as it wrote it, or null when it has none. */
  readonly time: Instant | null;
}

export interface ScopeFilter {
  /** Identities as given; folded to ASCII lower case when `caseless`. */
  readonly actors: ReadonlySet<string> | null;
  /** Compare actors without regard to ASCII case (GitHub: logins are case-insensitive); Slack ids compare exactly. */
  readonly caseless: boolean;
  /** Lower-cased owner/name. */
  readonly repos: ReadonlySet<string> | null;
  /** The lower-cased organisation (`--owner`): only its repositories' entries; or the tenant (`--account`, …): only its entries. */
  readonly owner: string | null;
  /** What `owner` is compared with, as the kind's row names places. */
  readonly place: Place;
  readonly since: Instant | null;
  readonly until: Instant | null;
}

/** Where an entry is, for `--owner` (or a tenant's flag): the place an entry names, and the skip reasons' words. */
export interface Place {
  /** The entry's organisation or tenant, or null when it names none. */
  of(s: EntryScope): string | null;
  /** The skip reason of an entry that names none, and of one that names another. */
  readonly missing: string;
  readonly other: string;
}

/** GitHub's places: an entry's organisation is its repository's owner. */
export const ORGANISATION: Place = {
  of: (s) => (s.repo === null ? null : s.repo.slice(0, s.repo.indexOf('/'))),
  missing: 'without a repository',
  other: 'in another organisation',
};

/** A log that is one tenant's (an AWS account, a cluster, an Okta org): the tenant the entry names, called `word`. */
export const tenantPlace = (word: string): Place => ({
  of: (s) => s.tenant ?? null,
  missing: `without its ${word}`,
  other: `in another ${word}`,
});

/** The skip reason of an entry otherwise in scope that has no time while a window is set. */
export const UNTIMED = 'without a time (a window is set)';

/** Why an entry is out of scope (the skip reason), or null when it is in scope. */
export function outOfScope(f: ScopeFilter, s: EntryScope): string | null {
  if (f.actors && !s.actors.some((a) => f.actors?.has(f.caseless ? asciiLower(a) : a))) return 'by another actor';
  if (f.repos && (s.repo === null || !f.repos.has(asciiLower(s.repo))))
    return s.repo === null ? 'without a repository' : 'in another repository';
  if (f.owner !== null) {
    const place = f.place.of(s);
    if (place === null) return f.place.missing;
    if (asciiLower(place) !== f.owner) return f.place.other;
  }
  if (f.since !== null || f.until !== null) {
    if (s.time === null) return UNTIMED;
    if ((f.since !== null && compareInstants(s.time, f.since) < 0) || (f.until !== null && compareInstants(s.time, f.until) >= 0))
      return 'outside the window';
  }
  return null;
}

/** `--since` / `--until`: RFC 3339 (any offset, any precision, read exactly), or YYYY-MM-DD for midnight UTC. */
export function parseWindowTime(text: string): Result<Instant> {
  const day = parseDay(text);
  if (day) return day.ok ? day : { ok: false, reason: `"${text}" ${day.reason}` };
  const result = parseRfc3339(text);
  if (result.ok) return result;
  return { ok: false, reason: `"${text}" is not an RFC 3339 time or a YYYY-MM-DD date: it ${result.reason}` };
}

/** An entry time: a number of ms (GitHub's audit log) or s (Slack), or an RFC 3339 string; null otherwise. */
export function entryTime(value: unknown, unit: 'ms' | 's' = 'ms'): Instant | null {
  if (typeof value === 'number') return fromEpochNumber(value, unit === 's' ? 0 : 3);
  if (typeof value === 'string') {
    const result = parseRfc3339(value);
    return result.ok ? result.value : null;
  }
  return null;
}
