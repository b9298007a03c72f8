/**
 * The mapping file of `receipt-gate import-run otlp-json --map FILE` (docs/producers.md): which of a
 * producer's tools write, to which class and verb, and where each bound target field comes from (the
 * call's arguments, its result, a constant), hashed where the class table says. Read like the policy
 * file (read/strict-yaml.ts: YAML 1.2, every problem located), then what a schema cannot say: a
 * known class and one of its verbs, exactly the class's bound fields, one source per field, a hashed
 * field with its class's domain, a whole number for a numeric constant. Nothing here reads a file.
 */
import { sha256Hex } from '../core/binding.js';
import { CLASSES, classRow } from '../core/classes.js';
import { type Finding, finding } from '../core/findings.js';
import { compileGlob, type Glob } from '../core/glob.js';
import { isObject, str } from '../core/json.js';
import type { Location } from '../core/location.js';
import type { Result } from '../core/result.js';
import type { Domain } from '../core/target-hash.js';
import { nearestName } from '../core/text.js';
import { readYamlDocument, schemaProblems, type YamlSchema } from './strict-yaml.js';
import { mappingFile, mappingSchema } from './validators.generated.js';

/** Where a bound field's value comes from: the arguments or the result at a dotted path, or a constant; hashed in a domain or not. */
export type FieldSource =
  | {
      readonly from: 'arg' | 'result';
      readonly path: readonly string[];
      readonly hash: Domain | null;
      /** The value is a GitHub URL: take this part of it. */
      readonly urlPart: UrlPart | null;
      /** The value is a command line: take this option's value. */
      readonly cliOption: string | null;
    }
  | { readonly from: 'value'; readonly value: string | number | null; readonly hash: Domain | null };

/** The parts of a GitHub URL a field may take. */
export type UrlPart = 'owner' | 'repo' | 'number' | 'comment_id';
const URL_PARTS: ReadonlyMap<unknown, UrlPart> = new Map((['owner', 'repo', 'number', 'comment_id'] as const).map((p) => [p, p]));

/** One rule of the file: the tools it names and what their calls do. */
export interface ToolRule {
  /** The rule as a message names it: `tools[2] (create_issue)`. */
  readonly name: string;
  readonly at: Location;
  readonly tool: Glob;
  readonly server: string | null;
  readonly actionClass: string;
  readonly verb: string;
  readonly provider: string;
  /** The guard: the argument at this path has the prefix, or equals the value. */
  readonly when: {
    readonly path: readonly string[];
    readonly prefix: string | null;
    readonly equals: string | null;
    /** Options that make the rule's constants unknowable (another profile's account): a command giving one has no subject. */
    readonly unless: readonly string[];
  } | null;
  /** The result's member that says the call failed (given, not null or false), or null: the source's own status alone. */
  readonly failed: readonly string[] | null;
  /** Each bound field of the class, in the table's order, with its source. */
  readonly target: readonly (readonly [string, FieldSource])[];
  /** Where the rule first reads the result (a source with no result cannot give it), or null. */
  readonly resultAt: Location | null;
}

export interface ToolMapping {
  readonly rules: readonly ToolRule[];
  /** Hex sha256 of the file's bytes (the import names the mapping it used). */
  readonly sha256: string;
}

const SCHEMA: YamlSchema = { validate: mappingFile, schema: mappingSchema };

/** A mapping file's text → its rules, or every problem located in it (`invalid_artifact`). */
export function readMappingFile(source: string, file: string): Result<ToolMapping, readonly Finding[]> {
  const read = readYamlDocument(
    source,
    { path: file, commit: null, noun: 'a mapping file', code: 'invalid_artifact' },
    'the mapping file is empty (it needs version: 1 and tools:)',
  );
  if (!read.ok) return read;
  const { value, where, place } = read.value;
  const shape = schemaProblems(value, SCHEMA, where, 'invalid_artifact');
  if (shape.length > 0 || !isObject(value))
    return {
      ok: false,
      reason: shape.length > 0 ? shape : [finding('invalid_artifact', place(1, 1), 'the mapping file is not a mapping')],
    };
  const problems: Finding[] = [];
  const bad = (pointer: string, message: string, key = false): void => {
    problems.push(finding('invalid_artifact', where(pointer, key), message));
  };
  const rules: ToolRule[] = [];
  const list = Array.isArray(value['tools']) ? value['tools'] : [];
  list.forEach((entry: unknown, i: number) => {
    if (!isObject(entry)) return;
    const at = `/tools/${i}`;
    const toolName = str(entry, 'tool') ?? '';
    const actionClass = str(entry, 'class') ?? '';
    const verb = str(entry, 'verb') ?? '';
    const row = classRow(actionClass);
    if (!row) {
      const near = nearestName(actionClass, CLASSES.keys());
      bad(
        `${at}/class`,
        `class ${JSON.stringify(actionClass)} is not in the class table${near ? ` (did you mean "${near}"?)` : ''}: known: ${[...CLASSES.keys()].join(', ')}`,
      );
      return;
    }
    if (!row.verbs.includes(verb)) bad(`${at}/verb`, `${actionClass} has the verbs ${row.verbs.join(', ')}, not ${JSON.stringify(verb)}`);
    const target = isObject(entry['target']) ? entry['target'] : {};
    const hashedDomain = new Map([...row.hashed.values()].map((h) => [h.field, h.domain]));
    const sources: [string, FieldSource][] = [];
    let resultAt: Location | null = null;
    for (const field of Object.keys(target)) {
      const pointer = `${at}/target/${field}`;
      if (!row.fields.includes(field)) {
        const near = nearestName(field, row.fields);
        bad(pointer, `${actionClass} binds ${row.fields.join(', ')}: not ${field}${near ? ` (did you mean "${near}"?)` : ''}`, true);
        continue;
      }
      const given = target[field];
      if (!isObject(given)) continue;
      const kinds = (['arg', 'result', 'value'] as const).filter((k) => Object.hasOwn(given, k));
      const [kind] = kinds;
      if (kind === undefined || kinds.length > 1) {
        bad(pointer, `${field}: give exactly one of arg, result or value${kinds.length > 1 ? ` (not ${kinds.join(' and ')})` : ''}`);
        continue;
      }
      const domain = hashedDomain.get(field) ?? null;
      const hash = str(given, 'hash');
      if (domain !== null && hash !== domain) {
        bad(
          hash === null ? pointer : `${pointer}/hash`,
          `${field} is hashed in the domain ${domain}: write hash: ${domain} (the raw value is hashed as docs/target-hash.md says)`,
        );
        continue;
      }
      if (domain === null && hash !== null) {
        bad(`${pointer}/hash`, `${field} is not a hashed field of ${actionClass}: its value is bound as given (remove hash)`);
        continue;
      }
      const urlPart = URL_PARTS.get(given['url-part']) ?? null;
      const cliOption = str(given, 'cli-option');
      if (urlPart !== null && cliOption !== null) {
        bad(`${pointer}/cli-option`, `${field}: give url-part or cli-option, not both`);
        continue;
      }
      if (kind === 'value') {
        if (urlPart !== null || cliOption !== null) {
          bad(
            `${pointer}/${urlPart !== null ? 'url-part' : 'cli-option'}`,
            `${field}: ${urlPart !== null ? 'url-part' : 'cli-option'} reads a value from the call (arg or result), not a constant`,
          );
          continue;
        }
        const constant = given['value'];
        if (typeof constant !== 'string' && typeof constant !== 'number' && constant !== null) continue;
        if (constant === null && domain !== null) {
          bad(`${pointer}/value`, `${field} is hashed: a hash of nothing binds nothing (give the raw value)`);
          continue;
        }
        if (
          row.wholeNumbers.has(field) &&
          constant !== null &&
          !(typeof constant === 'number' && Number.isSafeInteger(constant) && constant > 0)
        ) {
          bad(`${pointer}/value`, `${field} is a whole number (GitHub's id): write it without quotes`);
          continue;
        }
        sources.push([field, { from: 'value', value: constant, hash: domain }]);
        continue;
      }
      const path = str(given, kind) ?? '';
      if (kind === 'result') resultAt ??= where(`${pointer}/result`);
      sources.push([field, { from: kind, path: path.split('.'), hash: domain, urlPart, cliOption }]);
    }
    const missing = row.fields.filter((f) => !Object.hasOwn(target, f));
    if (missing.length > 0)
      bad(`${at}/target`, `${actionClass} binds ${row.fields.join(', ')}: the target gives no ${missing.join(', ')}`, true);
    const when = isObject(entry['when']) ? entry['when'] : null;
    const prefix = when ? str(when, 'prefix') : null;
    // An empty `equals` is a value like any other (str takes none).
    const equals = when && typeof when['equals'] === 'string' ? when['equals'] : null;
    if (when && (prefix === null) === (equals === null)) bad(`${at}/when`, 'when: give exactly one of prefix or equals', true);
    // Records and coverage of a class are its provider's: a call naming another is bound by none and
    // covered by none (a red team: `provider: GitHub` turned every coverage statement off, green).
    const named = str(entry, 'provider');
    if (named !== null && named !== row.provider)
      bad(
        `${at}/provider`,
        `${actionClass} is ${JSON.stringify(row.provider)}'s (its records and exports name it so): a call naming ${JSON.stringify(named)} would be bound by no record and covered by no export; leave provider out`,
      );
    // Read where a result is captured; a source that carries none says the call failed itself (not an error of the mapping).
    const failed = isObject(entry['failed']) ? str(entry['failed'], 'result') : null;
    const order = new Map(row.fields.map((f, k) => [f, k]));
    sources.sort(([a], [b]) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
    rules.push({
      name: `tools[${i}] (${toolName})`,
      at: where(at),
      tool: compileGlob(toolName),
      server: str(entry, 'server'),
      actionClass,
      verb,
      provider: named ?? row.provider,
      when: when
        ? {
            path: (str(when, 'arg') ?? '').split('.'),
            prefix,
            equals,
            unless: Array.isArray(when['unless']) ? when['unless'].filter((o): o is string => typeof o === 'string') : [],
          }
        : null,
      failed: failed === null ? null : failed.split('.'),
      target: sources,
      resultAt,
    });
  });
  if (problems.length > 0)
    return { ok: false, reason: problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0)) };
  return { ok: true, value: { rules, sha256: sha256Hex(source) } };
}
