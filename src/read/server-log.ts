/**
 * Runs as Assay's server writes them (docs/assay-server-logs.md, semantics §1): the stderr of
 * `assay-mcp-server`, one tracing JSON line per event. Each `tool_decision` event contributes the
 * decision in its `fields.decision` string, in line order, located at the line and the column of
 * that value. Other events, text lines and JSON that is not a tracing event are skipped and
 * counted; everything the doc lists as an error is one. A call started with no decision in its
 * session, a tools/call on JSON-RPC lines (stdout mixed in) past the calls its tracing events know,
 * or an event tracing could not format, is `run_incomplete`: a side effect may have happened that no
 * decision records. A log is one run, which may hold several server sessions (a restart, or stderr
 * appended with 2>>): each decision carries its session's number, and a read of one session never
 * confirms a write of another (semantics §5, core/ladder.ts).
 */
import { prepareDecision } from '../core/decision.js';
import { hasOwn, isObject, type JsonObject } from '../core/json.js';
import type { Location } from '../core/location.js';
import { unsafeSubjectNumber } from '../core/projection.js';
import type { Result } from '../core/result.js';
import { quote } from '../core/text.js';
import { type Instant, parseRfc3339 } from '../core/time.js';
import { carriesDecision } from './classify.js';
import { parseStrict } from './json/strict.js';
import type { ReadLimits } from './limits.js';
import { checkDecision } from './shapes.js';
import type { RunDecisions } from './surface.js';

/** Where a server log's problems and skips go (the file's report). */
export interface LogSink {
  error(loc: Location, message: string): void;
  incomplete(loc: Location, message: string): void;
  skip(loc: Location, name: string): void;
}

/** The column (1-based) of the `decision` member's value on a raw line (after the `:` and any whitespace), or 1 when it cannot be found. */
function decisionColumn(text: string, start: number, end: number): number {
  const key = /"decision"[ \t]*:[ \t]*/g;
  key.lastIndex = start;
  for (let m = key.exec(text); m !== null && m.index < end; m = key.exec(text)) {
    if (text.charCodeAt(m.index - 1) !== 0x5c) return m.index + m[0].length - start + 1;
  }
  return 1;
}

/** Whether a line of text mentions tool_decision in any case (the whole line is searched). */
const mentionsDecision = (line: string): boolean => /tool_decision/i.test(line);

/**
 * A JSON line behind a character the server never writes before one: a byte-order mark (a file
 * saved with one, then appended), a NUL, another control character (not ESC: an ANSI banner), a
 * no-break space, each perhaps among spaces and tabs. Read as text, it was skipped: a second
 * server_start so hidden merged two processes' sessions, and tools/call lines so hidden passed
 * undecided (a red team). Plain spaces and tabs alone are `logLines`' (an indented JSON-RPC line).
 */
const HIDDEN_JSON =
  /^[ \t]*[\uFEFF\u0000-\u0008\u000B-\u001A\u001C-\u001F\u00A0\u2000-\u200B\u3000][\s\uFEFF\u0000-\u001A\u001C-\u001F\u00A0\u2000-\u200B\u3000]*[{[]/;

/** One server session (between two server_start lines): calls started and decided, paired by rid in any order. */
interface Session {
  /** rid → where its tool_call_start was, and its line's time (null: not RFC 3339, an error said there). */
  readonly started: Map<string, { readonly loc: Location; readonly begun: Instant | null }>;
  readonly decided: Set<string>;
  /** The ids of the tools/call requests on JSON-RPC lines (stdin or stdout mixed in), to know their answers. */
  readonly requests: Set<string>;
  /** Each tools/call seen on JSON-RPC lines (its request or its answer), by id: where it was first seen and what it was. */
  readonly calls: Map<string, { readonly loc: Location; readonly id: string; readonly line: 'request' | 'answer' }>;
  /** Its server_start line's time: the earliest a call of the session can have begun (null: none, or not RFC 3339). */
  readonly opened: Instant | null;
}

const newSession = (opened: Instant | null = null): Session => ({
  started: new Map(),
  decided: new Set(),
  requests: new Set(),
  calls: new Map(),
  opened,
});

/** A JSON-RPC id as a key (null: none, or not a string or number: such a message pairs with nothing). */
function rpcKey(id: unknown): string | null {
  return typeof id === 'string' ? `s:${id}` : typeof id === 'number' ? `n:${id}` : null;
}

/** An answer to tools/call by its own shape: a result with a `content` list (MCP's CallToolResult). */
const callResult = (value: JsonObject): boolean => isObject(value['result']) && Array.isArray(value['result']['content']);

/** A tracing line's timestamp as given, and as an instant or why it is none (the server's word of when its event happened). */
function stampOf(line: JsonObject): { readonly text: string; readonly time: Result<Instant> } {
  const text = typeof line['timestamp'] === 'string' ? line['timestamp'] : '';
  return { text, time: parseRfc3339(text) };
}

/** Why a line's timestamp is no time, in words. */
const badStamp = (what: string, text: string, reason: string): string =>
  `${what}: the line's timestamp ${JSON.stringify(quote(text, 60))} ${reason}`;

/** One server log being read: server sessions (a server_start each), calls started and decided, decisions. */
export class ServerLog {
  private session = newSession();
  /** Whether a server_start line was seen (a capture of the server's stderr from its start has one). */
  started = false;
  /** Whether any tracing event other than server_start, or any JSON-RPC answer, was seen (a server that did start works). */
  private worked = false;
  /** Whether a tools/call was seen on a JSON-RPC line (a call was made: the log is judged on it, never "never started"). */
  private called = false;
  /** Whether a call's event came before any server_start (said once). */
  private late = false;
  /** The session's initialized event: one per server process, so a second in one session is a second process. */
  private initialized: Location | null = null;
  /** The server's own word that it failed to start (a startup_failure line), or the first plain-text line after server_start. */
  private failure: { readonly loc: Location; readonly text: string; readonly line: boolean } | null = null;
  private firstText: { readonly loc: Location; readonly text: string } | null = null;

  constructor(
    private readonly run: RunDecisions,
    private readonly sink: LogSink,
    private readonly limits: ReadLimits,
  ) {}

  /** A tracing line (classified as one), its location and the raw text it came from. */
  event(line: JsonObject, loc: Location, text: string, start: number, end: number): void {
    const fields = line['fields'] as JsonObject;
    const event = fields['event'];
    const rid = typeof fields['rid'] === 'string' ? fields['rid'] : null;
    // Whatever its event, a line that carries a decision is read as one or is an error: a server_start
    // or tool_call_start line holding a fields.decision is never skipped as what its event says.
    if (event !== 'tool_decision' && carriesDecision(line)) {
      const what = hasOwn(fields, 'decision')
        ? `a fields.decision member with fields.event ${JSON.stringify(typeof event === 'string' ? quote(event, 60) : (event ?? null))}`
        : `fields.event ${JSON.stringify(quote(String(event), 60))}`;
      this.sink.error(loc, `${what}: a decision that is not exactly a tool_decision event is never skipped`);
      return;
    }
    if (event === 'server_start') {
      this.started = true;
      // A new server process: its decisions (and the surface lines after it) are of a session of their
      // own, and a read there confirms no write of another (§5: the log cannot show that two processes
      // served one agent run; Monday's and Wednesday's stderr appended with 2>>, a red team).
      this.run.session++;
      // Its time bounds when the session's calls began (a decision with no tool_call_start before it began no earlier).
      const stamp = stampOf(line);
      if (!stamp.time.ok) this.sink.error(loc, badStamp('server_start', stamp.text, stamp.time.reason));
      this.endSession(stamp.time.ok ? stamp.time.value : null);
      this.sink.skip(loc, 'tracing event server_start');
      return;
    }
    this.worked = true;
    // A call's event (any event naming a rid) before any server_start: the capture began after the server
    // did (stderr redirected late, or the head of the file cut off), so calls before it may be missing
    // (docs/assay-server-logs.md). Start-up chatter without a rid (a warning) may come first.
    if (!this.started && !this.late && (rid !== null || event === 'tool_call_start' || event === 'tool_decision')) {
      this.late = true;
      const what = typeof event === 'string' ? `a ${quote(event, 60)} event` : 'an event';
      this.sink.error(
        loc,
        `${what}${rid === null ? '' : ` of rid ${JSON.stringify(quote(rid, 40))}`} before any server_start line: this capture began after the server started (stderr redirected late, or the file's head cut off), so calls before it may be missing; capture the server's stderr from its start`,
      );
    }
    if (event === 'tool_call_start') {
      if (rid === null)
        this.sink.error(loc, 'a tool_call_start event without a string fields.rid (its call cannot be paired with a decision)');
      else if (this.session.started.has(rid))
        // Two calls started under one rid (before or after its decision): one decision can answer only one of them.
        this.sink.incomplete(
          loc,
          `a second tool_call_start for ${JSON.stringify(quote(rid, 60))} in one server session: one decision answers only one of the two calls (a side effect may have gone unrecorded)`,
        );
      else {
        // When the call's request began (§5: a read begun before a write was decided confirms nothing of it).
        const stamp = stampOf(line);
        if (!stamp.time.ok) this.sink.error(loc, badStamp(`tool_call_start ${rid}`, stamp.text, stamp.time.reason));
        this.session.started.set(rid, { loc, begun: stamp.time.ok ? stamp.time.value : null });
      }
      this.sink.skip(loc, 'tracing event tool_call_start');
      return;
    }
    if (event === 'initialized') {
      // Two processes writing one log at once (2>> from both): their lines interleave after their two
      // server_start lines, and a read of one would confirm a write of the other (a red team). Which
      // line is whose cannot be told: an error, never a guess.
      if (this.initialized !== null)
        this.sink.error(
          loc,
          `a second initialized event in one server session (the first at line ${this.initialized.line}): two server processes wrote this log at once, and their lines cannot be told apart; commit each server process's stderr as its own .log`,
        );
      else this.initialized = loc;
    }
    if (event !== 'tool_decision') {
      this.sink.skip(loc, typeof event === 'string' ? `tracing event ${quote(event, 60)}` : 'tracing message');
      return;
    }
    const at: Location = { file: loc.file, line: loc.line, column: decisionColumn(text, start, end) };
    const result = this.decision(rid, fields['decision']);
    if (!result.ok) {
      this.sink.error(at, result.reason);
      return;
    }
    if (
      !this.run.admit(
        1,
        () => at,
        (l, message) => this.sink.error(l, message),
      )
    )
      return;
    const index = this.run.seen++;
    // The tracing line's timestamp is when the decision was made (docs/coverage.md §2).
    const stamp = stampOf(line);
    const time = stamp.time;
    if (!time.ok) {
      this.sink.error(at, badStamp(`tool_decision ${rid}`, stamp.text, time.reason));
      return;
    }
    // When its request began: its tool_call_start line; without one before it, its session's start (the earliest it can have).
    const call = rid === null ? undefined : this.session.started.get(rid);
    const begun = call ? call.begun : this.session.opened;
    const shape = checkDecision(result.value);
    // A subject number JSON.parse rounded could bind another target's record (at the decision's value: it is text inside the line).
    const unsafe = shape.ok ? unsafeSubjectNumber(result.value) : null;
    if (!shape.ok) this.sink.error(at, `decision ${index} (tool_decision ${rid}): ${shape.reason}`);
    else if (unsafe !== null) this.sink.error(at, `decision ${index} (tool_decision ${rid}): ${unsafe.reason}`);
    else this.run.decisions.push(prepareDecision(at, index, result.value, time.value, begun, this.run.session));
  }

  /** The decision a tool_decision event carries, or why it carries none (each an error, never a skip). */
  private decision(rid: string | null, raw: unknown): Result<JsonObject> {
    if (rid === null) return { ok: false, reason: 'a tool_decision event without a string fields.rid' };
    if (this.session.decided.has(rid))
      return {
        ok: false,
        reason: `a second tool_decision for rid ${JSON.stringify(quote(rid, 40))} in one server session: one call, one decision`,
      };
    this.session.decided.add(rid);
    if (typeof raw !== 'string')
      return { ok: false, reason: `tool_decision ${rid}: fields.decision is ${raw === undefined ? 'missing' : 'not a string'}` };
    if (raw.trim() === '') return { ok: false, reason: `tool_decision ${rid}: fields.decision is empty` };
    const parsed = parseStrict(raw, { maxDepth: this.limits.maxDepth, maxKeys: this.limits.maxKeys });
    if (!parsed.ok)
      return {
        ok: false,
        reason: `tool_decision ${rid}: fields.decision is not strict JSON (at character ${parsed.reason.offset + 1} of it): ${parsed.reason.message}`,
      };
    const json = parsed.value.json;
    if (!isObject(json)) return { ok: false, reason: `tool_decision ${rid}: fields.decision is not a JSON object` };
    return { ok: true, value: json };
  }

  /** A text line (not JSON; the whole line): skipped, unless it is a near miss of a decision or a lost event. */
  text(line: string, loc: Location): void {
    if (line.startsWith('Unable to format the following event')) {
      this.sink.incomplete(
        loc,
        'tracing could not format an event here: it may have been a tool_decision, so the log may not hold every decision of the run',
      );
    } else if (HIDDEN_JSON.test(line)) {
      const hidden = /[^ \t]/.exec(line)?.[0] ?? '';
      this.sink.error(
        loc,
        `a JSON line behind U+${(hidden.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')} (a byte-order mark or a control character the server never writes): it may hold a server event or a JSON-RPC message, and is never skipped; save the log without it`,
      );
    } else if (mentionsDecision(line)) {
      this.sink.error(loc, 'a text line that mentions tool_decision (a decision that is not a tracing JSON line is never skipped)');
    } else {
      if (this.started && this.firstText === null && line.trim() !== '' && line.charCodeAt(0) !== 0x1b)
        this.firstText = { loc, text: line };
      this.sink.skip(loc, line.charCodeAt(0) === 0x1b ? 'text line (ANSI banner)' : 'text line');
    }
  }

  /** An element of a JSON-RPC batch line that is no object (never a message): skipped, unless it mentions tool_decision, as a text line would be. */
  element(raw: string, loc: Location): void {
    if (mentionsDecision(raw))
      this.sink.error(
        loc,
        'an element of a JSON-RPC batch line that mentions tool_decision (a decision that is not a tracing JSON line is never skipped)',
      );
    else this.sink.skip(loc, 'JSON-RPC batch element that is not an object');
  }

  /** A JSON object on a log line that is not a tracing event (stdout mixed in, a startup_failure line). */
  other(loc: Location, name: string, value: JsonObject | null = null): void {
    if (value !== null && typeof value['jsonrpc'] === 'string') this.rpc(value, loc);
    if (value !== null && value['event'] === 'startup_failure' && this.failure === null) {
      const code = typeof value['reason_code'] === 'string' ? quote(value['reason_code'], 80) : null;
      const next = typeof value['next_step'] === 'string' ? quote(value['next_step'], 300) : null;
      const text = `${code ? `reason_code ${code}` : 'no reason_code'}${next ? `; next step: ${next}` : ''}`;
      this.failure = { loc, text, line: true };
      return;
    }
    this.sink.skip(loc, name);
  }

  /**
   * A JSON-RPC message (stdout mixed in with 2>&1, or stdin's requests beside it): an answer shows the
   * server started and works (text after it is never "a server that never started": a red team's
   * false green); a tools/call request or answer is a call, which a tool_decision must record.
   */
  private rpc(value: JsonObject, loc: Location): void {
    const key = rpcKey(value['id']);
    const shown = quote(JSON.stringify(value['id'] ?? null) ?? 'null', 60);
    const request = typeof value['method'] === 'string';
    if (!request && (hasOwn(value, 'result') || hasOwn(value, 'error'))) this.worked = true;
    let line: 'request' | 'answer' | null = null;
    if (request && value['method'] === 'tools/call') {
      line = 'request';
      if (key !== null) this.session.requests.add(key);
    } else if (!request && (callResult(value) || (key !== null && this.session.requests.has(key)))) line = 'answer';
    if (line === null) return;
    this.called = true;
    // A message without an id pairs with nothing: it is a call of its own.
    const id = key ?? `#${this.session.calls.size}`;
    if (!this.session.calls.has(id)) this.session.calls.set(id, { loc, id: shown, line });
  }

  /**
   * Why the server never started (docs/assay-server-logs.md "A server that never started"): its
   * startup_failure line, or a plain-text line after a server_start that no other event follows (an
   * invalid --policy-root); null when it started and worked (any event but server_start, any
   * JSON-RPC answer), when a tools/call was made (the log is judged on its calls), or when this is no
   * capture of it at all.
   */
  notStarted(): { readonly loc: Location; readonly text: string } | null {
    if (this.worked || this.called) return null;
    if (this.failure) return this.failure;
    if (this.started && !this.worked && this.firstText) return { loc: this.firstText.loc, text: quote(this.firstText.text.trim(), 300) };
    return null;
  }

  private endSession(opened: Instant | null = null): void {
    this.initialized = null;
    for (const [rid, { loc }] of this.session.started) {
      if (this.session.decided.has(rid)) continue;
      this.sink.incomplete(
        loc,
        `rid ${JSON.stringify(quote(rid, 40))} started a tool call with no tool_decision in its session (the process was killed mid-call, or decisions were filtered out, e.g. ASSAY_LOG=warn): a side effect may have happened that no decision records`,
      );
    }
    // The JSON-RPC lines' calls against the calls tracing knows of (started or decided): a JSON-RPC id is
    // no key to a decision's rid (its rpc_id is Rust's Debug text), so they are counted. The calls past
    // the count are those without a decision; a start without one is said above.
    const known = new Set([...this.session.started.keys(), ...this.session.decided]).size;
    const calls = [...this.session.calls.values()];
    for (const call of calls.slice(known)) {
      this.sink.incomplete(
        call.loc,
        `a tools/call ${call.line} on a JSON-RPC line (id ${call.id}) with no tool_decision in its server session: ${calls.length} tools/call on its JSON-RPC lines, ${known} call(s) in its tracing events (decisions filtered out, e.g. ASSAY_LOG=warn, or the process killed): a call happened that no decision records, so a side effect may have gone unrecorded`,
      );
    }
    this.session = newSession(opened);
  }

  /** The end of the file: calls still without a decision are incomplete. */
  close(): void {
    this.endSession();
    // A server that started and worked is judged on its calls, whatever else the capture holds (a
    // failed restart appended to the same file): its startup_failure line is counted, never the
    // reason to drop the calls.
    if (this.worked && this.failure?.line) this.sink.skip(this.failure.loc, 'startup_failure line (the server also started and worked)');
  }
}
