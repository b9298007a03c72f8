/**
 * What a JSON object is (§1), for every reader (plain files, NDJSON logs, bundle events), so they can
 * never disagree. Export folders and run logs legitimately hold other Assay artifacts, which are
 * skipped with a notice; but a near miss of a kind the gate reads is an error, never a skip:
 * another version (`…v1`), another case (`…V0`), a suffix (`…v0.1`) or stray whitespace. An object
 * that names two kinds at once (an event's `type` and a top-level `schema`) is ambiguous: an error.
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

/** An object with a string `schema` is named by it; an evidence event (a string `type` and `data`) by its type. */
export function classify(value: unknown): Kind {
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
  if (event) {
    const kind = byName(type, value['data'], 'event');
    return kind;
  }
  const mark = markOf(value);
  if (mark !== null)
    return {
      kind: 'error',
      reason: `object has no "schema" string but holds ${mark}: a kind this gate reads is never skipped`,
      named: true,
    };
  return { kind: 'error', reason: 'object has no "schema" string (and is not an evidence event with "type" and "data")', named: false };
}
