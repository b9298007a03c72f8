/**
 * The `import` command's option table, apart from its code: the command (import.ts) names it in the
 * usage without loading an importer, and its run (run-import.ts) reads the flags through it.
 */
import { type Flags, LIMITS, type OptionSpec, SIGNED_AT } from '../options.js';

export const IMPORT_OPTIONS = [
  { flag: 'output', kind: 'string', arg: 'FILE', help: 'the records (NDJSON; required)' },
  { flag: 'sign-key', kind: 'string', arg: 'FILE', help: 'sign every record with this Ed25519 private key' },
  {
    flag: 'predicate',
    kind: 'string',
    arg: 'FILE',
    help: 'also write the records predicate (kind, scope, entries read, records written) for actions/attest predicate-path',
  },
  {
    flag: 'actor',
    kind: 'list',
    arg: 'LOGIN',
    help: "the agent's identity: keep only entries by it (GitHub actor, a delivery's sender.login, Slack actor.user.id or email); repeatable",
  },
  {
    flag: 'repo',
    kind: 'list',
    arg: 'OWNER/NAME',
    help: 'GitHub: keep only entries of this repository (case-insensitive); repeatable',
  },
  {
    flag: 'owner',
    kind: 'string',
    arg: 'ORG',
    help: "GitHub: keep only entries of this organisation's repositories (case-insensitive); an organisation-wide export's scope",
  },
  {
    flag: 'account',
    kind: 'string',
    arg: 'ID',
    help: 'aws-cloudtrail: the AWS account the log is of (keep only its entries); required with --since/--until',
  },
  {
    flag: 'cluster',
    kind: 'string',
    arg: 'NAME',
    help: 'k8s-audit (required): the cluster the audit log is of, as the agent’s mapping names it',
  },
  {
    flag: 'org',
    kind: 'string',
    arg: 'NAME',
    help: 'okta-system-log (required): the Okta org the System Log is of, as the agent’s mapping names it',
  },
  {
    flag: 'since',
    kind: 'string',
    arg: 'TIME',
    help: "keep only entries at or after TIME (the entry's own time; RFC 3339, or YYYY-MM-DD for midnight UTC)",
  },
  {
    flag: 'until',
    kind: 'string',
    arg: 'TIME',
    help: 'keep only entries before TIME (the window is [since, until)); with both, the output starts with what the export covered (docs/coverage.md), and a quiet window still writes it',
  },
  {
    flag: 'now',
    kind: 'string',
    arg: 'TIME',
    help: "the import's clock (RFC 3339), for tests and reproducible runs: --until must not be after it, and statements record it as exported_at. Default: now",
  },
  {
    flag: 'cloudtrail-digests',
    kind: 'string',
    arg: 'DIR',
    help: "aws-cloudtrail: CloudTrail's digest files (each with <digest>.sig: the signature S3 keeps in the object's metadata); every log file must be listed by a digest AWS signed",
  },
  {
    flag: 'cloudtrail-public-keys',
    kind: 'string',
    arg: 'FILE',
    help: 'aws-cloudtrail: the output of aws cloudtrail list-public-keys (the keys the digests are signed with)',
  },
  SIGNED_AT,
  { flag: 'principal', kind: 'string', arg: 'id|email', default: 'id', help: 'Slack: what the agent passed as the user' },
  { flag: 'workspace', kind: 'string', arg: 'context|none', default: 'context', help: 'Slack: whether the agent passed the workspace' },
  {
    flag: 'role-verb',
    kind: 'list',
    arg: 'ROLE=VERB',
    default: 'admin=grant, owner=grant, user=change_role, guest=change_role',
    help: 'Slack: the verb of a role change; repeatable',
  },
  { flag: 'member-provider', kind: 'string', arg: 'NAME', default: 'slack', help: 'Slack: the provider of workspace_member records' },
  { flag: 'role-provider', kind: 'string', arg: 'NAME', default: 'workspace', help: 'Slack: the provider of workspace_role records' },
  ...LIMITS,
] as const satisfies readonly OptionSpec[];

export type ImportFlags = Flags<typeof IMPORT_OPTIONS>;
