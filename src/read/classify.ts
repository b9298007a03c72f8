/**
 * What a JSON object is. Export folders and run logs legitimately hold other Assay artifacts, which
 * are skipped with a notice; but another *version* of a kind we read is an error, never a skip, so
 * renaming `.v0` to `.v1` cannot hide a record or a run from the gate.
 */
import { hasOwn, isObject, type JsonObject } from '../core/json.js';
import { RECORD_SCHEMA as RECORD, SURFACE_SCHEMA as SURFACE } from '../core/model.js';

export type Kind =
  | { readonly kind: 'surface'; readonly payload: JsonObject; readonly via: 'schema' | 'event' }
  | { readonly kind: 'record'; readonly payload: JsonObject; readonly via: 'schema' | 'event' }
  | { readonly kind: 'other'; readonly name: string }
  | { readonly kind: 'error'; readonly reason: string };

const family = (name: string): string => name.replace(/\.v\d+$/, '');

function byName(name: string, payload: unknown, via: 'schema' | 'event'): Kind {
  for (const [known, kind] of [
    [SURFACE, 'surface'],
    [RECORD, 'record'],
  ] as const) {
    if (name === known) {
      if (!isObject(payload)) return { kind: 'error', reason: `the ${via === 'event' ? 'event data' : 'object'} of ${known} is not an object` };
      return { kind, payload, via };
    }
    if (family(name) === family(known)) return { kind: 'error', reason: `unsupported version "${name}" (this gate reads ${known})` };
  }
  return { kind: 'other', name };
}

/** An object with a string `schema` is named by it; an evidence event (no `schema`, a string `type`) by its type. */
export function classify(value: unknown): Kind {
  if (!isObject(value)) {
    return {
      kind: 'error',
      reason: `expected a JSON object with a "schema" string, found ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`,
    };
  }
  const schema = value['schema'];
  if (typeof schema === 'string') return byName(schema, value, 'schema');
  if (schema !== undefined) return { kind: 'error', reason: '"schema" is not a string' };
  const type = value['type'];
  if (typeof type === 'string' && hasOwn(value, 'data')) {
    if (family(type) === family(SURFACE) || family(type) === family(RECORD)) {
      return byName(type, value['data'], 'event');
    }
    return { kind: 'other', name: type };
  }
  return { kind: 'error', reason: 'object has no "schema" string (and is not an evidence event with "type" and "data")' };
}
