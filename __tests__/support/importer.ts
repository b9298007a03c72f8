/**
 * The shared importer tester: every importer (records: `import KIND`; runs: `import-run KIND`) is
 * tested as a table of inputs → what was written (records, or the calls of a run), the counted skips
 * and located errors said, and a round trip to the gate's levels. A new kind's tests are rows, not a
 * copy of another kind's file.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { jcs, sha256Digest } from '../../src/core/binding.js';
import type { Report } from '../../src/core/report.js';
import { cli, tempDir, writeFiles } from './workspace.js';

type Json = any;

export interface Imported {
  readonly code: number | null;
  readonly stderr: string;
  readonly dir: string;
  /** What was written, a JSON value per line ([] when nothing was). */
  readonly lines: readonly Json[];
}

/**
 * One import, in-process, in a fresh directory holding `files`: `import KIND` or `import-run KIND`
 * with `args`, writing `out.ndjson` from `inputs` (default: every file given whose name starts with `in`).
 */
export async function runImporter(
  command: 'import' | 'import-run',
  kind: string,
  files: Readonly<Record<string, string | Uint8Array>>,
  args: readonly string[] = [],
  inputs: readonly string[] = Object.keys(files).filter((f) => f.startsWith('in')),
  dir: string = tempDir(),
): Promise<Imported> {
  writeFiles(dir, files);
  const r = await cli([command, kind, '--output', 'out.ndjson', ...args, ...inputs], dir);
  const out = path.join(dir, 'out.ndjson');
  const lines =
    r.code === 0 && existsSync(out)
      ? readFileSync(out, 'utf8')
          .trim()
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => JSON.parse(l) as Json)
      : [];
  return { code: r.code, stderr: r.stderr, dir, lines };
}

/** The decisions of a written run (one per evidence event), in order. */
export const decisionsOf = (events: readonly Json[]): Json[] => events.map((e) => e.data.observed_tool_decisions[0]);

/** A decision's subject as [class, verb, target without provider] (null: no subject). */
export function subjectOf(d: Json): [string, string, Record<string, unknown>] | null {
  if (d.action.resource_type === null) return null;
  const target = Object.fromEntries(Object.entries(d.action.target as Record<string, unknown>).filter(([k]) => k !== 'provider'));
  return [d.action.resource_type, d.action.verb, target];
}

/** Every event of a run keeps evidence-bundle.md's envelope: its content hash recomputes, its sequence counts from 0 under one run id. */
export function expectEnvelopes(events: readonly Json[], kind: string): void {
  const runId = events[0]?.assayrunid;
  events.forEach((e, seq) => {
    // Each line is its own canonical form (RFC 8785): written member by member, it must be what JCS writes.
    const whole = jcs(e);
    expect(whole.ok && whole.text).toBe(JSON.stringify(e));
    const content = jcs({ specversion: e.specversion, type: e.type, datacontenttype: e.datacontenttype, subject: e.subject, data: e.data });
    expect(content.ok && sha256Digest(content.text)).toBe(e.assaycontenthash);
    expect(e).toMatchObject({
      specversion: '1.0',
      type: 'assay.tool_decision_surface.v0',
      source: `urn:receipt-gate:import-run:${kind}`,
      id: `${runId}:${seq}`,
      assayseq: seq,
      assayproducer: 'receipt-gate',
    });
  });
}

/** The gate on a directory, as the CLI's JSON report. */
export async function verifyIn(dir: string, now: string, args: readonly string[] = []): Promise<{ code: number | null; report: Report }> {
  const r = await cli(['verify', '-C', dir, '--format', 'json', '--now', now, ...args], dir);
  try {
    return { code: r.code, report: JSON.parse(r.stdout) as Report };
  } catch {
    throw new Error(`verify did not print JSON (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  }
}

/** What a row of an importer's table expects: what it writes, what it skips or refuses (and where). */
export type Expected =
  | { readonly writes: (lines: readonly Json[]) => void; readonly says?: RegExp }
  | { readonly skips: RegExp }
  | { readonly refuses: RegExp; readonly code?: 1 | 2 };

/** Checks one row's outcome. */
export function expectImport(r: Imported, expected: Expected): void {
  if ('writes' in expected) {
    expect(r.code, r.stderr).toBe(0);
    expected.writes(r.lines);
    if (expected.says) expect(r.stderr).toMatch(expected.says);
  } else if ('skips' in expected) {
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(expected.skips);
  } else {
    expect(r.code, r.stderr).toBe(expected.code ?? 1);
    expect(r.stderr).toMatch(expected.refuses);
    expect(r.stderr).toMatch(/nothing written/);
    expect(existsSync(path.join(r.dir, 'out.ndjson'))).toBe(false);
  }
}
