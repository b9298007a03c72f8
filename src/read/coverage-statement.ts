/**
 * A coverage statement's shape (docs/coverage.md §1): every member present with its type, nothing
 * else but a `signature`; times through the one RFC 3339 parser; `since` before `until`; actions
 * written CLASS:VERB. A statement that breaks it is `invalid_artifact`, never skipped.
 */

import { hasOwn, type JsonObject } from '../core/json.js';
import { COVERAGE_SCHEMA, type CoverageStatement } from '../core/model.js';
import type { Result } from '../core/result.js';
import { quote } from '../core/text.js';
import { compareInstants, type Instant, parseRfc3339 } from '../core/time.js';

const MEMBERS = [
  'schema',
  'provider',
  'export',
  'actors',
  'repos',
  'owner',
  'actions',
  'since',
  'until',
  'entries_read',
  'records',
] as const;
const ACTION = /^[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+$/;

const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const count = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** A statement's members, checked; or why it is not a statement. */
export function checkStatement(value: JsonObject): Result<CoverageStatement> {
  const bad = (reason: string): Result<CoverageStatement> => ({ ok: false, reason: `coverage statement: ${reason}` });
  for (const k of Object.keys(value))
    if (k !== 'signature' && k !== 'exported_at' && !(MEMBERS as readonly string[]).includes(k))
      return bad(`unknown member ${JSON.stringify(quote(k, 60))}`);
  for (const k of MEMBERS) if (!hasOwn(value, k)) return bad(`${k} is missing`);
  if (value['schema'] !== COVERAGE_SCHEMA) return bad(`schema must be ${COVERAGE_SCHEMA}`);
  const provider = value['provider'];
  const kind = value['export'];
  if (typeof provider !== 'string' || provider === '') return bad('provider must be a non-empty string');
  if (typeof kind !== 'string' || kind === '') return bad('export must be a non-empty string');
  const actors = value['actors'];
  if (!strings(actors)) return bad('actors must be a list of strings (empty: the statement covers nothing)');
  const repos = value['repos'];
  if (repos !== null && !strings(repos)) return bad('repos must be a list of OWNER/NAME strings, or null');
  if (repos !== null)
    for (const r of repos) if (!/^[^/\s]+\/[^/\s]+$/.test(r)) return bad(`repos: ${JSON.stringify(quote(r, 80))} is not OWNER/NAME`);
  const owner = value['owner'];
  if (owner !== null && (typeof owner !== 'string' || owner === '')) return bad('owner must be a non-empty string, or null');
  const actions = value['actions'];
  if (!strings(actions) || actions.length === 0) return bad('actions must be a non-empty list of CLASS:VERB strings');
  for (const a of actions) if (!ACTION.test(a)) return bad(`actions: ${JSON.stringify(quote(a, 80))} is not CLASS:VERB`);
  const times: Instant[] = [];
  for (const k of ['since', 'until'] as const) {
    const given = value[k];
    if (typeof given !== 'string') return bad(`${k} must be an RFC 3339 time (a string)`);
    const t = parseRfc3339(given);
    if (!t.ok) return bad(`${k}: ${JSON.stringify(quote(given, 60))} ${t.reason}`);
    times.push(t.value);
  }
  const [since, until] = times as [Instant, Instant];
  if (compareInstants(since, until) >= 0) return bad('since must be before until (the window is [since, until))');
  // When the import ran (docs/coverage.md §6); statements written before it have none.
  if (hasOwn(value, 'exported_at')) {
    const at = value['exported_at'];
    const t = typeof at === 'string' ? parseRfc3339(at) : null;
    if (!t?.ok) return bad('exported_at must be an RFC 3339 time (a string)');
    if (compareInstants(t.value, until) < 0) return bad('exported_at is before until: a window is exported once it has ended');
  }
  const entries = value['entries_read'];
  const records = value['records'];
  if (!count(entries)) return bad('entries_read must be a non-negative integer');
  if (!count(records)) return bad('records must be a non-negative integer');
  return {
    ok: true,
    value: {
      provider,
      export: kind,
      actors: [...actors],
      repos: repos === null ? null : [...repos],
      owner,
      actions: [...actions],
      since,
      until,
      entries_read: entries,
      records,
    },
  };
}
