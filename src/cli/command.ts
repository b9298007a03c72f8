/**
 * One way out. Every command ends in a `CliOutcome` whose code comes from one table: 0 the gate
 * passed or the command did what it was asked; 1 the gate or a tool found a problem in the evidence
 * (nothing written by a tool); 2 usage or configuration (a flag, a key, a file a flag names, an
 * output that cannot be written); 3 an internal error (a bug of the gate, never an input problem:
 * the entry catches it, says so and fails closed). A command throws only `UsageError`
 * (gate/settings/types.ts), which the CLI's `main` turns into exit 2; everything else is an outcome
 * it returns.
 */
import type { Finding } from '../core/findings.js';
import { cannotWriteText } from '../report/output.js';
import { located } from '../report/text.js';
import { type CommandSpec, type Flags, type OptionSpec, parseFlags } from './options.js';

export const EXIT = { pass: 0, problem: 1, usage: 2, internal: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface CliOutcome {
  readonly code: ExitCode;
  /** What goes to standard output: its text, or its pieces in order, each made as it is written (a JSON report: taken once). */
  readonly stdout: string | Iterable<string>;
  readonly stderr: string;
}

/** What a command is run with (the CLI's `main` takes no process globals). */
export interface CommandContext {
  /** Its arguments, after its name. */
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** Whether stdout is a terminal (the default format and colour depend on it). */
  readonly isTTY: boolean;
  /** Relative paths resolve against it. */
  readonly cwd: string;
  /** The time a signature is made at, and the verification time, unless a flag says otherwise. */
  readonly now: Date;
  /** The version the entries pass in (the verdict names it). */
  readonly version: string;
}

/** One command: its option table and synopsis, and its run (which reads its flags through the table; 'help': --help was given). */
export interface Command {
  readonly spec: CommandSpec;
  run(ctx: CommandContext): Promise<CliOutcome | 'help'> | CliOutcome | 'help';
}

/**
 * The run of a command whose code only it uses, loaded when it runs (`import()`: a chunk of its own,
 * which the CLI's bundle does not compile for the other commands); its flags are parsed through its
 * table first, so `--help` and a mistaken flag load none of it.
 */
export function loadedRun<const O extends readonly OptionSpec[]>(
  options: O,
  load: () => Promise<(ctx: CommandContext, flags: Flags<O>, rest: readonly string[]) => Promise<CliOutcome>>,
): Command['run'] {
  return async (ctx) => {
    const { flags, rest, help } = parseFlags(ctx.argv, options);
    if (help) return 'help';
    return (await load())(ctx, flags, rest);
  };
}

/**
 * A usage error: exit 2, the problem, and where to read about the commands. A problem in a file (a
 * policy file) is not a problem with the command line: no `--help` line follows it.
 */
export const usageError = (message: string, help = true): CliOutcome => ({
  code: EXIT.usage,
  stdout: '',
  stderr: `receipt-gate: ${message}\n${help ? "Run 'receipt-gate --help' for the commands and their options.\n" : ''}`,
});

/** What a tool says on stderr, each line prefixed with its name. */
export const say = (tool: string, ...lines: readonly string[]): string => lines.map((l) => `receipt-gate: ${tool}: ${l}\n`).join('');

/** A tool's findings as lines of stderr, at most 50 and a count of the rest. */
export function findingLines(tool: string, findings: readonly Finding[]): string {
  const shown = findings.slice(0, 50).map((f) => located(f));
  if (findings.length > 50) shown.push(`… and ${findings.length - 50} more error(s)`);
  return say(tool, ...shown);
}

/** A tool that wrote nothing: the code (a problem in the evidence, or usage), what it says, and that nothing was written. */
export const wroteNothing = (tool: string, code: ExitCode, text: string): CliOutcome => ({
  code,
  stdout: '',
  stderr: `${text}${say(tool, 'nothing written')}`,
});

/** An output a tool could not write: a configuration problem (exit 2), whatever the tool. */
export const unwritable = (tool: string, what: string, file: string, e: unknown): CliOutcome =>
  wroteNothing(tool, EXIT.usage, say(tool, cannotWriteText(what, file, e)));
