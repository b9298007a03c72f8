/**
 * What a producer's line says a tool call did (docs/producers.md), and the run the gate already
 * reads that it becomes: one NDJSON evidence event per call (evidence-bundle.md's envelope), its data
 * a decision surface holding that one decision, in the Assay decision shape. An imported call asserts
 * exactly what its source says happened: a write the source says succeeded asserts its side effect;
 * a call the source says nothing more of asserts nothing; a target the source does not give is no
 * subject, never a guess.
 */
import { jcs, sha256Digest } from '../../core/binding.js';
import { SURFACE_SCHEMA } from '../../core/model.js';

/** A bound target field's value: a string (names, hashes, shas), a whole number (GitHub's ids), or null (a field the class leaves empty). */
export type FieldValue = string | number | null;

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

/** A string's JSON text as RFC 8785 writes it (JSON.stringify's; a lone surrogate, which the strict reader never lets through, replaced). */
const str = (value: string): string => JSON.stringify(value.isWellFormed() ? value : value.toWellFormed());

/** A value of ours (a string, a whole number) as JCS writes it. */
const scalar = (value: FieldValue): string => (value === null ? 'null' : typeof value === 'number' ? JSON.stringify(value) : str(value));

/** Members in JCS order (keys compared in UTF-16 code units), written `"key":text`. */
const members = (pairs: readonly (readonly [string, string])[]): string =>
  `{${[...pairs]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${str(k)}:${v}`)
    .join(',')}}`;

/**
 * A call → the Assay decision the gate reads (tool, action, decision, response, and where it came
 * from), as its canonical text: written member by member in JCS's key order (a test holds every
 * line equal to its JCS), not built as an object and canonicalized.
 */
function decisionText(call: ProducerCall, source: RunSource, first: boolean): string {
  const effect = call.effect;
  const action = effect
    ? `{"resource_type":${str(effect.actionClass)},"target":${members([['provider', str(effect.provider)], ...effect.target.map(([f, v]) => [f, scalar(v)] as const)])},"verb":${str(effect.verb)}}`
    : '{"resource_type":null,"target":null,"verb":null}';
  const origin: [string, string][] = [
    ['kind', str(source.kind)],
    ['file', str(source.file)],
    ['line', String(call.line)],
  ];
  if (first) origin.push(['source_sha256', str(source.sha256)]);
  if (call.callId !== null) origin.push(['call_id', str(call.callId)]);
  if (call.note !== null) origin.push(['note', str(call.note)]);
  const asserted = call.asserts ? 'true' : 'false';
  return (
    `{"action":${action},"decision":{"effect":"allow","source":${str(`receipt-gate import-run ${source.kind}`)}},"import":${members(origin)},` +
    `"response":{"side_effect":{"asserted":${asserted},"level":"asserted"},"side_effect_asserted":${asserted},"status":${call.succeeded ? '"success"' : '"error"'}},` +
    `${call.server !== null ? `"server":{"id":${str(call.server)}},` : ''}"tool":{"name":${str(call.tool)}}}`
  );
}

const NON_CLAIMS = [
  "imported from the producer's own file by receipt-gate import-run; asserts only what that file says happened",
  'does not prove the side effect: a provider record binds it, or it stays asserted',
];

/** A value's canonical text, for the few this module writes itself (strings and decisions of strings, numbers, booleans and null). */
function canonical(value: unknown): string {
  const text = jcs(value);
  if (!text.ok) throw new Error(`an imported call cannot be canonicalized: ${text.reason}`); // strings, whole numbers and booleans only
  return text.text;
}

/**
 * The run, in chunks of lines: one evidence event per call, in the order given, canonical JSON (RFC
 * 8785), `\n` after each. The run id is the inputs' digest (the same inputs give the same bytes); `assaycontenthash`
 * as evidence-bundle.md says (JCS of specversion, type, datacontenttype, subject, data). Each event is
 * written member by member in JCS's key order with only the decision canonicalized per call: the
 * event and its content hash share the data's text (a test holds every line equal to its JCS).
 */
export function* eventLines(
  calls: readonly { readonly call: ProducerCall; readonly source: RunSource; readonly first: boolean }[],
  runId: string,
  version: string,
): Generator<string> {
  const type = canonical(SURFACE_SCHEMA);
  const nonClaims = canonical(NON_CLAIMS);
  const constant = `"assayproducer":"receipt-gate","assayproducerversion":${canonical(version)},"assayrunid":${canonical(runId)}`;
  // Chunks of CHUNK lines: the run is written as it is made, never held whole (100 000 calls: ~150 MB).
  let out: string[] = [];
  for (const [seq, { call, source, first }] of calls.entries()) {
    // Keys in JCS order: data {non_claims, observed_tool_decisions, schema}; the event's members below.
    const data = `{"non_claims":${nonClaims},"observed_tool_decisions":[${decisionText(call, source, first)}],"schema":${type}}`;
    const subject = canonical(source.file);
    const hash = sha256Digest(
      `{"data":${data},"datacontenttype":"application/json","specversion":"1.0","subject":${subject},"type":${type}}`,
    );
    out.push(
      `{"assaycontenthash":"${hash}",${constant},"assayseq":${seq},"data":${data},"datacontenttype":"application/json",` +
        `"id":${canonical(`${runId}:${seq}`)},"source":${canonical(`urn:receipt-gate:import-run:${source.kind}`)},"specversion":"1.0",` +
        `"subject":${subject},"time":${canonical(call.time)},"type":${type}}\n`,
    );
    if (out.length === CHUNK) {
      yield out.join('');
      out = [];
    }
  }
  if (out.length > 0) yield out.join('');
}

const CHUNK = 1000;
