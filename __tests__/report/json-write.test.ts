/**
 * The JSON report written to a file (report/json-report.ts `writeJson`): the same bytes as the report
 * rendered whole, whatever the lines hold and wherever the pieces and buffers end (many buffers' worth,
 * a line longer than a buffer, characters of two, three and four bytes), with the digest of exactly
 * the bytes written; in place (a FIFO) in order.
 */

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, openSync, readFileSync, writeFileSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallReport, Report } from '../../src/core/report.js';
import { FileSpan, renderJson, writeJson, writeJsonOnly, writePieces } from '../../src/report/json-report.js';
import { cleanup, gate, ROOT, tempDir } from '../support/workspace.js';

afterEach(cleanup);

const sha256 = (bytes: Buffer | string): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** The demo's report with its calls repeated `times` times, the reason of call k replaced by `reason(k)`. */
async function inflated(times: number, reason: (k: number) => string): Promise<Report> {
  const report = await gate(path.join(ROOT, 'fixtures/demo'));
  const calls: CallReport[] = [];
  for (let t = 0; t < times; t++) for (const c of report.calls) calls.push({ ...c, index: calls.length, reason: reason(calls.length) });
  return { ...report, calls };
}

async function written(report: Report): Promise<{ bytes: Buffer; digest: string }> {
  const file = path.join(tempDir(), 'out', 'report.json');
  const digest = await writeJson(report, file);
  return { bytes: readFileSync(file), digest };
}

describe('the JSON report written to a file', () => {
  it('is the rendered report, byte for byte, across many buffers, with the digest of its bytes', async () => {
    // ~6 MB of lines: several buffers of the ring, each reused.
    const report = await inflated(4000, (k) => `reason ${k} é ✓ 😀 ##[error] ${'x'.repeat(k % 700)}`);
    const { bytes, digest } = await written(report);
    const whole = renderJson(report);
    expect(bytes.length).toBeGreaterThan(5 * 2 ** 20);
    expect(bytes.equals(Buffer.from(whole, 'utf8'))).toBe(true);
    expect(digest).toBe(sha256(bytes));
    // `##[` is never written as such, even where pieces end.
    expect(bytes.includes('##[')).toBe(false);
  });

  it('text of three bytes a character fills the buffers to their last byte and no further', async () => {
    const report = await inflated(500, (k) => `${'中'.repeat(2000 + ((k * 7919) % 6000))}`);
    const { bytes, digest } = await written(report);
    expect(bytes.length).toBeGreaterThan(10 * 2 ** 20);
    expect(bytes.equals(Buffer.from(renderJson(report), 'utf8'))).toBe(true);
    expect(digest).toBe(sha256(bytes));
  });

  it('a line longer than a buffer after a thousand short ones is written after them', async () => {
    const report = await inflated(300, (k) => (k === 1000 ? 'ж'.repeat(400_000) : `short ${k}`));
    const { bytes } = await written(report);
    expect(bytes.equals(Buffer.from(renderJson(report), 'utf8'))).toBe(true);
  });

  it('a line longer than a buffer, and lines of wide characters around it, are written whole and in order', async () => {
    const long = (k: number): string => (k === 7 ? '😀'.repeat(700_000) : k === 8 ? 'ы'.repeat(400_000) : `short ${k}`);
    const report = await inflated(3, long);
    const { bytes, digest } = await written(report);
    expect(bytes.equals(Buffer.from(renderJson(report), 'utf8'))).toBe(true);
    expect(digest).toBe(sha256(bytes));
  });

  it('any reasons, any lengths: the same bytes as rendered whole (property)', async () => {
    const base = await gate(path.join(ROOT, 'fixtures/demo'));
    await fc.assert(
      // size 'max': lengths over the whole range (fast-check's default keeps strings a few characters long).
      fc.asyncProperty(
        fc.array(fc.string({ unit: 'binary', maxLength: 40_000, size: 'max' }), { minLength: 1, maxLength: 40 }),
        async (reasons) => {
          const calls = reasons.map((reason, index) => ({ ...(base.calls[index % base.calls.length] as CallReport), index, reason }));
          const report = { ...base, calls };
          const { bytes, digest } = await written(report);
          expect(bytes.equals(Buffer.from(renderJson(report), 'utf8'))).toBe(true);
          expect(digest).toBe(sha256(bytes));
        },
      ),
      { numRuns: 25 },
    );
  });

  it('through a disk that takes its time and short writes: no buffer refilled while its write is in flight, every byte at its offset', async () => {
    /** A file handle whose writes end after a while, take part of what they are given, and read the bytes only when they end. */
    const fake = (): { fh: FileHandle; file: () => Buffer; most: () => number } => {
      const at = new Map<number, Buffer>();
      let end = 0;
      let inFlight = 0;
      let most = 0;
      let seed = 7;
      const random = (n: number): number => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed % n;
      };
      const fh = {
        write: async (buf: Buffer, off: number, len: number, pos: number | null) => {
          inFlight++;
          most = Math.max(most, inFlight);
          await new Promise((r) => setTimeout(r, random(3)));
          const n = Math.max(1, Math.min(len, random(4) === 0 ? 1 + random(len) : len));
          const where = pos ?? end;
          at.set(where, Buffer.from(buf.subarray(off, off + n)));
          end = Math.max(end, where + n);
          inFlight--;
          return { bytesWritten: n, buffer: buf };
        },
      } as unknown as FileHandle;
      const file = (): Buffer => {
        const out = Buffer.alloc(end);
        for (const [where, bytes] of at) bytes.copy(out, where);
        return out;
      };
      return { fh, file, most: () => most };
    };
    // Spans of a file (a snapshot's kept lists) among them: one longer than a buffer, one of a few bytes, one after a long line.
    const kept = Buffer.from(Array.from({ length: 3_300_000 }, (_, i) => 32 + ((i * 7919) % 90)));
    const keptFile = path.join(tempDir(), 'kept');
    writeFileSync(keptFile, kept);
    const fd = openSync(keptFile, 'r');
    const pieces: (string | FileSpan)[] = [];
    for (let k = 0; k < 400; k++) {
      pieces.push(k % 97 === 5 ? 'ж'.repeat(360_000) : `${k} ${'é中😀'.repeat(k % 5000)}`);
      if (k === 50) pieces.push(new FileSpan(fd, 17, 2_600_000));
      if (k === 120) pieces.push(new FileSpan(fd, 5, 10));
      if (k === 199) pieces.push(new FileSpan(fd, 3_000_000, 300_000));
    }
    const expected = Buffer.concat(
      pieces.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : kept.subarray(p.from, p.from + p.length))),
    );
    for (const inPlace of [false, true]) {
      const disk = fake();
      const hash = createHash('sha256');
      await writePieces(disk.fh, pieces, hash, inPlace);
      expect(disk.file().equals(expected), `in place: ${inPlace}`).toBe(true);
      expect(`sha256:${hash.digest('hex')}`).toBe(sha256(expected));
      expect(disk.most()).toBeLessThanOrEqual(inPlace ? 1 : 5);
    }
    // A span past the file's end: the write rejects, saying the kept bytes were cut short.
    await expect(writePieces(fake().fh, ['a', new FileSpan(fd, 3_299_990, 20)], null, false)).rejects.toThrow(
      /ended 10 byte\(s\) before its end/,
    );
    closeSync(fd);
  });

  it.skipIf(process.platform === 'win32')('in place (a FIFO): every buffer in order', async () => {
    const report = await inflated(3000, (k) => `in place ${k} ${'é'.repeat(k % 300)}`);
    const fifo = path.join(tempDir(), 'report.fifo');
    await new Promise<void>((resolve, reject) => {
      const p = spawn('mkfifo', [fifo]);
      p.on('error', reject);
      p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`mkfifo exited ${code}`))));
    });
    const chunks: Buffer[] = [];
    const reading = new Promise<void>((resolve, reject) => {
      const s = createReadStream(fifo);
      s.on('data', (c) => chunks.push(c as Buffer));
      s.on('end', resolve);
      s.on('error', reject);
    });
    await writeJsonOnly(report, fifo);
    await reading;
    expect(Buffer.concat(chunks).equals(Buffer.from(renderJson(report), 'utf8'))).toBe(true);
  });
});
