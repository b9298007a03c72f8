/**
 * `attest-bundle`: a producer's side, for tests, demos and users without the Rust CLI. Verifies the
 * bundle with the gate's reader, makes exactly the Statement upstream's `assay evidence attest`
 * makes (read/attestation.ts), and writes it as one compact DSSE envelope line (JCS payload,
 * Ed25519) to `<bundle>.intoto.jsonl`, never over an existing file.
 */
import { jcs } from '../core/binding.js';
import type { Finding } from '../core/findings.js';
import { inputFinding } from '../core/findings.js';
import type { Result } from '../core/result.js';
import { bundleStatement } from '../read/attestation.js';
import { readBundle } from '../read/bundle/archive.js';
import { IN_TOTO_PAYLOAD_TYPE } from '../read/envelope.js';
import type { ReadLimits } from '../read/limits.js';
import { bundleLimits } from '../read/limits.js';
import type { ToolInput } from './input.js';
import { envelopeLine, type SigningKey } from './signing.js';

/** The signed sidecar line for a bundle, or (key null) upstream's predicate alone, for actions/attest's predicate-path; or the findings that stop it. */
export async function attestBundle(
  bundle: ToolInput,
  key: SigningKey | null,
  limits: ReadLimits,
): Promise<Result<string, readonly Finding[]>> {
  const read = await readBundle({ bytes: bundle.bytes }, bundle.name, bundleLimits(limits));
  const errors = read.findings.filter((f) => f.severity === 'error');
  if (errors.length > 0) return { ok: false, reason: errors };
  if (!read.bundle)
    return { ok: false, reason: [inputFinding('invalid_artifact', bundle.name, 'not an evidence bundle (another kind of archive)')] };
  const statement = bundleStatement(read.bundle);
  if (!statement.ok) return { ok: false, reason: [inputFinding('invalid_artifact', bundle.name, statement.reason)] };
  if (key === null) return { ok: true, value: `${JSON.stringify(statement.value['predicate'], null, 2)}\n` };
  const payload = jcs(statement.value);
  if (!payload.ok)
    return {
      ok: false,
      reason: [inputFinding('invalid_artifact', bundle.name, `the Statement cannot be canonicalized: ${payload.reason}`)],
    };
  return { ok: true, value: `${envelopeLine(IN_TOTO_PAYLOAD_TYPE, Buffer.from(payload.text, 'utf8'), key)}\n` };
}
