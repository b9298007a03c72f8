/**
 * gh-aw's MCP gateway log (`rpc-messages.jsonl`; docs/producers.md): one JSON object per message the
 * gateway passed, v1 lines (`direction` OUT/IN, required: a tools/call goes OUT and its answer comes IN; `type` REQUEST/RESPONSE, `server_id`, `payload`) and
 * v2 lines (`"_schema": "rpc-message/v2"`, `event` rpc_request/rpc_response). The JSON-RPC message is
 * the `payload`. A `tools/call` request is paired with the next response of the same server and id;
 * the call succeeded when the response has a `result` that is not `isError`. Lines that are not
 * JSON-RPC messages of a tool call (other methods, filter events) are counted. What the calls do is
 * the mapping file's to say.
 */
import { isObject, type JsonObject } from '../../core/json.js';
import { quote } from '../../core/text.js';
import { parseRfc3339 } from '../../core/time.js';
import type { ToolUse } from './otlp-json.js';

/** One request waiting for its response. */
interface Pending {
  readonly name: string;
  readonly server: string;
  readonly id: string;
  readonly args: ToolUse['args'];
  readonly line: number;
}

/** What a line gives: a finished call (with the request's line), a count, or a located problem. */
export type RpcLine =
  | { readonly kind: 'use'; readonly use: ToolUse; readonly line: number }
  | { readonly kind: 'other'; readonly what: string; readonly n?: number }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'waiting' };

/** A request id as JSON-RPC allows it (a string or a number), as text; null for anything else. */
const idOf = (payload: JsonObject): string | null => {
  const id = payload['id'];
  return typeof id === 'string' ? `s:${id}` : typeof id === 'number' && Number.isFinite(id) ? `n:${id}` : null;
};

/**
 * Whether a line may carry a JSON-RPC message (a `payload` that is a batch, or an object with any
 * member of one: the v2 lines this reader takes need no `jsonrpc`): one it cannot place is refused,
 * never skipped (a red team: a batch, and a message without `jsonrpc`, under rpc-message/v3).
 */
const RPC_MEMBERS = ['jsonrpc', 'method', 'params', 'result', 'error', 'id'] as const;
/** A `payload`: a batch, or an object with any member of a message. */
const payloadLike = (value: unknown): boolean =>
  Array.isArray(value) || (isObject(value) && RPC_MEMBERS.some((m) => value[m] !== undefined));
/**
 * A message under another name: `jsonrpc`, a `method` with its `params` or `id`, or an id with its
 * result or error. A `method` alone is not one (the gateway's own events give an HTTP method: a
 * `difc-event/v1` line `{"method": "GET", "path": …}` is no RPC message, a red team on the fix), nor
 * is an object with an id alone.
 */
const messageLike = (value: unknown): boolean =>
  Array.isArray(value)
    ? value.some(messageLike)
    : isObject(value) &&
      (value['jsonrpc'] !== undefined ||
        (typeof value['method'] === 'string' && (value['params'] !== undefined || value['id'] !== undefined)) ||
        (value['id'] !== undefined && (value['result'] !== undefined || value['error'] !== undefined)));
/** The words a line uses for an RPC message's direction (v1 `type`, v2 `event`). */
const RPC_KINDS: readonly unknown[] = ['REQUEST', 'RESPONSE', 'rpc_request', 'rpc_response'];
/**
 * Any member of the line that is one (not only `payload`: a message under another name), the line
 * itself (`method` beside `_schema`), or a line that calls itself a request or a response (a red
 * team: a v3 line with its message under `message` was counted as "not an RPC message").
 */
const carriesRpc = (entry: JsonObject): boolean =>
  payloadLike(entry['payload']) ||
  RPC_KINDS.includes(entry['event']) ||
  RPC_KINDS.includes(entry['type']) ||
  messageLike(entry) ||
  Object.keys(entry).some((k) => messageLike(entry[k]));

const UNTOLD = 'tools/call requests whose answer cannot be told (an id used again before its answer)';

/** Requests and responses of one log file, paired as they come. */
export class RpcPairs {
  private readonly pending = new Map<string, Pending>();
  /** Ids used by two requests before an answer: the answers still owed, none of which can be paired (a red team: a failed create took a read's answer). */
  private readonly tangled = new Map<string, number>();
  /** Requests of other methods (ping, resources/read) the client sent, by id, still owed an answer: a tools/call under the same id cannot be paired either. */
  private readonly others = new Map<string, number>();

  /**
   * A request of another method than tools/call: never a call, but its id is owed an answer. Under
   * an id a tools/call waits on, which answer is whose cannot be told (a red team: a ping's error
   * answer was taken for the call's, and the call's own answer went to no request).
   */
  private otherRequest(key: string | null): RpcLine {
    const what = 'not a tools/call';
    if (key === null) return { kind: 'other', what };
    const owed = this.tangled.get(key);
    if (owed !== undefined) this.tangled.set(key, owed + 1);
    else if (this.pending.delete(key)) {
      this.tangled.set(key, 2);
      return { kind: 'other', what: UNTOLD };
    } else this.others.set(key, (this.others.get(key) ?? 0) + 1);
    return { kind: 'other', what };
  }

  line(entry: JsonObject, line: number): RpcLine {
    const schema = entry['_schema'];
    const v2 = schema === 'rpc-message/v2';
    if (schema !== undefined && !v2)
      return carriesRpc(entry)
        ? {
            kind: 'error',
            message: `an RPC message of a log schema this reader does not know (_schema ${JSON.stringify(quote(String(schema), 60))}; it reads rpc-message/v2 and v1 lines)`,
          }
        : { kind: 'other', what: 'not an RPC message' };
    const kind = v2
      ? entry['event'] === 'rpc_request'
        ? 'request'
        : entry['event'] === 'rpc_response'
          ? 'response'
          : null
      : entry['type'] === 'REQUEST'
        ? 'request'
        : entry['type'] === 'RESPONSE'
          ? 'response'
          : null;
    if (kind === null) {
      if ((typeof entry['type'] === 'string' || typeof entry['event'] === 'string') && !carriesRpc(entry))
        return { kind: 'other', what: 'not an RPC message' };
      return { kind: 'error', message: 'not a gateway log line (v1 type REQUEST/RESPONSE, or v2 event rpc_request/rpc_response)' };
    }
    const server = entry['server_id'];
    const payload = entry['payload'];
    if (typeof server !== 'string' || server === '' || !isObject(payload))
      return { kind: 'error', message: `an RPC ${kind} without server_id or payload` };
    // The agent's client sends tools/call requests (OUT) and its servers answer them (IN); a request
    // a server sends (IN: ping, sampling) and the client's answer to it (OUT) are another exchange
    // with ids of their own, never a tools/call's answer. A line that says neither is refused.
    const direction = entry['direction'];
    if (direction !== 'OUT' && direction !== 'IN')
      return { kind: 'error', message: `an RPC ${kind} without direction OUT or IN: which side sent it cannot be said` };
    if (kind === 'request' && direction === 'IN') return { kind: 'other', what: 'requests a server sent' };
    if (kind === 'response' && direction === 'OUT') return { kind: 'other', what: 'answers the client sent' };
    const id = idOf(payload);
    if (kind === 'request') {
      if (payload['method'] !== 'tools/call') return this.otherRequest(id === null ? null : `${server}\u0000${id}`);
      const params = payload['params'];
      const name = isObject(params) ? params['name'] : undefined;
      if (typeof name !== 'string' || name === '') return { kind: 'error', message: 'a tools/call request without params.name' };
      if (id === null) return { kind: 'error', message: `the tools/call request of ${JSON.stringify(quote(name, 80))} has no id` };
      const given = isObject(params) ? params['arguments'] : undefined;
      const args: ToolUse['args'] = isObject(given)
        ? { kind: 'object', value: given }
        : given === undefined
          ? { kind: 'absent', why: 'no params.arguments' }
          : { kind: 'unreadable', why: 'params.arguments is not an object' };
      // A request id used again before its answer: which answer is whose cannot be told (a reconnect, or
      // two requests in flight). Neither asserts anything, nor any later request under it until every answer owed came.
      const key = `${server}\u0000${id}`;
      const owed = this.tangled.get(key);
      if (owed !== undefined) {
        this.tangled.set(key, owed + 1);
        return { kind: 'other', what: UNTOLD };
      }
      if (this.pending.delete(key)) {
        this.tangled.set(key, 2);
        return { kind: 'other', what: UNTOLD, n: 2 };
      }
      // Another method's request still owed an answer under this id: the same.
      const others = this.others.get(key);
      if (others !== undefined) {
        this.others.delete(key);
        this.tangled.set(key, others + 1);
        return { kind: 'other', what: UNTOLD };
      }
      this.pending.set(key, { name, server, id, args, line });
      return { kind: 'waiting' };
    }
    if (id === null) return { kind: 'other', what: 'responses without an id' };
    const key = `${server}\u0000${id}`;
    const owed = this.tangled.get(key);
    if (owed !== undefined) {
      if (owed <= 1) this.tangled.delete(key);
      else this.tangled.set(key, owed - 1);
      return { kind: 'other', what: 'answers to an id two requests used' };
    }
    const others = this.others.get(key);
    if (others !== undefined) {
      if (others <= 1) this.others.delete(key);
      else this.others.set(key, others - 1);
      return { kind: 'other', what: 'answers to other requests' };
    }
    const request = this.pending.get(key);
    if (!request) return { kind: 'other', what: 'responses to no tools/call' };
    this.pending.delete(key);
    const stamp = entry['timestamp'];
    const time = typeof stamp === 'string' ? parseRfc3339(stamp) : null;
    if (!time?.ok)
      return { kind: 'error', message: `the response to ${JSON.stringify(quote(request.name, 80))} has no RFC 3339 timestamp` };
    const result = payload['result'];
    const failed = !isObject(result) || result['isError'] === true || payload['error'] !== undefined;
    return {
      kind: 'use',
      line: request.line,
      use: {
        name: request.name,
        server: request.server,
        callId: request.id.slice(2),
        time: time.value,
        succeeded: !failed,
        args: request.args,
        result: isObject(result) ? { kind: 'value', value: result } : { kind: 'absent' },
        source: 'mcp',
        key: null,
      },
    };
  }

  /** Requests the log never answered: their outcome is unknown (counted; no call asserts them). */
  unanswered(): number {
    return this.pending.size;
  }
}
