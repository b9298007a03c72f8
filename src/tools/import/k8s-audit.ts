/**
 * Kubernetes audit log → k8s_rbac_binding/create records (docs/importers.md): `audit.k8s.io/v1`
 * events as the log backend writes them (JSON lines) or an `EventList`. A role binding or cluster
 * role binding created: stage `ResponseComplete`, verb `create`, resource `rolebindings` /
 * `clusterrolebindings` of `rbac.authorization.k8s.io`, a 2xx response. Record id "k8s-audit:" +
 * auditID (each stage of one request repeats it: only the complete one maps); the cluster is the
 * one --cluster names (the log does not); the actor is `user.username`.
 */
import { type JsonObject, obj, str, wholeNumber } from '../../core/json.js';
import { idText, type Mapped } from './mapping.js';
import { type EntryScope, entryTime } from './scope.js';
import { tenantWrite } from './tenant-subject.js';

const KINDS: ReadonlyMap<string, string> = new Map([
  ['rolebindings', 'RoleBinding'],
  ['clusterrolebindings', 'ClusterRoleBinding'],
]);

/** The binding's name: the request's object reference, else the created object's (a create's reference has none at the Metadata level). */
const nameOf = (e: JsonObject): string | null =>
  str(obj(e, 'objectRef'), 'name') ??
  str(obj(obj(e, 'responseObject'), 'metadata'), 'name') ??
  str(obj(obj(e, 'requestObject'), 'metadata'), 'name');

export const k8sAudit =
  (cluster: string) =>
  (e: JsonObject): Mapped => {
    if (e['kind'] !== 'Event') return { kind: 'error', message: 'not an audit.k8s.io Event (kind is not "Event")' };
    const stage = str(e, 'stage');
    if (stage !== 'ResponseComplete') return { kind: 'skip', reason: 'not ResponseComplete' };
    const ref = obj(e, 'objectRef');
    const kind = KINDS.get(str(ref, 'resource') ?? '');
    if (str(e, 'verb') !== 'create' || kind === undefined || str(ref, 'apiGroup') !== 'rbac.authorization.k8s.io')
      return { kind: 'skip', reason: 'not a role binding created' };
    const code = wholeNumber(obj(e, 'responseStatus'), 'code');
    if (code === null || code < 200 || code > 299) return { kind: 'skip', reason: 'failed (not 2xx)' };
    const id = str(e, 'auditID');
    if (!id) return { kind: 'error', message: 'a role binding created without an auditID (its record would have no identity)' };
    const name = nameOf(e);
    // At the Metadata level a create's objectRef has no name, and no object is logged: nothing says which binding.
    if (!name) return { kind: 'skip', reason: 'a binding the entry does not name (log rbac at the Request level)' };
    const namespace = kind === 'RoleBinding' ? str(ref, 'namespace') : null;
    if (kind === 'RoleBinding' && namespace === null)
      return { kind: 'error', message: `entry ${idText(id)}: a RoleBinding without its namespace` };
    const user = str(obj(e, 'user'), 'username');
    const scope: EntryScope = {
      actors: user ? [user] : [],
      repo: null,
      tenant: cluster,
      time: entryTime(e['stageTimestamp']) ?? entryTime(e['requestReceivedTimestamp']),
    };
    return tenantWrite(
      `k8s-audit:${id}`,
      'k8s_rbac_binding',
      'create',
      cluster,
      [
        ['namespace', namespace],
        ['kind', kind],
        ['name', name],
      ],
      scope,
    );
  };
