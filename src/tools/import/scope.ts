/**
 * Scope (docs/importers.md, "Scope"): import what the agent did. An entry is kept when its actor is
 * one of the agent's identities (`--actor`), its repository one of `--repo` and of the organisation
 * `--owner` (case-insensitive, as GitHub names are), and its own time inside the half-open window
 * `[--since, --until)`. Entries
 * outside are skipped and counted by reason; nothing about the actor is written into a record.
 */
import type { Result } from '../../core/result.js';
import { asciiLower, cmp, editDistance } from '../../core/text.js';
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
  /** The flag that names it (`--owner`, `--account`, …). */
  readonly flag: string;
  /** The entry's organisation or tenant, or null when it names none. */
  of(s: EntryScope): string | null;
  /** The skip reason of an entry that names none, and of one that names another. */
  readonly missing: string;
  readonly other: string;
}

/** GitHub's places: an entry's organisation is its repository's owner. */
export const ORGANISATION: Place = {
  flag: '--owner',
  of: (s) => (s.repo === null ? null : s.repo.slice(0, s.repo.indexOf('/'))),
  missing: 'without a repository',
  other: 'in another organisation',
};

/** A log that is one tenant's (an AWS account, a cluster, an Okta org): the tenant the entry names, called `word`, given by `--flag`. */
export const tenantPlace = (word: string, flag: string): Place => ({
  flag: `--${flag}`,
  of: (s) => s.tenant ?? null,
  missing: `without its ${word}`,
  other: `in another ${word}`,
});

/** The skip reason of an entry otherwise in scope that has no time while a window is set. */
export const UNTIMED = 'without a time (a window is set)';

/** A filter of the scope a value of an entry met: the flag, the given value the entry had (folded as compared), or the value it named instead. */
type Met = (flag: string, given: string | null, named: string | null) => void;

/** Why an entry is out of scope (the skip reason), or null when it is in scope; `met` hears what each filter the entry reached compared. */
export function outOfScope(f: ScopeFilter, s: EntryScope, met: Met = () => {}): string | null {
  if (f.actors) {
    const had = s.actors.map((a) => (f.caseless ? asciiLower(a) : a)).find((a) => f.actors?.has(a));
    met('--actor', had ?? null, had === undefined ? (s.actors[0] ?? null) : null);
    if (had === undefined) return 'by another actor';
  }
  if (f.repos) {
    const had = s.repo !== null && f.repos.has(asciiLower(s.repo));
    met('--repo', had ? asciiLower(s.repo ?? '') : null, had ? null : s.repo);
    if (!had) return s.repo === null ? 'without a repository' : 'in another repository';
  }
  if (f.owner !== null) {
    const place = f.place.of(s);
    const had = place !== null && asciiLower(place) === f.owner;
    met(f.place.flag, had ? f.owner : null, had ? null : place);
    if (place === null) return f.place.missing;
    if (!had) return f.place.other;
  }
  if (f.since !== null || f.until !== null) {
    if (s.time === null) return UNTIMED;
    if ((f.since !== null && compareInstants(s.time, f.since) < 0) || (f.until !== null && compareInstants(s.time, f.until) >= 0))
      return 'outside the window';
  }
  return null;
}

/**
 * Whether a given scope value is a near miss of one an entry named (both folded as compared): the
 * same but for GitHub's `[bot]` (`deploy-agent`), what one adds to the other after a separator
 * (`acme` for `acme-corp`), or two letters off (`payment-api` for `payments-api`).
 */
function nearMiss(given: string, named: string): boolean {
  const [short, long] = given.length <= named.length ? [given, named] : [named, given];
  return long.startsWith(short) && /^[-_.[]/.test(long.slice(short.length)) ? short !== '' : editDistance(given, named) <= 2;
}

/** A scope's flag that dropped entries: what a user reads about it. */
export interface ScopeNote {
  /** The words, naming who or where the dropped entries were (the five most frequent). */
  readonly text: string;
  /** A given value no entry had, a near miss of one the dropped entries named: a typo, never a quiet night. */
  readonly typo: boolean;
}

/**
 * What the scope's filters met across an import's entries that map to records: for each flag, the
 * given values some entry had and the values it dropped (with counts). A given value no entry had
 * while entries named a near miss of it dropped them all, night after night, as if each night were
 * quiet (red teams: `--actor deploy-agent` for `deploy-agent[bot]`, `--owner acme` for
 * `acme-corp`, `--repo acme-corp/payment-api` for `payments-api`): a typo.
 */
export class ScopeTally {
  private readonly had = new Map<string, Set<string>>();
  private readonly dropped = new Map<string, Map<string, number>>();

  constructor(private readonly f: ScopeFilter) {}

  /** outOfScope, tallying what each filter met. */
  judge(s: EntryScope): string | null {
    return outOfScope(this.f, s, (flag, given, named) => {
      if (given !== null) this.had.set(flag, (this.had.get(flag) ?? new Set()).add(given));
      if (named === null) return;
      const counts = this.dropped.get(flag) ?? new Map<string, number>();
      this.dropped.set(flag, counts.set(named, (counts.get(named) ?? 0) + 1));
    });
  }

  /**
   * The first typo (a given value no entry had, near one the dropped entries named), or, when
   * `nothingKept`, who or where the dropped entries were; null when there is nothing to say.
   */
  note(nothingKept: boolean): ScopeNote | null {
    const { f } = this;
    const flags: [string, readonly string[], string, (x: string) => string][] = [
      ['--actor', f.actors ? [...f.actors] : [], 'by another actor', (x) => (f.caseless ? asciiLower(x) : x)],
      ['--repo', f.repos ? [...f.repos] : [], 'in another repository', asciiLower],
      [f.place.flag, f.owner === null ? [] : [f.owner], f.place.other, asciiLower],
    ];
    const said: string[] = [];
    for (const [flag, given, reason, fold] of flags) {
      const names = [...(this.dropped.get(flag) ?? new Map<string, number>()).entries()].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]));
      if (names.length === 0) continue;
      const listed = `${names
        .slice(0, 5)
        .map(([n, k]) => `${n} (${k})`)
        .join(', ')}${names.length > 5 ? ', …' : ''}`;
      const n = names.reduce((sum, [, k]) => sum + k, 0);
      for (const g of given) {
        if (this.had.get(flag)?.has(g)) continue;
        const near = names.find(([name]) => nearMiss(g, fold(name)));
        if (near)
          return {
            text: `${flag}: no entry that maps to a record has ${g}, and ${n} ${n === 1 ? 'was' : 'were'} ${reason}: ${listed}; did you mean ${flag} ${near[0]} (for ${g})?`,
            typo: true,
          };
      }
      said.push(`${n} ${reason}: ${listed}`);
    }
    return nothingKept && said.length > 0 ? { text: `no entry that maps to a record was kept: ${said.join('; ')}`, typo: false } : null;
  }
}

/** `--since` / `--until`: RFC 3339 (any offset, any precision, read exactly), or YYYY-MM-DD for midnight UTC. */
export function parseWindowTime(text: string): Result<Instant> {
  const day = parseDay(text);
  if (day) return day.ok ? day : { ok: false, reason: `"${text}" ${day.reason}` };
  const result = parseRfc3339(text);
  if (result.ok) return result;
  return { ok: false, reason: `"${text}" is not an RFC 3339 time or a YYYY-MM-DD date: it ${result.reason}` };
}

/**
 * An entry time: RFC 3339 text, or a count since the epoch in the unit its provider writes (`epoch`:
 * GitHub's audit log ms, Slack s); null otherwise. A number is read only where the caller names its
 * unit: a log that writes text (Kubernetes, Okta, CloudTrail) and holds a number says nothing of
 * which unit it counts, and read as ms an in-window entry fell in 1970, skipped as outside the window
 * beside a statement claiming it (a red team).
 */
export function entryTime(value: unknown, epoch: 'ms' | 's' | null = null): Instant | null {
  if (typeof value === 'number') return epoch === null ? null : fromEpochNumber(value, epoch === 's' ? 0 : 3);
  if (typeof value === 'string') {
    const result = parseRfc3339(value);
    return result.ok ? result.value : null;
  }
  return null;
}

/**
 * The time of an entry whose log writes RFC 3339 text only (Kubernetes, Okta, CloudTrail): the
 * instant, null when the entry has none, or why the one it gives is no time. A time given and
 * unreadable (null or a number too) is an error, never passed over as untimed or as another time:
 * the entry may be inside the window.
 */
export function textTime(value: unknown): { readonly time: Instant | null } | { readonly error: string } {
  if (value === undefined) return { time: null };
  const time = entryTime(value);
  if (time !== null) return { time };
  const given = `its time ${JSON.stringify(value).slice(0, 60)} is not an RFC 3339 time`;
  return {
    error:
      typeof value === 'number'
        ? `${given} (this log writes its times as RFC 3339 text; a number is not read as seconds or milliseconds)`
        : given,
  };
}
