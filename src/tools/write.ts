/** How every tool writes a file: whole or not at all, never over a file it must not replace. */
import { closeSync, linkSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { outputPlace } from '../report/output.js';

/** `text` in a new temporary file beside `file`: its path. */
function writeTemp(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  const fd = openSync(tmp, 'wx', 0o644);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return tmp;
}

/**
 * Write `text` to `file` only whole: a temporary file beside it, then a rename (which replaces a link
 * at `file`, never writing through it). A FIFO, a character device or this process's own output
 * (`/dev/stdout`) is written to directly: nothing there can be replaced whole (report/output.ts).
 */
export function writeWhole(file: string, text: string): void {
  if (outputPlace(file) === 'in place') {
    writeFileSync(file, text);
    return;
  }
  const tmp = writeTemp(file, text);
  try {
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
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
