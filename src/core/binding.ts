/**
 * The binding: "sha256:" + lowercase hex of sha256 over the UTF-8 bytes of the RFC 8785 (JCS)
 * canonical form. The one place in the gate where a subject digest is made and the one pattern a
 * digest must match; a binding is recomputed from committed bytes, never fetched.
 */
import { hash } from 'node:crypto';
import canonicalize from 'canonicalize';

export type Canonical = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };
export type Binding = { readonly ok: true; readonly digest: string } | { readonly ok: false; readonly reason: string };

/** What every digest in an artifact must look like (binding_digest, run_root, key_id, …). */
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

/** "sha256:" + hex of sha256(bytes): the digest form every artifact uses. */
export const sha256Digest = (text: string | Uint8Array): string => `sha256:${sha256Hex(text)}`;

/** RFC 3339 UTC in whole seconds (`…T12:00:00Z`): signed_at and timeVerified. */
export const utcSeconds = (d: Date): string => d.toISOString().replace(/\.\d+Z$/, 'Z');

/** binding(subject) as the semantics document defines it. */
export function binding(subject: unknown): Binding {
  const c = jcs(subject);
  return c.ok ? { ok: true, digest: sha256Digest(c.text) } : c;
}
