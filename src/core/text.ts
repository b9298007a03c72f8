/** Text helpers every floor uses: one order for strings, one way to cut untrusted text. */

/** Plain string order (UTF-16 code units), the order of paths and ids everywhere. */
export const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Untrusted text (names, ids, providers from artifacts) as quoted in a message: at most `max`
 * UTF-16 units, cut at a code-point boundary with a visible marker, so no message grows with it.
 */
export const quote = (s: string, max = 200): string => clip(s, max);

// C0/C1 controls, DEL, line/paragraph separators, bidi overrides and isolates.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Escape control and bidi characters as \uXXXX so they are shown, never interpreted. */
export function visible(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** At most `max` UTF-16 units, cut with a visible marker and never inside a surrogate pair. */
export function clip(text: string, max: number, marker = '…'): string {
  if (text.length <= max) return text;
  let cut = Math.max(0, max - marker.length);
  const c = text.charCodeAt(cut - 1);
  if (c >= 0xd800 && c <= 0xdbff) cut--;
  return text.slice(0, cut) + marker;
}

/** Edit distance (insertions, deletions, substitutions; case counts), for "did you mean" suggestions. */
export function editDistance(left: string, right: string): number {
  let prev = Array.from({ length: right.length + 1 }, (_, j) => j);
  for (let i = 1; i <= left.length; i++) {
    const cur = [i];
    for (let j = 1; j <= right.length; j++) {
      cur[j] = Math.min(
        (prev[j] as number) + 1,
        (cur[j - 1] as number) + 1,
        (prev[j - 1] as number) + (left[i - 1] === right[j - 1] ? 0 : 1),
      );
    }
    prev = cur;
  }
  return prev[right.length] as number;
}

/** The candidate nearest to `word` (ties: the first in order), when it is near enough to be a likely typo; else null. */
export function nearestName(word: string, candidates: Iterable<string>): string | null {
  let best: string | null = null;
  let bestD = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestD) [best, bestD] = [c, d];
  }
  return best !== null && bestD <= Math.max(2, Math.floor(word.length / 3)) ? best : null;
}

/** ASCII letters in lower case, nothing else changed (GitHub's case-insensitivity; never Unicode folding). */
export const asciiLower = (s: string): string => (/[A-Z]/.test(s) ? s.replace(/[A-Z]/g, (c) => c.toLowerCase()) : s);

/** What went wrong, in words, whatever was thrown (an Error's message, or the value as text). */
export const messageOf = (thrown: unknown): string => (thrown instanceof Error ? thrown.message : String(thrown));

/**
 * The same text, as one flat string. V8 keeps a concatenation (a template literal) as a tree of its
 * parts, and a 70-character reason built from a few templates holds ~2× the memory of its text; a
 * text kept until the report is written (every call's reason) is flattened once, here, instead of
 * being held as a tree and flattened again when the report is rendered. Slicing a concatenation
 * flattens it; the value is the same string. Measured in
 * (BENCHMARKS.md, "Issue 44, eighteenth stop: the tail, and the bound on two cores").
 */
export const flat = (s: string): string => (s.length < 13 ? s : `\u0000${s}`.slice(1));
