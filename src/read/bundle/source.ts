/**
 * The first job of the bundle reader: the archive's bytes through gunzip, pulled by the tar reader,
 * with the decompression limits (size, ratio) enforced while streaming.
 */

import type { BundleLimits } from '../limits.js';
import { ReadError } from '../read-error.js';
import type { ByteSource } from './tar.js';

const MiB = 1024 * 1024;

/** A pull source over the gunzip stream that enforces the decompression limits. */
export class GunzipSource implements ByteSource {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private total = 0;
  private done = false;
  private readonly it: AsyncIterator<Buffer>;

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

export function gzipReason(error: NodeJS.ErrnoException): string {
  const m = error.message ?? '';
  if (error.code === 'Z_BUF_ERROR' || /unexpected end/i.test(m)) return 'gzip stream is truncated (it ends before its trailer)';
  if (/incorrect header check|unknown compression/i.test(m)) return 'not a gzip stream (bad gzip header)';
  if (/incorrect data check/i.test(m)) return 'gzip CRC32 trailer does not match the data';
  if (/incorrect length check/i.test(m)) return 'gzip size trailer does not match the data';
  return `gzip stream is corrupt (${m})`;
}
