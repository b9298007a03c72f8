/**
 * The subjects of providers whose log is one tenant's (an AWS account, a Kubernetes cluster, an Okta
 * org; the class table's aws_*, k8s_* and idp_* rows): bound on the tenant and the class's own
 * fields, as the agent's producer (its mapping file) binds them.
 */
import { classRow } from '../../core/classes.js';
import { label } from '../../core/target-hash.js';
import type { Mapped } from './mapping.js';
import type { EntryScope } from './scope.js';

/** A write in a tenant's log: the class's provider, the tenant as its first bound field, then these. */
export function tenantWrite(
  recordId: string,
  actionClass: string,
  verb: string,
  tenant: string,
  fields: readonly (readonly [string, string | null])[],
  scope: EntryScope,
): Mapped {
  const row = classRow(actionClass);
  if (!row?.scope) throw new Error(`${actionClass} is not a tenant's class`); // the importers name their classes
  const target: { [field: string]: string | null } = { [row.scope.owner]: label(tenant) };
  for (const [field, value] of fields) target[field] = value;
  return { kind: 'record', provider: row.provider, recordId, scope, subject: { action_class: actionClass, verb, target } };
}
