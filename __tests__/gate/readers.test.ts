/**
 * Reading on worker threads (gate/readers.ts): the bundled reader gives what the main thread's
 * reader gives, the gate's report does not depend on the order files finish in, a thread that dies
 * fails the file it was reading (never a skipped file), and the thread count follows the input.
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Delivered, ReadSetup, ReadTask } from '../../src/gate/evidence.js';
import { type OpenReaders, runGate } from '../../src/gate/gate.js';
import type { Readers } from '../../src/gate/pool.js';
import { inlineReaders, startReaders, threadsFor, WORKER_THRESHOLD_BYTES } from '../../src/gate/readers.js';
import { defaultSettings } from '../../src/gate/settings/parsers.js';
import type { Settings } from '../../src/gate/settings/types.js';
import type { FileEvidence } from '../../src/read/file-read.js';
import { DEFAULT_LIMITS } from '../../src/read/limits.js';
import { renderJson } from '../../src/report/json-report.js';
import { signatureChecksFor } from '../../src/trust/check.js';
import { artifactFiles } from '../support/artifact-files.js';
import { cleanup, distFile, ROOT, TEST_NOW, tempDir } from '../support/workspace.js';

afterEach(cleanup);

/** The artifacts under `dir` as tasks, named relative to it; a path with "audit" in it is an audit export. */
const tasksUnder = (dir: string): ReadTask[] =>
  artifactFiles(dir).map((p) => ({
    file: { path: p, rel: path.relative(dir, p).split(path.sep).join('/') },
    role: /audit/.test(p) ? 'audit' : 'runs',
  }));

const setup: ReadSetup = {
  limits: DEFAULT_LIMITS,
  digest: true,
  workspace: ROOT,
  trust: { recordKeys: null, producerKeys: null, identities: null },
  cache: null,
  signatures: 'pool',
};

/** Readers started and given the same tasks at once. */
const openReaders = async (tasks: readonly ReadTask[], s: ReadSetup, jobs: number | null, entry?: string): Promise<Readers> =>
  (await startReaders(tasks, s, jobs, entry))(tasks);

async function readAll(opening: Readers | Promise<Readers>, n: number): Promise<Delivered<FileEvidence>[]> {
  const open = await opening;
  const out: Delivered<FileEvidence>[] = [];
  try {
    for (let i = 0; i < n; i++) out.push(await open.read(i));
  } finally {
    await open.close();
  }
  return out;
}

describe('reading on worker threads', () => {
  it('the bundled reader gives, for every fixture, exactly what the main thread reads', async () => {
    const tasks = tasksUnder(path.join(ROOT, 'fixtures'));
    expect(tasks.length).toBeGreaterThan(50);
    const inline = await readAll(inlineReaders(tasks, setup), tasks.length);
    const threads = await readAll(openReaders(tasks, setup, 3, distFile('read-worker.js')), tasks.length);
    expect(threads).toEqual(inline);
  });

  it('a file this run hashed already is taken from the entry of its key, on the main thread and on workers alike', async () => {
    const tasks = tasksUnder(path.join(ROOT, 'fixtures/demo'));
    const cached: ReadSetup = {
      ...setup,
      digest: false,
      cache: { dir: path.join(tempDir(), 'cache'), read: true, setupKey: 'a'.repeat(64) },
    };
    // The first reading stores every file's evidence and says its key.
    const first = await readAll(inlineReaders(tasks, cached), tasks.length);
    const keys = first.map((d) => d.cache?.key);
    expect(keys.every((k) => typeof k === 'string')).toBe(true);
    // Hashed already: each file's bytes are gone (a reading would fail it), its evidence comes from its entry all the same.
    const moved = tasks.map((t, i): ReadTask => ({ ...t, file: { ...t.file, path: `${t.file.path}.gone` }, hashed: keys[i] as string }));
    const inline = await readAll(inlineReaders(moved, cached), moved.length);
    const threads = await readAll(openReaders(moved, cached, 3, distFile('read-worker.js')), moved.length);
    for (const got of [inline, threads]) {
      expect(got.map((d) => d.value)).toEqual(first.map((d) => d.value));
      expect(got.map((d) => d.cache)).toEqual(keys.map((key) => ({ hit: true, key })));
    }
    // An entry that is not there: the file is read as any other (here, a file that is gone fails).
    const unknown = await readAll(inlineReaders([{ ...(moved[0] as ReadTask), hashed: 'b'.repeat(64) }], cached), 1);
    expect(unknown[0]?.value?.findings.map((f) => f.code)).toEqual(['invalid_artifact']);
  });

  it('workers that cannot start (a missing reader bundle): every file is read on the main thread, none fails', async () => {
    const tasks = tasksUnder(path.join(ROOT, 'fixtures/demo'));
    const inline = await readAll(inlineReaders(tasks, setup), tasks.length);
    const got = await readAll(openReaders(tasks, setup, 3, path.join(tempDir(), 'no-such-worker.js')), tasks.length);
    expect(got).toEqual(inline);
  });

  it('the report does not depend on the order the files finish in (property)', async () => {
    const corpora = ['fixtures/demo', 'fixtures/demo-failing', 'fixtures/demo-signed-failing'].map((d) => path.join(ROOT, d));
    const settingsOf = (cwd: string): Settings => defaultSettings(cwd, TEST_NOW);
    const expected = new Map<string, string>();
    for (const cwd of corpora) {
      const r = await runGate(settingsOf(cwd), true);
      if (!r.ok) throw new Error(r.reason.message);
      expected.set(cwd, renderJson(r.value.report));
    }
    /** Readers that finish in the order `keys` sorts the files into. */
    const shuffled =
      (keys: readonly number[]): OpenReaders =>
      (_files, s) =>
      (tasks) => {
        const inline = inlineReaders(tasks, s);
        const done: ((r: Delivered<FileEvidence>) => void)[] = [];
        const results = tasks.map(() => new Promise<Delivered<FileEvidence>>((r) => done.push(r)));
        const order = tasks.map((_, i) => i).sort((a, b) => (keys[a % keys.length] ?? 0) - (keys[b % keys.length] ?? 0) || b - a);
        void (async () => {
          const all = await Promise.all(tasks.map((_, i) => inline.read(i)));
          for (const i of order) {
            done[i]?.(all[i] as Delivered<FileEvidence>);
            await new Promise((r) => setImmediate(r));
          }
        })();
        return { read: (i) => results[i] as Promise<Delivered<FileEvidence>>, close: async () => {} };
      };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...corpora), fc.array(fc.nat(1000), { minLength: 1, maxLength: 12 }), async (cwd, keys) => {
        const r = await runGate(settingsOf(cwd), true, shuffled(keys));
        if (!r.ok) throw new Error(r.reason.message);
        expect(renderJson(r.value.report)).toBe(expected.get(cwd));
      }),
      { numRuns: 40, seed: 20261201 },
    );
  });

  it('a thread that dies (or answers what does not decode) fails the file it was reading, names it, and the rest are still read', async () => {
    const dir = tempDir();
    // A stand-in reader that speaks the protocol: it dies on crash-*, throws on throw-*, answers the rest.
    const script = path.join(dir, 'worker.mjs');
    writeFileSync(
      script,
      `import { parentPort } from 'node:worker_threads';
parentPort.postMessage({ ready: true });
parentPort.on('message', (t) => {
  if (t.rel.startsWith('crash')) process.exit(7);
  if (t.rel.startsWith('throw')) throw new Error('reader bug');
  if (t.rel.startsWith('garble')) return parentPort.postMessage({ id: t.id, text: '{"run":null}' });
  parentPort.postMessage({ id: t.id, text: '{"run":null,"records":[],"statements":[],"findings":[],"digests":[["' + t.rel + '","x"]],"strays":0,"rejectedClasses":[]}' });
});
`,
    );
    // Workers are given the largest files first: two workers start with [crash-1, big-a] and [throw-1, big-b].
    const sizes = new Map([
      ['crash-1.json', 5000],
      ['big-a.json', 4000],
      ['throw-1.json', 3000],
      ['big-b.json', 2000],
      ['garble-1.json', 1000],
      ['a.json', 10],
      ['b.json', 10],
      ['c.json', 10],
    ]);
    const names = [...sizes.keys()].sort();
    for (const [rel, n] of sizes) writeFileSync(path.join(dir, rel), `[${' '.repeat(n)}]`);
    const tasks: ReadTask[] = names.map((rel) => ({ file: { path: path.join(dir, rel), rel }, role: 'audit' }));
    const here = await readAll(inlineReaders(tasks, setup), tasks.length);
    const got = await readAll(openReaders(tasks, setup, 3, script), tasks.length);
    for (const [i, rel] of names.entries()) {
      const r = (got[i] as Delivered<FileEvidence>).value;
      if (r === null) throw new Error(`${rel} came back kept, and no task kept it`);
      if (rel === 'garble-1.json' && r.findings.length > 0) {
        // An answer that does not decode fails its file, as a thread that dies does.
        expect(r.findings[0]).toMatchObject({ code: 'invalid_artifact', severity: 'error', file: rel });
        expect(r.findings[0]?.message).toContain('did not decode');
      } else if (rel === 'crash-1.json' || rel === 'throw-1.json') {
        expect(r.run).toBeNull();
        expect(r.findings).toHaveLength(1);
        expect(r.findings[0]).toMatchObject({ code: 'invalid_artifact', severity: 'error', file: rel, line: 1, column: 1 });
        expect(r.findings[0]?.message).toContain(rel.startsWith('crash') ? 'code 7' : 'reader bug');
        expect(r.findings[0]?.message).toContain('it is not verified');
      } else {
        // Read by a (stand-in) worker or on the main thread; never missing.
        const byWorker = { run: null, records: [], statements: [], findings: [], digests: [[rel, 'x']] };
        expect([byWorker, here[i]?.value]).toContainEqual(r);
      }
    }
  });

  describe('threads started before their tasks (startReaders: they load while a snapshot is read)', () => {
    const settle = () => new Promise((r) => setTimeout(r, 400));
    /** A stand-in reader: it says it is loaded, dies on crash-*, answers the rest. */
    const standIn = (dir: string, atLoad = ''): string => {
      const script = path.join(dir, 'worker.mjs');
      writeFileSync(
        script,
        `import { parentPort } from 'node:worker_threads';
${atLoad}
parentPort.postMessage({ ready: true });
parentPort.on('message', (t) => {
  if (t.rel.startsWith('crash')) process.exit(7);
  parentPort.postMessage({ id: t.id, text: '{"run":null,"records":[],"statements":[],"findings":[],"digests":[["' + t.rel + '","x"]],"strays":0,"rejectedClasses":[]}' });
});
`,
      );
      return script;
    };
    const filesIn = (dir: string, names: readonly string[]): ReadTask[] =>
      names.map((rel, i) => {
        writeFileSync(path.join(dir, rel), `[${' '.repeat(1000 * (names.length - i))}]`);
        return { file: { path: path.join(dir, rel), rel }, role: 'audit' };
      });

    it('a worker loaded before its pool listens is still known loaded: a file it dies on fails, never read again as if it never started', async () => {
      const dir = tempDir();
      const tasks = filesIn(dir, ['crash-1.json', 'a.json', 'b.json']);
      const start = await startReaders(tasks, setup, 2, standIn(dir));
      await settle();
      const got = await readAll(start(tasks), tasks.length);
      expect(got[0]?.value?.findings[0]).toMatchObject({ code: 'invalid_artifact', file: 'crash-1.json' });
      expect(got[0]?.value?.findings[0]?.message).toContain('code 7');
    });

    it('a worker that ended before its pool listens read nothing: every file is read on the main thread (never a read that waits for ever)', async () => {
      const dir = tempDir();
      const tasks = filesIn(dir, ['a.json', 'b.json', 'c.json']);
      const start = await startReaders(tasks, setup, 2, standIn(dir, 'process.exit(3);'));
      await settle();
      expect(await readAll(start(tasks), tasks.length)).toEqual(await readAll(inlineReaders(tasks, setup), tasks.length));
    });

    it('given other tasks than it was started for, the threads started are stopped and the tasks still read', async () => {
      const dir = tempDir();
      const tasks = filesIn(dir, ['a.json', 'b.json', 'c.json']);
      const start = await startReaders(tasks, setup, 2, distFile('read-worker.js'));
      const other = tasks.slice(1);
      expect(await readAll(start(other), other.length)).toEqual(await readAll(inlineReaders(other, setup), other.length));
    });
  });

  it('with a reading thread on every core, each checks record signatures itself (the set-up a worker is given says so)', async () => {
    const dir = tempDir();
    // A stand-in reader that answers each file with where its set-up says signatures are checked.
    const script = path.join(dir, 'worker.mjs');
    writeFileSync(
      script,
      `import { parentPort, workerData } from 'node:worker_threads';
parentPort.postMessage({ ready: true });
parentPort.on('message', (t) => parentPort.postMessage({ id: t.id, text: JSON.stringify({ run: null, records: [], statements: [], findings: [], digests: [[t.rel, workerData.signatures]], strays: 0, rejectedClasses: [] }) }));
`,
    );
    // As many threads as cores (as auto starts): every core has a reading thread.
    const threads = Math.max(2, availableParallelism());
    const names = Array.from({ length: threads + 2 }, (_, i) => `f${String(i).padStart(3, '0')}.json`);
    for (const rel of names) writeFileSync(path.join(dir, rel), '[]');
    const tasks: ReadTask[] = names.map((rel) => ({ file: { path: path.join(dir, rel), rel }, role: 'audit' }));
    const got = await readAll(openReaders(tasks, setup, threads, script), tasks.length);
    const byWorkers = got.flatMap((r) => r.value?.digests ?? []).filter(([, how]) => how !== undefined && !/^[0-9a-f]{64}$/.test(how));
    expect(byWorkers.length).toBeGreaterThan(0);
    expect(new Set(byWorkers.map(([, how]) => how))).toEqual(new Set(['inline']));
  });

  it('signatures: on the reading threads when every core has one, else on the pool, which uses the spare cores', () => {
    expect(signatureChecksFor(1, 2)).toBe('pool');
    expect(signatureChecksFor(1, 1)).toBe('inline');
    expect(signatureChecksFor(2, 2)).toBe('inline');
    expect(signatureChecksFor(3, 2)).toBe('inline');
    expect(signatureChecksFor(2, 8)).toBe('pool');
    expect(signatureChecksFor(8, 8)).toBe('inline');
  });

  it('threads: auto reads a small input on the main thread, a large one on every core, never more than the files', () => {
    const mib = 1024 ** 2;
    expect(threadsFor(null, [1 * mib, 2 * mib], 4)).toBe(1);
    expect(threadsFor(null, [WORKER_THRESHOLD_BYTES, 1], 4)).toBe(2);
    expect(threadsFor(null, Array(10).fill(8 * mib), 4)).toBe(4);
    expect(threadsFor(3, [1, 1], 8)).toBe(2);
    expect(threadsFor(3, [1, 1, 1, 1], 8)).toBe(3);
    expect(threadsFor(1, Array(10).fill(64 * mib), 8)).toBe(1);
    expect(threadsFor(null, [], 8)).toBe(1);
  });
});
