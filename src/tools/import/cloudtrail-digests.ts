/**
 * CloudTrail's own signature (docs/importers.md, "CloudTrail digests"): every hour CloudTrail writes a
 * digest file listing the SHA-256 of each log file it delivered in that hour, and signs it with an
 * AWS key (SHA256withRSA). The signature is not in the file: S3 keeps it in the digest object's
 * metadata (`x-amz-meta-signature`, hex), which the export job saves beside the digest as
 * `<digest file>.sig`. The public keys are `aws cloudtrail list-public-keys` output, committed by the
 * user. A log file is vouched for when a digest whose signature verifies lists its hash; a file no
 * such digest lists is refused before it is read. Nothing here queries AWS.
 *
 * The string AWS signs (AWS CloudTrail User Guide, "Validating CloudTrail log file integrity"): the
 * digest's `digestEndTime`, its S3 path (`digestS3Bucket/digestS3Object`), the hex SHA-256 of the
 * uncompressed digest file, and the previous digest's signature (`null` for a trail's first), one
 * per line. A log file's `hashValue` is the hex SHA-256 of its uncompressed content.
 */
import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import { sha256Hex } from '../../core/binding.js';
import { isObject, type JsonObject, str } from '../../core/json.js';
import type { Result } from '../../core/result.js';
import { cmp, quote } from '../../core/text.js';
import { compareInstants, fromEpochNumber, type Instant, parseRfc3339, rfc3339 } from '../../core/time.js';
import { zlib } from '../../read/builtins.js';
import { strictValue } from '../../read/json/strict.js';
import type { ToolInput } from '../input.js';
import { IAM_EVENT_REGIONS } from './aws-cloudtrail.js';

/** A public key of `list-public-keys`: the key, its fingerprint, the times it signs between. */
interface PublicKey {
  readonly key: KeyObject;
  readonly from: Instant;
  readonly to: Instant;
}

/** A digest whose signature verified: what it lists, and where it is in its trail's chain. */
interface Digest {
  readonly name: string;
  readonly path: string;
  /** The hour it vouches for: digestStartTime to digestEndTime. */
  readonly start: Instant;
  readonly end: Instant;
  readonly fingerprint: string;
  readonly signature: string;
  readonly previous: string | null;
  /** The trail a chain belongs to: the account, region and trail (the digest object's folder and name, without its time). */
  readonly trail: string;
  /** The account and region whose log it is: its S3 path's (signed), which its awsAccountId must repeat. */
  readonly account: string;
  readonly region: string;
  /** Hex SHA-256 of each log file it lists → the log file's S3 object and the span of its events (null: not given). */
  readonly logs: ReadonlyMap<string, LogFile>;
}

interface LogFile {
  readonly s3Object: string;
  readonly oldest: Instant | null;
  readonly newest: Instant | null;
}

/** What the digests vouch for: a log file's hash → the words a record's non_claims carries. */
export interface DigestCheck {
  readonly vouched: ReadonlyMap<string, string>;
  /** Each digest that did not verify, and why (the import fails on any). */
  readonly refused: readonly { readonly file: string; readonly message: string }[];
  /** Gaps in a trail's chain of digests, in words (said; fatal inside a window claimed: `windowUncovered`). */
  readonly gaps: readonly string[];
  readonly digests: number;
  /** Each trail's verified digests, in time order. */
  readonly chains: readonly (readonly Digest[])[];
}

const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('utf8');

/** A gzipped or plain file's bytes, uncompressed (the digests and the log files are gzipped in S3), at most `maxBytes` (the import's --max-file-size). */
function uncompressed(bytes: Uint8Array, maxBytes: number): Result<Buffer> {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return { ok: true, value: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
  try {
    return { ok: true, value: zlib().gunzipSync(bytes, { maxOutputLength: maxBytes }) };
  } catch (error) {
    return { ok: false, reason: `not a gzip file that decompresses within ${maxBytes} bytes (${(error as Error).message})` };
  }
}

/** Seconds after a window in which CloudTrail may still deliver its events: the digest of that hour must be given. */
const DELIVERY_HOUR = 3600;

/** A DER RSA public key, PKCS#1 or SubjectPublicKeyInfo (AWS signs digests SHA256withRSA); null for anything else (an EC or Ed25519 key too). */
function derKey(der: Buffer): KeyObject | null {
  for (const type of ['pkcs1', 'spki'] as const)
    try {
      const key = createPublicKey({ key: der, format: 'der', type });
      return key.asymmetricKeyType === 'rsa' ? key : null;
    } catch {}
  return null;
}

/** An RSA signature check that answers false, never throws, on bytes it cannot take. */
function verifies(data: Buffer, key: KeyObject, signature: Buffer): boolean {
  try {
    return verify('sha256', data, key, signature);
  } catch {
    return false;
  }
}

/** `list-public-keys` output → its keys by fingerprint (lower-case hex). */
function readPublicKeys(input: ToolInput): Result<ReadonlyMap<string, PublicKey>> {
  const parsed = strictValue(text(input.bytes));
  if (!parsed.ok)
    return {
      ok: false,
      reason: `not strict JSON (${parsed.reason}; aws cloudtrail list-public-keys --output json writes {"PublicKeyList": […]})`,
    };
  const value = parsed.value;
  const list = isObject(value) ? value['PublicKeyList'] : undefined;
  if (!Array.isArray(list) || list.length === 0)
    return { ok: false, reason: 'no PublicKeyList (the output of aws cloudtrail list-public-keys)' };
  const keys = new Map<string, PublicKey>();
  for (const [i, entry] of list.entries()) {
    const fingerprint = str(entry, 'Fingerprint')?.toLowerCase();
    const der = str(entry, 'Value');
    if (!fingerprint || !der) return { ok: false, reason: `PublicKeyList[${i}] has no Fingerprint or Value` };
    // The DER encoding of the key, base64 in the CLI's JSON: PKCS#1 (RSAPublicKey) as AWS documents it, or SubjectPublicKeyInfo as one of its samples is.
    const bytes = Buffer.from(der, 'base64');
    // A fingerprint is the MD5 of the key's DER as listed (the AWS CLI's own sample holds so): a key under another key's fingerprint is refused.
    if (createHash('md5').update(bytes).digest('hex') !== fingerprint)
      return {
        ok: false,
        reason: `PublicKeyList[${i}] (${quote(fingerprint, 40)}): its Fingerprint is not the MD5 of its Value: not the key that fingerprint names`,
      };
    const key = derKey(bytes);
    if (!key)
      return {
        ok: false,
        reason: `PublicKeyList[${i}] (${quote(fingerprint, 40)}): Value is not a DER RSA public key (PKCS#1 or SubjectPublicKeyInfo, base64)`,
      };
    // CLI v2 writes ISO 8601 with an offset, CLI v1 seconds since the epoch. A bound that is absent or
    // unreadable is refused: read as no bound, a key would sign for ever (a validity that fails open).
    const time = (k: string): Instant | null => {
      const t = isObject(entry) ? entry[k] : undefined;
      if (typeof t === 'number') return fromEpochNumber(t, 0);
      const parsed = typeof t === 'string' ? parseRfc3339(t) : null;
      return parsed?.ok ? parsed.value : null;
    };
    const from = time('ValidityStartTime');
    const to = time('ValidityEndTime');
    if (from === null || to === null)
      return {
        ok: false,
        reason: `PublicKeyList[${i}] (${quote(fingerprint, 40)}): ${from === null ? 'ValidityStartTime' : 'ValidityEndTime'} is not an RFC 3339 time or seconds since the epoch (when the key signs cannot be told)`,
      };
    keys.set(fingerprint, { key, from, to });
  }
  return { ok: true, value: keys };
}

/** One digest file and its signature → the digest, or why AWS did not sign it (uncompressed, at most `maxBytes`). */
function readDigest(input: ToolInput, signatureHex: string, keys: ReadonlyMap<string, PublicKey>, maxBytes: number): Result<Digest> {
  const bytes = uncompressed(input.bytes, maxBytes);
  if (!bytes.ok) return bytes;
  const parsed = strictValue(bytes.value.toString('utf8'));
  if (!parsed.ok) return { ok: false, reason: `not strict JSON (${parsed.reason}; a CloudTrail digest file, gzipped or not)` };
  const value = parsed.value;
  if (!isObject(value)) return { ok: false, reason: 'not a digest (a JSON object)' };
  const d: JsonObject = value;
  const startText = str(d, 'digestStartTime');
  const endText = str(d, 'digestEndTime');
  const bucket = str(d, 'digestS3Bucket');
  const object = str(d, 'digestS3Object');
  const fingerprint = str(d, 'digestPublicKeyFingerprint')?.toLowerCase() ?? null;
  if (!startText || !endText || !bucket || !object || !fingerprint || !Array.isArray(d['logFiles']))
    return {
      ok: false,
      reason:
        'not a CloudTrail digest (digestStartTime, digestEndTime, digestS3Bucket, digestS3Object, digestPublicKeyFingerprint, logFiles)',
    };
  const place = digestPlace(object, d['awsAccountId']);
  if (!place.ok) return place;
  const start = parseRfc3339(startText);
  if (!start.ok) return { ok: false, reason: `digestStartTime ${start.reason}` };
  const end = parseRfc3339(endText);
  if (!end.ok) return { ok: false, reason: `digestEndTime ${end.reason}` };
  if (str(d, 'digestSignatureAlgorithm') !== 'SHA256withRSA')
    return { ok: false, reason: `digestSignatureAlgorithm is ${JSON.stringify(d['digestSignatureAlgorithm'] ?? null)}, not SHA256withRSA` };
  const key = keys.get(fingerprint);
  if (!key) return { ok: false, reason: `signed by the key ${quote(fingerprint, 40)}, which the public keys file does not list` };
  if (compareInstants(end.value, key.from) < 0 || compareInstants(end.value, key.to) > 0)
    return { ok: false, reason: `signed by the key ${fingerprint} outside its validity` };
  const signature = signatureHex.trim().toLowerCase();
  if (!/^(?:[0-9a-f]{2})+$/.test(signature))
    return { ok: false, reason: 'its .sig is not hex (x-amz-meta-signature as head-object returns it)' };
  const previous = d['previousDigestSignature'];
  const previousText = typeof previous === 'string' ? previous.toLowerCase() : null;
  const signed = `${endText}\n${bucket}/${object}\n${sha256Hex(bytes.value)}\n${previousText ?? 'null'}`;
  if (!verifies(Buffer.from(signed, 'utf8'), key.key, Buffer.from(signature, 'hex')))
    return {
      ok: false,
      reason: `its signature does not verify with the key ${fingerprint}: the digest, or its .sig, is not the one AWS wrote`,
    };
  const logs = new Map<string, LogFile>();
  for (const [i, f] of d['logFiles'].entries()) {
    const file = logFileOf(f);
    // An entry it cannot read is refused: dropped, the log file it lists would never be asked for, and a window claimed without it.
    if ('error' in file)
      return { ok: false, reason: `its logFiles[${i}]${file.named} ${file.error}: which log file it vouches for cannot be said` };
    logs.set(file.hash, file.log);
  }
  return {
    ok: true,
    value: {
      name: input.name,
      path: `${bucket}/${object}`,
      start: start.value,
      end: end.value,
      fingerprint,
      signature,
      previous: previousText,
      trail: trailOf(object),
      account: place.value.account,
      region: place.value.region,
      logs,
    },
  };
}

/**
 * One entry of a digest's `logFiles`: the hex SHA-256 of the log file (CloudTrail writes only
 * `SHA-256`), its S3 object and the span of its events (null or absent: not given); or what is
 * wrong with it, and the S3 object it names when it names one (words for the refusal).
 */
function logFileOf(f: unknown): { readonly hash: string; readonly log: LogFile } | { readonly error: string; readonly named: string } {
  if (!isObject(f)) return { error: 'is not an object', named: '' };
  const s3Object = str(f, 's3Object');
  const named = s3Object ? ` (${quote(s3Object, 120)})` : '';
  if (!s3Object) return { error: 'has no s3Object (text)', named };
  const algorithm = f['hashAlgorithm'];
  if (algorithm !== 'SHA-256')
    return { error: `has hashAlgorithm ${JSON.stringify(algorithm ?? null).slice(0, 40)}, not "SHA-256"`, named };
  const hash = str(f, 'hashValue');
  if (hash === null || !/^[0-9a-fA-F]{64}$/.test(hash)) return { error: 'has no hashValue that is a hex SHA-256', named };
  const oldest = eventTime(f['oldestEventTime']);
  const newest = eventTime(f['newestEventTime']);
  // A time given and unreadable is refused, never read as none: a file a later digest lists would be placed by that digest's hour, not its events.
  if (oldest === undefined) return { error: 'has an oldestEventTime that is not an RFC 3339 time', named };
  if (newest === undefined) return { error: 'has a newestEventTime that is not an RFC 3339 time', named };
  return { hash: hash.toLowerCase(), log: { s3Object, oldest, newest } };
}

/** A log file's event time: the instant, null when not given (absent or null), undefined when given and unreadable. */
function eventTime(given: unknown): Instant | null | undefined {
  if (given === undefined || given === null) return null;
  const t = typeof given === 'string' ? parseRfc3339(given) : null;
  return t?.ok ? t.value : undefined;
}

/**
 * The account and region a digest is of: its S3 object key names them
 * (`[prefix/]AWSLogs/[o-ORG/]ACCOUNT/CloudTrail-Digest/REGION/YYYY/MM/DD/NAME`, part of what AWS
 * signs) and its `awsAccountId` must say the same account; a digest that names none, or two, is
 * refused (whose log it vouches for cannot be said).
 */
function digestPlace(object: string, awsAccountId: unknown): Result<{ readonly account: string; readonly region: string }> {
  const m = /(?:^|\/)AWSLogs\/(?:o-[a-z0-9]+\/)?(\d{12})\/CloudTrail-Digest\/([a-z]{2}(?:-[a-z]+)+-\d+)\/\d{4}\/\d{2}\/\d{2}\/[^/]+$/.exec(
    object,
  );
  const [, account, region] = m ?? [];
  if (account === undefined || region === undefined)
    return {
      ok: false,
      reason: `its digestS3Object (${quote(object, 120)}) is not …/AWSLogs/ACCOUNT/CloudTrail-Digest/REGION/YYYY/MM/DD/…: whose log it vouches for cannot be said`,
    };
  if (awsAccountId !== account)
    return {
      ok: false,
      reason: `its awsAccountId (${typeof awsAccountId === 'string' ? quote(awsAccountId, 40) : typeof awsAccountId}) is not the account its S3 path names (${account})`,
    };
  return { ok: true, value: { account, region } };
}

/**
 * The chain a digest belongs to: its S3 key without the day's folders and its end time
 * (`…/CloudTrail-Digest/REGION/YYYY/MM/DD/ACCOUNT_CloudTrail-Digest_REGION_TRAIL_HOME_YYYYMMDDTHHMMSSZ[_backfill].json.gz`).
 */
function trailOf(object: string): string {
  const slash = object.lastIndexOf('/');
  const folder = object.slice(0, slash).replace(/\/\d{4}\/\d{2}\/\d{2}$/, '');
  const name = object.slice(slash + 1);
  const stem = /^(.*)_\d{8}T\d{6}Z(?:_backfill)?\.json(?:\.gz)?$/.exec(name)?.[1] ?? name;
  return `${folder}/${stem}`;
}

/**
 * The digests (each with its `.sig`) and the public keys → what they vouch for. Every digest must
 * verify, and with an account named (`--account`) be of that account: another account's digests,
 * however complete, vouch for nothing of it. A chain whose digest names a previous signature no
 * digest given has is a gap, said.
 */
export function checkDigests(
  digests: readonly { readonly digest: ToolInput; readonly signature: string }[],
  keysFile: ToolInput,
  maxBytes: number,
  account: string | null,
): Result<DigestCheck> {
  const keys = readPublicKeys(keysFile);
  if (!keys.ok) return { ok: false, reason: `${keysFile.name}: ${keys.reason}` };
  const good: Digest[] = [];
  const refused: { file: string; message: string }[] = [];
  for (const { digest, signature } of digests) {
    const got = readDigest(digest, signature, keys.value, maxBytes);
    if (!got.ok) refused.push({ file: digest.name, message: `this CloudTrail digest is refused: ${got.reason}` });
    else if (account !== null && got.value.account !== account)
      refused.push({
        file: digest.name,
        message: `this CloudTrail digest is refused: it is account ${got.value.account}'s (its awsAccountId and S3 path), not ${quote(account, 40)}'s (--account): it vouches for nothing of that account's log`,
      });
    else good.push(got.value);
  }
  const vouched = new Map<string, string>();
  for (const d of good)
    for (const [hash, { s3Object }] of d.logs)
      vouched.set(
        hash,
        `log file ${s3Object} is AWS's as delivered: listed in the AWS-signed CloudTrail digest ${d.path} (SHA256withRSA, key ${d.fingerprint})`,
      );
  // Each trail's chain in time order: every digest's previous signature is the one before it.
  const gaps: string[] = [];
  const trails = new Map<string, Digest[]>();
  for (const d of good) trails.set(d.trail, [...(trails.get(d.trail) ?? []), d]);
  for (const chain of trails.values()) {
    chain.sort((a, b) => compareInstants(a.end, b.end) || cmp(a.path, b.path));
    for (let i = 1; i < chain.length; i++) {
      const [before, after] = [chain[i - 1], chain[i]];
      if (before && after && after.previous !== before.signature)
        gaps.push(
          `the digest chain has a gap before ${after.path}: its previous digest is not ${before.path} (a digest missing, or one not AWS's)`,
        );
    }
  }
  return { ok: true, value: { vouched, refused, gaps, digests: good.length, chains: [...trails.values()] } };
}

/**
 * What the digests cannot vouch for in a window an import claims to cover (its coverage statement):
 * a gap in a trail's chain, a stretch of the window no digest of the trail spans, a log file listed
 * by a digest whose hour overlaps the window that was not given (`read`: the hashes of the log files
 * read), or no trail of the region IAM logs its calls in. Empty: for every trail given, the window is
 * AWS-signed from end to end and every log file AWS delivered in it was read, and one of those trails
 * is of IAM's region. A statement is never written over less.
 */
export function windowUncovered(check: DigestCheck, since: Instant, until: Instant, read: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  // The events a statement covers (IAM's) are logged in one region: only that region's trail can say
  // the window held none. Other regions' digests, however complete, say nothing of them.
  if (!check.chains.some((chain) => chain.some((d) => IAM_EVENT_REGIONS.has(d.region))))
    problems.push(
      `no digest given is of the region CloudTrail logs IAM's calls in (${[...IAM_EVENT_REGIONS].join(', ')}; given: ${[...new Set(check.chains.flatMap((c) => c.map((d) => d.region)))].sort(cmp).join(', ') || 'none'}): IAM is a global service, and the digests of other regions do not list its events; give that region's digests and log files`,
    );
  const inWindow = (d: Digest): boolean => compareInstants(d.start, until) < 0 && compareInstants(d.end, since) > 0;
  // CloudTrail delivers a log file within minutes of its events, and lists it in the digest of the hour
  // it was delivered in: the window's last events may be listed by the digest of the hour after it
  // (a red team: a statement was written with the 10:58 call in a file delivered at 11:04, unread).
  const after: Instant = { seconds: until.seconds + DELIVERY_HOUR, fraction: until.fraction };
  for (const chain of check.chains) {
    // A break in the chain between two digests of the window (one outside it, of another day given, is only said).
    for (let i = 1; i < chain.length; i++) {
      const [before, after] = [chain[i - 1], chain[i]];
      if (before && after && inWindow(before) && inWindow(after) && after.previous !== before.signature)
        problems.push(`the digest chain has a gap before ${after.path}: its previous digest is not ${before.path}`);
    }
    const byStart = [...chain].sort((a, b) => compareInstants(a.start, b.start));
    // The first stretch of the window no digest of the trail spans, if any.
    let covered = since;
    let hole: Instant | null = null;
    for (const d of byStart) {
      if (compareInstants(d.end, covered) <= 0) continue;
      if (compareInstants(d.start, covered) > 0) {
        hole = d.start;
        break;
      }
      covered = d.end;
    }
    if (compareInstants(covered, after) < 0) {
      const to = hole !== null && compareInstants(hole, after) < 0 ? hole : after;
      problems.push(
        compareInstants(covered, until) >= 0
          ? `no AWS-signed digest of ${byStart[0]?.trail ?? 'the trail'} spans ${rfc3339(covered)} to ${rfc3339(to)}, the hour after the window: CloudTrail delivers a window's last events then, so the window cannot be claimed read to its end; give that hour's digest and the log files it lists (wait for it to be delivered)`
          : `no AWS-signed digest of ${byStart[0]?.trail ?? 'the trail'} spans ${rfc3339(covered)} to ${rfc3339(compareInstants(to, until) < 0 ? to : until)}: what was delivered then cannot be vouched for`,
      );
    }
    // Every log file a digest of the window lists, and every one a digest outside it lists whose events
    // reach into the window (delivered after the hour it happened in: a red team), must have been read.
    // A listed file whose event times are not given may reach into the window too, when its digest is of the hour after it.
    const reaches = (d: Digest, f: LogFile): boolean =>
      f.oldest !== null && f.newest !== null
        ? compareInstants(f.oldest, until) < 0 && compareInstants(f.newest, since) >= 0
        : compareInstants(d.start, after) < 0 && compareInstants(d.end, since) > 0;
    for (const d of chain)
      for (const [hash, f] of d.logs)
        if ((inWindow(d) || reaches(d, f)) && !read.has(hash))
          problems.push(
            inWindow(d)
              ? `log file ${f.s3Object}, listed by the digest ${d.path} in the window, was not given`
              : f.oldest !== null && f.newest !== null
                ? `log file ${f.s3Object}, listed by the digest ${d.path}, holds events from ${rfc3339(f.oldest)} to ${rfc3339(f.newest)}, inside the window, and was not given`
                : `log file ${f.s3Object}, listed by the digest ${d.path} of the hour after the window without its event times (it may hold the window's last events), was not given`,
          );
  }
  return problems;
}

/**
 * A log file vouched for by a verified digest: the words its records carry, and its uncompressed
 * content (hashed once, then read as it is); or why it is refused before it is read.
 */
export function vouchLogFile(
  check: DigestCheck,
  input: ToolInput,
  maxBytes: number,
): Result<{ readonly words: string; readonly bytes: Uint8Array; readonly sha256: string }> {
  const plain = uncompressed(input.bytes, maxBytes);
  if (!plain.ok) return plain;
  const sha256 = sha256Hex(plain.value);
  const words = check.vouched.get(sha256);
  if (words !== undefined) return { ok: true, value: { words, bytes: plain.value, sha256 } };
  return {
    ok: false,
    reason: `no AWS-signed digest lists this log file (sha256 ${sha256}): edited after CloudTrail delivered it, or its digest is not among --cloudtrail-digests (lookup-events output is no log file: import the S3 log files to check them)`,
  };
}
