/**
 * What one file contributed, as it crosses from a reading thread to the gate: one compact JSON text
 * of tuples (never the parsed artifact, never a structured clone of an object graph). `JSON.parse`
 * of it rebuilds, in one native pass, what the reader prepared; `decodeRead` restores the exact
 * shapes (decode(encode(r)) equals r: tested on every fixture). A decision is ~250 bytes here against
 * ~2 KB in the artifact, and nothing of it is scanned, classified or hashed again. Trust crosses as
 * decisions: signatures and payloads never leave the thread that checked them.
 *
 * The text is produced by this gate's own reader in the same process; it is not input, and it is
 * read only by `decodeRead`.
 */
import type { Binding } from '../core/binding.js';
import type { ClaimReading } from '../core/claims.js';
import { FINDING_CODES, type Finding } from '../core/findings.js';
import type { JsonObject } from '../core/json.js';
import type { Location } from '../core/location.js';
import type { StatementInput } from '../core/model.js';
import {
  type Attestation,
  type AuditRecord,
  type DecisionInput,
  RECORD_SCHEMA,
  type RecordInput,
  type RunInput,
  type Trust,
} from '../core/model.js';
import type { Projection } from '../core/projection.js';
import type { Result } from '../core/result.js';
import { SEVERITIES } from '../core/severity.js';
import { messageOf } from '../core/text.js';
import type { Instant } from '../core/time.js';
import { TRUST_CODE_NAMES } from '../core/trust.js';
import { isLevel, type Level } from '../core/vocabulary.js';
import type { FileEvidence } from './file-read.js';
import type { GeneratedValidator } from './validators.generated.js';

/** [file (null: the file read), line, column, member (null: none)] */
type Loc = [string | null, number, number, string | null];
/** The claimed digest is SAME when it is the subject's digest (most claims of `verified`): sent once, one string after. */
type ClaimTuple = [0, string] | [1, boolean, Level, string | null | typeof SAME, boolean, string[]];
type ProjectionTuple = [0, string] | [1, string, string, JsonObject, string];
type DecisionTuple = [
  ...Loc,
  number,
  string | null,
  ClaimTuple,
  ProjectionTuple,
  // action class and verb: SAME when they are the subject's (always, when there is one)
  string | null | typeof SAME,
  string | null | typeof SAME,
  DecisionInput['denied'],
  0 | 2 | string,
  boolean,
  JsonObject | null,
  // time: [whole seconds, fraction digits], or null
  InstantTuple | null,
  // begun: the same, or null
  InstantTuple | null,
  // session: its server session in the run (0: a format without sessions)
  number,
];
/** An instant: [whole seconds, fraction digits], and 1 in a leap second (core/time.ts `leap`: without it, 23:59:60 would come back as 23:59:59). */
type InstantTuple = [number, string] | [number, string, 1];
/** The recomputed binding: SAME when it is binding_digest (a consistent record), else the digest, or [why] it cannot be. */
type RecomputedTuple = typeof SAME | string | [string];
type RecordTuple = [...Loc, string, string, AuditRecord['subject'], string, string | null, Trust, RecomputedTuple];

interface Wire {
  readonly run: {
    readonly artifact: string;
    readonly decisions: readonly DecisionTuple[];
    readonly attestation: Attestation | null;
    readonly sha256: string | null;
  } | null;
  readonly records: readonly RecordTuple[];
  /** Coverage statements as they are: a few per file at most. */
  readonly statements: readonly StatementInput[];
  readonly findings: readonly Finding[];
  readonly digests: readonly (readonly [string, string])[];
  readonly strays: number;
  readonly rejectedClasses: readonly string[];
}

const loc = (l: Location, rel: string): Loc => [l.file === rel ? null : l.file, l.line, l.column, l.member ?? null];
const unloc = (tuple: readonly [...Loc, ...unknown[]], rel: string): Location => {
  const [written, line, column, member] = tuple;
  const file = written ?? rel;
  return member === null ? { file, line, column } : { file, line, column, member };
};

/** A member equal to the subject's (sent once; the decoded call holds one string for both, as the reader's does). */
const SAME = 1;
const subjectOf = (p: Projection): (Projection & { kind: 'subject' }) | null => (p.kind === 'subject' ? p : null);
const same = <T>(v: T, subject: unknown): T | typeof SAME => (v !== null && v === subject ? SAME : v);

const claimTuple = (c: ClaimReading, p: Projection): ClaimTuple =>
  c.kind === 'invalid'
    ? [0, c.reason]
    : [1, c.claim.asserted, c.claim.level, same(c.claim.digest, subjectOf(p)?.digest), c.claim.legacy, [...c.inconsistencies]];
const projectionTuple = (p: Projection): ProjectionTuple =>
  p.kind === 'none' ? [0, p.reason] : [1, p.subject.action_class, p.subject.verb, p.subject.target, p.digest];
/** provider: 0 absent or null, 2 invalid, else the string (1 is unused, so a string never collides). */
const providerTuple = (p: DecisionInput['provider']): 0 | 2 | string => (p === null ? 0 : typeof p === 'string' ? p : 2);

const instantTuple = (t: Instant | null): InstantTuple | null =>
  t === null ? null : t.leap ? [t.seconds, t.fraction, 1] : [t.seconds, t.fraction];
const instantOf = (t: InstantTuple | null): Instant | null =>
  t === null ? null : t[2] === 1 ? { seconds: t[0], fraction: t[1], leap: true } : { seconds: t[0], fraction: t[1] };

const decisionTuple = (d: DecisionInput, rel: string): DecisionTuple => [
  ...loc(d.loc, rel),
  d.index,
  d.tool,
  claimTuple(d.claim, d.projection),
  projectionTuple(d.projection),
  same(d.actionClass, subjectOf(d.projection)?.subject.action_class),
  same(d.verb, subjectOf(d.projection)?.subject.verb),
  d.denied,
  providerTuple(d.provider),
  d.succeeded,
  d.labels,
  instantTuple(d.time),
  instantTuple(d.begun),
  d.session,
];

const recordTuple = (r: RecordInput, rel: string): RecordTuple => [
  ...loc(r.loc, rel),
  r.record.provider,
  r.record.record_id,
  r.record.subject,
  r.record.binding_digest,
  r.signer,
  r.trust,
  r.recomputed.ok ? (r.recomputed.digest === r.record.binding_digest ? SAME : r.recomputed.digest) : [r.recomputed.reason],
];

/** What a reading thread sends for one file. */
export function encodeRead(evidence: FileEvidence, rel: string): string {
  const wire: Wire = {
    run: evidence.run
      ? {
          artifact: evidence.run.artifact,
          decisions: evidence.run.decisions.map((d) => decisionTuple(d, rel)),
          attestation: evidence.run.attestation ?? null,
          sha256: evidence.run.sha256 ?? null,
        }
      : null,
    records: evidence.records.map((x) => recordTuple(x, rel)),
    statements: evidence.statements,
    findings: evidence.findings,
    digests: evidence.digests,
    strays: evidence.strays ?? 0,
    rejectedClasses: evidence.rejectedClasses ?? [],
  };
  return JSON.stringify(wire);
}

/** Consistent claims share one empty list, as the reader's do. */
const NONE: readonly string[] = Object.freeze([]);
const INVALID_PROVIDER = Object.freeze({ invalid: true as const });

function claimOf(t: ClaimTuple, projection: Projection): ClaimReading {
  if (t[0] === 0) return { kind: 'invalid', reason: t[1] };
  const [, asserted, level, sent, legacy, inconsistencies] = t;
  const subject = subjectOf(projection);
  // SAME is written only for a claim whose digest is its subject's: a subject is there.
  const digest = sent === SAME ? (subject?.digest ?? null) : sent;
  return { kind: 'claim', claim: { asserted, level, digest, legacy }, inconsistencies: inconsistencies.length ? inconsistencies : NONE };
}

function projectionOf(t: ProjectionTuple): Projection {
  if (t[0] === 0) return { kind: 'none', reason: t[1] };
  return { kind: 'subject', subject: { action_class: t[1], verb: t[2], target: t[3] }, digest: t[4] };
}

function decisionOf(tuple: DecisionTuple, rel: string): DecisionInput {
  const [, , , , index, tool, claim, projected, actionClass, verb, denied, provider, succeeded, labels, time, begun, session] = tuple;
  const projection = projectionOf(projected);
  // SAME is written only for a member equal to the subject's: a subject is there.
  const subject = subjectOf(projection)?.subject ?? null;
  return {
    loc: unloc(tuple, rel),
    index,
    tool,
    claim: claimOf(claim, projection),
    projection,
    actionClass: actionClass === SAME ? (subject?.action_class ?? null) : actionClass,
    verb: verb === SAME ? (subject?.verb ?? null) : verb,
    denied,
    provider: provider === 0 ? null : provider === 2 ? INVALID_PROVIDER : provider,
    succeeded,
    labels,
    time: instantOf(time),
    begun: instantOf(begun),
    session,
  };
}

function recordOf(t: RecordTuple, rel: string): RecordInput {
  const record: AuditRecord = { schema: RECORD_SCHEMA, provider: t[4], record_id: t[5], subject: t[6], binding_digest: t[7] };
  const sent = t[10];
  const recomputed: Binding =
    sent === SAME
      ? { ok: true, digest: record.binding_digest }
      : typeof sent === 'string'
        ? { ok: true, digest: sent }
        : { ok: false, reason: sent[0] };
  return { loc: unloc(t, rel), record, recomputed, signer: t[8], trust: t[9] };
}

/** What a reading thread sent for the file `rel` (as encodeRead wrote it). */
export const decodeRead = (text: string, rel: string): FileEvidence => fromWire(JSON.parse(text), rel);

const FINDING_CODE_SET: ReadonlySet<string> = new Set(FINDING_CODES);
const TRUST_CODE_SET: ReadonlySet<string> = new Set(TRUST_CODE_NAMES);
const SEVERITY_SET: ReadonlySet<string> = new Set(SEVERITIES);
const trustCodeOk = (t: Trust | Attestation | null): boolean => t === null || !('code' in t) || TRUST_CODE_SET.has(t.code);

/**
 * The first reason a text another process wrote (a cache entry: src/gate/cache.ts) is not an
 * encoded FileEvidence, or null: its shape (schemas/evidence-cache-entry.schema.json), then every
 * member named from a vocabulary against its table (findings, severities, levels, trust codes).
 */
function wireProblem(w: unknown, shape: GeneratedValidator): string | null {
  if (!shape(w)) {
    const e = shape.errors?.[0];
    return `its shape: ${e ? `${e.instancePath || '/'} ${e.message ?? e.keyword}` : 'invalid'}`;
  }
  const wire = w as Wire;
  for (const f of wire.findings)
    if (!FINDING_CODE_SET.has(f.code) || !SEVERITY_SET.has(f.severity)) return `a finding's code or severity (${f.code}, ${f.severity})`;
  for (const d of wire.run?.decisions ?? []) {
    const claim = d[6];
    if (claim[0] === 1 && !isLevel(claim[2])) return `a claimed level (${claim[2]})`;
  }
  if (!trustCodeOk(wire.run?.attestation ?? null)) return "a run's trust code";
  for (const r of wire.records) if (!trustCodeOk(r[9])) return "a record's trust code";
  for (const st of wire.statements) if (!trustCodeOk(st.trust)) return "a statement's trust code";
  return null;
}

declare const CHECKED: unique symbol;

/** An encoded FileEvidence another process wrote that passed `checkWire` (the brand is made there and nowhere else): the only kind `decodeCheckedWire` takes. */
export interface CheckedWire {
  readonly wire: Wire;
  readonly [CHECKED]: true;
}

/**
 * An encoded FileEvidence written by another process (a cache entry), checked: the checked value,
 * or why it is not one (it is then ignored and the file read). Decoding it is left to the thread
 * that needs the evidence (`decodeCheckedWire`); a worker sends the text it checked as it is.
 */
export function checkWire(text: string, shape: GeneratedValidator): Result<CheckedWire> {
  let w: unknown;
  try {
    w = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `it is not JSON (${messageOf(error)})` };
  }
  const problem = wireProblem(w, shape);
  return problem === null ? { ok: true, value: { wire: w as Wire } as CheckedWire } : { ok: false, reason: problem };
}

/** The evidence of a checked text, for the file `rel`. */
export const decodeCheckedWire = (checked: CheckedWire, rel: string): FileEvidence => fromWire(checked.wire, rel);

function fromWire(w: Wire, rel: string): FileEvidence {
  let run: RunInput | null = null;
  if (w.run) {
    const { artifact, attestation, sha256 } = w.run;
    const decisions = w.run.decisions.map((d) => decisionOf(d, rel));
    run = {
      artifact,
      decisions,
      ...(attestation === null ? {} : { attestation }),
      ...(sha256 === null ? {} : { sha256 }),
    };
  }
  return {
    run,
    records: w.records.map((r) => recordOf(r, rel)),
    statements: w.statements,
    findings: w.findings,
    digests: w.digests,
    ...(w.strays > 0 ? { strays: w.strays } : {}),
    ...(w.rejectedClasses.length > 0 ? { rejectedClasses: w.rejectedClasses } : {}),
  };
}
