/**
 * What a command's option table is, and how argv is read through it. Each command declares its
 * table (cli/commands/<name>.ts) `as const`; `parseFlags` returns its values typed by that table, so
 * a flag read under a misspelt name does not compile. The usage text, docs/cli.md's and action.yml's
 * checks read the same tables; nothing about an option is written twice.
 */
import { parseArgs } from 'node:util';
import { nearestName } from '../core/text.js';
import { DEFAULTS, type OptionName } from '../gate/settings/defaults.js';
import { UsageError } from '../gate/settings/types.js';

type Kind = 'string' | 'list' | 'boolean';

export interface OptionSpec {
  readonly flag: string;
  readonly short?: string;
  /** string: one value; list: repeatable; boolean: a switch. */
  readonly kind: Kind;
  /** The argument's name in the usage text (FILE, PATH|GLOB, …). */
  readonly arg?: string;
  /** The action input with the same meaning: its default is the flag's, shown in the usage text. */
  readonly input?: OptionName;
  /** A default of the CLI's own (when there is no input of the same meaning). */
  readonly default?: string;
  readonly help: string;
}

export interface CommandSpec {
  readonly name: string;
  /** What follows `receipt-gate NAME` in the usage text. */
  readonly synopsis: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Paragraphs after the synopsis. */
  readonly about?: string;
  readonly options: readonly OptionSpec[];
}

/** A flag's value as read: a string, every value of a repeatable flag, or a switch. */
type ValueOf<K extends Kind> = K extends 'list' ? readonly string[] : K extends 'boolean' ? boolean : string;

/** The values of a command's flags, typed by its table; absent: not given. */
export type Flags<O extends readonly OptionSpec[]> = { readonly [S in O[number] as S['flag']]?: ValueOf<S['kind']> };

/** A command's flags and its positional arguments. */
export interface Parsed<O extends readonly OptionSpec[]> {
  readonly flags: Flags<O>;
  readonly rest: readonly string[];
  /** `--help` was given. */
  readonly help: boolean;
}

const HELP: OptionSpec = { flag: 'help', short: 'h', kind: 'boolean', help: 'show this help' };
const VERSION_FLAG: OptionSpec = { flag: 'version', short: 'V', kind: 'boolean', help: 'print the version' };

/** The option every command takes. */
export const COMMON_OPTIONS: readonly OptionSpec[] = [HELP, VERSION_FLAG];

export const LIMITS = [
  {
    flag: 'max-file-size',
    kind: 'string',
    arg: 'SIZE',
    input: 'max-file-size',
    help: 'largest file read (a gzipped export: what it decompresses to)',
  },
  { flag: 'max-line-size', kind: 'string', arg: 'SIZE', input: 'max-line-size', help: 'largest NDJSON line' },
] as const satisfies readonly OptionSpec[];

export const SIGNED_AT = {
  flag: 'signed-at',
  kind: 'string',
  arg: 'TIME',
  help: 'the signed_at of every signature (RFC 3339 UTC). Default: now',
} as const satisfies OptionSpec;

/** The default an option shows: its input's (from the settings table), or its own. */
export function optionDefault(option: OptionSpec): string | undefined {
  if (option.input) return option.kind === 'boolean' ? undefined : DEFAULTS[option.input] || undefined;
  return option.default;
}

/** The `parseArgs` options of a table (with --help). */
export function parseArgsOptions(options: readonly OptionSpec[]): NonNullable<Parameters<typeof parseArgs>[0]>['options'] {
  const out: { [flag: string]: { type: 'string' | 'boolean'; multiple?: boolean; short?: string } } = {};
  for (const o of [...options, HELP]) {
    out[o.flag] = {
      type: o.kind === 'boolean' ? 'boolean' : 'string',
      ...(o.kind === 'list' ? { multiple: true } : {}),
      ...(o.short ? { short: o.short } : {}),
    };
  }
  return out;
}

/** Every flag name of a table (for the nearest-name suggestion of a flag that is not in it). */
const flagNames = (options: readonly OptionSpec[]): string[] => [...options, HELP].map((o) => o.flag);

/**
 * A command's argv (after the command's name) read through its table. An unknown flag is a usage
 * error naming the nearest flag of the table (`--trusted-keys`: did you mean `--trusted-key`?).
 */
export function parseFlags<O extends readonly OptionSpec[]>(argv: readonly string[], options: O): Parsed<O> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, tokens: true, options: parseArgsOptions(options) });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const unknown = /Unknown option '(-{1,2})([^']+)'/.exec(message);
    if (unknown) {
      const guess = nearestName(unknown[2] ?? '', flagNames(options));
      throw new UsageError(
        'value',
        `unknown option ${unknown[1]}${unknown[2]}${guess ? ` (did you mean --${guess}?)` : ''}: see --help for this command's options`,
      );
    }
    throw new UsageError('value', message);
  }
  // A flag of one value given twice is a mistake (`-C a -C b` read b alone, silently): said, never the last taken.
  const single = new Set([...options, HELP].filter((o) => o.kind === 'string').map((o) => o.flag));
  const given = new Set<string>();
  for (const t of parsed.tokens ?? []) {
    if (t.kind !== 'option' || !single.has(t.name)) continue;
    if (given.has(t.name)) throw new UsageError('value', `--${t.name} is given twice; it takes one value`);
    given.add(t.name);
  }
  // A flag given an empty value (an unset variable: `-C "$DIR"`, `--max-line-size "$LIMIT"`) is a mistake, never the default taken
  // in silence (a red team); leaving the flag out is how to take the default.
  for (const t of parsed.tokens ?? [])
    if (t.kind === 'option' && typeof t.value === 'string' && t.value.trim() === '')
      throw new UsageError('value', `${t.rawName}: an empty value (an unset variable?): give one, or leave the flag out for its default`);
  const { help, ...rest } = parsed.values;
  // parseArgs types its values by the configuration it was given at run time; the table's types are the same by construction.
  return { flags: rest as Flags<O>, rest: parsed.positionals, help: help === true };
}

/**
 * A stray argument explained: after a path flag's value it is a second path (or an unquoted glob
 * the shell expanded), which needs its own flag.
 */
export function unexpectedArgument(argv: readonly string[], stray: string): string {
  const i = argv.indexOf(stray);
  const flag = i >= 2 ? argv.slice(0, i).findLast((a) => a.startsWith('--')) : undefined;
  if (flag === '--runs' || flag === '--audit')
    return `unexpected argument "${stray}": each path takes its own ${flag} (${flag} ${argv[i - 1]} ${flag} ${stray}), and a glob is quoted so that the shell leaves it to receipt-gate (${flag} 'runs/*.json')`;
  return `unexpected argument "${stray}" (use --runs / --audit for paths)`;
}
