/**
 * `receipt-gate policy check` and `receipt-gate policy baseline` (docs/policy.md §5, §6): validate a
 * policy file and show its effect on the committed corpus (with `--against`, the calls whose verdict
 * changes between two policies); or write a `grandfathered` entry for every run that falls short of
 * it, whole or not at all, keeping the file's comments and order. The corpus is read once, with the
 * same options as `verify`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type Document, isMap, isNode, isPair, isScalar, isSeq, parseDocument, stringify } from 'yaml';
import { changes, changesText, ruleEffects } from '../../core/effect.js';
import type { Report } from '../../core/report.js';
import type { Result } from '../../core/result.js';
import { runGate } from '../../gate/gate.js';
import { readAtCommit, resolveUserRef } from '../../gate/repository.js';
import { buildSettings } from '../../gate/settings/build.js';
import { directoryIn, outputIn } from '../../gate/settings/paths.js';
import { type Settings, UsageError } from '../../gate/settings/types.js';
import { located } from '../../report/text.js';
import { writeWhole } from '../../tools/write.js';
import { type CliOutcome, type Command, type CommandContext, EXIT, say, unwritable } from '../command.js';
import { readTextFile } from '../files.js';
import { type Flags, type OptionSpec, parseFlags, unexpectedArgument } from '../options.js';
import { GATE_OPTIONS, gateInputs, historyAtRef } from './verify.js';

const OPTIONS = [
  ...GATE_OPTIONS,
  {
    flag: 'against',
    kind: 'string',
    arg: 'FILE|REF',
    help: 'check: also judge the corpus under this policy (a file, or the policy file at a git ref) and list the calls whose verdict changes',
  },
  {
    flag: 'reason',
    kind: 'string',
    arg: 'TEXT',
    help: 'baseline: why the runs are grandfathered (required), written into each entry',
  },
] as const satisfies readonly OptionSpec[];

type PolicyFlags = Flags<typeof OPTIONS>;

/**
 * The settings of the `--against` policy: a file of that path, else the policy file as it is at that
 * git ref, with everything it says, its trust: section too (read as that policy reads it: its files
 * at its commit), every other option as given. A red team: judged under this run's trust, dropping
 * `trust:` was "no change".
 */
function againstSettings(flags: PolicyFlags, dir: string, now: Date): Settings {
  const given = flags.against ?? '';
  const file = path.resolve(dir, given);
  const policyPath = path
    .relative(dir, path.resolve(dir, flags.policy ?? '.github/receipt-gate.yml'))
    .split(path.sep)
    .join('/');
  let asked: PolicyFlags;
  if (existsSync(file)) {
    asked = { ...flags, policy: path.relative(dir, file).split(path.sep).join('/'), 'policy-ref': undefined };
  } else {
    const resolved = resolveUserRef(dir, given);
    if (!resolved.ok) throw new UsageError('value', `--against: no such file, and ${resolved.reason}`);
    const commit = resolved.value;
    const got = readAtCommit(dir, commit, path.resolve(dir, policyPath));
    if (!got.ok) throw new UsageError('file', `--against ${given}: ${got.reason}`);
    if (got.value === null) throw new UsageError('path', `--against ${given}: ${policyPath} does not exist at ${commit.slice(0, 12)}`);
    asked = { ...flags, 'policy-ref': commit };
  }
  let settings: Settings;
  try {
    // At a ref, its grandfathered audit files hold to the history there, as verify --policy-ref holds them.
    settings = historyAtRef(buildSettings(gateInputs(asked, dir, now)), dir);
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(error.code, `--against ${given}: ${error.message}`);
    throw error;
  }
  if (settings.policy.kind !== 'file') throw new UsageError('policy', `--against: ${given} holds no policy`);
  return settings;
}

/** The policy's effect, in lines: per rule, then what the file's own entries earn. */
function effectLines(report: Report): string[] {
  const out: string[] = [];
  const source = report.policy.source;
  out.push(
    source
      ? `policy ${source.path}${source.commit ? ` at ${source.commit.slice(0, 12)}` : ''} (sha256 ${source.sha256.slice(0, 16)}…): valid`
      : 'no policy file: the require rules apply (honesty only when none)',
  );
  for (const e of ruleEffects(report))
    out.push(
      `  ${e.rule}: ${e.matched} call(s), ${e.met} met, ${e.unmet} unmet, ${e.warned} warned, ${e.pending} pending, ${e.excepted} excepted`,
    );
  // policy_changed: here only why a grandfathered audit file read at a ref binds no call (the files there could not be compared).
  const own = ['exception_expired', 'exception_expiring', 'exception_unused', 'grandfather_stale', 'rule_unused', 'policy_changed'];
  for (const f of report.findings) if (own.includes(f.code)) out.push(`  ${f.code}: ${located(f)}`);
  if (report.totals.grandfathered > 0) out.push(`  ${report.totals.grandfathered} call(s) grandfathered`);
  return out;
}

async function check(flags: PolicyFlags, ctx: CommandContext, dir: string): Promise<CliOutcome> {
  const settings = historyAtRef(buildSettings(gateInputs(flags, dir, ctx.now)), dir);
  const against = flags.against === undefined ? null : againstSettings(flags, dir, ctx.now);
  const gated = await runGate(settings, false);
  if (!gated.ok) throw new UsageError(gated.reason.code, gated.reason.message);
  const lines = effectLines(gated.value.report);
  if (against) {
    // The corpus judged again, whole, under the other policy and its trust (keys, identities, mode, grandfathered files).
    const other = await runGate(against, false);
    if (!other.ok) throw new UsageError(other.reason.code, `--against ${flags.against}: ${other.reason.message}`);
    // One direction everywhere: from the policy compared against (REF) to this file.
    const list = changes(other.value.report, gated.value.report);
    for (const f of other.value.report.findings) if (f.code === 'policy_changed') lines.push(`  under ${flags.against}: ${located(f)}`);
    lines.push(`against ${flags.against}: ${changesText(list, { before: flags.against ?? 'the other policy', after: 'this file' }, 50)}`);
  }
  return { code: EXIT.pass, stdout: `${lines.join('\n')}\n`, stderr: '' };
}

/**
 * What a baseline grandfathers (docs/policy.md §5, §9): runs that fall short of the policy or fail
 * trust (run_unattested), and audit files whose records fail trust (record_untrusted), each only
 * when it is honest; and the files left out for an honesty failure.
 */
function shortFiles(report: Report): {
  readonly runs: readonly string[];
  readonly audit: readonly string[];
  readonly dishonest: readonly string[];
} {
  const trustOf = (code: string) => new Set(report.findings.filter((f) => f.code === code && f.file !== null).map((f) => f.file ?? ''));
  const short = new Set([...report.calls.filter((c) => c.below_required || c.warned).map((c) => c.artifact), ...trustOf('run_unattested')]);
  const untrusted = trustOf('record_untrusted');
  const policyCodes = new Set([
    'policy_unmet',
    'exception_expired',
    'exception_expiring',
    'exception_unused',
    'grandfather_stale',
    'rule_unused',
    'run_unattested',
    'record_untrusted',
  ]);
  const dishonest = new Set(
    report.findings.filter((f) => f.severity === 'error' && f.file !== null && !policyCodes.has(f.code)).map((f) => f.file),
  );
  const honest = (files: Set<string>) => [...files].filter((r) => !dishonest.has(r)).sort();
  return {
    runs: honest(short),
    audit: honest(untrusted),
    dishonest: [...short, ...untrusted].filter((r) => dishonest.has(r)).sort(),
  };
}

/**
 * The policy file's text with grandfathered entries added, and nothing else changed (docs/policy.md
 * §11): every byte outside the inserted entries stays as it was (line endings, a BOM, flow-list
 * spacing, comments and their alignment). Entries go after the last item of a block list, before
 * the `]` of a flow list, or under a new `grandfathered:` key at the end of the file.
 */
/** A grandfathered entry to write: a run (`run:`) or an audit file (`audit:`), pinned by its bytes. */
interface Entry {
  readonly kind: 'run' | 'audit';
  readonly file: string;
  readonly sha256: string;
}

function withEntries(text: string, doc: Document.Parsed, entries: readonly Entry[], reason: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  // Each value as the YAML library would write it (plain when that reads back the same, else quoted).
  // Never a block scalar: a reason with a line break is written double-quoted, on its line (a red team: `|-` lines at column 0).
  const q = (v: string): string => stringify(v, { lineWidth: 0, blockQuote: false }).trimEnd();
  const block = (indent: string): string =>
    entries
      .map((e) => `${indent}- ${e.kind}: ${q(e.file)}${eol}${indent}  sha256: ${q(e.sha256)}${eol}${indent}  reason: ${q(reason)}${eol}`)
      .join('');
  const flow = entries.map((e) => `{${e.kind}: ${q(e.file)}, sha256: ${q(e.sha256)}, reason: ${q(reason)}}`);
  const lineStart = (offset: number): number => text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = (offset: number): number => {
    const n = text.indexOf('\n', offset);
    return n < 0 ? text.length : n + 1;
  };
  const list = doc.get('grandfathered', true);
  const pair = isMap(doc.contents) ? doc.contents.items.find((p) => isScalar(p.key) && p.key.value === 'grandfathered') : undefined;
  if (isSeq(list) && list.range) {
    if (list.flow) {
      // `[ ]` → `[ {…} ]`: before the closing bracket, the list's own spacing kept.
      if (list.items.length === 0) {
        const close = text.lastIndexOf(']', list.range[1]);
        let at = close;
        while (at > 0 && (text[at - 1] === ' ' || text[at - 1] === '\t')) at--;
        return `${text.slice(0, close)}${flow.join(', ')}${text.slice(at, close)}${text.slice(close)}`;
      }
      // Right after the last item: `[a, b ]` → `[a, b, {…} ]`; a trailing comma, a comment or a `]` on
      // its own line stay after the new entries (a red team: `[a, ]` became `[a,, {…}]`).
      const last = list.items.at(-1);
      const end =
        isNode(last) && last.range ? last.range[1] : isPair(last) && isNode(last.value) && last.value.range ? last.value.range[1] : -1;
      if (end > 0) return `${text.slice(0, end)}, ${flow.join(', ')}${text.slice(end)}`;
    }
    const last = list.items.at(-1);
    const first = list.items[0];
    const firstAt = isNode(first) && first.range ? first.range[0] : list.range[0];
    const indent = /^[ ]*/.exec(text.slice(lineStart(firstAt)))?.[0] ?? '';
    const end = lineEnd(isNode(last) && last.range ? last.range[1] - 1 : list.range[1] - 1);
    const tail = end > 0 && text[end - 1] !== '\n' ? eol : '';
    return `${text.slice(0, end)}${tail}${block(indent)}${text.slice(end)}`;
  }
  if (pair && isScalar(pair.key) && pair.key.range && (pair.value === null || (isScalar(pair.value) && pair.value.value === null))) {
    // `grandfathered:` with nothing under it: the entries go on the lines after the key.
    const end = lineEnd(pair.key.range[0]);
    const tail = text[end - 1] !== '\n' ? eol : '';
    return `${text.slice(0, end)}${tail}${block('  ')}${text.slice(end)}`;
  }
  // At the document's end: before a `...` end marker, never after it (a red team: a second document).
  const marker = /^\.\.\.(?:[ \t]|$)/m.exec(text);
  const head = marker ? text.slice(0, marker.index) : text;
  const tail = head.length > 0 && !head.endsWith('\n') ? eol : '';
  return `${head}${tail}grandfathered:${eol}${block('  ')}${marker ? text.slice(marker.index) : ''}`;
}

/**
 * The new text, when it reads back as the old document with exactly these entries added to
 * `grandfathered` and nothing else changed; else why not (never a file written that the gate then
 * refuses, or that says more than was asked).
 */
function checkedEntries(text: string, doc: Document.Parsed, entries: readonly Entry[], reason: string): Result<string> {
  let written: string;
  try {
    written = withEntries(text, doc, entries, reason);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  const after = parseDocument(written);
  if (after.errors.length > 0) return { ok: false, reason: after.errors[0]?.message.split('\n')[0] ?? 'a YAML error' };
  const wanted: unknown = doc.toJS();
  if (!wanted || typeof wanted !== 'object' || Array.isArray(wanted)) return { ok: false, reason: 'the file is not a mapping' };
  const had: unknown = doc.get('grandfathered');
  const before = isSeq(had) ? (had.toJSON() as unknown[]) : [];
  const added = entries.map((e) =>
    e.kind === 'run' ? { run: e.file, sha256: e.sha256, reason } : { audit: e.file, sha256: e.sha256, reason },
  );
  (wanted as { grandfathered?: unknown })['grandfathered'] = [...before, ...added];
  if (JSON.stringify(after.toJS()) !== JSON.stringify(wanted))
    return { ok: false, reason: 'the entries written would not read back as exactly the entries added' };
  return { ok: true, value: written };
}

async function baseline(flags: PolicyFlags, ctx: CommandContext, dir: string): Promise<CliOutcome> {
  const reason = flags.reason?.trim() ?? '';
  if (reason === '')
    throw new UsageError('missing', 'policy baseline: --reason TEXT is required (why these runs are judged for honesty only)');
  if (flags['policy-ref'] !== undefined)
    throw new UsageError('conflict', 'policy baseline: --policy-ref reads a commit; baseline writes the file on disk');
  const settings = buildSettings(gateInputs(flags, dir, ctx.now));
  const source = settings.policy.source;
  if (settings.policy.kind !== 'file' || !source)
    throw new UsageError('missing', 'policy baseline: no policy file (give --policy FILE, or write .github/receipt-gate.yml first)');
  const gated = await runGate(settings, true);
  if (!gated.ok) throw new UsageError(gated.reason.code, gated.reason.message);
  const { runs, audit, dishonest } = shortFiles(gated.value.report);
  // The policy file is written like any output: never through a link out of the workspace.
  const file = outputIn(dir, dir, source.path, '--policy');
  const text = readTextFile('--policy', file);
  const doc = parseDocument(text, { keepSourceTokens: true });
  const list = doc.get('grandfathered', true);
  const pinned = new Set(
    (isSeq(list) ? list.items : []).flatMap((item) =>
      isMap(item) ? (['run', 'audit'] as const).flatMap((k) => (isScalar(item.get(k, true)) ? [String(item.get(k))] : [])) : [],
    ),
  );
  const entries: Entry[] = [];
  for (const [kind, files] of [
    ['run', runs],
    ['audit', audit],
  ] as const)
    for (const file of files) {
      const sha256 = gated.value.inputs.get(file);
      if (pinned.has(file) || sha256 === undefined) continue;
      entries.push({ kind, file, sha256 });
    }
  const added = entries.length;
  const wanted = runs.length + audit.length;
  const said: string[] = [];
  said.push(`${added} file(s) grandfathered${wanted - added > 0 ? `, ${wanted - added} already were` : ''}`);
  if (dishonest.length > 0)
    said.push(
      `${dishonest.length} run(s) left out: they fail on honesty (fix them, never baseline them): ${dishonest.slice(0, 10).join(', ')}${dishonest.length > 10 ? ' …' : ''}`,
    );
  if (added === 0) return { code: EXIT.pass, stdout: '', stderr: say('policy baseline', ...said, `${source.path} not changed`) };
  const written = checkedEntries(text, doc, entries, reason);
  if (!written.ok)
    throw new UsageError(
      'policy',
      `policy baseline: ${source.path} was not changed: adding the entries in place failed (${written.reason}); add them by hand, or write the grandfathered list in block style`,
    );
  try {
    writeWhole(file, written.value);
  } catch (error) {
    return unwritable('policy baseline', 'the policy file', file, error);
  }
  return {
    code: EXIT.pass,
    stdout: '',
    stderr: say('policy baseline', ...said, `written to ${source.path} (review the diff; it applies once merged)`),
  };
}

export const policy: Command = {
  spec: {
    name: 'policy',
    synopsis: 'check|baseline [--policy FILE] [--against FILE|REF] [--reason TEXT] [options]',
    summary: 'validate the policy file and show its effect on the corpus, or grandfather the runs that fall short of it',
    about:
      'check: every problem of the policy file located (exit 2 when invalid), then per rule the calls matched, met, unmet, warned, pending and excepted, and the exceptions and grandfathered runs that need attention; with --against, the calls whose verdict changes. baseline: a grandfathered entry (path, sha256, --reason) for every run holding a call below its required level, written into the file keeping its comments, never for a run that fails on honesty. Takes the options of verify that select and judge the evidence',
    options: OPTIONS,
  },
  async run(ctx) {
    const { flags, rest, help } = parseFlags(ctx.argv, OPTIONS);
    if (help) return 'help';
    const [sub, ...more] = rest;
    if (more.length > 0) throw new UsageError('value', `policy: ${unexpectedArgument(ctx.argv, more[0] ?? '')}`);
    const dir = directoryIn(null, ctx.cwd, flags['working-directory'] ?? '.', '-C/--working-directory');
    if (sub === 'check') return check(flags, ctx, dir);
    if (sub === 'baseline') return baseline(flags, ctx, dir);
    throw new UsageError('value', `policy: check or baseline${sub === undefined ? ' is required' : `, not "${sub}"`}`);
  },
};
