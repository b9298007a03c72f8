/**
 * The `import-run` command's option table, apart from its code: the command (import-run.ts) names it
 * in the usage without loading a producer's reader, and its run (run-import-run.ts) reads the flags through it.
 */
import { type Flags, LIMITS, type OptionSpec } from '../options.js';

export const IMPORT_RUN_OPTIONS = [
  { flag: 'output', kind: 'string', arg: 'FILE', help: 'the run (NDJSON evidence events; required): never written over a different file' },
  {
    flag: 'map',
    kind: 'string',
    arg: 'FILE',
    help: 'otlp-json, mcp-jsonrpc: the mapping file (YAML): which tools write, their class and verb, and where each target field comes from',
  },
  {
    flag: 'pull-requests',
    kind: 'string',
    arg: 'FILE',
    help: "gh-aw-manifest: the pull requests its pushes went to, as GET /repos/OWNER/REPO/pulls/N returns them (the manifest names a push's pull request, not its branch)",
  },
  ...LIMITS,
] as const satisfies readonly OptionSpec[];

export type ImportRunFlags = Flags<typeof IMPORT_RUN_OPTIONS>;
