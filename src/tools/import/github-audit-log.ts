/**
 * GitHub's organisation or enterprise audit log → github_deploy_key/create and (repo.add_member)
 * github_repo_member/add records
 * (docs/importers.md): REST pages and the UI's JSON export (arrays) and audit-log streaming (JSON
 * lines, gzipped or not). `public_key.create` with a `repo` and a `title`; record_id
 * "github-audit:" + _document_id. Never copies `key`, `fingerprint` or the actor into a record or a
 * message.
 */
import { type JsonObject, str } from '../../core/json.js';
import { targetHash } from '../../core/target-hash.js';
import { deployKey, githubWrite } from './github-subject.js';
import { idText, type Mapped } from './mapping.js';
import { type EntryScope, entryTime } from './scope.js';

export function githubAuditLog(entry: JsonObject): Mapped {
  if (entry['action'] === 'repo.add_member') return repoMember(entry);
  if (entry['action'] !== 'public_key.create') return { kind: 'skip', reason: 'other action' };
  const id = str(entry, '_document_id');
  if (!id) return { kind: 'error', message: 'a public_key.create entry without a _document_id (its record would have no identity)' };
  const repo = str(entry, 'repo');
  if (!repo) return { kind: 'skip', reason: 'user key without repo' };
  const title = str(entry, 'title');
  if (!title) return { kind: 'skip', reason: 'no title' };
  const where = placeOf(id, entry, repo);
  return 'kind' in where ? where : deployKey(`github-audit:${id}`, where.owner, where.name, title, where.scope);
}

/** `repo.add_member`: a collaborator added to a repository → github_repo_member/add, the member's login hashed (`user`). */
function repoMember(entry: JsonObject): Mapped {
  const id = str(entry, '_document_id');
  if (!id) return { kind: 'error', message: 'a repo.add_member entry without a _document_id (its record would have no identity)' };
  const where = placeOf(id, entry, str(entry, 'repo'));
  if ('kind' in where) return where;
  const user = str(entry, 'user');
  if (!user) return { kind: 'error', message: `entry ${idText(id)}: a repo.add_member entry without the user added` };
  const fields = { user_hash: targetHash('github_user', user) };
  return githubWrite(`github-audit:${id}`, 'github_repo_member', 'add', where.owner, where.name, fields, where.scope);
}

/** An entry's repository as owner and name, and its scope (actor, repository, time); or the error when `repo` is not "owner/name". */
function placeOf(
  id: string,
  entry: JsonObject,
  repo: string | null,
): { readonly owner: string; readonly name: string; readonly scope: EntryScope } | Mapped {
  const slash = repo?.indexOf('/') ?? -1;
  if (!repo || slash <= 0 || slash === repo.length - 1) return { kind: 'error', message: `entry ${idText(id)}: repo is not "owner/name"` };
  const actor = str(entry, 'actor');
  const time = entryTime(entry['@timestamp'], 'ms') ?? entryTime(entry['created_at'], 'ms');
  return { owner: repo.slice(0, slash), name: repo.slice(slash + 1), scope: { actors: actor ? [actor] : [], repo, time } };
}
