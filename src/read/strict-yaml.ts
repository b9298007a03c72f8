/**
 * YAML as the gate's configuration files are read (the policy file, an import's mapping file): YAML
 * 1.2, one document, strictly (duplicate keys, a tab in indentation, a directive, an anchor or an
 * alias, an explicit tag, a merge key, a second document: refused), every problem located
 * `file:line:column`, then its shape checked against its JSON Schema with every problem located and a
 * misspelt key given the nearest known one. What a reviewer reads must be what applies. Nothing here
 * reads a file: the text is given.
 */
import type * as Yaml from 'yaml';
import type { Node } from 'yaml';
import { type Finding, type FindingCode, finding } from '../core/findings.js';
import { isObject, type JsonObject, memberAt } from '../core/json.js';
import type { Location } from '../core/location.js';
import type { Result } from '../core/result.js';
import { nearestName } from '../core/text.js';
import type { GeneratedValidator } from './validators.generated.js';

/**
 * The YAML parser, loaded by the entries (`loadYamlParser`) only when a YAML file is to be read:
 * bundled, it costs the action ~40 ms at start-up, paid by every run without a policy file.
 */
let yaml: typeof Yaml | null = null;

/** Loads the YAML parser once; every entry awaits it before it reads a policy or mapping file. */
export async function loadYamlParser(): Promise<void> {
  yaml ??= await import('yaml');
}

function parser(): typeof Yaml {
  if (yaml === null) throw new Error('the YAML parser is not loaded: an entry must await loadYamlParser() before a YAML file is read');
  return yaml;
}

/** A YAML text's value read leniently (for a first look before the strict read reports its problems), or undefined when it does not parse. */
export function yamlValue(source: string): unknown {
  try {
    return parser().parse(source, { version: '1.2', maxAliasCount: 0 });
  } catch {
    return undefined;
  }
}

/** What the file is, for the messages: `a policy file`, `a mapping file`. */
export interface YamlFileContext {
  /** As findings name the file. */
  readonly path: string;
  /** The commit it was read at (null: the file on disk). */
  readonly commit: string | null;
  /** `a policy file`: what the messages call it. */
  readonly noun: string;
  /** The finding code of every problem. */
  readonly code: FindingCode;
}

/** A file's value and where each of its nodes is (`where(pointer)`, `where(pointer, true)` for a key). */
export interface YamlDocument {
  readonly value: unknown;
  readonly where: (pointer: string, key?: boolean) => Location;
  /** A place in the file by line and column. */
  readonly place: (line: number, column: number) => Location;
}

/** Every node's place by its JSON pointer (and a key's own place, `pointer#key`), for locating problems. */
function positions(contents: Node, at: (offset: number) => Location): Map<string, Location> {
  const out = new Map<string, Location>();
  const y = parser();
  const walk = (node: unknown, pointer: string, keyAt: number | null): void => {
    if (!y.isNode(node)) return;
    const start = node.range?.[0] ?? 0;
    // A problem with a value is at the value; with a map or a list, at the key that holds it.
    out.set(pointer, at(y.isScalar(node) ? start : (keyAt ?? start)));
    if (y.isMap(node))
      for (const pair of node.items) {
        if (!y.isPair(pair) || !y.isScalar(pair.key)) continue;
        const name = String(pair.key.value).replace(/~/g, '~0').replace(/\//g, '~1');
        walk(pair.value, `${pointer}/${name}`, pair.key.range?.[0] ?? null);
        // A key's own place, for a problem with the key (an unknown key).
        out.set(`${pointer}/${name}#key`, at(pair.key.range?.[0] ?? start));
      }
    else if (y.isSeq(node))
      node.items.forEach((item, i) => {
        walk(item, `${pointer}/${i}`, null);
      });
  };
  walk(contents, '', null);
  return out;
}

/** What YAML 1.2 core allows that these files do not (docs/policy.md §11). */
interface Forbidden {
  readonly offset: number;
  readonly message: string;
}

/**
 * The first anchor, alias, explicit tag or merge key (`<<`) in a document, located at its own token
 * (an anchor at its `&`, not at the value it names).
 */
function forbiddenOf(contents: unknown, source: string, noun: string): Forbidden | null {
  let found: Forbidden | null = null;
  const y = parser();
  const walk = (node: unknown): void => {
    if (found !== null || !y.isNode(node)) return;
    const start = node.range?.[0] ?? 0;
    if (y.isAlias(node)) {
      found = { offset: start, message: `an alias (*${node.source}): write each value out (what a reviewer reads must be what applies)` };
      return;
    }
    const anchor = node.anchor ?? '';
    if (anchor !== '') {
      const at = source.lastIndexOf(`&${anchor}`, start);
      found = {
        offset: at >= 0 ? at : start,
        message: `an anchor (&${anchor}): write each value out (what a reviewer reads must be what applies)`,
      };
      return;
    }
    if ((node.tag ?? '') !== '') {
      // The tag token's first character (`!!str`, `!e!x`), before the value it names.
      let at = source.lastIndexOf('!', start);
      while (at > 0 && !/[\s[{,:]/.test(source[at - 1] ?? ' ')) at--;
      found = { offset: at >= 0 ? at : start, message: `an explicit tag (${node.tag}): ${noun} is plain YAML 1.2 with no tags` };
      return;
    }
    if (y.isMap(node))
      for (const pair of node.items) {
        if (!y.isPair(pair)) continue;
        if (y.isScalar(pair.key) && pair.key.value === '<<') {
          found = {
            offset: pair.key.range?.[0] ?? start,
            message: 'a merge key (<<): YAML 1.2 has none; write each key out (what a reviewer reads must be what applies)',
          };
          return;
        }
        walk(pair.key);
        walk(pair.value);
      }
    else if (y.isSeq(node)) for (const item of node.items) walk(item);
  };
  walk(contents);
  return found;
}

/** A YAML directive (`%YAML`, `%TAG`) before the document: the file is YAML 1.2 as the gate reads it, never another version. */
function directiveOf(source: string, noun: string): Forbidden | null {
  const match = /^%[A-Za-z]+/m.exec(source);
  if (!match) return null;
  const end = source.search(/^---/m);
  if (end >= 0 && match.index > end) return null;
  return {
    offset: match.index,
    message: `a YAML directive (${match[0]}): ${noun} is YAML 1.2 and declares nothing (a %YAML 1.1 directive would turn on merge keys a reviewer does not see)`,
  };
}

/** A hint for the YAML syntax errors a newcomer makes (docs/policy.md §11 "YAML messages"). */
function syntaxHint(code: string, line: string, message: string): string {
  // `Map keys must be unique` named no key (a newcomer).
  const key = code === 'DUPLICATE_KEY' ? /^\s*(?:-\s+)?("[^"]*"|'[^']*'|[^\s:#][^:#]*?)\s*:/.exec(line)?.[1] : undefined;
  if (key !== undefined)
    return ` (${key.startsWith('"') || key.startsWith("'") ? key : JSON.stringify(key)} is written twice in one mapping: keep one)`;
  if (code === 'BAD_SCALAR_START' || /(?::|^\s*-)\s+[@`]/.test(line)) return ' (a plain value cannot start with @ or `: quote it, "@…")';
  if (/(?::|^\s*-)\s+\*/.test(line)) return ' (a value starting with * is an alias in YAML: quote it, "*…")';
  if (
    code === 'BAD_INDENT' ||
    code === 'BLOCK_AS_IMPLICIT_KEY' ||
    code === 'MULTILINE_IMPLICIT_KEY' ||
    code === 'UNEXPECTED_TOKEN' ||
    /indent|indicator|same column/i.test(message)
  )
    return ' (check the indentation: the keys of a "- " item line up with the first key after the dash, two spaces further in than the dash)';
  return '';
}

/**
 * A YAML text → its one document's value and the place of every node, or every syntax problem
 * located (with `empty`'s words for a file with no document).
 */
export function readYamlDocument(source: string, context: YamlFileContext, empty: string): Result<YamlDocument, readonly Finding[]> {
  const y = parser();
  const lines = new y.LineCounter();
  const docs = y.parseAllDocuments(source, {
    lineCounter: lines,
    uniqueKeys: true,
    strict: true,
    prettyErrors: false,
    version: '1.2',
    // The library's own warnings never reach stderr: what it warns of is refused here, located (a collection as a key: a red team).
    logLevel: 'error',
  });
  const list = Array.isArray(docs) ? docs : [docs];
  // A place in this file, with the commit it was read at when that is not the checkout.
  const file = context.path;
  const place = (line: number, column: number): Location =>
    context.commit === null ? { file, line, column } : { file, line, column, commit: context.commit };
  const atOffset = (offset: number): Location => {
    const pos = lines.linePos(offset);
    return place(pos.line, pos.col);
  };
  const problems: Finding[] = [];
  // Bytes that are not UTF-8 were read as U+FFFD: the text judged would not be the file's bytes, nor its sha256 theirs.
  const garbled = source.indexOf('\uFFFD');
  if (garbled >= 0)
    problems.push(finding(context.code, atOffset(garbled), `bytes that are not UTF-8 (read as U+FFFD): ${context.noun} is UTF-8 text`));
  if (list.length > 1)
    problems.push(finding(context.code, atOffset(list[1]?.range?.[0] ?? 0), `a second YAML document: ${context.noun} holds one`));
  const doc = list[0];
  if (!doc || doc.contents === null) return { ok: false, reason: [finding(context.code, place(1, 1), empty)] };
  const directive = directiveOf(source, context.noun);
  if (directive !== null) problems.push(finding(context.code, atOffset(directive.offset), directive.message));
  const lineAt = (offset: number): string => {
    const from = source.lastIndexOf('\n', Math.max(0, offset - 1)) + 1;
    const to = source.indexOf('\n', offset);
    return source.slice(from, to < 0 ? source.length : to);
  };
  for (const e of [...doc.errors, ...doc.warnings])
    problems.push(
      finding(context.code, atOffset(e.pos[0]), `${e.message.split('\n')[0] ?? e.code}${syntaxHint(e.code, lineAt(e.pos[0]), e.message)}`),
    );
  const forbidden = problems.length > 0 ? null : forbiddenOf(doc.contents, source, context.noun);
  if (forbidden !== null) problems.push(finding(context.code, atOffset(forbidden.offset), forbidden.message));
  if (problems.length > 0) return { ok: false, reason: problems };
  const value: unknown = doc.toJS({ maxAliasCount: 0 });
  const places = positions(doc.contents, atOffset);
  // A pointer to a field the file lacks lands on the nearest node it has (the entry missing it), never on 1:1.
  const where = (pointer: string, key = false): Location => {
    const exact = (key ? places.get(`${pointer}#key`) : undefined) ?? places.get(pointer);
    if (exact !== undefined) return exact;
    for (let cut = pointer.lastIndexOf('/'); cut > 0; cut = pointer.lastIndexOf('/', cut - 1)) {
      const parent = places.get(pointer.slice(0, cut));
      if (parent !== undefined) return parent;
    }
    return place(1, 1);
  };
  return { ok: true, value: { value, where, place } };
}

/** The schema node an instance path leads to (its $refs followed), for the known keys where one is misspelt. */
function schemaAt(root: JsonObject | null, segments: readonly string[]): JsonObject | null {
  const resolve = (node: unknown): JsonObject | null => {
    if (!isObject(node)) return null;
    const ref = node['$ref'];
    if (typeof ref === 'string' && ref.startsWith('#/$defs/') && root && isObject(root['$defs']))
      return resolve(root['$defs'][ref.slice(8)]);
    return node;
  };
  let node = resolve(root);
  for (const segment of segments) {
    if (!node) return null;
    const props = node['properties'];
    if (isObject(props) && Object.hasOwn(props, segment)) node = resolve(props[segment]);
    else if (node['items'] !== undefined && /^\d+$/.test(segment)) node = resolve(node['items']);
    else node = resolve(node['additionalProperties']);
  }
  return node;
}

/** A file's schema: its generated validator (every error reported), the schema itself (for nearest keys), and the words for a pattern a value breaks. */
export interface YamlSchema {
  readonly validate: GeneratedValidator;
  readonly schema: unknown;
  /** The words for a value that breaks a pattern at these segments, or null for the validator's own. */
  readonly patternMessage?: (segments: readonly string[], got: unknown) => string | null;
}

/** The schema's problems, located, in words a person reads (a misspelt key names the nearest known one). */
export function schemaProblems(
  value: unknown,
  s: YamlSchema,
  where: (pointer: string, key?: boolean) => Location,
  code: FindingCode,
): Finding[] {
  if (s.validate(value)) return [];
  const root = isObject(s.schema) ? s.schema : null;
  const out: Finding[] = [];
  const seen = new Set<string>();
  const errors = s.validate.errors ?? [];
  // A misspelt key is one mistake: the required key it was meant to be is not reported missing too.
  const meant = new Set<string>();
  for (const e of errors) {
    const key = isObject(e.params) ? e.params['additionalProperty'] : undefined;
    if (e.keyword !== 'additionalProperties' || typeof key !== 'string') continue;
    const known = schemaAt(root, e.instancePath.split('/').slice(1));
    const near = nearestName(key, known && isObject(known['properties']) ? Object.keys(known['properties']) : []);
    if (near) meant.add(`${e.instancePath}/${near}`);
  }
  for (const e of errors) {
    const segments = e.instancePath.split('/').slice(1);
    const name = segments.length === 0 ? 'the file' : segments.join('.');
    const params = isObject(e.params) ? e.params : {};
    let message: string;
    let at = where(e.instancePath);
    if (e.keyword === 'additionalProperties' && typeof params['additionalProperty'] === 'string') {
      const key = params['additionalProperty'];
      const known = schemaAt(root, segments);
      const props = known && isObject(known['properties']) ? Object.keys(known['properties']) : [];
      const near = nearestName(key, props);
      // A key of a section written outside it (`require-signed-records` at the top, not under trust:; a newcomer).
      const home = near
        ? undefined
        : props.find((p) => {
            const section = schemaAt(root, [...segments, p]);
            return section !== null && isObject(section['properties']) && Object.hasOwn(section['properties'], key);
          });
      message = `unknown key "${key}" in ${name}${
        near
          ? ` (did you mean "${near}"?)`
          : home !== undefined
            ? ` (it belongs under ${home}: write it inside the ${home}: section)`
            : props.length > 0
              ? ` (known: ${props.join(', ')})`
              : ''
      }`;
      at = where(`${e.instancePath}/${key}`, true);
    } else if (e.keyword === 'required' && typeof params['missingProperty'] === 'string') {
      if (meant.has(`${e.instancePath}/${params['missingProperty']}`)) continue;
      message = `${name} has no "${params['missingProperty']}" (required)`;
    } else if (e.keyword === 'enum' && Array.isArray(params['allowedValues'])) {
      const allowed = params['allowedValues'].map(String);
      const got = memberAt(value, segments);
      // A near name, or one the value begins with (mode: warning → warn).
      const near =
        typeof got === 'string' ? (nearestName(got, allowed) ?? allowed.find((a) => got.toLowerCase().startsWith(a)) ?? null) : null;
      message = `${name} must be one of ${allowed.join(', ')}${near ? ` (did you mean "${near}"?)` : ''}`;
    } else if (e.keyword === 'const') {
      message = `${name} must be ${JSON.stringify(params['allowedValue'])}`;
    } else if (e.keyword === 'type' && params['type'] === 'boolean') {
      // YAML 1.2 reads yes, on, True as text: only true and false are booleans (a newcomer).
      const got = memberAt(value, segments);
      const meant =
        typeof got === 'string' ? (/^(y|yes|on|true)$/i.test(got) ? 'true' : /^(n|no|off|false)$/i.test(got) ? 'false' : null) : null;
      message = `${name} must be true or false${meant ? ` (YAML 1.2 reads ${JSON.stringify(got)} as text: write ${meant})` : ''}`;
    } else if (e.keyword === 'oneOf') {
      message = `${name} must be one glob (a string) or a list of them`;
    } else if (e.keyword === 'pattern' && s.patternMessage) {
      message = s.patternMessage(segments, memberAt(value, segments)) ?? `${name} ${e.message ?? 'is invalid'}`;
    } else message = `${name} ${e.message ?? 'is invalid'}`;
    // oneOf reports each branch too: the oneOf line says it once.
    if (e.schemaPath.includes('/oneOf/')) continue;
    const key = `${at.line}:${at.column}:${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(finding(code, at, message));
  }
  return out;
}
