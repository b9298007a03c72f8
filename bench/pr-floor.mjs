// node bench/pr-floor.mjs RUNS AUDIT REPORT OUT [THREADS]
// The floor of a pull request's run that reads every input and writes the report a full run writes
// (bench/cache.mjs, design/incremental-verification.md): read and sha256 every input file, on as
// many threads as the gate reads with (the machine's cores), then copy REPORT's bytes to OUT and
// sha256 them (the gate hashes the report it writes). Every read goes through one buffer per thread,
// reused, as the gate's reader does (read/files.ts): fresh memory for each file would cost this VM
// its page faults, and the floor would flatter every design measured against it. No parsing, no
// judging, nothing cached: any design that must know each input's bytes before it trusts what it
// kept about the file pays this. Prints the files and bytes hashed, so the caller can check.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readdirSync, readSync, statSync, writeSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

/** This thread's read buffer, grown to the largest file so far. */
let scratch = Buffer.allocUnsafeSlow(1 << 20);

/** The file's bytes, in this thread's buffer (valid until the next read). */
function readReused(file) {
  const fd = openSync(file, 'r');
  try {
    const size = statSync(file).size;
    if (size > scratch.length) scratch = Buffer.allocUnsafeSlow(2 * size);
    let got = 0;
    for (let n; got < size && (n = readSync(fd, scratch, got, size - got, got)) > 0; ) got += n;
    return scratch.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** Read and sha256 each file; the bytes read. */
function hashFiles(list) {
  let bytes = 0;
  for (const f of list) {
    const b = readReused(f);
    createHash('sha256').update(b).digest('hex');
    bytes += b.length;
  }
  return bytes;
}

/** Copy `from` to `to` through a 1 MiB buffer, hashing what is written. */
function copyHashed(from, to) {
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafeSlow(1 << 20);
  const src = openSync(from, 'r');
  const dst = openSync(to, 'w');
  try {
    for (let n; (n = readSync(src, buf, 0, buf.length, null)) > 0; ) {
      hash.update(buf.subarray(0, n));
      for (let at = 0; at < n; ) at += writeSync(dst, buf, at, n - at);
    }
  } finally {
    closeSync(src);
    closeSync(dst);
  }
  return hash.digest('hex');
}

if (!isMainThread) {
  parentPort.postMessage(hashFiles(workerData));
} else {
  const [runsDir, auditDir, report, out, threadsArg] = process.argv.slice(2);
  if (!runsDir || !auditDir || !report || !out) throw new Error('usage: node bench/pr-floor.mjs RUNS AUDIT REPORT OUT [THREADS]');
  const threads = Math.max(1, Number(threadsArg ?? availableParallelism()));
  const files = [runsDir, auditDir].flatMap((dir) => readdirSync(dir).map((f) => path.join(dir, f)));
  // Each file to the thread with the fewest bytes so far, largest first: the threads finish together.
  const shares = Array.from({ length: threads }, () => ({ bytes: 0, files: [] }));
  const sized = files.map((f) => ({ f, size: statSync(f).size })).sort((a, b) => b.size - a.size);
  for (const { f, size } of sized) {
    const least = shares.reduce((a, b) => (b.bytes < a.bytes ? b : a));
    least.bytes += size;
    least.files.push(f);
  }
  const workers = shares.slice(1).map(
    (share) =>
      new Promise((resolve, reject) => {
        const w = new Worker(new URL(import.meta.url), { workerData: share.files });
        w.once('message', resolve);
        w.once('error', reject);
      }),
  );
  let bytes = hashFiles(shares[0].files);
  for (const b of await Promise.all(workers)) bytes += b;
  copyHashed(report, out);
  process.stdout.write(`${files.length} ${bytes}\n`);
}
