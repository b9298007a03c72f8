/**
 * Keyless trust (docs/keyless.md): a Sigstore bundle beside a file, checked offline against trusted
 * roots with `@sigstore/verify`, then by workflow identity, in the doc's order: the bundle parses
 * (a supported version with a DSSE in-toto envelope); the certificate chains to a CA of the root
 * valid at a signing time a log entry or a timestamp of the root vouches for, with SCTs when the
 * root lists CT logs, and the DSSE signature verifies; the SAN equals a trusted identity and the
 * issuer extensions equal the issuer; the Source Repository URI and Ref extensions name the source
 * repository and an allowed ref; then the Statement (one subject, one sha256 digest of the file's
 * exact bytes, the file's base name, the predicate type). Nothing is ever fetched. This module is
 * loaded (dynamically) only when an identity is configured.
 */
import path from 'node:path';
import { bundleFromJSON, isBundleWithDsseEnvelope } from '@sigstore/bundle';
import type { X509Certificate } from '@sigstore/core';
import { TrustedRoot } from '@sigstore/protobuf-specs';
import { toSignedEntity, toTrustMaterial, Verifier } from '@sigstore/verify';
import { jcs, sha256Hex } from '../core/binding.js';
import { type Finding, placeOf } from '../core/findings.js';
import { isObject, type JsonObject } from '../core/json.js';
import type { Result } from '../core/result.js';
import { asciiLower, messageOf, quote } from '../core/text.js';
import { compareInstants, type Instant, parseRfc3339 } from '../core/time.js';
import { refusalText } from '../core/trust.js';
import { type Doc, decode, documents, LocatingSink } from '../read/documents.js';
import { IN_TOTO_PAYLOAD_TYPE, onlySubject, STATEMENT_TYPE, strictPayload } from '../read/envelope.js';
import { offsetAt } from '../read/json/scanner.js';
import type { ReadLimits } from '../read/limits.js';
import { PUBLIC_GOOD_ROOT } from './public-good-root.generated.js';
import { type Refusal, refuse } from './refusal.js';

/** Fulcio's certificate extensions (https://github.com/sigstore/fulcio/blob/main/docs/oid-info.md). */
const OID = {
  issuerV1: '1.3.6.1.4.1.57264.1.1',
  issuer: '1.3.6.1.4.1.57264.1.8',
  sourceRepositoryUri: '1.3.6.1.4.1.57264.1.12',
  sourceRepositoryRef: '1.3.6.1.4.1.57264.1.14',
} as const;

/** Who may sign, for one trust set: identities (SAN URIs), the source repository and refs, the issuer. */
export interface IdentityPolicy {
  readonly identities: ReadonlySet<string>;
  /** OWNER/NAME, compared without regard to ASCII case. */
  readonly sourceRepository: string;
  readonly sourceRefs: ReadonlySet<string>;
  readonly issuer: string;
}

/** One trusted root, ready for the verifier, and whether it lists CT logs (then SCTs are required). */
export interface Root {
  /** The root's verifier, built once: one log entry or one timestamp (GitHub's own instance writes timestamps and no log entry); SCTs when the root lists CT logs. */
  readonly verifier: Verifier;
  /** The log ids (base64) of its transparency logs: a log entry of another log means a root out of date, not a forgery. */
  readonly tlogIds: ReadonlySet<string>;
  /** How many timestamp authorities it holds. */
  readonly timestampAuthorities: number;
  /** Hex sha256 of its canonical JSON (JCS): what the report's policy names it by. */
  readonly sha256: string;
}

/** What a passing bundle says about who signed, for the report. */
export interface KeylessSigner {
  readonly identity: string;
  readonly sourceRepository: string;
  readonly sourceRef: string;
  readonly issuer: string;
  /** The signing time a log entry or a timestamp vouched for (RFC 3339 UTC, whole seconds). */
  readonly signedAt: string;
}

/** What the Statement's predicate type must be for the file it is beside. */
export type PredicateKind = { readonly type: string; readonly check?: (predicate: unknown) => Result };

/**
 * A file's JSON values (one value, pretty-printed or not, or one compact value per line) through the
 * one document pipeline, its problems located by the one sink.
 */
function valuesOf(
  name: string,
  bytes: Uint8Array,
  limits: ReadLimits,
): { readonly docs: readonly Doc[]; readonly sink: LocatingSink; readonly text: string } {
  const sink = new LocatingSink(name);
  const decoded = decode(bytes, limits, sink);
  if (!decoded) return { docs: [], sink, text: '' };
  sink.lines = decoded.lines;
  return { docs: [...documents(decoded.text, 'oneOrLines', { limits, collect: [] }, sink)], sink, text: decoded.text };
}

/** Trusted roots from a file's text: one trusted root, or JSON lines of them (`gh attestation trusted-root`). */
export function parseTrustedRoots(name: string, text: string, limits: ReadLimits): Result<Root[]> {
  const { docs, sink, text: decoded } = valuesOf(name, Buffer.from(text, 'utf8'), limits);
  // A file that does not read is said first: the documents recovered past a parse error (a trailing
  // comma, a duplicate key in a hand-edited root) are fragments, whose shape is no root's (a red team:
  // a typo at line 82 was reported at line 85 as "not a Sigstore trusted root").
  const problem = sink.findings[0];
  // The sink's findings are located (file, line, column): the one sink's only kind.
  if (problem)
    return { ok: false, reason: `${problem.file === null ? name : placeOf(problem, true)}: not a trusted root: ${problem.message}` };
  const roots: Root[] = [];
  for (const doc of docs) {
    const result = rootOf(doc.value);
    if (!result.ok) {
      // A problem of one member (a validFor's bound) is placed at that member, found in the text only now (a red team:
      // a root's 1:1 sent the reader through a file of hundreds of lines); the root's own problems at its start.
      const at = result.reason.at && offsetAt(decoded, doc.start, result.reason.at, { maxDepth: limits.maxDepth });
      return { ok: false, reason: `${placeOf(sink.at(typeof at === 'number' ? at : doc.start), true)}: ${result.reason.text}` };
    }
    roots.push(result.value);
  }
  if (roots.length === 0) return { ok: false, reason: `${name}: holds no trusted root` };
  return { ok: true, value: roots };
}

/** A trusted-roots file's text, named for messages as `LABEL FILE`; null (no file): the shipped public-good root. */
export type RootsSource = { readonly name: string; readonly text: string } | null;

/** The roots a source holds (the public-good root for none). */
export function rootsFrom(source: RootsSource, limits: ReadLimits): Result<Root[]> {
  return source === null ? { ok: true, value: publicGoodRoots() } : parseTrustedRoots(source.name, source.text, limits);
}

/**
 * The first key or authority of a trusted root whose validity interval bounds nothing, and why, or
 * null: a validFor without a start (the library alone reads it as open), with a start or an end
 * that is not an RFC 3339 time (the library reads an invalid date, and every certificate then fails
 * to chain: a configuration mistake that would read as forged evidence), or with an end before its
 * start (a window with no instant in it, which fails every certificate the same way).
 */
function unboundedKey(value: JsonObject): Required<RootProblem> | null {
  const lists: readonly [string, (entry: JsonObject) => unknown][] = [
    ['tlogs', (e) => (isObject(e['publicKey']) ? e['publicKey']['validFor'] : undefined)],
    ['ctlogs', (e) => (isObject(e['publicKey']) ? e['publicKey']['validFor'] : undefined)],
    ['certificateAuthorities', (e) => e['validFor']],
    ['timestampAuthorities', (e) => e['validFor']],
  ];
  for (const [name, validFor] of lists) {
    const list = value[name];
    if (!Array.isArray(list)) continue;
    for (const [i, e] of list.entries()) {
      if (!isObject(e)) continue;
      const f = validFor(e);
      if (f === undefined) continue;
      // Where the validFor is (a tlog's or ctlog's under its publicKey), for the member a problem is placed at.
      const at: JsonPath = name === 'tlogs' || name === 'ctlogs' ? [name, i, 'publicKey', 'validFor'] : [name, i, 'validFor'];
      if (!isObject(f) || f['start'] === undefined || f['start'] === null)
        return { text: `${name}[${i}] has a validFor without a start`, at };
      const times: { readonly text: string; readonly at: Instant }[] = [];
      for (const bound of ['start', 'end'] as const) {
        const given = f[bound];
        // An end absent (or null, protobuf's JSON for absent) leaves the interval open at its end, as the library reads it.
        if (bound === 'end' && (given === undefined || given === null)) continue;
        const problem = (text: string): Required<RootProblem> => ({
          text: `${name}[${i}] has a validFor whose ${bound} ${text}`,
          at: [...at, bound],
        });
        if (typeof given !== 'string') return problem(`is not an RFC 3339 date-time (a ${given === null ? 'null' : typeof given})`);
        const time = parseRfc3339(given);
        if (!time.ok) return problem(`${JSON.stringify(quote(given, 80))} ${time.reason}`);
        // A leap second is an RFC 3339 time the library's Date reads as none (every certificate would then fail to chain).
        if (Number.isNaN(Date.parse(given)))
          return problem(`${JSON.stringify(quote(given, 80))} is a time the Sigstore library cannot read (a leap second: write :59)`);
        times.push({ text: given, at: time.value });
      }
      // The interval is closed ([start, end]: the library keeps a key at both ends): an end before its start holds no instant,
      // and the key or authority would vouch for nothing, every certificate or entry then failing as a forgery would (a red team).
      const [start, end] = times;
      if (start && end && compareInstants(end.at, start.at) < 0)
        return {
          text: `${name}[${i}] has a validFor whose end ${JSON.stringify(quote(end.text, 80))} is before its start ${JSON.stringify(quote(start.text, 80))}: it holds no instant (swapped?)`,
          at: [...at, 'end'],
        };
    }
  }
  return null;
}

/** The trusted-root media types (versions) this gate reads; any other is refused, never guessed at. */
const ROOT_MEDIA_TYPES: ReadonlySet<string> = new Set([
  'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
  'application/vnd.dev.sigstore.trustedroot.v0.2+json',
]);

/** The bundle media types (versions) this gate reads (docs/keyless.md); any other is refused, never guessed at. */
const BUNDLE_MEDIA_TYPES: ReadonlySet<string> = new Set([
  'application/vnd.dev.sigstore.bundle+json;version=0.1',
  'application/vnd.dev.sigstore.bundle+json;version=0.2',
  'application/vnd.dev.sigstore.bundle+json;version=0.3',
  'application/vnd.dev.sigstore.bundle.v0.3+json',
]);

/** Keys and indices from a JSON value to one of its members. */
type JsonPath = readonly (string | number)[];

/** Why a value is no trusted root, and the member the problem is in when it is one member's (placed there). */
interface RootProblem {
  readonly text: string;
  readonly at?: JsonPath;
}

function rootOf(value: unknown): Result<Root, RootProblem> {
  if (
    !isObject(value) ||
    typeof value['mediaType'] !== 'string' ||
    !value['mediaType'].startsWith('application/vnd.dev.sigstore.trustedroot')
  )
    return { ok: false, reason: { text: 'not a Sigstore trusted root (mediaType application/vnd.dev.sigstore.trustedroot+json)' } };
  if (!ROOT_MEDIA_TYPES.has(value['mediaType']))
    return {
      ok: false,
      reason: {
        text: `a trusted root of an unsupported version (mediaType ${JSON.stringify(quote(value['mediaType']))}; supported: ${[...ROOT_MEDIA_TYPES].join(', ')})`,
      },
    };
  // A validity interval without its start is malformed, never unbounded (the library alone reads it as open);
  // one whose start or end is no time bounds nothing (the library reads an invalid date: no certificate chains).
  const unbounded = unboundedKey(value);
  if (unbounded) return { ok: false, reason: { text: `the trusted root is malformed: ${unbounded.text}`, at: unbounded.at } };
  let root: TrustedRoot;
  try {
    root = TrustedRoot.fromJSON(value);
  } catch (error) {
    return { ok: false, reason: { text: `not a trusted root: ${messageOf(error)}` } };
  }
  if (root.certificateAuthorities.length === 0) return { ok: false, reason: { text: 'the trusted root has no certificate authority' } };
  try {
    const verifier = new Verifier(toTrustMaterial(root), {
      tlogThreshold: 0,
      timestampThreshold: 1,
      ctlogThreshold: root.ctlogs.length > 0 ? 1 : 0,
    });
    const tlogIds = new Set(root.tlogs.flatMap((t) => (t.logId ? [Buffer.from(t.logId.keyId).toString('base64')] : [])));
    const canonical = jcs(value);
    const sha256 = sha256Hex(canonical.ok ? canonical.text : JSON.stringify(value));
    return { ok: true, value: { verifier, tlogIds, timestampAuthorities: root.timestampAuthorities.length, sha256 } };
  } catch (thrown) {
    return { ok: false, reason: { text: `the trusted root does not load: ${messageOf(thrown)}` } };
  }
}

let publicGood: Root[] | null = null;
/** The Sigstore public-good root shipped in the bundle (scripts/gen-trusted-root.mjs). */
export function publicGoodRoots(): Root[] {
  if (!publicGood) {
    const result = rootOf(JSON.parse(PUBLIC_GOOD_ROOT.json));
    if (!result.ok) throw new Error(`the shipped public-good root does not load: ${result.reason.text}`);
    publicGood = [result.value];
  }
  return publicGood;
}

/** A Fulcio extension's text: a DER UTF8String for the current OIDs, raw bytes for the legacy issuer. */
function extensionText(cert: X509Certificate, oid: string, legacy = false): string | undefined {
  const ext = cert.extension(oid);
  if (!ext) return undefined;
  // The legacy extension is raw bytes: each byte one character (latin1), never 'ascii', which clears
  // the high bit and would read another issuer's bytes as the trusted one.
  return legacy ? ext.value.toString('latin1') : ext.valueObj.subs[0]?.value.toString('utf8');
}

/** Step 3: the SAN equals a trusted identity, and every issuer extension (current and legacy) equals the issuer. */
export function checkSigner(
  cert: X509Certificate,
  identities: ReadonlySet<string>,
  issuer: string,
): Result<{ readonly san: string; readonly issuer: string }> {
  const san = cert.subjectAltName;
  if (san === undefined || !identities.has(san))
    return { ok: false, reason: `certificate identity ${JSON.stringify(quote(san ?? '(none)'))} is not trusted` };
  const issuers = [extensionText(cert, OID.issuer), extensionText(cert, OID.issuerV1, true)].filter((i): i is string => i !== undefined);
  if (issuers.length === 0) return { ok: false, reason: 'the certificate has no OIDC issuer extension' };
  for (const i of issuers)
    if (i !== issuer) return { ok: false, reason: `certificate issuer ${JSON.stringify(quote(i))} is not ${issuer}` };
  return { ok: true, value: { san, issuer } };
}

/** Steps 3 and 4: who signed, and for which repository and ref. */
function checkIdentity(cert: X509Certificate, policy: IdentityPolicy): Result<Omit<KeylessSigner, 'signedAt'>, Refusal> {
  const signer = checkSigner(cert, policy.identities, policy.issuer);
  if (!signer.ok) return refuse('identity_untrusted', signer.reason);
  const { san } = signer.value;
  const repo = extensionText(cert, OID.sourceRepositoryUri);
  const ref = extensionText(cert, OID.sourceRepositoryRef);
  if (repo === undefined || ref === undefined)
    return refuse('source_untrusted', 'the certificate has no Source Repository URI and Ref extensions (a workflow identity needs both)');
  const want = `https://github.com/${policy.sourceRepository}`;
  if (asciiLower(repo) !== asciiLower(want))
    return refuse('source_untrusted', `source repository ${JSON.stringify(quote(repo))} is not ${want}`);
  if (!policy.sourceRefs.has(ref)) return refuse('source_untrusted', `source ref ${JSON.stringify(quote(ref))} is not allowed`);
  return { ok: true, value: { identity: san, sourceRepository: repo, sourceRef: ref, issuer: signer.value.issuer } };
}

/** The earliest signing time the bundle's log entries or timestamps vouch for (what the verifier checked the certificate at). */
function signingTime(bundle: ReturnType<typeof toSignedEntity>): string {
  const times: number[] = [];
  for (const t of bundle.timestamps) {
    if (t.$case === 'transparency-log') times.push(Number(t.tlogEntry.integratedTime) * 1000);
    else times.push(t.timestamp.signingTime.getTime());
  }
  const first = Math.min(...times);
  return Number.isFinite(first) ? new Date(first).toISOString().replace(/\.\d+Z$/, 'Z') : '(unknown)';
}

/** A Sigstore bundle's parsed form, or why a value is not one (another version included: never guessed at). */
function parseBundle(value: unknown): Result<ReturnType<typeof bundleFromJSON>> {
  const mediaType = isObject(value) ? value['mediaType'] : undefined;
  if (typeof mediaType === 'string' && !BUNDLE_MEDIA_TYPES.has(mediaType))
    return {
      ok: false,
      reason: `a Sigstore bundle of an unsupported version (mediaType ${JSON.stringify(quote(mediaType))}; supported: ${[...BUNDLE_MEDIA_TYPES].join(', ')})`,
    };
  try {
    return { ok: true, value: bundleFromJSON(value) };
  } catch (error) {
    return { ok: false, reason: `not a Sigstore bundle: ${messageOf(error)}` };
  }
}

/**
 * The Sigstore layer itself (step 2 of docs/keyless.md): a certificate-signed bundle verified by
 * `@sigstore/verify` against one of the roots (one log entry or one timestamp; SCTs when the root
 * lists CT logs). `artifact`: the signed bytes of a message-signature bundle (DSSE carries its own).
 */
export function verifySigned(
  value: unknown,
  roots: readonly Root[],
  artifact?: Uint8Array,
): Result<{
  readonly entity: ReturnType<typeof toSignedEntity>;
  readonly cert: X509Certificate;
  readonly bundle: ReturnType<typeof bundleFromJSON>;
}> {
  const parsed = parseBundle(value);
  if (!parsed.ok) return parsed;
  const verified = verifyBundle(parsed.value, roots, artifact);
  return verified.ok ? verified : { ok: false, reason: verified.reason.detail };
}

/** The verifier's cause, as far as it says: the certificate's chain, a log or a timestamp authority. */
const causeOf = (thrown: unknown): string => {
  const cause = thrown instanceof Error && thrown.cause instanceof Error ? `: ${thrown.cause.message}` : '';
  return `${thrown instanceof Error ? thrown.message : String(thrown)}${cause}`;
};

/**
 * Why a bundle that did not verify against any root failed, told apart from a forgery where the root
 * says so: a certificate that chains to no CA of any root, a log entry whose log no root holds, or a
 * timestamp when no root holds a timestamp authority is a root out of date (or the wrong root).
 */
function whyNotVerified(bundle: ReturnType<typeof bundleFromJSON>, roots: readonly Root[], first: unknown): Refusal {
  const why = causeOf(first);
  const code = first instanceof Error && 'code' in first ? String(first.code) : '';
  const entries = bundle.verificationMaterial.tlogEntries;
  const knownLog = entries.some(
    (t) => t.logId !== undefined && roots.some((r) => r.tlogIds.has(Buffer.from(t.logId?.keyId ?? []).toString('base64'))),
  );
  const stamps = bundle.verificationMaterial.timestampVerificationData?.rfc3161Timestamps.length ?? 0;
  const text = `the signature does not verify against the trusted root: ${why}`;
  if (code === 'CERTIFICATE_ERROR' && /no (valid|trusted) certificate path/.test(why))
    return { code: 'chain_untrusted', detail: `${text} (the certificate chains to no certificate authority of the trusted root)` };
  if (entries.length > 0 && !knownLog && stamps === 0)
    return { code: 'log_unknown', detail: `${text} (its transparency log is not in the trusted root)` };
  if (stamps > 0 && entries.length === 0 && roots.every((r) => r.timestampAuthorities === 0))
    return { code: 'log_unknown', detail: `${text} (the trusted root holds no timestamp authority)` };
  return { code: 'signature_invalid', detail: text };
}

function verifyBundle(
  bundle: ReturnType<typeof bundleFromJSON>,
  roots: readonly Root[],
  artifact?: Uint8Array,
): Result<
  {
    readonly entity: ReturnType<typeof toSignedEntity>;
    readonly cert: X509Certificate;
    readonly bundle: ReturnType<typeof bundleFromJSON>;
  },
  Refusal
> {
  let entity: ReturnType<typeof toSignedEntity>;
  try {
    entity = toSignedEntity(bundle, artifact === undefined ? undefined : Buffer.from(artifact));
  } catch (error) {
    return refuse('bundle_unsupported', `the bundle does not load: ${causeOf(error)}`);
  }
  if (entity.key.$case !== 'certificate')
    return refuse('bundle_unsupported', 'the bundle is signed with a key, not a workflow certificate');
  let first: unknown = null;
  for (const root of roots) {
    try {
      root.verifier.verify(entity);
      return { ok: true, value: { entity, cert: entity.key.certificate, bundle } };
    } catch (error) {
      first ??= error;
    }
  }
  return { ok: false, reason: whyNotVerified(bundle, roots, first) };
}

/** What a bundle must be to be trusted: about this file, signed by an identity of the policy under one of the roots, with this predicate. */
export interface BundleExpectation {
  /** The file it attests: its base name is the subject name it must carry, its sha256 the digest. */
  readonly subject: { readonly name: string; readonly sha256: string };
  readonly policy: IdentityPolicy;
  readonly roots: readonly Root[];
  readonly predicate: PredicateKind;
}

function checkBundle(value: unknown, expected: BundleExpectation, limits: ReadLimits): Result<KeylessSigner, Refusal> {
  const { subject, policy, roots, predicate } = expected;
  const parsed = parseBundle(value);
  if (!parsed.ok) return refuse('attestation_malformed', parsed.reason);
  if (!isBundleWithDsseEnvelope(parsed.value))
    return refuse('bundle_unsupported', 'the bundle signs a message, not a DSSE envelope (an attestation is an in-toto Statement)');
  const envelope = parsed.value.content.dsseEnvelope;
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE)
    return refuse('payload_type', `payload type is ${JSON.stringify(quote(envelope.payloadType))}, not ${IN_TOTO_PAYLOAD_TYPE}`);
  const signed = verifyBundle(parsed.value, roots);
  if (!signed.ok) return signed;
  const { entity, cert } = signed.value;
  const who = checkIdentity(cert, policy);
  if (!who.ok) return who;
  const payload = strictPayload(Buffer.from(envelope.payload), limits);
  if (!payload.ok) return refuse('statement_mismatch', payload.reason);
  const statement = payload.value;
  if (!isObject(statement) || statement['_type'] !== STATEMENT_TYPE) return refuse('statement_mismatch', `_type is not ${STATEMENT_TYPE}`);
  const only = onlySubject(statement);
  if (!only.ok) return refuse('statement_mismatch', only.reason);
  if (only.value.sha256 !== subject.sha256) return refuse('statement_mismatch', 'subject digest differs from the file');
  const name = path.basename(subject.name);
  if (only.value.name !== name) {
    const given = typeof only.value.name === 'string' ? quote(only.value.name) : only.value.name;
    return refuse('statement_mismatch', `subject name ${JSON.stringify(given)} is not ${JSON.stringify(name)}`);
  }
  if (statement['predicateType'] !== predicate.type)
    return refuse(
      'statement_mismatch',
      `predicate type is ${JSON.stringify(quote(String(statement['predicateType'])))}, not ${predicate.type}`,
    );
  if (predicate.check) {
    const checked = predicate.check(statement['predicate']);
    if (!checked.ok) return refuse('statement_mismatch', checked.reason);
  }
  return { ok: true, value: { ...who.value, signedAt: signingTime(entity) } };
}

/** A `.sigstore.json` as read: its values that are bundles of a supported version, each located, and every problem as a finding. */
export interface SigstoreFile {
  readonly bundles: readonly unknown[];
  readonly findings: readonly Finding[];
}

/**
 * A `.sigstore.json` file's shape, always checked, whatever trust is configured (docs/keyless.md):
 * one value (pretty-printed or not) or one compact value per line, each a Sigstore bundle of a
 * supported version; every value that is not is an `invalid_artifact` at its line (garbage is never
 * ignored, beside a good bundle neither).
 */
export function readSigstoreFile(name: string, bytes: Uint8Array, limits: ReadLimits): SigstoreFile {
  const { docs, sink } = valuesOf(name, bytes, limits);
  const bundles: unknown[] = [];
  for (const doc of docs) {
    const result = parseBundle(doc.value);
    if (result.ok) bundles.push(doc.value);
    else sink.error({ offset: doc.start }, result.reason);
  }
  return { bundles, findings: sink.findings };
}

/**
 * The bundles of a `.sigstore.json` against what they must be: trusted when one passes every check;
 * otherwise the first refusal (with the bundle's number when there are several). A file with any
 * malformed value, or none, trusts nothing.
 */
export function checkBundles(file: SigstoreFile, expected: BundleExpectation, limits: ReadLimits): Result<KeylessSigner, Refusal> {
  if (file.findings.length > 0)
    return refuse('attestation_malformed', `the Sigstore bundle file is malformed (${file.findings[0]?.message ?? 'see its finding'})`);
  if (file.bundles.length === 0) return refuse('attestation_empty', 'no attestation: the .sigstore.json holds no bundle');
  let refusal: Refusal | null = null;
  for (const [i, value] of file.bundles.entries()) {
    // A file of thousands of failing bundles is not checked to its end: past the per-file finding
    // cap, it is refused (each check is a certificate chain and a log proof).
    if (i >= limits.maxFindingsPerFile && refusal)
      return {
        ok: false,
        reason: {
          code: refusal.code,
          detail: `${refusal.detail}; ${limits.maxFindingsPerFile} of ${file.bundles.length} bundles checked and none passes, the rest not checked (max-findings-per-file)`,
        },
      };
    const result = checkBundle(value, expected, limits);
    if (result.ok) return result;
    refusal ??=
      file.bundles.length > 1
        ? { code: result.reason.code, detail: `${result.reason.detail} (bundle ${i + 1}; none of ${file.bundles.length} passes)` }
        : result.reason;
  }
  return { ok: false, reason: refusal ?? { code: 'attestation_empty', detail: 'no bundle' } };
}

/** A `.sigstore.json` file read and checked in one step (verify-attestation, tests): the signer, or the refusal in words. */
export function checkBundleFile(name: string, bytes: Uint8Array, expected: BundleExpectation, limits: ReadLimits): Result<KeylessSigner> {
  const file = readSigstoreFile(name, bytes, limits);
  const first = file.findings[0];
  if (first) return { ok: false, reason: first.message };
  const result = checkBundles(file, expected, limits);
  return result.ok ? result : { ok: false, reason: refusalText(result.reason.code, result.reason.detail) };
}
