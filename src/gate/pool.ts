/**
 * Reading on worker threads: both sides of the protocol. `jobs` threads read: jobs − 1 workers and
 * the main thread. Workers are given the largest files first, at most DEPTH each at a time (so at
 * most (jobs − 1) × DEPTH results are in flight), and send back one compact text per file
 * (read/wire.ts), never the parsed objects; the main thread reads, in path order, the files no worker
 * has been given yet, and while it waits for a worker's file it reads the smallest ones left. A
 * worker that dies fails the file it was reading with a finding naming it (never a skipped file);
 * the files it held go to a fresh worker. A worker that cannot start (it ends before its reader says
 * it is loaded) read nothing: its files, and every file no worker holds, are read on the main
 * thread, and no more workers are started.
 */
import type { MessagePort, Worker } from 'node:worker_threads';
import { item, stored } from '../core/lists.js';
import type { FileEvidence } from '../read/file-read.js';
import type { Role } from '../read/files.js';
import { decodeRead } from '../read/wire.js';
import type { CacheNote } from './cache.js';
import { type Delivered, failed, type ReadSetup, type ReadTask, readEvidence, readWire, setupForThreads } from './evidence.js';

/** The results of reading every task, taken in order. */
export interface Readers {
  /** The i-th task's result, with what the cache did for it (each asked once, in order). */
  read(i: number): Promise<Delivered<FileEvidence>>;
  /** Stop the threads (after the last read). */
  close(): Promise<void>;
}

/**
 * Tasks given to one worker at once. The main thread hands out files only between its own reads (a
 * file read there is synchronous), so a worker must hold enough not to go idle meanwhile
 * (bench/HISTORY.md, "Results (2026-12-01, reading on every core: issue 23)").
 */
const DEPTH = 4;

/** main → worker */
interface TaskMessage {
  readonly id: number;
  readonly path: string;
  readonly rel: string;
  readonly role: Role;
  /** The key a verification snapshot names the file by (ReadTask.kept), or null. */
  readonly kept: string | null;
  /** The key this run's first reading gave the file (ReadTask.hashed), or null. */
  readonly hashed: string | null;
}
/** worker → main: the encoded result (null: the file is kept, ReadTask.kept) with what the cache did for it (never part of the encoding: it is what is stored), or why reading threw (a bug: the file still fails). */
type ResultMessage =
  | { readonly id: number; readonly text: string | null; readonly cache: CacheNote | null }
  | { readonly id: number; readonly thrown: string };
/** worker → main, first: its reader is loaded (a worker that ends before this read nothing). */
interface ReadyMessage {
  readonly ready: true;
}

interface Pending {
  resolve(evidence: Delivered<FileEvidence>): void;
  readonly promise: Promise<Delivered<FileEvidence>>;
  readonly settled: boolean;
}

function pending(): Pending {
  let done!: (evidence: Delivered<FileEvidence>) => void;
  const promise = new Promise<Delivered<FileEvidence>>((r) => {
    done = r;
  });
  const p = {
    settled: false,
    promise,
    resolve(evidence: Delivered<FileEvidence>): void {
      p.settled = true;
      done(evidence);
    },
  };
  return p;
}

/** A file whose reading thread failed: an error on the file, so it is never verified and never skipped. */
const stopped = (rel: string, why: string): Delivered<FileEvidence> => ({
  value: failed(rel, `the thread reading this file stopped (${why}); it is not verified`),
  cache: null,
});

/** A thread's answer that does not decode fails its file (never an unanswered read, never a crash); null: the file is kept. */
function decoded(text: string | null, rel: string, cache: CacheNote | null): Delivered<FileEvidence> {
  if (text === null) return { value: null, cache };
  try {
    return { value: decodeRead(text, rel), cache };
  } catch (error) {
    return stopped(rel, `its answer did not decode: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export class WorkerReaders implements Readers {
  private readonly results: Pending[];
  /** Task indices largest file first: the order workers are given them. */
  private readonly order: number[];
  private next = 0;
  /** The smallest task not yet looked at from the far end (this thread reads from there while it waits). */
  private last: number;
  /** Tasks held by a worker that died before reading them: given out again first. */
  private readonly retry: number[] = [];
  /** 1: given to a worker or read here. */
  private readonly taken: Uint8Array;
  /** Each live worker → the task ids it holds, oldest (the one it is reading) first. */
  private readonly held = new Map<Worker, number[]>();
  /** Workers whose reader loaded (one that ends before it did never read a file). */
  private readonly online = new Set<Worker>();
  /** A worker could not be started: no more are, and this thread reads what is left. */
  private broken = false;
  /** Wakes read() when tasks come back from a worker that never started. */
  private wake: (() => void) | null = null;
  private closing = false;
  /** The set-up this thread reads with once it reads alone. */
  private aloneSetup: ReadSetup | null = null;

  /** @param workers threads besides this one (which reads, in path order, the files no worker has been given yet) */
  constructor(
    private readonly tasks: readonly ReadTask[],
    sizes: readonly number[],
    private readonly setup: ReadSetup,
    workers: number,
    /** Starts one worker with the reading set-up. */
    private readonly start: (setup: ReadSetup) => Worker,
  ) {
    this.results = tasks.map(pending);
    this.taken = new Uint8Array(tasks.length);
    this.order = tasks.map((_, i) => i).sort((a, b) => item(sizes, b) - item(sizes, a) || a - b);
    this.last = this.order.length - 1;
    for (let k = 0; k < workers; k++) this.spawn();
  }

  /**
   * The i-th result. A file no worker has been given yet is read here; while a worker's file is
   * awaited, this thread reads the smallest files nobody has taken (their results wait for their
   * turn), yielding between files so the workers' results come in and they are given more.
   */
  async read(i: number): Promise<Delivered<FileEvidence>> {
    // Let the workers' results in first (each gives its worker its next file).
    await new Promise((r) => setImmediate(r));
    if (this.taken[i] === 0) {
      this.taken[i] = 1;
      return this.readHere(i);
    }
    const wanted = item(this.results, i);
    while (!wanted.settled) {
      // Given back by a worker that never started: read it here.
      if (this.taken[i] === 0) {
        this.taken[i] = 1;
        return this.readHere(i);
      }
      const j = this.takeSmallest();
      if (j !== undefined) {
        item(this.results, j).resolve(await this.readHere(j));
        await new Promise((r) => setImmediate(r));
      } else
        await new Promise<void>((r) => {
          this.wake = r;
          void wanted.promise.then(() => r());
        });
    }
    return wanted.promise;
  }

  private readHere(i: number): Promise<Delivered<FileEvidence>> {
    // Alone (no worker could start, none is left): signatures are checked as one reading thread checks them.
    const alone = this.broken && this.online.size === 0;
    return readEvidence(item(this.tasks, i), alone ? (this.aloneSetup ??= setupForThreads(this.setup, 1)) : this.setup);
  }

  /** The smallest task nobody has taken (the far end of the workers' order). */
  private takeSmallest(): number | undefined {
    while (this.last >= this.next) {
      const id = item(this.order, this.last--);
      if (this.taken[id] === 0) {
        this.taken[id] = 1;
        return id;
      }
    }
    return undefined;
  }

  /** The next task for a worker, or undefined when every task is taken (or workers cannot start). */
  private take(): number | undefined {
    if (this.broken) return undefined;
    for (;;) {
      const id = this.retry.length > 0 ? this.retry.shift() : this.order[this.next++];
      if (id === undefined) return undefined;
      if (this.taken[id] === 0) {
        this.taken[id] = 1;
        return id;
      }
    }
  }

  private spawn(): void {
    let worker: Worker;
    try {
      worker = this.start(this.setup);
    } catch {
      this.broken = true; // this thread reads every file no worker holds
      return;
    }
    this.held.set(worker, []);
    worker.on('message', (m: ResultMessage | ReadyMessage) => {
      if ('ready' in m) this.online.add(worker);
      else this.done(worker, m);
    });
    let why = 'it exited';
    worker.on('error', (e) => {
      why = e instanceof Error ? e.message : String(e);
    });
    worker.on('exit', (code) => this.exited(worker, code === 0 ? why : `${why}, code ${code}`));
    this.feed(worker);
  }

  private feed(worker: Worker): void {
    const held = stored(this.held, worker);
    while (held.length < DEPTH) {
      const id = this.take();
      if (id === undefined) return;
      const t = item(this.tasks, id);
      held.push(id);
      worker.postMessage({
        id,
        path: t.file.path,
        rel: t.file.rel,
        role: t.role,
        kept: t.kept ?? null,
        hashed: t.hashed ?? null,
      } satisfies TaskMessage);
    }
  }

  private done(worker: Worker, m: ResultMessage): void {
    const held = stored(this.held, worker);
    held.splice(held.indexOf(m.id), 1);
    this.feed(worker);
    const rel = item(this.tasks, m.id).file.rel;
    if ('text' in m) item(this.results, m.id).resolve(decoded(m.text, rel, m.cache));
    else item(this.results, m.id).resolve(stopped(rel, m.thrown));
  }

  /**
   * A worker ended. One that had started fails the file it was reading, and the ones queued behind
   * it go to a new worker; one that never started read nothing: its files come back to this thread,
   * and no more workers are started.
   */
  private exited(worker: Worker, why: string): void {
    const held = stored(this.held, worker);
    this.held.delete(worker);
    if (this.closing) return;
    if (!this.online.has(worker)) {
      this.broken = true;
      for (const id of held) this.taken[id] = 0;
      this.wake?.();
      return;
    }
    this.online.delete(worker);
    const [reading, ...rest] = held;
    if (reading !== undefined) item(this.results, reading).resolve(stopped(item(this.tasks, reading).file.rel, why));
    for (const id of rest) this.taken[id] = 0;
    this.retry.push(...rest);
    this.wake?.();
    if (!this.broken && (this.retry.length > 0 || this.next < this.order.length)) this.spawn();
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.held.keys()].map((w) => w.terminate()));
  }
}

/**
 * The worker side: read each task in turn (one file's bytes at a time in this thread's buffer), and
 * send back its encoded result once its checks are done; checks that run on libuv's pool (trust/check.ts)
 * finish while the next file is read.
 */
export function serveReads(port: MessagePort, setup: ReadSetup): void {
  port.postMessage({ ready: true } satisfies ReadyMessage);
  let chain = Promise.resolve();
  const reply = (id: number, got: Promise<Delivered<string>>): void => {
    got.then(
      (r) => port.postMessage({ id, text: r.value, cache: r.cache } satisfies ResultMessage),
      (e: unknown) => port.postMessage({ id, thrown: e instanceof Error ? e.message : String(e) } satisfies ResultMessage),
    );
  };
  port.on('message', (t: TaskMessage) => {
    chain = chain.then(() => {
      const task: ReadTask = {
        file: { path: t.path, rel: t.rel },
        role: t.role,
        ...(t.kept === null ? {} : { kept: t.kept }),
        ...(t.hashed === null ? {} : { hashed: t.hashed }),
      };
      reply(t.id, readWire(task, setup));
      return new Promise((resolve) => setImmediate(resolve));
    });
  });
}
