/**
 * SARIF 2.1.0 for code scanning (github/codeql-action/upload-sarif): one rule per finding code,
 * one result per error or warning about a file (notices stay out: every result is an alert), findings
 * about inputs as tool configuration notifications, repository-relative locations, stable partial fingerprints.
 */

import type { Log, Notification, ReportingDescriptor, Result as SarifResult } from 'sarif';
import { sha256Hex } from '../core/binding.js';
import { FINDINGS, type InputFinding, type LocatedFinding } from '../core/findings.js';
import type { Report } from '../core/report.js';
import { SEVERITY_TABLE } from '../core/severity.js';
import { repoPath } from './annotations.js';
import { uriPath } from './text.js';

export function renderSarif(report: Report, prefix: string, version: string): string {
  const alerting = report.findings.filter((f) => f.severity !== 'notice');
  // A policy file read at another commit (a pull request's base) is not the file scanned: its findings are notifications.
  const elsewhere = (f: LocatedFinding): boolean => f.commit !== undefined;
  const located = alerting.filter((f): f is LocatedFinding => f.input === undefined && !elsewhere(f));
  const inputs = alerting.filter((f): f is InputFinding => f.input !== undefined);
  const atBase = alerting.filter((f): f is LocatedFinding => f.input === undefined && elsewhere(f));
  // An excused or grandfathered shortfall stays visible to code scanning, suppressed: never counted open.
  const suppressed = report.calls.filter((c) => c.suppressed !== null);
  const codes = [...new Set([...located.map((f) => f.code), ...(suppressed.length > 0 ? ['policy_unmet' as const] : [])])].sort();
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
  // Code scanning turns every result into an alert: notices (skipped objects, under-claims) stay in
  // the report and the summary. A finding about an input has no artifact: it is a tool configuration
  // notification, never a result at an invented location.
  const results = located.map((finding): SarifResult => {
    const uri = uriPath(repoPath(prefix, finding.file));
    return {
      ruleId: finding.code,
      ruleIndex: codes.indexOf(finding.code),
      level: SEVERITY_TABLE[finding.severity].sarif,
      message: { text: finding.member ? `${finding.member}:${finding.line}:${finding.column}: ${finding.message}` : finding.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri, uriBaseId: '%SRCROOT%' },
            region: finding.member ? { startLine: 1 } : { startLine: finding.line, startColumn: finding.column },
          },
        },
      ],
      partialFingerprints: {
        'receiptGate/v1': sha256Hex(
          `${finding.code}\0${uri}\0${finding.member ?? ''}\0${finding.line}\0${finding.column}\0${finding.message}`,
        ),
      },
    };
  });
  for (const call of suppressed) {
    const s = call.suppressed;
    if (!s) continue;
    const uri = uriPath(repoPath(prefix, call.artifact));
    results.push({
      ruleId: 'policy_unmet',
      ruleIndex: codes.indexOf('policy_unmet'),
      level: SEVERITY_TABLE[s.severity].sarif,
      message: { text: call.member ? `${call.member}:${call.line}:${call.column}: ${s.message}` : s.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri, uriBaseId: '%SRCROOT%' },
            region: call.member ? { startLine: 1 } : { startLine: call.line, startColumn: call.column },
          },
        },
      ],
      suppressions: [{ kind: 'external', status: 'accepted', justification: s.justification }],
      partialFingerprints: {
        'receiptGate/v1': sha256Hex(`policy_unmet\0${uri}\0${call.member ?? ''}\0${call.line}\0${call.column}\0${s.message}`),
      },
    });
  }
  const notifications = [
    ...inputs.map(
      (f): Notification => ({
        descriptor: { id: f.code },
        level: SEVERITY_TABLE[f.severity].sarif,
        message: { text: `${f.input}: ${f.message}` },
      }),
    ),
    ...atBase.map(
      (f): Notification => ({
        descriptor: { id: f.code },
        level: SEVERITY_TABLE[f.severity].sarif,
        message: { text: `${f.file}:${f.line}:${f.column} at commit ${f.commit ?? ''}: ${f.message}` },
      }),
    ),
  ];
  const sarif: Log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'receipt-gate', version, informationUri: 'https://github.com/receipt-gate/receipt-gate', rules } },
        ...(notifications.length > 0
          ? { invocations: [{ executionSuccessful: true, toolConfigurationNotifications: notifications }] }
          : {}),
        results,
      },
    ],
  };
  return JSON.stringify(sarif, null, 2) + '\n';
}
