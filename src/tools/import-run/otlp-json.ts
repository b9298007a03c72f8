/**
 * Tool calls in OpenTelemetry files (docs/producers.md): a line of the OTLP file exporter
 * (`resourceSpans` / `resourceLogs`, OTLP JSON: hex ids, 64-bit integers as strings, attributes as
 * `[{key, value: {stringValue|intValue|boolValue|doubleValue|arrayValue|kvlistValue}}]`), or a line
 * of Copilot CLI's own file exporter (`{"type":"span", attributes: {…}, endTime: [s, ns]}`). A tool
 * call is a GenAI `execute_tool` span (semantic conventions v1.41.0: gen_ai.tool.name,
 * gen_ai.tool.call.id, .arguments and .result, opt-in content; failure: status code 2 or error.type)
 * or a Claude Code `tool_result` log event (tool_name, tool_use_id, success, tool_parameters,
 * tool_input). What the calls do is the mapping file's to say (tool-mapping.ts), never this file's.
 */
import { isObject, type JsonObject } from '../../core/json.js';
import { asciiLower, quote } from '../../core/text.js';
import { fromEpochNanos, type Instant } from '../../core/time.js';
import { jsonOrText } from '../../read/json/strict.js';

/** A tool call as the telemetry says it happened, before any mapping. */
export interface ToolUse {
  /** The tool's name (an MCP tool's own name when the source splits server and tool). */
  readonly name: string;
  /** The MCP server, when the source names one (Claude Code does; spans do not). */
  readonly server: string | null;
  readonly callId: string | null;
  readonly time: Instant;
  readonly succeeded: boolean;
  /** The arguments, when the source carries them (content capture on) as a JSON object. */
  readonly args: { readonly kind: 'object'; readonly value: JsonObject } | { readonly kind: 'absent' | 'unreadable'; readonly why: string };
  /** The result: a value, none captured, or a source that never has one (Claude Code's events). */
  readonly result:
    | { readonly kind: 'value'; readonly value: unknown }
    | { readonly kind: 'absent' }
    /** JSON text the strict reader refuses (a key given twice): nothing is read from it. */
    | { readonly kind: 'unreadable'; readonly why: string }
    | { readonly kind: 'never'; readonly source: string };
  /** What the source is, for the summary and the capture hint: `span` (any exporter), `claude-code`, `mcp` (an MCP gateway's log). */
  readonly source: 'span' | 'claude-code' | 'mcp';
  /** The same call written twice (an exporter's retry) has one key: traceId/spanId, or the tool_use_id. */
  readonly key: string | null;
}

/** What one line holds: its tool calls, and the problems that leave a call out of nothing (located at the line). */
export interface TelemetryLine {
  readonly uses: readonly ToolUse[];
  /** Spans or events that are not tool calls (chat, invoke_agent, other events, metrics), counted. */
  readonly other: number;
  readonly errors: readonly string[];
}

/**
 * A key given twice in one attribute list (or anywhere inside a value): which value is meant cannot
 * be said, so it gives nothing (docs/producers.md), never the first or the last. A symbol: no JSON
 * value can be it.
 */
const TWICE: unique symbol = Symbol('given twice');

/**
 * A value that is not an OTLP JSON AnyValue (a member OTLP JSON does not give, such as the proto's
 * `string_value`; a key-value item without its key): what it holds cannot be read, so the span or
 * record it is in is refused, never read as if the attribute were absent (a red team). A symbol: no
 * JSON value can be it.
 */
const ODD: unique symbol = Symbol('not an AnyValue');

/**
 * An OTLP AnyValue → a JSON value (a kvlist an object of own properties, an intValue a number when
 * it is exact); TWICE when a key inside it is given twice, ODD when it is not an AnyValue: a member
 * OTLP JSON does not give, two members (a oneof), or a member of the wrong type (`{"intValue":
 * "execute_tool"}`, `{"stringValue": [..]}`: each read as empty, and a tool call was passed over).
 * bytesValue is base64 text the gate never reads (null).
 */
function anyValue(value: unknown, depth = 0): unknown {
  // No value at all (proto3 JSON leaves an unset one out) is an empty value.
  if (depth > 32 || value === undefined) return null;
  if (!isObject(value)) return ODD;
  const keys = Object.keys(value);
  if (keys.length === 0) return null;
  if (keys.length > 1) return ODD;
  const v = value[keys[0] as string];
  switch (keys[0]) {
    case 'stringValue':
      return typeof v === 'string' ? v : ODD;
    case 'boolValue':
      return typeof v === 'boolean' ? v : ODD;
    case 'intValue':
      if (typeof v === 'number' && Number.isInteger(v)) return v;
      if (typeof v === 'string' && /^-?\d{1,20}$/.test(v)) return Number.isSafeInteger(Number(v)) ? Number(v) : v;
      return ODD;
    case 'doubleValue':
      return typeof v === 'number' ? v : v === 'NaN' || v === 'Infinity' || v === '-Infinity' ? null : ODD;
    case 'bytesValue':
      return typeof v === 'string' ? null : ODD;
    case 'arrayValue': {
      if (!isObject(v) || Object.keys(v).some((k) => k !== 'values')) return ODD;
      const given = v['values'];
      if (given !== undefined && !Array.isArray(given)) return ODD;
      const items = (given ?? []).map((x: unknown) => anyValue(x, depth + 1));
      return items.includes(TWICE) ? TWICE : items.includes(ODD) ? ODD : items;
    }
    case 'kvlistValue': {
      if (!isObject(v) || Object.keys(v).some((k) => k !== 'values')) return ODD;
      const kv = pairs(v['values'], depth + 1);
      if (kv === ODD) return ODD;
      return kv.some(([, x]) => x === TWICE) ? TWICE : kv.some(([, x]) => x === ODD) ? ODD : Object.fromEntries(kv);
    }
    default:
      return ODD;
  }
}

/** `[{key, value}]` → [key, value] pairs; a key given twice is TWICE (Object.fromEntries defines own properties: no key reaches a prototype). */
function pairs(list: unknown, depth: number): [string, unknown][] | typeof ODD {
  if (list === undefined) return [];
  // A flat object or anything else where OTLP JSON gives a list of {key, value}: not read as none.
  if (!Array.isArray(list)) return ODD;
  const at = new Map<string, number>();
  const out: [string, unknown][] = [];
  for (const kv of list) {
    if (!isObject(kv) || typeof kv['key'] !== 'string' || Object.keys(kv).some((k) => k !== 'key' && k !== 'value')) return ODD;
    const key = kv['key'];
    const i = at.get(key);
    if (i !== undefined) {
      out[i] = [key, TWICE];
      continue;
    }
    at.set(key, out.length);
    out.push([key, anyValue(kv['value'], depth)]);
  }
  return out;
}

/** The first of these attributes given twice, or null. */
const givenTwice = (attrs: Attributes, keys: readonly string[]): string | null => keys.find((k) => attrs.get(k) === TWICE) ?? null;

type Attributes = ReadonlyMap<string, unknown>;

const text = (attrs: Attributes, key: string): string | null => {
  const v = attrs.get(key);
  return typeof v === 'string' && v !== '' ? v : null;
};

/** The first of `keys` given as something other than text (a number, an OTLP value object), or null: never read as absent. */
const notText = (attrs: Attributes, keys: readonly string[]): string | null =>
  keys.find((k) => {
    const v = attrs.get(k);
    return v !== undefined && v !== null && typeof v !== 'string';
  }) ?? null;

/** A JSON text or a structured value → the object it is, or why not. */
function objectOf(given: unknown, what: string): ToolUse['args'] {
  if (given === TWICE) return { kind: 'unreadable', why: `${what} (or a key inside it) is given twice` };
  if (given === undefined || given === null) return { kind: 'absent', why: `no ${what}` };
  if (isObject(given)) return { kind: 'object', value: given };
  if (typeof given !== 'string') return { kind: 'unreadable', why: `${what} is not an object` };
  const parsed = jsonOrText(given);
  if (parsed.kind === 'text') return { kind: 'unreadable', why: `${what} is not JSON (cut short by the producer?)` };
  if (parsed.kind === 'refused') return { kind: 'unreadable', why: `${what} is not strict JSON (${parsed.reason})` };
  return isObject(parsed.value)
    ? { kind: 'object', value: parsed.value }
    : { kind: 'unreadable', why: `${what} is JSON but not an object` };
}

/** A tool's result: structured, JSON text read strictly, other text as it is; JSON the strict reader refuses is unreadable, never a value. */
function resultOf(given: unknown): ToolUse['result'] {
  if (given === TWICE) return { kind: 'unreadable', why: 'gen_ai.tool.call.result (or a key inside it) is given twice' };
  if (given === undefined || given === null) return { kind: 'absent' };
  if (typeof given !== 'string') return { kind: 'value', value: given };
  const parsed = jsonOrText(given);
  if (parsed.kind === 'refused') return { kind: 'unreadable', why: `gen_ai.tool.call.result is not strict JSON (${parsed.reason})` };
  return { kind: 'value', value: parsed.kind === 'json' ? parsed.value : given };
}

/** A status that is not `{code, message}` (a string, `{"Code": 2}`): what it says cannot be read, so neither failed nor not. */
const UNREADABLE_STATUS: unique symbol = Symbol('unreadable status');

/**
 * A span's status code: absent (unset), or an object of `code` and `message` (proto3 JSON leaves the
 * unset code out). Any other shape is unreadable, never "unset" (a red team: `"STATUS_CODE_ERROR"` as
 * a string and `{"Code": 2}` were read as a success).
 */
function statusCode(given: unknown): unknown {
  if (given === undefined || given === null) return undefined;
  if (isObject(given) && Object.keys(given).every((k) => k === 'code' || k === 'message')) return given['code'];
  return UNREADABLE_STATUS;
}

/** A span's status code as OTLP JSON (a number, or its name) and OpenTelemetry JS write it: failed or not; null for a code that is neither. */
function statusFailed(code: unknown): boolean | null {
  if (code === undefined || code === null || code === 0 || code === 1 || code === '0' || code === '1') return false;
  if (code === 'STATUS_CODE_UNSET' || code === 'STATUS_CODE_OK') return false;
  if (code === 2 || code === '2' || code === 'STATUS_CODE_ERROR') return true;
  return null;
}

/** A result that says the tool failed (an MCP CallToolResult with isError). */
const resultFailed = (result: ToolUse['result']): boolean =>
  result.kind === 'value' && isObject(result.value) && result.value['isError'] === true;

/** A span's tool call, or null when the span is not one: `execute_tool` (or an MCP tools/call span that says it is one). */
function spanUse(attrs: Attributes, spanName: string, time: Instant | null, status: unknown, key: string | null): ToolUse | string | null {
  const operation = text(attrs, 'gen_ai.operation.name');
  const given = attrs.get('gen_ai.operation.name');
  if (given === TWICE) return 'a span gives gen_ai.operation.name twice: whether it is a tool call cannot be said';
  // Given, but not as text (a number, an object such as an OTLP value in Copilot CLI's flat attributes): never read as absent.
  if (given !== undefined && given !== null && typeof given !== 'string')
    return 'a span gives gen_ai.operation.name, but not as text: whether it is a tool call cannot be said';
  if (operation !== 'execute_tool') return null;
  const twice = givenTwice(attrs, ['gen_ai.tool.name', 'gen_ai.tool.call.id', 'error.type']);
  if (twice !== null) return `an execute_tool span gives ${twice} twice: which one is meant cannot be said`;
  // A red team's: a tool name given as a number fell back to the span's name.
  const odd = notText(attrs, ['gen_ai.tool.name', 'gen_ai.tool.call.id']);
  if (odd !== null) return `an execute_tool span gives ${odd}, but not as text: which call it is cannot be said`;
  const name = text(attrs, 'gen_ai.tool.name') ?? (spanName.startsWith('execute_tool ') ? spanName.slice(13).trim() : '');
  if (name === '') return 'an execute_tool span without gen_ai.tool.name';
  if (time === null) return `the execute_tool span of ${JSON.stringify(quote(name, 80))} has no end time`;
  if (status === UNREADABLE_STATUS)
    return `the execute_tool span of ${JSON.stringify(quote(name, 80))} has a status that is not an object of code and message: whether it failed cannot be said`;
  const failed = statusFailed(status);
  if (failed === null)
    return `the execute_tool span of ${JSON.stringify(quote(name, 80))} has status.code ${JSON.stringify(status)}, not an OpenTelemetry status`;
  const result = resultOf(attrs.get('gen_ai.tool.call.result'));
  return {
    name,
    server: null,
    callId: text(attrs, 'gen_ai.tool.call.id'),
    time,
    succeeded: !failed && !attrs.has('error.type') && !resultFailed(result),
    args: objectOf(attrs.get('gen_ai.tool.call.arguments'), 'gen_ai.tool.call.arguments'),
    result,
    source: 'span',
    key,
  };
}

/** A Claude Code log event's tool call, or null when the record is another event. */
function claudeUse(record: JsonObject, attrs: Attributes): ToolUse | string | null {
  const body = anyValue(record['body']);
  const names = [record['eventName'], body, attrs.get('event.name')];
  if (attrs.get('event.name') === TWICE) return 'an event gives event.name twice: whether it is a tool result cannot be said';
  if (!names.some((n) => n === 'tool_result' || n === 'claude_code.tool_result')) return null;
  const twice = givenTwice(attrs, ['tool_name', 'name', 'success', 'tool_use_id']);
  if (twice !== null) return `a tool_result event gives ${twice} twice: which one is meant cannot be said`;
  const odd = notText(attrs, ['tool_name', 'name', 'tool_use_id']);
  if (odd !== null) return `a tool_result event gives ${odd}, but not as text: which call it is cannot be said`;
  const params = objectOf(attrs.get('tool_parameters'), 'tool_parameters');
  const given = text(attrs, 'tool_name') ?? text(attrs, 'name') ?? '';
  let name = given;
  let server: string | null = null;
  const mcpTool = params.kind === 'object' && typeof params.value['mcp_tool_name'] === 'string' ? params.value['mcp_tool_name'] : null;
  const mcpServer =
    params.kind === 'object' && typeof params.value['mcp_server_name'] === 'string' ? params.value['mcp_server_name'] : null;
  if (mcpTool !== null && mcpTool !== '') {
    // tool_name is the redacted `mcp_tool`, or the same tool as mcp__SERVER__TOOL: anything else names another tool.
    if (given !== '' && given !== 'mcp_tool' && given !== `mcp__${mcpServer ?? ''}__${mcpTool}`)
      return `a tool_result event whose tool_name ${JSON.stringify(quote(given, 80))} and tool_parameters (${JSON.stringify(quote(mcpTool, 80))}) name different tools`;
    name = mcpTool;
    server = mcpServer;
  } else {
    // mcp__SERVER__TOOL, Claude Code's own name for an MCP tool.
    const split = /^mcp__(.+?)__(.+)$/.exec(given);
    if (split?.[1] && split[2]) {
      server = split[1];
      name = split[2];
    }
  }
  if (name === '') return 'a tool_result event without tool_name';
  const time = fromEpochNanos(record['timeUnixNano']) ?? fromEpochNanos(record['observedTimeUnixNano']);
  if (time === null) return `the tool_result event of ${JSON.stringify(quote(name, 80))} has no time`;
  const success = attrs.get('success');
  const said = typeof success === 'string' ? success.toLowerCase() : success;
  if (said !== true && said !== false && said !== 'true' && said !== 'false')
    return `the tool_result event of ${JSON.stringify(quote(name, 80))} says neither true nor false in success`;
  const id = text(attrs, 'tool_use_id');
  return {
    name,
    server,
    callId: id,
    time,
    succeeded: said === true || said === 'true',
    args: objectOf(attrs.get('tool_input'), 'tool_input'),
    result: { kind: 'never', source: "Claude Code's tool_result events" },
    source: 'claude-code',
    key: id === null ? null : `claude:${id}`,
  };
}

/** A span's identity (trace and span id, hex, non-empty), for telling a repeat; null: the span cannot be told from another. */
function spanKey(span: JsonObject): string | null {
  const trace = span['traceId'];
  const id = span['spanId'];
  return typeof trace === 'string' && typeof id === 'string' && /^[0-9a-fA-F]+$/.test(trace) && /^[0-9a-fA-F]+$/.test(id)
    ? `span:${trace}/${id}`.toLowerCase()
    : null;
}

/** `[s, ns]` (OpenTelemetry JS's HrTime, Copilot CLI's file) → an instant. */
function hrTime(given: unknown): Instant | null {
  if (!Array.isArray(given) || given.length !== 2) return null;
  const [s, ns] = given;
  if (!Number.isSafeInteger(s) || !Number.isSafeInteger(ns) || (ns as number) < 0 || (ns as number) >= 1e9) return null;
  return fromEpochNanos(`${s}${String(ns).padStart(9, '0')}`);
}

/** What OTLP JSON gives beside its list in a resource's and a scope's object (the proto's fields, in JSON's lowerCamelCase). */
const LINE_KEYS = ['resourceSpans', 'resourceLogs', 'resourceMetrics'] as const;
const RESOURCE_KEYS = ['resource', 'schemaUrl'] as const;
const SCOPE_KEYS = ['scope', 'schemaUrl'] as const;

/** One line of an OTLP JSON file (or of Copilot CLI's file) → its tool calls. */
export function telemetryLine(line: JsonObject): TelemetryLine {
  const uses: ToolUse[] = [];
  const errors: string[] = [];
  let other = 0;
  const take = (got: ToolUse | string | null): void => {
    if (got === null) other++;
    else if (typeof got === 'string') errors.push(got);
    else uses.push(got);
  };
  const known =
    ['resourceSpans', 'resourceLogs', 'resourceMetrics'].some((k) => Array.isArray(line[k])) || typeof line['type'] === 'string';
  if (!known)
    return { uses, other, errors: ['not an OTLP JSON line (resourceSpans, resourceLogs) nor a Copilot CLI span line ("type": "span")'] };
  // A level holding a key OTLP JSON does not give there (`resource_spans` beside the line's lists, an
  // older collector's `instrumentationLibrarySpans`, a `scope_spans` spelled as in the proto) is
  // refused: its spans would be passed over (a red team).
  const unread = (value: JsonObject, known: readonly string[], where: string, why: string): void => {
    const keys = Object.keys(value).filter((k) => !known.includes(k));
    if (keys.length > 0)
      errors.push(`${where} holds ${keys.map((k) => JSON.stringify(quote(k, 60))).join(', ')}${why}: refused, never passed over`);
  };
  if (typeof line['type'] !== 'string')
    unread(line, LINE_KEYS, 'the line', ' beside its lists, which OTLP JSON does not give (resourceSpans, resourceLogs, resourceMetrics)');
  else {
    // A Copilot CLI line ("type") that holds OTLP lists too, in any spelling: which it is cannot be said (a red team: its spans were passed over).
    const lists = Object.keys(line).filter((k) => /^resource_?(spans|logs|metrics)$/i.test(k));
    if (lists.length > 0)
      errors.push(
        `the line gives "type" (a Copilot CLI line) and ${lists.map((k) => JSON.stringify(quote(k, 60))).join(', ')} (OTLP JSON): which it is cannot be said; refused, never passed over`,
      );
  }
  // Every level of the structure is a list of objects: anything else is said, never skipped.
  const each = (value: unknown, key: string, where: string, known: readonly string[] | null = null): JsonObject[] => {
    if (known !== null && isObject(value))
      unread(value, [key, ...known], where, `, which OTLP JSON does not give there (its list is ${key})`);
    const got = isObject(value) ? value[key] : undefined;
    if (got === undefined) return [];
    if (!Array.isArray(got)) {
      errors.push(`${where}.${key} is not a list`);
      return [];
    }
    const objects = got.filter(isObject);
    if (objects.length < got.length) errors.push(`${where}.${key} holds ${got.length - objects.length} item(s) that are not objects`);
    return objects;
  };
  // Attributes as OTLP JSON gives them, or why they cannot be read (their span or record refused).
  const attributes = (value: unknown, where: string): Attributes | string => {
    const kv = pairs(value, 0);
    if (kv === ODD) return `${where}'s attributes are not a list of OTLP key-value pairs ({key, value}): refused, never read as none`;
    const odd = kv.find(([, v]) => v === ODD);
    if (odd)
      return `${where} attribute ${JSON.stringify(quote(odd[0], 60))} is not an OTLP JSON value (stringValue, intValue, …): refused, never read as absent`;
    return new Map(kv);
  };
  for (const resource of each(line, 'resourceSpans', 'the line'))
    for (const scope of each(resource, 'scopeSpans', 'resourceSpans[]', RESOURCE_KEYS))
      for (const span of each(scope, 'spans', 'scopeSpans[]', SCOPE_KEYS)) {
        const attrs = attributes(span['attributes'], 'a span');
        if (typeof attrs === 'string') {
          take(attrs);
          continue;
        }
        const status = statusCode(span['status']);
        take(
          spanUse(
            attrs,
            typeof span['name'] === 'string' ? span['name'] : '',
            fromEpochNanos(span['endTimeUnixNano']),
            status,
            spanKey(span),
          ),
        );
      }
  for (const resource of each(line, 'resourceLogs', 'the line'))
    for (const scope of each(resource, 'scopeLogs', 'resourceLogs[]', RESOURCE_KEYS))
      for (const record of each(scope, 'logRecords', 'scopeLogs[]', SCOPE_KEYS)) {
        const attrs = attributes(record['attributes'], 'a log record');
        take(typeof attrs === 'string' ? attrs : claudeUse(record, attrs));
      }
  other += each(line, 'resourceMetrics', 'the line').length;
  const type = line['type'];
  if (typeof type === 'string' && type !== 'span' && asciiLower(type) === 'span')
    errors.push(`the line's type is ${JSON.stringify(quote(type, 20))}: Copilot CLI writes "span"; refused, never passed over`);
  else if (type === 'span' && line['attributes'] !== undefined && !isObject(line['attributes']))
    errors.push("a Copilot CLI span line's attributes are not an object of values: refused, never read as none");
  else if (type === 'span') {
    // Copilot CLI's file: attributes a flat object of JSON values, times [s, ns], status code 2 an error.
    const flat = isObject(line['attributes']) ? line['attributes'] : {};
    const attrs = new Map(Object.keys(flat).map((k) => [k, flat[k]] as const));
    const status = statusCode(line['status']);
    take(spanUse(attrs, typeof line['name'] === 'string' ? line['name'] : '', hrTime(line['endTime']), status, spanKey(line)));
  } else if (typeof line['type'] === 'string') other++;
  return { uses, other, errors };
}
