/**
 * The artifact file types the gate reads, by name: the one list of extensions. A directory input
 * means every file with one of these beneath it (a server log only under the run inputs); a file
 * ending `.intoto.jsonl` (DSSE) or `.sigstore.json` (a Sigstore bundle) is an attestation, found
 * beside its artifact and never read as a run or an export.
 */
export type Format = 'json' | 'ndjson' | 'log' | 'bundle' | 'attestation';

const EXTENSIONS: readonly { readonly ext: string; readonly format: Format }[] = [
  // First: a DSSE sidecar also ends in .jsonl, a Sigstore bundle in .json.
  { ext: '.intoto.jsonl', format: 'attestation' },
  { ext: '.sigstore.json', format: 'attestation' },
  { ext: '.json', format: 'json' },
  { ext: '.jsonl', format: 'ndjson' },
  { ext: '.ndjson', format: 'ndjson' },
  { ext: '.log', format: 'log' },
  { ext: '.tar.gz', format: 'bundle' },
];

/** ".json, .jsonl, .ndjson, .log or .tar.gz" (what a run input may hold). */
export const EXTENSION_LIST = '.json, .jsonl, .ndjson, .log or .tar.gz';

/** The format of a file by its name (case-insensitive), or null when the gate does not read it. */
export function formatOf(file: string): Format | null {
  const lower = file.toLowerCase();
  for (const { ext, format } of EXTENSIONS) if (lower.endsWith(ext)) return format;
  return null;
}

/**
 * A run or export compressed on its own (`.log.gz` from log rotation, `.ndjson.gz`): never read and
 * never skipped in silence (the same file unzipped could fail the gate). Null when it is not one.
 */
export function compressedText(file: string): string | null {
  const match = /\.(json|jsonl|ndjson|log)\.gz$/i.exec(file);
  if (!match) return null;
  return `a gzip-compressed .${(match[1] ?? '').toLowerCase()} file: receipt-gate reads runs and exports as text (and evidence bundles as .tar.gz); decompress it (gunzip) and commit the text, or move it out of the input`;
}

/** Whether a directory or glob input of this role picks the file up. */
export function discoverable(file: string, role: 'runs' | 'audit'): boolean {
  const format = formatOf(file);
  return format !== null && format !== 'attestation' && (format !== 'log' || role === 'runs');
}

/** The sidecar of a bundle: `<bundle file name>.intoto.jsonl` beside it. */
export const sidecarOf = (bundle: string): string => `${bundle}.intoto.jsonl`;

/** The Sigstore bundle file of an artifact: `<artifact file name>.sigstore.json` beside it. */
export const sigstoreOf = (artifact: string): string => `${artifact}.sigstore.json`;

/** The artifact an attestation file is about: its name without `.intoto.jsonl` / `.sigstore.json` (null: not an attestation). */
export function attestedBy(attestation: string): string | null {
  const match = /\.(intoto\.jsonl|sigstore\.json)$/i.exec(attestation);
  return match ? attestation.slice(0, match.index) : null;
}
