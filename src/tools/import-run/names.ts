/**
 * The run kinds' names, in the order the usage lists them: a list of its own, light, so the CLI names
 * the kinds in its option table without loading a producer's reader (the `import-run` command's code
 * is loaded when it runs). The registry (kinds.ts) holds one module for each name, no more, no fewer.
 */
import { named } from '../../core/lists.js';

export const RUN_KIND_NAMES = ['gh-aw-manifest', 'otlp-json', 'mcp-jsonrpc'] as const;

export type RunKind = (typeof RUN_KIND_NAMES)[number];

/** The run kind a user named, or null. */
export const runKind = (name: string): RunKind | null => named(RUN_KIND_NAMES, name);
