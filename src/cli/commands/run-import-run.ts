/**
 * `receipt-gate import-run KIND`, run: a producer's own file turned into a run the gate reads,
 * offline, written only when the whole import succeeds and never over a different file
 * (docs/producers.md). Loaded when the command runs (import-run.ts): no other command loads a reader of a producer's file.
 */
import path from 'node:path';
import { sha256Hex } from '../../core/binding.js';
import { distinctOutputs, outputIn } from '../../gate/settings/paths.js';
import { UsageError } from '../../gate/settings/types.js';
import { readMappingFile } from '../../read/mapping-file.js';
import { runImporter } from '../../tools/import-run/kinds.js';
import { RUN_KIND_NAMES, runKind } from '../../tools/import-run/names.js';
import { type PullHeads, readPullHeads } from '../../tools/import-run/pull-heads.js';
import { runImportRun } from '../../tools/import-run/run.js';
import { writeNewOrSame } from '../../tools/write.js';
import { type CliOutcome, type CommandContext, EXIT, findingLines, say, unwritable, wroteNothing } from '../command.js';
import { readInputs, readTextFile } from '../files.js';
import type { ImportRunFlags } from './import-run-options.js';
import { limitsOf } from './shared.js';

/** The command's run, its flags parsed (import-run.ts): the run written, or why nothing was. */
export async function importRunCommand(ctx: CommandContext, f: ImportRunFlags, rest: readonly string[]): Promise<CliOutcome> {
  const [kindName, ...files] = rest;
  const kind = kindName === undefined ? null : runKind(kindName);
  if (!kind) throw new UsageError('value', `import-run: the producer kind comes first: ${RUN_KIND_NAMES.join(', ')}`);
  if (!f.output) throw new UsageError('missing', 'import-run: --output FILE is required');
  if (files.length === 0) throw new UsageError('missing', 'import-run: at least one INPUT file is required');
  const module = runImporter(kind);
  if (module.map === 'required' && f.map === undefined)
    throw new UsageError(
      'missing',
      `import-run ${kind}: --map FILE is required: which tools write, and what they write to, is the mapping's to say`,
    );
  if (module.map === 'built-in' && f.map !== undefined)
    throw new UsageError('value', `import-run ${kind}: --map: the mapping of ${kind} is built in (docs/producers.md)`);
  if (!module.pullRequests && f['pull-requests'] !== undefined)
    throw new UsageError(
      'value',
      `import-run ${kind}: --pull-requests is for gh-aw-manifest (its pushes name a pull request, not a branch)`,
    );
  const output = outputIn(ctx.cwd, ctx.cwd, f.output, '--output');
  distinctOutputs(
    [['--output', output]],
    [...files, ...(f.map === undefined ? [] : [f.map]), ...(f['pull-requests'] === undefined ? [] : [f['pull-requests']])].map((x) =>
      path.resolve(ctx.cwd, x),
    ),
  );
  const tool = `import-run ${kind}`;
  const limits = limitsOf(f);
  let mapping = null;
  if (f.map !== undefined) {
    const file = path.resolve(ctx.cwd, f.map);
    const read = readMappingFile(readTextFile('--map', file, limits), f.map);
    if (!read.ok) return wroteNothing(tool, EXIT.usage, findingLines(tool, read.reason));
    mapping = read.value;
  }
  let heads: PullHeads = new Map();
  let headsSha256: string | null = null;
  if (f['pull-requests'] !== undefined) {
    const [given] = readInputs([path.resolve(ctx.cwd, f['pull-requests'])], limits);
    const read = given ? readPullHeads(given, limits) : null;
    if (read && !read.ok) return wroteNothing(tool, EXIT.problem, findingLines(tool, read.reason));
    if (read) heads = read.value;
    if (given) headsSha256 = sha256Hex(given.bytes);
  }
  const inputs = readInputs(
    files.map((x) => path.resolve(ctx.cwd, x)),
    limits,
  );
  const result = runImportRun({ kind, inputs, limits, context: { mapping, heads, headsSha256 }, version: ctx.version });
  if (!result.ok) {
    const { findings, mapping: problems, summary } = result.reason;
    // A mapping that cannot say what a call did is configuration (exit 2) before any problem of the inputs.
    const code = problems.length > 0 ? EXIT.usage : EXIT.problem;
    return wroteNothing(tool, code, `${findingLines(tool, [...problems, ...findings])}${say(tool, summary)}`);
  }
  const done = result.value;
  if (done.calls === 0)
    return { code: EXIT.pass, stdout: '', stderr: say(tool, `${done.summary}; no calls, so ${output} was not written`) };
  let wrote: 'written' | 'same' | 'different';
  try {
    wrote = writeNewOrSame(output, done.ndjson);
  } catch (error) {
    return unwritable(tool, 'the output', output, error);
  }
  if (wrote === 'different')
    return wroteNothing(
      tool,
      EXIT.usage,
      say(tool, `${output} exists and holds another run: a run is evidence, never replaced (write to a new file, or remove it first)`),
    );
  return {
    code: EXIT.pass,
    stdout: '',
    stderr: say(tool, `${done.summary} → ${output}${wrote === 'same' ? ' (already there, the same bytes)' : ''}`),
  };
}
