/**
 * Where an output file is written (the JSON report, SARIF, the verdict, a tool's output): never
 * through a symbolic link, since a link at an output path can be committed to the repository the gate
 * checks out, and a write through it would land on a file of the runner's (or a device). A link to a
 * file is replaced by the output; a FIFO or a character device named as such, and a link to the
 * process's own standard output or error (`/dev/stdout`), are written in place; anything else is
 * refused with its reason.
 */
import { randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, readlinkSync, rmdirSync, type Stats, statSync, writeSync } from 'node:fs';
import path from 'node:path';

/** A link to this process's own standard output or error (`/dev/stdout` → `/proc/self/fd/1`, `/dev/fd/2`). */
const OWN_OUTPUT = /^\/(?:proc\/self|dev)\/fd\/[12]$/;

/**
 * How an output reaches `file`: `replace` (nothing there, a file, or a directory, which fails when
 * written), `replace link` (a link to a file or to nothing: replaced, never written through) or
 * `in place` (a FIFO, a character device, the process's own output). Throws for what is refused.
 */
export function outputPlace(file: string): 'replace' | 'replace link' | 'in place' {
  let st: Stats;
  try {
    st = lstatSync(file);
  } catch {
    return 'replace'; // nothing there yet
  }
  if (st.isFIFO() || st.isCharacterDevice()) return 'in place';
  if (st.isFile() || st.isDirectory()) return 'replace';
  if (st.isSymbolicLink()) {
    if (OWN_OUTPUT.test(readlinkSync(file))) return 'in place';
    let to: Stats | null = null;
    try {
      to = statSync(file);
    } catch {
      // a broken link: replaced by the output
    }
    if (to === null || to.isFile()) return 'replace link';
    throw new Error(`${file} is a symbolic link to something that is not a regular file; not written`);
  }
  throw new Error(`${file} is not a regular file, a FIFO or a character device; not written`);
}

/** An output that cannot be written, in the words the CLI (exit 2) and the action (`result=error`) both use. */
export const cannotWriteText = (what: string, file: string, error: unknown): string =>
  `cannot write ${what} ${file}: ${error instanceof Error ? error.message : String(error)}`;

/**
 * `mkdir -p` one level at a time: the folders of an output made from the nearest one that exists;
 * returns the folders it made, outermost first (what a writer that fails removes again).
 * Node's own recursive mkdir never returns where the kernel answers ENOENT for a folder whose parent
 * exists (under /proc): here that is an error, as any other that stops it.
 */
export function makeDirs(dir: string): readonly string[] {
  const missing: string[] = [];
  let at = path.resolve(dir);
  for (;;) {
    let st: Stats | null = null;
    try {
      st = statSync(at);
    } catch {
      st = null;
    }
    if (st) {
      if (!st.isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${path.resolve(dir)}'`), { code: 'ENOTDIR' });
      break;
    }
    const parent = path.dirname(at);
    if (parent === at) break;
    missing.push(at);
    at = parent;
  }
  const made: string[] = [];
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d);
      made.push(d);
    } catch (error) {
      // Made meanwhile by another writer: as good as made here.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(d).isDirectory()) throw error;
    }
  }
  return made;
}

/** Folders a failed write made, removed again innermost first (only while empty: never what another writer put there). */
export function removeDirs(made: readonly string[]): void {
  for (const d of [...made].reverse()) {
    try {
      rmdirSync(d);
    } catch {
      return; // not empty, or gone: what is left stays
    }
  }
}

/** A new temporary file's path beside `file`: a short name of its own (a legal name of 255 bytes has no room for a longer one). */
export const tempBeside = (file: string): string =>
  path.join(path.dirname(file), `.receipt-gate-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);

/**
 * Every byte of `text` at the file's position: a write may take fewer bytes than it is given without
 * an error (a disk that fills, a file-size limit), and the next one then says why; one that takes
 * none is an error itself. Never a file cut short that is then renamed into place.
 */
export function writeFully(fd: number, text: string | Buffer): void {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  for (let off = 0; off < bytes.length; ) {
    const n = writeSync(fd, bytes, off, bytes.length - off);
    if (n <= 0) throw new Error(`a write took none of ${bytes.length - off} bytes (is the disk full?)`);
    off += n;
  }
}
