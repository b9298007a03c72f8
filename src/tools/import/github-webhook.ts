/**
 * GitHub webhook deliveries → records (docs/importers.md): the deliveries REST endpoints (`guid`,
 * `request.headers`, `request.payload`). `deploy_key` created → github_deploy_key/create; `issues`
 * opened/closed (an issue transferred in is not created), `issue_comment` created, `pull_request`
 * opened/closed (merged: merge), `push` (a branch not deleted), `issues`/`pull_request` labeled (the
 * one label a delivery carries), `member` added → the github_* rows of the class table, bound on
 * GitHub's own ids. record_id "github-delivery:" + guid; a deploy key created is identified by what
 * the event itself carries, "github-deploy-key:" + owner/repo + ":" + key.id, whether a delivery or
 * its raw payload file carries it (one event, one record). A raw payload names no event: only a
 * deploy_key payload is told from its body (`key`); any other is an event of unknown kind.
 */
import { isObject, type JsonObject, obj, str, wholeNumber } from '../../core/json.js';
import type { Result } from '../../core/result.js';
import { targetHash } from '../../core/target-hash.js';
import { asciiLower } from '../../core/text.js';
import { deployKey, githubWrite } from './github-subject.js';
import { idText, type Mapped } from './mapping.js';
import { type EntryScope, entryTime } from './scope.js';

/**
 * A header as the deliveries API returns them (names in any case): its value, null when absent;
 * undefined when it is given twice with two values (which one GitHub sent cannot be told: a red team).
 */
const header = (headers: JsonObject | null, name: string): string | null | undefined => {
  if (!headers) return null;
  const values = new Set(Object.keys(headers).flatMap((k) => (k.toLowerCase() === name ? [str(headers, k)] : [])));
  if (values.size > 1) return undefined;
  return [...values][0] ?? null;
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
  if (headed === undefined)
    return {
      kind: 'error',
      message: `delivery ${idText(str(entry, 'guid') ?? '?')} gives its X-GitHub-Event header twice, with two events`,
    };
  if (delivery && named !== null && headed !== null && named !== headed)
    return {
      kind: 'error',
      message: `delivery ${idText(str(entry, 'guid') ?? '?')} names two events: ${idText(named)} and its X-GitHub-Event header ${idText(headed)}`,
    };
  // A raw payload names no event: only a deploy_key payload can be told from its body alone.
  const event = delivery ? (named ?? headed) : payload['key'] !== undefined ? 'deploy_key' : null;
  if (event === null) return untold(entry, delivery, payload);
  // GitHub names its events in lower case: "Issues" is no event it sent, never "other event" beside a statement (a red team).
  if (!/^[a-z_]+$/.test(event))
    return {
      kind: 'error',
      message: `delivery ${idText(str(entry, 'guid') ?? '?')} names the event ${idText(event)}, which GitHub does not send (its events are lower case, such as issues)`,
    };
  if (event !== 'deploy_key') return githubWriteOf(event, entry, request, payload);
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
  // The event's own identity, whichever shape carries it (a delivery, or the raw payload a receiver
  // stored): the key GitHub created, one id per key. A delivery's guid would make a second record of
  // the one event given once each way; two different keys are two events, never merged.
  const keyId = deployKeyId(key);
  if (keyId === null)
    return { kind: 'error', message: 'a deploy_key created payload without key.id, a whole number (its record would have no identity)' };
  const sender = str(obj(payload, 'sender'), 'login');
  const time = delivery ? entryTime(entry['delivered_at']) : entryTime(key?.['created_at']);
  return deployKey(`github-deploy-key:${place.value}:${keyId}`, owner, repo, title, {
    actors: sender ? [sender] : [],
    repo: place.value,
    time,
  });
}

/** A deploy key's id as GitHub gives it (a whole number; a string of digits read as the same number), or null. */
function deployKeyId(key: JsonObject | null): string | null {
  const n = wholeNumber(key, 'id');
  if (n !== null) return String(n);
  const given = str(key, 'id');
  return given !== null && /^[1-9][0-9]{0,15}$/.test(given) ? given : null;
}

/**
 * An entry whose event cannot be told: a raw payload that is not a deploy_key's (a receiver stored
 * the body without its X-GitHub-Event header), or a delivery that names none. Never a record and
 * never a quiet skip beside a statement: it may be any write of the scope (an issue opened, a push),
 * so under a window an entry of the scope is an error (run.ts, `uncertain`); outside the scope, or
 * without a window, it is counted. A delivery the API returned always names its event: one that
 * names none is an error.
 */
function untold(entry: JsonObject, delivery: boolean, payload: JsonObject): Mapped {
  const guid = str(entry, 'guid');
  if (delivery)
    return {
      kind: 'error',
      message: `delivery ${idText(guid ?? '?')} names no event (no event, no X-GitHub-Event header): which write it is cannot be told`,
    };
  const repository = obj(payload, 'repository');
  const owner = str(obj(repository, 'owner'), 'login');
  const repo = str(repository, 'name');
  const place = owner && repo ? repositoryOf(repository, owner, repo) : null;
  if (place && !place.ok) return { kind: 'error', message: place.reason };
  const sender = str(obj(payload, 'sender'), 'login');
  return {
    kind: 'skip',
    reason: 'raw payload whose event is not named: store X-GitHub-Event with it, or import the delivery',
    event: { kind: 'uncertain', recordId: null, scope: { actors: sender ? [sender] : [], repo: place?.value ?? null, time: null } },
  };
}

/** The events whose deliveries may be a write this importer maps (githubWriteOf's cases). */
const WRITES: ReadonlySet<string> = new Set(['issues', 'pull_request', 'issue_comment', 'push', 'member']);

/** The writes of a delivery other than deploy_key: a record of its github_* class, a counted skip, or a located error. */
function githubWriteOf(event: string, entry: JsonObject, request: JsonObject | null, payload: JsonObject): Mapped {
  const action = str(payload, 'action');
  const repository = obj(payload, 'repository');
  const owner = str(obj(repository, 'owner'), 'login');
  const repo = str(repository, 'name');
  const guid = str(entry, 'guid') ?? header(obj(request, 'headers'), 'x-github-delivery') ?? null;
  const sender = str(obj(payload, 'sender'), 'login');
  const fail = (what: string): Mapped => ({
    kind: 'error',
    message: `a ${event} ${action ?? ''} delivery ${idText(guid ?? '?')} without ${what}`,
  });
  if (!WRITES.has(event)) return { kind: 'skip', reason: 'other event' };
  // A write of a class this maps names its repository: without one it is not "other event" beside a statement (a red team).
  if (!owner || !repo) return fail('repository.owner.login and repository.name');
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
      if (action === 'opened') {
        const moved = transferredIn(payload);
        if (moved !== null)
          return moved.ok
            ? {
                kind: 'skip',
                reason: 'issue transferred in, not created',
                event: { kind: 'refused', recordId: `github-delivery:${guid}`, scope },
              }
            : { kind: 'error', message: `an issues opened delivery ${idText(guid)} with ${moved.reason}` };
      }
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

/**
 * Whether an `issues` opened payload is an issue transferred in (GitHub sends `opened` to the
 * destination repository of a transfer, with `changes.old_issue` and `changes.old_repository`): no
 * issue was created, so it is never a github_issue create. Null: no `changes`, an issue opened;
 * `changes` of another shape is refused (created or transferred cannot be told).
 */
function transferredIn(payload: JsonObject): Result<true> | null {
  const changes = payload['changes'];
  if (changes === undefined || changes === null) return null;
  if (isObject(changes) && (isObject(changes['old_issue']) || isObject(changes['old_repository']))) return { ok: true, value: true };
  return {
    ok: false,
    reason: 'changes that are not a transfer’s (changes.old_issue, changes.old_repository): created or transferred cannot be told',
  };
}
