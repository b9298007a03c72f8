/**
 * The CLI's logic, free of process globals so tests can call it: argv → settings → runGate →
 * table or JSON → exit code (0 passed, 1 failed, 2 usage error).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runGate, DEFAULT_SETTINGS, type Settings } from './gate.js';
import { parseChoice, parseSize, UsageError } from './settings.js';
import { renderTable } from './report/table.js';
import { renderJson, writeJson } from './report/json.js';
import { DEFAULT_LIMITS } from './read/artifacts.js';

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

export interface CliOutcome {
  readonly code: 0 | 1 | 2;
  readonly stdout: string;
  readonly stderr: string;
}

interface CliSettings extends Settings {
  readonly format: 'table' | 'json';
  readonly output: string | null;
}

export function parseCli(argv: readonly string[], isTTY: boolean, cwd: string): CliSettings | 'help' {
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
  if (v.help) return 'help';
  const [command, ...rest] = parsed.positionals;
  if (command === 'help') return 'help';
  if (command !== 'verify') throw new UsageError(command === undefined ? 'missing command: verify' : `unknown command "${command}"`);
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}" (use --runs / --audit for paths)`);
  const dir = path.resolve(cwd, v['working-directory'] ?? '.');
  const output = v.output ?? null;
  return {
    runs: v.runs ?? DEFAULT_SETTINGS.runs,
    audit: v.audit ?? DEFAULT_SETTINGS.audit,
    cwd: dir,
    workspace: dir,
    allowUnmatchedRecords: v['allow-unmatched-records'] ?? false,
    strictObserved: v['strict-observed'] ?? false,
    limits: {
      ...DEFAULT_LIMITS,
      ...(v['max-file-size'] !== undefined ? { maxFileBytes: parseSize('--max-file-size', v['max-file-size']) } : {}),
      ...(v['max-line-size'] !== undefined ? { maxLineBytes: parseSize('--max-line-size', v['max-line-size']) } : {}),
    },
    format: v.format !== undefined ? parseChoice('--format', v.format, ['table', 'json'] as const) : isTTY && output === null ? 'table' : 'json',
    output: output === null ? null : path.resolve(cwd, output),
  };
}

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv, isTTY: boolean, cwd: string): Promise<CliOutcome> {
  let settings: CliSettings | 'help';
  try {
    settings = parseCli(argv, isTTY, cwd);
  } catch (e) {
    if (e instanceof UsageError) return { code: 2, stdout: '', stderr: `receipt-gate: ${e.message}\n\n${USAGE}` };
    throw e;
  }
  if (settings === 'help') return { code: 0, stdout: USAGE, stderr: '' };
  const report = await runGate(settings);
  const color = settings.format === 'table' && isTTY && settings.output === null && !env['NO_COLOR'];
  const code = report.ok ? 0 : 1;
  if (settings.output) {
    try {
      if (settings.format === 'json') writeJson(report, settings.output);
      else writeFileSync(settings.output, renderTable(report, { color: false }));
    } catch (e) {
      return { code: 2, stdout: '', stderr: `receipt-gate: cannot write --output ${settings.output}: ${(e as Error).message}\n` };
    }
    return { code, stdout: '', stderr: `receipt-gate: ${report.ok ? 'PASS' : 'FAIL'}; report written to ${settings.output}\n` };
  }
  return { code, stdout: settings.format === 'json' ? renderJson(report) : renderTable(report, { color }), stderr: '' };
}

