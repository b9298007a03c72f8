/**
 * Temporary workspaces for tests: write files, run the gate or the CLI in-process (`gate`, `cli`:
 * the CLI's main() takes no process globals), or the bundled CLI as a real process (`spawnCli`,
 * for the end-to-end layer).
 */

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli/run.js';
import type { Report } from '../../src/core/report.js';
import { type OpenReaders, runGate } from '../../src/gate/gate.js';
import { defaultSettings } from '../../src/gate/settings/parsers.js';
import type { Settings } from '../../src/gate/settings/types.js';
import { distFile } from './fresh-dist.js';

export { distFile };

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const UPSTREAM = path.join(ROOT, 'fixtures/upstream');

/** A reading thread (dist/read-worker.js) that starts, then dies on its first file: a test puts it in a copy of dist/ to see that a worker ran and fails closed. */
export const DYING_READER =
  "import { parentPort } from 'node:worker_threads';\nparentPort.postMessage({ ready: true });\nparentPort.on('message', () => process.exit(9));\n";

const made: string[] = [];
export function tempDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'receipt-gate-'));
  made.push(d);
  return d;
}
export function cleanup(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

export function writeFiles(dir: string, files: ReadonlyMap<string, string | Uint8Array> | Record<string, string | Uint8Array>): string {
  const entries = files instanceof Map ? [...files.entries()] : Object.entries(files);
  for (const [rel, data] of entries) {
    const p = path.join(dir, rel);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, data);
  }
  return dir;
}

/** The gate in-process; a usage problem (a rule naming an unknown class) is thrown. */
/** The verification time tests run at (reports compare byte for byte), unless a test gives its own. */
export const TEST_NOW = new Date('2026-12-01T12:00:00Z');

export async function gate(cwd: string, over: Partial<Settings> = {}, open?: OpenReaders): Promise<Report> {
  const r = await runGate({ ...defaultSettings(cwd, TEST_NOW), ...over }, false, open);
  if (!r.ok) throw new Error(`usage problem: ${r.reason.message}`);
  return r.value.report;
}

export interface Proc {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A CLI outcome's standard output as one text (its pieces joined, taken once). */
export const stdoutText = (out: string | Iterable<string>): string => (typeof out === 'string' ? out : [...out].join(''));

/** The CLI in-process: main() with this argv, environment and working directory (stdout is not a terminal). */
export async function cli(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}, now: Date = TEST_NOW): Promise<Proc> {
  const r = await main(args, { PATH: process.env['PATH'], ...env }, false, cwd, now);
  return { code: r.code, stdout: stdoutText(r.stdout), stderr: r.stderr };
}

/** The bundled dist/cli.js as a real process (the end-to-end layer). */
export function spawnCli(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}, bundle = distFile('cli.js')): Proc {
  const r = spawnSync(process.execPath, [bundle, ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'], ...env },
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export async function cliJson(args: readonly string[], cwd: string): Promise<{ code: number | null; report: Report; stderr: string }> {
  const r = await cli(['verify', '--format', 'json', ...args], cwd);
  let report: Report;
  try {
    report = JSON.parse(r.stdout) as Report;
  } catch {
    throw new Error(`CLI did not print JSON (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  }
  return { code: r.code, report, stderr: r.stderr };
}

/** The bundled CLI's JSON report, as a real process. */
export function spawnCliJson(args: readonly string[], cwd: string): { code: number | null; report: Report; stderr: string } {
  const r = spawnCli(['verify', '--format', 'json', ...args], cwd);
  try {
    return { code: r.code, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
  } catch {
    throw new Error(`CLI did not print JSON (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  }
}
