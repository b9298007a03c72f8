/**
 * Keyless test bundles, offline: a mock Fulcio CA (chosen SAN and extensions, with a CT log), a
 * mock transparency log (intoto entries), @sigstore/sign's DSSEBundleBuilder around them, and the
 * trusted root made from the mocks' keys. Nothing goes over a network.
 */
import { createHash, createPrivateKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { bundleToJSON } from '@sigstore/bundle';
import { initializeCA, initializeCTLog, initializeTLog } from '@sigstore/mock';
import { DSSEBundleBuilder, type Signature, type Signer, type VerificationMaterial, type Witness } from '@sigstore/sign';
// The proposed-entry builder @sigstore/sign's own Rekor witness uses (not on the package's root export).
import { toProposedEntry } from '@sigstore/sign/dist/witness/tlog/entry.js';

export const ISSUER = 'https://token.actions.githubusercontent.com';
/** The predicate types of keyless attestations (docs/predicates/), as the docs spell them. */
export const RECORDS_V1 = 'https://github.com/receipt-gate/receipt-gate/blob/main/docs/predicates/records-v1.md';
export const RUN_V1 = 'https://github.com/receipt-gate/receipt-gate/blob/main/docs/predicates/run-v1.md';
export const REPO = 'acme/agents';
export const EXPORT_IDENTITY = `https://github.com/${REPO}/.github/workflows/export.yml@refs/heads/main`;

/** Fulcio's OIDs: issuer (and its legacy form), source repository URI and ref. */
export const OID = {
  issuerV1: '1.3.6.1.4.1.57264.1.1',
  issuer: '1.3.6.1.4.1.57264.1.8',
  repo: '1.3.6.1.4.1.57264.1.12',
  ref: '1.3.6.1.4.1.57264.1.14',
};

export interface Identity {
  readonly san: string;
  /** Extensions by OID; absent: the GitHub Actions defaults for REPO at refs/heads/main. */
  readonly extensions?: readonly { readonly oid: string; readonly value: string; readonly legacy?: boolean }[];
}

const p256 = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
const b64 = (b: ArrayBufferView | Buffer) => Buffer.from(b as Uint8Array).toString('base64');
const der = (k: KeyObject) => k.export({ type: 'spki', format: 'der' });

/**
 * A Sigstore instance of mocks: its CA, CT log and transparency log, and the trusted root naming them.
 * `clock`: a fixed time for certificates, SCTs and log entries; absent, each takes the real time when
 * it is made. (A fixed default made the suite flaky: the mock CA's root certificate always takes the
 * real time, so a clock read a few milliseconds earlier, across a second boundary, put every signing
 * time before the root's notBefore and every bundle of that instance failed under load.)
 */
export async function mockSigstore(clock?: Date) {
  const ctKeys = p256();
  const caKeys = p256();
  const tlogKeys = p256();
  const ctLog = await initializeCTLog(ctKeys, clock);
  const ca = await initializeCA(caKeys, ctLog, clock);
  const tlog = await initializeTLog('https://tlog.test', tlogKeys, clock);
  const start = new Date((clock ?? new Date()).getTime() - 86_400_000).toISOString();
  const logId = (k: KeyObject) => ({ keyId: b64(createHash('sha256').update(der(k)).digest()) });
  const trustedRoot = {
    mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
    tlogs: [
      {
        baseUrl: 'https://tlog.test',
        hashAlgorithm: 'SHA2_256',
        publicKey: { rawBytes: b64(der(tlogKeys.publicKey)), keyDetails: 'PKIX_ECDSA_P256_SHA_256', validFor: { start } },
        logId: logId(tlogKeys.publicKey),
      },
    ],
    certificateAuthorities: [
      {
        subject: { organization: 'test', commonName: 'test' },
        uri: 'https://fulcio.test',
        certChain: { certificates: [{ rawBytes: b64(ca.rootCertificate) }] },
        validFor: { start },
      },
    ],
    ctlogs: [
      {
        baseUrl: 'https://ctfe.test',
        hashAlgorithm: 'SHA2_256',
        publicKey: { rawBytes: b64(der(ctKeys.publicKey)), keyDetails: 'PKIX_ECDSA_P256_SHA_256', validFor: { start } },
        logId: logId(ctKeys.publicKey),
      },
    ],
    timestampAuthorities: [],
  };

  /** A Signer: an ephemeral P-256 key, a certificate for it from the mock CA with this identity. */
  const signer = (id: Identity): Signer => ({
    async sign(data: Buffer): Promise<Signature> {
      const keys = p256();
      const extensions = id.extensions ?? [
        { oid: OID.issuer, value: ISSUER },
        { oid: OID.repo, value: `https://github.com/${REPO}` },
        { oid: OID.ref, value: 'refs/heads/main' },
      ];
      const cert = await ca.issueCertificate({ publicKey: der(keys.publicKey), subjectAltName: id.san, extensions: [...extensions] });
      const pem = `-----BEGIN CERTIFICATE-----\n${b64(cert).replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----\n`;
      return {
        signature: sign('sha256', data, createPrivateKey(keys.privateKey.export({ type: 'pkcs8', format: 'pem' }))),
        key: { $case: 'x509Certificate', certificate: pem },
      };
    },
  });

  /** A Witness: the mock log's intoto entry, as the bundle's transparency-log entry (inclusion proof and promise). */
  const witness: Witness = {
    async testify(content, publicKey): Promise<VerificationMaterial> {
      const response = await tlog.log(toProposedEntry(content, publicKey, 'intoto'));
      const entry = Object.values(response)[0] as {
        body: string;
        integratedTime: number;
        logID: string;
        logIndex: number;
        verification: {
          signedEntryTimestamp: string;
          inclusionProof: { logIndex: number; treeSize: number; rootHash: string; hashes: string[]; checkpoint: string };
        };
      };
      const body = JSON.parse(Buffer.from(entry.body, 'base64').toString('utf8'));
      const proof = entry.verification.inclusionProof;
      return {
        tlogEntries: [
          {
            logIndex: String(entry.logIndex),
            logId: { keyId: Buffer.from(entry.logID, 'hex') },
            kindVersion: { kind: body.kind, version: body.apiVersion },
            integratedTime: String(entry.integratedTime),
            inclusionPromise: { signedEntryTimestamp: Buffer.from(entry.verification.signedEntryTimestamp, 'base64') },
            inclusionProof: {
              logIndex: String(proof.logIndex),
              treeSize: String(proof.treeSize),
              rootHash: Buffer.from(proof.rootHash, 'hex'),
              hashes: proof.hashes.map((h) => Buffer.from(h, 'hex')),
              checkpoint: { envelope: proof.checkpoint },
            },
            canonicalizedBody: Buffer.from(entry.body, 'base64'),
          },
        ],
      };
    },
  };

  /** A bundle (its JSON) over an in-toto Statement, signed by a workflow of this identity. */
  async function attest(statement: unknown, id: Identity = { san: EXPORT_IDENTITY }): Promise<unknown> {
    const builder = new DSSEBundleBuilder({ signer: signer(id), witnesses: [witness] });
    const bundle = await builder.create({ data: Buffer.from(JSON.stringify(statement), 'utf8'), type: 'application/vnd.in-toto+json' });
    return bundleToJSON(bundle);
  }

  return { trustedRoot, attest };
}

/** An in-toto Statement about one file (its base name, the sha256 of its bytes). */
export function statementFor(name: string, bytes: Uint8Array, predicateType: string, predicate: unknown = {}) {
  return {
    _type: 'https://in-toto.io/Statement/v1',
    subject: [{ name, digest: { sha256: createHash('sha256').update(bytes).digest('hex') } }],
    predicateType,
    predicate,
  };
}
