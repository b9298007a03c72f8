/**
 * The run kinds of `receipt-gate import-run` (docs/producers.md), one module each, in one registry:
 * what the producer's file is, whether it needs a mapping file, and how one of its lines becomes
 * calls. The engine (run.ts) and the CLI read a kind only through its row: a new producer is a
 * reader module and a row here (and, when its tools are not built in, a mapping file the user
 * writes); a kind without a row does not compile.
 */

import type { JsonObject } from '../../core/json.js';
import type { Location } from '../../core/location.js';
import type { ToolMapping } from '../../read/mapping-file.js';
import type { ProducerCall } from './call.js';
import { manifestLine } from './gh-aw-manifest.js';
import { RpcPairs } from './mcp-jsonrpc.js';
import type { RunKind } from './names.js';
import { type ToolUse, telemetryLine } from './otlp-json.js';
import type { PullHeads } from './pull-heads.js';
import { mapUse } from './tool-mapping.js';

/** What one line of a producer's file gives. */
export interface LineRead {
  /** Its calls, each with the key that tells a repeated write of the same call (null: never a repeat). */
  readonly calls: readonly { readonly call: ProducerCall; readonly key: string | null; readonly count: string | null }[];
  /** Counted skips (`noop (not a write)`, `3 other spans`). */
  readonly skips: readonly (readonly [string, number])[];
  /** Problems of the line (located at it). */
  readonly errors: readonly string[];
  /** Problems of the mapping file a line revealed (located in the mapping). */
  readonly mapping: readonly { readonly at: Location; readonly message: string }[];
  /** How to turn content capture on, when a call needed arguments its source did not carry. */
  readonly hints: readonly string[];
}

/** What the user gave besides the inputs: the mapping file, the pull requests' heads. */
export interface RunContext {
  readonly mapping: ToolMapping | null;
  readonly heads: PullHeads;
  /** Hex sha256 of the --pull-requests file, or null: part of the run's id, as the inputs are. */
  readonly headsSha256: string | null;
}

export interface RunKindModule {
  /** What the input is, in a sentence's words. */
  readonly source: string;
  /** A mapping file (--map) is required, or refused (the kind's mapping is built in). */
  readonly map: 'required' | 'built-in';
  /** It reads --pull-requests (gh-aw's pushes name a pull request, not its branch). */
  readonly pullRequests: boolean;
  /** The calls' order: as the file lists them (a manifest in execution order), or by time (exporters write batches out of order). */
  readonly order: 'file' | 'time';
  /** A reader for one input file (a kind that pairs lines, a request with its response, keeps its state in it). */
  readonly reader: (context: RunContext) => FileReader;
}

/** One input file's reader: each line, then what its end leaves (requests never answered). */
interface FileReader {
  readonly line: (entry: JsonObject, line: number) => LineRead;
  readonly end: () => LineRead;
}

const EMPTY: LineRead = { calls: [], skips: [], errors: [], mapping: [], hints: [] };

/** A reader whose lines stand alone. */
const eachLine = (read: (entry: JsonObject, line: number) => LineRead): FileReader => ({ line: read, end: () => EMPTY });

/** Tool calls through the mapping file: each a call (counted by why it asserts less), or a problem of the mapping. */
function mapped(
  uses: readonly { readonly use: ToolUse; readonly line: number }[],
  mapping: ToolMapping | null,
): Pick<LineRead, 'calls' | 'mapping' | 'hints'> {
  const calls: LineRead['calls'][number][] = [];
  const problems: { at: Location; message: string }[] = [];
  const hints = new Set<string>();
  for (const { use, line } of uses) {
    if (mapping === null) break;
    const got = mapUse(use, mapping, line);
    if (got.kind === 'mapping') problems.push({ at: got.at, message: got.message });
    else {
      if (got.hint !== null) hints.add(got.hint);
      calls.push({ call: got.call, key: use.key, count: got.count });
    }
  }
  return { calls, mapping: problems, hints: [...hints] };
}

const RUN_KINDS = {
  'gh-aw-manifest': {
    source: 'a GitHub Agentic Workflows safe-outputs manifest (safe-output-items.jsonl)',
    map: 'built-in',
    pullRequests: true,
    order: 'file',
    reader: (context) =>
      eachLine((entry, line) => {
        const got = manifestLine(entry, line, context.heads);
        if (got.kind === 'skip') return { ...EMPTY, skips: [[got.reason, 1]] };
        if (got.kind === 'error') return { ...EMPTY, errors: [got.message] };
        return {
          ...EMPTY,
          calls: got.calls.map((call) => ({ call, key: null, count: call.note === null ? null : `${call.tool} without a subject` })),
        };
      }),
  },
  'otlp-json': {
    source: 'OpenTelemetry JSON lines (the OTLP file exporter, Copilot CLI)',
    map: 'required',
    pullRequests: false,
    order: 'time',
    reader: ({ mapping }) =>
      eachLine((entry, line) => {
        const got = telemetryLine(entry);
        return {
          ...mapped(
            got.uses.map((use) => ({ use, line })),
            mapping,
          ),
          skips: got.other > 0 ? [['not a tool call', got.other]] : [],
          errors: got.errors,
        };
      }),
  },
  'mcp-jsonrpc': {
    source: "an MCP gateway's JSON-RPC log (gh-aw's rpc-messages.jsonl, v1 and v2)",
    map: 'required',
    pullRequests: false,
    order: 'time',
    reader: ({ mapping }) => {
      const pairs = new RpcPairs();
      return {
        line: (entry, line) => {
          const got = pairs.line(entry, line);
          if (got.kind === 'use') return { ...EMPTY, ...mapped([got], mapping) };
          if (got.kind === 'other') return { ...EMPTY, skips: [[got.what, got.n ?? 1]] };
          if (got.kind === 'error') return { ...EMPTY, errors: [got.message] };
          return EMPTY;
        },
        end: () => {
          const left = pairs.unanswered();
          return left > 0 ? { ...EMPTY, skips: [['tools/call requests never answered', left]] } : EMPTY;
        },
      };
    },
  },
} as const satisfies { readonly [kind in RunKind]: RunKindModule };

/** A kind's module. */
export const runImporter = (kind: RunKind): RunKindModule => RUN_KINDS[kind];
