/** UTF-8 decoding that refuses invalid bytes and says where the first one is. */

import { isUtf8 } from 'node:buffer';

import type { Result } from '../core/result.js';

/** The text, or the byte offset of the first invalid byte. */
export type Decoded = Result<string, number>;

/** Validate (simdutf), then decode; a byte-order mark is kept so that it can be refused with a location. */
export function decodeUtf8(bytes: Uint8Array): Decoded {
  if (!isUtf8(bytes)) return { ok: false, reason: firstInvalidUtf8(bytes) };
  return { ok: true, value: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') };
}

/** Byte offset of the first byte that does not start or continue a well-formed UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const c = bytes[i] ?? 0;
    if (c < 0x80) {
      i++;
      continue;
    }
    let n: number;
    let min: number;
    let cp: number;
    if (c >= 0xc2 && c <= 0xdf) [n, min, cp] = [1, 0x80, c & 0x1f];
    else if (c >= 0xe0 && c <= 0xef) [n, min, cp] = [2, 0x800, c & 0x0f];
    else if (c >= 0xf0 && c <= 0xf4) [n, min, cp] = [3, 0x10000, c & 0x07];
    else return i;
    if (i + n >= bytes.length) return i;
    for (let k = 1; k <= n; k++) {
      const cc = bytes[i + k] ?? 0;
      if ((cc & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (cc & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return bytes.length;
}

/** 1-based line and column (in bytes) of a byte offset. */
export function byteLocation(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
