/**
 * Export coverage (docs/coverage.md, semantics §13): what an audit export covered (provider, export
 * kind, actors, scope, actions, the window [since, until)), and what that says about each call. A
 * call with a time, in scope of a usable statement whose window holds it, is **covered**: with no
 * record binding it, the provider logged no such side effect (`effect_not_logged`). A call newer
 * than every statement of its scope and younger than the policy's `pending` is **pending**: its
 * export is not due yet and its requirement waits. Everything else is judged as before. Decided
 * here, per call, through one index per action and scope (a binary search per call, however many
 * nights of statements).
 */
import { jcs } from './binding.js';
import type { Call } from './call.js';
import { CLASSES, classRow } from './classes.js';
import { type Clock, plus } from './clock.js';
import { hasOwn, type JsonObject } from './json.js';
import { item } from './lists.js';
import type { CoverageStatement, RecordInput, StatementInput } from './model.js';
import { asciiLower, cmp } from './text.js';
import { compareInstants, type Instant, rfc3339 } from './time.js';

/** A decision this long after the verification time or more is from the future (clocks differ by less). */
export const FUTURE_GRACE_SECONDS = 300;

/** What coverage says about one call. */
export type CallCoverage =
  /** The call has no time (a decision surface), or asserts no side effect: coverage says nothing. */
  | { readonly kind: 'none' }
  /** A time more than FUTURE_GRACE_SECONDS after the verification time. */
  | { readonly kind: 'future' }
  | { readonly kind: 'covered'; readonly statement: StatementInput }
  /** Newer than every statement of its scope (`latest`: the one that ends last, or none) and younger than `pending`. */
  | { readonly kind: 'pending'; readonly latest: StatementInput | null; readonly until: Instant }
  /** Not covered and not pending: its time falls before, between or after the statements of its scope (`scoped`: some exist). */
  | { readonly kind: 'uncovered'; readonly scoped: boolean }
  /**
   * Statements of its action are scoped by a field its target does not give as text (`field`: a
   * GitHub call's `owner` or `repo`, a tenant's), so none can say whether it was logged (`statement`: the first).
   */
  | { readonly kind: 'unplaced'; readonly field: string; readonly statement: StatementInput };

/** A stretch of time no usable statement of a scope covers, between two that do. */
export interface CoverageGap {
  readonly provider: string;
  readonly scope: string;
  readonly actions: readonly string[];
  readonly from: Instant;
  readonly to: Instant;
}

/** What a provider's statement `owner` is: GitHub's organisation, else the tenant field its classes are scoped by (account, cluster, org). */
function tenantWord(provider: string): string {
  if (provider === 'github') return 'organisation';
  for (const row of CLASSES.values()) if (row.provider === provider && row.scope && row.scope.repo === null) return row.scope.owner;
  return 'tenant';
}

/** A statement's scope in words: its repositories, its organisation, or its provider's whole log. */
export function scopeText(s: CoverageStatement): string {
  if (s.repos !== null) return s.repos.length === 1 ? `repository ${s.repos[0]}` : `repositories ${s.repos.join(', ')}`;
  if (s.owner !== null) return `${tenantWord(s.provider)} ${s.owner}`;
  return s.provider === 'github' ? 'no repository (it names no organisation or repository)' : 'the whole log';
}

/** The window in words, `[since, until)`. */
export const windowText = (s: CoverageStatement): string => `[${rfc3339(s.since)}, ${rfc3339(s.until)})`;

/** One scope of one action: its usable statements by start, and the latest end so far at each. */
interface Group extends Scope {
  readonly action: string;
  readonly statements: StatementInput[];
  /** For each i, the index j ≤ i of the statement that ends last among the first i + 1. */
  latestAt: number[];
}

/** Where a subject sits, as a statement's scope compares it: its owner and repository (lower case) and the providers whose logs may hold it. */
interface Where {
  readonly providers: readonly string[];
  readonly owner: string | null;
  readonly repo: string | null;
}

/** The owner and repository of a subject (the fields a statement's scope reads, from the class table), and its providers. */
function whereIn(actionClass: string, target: JsonObject, providers: readonly string[]): Where {
  const scope = classRow(actionClass)?.scope;
  const ownerValue = scope && hasOwn(target, scope.owner) ? target[scope.owner] : undefined;
  const repoValue = scope?.repo && hasOwn(target, scope.repo) ? target[scope.repo] : undefined;
  // An empty text names no owner or repository: as absent.
  const owner = typeof ownerValue === 'string' && ownerValue !== '' ? asciiLower(ownerValue) : null;
  const repo = typeof repoValue === 'string' && repoValue !== '' ? asciiLower(repoValue) : null;
  return { providers, owner, repo };
}

/** The provider a call names, if it names one. */
const namedProvider = (call: Call): string | null => (typeof call.input.provider === 'string' ? call.input.provider : null);

/**
 * A call's place (null: it has no subject). The logs that may hold its side effect: a call that
 * names a provider, its class's provider's and the one it names (a producer may name the provider as
 * an importer's records do, a Slack import's `--role-provider slack`, and a name it gets wrong,
 * `GitHub`, still leaves it held to its class's: a red team's call naming `GitHub` was covered by no
 * GitHub export, and passed); a call that names none, every provider's (docs/coverage.md §2: the
 * provider matches when the call names one), as any provider's record may verify it (a red team: a
 * call naming none escaped a Slack export that a Slack record would have bound it from).
 */
function whereOf(call: Call): Where | null {
  const p = call.input.projection;
  if (p.kind !== 'subject') return null;
  const own = classRow(p.subject.action_class)?.provider ?? null;
  const named = namedProvider(call);
  const providers = named === null ? [] : [own, named].filter((x): x is string => x !== null);
  return whereIn(p.subject.action_class, p.subject.target, providers);
}

/** By class, the providers its calls name and whether one names none (what a statement of another provider than its class's may cover). */
export interface NamedProviders {
  readonly names: ReadonlySet<string>;
  readonly unnamed: boolean;
}

/** The providers the calls name, by class. */
export function providersNamed(calls: Iterable<Call>): ReadonlyMap<string, NamedProviders> {
  const named = new Map<string, { readonly names: Set<string>; unnamed: boolean }>();
  for (const call of calls) {
    const p = call.input.projection;
    if (p.kind !== 'subject') continue;
    let entry = named.get(p.subject.action_class);
    if (!entry) named.set(p.subject.action_class, (entry = { names: new Set<string>(), unnamed: false }));
    const provider = namedProvider(call);
    if (provider !== null) entry.names.add(provider);
    else entry.unnamed = true;
  }
  return named;
}

/** A statement's scope: its provider, repositories and organisation (lower case); null when it names no actor (it covers nothing). */
interface Scope {
  readonly provider: string;
  readonly repos: ReadonlySet<string> | null;
  readonly owner: string | null;
}

function scopeOf(st: CoverageStatement): Scope | null {
  if (st.actors.length === 0) return null;
  return {
    provider: st.provider,
    repos: st.repos === null ? null : new Set(st.repos.map(asciiLower)),
    owner: st.owner === null ? null : asciiLower(st.owner),
  };
}

/** Whether a scope holds a place (docs/coverage.md §2). */
function holds(scope: Scope, where: Where): boolean {
  if (where.providers.length > 0 && !where.providers.includes(scope.provider)) return false;
  if (scope.repos !== null) return where.owner !== null && where.repo !== null && scope.repos.has(`${where.owner}/${where.repo}`);
  if (scope.owner !== null) return where.owner === scope.owner;
  // A GitHub export came from one organisation or repository: a statement naming neither covers
  // no GitHub subject (docs/coverage.md §2, §6). Other providers' logs are one workspace's whole log.
  return scope.provider !== 'github';
}

/**
 * Why a statement covers none of what it names, or null: no actor, a GitHub statement with no
 * organisation or repository, an action of no class the gate binds, a verb its class does not have,
 * or another provider than its class's when the class's calls all name a provider and none names
 * it (`named`: providersNamed; an importer may name a class's provider otherwise, as Slack's
 * `--role-provider` does, and covers the calls that name it so, and a call naming none is held to
 * every provider's statements). Valid statements all (docs/coverage.md §5: an empty
 * actors list covers nothing), but never quiet: a hand-written or edited one would check nothing.
 */
export function coversNothing(st: CoverageStatement, named: ReadonlyMap<string, NamedProviders>): string | null {
  if (st.actors.length === 0) return 'its actors list is empty: it covers no call';
  if (st.provider === 'github' && st.repos === null && st.owner === null)
    return 'it names no organisation (owner) or repository (repos): a GitHub statement covers no call then';
  for (const action of st.actions) {
    const [actionClass = '', verb = ''] = action.split(':');
    const row = classRow(actionClass);
    if (!row) return `its action ${JSON.stringify(action)} names no class the gate binds: it covers no call of it`;
    if (!row.verbs.includes(verb))
      return `its action ${JSON.stringify(action)} names no verb of ${actionClass} (${row.verbs.join(', ')}): it covers no call of it`;
    const calling = named.get(actionClass);
    if (row.provider !== st.provider && calling !== undefined && !calling.unnamed && !calling.names.has(st.provider))
      return `its provider ${JSON.stringify(st.provider)} is not ${actionClass}'s (${row.provider}), and no call of it names ${JSON.stringify(st.provider)}: it covers no call of it`;
    // The scope the class's calls are placed by (holds): a repository list where the class has no
    // repository, an owner where its provider's log is one workspace's, or an empty list, holds none.
    if (st.repos !== null && (st.repos.length === 0 || row.scope === null || row.scope.repo === null))
      return st.repos.length === 0
        ? 'its repos list is empty: it covers no call'
        : `it names repositories, which ${actionClass} has none of: it covers no call of it`;
    if (st.owner !== null && row.scope === null)
      return `it names an owner, which ${actionClass}'s log (one workspace's) has none of: it covers no call of it`;
  }
  return null;
}

/** The usable statements, indexed; the calls' coverage is asked one by one. */
export class Coverage {
  private readonly groups = new Map<string, Group[]>();
  /** The usable statements, each once (an export committed twice counts once). */
  readonly usable: readonly StatementInput[];
  /** The usable statements by file, made when a record first asks (records wait on their own file's statements). */
  private byFile: Map<string, { readonly s: StatementInput; readonly scope: Scope | null }[]> | null = null;

  constructor(
    statements: readonly StatementInput[],
    private readonly pendingSeconds: number,
    /** The verification time, every comparison with it made through the clock (a clock without one: nothing is pending or from the future). */
    private readonly clock: Clock,
  ) {
    const seen = new Set<string>();
    const usable: StatementInput[] = [];
    for (const s of statements) {
      if (s.trust.kind === 'untrusted') continue;
      const key = identity(s.statement);
      if (seen.has(key)) continue;
      seen.add(key);
      usable.push(s);
    }
    this.usable = usable;
    const byKey = new Map<string, Group>();
    for (const s of usable) {
      const st = s.statement;
      const sc = scopeOf(st);
      if (sc === null) continue;
      const { repos, owner } = sc;
      const scope = repos ? `r:${[...repos].sort(cmp).join(',')}` : owner !== null ? `o:${owner}` : 'all';
      for (const action of st.actions) {
        const key = `${st.provider}\u0000${action}\u0000${scope}`;
        let group = byKey.get(key);
        if (!group) {
          group = { provider: st.provider, action, repos, owner, statements: [], latestAt: [] };
          byKey.set(key, group);
          const list = this.groups.get(action) ?? [];
          list.push(group);
          this.groups.set(action, list);
        }
        group.statements.push(s);
      }
    }
    for (const group of byKey.values()) {
      group.statements.sort((a, b) => compareInstants(a.statement.since, b.statement.since) || cmp(a.loc.file, b.loc.file));
      let best = 0;
      group.latestAt = group.statements.map((s, i) => {
        if (compareInstants(s.statement.until, item(group.statements, best).statement.until) > 0) best = i;
        return best;
      });
    }
  }

  /** The groups whose scope holds this call. */
  private groupsOf(call: Call, where: Where | null): Group[] {
    const p = call.input.projection;
    if (p.kind !== 'subject' || !where) return [];
    const list = this.groups.get(`${p.subject.action_class}:${p.subject.verb}`) ?? [];
    return list.filter((g) => holds(g, where));
  }

  /**
   * A call not covered whose target lacks, as text, a field that a scoped statement of its action
   * and provider compares, where that statement could have spoken of its time (its window holds the
   * time, or the call is newer than every statement of the scope), or null. Never quiet: a call
   * without its owner would otherwise fall outside every export of its organisation (a red team).
   * A statement that covers nothing (repositories for a class without them) places nothing.
   */
  private unplaced(call: Call, time: Instant, where: Where | null): CallCoverage | null {
    const p = call.input.projection;
    const scope = p.kind === 'subject' ? classRow(p.subject.action_class)?.scope : null;
    // Nothing missing (the common case): nothing to look up.
    if (p.kind !== 'subject' || !where || !scope || (where.owner !== null && (scope.repo === null || where.repo !== null))) return null;
    for (const g of this.groups.get(`${p.subject.action_class}:${p.subject.verb}`) ?? []) {
      if (where.providers.length > 0 && !where.providers.includes(g.provider)) continue;
      const byRepo = g.repos !== null;
      if (byRepo && scope.repo === null) continue; // repositories for a class without them: it covers nothing
      const missing =
        where.owner === null && (byRepo || g.owner !== null) ? scope.owner : byRepo && where.repo === null ? scope.repo : null;
      if (missing === null) continue;
      const reaches = g.statements.find(
        (s) => compareInstants(s.statement.since, time) <= 0 && compareInstants(time, s.statement.until) < 0,
      );
      const last = g.statements[g.latestAt[g.statements.length - 1] ?? -1];
      const statement = reaches ?? (last && compareInstants(time, last.statement.until) >= 0 ? last : null);
      if (statement) return { kind: 'unplaced', field: missing, statement };
    }
    return null;
  }

  /** What coverage says about a call that asserts a side effect and was allowed (`time`: its decision's). */
  of(call: Call, time: Instant | null): CallCoverage {
    if (time === null) return { kind: 'none' };
    // Every call from the future, whatever it claims (a read from the future would confirm a write): docs/coverage.md §3.
    if (this.clock.isAfterNow(time, FUTURE_GRACE_SECONDS)) {
      // Its finding prints the verification time (verdicts.ts): no other time gives the same words.
      this.clock.printed();
      return { kind: 'future' };
    }
    if (!call.claim.asserted || call.input.denied) return { kind: 'none' };
    const where = whereOf(call);
    const groups = this.groupsOf(call, where);
    let latest: StatementInput | null = null;
    for (const g of groups) {
      // The last statement that starts at or before the call; the one ending last among those up to it.
      let lo = 0;
      let hi = g.statements.length - 1;
      let at = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (compareInstants(item(g.statements, mid).statement.since, time) <= 0) {
          at = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      if (at >= 0) {
        const best = item(g.statements, item(g.latestAt, at));
        if (compareInstants(time, best.statement.until) < 0) return { kind: 'covered', statement: best };
      }
      const last = item(g.statements, item(g.latestAt, g.statements.length - 1));
      if (!latest || compareInstants(last.statement.until, latest.statement.until) > 0) latest = last;
    }
    const unplaced = this.unplaced(call, time, where);
    if (unplaced) return unplaced;
    const newest = latest === null || compareInstants(time, latest.statement.until) >= 0;
    const until = plus(time, this.pendingSeconds);
    if (newest && this.clock.isBefore(until)) return { kind: 'pending', latest, until };
    return { kind: 'uncovered', scoped: groups.length > 0 };
  }

  /**
   * Until when a record that binds no call waits for its run (docs/policy.md §12): its own file holds
   * a usable statement of its scope (provider, action, an actor named, the record's repository or
   * organisation as a call's is compared) whose window has ended and whose `until` is less than
   * `pending` before the verification time. Null: it does not wait (no such statement, no pending,
   * or it has run out).
   */
  recordWaits(record: RecordInput): Instant | null {
    if (!this.clock.hasTime() || this.pendingSeconds === 0) return null;
    const { action_class, verb, target } = record.record.subject;
    const action = `${action_class}:${verb}`;
    const where = whereIn(action_class, target, [record.record.provider]);
    let latest: Instant | null = null;
    if (this.byFile === null) {
      // Each usable statement with its scope, made once (a record asks about its file's statements).
      this.byFile = new Map();
      for (const s of this.usable) {
        const entry = { s, scope: scopeOf(s.statement) };
        const list = this.byFile.get(s.loc.file);
        if (list) list.push(entry);
        else this.byFile.set(s.loc.file, [entry]);
      }
    }
    for (const { s, scope } of this.byFile.get(record.loc.file) ?? []) {
      // A statement of its scope (its provider and action, an actor named, its repository or organisation) ...
      if (scope === null || !s.statement.actions.includes(action) || !holds(scope, where)) continue;
      // ... whose window has ended: one that ends after the verification time vouches for no hour yet to come.
      if (this.clock.isAfterNow(s.statement.until, FUTURE_GRACE_SECONDS)) continue;
      const until = plus(s.statement.until, this.pendingSeconds);
      if (latest === null || compareInstants(until, latest) > 0) latest = until;
    }
    return latest !== null && this.clock.isBefore(latest) ? latest : null;
  }

  /** Stretches no usable statement covers between two that do, per provider, scope and action (the same stretch named once with its actions). */
  gaps(): CoverageGap[] {
    const out = new Map<string, { provider: string; scope: string; actions: string[]; from: Instant; to: Instant }>();
    for (const list of this.groups.values())
      for (const g of list) {
        let end: Instant | null = null;
        for (const s of g.statements) {
          if (end !== null && compareInstants(s.statement.since, end) > 0) {
            const scope = scopeText(s.statement);
            const key = `${g.provider}\u0000${scope}\u0000${rfc3339(end)}\u0000${rfc3339(s.statement.since)}`;
            const gap = out.get(key);
            if (gap) gap.actions.push(g.action);
            else out.set(key, { provider: g.provider, scope, actions: [g.action], from: end, to: s.statement.since });
          }
          if (end === null || compareInstants(s.statement.until, end) > 0) end = s.statement.until;
        }
      }
    return [...out.values()]
      .map((g) => ({ ...g, actions: [...new Set(g.actions)].sort(cmp) }))
      .sort((a, b) => cmp(a.provider, b.provider) || cmp(a.scope, b.scope) || compareInstants(a.from, b.from));
  }
}

/** Whether two statements say the same (an export committed twice). */
export const sameExport = (a: CoverageStatement, b: CoverageStatement): boolean => identity(a) === identity(b);

/** What makes two statements the same export (an export committed twice counts once). */
function identity(s: CoverageStatement): string {
  const canonical = jcs({
    provider: s.provider,
    export: s.export,
    actors: s.actors,
    repos: s.repos,
    owner: s.owner,
    actions: s.actions,
    since: rfc3339(s.since),
    until: rfc3339(s.until),
    entries_read: s.entries_read,
    records: s.records,
  });
  return canonical.ok ? canonical.text : '';
}
