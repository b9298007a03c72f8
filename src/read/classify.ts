/**
 * What a JSON object is (§1), for every reader (plain files, NDJSON logs, bundle events, the members
 * of archives and files the gate does not read by name), so they can never disagree. Export folders
 * and run logs legitimately hold other Assay artifacts, which are skipped with a notice; but a near
 * miss of a kind the gate reads is an error, never a skip: another version (`…v1`), another case
 * (`…V0`), a suffix (`…v0.1`) or stray whitespace. An object that names two kinds at once (an event's
 * `type` and a top-level `schema`) is ambiguous: an error. So is an object of another kind that
 * carries evidence inside (a log shipper's envelope around an evidence event or a tracing line), and
 * upstream Assay's `assay.tool.decision` event, which this gate does not read (`otherKind`).
 */

import { hasOwn, isObject, type JsonObject } from '../core/json.js';
import { COVERAGE_SCHEMA, RECORD_SCHEMA, SURFACE_SCHEMA } from '../core/model.js';
import { quote } from '../core/text.js';

export type Kind =
  /** A tracing JSON line of assay-mcp-server's log (docs/assay-server-logs.md). */
  | { readonly kind: 'tracing'; readonly line: JsonObject }
  | { readonly kind: 'surface'; readonly payload: JsonObject; readonly via: 'schema' | 'event' }
  | { readonly kind: 'record'; readonly payload: JsonObject; readonly via: 'schema' | 'event' }
  /** What an audit export covered (docs/coverage.md): read among audit exports only. */
  | { readonly kind: 'coverage'; readonly payload: JsonObject; readonly via: 'schema' | 'event' }
  | { readonly kind: 'other'; readonly name: string }
  /** `named`: the object names a kind (a near miss, two kinds); false: it names none (no schema, not an object). */
  | { readonly kind: 'error'; readonly reason: string; readonly named: boolean };

const KNOWN = [
  [SURFACE_SCHEMA, 'surface'],
  [RECORD_SCHEMA, 'record'],
  [COVERAGE_SCHEMA, 'coverage'],
] as const;

/** The family of a kind we read that `name` is exact or a near miss of, if any. */
function familyOf(name: string): (typeof KNOWN)[number] | null {
  const name2 = name.trim().toLowerCase();
  for (const k of KNOWN) if (name2.startsWith(k[0].replace(/\.v\d+$/, ''))) return k;
  return null;
}

/**
 * The member that marks an object as a kind this gate reads whatever it is named (a decision
 * surface's `observed_tool_decisions`, a record's `binding_digest`), or null. A surface or record
 * under another name (`assay.tool_decisions_surface.v0`, a look-alike letter) is never skipped as
 * another kind (a red team: a failing run so renamed passed with a notice).
 */
function markOf(value: unknown): string | null {
  if (!isObject(value)) return null;
  for (const member of ['observed_tool_decisions', 'binding_digest']) if (hasOwn(value, member)) return member;
  return null;
}

function byName(name: string, payload: unknown, via: 'schema' | 'event'): Kind {
  const k = familyOf(name);
  const mark = markOf(payload);
  if (!k && mark !== null)
    return {
      kind: 'error',
      reason: `${via === 'event' ? 'an evidence event of type' : 'an object of schema'} ${JSON.stringify(quote(name, 120))} holds ${mark}: a kind this gate reads under another name is never skipped (this gate reads ${mark === 'binding_digest' ? RECORD_SCHEMA : SURFACE_SCHEMA})`,
      named: true,
    };
  if (!k) return { kind: 'other', name: quote(name, 120) };
  const [known, kind] = k;
  if (name !== known) {
    const version = /\.v\d+$/.test(name) ? 'unsupported version' : 'not exactly the kind';
    return {
      kind: 'error',
      reason: `${version} ${JSON.stringify(quote(name, 120))} (this gate reads ${known}; a near miss is never skipped)`,
      named: true,
    };
  }
  if (!isObject(payload))
    return { kind: 'error', reason: `the ${via === 'event' ? 'event data' : 'object'} of ${known} is not an object`, named: true };
  return { kind, payload, via };
}

/** A tracing line: a string `timestamp`, a string `level`, an object `fields` and a string `target`. */
const isTracing = (v: JsonObject): boolean =>
  typeof v['timestamp'] === 'string' && typeof v['level'] === 'string' && isObject(v['fields']) && typeof v['target'] === 'string';

/** An `event` that is tool_decision in any case. */
function eventIsDecision(o: JsonObject): boolean {
  const event = o['event'];
  return typeof event === 'string' && event.toLowerCase() === 'tool_decision';
}

/** A `decision` member, or an `event` that is tool_decision in any case. */
const namesDecision = (o: JsonObject): boolean => hasOwn(o, 'decision') || eventIsDecision(o);

/**
 * Whether a JSON object carries a decision, whatever else it is: a `decision` member or an `event`
 * that is tool_decision in any case, in `fields` or at the top (tracing's flattened shape, a red
 * team: such lines were skipped as JSON that is not a tracing event). Such a line is read as a
 * decision or is an error, never skipped (docs/assay-server-logs.md, "Never skipped").
 */
export function carriesDecision(value: JsonObject): boolean {
  const fields = value['fields'];
  if (isObject(fields) && namesDecision(fields)) return true;
  // At the top only on an object that names no kind: Assay's enforcement decisions carry a top-level
  // `decision` under their own schema, and are skipped as another kind (a red team's false red).
  const namesKind = typeof value['schema'] === 'string' || (typeof value['type'] === 'string' && hasOwn(value, 'data'));
  return !namesKind && namesDecision(value);
}

/** What the object says it is, by its own members (never what it holds inside: that is `otherKind`'s). */
function named(value: unknown): Kind {
  if (!isObject(value)) {
    return {
      kind: 'error',
      reason: `expected a JSON object with a "schema" string, found ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`,
      named: false,
    };
  }
  const schema = value['schema'];
  const type = value['type'];
  // The tracing shape is recognised first: a tracing line that also names a kind names two (an error, never a skip).
  if (isTracing(value)) {
    if (schema === undefined && type === undefined) return { kind: 'tracing', line: value };
    return {
      kind: 'error',
      reason: `ambiguous: a server tracing line that also carries a top-level ${schema !== undefined ? 'schema' : 'type'}`,
      named: true,
    };
  }
  const event = typeof type === 'string' && hasOwn(value, 'data');
  if (schema !== undefined && typeof schema !== 'string') return { kind: 'error', reason: '"schema" is not a string', named: true };
  if (typeof schema === 'string' && event) {
    // Both named: fine only when they cannot disagree about whether this is something we read.
    if (familyOf(schema) || familyOf(type)) {
      return {
        kind: 'error',
        reason: `ambiguous: an evidence event of type ${JSON.stringify(quote(type, 120))} with a top-level schema ${JSON.stringify(quote(schema, 120))}`,
        named: true,
      };
    }
    // Both named another kind: still never a surface or record under those names (its data, or itself).
    const mark = markOf(value['data']) ?? markOf(value);
    if (mark !== null)
      return {
        kind: 'error',
        reason: `an evidence event of type ${JSON.stringify(quote(type, 120))} holds ${mark}: a kind this gate reads under another name is never skipped`,
        named: true,
      };
    return { kind: 'other', name: quote(type, 120) };
  }
  if (typeof schema === 'string') return byName(schema, value, 'schema');
  if (event) return byName(type, value['data'], 'event');
  const mark = markOf(value);
  if (mark !== null)
    return {
      kind: 'error',
      reason: `object has no "schema" string but holds ${mark}: a kind this gate reads is never skipped`,
      named: true,
    };
  return { kind: 'error', reason: 'object has no "schema" string (and is not an evidence event with "type" and "data")', named: false };
}

/**
 * Upstream Assay's own tool decision event (`assay.tool.decision`, in any case, any separator, with
 * or without a version): not a kind this gate reads, and never skipped as another kind (a red team:
 * a run of such events passed with a notice beside a run that did pass).
 */
const UPSTREAM_DECISION = /^assay[._-]tool[._-]decisions?([._-]v\d+)?$/;

/** The `type` or `schema` of an object that names upstream's decision event, or null. */
function upstreamDecision(o: JsonObject): string | null {
  for (const member of ['type', 'schema']) {
    const name = o[member];
    if (typeof name === 'string' && UPSTREAM_DECISION.test(name.trim().toLowerCase())) return name;
  }
  return null;
}

/**
 * Whether a nested object names, with a string (`schema`, or an event's `type` beside `data`), a kind
 * this gate reads (exactly or a near miss), or holds a kind's mark under some other string name. An
 * object that names nothing with a string is ordinary data, whatever members it has: a JSON Schema's
 * property called `schema`, a `schema: null`, a receipt's `binding_digest` (a red team: such data in
 * an MCP tools/list answer or a session event rejected the whole run as wrapped evidence).
 */
function namesEvidence(o: JsonObject): boolean {
  const names = [o['schema'], hasOwn(o, 'data') ? o['type'] : undefined].filter((n) => typeof n === 'string');
  if (names.length === 0) return false;
  return names.some((n) => familyOf(n) !== null) || markOf(o) !== null || markOf(o['data']) !== null;
}

/** What evidence an object is, in words, when a reader would take it (null: none). */
/**
 * Whether a nested tracing-shaped object is assay-mcp-server's (its `target` an `assay…` module, or
 * its event tool_decision): another Rust service's tracing line (`api::http`) in a tool's answer, a
 * `kubectl logs` or `docker compose logs` text, is that service's data (a red team's false red).
 */
function serverTracing(o: JsonObject): boolean {
  const target = o['target'];
  return (typeof target === 'string' && /^assay/i.test(target.trim())) || (isObject(o['fields']) && eventIsDecision(o['fields']));
}

/**
 * A nested object's `fields` carry a decision as a tool_decision line's do: an event tool_decision,
 * or a `decision` member in a line of an `assay…` target. A table row's `fields.decision` (an
 * Airtable record in a tool's answer), or another service's tracing line with one (an authz
 * service's, with or without its time or target), is that tool's data (a red team's false reds).
 */
function fieldsDecision(o: JsonObject): boolean {
  const fields = o['fields'];
  if (!isObject(fields)) return false;
  if (eventIsDecision(fields)) return true;
  const target = o['target'];
  return hasOwn(fields, 'decision') && typeof target === 'string' && /^assay/i.test(target.trim());
}

function evidenceWhat(o: JsonObject): string | null {
  const kind = named(o);
  if (kind.kind === 'tracing') {
    if (!serverTracing(o)) return null;
    return isObject(o['fields']) && eventIsDecision(o['fields']) ? 'a server tool_decision line' : 'a server tracing line';
  }
  if (kind.kind === 'surface')
    return kind.via === 'event' ? `an ${SURFACE_SCHEMA} evidence event` : `a decision surface (${SURFACE_SCHEMA})`;
  if (kind.kind === 'record') return `an audit record (${RECORD_SCHEMA})`;
  if (kind.kind === 'coverage') return `a coverage statement (${COVERAGE_SCHEMA})`;
  if (kind.kind === 'error' && kind.named && ((isTracing(o) && serverTracing(o)) || namesEvidence(o)))
    return `an object this gate reads or refuses (${quote(kind.reason, 160)})`;
  const upstream = upstreamDecision(o);
  if (upstream !== null) return `upstream Assay's ${JSON.stringify(quote(upstream, 60))} decision event`;
  // A decision's own markers in `fields`, or an event tool_decision (never a bare `decision` member:
  // other JSON, a tool's answer among them, uses that word for its own things).
  if (fieldsDecision(o) || eventIsDecision(o)) return 'a tool_decision event';
  return null;
}

/** One step down to evidence found: a member, a list item, or a line of JSON text in a string. */
type Step = string | number | { readonly line: number };

/** Evidence found inside another kind's object: where (its steps, innermost first: said only when found) and what. */
interface Inside {
  readonly steps: Step[];
  /** Whether it was JSON text in a string member (a log shipper's `message`), or an object nested under a member. */
  readonly text: boolean;
  readonly what: string;
}

/** How deep inside another kind's object evidence is looked for (members, list items and JSON text in strings). */
const MAX_INSIDE = 64;

const memberPath = (path: string, key: string): string =>
  /^[A-Za-z_@$][\w@$-]*$/.test(key) ? (path === '' ? key : `${path}.${key}`) : `${path}[${JSON.stringify(quote(key, 40))}]`;

/** The member path of found evidence, outermost first (`data.events[2].message (its line 3)`). */
function pathOf(steps: readonly Step[]): string {
  let path = '';
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i] as Step;
    path =
      typeof step === 'number' ? `${path}[${step}]` : typeof step === 'string' ? memberPath(path, step) : `${path} (its line ${step.line})`;
  }
  return path;
}

/** Found evidence, one step further out. */
function via(found: Inside | null, step: Step): Inside | null {
  found?.steps.push(step);
  return found;
}

/**
 * Evidence a reader would take inside `value` (the object itself too, below the top): a nested
 * object, or a string member whose text (whole, or one of its lines) is a JSON object. Structure
 * only: a string that merely mentions a kind's name is not JSON and holds nothing.
 */
function inside(value: unknown, depth: number, text: boolean): Inside | null {
  if (depth > MAX_INSIDE) return null;
  if (typeof value === 'string') return inText(value, depth);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = via(inside(value[i], depth + 1, false), i);
      if (found) return found;
    }
    return null;
  }
  if (!isObject(value)) return null;
  // Only an object with one of these members can be evidence (`evidenceWhat`): most nested data is looked past at once.
  if (
    depth > 0 &&
    (value['schema'] !== undefined || value['type'] !== undefined || value['fields'] !== undefined || value['event'] !== undefined)
  ) {
    const what = evidenceWhat(value);
    if (what !== null) return { steps: [], text, what };
  }
  // Paths are built only for what is found: this walk covers every decision of every surface.
  for (const key in value) {
    const found = via(inside(value[key], depth + 1, false), key);
    if (found) return found;
  }
  return null;
}

/**
 * The JSON value a string's text holds, or undefined: the whole text, JSON text encoded twice (a
 * string), or the object after a prefix (a container runtime's `<time> stdout F `, a compose
 * service's `agent-1 | `; a red team: evidence behind such a prefix, or encoded twice, was skipped).
 */
function jsonIn(t: string, prefixed: boolean): unknown {
  if (t.startsWith('"') && t.endsWith('"')) return jsonValue(t);
  if (!t.endsWith('}')) return undefined;
  if (!prefixed) return t.startsWith('{') ? jsonValue(t) : undefined;
  // The first few braces only: a prefix rarely holds one, and a failed parse is not free.
  for (let start = t.indexOf('{'), n = 0; start >= 0 && n < 4; start = t.indexOf('{', start + 1), n++) {
    const v = jsonValue(start === 0 ? t : t.slice(start));
    if (v !== undefined) return v;
  }
  return undefined;
}

/** JSON text in a string member: the whole string, or each of its lines, when it holds a JSON object (or JSON text). */
function inText(value: string, depth: number): Inside | null {
  if (!value.includes('{')) return null;
  const t = value.trim();
  // A prefix only on one line: a text of many lines is read line by line, each located.
  const whole = jsonIn(t, !t.includes('\n'));
  if (isObject(whole) || typeof whole === 'string') return inside(whole, depth + 1, true);
  if (!t.includes('\n')) return null;
  const lines = t.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const v = jsonIn((lines[i] ?? '').trim(), true);
    const found = isObject(v) || typeof v === 'string' ? via(inside(v, depth + 1, true), { line: i + 1 }) : null;
    if (found) return found;
  }
  return null;
}

/** The error for evidence found inside an object that is not that evidence (`holder`: what the object is). */
function wrapped(found: Inside, holder: string): Kind {
  const path = JSON.stringify(quote(pathOf(found.steps), 120));
  const where = found.text ? `the JSON text in its member ${path}` : `its member ${path}`;
  return {
    kind: 'error',
    reason: `evidence wrapped in ${holder}: ${where} is ${found.what} (a log shipper's or collector's envelope around it?); evidence is never read out of another object, and never skipped: commit the evidence itself as its producer wrote it (a decision surface as .json, evidence events as .ndjson, the server's stderr as a .log, audit records), not the object around it`,
    named: true,
  };
}

/**
 * A decision surface that holds no other evidence, in its decisions or beside them, nor (an evidence
 * event) in the event around it; else the error that says so (a red team: an audit record under a
 * surface's `provider_records`, as a decision's extra member, as JSON text in its `response`, or
 * beside the event's `data`, was dropped unread). The walk is structure only, as for other kinds.
 */
function surfaceAlone(value: JsonObject, kind: Kind & { kind: 'surface' }): Kind {
  const event = kind.via === 'event';
  const holder = event ? 'a decision surface event' : 'a decision surface';
  if (event)
    for (const key of Object.keys(value)) {
      const found = key === 'data' ? null : via(inside(value[key], 1, false), key);
      if (found) return wrapped(found, holder);
    }
  for (const key of Object.keys(kind.payload)) {
    const found = via(inside(kind.payload[key], 1, false), key);
    if (found) return wrapped(event ? (via(found, 'data') as Inside) : found, holder);
  }
  return kind;
}

/**
 * An object of another kind, or one that names none (`fallback`: skipped by name, or the error that
 * it names none), unless it is upstream's decision event or carries evidence inside: then an error
 * that says so and what to commit instead, never a skip (a red team: events under a log shipper's
 * `message`, a collector's `event`, or a container runtime's `log` passed as another kind).
 */
function otherKind(value: JsonObject, fallback: Kind): Kind {
  const upstream = upstreamDecision(value);
  if (upstream !== null)
    return {
      kind: 'error',
      reason: `${JSON.stringify(quote(upstream, 60))} is upstream Assay's tool decision event, which this gate does not read (and never skips): it reads decisions from ${SURFACE_SCHEMA} surfaces and evidence events, and from the tool_decision lines of assay-mcp-server's stderr; commit the server's stderr capture as a .log, or the decisions as an ${SURFACE_SCHEMA} surface (docs/assay-server-logs.md)`,
      named: true,
    };
  // A decision carried by the object itself (in its own `fields`, or at its top) is no envelope: the
  // run readers refuse it as a decision that is not a tracing line (docs/assay-server-logs.md).
  const found = carriesDecision(value) ? null : inside(value, 0, false);
  return found === null ? fallback : wrapped(found, "another kind's data");
}

/** An object with a string `schema` is named by it; an evidence event (a string `type` and `data`) by its type. */
export function classify(value: unknown): Kind {
  const kind = named(value);
  if (kind.kind === 'surface') return surfaceAlone(value as JsonObject, kind);
  if (!isObject(value) || !(kind.kind === 'other' || (kind.kind === 'error' && !kind.named))) return kind;
  return otherKind(value, kind);
}

/** Whether a JSON value is evidence a reader takes: a surface, a record, a coverage statement or a server tracing line (as a document or an evidence event's data), or a near miss of one, or evidence wrapped in another kind's object. */
export function isEvidence(v: unknown): boolean {
  const kind = classify(v);
  return kind.kind === 'error' ? kind.named : kind.kind !== 'other';
}

/** A JSON text's value, or undefined when it is none. */
export function jsonValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A line a reader takes as evidence, trimmed: a JSON object `isEvidence` takes (an evidence event,
 * an export's entry, a tracing line), or a line with an object that mentions tool_decision (the
 * server log's reader never skips one: a tracing line behind a container runtime's prefix).
 */
export function evidenceLine(line: string): boolean {
  const t = line.trim();
  if (t.startsWith('{') && t.endsWith('}') && isEvidence(jsonValue(t))) return true;
  // A quoted "tool_decision" after a brace (a JSON member, escaped or not), never prose or a jq filter that names it.
  return /\{.*\\?"tool_decision\\?"/i.test(t);
}
