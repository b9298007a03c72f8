/** Where an offset of a decoded text is: its 1-based line and column. */
/**
 * 1-based line and column (in UTF-16 code units) of offsets in one text. Readers ask in increasing
 * order (a file's decisions, records and findings as they are read), so the index walks forward
 * from the last offset asked, counting newlines; an offset before it is found in a table of line
 * starts, built once, up to the furthest offset asked so far (not a table of every line of a file
 * for a few hundred offsets: 3.3 million lines for 100 000 calls).
 */
export class LineIndex {
  /** The line (0-based) and the start of the line of the furthest offset asked. */
  private at = 0;
  private line = 0;
  private lineStart = 0;
  /** The first newline at or after lineStart (-1: none; -2: not looked for yet), so offsets on one long line cost no search. */
  private nextBreak = -2;
  /** Line starts up to `at`, built when an offset before it is asked. */
  private starts: number[] | null = null;
  /** Over a text, or over the bytes of a plain-ASCII one (read/documents.ts: its byte offsets are its text's). */
  constructor(private readonly text: string | Uint8Array) {}

  /** The first newline at or after `from`, or -1 (over bytes, a loop: a native search per line of ~40 bytes costs more than it finds). */
  private newline(from: number): number {
    const text = this.text;
    if (typeof text === 'string') return text.indexOf('\n', from);
    for (let i = from; i < text.length; i++) if (text[i] === 0x0a) return i;
    return -1;
  }

  locate(offset: number): { line: number; column: number } {
    if (offset >= this.at) {
      const starts = this.starts;
      if (this.nextBreak === -2) this.nextBreak = this.newline(0);
      while (this.nextBreak !== -1 && this.nextBreak < offset) {
        this.line++;
        this.lineStart = this.nextBreak + 1;
        starts?.push(this.lineStart);
        this.nextBreak = this.newline(this.lineStart);
      }
      this.at = offset;
      return { line: this.line + 1, column: offset - this.lineStart + 1 };
    }
    const starts = this.behind();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
  }

  /** The line starts up to the furthest offset asked (then kept up to date as the index moves forward). */
  private behind(): number[] {
    if (!this.starts) {
      const starts = [0];
      for (let i = this.newline(0); i !== -1 && i < this.lineStart; i = this.newline(i + 1)) starts.push(i + 1);
      this.starts = starts;
    }
    return this.starts;
  }
}
