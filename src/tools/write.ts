/** How every tool writes a file: whole or not at all, never over a file it must not replace. */
import { closeSync, linkSync, mkdirSync, openSync, realpathSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';

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
 * Where a whole write goes: the path to rename onto (a link's target, so the link stays a link), or
 * null for something that exists and is neither a file nor a directory (a device, a FIFO,
 * `/dev/stdout`), which is written in place: a rename would replace the device node itself.
 */
function renameTarget(file: string): string | null {
  try {
    const st = statSync(file);
    if (st.isFile()) return realpathSync(file);
    return st.isDirectory() ? file : null;
  } catch {
    return file; // nothing there yet (or a broken link, which the file replaces)
  }
}

/**
 * Write `text` to `file` only whole: a temporary file beside it, then a rename. A device or a FIFO
 * (`--sarif-file /dev/stdout`) is written to directly: nothing there can be replaced whole.
 */
export function writeWhole(file: string, text: string): void {
  const target = renameTarget(file);
  if (target === null) {
    writeFileSync(file, text);
    return;
  }
  const tmp = writeTemp(target, text);
  try {
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
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
