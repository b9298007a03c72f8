/**
 * `sign`: audit records (and the coverage statements among them), signed, as NDJSON. Fails closed:
 * nothing is written unless every input is valid and every record's binding recomputes, and the
 * output appears only whole (writeWhole).
 */
import { binding } from '../core/binding.js';
import { type Finding, finding, inputFinding } from '../core/findings.js';
import type { Result } from '../core/result.js';
import { quote } from '../core/text.js';
import { readAuditFile } from '../read/artifacts.js';
import { formatOf } from '../read/formats.js';
import type { ReadLimits } from '../read/limits.js';
import type { AuditEntryRead } from '../read/record-read.js';
import { COVERAGE_PAYLOAD_TYPE } from '../read/signature.js';
import type { ToolInput } from './input.js';
import { type SigningKey, signedLine } from './signing.js';

/**
 * Read records from the inputs with the gate's strict readers, refuse any problem, sign each record
 * and return the NDJSON text (one signed record per line, in input then record order), with what
 * the readers left unsigned and said so (objects of other kinds: the gate skips them too; never
 * dropped in silence).
 */
export function signRecords(
  key: SigningKey,
  inputs: readonly ToolInput[],
  limits: ReadLimits,
  signedAt: string,
): Result<{ readonly text: string; readonly unsigned: readonly Finding[] }, readonly Finding[]> {
  const errors: Finding[] = [];
  const unsigned: Finding[] = [];
  const entries: AuditEntryRead[] = [];
  for (const input of inputs) {
    const format = formatOf(input.name);
    if (format !== 'json' && format !== 'ndjson') {
      errors.push(inputFinding('invalid_artifact', input.name, 'not an audit export (.json, .jsonl or .ndjson)'));
      continue;
    }
    const read = readAuditFile(input.name, input.bytes, format, limits, { payloads: true });
    const bad = read.findings.filter((f) => f.severity === 'error');
    for (const f of bad) errors.push(f);
    for (const f of read.findings) if (f.severity !== 'error') unsigned.push(f);
    if (read.entries.length === 0 && bad.length === 0) errors.push(inputFinding('invalid_artifact', input.name, 'no audit record to sign'));
    for (const x of read.entries) entries.push(x);
  }
  const lines: string[] = [];
  // One identity (provider, record_id) with two subjects is duplicate_record to the gate: never signed.
  const identities = new Map<string, { readonly digest: string; readonly at: string }>();
  for (const r of entries) {
    const what = r.kind === 'record' ? `record ${JSON.stringify(quote(r.record.record_id))}` : 'coverage statement';
    if (r.signer !== null) {
      // Re-signing would vouch for what another key signed, or for an entry edited after it was signed.
      errors.push(
        finding(
          'invalid_artifact',
          r.loc,
          `${what} is already signed (key ${quote(r.signer)}): sign signs an export job's unsigned entries; remove the signature member first to sign it again on purpose`,
        ),
      );
      continue;
    }
    if (r.kind === 'statement') {
      // A coverage statement is signed as it is, under its own payload type (docs/coverage.md §5).
      if (r.payload !== undefined) lines.push(signedLine(r.payload, key, signedAt, COVERAGE_PAYLOAD_TYPE));
      continue;
    }
    const bound = binding(r.record.subject);
    if (!bound.ok || bound.digest !== r.record.binding_digest || r.payload === undefined) {
      const why = `record ${JSON.stringify(quote(r.record.record_id))}: binding_digest does not recompute (${bound.ok ? bound.digest : bound.reason}); never sign a binding that does not recompute`;
      errors.push(finding('invalid_artifact', r.loc, why));
      continue;
    }
    const identity = `${r.record.provider}\u0000${r.record.record_id}`;
    const first = identities.get(identity);
    if (first && first.digest !== bound.digest) {
      errors.push(
        finding(
          'invalid_artifact',
          r.loc,
          `${what} (${quote(r.record.provider)}) has another subject than the record of the same id at ${first.at}: one audit entry has one subject (the gate would find both duplicate_record)`,
        ),
      );
      continue;
    }
    if (!first) identities.set(identity, { digest: bound.digest, at: `${r.loc.file}:${r.loc.line}` });
    lines.push(signedLine(r.payload, key, signedAt));
  }
  if (errors.length > 0) return { ok: false, reason: errors };
  return { ok: true, value: { text: lines.join('\n') + '\n', unsigned } };
}
