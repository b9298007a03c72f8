/**
 * NDJSON lines of a decoded text, as the readers and the bundle reader both need them: split on
 * "\n", one trailing "\r" tolerated, a final line without "\n" still a line. Offsets, not slices.
 */

export interface Line {
  /** 1-based line number. */
  readonly line: number;
  readonly start: number;
  /** End offset, excluding "\n" and a trailing "\r". */
  readonly end: number;
}

export function* lines(text: string): Generator<Line> {
  for (let start = 0, line = 1; start < text.length; line++) {
    let end = text.indexOf('\n', start);
    const next = end === -1 ? text.length : end + 1;
    if (end === -1) end = text.length;
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    yield { line, start, end };
    start = next;
  }
}

/** Whether text[start, end) is over `maxBytes` in UTF-8; only slices when the length says it might be. */
export function overBytes(text: string, start: number, end: number, maxBytes: number): boolean {
  return end - start > maxBytes / 3 && Buffer.byteLength(text.slice(start, end)) > maxBytes;
}

/** A blank NDJSON line (§1): empty, or only spaces and tabs (a final CR is already cut). */
export function blank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09) return false;
  }
  return true;
}
