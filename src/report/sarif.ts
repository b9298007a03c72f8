/**
 * SARIF 2.1.0 for code scanning (github/codeql-action/upload-sarif): one rule per finding code,
 * one result per finding, repository-relative locations, stable partial fingerprints.
 */

import type { Log, ReportingDescriptor, Result as SarifResult } from 'sarif';
import { sha256Hex } from '../core/binding.js';
import { FINDINGS } from '../core/findings.js';
import type { Report } from '../core/report.js';
import { SEVERITY_TABLE } from '../core/severity.js';
import { repoPath } from './annotations.js';

export function renderSarif(report: Report, prefix: string, version: string): string {
  const codes = [...new Set(report.findings.map((f) => f.code))].sort();
  const rules = codes.map(
    (code): ReportingDescriptor => ({
      id: code,
      name: code.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase()),
      shortDescription: { text: FINDINGS[code].title },
      fullDescription: { text: FINDINGS[code].help },
      defaultConfiguration: { level: SEVERITY_TABLE[FINDINGS[code].severity].sarif },
      helpUri: 'https://github.com/receipt-gate/receipt-gate#findings',
    }),
  );
  const results = report.findings.map((f): SarifResult => {
    const uri = repoPath(prefix, f.file);
    return {
      ruleId: f.code,
      ruleIndex: codes.indexOf(f.code),
      level: SEVERITY_TABLE[f.severity].sarif,
      message: { text: f.member ? `${f.member}:${f.line}:${f.column}: ${f.message}` : f.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri, uriBaseId: '%SRCROOT%' },
            region: f.member ? { startLine: 1 } : { startLine: f.line, startColumn: f.column },
          },
        },
      ],
      partialFingerprints: { 'receiptGate/v1': sha256Hex(`${f.code}\0${uri}\0${f.member ?? ''}\0${f.line}\0${f.column}\0${f.message}`) },
    };
  });
  const sarif: Log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'receipt-gate', version, informationUri: 'https://github.com/receipt-gate/receipt-gate', rules } },
        results,
      },
    ],
  };
  return JSON.stringify(sarif, null, 2) + '\n';
}
