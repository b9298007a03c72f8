/** A place in a committed file: every finding and every value read carries one. Lines and columns are 1-based. */
export interface Location {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** For a location inside an archive (an evidence bundle): the member that line and column refer to. */
  readonly member?: string;
  /**
   * The commit the file was read at, when that is not the checked-out tree (a pull request's base
   * policy): reporters name such a place in words, never as a line of the file the checkout shows.
   */
  readonly commit?: string;
}
