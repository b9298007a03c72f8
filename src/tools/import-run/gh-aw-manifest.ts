/**
 * GitHub Agentic Workflows' safe-outputs manifest (`safe-output-items.jsonl`, artifact
 * `safe-outputs-items`; docs/producers.md): one JSON object per GitHub write the privileged
 * safe_outputs job executed. gh-aw writes a line only after a write succeeded (never for a failed,
 * skipped or staged item), so every line asserts its write. The built-in mapping binds each on the
 * ids GitHub gave it (number, comment id, commit sha); an id the line does not carry, in its field
 * or its url, leaves the call without a subject. The manifest's fields grew over gh-aw's releases:
 * every field but `type` and `timestamp` is optional here.
 */
import { type JsonObject, obj, str, wholeNumber } from '../../core/json.js';
import { targetHash } from '../../core/target-hash.js';
import { asciiLower, quote } from '../../core/text.js';
import { parseRfc3339, rfc3339 } from '../../core/time.js';
import type { Effect, FieldValue, ProducerCall } from './call.js';
import { githubUrl } from './github-url.js';
import { type PullHeads, pullKey } from './pull-heads.js';

/** What one manifest line is: its calls (one per label for add_labels), a counted skip, or an error. */
export type ManifestLine =
  | { readonly kind: 'calls'; readonly calls: readonly ProducerCall[] }
  | { readonly kind: 'skip'; readonly reason: string }
  | { readonly kind: 'error'; readonly message: string };

/** Types gh-aw never logs as writes (the agent said it did nothing, or what it missed): counted, never calls. */
const NOT_WRITES: ReadonlySet<string> = new Set(['noop', 'missing_tool', 'missing_data', 'report_incomplete']);

interface Ids {
  readonly owner: string | null;
  readonly repo: string | null;
  readonly number: number | null;
  readonly commentId: number | null;
  /** The url names an issue, not a pull request (create_pull_request's fallback). */
  readonly issueUrl: boolean;
}

/** No ids at all (what tells whether a line's type has a class, whatever its ids). */
const NO_IDS: Ids = { owner: null, repo: null, number: null, commentId: null, issueUrl: false };

/**
 * The ids a line gives: each from its field, else from the url. Two places that name two targets (the
 * repo field, target.repository and the url's repository; the number or id field and the url's), or
 * an id field that is present and not a whole number, leave the line without a subject: it does not
 * say which target was written.
 */
function idsOf(item: JsonObject): Ids | { readonly conflict: string } {
  const url = str(item, 'url');
  const parts = url === null ? null : githubUrl(url);
  // A url that is no github.com issue, pull request or comment (another host, a look-alike, a path or query more) names a place that cannot be compared: no subject, never the other fields taken instead.
  if (url !== null && parts === null)
    return {
      conflict:
        'the url is not a github.com issue, pull request or comment (https://github.com/OWNER/REPO/issues/N): its place cannot be compared with the other fields',
    };
  const repoField = str(item, 'repo');
  const targetRepo = str(obj(item, 'target'), 'repository');
  const names = [repoField, targetRepo, parts ? `${parts.owner}/${parts.repo}` : null].filter((n): n is string => n !== null);
  if (new Set(names.map(asciiLower)).size > 1)
    return { conflict: 'the repo field, target.repository and the url name different repositories' };
  const full = names[0] ?? null;
  const split = full !== null && /^[^/\s]+\/[^/\s]+$/.test(full) ? full.split('/') : null;
  for (const field of ['number', 'id'] as const)
    if (Object.hasOwn(item, field) && item[field] !== null && wholeNumber(item, field) === null)
      return { conflict: `the ${field} field is not a whole number` };
  const number = wholeNumber(item, 'number');
  if (parts?.number && number !== null && parts.number !== number)
    return { conflict: 'the number field and the url name different numbers' };
  const id = wholeNumber(item, 'id');
  if (parts?.commentId && id !== null && parts.commentId !== id) return { conflict: 'the id field and the url name different comments' };
  return {
    owner: split?.[0] ?? null,
    repo: split?.[1] ?? null,
    number: number ?? parts?.number ?? null,
    commentId: id ?? parts?.commentId ?? null,
    issueUrl: parts?.issue ?? false,
  };
}

const SHA = /^[0-9a-f]{40}$/;

/**
 * The ref a push moved: a ref the line names (refs/… as given, a bare branch under refs/heads/), else
 * the head branch of the pull request it pushed to (gh-aw's manifest names the pull request only;
 * --pull-requests gives its head), else null.
 */
function refOf(item: JsonObject, ids: Ids, heads: PullHeads): Place {
  const meta = obj(item, 'metadata');
  const named = [str(meta, 'ref'), str(meta, 'branch_name'), str(item, 'branch_name')];
  const head =
    ids.owner !== null && ids.repo !== null && ids.number !== null ? (heads.get(pullKey(ids.owner, ids.repo, ids.number)) ?? null) : null;
  const asRef = (r: string | null): string | null => (r === null ? null : r.startsWith('refs/') ? r : `refs/heads/${r}`);
  const given = oneOf([...named, head].map(asRef), "the branch the line names and its pull request's head differ");
  return typeof given === 'string' && /\s/.test(given) ? null : given;
}

/** The commit a push left the branch at: metadata.commit_sha, or the after-state's head (what gh-aw writes); a push that moved nothing is none. */
function shaOf(item: JsonObject): Place {
  const given = oneOf(
    [str(obj(item, 'metadata'), 'commit_sha'), str(obj(item, 'after_state'), 'head_sha')].map((x) => (x === null ? null : x.toLowerCase())),
    'metadata.commit_sha and after_state.head_sha name different commits',
  );
  if (typeof given !== 'string') return given;
  if (!SHA.test(given)) return null;
  const before = str(obj(item, 'before_state'), 'head_sha');
  if (before !== null && before.toLowerCase() === given)
    return { conflict: 'nothing was pushed: before_state and after_state name the same commit' };
  return given;
}

/** A field one or more places give: the one value, null when none gives it, or a conflict when two differ. */
type Place = string | null | { readonly conflict: string };

function oneOf(values: readonly (string | null)[], conflict: string): Place {
  const distinct = new Set(values.filter((v): v is string => v !== null));
  if (distinct.size > 1) return { conflict };
  const [only] = distinct;
  return only ?? null;
}

/** A subject on GitHub's ids, or what is missing (the call keeps no subject, and the summary says why). */
type Bound = { readonly effect: Effect } | { readonly missing: string };

function github(actionClass: string, verb: string, ids: Ids, fields: readonly (readonly [string, FieldValue | null, string])[]): Bound {
  if (ids.owner === null || ids.repo === null) return { missing: 'no repository (repo, target.repository or the url)' };
  const target: [string, FieldValue][] = [
    ['owner', ids.owner],
    ['repo', ids.repo],
  ];
  for (const [field, value, where] of fields) {
    if (value === null) return { missing: `no ${field} (${where})` };
    target.push([field, value]);
  }
  return { effect: { actionClass, verb, provider: 'github', target } };
}

const NUMBER = 'number or the url';

/** A line's subjects by its type (the built-in mapping of docs/producers.md); null: a type with no class. */
function subjectsOf(type: string, item: JsonObject, ids: Ids, heads: PullHeads): readonly Bound[] | null {
  switch (type) {
    case 'create_issue':
      return [github('github_issue', 'create', ids, [['number', ids.number, NUMBER]])];
    case 'close_issue':
      return [github('github_issue', 'close', ids, [['number', ids.number, NUMBER]])];
    case 'add_comment':
      return [github('github_issue_comment', 'create', ids, [['comment_id', ids.commentId, 'id or the url']])];
    case 'create_pull_request':
      // An item that fell back to an issue keeps its type; its url says /issues/N.
      return [github(ids.issueUrl ? 'github_issue' : 'github_pull_request', 'create', ids, [['number', ids.number, NUMBER]])];
    case 'close_pull_request':
      return [github('github_pull_request', 'close', ids, [['number', ids.number, NUMBER]])];
    case 'push_to_pull_request_branch':
      // A push refused for protected files falls back to an issue: nothing was pushed, an issue was opened.
      if (ids.issueUrl) return [github('github_issue', 'create', ids, [['number', ids.number, NUMBER]])];
      {
        // Places that disagree (a named branch and the pull request's head, two commits), or a push that moved nothing: no subject.
        const ref = refOf(item, ids, heads);
        const after = shaOf(item);
        for (const p of [ref, after]) if (p !== null && typeof p === 'object') return [{ missing: p.conflict }];
        return [
          github('github_branch_push', 'push', ids, [
            [
              'ref',
              typeof ref === 'string' ? ref : null,
              'the manifest names no branch: --pull-requests gives the head of a pull request in this repository',
            ],
            ['after', typeof after === 'string' ? after : null, 'metadata.commit_sha or after_state.head_sha'],
          ]),
        ];
      }
    case 'add_labels': {
      const added = item['labelsAdded'];
      if (!Array.isArray(added)) return [{ missing: 'no labelsAdded (an older gh-aw)' }];
      return added.map((name: unknown) =>
        typeof name === 'string' && name.trim() !== ''
          ? github('github_label', 'add', ids, [
              ['number', ids.number, NUMBER],
              ['label_hash', targetHash('github_label', name), ''],
            ])
          : { missing: 'a label that is not a name' },
      );
    }
    default:
      return null;
  }
}

/** One manifest line → its calls. */
export function manifestLine(item: JsonObject, line: number, heads: PullHeads): ManifestLine {
  const type = item['type'];
  if (typeof type !== 'string' || type === '') return { kind: 'error', message: 'a manifest line without a type' };
  const shown = quote(type, 100);
  if (NOT_WRITES.has(type)) return { kind: 'skip', reason: `${type} (not a write)` };
  const stamp = item['timestamp'];
  const time = typeof stamp === 'string' ? parseRfc3339(stamp) : null;
  if (!time?.ok)
    return {
      kind: 'error',
      message: `${JSON.stringify(shown)} item: timestamp ${time ? time.reason : 'is missing (gh-aw writes one on every line)'}`,
    };
  if (type === 'add_labels' && Array.isArray(item['labelsAdded']) && item['labelsAdded'].length === 0)
    return { kind: 'skip', reason: 'add_labels with no label added' };
  const provider = str(item, 'provider');
  // Given, but not as text (`{"name": "jira"}`): never read as GitHub's (a red team).
  if (item['provider'] !== undefined && item['provider'] !== null && provider === null)
    return {
      kind: 'error',
      message: `${JSON.stringify(shown)} item: provider is given, but not as text: whose write it is cannot be said`,
    };
  const ids = idsOf(item);
  const noClass: readonly Bound[] = [{ missing: `gh-aw type ${JSON.stringify(shown)} has no class` }];
  const subjects: readonly Bound[] =
    provider !== null && provider !== 'github'
      ? [{ missing: `provider ${JSON.stringify(quote(provider, 40))} (not GitHub)` }]
      : 'conflict' in ids
        ? subjectsOf(type, item, NO_IDS, heads) === null
          ? noClass
          : [{ missing: ids.conflict }]
        : (subjectsOf(type, item, ids, heads) ?? noClass);
  const calls = subjects.map(
    (bound): ProducerCall => ({
      tool: `gh-aw.${shown}`,
      server: null,
      callId: str(item, 'temporaryId'),
      time: rfc3339(time.value),
      line,
      succeeded: true,
      asserts: true,
      effect: 'effect' in bound ? bound.effect : null,
      note: 'missing' in bound ? bound.missing : null,
    }),
  );
  return { kind: 'calls', calls };
}
