/**
 * The one error class of the readers that throw inside (the bundle, tar and gzip readers): a closed
 * set of codes and a message naming the broken rule. It never crosses a module's export: each
 * reader converts it to a finding or a `Result` there, and callers decide on the code, never on text.
 */
export type ReadErrorCode =
  /** gzip framing, CRC or size trailer. */
  | 'gzip'
  /** the tar container (headers, member types, paths). */
  | 'tar'
  /** a bundle rule: member order, manifest, its digests. */
  | 'bundle'
  | 'manifest'
  | 'events'
  /** a size, ratio or count limit. */
  | 'limit'
  /** the file could not be read. */
  | 'io';

export class ReadError extends Error {
  constructor(
    readonly code: ReadErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Why a file system call failed, in the words every "cannot read" message uses: the errno code (ENOENT, EACCES …), else the message. */
const IO_WORDS: ReadonlyMap<string, string> = new Map([
  ['ENOENT', 'no such file or directory'],
  ['EACCES', 'permission denied'],
  ['EPERM', 'operation not permitted'],
  ['EISDIR', 'is a directory'],
  ['ENOTDIR', 'a path component is not a directory'],
  ['ELOOP', 'too many symbolic links'],
]);

/** Why a file cannot be read or written, in words with the system's code (`no such file or directory (ENOENT)`). */
export const ioReason = (thrown: unknown): string => {
  const code = thrown instanceof Error && 'code' in thrown && typeof thrown.code === 'string' ? thrown.code : null;
  if (code === null) return thrown instanceof Error ? thrown.message : String(thrown);
  const words = IO_WORDS.get(code);
  return words ? `${words} (${code})` : code;
};
