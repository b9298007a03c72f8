/**
 * AWS CloudTrail → aws_iam_access_key/create and aws_iam_role_policy/attach records
 * (docs/importers.md): log files as CloudTrail writes them to S3 (`{"Records": […]}`, `.json` or
 * `.json.gz`) and `aws cloudtrail lookup-events` output (`{"Events": [{"CloudTrailEvent": "<json>"}]}`).
 * IAM's `CreateAccessKey` (the user's name hashed, domain aws_iam_user) and `AttachRolePolicy`; a
 * call that failed (`errorCode`) changed nothing and is skipped and counted. Record id
 * "aws-cloudtrail:" + eventID; the account is the recipient account; the actor is the caller's ARN,
 * and for an assumed role the role's (what a policy or --actor names).
 */
import { isObject, type JsonObject, obj, str } from '../../core/json.js';
import { targetHash } from '../../core/target-hash.js';
import { strictValue } from '../../read/json/strict.js';
import { idText, type Mapped, oneText } from './mapping.js';
import { type EntryScope, textTime } from './scope.js';
import { tenantWrite } from './tenant-subject.js';

/**
 * The regions CloudTrail logs IAM's calls in: IAM is a global service, and its events are delivered
 * to the trails of US East (N. Virginia), or in the GovCloud and China partitions of us-gov-west-1
 * and cn-north-1 (an account is of one partition). Only digests of these regions can vouch that a
 * window held no IAM event of this importer's (docs/importers.md, CloudTrail's own signature).
 */
export const IAM_EVENT_REGIONS: ReadonlySet<string> = new Set(['us-east-1', 'us-gov-west-1', 'cn-north-1']);

/** A lookup-events entry's event (its CloudTrailEvent is JSON text), or the log file's record itself. */
function eventOf(entry: JsonObject): { readonly event: JsonObject } | { readonly error: string } {
  const text = entry['CloudTrailEvent'];
  if (text === undefined) return { event: entry };
  if (typeof text !== 'string') return { error: 'a lookup-events entry whose CloudTrailEvent is not JSON text' };
  // Read strictly, as the export around it: a duplicate key would make two readers see two events.
  const parsed = strictValue(text);
  if (!parsed.ok) return { error: `a lookup-events entry whose CloudTrailEvent is not JSON, read strictly (${parsed.reason})` };
  return isObject(parsed.value) ? { event: parsed.value } : { error: 'a lookup-events entry whose CloudTrailEvent is not a JSON object' };
}

/** Who called: the caller's ARN, and for an assumed role the role's ARN first (the identity an agent's role has). */
function actorsOf(event: JsonObject): string[] {
  const identity = obj(event, 'userIdentity');
  const arn = str(identity, 'arn');
  const issuer = str(obj(obj(identity, 'sessionContext'), 'sessionIssuer'), 'arn');
  return [...(str(identity, 'type') === 'AssumedRole' && issuer ? [issuer] : []), ...(arn ? [arn] : [])];
}

export function awsCloudTrail(entry: JsonObject): Mapped {
  const read = eventOf(entry);
  if ('error' in read) return { kind: 'error', message: read.error };
  const e = read.event;
  if (str(e, 'eventSource') !== 'iam.amazonaws.com') return { kind: 'skip', reason: 'not an IAM event' };
  const name = str(e, 'eventName');
  if (name !== 'CreateAccessKey' && name !== 'AttachRolePolicy') return { kind: 'skip', reason: 'other IAM event' };
  const id = str(e, 'eventID');
  // A call AWS refused carries errorCode, and errorMessage; either alone is a failure too.
  if ((e['errorCode'] ?? null) !== null || (e['errorMessage'] ?? null) !== null)
    return {
      kind: 'skip',
      reason: 'failed call (errorCode)',
      ...(id ? { event: { kind: 'refused' as const, recordId: `aws-cloudtrail:${id}`, scope: null } } : {}),
    };
  if (!id)
    return {
      kind: 'error',
      message: `${name === 'AttachRolePolicy' ? 'an' : 'a'} ${name} event without an eventID (its record would have no identity)`,
    };
  // The account the call acted in: the recipient's, never guessed from the caller's (a role of another account may call).
  const account = oneText(e, 'recipientAccountId', [[]]);
  if ('error' in account) return { kind: 'error', message: `event ${idText(id)}: ${account.error}` };
  if (account.value === null) return { kind: 'error', message: `event ${idText(id)}: no recipientAccountId` };
  const time = textTime(e['eventTime']);
  if ('error' in time) return { kind: 'error', message: `event ${idText(id)}: ${time.error}` };
  const scope: EntryScope = { actors: actorsOf(e), repo: null, tenant: account.value, time: time.time };
  const params = obj(e, 'requestParameters');
  if (name === 'CreateAccessKey') {
    // Without a userName the key is the caller's own; the response names the user either way. Two
    // different users (or one that is not text) are an error: which key was made cannot be said.
    // IAM user names are unique without regard to case: two places naming one in two cases name one user.
    const named = oneText(e, 'userName', [['requestParameters'], ['responseElements', 'accessKey']], true);
    if ('error' in named) return { kind: 'error', message: `event ${idText(id)}: ${named.error}` };
    const user = named.value;
    if (!user)
      return { kind: 'error', message: `event ${idText(id)}: a CreateAccessKey naming no user (requestParameters or responseElements)` };
    return tenantWrite(
      `aws-cloudtrail:${id}`,
      'aws_iam_access_key',
      'create',
      account.value,
      [['user_name_hash', targetHash('aws_iam_user', user)]],
      scope,
    );
  }
  const role = str(params, 'roleName');
  const policy = str(params, 'policyArn');
  if (!role || !policy) return { kind: 'error', message: `event ${idText(id)}: an AttachRolePolicy without roleName and policyArn` };
  return tenantWrite(
    `aws-cloudtrail:${id}`,
    'aws_iam_role_policy',
    'attach',
    account.value,
    [
      ['role_name', role],
      ['policy_arn', policy],
    ],
    scope,
  );
}
