/**
 * The first job of the bundle reader: the archive's bytes through gunzip, pulled by the tar reader,
 * with the decompression limits (size, ratio) enforced while streaming.
 */

import { crc32 } from '../builtins.js';
import type { BundleLimits } from '../limits.js';
import { ReadError } from '../read-error.js';
import type { ByteSource } from './tar.js';

const MiB = 1024 * 1024;

/** A pull source over the gunzip stream that enforces the decompression limits. */
export class GunzipSource implements ByteSource {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Decompressed bytes so far. */
  total = 0;
  private done = false;
  /** Whether the whole gzip stream has been read (its every member). */
  get ended(): boolean {
    return this.done;
  }
  private readonly it: AsyncIterator<Buffer>;
  /** CRC-32 of every decompressed byte so far (what a one-member archive's trailer says). */
  crc = 0;

  constructor(
    stream: AsyncIterable<Buffer>,
    private readonly compressed: number,
    private readonly limits: BundleLimits,
  ) {
    this.it = stream[Symbol.asyncIterator]();
  }

  private async fill(): Promise<boolean> {
    if (this.done) return false;
    const r = await this.it.next();
    if (r.done) {
      this.done = true;
      return false;
    }
    this.total += r.value.length;
    if (this.total > this.limits.maxDecompressedBytes) {
      throw new ReadError('limit', `decompressed size exceeds the ${this.limits.maxDecompressedBytes}-byte limit (decompression bomb?)`);
    }
    if (this.total > MiB && this.total > this.compressed * this.limits.maxRatio) {
      throw new ReadError(
        'limit',
        `decompression ratio exceeds ${this.limits.maxRatio}:1 (${this.compressed} compressed bytes expanded past ${this.total}; decompression bomb?)`,
      );
    }
    this.crc = crc32(r.value, this.crc);
    this.chunks.push(r.value);
    this.buffered += r.value.length;
    return true;
  }

  async read(n: number): Promise<Buffer> {
    while (this.buffered < n && (await this.fill()));
    const take = Math.min(n, this.buffered);
    const [only] = this.chunks;
    const all = this.chunks.length === 1 && only ? only : Buffer.concat(this.chunks);
    const out = all.subarray(0, take);
    const rest = all.subarray(take);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
    return out;
  }

  /** Read to the end of the gzip stream (so its CRC32 and size trailer are checked); true when only zeros followed. */
  async drain(): Promise<boolean> {
    let zeros = true;
    const check = (bytes: Buffer): void => {
      if (zeros)
        for (let i = 0; i < bytes.length; i++)
          if (bytes[i] !== 0) {
            zeros = false;
            break;
          }
    };
    for (const c of this.chunks) check(c);
    this.chunks = [];
    this.buffered = 0;
    while (await this.fill()) {
      for (const c of this.chunks) check(c);
      this.chunks = [];
      this.buffered = 0;
    }
    return zeros;
  }
}

/**
 * The compressed archive's end, for the one-member rule: the last bytes before its trailing zeros,
 * and how many zeros follow. Fed every chunk of the compressed input as it streams.
 */
export class ArchiveTail {
  private tail = Buffer.alloc(0);
  private zeros = 0;

  push(chunk: Buffer): void {
    let last = chunk.length - 1;
    while (last >= 0 && chunk[last] === 0) last--;
    if (last < 0) {
      this.zeros += chunk.length;
      return;
    }
    // Only the last 16 bytes are kept: no chunk is copied whole (this runs on every compressed chunk).
    const start = Math.max(0, last + 1 - 16);
    const gap = start > 0 ? 0 : Math.min(this.zeros, 16);
    this.tail = Buffer.concat([start > 0 ? Buffer.alloc(0) : this.tail, Buffer.alloc(gap), chunk.subarray(start, last + 1)]).subarray(-16);
    this.zeros = chunk.length - last - 1;
  }

  /**
   * Whether the gzip trailer at the end (CRC-32 and size of the member) is that of all the data: one
   * member, then only NUL padding. A second member would carry its own data's CRC and size. The
   * trailer's last bytes may be zeros themselves (all eight for an empty member), so every split of
   * the trailing zeros is tried. Blind spot: a first member with no data (its CRC-32 and size are
   * zero) followed by a second has the second's trailer, which is then that of all the data; the
   * tar inside must still be a whole bundle, so such an archive is one a first-member reader refuses.
   */
  oneMember(crc: number, size: number): boolean {
    for (let j = 0; j <= Math.min(8, this.zeros); j++) {
      const t = Buffer.concat([this.tail, Buffer.alloc(j)]).subarray(-8);
      if (t.length === 8 && t.readUInt32LE(0) === crc >>> 0 && t.readUInt32LE(4) === size % 2 ** 32) return true;
    }
    return false;
  }
}

export function gzipReason(error: NodeJS.ErrnoException): string {
  const m = error.message ?? '';
  if (error.code === 'Z_BUF_ERROR' || /unexpected end/i.test(m)) return 'gzip stream is truncated (it ends before its trailer)';
  if (/incorrect header check|unknown compression/i.test(m)) return 'not a gzip stream (bad gzip header)';
  if (/incorrect data check/i.test(m)) return 'gzip CRC32 trailer does not match the data';
  if (/incorrect length check/i.test(m)) return 'gzip size trailer does not match the data';
  return `gzip stream is corrupt (${m})`;
}
