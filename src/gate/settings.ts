/**
 * Settings with one home: the typed settings of a verification, the defaults of every option in one
 * table (the action's `action.yml` declares the same defaults; a test compares them), and the
 * parsers that turn user-supplied strings (CLI flags, action inputs) into typed values with one clear
 * message per mistake. Nothing below the entries reads argv or the environment.
 */

import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { NO_POLICY, type Policy, parsePolicy } from '../core/policy.js';
import type { Result } from '../core/result.js';
import { nearestName } from '../core/text.js';
import { inside } from '../read/discover.js';
import { DEFAULT_LIMITS, type ReadLimits } from '../read/limits.js';
import { parsePublicKeys, type TrustedKeys, trustedKeys } from '../trust/keys.js';
import type { IdentityPolicy } from '../trust/sigstore.js';

/**
 * A mistake in the settings (a flag or an input): thrown by the settings parsers, caught at the
 * entries' parsers (cli/parse.ts `parseCli`, action/inputs.ts `readSettings`), which return it as a
 * `UsageProblem`. It never leaves those modules.
 */
export class UsageError extends Error {}

/** A mistake on the command line or in the action's inputs: the message names the flag or input. */
export interface UsageProblem {
  readonly message: string;
  /** The input the problem is about when the message does not name it (`require`: a flag or an input of that name). */
  readonly input?: 'require';
}

/** Run a settings parser: its value, or the usage problem it threw. */
export function usage<T>(parse: () => T): Result<T, UsageProblem> {
  try {
    return { ok: true, value: parse() } as Result<T, UsageProblem>;
  } catch (e) {
    if (e instanceof UsageError) return { ok: false, reason: { message: e.message } };
    throw e;
  }
}

/**
 * A working directory: `value` resolved against `base`, which must be a directory and, when a
 * workspace is given, inside it. `name` is the flag or input named in the message.
 */
export function directoryIn(workspace: string | null, base: string, value: string, name: string): string {
  const dir = path.resolve(base, value);
  if (workspace !== null && !inside(workspace, dir)) throw new UsageError(`${name}: "${value}" is outside the workspace`);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new UsageError(`${name}: "${value}" is not a directory`);
  return dir;
}

/**
 * An output file: `value` resolved against `base`. One that lies inside `workspace` must stay inside
 * it through every directory above it: a checkout can commit a directory link (`out -> /home/runner`),
 * and a write must not follow it out. A path outside the workspace was chosen by whoever wrote the
 * workflow and is taken as given. (The file itself is never written through a link: report/output.ts.)
 */
export function outputIn(workspace: string, base: string, value: string, name: string): string {
  const file = path.resolve(base, value);
  if (!inside(workspace, file)) return file;
  const realWorkspace = realpathSync(workspace);
  // The nearest directory above the file that exists, where it really is.
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    let real: string | null = null;
    try {
      real = realpathSync(dir);
    } catch {
      // not there yet: the writer creates it, below the nearest one that is
    }
    if (real !== null) {
      if (inside(realWorkspace, real)) return file;
      const via = path.relative(workspace, dir) || '.';
      throw new UsageError(`${name}: "${value}" leads out of the workspace through a symbolic link (${via} is ${real}); not written`);
    }
    if (path.dirname(dir) === dir) return file;
  }
}

/** What one verification reads and how it judges (the settings both entries build). */
export interface Settings {
  /** Run-artifact inputs: paths, directories or globs relative to `cwd`. */
  readonly runs: readonly string[];
  /** Audit-export inputs. */
  readonly audit: readonly string[];
  /**
   * Whether each set of inputs was given explicitly (not the default): an explicit input that matches
   * nothing is an error (a typo must not pass silently); the defaults may be absent.
   */
  readonly explicit: { readonly runs: boolean; readonly audit: boolean };
  /** Working directory: inputs and report paths are relative to it. */
  readonly cwd: string;
  /** Nothing outside this directory is read. */
  readonly workspace: string;
  /** `record_unmatched` becomes a warning. */
  readonly allowUnmatchedRecords: boolean;
  /** `observed_confirmed_not_reproduced` becomes an error. */
  readonly strictObserved: boolean;
  readonly limits: ReadLimits;
  /** Required levels (§7); no rules: honesty only. */
  readonly policy: Policy;
  /** Trusted signers (§8), each key parsed once; null: none configured (signatures not needed). */
  readonly trustedKeys: TrustedKeys | null;
  /** Trusted producers (§10), each key parsed once; null: none configured (runs need no attestation). */
  readonly trustedProducers: TrustedKeys | null;
  /** Trusted workflow identities (docs/keyless.md); null: none configured (the Sigstore layer is not loaded). */
  readonly keyless: KeylessSettings | null;
  /** Threads that read the input files (1: the main thread alone); null: the machine's cores, when the input is large enough to pay (gate/readers.ts). */
  readonly jobs: number | null;
}

/**
 * Every option's default, as the text a user would write (the action's inputs by name; the CLI's
 * flags of the same name use the same defaults).
 */
export const DEFAULTS = {
  runs: '.assay/runs',
  audit: '.assay/audit',
  'allow-unmatched-records': 'false',
  'strict-observed': 'false',
  annotations: 'auto',
  annotate: 'all',
  'check-run-id': '',
  'check-name': 'side-effect receipts',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the workflow expression action.yml declares, verbatim
  'github-token': '${{ github.token }}',
  summary: 'true',
  'sarif-file': '',
  'report-file': '',
  'working-directory': '.',
  'max-annotations': '1000',
  'max-file-size': '64MiB',
  'max-line-size': '8MiB',
  jobs: 'auto',
  require: '',
  'trusted-keys': '',
  'require-signed-records': 'false',
  'trusted-producers': '',
  'require-attested-runs': 'false',
  'vsa-predicate': '',
  vsa: '',
  'vsa-key': '',
  'trusted-signer-identities': '',
  'trusted-producer-identities': '',
  'source-refs': '',
  'certificate-oidc-issuer': 'https://token.actions.githubusercontent.com',
  'trusted-root': '',
} as const;

export type OptionName = keyof typeof DEFAULTS;

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
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  const unit = m ? UNITS.get((m[2] as string).toLowerCase()) : undefined;
  if (!m || unit === undefined) throw new UsageError(`${name}: "${value}" is not a size (e.g. 64MiB, 512KiB, 1048576)`);
  const bytes = Math.floor(Number(m[1]) * unit);
  if (!Number.isSafeInteger(bytes) || bytes < 1) throw new UsageError(`${name}: "${value}" is out of range`);
  return bytes;
}

/** YAML 1.2 core booleans, as @actions/core reads them. */
export function parseBool(name: string, value: string): boolean {
  const v = value.trim();
  if (['true', 'True', 'TRUE'].includes(v)) return true;
  if (['false', 'False', 'FALSE', ''].includes(v)) return false;
  throw new UsageError(`${name}: "${value}" is not a boolean (true or false)`);
}

export function parseChoice<T extends string>(name: string, value: string, choices: readonly T[]): T {
  const v = value.trim();
  if ((choices as readonly string[]).includes(v)) return v as T;
  throw new UsageError(`${name}: "${value}" must be one of ${choices.join(', ')}`);
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
  const v = value.trim();
  if (!/^\d{1,9}$/.test(v)) throw new UsageError(`${name}: "${value}" is not a whole number`);
  return Number(v);
}

/** The verification settings with every default, for a working directory (tests and entries start here). */
export function defaultSettings(cwd: string): Settings {
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
    trustedKeys: null,
    trustedProducers: null,
    keyless: null,
    jobs: parseJobs('jobs', DEFAULTS.jobs),
  };
}

/** Most reading threads one gate starts. */
const MAX_JOBS = 256;

/** `auto` (the machine's cores: null) or a number of reading threads, 1 to MAX_JOBS. */
export function parseJobs(name: string, value: string): number | null {
  const v = value.trim();
  if (v === 'auto') return null;
  if (!/^\d{1,9}$/.test(v) || Number(v) < 1 || Number(v) > MAX_JOBS)
    throw new UsageError(`${name}: "${value}" is not a number of threads from 1 to ${MAX_JOBS}, or auto`);
  return Number(v);
}

/** The keyless settings: the identities of each trust set (null: none), and the trusted root file (null: the shipped public-good root). */
export interface KeylessSettings {
  readonly signers: IdentityPolicy | null;
  readonly producers: IdentityPolicy | null;
  /** Absolute path of --trusted-root / trusted-root, or null. */
  readonly trustedRoot: string | null;
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
  readonly defaultRef: string;
  readonly issuer: string | null;
  /** Absolute path, or null. */
  readonly trustedRoot: string | null;
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

/** Identities, source repository, refs and issuer, checked (semantics "Keyless trust"); no identity at all: null. */
export function readKeyless(k: KeylessInputs, names: KeylessNames): KeylessSettings | null {
  for (const [list, name] of [
    [k.signerIdentities, names.signerIdentities],
    [k.producerIdentities, names.producerIdentities],
  ] as const) {
    for (const id of list)
      if (!IDENTITY.test(id))
        throw new UsageError(
          `${name}: "${id}" is not a workflow identity (an https:// URI with @refs/, e.g. https://github.com/OWNER/REPO/.github/workflows/export.yml@refs/heads/main)`,
        );
  }
  if (k.signerIdentities.length === 0 && k.producerIdentities.length === 0) return null;
  const repo = k.sourceRepository;
  if (repo === null || repo === '')
    throw new UsageError(`${names.sourceRepository}: required with any trusted identity (the repository the workflows must have run for)`);
  if (!/^[^/\s]+\/[^/\s]+$/.test(repo)) throw new UsageError(`${names.sourceRepository}: "${repo}" is not OWNER/NAME`);
  for (const r of k.sourceRefs)
    if (!/^refs\/\S+$/.test(r)) throw new UsageError(`${names.sourceRefs}: "${r}" is not a ref (refs/heads/main, refs/tags/v1)`);
  const issuer = k.issuer ?? GITHUB_ACTIONS_ISSUER;
  if (!/^https:\/\/\S+$/.test(issuer)) throw new UsageError(`${names.issuer}: "${issuer}" is not an https:// URL`);
  const policy = (ids: readonly string[]): IdentityPolicy | null =>
    ids.length === 0
      ? null
      : {
          identities: new Set(ids),
          sourceRepository: repo,
          sourceRefs: new Set(k.sourceRefs.length > 0 ? k.sourceRefs : [k.defaultRef]),
          issuer,
        };
  return { signers: policy(k.signerIdentities), producers: policy(k.producerIdentities), trustedRoot: k.trustedRoot };
}

/** Required-level rules, each a usage error naming the rule when it is wrong. */
export function readPolicy(name: string, rules: readonly string[]): Policy {
  const p = parsePolicy(rules);
  if (!p.ok) throw new UsageError(`${name}: ${p.reason}`);
  return p.value;
}

/**
 * Trusted signers from PEM texts (each may hold several PUBLIC KEY blocks); `sources` name where
 * each text came from, for the message when one does not parse. None: null (no trust configured).
 */
export function readTrustedKeys(sources: readonly { readonly name: string; readonly pem: string }[]): TrustedKeys | null {
  if (sources.length === 0) return null;
  const keys = [];
  for (const s of sources) {
    const parsed = parsePublicKeys(s.pem);
    if (!parsed.ok) throw new UsageError(`${s.name}: ${parsed.reason}`);
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

/**
 * Every input given explicitly as a plain path (no glob characters) must exist: a missing one is a
 * usage error naming the nearest existing path (semantics §6). Directories and globs that hold no
 * artifact are the gate's `no_artifacts` / `no_match`, not this.
 */
export function requireExistingPaths(inputs: readonly string[], cwd: string, name: string): void {
  for (const raw of inputs) {
    const input = raw.trim();
    if (input === '' || input.startsWith('!') || picomatch.scan(input).isGlob) continue;
    const abs = path.resolve(cwd, input);
    if (existsSync(abs)) continue;
    throw new UsageError(`${name}: "${input}" does not exist${nearestExisting(cwd, abs)}`);
  }
}

/** ` (did you mean "…"?)` or ` (the nearest existing path is "…")`, relative to `cwd`. */
function nearestExisting(cwd: string, abs: string): string {
  let dir = abs;
  const missing: string[] = [];
  while (!existsSync(dir)) {
    missing.unshift(path.basename(dir));
    const up = path.dirname(dir);
    if (up === dir) return '';
    dir = up;
  }
  const rel = (p: string): string => path.relative(cwd, p).split(path.sep).join('/') || '.';
  let entries: string[] = [];
  try {
    entries = readdirSync(dir);
  } catch {
    /* not a directory: no suggestion */
  }
  const near = nearestName(missing[0] as string, entries);
  if (near !== null) return ` (did you mean "${rel(path.join(dir, near, ...missing.slice(1)))}"?)`;
  return ` (the nearest existing path is "${rel(dir)}")`;
}
