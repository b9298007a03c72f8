import fc from 'fast-check';
/** Evidence for the pure core, built in memory (no files): runs of decisions and audit records, located. */

import { binding } from '../../src/core/binding.js';
import { prepareDecision } from '../../src/core/decision.js';
import type { JsonObject } from '../../src/core/json.js';
import type { AuditRecord, Evidence, RecordInput, RunInput, StatementInput } from '../../src/core/model.js';
import { type Policy, parsePolicy } from '../../src/core/policy.js';
import type { Instant } from '../../src/core/time.js';
import type { AuditEntryRead, RecordRead } from '../../src/read/record-read.js';
import { type DecisionSpec, decision } from './corpus.js';

/** Each run is `runs/<name>` with decision i at line 10·i + 4; records are `audit/a.json` line i + 1. */
export function evidence(runs: Record<string, readonly JsonObject[]>, records: readonly JsonObject[] = []): Evidence {
  return {
    runs: Object.entries(runs).map(([name, ds]): RunInput => {
      const artifact = `runs/${name}`;
      return { artifact, decisions: ds.map((d, i) => prepareDecision({ file: artifact, line: 10 * i + 4, column: 5 }, i, d)) };
    }),
    records: records.map((r, i) => recordAt(r, i + 1)),
    findings: [],
  };
}

/** An audit record at `audit/a.json` line `line`, as the core sees it when no trusted signer is configured. */
export const recordAt = (r: JsonObject, line: number): RecordInput => ({
  loc: { file: 'audit/a.json', line, column: 1 },
  record: r as unknown as AuditRecord,
  recomputed: binding(r['subject']),
  signer: null,
  trust: { kind: 'unchecked' },
});

export const OPTIONS = { allowUnmatchedRecords: false, strictObserved: false } as const;

/** Required-level rules, parsed (a rule the test wrote wrong throws). */
export function policyOf(...rules: string[]): Policy {
  const p = parsePolicy(rules);
  if (!p.ok) throw new Error(p.reason);
  return p.value;
}

/** A record as the core sees it when no trusted signer is configured. */
const unchecked = (r: RecordRead): RecordInput => ({
  loc: r.loc,
  record: r.record,
  recomputed: r.recomputed,
  signer: r.signer,
  trust: { kind: 'unchecked' },
});

/** An export's records as the core sees them when no trusted signer is configured (its coverage statements aside). */
export const uncheckedRecords = (entries: readonly AuditEntryRead[]): RecordInput[] =>
  entries.flatMap((e) => (e.kind === 'record' ? [unchecked(e)] : []));

/** An export's coverage statements as the core sees them when no trusted signer is configured. */
export const uncheckedStatements = (entries: readonly AuditEntryRead[]): StatementInput[] =>
  entries.flatMap((e) =>
    e.kind === 'statement' ? [{ loc: e.loc, statement: e.statement, signer: e.signer, trust: { kind: 'unchecked' } }] : [],
  );

/** What generated corpora draw of a call besides its target and time: its verb, provider, claim and status. */
export const DRAWN_CALL = {
  verb: fc.constantFrom('create', 'delete', 'get'),
  provider: fc.constantFrom('github', 'gitlab', null),
  asserted: fc.boolean(),
  claim: fc.constantFrom('asserted', 'observed_confirmed', 'verified', 'none') as fc.Arbitrary<
    'asserted' | 'observed_confirmed' | 'verified' | 'none'
  >,
  status: fc.constantFrom('success', 'error'),
} as const;

/** A generated run of `github.x` deploy-key decisions at `artifact`: decision i at line 3·i + 2, each with its target, claim and time. */
export function deployKeyRun(
  artifact: string,
  ds: readonly (Pick<DecisionSpec, 'verb' | 'target' | 'asserted' | 'claim' | 'status'> & { readonly time: Instant | null })[],
): RunInput {
  return {
    artifact,
    decisions: ds.map((d, i) =>
      prepareDecision(
        { file: artifact, line: 3 * i + 2, column: 3 },
        i,
        decision({
          tool: 'github.x',
          verb: d.verb,
          resourceType: 'github_deploy_key',
          target: d.target,
          ...(d.asserted === undefined ? {} : { asserted: d.asserted }),
          ...(d.claim === undefined ? {} : { claim: d.claim }),
          ...(d.status === undefined ? {} : { status: d.status }),
        }),
        d.time,
      ),
    ),
  };
}
