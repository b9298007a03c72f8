/**
 * The action classes the gate binds (the hash domains: docs/target-hash.md), in one table read by
 * everything that knows a class: the projection (which target fields are bound), the policy file's
 * checks (verbs, hashed fields and their domains, fields compared without ASCII case), coverage
 * (which fields scope a statement) and the docs. A class is text from an artifact: looked up in a
 * Map, never indexed. The github_deploy_key row is byte-compatible with upstream Assay.
 */
import type { Domain } from './target-hash.js';

/** A hashed field as a policy rule names it (without `_hash`): the bound field it is, and the domain its raw value is hashed in. */
interface HashedField {
  readonly field: string;
  readonly domain: Domain;
}

export interface ClassRow {
  /** The target fields the binding covers, in the order the subject lists them. */
  readonly fields: readonly string[];
  /** The verbs producers write for the class (a rule naming another verb is a typo unless the input has it). */
  readonly verbs: readonly string[];
  /** Hashed fields by the name a policy rule gives them (`key_title` → `key_title_hash`). */
  readonly hashed: ReadonlyMap<string, HashedField>;
  /** Plain fields a policy rule compares without regard to ASCII case (GitHub's names, IAM's role names: the provider ignores it). */
  readonly caseless: ReadonlySet<string>;
  /**
   * The fields a coverage statement's scope reads: the tenant it names as its `owner` (a GitHub
   * organisation, an AWS account, a cluster, an Okta org) and, for GitHub, the repository; null: the
   * provider's whole log (a Slack workspace's).
   */
  readonly scope: { readonly owner: string; readonly repo: string | null } | null;
  /** The provider whose records bind the class by default (what an importer of another producer's runs names). */
  readonly provider: string;
  /** Fields whose values are whole numbers (GitHub's issue numbers and comment ids): JSON numbers in subjects. */
  readonly wholeNumbers: ReadonlySet<string>;
}

const NONE: ReadonlySet<string> = new Set();

const GITHUB_NAMES: ReadonlySet<string> = new Set(['owner', 'repo']);

/** A GitHub class bound on owner, repo and these fields (GitHub's own ids: numbers, shas, refs), hashed ones as given. */
const github = (verbs: readonly string[], fields: readonly string[], hashed: readonly [string, HashedField][] = []): ClassRow => ({
  fields: ['owner', 'repo', ...fields],
  verbs,
  hashed: new Map(hashed),
  caseless: GITHUB_NAMES,
  scope: { owner: 'owner', repo: 'repo' },
  provider: 'github',
  wholeNumbers: new Set(fields.filter((f) => f === 'number' || f === 'comment_id')),
});

/** A class of a provider whose log is one tenant's (an AWS account, a cluster, an Okta org), bound on the tenant and these fields. */
const tenant = (
  provider: string,
  field: string,
  verbs: readonly string[],
  fields: readonly string[],
  hashed: readonly [string, HashedField][] = [],
  caseless: ReadonlySet<string> = NONE,
): ClassRow => ({
  fields: [field, ...fields],
  verbs,
  hashed: new Map(hashed),
  caseless,
  scope: { owner: field, repo: null },
  provider,
  wholeNumbers: NONE,
});

export const CLASSES: ReadonlyMap<string, ClassRow> = new Map<string, ClassRow>([
  // The writes agents do most on GitHub, bound on the ids GitHub gives them.
  ['github_issue', github(['create', 'close'], ['number'])],
  ['github_issue_comment', github(['create'], ['comment_id'])],
  ['github_pull_request', github(['create', 'merge', 'close'], ['number'])],
  ['github_branch_push', github(['push'], ['ref', 'after'])],
  ['github_label', github(['add'], ['number', 'label_hash'], [['label', { field: 'label_hash', domain: 'github_label' }]])],
  ['github_repo_member', github(['add'], ['user_hash'], [['user', { field: 'user_hash', domain: 'github_user' }]])],
  [
    'github_deploy_key',
    {
      fields: ['owner', 'repo', 'key_title_hash'],
      verbs: ['create'],
      hashed: new Map([['key_title', { field: 'key_title_hash', domain: 'github_key_title' }]]),
      caseless: GITHUB_NAMES,
      scope: { owner: 'owner', repo: 'repo' },
      provider: 'github',
      wholeNumbers: NONE,
    },
  ],
  [
    'workspace_member',
    {
      fields: ['workspace_id_hash', 'channel_id_hash', 'principal_hash'],
      verbs: ['add'],
      hashed: new Map([
        ['workspace_id', { field: 'workspace_id_hash', domain: 'slack_workspace' }],
        ['channel_id', { field: 'channel_id_hash', domain: 'slack_channel' }],
        ['principal', { field: 'principal_hash', domain: 'slack_principal' }],
      ]),
      caseless: new Set(),
      scope: null,
      provider: 'slack',
      wholeNumbers: NONE,
    },
  ],
  [
    'workspace_role',
    {
      fields: ['workspace_id_hash', 'principal_hash', 'role'],
      verbs: ['grant', 'change_role', 'invite', 'modify', 'create'],
      hashed: new Map([
        ['workspace_id', { field: 'workspace_id_hash', domain: 'workspace' }],
        ['principal', { field: 'principal_hash', domain: 'workspace_principal' }],
      ]),
      caseless: new Set(),
      scope: null,
      provider: 'workspace',
      wholeNumbers: NONE,
    },
  ],
  // Cloud and identity providers: AWS IAM (CloudTrail), Kubernetes RBAC (the audit log), Okta admin roles (the System Log).
  [
    'aws_iam_access_key',
    tenant('aws', 'account', ['create'], ['user_name_hash'], [['user_name', { field: 'user_name_hash', domain: 'aws_iam_user' }]]),
  ],
  // IAM names a role without regard to case (`PROD-admin` is the role `prod-admin`): a rule's role_name glob ignores it too.
  ['aws_iam_role_policy', tenant('aws', 'account', ['attach'], ['role_name', 'policy_arn'], [], new Set(['role_name']))],
  ['k8s_rbac_binding', tenant('kubernetes', 'cluster', ['create'], ['namespace', 'kind', 'name'])],
  ['idp_admin_role', tenant('okta', 'org', ['grant'], ['principal_id'])],
]);

/** The action classes of the table. */
export const KNOWN_CLASSES: readonly string[] = [...CLASSES.keys()];

/** A class's row, or undefined when the gate has no binding rule for it. */
export const classRow = (actionClass: string): ClassRow | undefined => CLASSES.get(actionClass);
