/**
 * The findings catalogue: every code the gate can report, its default severity, a title and help
 * text. SARIF rules, docs/findings.md (generated from it by a test) and the reporters read it
 * here; a finding is made only through `finding()`, with the location it is about.
 */
import type { Location } from './location.js';
import { SEVERITY_TABLE, type Severity } from './severity.js';
import { cmp } from './text.js';

export interface CatalogueEntry {
  readonly severity: Severity;
  /** What changes the severity, when something does, and to what ("with `strict-observed`"). */
  readonly option?: { readonly when: string; readonly severity: Severity };
  readonly title: string;
  readonly help: string;
  /** The finding says why a call's level fell short of its claim or its requirement (its reason would repeat it). */
  readonly shortfall?: true;
  /** What it is about, which orders the findings root causes first: a whole file (unreadable, malformed, skipped, unattested), else the records and calls in it. Findings about an input come before both. */
  readonly about?: 'file';
}

export const FINDINGS = {
  invalid_artifact: {
    severity: 'error',
    title: 'Invalid artifact',
    help: 'An artifact could not be read or breaks its shape, so nothing in it is trusted.',
    about: 'file',
  },
  record_inconsistent: {
    severity: 'error',
    title: 'Audit record inconsistent',
    help: "An audit record's subject does not hash to its binding_digest: it was edited after it was made.",
  },
  duplicate_record: {
    severity: 'error',
    title: 'Duplicate audit record',
    help: 'Two records share one (provider, record_id) but differ in subject or binding_digest: one identity names one audit entry, so neither verifies a call.',
  },
  record_unmatched: {
    severity: 'error',
    option: { when: 'with `allow-unmatched-records`', severity: 'warning' },
    title: 'Audit record binds no call',
    help: 'A consistent audit record binds no recorded call: with an agent-scoped export, a side effect the provider logged for the agent that no committed run declares.',
  },
  record_pending: {
    severity: 'notice',
    title: 'Audit record waits for its run',
    help: "A record binds no call, and its own file holds a usable coverage statement of its scope (provider, action, an actor, its repository or organisation) whose window has ended less than the policy's pending ago: the agent's run may arrive by another pull request. Once pending has run out it is record_unmatched.",
  },
  record_untrusted: {
    severity: 'error',
    option: { when: "with the policy file's `trust.mode: warn`", severity: 'warning' },
    title: 'Audit record not from a trusted signer',
    help: 'Trusted signers are configured and the record is unsigned, signed by another key, or its signature does not verify.',
  },
  policy_unmet: {
    severity: 'error',
    option: { when: 'under a rule of `mode: warn`', severity: 'warning' },
    title: 'Required level not reached',
    help: "A required level (the policy file's rule or default, or --require / require) is above the level the call earned, or the record that verified it is not from a signer the rule names.",
    shortfall: true,
  },
  policy_invalid: {
    severity: 'error',
    title: 'Policy file invalid',
    help: "The policy file does not parse or breaks its rules (docs/policy.md); located in the file. The policy in effect invalid stops the gate (a configuration error); a pull request's own invalid policy fails it.",
    about: 'file',
  },
  policy_excepted: {
    severity: 'notice',
    title: 'Shortfall excused by an exception',
    help: 'A call falls short of its rule and a live exception of the policy file excuses it (its reason and owner are named). It never excuses an honesty failure.',
  },
  exception_expired: {
    severity: 'error',
    title: 'Exception expired',
    help: 'An exception of the policy file would excuse a call but has expired: the call fails as usual. Renew it with a new reason, or fix the call.',
  },
  exception_expiring: {
    severity: 'warning',
    title: 'Exception expiring soon',
    help: 'An exception of the policy file expires within 14 days: renew it or fix what it excuses before it does.',
  },
  exception_unused: {
    severity: 'warning',
    option: { when: 'for an exception a pull request adds, until it merges', severity: 'notice' },
    title: 'Exception excuses nothing',
    help: 'An exception of the policy file excused no call: prune it.',
  },
  grandfather_stale: {
    severity: 'warning',
    title: 'Grandfathered run absent or changed',
    help: 'A grandfathered entry of the policy file names a run that is not among the runs, or whose bytes changed: it grandfathers nothing, and a changed run is judged in full.',
  },
  policy_changed: {
    severity: 'notice',
    title: 'Pull request changes the policy',
    help: 'This pull request changes the policy file (or trust material read at the base): the change takes effect after merge; its effect on the committed corpus is shown.',
  },
  verified_not_reproduced: {
    severity: 'error',
    title: 'verified claim not reproduced',
    help: 'A call claims verified, but no committed audit record reproduces its binding.',
    shortfall: true,
  },
  observed_confirmed_not_reproduced: {
    severity: 'warning',
    option: { when: 'with `strict-observed`', severity: 'error' },
    title: 'observed_confirmed claim not reproduced',
    help: 'A call claims observed_confirmed, but no later successful read of the same target in the run confirms it (decided after it and, where the run says, begun after it was decided).',
    shortfall: true,
  },
  inconsistent_claim: {
    severity: 'error',
    title: 'Inconsistent claim',
    help: "A call's claim contradicts itself (level, source, digest, asserted flags), or asserts a side effect of a call that was denied, failed or did not succeed.",
  },
  run_incomplete: {
    severity: 'error',
    title: 'Run incomplete',
    help: 'A server log shows a tool call started or answered with no decision, or an event lost: a side effect may have happened that no decision records.',
    about: 'file',
  },
  run_unattested: {
    severity: 'error',
    option: { when: "with the policy file's `trust.mode: warn`", severity: 'warning' },
    title: 'Run not attested by a trusted producer',
    help: 'Trusted producers are configured and the run is not an evidence bundle whose attestation a trusted producer key signed and every check passes.',
    about: 'file',
  },
  orphan_attestation: {
    severity: 'warning',
    title: 'Attestation without its artifact',
    help: 'An attestation file (.intoto.jsonl, .sigstore.json) has no artifact of its base name beside it: a renamed artifact must not lose its attestation silently.',
    about: 'file',
  },
  no_artifacts: {
    severity: 'error',
    title: 'No run artifacts',
    help: 'The run-artifact inputs matched no file, or their files hold not one decision (an empty capture, runs and audit swapped); a gate that sees nothing must not pass.',
  },
  rule_unused: {
    severity: 'warning',
    title: 'Required-level rule applies to no call',
    help: 'A required-level rule matches no call that asserts a side effect (a misspelt class or verb must not silently turn a requirement off).',
  },
  effect_not_logged: {
    severity: 'error',
    title: 'Side effect the provider never logged',
    help: "An export's coverage statement covers the call's time and scope and holds no record for it: the side effect the agent asserted is not in the provider's log (or was done under another identity). Never excused.",
  },
  coverage_empty: {
    severity: 'warning',
    title: 'Coverage statement covers no call',
    help: 'A coverage statement whose actors list is empty, that names no organisation or repository (GitHub), or that lists an action no class the gate binds has (or another provider than its class): it checks nothing of what it names, so no call is held to it.',
  },
  pending: {
    severity: 'notice',
    title: 'Export not due yet',
    help: "The call is newer than every export that could cover it and younger than the policy's pending: its requirement waits for the next export.",
  },
  trusted_root_stale: {
    severity: 'warning',
    title: 'Shipped trusted root is old',
    help: 'The Sigstore trusted root shipped with receipt-gate was taken more than 180 days ago: update receipt-gate or pass a fresh trusted-root.',
  },
  imported_twice: {
    severity: 'notice',
    title: 'Audit entry imported twice',
    help: 'One audit entry is present twice with the same meaning (overlapping exports, at-least-once streaming, a redelivery): it is counted once.',
  },
  under_claimed: {
    severity: 'notice',
    title: 'Under-claimed',
    help: 'Calls earned a higher level than they claim (verified by a later export: the normal state with nightly exports); counted in one notice.',
  },
  signatures_unchecked: {
    severity: 'warning',
    title: 'Signatures not checked',
    help: 'Audit records are signed, but no trusted key or identity is configured: their signatures were not checked, and they count as unsigned ones would (give trusted-keys, and require-signed-records).',
  },
  skipped_object: { severity: 'notice', title: 'Skipped object', help: 'Objects of other artifact kinds were skipped.', about: 'file' },
  no_decisions: {
    severity: 'notice',
    title: 'No decisions',
    help: 'A run artifact (or a verified evidence bundle) holds no tool decisions.',
    about: 'file',
  },
  run_not_started: {
    severity: 'notice',
    title: 'Server never started',
    help: "A captured log is assay-mcp-server's own output from a start that failed (a startup_failure line, or an error after server_start): the run contributes no calls; its reason_code and next step say what to fix.",
    about: 'file',
  },
  no_records: { severity: 'notice', title: 'No records', help: 'An audit export holds no audit record.', about: 'file' },
  no_match: {
    severity: 'notice',
    option: {
      when: 'for an input given explicitly, and for a default folder missing beside a folder of a near name, such as `.assay/audits`: what that holds is not read',
      severity: 'error',
    },
    title: 'Input matched nothing',
    help: 'An input path or glob matched no file.',
  },
} as const satisfies { readonly [code: string]: CatalogueEntry };

export type FindingCode = keyof typeof FINDINGS;
export const FINDING_CODES = Object.keys(FINDINGS) as readonly FindingCode[];

interface FindingBase {
  readonly severity: Severity;
  readonly code: FindingCode;
  readonly message: string;
}

/** A finding at a place in a committed file. */
export interface LocatedFinding extends FindingBase, Location {
  readonly input?: undefined;
}

/**
 * A finding about an input as given (`runs: .assay/run`, `require: github_deploy_key=verified`),
 * not a place in a file: it has no file location, and no reporter invents one.
 */
export interface InputFinding extends FindingBase {
  readonly input: string;
  readonly file: null;
  readonly line: null;
  readonly column: null;
  readonly member?: undefined;
  readonly commit?: undefined;
}

export type Finding = LocatedFinding | InputFinding;

/** `file:line` (with `:column` when asked): how a message names a place; reporters have their own (report/text.ts). */
export const placeOf = (l: Location, column = false): string => `${l.file}:${l.line}${column ? `:${l.column}` : ''}`;

/** A finding at a location; `severity` only for the codes whose severity an option changes. */
export function finding(code: FindingCode, loc: Location, message: string, severity: Severity = FINDINGS[code].severity): LocatedFinding {
  const base = { severity, code, file: loc.file, line: loc.line, column: loc.column, message };
  if (loc.member !== undefined) return { ...base, member: loc.member };
  // A place in a file of another commit (a pull request's base, --policy-ref) names that commit in words too:
  // the file a reader has open is not the one the finding is about (docs/policy.md §8).
  if (loc.commit !== undefined) {
    const short = loc.commit.slice(0, 12);
    return { ...base, message: message.includes(short) ? message : `${message} (${loc.file} at commit ${short})`, commit: loc.commit };
  }
  return base;
}

/** A finding about an input as the user gave it (a path or glob), not a place in a committed file. */
export function inputFinding(
  code: FindingCode,
  input: string,
  message: string,
  severity: Severity = FINDINGS[code].severity,
): InputFinding {
  return { severity, code, input, file: null, line: null, column: null, message };
}

/** Root causes first: findings about inputs, then about whole files, then about the records and calls in them. */
const groupOf = (f: Finding): 0 | 1 | 2 => (f.input !== undefined ? 0 : 'about' in FINDINGS[f.code] ? 1 : 2);

export const byLocation = (a: Location, b: Location): number => cmp(a.file, b.file) || a.line - b.line || a.column - b.column;

/** Where a finding is, for ordering: its input, or its file, line and column. */
const position = (a: Finding, b: Finding): number =>
  a.input !== undefined || b.input !== undefined ? cmp(a.input ?? '', b.input ?? '') : byLocation(a, b);

/** Root causes first (semantics §6): by group, then in path and line order, then by severity, code and message. */
export function compareFindings(left: Finding, right: Finding): number {
  return (
    groupOf(left) - groupOf(right) ||
    position(left, right) ||
    SEVERITY_TABLE[left.severity].rank - SEVERITY_TABLE[right.severity].rank ||
    cmp(left.code, right.code) ||
    cmp(left.message, right.message)
  );
}
