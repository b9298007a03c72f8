/**
 * `receipt-gate import-run KIND`: a producer's own file (a gh-aw safe-outputs manifest, OpenTelemetry
 * JSON lines) turned into a run the gate reads, offline, written only when the whole import succeeds
 * and never over a different file (docs/producers.md).
 */
import { RUN_KIND_NAMES } from '../../tools/import-run/names.js';
import { type Command, loadedRun } from '../command.js';
import { IMPORT_RUN_OPTIONS } from './import-run-options.js';

export const importRun: Command = {
  spec: {
    name: 'import-run',
    synopsis: `${RUN_KIND_NAMES.join('|')} --output FILE [--map FILE] INPUT...`,
    summary: "turn another producer's file into a run",
    about:
      "turns a producer's own file (read offline: nothing is queried) into a run of NDJSON evidence events the gate reads, one per tool call; each call asserts exactly what the file says happened",
    options: IMPORT_RUN_OPTIONS,
  },
  // The producers' readers load only now (run-import-run.ts): a verify never compiles them.
  run: loadedRun(IMPORT_RUN_OPTIONS, async () => (await import('./run-import-run.js')).importRunCommand),
};
