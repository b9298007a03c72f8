/**
 * `receipt-gate import-run KIND`: a producer's own file → a run the gate already reads (NDJSON
 * evidence events, call.ts), offline. Each file is read with the gate's strict readers and limits;
 * each line becomes calls, a counted skip, or a located error; the same call written twice (an
 * exporter's retry: one span id, one tool_use_id) is one call. Any error: nothing is written.
 */
import path from 'node:path';
import { sha256Hex } from '../../core/binding.js';
import { type Finding, finding } from '../../core/findings.js';
import type { Location } from '../../core/location.js';
import type { Result } from '../../core/result.js';
import { cmp } from '../../core/text.js';
import { isJsonSpace } from '../../read/json/scanner.js';
import type { ReadLimits } from '../../read/limits.js';
import { readExport } from '../import/exports.js';
import type { ToolInput } from '../input.js';
import { eventLines, type ProducerCall, type RunSource } from './call.js';
import { type LineRead, type RunContext, runImporter } from './kinds.js';
import type { RunKind } from './names.js';
import { mistakenRules, UNMAPPED } from './tool-mapping.js';

export interface RunImportSettings {
  readonly kind: RunKind;
  readonly inputs: readonly ToolInput[];
  readonly limits: ReadLimits;
  /** The mapping file (required by the kinds that need one) and the pull requests' heads, read already. */
  readonly context: RunContext;
  /** The product version, as the events name their producer. */
  readonly version: string;
}

export interface RunImported {
  /** The run's text, chunk by chunk (nothing when there is no call: no file should be written). */
  readonly ndjson: Iterable<string>;
  readonly calls: number;
  readonly summary: string;
}

export interface RunImportFailure {
  /** Problems in the inputs (exit 1). */
  readonly findings: readonly Finding[];
  /** Problems of the mapping file a line revealed (configuration: exit 2). */
  readonly mapping: readonly Finding[];
  readonly summary: string;
}

interface Placed {
  readonly call: ProducerCall;
  readonly source: RunSource;
  readonly input: number;
  /** What the call was counted as (`not in the mapping`, …), or null. */
  readonly count: string | null;
}

/** An RFC 3339 UTC time that sorts as text: the fraction padded to nine digits (`…:00Z` before `…:00.5Z`). */
const timeKey = (time: string): string => `${time.slice(0, 19)}${(time.length > 20 ? time.slice(20, -1) : '').padEnd(9, '0')}`;

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** `3 a, 1 b` from counts, in name order. */
const listed = (counts: ReadonlyMap<string, number>): string =>
  [...counts.entries()]
    .sort(([a], [b]) => cmp(a, b))
    .map(([what, n]) => `${n} ${what}`)
    .join(', ');

export function runImportRun(s: RunImportSettings): Result<RunImported, RunImportFailure> {
  const kind = runImporter(s.kind);
  const errors: Finding[] = [];
  const mappingProblems = new Map<string, Finding>();
  const skipped = new Map<string, number>();
  const counted = new Map<string, number>();
  const hints = new Set<string>();
  /** Each call's key → what it said (and where), for telling a repeat from two calls under one id. */
  const keys = new Map<string, { readonly said: string; readonly at: string }>();
  const inputsSeen = new Map<string, string>();
  const placed: Placed[] = [];
  let lines = 0;
  let repeats = 0;
  s.inputs.forEach((input, index) => {
    const file = path.basename(input.name);
    const source: RunSource = { kind: s.kind, file, sha256: sha256Hex(input.bytes) };
    // The same bytes twice would be every call twice.
    const twin = inputsSeen.get(source.sha256);
    if (twin !== undefined) {
      errors.push(
        finding(
          'invalid_artifact',
          { file: input.name, line: 1, column: 1 },
          `the same bytes as ${twin}: a file given twice would import its calls twice`,
        ),
      );
      return;
    }
    inputsSeen.set(source.sha256, input.name);
    // gh-aw writes an empty manifest for a run that wrote nothing: no calls, not a failed download.
    if (input.bytes.every(isJsonSpace)) return;
    const read = readExport(input.name, input.bytes, s.limits);
    const reader = kind.reader(s.context);
    const take = (got: LineRead, loc: Location | null): void => {
      const here = loc ? `${path.basename(loc.file ?? input.name)}:${loc.line ?? 0}` : file;
      for (const message of got.errors) if (loc) errors.push(finding('invalid_artifact', loc, message));
      for (const m of got.mapping)
        mappingProblems.set(`${m.at.line}:${m.at.column}:${m.message}`, finding('invalid_artifact', m.at, m.message));
      for (const [reason, n] of got.skips) skipped.set(reason, (skipped.get(reason) ?? 0) + n);
      for (const h of got.hints) hints.add(h);
      for (const { call, key, count } of got.calls) {
        if (key !== null) {
          // What a repeat must say again: everything but where it was read.
          const said = JSON.stringify([
            call.tool,
            call.server,
            call.callId,
            call.time,
            call.succeeded,
            call.asserts,
            call.effect,
            call.note,
          ]);
          const before = keys.get(key);
          if (before?.said === said) {
            repeats++;
            continue;
          }
          if (before) {
            if (loc)
              errors.push(
                finding(
                  'invalid_artifact',
                  loc,
                  `a span or event with the id of one at ${before.at} says something else: one id, two calls`,
                ),
              );
            continue;
          }
          keys.set(key, { said, at: here });
        }
        if (count !== null) counted.set(count, (counted.get(count) ?? 0) + 1);
        placed.push({ call, source, input: index, count });
      }
    };
    for (const e of read.entries) {
      lines++;
      take(reader.line(e.value, e.loc.line ?? 0), e.loc);
    }
    take(reader.end(), null);
    for (const f of read.findings) errors.push(f);
  });
  // A rule that takes no call while calls it nearly names went unmapped: a problem of the mapping, never a count.
  const mapping = s.context.mapping;
  if (mapping) {
    const called = new Map<string, { tool: string; server: string | null; unmapped: number }>();
    for (const p of placed) {
      const key = JSON.stringify([p.call.tool, p.call.server]);
      const c = called.get(key) ?? { tool: p.call.tool, server: p.call.server, unmapped: 0 };
      if (p.count === UNMAPPED) c.unmapped++;
      called.set(key, c);
    }
    for (const m of mistakenRules(mapping, [...called.values()]))
      mappingProblems.set(`${m.at.line}:${m.at.column}:${m.message}`, finding('invalid_artifact', m.at, m.message));
  }
  if (kind.order === 'time')
    placed.sort((a, b) => cmp(timeKey(a.call.time), timeKey(b.call.time)) || a.input - b.input || a.call.line - b.call.line);
  const asserting = placed.filter((p) => p.call.asserts);
  const bound = asserting.filter((p) => p.call.effect !== null).length;
  const skipText = skipped.size === 0 ? '' : `; skipped: ${listed(skipped)}`;
  const countText = counted.size === 0 ? '' : `; ${listed(counted)}`;
  const failing = errors.length > 0 || mappingProblems.size > 0;
  const summary =
    `${plural(lines, 'line', 'lines')} read, ${plural(placed.length, 'call', 'calls')} ${failing ? 'found (none written)' : 'written'} ` +
    `(${bound} asserting with a subject, ${asserting.length - bound} asserting without one, ${placed.length - asserting.length} asserting nothing)` +
    `${countText}${skipText}, ${plural(repeats, 'repeat', 'repeats')} merged${[...hints].map((h) => `; ${h}`).join('')}`;
  if (failing) return { ok: false, reason: { findings: errors, mapping: [...mappingProblems.values()], summary } };
  const seen = new Set<number>();
  const events = placed.map((p) => {
    const first = !seen.has(p.input);
    seen.add(p.input);
    return { call: p.call, source: p.source, first };
  });
  const runId = `import-${sha256Hex(`${s.kind}\n${s.inputs.map((i) => sha256Hex(i.bytes)).join('\n')}\n${s.context.mapping?.sha256 ?? ''}\n${s.context.headsSha256 ?? ''}`).slice(0, 16)}`;
  return { ok: true, value: { ndjson: eventLines(events, runId, s.version), calls: placed.length, summary } };
}
