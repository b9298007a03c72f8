/**
 * Bytes of one run artifact or audit export → located decisions and records, plus findings.
 * Every document is strict JSON (see read/json/strict.ts); every decision and record keeps its line and
 * column. A run with any error contributes no calls (its sequence is what observed_confirmed reads,
 * so half a run is not a run); an audit export loses only the records that are broken.
 */

import { type Binding, sha256Digest, subjectCanonical } from '../core/binding.js';
import { type Finding, finding } from '../core/findings.js';
import { hasOwn, isObject, type JsonObject } from '../core/json.js';
import type { Location } from '../core/location.js';
import { type AuditRecord, COVERAGE_SCHEMA, RECORD_SCHEMA } from '../core/model.js';
import { quote } from '../core/text.js';
import { type Instant, parseRfc3339 } from '../core/time.js';
import { carriesDecision, classify, type Kind } from './classify.js';
import { checkStatement } from './coverage-statement.js';
import { type Doc, decodeSource, documents, LocatingSink, logLines, type Source } from './documents.js';
import { type FileRead, skippedFinding } from './file-read.js';
import type { Format } from './formats.js';
import { offsetAt, pathKey } from './json/scanner.js';
import { DEFAULT_LIMITS, type ReadLimits } from './limits.js';
import { EXPORT_KINDS, type ExportKind, exportKindOf } from './provider-exports.js';
import type { AuditEntryRead, RecordRead } from './record-read.js';
import { ServerLog } from './server-log.js';
import { checkRecord } from './shapes.js';
import { COVERAGE_PAYLOAD_TYPE, PAYLOAD_TYPE, payloadOf, readSignatureMember, type SignatureMember } from './signature.js';
import { RunDecisions, readSurface } from './surface.js';

const SURFACE_PATHS = [['observed_tool_decisions'], ['data', 'observed_tool_decisions']] as const;
const SURFACE_KEY = { schema: pathKey(SURFACE_PATHS[0]), event: pathKey(SURFACE_PATHS[1]) } as const;
const ROOT_KEY = pathKey([]);

/** Collects findings for one file, capped, and turns offsets into locations. */
class FileReport extends LocatingSink {
  private errors = 0;
  private suppressed = 0;
  private readonly skipped = new Map<string, number>();
  private firstSkip: Location | null = null;

  constructor(
    file: string,
    private readonly limits: ReadLimits,
  ) {
    super(file);
  }

  /** A server log shows a call with no decision, or a lost event (the run still counts, and fails). */
  incomplete(loc: Location, message: string): void {
    this.listed(finding('run_incomplete', loc, message));
  }

  get skippedAny(): boolean {
    return this.firstSkip !== null;
  }

  notice(code: 'no_decisions' | 'no_records', message: string): void {
    this.findings.push(finding(code, { file: this.file, line: 1, column: 1 }, message));
  }

  /** A capture of a server that never started (its startup_failure line, or its error after server_start). */
  notStarted(loc: Location, message: string): void {
    this.findings.push(finding('run_not_started', loc, message));
  }

  get failed(): boolean {
    return this.errors > 0;
  }

  protected override report(loc: Location, message: string): void {
    this.errors++;
    this.listed(finding('invalid_artifact', loc, message));
  }

  /** Every finding of the file counts toward the per-file limit of listed findings; the rest are counted. */
  private listed(finding: Finding): void {
    if (this.findings.length >= this.limits.maxFindingsPerFile) this.suppressed++;
    else this.findings.push(finding);
  }

  skip(loc: Location, name: string): void {
    this.firstSkip ??= loc;
    this.skipped.set(name, (this.skipped.get(name) ?? 0) + 1);
  }

  /** Objects of the other role's kind (an audit record among the runs, a run among the exports): skipped, and counted. */
  strays = 0;
  stray(loc: Location, name: string): void {
    this.strays++;
    this.skip(loc, name);
  }

  close(): Finding[] {
    if (this.suppressed > 0) {
      this.findings.push(
        finding(
          this.errors > 0 ? 'invalid_artifact' : 'run_incomplete',
          { file: this.file, line: 1, column: 1 },
          `${this.suppressed} more problem(s) in this file not listed`,
        ),
      );
    }
    if (this.firstSkip) this.findings.push(skippedFinding(this.firstSkip, this.skipped));
    return this.findings;
  }
}

/** A file decoded through the one pipeline (its text when first asked), its problems into `fr`. */
function fileSource(bytes: Uint8Array, fr: FileReport, limits: ReadLimits): Source | null {
  const source = decodeSource(bytes, limits, fr);
  if (source) fr.lines = source.lines;
  return source;
}

/** An audit export's documents; only a .json file's root array offsets are wanted (its records). */
function* auditDocuments(bytes: Uint8Array, format: 'json' | 'ndjson', fr: FileReport, limits: ReadLimits): Generator<Doc> {
  const source = fileSource(bytes, fr, limits);
  if (source === null) return;
  yield* documents(source, format, { limits, collect: format === 'json' ? [[]] : [] }, fr);
}

type TextFormat = Exclude<Format, 'bundle' | 'attestation'>;

/** What a reader of audit exports keeps besides what verification reads. */
export interface RecordReadOptions {
  /** Keep every record's payload P (the signing tools sign it); signed records keep theirs anyway. */
  readonly payloads?: boolean;
}

/** A signed entry's signature member and payload P (kept when signed, or when asked); null after an error reported at `loc`. */
function signedParts(
  payload: JsonObject,
  what: string,
  type: Parameters<typeof readSignatureMember>[1],
  loc: Location,
  fr: FileReport,
  options: RecordReadOptions,
  subject?: string,
): { readonly signature: SignatureMember | null; readonly payload: string | undefined } | null {
  const signed = hasOwn(payload, 'signature');
  const signature = signed ? readSignatureMember(payload['signature'], type) : null;
  // A malformed signature is garbage, never ignored: the entry is invalid, keys or not.
  if (signature && !signature.ok) {
    fr.error(loc, `${what}: ${signature.reason}`);
    return null;
  }
  if (!signed && !options.payloads) return { signature: null, payload: undefined };
  const canonical = payloadOf(payload, subject);
  if (!canonical.ok) {
    fr.error(loc, `${what}: cannot be canonicalized (${canonical.reason})`);
    return null;
  }
  return { signature: signature?.ok ? signature.value : null, payload: canonical.text };
}

/** A coverage statement among the records (docs/coverage.md): its shape, then its signature like a record's. */
function readStatement(
  kind: Kind & { kind: 'coverage' },
  loc: Location,
  fr: FileReport,
  out: AuditEntryRead[],
  options: RecordReadOptions,
): void {
  const shape = checkStatement(kind.payload);
  if (!shape.ok) {
    fr.error(loc, shape.reason);
    return;
  }
  const parts = signedParts(kind.payload, 'coverage statement', COVERAGE_PAYLOAD_TYPE, loc, fr, options);
  if (!parts) return;
  const { signature, payload } = parts;
  out.push(
    signature
      ? { kind: 'statement', loc, statement: shape.value, signer: signature.key_id, signature, payload }
      : { kind: 'statement', loc, statement: shape.value, signer: null, payload },
  );
}

function readRecord(
  kind: Kind & { kind: 'record' },
  loc: Location,
  fr: FileReport,
  out: AuditEntryRead[],
  options: RecordReadOptions,
): void {
  const shape = checkRecord(kind.payload);
  if (!shape.ok) {
    fr.error(loc, `audit record: ${shape.reason}`);
    return;
  }
  // Keep only what verification reads (never a spread of the parsed object).
  // The shape check above makes every member below what AuditRecord says it is.
  const parsed = kind.payload;
  const record: AuditRecord = {
    schema: RECORD_SCHEMA,
    provider: parsed['provider'] as string,
    record_id: parsed['record_id'] as string,
    subject: parsed['subject'] as AuditRecord['subject'],
    binding_digest: parsed['binding_digest'] as string,
  };
  // The binding is recomputed here, on the reading thread, from the subject as committed (the core
  // compares it); the subject's canonical text is made once, for the binding and the signed payload.
  const subject = subjectCanonical(record.subject);
  const recomputed: Binding = subject.ok ? { ok: true, digest: sha256Digest(subject.text) } : subject;
  const parts = signedParts(kind.payload, 'audit record', PAYLOAD_TYPE, loc, fr, options, subject.ok ? subject.text : undefined);
  if (!parts) return;
  const { signature, payload } = parts;
  const input: RecordRead = signature
    ? { kind: 'record', loc, record, recomputed, signer: signature.key_id, signature, payload }
    : { kind: 'record', loc, record, recomputed, signer: null, payload };
  out.push(input);
}

/** The end of the line that starts at `start` (its "\n", or the end of the text). */
const lineEnd = (text: string, start: number): number => {
  const n = text.indexOf('\n', start);
  return n < 0 ? text.length : n;
};

/**
 * The run an evidence event's CloudEvents `id` names: `<run>:<n>`, a run id with no `:` and a
 * sequence number, as a bundle's events must be written (evidence-bundle.md: `run_id + ":" +
 * assayseq`, the run id holding no `:`) and as import-run and upstream's proxy write them
 * (`run_onboarding:0`). Any other id (`1`, a uuid, a urn) names no run.
 */
const RUN_IN_ID = /^([^:]+):(?:0|[1-9][0-9]*)$/;

/** The run an event names by its id, with the id; null for an object that is no evidence event (`type` and `data`) or an id of another shape. */
function runInId(value: JsonObject): { readonly run: string; readonly id: string } | null {
  const id = value['id'];
  if (typeof id !== 'string' || typeof value['type'] !== 'string' || !hasOwn(value, 'data')) return null;
  const run = RUN_IN_ID.exec(id)?.[1];
  return run === undefined ? null : { run, id };
}

/** A run's name as a message says it, and how the event named it. */
const runText = (run: { readonly id: string; readonly by: string | null }): string =>
  `run ${JSON.stringify(quote(run.id, 80))} (${run.by === null ? 'assayrunid' : `its id ${JSON.stringify(quote(run.by, 80))}`})`;

/**
 * The run every event of a run file names: one. An event names its run by `assayrunid` (as
 * evidence-bundle.md writes it) or, without one, by its id's `<run>:` (`runInId`). Two runs
 * concatenated into one file would be read as one run, and a read of one would confirm a write of
 * the other (§5: the same run); a red team's Monday and Wednesday runs, named only by their ids
 * (`run_monday:0`, `run_wednesday:0`), were so. The first event naming another run is an error, as is
 * an event whose assayrunid and id name two runs (once per file).
 */
class RunIds {
  /** The first run named, `by` the id that named it (null: its assayrunid). */
  private first: { readonly id: string; readonly by: string | null; readonly loc: Location } | null = null;
  private said = false;

  event(value: unknown, loc: Location, fr: FileReport): void {
    if (this.said || !isObject(value)) return;
    const inId = runInId(value);
    let named: { readonly id: string; readonly by: string | null } | null = inId && { id: inId.run, by: inId.id };
    if (hasOwn(value, 'assayrunid')) {
      const id = value['assayrunid'];
      if (typeof id !== 'string') {
        this.said = true;
        fr.error(
          loc,
          `the event's assayrunid is ${id === null ? 'null' : typeof id}, not a string: a run file's events name their run by one string`,
        );
        return;
      }
      if (inId && inId.run !== id) {
        this.said = true;
        fr.error(
          loc,
          `this event's assayrunid names run ${JSON.stringify(quote(id, 80))} and its id ${JSON.stringify(quote(inId.id, 80))} run ${JSON.stringify(quote(inId.run, 80))}: an event names one run (its id is <assayrunid>:<sequence number>); commit each run as a file of its own, its events naming it alike`,
        );
        return;
      }
      named = { id, by: null };
    }
    if (named === null) return;
    if (this.first === null) this.first = { ...named, loc };
    else if (named.id !== this.first.id) {
      this.said = true;
      fr.error(
        loc,
        `this event names ${runText(named)}, the file's first event (line ${this.first.loc.line}) ${runText(this.first)}: a run file holds one run (of two runs in one file, a read of one would confirm a write of the other); commit each run as a file of its own`,
      );
    }
  }
}

/**
 * A run artifact: a .json surface; .ndjson/.jsonl of surfaces, surface events or server tracing
 * lines; or a server log (.log). One run per file, decisions in line order.
 */
export function readRunFile(file: string, bytes: Uint8Array, format: TextFormat, limits: ReadLimits = DEFAULT_LIMITS): FileRead {
  const fr = new FileReport(file, limits);
  const run = new RunDecisions(limits.maxDecisions);
  const log = new ServerLog(run, fr, limits);
  let surfaces = 0;
  let tracing = 0;
  let notStarted: { readonly loc: Location; readonly text: string } | null = null;
  const source = fileSource(bytes, fr, limits);
  // The whole text, where one is needed (a log, a problem to locate inside a decision): never for a good .json run.
  const text = (): string => (source as Source).text();
  const runIds = new RunIds();
  const surface = (doc: Doc, k: Kind & { kind: 'surface' }): void => {
    surfaces++;
    const offsets = doc.elements.get(SURFACE_KEY[k.via]) ?? [];
    // An evidence event's decisions were made at its `time` (docs/coverage.md §2): present, it must be RFC 3339.
    let time: Instant | null = null;
    const given = k.via === 'event' && isObject(doc.value) && hasOwn(doc.value, 'time') ? doc.value['time'] : undefined;
    if (given !== undefined) {
      const parsed = typeof given === 'string' ? parseRfc3339(given) : null;
      if (!parsed?.ok) {
        const why = parsed ? parsed.reason : 'is not a string';
        fr.error(
          fr.at(doc.start),
          `the evidence event's time ${JSON.stringify(typeof given === 'string' ? quote(given, 60) : given)} ${why}`,
        );
        return;
      }
      time = parsed.value;
    }
    // A decision's member (a subject's number) is found in the text only when a problem is to be located there.
    const locate = (j: number | null, path?: readonly (string | number)[]): Location => {
      const at = j === null ? doc.start : (offsets[j] ?? doc.start);
      return fr.at(path === undefined || source === null ? at : (offsetAt(text(), at, path, { maxDepth: limits.maxDepth }) ?? at));
    };
    readSurface(k.payload, k.via, locate, run, (at, message) => fr.error(at, message), time);
  };
  const json = (doc: Doc, inLog: boolean, end?: number): void => {
    const loc = fr.at(doc.start);
    runIds.event(doc.value, loc, fr);
    const kind = classify(doc.value);
    if (kind.kind === 'tracing') {
      // A .json run file must be a surface: one tracing line there is not a run (semantics §1).
      if (format === 'json')
        fr.error(loc, 'a server tracing line in a .json file: a .json run file must be a decision surface (a captured log is a .log)');
      else {
        tracing++;
        log.event(kind.line, loc, text(), doc.start, end ?? lineEnd(text(), doc.start));
      }
    } else if (isObject(doc.value) && carriesDecision(doc.value)) {
      // A decision is never skipped: a line that carries one but is not a tracing line is an error.
      fr.error(
        loc,
        kind.kind === 'error' && kind.named
          ? kind.reason
          : 'a line that carries a tool decision (a decision member, or an event tool_decision, in fields or at the top) but is not a tracing line',
      );
    } else if (kind.kind === 'error' && inLog && !kind.named) {
      // In a server log, JSON that names no kind (stdout's JSON-RPC, a startup_failure line) is skipped.
      log.other(
        loc,
        isObject(doc.value) && typeof doc.value['jsonrpc'] === 'string'
          ? 'JSON-RPC message (stdout mixed in)'
          : 'JSON that is not a tracing event',
        isObject(doc.value) ? doc.value : null,
      );
    } else if (kind.kind === 'error') fr.error(loc, kind.reason);
    else if (kind.kind === 'other') fr.skip(loc, kind.name);
    else if (kind.kind === 'record') fr.stray(loc, 'assay.provider_audit_record.v0 (an audit record among the runs)');
    else if (kind.kind === 'coverage') fr.stray(loc, `${COVERAGE_SCHEMA} (a coverage statement among the runs)`);
    else if (format === 'json' && kind.via === 'event')
      fr.error(loc, 'an evidence event in a .json file: a .json run file must be a decision surface (events go in .ndjson)');
    else surface(doc, kind);
  };
  if (source !== null) {
    const collect = format === 'json' ? [[], ...SURFACE_PATHS] : SURFACE_PATHS;
    if (format === 'log') {
      for (const l of logLines(text(), { limits, collect }, fr)) {
        if (l.kind === 'json') json(l.doc, true);
        else if (l.kind === 'text') log.text(text().slice(l.start, l.end), fr.at(l.start));
        // A JSON-RPC batch: each object read as a line holding it alone would be (a red team: a batched tools/call passed undecided).
        else
          for (const e of l.elements) {
            if (isObject(e.doc.value)) json(e.doc, true, e.end);
            else log.element(text().slice(e.doc.start, e.end), fr.at(e.doc.start));
          }
      }
    } else {
      for (const doc of documents(source, format, { limits, collect }, fr)) json(doc, false);
    }
    log.close();
    // The server's own output when it never started: no calls, one notice saying why (never "another program's log").
    // Never when the capture holds decisions (surfaces between its lines): they are judged (a red team).
    notStarted = format === 'log' && !fr.failed && surfaces === 0 && run.decisions.length === 0 ? log.notStarted() : null;
    if (notStarted) fr.notStarted(notStarted.loc, `the agent's server never started (${notStarted.text}): this run contributes no calls`);
    // A .log is assay-mcp-server's stderr, captured from its start: without a server_start line it
    // is another program's log, or a capture that began late (decisions before it are lost).
    else if (format === 'log' && !log.started && !fr.failed)
      fr.error(
        fr.at(0),
        "no server_start line: this is not a capture of assay-mcp-server's stderr from its start (the server writes server_start when it starts; was stderr redirected late, or is this another program's log?)",
      );
  }
  const firstError = fr.findings.findIndex((f) => f.code === 'invalid_artifact');
  const first = fr.findings[firstError];
  if (fr.failed && first) {
    fr.findings[firstError] = { ...first, message: `${first.message} (the run is rejected and contributes no calls)` };
  }
  const isRun = (surfaces > 0 || tracing > 0) && notStarted === null;
  // Nothing is dropped silently: a readable file with nothing to verify says so.
  if (!fr.failed && !isRun && !fr.skippedAny && notStarted === null)
    fr.notice('no_decisions', 'no decision surface in this file: it contributes no calls');
  if (!fr.failed && tracing > 0 && run.decisions.length === 0 && surfaces === 0 && notStarted === null) {
    fr.notice('no_decisions', 'the server log holds no tool_decision event: it contributes no calls');
  }
  const findings = fr.close();
  // A rejected run contributes no calls; its classes are kept to say where a rule's class went.
  const rejectedClasses = fr.failed ? [...new Set(run.decisions.flatMap((d) => (d.actionClass === null ? [] : [d.actionClass])))] : [];
  return {
    run: !fr.failed && isRun ? { artifact: file, decisions: run.decisions } : null,
    entries: [],
    findings,
    strays: fr.strays,
    ...(rejectedClasses.length > 0 ? { rejectedClasses } : {}),
  };
}

/**
 * A .json audit file that is pages written one after another (`gh api --paginate` without --slurp:
 * `[…][…]`), read as the import reads such pages (the pipeline's `values` mode, only as far as the
 * second page): where the second page starts, and the kind of provider export its first entry looks
 * like; null when the file is one value (or not JSON: the strict reader has said why).
 */
function pagedExport(text: string, limits: ReadLimits): { readonly offset: number; readonly kind: ExportKind | null } | null {
  const pages = documents(text, 'values', { limits, collect: [] }, new LocatingSink(''));
  const first = pages.next();
  const second = pages.next();
  if (first.done || second.done || !Array.isArray(first.value.value)) return null;
  return { offset: second.value.start, kind: exportKindOf(first.value.value[0]) };
}

/** What to say of a raw provider export among the audit files (one finding per file, docs/coverage.md §6). */
function rawExportText(kind: ExportKind | null, paged: boolean): string {
  const what = kind ? EXPORT_KINDS[kind] : 'a provider export';
  const how = `receipt-gate import ${kind ?? Object.keys(EXPORT_KINDS).join('|')}`;
  return `this is ${what}${paged ? ' written page after page ([…][…], gh api --paginate)' : ''}, not audit records: turn the export into records with ${how} (docs/importers.md)`;
}

/** An audit export (.json record or array of records, or .ndjson/.jsonl of records). */
export function readAuditFile(
  file: string,
  bytes: Uint8Array,
  format: 'json' | 'ndjson',
  limits: ReadLimits = DEFAULT_LIMITS,
  options: RecordReadOptions = {},
): FileRead {
  const fr = new FileReport(file, limits);
  const entries: AuditEntryRead[] = [];
  let raw: ExportKind | null = null;
  for (const doc of auditDocuments(bytes, format, fr, limits)) {
    const offsets = doc.elements.get(ROOT_KEY) ?? [];
    const items: [unknown, number][] =
      Array.isArray(doc.value) && format === 'json'
        ? doc.value.map((v: unknown, j): [unknown, number] => [v, offsets[j] ?? doc.start])
        : [[doc.value, doc.start]];
    for (const [value, offset] of items) {
      const loc = fr.at(offset);
      const kind = classify(value);
      // A raw provider export is one finding for the file, never one per entry (docs/coverage.md §6).
      const rawKind = kind.kind === 'error' && !kind.named ? exportKindOf(value) : null;
      if (raw !== null && rawKind === raw) continue;
      raw = rawKind;
      if (raw) fr.error(loc, rawExportText(raw, false));
      else if (kind.kind === 'error') fr.error(loc, kind.reason);
      else if (kind.kind === 'other') fr.skip(loc, kind.name);
      else if (kind.kind === 'tracing') fr.stray(loc, 'a server tracing line (a run among the audit exports)');
      else if (kind.kind === 'surface') fr.stray(loc, 'assay.tool_decision_surface.v0 (a run among the audit exports)');
      else if (kind.kind === 'coverage') readStatement(kind, loc, fr, entries, options);
      else readRecord(kind, loc, fr, entries, options);
    }
  }
  if (!fr.failed && entries.length === 0 && !fr.skippedAny) fr.notice('no_records', 'no audit record in this file');
  // A .json file the strict reader refused may be pages of a provider export written one after
  // another: then that is the one thing to say (asked only after a failure: no cost on a good file).
  const paged = fr.failed && format === 'json' && fr.lines !== null ? pagedExport(Buffer.from(bytes).toString('utf8'), limits) : null;
  if (paged !== null) {
    const once = new FileReport(file, limits);
    once.lines = fr.lines;
    once.error(once.at(paged.offset), rawExportText(paged.kind, true));
    return { run: null, entries: [], findings: once.close(), strays: once.strays };
  }
  return { run: null, entries, findings: fr.close(), strays: fr.strays };
}
