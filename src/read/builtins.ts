/**
 * Node built-ins that cost milliseconds to load and that most runs never use, loaded where first
 * used instead of when the bundle starts: `node:child_process` (~7.5 ms: git, only for a policy or
 * trust file read at a commit) and `node:zlib` (~3 ms: gzip and CRC-32, only for bundles, gzipped
 * exports, the cache and CloudTrail's digests). Measured in
 * (BENCHMARKS.md, "Issue 44, twenty-fifth stop: built-ins loaded where first used").
 */
import { createRequire } from 'node:module';

/** A built-in: `process.getBuiltinModule` (Node 22.3+), else `require` (22.0–22.2, which `engines` allows); each is asked for once, below. */
export function builtin<T>(id: string): T {
  const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  return (typeof get === 'function' ? get(id) : createRequire(import.meta.url)(id)) as T;
}

let childProcessModule: typeof import('node:child_process') | null = null;
let zlibModule: typeof import('node:zlib') | null = null;

export const childProcess = (): typeof import('node:child_process') =>
  (childProcessModule ??= builtin<typeof import('node:child_process')>('node:child_process'));

export const zlib = (): typeof import('node:zlib') => (zlibModule ??= builtin<typeof import('node:zlib')>('node:zlib'));

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 as zlib computes it, continued from `value`, in JavaScript: for runtimes whose zlib has none (before Node 22.2). */
export function tableCrc32(data: Uint8Array | string, value = 0): number {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let c = ~value >>> 0;
  for (let i = 0; i < bytes.length; i++) c = (CRC_TABLE[(c ^ (bytes[i] ?? 0)) & 0xff] ?? 0) ^ (c >>> 8);
  return ~c >>> 0;
}

type Crc32 = (data: Uint8Array | string, value: number) => number;
/** zlib's CRC-32 where it has one, else the table's: chosen once, at the first check (a snapshot kept checks each call's row). */
let crc: Crc32 | null = null;

/** CRC-32 (zlib's: a bundle's gzip trailer, the cache's checks against damage), continued from `value`; native from Node 22.2. */
export function crc32(data: Uint8Array | string, value = 0): number {
  if (crc === null) {
    const native = (zlib() as { crc32?: Crc32 }).crc32;
    crc = typeof native === 'function' ? native : tableCrc32;
  }
  return crc(data, value);
}
