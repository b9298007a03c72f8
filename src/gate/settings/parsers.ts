/**
 * The settings parsers: user-supplied strings (CLI flags, action inputs) into typed values, one clear
 * message per mistake naming the flag or input. Pure but for the key parser (node:crypto).
 */
import type { Location } from '../../core/location.js';
import { NO_POLICY, type Policy, parsePolicy } from '../../core/policy.js';
import { instantOf } from '../../core/time.js';
import { DEFAULT_LIMITS, type ReadLimits } from '../../read/limits.js';
import { parsePublicKeys, type TrustedKeys, trustedKeys } from '../../trust/keys.js';
import type { IdentityPolicy } from '../../trust/sigstore.js';
import { DEFAULTS } from './defaults.js';
import { type KeylessSettings, PolicyMistake, type Settings, UsageError } from './types.js';

/** Size units; a Map, since the unit is text a user wrote (`1constructor` is no unit). */
const UNITS: ReadonlyMap<string, number> = new Map([
  ['', 1],
  ['b', 1],
  ['k', 1024],
  ['kb', 1024],
  ['kib', 1024],
  ['m', 1024 ** 2],
  ['mb', 1024 ** 2],
  ['mib', 1024 ** 2],
  ['g', 1024 ** 3],
  ['gb', 1024 ** 3],
  ['gib', 1024 ** 3],
]);

/** "64MiB", "512k", "1048576" → bytes. */
export function parseSize(name: string, value: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  const unit = match ? UNITS.get((match[2] as string).toLowerCase()) : undefined;
  if (!match || unit === undefined) throw new UsageError('value', `${name}: "${value}" is not a size (e.g. 64MiB, 512KiB, 1048576)`);
  const bytes = Math.floor(Number(match[1]) * unit);
  if (!Number.isSafeInteger(bytes) || bytes < 1) throw new UsageError('value', `${name}: "${value}" is out of range`);
  return bytes;
}

/** YAML 1.2 core booleans, as @actions/core reads them. */
export function parseBool(name: string, value: string): boolean {
  const given = value.trim();
  if (['true', 'True', 'TRUE'].includes(given)) return true;
  if (['false', 'False', 'FALSE', ''].includes(given)) return false;
  throw new UsageError('value', `${name}: "${value}" is not a boolean (true or false)`);
}

export function parseChoice<T extends string>(name: string, value: string, choices: readonly T[]): T {
  const given = value.trim();
  if ((choices as readonly string[]).includes(given)) return given as T;
  throw new UsageError('value', `${name}: "${value}" must be one of ${choices.join(', ')}`);
}

/**
 * Required-level rules as `parseList` splits them. A value that holds only separators (`,`, blank
 * lines) names no rule: an error, never a gate that requires nothing (an empty value is none given:
 * the action's empty input; the CLI refuses an empty flag before this).
 */
export function parseRules(name: string, value: string): string[] {
  const rules = parseList(value);
  if (rules.length === 0 && value.trim() !== '')
    throw new UsageError(
      'value',
      `${name}: ${JSON.stringify(value)} names no rule (an unset variable?): give SELECTOR=LEVEL, e.g. github_deploy_key:create=verified, or leave it out`,
    );
  return rules;
}

/** Newline- or comma-separated list, blanks dropped; a comma inside braces (a glob like `{runs,more}`) does not split. */
export function parseList(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of value) {
    if (ch === '{') depth++;
    else if (ch === '}' && depth > 0) depth--;
    if (ch === '\n' || (ch === ',' && depth === 0)) {
      out.push(cur);
      cur = '';
      depth = 0;
    } else cur += ch;
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter((s) => s !== '');
}

/** A whole number ≥ 0. */
export function parseCount(name: string, value: string): number {
  const given = value.trim();
  if (!/^\d{1,9}$/.test(given)) throw new UsageError('value', `${name}: "${value}" is not a whole number`);
  return Number(given);
}

/** The verification settings with every default, for a working directory (tests and entries start here). */
export function defaultSettings(cwd: string, now: Date = new Date()): Settings {
  return {
    runs: parseList(DEFAULTS.runs),
    audit: parseList(DEFAULTS.audit),
    explicit: { runs: false, audit: false },
    cwd,
    workspace: cwd,
    allowUnmatchedRecords: parseBool('allow-unmatched-records', DEFAULTS['allow-unmatched-records']),
    strictObserved: parseBool('strict-observed', DEFAULTS['strict-observed']),
    limits: DEFAULT_LIMITS,
    policy: NO_POLICY,
    policyReview: null,
    now: instantOf(now),
    trustedKeys: null,
    trustedProducers: null,
    keyless: null,
    trustMode: 'enforce',
    jobs: parseJobs('jobs', DEFAULTS.jobs),
    cache: null,
    writes: [],
  };
}

/** Most reading threads one gate starts. */
const MAX_JOBS = 256;

/** `auto` (the machine's cores: null) or a number of reading threads, 1 to MAX_JOBS. */
export function parseJobs(name: string, value: string): number | null {
  const given = value.trim();
  if (given === 'auto') return null;
  if (!/^\d{1,9}$/.test(given) || Number(given) < 1 || Number(given) > MAX_JOBS)
    throw new UsageError('value', `${name}: "${value}" is not a number of threads from 1 to ${MAX_JOBS}, or auto`);
  return Number(given);
}

/** The OIDC issuer of GitHub Actions' tokens: what a workflow certificate names by default. */
const GITHUB_ACTIONS_ISSUER = 'https://token.actions.githubusercontent.com';

/** The keyless flags or inputs as given, before they are checked. */
export interface KeylessInputs {
  readonly signerIdentities: readonly string[];
  readonly producerIdentities: readonly string[];
  readonly sourceRepository: string | null;
  /** Empty: the default (refs/heads/main, or the action's default branch). */
  readonly sourceRefs: readonly string[];
  /** The default of sourceRefs; null when the event names no default branch (then source refs must be given). */
  readonly defaultRef: string | null;
  readonly issuer: string | null;
  /** The trusted roots' text and its name in messages (`--trusted-root FILE`), or null (the shipped root); `at`: where the policy file names it. */
  readonly trustedRoot: KeylessSettings['trustedRoot'];
}

/** The names the flags or inputs go by, for messages. */
export interface KeylessNames {
  readonly signerIdentities: string;
  readonly producerIdentities: string;
  readonly sourceRepository: string;
  readonly sourceRefs: string;
  readonly issuer: string;
}

const IDENTITY = /^https:\/\/[^\s@]+@refs\/\S+$/;

/** Why a value is not a workflow identity, or null. */
export const identityProblem = (id: string): string | null =>
  IDENTITY.test(id)
    ? null
    : `"${id}" is not a workflow identity (an https:// URI with @refs/, e.g. https://github.com/OWNER/REPO/.github/workflows/export.yml@refs/heads/main)`;

/** Why a value is not an OIDC issuer, or null. */
export const issuerProblem = (issuer: string): string | null =>
  /^https:\/\/\S+$/.test(issuer) ? null : `"${issuer}" is not an https:// URL`;

/** Why a value is not a ref a trusted identity's workflow may run on, or null. */
export const refProblem = (ref: string): string | null =>
  /^refs\/\S+$/.test(ref) ? null : `"${ref}" is not a ref (refs/heads/main, refs/tags/v1)`;

/** Identities, source repository, refs and issuer, checked (semantics "Keyless trust"); no identity at all: null. */
export function readKeyless(k: KeylessInputs, names: KeylessNames): KeylessSettings | null {
  for (const [list, name] of [
    [k.signerIdentities, names.signerIdentities],
    [k.producerIdentities, names.producerIdentities],
  ] as const) {
    for (const id of list) {
      const problem = identityProblem(id);
      if (problem !== null) throw new UsageError('value', `${name}: ${problem}`);
    }
  }
  const issuer = k.issuer ?? GITHUB_ACTIONS_ISSUER;
  // Checked even with no identity: a typo there must not wait, unseen, for the day identities are set.
  const issuerWrong = issuerProblem(issuer);
  if (issuerWrong !== null) throw new UsageError('value', `${names.issuer}: ${issuerWrong}`);
  if (k.signerIdentities.length === 0 && k.producerIdentities.length === 0) return null;
  const repo = k.sourceRepository;
  if (repo === null || repo === '')
    throw new UsageError(
      'missing',
      `${names.sourceRepository}: required with any trusted identity (the repository the workflows must have run for)`,
    );
  if (!/^[^/\s]+\/[^/\s]+$/.test(repo)) throw new UsageError('value', `${names.sourceRepository}: "${repo}" is not OWNER/NAME`);
  for (const r of k.sourceRefs) {
    const problem = refProblem(r);
    if (problem !== null) throw new UsageError('value', `${names.sourceRefs}: ${problem}`);
  }
  const defaultRef = k.defaultRef;
  if (k.sourceRefs.length === 0 && defaultRef === null)
    throw new UsageError(
      'missing',
      `${names.sourceRefs}: this event names no default branch (its payload has no repository.default_branch), so the refs a trusted identity's workflow must have run on cannot default to it: give them (refs/heads/BRANCH)`,
    );
  const policy = (ids: readonly string[]): IdentityPolicy | null =>
    ids.length === 0
      ? null
      : {
          identities: new Set(ids),
          sourceRepository: repo,
          sourceRefs: new Set(k.sourceRefs.length > 0 || defaultRef === null ? k.sourceRefs : [defaultRef]),
          issuer,
        };
  return { signers: policy(k.signerIdentities), producers: policy(k.producerIdentities), trustedRoot: k.trustedRoot };
}

/** Required-level rules, each a usage error naming the rule when it is wrong. */
export function readPolicy(name: string, rules: readonly string[]): Policy {
  const result = parsePolicy(rules);
  if (!result.ok) throw new UsageError('value', `${name}: ${result.reason}`);
  return result.value;
}

/**
 * Trusted signers from PEM texts (each may hold several PUBLIC KEY blocks); `sources` name where
 * each text came from, for the message when one does not parse, and where the policy file names it
 * (`at`: then a located policy mistake). None: null (no trust configured).
 */
export function readTrustedKeys(
  sources: readonly { readonly name: string; readonly pem: string; readonly at?: Location }[],
): TrustedKeys | null {
  if (sources.length === 0) return null;
  const keys = [];
  for (const s of sources) {
    const parsed = parsePublicKeys(s.pem);
    if (!parsed.ok) {
      if (s.at) throw new PolicyMistake(s.at, `${s.name}: ${parsed.reason}`);
      throw new UsageError('value', `${s.name}: ${parsed.reason}`);
    }
    keys.push(...parsed.value);
  }
  return trustedKeys(keys);
}

/** Limits with the two that users set (each undefined: the default). */
export function readLimits(maxFileSize: string | undefined, maxLineSize: string | undefined, prefix = ''): ReadLimits {
  return {
    ...DEFAULT_LIMITS,
    maxFileBytes: maxFileSize ? parseSize(`${prefix}max-file-size`, maxFileSize) : DEFAULT_LIMITS.maxFileBytes,
    maxLineBytes: maxLineSize ? parseSize(`${prefix}max-line-size`, maxLineSize) : DEFAULT_LIMITS.maxLineBytes,
  };
}
