/**
 * Verdicts (§6, §7): what each call's claim, each call's required level and each record's fate mean
 * for the gate. A call's findings compare its claim (or its requirement) with its outcome and give
 * only the reasons that concern that claim; a record that does not bind a call is always reported
 * with its reason.
 */
import { callTitle, noRecordText, notVerifiedText, outcomeText, unmatchedText } from './explain.js';
import { finding, quote, type Finding } from './findings.js';
import type { Call, Outcome, RecordVerdict } from './ladder.js';
import { levelRank, type Level, type VerifyOptions } from './model.js';
import type { Rule } from './policy.js';
import type { CallReport, RecordReport } from './report.js';

const NO_READ = 'no later successful read of the same target exists in this run';

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
      return needed === 'verified' ? notVerifiedText(outcome.why, true) : NO_READ;
  }
}

/** A call's report line, and the findings its claim and its required level earn. */
export function judgeCall(call: Call, outcome: Outcome, rule: Rule | null, options: VerifyOptions, findings: Finding[]): CallReport {
  const { claim, input } = call;
  const level = outcome.level;
  const subject = input.projection.kind === 'subject' ? input.projection.digest : null;
  const where = callTitle(call);
  if (level !== null) {
    if (claim.level === 'verified') {
      if (level !== 'verified') {
        findings.push(finding('verified_not_reproduced', input.loc, `${where} claims verified, but ${whyNotReached(outcome, 'verified')}`));
      } else if (!claim.legacy && claim.digest !== subject) {
        findings.push(
          finding('verified_not_reproduced', input.loc, `${where} claims verification_subject_digest ${claim.digest} but its subject recomputes to ${subject}`),
        );
      }
    } else if (claim.level === 'observed_confirmed') {
      const severity = options.strictObserved ? 'error' : 'warning';
      if (level === 'asserted') {
        findings.push(
          finding(
            'observed_confirmed_not_reproduced',
            input.loc,
            `${where} claims observed_confirmed, but ${whyNotReached(outcome, 'observed_confirmed')}`,
            severity,
          ),
        );
      } else if (level === 'observed_confirmed' && claim.digest !== subject) {
        findings.push(
          finding(
            'observed_confirmed_not_reproduced',
            input.loc,
            `${where} claims verification_subject_digest ${claim.digest} but the write's subject recomputes to ${subject}`,
            severity,
          ),
        );
      }
    }
    if (levelRank(level) > levelRank(claim.level)) {
      findings.push(finding('under_claimed', input.loc, `${where} claims ${claim.level} but earned ${level}`));
    }
    if (rule && levelRank(level) < levelRank(rule.level)) {
      findings.push(
        finding('policy_unmet', input.loc, `${where}: ${rule.selector} requires ${rule.level}; earned ${level}: ${whyNotReached(outcome, rule.level)}`),
      );
    }
  }
  const r = outcome.level === 'verified' ? outcome.record.input : null;
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
    required_level: rule?.level ?? null,
    subject_digest: subject,
    record: r ? { file: r.loc.file, line: r.loc.line, provider: r.record.provider, record_id: r.record.record_id } : null,
    reason: outcomeText(outcome),
  };
}

/** A record's report line, and the finding for every record that does not bind a call. */
export function judgeRecord(v: RecordVerdict, options: VerifyOptions, findings: Finding[]): RecordReport {
  const { record, loc, signer } = v.record.input;
  const name = `record ${JSON.stringify(quote(record.record_id))} (${quote(record.provider)})`;
  switch (v.outcome) {
    case 'inconsistent':
      findings.push(finding('record_inconsistent', loc, `${name}: ${v.reason}`));
      break;
    case 'untrusted':
      findings.push(finding('record_untrusted', loc, `${name} is not from a trusted signer: ${v.reason}; it verifies no call`));
      break;
    case 'duplicate':
      findings.push(
        finding('duplicate_record', loc, `${name} repeats the record at ${v.first.loc.file}:${v.first.loc.line}; one audit entry may vouch for one call only`),
      );
      break;
    case 'unmatched':
      findings.push(
        finding('record_unmatched', loc, `${name} binds no call: ${unmatchedText(v.why, v.record)}`, options.allowUnmatchedRecords ? 'warning' : 'error'),
      );
      break;
    case 'bound':
      break;
  }
  const holder = v.outcome === 'bound' ? v.call : null;
  return {
    file: loc.file,
    line: loc.line,
    column: loc.column,
    provider: record.provider,
    record_id: record.record_id,
    outcome: v.outcome,
    binding_digest: record.binding_digest,
    recomputed_digest: v.record.check.recomputed,
    signer,
    untrusted: v.outcome === 'untrusted' ? v.reason : null,
    call: holder ? { artifact: holder.run.artifact, index: holder.input.index, line: holder.input.loc.line } : null,
  };
}
