/**
 * The artifact file types the gate reads, by name: the one list of extensions. A directory input
 * means every file with one of these beneath it.
 */
export type Format = 'json' | 'ndjson' | 'bundle';

export const EXTENSIONS: readonly { readonly ext: string; readonly format: Format }[] = [
  { ext: '.json', format: 'json' },
  { ext: '.jsonl', format: 'ndjson' },
  { ext: '.ndjson', format: 'ndjson' },
  { ext: '.tar.gz', format: 'bundle' },
];

/** ".json, .jsonl, .ndjson or .tar.gz" */
export const EXTENSION_LIST = `${EXTENSIONS.slice(0, -1)
  .map((e) => e.ext)
  .join(', ')} or ${EXTENSIONS.at(-1)!.ext}`;

/** The format of a file by its name (case-insensitive), or null when the gate does not read it. */
export function formatOf(file: string): Format | null {
  const lower = file.toLowerCase();
  for (const { ext, format } of EXTENSIONS) if (lower.endsWith(ext)) return format;
  return null;
}
