/**
 * Kubernetes audit log → k8s_rbac_binding/create records (docs/importers.md): `audit.k8s.io/v1`
 * events as the log backend writes them (JSON lines) or an `EventList`. A role binding or cluster
 * role binding created: stage `ResponseComplete`, verb `create`, resource `rolebindings` /
 * `clusterrolebindings` of `rbac.authorization.k8s.io`, a 2xx response. Record id "k8s-audit:" +
 * auditID (each stage of one request repeats it: only the complete one maps); the cluster is the
 * one --cluster names (the log does not); the actor is `user.username`. A binding applied
 * (`patch`, server-side apply) or put (`update`) is created when the answer is 201; a dry run
 * (`?dryRun=All`) creates nothing; a name or namespace two places give differently is an error.
 */
import { type JsonObject, obj, str, wholeNumber } from '../../core/json.js';
import { idText, type Mapped, oneText } from './mapping.js';
import { type EntryScope, textTime } from './scope.js';
import { tenantWrite } from './tenant-subject.js';

const KINDS: ReadonlyMap<string, string> = new Map([
  ['rolebindings', 'RoleBinding'],
  ['clusterrolebindings', 'ClusterRoleBinding'],
]);

const NAMES = [['objectRef'], ['responseObject', 'metadata'], ['requestObject', 'metadata']] as const;

/** Whether the request was a dry run (`?dryRun=All`): the API server answers as if it created the object, and creates nothing. */
function dryRun(e: JsonObject): boolean {
  const uri = str(e, 'requestURI');
  if (uri === null) return false;
  const query = uri.indexOf('?');
  return query >= 0 && new URLSearchParams(uri.slice(query + 1)).has('dryRun');
}

/**
 * A binding created: `create` answered 2xx, or `patch` (server-side apply) or `update` (a PUT that
 * creates) answered 201 Created: an agent that applies a binding creates it as surely as one that
 * posts it.
 */
function created(verb: string | null, code: number | null): 'created' | 'other' | 'failed' {
  if (code === null || code < 200 || code > 299) return verb === 'create' || verb === 'patch' || verb === 'update' ? 'failed' : 'other';
  if (verb === 'create' || ((verb === 'patch' || verb === 'update') && code === 201)) return 'created';
  return 'other';
}

export const k8sAudit =
  (cluster: string) =>
  (e: JsonObject): Mapped => {
    if (e['kind'] !== 'Event') return { kind: 'error', message: 'not an audit.k8s.io Event (kind is not "Event")' };
    const stage = str(e, 'stage');
    const ref = obj(e, 'objectRef');
    const kind = KINDS.get(str(ref, 'resource') ?? '');
    const binding = kind !== undefined && str(ref, 'apiGroup') === 'rbac.authorization.k8s.io';
    const verb = str(e, 'verb');
    const id = str(e, 'auditID');
    const user = str(obj(e, 'user'), 'username');
    // The entry's time: when its response completed, else when it was received; one that is given and unreadable is never passed over.
    const stamp = textTime(e['stageTimestamp'] ?? e['requestReceivedTimestamp']);
    const time = 'error' in stamp ? null : stamp.time;
    const scope: EntryScope = { actors: user ? [user] : [], repo: null, tenant: cluster, time };
    const recordId = `k8s-audit:${id}`;
    const writes = binding && !!id && (verb === 'create' || verb === 'patch' || verb === 'update');
    if (stage !== 'ResponseComplete') {
      // Another stage of a request that may create a binding: the complete one says whether it did. A panic
      // ends the request, and the object may have been stored before it: whether it was cannot be said.
      if (!writes) return { kind: 'skip', reason: 'not ResponseComplete' };
      return {
        kind: 'skip',
        reason: 'not ResponseComplete',
        event: { kind: stage === 'Panic' ? 'uncertain' : 'partial', recordId, scope },
      };
    }
    if (!binding) return { kind: 'skip', reason: 'not a role binding created' };
    const made = created(verb, wholeNumber(obj(e, 'responseStatus'), 'code'));
    const refused = id ? { event: { kind: 'refused' as const, recordId, scope } } : {};
    // A binding read, or one updated rather than created (apply or PUT answered 200): its request is complete, nothing made.
    if (made === 'other') return { kind: 'skip', reason: 'not a role binding created', ...(writes ? refused : {}) };
    if (made === 'failed') return { kind: 'skip', reason: 'failed (not 2xx)', ...refused };
    if (dryRun(e)) return { kind: 'skip', reason: 'a dry run (nothing was created)', ...refused };
    if (!id) return { kind: 'error', message: 'a role binding created without an auditID (its record would have no identity)' };
    if ('error' in stamp) return { kind: 'error', message: `entry ${idText(id)}: ${stamp.error}` };
    const name = oneText(e, 'name', NAMES);
    if ('error' in name) return { kind: 'error', message: `entry ${idText(id)}: ${name.error}` };
    // At the Metadata level a create's objectRef has no name, and no object is logged: nothing says which binding.
    if (name.value === null)
      return {
        kind: 'skip',
        reason: 'a binding the entry does not name (log rbac at the Request level)',
        event: { kind: 'uncertain', recordId, scope },
      };
    let namespace: string | null = null;
    if (kind === 'RoleBinding') {
      const given = oneText(e, 'namespace', NAMES);
      if ('error' in given) return { kind: 'error', message: `entry ${idText(id)}: ${given.error}` };
      if (given.value === null) return { kind: 'error', message: `entry ${idText(id)}: a RoleBinding without its namespace` };
      namespace = given.value;
    }
    return tenantWrite(
      `k8s-audit:${id}`,
      'k8s_rbac_binding',
      'create',
      cluster,
      [
        ['namespace', namespace],
        ['kind', kind],
        ['name', name.value],
      ],
      scope,
    );
  };
