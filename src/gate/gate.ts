/**
 * The seam both entries call: settings → files → readers → verify → Report.
 * All file I/O of a verification happens here and in read/; the core never touches a file.
 */
import { existsSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import { changes, changesText, loosens, PULL_CHANGE } from '../core/effect.js';
import { compareFindings, type Finding, finding, inputFinding, placeOf } from '../core/findings.js';
import type { IdentityTrust, RecordInput, RunInput, StatementInput, VerifyOptions } from '../core/model.js';
import { checkRuleNames } from '../core/policy.js';
import type { Report } from '../core/report.js';
import type { Result } from '../core/result.js';
import { cmp } from '../core/text.js';
import { prepareRun, verify } from '../core/verify.js';
import { type Discovery, discover, evidenceHeldBy, type FoundFile, inside, isFile } from '../read/discover.js';
import { attestedBy, EXTENSION_LIST, formatOf, sidecarOf, sigstoreOf } from '../read/formats.js';
import type { KeptLists } from '../report/json-report.js';
import { type IdentitySetup, rootsOf } from '../trust/checkers/identities.js';
import { SHIPPED_ROOT_MAX_AGE_DAYS, SHIPPED_ROOT_TAKEN } from '../trust/shipped-root.js';
import { type CacheNote, type CacheTally, setupKey, tally } from './cache.js';
import { keyMaterial, type ReadSetup, type ReadTask } from './evidence.js';
import { classesOf, type FileFacts, factsOf } from './facts.js';
import { nearFolder, noRunsHint } from './hints.js';
import { type FileRead, type Gathered, keptBy, openKept, verifyIncremental } from './incremental.js';
import type { Readers } from './pool.js';
import { startReaders } from './readers.js';
import { canonical } from './settings/paths.js';
import { trustChanged } from './settings/policy.js';
import { PolicyMistake, type Settings, type UsageProblem } from './settings/types.js';
import type { KeptFile } from './snapshot.js';

interface Collected extends Gathered {
  /** Every input file read (and every attestation read beside one), path (as in the report) → hex sha256, when digests were asked for. */
  readonly inputs: ReadonlyMap<string, string>;
  /** Classes found only in rejected runs, each with the first such file. */
  readonly rejected: ReadonlyMap<string, string>;
  /** Every class of the input with its verbs (what a rule may name besides the §2 table). */
  readonly classes: ReadonlyMap<string, ReadonlySet<string>>;
  /** What the evidence cache did for each file, in the order read. */
  readonly notes: readonly (readonly [string, CacheNote])[];
}

/**
 * What the cache did for each file over the run: as `used` tells it for a file `first` kept (the
 * merge declined: every file was collected again), as `first` tells it for every other (a file read
 * and stored by the first collection is found by the second).
 */
function notesOver(first: Collected, used: Collected): readonly (readonly [string, CacheNote])[] {
  if (first === used) return first.notes;
  return first.notes.map((n, i) => {
    const again = used.notes[i];
    return n[1].kept && again?.[0] === n[0] ? again : n;
  });
}

/**
 * Where the files are read (gate/readers.ts): the main thread or worker threads. Started for the
 * input's files in their order (a worker loads meanwhile), then given the tasks to read: the same
 * files, a verification snapshot's keys in them once it is read.
 */
export type OpenReaders = (files: readonly ReadTask[], setup: ReadSetup, jobs: number | null) => TakeTasks | Promise<TakeTasks>;

/** Readers started (OpenReaders), given their tasks. */
type TakeTasks = (tasks: readonly ReadTask[]) => Readers;

/**
 * discover → schedule → merge: every input file is one unit of work (gate/evidence.ts), read on the
 * main thread or on worker threads (`open`), and taken here in path order, so the evidence does not
 * depend on which file was read first.
 */
/** Every role's files, audit exports first (read by one thread, their signature checks on libuv's pool overlap with reading the runs). */
type Found = readonly { readonly role: 'audit' | 'runs'; readonly d: Discovery }[];

function discoverAll(settings: Settings): Found {
  const workspace = path.resolve(settings.workspace);
  const cwd = path.resolve(settings.cwd);
  return (['audit', 'runs'] as const).map((role) => ({ role, d: discover(settings[role], cwd, workspace, settings.explicit[role], role) }));
}

/** The checkout the workspace lies in: the nearest folder above it (or it) holding `.git`, else the workspace itself. */
function checkoutOf(workspace: string): string {
  const real = canonical(path.resolve(workspace));
  for (let at = real; ; ) {
    if (existsSync(path.join(at, '.git'))) return at;
    const parent = path.dirname(at);
    if (parent === at) return real;
    at = parent;
  }
}

/**
 * Why the cache's folder cannot be the cache, or null. A folder that holds an input, or lies inside
 * an input's, would hide an input (a run a pull request names like an entry) or have its entries read
 * as evidence; a folder inside the checkout is one a pull request can commit entries to, and an entry
 * is believed (docs/cache.md): a red team's forged entries passed a failing pull request. Compared
 * with links resolved (a link to the runs folder was taken for a folder of its own).
 */
function cacheClash(settings: Settings, found: Found, cacheDir: string): string | null {
  const dir = canonical(path.resolve(cacheDir));
  // Each input by its path as found and the folder both as given and resolved (one resolution, not
  // one per input: 620 of them cost 30 ms); a folder inside an input's, through a link, is caught below.
  const asGiven = path.resolve(cacheDir);
  for (const { d } of found)
    for (const f of [...d.files, ...d.attestations])
      if (inside(dir, path.resolve(f.path)) || inside(asGiven, path.resolve(f.path)))
        return `the cache's folder holds an input (${f.rel}): give the cache a folder of its own, outside the runs and the audit exports (an input there would be hidden, or an entry read as evidence)`;
  // A folder inside an input's (the part of a glob before its first pattern character): empty today, its entries inputs tomorrow.
  for (const given of [...settings.runs, ...settings.audit]) {
    const root = canonical(path.resolve(settings.cwd, given.split(/[*?[{]/, 1)[0] ?? given));
    if (inside(root, dir))
      return `the cache's folder lies inside an input (${given}): give the cache a folder of its own, outside the runs and the audit exports (its entries would be read as evidence)`;
  }
  const checkout = checkoutOf(settings.workspace);
  if (inside(checkout, dir))
    return `the cache's folder lies inside the checkout (${checkout}): a pull request can commit entries there, and an entry is believed; give it a folder outside the checkout (in CI, under $RUNNER_TEMP; on a machine of your own, ~/.cache/receipt-gate)`;
  return null;
}

function statOrNull(file: string): Stats | null {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

/** Why a file the entry will write is an input it reads (a red team: the report written over an audit export), or null. */
function outputOverInput(writes: Settings['writes'], found: Found): string | null {
  if (writes.length === 0) return null;
  // Each output as given and resolved; each input by its path as found (one resolution per input would cost: see cacheClash).
  const outputs = new Map(writes.flatMap(([flag, file]) => [[path.resolve(file), flag] as const, [canonical(file), flag] as const]));
  // An output already there is the same file as an input when they are one inode (a link, a hard link, another case of the name).
  const there = new Map(
    writes.flatMap(([flag, file]) => {
      const st = statOrNull(file);
      return st ? [[`${st.dev}:${st.ino}`, flag] as const] : [];
    }),
  );
  for (const { d } of found)
    for (const f of [...d.files, ...d.attestations]) {
      let flag = outputs.get(path.resolve(f.path));
      if (flag === undefined && there.size > 0) {
        const st = statOrNull(f.path);
        flag = st ? there.get(`${st.dev}:${st.ino}`) : undefined;
      }
      if (flag !== undefined) return `${flag}: names the input ${f.rel}; a command never writes over what it reads (write to another file)`;
    }
  return null;
}

/**
 * Every input file to read, in the order read; a file a verification snapshot names is given with the
 * key it names it by (`kept`), one this run has hashed already with the key it had (`hashed`).
 */
const tasksOf = (found: Found, kept: ReadonlyMap<string, KeptFile> | null, hashed: ReadonlyMap<string, string> | null = null): ReadTask[] =>
  found.flatMap(({ role, d }) =>
    d.files.map((file): ReadTask => {
      const k = kept?.get(file.rel)?.key;
      const h = hashed?.get(file.rel);
      return { file, role, ...(k === undefined ? {} : { kept: k }), ...(h === undefined ? {} : { hashed: h }) };
    }),
  );

/**
 * The key each file had in a collection, by path, for a second one (a merge declined): taken from the
 * entries stored under them, a file is hashed once a run. A path read under two roles has none, whether
 * or not either reading had a key (a red team: a bundle read as an audit export fails with no key, and
 * its run's key, given to both tasks, made the export's reading the run's entry, a pass where a full run fails).
 */
function keysOf(first: Collected): ReadonlyMap<string, string> {
  const keys = new Map<string, string>();
  const seen = new Set<string>();
  for (const f of first.files) {
    if (seen.has(f.rel)) keys.delete(f.rel);
    else if (f.key !== null) keys.set(f.rel, f.key);
    seen.add(f.rel);
  }
  return keys;
}

/**
 * @param kept the files a verification snapshot names (gate/incremental.ts): each one whose key is the
 * one named there is kept, its facts and findings the snapshot's, its evidence never decoded
 */
async function collect(
  settings: Settings,
  _setup: ReadSetup,
  roots: readonly string[],
  readersFor: TakeTasks,
  found: Found,
  kept: ReadonlyMap<string, KeptFile> | null,
  hashed: ReadonlyMap<string, string> | null,
): Promise<Collected> {
  const findings: Finding[] = [];
  const inputs = new Map<string, string>();
  const runs: RunInput[] = [];
  const records: RecordInput[] = [];
  const statements: StatementInput[] = [];
  const cwd = path.resolve(settings.cwd);
  const attestations = new Map<string, FoundFile>();
  const readers = readersFor(tasksOf(found, kept, hashed));
  let next = 0;
  const strays = { runs: 0, audit: 0 };
  const strayFiles: { readonly rel: string; readonly role: 'runs' | 'audit'; readonly n: number }[] = [];
  const rejected = new Map<string, string>();
  const notes: [string, CacheNote][] = [];
  const files: FileRead[] = [];
  let keptFiles = 0;
  let decisions = 0;
  let entries = 0;
  try {
    for (const { role, d } of found) {
      for (const f of d.findings) findings.push(f);
      for (const a of d.attestations) attestations.set(a.rel, a);
      const near = settings.explicit[role] ? null : nearFolder(cwd, settings[role], role);
      if (near) findings.push(near);
      if (role === 'runs' && d.files.length === 0) {
        findings.push(
          inputFinding(
            'no_artifacts',
            `runs: ${settings.runs.join(', ') || '(none)'}`,
            `the run-artifact inputs (${settings.runs.join(', ')}) matched no ${EXTENSION_LIST} file: a gate that sees nothing must not pass${noRunsHint(cwd)}`,
          ),
        );
      }
      for (const file of d.files) {
        const { value: evidence, cache } = await readers.read(next++);
        if (cache) notes.push([file.rel, cache]);
        let facts: FileFacts;
        let made: readonly Finding[];
        if (evidence === null) {
          const k = kept?.get(file.rel);
          // Only a file whose task names the key it has now comes back kept (gate/evidence.ts).
          if (k === undefined) throw new Error(`${file.rel} came back kept, and no snapshot names it`);
          keptFiles++;
          facts = k.facts;
          made = k.findings;
        } else {
          facts = factsOf(evidence);
          made = evidence.findings;
          for (const [rel, sha256] of evidence.digests) inputs.set(rel, sha256);
          if (evidence.run) {
            runs.push(evidence.run);
            prepareRun(evidence.run);
          }
          for (const r of evidence.records) records.push(r);
          for (const s of evidence.statements) statements.push(s);
        }
        files.push({ rel: file.rel, key: cache?.key ?? null, findings: made, facts });
        for (const f of made) findings.push(f);
        decisions += facts.decisions;
        entries += facts.entries;
        strays[role] += facts.strays;
        if (facts.strays) strayFiles.push({ rel: file.rel, role, n: facts.strays });
        for (const c of facts.rejected) if (!rejected.has(c)) rejected.set(c, file.rel);
      }
    }
  } finally {
    await readers.close();
  }
  const runFiles = found.find((f) => f.role === 'runs')?.d.files.length ?? 0;
  // Only when nothing else already failed: a run that did not parse is the root cause, named once.
  if (runFiles > 0 && decisions === 0 && !findings.some((f) => f.severity === 'error'))
    findings.push(noDecisions(settings, runFiles, strays, findings.find((f) => f.code === 'run_not_started') ?? null));
  // The other role's objects in a file no input of that role names are never read: an error, not a
  // notice (a red team: a failing run among the audit exports, a tampered record among the runs, passed).
  const readAs = new Map(found.map(({ role, d }) => [role, new Set(d.files.map((f) => f.rel))]));
  for (const { rel, role, n } of strayFiles) {
    const other = role === 'runs' ? 'audit' : 'runs';
    if (readAs.get(other)?.has(rel)) continue;
    const what = role === 'runs' ? 'audit record(s) or coverage statement(s)' : 'run object(s) (decision surfaces or server tracing lines)';
    findings.push(
      finding(
        'invalid_artifact',
        { file: rel, line: 1, column: 1 },
        `holds ${n} ${what}, which the ${role} inputs do not read, and no ${other} input names this file: they are not judged; give the file to the ${other} inputs, or move it out`,
      ),
    );
  }
  // Audit inputs that read run objects and not one record or statement (pointed at the runs folder): no
  // export was read, and a gate that read none must not pass quietly (a red team: a notice, and a pass).
  const auditFiles = found.find((f) => f.role === 'audit')?.d.files.length ?? 0;
  if (auditFiles > 0 && strays.audit > 0 && entries === 0)
    findings.push(
      inputFinding(
        'no_match',
        `audit: ${settings.audit.join(', ')}`,
        `the audit inputs (${settings.audit.join(', ')}) hold ${strays.audit} run object(s) and not one audit record or coverage statement: no audit export was read; are runs and audit swapped?`,
        'error',
      ),
    );
  // The attestation files the readers open: each file's <file>.sigstore.json, a run bundle's <bundle>.intoto.jsonl.
  const opened = new Set(
    found.flatMap(({ role, d }) =>
      d.files.flatMap((f) =>
        role === 'runs' && formatOf(f.rel) === 'bundle' ? [sigstoreOf(f.path), sidecarOf(f.path)] : [sigstoreOf(f.path)],
      ),
    ),
  );
  for (const f of attestationsNotRead(attestations.values(), opened)) findings.push(f);
  for (const f of settings.policyReview?.findings ?? []) findings.push(f);
  const stale = staleShippedRoot(settings);
  if (stale) findings.push(stale);
  const identities = settings.keyless ? identityTrust(settings.keyless, roots) : null;
  const keys = settings.trustedKeys;
  const producers = settings.trustedProducers;
  const read = new Set(files.flatMap((f) => f.findings));
  return {
    files,
    own: findings.filter((f) => !read.has(f)),
    runs,
    records,
    statements,
    findings,
    trustedSigners: keys ? [...keys.keys()].sort() : [],
    trustedProducers: producers ? [...producers.keys()].sort() : [],
    ...(identities ? { identities } : {}),
    inputs,
    fileSha256: inputs,
    rejected,
    classes: classesOf(files.map((f) => f.facts)),
    kept: keptFiles,
    notes,
  };
}

/**
 * Run inputs that hold files but not one decision (a capture that went wrong, an empty file, the
 * inputs swapped): a gate that read no call must not pass. When the files hold the other role's
 * objects, it says the inputs look swapped.
 */
function noDecisions(
  settings: Settings,
  files: number,
  strays: { readonly runs: number; readonly audit: number },
  notStarted: Finding | null,
): Finding {
  const given = settings.runs.join(', ');
  if (notStarted !== null)
    return inputFinding(
      'no_artifacts',
      `runs: ${given || '(none)'}`,
      `the agent's server failed to start (${notStarted.file ?? 'a run'}:${notStarted.line ?? 1}: ${notStarted.message}): the run inputs (${given}) hold ${files} file(s) and not one decision, and a gate that read no call must not pass`,
    );
  const swapped =
    strays.runs > 0 || strays.audit > 0
      ? `; the run inputs hold ${strays.runs} audit record(s) or coverage statement(s) and the audit inputs hold ${strays.audit} run object(s): are runs and audit swapped?`
      : "; an empty or truncated capture (check how the run was written: stderr redirected to the file from the server's start?)";
  return inputFinding(
    'no_artifacts',
    `runs: ${given || '(none)'}`,
    `the run inputs (${given}) hold ${files} file(s) and not one decision: a gate that read no call must not pass${swapped}`,
  );
}

/**
 * `trusted_root_stale`: keyless trust rests on the root shipped with receipt-gate, taken more than
 * 180 days before the decision time. Sigstore rotates keys and adds logs; a root that old may refuse
 * good bundles (chain_untrusted, log_unknown), which must read as a root to refresh, not a forgery.
 */
function staleShippedRoot(settings: Settings): Finding | null {
  if (!settings.keyless || settings.keyless.trustedRoot !== null) return null;
  const taken = Date.parse(SHIPPED_ROOT_TAKEN);
  const days = Math.floor((settings.now.seconds * 1000 - taken) / 86_400_000);
  if (!(days > SHIPPED_ROOT_MAX_AGE_DAYS)) return null;
  return inputFinding(
    'trusted_root_stale',
    'trusted-root: (the public-good root shipped with receipt-gate)',
    `the Sigstore trusted root shipped with receipt-gate was taken on ${SHIPPED_ROOT_TAKEN.slice(0, 10)}, ${days} days ago (more than ${SHIPPED_ROOT_MAX_AGE_DAYS}): update receipt-gate or pass a fresh trusted-root (gh attestation trusted-root > .github/sigstore/trusted_root.jsonl)`,
  );
}

/**
 * Attestations the gate finds and does not read: `orphan_attestation` for one with no artifact beside
 * it; `invalid_artifact` for a DSSE envelope beside a file that is not an evidence bundle (only a
 * bundle's is read: garbage there, or a run renamed so, passed in silence; a red team).
 */
function attestationsNotRead(attestations: Iterable<FoundFile>, opened: ReadonlySet<string>): Finding[] {
  const out: Finding[] = [];
  for (const a of attestations) {
    if (opened.has(a.path) || sameFileAsOne(a.path, opened)) continue;
    const artifact = attestedBy(a.path) ?? a.path;
    // Not read beside an artifact: one that holds evidence is that evidence renamed (a red team: a failing
    // run as ok.json.SIGSTORE.JSON, or beside a folder or a file the gate does not read, passed in silence).
    const held = evidenceHeldBy(a.path, artifact);
    if (held) {
      out.push(
        finding(
          'invalid_artifact',
          { file: a.rel, line: held.line, column: 1 },
          `named like an attestation, but not read as one (only <file>.sigstore.json and <bundle>.intoto.jsonl beside a file the gate reads, in lower case), and it holds ${held.why}: this evidence is not read; give it its own name, or move it out of the input`,
        ),
      );
      continue;
    }
    // An attestation of an attestation attests nothing the gate reads: an attestation is never an artifact.
    if (attestedBy(artifact) !== null)
      out.push(
        finding(
          'orphan_attestation',
          { file: a.rel, line: 1, column: 1 },
          `an attestation of an attestation (${path.basename(artifact)} is itself an attestation): attestations are never artifacts, so this one attests nothing the gate reads`,
        ),
      );
    else if (!existsSync(artifact))
      out.push(
        finding(
          'orphan_attestation',
          { file: a.rel, line: 1, column: 1 },
          `no ${path.basename(artifact)} beside this attestation: a renamed or removed artifact must not lose its attestation silently`,
        ),
      );
    else if (/\.intoto\.jsonl$/i.test(a.path) && formatOf(artifact) !== 'bundle')
      out.push(
        finding(
          'invalid_artifact',
          { file: a.rel, line: 1, column: 1 },
          `a DSSE envelope beside ${path.basename(artifact)}, which is not an evidence bundle: receipt-gate reads .intoto.jsonl beside .tar.gz bundles only (a run or an export is attested by a Sigstore bundle, ${path.basename(artifact)}.sigstore.json); it is not read`,
        ),
      );
    else if (!(isFile(artifact) && (a.path === sigstoreOf(artifact) || a.path === sidecarOf(artifact))))
      // A Sigstore bundle of a file the gate does not read (a signed checksum list) attests it, not evidence: quiet.
      out.push(
        finding(
          'orphan_attestation',
          { file: a.rel, line: 1, column: 1 },
          `not read: an attestation is read as ${path.basename(artifact)}.sigstore.json (or a bundle's .intoto.jsonl), in lower case, beside a file the gate reads, and ${path.basename(artifact)} is none (a folder, another case, a file of neither role): it attests nothing`,
        ),
      );
  }
  return out;
}

/** Whether a file is one of `paths` under another case of its name (a filesystem that ignores case opens it so). */
function sameFileAsOne(file: string, paths: ReadonlySet<string>): boolean {
  const lower = file.toLowerCase();
  for (const p of paths) {
    if (p.toLowerCase() !== lower) continue;
    try {
      const [x, y] = [statSync(p), statSync(file)];
      if (x.ino === y.ino && x.dev === y.dev) return true;
    } catch {
      // Not there under that name: not the same file.
    }
  }
  return false;
}

/** The identity trust in effect, sorted, for the report's policy, with the sha256 of each trusted root in force. */
function identityTrust(k: NonNullable<Settings['keyless']>, roots: readonly string[]): IdentityTrust | null {
  const any = k.signers ?? k.producers;
  if (!any) return null;
  return {
    signers: [...(k.signers?.identities ?? [])].sort(cmp),
    producers: [...(k.producers?.identities ?? [])].sort(cmp),
    sourceRepository: any.sourceRepository,
    sourceRefs: [...any.sourceRefs].sort(cmp),
    issuer: any.issuer,
    roots,
  };
}

/** What the core needs of the settings (nothing about files). */
const optionsOf = (s: Settings): VerifyOptions => ({
  allowUnmatchedRecords: s.allowUnmatchedRecords,
  strictObserved: s.strictObserved,
  policy: s.policy,
  now: s.now,
  trustMode: s.trustMode,
});

/** What the gate gives: the report, and the digest of every input it rests on when asked (a verdict attestation lists them). */
export interface Gated {
  readonly report: Report;
  readonly inputs: ReadonlyMap<string, string>;
  /** What the evidence cache did, when there is one. */
  readonly cache: CacheTally | null;
  /** A merged report's kept lists (gate/incremental.ts): written before the report's own (a JSON report only). */
  readonly kept: KeptLists | null;
  /** What incremental verification did, when asked for (a line for the log). */
  readonly incremental: string | null;
}

/**
 * What every reading thread is told: the limits, whether to hash, and the trust configured. With
 * identities, the trusted roots are read once here and loaded, so a root that cannot be used is a
 * usage problem before anything is read.
 */
async function readSetup(
  settings: Settings,
  digests: boolean,
): Promise<Result<{ readonly setup: ReadSetup; readonly roots: readonly string[] }, UsageProblem>> {
  let identities: IdentitySetup | null = null;
  let roots: readonly string[] = [];
  const k = settings.keyless;
  if (k) {
    const root = k.trustedRoot && { name: k.trustedRoot.name, text: k.trustedRoot.text };
    const loaded = await rootsOf(root, settings.limits);
    // A root the policy file names is its mistake, located at the entry (docs/policy.md §9); a flag's or an input's is the file's.
    const at = k.trustedRoot?.at;
    if (!loaded.ok)
      return {
        ok: false,
        reason: at ? { code: 'policy', message: new PolicyMistake(at, loaded.reason).message } : { code: 'file', message: loaded.reason },
      };
    identities = { signers: k.signers, producers: k.producers, roots: root };
    roots = loaded.value.map((root) => root.sha256);
  }
  // Grandfathered runs are pinned by their bytes: every run is hashed then.
  const hash = digests || settings.policy.grandfathered.length > 0;
  const judged = {
    limits: settings.limits,
    digest: hash,
    trust: { recordKeys: keyMaterial(settings.trustedKeys), producerKeys: keyMaterial(settings.trustedProducers), identities },
  };
  // Every member of the set-up but where the workspace is, the cache itself and where signatures are checked (none changes a file's evidence) is in the cache's keys.
  // A trusted root is keyed by its text: its name (the file, and the commit it was read at: a pull request's base) is only in the
  // words of a root that cannot be used, which stops the gate before any file is read (above), so it is never in a file's evidence.
  const keyed = identities?.roots
    ? { ...judged, trust: { ...judged.trust, identities: { ...identities, roots: { text: identities.roots.text } } } }
    : judged;
  const c = settings.cache;
  const cache = c ? { dir: c.dir, read: c.read, setupKey: setupKey(c.build, keyed) } : null;
  // Where signatures are checked is set for the threads that read (gate/readers.ts, `setupForThreads`); the pool until then.
  return { ok: true, value: { roots, setup: { ...judged, workspace: path.resolve(settings.workspace), cache, signatures: 'pool' } } };
}

/**
 * settings → read (+ sidecars, trust) → verify. A rule naming a class or verb that neither the gate
 * nor the input knows is a usage problem (semantics §7): it is known only once the input is read.
 * @param digests hash every input read (for a verdict attestation)
 */
export async function runGate(settings: Settings, digests = false, open: OpenReaders = startReaders): Promise<Result<Gated, UsageProblem>> {
  const prepared = await readSetup(settings, digests);
  if (!prepared.ok) return prepared;
  const found = discoverAll(settings);
  const clash = settings.cache ? cacheClash(settings, found, settings.cache.dir) : null;
  if (clash !== null) return { ok: false, reason: { code: 'path', input: 'cache', message: clash } };
  const over = outputOverInput(settings.writes, found);
  if (over !== null) return { ok: false, reason: { code: 'conflict', message: over } };
  const { setup, roots } = prepared.value;
  const options = optionsOf(settings);
  // A JSON report to a file, with the cache read, and no policy change to weigh: merged onto the cache's snapshot when it can be,
  // which is opened first: the files it names, unchanged, are kept (never decoded); with every file hashed (a run pinned by a
  // grandfathered entry), none is. Evidence with files kept goes to the merge alone, which collects every file when it declines.
  const merging = settings.cache?.incremental && setup.cache?.read && !settings.policyReview ? setup.cache : null;
  // The reading threads start first, and load while the snapshot is read (the tasks take its keys when they come).
  const start = async (): Promise<TakeTasks> => open(tasksOf(found, null), setup, settings.jobs);
  const started = await start();
  const snapshot = merging ? await openKept(merging, options) : null;
  const collectWith = (
    kept: ReadonlyMap<string, KeptFile> | null,
    readersFor: TakeTasks,
    hashed: ReadonlyMap<string, string> | null = null,
  ): Promise<Collected> => collect(settings, setup, roots, readersFor, found, kept, hashed);
  const evidence = await collectWith(setup.digest ? null : keptBy(snapshot), started);
  const seen = evidence.classes;
  // A policy whose rules name what nothing has.
  const names = checkRuleNames(settings.policy, seen, evidence.rejected);
  if (!names.ok) {
    // A rule of the policy file is located in it (at the misspelt class or verb); a rule of the require input is named by it.
    const inFile = names.reason.flatMap((p) => (p.rule.at !== null && p.at !== null ? [`${placeOf(p.at, true)}: ${p.message}`] : []));
    if (inFile.length > 0) return { ok: false, reason: { code: 'policy', message: inFile.join('\n') } };
    return { ok: false, reason: { code: 'value', message: names.reason.map((p) => p.message).join('; '), input: 'require' } };
  }
  // The pull request's own policy names classes and verbs as strictly (docs/policy.md §1): a misspelt
  // class would pass here under the base's and, once merged, stop every pull request, its repair too.
  const reviewed = settings.policyReview?.head ?? null;
  const headNames = reviewed ? checkRuleNames(reviewed, seen, evidence.rejected) : null;
  const headInvalid =
    headNames && !headNames.ok
      ? headNames.reason.map((p) =>
          finding(
            'policy_invalid',
            p.at ?? { file: reviewed?.source?.path ?? '', line: 1, column: 1 },
            `${p.message} (this pull request's policy; it must be valid to merge)`,
          ),
        )
      : [];
  // The trusted root the pull request leaves the trust: section naming must load as the base's did (loaded here, with the Sigstore code).
  const headRoot = settings.policyReview?.headRoot ?? null;
  const rootLoads = headRoot ? await rootsOf({ name: headRoot.name, text: headRoot.text }, settings.limits) : null;
  const rootInvalid =
    headRoot && rootLoads && !rootLoads.ok
      ? finding('policy_invalid', headRoot.at, `${rootLoads.reason} (this pull request's policy; it must be valid to merge)`)
      : null;
  const added: Finding[] = [];
  added.push(...headInvalid);
  if (rootInvalid) added.push(rootInvalid);
  const checked = added.length > 0 ? { ...evidence, findings: [...evidence.findings, ...added] } : evidence;
  // No finding is added without a policy review, which takes no snapshot: the merge's evidence is the collected.
  // A merge that declines collects every file again, none kept, each from the entry of the key this collection gave it.
  const incremental = snapshot
    ? await verifyIncremental(evidence, options, snapshot, async (keep, inline) =>
        // A few files read again (the rest kept by the keys just hashed): on this thread, no reading threads started for them.
        collectWith(keep, await (inline ? open(tasksOf(found, null), setup, 1) : start()), keysOf(evidence)),
      )
    : null;
  const report = incremental ? incremental.report : verify(checked, options);
  // The evidence the report rests on: with files kept and the merge declined, every file collected again.
  const used = incremental?.used ?? evidence;
  const head = headInvalid.length > 0 ? null : settings.policyReview?.head;
  // With break-glass entries applied now, the change is measured from the base's own policy (docs/policy.md §10, §11).
  const before = settings.policyReview?.before;
  const from = head && before ? verify(checked, { ...optionsOf(settings), policy: before }) : report;
  return {
    ok: true,
    value: {
      report: head
        ? withEffect(
            report,
            from,
            verify(checked, { ...optionsOf(settings), policy: head }),
            trustChanged(settings.policy.trust, head.trust),
          )
        : report,
      inputs: used.inputs,
      cache: settings.cache ? tally(notesOver(evidence, used)) : null,
      kept: incremental?.kept ?? null,
      incremental: incremental?.said ?? null,
    },
  };
}

/**
 * A report with a pull request's policy change and its effect: the calls whose verdict the head's
 * policy would change from the base's own (`from`: the report itself, or with break-glass entries
 * applied now, the same evidence under the base's policy without them), named in its policy_changed finding.
 */
function withEffect(report: Report, from: Report, underHead: Report, trustMoves: boolean): Report {
  const list = changes(from, underHead);
  // Break-glass entries applied now (the base's policy with them is not the base's own): said, so "the base's policy applies here" is not the whole story.
  const applied = from === report ? '' : '; the exceptions and grandfathered entries it adds apply now to what the base already holds';
  // Its trust: section is read once merged: the effect measured here is its rules' under the base's trust, and says so (a red team: "no change" for a dropped trust: section).
  const under = trustMoves
    ? " under the base's trust (its trust: section changes too, which this corpus is judged under only once merged)"
    : '';
  const effect = `${applied}; its effect on this corpus${under}: ${changesText(list, PULL_CHANGE)}`;
  const source = underHead.policy.source;
  // A loosening (a call that fails under the base passes under the head) is a warning, never a quiet notice (docs/policy.md §11).
  const loose = loosens(list);
  let raised = 0;
  const findings = report.findings.map((f) => {
    if (f.code !== 'policy_changed' || f.file !== source?.path) return f;
    if (loose && f.severity === 'notice') {
      raised++;
      return { ...f, severity: 'warning' as const, message: `${f.message}${effect}; it loosens the policy: a reviewer must approve it` };
    }
    return { ...f, message: `${f.message}${effect}` };
  });
  if (raised > 0) findings.sort(compareFindings);
  return {
    ...report,
    findings,
    totals:
      raised > 0 ? { ...report.totals, notices: report.totals.notices - raised, warnings: report.totals.warnings + raised } : report.totals,
    ...(source ? { policy_change: { path: source.path, sha256: source.sha256, changes: list } } : {}),
  };
}
