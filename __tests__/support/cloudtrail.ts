/**
 * CloudTrail digests made offline, in AWS's format (the AWS CloudTrail User Guide, "CloudTrail
 * digest file structure" and "Validating CloudTrail log file integrity"), signed with a key of our
 * own: a digest file listing log files by the SHA-256 of their uncompressed content, its signature
 * (what S3 keeps in the digest object's metadata, hex) over the digest's end time, its S3 path, the
 * SHA-256 of the uncompressed digest and the previous digest's signature, and the public key as
 * `aws cloudtrail list-public-keys` writes it.
 */
import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';

export interface SigningKeyPair {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  /** The fingerprint digests name their key by (hex). */
  readonly fingerprint: string;
}

export function digestKey(): SigningKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const der = publicKey.export({ format: 'der', type: 'pkcs1' });
  return { privateKey, publicKey, fingerprint: createHash('md5').update(der).digest('hex') };
}

/** `aws cloudtrail list-public-keys` output for these keys. */
export const publicKeysJson = (keys: readonly SigningKeyPair[]): string =>
  `${JSON.stringify(
    {
      PublicKeyList: keys.map((k) => ({
        Value: k.publicKey.export({ format: 'der', type: 'pkcs1' }).toString('base64'),
        ValidityStartTime: '2026-01-01T00:00:00Z',
        ValidityEndTime: '2027-01-01T00:00:00Z',
        Fingerprint: k.fingerprint,
      })),
    },
    null,
    2,
  )}\n`;

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const plain = (b: Uint8Array): Buffer => (b[0] === 0x1f && b[1] === 0x8b ? gunzipSync(b) : Buffer.from(b));

export interface DigestSpec {
  readonly account: string;
  /** The region of the trail's digests (default us-east-1, where IAM's calls are logged). */
  readonly region?: string;
  /** The digest's awsAccountId when it is not `account` (a digest that names two accounts). */
  readonly awsAccountId?: string;
  readonly bucket: string;
  readonly start: string;
  readonly end: string;
  /** Log files listed: their S3 object key and bytes (gzipped as delivered, or not). */
  readonly logs: readonly {
    readonly s3Object: string;
    readonly bytes: Uint8Array;
    readonly oldest?: string | null;
    readonly newest?: string | null;
    /** Edits its logFiles entry before the digest is signed (a malformed entry AWS's key signed). */
    readonly edit?: (entry: Record<string, unknown>) => void;
  }[];
  /** The previous digest in the chain (its S3 path and signature), or null for the first. */
  readonly previous: { readonly bucket: string; readonly object: string; readonly signature: string; readonly sha256: string } | null;
}

/** A digest file (gzipped, as S3 holds it), its S3 object key, its signature (hex) and the SHA-256 of its uncompressed content. */
export function makeDigest(
  spec: DigestSpec,
  key: SigningKeyPair,
): { name: string; object: string; gz: Buffer; signature: string; sha256: string } {
  const stamp = spec.end.replace(/[-:]/g, '');
  const region = spec.region ?? 'us-east-1';
  const name = `${spec.account}_CloudTrail-Digest_${region}_agents-trail_us-east-1_${stamp}.json.gz`;
  const object = `AWSLogs/${spec.account}/CloudTrail-Digest/${region}/${spec.end.slice(0, 4)}/${spec.end.slice(5, 7)}/${spec.end.slice(8, 10)}/${name}`;
  const digest = {
    awsAccountId: spec.awsAccountId ?? spec.account,
    digestStartTime: spec.start,
    digestEndTime: spec.end,
    digestS3Bucket: spec.bucket,
    digestS3Object: object,
    digestPublicKeyFingerprint: key.fingerprint,
    digestSignatureAlgorithm: 'SHA256withRSA',
    newestEventTime: spec.logs.length > 0 ? spec.end : null,
    oldestEventTime: spec.logs.length > 0 ? spec.start : null,
    previousDigestS3Bucket: spec.previous?.bucket ?? null,
    previousDigestS3Object: spec.previous?.object ?? null,
    previousDigestHashValue: spec.previous?.sha256 ?? null,
    previousDigestHashAlgorithm: spec.previous ? 'SHA-256' : null,
    previousDigestSignature: spec.previous?.signature ?? null,
    logFiles: spec.logs.map((l) => {
      const entry: Record<string, unknown> = {
        s3Bucket: spec.bucket,
        s3Object: l.s3Object,
        hashValue: sha256(plain(l.bytes)),
        hashAlgorithm: 'SHA-256',
        newestEventTime: l.newest === undefined ? spec.end : l.newest,
        oldestEventTime: l.oldest === undefined ? spec.start : l.oldest,
      };
      l.edit?.(entry);
      return entry;
    }),
  };
  const bytes = Buffer.from(JSON.stringify(digest));
  const digestSha = sha256(bytes);
  const signed = `${spec.end}\n${spec.bucket}/${object}\n${digestSha}\n${spec.previous?.signature ?? 'null'}`;
  const signature = sign('sha256', Buffer.from(signed), key.privateKey).toString('hex');
  return { name, object, gz: gzipSync(bytes), signature, sha256: digestSha };
}
