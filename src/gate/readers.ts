/**
 * Where input files are read: on the main thread, or on worker threads too (gate/pool.ts) for a
 * large input. Each file is one unit of work (gate/evidence.ts) wherever it is read, and the gate
 * takes the results in path order (`read(i)`), so the report does not depend on which file finished
 * first. This module decides how many threads read (`jobs`, the input's weight).
 */
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// node:worker_threads is loaded only when workers start (a cost on every cold start otherwise).
import type { Worker } from 'node:worker_threads';
import type { FileEvidence } from '../read/file-read.js';
import { sigstoreOf } from '../read/formats.js';
import { type Delivered, identitiesFor, type ReadSetup, type ReadTask, readEvidence, setupForThreads } from './evidence.js';
import { type Readers, WorkerReaders } from './pool.js';

/**
 * Files read ahead of the one asked for on the main thread: a file's signature checks run on libuv's
 * pool (trust/check.ts: the set-up says `pool` when this thread reads alone on several cores) while
 * the next files are read, so reading and checking overlap; the results are held until they are
 * asked for, which the gate does at once (it keeps every file's evidence for the core anyway).
 */
const AHEAD = 64;

/** The main thread's reader: the files in path order, read ahead while earlier files' signatures are checked. */
export function inlineReaders(tasks: readonly ReadTask[], setup: ReadSetup): Readers {
  const started: Promise<Delivered<FileEvidence>>[] = [];
  /** 1: the file's reading has begun (its result may already have been taken). */
  const begun = new Uint8Array(tasks.length);
  const start = (k: number): void => {
    const task = tasks[k];
    if (task && begun[k] === 0) {
      begun[k] = 1;
      started[k] = readEvidence(task, setup);
    }
  };
  return {
    async read(i) {
      start(i);
      // Each file read ahead runs up to its first wait (its checks), letting those of earlier files finish meanwhile.
      for (let k = i + 1; k < Math.min(tasks.length, i + 1 + AHEAD) && begun[k] === 0; k++) {
        await new Promise((resolve) => setImmediate(resolve));
        start(k);
      }
      const got = started[i];
      if (!got) throw new Error(`file ${i} was never read`);
      delete started[i];
      return got;
    },
    close: async () => {},
  };
}

/**
 * Below this many bytes of input, reading on workers does not pay: a worker's start, its own JIT
 * warm-up and taking its results in are only won back on large inputs (the measurements:
 * bench/HISTORY.md, "Results (2026-12-01, reading on every core: issue 23)"). The default reads on the main thread below it; an
 * explicit `jobs` is honoured whatever the size.
 */
export const WORKER_THRESHOLD_BYTES = 64 * 1024 ** 2;

const sizeOf = (path: string): number => {
  try {
    return statSync(path).size;
  } catch {
    return 0; // the reader says why it cannot be read
  }
};

/**
 * What checking a file's bundle by identity weighs, in bytes of reading, for the threshold and for
 * the order workers are given files: auto starts workers from 128 bundles (64 MiB / 512 KiB), well
 * past where they pay (the measurements: bench/HISTORY.md, "Keyless checks on every core").
 */
export const KEYLESS_WEIGHT_BYTES = 512 * 1024;

/** A task's work: its file's bytes, and its bundle when one is beside it and will be checked by identity. */
const weightOf = (t: ReadTask, setup: ReadSetup): number =>
  sizeOf(t.file.path) + (identitiesFor(setup, t.role) && sizeOf(sigstoreOf(t.file.path)) > 0 ? KEYLESS_WEIGHT_BYTES : 0);

/** The bundled worker script beside the running bundle (dist/read-worker.js), or null when not built (tests of src/). */
function workerScript(): string | null {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const dir of [here, path.dirname(here)]) {
    const where = path.join(dir, 'read-worker.js');
    if (sizeOf(where) > 0) return where;
  }
  return null;
}

/**
 * How many threads read this input: `jobs` (null: the machine's cores, when the files' weights add
 * up to at least WORKER_THRESHOLD_BYTES), never more than there are files; 1 means the main thread.
 */
export function threadsFor(jobs: number | null, sizes: readonly number[], cores = availableParallelism()): number {
  const n = Math.min(jobs ?? cores, sizes.length);
  if (jobs === null && sizes.reduce((a, b) => a + b, 0) < WORKER_THRESHOLD_BYTES) return 1;
  return Math.max(n, 1);
}

/**
 * The readers for this input, their threads started now for these files in this order; the tasks
 * come later (with a verification snapshot's keys in them, gate/incremental.ts): a worker loads its
 * code (~150 ms) while the gate reads the snapshot. The function returned is called once, with tasks
 * of the same files in the same order (else the threads started are stopped and the tasks read by
 * threads of their own). `entry`: the worker's entry (default: the bundled one, looked up only when
 * workers may start; none when not built, as under tests of src/).
 */
export async function startReaders(
  base: readonly ReadTask[],
  setup: ReadSetup,
  jobs: number | null,
  entry?: string,
): Promise<(tasks: readonly ReadTask[]) => Readers> {
  // Where signatures are checked follows from how many threads read (`setupForThreads`).
  if (jobs === 1 || base.length <= 1) return (tasks) => inlineReaders(tasks, setupForThreads(setup, 1));
  const sizes = base.map((t) => weightOf(t, setup));
  const n = threadsFor(jobs, sizes);
  const script = n <= 1 ? null : (entry ?? workerScript());
  if (script === null) return (tasks) => inlineReaders(tasks, setupForThreads(setup, 1));
  const { Worker } = await import('node:worker_threads');
  // When every core has a reading thread, each checks its records' signatures itself; spare cores are the pool's.
  const threads = setupForThreads(setup, n);
  const start = (data: ReadSetup) => new Worker(script, { workerData: data });
  const started = Array.from({ length: n - 1 }, () => early(start(threads)));
  return (tasks) => {
    const same = tasks.length === base.length && tasks.every((t, i) => t.file.path === base[i]?.file.path && t.role === base[i]?.role);
    if (!same) for (const e of started.splice(0)) void e.worker.terminate();
    return new WorkerReaders(tasks, same ? sizes : tasks.map((t) => weightOf(t, setup)), threads, n - 1, (data) => {
      const e = started.shift();
      if (!e) return start(data);
      // The pool's listeners are on by the time this runs: what the worker said before is told to them.
      queueMicrotask(e.adopt);
      return e.worker;
    });
  };
}

/**
 * A worker started before its pool: what it says meanwhile (it is loaded, it failed, it ended) is
 * held and told again once the pool listens (`adopt`), never lost; until then it keeps nothing
 * running (a gate that stops before reading lets the process end).
 */
function early(worker: Worker): { readonly worker: Worker; readonly adopt: () => void } {
  const said: (readonly ['message' | 'error' | 'exit', unknown])[] = [];
  const message = (m: unknown) => said.push(['message', m]);
  const error = (e: unknown) => said.push(['error', e]);
  const exit = (code: unknown) => said.push(['exit', code]);
  worker.on('message', message).on('error', error).on('exit', exit);
  worker.unref();
  return {
    worker,
    adopt: () => {
      worker.off('message', message).off('error', error).off('exit', exit);
      worker.ref();
      for (const [event, value] of said) worker.emit(event, value);
    },
  };
}
