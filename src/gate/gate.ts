/**
 * The seam both entries call: settings → files → readers → verify → Report.
 * All file I/O of a verification happens here and in read/; the core never touches a file.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../core/binding.js';
import { type Finding, finding, inputFinding } from '../core/findings.js';
import type { Attestation, Evidence, IdentityTrust, RunInput, VerifyOptions, WorkflowSigner } from '../core/model.js';
import { checkRuleNames } from '../core/policy.js';
import type { Report } from '../core/report.js';
import type { Result } from '../core/result.js';
import { cmp } from '../core/text.js';
import { verify } from '../core/verify.js';
import { discover, type FoundFile } from '../read/discover.js';
import { readEnvelopeFile } from '../read/envelope.js';
import type { FileRead } from '../read/file-read.js';
import { readBeside } from '../read/files.js';
import { attestedBy, EXTENSION_LIST, formatOf, sidecarOf } from '../read/formats.js';
import { TrustPool } from '../trust/pool.js';
import { attestation, type Sidecar } from '../trust/producer.js';
import { attestedWith, type KeylessSetup, keylessSetup, uncheckedBundle, withKeyless } from './keyless.js';
import { openReaders, type Readers, type ReadSetup, type ReadTask } from './readers.js';
import type { Settings, UsageProblem } from './settings.js';

interface Collected extends Evidence {
  /** Every input file read, path (as in the report) → hex sha256, when digests were asked for. */
  readonly inputs: ReadonlyMap<string, string>;
}

/** Where the files are read (gate/readers.ts): the main thread or worker threads. */
export type OpenReaders = (tasks: readonly ReadTask[], setup: ReadSetup, jobs: number | null) => Readers | Promise<Readers>;

/**
 * Read every input file into located evidence. The files are read by `open`'s readers (on the main
 * thread, or on worker threads for a large input) and taken here in path order, each dropped as
 * soon as its decisions and records are merged, so the evidence does not depend on which file was
 * read first.
 */
async function collect(settings: Settings, digests: boolean, keyless: KeylessSetup | null, open: OpenReaders): Promise<Collected> {
  const findings: Finding[] = [];
  const inputs = new Map<string, string>();
  const runs: Promise<RunInput>[] = [];
  const producers = settings.trustedProducers;
  const workspace = path.resolve(settings.workspace);
  const cwd = path.resolve(settings.cwd);
  const keys = settings.trustedKeys;
  // Audit exports first: their signatures are checked on libuv's thread pool while the runs are read.
  const trust = new TrustPool(keys);
  /** Audit export → its keyless result, when signer identities are configured. */
  const recordTrust = new Map<string, Result<WorkflowSigner>>();
  const attestations = new Map<string, FoundFile>();
  const found = (['audit', 'runs'] as const).map((role) => ({
    role,
    d: discover(settings[role], cwd, workspace, settings.explicit[role], role),
  }));
  // A file discovery refused (a broken link, a link out, a FIFO) is refused once: an attestation read
  // beside its artifact says nothing more of it (semantics §6: one fact, one finding).
  const refused = new Set<string>();
  for (const { d } of found) for (const f of d.findings) if (f.code === 'invalid_artifact' && f.file !== null) refused.add(f.file);
  const readers = await open(
    found.flatMap(({ role, d }) => d.files.map((file) => ({ file, role }))),
    { limits: settings.limits, digest: digests || keyless !== null, keyless },
    settings.jobs,
  );
  let next = 0;
  try {
    for (const { role, d } of found) {
      findings.push(...d.findings);
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
      for (const file of d.files) {
        const r = await readers.read(next++);
        if (!settings.keyless) {
          const unchecked = await uncheckedBundle(file, settings.limits, workspace);
          if (unchecked && !(unchecked.code === 'invalid_artifact' && refused.has(unchecked.file))) findings.push(unchecked);
        }
        if (role === 'audit' && r.keyless) recordTrust.set(file.rel, r.keyless);
        if (r.sha256 !== undefined) inputs.set(file.rel, r.sha256);
        for (const x of r.findings) findings.push(x);
        if (r.run) runs.push(runInput(file, r.run, r, { settings, workspace, inputs: digests ? inputs : null, findings, refused }));
        trust.add(r.records);
        await trust.yield();
      }
    }
  } finally {
    await readers.close();
  }
  findings.push(...orphans(attestations.values()));
  return {
    runs: await Promise.all(runs),
    records: (await trust.finish()).map((rec) => {
      const k = recordTrust.get(rec.loc.file);
      return k ? withKeyless(rec, k, keys !== null) : rec;
    }),
    findings,
    trustedSigners: keys ? [...keys.keys()].sort() : [],
    trustedProducers: producers ? [...producers.keys()].sort() : [],
    ...(settings.keyless ? { identities: identityTrust(settings.keyless) } : {}),
    inputs,
  };
}

/** What a run needs from the gate's state while it is read. */
interface RunContext {
  readonly settings: Settings;
  readonly workspace: string;
  /** Where the sidecar's digest goes, when digests were asked for. */
  readonly inputs: Map<string, string> | null;
  readonly findings: Finding[];
  /** Files discovery already refused, each with its finding. */
  readonly refused: ReadonlySet<string>;
}

/**
 * A run with its attestation decided: a bundle's sidecar (read beside it, never as a run; its
 * checks run while the rest is read), trusted producers' keys, and producer identities (a run's
 * `<run>.sigstore.json`); keys or identities, either trusts.
 */
function runInput(file: FoundFile, run: RunInput, r: FileRead, ctx: RunContext): Promise<RunInput> {
  const { settings } = ctx;
  const producers = settings.trustedProducers;
  const bundle = formatOf(file.rel) === 'bundle';
  const sidecar: Sidecar = bundle ? readSidecar(file, ctx) : { kind: 'none' };
  if (sidecar.kind === 'empty' && !producers)
    ctx.findings.push(
      finding(
        'skipped_object',
        { file: sidecarOf(file.rel), line: 1, column: 1 },
        'the attestation sidecar holds no envelope: it attests nothing',
      ),
    );
  const evidence = { bundle, facts: r.bundle ?? null, sidecar };
  // Checked by the thread that read the run, when producer identities are configured (gate/keyless.ts).
  const byIdentity = r.keyless ?? null;
  const decided = (a: Attestation | undefined): RunInput => ({
    artifact: run.artifact,
    decisions: run.decisions,
    attestation: byIdentity ? attestedWith(a, byIdentity, r.bundle ?? null, producers !== null) : (a as Attestation),
  });
  if (producers || sidecar.kind !== 'none') return attestation(evidence, producers, settings.limits).then(decided);
  return Promise.resolve(byIdentity ? decided(undefined) : run);
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

/**
 * The sidecar `<bundle>.intoto.jsonl` beside a bundle: none, one that holds nothing, a malformed one
 * (its invalid_artifact findings are added, unless discovery already refused the file), or its
 * envelopes. A link to a sidecar inside the workspace is followed like every input; one that leaves
 * it is refused.
 */
function readSidecar(bundle: FoundFile, ctx: RunContext): Sidecar {
  const { findings } = ctx;
  const { limits } = ctx.settings;
  const rel = sidecarOf(bundle.rel);
  const got = readBeside(sidecarOf(bundle.path), 'the attestation sidecar', ctx.workspace, limits);
  if (got.kind === 'none') return got;
  if (got.kind === 'refused') {
    if (!ctx.refused.has(rel)) findings.push(finding('invalid_artifact', { file: rel, line: 1, column: 1 }, got.reason));
    return { kind: 'malformed' };
  }
  ctx.inputs?.set(rel, sha256Hex(got.bytes));
  const read = readEnvelopeFile(rel, got.bytes, limits);
  for (const f of read.findings) findings.push(f);
  if (read.findings.length > 0) return { kind: 'malformed' };
  return read.empty ? { kind: 'empty' } : { kind: 'envelopes', envelopes: read.envelopes };
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
 * settings → read (+ sidecars) → trust → verify. A rule naming a class or verb that neither the
 * gate nor the input knows is a usage problem (semantics §7): it is known only once the input is read.
 * @param digests hash every input read (for a verdict attestation)
 */
export async function runGate(settings: Settings, digests = false, open: OpenReaders = openReaders): Promise<Result<Gated, UsageProblem>> {
  let keyless: KeylessSetup | null = null;
  if (settings.keyless) {
    const k = await keylessSetup(settings.keyless, settings.limits, path.resolve(settings.workspace));
    if (!k.ok) return k;
    keyless = k.value;
  }
  const evidence = await collect(settings, digests, keyless, open);
  const names = checkRuleNames(settings.policy, classesSeen(evidence.runs));
  if (!names.ok) return { ok: false, reason: { message: names.reason, input: 'require' } };
  return { ok: true, value: { report: verify(evidence, optionsOf(settings)), inputs: evidence.inputs } };
}
