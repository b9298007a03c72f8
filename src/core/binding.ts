/**
 * The binding: "sha256:" + lowercase hex of sha256 over the UTF-8 bytes of the RFC 8785 (JCS)
 * canonical form. The one place in the gate where a digest is made.
 */
import { hash } from 'node:crypto';
import canonicalize from 'canonicalize';

export type Canonical = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };
export type Binding = { readonly ok: true; readonly digest: string } | { readonly ok: false; readonly reason: string };

export const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** RFC 8785 canonical text; lone surrogates and non-finite numbers are refused, not coerced. */
export function jcs(value: unknown): Canonical {
  try {
    const text = canonicalize(value);
    if (text === undefined) return { ok: false, reason: 'value has no JSON representation' };
    return { ok: true, text };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

export function sha256Hex(text: string | Uint8Array): string {
  return hash('sha256', text, 'hex');
}

/** binding(subject) as the semantics document defines it. */
export function binding(subject: unknown): Binding {
  const c = jcs(subject);
  return c.ok ? { ok: true, digest: 'sha256:' + sha256Hex(c.text) } : c;
}
