/**
 * What a producer's line says a tool call did (docs/producers.md), and the run the gate already
 * reads that it becomes: one NDJSON evidence event per call (evidence-bundle.md's envelope), its data
 * a decision surface holding that one decision, in the Assay decision shape. An imported call asserts
 * exactly what its source says happened: a write the source says succeeded asserts its side effect;
 * a call the source says nothing more of asserts nothing; a target the source does not give is no
 * subject, never a guess.
 */
import { jcs, sha256Digest } from '../../core/binding.js';
import type { JsonObject } from '../../core/json.js';
import { SURFACE_SCHEMA } from '../../core/model.js';

/** A bound target field's value: a string (names, hashes, shas) or a whole number (GitHub's ids). */
export type FieldValue = string | number;

/** The side effect a call asserts: its class, verb, the provider whose records may bind it, and its bound target. */
export interface Effect {
  readonly actionClass: string;
  readonly verb: string;
  readonly provider: string;
  readonly target: readonly (readonly [string, FieldValue])[];
}

/** One tool call as its producer's file says it happened. */
export interface ProducerCall {
  /** As the decision's tool.name writes it (`gh-aw.create_issue`, `create_issue`). */
  readonly tool: string;
  /** The MCP server, when the source names one. */
  readonly server: string | null;
  /** The call's id in its source (a span's gen_ai.tool.call.id, a tool_use_id), or null. */
  readonly callId: string | null;
  /** RFC 3339 UTC: when the source says the call ended. */
  readonly time: string;
  /** The source line it came from (1-based). */
  readonly line: number;
  /** The source says the call succeeded. */
  readonly succeeded: boolean;
  /** The side effect it asserts (a successful write the source or the mapping names), or null: it asserts nothing. */
  readonly asserts: boolean;
  /** Its subject, or null (no class, or a target the source does not give). */
  readonly effect: Effect | null;
  /** Why an asserting call has no subject (`no comment id in the item`), for the summary and the decision. */
  readonly note: string | null;
}

/** What the run says of where it came from. */
export interface RunSource {
  readonly kind: string;
  /** The input file's name, as given. */
  readonly file: string;
  /** Hex sha256 of the input's bytes. */
  readonly sha256: string;
}

/** A call → the Assay decision the gate reads (tool, action, decision, response, and where it came from). */
function decisionOf(call: ProducerCall, source: RunSource, first: boolean): JsonObject {
  const target: { [field: string]: FieldValue } = {};
  if (call.effect) {
    target['provider'] = call.effect.provider;
    for (const [field, value] of call.effect.target) target[field] = value;
  }
  const origin: { [key: string]: string | number } = { kind: source.kind, file: source.file, line: call.line };
  if (first) origin['source_sha256'] = source.sha256;
  if (call.callId !== null) origin['call_id'] = call.callId;
  if (call.note !== null) origin['note'] = call.note;
  return {
    tool: { name: call.tool },
    ...(call.server !== null ? { server: { id: call.server } } : {}),
    action: call.effect
      ? { resource_type: call.effect.actionClass, verb: call.effect.verb, target }
      : { resource_type: null, verb: null, target: null },
    decision: { effect: 'allow', source: `receipt-gate import-run ${source.kind}` },
    response: {
      status: call.succeeded ? 'success' : 'error',
      side_effect_asserted: call.asserts,
      side_effect: { asserted: call.asserts, level: 'asserted' },
    },
    import: origin,
  };
}

const NON_CLAIMS = [
  "imported from the producer's own file by receipt-gate import-run; asserts only what that file says happened",
  'does not prove the side effect: a provider record binds it, or it stays asserted',
];

/**
 * The run: one evidence event per call, in the order given, canonical JSON, `\n` after each. The
 * run id is the inputs' digest (the same inputs give the same bytes); `assaycontenthash` as
 * evidence-bundle.md says (JCS of specversion, type, datacontenttype, subject, data).
 */
export function eventLines(
  calls: readonly { readonly call: ProducerCall; readonly source: RunSource; readonly first: boolean }[],
  runId: string,
  version: string,
): string {
  const out: string[] = [];
  calls.forEach(({ call, source, first }, seq) => {
    const data = { schema: SURFACE_SCHEMA, observed_tool_decisions: [decisionOf(call, source, first)], non_claims: NON_CLAIMS };
    const content = { specversion: '1.0', type: SURFACE_SCHEMA, datacontenttype: 'application/json', subject: source.file, data };
    const hashed = jcs(content);
    if (!hashed.ok) throw new Error(`an imported call cannot be canonicalized: ${hashed.reason}`); // strings, whole numbers and booleans only
    const event = jcs({
      specversion: '1.0',
      type: SURFACE_SCHEMA,
      source: `urn:receipt-gate:import-run:${source.kind}`,
      id: `${runId}:${seq}`,
      time: call.time,
      datacontenttype: 'application/json',
      subject: source.file,
      assayrunid: runId,
      assayseq: seq,
      assayproducer: 'receipt-gate',
      assayproducerversion: version,
      assaycontenthash: sha256Digest(hashed.text),
      data,
    });
    if (!event.ok) throw new Error(`an imported call cannot be canonicalized: ${event.reason}`);
    out.push(event.text);
  });
  return out.length > 0 ? `${out.join('\n')}\n` : '';
}
