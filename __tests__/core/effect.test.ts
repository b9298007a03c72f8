/**
 * A policy change's effect (docs/policy.md §11): any call, record, coverage statement or run that
 * fails under one policy and passes under the other is a loosening; the change lists say which.
 */
import { describe, expect, it } from 'vitest';
import { changes, changesText, loosens } from '../../src/core/effect.js';
import type { Report } from '../../src/core/report.js';

const at = (file: string, line = 1) => ({ file, line, column: 1 });
/** The members `changes` reads, each place failing with `code` when `failing` says so. */
function report(failing: { readonly run?: boolean; readonly statement?: boolean; readonly record?: boolean }): Report {
  const findings = [
    ...(failing.run ? [{ severity: 'error', code: 'run_unattested', message: 'x', ...at('.assay/runs/a.json') }] : []),
    ...(failing.statement ? [{ severity: 'error', code: 'record_untrusted', message: 'x', ...at('.assay/audit/cov.ndjson') }] : []),
    ...(failing.record ? [{ severity: 'error', code: 'record_unmatched', message: 'x', ...at('.assay/audit/r.ndjson', 2) }] : []),
  ];
  return {
    calls: [],
    runs: [{ artifact: '.assay/runs/a.json' }],
    coverage: [at('.assay/audit/cov.ndjson')],
    records: [at('.assay/audit/r.ndjson', 2)],
    findings,
  } as unknown as Report;
}

describe('a policy change: calls, records, coverage statements and runs', () => {
  it.each([
    ['run', { run: true }, '1 run(s): under A: run_unattested; under B: passes'],
    ['statement', { statement: true }, '1 coverage statement(s): under A: record_untrusted; under B: passes'],
    ['record', { record: true }, '1 record(s): under A: record_unmatched; under B: passes'],
  ] as const)(
    'a %s that fails before and passes after is a loosening; the other way is none (a red team: a grandfathered run or statement was a notice)',
    (_what, failing, text) => {
      const list = changes(report(failing), report({}));
      expect(loosens(list)).toBe(true);
      expect(changesText(list, { before: 'A', after: 'B' })).toBe(text);
      expect(loosens(changes(report({}), report(failing)))).toBe(false);
    },
  );

  it('nothing changed: no change, no loosening', () => {
    expect(changes(report({ run: true }), report({ run: true }))).toEqual([]);
    expect(changesText([], { before: 'A', after: 'B' })).toBe('no call, record, statement or run changes verdict');
  });
});
