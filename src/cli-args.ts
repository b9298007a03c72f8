/**
 * The CLI's surface: argv → one typed command with its settings. Every flag's default comes from
 * the settings table (settings.ts); a mistake is one UsageError naming the flag.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultSettings, parseChoice, readLimits, UsageError, type Settings } from './settings.js';

export const USAGE = `Usage: receipt-gate verify [options]

Recomputes every side-effect receipt binding from committed bytes and fails
when a record mismatches or a claimed level cannot be reproduced.

Options:
  --runs PATH|GLOB          run artifacts (.json surfaces, .ndjson/.jsonl logs,
                            .tar.gz evidence bundles); repeatable.
                            Default: .assay/runs
  --audit PATH|GLOB         provider audit exports (.json, .ndjson, .jsonl);
                            repeatable. Default: .assay/audit
                            A directory means every *.json, *.jsonl, *.ndjson
                            and *.tar.gz beneath it.
  --format table|json       output format. Default: table on a terminal,
                            json otherwise
  --output FILE             write the report to FILE instead of stdout
  --allow-unmatched-records an audit record bound to no call is a warning,
                            not an error
  --strict-observed         an unreproduced observed_confirmed claim is an
                            error, not a warning
  -C, --working-directory DIR
                            run as if started in DIR (inputs and reported
                            paths are relative to it; nothing outside it is read)
  --max-file-size SIZE      largest artifact read (default 64MiB)
  --max-line-size SIZE      largest NDJSON line (default 8MiB)
  -h, --help                show this help

Exit status: 0 the gate passed, 1 it failed, 2 usage error.
Colour only on a terminal; set NO_COLOR to turn it off.
`;

export interface VerifyCommand {
  readonly command: 'verify';
  readonly settings: Settings;
  readonly format: 'table' | 'json';
  /** Absolute path of --output, or null for stdout. */
  readonly output: string | null;
}

export type CliCommand = VerifyCommand | { readonly command: 'help' };

/**
 * @param isTTY whether stdout is a terminal (the default format depends on it)
 * @param cwd   the process's working directory (relative paths resolve against it)
 */
export function parseCli(argv: readonly string[], isTTY: boolean, cwd: string): CliCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        runs: { type: 'string', multiple: true },
        audit: { type: 'string', multiple: true },
        format: { type: 'string' },
        output: { type: 'string' },
        'allow-unmatched-records': { type: 'boolean' },
        'strict-observed': { type: 'boolean' },
        'working-directory': { type: 'string', short: 'C' },
        'max-file-size': { type: 'string' },
        'max-line-size': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const v = parsed.values;
  if (v.help) return { command: 'help' };
  const [command, ...rest] = parsed.positionals;
  if (command === 'help') return { command: 'help' };
  if (command !== 'verify') throw new UsageError(command === undefined ? 'missing command: verify' : `unknown command "${command}"`);
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}" (use --runs / --audit for paths)`);
  const dir = path.resolve(cwd, v['working-directory'] ?? '.');
  const output = v.output ?? null;
  const defaults = defaultSettings(dir);
  return {
    command: 'verify',
    settings: {
      ...defaults,
      runs: v.runs ?? defaults.runs,
      audit: v.audit ?? defaults.audit,
      allowUnmatchedRecords: v['allow-unmatched-records'] ?? defaults.allowUnmatchedRecords,
      strictObserved: v['strict-observed'] ?? defaults.strictObserved,
      limits: readLimits(v['max-file-size'], v['max-line-size'], '--'),
    },
    format: v.format !== undefined ? parseChoice('--format', v.format, ['table', 'json'] as const) : isTTY && output === null ? 'table' : 'json',
    output: output === null ? null : path.resolve(cwd, output),
  };
}
