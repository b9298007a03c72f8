/**
 * SARIF 2.1.0 for code scanning (github/codeql-action/upload-sarif): one rule per finding code,
 * one result per finding, repository-relative locations, stable partial fingerprints.
 */
import type { Report } from '../core/report.js';
import type { FindingCode, Severity } from '../core/model.js';
import { sha256Hex } from '../core/binding.js';
import { repoPath } from './annotations.js';

export const RULES: { readonly [C in FindingCode]: { readonly level: Severity; readonly text: string } } = {
  invalid_artifact: { level: 'error', text: 'An artifact could not be read or breaks its shape, so nothing in it is trusted.' },
  record_inconsistent: { level: 'error', text: "An audit record's subject does not hash to its binding_digest: it was edited after it was made." },
  duplicate_record: { level: 'error', text: 'The same (provider, record_id) appears twice; one audit entry may vouch for one call only.' },
  record_unmatched: { level: 'error', text: 'A consistent audit record binds no recorded call.' },
  verified_not_reproduced: { level: 'error', text: 'A call claims verified, but no committed audit record reproduces its binding.' },
  observed_confirmed_not_reproduced: { level: 'warning', text: 'A call claims observed_confirmed, but no later successful read of the same target is in the run.' },
  inconsistent_claim: { level: 'error', text: "A call's claim contradicts itself (level, source, digest, asserted flags)." },
  no_artifacts: { level: 'error', text: 'The run-artifact inputs matched no file; a gate that sees nothing must not pass.' },
  skipped_object: { level: 'notice', text: 'Objects of other artifact kinds were skipped.' },
  under_claimed: { level: 'notice', text: 'A call earned a higher level than it claims.' },
  no_decisions: { level: 'notice', text: 'A run artifact (or a verified evidence bundle) holds no tool decisions.' },
  no_records: { level: 'notice', text: 'An audit export holds no audit record.' },
  no_match: { level: 'notice', text: 'An input path or glob matched no file.' },
};

const SARIF_LEVEL = { error: 'error', warning: 'warning', notice: 'note' } as const;

export function renderSarif(report: Report, prefix: string, version: string): string {
  const codes = [...new Set(report.findings.map((f) => f.code))].sort();
  const rules = codes.map((code) => ({
    id: code,
    name: code.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase()),
    shortDescription: { text: RULES[code].text },
    defaultConfiguration: { level: SARIF_LEVEL[RULES[code].level] },
    helpUri: 'https://github.com/receipt-gate/receipt-gate#findings',
  }));
  const results = report.findings.map((f) => {
    const uri = repoPath(prefix, f.file);
    return {
      ruleId: f.code,
      ruleIndex: codes.indexOf(f.code),
      level: SARIF_LEVEL[f.severity],
      message: { text: f.member ? `${f.member}:${f.line}:${f.column}: ${f.message}` : f.message },
      locations: [{ physicalLocation: { artifactLocation: { uri, uriBaseId: '%SRCROOT%' }, region: f.member ? { startLine: 1 } : { startLine: f.line, startColumn: f.column } } }],
      partialFingerprints: { 'receiptGate/v1': sha256Hex(`${f.code}\0${uri}\0${f.member ?? ''}\0${f.line}\0${f.column}\0${f.message}`) },
    };
  });
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'receipt-gate', version, informationUri: 'https://github.com/receipt-gate/receipt-gate', rules } }, results }],
  };
  return JSON.stringify(sarif, null, 2) + '\n';
}
