/**
 * The policy file (docs/policy.md §2): YAML 1.2, one document, read strictly (duplicate keys, a tab
 * in indentation, an anchor or an alias, a second document: refused), its shape checked against
 * schemas/policy.schema.json (every problem, each located `file:line:column`, a misspelt key with
 * the nearest known one), then what a schema cannot say: unique rule names, globs only on plain
 * fields, fields the class binds, expiry at most 366 days after the verification time, signers
 * among those trusted, grandfathered paths named once. Nothing here reads a file: the text is given.
 */
import { sha256Hex } from '../core/binding.js';
import { classRow } from '../core/classes.js';
import { type Finding, finding } from '../core/findings.js';
import { isObject, type JsonObject } from '../core/json.js';
import type { Location } from '../core/location.js';
import {
  checkRuleNames,
  type FieldTest,
  type Grandfathered,
  globTest,
  type Mode,
  type Policy,
  type PolicyException,
  type PolicyTrust,
  type Rule,
  type RuleNames,
  shadowing,
  type TrustPath,
  type TrustValue,
} from '../core/policy.js';
import { boundFields } from '../core/projection.js';
import type { Result } from '../core/result.js';
import { targetHash } from '../core/target-hash.js';
import { nearestName, quote } from '../core/text.js';
import { compareInstants, type Instant, parseDay, parseRfc3339 } from '../core/time.js';
import { isLevel, type Level } from '../core/vocabulary.js';
import { readYamlDocument, schemaProblems, type YamlSchema, yamlValue } from './strict-yaml.js';
import { policyFile, policySchema } from './validators.generated.js';

/**
 * The files a policy text's trust: section names (keys, a trusted root), for an entry to read them at
 * the policy's commit before the settings are built; nothing when the text does not parse (the
 * reader reports that). The YAML parser must be loaded.
 */
export function trustFilesNamed(source: string): string[] {
  const value = yamlValue(source);
  const trust = isObject(value) && isObject(value['trust']) ? value['trust'] : null;
  if (!trust) return [];
  const root = trust['trusted-root'];
  return [...strings(trust['trusted-keys']), ...strings(trust['trusted-producers']), ...(typeof root === 'string' ? [root] : [])];
}

/** What a policy file is checked against besides its own text. */
export interface PolicyContext {
  /** As reports name the file (`.github/receipt-gate.yml`). */
  readonly path: string;
  /** The commit it was read at (null: the file on disk). */
  readonly commit: string | null;
  /** The verification time: an exception may expire at most 366 days after it. */
  readonly now: Instant;
  /** The trusted signers in force (key ids and identities): a rule's signed-by must name them; null: not known yet (not checked). */
  readonly signers: { readonly keyIds: readonly string[]; readonly identities: readonly string[] } | null;
  /**
   * The file was read whole before (read again under other signers): its class and verb names are
   * checked with the input, so a problem here does not name them too (said once).
   */
  readonly namesLater?: true;
}

/** Seconds in 366 days: the furthest an exception may expire. */
const MAX_EXPIRY_SECONDS = 366 * 86_400;

/** `72h`, `3d`, `1d12h`, `90m`, `0` → seconds (the schema has checked the form; any size: Infinity at worst). */
function durationSeconds(text: string): number {
  const match = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?$/.exec(text);
  if (!match) return 0;
  return Number(match[1] ?? 0) * 86_400 + Number(match[2] ?? 0) * 3_600 + Number(match[3] ?? 0) * 60;
}

/** The policy file's schema, with the words for a `pending` that is not a duration. */
const POLICY_SCHEMA: YamlSchema = {
  validate: policyFile,
  schema: policySchema,
  patternMessage: (segments, got) =>
    segments[0] !== 'pending'
      ? null
      : typeof got === 'string' && /^\d+$/.test(got)
        ? `pending: ${got} what? write ${got}h (or ${got}d, ${got}m)`
        : 'pending must be a duration of whole units d, h, m in that order (72h, 3d, 1d12h, 90m) or 0',
};

/** The longest wait `pending` may give: a longer one switches coverage off (docs/policy.md §11). */
const MAX_PENDING_SECONDS = 30 * 86_400;

/** `pending` as written → seconds; a bare number other than 0, or more than 30 days, is a problem (said through `bad`). */
function pendingOf(given: unknown, bad: (message: string) => void): number {
  if (given === undefined || given === 0) return 0;
  if (typeof given === 'number') {
    bad(`pending: ${given} what? write ${given}h (or ${given}d, ${given}m); a bare number is only 0`);
    return 0;
  }
  if (typeof given !== 'string') return 0;
  const seconds = durationSeconds(given);
  if (seconds > MAX_PENDING_SECONDS) {
    bad(`pending: ${given} is more than 30d: a longer wait switches coverage off (a call would never be due); at most 30d`);
    return 0;
  }
  return seconds;
}

/** An expiry: an RFC 3339 date (00:00 UTC of that day) or date-time, through the one time parser. */
function expiryOf(text: string): Result<Instant> {
  const day = parseDay(text);
  if (day) return day.ok ? day : { ok: false, reason: `"${text}" ${day.reason}` };
  const t = parseRfc3339(text);
  return t.ok ? t : { ok: false, reason: `"${text}" is not an RFC 3339 date or date-time: it ${t.reason}` };
}

const strings = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
const text = (o: JsonObject, k: string): string => (typeof o[k] === 'string' ? o[k] : '');

/**
 * A policy file's text → the policy, or every problem located in it (`policy_invalid`). Class and
 * verb names are checked once the input is read (core/policy.ts `checkRuleNames`): what the input
 * holds counts as known; a file with other problems has them checked here too, against the gate's
 * table only, and said so.
 */
export function readPolicyFile(source: string, context: PolicyContext): Result<Policy, readonly Finding[]> {
  const read = readYamlDocument(
    source,
    { path: context.path, commit: context.commit, noun: 'a policy file', code: 'policy_invalid' },
    'the policy file is empty (it needs at least version: 1)',
  );
  if (!read.ok) return read;
  const { value, where, place } = read.value;
  const shape = schemaProblems(value, POLICY_SCHEMA, where, 'policy_invalid');
  if (!isObject(value))
    return { ok: false, reason: shape.length > 0 ? shape : [finding('policy_invalid', place(1, 1), 'the policy file is not a mapping')] };
  // Every problem of the file at once: what the schema says and what it cannot (a bad level and a second rule of one name, both).
  const meant = meaning(value, context, where, sha256Hex(source));
  if (meant.ok && shape.length === 0) return meant;
  // A file that does not read stops the run before the input is read, where a valid one's class and verb
  // names are checked: its rules' names are said here, beside its other problems (a red team: a newcomer
  // fixed the file, ran again, and only then learnt of a misspelt class). No schema word is about a name.
  const names = context.namesLater ? [] : nameProblems(value, where);
  if (shape.length === 0 && names.length === 0) return meant;
  // What the schema already said of a line is not said again in other words.
  const more = meant.ok ? [] : shape.length === 0 ? meant.reason : meant.reason.filter((f) => !shape.some((g) => g.line === f.line));
  return {
    ok: false,
    reason: [...shape, ...more, ...names].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0)),
  };
}

/** A rule's names and where each is written (what `checkRuleNames` reads), for the rule at `/rules/i`. */
function ruleNames(name: string, actionClass: string, verb: string | null, i: number, where: (pointer: string) => Location): RuleNames {
  const at = `/rules/${i}`;
  return {
    name,
    selector: verb === null ? actionClass : `${actionClass}:${verb}`,
    actionClass,
    verb,
    at: where(at),
    classAt: where(`${at}/match/class`),
    verbAt: verb === null ? null : where(`${at}/match/verb`),
  };
}

/**
 * The class and verb names of every rule of a file that does not read whole, as far as each rule
 * gives them as text, checked against the gate's own table (core/policy.ts `checkRuleNames`, the input
 * not read): a rule is named even when another of its values is a problem.
 */
function nameProblems(doc: JsonObject, where: (pointer: string) => Location): Finding[] {
  const ruleList = Array.isArray(doc['rules']) ? doc['rules'] : [];
  const rules: RuleNames[] = ruleList.flatMap((entry: unknown, i: number) => {
    if (!isObject(entry) || !isObject(entry['match'])) return [];
    const match = entry['match'];
    const actionClass = match['class'];
    // A class or verb that is no text, or empty, is the schema's finding.
    if (typeof actionClass !== 'string' || actionClass === '') return [];
    const verb = typeof match['verb'] === 'string' && match['verb'] !== '' ? match['verb'] : null;
    return [ruleNames(typeof entry['name'] === 'string' ? entry['name'] : `rules.${i}`, actionClass, verb, i, where)];
  });
  const checked = checkRuleNames({ rules }, null);
  return checked.ok ? [] : checked.reason.map((p) => finding('policy_invalid', p.at ?? where('/rules'), p.message));
}

/** What the schema cannot say, checked on a file of the right shape. */
/** A character no GitHub owner or repository name holds, and not the glob's star. */
const NOT_IN_A_NAME = /[^A-Za-z0-9._*-]/u;

function meaning(
  doc: JsonObject,
  context: PolicyContext,
  where: (pointer: string) => Location,
  sha256: string,
): Result<Policy, readonly Finding[]> {
  const problems: Finding[] = [];
  const bad = (pointer: string, message: string): void => {
    problems.push(finding('policy_invalid', where(pointer), message));
  };
  const trusted = new Set(context.signers ? [...context.signers.keyIds, ...context.signers.identities] : []);
  const rules: Rule[] = [];
  const names = new Set<string>();
  const ruleList = Array.isArray(doc['rules']) ? doc['rules'] : [];
  ruleList.forEach((entry: unknown, i: number) => {
    if (!isObject(entry) || !isObject(entry['match'])) return;
    const at = `/rules/${i}`;
    const name = text(entry, 'name');
    if (names.has(name)) bad(`${at}/name`, `a second rule named ${name}: rule names are unique`);
    names.add(name);
    const match = entry['match'];
    const actionClass = text(match, 'class');
    const verb = typeof match['verb'] === 'string' ? match['verb'] : null;
    const tests: FieldTest[] = [];
    const target = isObject(match['target']) ? match['target'] : {};
    const row = classRow(actionClass);
    const hashed = row?.hashed;
    const bound = boundFields(actionClass);
    for (const field of Object.keys(target)) {
      const pointer = `${at}/match/target/${field}`;
      const given = target[field];
      const hash = hashed?.get(field);
      if (hash) {
        if (!Array.isArray(given)) {
          bad(pointer, `${field} is hashed: give a list of raw values ([${JSON.stringify(given)}]), each hashed as the agent hashes it`);
          continue;
        }
        const values = strings(given);
        if (values.some((v) => v.includes('*'))) {
          bad(pointer, `${field} is hashed: a glob cannot match a hash; list the raw values`);
          continue;
        }
        // A hash copied from a report (`key_title_hash`) would be hashed again and match nothing (a red team).
        // Any spelling of one: with its prefix, `sha256-`, bare hex, spaces around it.
        const digest = values.find((v) => /^\s*(sha256[:-])?[0-9a-f]{64}\s*$/i.test(v));
        if (digest !== undefined) {
          bad(
            pointer,
            `${field} is hashed: ${JSON.stringify(`${digest.slice(0, 15)}…`)} is a hash, not a raw value (hashed again, it matches nothing); list the raw values`,
          );
          continue;
        }
        tests.push({ kind: 'hash', field: hash.field, hashes: new Set(values.map((v) => targetHash(hash.domain, v))) });
        continue;
      }
      // The hash itself named (`key_title_hash`): a glob over hash text matches any value; the raw field takes a list.
      const raw = [...(hashed?.entries() ?? [])].find(([, h]) => h.field === field)?.[0];
      if (raw !== undefined) {
        bad(pointer, `${field} is a hash: match on ${raw} with a list of raw values ([...]), each hashed as the agent hashes it`);
        continue;
      }
      if (bound && !bound.includes(field)) {
        const plain = bound.filter((f) => !f.endsWith('_hash'));
        const hashedNames = [...(hashed?.keys() ?? [])];
        const near = nearestName(field, [...plain, ...hashedNames]);
        bad(
          pointer,
          `${actionClass} binds no field ${JSON.stringify(field)}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ''}; its fields: ${[...plain, ...hashedNames].join(', ')}`,
        );
        continue;
      }
      // A whole-number field (an issue number, a comment id) is a JSON number in every subject, and a glob matches text only (a red team: `number: "*"` was valid, and matched nothing).
      if (row?.wholeNumbers.has(field)) {
        bad(
          pointer,
          `${field} is a whole number in ${actionClass}'s subjects: a glob matches text only, so this rule could never match; match on the other fields`,
        );
        continue;
      }
      const globs = strings(given);
      const caseless = row?.caseless.has(field) ?? false;
      const named = caseless && (field === 'owner' || field === 'repo');
      const slash = named ? globs.findIndex((g) => g.includes('/')) : -1;
      if (slash >= 0) {
        bad(
          Array.isArray(given) ? `${pointer}/${slash}` : pointer,
          field === 'repo'
            ? `repo is the name alone; put the organisation in owner (${JSON.stringify(globs[slash])} can never match a repository name)`
            : `owner is the organisation alone (${JSON.stringify(globs[slash])} holds a /, which no owner has)`,
        );
        continue;
      }
      // A GitHub owner or repository name holds only ASCII letters, digits, '.', '_' and '-': a look-alike
      // (U+2011 pasted from chat), a space or a control character could never match (a red team: the call fell to the default).
      const odd = named ? globs.findIndex((g) => NOT_IN_A_NAME.test(g)) : -1;
      if (odd >= 0) {
        const glob = globs[odd] as string;
        const ch = glob.match(NOT_IN_A_NAME)?.[0] ?? '';
        const code = `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
        bad(
          Array.isArray(given) ? `${pointer}/${odd}` : pointer,
          `${JSON.stringify(quote(glob, 80))} holds ${code}, which no GitHub ${field === 'repo' ? 'repository' : 'owner'} name has (letters, digits, '.', '_' and '-' only, and '*'): it could never match`,
        );
        continue;
      }
      tests.push(globTest(field, globs, caseless));
    }
    const signedBy = Array.isArray(entry['signed-by']) ? strings(entry['signed-by']) : null;
    if (signedBy && context.signers !== null) {
      if (trusted.size === 0)
        bad(
          `${at}/signed-by`,
          'signed-by without any trusted signer configured (trusted-keys, trusted-signer-identities): it could never hold',
        );
      else
        signedBy.forEach((s, k) => {
          if (!trusted.has(s))
            bad(
              `${at}/signed-by/${k}`,
              `${JSON.stringify(s)} is not among the trusted signers configured (a signed-by that names none of them could never hold)`,
            );
        });
    }
    const require = text(entry, 'require');
    const mode: Mode = entry['mode'] === 'warn' ? 'warn' : 'enforce';
    if (!isLevel(require)) return;
    const rule: Rule = { ...ruleNames(name, actionClass, verb, i, where), target: tests, level: require, mode, signedBy };
    const earlier = shadowing(rules, rule);
    if (earlier !== null)
      bad(
        at,
        `rule ${name} can never apply: the earlier rule ${earlier.name} (line ${earlier.at?.line ?? '?'}) matches every call it matches, and the first match wins; narrow the earlier rule or move this one above it`,
      );
    rules.push(rule);
  });
  const exceptions: PolicyException[] = [];
  const exceptionList = Array.isArray(doc['exceptions']) ? doc['exceptions'] : [];
  exceptionList.forEach((entry: unknown, i: number) => {
    if (!isObject(entry)) return;
    const at = `/exceptions/${i}`;
    const rule = text(entry, 'rule');
    // A missing or mistyped field is the shape check's finding, at its line; judged again here it added a stray one at 1:1.
    if (typeof entry['rule'] === 'string' && !names.has(rule)) {
      const near = nearestName(rule, names);
      bad(
        `${at}/rule`,
        `the exception names rule ${JSON.stringify(rule)}, which the file does not have${near ? ` (did you mean ${JSON.stringify(near)}?)` : ''}`,
      );
    }
    const expiresText = text(entry, 'expires');
    const expires = expiryOf(expiresText);
    if (!expires.ok) {
      if (typeof entry['expires'] === 'string') bad(`${at}/expires`, `expires: ${expires.reason}`);
      return;
    }
    const latest: Instant = { seconds: context.now.seconds + MAX_EXPIRY_SECONDS, fraction: context.now.fraction };
    if (compareInstants(expires.value, latest) > 0)
      bad(
        `${at}/expires`,
        `expires ${expiresText} is more than 366 days after the verification time: an exception is renewed, never forever`,
      );
    exceptions.push({
      binding: text(entry, 'binding'),
      rule,
      reason: text(entry, 'reason'),
      owner: text(entry, 'owner'),
      expires: expires.value,
      expiresText,
      at: where(at),
    });
  });
  const grandfathered: Grandfathered[] = [];
  const runs = new Set<string>();
  const grandList = Array.isArray(doc['grandfathered']) ? doc['grandfathered'] : [];
  grandList.forEach((entry: unknown, i: number) => {
    if (!isObject(entry)) return;
    const isRun = typeof entry['run'] === 'string';
    const isAudit = typeof entry['audit'] === 'string';
    if (isRun === isAudit) {
      bad(
        `/grandfathered/${i}`,
        'a grandfathered entry names either run: (a run judged for honesty only) or audit: (an audit file whose trust is not asked), one of them',
      );
      return;
    }
    const kind = isRun ? 'run' : 'audit';
    const file = text(entry, kind);
    if (runs.has(file)) bad(`/grandfathered/${i}/${kind}`, `a second entry for ${file}: each file is grandfathered once`);
    runs.add(file);
    grandfathered.push({ kind, run: file, sha256: text(entry, 'sha256'), reason: text(entry, 'reason'), at: where(`/grandfathered/${i}`) });
  });
  const pendingSeconds = pendingOf(doc['pending'], (message) => bad('/pending', message));
  const trust = isObject(doc['trust']) ? trustOf(doc['trust'], where, bad) : null;
  if (problems.length > 0) return { ok: false, reason: problems };
  const given = doc['default'];
  const defaultLevel: Level = typeof given === 'string' && isLevel(given) ? given : 'asserted';
  return {
    ok: true,
    value: {
      kind: 'file',
      rules,
      defaultLevel,
      pendingSeconds,
      exceptions,
      grandfathered,
      source: { path: context.path, commit: context.commit, sha256 },
      trust,
    },
  };
}

/** The `trust:` section (docs/policy.md §9), its shape already checked; `require-*: true` with nothing trusted is a problem. */
function trustOf(t: JsonObject, where: (pointer: string) => Location, bad: (pointer: string, message: string) => void): PolicyTrust {
  const list = (key: string): string[] => strings(t[key]);
  const paths = (key: string): TrustPath[] => list(key).map((p, i) => ({ path: p, at: where(`/trust/${key}/${i}`) }));
  const values = (key: string): TrustValue[] => list(key).map((value, i) => ({ value, at: where(`/trust/${key}/${i}`) }));
  const issuer = t['certificate-oidc-issuer'];
  const flag = (key: string): boolean => t[key] === true;
  const trust: PolicyTrust = {
    mode: t['mode'] === 'warn' ? 'warn' : 'enforce',
    trustedKeys: paths('trusted-keys'),
    signerIdentities: values('trusted-signer-identities'),
    requireSignedRecords: flag('require-signed-records'),
    trustedProducers: paths('trusted-producers'),
    producerIdentities: values('trusted-producer-identities'),
    requireAttestedRuns: flag('require-attested-runs'),
    sourceRefs: Array.isArray(t['source-refs']) ? values('source-refs') : null,
    issuer: typeof issuer === 'string' ? { value: issuer, at: where('/trust/certificate-oidc-issuer') } : null,
    trustedRoot: typeof t['trusted-root'] === 'string' ? { path: t['trusted-root'], at: where('/trust/trusted-root') } : null,
    at: where('/trust'),
  };
  if (trust.requireSignedRecords && trust.trustedKeys.length === 0 && trust.signerIdentities.length === 0)
    bad(
      '/trust/require-signed-records',
      'require-signed-records: true with no trusted-keys and no trusted-signer-identities: nothing could ever be trusted',
    );
  if (trust.requireAttestedRuns && trust.trustedProducers.length === 0 && trust.producerIdentities.length === 0)
    bad(
      '/trust/require-attested-runs',
      'require-attested-runs: true with no trusted-producers and no trusted-producer-identities: nothing could ever be trusted',
    );
  return trust;
}
