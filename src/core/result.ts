/** The one result type: a value, or the reason there is none (never an exception for control flow). */
export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };
