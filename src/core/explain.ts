/**
 * Outcomes and verdicts in words. Everything here reads a reason the ladder made (core/ladder.ts);
 * nothing searches calls or records again. Untrusted text is quoted clipped (`quote`), and a reason
 * names at most a few records, so no message grows with the input.
 */

import { type Call, type CallRef, callRef } from './call.js';
import { scopeText, windowText } from './coverage.js';
import type { NoRecord, NotVerified, Snag, SnagKind, Unmatched } from './diagnose.js';
import { placeOf } from './findings.js';
import { type Outcome, READS_LOOKED_PAST, type Unconfirmed } from './ladder.js';
import type { DecisionInput, StatementInput } from './model.js';
import type { CheckedRecord } from './records.js';
import { quote } from './text.js';
import { type Instant, rfc3339 } from './time.js';
import { RECORD_OUTCOMES } from './vocabulary.js';

const at = (d: DecisionInput): string => `line ${d.loc.line}`;
const short = (d: string): string => (d.length > 20 ? `${d.slice(0, 15)}…${d.slice(-4)}` : d);

/** `record "id" (provider) at file:line` */
const recordName = (r: CheckedRecord): string =>
  `record ${JSON.stringify(quote(r.input.record.record_id))} (${quote(r.input.record.provider)}) at ${placeOf(r.input.loc)}`;

/** Who signed a record, as far as the gate checked (§8); nothing for an unsigned record without trusted keys. */
function signedBy(record: CheckedRecord): string {
  const { signer, trust } = record.input;
  if (trust.kind === 'trusted')
    return trust.by.kind === 'key'
      ? `, signed by trusted signer ${trust.by.keyId}`
      : `, attested by trusted identity ${quote(trust.by.signer.identity)}`;
  return signer === null ? '' : `, signed by key_id ${signer}, not checked: no trusted keys`;
}

/** `artifact decision N (line L)` */
const callName = (c: CallRef): string => `${c.artifact} decision ${c.index} (line ${c.line})`;

/** How a call is named in its own findings: its tool (or "decision") and its index. */
export const callTitle = (c: Call): string => `${c.input.tool === null ? 'decision' : quote(c.input.tool)} (decision ${c.input.index})`;

const NO_EFFECT = 'the call asserts no side effect (side_effect_asserted is false): it has no rung';
/** Why a call earned no observed_confirmed: the one wording, in reasons and in findings. */
const NO_READ = 'no later successful read of the same target in this run';

/** Why no later read confirmed a call (`unconfirmed`: the later reads of its target there are, and why they do not), in reasons and in findings. */
export function noReadText(unconfirmed: Unconfirmed | null): string {
  if (unconfirmed === null) return NO_READ;
  const { read } = unconfirmed;
  // A write that says no time is bounded by the run's latest time before it (ladder.ts).
  const decided = unconfirmed.decided
    ? `${unconfirmed.untimedWrite ? 'no time given; the run before it reached ' : ''}${rfc3339(unconfirmed.decided)}`
    : '?';
  const why =
    unconfirmed.why === 'other_session'
      ? `was decided in another server process's session than this call${read.session > 0 ? ` (after the log's server_start #${read.session})` : ''}: the log cannot show that two server processes served one agent run, so a read of one confirms no write of the other`
      : unconfirmed.why === 'decided_before'
        ? `was decided at ${read.time ? rfc3339(read.time) : '?'}, not after this call (${decided})`
        : unconfirmed.why === 'untimed'
          ? `says no time, so nothing shows it came after this call (${unconfirmed.untimedWrite ? '' : 'decided '}${decided}): give each event its time`
          : `began at ${read.begun ? rfc3339(read.begun) : '?'}, before this call was decided (${decided}): it ran alongside the call and may have read the state before it`;
  const others = unconfirmed.skipped - 1;
  const more = others > 0 ? `; ${others} more later read(s) of it cannot confirm it either` : '';
  const capped = unconfirmed.capped ? `; reads past the first ${READS_LOOKED_PAST} of one verb are not looked at` : '';
  return `no later successful read of the same target in this run confirms it: the read at ${at(read)} ${why}${more}${capped}`;
}
const NO_RECORD = 'no audit record binds its subject';
/** The most common reason, shared rather than rebuilt for every asserted call. */
const NO_EVIDENCE = `${NO_RECORD}; ${NO_READ}`;

function snagText(snag: Snag): string {
  switch (snag.kind) {
    case 'unusable': {
      const check = snag.record.check;
      const words = RECORD_OUTCOMES[check.outcome].snag;
      return `${recordName(snag.record)} ${words}${check.outcome === 'untrusted' ? ` (${check.reason})` : ''}`;
    }
    case 'taken':
      return `${recordName(snag.record)} already verifies ${callName(snag.holder)}`;
    case 'other_provider':
      return `${recordName(snag.record)} is from provider "${quote(snag.record.input.record.provider)}", the call targets "${quote(snag.callProvider)}"`;
  }
}

/** How the snags past the listed few are counted, by kind. */
const more = (k: SnagKind): string =>
  k === 'taken' ? RECORD_OUTCOMES.bound.more : k === 'other_provider' ? 'from another provider' : RECORD_OUTCOMES[k].more;

/** Why an eligible call got no record; with the digest in findings, where a reviewer compares it. */
export function noRecordText(noRecord: NoRecord, showDigest: boolean): string {
  const subject = showDigest ? `its subject ${noRecord.digest}` : 'its subject';
  if (noRecord.snags.length === 0) return `no audit record binds ${subject}`;
  const parts = noRecord.snags.map(snagText);
  const rest = [...noRecord.more.entries()];
  if (rest.length > 0) {
    const total = rest.reduce((a, [, k]) => a + k, 0);
    const kinds =
      rest.length === 1 ? `all ${more((rest[0] as [SnagKind, number])[0])}` : rest.map(([k, v]) => `${v} ${more(k)}`).join(', ');
    parts.push(`… and ${total} more record(s) for this subject, ${kinds}`);
  }
  return `no unused audit record binds ${subject}: ${parts.join('; ')}`;
}

export const notVerifiedText = (n: NotVerified, showDigest: boolean): string =>
  n.kind === 'ineligible' ? n.reason : noRecordText(n, showDigest);

/** Why a call earned exactly its level. */
export function outcomeText(outcome: Outcome): string {
  switch (outcome.level) {
    case null:
      return NO_EFFECT;
    case 'verified':
      return `bound by ${recordName(outcome.record)}${signedBy(outcome.record)}`;
    case 'observed_confirmed':
      return `confirmed by a later read at ${at(outcome.read)}; not verified: ${noRecordText(outcome.notVerified, false)}`;
    case 'asserted':
      if (outcome.why.kind === 'ineligible') return outcome.why.reason;
      if (outcome.unconfirmed !== null) return `${noRecordText(outcome.why, false)}; ${noReadText(outcome.unconfirmed)}`;
      return outcome.why.snags.length === 0 ? NO_EVIDENCE : `${noRecordText(outcome.why, false)}; ${NO_READ}`;
  }
}

const fieldList = (fields: readonly string[]): string => {
  if (fields.length === 0) return 'field order or types';
  const shown = fields.slice(0, 10).map((k) => quote(k, 60));
  return fields.length > 10 ? `${shown.join(', ')} and ${fields.length - 10} more field(s)` : shown.join(', ');
};

/** Whether the nearest call differs from the record only in the letter case of owner or repo. */
function caseOnly(u: Unmatched & { kind: 'nearest' }, record: CheckedRecord): boolean {
  if (u.differ.length === 0) return false;
  const left = u.target;
  const right = record.input.record.subject.target;
  return u.differ.every(
    (k) =>
      (k === 'owner' || k === 'repo') &&
      typeof left[k] === 'string' &&
      typeof right[k] === 'string' &&
      (left[k] as string).toLowerCase() === (right[k] as string).toLowerCase(),
  );
}

/** Why a usable record bound no call. */
export function unmatchedText(unmatched: Unmatched, record: CheckedRecord): string {
  const provider = quote(record.input.record.provider);
  switch (unmatched.kind) {
    case 'same_subject': {
      if (!unmatched.otherProvider && !unmatched.ineligible && unmatched.verified) {
        return `every call with its subject is already verified (${unmatched.verified.call.run.artifact} decision ${unmatched.verified.call.input.index} by ${recordName(unmatched.verified.record)}): one audit entry vouches for one call only`;
      }
      const parts: string[] = [];
      if (unmatched.otherProvider?.eligibility.ok) {
        parts.push(
          `its subject matches ${callName(callRef(unmatched.otherProvider))} but the call targets provider "${quote(unmatched.otherProvider.eligibility.provider ?? '')}", not "${provider}"`,
        );
      }
      if (unmatched.ineligible)
        parts.push(
          `its subject matches ${callName(callRef(unmatched.ineligible))}, which cannot be verified: ${unmatched.ineligible.eligibility.reason}`,
        );
      if (unmatched.verified)
        parts.push(
          `${callName(callRef(unmatched.verified.call))} is already verified by ${recordName(unmatched.verified.record)} (one audit entry vouches for one call only)`,
        );
      return parts.join('; ');
    }
    case 'nearest':
      return `no call has its subject ${short(record.input.record.binding_digest)}; nearest is ${callName(unmatched.call)}, whose target differs in ${fieldList(unmatched.differ)}${caseOnly(unmatched, record) ? ': only in letter case (GitHub names are case-insensitive; the binding is not)' : ''}`;
    case 'no_call':
      return `no call has its subject ${short(record.input.record.binding_digest)} (no ${JSON.stringify(quote(unmatched.actionClass))} call with verb ${JSON.stringify(quote(unmatched.verb))} at all)`;
  }
}

/** Where a call acted, in words: `on owner/repo` when its target names them. */
function targetWords(call: Call): string {
  const p = call.input.projection;
  if (p.kind !== 'subject') return '';
  const { owner, repo } = p.subject.target;
  return typeof owner === 'string' && typeof repo === 'string' ? ` on ${quote(owner, 60)}/${quote(repo, 100)}` : '';
}

/** The export a statement describes, in words: its kind, actors and window. */
function exportWords(s: StatementInput): string {
  const st = s.statement;
  const actors = st.actors.map((a) => quote(a, 60)).join(', ');
  return `the ${quote(st.export, 40)} export for ${actors} (${scopeText(st)}), ${windowText(st)}`;
}

/** effect_not_logged (docs/coverage.md §3): an export covered the call and holds no entry for it. */
export function effectNotLoggedText(call: Call, s: StatementInput, unusable: boolean): string {
  const at = call.input.time ? ` at ${rfc3339(call.input.time)}` : '';
  // Records of its subject that cannot bind it (a copy of one another call holds, another provider's, untrusted) are no entry for it.
  const which = unusable ? ' that can bind it (the records of its subject cannot: see its reason)' : '';
  return `${callTitle(call)}${targetWords(call)}${at} claims a side effect; ${exportWords(s)} holds no entry for it${which} (${placeOf(s.loc)}). Was it done under another identity?`;
}

/** pending: the call's export is not due yet. */
export function pendingText(call: Call, latest: StatementInput | null, until: Instant): string {
  const at = call.input.time ? ` at ${rfc3339(call.input.time)}` : '';
  const last = latest
    ? `the latest export of its scope (${placeOf(latest.loc)}) ends ${rfc3339(latest.statement.until)}`
    : 'no export of its scope is committed yet';
  return `${callTitle(call)}${at}: its export is not due yet (${last}); its requirement waits until ${rfc3339(until)}, then an export must cover it`;
}
