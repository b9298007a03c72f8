/**
 * GitHub webhook deliveries → records (docs/importers.md): the deliveries REST endpoints (`guid`,
 * `request.headers`, `request.payload`). `deploy_key` created → github_deploy_key/create; `issues`
 * opened/closed, `issue_comment` created, `pull_request` opened/closed (merged: merge), `push` (a
 * branch not deleted), `issues`/`pull_request` labeled (the one label a delivery carries), `member`
 * added → the github_* rows of the class table, bound on GitHub's own ids. record_id
 * "github-delivery:" + guid. A raw deploy_key payload file (no delivery around it) has no delivery
 * id: record_id "github-deploy-key:" + repository full_name + ":" + key.id.
 */
import { type JsonObject, obj, str, wholeNumber } from '../../core/json.js';
import type { Result } from '../../core/result.js';
import { targetHash } from '../../core/target-hash.js';
import { asciiLower } from '../../core/text.js';
import type { Instant } from '../../core/time.js';
import { deployKey, githubWrite } from './github-subject.js';
import { idText, type Mapped } from './mapping.js';
import { type EntryScope, entryTime } from './scope.js';

/** Headers as the deliveries API returns them: names in any case. */
const header = (headers: JsonObject | null, name: string): string | null => {
  if (!headers) return null;
  for (const k of Object.keys(headers)) if (k.toLowerCase() === name) return str(headers, k);
  return null;
};

/**
 * The repository a payload names, as the scope filter and the subject both read it: its owner's
 * login and its name; a `full_name` that says another (without regard to ASCII case) is refused,
 * never one of the two taken for the filter and the other for the record.
 */
function repositoryOf(repository: JsonObject | null, owner: string, repo: string): Result<string> {
  const full = `${owner}/${repo}`;
  const given = repository === null ? undefined : repository['full_name'];
  if (given === undefined || given === null) return { ok: true, value: full };
  if (typeof given !== 'string' || asciiLower(given) !== asciiLower(full))
    return {
      ok: false,
      reason: `a payload whose repository.full_name (${typeof given === 'string' ? idText(given) : typeof given}) is not its owner.login/name (${idText(full)})`,
    };
  return { ok: true, value: full };
}

export function githubWebhook(entry: JsonObject): Mapped {
  const request = obj(entry, 'request');
  const delivery = request !== null || str(entry, 'guid') !== null;
  const payload = delivery ? obj(request, 'payload') : entry;
  if (!payload) {
    const id = entry['id'];
    // The list endpoint (GET …/hooks/HOOK/deliveries) returns summaries without payloads.
    const summary = request === null && (typeof id === 'number' || typeof id === 'string');
    return {
      kind: 'error',
      message: summary
        ? `delivery ${idText(str(entry, 'guid') ?? '?')} is a summary from the deliveries list (no request, no payload): fetch each delivery by id (GET /repos/OWNER/REPO/hooks/HOOK_ID/deliveries/${typeof id === 'number' ? id : 'ID'}, examples/export-webhook-deliveries.yml) and import those`
        : `delivery ${idText(str(entry, 'guid') ?? '?')} has no request.payload object`,
    };
  }
  // The event a delivery names, once: its `event` and its X-GitHub-Event header must agree.
  const named = str(entry, 'event');
  const headed = header(obj(request, 'headers'), 'x-github-event');
  if (delivery && named !== null && headed !== null && named !== headed)
    return {
      kind: 'error',
      message: `delivery ${idText(str(entry, 'guid') ?? '?')} names two events: ${idText(named)} and its X-GitHub-Event header ${idText(headed)}`,
    };
  const event = delivery ? (named ?? headed) : payload['key'] !== undefined ? 'deploy_key' : null;
  if (event !== 'deploy_key') return delivery ? githubWriteOf(event, entry, request, payload) : { kind: 'skip', reason: 'other event' };
  // Only a key created is the side effect: a key deleted (or any other action) is never its record.
  const action = str(payload, 'action');
  if (action !== 'created')
    return action === null
      ? { kind: 'error', message: 'a deploy_key payload without action (created or deleted cannot be told)' }
      : { kind: 'skip', reason: 'other action' };
  const key = obj(payload, 'key');
  const repository = obj(payload, 'repository');
  const owner = str(obj(repository, 'owner'), 'login');
  const repo = str(repository, 'name');
  const title = str(key, 'title');
  if (!owner || !repo) return { kind: 'error', message: 'a deploy_key created payload without repository.owner.login and repository.name' };
  const place = repositoryOf(repository, owner, repo);
  if (!place.ok) return { kind: 'error', message: place.reason };
  if (!title) return { kind: 'skip', reason: 'no title' };
  const sender = str(obj(payload, 'sender'), 'login');
  const scope = (time: Instant | null): EntryScope => ({
    actors: sender ? [sender] : [],
    repo: place.value,
    time,
  });
  if (delivery) {
    const guid = str(entry, 'guid') ?? header(obj(request, 'headers'), 'x-github-delivery');
    if (!guid) return { kind: 'error', message: 'a delivery without guid or X-GitHub-Delivery header' };
    return deployKey(`github-delivery:${guid}`, owner, repo, title, scope(entryTime(entry['delivered_at'])));
  }
  const keyId = key?.['id'];
  if (typeof keyId !== 'number' && typeof keyId !== 'string')
    return { kind: 'error', message: 'a raw deploy_key payload without key.id (its record would have no identity)' };
  return deployKey(`github-deploy-key:${owner}/${repo}:${keyId}`, owner, repo, title, scope(entryTime(key?.['created_at'])));
}

/** The writes of a delivery other than deploy_key: a record of its github_* class, a counted skip, or a located error. */
function githubWriteOf(event: string | null, entry: JsonObject, request: JsonObject | null, payload: JsonObject): Mapped {
  const action = str(payload, 'action');
  const repository = obj(payload, 'repository');
  const owner = str(obj(repository, 'owner'), 'login');
  const repo = str(repository, 'name');
  const guid = str(entry, 'guid') ?? header(obj(request, 'headers'), 'x-github-delivery');
  const sender = str(obj(payload, 'sender'), 'login');
  const fail = (what: string): Mapped => ({
    kind: 'error',
    message: `a ${event ?? 'webhook'} ${action ?? ''} delivery ${idText(guid ?? '?')} without ${what}`,
  });
  if (!owner || !repo) return { kind: 'skip', reason: 'other event' };
  if (!guid) return { kind: 'error', message: 'a delivery without guid or X-GitHub-Delivery header' };
  const place = repositoryOf(repository, owner, repo);
  if (!place.ok) return { kind: 'error', message: place.reason };
  const scope: EntryScope = {
    actors: sender ? [sender] : [],
    repo: place.value,
    time: entryTime(entry['delivered_at']),
  };
  const write = (actionClass: string, verb: string, fields: { readonly [field: string]: string | number }): Mapped =>
    githubWrite(`github-delivery:${guid}`, actionClass, verb, owner, repo, fields, scope);
  const labelOf = (number: number | null): Mapped => {
    const name = str(obj(payload, 'label'), 'name');
    if (number === null) return fail('its number');
    if (!name) return fail('label.name');
    return write('github_label', 'add', { number, label_hash: targetHash('github_label', name) });
  };
  switch (event) {
    case 'issues': {
      const number = wholeNumber(obj(payload, 'issue'), 'number');
      if (action === 'labeled') return labelOf(number);
      if (action !== 'opened' && action !== 'closed') return { kind: 'skip', reason: 'other action' };
      if (number === null) return fail('issue.number');
      return write('github_issue', action === 'opened' ? 'create' : 'close', { number });
    }
    case 'pull_request': {
      const pull = obj(payload, 'pull_request');
      const number = wholeNumber(pull, 'number');
      if (action === 'labeled') return labelOf(number);
      if (action !== 'opened' && action !== 'closed') return { kind: 'skip', reason: 'other action' };
      if (number === null) return fail('pull_request.number');
      const verb = action === 'opened' ? 'create' : pull?.['merged'] === true ? 'merge' : 'close';
      return write('github_pull_request', verb, { number });
    }
    case 'issue_comment': {
      if (action !== 'created') return { kind: 'skip', reason: 'other action' };
      const id = wholeNumber(obj(payload, 'comment'), 'id');
      if (id === null) return fail('comment.id');
      return write('github_issue_comment', 'create', { comment_id: id });
    }
    case 'push': {
      if (payload['deleted'] === true) return { kind: 'skip', reason: 'a deleted branch' };
      const ref = str(payload, 'ref');
      const after = str(payload, 'after');
      if (!ref || !after || !/^[0-9a-f]{40}$/.test(after)) return fail('ref and a 40-digit after');
      // github_branch_push is a branch's: a tag pushed is another side effect.
      if (!ref.startsWith('refs/heads/')) return { kind: 'skip', reason: 'a push of a ref that is not a branch' };
      return write('github_branch_push', 'push', { ref, after });
    }
    case 'member': {
      if (action !== 'added') return { kind: 'skip', reason: 'other action' };
      const login = str(obj(payload, 'member'), 'login');
      if (!login) return fail('member.login');
      return write('github_repo_member', 'add', { user_hash: targetHash('github_user', login) });
    }
    default:
      return { kind: 'skip', reason: 'other event' };
  }
}
