/**
 * The one subject GitHub's exports map to: a deploy key created (github_deploy_key/create, the
 * class upstream's verifier binds: owner, repo, key_title_hash), whichever export it came from.
 */

import { label, targetHash } from '../../core/target-hash.js';
import type { Mapped } from './mapping.js';
import type { EntryScope } from './scope.js';

export function deployKey(recordId: string, owner: string, repo: string, title: string, scope: EntryScope): Mapped {
  return {
    kind: 'record',
    provider: 'github',
    recordId,
    scope,
    subject: {
      action_class: 'github_deploy_key',
      verb: 'create',
      target: { owner: label(owner), repo: label(repo), key_title_hash: targetHash('github_key_title', title) },
    },
  };
}
