/**
 * `receipt-gate import KIND`: a provider's audit export (files a user exported: nothing is queried)
 * turned into audit records, written only when the whole import succeeds.
 */
import { IMPORT_KIND_NAMES } from '../../tools/import/names.js';
import { type Command, loadedRun } from '../command.js';
import { IMPORT_OPTIONS } from './import-options.js';

export const importExports: Command = {
  spec: {
    name: 'import',
    synopsis: 'KIND --output FILE [options] INPUT...',
    summary: "turn a provider's audit export into audit records",
    about: `turns provider audit exports (read from files: nothing is queried) into audit records, written as NDJSON only when the whole import succeeds; KIND is one of ${IMPORT_KIND_NAMES.join(', ')}`,
    options: IMPORT_OPTIONS,
  },
  // The importers load only now (run-import.ts): a verify never compiles them.
  run: loadedRun(IMPORT_OPTIONS, async () => (await import('./run-import.js')).importCommand),
};
