/**
 * `receipt-gate import KIND`, run: a provider's audit export (files a user exported: nothing is
 * queried) turned into audit records, written only when the whole import succeeds. Loaded when the
 * command runs (import.ts): no other command loads an importer.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { type Finding, finding } from '../../core/findings.js';
import type { Result } from '../../core/result.js';
import { asciiLower, messageOf } from '../../core/text.js';
import { compareInstants, type Instant, rfc3339, utcAsWritten } from '../../core/time.js';
import { parseChoice } from '../../gate/settings/parsers.js';
import { canonical, distinctOutputs, outputIn } from '../../gate/settings/paths.js';
import { UsageError } from '../../gate/settings/types.js';
import { inside } from '../../read/discover.js';
import { readNamedFile } from '../../read/files.js';
import type { ReadLimits } from '../../read/limits.js';
import { checkDigests, type DigestCheck, vouchLogFile, windowUncovered } from '../../tools/import/cloudtrail-digests.js';
import { importer } from '../../tools/import/kinds.js';
import { IMPORT_KIND_NAMES, type ImportKind, importKind } from '../../tools/import/names.js';
import { type CoverageScope, type ImportSettings, runImport } from '../../tools/import/run.js';
import { ORGANISATION, parseWindowTime, tenantPlace } from '../../tools/import/scope.js';
import { DEFAULT_SLACK, type SlackOptions } from '../../tools/import/slack.js';
import type { ToolInput } from '../../tools/input.js';
import { signedAtNow } from '../../tools/signing.js';
import { FileWriteError, writeAllWhole } from '../../tools/write.js';
import { type CliOutcome, type CommandContext, EXIT, findingLines, say, unwritable, wroteNothing } from '../command.js';
import { readInputs, readSigningKey } from '../files.js';
import type { ImportFlags } from './import-options.js';
import { limitsOf, nowOf, signedAtOf } from './shared.js';

/** --since / --until: the window [since, until). */
function windowOf(flags: ImportFlags): { readonly since: Instant | null; readonly until: Instant | null } {
  const time = (flag: 'since' | 'until'): Instant | null => {
    const value = flags[flag];
    if (value === undefined) return null;
    const result = parseWindowTime(value);
    if (!result.ok) throw new UsageError('value', `--${flag}: ${result.reason}`);
    return result.value;
  };
  const since = time('since');
  const until = time('until');
  if (since !== null && until !== null && compareInstants(until, since) <= 0)
    throw new UsageError('value', '--until must be later than --since (the window is [since, until))');
  return { since, until };
}

/**
 * With both bounds, what the statements name: the actors as given, the repositories (lower-cased for
 * GitHub), the organisation, the window in UTC, and when it was exported. A statement claims
 * completeness, so nothing the importer did not read may become one (docs/coverage.md §6): the
 * window has ended, an actor is named, and a GitHub export names its organisation or repositories.
 */
function coverageScope(
  flags: ImportFlags,
  kind: ImportKind,
  owner: string | null,
  now: Instant,
  until: Instant | null,
): CoverageScope | null {
  if (flags.since === undefined || flags.until === undefined) return null;
  if (!flags.actor || flags.actor.length === 0)
    throw new UsageError(
      'missing',
      "--since/--until need --actor: a coverage statement says which actor the export was complete for (without one it covers nothing, and every actor's entries would become records)",
    );
  const places = importer(kind).places;
  if (places.kind === 'tenant' && owner === null)
    throw new UsageError(
      'missing',
      `--since/--until need --${places.flag} for ${kind}: a statement says which ${places.word} the log was complete for`,
    );
  if (places.kind === 'github' && owner === null && (!flags.repo || flags.repo.length === 0))
    throw new UsageError(
      'missing',
      `--since/--until need --owner ORG or --repo OWNER/NAME for ${kind}: the export came from one organisation or repository, and a statement that names neither covers no call`,
    );
  if (until !== null && compareInstants(until, now) > 0)
    throw new UsageError(
      'value',
      `--until ${flags.until} is after the import's clock (${rfc3339(now)}): the window has not ended; the provider may still log entries in it`,
    );
  const utc = (flag: 'since' | 'until', text: string): string => {
    const written = utcAsWritten(text);
    if (!written.ok) throw new UsageError('value', `--${flag}: ${written.reason}`);
    return written.value;
  };
  const repos = flags.repo && flags.repo.length > 0 ? flags.repo.map(asciiLower) : null;
  return {
    actors: flags.actor ?? [],
    repos,
    owner,
    since: utc('since', flags.since),
    until: utc('until', flags.until),
    exportedAt: rfc3339(now),
  };
}

function slackOptions(flags: ImportFlags): SlackOptions {
  const roleVerbs = new Map(DEFAULT_SLACK.roleVerbs);
  for (const rv of flags['role-verb'] ?? []) {
    const match = /^([a-z_]+)=([a-z_]+)$/.exec(rv.trim());
    if (!match?.[1] || !match[2]) throw new UsageError('value', `--role-verb: "${rv}" is not ROLE=VERB (e.g. admin=grant)`);
    roleVerbs.set(match[1], match[2]);
  }
  return {
    principal: parseChoice('--principal', flags.principal ?? DEFAULT_SLACK.principal, ['id', 'email'] as const),
    workspace: parseChoice('--workspace', flags.workspace ?? DEFAULT_SLACK.workspace, ['context', 'none'] as const),
    roleVerbs,
    memberProvider: flags['member-provider'] ?? DEFAULT_SLACK.memberProvider,
    roleProvider: flags['role-provider'] ?? DEFAULT_SLACK.roleProvider,
  };
}

/** The records predicate (docs/predicates/records-v1.md): the kind, the scope as given (absent members left out), the counts. */
function recordsPredicate(kind: ImportKind, flags: ImportFlags, done: { readonly entries: number; readonly records: number }): string {
  const scope: { [key: string]: unknown } = {};
  if (flags.actor && flags.actor.length > 0) scope['actor'] = flags.actor;
  if (flags.repo && flags.repo.length > 0) scope['repo'] = flags.repo;
  if (flags.owner !== undefined) scope['owner'] = flags.owner;
  for (const flag of ['account', 'cluster', 'org'] as const) if (flags[flag] !== undefined) scope[flag] = flags[flag];
  if (flags.since !== undefined) scope['since'] = flags.since;
  if (flags.until !== undefined) scope['until'] = flags.until;
  return `${JSON.stringify({ kind, scope, entries_read: done.entries, records_written: done.records }, null, 2)}\n`;
}

/**
 * --cloudtrail-digests DIR and --cloudtrail-public-keys FILE (aws-cloudtrail only, both or neither):
 * every digest in DIR with its `.sig`, checked against the keys; null when not asked. A digest that
 * does not verify is a located refusal (nothing is imported).
 */
function cloudTrailDigests(
  flags: ImportFlags,
  kind: ImportKind,
  cwd: string,
  limits: ReadLimits,
): Result<DigestCheck, readonly Finding[]> | null {
  const dir = flags['cloudtrail-digests'];
  const keysFile = flags['cloudtrail-public-keys'];
  if (dir === undefined && keysFile === undefined) return null;
  if (kind !== 'aws-cloudtrail')
    throw new UsageError('value', `--cloudtrail-digests and --cloudtrail-public-keys are for aws-cloudtrail, not ${kind}`);
  if (dir === undefined || keysFile === undefined)
    throw new UsageError(
      'missing',
      '--cloudtrail-digests DIR and --cloudtrail-public-keys FILE go together: the digests, and the keys AWS signed them with',
    );
  const root = path.resolve(cwd, dir);
  let names: string[];
  try {
    names = readdirSync(root)
      .filter((n) => /\.json(?:\.gz)?$/.test(n))
      .sort();
  } catch (error) {
    throw new UsageError('file', `--cloudtrail-digests ${dir}: ${messageOf(error)}`);
  }
  if (names.length === 0) throw new UsageError('file', `--cloudtrail-digests ${dir}: no digest file (*.json.gz) in it`);
  const [keys] = readInputs([path.resolve(cwd, keysFile)], limits);
  const problems: Finding[] = [];
  const given: { digest: ToolInput; signature: string }[] = [];
  for (const n of names) {
    const [digest] = readInputs([path.join(root, n)], limits);
    const sig = readNamedFile(path.join(root, `${n}.sig`), limits);
    if (!digest) continue;
    if (!sig.ok)
      problems.push(
        finding(
          'invalid_artifact',
          { file: digest.name, line: 1, column: 1 },
          `this CloudTrail digest has no ${n}.sig beside it (the x-amz-meta-signature of its S3 object): ${sig.reason}`,
        ),
      );
    else given.push({ digest, signature: sig.value.toString('utf8') });
  }
  if (!keys) return null;
  const checked = checkDigests(given, keys, limits.maxFileBytes, flags.account ?? null);
  if (!checked.ok) throw new UsageError('file', `--cloudtrail-public-keys ${checked.reason}`);
  for (const r of checked.value.refused) problems.push(finding('invalid_artifact', { file: r.file, line: 1, column: 1 }, r.message));
  return problems.length > 0 ? { ok: false, reason: problems } : { ok: true, value: checked.value };
}

/** The command's run, its flags parsed (import.ts): the import, and what it wrote or why nothing. */
export async function importCommand(ctx: CommandContext, f: ImportFlags, rest: readonly string[]): Promise<CliOutcome> {
  const [kindName, ...files] = rest;
  const kind = kindName === undefined ? null : importKind(kindName);
  if (!kind) throw new UsageError('value', `import: the export kind comes first: ${IMPORT_KIND_NAMES.join(', ')}`);
  if (!f.output) throw new UsageError('missing', 'import: --output FILE is required');
  if (files.length === 0) throw new UsageError('missing', 'import: at least one INPUT export file is required');
  const output = outputIn(ctx.cwd, ctx.cwd, f.output, '--output');
  const predicate = f.predicate === undefined ? null : outputIn(ctx.cwd, ctx.cwd, f.predicate, '--predicate');
  distinctOutputs(
    [
      ['--output', output],
      ['--predicate', predicate],
    ],
    // The exports, and the key and AWS public keys read beside them (a red team: --output k.key.pem replaced the key).
    [...files, f['sign-key'], f['cloudtrail-public-keys']].flatMap((x) => (x === undefined ? [] : [path.resolve(ctx.cwd, x)])),
  );
  const digestDir = f['cloudtrail-digests'];
  if (digestDir !== undefined)
    for (const [flag, file] of [
      ['--output', output],
      ['--predicate', predicate],
    ] as const)
      if (file !== null && inside(canonical(path.resolve(ctx.cwd, digestDir)), canonical(file)))
        throw new UsageError(
          'conflict',
          `${flag}: lies in --cloudtrail-digests ${digestDir}; a command never writes among what it reads (write to another file)`,
        );
  const slack = slackOptions(f);
  const { since, until } = windowOf(f);
  const repos = f.repo;
  const places = importer(kind).places;
  if (repos && places.kind !== 'github')
    throw new UsageError('value', `--repo: ${places.kind === 'none' ? places.noRepo : `${kind} entries name no repository`}`);
  if (f.owner !== undefined && places.kind !== 'github')
    throw new UsageError('value', `--owner: ${places.kind === 'none' ? places.noOwner : `${kind}'s scope is --${places.flag}`}`);
  // The tenant flags: each for the kinds whose log is of that kind of tenant.
  for (const flag of ['account', 'cluster', 'org'] as const)
    if (f[flag] !== undefined && (places.kind !== 'tenant' || places.flag !== flag))
      throw new UsageError('value', `--${flag} is for the import kind whose log is one ${flag}'s, not ${kind}`);
  const tenant = places.kind === 'tenant' ? (f[places.flag] ?? null) : null;
  if (places.kind === 'tenant' && places.always && tenant === null)
    throw new UsageError(
      'missing',
      `import ${kind}: --${places.flag} NAME is required: the entries do not name the ${places.word}, and the agent's mapping must write the same value`,
    );
  if (tenant !== null && (tenant.trim() === '' || /[\s/]/.test(tenant)))
    throw new UsageError('value', `--${places.kind === 'tenant' ? places.flag : 'owner'}: "${tenant}" is not a name`);
  const owner = tenant ?? f.owner ?? null;
  if (f.owner !== undefined && !/^[^/\s]+$/.test(f.owner))
    throw new UsageError('value', `--owner: "${f.owner}" is not an organisation name (OWNER, without a /)`);
  for (const r of repos ?? []) if (!/^[^/\s]+\/[^/\s]+$/.test(r)) throw new UsageError('value', `--repo: "${r}" is not OWNER/NAME`);
  const actors = f.actor;
  const limits = limitsOf(f);
  const signedAt = signedAtOf(f['signed-at']);
  const tool = `import ${kind}`;
  const sign: ImportSettings['sign'] = f['sign-key']
    ? { key: readSigningKey('--sign-key', path.resolve(ctx.cwd, f['sign-key'])), signedAt: signedAt ?? signedAtNow(ctx.now) }
    : null;
  const inputs = readInputs(
    files.map((x) => path.resolve(ctx.cwd, x)),
    limits,
  );
  const scope = {
    actors: actors ? new Set(places.kind === 'github' ? actors.map(asciiLower) : actors) : null,
    caseless: places.kind === 'github',
    repos: repos ? new Set(repos.map(asciiLower)) : null,
    owner: owner === null ? null : asciiLower(owner),
    place: places.kind === 'tenant' ? tenantPlace(places.word, places.flag) : ORGANISATION,
    since,
    until,
  };
  const coverage = coverageScope(f, kind, owner, nowOf(f.now, ctx.now), until);
  const digests = cloudTrailDigests(f, kind, ctx.cwd, limits);
  if (digests && !digests.ok) return wroteNothing(tool, EXIT.problem, findingLines(tool, digests.reason));
  const check = digests?.value ?? null;
  const read = new Set<string>();
  const vouch = check
    ? (input: ToolInput) => {
        const got = vouchLogFile(check, input, limits.maxFileBytes);
        if (got.ok) read.add(got.value.sha256);
        return got;
      }
    : null;
  const result = runImport({ kind, inputs, limits, options: { slack, tenant }, sign, scope, coverage, vouch });
  // A statement of what was covered, with digests: only when they vouch for the whole window (docs/coverage.md §6).
  const uncovered = check && coverage && since && until ? windowUncovered(check, since, until, read) : [];
  if (uncovered.length > 0)
    return wroteNothing(
      tool,
      EXIT.problem,
      say(tool, `the CloudTrail digests do not vouch for the window --since/--until claims: ${uncovered.join('; ')}`),
    );
  const chain = check ? `; ${check.digests} AWS-signed digest(s) checked${check.gaps.map((g) => `; ${g}`).join('')}` : '';
  if (!result.ok)
    return wroteNothing(
      tool,
      EXIT.problem,
      `${findingLines(tool, result.reason.findings)}${say(tool, `${result.reason.summary}${chain}`)}`,
    );
  const done = result.value;
  // An --actor, --repo or --owner a letter off drops every entry, night after night, as if each were quiet: a typo is a usage error.
  if (done.scope?.typo) throw new UsageError('value', `${done.scope.text}; nothing was written`);
  const scopeNote = done.scope ? `; ${done.scope.text}` : '';
  // A quiet night without a window: nothing to write, and no empty file for a job to commit. With
  // one, the statement alone is written: for that window and scope the provider logged nothing.
  if (done.records === 0 && done.statements === 0)
    return {
      code: EXIT.pass,
      stdout: '',
      stderr: say(
        tool,
        `${done.summary}${scopeNote}; no records, so ${output} was not written (give --since and --until to record what was covered)`,
      ),
    };
  try {
    // The records and their predicate together: both whole, or neither (a failed import writes nothing).
    writeAllWhole([...(predicate ? [[predicate, recordsPredicate(kind, f, done)] as const] : []), [output, done.ndjson] as const]);
  } catch (error) {
    // The file it failed at, named by its flag.
    if (error instanceof FileWriteError && error.file === predicate) return unwritable(tool, '--predicate', predicate, error.reason);
    return unwritable(tool, 'the output', output, error instanceof FileWriteError ? error.reason : error);
  }
  const also = predicate ? ` (predicate → ${predicate})` : '';
  const covered = coverage ? `, ${done.statements} coverage statement(s) for [${coverage.since}, ${coverage.until})` : '';
  return {
    code: EXIT.pass,
    stdout: '',
    stderr: say(tool, `${done.summary}${covered}${scopeNote}${sign ? ', signed' : ''}${chain} → ${output}${also}`),
  };
}
