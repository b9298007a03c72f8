/** A place in a committed file: every finding and every value read carries one. Lines and columns are 1-based. */
export interface Location {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** For a location inside an archive (an evidence bundle): the member that line and column refer to. */
  readonly member?: string;
}
