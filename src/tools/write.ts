/** How every tool writes a file: whole or not at all, never over a file it must not replace. */
import {
  closeSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
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

/** A link to this process's own standard output or error (`/dev/stdout` → `/proc/self/fd/1`, `/dev/fd/2`). */
const OWN_OUTPUT = /^\/(?:proc\/self|dev)\/fd\/[12]$/;

/**
 * How a whole write reaches `file`: by a rename over it (nothing there, a file, or a link to a file,
 * which is replaced and never written through: a link committed to a repository must not redirect
 * a write), or in place (a FIFO or a character device named as such, or a link to this process's
 * own standard output or error: `--sarif-file /dev/stdout`), where a rename would replace the node
 * or the link itself. Anything else (a link to a device, a block device, a socket) is refused.
 */
function placeOf(file: string): 'rename' | 'in place' {
  let st: Stats;
  try {
    st = lstatSync(file);
  } catch {
    return 'rename'; // nothing there yet
  }
  if (st.isFIFO() || st.isCharacterDevice()) return 'in place';
  if (st.isFile() || st.isDirectory()) return 'rename';
  if (st.isSymbolicLink()) {
    if (OWN_OUTPUT.test(readlinkSync(file))) return 'in place';
    let to: Stats | null = null;
    try {
      to = statSync(file);
    } catch {
      // a broken link: replaced by the file
    }
    if (to === null || to.isFile()) return 'rename';
    throw new Error(`${file} is a symbolic link to something that is not a regular file; not written`);
  }
  throw new Error(`${file} is not a regular file, a FIFO or a character device; not written`);
}

/**
 * Write `text` to `file` only whole: a temporary file beside it, then a rename. A FIFO, a character
 * device or this process's own output (`/dev/stdout`) is written to directly: nothing there can be
 * replaced whole.
 */
export function writeWhole(file: string, text: string): void {
  if (placeOf(file) === 'in place') {
    writeFileSync(file, text);
    return;
  }
  const tmp = writeTemp(file, text);
  try {
    renameSync(tmp, file);
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
