/**
 * Verdicts (§6, §7): what each call's claim, each call's required level and each record's fate mean
 * for the gate. A call's findings compare its claim (or its requirement) with its outcome and give
 * only the reasons that concern that claim; each call's report carries its own findings, so no
 * reporter re-derives them. A record that does not bind a call is always reported with its reason.
 */

import type { Call } from './call.js';
import { type CallCoverage, FUTURE_GRACE_SECONDS } from './coverage.js';
import type { NoRecord, RecordVerdict } from './diagnose.js';
import {
  callTitle,
  effectNotLoggedText,
  noReadText,
  noRecordText,
  notVerifiedText,
  outcomeText,
  pendingText,
  unmatchedText,
} from './explain.js';
import { compareFindings, FINDINGS, type Finding, finding, placeOf } from './findings.js';
import type { Outcome } from './ladder.js';
import type { StatementInput, VerifyOptions } from './model.js';
import type { CallReport, RecordReport, WorkflowTrust } from './report.js';
import type { Requirement, Shortfall } from './requirements.js';
import { flat, quote } from './text.js';
import { type Instant, rfc3339 } from './time.js';
import { type WorkflowSigner, warnable } from './trust.js';
import { below, type Level, RECORD_OUTCOMES } from './vocabulary.js';

/** What an unmatched record means when the export is scoped to the agent (docs/importers.md, "Catching what an agent did not report"). */
const UNDECLARED =
  'With an export scoped to the agent (import --actor), this is a side effect the provider logged for the agent that no committed run declares, or one whose run is not committed yet';

/** Why a call that asserts a side effect earned no more than its level, in terms of the level it needed. */
function whyNotReached(outcome: Outcome, needed: Level): string {
  switch (outcome.level) {
    case null:
    case 'verified':
      return outcomeText(outcome);
    case 'observed_confirmed':
      return noRecordText(outcome.notVerified, true);
    case 'asserted':
      if (outcome.why.kind === 'ineligible') return outcome.why.reason;
      return needed === 'verified' ? notVerifiedText(outcome.why, true) : noReadText(outcome.unconfirmed);
  }
}

/** How a requirement is named in a finding: a `require` rule by its selector, a file's rule by its name, else the default. */
function requirementName(requirement: Requirement): string {
  const rule = requirement.rule;
  if (rule === null) return "the policy's default";
  return rule.at === null ? rule.selector : `rule ${rule.name} (${rule.selector})`;
}

/**
 * What coverage decides for a call (docs/coverage.md §3): `not_logged` when a usable statement covers
 * it and no record binds it; `pending` when its export is not due and no record binds it; `future`
 * for a decision after the verification time; otherwise nothing, or (`uncovered`)
 * that statements of its scope exist but none covers its time.
 */
export type CoverageVerdict =
  | { readonly kind: 'none' }
  | { readonly kind: 'future' }
  | { readonly kind: 'not_logged'; readonly statement: StatementInput }
  | { readonly kind: 'covered'; readonly statement: StatementInput }
  | { readonly kind: 'pending'; readonly latest: StatementInput | null; readonly until: Instant }
  | { readonly kind: 'uncovered' }
  | { readonly kind: 'unplaced'; readonly field: string; readonly statement: StatementInput };

/**
 * Whether no record binds the call, in what an export's silence speaks to (docs/coverage.md §3: "no
 * record binding it"): whatever records of its subject exist verified another call (one logged entry
 * covers one effect, §6), are a copy of one, another provider's, or unusable (untrusted, inconsistent).
 * None of those is an entry for this call. Only a replay of the call that holds the entry is excused.
 */
const unrecorded = (outcome: Outcome): boolean =>
  (outcome.level === 'asserted' || outcome.level === 'observed_confirmed') && !outcome.replayed && noRecordOf(outcome) !== null;

/** Why an eligible call that asserts a side effect got no record, or null (verified, ineligible, no rung). */
const noRecordOf = (outcome: Outcome): NoRecord | null => {
  const why = outcome.level === 'asserted' ? outcome.why : outcome.level === 'observed_confirmed' ? outcome.notVerified : null;
  return why !== null && why.kind === 'no_record' ? why : null;
};

/** Whether records of the call's subject exist that are not another call's (a copy, another provider's, unusable). */
const unusableSnags = (outcome: Outcome): boolean => {
  const why = noRecordOf(outcome);
  return why !== null && (why.snags.some((s) => s.kind !== 'taken') || [...why.more.keys()].some((k) => k !== 'taken'));
};

/** A call's coverage, judged against what it earned. */
export function coverageVerdict(coverage: CallCoverage, outcome: Outcome): CoverageVerdict {
  switch (coverage.kind) {
    case 'covered':
      return unrecorded(outcome) ? { kind: 'not_logged', statement: coverage.statement } : coverage;
    case 'pending':
      return unrecorded(outcome) ? coverage : { kind: 'none' };
    case 'uncovered':
      return coverage.scoped && outcome.level !== 'verified' ? { kind: 'uncovered' } : { kind: 'none' };
    case 'unplaced':
      return outcome.level === 'verified' ? { kind: 'none' } : coverage;
    default:
      return coverage;
  }
}

/** The findings a call's claim and its required level earn. */
function callFindings(
  call: Call,
  outcome: Outcome,
  requirement: Requirement,
  shortfall: Shortfall,
  options: VerifyOptions,
  subject: string | null,
  coverage: CoverageVerdict,
): Finding[] {
  const { claim, input } = call;
  const level = outcome.level;
  const out: Finding[] = [];
  if (coverage.kind === 'future')
    out.push(
      finding(
        'invalid_artifact',
        input.loc,
        `${callTitle(call)} was decided at ${input.time ? rfc3339(input.time) : '?'}, after the verification time ${options.now ? rfc3339(options.now) : '?'} (by more than ${FUTURE_GRACE_SECONDS / 60} minutes): a decision from the future`,
      ),
    );
  if (requirement.untold !== undefined && requirement.rule)
    out.push(
      finding(
        'invalid_artifact',
        input.loc,
        `${callTitle(call)}: whether rule ${quote(requirement.rule.name)} applies cannot be told (${requirement.untold}), so the call fails`,
      ),
    );
  if (level === null) return out;
  // One fact, one finding: a call claiming verified that an export covered without a record is verified_not_reproduced, with that reason.
  const notLogged = coverage.kind === 'not_logged' ? effectNotLoggedText(call, coverage.statement, unusableSnags(outcome)) : null;
  if (notLogged !== null && claim.level !== 'verified') out.push(finding('effect_not_logged', input.loc, notLogged));
  if (coverage.kind === 'pending') out.push(finding('pending', input.loc, pendingText(call, coverage.latest, coverage.until)));
  if (coverage.kind === 'unplaced')
    out.push(
      finding(
        'invalid_artifact',
        input.loc,
        `${callTitle(call)}: its target gives no ${coverage.field} as text, and the coverage statements of its action are scoped by it (${coverage.statement.loc.file}:${coverage.statement.loc.line}): none can say whether its side effect was logged`,
      ),
    );
  if (claim.level === 'verified') {
    if (level !== 'verified') {
      const why = notLogged ?? whyNotReached(outcome, 'verified');
      out.push(finding('verified_not_reproduced', input.loc, `${callTitle(call)} claims verified, but ${why}`));
    } else if (!claim.legacy && claim.digest !== subject) {
      out.push(
        finding(
          'verified_not_reproduced',
          input.loc,
          `${callTitle(call)} claims verification_subject_digest ${claim.digest} but its subject recomputes to ${subject}`,
        ),
      );
    }
  } else if (claim.level === 'observed_confirmed') {
    const severity = options.strictObserved ? 'error' : 'warning';
    if (level === 'asserted') {
      const why = whyNotReached(outcome, 'observed_confirmed');
      out.push(
        finding('observed_confirmed_not_reproduced', input.loc, `${callTitle(call)} claims observed_confirmed, but ${why}`, severity),
      );
    } else if (claim.digest !== subject) {
      // What was not reproduced: the digest the claim names (or that it names none) against the write's
      // subject, whatever the call earned (a record verifying it later does not make its claim right).
      const why =
        claim.digest === null
          ? `${callTitle(call)} claims observed_confirmed but names no verification_subject_digest: ${level === 'observed_confirmed' ? "the read confirmed the write's target, but " : ''}the claim does not say which subject it confirmed (the write's subject recomputes to ${subject}; the producer must write that digest)`
          : `${callTitle(call)} claims verification_subject_digest ${claim.digest} but the write's subject recomputes to ${subject}`;
      out.push(finding('observed_confirmed_not_reproduced', input.loc, why, severity));
    }
  }
  // A call that earned more than it claims (verified by a later export: the normal state with nightly
  // exports) is counted once for the whole report (verify.ts underClaimed), never a finding per call.
  const required = requirement.level;
  if (required === null || shortfall.kind === 'met') return out;
  const name = requirementName(requirement);
  if (shortfall.kind === 'excused') {
    const e = shortfall.exception;
    out.push(
      finding(
        'policy_excepted',
        input.loc,
        `${callTitle(call)}: ${name} requires ${required}; earned ${level}; excused by the exception at ${placeOf(e.at)} (owner ${quote(e.owner, 100)}, reason ${JSON.stringify(quote(e.reason, 200))}, until ${e.expiresText})${e.onlyIn ? '; added by this pull request, it applies now: it excuses a call already on the base with the same bytes' : ''}`,
      ),
    );
    return out;
  }
  // One fact, one finding (docs/policy.md §11): a call the export never logged is that error alone.
  if (notLogged !== null) return out;
  let why: string;
  if (!below(level, required)) {
    const wants = (requirement.rule?.signedBy ?? []).join(', ');
    why = `the record that verified it was vouched for by ${shortfall.voucher ?? 'no checked signer'}; the rule wants one of ${wants}`;
  } else {
    // One fact, one finding (§6): when the claim's own finding already gives this reason, refer to it.
    const said = out.find((f) => 'shortfall' in FINDINGS[f.code] && claim.level === required && f.severity === 'error');
    why = said ? `see ${said.code} (the same reason)` : whyNotReached(outcome, required);
    if (!said && coverage.kind === 'uncovered') why = `${why}; no export covers this call's time`;
  }
  const severity = requirement.mode === 'warn' ? 'warning' : 'error';
  const warned = requirement.mode === 'warn' ? ' (mode warn: it would fail under enforce)' : '';
  out.push(
    finding('policy_unmet', input.loc, `${callTitle(call)}: ${name} requires ${required}; earned ${level}: ${why}${warned}`, severity),
  );
  return out;
}

const NO_FINDINGS: readonly Finding[] = Object.freeze([]);

/** A shortfall reported suppressed: one an exception excuses, or one of a grandfathered run. */
function suppressedOf(call: Call, outcome: Outcome, requirement: Requirement, shortfall: Shortfall): CallReport['suppressed'] {
  const level = outcome.level;
  if (level === null) return null;
  if (shortfall.kind === 'excused') {
    const e = shortfall.exception;
    return {
      message: `${callTitle(call)}: ${requirementName(requirement)} requires ${requirement.level}; earned ${level}`,
      severity: requirement.mode === 'warn' ? 'warning' : 'error',
      justification: `exception at ${placeOf(e.at)} (owner ${quote(e.owner, 100)}, until ${e.expiresText}): ${quote(e.reason, 300)}`,
    };
  }
  const shadow = requirement.shadow;
  if (!shadow || !below(level, shadow.level)) return null;
  const name = shadow.rule ? requirementName({ ...requirement, rule: shadow.rule }) : "the policy's default";
  return {
    message: `${callTitle(call)}: ${name} requires ${shadow.level}; earned ${level}`,
    severity: shadow.rule?.mode === 'warn' ? 'warning' : 'error',
    justification: `grandfathered run: ${quote(shadow.reason, 300)}`,
  };
}

/**
 * A call's report line with its findings.
 * @param read the findings its decision already has (its claim's shape and consistency)
 */
export function judgeCall(
  call: Call,
  outcome: Outcome,
  requirement: Requirement,
  shortfall: Shortfall,
  options: VerifyOptions,
  read: readonly Finding[],
  coverage: CoverageVerdict,
): CallReport {
  const { claim, input } = call;
  const level = outcome.level;
  const subject = input.projection.kind === 'subject' ? input.projection.digest : null;
  const own = callFindings(call, outcome, requirement, shortfall, options, subject, coverage);
  const all = read.length === 0 ? own : [...read, ...own];
  if (all.length > 1) all.sort(compareFindings);
  // Most calls have no finding: they share one empty list.
  const findings = all.length === 0 ? NO_FINDINGS : all;
  const record = outcome.level === 'verified' ? outcome.record.input : null;
  return {
    artifact: call.run.artifact,
    index: input.index,
    line: input.loc.line,
    column: input.loc.column,
    member: input.loc.member ?? null,
    tool: input.tool,
    asserted: claim.asserted,
    claimed_level: level === null ? null : claim.level,
    level,
    required_level: requirement.level,
    subject_digest: subject,
    record: record
      ? { file: record.loc.file, line: record.loc.line, provider: record.record.provider, record_id: record.record.record_id }
      : null,
    reason: flat(outcomeText(outcome)),
    rule: requirement.rule?.name ?? null,
    mode: requirement.mode,
    excepted: shortfall.kind === 'excused' ? placeOf(shortfall.exception.at) : null,
    grandfathered: requirement.grandfathered,
    time: input.time === null ? null : rfc3339(input.time),
    coverage:
      coverage.kind === 'covered' || coverage.kind === 'not_logged'
        ? { status: 'covered', statement: { file: coverage.statement.loc.file, line: coverage.statement.loc.line } }
        : coverage.kind === 'pending'
          ? { status: 'pending', statement: coverage.latest ? { file: coverage.latest.loc.file, line: coverage.latest.loc.line } : null }
          : null,
    findings,
    // A call the export never logged fails on that alone: its shortfall is not counted again.
    below_required: shortfall.kind === 'short' && requirement.mode !== 'warn' && coverage.kind !== 'not_logged',
    warned: shortfall.kind === 'short' && requirement.mode === 'warn' && coverage.kind !== 'not_logged',
    pending: coverage.kind === 'pending',
    effect_not_logged: coverage.kind === 'not_logged',
    suppressed: suppressedOf(call, outcome, requirement, shortfall),
  };
}

/** The words of a record's finding (the code comes from the outcome table). */
function recordMessage(verdict: RecordVerdict, name: string, options: VerifyOptions): string | null {
  if (verdict.outcome === 'bound') return null;
  if (verdict.outcome === 'unmatched') {
    // No call of its subject at all: a run is missing more likely than a hash is wrong (docs/policy.md §12).
    const why = verdict.why;
    const missing =
      why.kind === 'no_call' || (why.kind === 'nearest' && why.differ.some((f) => f !== 'owner' && f !== 'repo'))
        ? ". No committed run holds this call: was the agent's run merged? (with the policy's pending set, a record waits for its run as record_pending)"
        : '';
    return `${name} binds no call: ${unmatchedText(why, verdict.record)}. ${UNDECLARED}${missing}`;
  }
  if (verdict.outcome === 'awaiting_run')
    return `${name} binds no call yet: ${unmatchedText(verdict.why, verdict.record)}. Its export is younger than the policy's pending: the agent's run may still arrive by its own pull request; it waits until ${rfc3339(verdict.until)}, then it is record_unmatched`;
  const check = verdict.record.check;
  switch (check.outcome) {
    case 'inconsistent':
      return `${name}: ${check.reason}`;
    case 'untrusted':
      if (check.code === 'history_only')
        return `${name} is held to its own trust: ${check.reason}; it verifies no call, under any trust mode`;
      return `${name} is not from a trusted signer: ${check.reason}; it verifies no call${softened(check, options) ? ' (trust mode warn: it would fail under enforce)' : ''}`;
    case 'imported_twice':
      return `${name} is the same audit entry as the record at ${placeOf(check.first.loc)} (same identity, same subject and binding_digest): counted once`;
    case 'duplicate':
      return `${name} shares (provider, record_id) with the record at ${placeOf(check.other.loc)}, whose subject differs: one identity names one audit entry, so neither verifies a call`;
  }
}

/** Whether trust mode warn makes a record's refusal a warning: an untrusted record whose code is a rollout's gap, never a replay (history_only). */
const softened = (check: RecordVerdict['record']['check'], options: VerifyOptions): boolean =>
  check.outcome === 'untrusted' && options.trustMode === 'warn' && warnable(check.code);

/** A workflow identity as the report names it. */
export const workflowTrust = (w: WorkflowSigner): WorkflowTrust => ({
  identity: w.identity,
  source_repository: w.sourceRepository,
  source_ref: w.sourceRef,
  issuer: w.issuer,
  signed_at: w.signedAt,
});

/** A record's report line, and the finding of a record that does not bind a call. */
export function judgeRecord(
  verdict: RecordVerdict,
  options: VerifyOptions,
): { readonly report: RecordReport; readonly finding: Finding | null } {
  const { record, loc, signer } = verdict.record.input;
  const name = `record ${JSON.stringify(quote(record.record_id))} (${quote(record.provider)})`;
  const code = RECORD_OUTCOMES[verdict.outcome].finding;
  const message = recordMessage(verdict, name, options);
  const severity =
    (verdict.outcome === 'unmatched' && options.allowUnmatchedRecords) ||
    (verdict.outcome === 'untrusted' && softened(verdict.record.check, options))
      ? 'warning'
      : undefined;
  const holder = verdict.outcome === 'bound' ? verdict.call : null;
  const trust = verdict.record.input.trust;
  const by = trust.kind === 'trusted' && trust.by.kind === 'identity' ? trust.by.signer : undefined;
  return {
    report: {
      file: loc.file,
      line: loc.line,
      column: loc.column,
      provider: record.provider,
      record_id: record.record_id,
      outcome: verdict.outcome,
      binding_digest: record.binding_digest,
      recomputed_digest: verdict.record.check.recomputed,
      signer,
      untrusted: verdict.record.check.outcome === 'untrusted' ? verdict.record.check.reason : null,
      untrusted_code: verdict.record.check.outcome === 'untrusted' ? verdict.record.check.code : null,
      call: holder ? { artifact: holder.run.artifact, index: holder.input.index, line: holder.input.loc.line } : null,
      ...(by ? { trusted_by: workflowTrust(by) } : {}),
    },
    finding: code !== null && message !== null ? finding(code, loc, message, severity) : null,
  };
}
