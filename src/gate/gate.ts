/**
 * The seam both entries call: settings → files → readers → verify → Report.
 * All file I/O of a verification happens here and in read/; the core never touches a file.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type Finding, finding, inputFinding } from '../core/findings.js';
import type { Evidence, IdentityTrust, RecordInput, RunInput, VerifyOptions } from '../core/model.js';
import { checkRuleNames } from '../core/policy.js';
import type { Report } from '../core/report.js';
import type { Result } from '../core/result.js';
import { cmp } from '../core/text.js';
import { verify } from '../core/verify.js';
import { discover, type FoundFile } from '../read/discover.js';
import { attestedBy, EXTENSION_LIST } from '../read/formats.js';
import { type IdentitySetup, rootsOf } from '../trust/checkers/identities.js';
import { keyMaterial, type ReadSetup, type ReadTask } from './evidence.js';
import type { Readers } from './pool.js';
import { openReaders } from './readers.js';
import type { Settings, UsageProblem } from './settings/types.js';

interface Collected extends Evidence {
  /** Every input file read (and every attestation read beside one), path (as in the report) → hex sha256, when digests were asked for. */
  readonly inputs: ReadonlyMap<string, string>;
}

/** Where the files are read (gate/readers.ts): the main thread or worker threads. */
export type OpenReaders = (tasks: readonly ReadTask[], setup: ReadSetup, jobs: number | null) => Readers | Promise<Readers>;

/**
 * discover → schedule → merge: every input file is one unit of work (gate/evidence.ts), read on the
 * main thread or on worker threads (`open`), and taken here in path order, so the evidence does not
 * depend on which file was read first.
 */
async function collect(settings: Settings, setup: ReadSetup, open: OpenReaders): Promise<Collected> {
  const findings: Finding[] = [];
  const inputs = new Map<string, string>();
  const runs: RunInput[] = [];
  const records: RecordInput[] = [];
  const workspace = path.resolve(settings.workspace);
  const cwd = path.resolve(settings.cwd);
  const attestations = new Map<string, FoundFile>();
  // Audit exports first: their signature checks overlap with reading the runs.
  const found = (['audit', 'runs'] as const).map((role) => ({
    role,
    d: discover(settings[role], cwd, workspace, settings.explicit[role], role),
  }));
  const readers = await open(
    found.flatMap(({ role, d }) => d.files.map((file) => ({ file, role }))),
    setup,
    settings.jobs,
  );
  let next = 0;
  try {
    for (const { role, d } of found) {
      for (const f of d.findings) findings.push(f);
      for (const a of d.attestations) attestations.set(a.rel, a);
      if (role === 'runs' && d.files.length === 0) {
        findings.push(
          inputFinding(
            'no_artifacts',
            `runs: ${settings.runs.join(', ') || '(none)'}`,
            `the run-artifact inputs (${settings.runs.join(', ')}) matched no ${EXTENSION_LIST} file: a gate that sees nothing must not pass`,
          ),
        );
      }
      for (const _ of d.files) {
        const evidence = await readers.read(next++);
        for (const [rel, sha256] of evidence.digests) inputs.set(rel, sha256);
        for (const f of evidence.findings) findings.push(f);
        if (evidence.run) runs.push(evidence.run);
        for (const r of evidence.records) records.push(r);
      }
    }
  } finally {
    await readers.close();
  }
  for (const f of orphans(attestations.values())) findings.push(f);
  const keys = settings.trustedKeys;
  const producers = settings.trustedProducers;
  return {
    runs,
    records,
    findings,
    trustedSigners: keys ? [...keys.keys()].sort() : [],
    trustedProducers: producers ? [...producers.keys()].sort() : [],
    ...(settings.keyless ? { identities: identityTrust(settings.keyless) } : {}),
    inputs,
  };
}

/** `orphan_attestation`: an attestation with no artifact beside it. */
function orphans(attestations: Iterable<FoundFile>): Finding[] {
  const out: Finding[] = [];
  for (const a of attestations) {
    const artifact = attestedBy(a.path) as string;
    if (!existsSync(artifact))
      out.push(
        finding(
          'orphan_attestation',
          { file: a.rel, line: 1, column: 1 },
          `no ${path.basename(artifact)} beside this attestation: a renamed or removed artifact must not lose its attestation silently`,
        ),
      );
  }
  return out;
}

/** The identity trust in effect, sorted, for the report's policy. */
function identityTrust(k: NonNullable<Settings['keyless']>): IdentityTrust {
  const any = (k.signers ?? k.producers) as NonNullable<typeof k.signers>;
  return {
    signers: [...(k.signers?.identities ?? [])].sort(cmp),
    producers: [...(k.producers?.identities ?? [])].sort(cmp),
    sourceRepository: any.sourceRepository,
    sourceRefs: [...any.sourceRefs].sort(cmp),
    issuer: any.issuer,
  };
}

/** What the core needs of the settings (nothing about files). */
const optionsOf = (s: Settings): VerifyOptions => ({
  allowUnmatchedRecords: s.allowUnmatchedRecords,
  strictObserved: s.strictObserved,
  policy: s.policy,
});

/** What the gate gives: the report, and the digest of every input it rests on when asked (a verdict attestation lists them). */
export interface Gated {
  readonly report: Report;
  readonly inputs: ReadonlyMap<string, string>;
}

/** Every class of the input with its verbs (what a rule may name besides the §2 table). */
function classesSeen(runs: readonly RunInput[]): Map<string, Set<string>> {
  const seen = new Map<string, Set<string>>();
  for (const r of runs)
    for (const d of r.decisions) {
      if (d.actionClass === null) continue;
      let verbs = seen.get(d.actionClass);
      if (!verbs) seen.set(d.actionClass, (verbs = new Set()));
      if (d.verb !== null) verbs.add(d.verb);
    }
  return seen;
}

/**
 * What every reading thread is told: the limits, whether to hash, and the trust configured. With
 * identities, the trusted roots are read once here and loaded, so a root that cannot be used is a
 * usage problem before anything is read.
 */
async function readSetup(settings: Settings, digests: boolean): Promise<Result<ReadSetup, UsageProblem>> {
  let identities: IdentitySetup | null = null;
  const k = settings.keyless;
  if (k) {
    const sigstore = await import('../trust/sigstore.js');
    const roots = sigstore.readTrustedRootsFile('trusted-root', k.trustedRoot, settings.limits);
    if (!roots.ok) return { ok: false, reason: { code: 'file', message: roots.reason } };
    const loaded = await rootsOf(roots.value, settings.limits);
    if (!loaded.ok) return { ok: false, reason: { code: 'file', message: loaded.reason } };
    identities = { signers: k.signers, producers: k.producers, roots: roots.value };
  }
  return {
    ok: true,
    value: {
      limits: settings.limits,
      digest: digests,
      workspace: path.resolve(settings.workspace),
      trust: { recordKeys: keyMaterial(settings.trustedKeys), producerKeys: keyMaterial(settings.trustedProducers), identities },
    },
  };
}

/**
 * settings → read (+ sidecars, trust) → verify. A rule naming a class or verb that neither the gate
 * nor the input knows is a usage problem (semantics §7): it is known only once the input is read.
 * @param digests hash every input read (for a verdict attestation)
 */
export async function runGate(settings: Settings, digests = false, open: OpenReaders = openReaders): Promise<Result<Gated, UsageProblem>> {
  const setup = await readSetup(settings, digests);
  if (!setup.ok) return setup;
  const evidence = await collect(settings, setup.value, open);
  const names = checkRuleNames(settings.policy, classesSeen(evidence.runs));
  if (!names.ok) return { ok: false, reason: { code: 'value', message: names.reason, input: 'require' } };
  return { ok: true, value: { report: verify(evidence, optionsOf(settings)), inputs: evidence.inputs } };
}
