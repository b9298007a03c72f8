import type { RunInput } from '../../src/core/model.js';
import type { Policy } from '../../src/core/policy.js';
import type { Instant } from '../../src/core/time.js';
import { readPolicyFile } from '../../src/read/policy-file.js';

/** The policy files the pull-request and verdict tests share: the default path, one strict rule for prod deploy keys, and the same rule loosened. */
export const POLICY = '.github/receipt-gate.yml';
export const STRICT = `version: 1
rules:
  - name: prod-keys
    match: {class: github_deploy_key, target: {repo: [prod-*]}}
    require: verified
`;
export const LOOSE = STRICT.replace('require: verified', 'require: asserted');

/**
 * The one-rule policy the core's generated corpora are judged by (prod-* deploy keys created require
 * `verified`), with `head` lines before the rules (default, pending) and an exception for each
 * named decision that has a subject, read at `now` (a mistake in it throws).
 */
export function prodKeysPolicy(
  now: Instant,
  head: string,
  runs: readonly RunInput[],
  exceptions: readonly { readonly run: number; readonly i: number; readonly expires: string }[],
  commit: string | null = null,
): Policy {
  const excepted = exceptions.flatMap((e) => {
    const d = runs[e.run]?.decisions[e.i];
    return d?.projection.kind === 'subject'
      ? [`  - {binding: "${d.projection.digest}", rule: prod, reason: r, owner: o, expires: ${e.expires}}`]
      : [];
  });
  const text = `version: 1\n${head}rules:\n  - name: prod\n    match:\n      class: github_deploy_key\n      verb: create\n      target:\n        repo: [prod-*]\n    require: verified\n${excepted.length > 0 ? `exceptions:\n${excepted.join('\n')}\n` : ''}`;
  const policy = readPolicyFile(text, { path: POLICY, commit, now, signers: { keyIds: [], identities: [] } });
  if (!policy.ok) throw new Error(policy.reason.map((f) => f.message).join('; '));
  return policy.value;
}
