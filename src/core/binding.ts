/**
 * The binding: "sha256:" + lowercase hex of sha256 over the UTF-8 bytes of the RFC 8785 (JCS)
 * canonical form. The one place in the gate where a subject digest is made and the one pattern a
 * digest must match; a binding is recomputed from committed bytes, never fetched.
 */
import { hash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { hasOwn, isObject, type JsonObject } from './json.js';
import { quote } from './text.js';

export type Canonical = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };
export type Binding = { readonly ok: true; readonly digest: string } | { readonly ok: false; readonly reason: string };

/** What every digest in an artifact must look like (binding_digest, run_root, key_id, …). */
export const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/**
 * RFC 8785 canonical text; lone surrogates and non-finite numbers are refused, not coerced. A value
 * as JSON.parse makes them is written out here (`jsonText`); canonicalize decides anything else.
 */
export function jcs(value: unknown): Canonical {
  const written = jsonText(value, 0);
  if (written !== null) return { ok: true, text: written };
  try {
    const text = canonicalize(value);
    if (text === undefined) return { ok: false, reason: 'value has no JSON representation' };
    return { ok: true, text };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

export function sha256Hex(text: string | Uint8Array): string {
  return hash('sha256', text, 'hex');
}

/** "sha256:" + hex of sha256(bytes): the digest form every artifact uses. */
export const sha256Digest = (text: string | Uint8Array): string => `sha256:${sha256Hex(text)}`;

/** RFC 3339 UTC in whole seconds (`…T12:00:00Z`): signed_at and timeVerified. */
export const utcSeconds = (d: Date): string => d.toISOString().replace(/\.\d+Z$/, 'Z');

/** binding(subject) as the semantics document defines it. */
export function binding(subject: unknown): Binding {
  const canonical = subjectCanonical(subject);
  return canonical.ok ? { ok: true, digest: sha256Digest(canonical.text) } : canonical;
}

/**
 * JCS(subject): the text binding() hashes, for a reader that also needs it in a signed record's
 * payload (`jcsWithout`). A subject holding an integer beyond ±(2^53−1) is refused (`unsafeInteger`).
 */
export function subjectCanonical(subject: unknown): Canonical {
  const unsafe = unsafeInteger(subject);
  if (unsafe !== null) return { ok: false, reason: unsafeIntegerText(unsafe, '') };
  const text = subjectText(subject);
  return text !== null ? { ok: true, text } : jcs(subject);
}

/** A number of a value that is an integer beyond ±(2^53−1), and where: keys and indices from the value's root. */
export interface UnsafeInteger {
  readonly path: readonly (string | number)[];
  readonly value: number;
}

/**
 * The first number in a value (members in their order, depth first) whose magnitude is 2^53 or more,
 * or null. Every such double is an integer, and JSON.parse has rounded the text's digits to it
 * (12345678901234567890 and 12345678901234567891 are both read as 12345678901234567000), so a
 * subject holding one could bind a record written for another value: such a subject is refused,
 * never canonicalized. Integers within ±(2^53−1) and fractions are written as JCS writes them.
 * Walked with a stack of its own (a value as deep as the reader allows never reaches the call stack's end).
 */
export function unsafeInteger(value: unknown): UnsafeInteger | null {
  // The common case first, with no path made: strings and small numbers only (one look per value).
  if (typeof value !== 'object' || value === null) return isUnsafe(value) ? { path: [], value: value as number } : null;
  const values: unknown[] = [value];
  let any = false;
  while (values.length > 0 && !any) {
    const v = values.pop();
    if (isUnsafe(v)) any = true;
    else if (typeof v === 'object' && v !== null) for (const x of Array.isArray(v) ? v : Object.values(v)) values.push(x);
  }
  if (!any) return null;
  const stack: { readonly value: unknown; readonly path: readonly (string | number)[] }[] = [{ value, path: [] }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const v = next.value;
    if (isUnsafe(v)) return { path: next.path, value: v };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: [...next.path, i] });
    } else if (isObject(v)) {
      // Entries, not a lookup by key: a key is input text. Pushed in reverse, so the first member is looked at first.
      const members = Object.entries(v);
      for (let i = members.length - 1; i >= 0; i--) {
        const [k, x] = members[i] as [string, unknown];
        stack.push({ value: x, path: [...next.path, k] });
      }
    }
  }
  return null;
}

const isUnsafe = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) > Number.MAX_SAFE_INTEGER;

/** A path of keys and indices in words, after `root` (`action.target.key_id`, `target.ids[2]`, `target["a b"]`). */
function pathText(root: string, path: readonly (string | number)[]): string {
  let out = root;
  for (const step of path)
    out +=
      typeof step === 'number'
        ? `[${step}]`
        : /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(step)
          ? `${out === '' ? '' : '.'}${step}`
          : `[${JSON.stringify(quote(step, 64))}]`;
  return out;
}

/** Why a value holding an unsafe integer is refused, naming it by its path after `root`. */
export const unsafeIntegerText = (unsafe: UnsafeInteger, root: string): string =>
  `${pathText(root, unsafe.path) || 'the value'} is an integer beyond ±(2^53−1) (read as ${String(unsafe.value)}): a number that large is rounded when it is read, so two different values could bind alike; it is never bound`;

/**
 * JCS of an object without its member `omit` (a signed entry's payload P: the entry without its
 * `signature`), the same text as `jcs` of a copy without that member. `known`: a member whose JCS
 * text was already made (a record's subject, for its binding), used as it is instead of written
 * again. Per signed record it saves a copy of the record and a second canonical form of its subject
 * (bench/HISTORY.md, "Signed records: the payload").
 */
export function jcsWithout(object: JsonObject, omit: string, known?: { readonly key: string; readonly text: string }): Canonical {
  const written =
    isPlainObject(object) && typeof (object as { toJSON?: unknown }).toJSON !== 'function' ? membersText(object, 0, omit, known) : null;
  if (written !== null) return { ok: true, text: written };
  // Anything the written form leaves to canonicalize: a copy without the member, judged as jcs judges it.
  const copy = {};
  for (const k of Object.keys(object))
    if (k !== omit) Object.defineProperty(copy, k, { value: object[k], enumerable: true, writable: true, configurable: true });
  return jcs(copy);
}

/** The written JCS text of a plain object at `depth`, but its member `omit` (`known`'s text for its member), or null for canonicalize to decide. */
function membersText(
  value: JsonObject,
  depth: number,
  omit: string | null,
  known?: { readonly key: string; readonly text: string },
): string | null {
  // Entries, not a lookup by key: a key is input text (`__proto__` included).
  const members = Object.entries(value);
  sortByKey(members);
  const parts: string[] = [];
  for (const [k, x] of members) {
    // As JSON.stringify and canonicalize leave them out: a member with no JSON form (undefined, a function).
    if (k === omit || x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    if (!k.isWellFormed()) return null;
    const t = known !== undefined && k === known.key ? known.text : jsonText(x, depth + 1);
    if (t === null) return null;
    parts.push(`${JSON.stringify(k)}:${t}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * The JCS text of a subject, `{action_class, target, verb}` (a call's or a record's), written out
 * here, or null for canonicalize to decide (any other shape, and whatever could fail): the three
 * keys sort as action_class < target < verb, the two strings are what JSON.stringify writes
 * (RFC 8785 §3.2.2.2), and the target is `jsonText`'s. A property test holds this equal to
 * canonicalize over arbitrary subjects. Per subject, it saves canonicalize's general walk (a frame,
 * a set of seen objects and a sort per object): binding() at N = 100 000 (160 000 subjects) 334 →
 * 258–277 ms in a CPU profile, and ~270 MiB of the run's 1.9 GiB allocated.
 */
function subjectText(subject: unknown): string | null {
  if (!isPlainObject(subject) || typeof (subject as { toJSON?: unknown }).toJSON === 'function') return null;
  if (Object.keys(subject).length !== 3 || !hasOwn(subject, 'action_class') || !hasOwn(subject, 'verb') || !hasOwn(subject, 'target'))
    return null;
  const actionClass = subject['action_class'];
  const verb = subject['verb'];
  if (typeof actionClass !== 'string' || typeof verb !== 'string' || !actionClass.isWellFormed() || !verb.isWellFormed()) return null;
  const target = jsonText(subject['target'], 1);
  return target === null ? null : `{"action_class":${JSON.stringify(actionClass)},"target":${target},"verb":${JSON.stringify(verb)}}`;
}

/** Containers deeper than this are left to canonicalize (which walks with a stack of its own, not the call stack). */
const MAX_WRITTEN_DEPTH = 64;

/**
 * The JCS text of a JSON value as JSON.parse makes it, written out flat (each container's parts
 * joined), or null for canonicalize to decide: anything else (another prototype, a toJSON, a value
 * JSON has no form for) and whatever could fail (a lone surrogate, a non-finite number). An object's
 * members are sorted by key in UTF-16 code units (the order `sort()` gives, as canonicalize sorts),
 * strings and numbers are what JSON.stringify writes (as canonicalize writes them). Per value it
 * saves canonicalize's general walk, and its text is one flat string where canonicalize's is a tree
 * of concatenations that every later use flattens again (a signed record's payload, an event's
 * content hash). A property test holds it equal to canonicalize over arbitrary values.
 */
function jsonText(value: unknown, depth: number): string | null {
  switch (typeof value) {
    case 'string':
      return value.isWellFormed() ? JSON.stringify(value) : null;
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : null;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      return null;
  }
  if (value === null) return 'null';
  if (depth >= MAX_WRITTEN_DEPTH) return null;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return null;
    const parts: string[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const given: unknown = value[i];
      // As JSON.stringify and canonicalize write them: an element with no JSON form (a hole, undefined, a function) is null.
      const t = given === undefined || typeof given === 'function' || typeof given === 'symbol' ? 'null' : jsonText(given, depth + 1);
      if (t === null) return null;
      parts[i] = t;
    }
    return `[${parts.join(',')}]`;
  }
  if (!isPlainObject(value) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return null;
  return membersText(value, depth, null);
}

/**
 * Members in key order (UTF-16 code units, as `<` compares strings). An object (a target, a record)
 * has a few keys: they are sorted in place, by insertion (Array.prototype.sort allocated 115 MiB of scratch for 160 000
 * subjects); past SMALL_TARGET keys, by sort, so an input with thousands of keys costs n log n.
 */
function sortByKey(members: [string, unknown][]): void {
  if (members.length > SMALL_TARGET) {
    members.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return;
  }
  for (let i = 1; i < members.length; i++) {
    const m = members[i] as [string, unknown];
    let j = i - 1;
    while (j >= 0 && (members[j] as [string, unknown])[0] > m[0]) {
      members[j + 1] = members[j] as [string, unknown];
      j--;
    }
    members[j + 1] = m;
  }
}
const SMALL_TARGET = 8;

/** An object as JSON.parse makes them (canonicalize alone judges anything with another prototype: a toJSON, a boxed value). */
const isPlainObject = (v: unknown): v is JsonObject => isObject(v) && Object.getPrototypeOf(v) === Object.prototype;
