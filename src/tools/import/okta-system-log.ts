/**
 * Okta System Log → idp_admin_role/grant records (docs/importers.md): `GET /api/v1/logs` pages
 * (JSON arrays, several concatenated as `gh api --paginate`-style tools write them). An admin role
 * granted to a user: `eventType` `user.account.privilege.grant` with `outcome.result` `SUCCESS`; the
 * principal is the user granted (the one target of type User: none or several is an error). Record id
 * "okta:" + uuid; the org is the one --org names (entries do not); the actor is
 * `actor.alternateId`.
 */
import { isObject, type JsonObject, obj, str } from '../../core/json.js';
import { idText, type Mapped } from './mapping.js';
import { type EntryScope, textTime } from './scope.js';
import { tenantWrite } from './tenant-subject.js';

/** The user granted the role: the one target of type User, or why it cannot be said (none, several, or one without an id). Never another target guessed. */
function principalOf(e: JsonObject): { readonly id: string } | { readonly error: string } {
  const targets = Array.isArray(e['target']) ? e['target'].filter(isObject) : [];
  const users = targets.filter((t) => str(t, 'type') === 'User');
  const [user] = users;
  if (users.length > 1) return { error: `a privilege grant with ${users.length} target users: which one was granted cannot be said` };
  if (!user) return { error: 'a privilege grant naming no target user (a target of type User)' };
  const id = str(user, 'id');
  return id ? { id } : { error: 'a privilege grant whose target user has no id' };
}

export const oktaSystemLog =
  (org: string) =>
  (e: JsonObject): Mapped => {
    if (str(e, 'eventType') !== 'user.account.privilege.grant') return { kind: 'skip', reason: 'other event type' };
    const result = str(obj(e, 'outcome'), 'result');
    const id = str(e, 'uuid');
    if (result !== 'SUCCESS')
      return {
        kind: 'skip',
        reason: 'outcome not SUCCESS',
        ...(id ? { event: { kind: 'refused' as const, recordId: `okta:${id}`, scope: null } } : {}),
      };
    if (!id) return { kind: 'error', message: 'a privilege grant without a uuid (its record would have no identity)' };
    const principal = principalOf(e);
    if ('error' in principal) return { kind: 'error', message: `entry ${idText(id)}: ${principal.error}` };
    const actor = str(obj(e, 'actor'), 'alternateId');
    const published = textTime(e['published']);
    if ('error' in published) return { kind: 'error', message: `entry ${idText(id)}: ${published.error}` };
    const scope: EntryScope = { actors: actor ? [actor] : [], repo: null, tenant: org, time: published.time };
    return tenantWrite(`okta:${id}`, 'idp_admin_role', 'grant', org, [['principal_id', principal.id]], scope);
  };
