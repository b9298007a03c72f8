/**
 * A minimal, strict ustar reader over a pull source. It yields members one at a time, consuming
 * local PAX and GNU long-name headers, and refuses everything an evidence bundle never contains:
 * links, devices, directories, global PAX headers, oversized metadata. Failures are ReadError('tar')
 * (or 'limit') whose message names the rule.
 */
import { quote } from '../../core/text.js';
import { ReadError } from '../read-error.js';

/** Pulls exactly n bytes (or fewer at end of input) from the decompressed stream. */
export interface ByteSource {
  read(n: number): Promise<Buffer>;
}

export interface TarMember {
  readonly path: string;
  readonly size: number;
  /** Reads the member's data (call once, before asking for the next member). */
  readonly data: (maxBytes: number, what: string) => Promise<Buffer>;
}

export interface TarLimits {
  readonly maxPathBytes: number;
  /** Largest PAX / GNU long-name header data decoded. */
  readonly maxMetaBytes: number;
}

const BLOCK = 512;
const isZero = (bytes: Buffer): boolean => {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
};
const cstring = (bytes: Buffer, start: number, len: number): string => {
  const end = bytes.indexOf(0, start);
  return bytes.toString('utf8', start, end === -1 || end > start + len ? start + len : end);
};

function octal(bytes: Buffer, start: number, len: number, what: string): number {
  if (((bytes[start] ?? 0) & 0x80) !== 0) {
    // GNU base-256: only sizes that fit in a double are meaningful here.
    let v = 0;
    for (let i = start + 1; i < start + len; i++) v = v * 256 + (bytes[i] ?? 0);
    if (((bytes[start] ?? 0) & 0x7f) !== 0 || !Number.isSafeInteger(v))
      throw new ReadError('tar', `tar header ${what} field is out of range`);
    return v;
  }
  const text = bytes
    .toString('latin1', start, start + len)
    .replace(/[\0 ]+$/, '')
    .replace(/^ +/, '');
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw new ReadError('tar', `tar header ${what} field is not octal`);
  return parseInt(text, 8);
}

function checksumOk(bytes: Buffer): boolean {
  const declared = octal(bytes, 148, 8, 'checksum');
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (bytes[i] ?? 0);
  return sum === declared;
}

const padding = (size: number): number => (BLOCK - (size % BLOCK)) % BLOCK;

/** Parse PAX records "len key=value\n" and return the `path` record if any. */
function paxPath(data: Buffer): string | undefined {
  let i = 0;
  let path: string | undefined;
  while (i < data.length) {
    const sp = data.indexOf(0x20, i);
    if (sp === -1) throw new ReadError('tar', 'malformed PAX header record');
    const len = Number(data.toString('latin1', i, sp));
    if (!Number.isSafeInteger(len) || len <= 0 || i + len > data.length) throw new ReadError('tar', 'malformed PAX header record length');
    const rec = data.toString('utf8', sp + 1, i + len - 1);
    const eq = rec.indexOf('=');
    if (eq === -1) throw new ReadError('tar', 'malformed PAX header record');
    const key = rec.slice(0, eq);
    if (key === 'path') {
      // Two path records: tar readers disagree which one names the member (the first, the last).
      if (path !== undefined) throw new ReadError('tar', 'a PAX header with two path records: the member has two names');
      path = rec.slice(eq + 1);
    }
    if (key === 'linkpath') throw new ReadError('tar', 'PAX linkpath record: links are not allowed in a bundle');
    if (key === 'size') throw new ReadError('tar', 'PAX size record is not supported in a bundle');
    i += len;
  }
  return path;
}

/** How many NUL bytes end a buffer. */
function trailingNuls(b: Uint8Array): number {
  let n = 0;
  while (n < b.length && b[b.length - 1 - n] === 0) n++;
  return n;
}

export async function* members(src: ByteSource, limits: TarLimits): AsyncGenerator<TarMember> {
  let longName: string | undefined;
  /** An extended header was read and applies to the next member. */
  let extended = false;
  let consumed = true;
  for (;;) {
    if (!consumed) throw new ReadError('tar', 'internal: member data not consumed');
    const bytes = await src.read(BLOCK);
    if (bytes.length === 0) {
      if (longName !== undefined) throw new ReadError('tar', 'tar archive ends after an extended header (truncated)');
      return; // EOF at a header boundary: tolerated like the end marker
    }
    if (bytes.length < BLOCK) throw new ReadError('tar', 'tar archive is truncated inside a header');
    if (isZero(bytes)) {
      if (longName !== undefined) throw new ReadError('tar', 'tar archive ends after an extended header');
      return;
    }
    if (!checksumOk(bytes)) throw new ReadError('tar', 'tar header checksum does not match (corrupt or not a tar archive)');
    const type = String.fromCharCode(bytes[156] ?? 0);
    const size = octal(bytes, 124, 12, 'size');
    const magic = bytes.toString('latin1', 257, 263);
    const ustar = magic === 'ustar\0' || magic === 'ustar ';
    let name = cstring(bytes, 0, 100);
    const prefix = ustar && magic === 'ustar\0' ? cstring(bytes, 345, 155) : '';
    if (prefix) name = `${prefix}/${name}`;

    if (type === 'x' || type === 'L') {
      if (size > limits.maxMetaBytes) {
        throw new ReadError(
          'tar',
          `${type === 'x' ? 'PAX' : 'GNU long-name'} header of ${size} bytes is past the ${limits.maxMetaBytes}-byte decode ceiling`,
        );
      }
      const data = await src.read(size + padding(size));
      if (data.length < size + padding(size)) throw new ReadError('tar', 'tar archive is truncated inside an extended header');
      const body = data.subarray(0, size);
      // Two extended headers before one member (a GNU long name and a PAX path, two of one kind, or a
      // second without a path): tar readers disagree which applies (GNU tar drops the first), so
      // another reader (upstream's) could read another member than this one.
      if (extended) throw new ReadError('tar', 'two extended headers before one member (GNU long name or PAX): its name is ambiguous');
      extended = true;
      // A GNU long name with a NUL inside is one name to a C reader and another to one that reads it whole.
      const text = type === 'L' ? body.subarray(0, body.length - trailingNuls(body)) : body;
      if (type === 'L' && text.includes(0)) throw new ReadError('tar', 'a GNU long name with a NUL inside: its name is ambiguous');
      longName = type === 'x' ? paxPath(body) : cstring(text, 0, text.length);
      continue;
    }
    if (type === 'g') throw new ReadError('tar', 'global PAX header member is not allowed in a bundle');
    if (type === '1' || type === '2' || type === 'K') throw new ReadError('tar', `link member "${quote(name)}" is not allowed in a bundle`);
    if (type === '3' || type === '4' || type === '6')
      throw new ReadError('tar', `device or FIFO member "${quote(name)}" is not allowed in a bundle`);
    if (type === '5') throw new ReadError('tar', `directory member "${quote(name)}" is not allowed in a bundle`);
    if (type !== '0' && type !== '\0' && type !== '7')
      throw new ReadError('tar', `tar member "${quote(name)}" has unsupported type '${type}'`);
    const path = longName ?? name;
    longName = undefined;
    extended = false;
    if (Buffer.byteLength(path) > limits.maxPathBytes)
      throw new ReadError('tar', `tar member path is longer than ${limits.maxPathBytes} bytes`);
    if (path.startsWith('/')) throw new ReadError('tar', `tar member path "${path}" is absolute`);
    if (path.split('/').includes('..')) throw new ReadError('tar', `tar member path "${path}" contains ".."`);
    consumed = false;
    yield {
      path,
      size,
      data: async (maxBytes: number, what: string): Promise<Buffer> => {
        if (size > maxBytes) throw new ReadError('limit', `${what} is ${size} bytes, over the ${maxBytes}-byte limit`);
        const buf = await src.read(size + padding(size));
        if (buf.length < size + padding(size)) throw new ReadError('tar', `tar archive is truncated inside ${what}`);
        consumed = true;
        return buf.subarray(0, size);
      },
    };
  }
}
