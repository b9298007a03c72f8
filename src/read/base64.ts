/** Standard base64 (RFC 4648 §4, padded), strictly: the one decoder of signatures and envelopes. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes of strict standard base64 text, or null (wrong alphabet, length or padding). */
export const strictBase64 = (s: string): Buffer | null => (s.length % 4 === 0 && BASE64.test(s) ? Buffer.from(s, 'base64') : null);
