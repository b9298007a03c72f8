/**
 * The import kinds, one module each, in one registry (docs/importers.md): what the export is, where
 * its entries sit, how it names places (GitHub's owner/repo, or none), its mapper and the CLASS:VERB
 * pairs it maps per provider (what its coverage statements name). The engine (run.ts) and the CLI
 * read a kind only through its row: a new kind is a module and a row here, and a kind without a
 * row does not compile.
 */

import { classRow } from '../../core/classes.js';
import { hasOwn, isObject, type JsonObject } from '../../core/json.js';
import { EXPORT_SHAPES } from '../../read/provider-exports.js';
import { awsCloudTrail } from './aws-cloudtrail.js';
import { githubAuditLog } from './github-audit-log.js';
import { githubWebhook } from './github-webhook.js';
import { k8sAudit } from './k8s-audit.js';
import type { Mapper } from './mapping.js';
import type { ImportKind } from './names.js';
import { oktaSystemLog } from './okta-system-log.js';
import { type SlackOptions, slackAuditLog } from './slack.js';

/** A webhook delivery, or a raw payload of some event: never an API error body (`{"message": …, "documentation_url": …}`). */
const anyWebhookEntry = (e: JsonObject): boolean =>
  EXPORT_SHAPES['github-webhook'](e) ||
  typeof e['guid'] === 'string' ||
  isObject(e['request']) ||
  typeof e['action'] === 'string' ||
  ['sender', 'repository', 'organization', 'installation', 'enterprise', 'hook'].some((k) => hasOwn(e, k) && isObject(e[k]));

/** What an import is given besides its files: Slack's choices, and the tenant a tenant's log is (--account, --cluster, --org). */
export interface ImportOptions {
  readonly slack: SlackOptions;
  /** The tenant the user named, or null. */
  readonly tenant: string | null;
}

/** The flags that name a tenant, one per kind of tenant. */
type TenantFlag = 'account' | 'cluster' | 'org';

export interface ImporterModule {
  /** What the export is, as a record's non_claims name it. */
  readonly source: string;
  /** The members of a top-level object that hold the entries (Slack's `entries`, CloudTrail's `Records`), if any. */
  readonly listKeys: readonly string[];
  /**
   * How its entries name places: `github` (owner/name repositories; logins compared without ASCII
   * case; a coverage window needs --owner or --repo), `none` (a workspace's whole log; actor ids
   * compare exactly; --repo and --owner are refused, with these words), or `tenant` (one tenant's
   * log, named by its flag: always when the entries do not name it, else with a window; a
   * statement's `owner` is the tenant).
   */
  readonly places:
    | { readonly kind: 'github' }
    | { readonly kind: 'none'; readonly noRepo: string; readonly noOwner: string }
    | { readonly kind: 'tenant'; readonly flag: TenantFlag; readonly word: string; readonly always: boolean };
  /**
   * Whether an object can be an entry of the export at all: under a window, one that cannot (an API
   * error body a paging script appended) is refused. Most kinds: the kind's shape
   * (read/provider-exports.ts EXPORT_SHAPES). Webhook deliveries: a delivery, or a raw payload of any
   * event (only some have a shape of their own; every one names a sender, repository, organisation,
   * installation, enterprise, hook or action).
   */
  readonly isEntry: (entry: JsonObject) => boolean;
  /** Its mapper, given the kind's options (the kinds that take none ignore them). */
  readonly mapper: (options: ImportOptions) => Mapper;
  /** The CLASS:VERB pairs it maps, per provider it writes records for (every one gets a statement). */
  readonly actions: (options: ImportOptions) => ReadonlyMap<string, readonly string[]>;
}

/**
 * The CLASS:VERB pairs of these classes, every verb the class table gives them: what an import of
 * GitHub's records maps (its mappers write exactly these classes), one list per provider.
 */
const classActions =
  (provider: string, ...classes: readonly string[]) =>
  (): ReadonlyMap<string, readonly string[]> =>
    new Map([[provider, classes.flatMap((c) => (classRow(c)?.verbs ?? []).map((v) => `${c}:${v}`)).sort()]]);
const githubActions = (...classes: readonly string[]) => classActions('github', ...classes);

/** What GitHub's audit log maps: deploy keys created, collaborators added. */
const AUDIT_LOG_ACTIONS = githubActions('github_deploy_key', 'github_repo_member');

/** What webhook deliveries map: deploy keys and every write of the github_* rows (docs/importers.md). */
const WEBHOOK_ACTIONS = githubActions(
  'github_deploy_key',
  'github_issue',
  'github_issue_comment',
  'github_pull_request',
  'github_branch_push',
  'github_label',
  'github_repo_member',
);

/** Slack's providers and their actions: workspace_member adds, and each role change's verb. */
function slackActions({ slack }: ImportOptions): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, string[]>();
  const add = (provider: string, action: string) => {
    const list = out.get(provider) ?? [];
    if (!list.includes(action)) list.push(action);
    out.set(provider, list);
  };
  add(slack.memberProvider, 'workspace_member:add');
  for (const verb of slack.roleVerbs.values()) add(slack.roleProvider, `workspace_role:${verb}`);
  for (const list of out.values()) list.sort();
  return out;
}

const IMPORTERS = {
  'github-audit-log': {
    source: 'a GitHub audit-log export',
    listKeys: [],
    places: { kind: 'github' },
    isEntry: EXPORT_SHAPES['github-audit-log'],
    mapper: () => githubAuditLog,
    actions: AUDIT_LOG_ACTIONS,
  },
  'github-webhook': {
    source: 'GitHub webhook deliveries',
    listKeys: [],
    places: { kind: 'github' },
    isEntry: anyWebhookEntry,
    mapper: () => githubWebhook,
    actions: WEBHOOK_ACTIONS,
  },
  'slack-audit-log': {
    source: 'a Slack Audit Logs API export',
    listKeys: ['entries'],
    places: { kind: 'none', noRepo: 'Slack audit entries name no repository', noOwner: 'Slack audit entries name no organisation' },
    isEntry: EXPORT_SHAPES['slack-audit-log'],
    mapper: ({ slack }) => slackAuditLog(slack),
    actions: slackActions,
  },
  'aws-cloudtrail': {
    source: 'AWS CloudTrail',
    listKeys: ['Records', 'Events'],
    places: { kind: 'tenant', flag: 'account', word: 'account', always: false },
    isEntry: EXPORT_SHAPES['aws-cloudtrail'],
    mapper: () => awsCloudTrail,
    actions: classActions('aws', 'aws_iam_access_key', 'aws_iam_role_policy'),
  },
  'k8s-audit': {
    source: 'a Kubernetes audit log',
    listKeys: ['items'],
    places: { kind: 'tenant', flag: 'cluster', word: 'cluster', always: true },
    isEntry: EXPORT_SHAPES['k8s-audit'],
    mapper: ({ tenant }) => k8sAudit(tenant ?? ''),
    actions: classActions('kubernetes', 'k8s_rbac_binding'),
  },
  'okta-system-log': {
    source: 'the Okta System Log',
    listKeys: [],
    places: { kind: 'tenant', flag: 'org', word: 'org', always: true },
    isEntry: EXPORT_SHAPES['okta-system-log'],
    mapper: ({ tenant }) => oktaSystemLog(tenant ?? ''),
    actions: classActions('okta', 'idp_admin_role'),
  },
} as const satisfies { readonly [kind in ImportKind]: ImporterModule };

/** A kind's module (typed: every kind has one). */
export const importer = (kind: ImportKind): ImporterModule => IMPORTERS[kind];
