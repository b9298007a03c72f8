/**
 * Okta System Log → idp_admin_role/grant records (docs/importers.md): `GET /api/v1/logs` pages
 * (JSON arrays, several concatenated as `gh api --paginate`-style tools write them). An admin role
 * granted to a user: `eventType` `user.account.privilege.grant` with `outcome.result` `SUCCESS`; the
 * principal is the user granted (the target of type User, else the first target). Record id
 * "okta:" + uuid; the org is the one --org names (entries do not); the actor is
 * `actor.alternateId`.
 */
import { isObject, type JsonObject, obj, str } from '../../core/json.js';
import { idText, type Mapped } from './mapping.js';
import { type EntryScope, entryTime } from './scope.js';
import { tenantWrite } from './tenant-subject.js';

/** The user granted the role: the target of type User, else the first target. */
function principalOf(e: JsonObject): string | null {
  const targets = Array.isArray(e['target']) ? e['target'].filter(isObject) : [];
  const user = targets.find((t) => str(t, 'type') === 'User') ?? targets[0];
  return user ? str(user, 'id') : null;
}

export const oktaSystemLog =
  (org: string) =>
  (e: JsonObject): Mapped => {
    if (str(e, 'eventType') !== 'user.account.privilege.grant') return { kind: 'skip', reason: 'other event type' };
    const result = str(obj(e, 'outcome'), 'result');
    if (result !== 'SUCCESS') return { kind: 'skip', reason: 'outcome not SUCCESS' };
    const id = str(e, 'uuid');
    if (!id) return { kind: 'error', message: 'a privilege grant without a uuid (its record would have no identity)' };
    const principal = principalOf(e);
    if (!principal) return { kind: 'error', message: `entry ${idText(id)}: a privilege grant naming no target user` };
    const actor = str(obj(e, 'actor'), 'alternateId');
    const scope: EntryScope = { actors: actor ? [actor] : [], repo: null, tenant: org, time: entryTime(e['published']) };
    return tenantWrite(`okta:${id}`, 'idp_admin_role', 'grant', org, [['principal_id', principal]], scope);
  };
