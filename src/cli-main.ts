/**
 * The CLI's logic, free of process globals so tests can call it: argv → command (cli-args.ts) →
 * runGate → table or JSON → exit code (0 passed, 1 failed, 2 usage error).
 */
import { writeFileSync } from 'node:fs';
import { runGate } from './gate.js';
import { UsageError } from './settings.js';
import { parseCli, USAGE, type CliCommand } from './cli-args.js';
import { renderTable } from './report/table.js';
import { renderJson, writeJson } from './report/json.js';

export { USAGE };

export interface CliOutcome {
  readonly code: 0 | 1 | 2;
  readonly stdout: string;
  readonly stderr: string;
}

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv, isTTY: boolean, cwd: string): Promise<CliOutcome> {
  let cmd: CliCommand;
  try {
    cmd = parseCli(argv, isTTY, cwd);
  } catch (e) {
    if (e instanceof UsageError) return { code: 2, stdout: '', stderr: `receipt-gate: ${e.message}\n\n${USAGE}` };
    throw e;
  }
  if (cmd.command === 'help') return { code: 0, stdout: USAGE, stderr: '' };
  const report = await runGate(cmd.settings);
  const color = cmd.format === 'table' && isTTY && cmd.output === null && !env['NO_COLOR'];
  const code = report.ok ? 0 : 1;
  if (cmd.output) {
    try {
      if (cmd.format === 'json') writeJson(report, cmd.output);
      else writeFileSync(cmd.output, renderTable(report, { color: false }));
    } catch (e) {
      return { code: 2, stdout: '', stderr: `receipt-gate: cannot write --output ${cmd.output}: ${(e as Error).message}\n` };
    }
    return { code, stdout: '', stderr: `receipt-gate: ${report.ok ? 'PASS' : 'FAIL'}; report written to ${cmd.output}\n` };
  }
  return { code, stdout: cmd.format === 'json' ? renderJson(report) : renderTable(report, { color }), stderr: '' };
}
