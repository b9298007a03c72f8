/** Built-ins loaded where first used (read/builtins.ts): the same modules either way, and one CRC-32 on every runtime. */
import * as childProcessModule from 'node:child_process';
import * as zlibModule from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtin, childProcess, crc32, tableCrc32, zlib } from '../../src/read/builtins.js';

describe('built-ins loaded where first used', () => {
  it('are the modules a static import gives', () => {
    expect(zlib().gunzipSync).toBe(zlibModule.gunzipSync);
    expect(childProcess().spawnSync).toBe(childProcessModule.spawnSync);
  });

  it('load through require on a runtime without process.getBuiltinModule (Node 22.0–22.2)', () => {
    const p = process as { getBuiltinModule?: unknown };
    const own = Object.getOwnPropertyDescriptor(process, 'getBuiltinModule');
    p.getBuiltinModule = undefined;
    try {
      expect(builtin<typeof zlibModule>('node:zlib').gunzipSync).toBe(zlibModule.gunzipSync);
      expect(builtin<typeof childProcessModule>('node:child_process').spawnSync).toBe(childProcessModule.spawnSync);
    } finally {
      if (own) Object.defineProperty(process, 'getBuiltinModule', own);
      else delete p.getBuiltinModule;
    }
    expect(typeof p.getBuiltinModule).toBe('function');
  });

  it("the table's CRC-32 (runtimes whose zlib has none) is zlib's, for bytes and text, continued or not", () => {
    expect(tableCrc32('123456789')).toBe(0xcbf43926); // the check value of CRC-32/ISO-HDLC
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.string({ unit: 'binary', maxLength: 60 }),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        (bytes, text, from) => {
          expect(tableCrc32(bytes, from)).toBe(zlibModule.crc32(bytes, from));
          expect(tableCrc32(text)).toBe(zlibModule.crc32(text));
          expect(crc32(bytes, from)).toBe(zlibModule.crc32(bytes, from));
          expect(tableCrc32(bytes.subarray(7), tableCrc32(bytes.subarray(0, 7)))).toBe(zlibModule.crc32(bytes));
        },
      ),
      { numRuns: 300 },
    );
  });
});
