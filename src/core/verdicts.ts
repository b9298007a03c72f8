/**
 * Verdicts (§6): what each call's claim and each record's fate mean for the gate. A call's findings
 * compare its claim with its outcome and give only the reasons that concern that claim; a record
 * that does not bind a call is always reported with its reason.
 */
import { callTitle, noRecordText, notVerifiedText, outcomeText, unmatchedText } from './explain.js';
import { finding, quote, type Finding } from './findings.js';
import type { Call, Outcome, RecordVerdict } from './ladder.js';
import { levelRank, type VerifyOptions } from './model.js';
import type { CallReport, RecordReport } from './report.js';

/** A call's report line, and the findings its claim earns. */
export function judgeCall(call: Call, outcome: Outcome, options: VerifyOptions, findings: Finding[]): CallReport {
  const { claim, input } = call;
  const level = outcome.level;
  const subject = input.projection.kind === 'subject' ? input.projection.digest : null;
  const where = callTitle(call);
  if (claim.level === 'verified') {
    if (outcome.level !== 'verified') {
      const why = outcome.level === 'observed_confirmed' ? noRecordText(outcome.notVerified, true) : notVerifiedText(outcome.why, true);
      findings.push(finding('verified_not_reproduced', input.loc, `${where} claims verified, but ${why}`));
    } else if (!claim.legacy && claim.digest !== subject) {
      findings.push(
        finding('verified_not_reproduced', input.loc, `${where} claims verification_subject_digest ${claim.digest} but its subject recomputes to ${subject}`),
      );
    }
  } else if (claim.level === 'observed_confirmed') {
    const severity = options.strictObserved ? 'error' : 'warning';
    if (outcome.level === 'asserted') {
      const why = outcome.why.kind === 'ineligible' ? outcome.why.reason : 'no later successful read of the same target exists in this run';
      findings.push(finding('observed_confirmed_not_reproduced', input.loc, `${where} claims observed_confirmed, but ${why}`, severity));
    } else if (outcome.level === 'observed_confirmed' && claim.digest !== subject) {
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
  const r = outcome.level === 'verified' ? outcome.record.input : null;
  return {
    artifact: call.run.artifact,
    index: input.index,
    line: input.loc.line,
    column: input.loc.column,
    member: input.loc.member ?? null,
    tool: input.tool,
    asserted: claim.asserted,
    claimed_level: claim.level,
    level,
    subject_digest: subject,
    record: r ? { file: r.loc.file, line: r.loc.line, provider: r.record.provider, record_id: r.record.record_id } : null,
    reason: outcomeText(outcome),
  };
}

/** A record's report line, and the finding for every record that does not bind a call. */
export function judgeRecord(v: RecordVerdict, options: VerifyOptions, findings: Finding[]): RecordReport {
  const { record, loc } = v.record.input;
  const name = `record ${JSON.stringify(quote(record.record_id))} (${quote(record.provider)})`;
  switch (v.outcome) {
    case 'inconsistent':
      findings.push(finding('record_inconsistent', loc, `${name}: ${v.reason}`));
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
    call: holder ? { artifact: holder.run.artifact, index: holder.input.index, line: holder.input.loc.line } : null,
  };
}
