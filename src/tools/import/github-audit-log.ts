/**
 * GitHub's organisation or enterprise audit log → github_deploy_key/create and (repo.add_member)
 * github_repo_member/add records
 * (docs/importers.md): REST pages and the UI's JSON export (arrays) and audit-log streaming (JSON
 * lines, gzipped or not). `public_key.create` with a `repo` and a `title`; record_id
 * "github-audit:" + _document_id. Never copies `key`, `fingerprint` or the actor into a record or a
 * message.
 */
import type { JsonObject } from '../../core/json.js';
import { targetHash } from '../../core/target-hash.js';
import { deployKey, githubWrite } from './github-subject.js';
import { idText, type Mapped, str } from './mapping.js';
import { entryTime } from './scope.js';

export function githubAuditLog(entry: JsonObject): Mapped {
  if (entry['action'] === 'repo.add_member') return repoMember(entry);
  if (entry['action'] !== 'public_key.create') return { kind: 'skip', reason: 'other action' };
  const id = str(entry, '_document_id');
  if (!id) return { kind: 'error', message: 'a public_key.create entry without a _document_id (its record would have no identity)' };
  const repo = str(entry, 'repo');
  if (!repo) return { kind: 'skip', reason: 'user key without repo' };
  const title = str(entry, 'title');
  if (!title) return { kind: 'skip', reason: 'no title' };
  const slash = repo.indexOf('/');
  if (slash <= 0 || slash === repo.length - 1) return { kind: 'error', message: `entry ${idText(id)}: repo is not "owner/name"` };
  const actor = str(entry, 'actor');
  const scope = { actors: actor ? [actor] : [], repo, time: entryTime(entry['@timestamp']) ?? entryTime(entry['created_at']) };
  return deployKey(`github-audit:${id}`, repo.slice(0, slash), repo.slice(slash + 1), title, scope);
}

/** `repo.add_member`: a collaborator added to a repository → github_repo_member/add, the member's login hashed (`user`). */
function repoMember(entry: JsonObject): Mapped {
  const id = str(entry, '_document_id');
  if (!id) return { kind: 'error', message: 'a repo.add_member entry without a _document_id (its record would have no identity)' };
  const repo = str(entry, 'repo');
  const user = str(entry, 'user');
  const slash = repo?.indexOf('/') ?? -1;
  if (!repo || slash <= 0 || slash === repo.length - 1) return { kind: 'error', message: `entry ${idText(id)}: repo is not "owner/name"` };
  if (!user) return { kind: 'error', message: `entry ${idText(id)}: a repo.add_member entry without the user added` };
  const actor = str(entry, 'actor');
  const scope = { actors: actor ? [actor] : [], repo, time: entryTime(entry['@timestamp']) ?? entryTime(entry['created_at']) };
  return githubWrite(
    `github-audit:${id}`,
    'github_repo_member',
    'add',
    repo.slice(0, slash),
    repo.slice(slash + 1),
    { user_hash: targetHash('github_user', user) },
    scope,
  );
}
