/** How every tool writes a file: whole or not at all, never over a file it must not replace. */
import { closeSync, linkSync, lstatSync, openSync, readFileSync, renameSync, rmSync, type Stats, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeDirs, outputPlace, removeDirs, tempBeside, writeFully } from '../report/output.js';

const lstatOrNull = (file: string): Stats | null => {
  try {
    return lstatSync(file);
  } catch {
    return null;
  }
};

/**
 * `text` (or its chunks, written as they come) in a new temporary file beside `file`: its path. A
 * short name of its own (a legal name of 255 bytes has no room for a longer one); `made` collects the
 * folders made for it.
 */
function writeTemp(file: string, text: string | Iterable<string>, made: string[] = []): string {
  for (const d of makeDirs(path.dirname(file))) made.push(d);
  const tmp = tempBeside(file);
  const fd = openSync(tmp, 'wx', 0o644);
  try {
    if (typeof text === 'string') writeFully(fd, text);
    else for (const chunk of text) writeFully(fd, chunk);
  } catch (error) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  closeSync(fd);
  return tmp;
}

/**
 * Write `text` to `file` only whole: a temporary file beside it, then a rename (which replaces a link
 * at `file`, never writing through it). A FIFO, a character device or this process's own output
 * (`/dev/stdout`) is written to directly: nothing there can be replaced whole (report/output.ts).
 */
export function writeWhole(file: string, text: string): void {
  writeAllWhole([[file, text]]);
}

/** A file's text: whole, or in pieces (a report too large for one string is never joined). */
export type FileText = string | readonly string[];

/** Write a text's pieces to `file` in place (a FIFO, a device, this process's own output). */
function writeInPlace(file: string, text: FileText): void {
  if (typeof text === 'string') {
    writeFileSync(file, text);
    return;
  }
  const fd = openSync(file, 'w');
  try {
    for (const chunk of text) writeFully(fd, chunk);
  } finally {
    closeSync(fd);
  }
}

/** A write of `writeAllWhole` that failed: the file it failed at (what a message names), and why. */
export class FileWriteError extends Error {
  constructor(
    readonly file: string,
    readonly reason: unknown,
  ) {
    super(reason instanceof Error ? reason.message : String(reason));
  }
}

/**
 * Write every file whole, all of them or none: each staged in a temporary file beside it, then the
 * outputs that are written in place (a FIFO, a device, this process's own output: nothing there can
 * be put back), then every staged file renamed over its place, what was replaced put back if a rename
 * fails. A failure removes every temporary file and the folders made for them, and names the file it
 * failed at.
 */
export function writeAllWhole(files: readonly (readonly [string, FileText])[]): void {
  const inPlace = files.map(([file]) => outputPlace(file) === 'in place');
  const staged: { readonly file: string; readonly tmp: string }[] = [];
  const made: string[] = [];
  const discard = (): void => {
    for (const { tmp } of staged) {
      rmSync(tmp, { force: true });
      rmSync(`${tmp}.kept`, { force: true });
    }
    removeDirs(made);
  };
  let at = '';
  try {
    files.forEach(([file, text], i) => {
      at = file;
      if (!inPlace[i]) staged.push({ file, tmp: writeTemp(file, text, made) });
    });
    // Before any rename: one that fails leaves none of the files renamed into place.
    files.forEach(([file, text], i) => {
      at = file;
      if (inPlace[i]) writeInPlace(file, text);
    });
  } catch (error) {
    discard();
    throw new FileWriteError(at, error);
  }
  const done: { readonly file: string; readonly kept: string | null }[] = [];
  try {
    for (const { file, tmp } of staged) {
      at = file;
      const before = lstatOrNull(file);
      // Kept aside only when a later file could fail after this one is in place.
      const kept = staged.length > 1 && before?.isFile() ? `${tmp}.kept` : null;
      if (kept) linkSync(file, kept);
      renameSync(tmp, file);
      done.push({ file, kept });
    }
  } catch (error) {
    // Put back what was replaced, remove what was new, and every temporary file left.
    for (const { file, kept } of done.reverse()) {
      if (kept) renameSync(kept, file);
      else rmSync(file, { force: true });
    }
    discard();
    throw new FileWriteError(at, error);
  }
  for (const { kept } of done) if (kept) rmSync(kept, { force: true });
}

/** Write `text` to a new `file`, whole, never replacing one that exists (a hard link of a finished temporary file). */
export function writeNew(file: string, text: string): void {
  const tmp = writeTemp(file, text);
  try {
    linkSync(tmp, file);
  } finally {
    rmSync(tmp, { force: true });
  }
}

/**
 * Write `chunks` to a new `file`, whole, never over a different one: `written`; `same` when `file`
 * already holds exactly these bytes (nothing is written); `different` when it holds others (nothing
 * is written). For evidence a tool makes from its inputs: the same inputs again are a no-op.
 */
export function writeNewOrSame(file: string, chunks: Iterable<string>): 'written' | 'same' | 'different' {
  // Only a regular file is compared or written: a link, a FIFO or a device (/dev/stdout) is refused before anything is made.
  const there = lstatOrNull(file);
  if (there?.isSymbolicLink()) throw new Error('it is a symbolic link: nothing is written through one');
  if (there && !there.isFile()) throw new Error('it is not a regular file: a run is written to a file of its own');
  const tmp = writeTemp(file, chunks);
  try {
    linkSync(tmp, file);
    return 'written';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Made meanwhile: compared only if it is a regular file.
    if (!lstatSync(file).isFile()) throw new Error('it is not a regular file: a run is written to a file of its own');
    return readFileSync(tmp).equals(readFileSync(file)) ? 'same' : 'different';
  } finally {
    rmSync(tmp, { force: true });
  }
}
