/**
 * The one result type: a value (none for a check that only passes: `Result`), or the reason there is
 * none. Never an exception for control flow.
 */
export type Result<T = undefined> =
  | ([T] extends [undefined] ? { readonly ok: true } : { readonly ok: true; readonly value: T })
  | { readonly ok: false; readonly reason: string };
