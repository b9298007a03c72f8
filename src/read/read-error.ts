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
export const ioReason = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? (e as Error).message;
