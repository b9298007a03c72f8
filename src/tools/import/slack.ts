/**
 * Slack Audit Logs API (Enterprise) entries → records (docs/importers.md). What the provider cannot
 * tell, the user chooses (options, documented in the README): the principal form the agent passed
 * (`id` or `email`), whether the agent passed a workspace for channel joins, the verb of each role
 * change, and the provider each class's calls name.
 *
 * - `user_channel_join` / `guest_channel_join` → workspace_member/add: channel = entity.channel.id,
 *   principal = the actor (the member who joined), workspace = context.location.id when the
 *   location is a workspace (else null); the entry is the inviter's (`details.inviter`) too, for `--actor`.
 * - `role_change_to_<role>` → workspace_role: principal = the entity's user, workspace =
 *   context.location.id, role = <role>, verb from the mapping (admin, owner: grant; user, guest:
 *   change_role).
 */
import { type JsonObject, obj, str } from '../../core/json.js';
import { targetHash } from '../../core/target-hash.js';
import { idText, type Mapped } from './mapping.js';
import { type EntryScope, entryTime } from './scope.js';

export interface SlackOptions {
  readonly principal: 'id' | 'email';
  /** `context`: from context.location when it is a workspace; `none`: null (the agent passed none). */
  readonly workspace: 'context' | 'none';
  /** Role → verb; a Map, since the role is text from the export (`role_change_to___proto__` is just an unmapped role). */
  readonly roleVerbs: ReadonlyMap<string, string>;
  readonly memberProvider: string;
  readonly roleProvider: string;
}

export const DEFAULT_SLACK: SlackOptions = {
  principal: 'id',
  workspace: 'context',
  roleVerbs: new Map([
    ['admin', 'grant'],
    ['owner', 'grant'],
    ['user', 'change_role'],
    ['guest', 'change_role'],
  ]),
  memberProvider: 'slack',
  roleProvider: 'workspace',
};

export function slackAuditLog(o: SlackOptions): (entry: JsonObject) => Mapped {
  return (entry): Mapped => {
    const action = str(entry, 'action');
    const id = str(entry, 'id');
    if (!action) return { kind: 'error', message: 'an entry without an action' };
    const join = action === 'user_channel_join' || action === 'guest_channel_join';
    const role = /^role_change_to_([a-z_]+)$/.exec(action)?.[1];
    if (!join && !role) return { kind: 'skip', reason: 'other action' };
    if (!id) return { kind: 'error', message: `a ${action} entry without an id (its record would have no identity)` };
    const location = obj(obj(entry, 'context'), 'location');
    const actorUser = obj(obj(entry, 'actor'), 'user');
    // A join by invitation is the inviter's act as much as the joiner's: an agent that adds a member
    // is the entry's `details.inviter`, its actor the member who joined (a red team: the agent's
    // invitations were skipped as by another actor, and its calls were effect_not_logged).
    const inviter = join ? obj(obj(entry, 'details'), 'inviter') : null;
    const scope: EntryScope = {
      actors: [str(actorUser, 'id'), str(actorUser, 'email'), str(inviter, 'id'), str(inviter, 'email')].filter(
        (a): a is string => a !== null,
      ),
      repo: null,
      time: entryTime(entry['date_create'], 's'),
    };
    const principalOf = (who: JsonObject | null): string | null => str(obj(who, 'user'), o.principal);
    if (join) {
      const channel = str(obj(obj(entry, 'entity'), 'channel'), 'id');
      const principal = principalOf(obj(entry, 'actor'));
      if (!channel) return { kind: 'error', message: `entry ${idText(id)}: ${action} without entity.channel.id` };
      if (!principal)
        return { kind: 'error', message: `entry ${idText(id)}: ${action} without actor.user.${o.principal} (--principal ${o.principal})` };
      const ws = o.workspace === 'context' && str(location, 'type') === 'workspace' ? str(location, 'id') : null;
      return {
        kind: 'record',
        provider: o.memberProvider,
        recordId: `slack-audit:${id}`,
        scope,
        subject: {
          action_class: 'workspace_member',
          verb: 'add',
          target: {
            workspace_id_hash: ws === null ? null : targetHash('slack_workspace', ws),
            channel_id_hash: targetHash('slack_channel', channel),
            principal_hash: targetHash('slack_principal', principal),
          },
        },
      };
    }
    if (role === undefined) return { kind: 'skip', reason: 'other action' };
    const verb = o.roleVerbs.get(role);
    if (!verb) return { kind: 'skip', reason: `role change to ${role} (no verb mapped)` };
    const principal = principalOf(obj(entry, 'entity'));
    const ws = str(location, 'id');
    if (!principal)
      return { kind: 'error', message: `entry ${idText(id)}: ${action} without entity.user.${o.principal} (--principal ${o.principal})` };
    if (!ws) return { kind: 'error', message: `entry ${idText(id)}: ${action} without context.location.id` };
    return {
      kind: 'record',
      provider: o.roleProvider,
      recordId: `slack-audit:${id}`,
      scope,
      subject: {
        action_class: 'workspace_role',
        verb,
        target: {
          workspace_id_hash: targetHash('workspace', ws),
          principal_hash: targetHash('workspace_principal', principal),
          role,
        },
      },
    };
  };
}
