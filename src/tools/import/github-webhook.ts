/**
 * GitHub `deploy_key` webhook deliveries → github_deploy_key/create records (docs/importers.md): the
 * deliveries REST endpoints (`guid`, `request.headers`, `request.payload`), action `created`;
 * record_id "github-delivery:" + guid. A raw payload file (no delivery around it) has no delivery
 * id: record_id "github-deploy-key:" + repository full_name + ":" + key.id.
 */
import type { JsonObject } from '../../core/json.js';
import type { Instant } from '../../core/time.js';
import { deployKey } from './github-subject.js';
import { idText, type Mapped, obj, str } from './mapping.js';
import { type EntryScope, entryTime } from './scope.js';

/** Headers as the deliveries API returns them: names in any case. */
const header = (headers: JsonObject | null, name: string): string | null => {
  if (!headers) return null;
  for (const k of Object.keys(headers)) if (k.toLowerCase() === name) return str(headers, k);
  return null;
};

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
  const event = delivery
    ? (str(entry, 'event') ?? header(obj(request, 'headers'), 'x-github-event'))
    : payload['key'] !== undefined
      ? 'deploy_key'
      : null;
  if (event !== 'deploy_key') return { kind: 'skip', reason: 'other event' };
  if (payload['action'] !== 'created') return { kind: 'skip', reason: 'other action' };
  const key = obj(payload, 'key');
  const repository = obj(payload, 'repository');
  const owner = str(obj(repository, 'owner'), 'login');
  const repo = str(repository, 'name');
  const title = str(key, 'title');
  if (!owner || !repo) return { kind: 'error', message: 'a deploy_key created payload without repository.owner.login and repository.name' };
  if (!title) return { kind: 'skip', reason: 'no title' };
  const sender = str(obj(payload, 'sender'), 'login');
  const scope = (time: Instant | null): EntryScope => ({
    actors: sender ? [sender] : [],
    repo: str(repository, 'full_name') ?? `${owner}/${repo}`,
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
