// The floors' one piece of the gate's own work: JCS + sha256 of a call's subject, narrowed to its
// class's bound fields (spec §2), as the gate binds it. Shared by every floor, so each row compares
// the gate with the same definition: read, JSON.parse, and bind every subject.
import { hash } from 'node:crypto';
import canonicalize from 'canonicalize';

const BOUND = {
  github_deploy_key: ['owner', 'repo', 'key_title_hash'],
  workspace_member: ['workspace_id_hash', 'channel_id_hash', 'principal_hash'],
  workspace_role: ['workspace_id_hash', 'principal_hash', 'role'],
};

/** The hex digest of a decision's action (`{ verb, resource_type, target }`) as a subject. */
export function hashAction(a) {
  const t = {};
  for (const k of BOUND[a.resource_type]) if (k in a.target) t[k] = a.target[k];
  return hash('sha256', canonicalize({ action_class: a.resource_type, verb: a.verb, target: t }));
}

/** The hex digest of a record's subject. */
export const hashSubject = (subject) => hash('sha256', canonicalize(subject));
