/**
 * The action's inputs → one typed settings object, in the manner of actions/checkout's input
 * helper: every input read once, its default taken from the settings table (the same default
 * `action.yml` declares; a test compares them), and validated before anything runs. A bad value is
 * one UsageError naming the input.
 */

import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Finding } from '../core/findings.js';
import type { Result } from '../core/result.js';
import { nearestName } from '../core/text.js';
import { instantOf } from '../core/time.js';
import { cloneTop, evidenceChangedSinceBase, identicalAtBase, nearMissOnDisk, type TreeBlob } from '../gate/repository.js';
import { buildSettings, type GateInputs } from '../gate/settings/build.js';
import { DEFAULTS, type OptionName } from '../gate/settings/defaults.js';
import { parseBool, parseChoice, parseCount, parseList, parseRules } from '../gate/settings/parsers.js';
import { directoryIn, distinctOutputs, given, outputIn, trustPathIn } from '../gate/settings/paths.js';
import { addedEntries, historyOnly, type PolicyGiven, withBreakGlass } from '../gate/settings/policy.js';
import { type Settings, UsageError, type UsageProblem, usage } from '../gate/settings/types.js';
import { discover, inside } from '../read/discover.js';
import { sidecarOf, sigstoreOf } from '../read/formats.js';
import { trustFilesNamed } from '../read/policy-file.js';
import { loadYamlParser } from '../read/strict-yaml.js';
import { resourceUriFromEnv } from '../report/verification-summary.js';
import { parsePrivateKey, type SigningKey } from '../tools/signing.js';
import type { RunContext } from './github-client.js';
import type { Given, TrustRead } from './repo-files.js';

type AnnotationMode = 'auto' | 'check-run' | 'workflow-commands' | 'off';
/** Which calls get an annotation. */
type AnnotateScope = 'all' | 'failures';

export interface ActionSettings {
  readonly gate: Settings;
  readonly annotations: AnnotationMode;
  readonly annotate: AnnotateScope;
  /** The job's own check run id, exactly as given (an int64: never through Number). */
  readonly checkRunId: string | null;
  readonly checkName: string;
  readonly token: string;
  readonly summary: boolean;
  /** Most annotations sent through the Checks API (failures first). */
  readonly maxAnnotations: number;
  readonly sarifFile: string | null;
  readonly reportFile: string;
  /** Working directory relative to the repository root ('' when the same). */
  readonly prefix: string;
  /** The verdict attestation asked for, or null. */
  readonly vsa: {
    readonly predicate: string | null;
    readonly envelope: string | null;
    readonly key: SigningKey | null;
    readonly resourceUri: string;
    /** The runner's commit the resource URI names: the checkout must be it (tools/verdict.ts). */
    readonly commit: string;
    /** The `trusted-root` input's file when read from the checkout (workspace-relative): the verdict rests on it too. */
    readonly trustFiles: readonly string[];
  } | null;
  /** Keep the evidence cache with the Actions cache service (action/cache.ts: saved on the default branch, restored by pull requests). */
  readonly cache: boolean;
}

/** vsa-predicate, vsa and vsa-key, checked together; the key is PEM text from a secret, parsed in memory. */
function verdictInputs(predicate: string | null, envelope: string | null, keyPem: string, env: NodeJS.ProcessEnv): ActionSettings['vsa'] {
  if (predicate === null && envelope === null) {
    if (keyPem.trim() !== '') throw new UsageError('conflict', 'vsa-key: only with vsa (a path for the signed verdict)');
    return null;
  }
  let key: SigningKey | null = null;
  if (envelope !== null) {
    if (keyPem.trim() === '')
      throw new UsageError('missing', 'vsa: a signed verdict needs vsa-key (the PEM text of an Ed25519 private key, from a secret)');
    const result = parsePrivateKey(keyPem);
    if (!result.ok) throw new UsageError('value', `vsa-key: ${result.reason}`);
    key = result.value;
  }
  const resourceUri = resourceUriFromEnv(env);
  if (!resourceUri)
    throw new UsageError(
      'missing',
      `${envelope !== null ? 'vsa' : 'vsa-predicate'}: GITHUB_SERVER_URL, GITHUB_REPOSITORY and GITHUB_SHA name the commit verified (SLSA requires resourceUri)`,
    );
  return { predicate, envelope, key, resourceUri, commit: env['GITHUB_SHA'] ?? '', trustFiles: [] };
}

/**
 * A misspelt input (`requires:`, `trusted-key:`) must not leave the step green with a runner warning
 * only: every `INPUT_*` of the environment names an input of action.yml, else it is a configuration
 * error naming the nearest input.
 */
function refuseUnknownInputs(env: NodeJS.ProcessEnv, known: ReadonlySet<string>): void {
  for (const key of Object.keys(env)) {
    if (!key.startsWith('INPUT_')) continue;
    const name = key.slice('INPUT_'.length).toLowerCase();
    if (known.has(name)) continue;
    const near = nearestName(name, known);
    throw new UsageError(
      'value',
      `${name}: not an input of receipt-gate${near ? ` (did you mean ${near}?)` : ''}; the inputs are listed in action.yml and the README`,
    );
  }
}

/** Reads repository files where a pull request cannot edit them (action/repo-files.ts). */
type Files = {
  read(rel: string): Promise<Given>;
  readTrust(rel: string): Promise<TrustRead>;
  nearMiss(): Promise<string | null>;
  baseTree(): Promise<Result<ReadonlyMap<string, TreeBlob>>>;
};

/** The files the settings read from the repository: the policy file and the trusted root, as the event says to read them. */
interface Read {
  readonly policy: PolicyGiven;
  readonly trustedRoot: Parameters<typeof buildSettings>[0]['trustedRoot'];
  /** The files the policy's trust: section names, read at the policy's commit (`commit\0path` → text, null: absent there, or why that file cannot be used). */
  readonly trustFiles: ReadonlyMap<string, Result<string | null>>;
  /** Those a pull request changes (the base's and the head's texts differ). */
  readonly trustFilesChanged: readonly string[];
  /** A near-miss policy the pull request leaves beside no file at the default path (the checkout is its head). */
  readonly headNearMiss: { readonly found: string; readonly policy: string } | null;
}

/** A trust file's text on one side, null when absent, undefined when it cannot be used (for comparing the sides). */
const textOf = (side: Result<string | null>): string | null | undefined => (side.ok ? side.value : undefined);

/** The key of a trust file read at a commit (null: the checkout). */
const trustKey = (file: string, commit: string | null): string => `${commit ?? ''}\u0000${file}`;

/** A repository path an input names, relative to the workspace (never out of it). */
function repoPath(workspace: string, name: OptionName, value: string): string {
  const abs = path.resolve(workspace, value);
  const rel = path.relative(workspace, abs);
  if (!inside(workspace, abs)) throw new UsageError('path', `${name}: "${value}" is outside the workspace`);
  return rel.split(path.sep).join('/');
}

async function readFiles(input: (name: string) => string, ctx: RunContext, files: Files): Promise<Read> {
  const workspace = path.resolve(ctx.workspace);
  const policyValue = input('policy') || DEFAULTS.policy;
  // Named explicitly only when it names another file: `./.github/receipt-gate.yml` is the default, near-miss check and all (a red team).
  const explicit = input('policy') !== '' && repoPath(workspace, 'policy', policyValue) !== DEFAULTS.policy;
  const policyFile = await files.read(repoPath(workspace, 'policy', policyValue));
  // On a pull request the input is the pull request's to edit (its workflow): a gate that reads
  // another file than the base's own policy at the default path could be pointed at a looser one,
  // one the pull request adds, one the base already has, or one it deletes (red teams). With a
  // policy at the default path at the base, naming another file is a configuration error.
  let moved = false;
  // Compared where the file is read (an absolute path to the default, `./` spellings: the default).
  const other = explicit && repoPath(workspace, 'policy', policyValue) !== DEFAULTS.policy;
  if (other && policyFile.kind === 'pull') {
    moved = !policyFile.base;
    const atDefault = await files.read(repoPath(workspace, 'policy', DEFAULTS.policy));
    if (atDefault.kind === 'pull' && atDefault.base)
      throw new UsageError(
        'policy',
        `policy: "${policyValue}" is named, but the base's policy is ${DEFAULTS.policy}: on a pull request the input is the pull request's to edit, so the gate reads the policy only where the base keeps it; leave the input out (or keep one policy, at ${DEFAULTS.policy})`,
      );
  }
  let policy: PolicyGiven;
  // Where the policy is read (the base on a pull request) holds no file at the default path: a
  // team's policy at a near-miss path there must not leave the gate running without it, whatever
  // the pull request adds at the default path (docs/policy.md §11: "at the commit read").
  const unread = policyFile.kind === 'absent' || (policyFile.kind === 'pull' && !policyFile.base);
  if (unread && (!explicit || moved)) {
    const near = await files.nearMiss();
    if (near !== null)
      throw new UsageError(
        'policy',
        `no policy file at ${policyValue}, but ${near} exists${policyFile.kind === 'pull' ? ' at the base commit' : ''}: move it to ${policyValue}, or name it with the policy input (policy: ${near})${policyFile.kind === 'pull' && policyFile.head ? `; this pull request adds ${policyValue}, which applies only once merged` : ''}`,
      );
  }
  if (policyFile.kind === 'absent' || (policyFile.kind === 'pull' && !policyFile.base && !policyFile.head)) {
    if (explicit)
      throw new UsageError(
        'path',
        `policy: "${policyValue}" does not exist (a missing default means no policy file; an explicit one must exist)`,
      );
    policy = { kind: 'none' };
  } else policy = policyFile;
  const rootValue = input('trusted-root');
  let trustedRoot: Read['trustedRoot'] = null;
  if (rootValue !== '') {
    const root = await files.read(repoPath(workspace, 'trusted-root', rootValue));
    if (root.kind === 'absent') throw new UsageError('path', `trusted-root: "${rootValue}" does not exist`);
    trustedRoot = root;
  }
  // The files a trust: section names, read where its policy was read (the base, or the checkout), before the settings are built.
  // A file that cannot be used (outside the repository, a link, a folder) is kept as why: the policy's entry
  // naming it is the mistake, located there when the settings are built (the CLI's words).
  const trustFiles = new Map<string, Result<string | null>>();
  const trustFilesChanged: string[] = [];
  const texts = policy.kind === 'file' ? [policy.file] : policy.kind === 'pull' ? [policy.base, policy.head] : [];
  if (texts.length > 0) await loadYamlParser();
  for (const t of texts) {
    if (!t) continue;
    for (const file of trustFilesNamed(t.text)) {
      const key = trustKey(file, t.commit);
      if (trustFiles.has(key)) continue;
      const at = trustPathIn(workspace, file);
      const got: TrustRead = at.ok ? await files.readTrust(at.value) : { base: at, head: at };
      trustFiles.set(key, t.commit !== null && got.base !== null ? got.base : got.head);
      if (t.commit !== null && got.base !== null && textOf(got.base) !== textOf(got.head)) trustFilesChanged.push(file);
    }
  }
  // The head (the checkout) read as the base will be once merged: no file at the default path, one at a near-miss path.
  const nearHead = policyFile.kind === 'pull' && !policyFile.head && !explicit ? nearMissOnDisk(workspace) : null;
  const headNearMiss = nearHead === null ? null : { found: nearHead, policy: DEFAULTS.policy };
  return { policy, trustedRoot, trustFiles, trustFilesChanged, headNearMiss };
}

/** The action's inputs → its settings, or the usage problem naming the input (never an exception). */
export async function readSettings(
  input: (name: string) => string,
  ctx: RunContext,
  env: NodeJS.ProcessEnv,
  files: Files,
  now: Date = new Date(),
): Promise<Result<ActionSettings, UsageProblem>> {
  let read: Read;
  try {
    read = await readFiles(input, ctx, files);
  } catch (error) {
    if (error instanceof UsageError) return { ok: false, reason: { code: error.code, message: error.message } };
    throw error;
  }
  // The YAML parser only when there is a policy file to read (it is most of a cold start without one).
  if (read.policy.kind !== 'none') await loadYamlParser();
  const built = usage(() => settingsOf(input, ctx, env, read, now));
  if (!built.ok) return built;
  return { ok: true, value: await breakGlass(built.value, ctx, files) };
}

/**
 * The break-glass path (docs/policy.md §10): what a pull request's policy adds (exceptions,
 * grandfathered entries) applies now to run files present with the same bytes at the base. Their
 * blob ids are compared with the base's tree (git, or one API request), only when something is added.
 */
async function breakGlass(settings: ActionSettings, ctx: RunContext, files: Files): Promise<ActionSettings> {
  const gate = settings.gate;
  if (!ctx.pull || gate.policy.kind !== 'file') return settings;
  const head = gate.policyReview?.head ?? null;
  const added = head ? addedEntries(gate.policy, head) : null;
  const adds = added !== null && added.exceptions.length + added.grandfathered.length > 0;
  // The base's grandfathered audit files bind only the calls of runs the base holds (docs/policy.md §10).
  const history = gate.policy.grandfathered.some((g) => g.kind === 'audit');
  if (!adds && !history) return settings;
  const tree = await files.baseTree();
  // The base tree's paths are the repository's: the clone's top, when the workspace is a folder of it (a red team: proj/proj/…, nothing unchanged).
  const root = cloneTop(ctx.workspace) ?? path.resolve(ctx.workspace);
  const unchanged: Result<ReadonlySet<string>> = tree.ok
    ? { ok: true, value: identicalAtBase(root, gate.cwd, tree.value) }
    : { ok: false, reason: `the base commit's files could not be compared (${tree.reason})` };
  const pinned = history ? historyOnly(gate.policy, unchanged) : { policy: gate.policy, findings: [] };
  if (!head || !added || !adds) return withPolicy(settings, pinned.policy, pinned.findings);
  let atBase: Result<ReadonlySet<string>>;
  if (!tree.ok || !unchanged.ok)
    atBase = { ok: false, reason: `the base commit's files could not be compared (${tree.ok ? '' : tree.reason})` };
  else {
    const identical = unchanged.value;
    // A pull request that also moves evidence could make the failure it excuses (a record deleted, or
    // taken by a call it adds): what it adds applies now only when it carries its policy alone.
    // Every file the gate reads: the inputs, the attestations a walk finds, and the sidecars beside
    // each input (a Sigstore bundle or DSSE envelope the pull request adds changes what a run is: a red team).
    const read = (['runs', 'audit'] as const).flatMap((role) => {
      const found = discover(gate[role], gate.cwd, gate.workspace, gate.explicit[role], role);
      const beside = found.files.flatMap((f) => [sigstoreOf, sidecarOf].filter((of) => existsSync(of(f.path))).map((of) => of(f.rel)));
      return [...found.files.map((f) => f.rel), ...found.attestations.map((f) => f.rel), ...beside];
    });
    // The inputs' positive paths and globs, as the repository names them.
    const scopes = [...gate.runs, ...gate.audit]
      .map((i) => i.trim())
      .filter((i) => i !== '' && !i.startsWith('!'))
      .map((i) => path.relative(root, path.resolve(gate.cwd, i)).split(path.sep).join('/'));
    const policyPath = gate.policy.source ? gate.policy.source.path : DEFAULTS.policy;
    const moved = evidenceChangedSinceBase(root, tree.value, identical, identicalAtBase(root, root, tree.value), read, scopes, policyPath);
    atBase =
      moved === null
        ? { ok: true, value: identical }
        : {
            ok: false,
            reason: `this pull request also ${moved} (a break-glass pull request carries its policy alone: evidence it moves could make the failure it excuses)`,
          };
  }
  const glass = withBreakGlass(pinned.policy, head, added, atBase);
  return withPolicy(settings, glass.policy, [...pinned.findings, ...glass.findings], pinned.policy);
}

/** The settings with the policy in effect on this pull request and what it says of it. */
function withPolicy(
  settings: ActionSettings,
  policy: Settings['policy'],
  findings: readonly Finding[],
  base: Settings['policy'] = policy,
): ActionSettings {
  const gate = settings.gate;
  const review = gate.policyReview;
  if (findings.length === 0 && policy === gate.policy) return settings;
  return {
    ...settings,
    gate: {
      ...gate,
      policy,
      policyReview: {
        ...review,
        findings: [...(review?.findings ?? []), ...findings],
        head: review?.head ?? null,
        // The break-glass entries applied now: the change is measured from the base's policy without them.
        ...(base !== policy ? { before: base } : {}),
      },
    },
  };
}

/** An input given as a list, or null when it is empty or the default (then it was not given explicitly). */
function listGiven(raw: string, name: OptionName): readonly string[] | null {
  const given = parseList(raw);
  return given.length === 0 || raw === DEFAULTS[name] ? null : given;
}

/** The inputs as the one settings builder takes them (the CLI's flags are its other source). */
function gateInputs(
  input: (name: string) => string,
  get: (name: OptionName) => string,
  places: { readonly workspace: string; readonly cwd: string },
  ctx: RunContext,
  env: NodeJS.ProcessEnv,
  read: Read,
  now: Date,
): GateInputs {
  const { workspace, cwd } = places;
  const pem = (name: OptionName) => (get(name).trim() === '' ? [] : [{ name, pem: get(name) }]);
  const flag = (name: OptionName): boolean | null => (input(name) === '' ? null : parseBool(name, input(name)));
  return {
    names: {
      runs: 'runs',
      audit: 'audit',
      require: 'require',
      jobs: 'jobs',
      trustedKeys: 'trusted-keys',
      requireSignedRecords: 'require-signed-records',
      trustedProducers: 'trusted-producers',
      requireAttestedRuns: 'require-attested-runs',
      signerIdentities: 'trusted-signer-identities',
      producerIdentities: 'trusted-producer-identities',
      sourceRepository: 'GITHUB_REPOSITORY',
      sourceRefs: 'source-refs',
      issuer: 'certificate-oidc-issuer',
      trustedRoot: 'trusted-root',
      limitsPrefix: '',
    },
    cwd,
    workspace,
    runs: listGiven(input('runs'), 'runs'),
    audit: listGiven(input('audit'), 'audit'),
    allowUnmatchedRecords: flag('allow-unmatched-records'),
    strictObserved: flag('strict-observed'),
    maxFileSize: get('max-file-size'),
    maxLineSize: get('max-line-size'),
    jobs: get('jobs'),
    cache: null,
    writes: [],
    require: parseRules('require', get('require')),
    // PEM text, typically from a repository variable, so a pull request cannot change it.
    trustedKeys: pem('trusted-keys'),
    requireSignedRecords: parseBool('require-signed-records', get('require-signed-records')),
    trustedProducers: pem('trusted-producers'),
    requireAttestedRuns: parseBool('require-attested-runs', get('require-attested-runs')),
    // Identities beside keys (docs/keyless.md): the source repository is the one this workflow runs for.
    identities: {
      signerIdentities: parseList(get('trusted-signer-identities')),
      producerIdentities: parseList(get('trusted-producer-identities')),
      sourceRepository: env['GITHUB_REPOSITORY'] ?? null,
      sourceRefs: parseList(get('source-refs')),
      defaultRef: ctx.defaultBranch === null ? null : `refs/heads/${ctx.defaultBranch}`,
      issuer: get('certificate-oidc-issuer'),
    },
    trustedRoot: read.trustedRoot,
    policy: read.policy,
    now: instantOf(now),
    trustGiven: TRUST_INPUTS.filter((name) => input(name) !== '' && input(name) !== DEFAULTS[name]),
    trustFile: (file, commit) => read.trustFiles.get(trustKey(file, commit)) ?? { ok: true, value: null },
    trustFilesChanged: read.trustFilesChanged,
    headNearMiss: read.headNearMiss,
  };
}

/** The trust inputs: given (a value other than action.yml's default) beside a policy's trust: section, a conflict. */
const TRUST_INPUTS = [
  'trusted-keys',
  'require-signed-records',
  'trusted-producers',
  'require-attested-runs',
  'trusted-signer-identities',
  'trusted-producer-identities',
  'source-refs',
  'certificate-oidc-issuer',
  'trusted-root',
] as const satisfies readonly OptionName[];

function settingsOf(input: (name: string) => string, ctx: RunContext, env: NodeJS.ProcessEnv, read: Read, now: Date): ActionSettings {
  refuseUnknownInputs(env, new Set(Object.keys(DEFAULTS)));
  // '' when not set: the runner fills in action.yml's default, a local run may not, so an empty value means the default (github-token aside).
  const get = (name: OptionName): string => input(name) || (name === 'github-token' ? '' : DEFAULTS[name]);
  const workspace = path.resolve(ctx.workspace);
  const cwd = directoryIn(workspace, workspace, get('working-directory'), 'working-directory');
  const rel = path.relative(workspace, cwd);
  const checkRunId = get('check-run-id');
  if (checkRunId !== '' && !/^[1-9]\d{0,18}$/.test(checkRunId)) {
    throw new UsageError('value', `check-run-id: "${checkRunId}" is not a check run id (pass \${{ job.check_run_id }} or leave it empty)`);
  }
  const checkName = get('check-name');
  if (checkName.length > 255) throw new UsageError('value', 'check-name: longer than 255 characters');
  /** A file the action writes: never out of the workspace through a link the checkout holds. */
  const output = (name: OptionName): string | null => {
    const value = get(name);
    return value === '' ? null : outputIn(workspace, workspace, value, name);
  };
  const sarifFile = output('sarif-file');
  const reportFile = output('report-file') ?? path.join(env['RUNNER_TEMP'] || tmpdir(), 'receipt-gate', 'report.json');
  const vsa = verdictInputs(output('vsa-predicate'), output('vsa'), get('vsa-key'), env);
  const outputs = [
    ['report-file', reportFile],
    ['sarif-file', sarifFile],
    ['vsa-predicate', vsa?.predicate ?? null],
    ['vsa', vsa?.envelope ?? null],
  ] as const;
  distinctOutputs(outputs);
  return {
    gate: buildSettings({ ...gateInputs(input, get, { workspace, cwd }, ctx, env, read, now), writes: given(outputs) }),
    annotations: parseChoice('annotations', get('annotations'), ['auto', 'check-run', 'workflow-commands', 'off'] as const),
    annotate: parseChoice('annotate', get('annotate'), ['all', 'failures'] as const),
    checkRunId: checkRunId === '' ? null : checkRunId,
    checkName,
    token: get('github-token'),
    summary: parseBool('summary', get('summary')),
    maxAnnotations: parseCount('max-annotations', get('max-annotations')),
    sarifFile,
    reportFile,
    prefix: rel.split(path.sep).join('/'),
    vsa: vsa && {
      ...vsa,
      trustFiles: read.trustedRoot?.kind === 'file' && read.trustedRoot.file.commit === null ? [read.trustedRoot.file.path] : [],
    },
    cache: parseBool('cache', get('cache')),
  };
}
