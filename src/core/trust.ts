/**
 * Trust as values: what one checker decided about a record or a run, and the one pure function that
 * combines the decisions of every checker configured (keys or identities: either trusts). Each
 * refusal carries a code from one table; its words are the detail. Nothing here checks anything:
 * the checkers are in src/trust/checkers/, and they run on the thread that read the file.
 */

export interface TrustCodeEntry {
  /** What the code means, for the README and the report schema's description. */
  readonly means: string;
  /**
   * The refusal is about the trust configuration rather than the evidence (a trusted root out of
   * date): the message says how to refresh it.
   */
  readonly configuration?: true;
  /** Never a warning under `trust.mode: warn`: the refusal is not a rollout's gap but a replay (docs/policy.md §10). */
  readonly enforced?: true;
}

/** Why a record or a run is not trusted: one table, read by the report, the docs and the tests. */
const TRUST_CODES = {
  unsigned: { means: 'the record carries no signature' },
  unknown_signer: { means: 'the signature names a key that is not trusted' },
  payload_digest_differs: { means: "the signature's payload digest is not the digest of the record" },
  signature_invalid: { means: 'a signature or a certificate does not verify' },
  no_attestation: { means: 'no attestation beside the file (no .intoto.jsonl sidecar, no .sigstore.json)' },
  attestation_empty: { means: 'the attestation file holds no envelope or bundle' },
  attestation_malformed: { means: 'the attestation file cannot be read or is malformed (see its invalid_artifact finding)' },
  not_a_bundle: { means: 'a producer key attests evidence bundles only; JSON surfaces and server logs cannot carry a sidecar' },
  payload_type: { means: 'the envelope signs another payload type' },
  statement_mismatch: { means: 'the Statement is not about this file (subject, digest, predicate type or predicate)' },
  bundle_unsupported: {
    means: 'a Sigstore bundle of an unsupported version or kind (a message signature, a key instead of a certificate)',
  },
  identity_untrusted: { means: "the certificate's identity or OIDC issuer is not trusted" },
  source_untrusted: { means: "the certificate's source repository or ref is not allowed" },
  chain_untrusted: {
    means: 'the certificate chains to no certificate authority of the trusted root (the root may be out of date)',
    configuration: true,
  },
  log_unknown: {
    means: 'the transparency log or timestamp authority is not in the trusted root (the root may be out of date)',
    configuration: true,
  },
  history_only: {
    means:
      "a grandfathered audit file's record (trust not asked of it for the runs the base holds) that would bind a call the pull request adds or changes: held to its own trust, an error under any trust mode",
    enforced: true,
  },
} as const satisfies { readonly [code: string]: TrustCodeEntry };

export type TrustCode = keyof typeof TRUST_CODES;
export const TRUST_CODE_NAMES = Object.keys(TRUST_CODES) as readonly TrustCode[];

/** Who a keyless attestation names, as its certificate says and the checks required (docs/keyless.md). */
export interface WorkflowSigner {
  /** The certificate's SAN: the workflow file at its ref. */
  readonly identity: string;
  readonly sourceRepository: string;
  readonly sourceRef: string;
  readonly issuer: string;
  /** The signing time a log entry or a timestamp vouched for (RFC 3339 UTC). */
  readonly signedAt: string;
}

/** Who vouched: a trusted key (its key_id), or a trusted workflow identity's certificate. */
export type Voucher = { readonly kind: 'key'; readonly keyId: string } | { readonly kind: 'identity'; readonly signer: WorkflowSigner };

/**
 * One checker's decision about one record or one run: `trusted` by whom; `untrusted` with its code
 * and words; `unchecked` (an attestation is there, but nothing is configured to check it; `keyId`:
 * the signer it names, when it names one); `none` (the checker has nothing to say about it).
 */
export type TrustDecision =
  | { readonly kind: 'trusted'; readonly by: Voucher }
  | { readonly kind: 'untrusted'; readonly code: TrustCode; readonly detail: string }
  | { readonly kind: 'unchecked'; readonly keyId: string | null }
  | { readonly kind: 'none' };

export const NONE: TrustDecision = { kind: 'none' };

/** Whether `trust.mode: warn` may make the refusal a warning (a rollout's gap), or it stays an error (a replay). */
export const warnable = (code: TrustCode): boolean => (TRUST_CODES[code] as TrustCodeEntry).enforced !== true;

/** A refusal, made where the check failed. */
export const refused = (code: TrustCode, detail: string): TrustDecision => ({ kind: 'untrusted', code, detail });

/** A refusal's words, with how to refresh the root when the code says the root may be out of date. */
export function refusalText(code: TrustCode, detail: string): string {
  const entry: TrustCodeEntry = TRUST_CODES[code];
  return entry.configuration
    ? `${detail} (the trusted root may be out of date: refresh it with \`gh attestation trusted-root\`, or update receipt-gate)`
    : detail;
}

/**
 * The decisions of every configured checker, in checker order, as one: trusted when any trusts (the
 * first); else untrusted when any refused (the first refusal's code, every refusal's words);
 * else unchecked when an attestation was seen; else none.
 */
export function combine(decisions: readonly TrustDecision[]): TrustDecision {
  let firstRefusal: (TrustDecision & { kind: 'untrusted' }) | null = null;
  const details: string[] = [];
  let unchecked: TrustDecision | null = null;
  for (const d of decisions) {
    if (d.kind === 'trusted') return d;
    if (d.kind === 'untrusted') {
      firstRefusal ??= d;
      details.push(d.detail);
    } else if (d.kind === 'unchecked') unchecked ??= d;
  }
  if (firstRefusal) return details.length === 1 ? firstRefusal : refused(firstRefusal.code, details.join('; and '));
  return unchecked ?? NONE;
}
