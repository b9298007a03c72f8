/**
 * Writing the verdict attestation (docs/attestations.md §2): the predicate alone (for
 * `actions/attest`, which makes and signs the Statement around it) and/or the Statement in a DSSE
 * envelope signed with an Ed25519 key (for consumers outside GitHub: `verify-attestation`). The
 * payload is the UTF-8 of JCS(the Statement). The files are written whole, all of them or none.
 */

import { jcs } from '../core/binding.js';
import type { Finding } from '../core/findings.js';
import { inputFinding } from '../core/findings.js';
import type { Report } from '../core/report.js';
import type { Result } from '../core/result.js';
import { messageOf } from '../core/text.js';
import { IN_TOTO_PAYLOAD_TYPE } from '../read/envelope.js';
import { reportName, type VsaContext, vsaStatement } from '../report/verification-summary.js';
import { envelopeLine, type SigningKey } from './signing.js';
import { type FileText, FileWriteError, writeAllWhole } from './write.js';

/** Where a verdict comes from, as an entry knows it. */
export interface VerdictOrigin {
  readonly workspace: string;
  /** The report file written, and `sha256:` of its bytes. */
  readonly reportFile: string;
  readonly reportDigest: string;
  readonly resourceUri: string;
  readonly policyUri: string | null;
  /** Every input file read, repository path → hex sha256. */
  readonly inputs: ReadonlyMap<string, string>;
  /** receipt-gate's version (the verifier's), passed in by the entry. */
  readonly version: string;
  /**
   * When the resource URI names the runner's commit (GITHUB_SHA), why the checkout may not be that
   * commit's bytes (gate/repository.ts `checkoutDiffers`, asked by the entry), or null: no verdict then.
   */
  readonly checkoutDiffers: string | null;
}

export interface VerdictFiles {
  /** Where the predicate alone goes, or null. */
  readonly predicate: string | null;
  /** Where the signed envelope goes (one line), or null; needs `key`. */
  readonly envelope: string | null;
  readonly key: SigningKey | null;
}

/** Write the requested files; `message` lists what was written. */
/**
 * @param beside files written with the verdict, all or none (the report it is about, its SARIF): a
 * verdict that cannot be written leaves none of them
 */
export function writeVerdict(
  report: Report,
  origin: VerdictOrigin,
  files: VerdictFiles,
  beside: readonly (readonly [string, FileText])[] = [],
): Result<string, readonly Finding[]> {
  const ctx: VsaContext = {
    reportName: reportName(origin.workspace, origin.reportFile),
    reportSha256: origin.reportDigest.replace(/^sha256:/, ''),
    resourceUri: origin.resourceUri,
    policyUri: origin.policyUri,
    inputs: origin.inputs,
    version: origin.version,
  };
  if (origin.checkoutDiffers !== null)
    return {
      ok: false,
      reason: [
        inputFinding(
          'invalid_artifact',
          files.predicate ?? files.envelope ?? '',
          `the verdict would name ${origin.resourceUri}, but ${origin.checkoutDiffers}: check out that commit, and let no step before the gate change its inputs`,
        ),
      ],
    };
  const statement = vsaStatement(report, ctx);
  // Every file's text first; then all of them written whole, or none (a signer that fails writes nothing).
  const out: (readonly [string, FileText])[] = [...beside];
  if (files.predicate) out.push([files.predicate, `${JSON.stringify(statement.predicate, null, 2)}\n`]);
  if (files.envelope) {
    if (!files.key)
      return {
        ok: false,
        reason: [inputFinding('invalid_artifact', files.envelope, 'a signed verdict needs a key (--vsa-key / vsa-key)')],
      };
    const payload = jcs(statement);
    if (!payload.ok)
      return {
        ok: false,
        reason: [inputFinding('invalid_artifact', files.envelope, `the Statement cannot be canonicalized: ${payload.reason}`)],
      };
    out.push([files.envelope, `${envelopeLine(IN_TOTO_PAYLOAD_TYPE, Buffer.from(payload.text, 'utf8'), files.key)}\n`]);
  }
  try {
    writeAllWhole(out);
  } catch (error) {
    const at = error instanceof FileWriteError ? error.file : (files.envelope ?? files.predicate ?? '');
    return { ok: false, reason: [inputFinding('invalid_artifact', at, `cannot write the verdict: ${messageOf(error)}`)] };
  }
  const written = out.slice(beside.length).map(([file]) => file);
  return { ok: true, value: written.join('\n') };
}
