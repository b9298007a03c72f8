/**
 * Target globs (docs/policy.md §8, §11 "Globs are linear"): `*` matches any run of characters but
 * `/`, the empty run included; nothing else is special. A pull request writes the values a glob is
 * matched against, so matching never backtracks: the glob is split at its stars into literal
 * pieces, the first must start the value and the last must end it, and each piece between is found
 * at its leftmost place after the one before (Knuth–Morris–Pratt, each byte of the value looked at
 * a bounded number of times). Leftmost is never worse: a later place leaves less of the value for
 * the pieces after it and a longer gap, which can only hold more `/`. Time: linear in the lengths
 * of the glob and the value.
 */

/** A glob made once (a rule is asked about every call). */
export interface Glob {
  /** The pieces between stars; one piece: no star, the value must equal it. */
  readonly pieces: readonly string[];
  /** Each middle piece's KMP failure table (index i: the piece at i; empty for the first and last). */
  readonly tables: readonly Int32Array[];
}

/** KMP failure table: for each prefix, the length of its longest proper border. */
function failure(piece: string): Int32Array {
  const table = new Int32Array(piece.length);
  let k = 0;
  for (let i = 1; i < piece.length; i++) {
    while (k > 0 && piece.charCodeAt(i) !== piece.charCodeAt(k)) k = table[k - 1] ?? 0;
    if (piece.charCodeAt(i) === piece.charCodeAt(k)) k++;
    table[i] = k;
  }
  return table;
}

export function compileGlob(glob: string): Glob {
  const pieces = glob.split('*');
  const empty = new Int32Array(0);
  return { pieces, tables: pieces.map((p, i) => (i === 0 || i === pieces.length - 1 || p === '' ? empty : failure(p))) };
}

/** Where `piece` first occurs in `value` at or after `from` and before `end`, or -1 (KMP: linear). */
function find(value: string, piece: string, table: Int32Array, from: number, end: number): number {
  let k = 0;
  for (let i = from; i < end; i++) {
    const c = value.charCodeAt(i);
    while (k > 0 && c !== piece.charCodeAt(k)) k = table[k - 1] ?? 0;
    if (c === piece.charCodeAt(k)) k++;
    if (k === piece.length) return i - k + 1;
  }
  return -1;
}

/** Whether the glob matches the value whole. */
export function globMatches(glob: Glob, value: string): boolean {
  const { pieces, tables } = glob;
  const first = pieces[0] ?? '';
  if (pieces.length === 1) return value === first;
  const last = pieces[pieces.length - 1] ?? '';
  if (value.length < first.length + last.length || !value.startsWith(first) || !value.endsWith(last)) return false;
  const end = value.length - last.length;
  let at = first.length;
  // The first `/` at or after `at` (moved only forward: every byte is looked at once for it).
  let slash = -2;
  const starSpan = (to: number): boolean => {
    if (slash !== -1 && slash < at) slash = value.indexOf('/', at);
    return slash < 0 || slash >= to;
  };
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i] ?? '';
    if (piece === '') continue;
    const found = find(value, piece, tables[i] ?? new Int32Array(0), at, end);
    // The star before this piece spans [at, found): no `/` there, or no later place would do either.
    if (found < 0 || !starSpan(found)) return false;
    at = found + piece.length;
  }
  return starSpan(end);
}

/**
 * Whether `outer` matches every value the glob `inner` matches (a rule reported shadowed must be
 * dead: docs/policy.md §11). Sound, not complete: `inner` is written as one text, each of its stars
 * a character `outer` does not hold and that is not `/`, and `outer` must match that text. Such a
 * character can only fall inside one of `outer`'s stars, which then takes whatever run (without
 * `/`) the inner star stands for as well. So a literal `inner` is judged exactly (`prod-*` covers
 * `prod-api`), `prod-*` covers `prod-a*`, `*` covers every glob without `/`, and `prod-a*` does not
 * cover `prod-*`. Linear in the two lengths.
 */
export function globCovers(outer: Glob, inner: string): boolean {
  if (!inner.includes('*')) return globMatches(outer, inner);
  const held = new Set<number>();
  for (const piece of outer.pieces) for (let i = 0; i < piece.length; i++) held.add(piece.charCodeAt(i));
  // A code unit outer does not hold (a private-use one first); none free: unsure, so no.
  let star = 0xe000;
  for (let tries = 0; held.has(star) || star === 0x2f; tries++) {
    if (tries > 0xffff) return false;
    star = (star + 1) & 0xffff;
  }
  return globMatches(outer, inner.split('*').join(String.fromCharCode(star)));
}
