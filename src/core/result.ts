/**
 * The one result type across module boundaries: a value (none for a check that only passes:
 * `Result`), or the reason there is none (text by default; located findings, a `ReadError`, a
 * usage problem where the caller needs more than words). Never an exception for control flow.
 */
export type Result<T = undefined, E = string> =
  | ([T] extends [undefined] ? { readonly ok: true } : { readonly ok: true; readonly value: T })
  | { readonly ok: false; readonly reason: E };
