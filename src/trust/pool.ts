/**
 * Signature checks off the main thread. Ed25519 verification is pure CPU and independent per record
 * (~150 µs each on the benchmark machine), so each record's check starts as soon as its audit export
 * is read, on libuv's thread pool (node:crypto's asynchronous verify), while the main thread goes on
 * reading the run artifacts. At most WINDOW checks are queued at once (memory stays bounded and
 * file reads that use the same thread pool are not starved); the reader calls `yield()` between
 * files so finished checks make room for the next. The rules are `checkTrust`'s (check.ts). What
 * leaves here is a core RecordInput: its trust decided, its signature and payload dropped.
 */
import type { RecordInput, Trust } from '../core/model.js';
import type { RecordRead } from '../read/record-read.js';
import { checkTrust } from './check.js';
import type { TrustedKeys } from './keys.js';

/** A record with its trust decided and what its check needed dropped (never a copy of the parsed object). */
const withTrust = (r: RecordRead, trust: Trust): RecordInput => ({ loc: r.loc, record: r.record, signer: r.signer, trust });

/** A record as the core sees it when no trusted keys are configured. */
export const unchecked = (r: RecordRead): RecordInput => withTrust(r, { kind: 'unchecked' });

const WINDOW = 4096;

/** Trust for records as they are read: `add` each audit file's records, `finish` after the runs are read. */
export class TrustPool {
  private readonly records: RecordRead[] = [];
  private readonly trust: Trust[] = [];
  private next = 0;
  private inFlight = 0;
  private failed: unknown = null;
  private idle: (() => void) | null = null;

  constructor(private readonly keys: TrustedKeys | null) {}

  add(records: readonly RecordRead[]): void {
    for (const r of records) this.records.push(r);
    this.pump();
  }

  /** Start checks until the window is full. */
  private pump(): void {
    const keys = this.keys;
    while (this.next < this.records.length && this.inFlight < WINDOW) {
      const i = this.next++;
      const r = this.records[i]!;
      if (!keys) {
        this.trust[i] = { kind: 'unchecked' };
        continue;
      }
      this.inFlight++;
      checkTrust(r.signature ?? null, r.payload, keys).then(
        (c) => {
          this.trust[i] = c.ok ? { kind: 'trusted' } : { kind: 'untrusted', reason: c.reason };
          this.done();
        },
        (e) => {
          this.failed ??= e;
          this.done();
        },
      );
    }
  }

  private done(): void {
    this.inFlight--;
    this.pump();
    if (this.inFlight === 0 && this.next >= this.records.length) this.idle?.();
  }

  /** Let finished checks be collected (and new ones start) between files read synchronously. */
  yield(): Promise<void> {
    return this.inFlight > 0 ? new Promise((resolve) => setImmediate(resolve)) : Promise.resolve();
  }

  /** Every record with its trust decided, in the order added. */
  async finish(): Promise<RecordInput[]> {
    this.pump();
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.idle = resolve));
    if (this.failed) throw this.failed;
    return this.records.map((r, i) => withTrust(r, this.trust[i]!));
  }
}
