/**
 * The subjects GitHub's exports map to (the github_* rows of the class table, core/classes.ts): a
 * deploy key created (the class upstream's verifier binds: owner, repo, key_title_hash), and the
 * writes agents do most (issues, comments, pull requests, pushes, labels, members), whichever
 * export they came from.
 */

import { label, targetHash } from '../../core/target-hash.js';
import type { Mapped } from './mapping.js';
import type { EntryScope } from './scope.js';

/** A bound value of a GitHub subject: a name, GitHub's own id (a number), or a hash. */
type Bound = string | number;

/** A GitHub write (a github_* class), bound on owner, repo and its class's own fields, as the agent's producer binds them. */
export function githubWrite(
  recordId: string,
  actionClass: string,
  verb: string,
  owner: string,
  repo: string,
  fields: { readonly [field: string]: Bound },
  scope: EntryScope,
): Mapped {
  return {
    kind: 'record',
    provider: 'github',
    recordId,
    scope,
    subject: { action_class: actionClass, verb, target: { owner: label(owner), repo: label(repo), ...fields } },
  };
}

/** A deploy key created, its title hashed as the agent hashes it. */
export const deployKey = (recordId: string, owner: string, repo: string, title: string, scope: EntryScope): Mapped =>
  githubWrite(recordId, 'github_deploy_key', 'create', owner, repo, { key_title_hash: targetHash('github_key_title', title) }, scope);
