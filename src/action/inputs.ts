/**
 * The action's inputs → one typed settings object, in the manner of actions/checkout's input
 * helper: every input read once, its default taken from the settings table (the same default
 * `action.yml` declares; a test compares them), and validated before anything runs. A bad value is
 * one UsageError naming the input.
 */

import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Result } from '../core/result.js';
import {
  DEFAULTS,
  directoryIn,
  type OptionName,
  outputIn,
  parseBool,
  parseChoice,
  parseCount,
  parseJobs,
  parseList,
  readKeyless,
  readLimits,
  readPolicy,
  readTrustedKeys,
  requireExistingPaths,
  type Settings,
  UsageError,
  type UsageProblem,
  usage,
} from '../gate/settings.js';
import { resourceUriFromEnv } from '../report/verification-summary.js';
import { parsePrivateKey, type SigningKey } from '../tools/signing.js';
import type { RunContext } from './github-client.js';

type AnnotationMode = 'auto' | 'check-run' | 'workflow-commands' | 'off';
/** Which calls get an annotation. */
type AnnotateScope = 'all' | 'failures';

export interface ActionSettings {
  readonly gate: Settings;
  readonly annotations: AnnotationMode;
  readonly annotate: AnnotateScope;
  readonly checkRunId: number | null;
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
  } | null;
}

/**
 * Trusted keys from an input's PEM text; empty is "none configured", unless a switch says keys are
 * required (semantics §12): then empty is a configuration error naming both inputs.
 */
function keysRequired(name: string, pem: string, required: boolean, switchName: string): ReturnType<typeof readTrustedKeys> {
  if (pem.trim() !== '') return readTrustedKeys([{ name, pem }]);
  if (required) {
    throw new UsageError(
      `${name}: empty, but ${switchName} is true (an unset repository variable is an empty string; set the variable, or the gate would accept what no trusted key signed)`,
    );
  }
  return null;
}

/** vsa-predicate, vsa and vsa-key, checked together; the key is PEM text from a secret, parsed in memory. */
function verdictInputs(predicate: string | null, envelope: string | null, keyPem: string, env: NodeJS.ProcessEnv): ActionSettings['vsa'] {
  if (predicate === null && envelope === null) {
    if (keyPem.trim() !== '') throw new UsageError('vsa-key: only with vsa (a path for the signed verdict)');
    return null;
  }
  let key: SigningKey | null = null;
  if (envelope !== null) {
    if (keyPem.trim() === '')
      throw new UsageError('vsa: a signed verdict needs vsa-key (the PEM text of an Ed25519 private key, from a secret)');
    const k = parsePrivateKey(keyPem);
    if (!k.ok) throw new UsageError(`vsa-key: ${k.reason}`);
    key = k.value;
  }
  const resourceUri = resourceUriFromEnv(env);
  if (!resourceUri)
    throw new UsageError(
      `${envelope !== null ? 'vsa' : 'vsa-predicate'}: GITHUB_SERVER_URL, GITHUB_REPOSITORY and GITHUB_SHA name the commit verified (SLSA requires resourceUri)`,
    );
  return { predicate, envelope, key, resourceUri };
}

/**
 * @param input an input's raw value ('' when not set: the runner fills in action.yml's default, a
 *   local run may not, so an empty value means the default here too, except for github-token)
 */
/** The action's inputs → its settings, or the usage problem naming the input (never an exception). */
export function readSettings(
  input: (name: string) => string,
  ctx: RunContext,
  env: NodeJS.ProcessEnv,
): Result<ActionSettings, UsageProblem> {
  return usage(() => settingsOf(input, ctx, env));
}

function settingsOf(input: (name: string) => string, ctx: RunContext, env: NodeJS.ProcessEnv): ActionSettings {
  const get = (name: OptionName): string => input(name) || (name === 'github-token' ? '' : DEFAULTS[name]);
  const workspace = path.resolve(ctx.workspace);
  const wdInput = get('working-directory');
  const cwd = directoryIn(workspace, workspace, wdInput, 'working-directory');
  const rel = path.relative(workspace, cwd);
  const checkRunId = get('check-run-id');
  if (checkRunId !== '' && !/^[1-9]\d{0,18}$/.test(checkRunId)) {
    throw new UsageError(`check-run-id: "${checkRunId}" is not a check run id (pass \${{ job.check_run_id }} or leave it empty)`);
  }
  const checkName = get('check-name');
  if (checkName.length > 255) throw new UsageError('check-name: longer than 255 characters');
  const file = (name: OptionName): string | null => {
    const v = get(name);
    return v === '' ? null : path.resolve(workspace, v);
  };
  /** A file the action writes: never out of the workspace through a link the checkout holds. */
  const output = (name: OptionName): string | null => {
    const v = get(name);
    return v === '' ? null : outputIn(workspace, workspace, v, name);
  };
  const runs = parseList(get('runs'));
  const audit = parseList(get('audit'));
  const explicit = {
    runs: input('runs') !== '' && input('runs') !== DEFAULTS.runs,
    audit: input('audit') !== '' && input('audit') !== DEFAULTS.audit,
  };
  if (explicit.runs) requireExistingPaths(runs, cwd, 'runs');
  if (explicit.audit) requireExistingPaths(audit, cwd, 'audit');
  // Identities beside keys (docs/keyless.md): the source repository is the one this workflow runs for.
  const keyless = readKeyless(
    {
      signerIdentities: parseList(get('trusted-signer-identities')),
      producerIdentities: parseList(get('trusted-producer-identities')),
      sourceRepository: env['GITHUB_REPOSITORY'] ?? null,
      sourceRefs: parseList(get('source-refs')),
      defaultRef: `refs/heads/${ctx.defaultBranch ?? 'main'}`,
      issuer: get('certificate-oidc-issuer'),
      trustedRoot: file('trusted-root'),
    },
    {
      signerIdentities: 'trusted-signer-identities',
      producerIdentities: 'trusted-producer-identities',
      sourceRepository: 'GITHUB_REPOSITORY',
      sourceRefs: 'source-refs',
      issuer: 'certificate-oidc-issuer',
    },
  );
  return {
    gate: {
      runs: runs.length > 0 ? runs : parseList(DEFAULTS.runs),
      audit: audit.length > 0 ? audit : parseList(DEFAULTS.audit),
      explicit,
      cwd,
      workspace,
      allowUnmatchedRecords: parseBool('allow-unmatched-records', get('allow-unmatched-records')),
      strictObserved: parseBool('strict-observed', get('strict-observed')),
      limits: readLimits(get('max-file-size'), get('max-line-size')),
      jobs: parseJobs('jobs', get('jobs')),
      policy: readPolicy('require', parseList(get('require'))),
      // PEM text, typically from a repository variable, so a pull request cannot change it.
      trustedKeys: keysRequired(
        'trusted-keys',
        get('trusted-keys'),
        parseBool('require-signed-records', get('require-signed-records')) && !keyless?.signers,
        'require-signed-records',
      ),
      trustedProducers: keysRequired(
        'trusted-producers',
        get('trusted-producers'),
        parseBool('require-attested-runs', get('require-attested-runs')) && !keyless?.producers,
        'require-attested-runs',
      ),
      keyless,
    },
    annotations: parseChoice('annotations', get('annotations'), ['auto', 'check-run', 'workflow-commands', 'off'] as const),
    annotate: parseChoice('annotate', get('annotate'), ['all', 'failures'] as const),
    checkRunId: checkRunId === '' ? null : Number(checkRunId),
    checkName,
    token: get('github-token'),
    summary: parseBool('summary', get('summary')),
    maxAnnotations: parseCount('max-annotations', get('max-annotations')),
    sarifFile: output('sarif-file'),
    reportFile: output('report-file') ?? path.join(env['RUNNER_TEMP'] || tmpdir(), 'receipt-gate', 'report.json'),
    prefix: rel.split(path.sep).join('/'),
    vsa: verdictInputs(output('vsa-predicate'), output('vsa'), get('vsa-key'), env),
  };
}
