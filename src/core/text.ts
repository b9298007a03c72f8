/** Text helpers every floor uses: one order for strings, one way to cut untrusted text. */

/** Plain string order (UTF-16 code units), the order of paths and ids everywhere. */
export const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Untrusted text (names, ids, providers from artifacts) as quoted in a message: at most `max`
 * UTF-16 units, cut at a code-point boundary with a visible marker, so no message grows with it.
 */
export const quote = (s: string, max = 200): string => clip(s, max);

/** At most `max` UTF-16 units, cut with a visible marker and never inside a surrogate pair. */
export function clip(s: string, max: number, marker = '…'): string {
  if (s.length <= max) return s;
  let cut = Math.max(0, max - marker.length);
  const c = s.charCodeAt(cut - 1);
  if (c >= 0xd800 && c <= 0xdbff) cut--;
  return s.slice(0, cut) + marker;
}
