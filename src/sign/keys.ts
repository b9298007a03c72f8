/**
 * Ed25519 keys for signed records: public keys (PEM SPKI blocks) that the gate trusts, the private
 * key an export job signs with, and new key pairs. Parsing returns a reason instead of throwing, so
 * each entry can name the input that was wrong.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { keyIdOf, type TrustedKeys } from './signature.js';

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

const BLOCK = /-----BEGIN ([A-Z ]+)-----[\s\S]*?-----END \1-----/g;

/** Every `PUBLIC KEY` block of a PEM text, each an Ed25519 SPKI key; anything else is refused. */
export function parsePublicKeys(pem: string): Parsed<KeyObject[]> {
  const keys: KeyObject[] = [];
  const blocks = pem.match(BLOCK) ?? [];
  if (blocks.length === 0) return { ok: false, reason: 'no PEM "PUBLIC KEY" block' };
  const rest = pem.replace(BLOCK, '').trim();
  if (rest !== '') return { ok: false, reason: 'text outside the PEM blocks' };
  for (const [i, block] of blocks.entries()) {
    const where = blocks.length > 1 ? `block ${i + 1}: ` : '';
    if (!block.startsWith('-----BEGIN PUBLIC KEY-----'))
      return { ok: false, reason: `${where}not a "PUBLIC KEY" block (a private key must never be given as a trusted key)` };
    let key: KeyObject;
    try {
      key = createPublicKey({ key: block, format: 'pem' });
    } catch (e) {
      return { ok: false, reason: `${where}does not parse (${(e as Error).message})` };
    }
    if (key.asymmetricKeyType !== 'ed25519') return { ok: false, reason: `${where}is a ${key.asymmetricKeyType} key; only Ed25519 keys sign records` };
    keys.push(key);
  }
  return { ok: true, value: keys };
}

/** Trusted keys by key_id (a key given twice counts once). */
export function trustedKeys(keys: readonly KeyObject[]): TrustedKeys {
  return new Map(keys.map((k) => [keyIdOf(k), k]));
}

/** An Ed25519 private key (PKCS#8 PEM) and its public key. */
export function parsePrivateKey(pem: string): Parsed<{ privateKey: KeyObject; publicKey: KeyObject }> {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: pem, format: 'pem' });
  } catch (e) {
    return { ok: false, reason: `does not parse as a PEM private key (${(e as Error).message})` };
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') return { ok: false, reason: `is a ${privateKey.asymmetricKeyType} key; records are signed with Ed25519` };
  return { ok: true, value: { privateKey, publicKey: createPublicKey(privateKey) } };
}

/** A new Ed25519 key pair as PEM texts (private: PKCS#8, public: SPKI) and its key_id. */
export function newKeyPair(): { privatePem: string; publicPem: string; keyId: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }) as string,
    keyId: keyIdOf(publicKey),
  };
}
