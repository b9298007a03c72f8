/**
 * Trusted keys: the Ed25519 public keys (PEM SPKI blocks) whose signatures the gate accepts, each
 * parsed once, by key_id. Parsing returns a reason instead of throwing, so each entry can name the
 * input that was wrong. PEM text is scanned once, left to right (no backtracking pattern), and is
 * refused past MAX_KEY_TEXT_BYTES.
 */
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import type { Result } from '../core/result.js';
import { messageOf } from '../core/text.js';
import { MAX_KEY_TEXT_BYTES } from '../read/limits.js';

/** Trusted signers: key_id → public key, each key parsed once. */
export type TrustedKeys = ReadonlyMap<string, KeyObject>;

/** key_id: sha256 of the public key's SubjectPublicKeyInfo DER. */
export function keyIdOf(publicKey: KeyObject): string {
  return `sha256:${createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')}`;
}

interface PemBlock {
  readonly label: string;
  readonly text: string;
}

/**
 * The PEM blocks of a text, in one left-to-right scan: every `-----BEGIN L-----` must be closed by
 * `-----END L-----`, and nothing but whitespace may stand between blocks.
 */
function pemBlocks(pem: string): Result<PemBlock[]> {
  if (Buffer.byteLength(pem) > MAX_KEY_TEXT_BYTES)
    return { ok: false, reason: `key text is over ${MAX_KEY_TEXT_BYTES} bytes (a few keys are a few KiB)` };
  const blocks: PemBlock[] = [];
  let at = 0;
  for (;;) {
    const begin = pem.indexOf('-----BEGIN ', at);
    const gap = pem.slice(at, begin < 0 ? pem.length : begin);
    if (gap.trim() !== '') return { ok: false, reason: 'text outside the PEM blocks' };
    if (begin < 0) break;
    const labelEnd = pem.indexOf('-----', begin + 11);
    const label = labelEnd < 0 ? '' : pem.slice(begin + 11, labelEnd);
    if (!/^[A-Z ]+$/.test(label)) return { ok: false, reason: 'a PEM BEGIN line without a label' };
    const endLine = `-----END ${label}-----`;
    const end = pem.indexOf(endLine, labelEnd + 5);
    if (end < 0) return { ok: false, reason: `a "${label}" block is never closed (no ${endLine})` };
    at = end + endLine.length;
    blocks.push({ label, text: pem.slice(begin, at) });
  }
  return { ok: true, value: blocks };
}

/** A key type as people name it, with its article: "an RSA key", "an EC (ECDSA) key". */
export function keyKind(type: string | undefined): string {
  const names: ReadonlyMap<string, string> = new Map([
    ['rsa', 'an RSA'],
    ['rsa-pss', 'an RSA-PSS'],
    ['dsa', 'a DSA'],
    ['ec', 'an EC (ECDSA)'],
    ['ed448', 'an Ed448'],
    ['x25519', 'an X25519'],
    ['x448', 'an X448'],
    ['dh', 'a Diffie-Hellman'],
  ]);
  return `${names.get(type ?? '') ?? `a ${type ?? 'unknown'}`} key`;
}

/** The label of the first PEM block of a text, or null when it holds none. */
export const firstPemLabel = (pem: string): string | null => /-----BEGIN ([A-Z0-9 ]+)-----/.exec(pem)?.[1] ?? null;

/** Every `PUBLIC KEY` block of a PEM text, each an Ed25519 SPKI key; anything else is refused. */
export function parsePublicKeys(pem: string): Result<KeyObject[]> {
  if (!pem.includes('-----BEGIN '))
    return {
      ok: false,
      reason: 'no PEM "PUBLIC KEY" block (this takes the PEM text of a public key, -----BEGIN PUBLIC KEY-----, not a file name)',
    };
  const scanned = pemBlocks(pem);
  if (!scanned.ok) return scanned;
  const blocks = scanned.value;
  if (blocks.length === 0) return { ok: false, reason: 'no PEM "PUBLIC KEY" block' };
  const keys: KeyObject[] = [];
  for (const [i, block] of blocks.entries()) {
    const where = blocks.length > 1 ? `block ${i + 1}: ` : '';
    if (block.label !== 'PUBLIC KEY')
      return { ok: false, reason: `${where}not a "PUBLIC KEY" block (a private key must never be given as a trusted key)` };
    let key: KeyObject;
    try {
      key = createPublicKey({ key: block.text, format: 'pem' });
    } catch (error) {
      return { ok: false, reason: `${where}does not parse (${messageOf(error)})` };
    }
    if (key.asymmetricKeyType !== 'ed25519')
      return { ok: false, reason: `${where}is ${keyKind(key.asymmetricKeyType)}; only Ed25519 keys sign records` };
    keys.push(key);
  }
  return { ok: true, value: keys };
}

/** Trusted keys by key_id (a key given twice counts once). */
export function trustedKeys(keys: readonly KeyObject[]): TrustedKeys {
  return new Map(keys.map((k) => [keyIdOf(k), k]));
}
