/**
 * The evidence cache's archive and GitHub's Actions cache service (v2: Twirp JSON at
 * ACTIONS_RESULTS_URL with the job's runtime token; archives uploaded to and downloaded from signed
 * blob URLs), spoken here rather than through @actions/cache: that package unpacks archives with
 * `tar -P` relative to the workspace and matches a primary key by prefix, so an archive a pull
 * request saved in its own scope could write anywhere the runner can (docs/cache.md). Here nothing
 * is unpacked: an archive is one gzipped NDJSON text (a header, then one line per entry: its file
 * name and its text), read whole within limits, and its digest must be the one its key names
 * before a single entry is written, each to a name of 64 hex digits in a folder made for it.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sha256Hex } from '../core/binding.js';
import { isObject, type JsonObject, str } from '../core/json.js';
import type { Result } from '../core/result.js';
import { messageOf } from '../core/text.js';
import { ENTRY_NAME } from '../gate/cache.js';
import { makeDirs } from '../report/output.js';

const ARCHIVE_SCHEMA = 'receipt-gate.evidence-archive.v1';
/** The service's `version` of every archive this action saves (its own format: only this action reads it). */
const VERSION = sha256Hex(ARCHIVE_SCHEMA);
/** Largest archive downloaded, and largest text it may unpack to. */
const MAX_ARCHIVE_BYTES = 512 * 1024 * 1024;
const MAX_TEXT_BYTES = 1024 * 1024 * 1024;
const TWIRP = 'twirp/github.actions.results.api.v1.CacheService/';

/** An entry's part of the digest that names an archive's entries: its name and its bytes' sha256, a line each. */
const entryLine = (name: string, bytes: string | Buffer): string => `${name}\n${sha256Hex(bytes)}\n`;

/** The entries of a folder as one archive, and the digest that names them (sha256 over each name and its bytes' sha256, sorted by name). */
export function packEntries(dir: string): { readonly bytes: Buffer; readonly digest: string; readonly entries: number } {
  const names = readdirSync(dir)
    .filter((n) => ENTRY_NAME.test(n))
    .sort();
  const lines: string[] = [];
  const digest = createHash('sha256');
  for (const name of names) {
    const bytes = readFileSync(path.join(dir, name));
    digest.update(entryLine(name, bytes));
    lines.push(JSON.stringify({ name, text: bytes.toString('utf8') }));
  }
  const hex = digest.digest('hex');
  const header = JSON.stringify({ schema: ARCHIVE_SCHEMA, entries: names.length, digest: hex });
  return { bytes: gzipSync(`${header}\n${lines.join('\n')}\n`), digest: hex, entries: names.length };
}

/**
 * An archive's entries written into `dir` (made here), only when its text parses, every name is an
 * entry's and its digest is `digest`; else why not, and nothing is written.
 */
export function unpackEntries(
  bytes: Buffer,
  digest: string,
  dir: string,
): { readonly ok: true; readonly entries: number } | { readonly ok: false; readonly reason: string } {
  let text: string;
  try {
    text = gunzipSync(bytes, { maxOutputLength: MAX_TEXT_BYTES }).toString('utf8');
  } catch (error) {
    return { ok: false, reason: `it does not decompress (${messageOf(error)})` };
  }
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const [head, ...rest] = lines;
  let header: unknown;
  try {
    header = JSON.parse(head ?? '');
  } catch {
    return { ok: false, reason: 'its header is not JSON' };
  }
  if (str(header, 'schema') !== ARCHIVE_SCHEMA || !isObject(header) || header['entries'] !== rest.length)
    return { ok: false, reason: `its header is not ${ARCHIVE_SCHEMA} with ${rest.length} entries` };
  const files: { readonly name: string; readonly text: string }[] = [];
  const sum = createHash('sha256');
  let last = '';
  for (const line of rest) {
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      return { ok: false, reason: 'an entry line is not JSON' };
    }
    const name = str(v, 'name');
    const body = isObject(v) ? v['text'] : undefined;
    if (name === null || !ENTRY_NAME.test(name) || name <= last || typeof body !== 'string')
      return { ok: false, reason: 'an entry line is not a name of 64 hex digits (in order) and a text' };
    last = name;
    sum.update(entryLine(name, body));
    files.push({ name, text: body });
  }
  if (sum.digest('hex') !== digest || str(header, 'digest') !== digest)
    return { ok: false, reason: 'its entries are not the ones its key names' };
  makeDirs(dir);
  for (const f of files) writeFileSync(path.join(dir, f.name), f.text, { flag: 'wx' });
  return { ok: true, entries: files.length };
}

/** What answered: the parsed JSON of a 200, or why not. */
type Answer = Result<JsonObject>;

/** GitHub's cache service (or a test's), through fetch. */
export interface CacheService {
  /** The exact key's signed download URL, or null when the service has no archive of exactly that key. */
  downloadUrl(key: string): Promise<string | null>;
  download(url: string): Promise<Buffer>;
  /** Upload an archive under `key`. */
  upload(key: string, bytes: Buffer): Promise<void>;
}

/** A string member of a Twirp answer by its JSON name or its proto name (the service writes either). */
const member = (o: JsonObject, json: string, proto: string): string | null => str(o, json) ?? str(o, proto);

/** The cache service of this job (ACTIONS_RESULTS_URL and ACTIONS_RUNTIME_TOKEN), or null when the job has none. */
export function actionsCacheService(env: NodeJS.ProcessEnv): CacheService | null {
  const base = env['ACTIONS_RESULTS_URL'];
  const token = env['ACTIONS_RUNTIME_TOKEN'];
  if (!base || !token) return null;
  const call = async (method: string, body: unknown): Promise<Answer> => {
    const r = await fetch(new URL(`${TWIRP}${method}`, base.endsWith('/') ? base : `${base}/`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'user-agent': 'receipt-gate' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await r.text();
    if (r.status !== 200) return { ok: false, reason: `${method} answered ${r.status}` };
    try {
      const v: unknown = JSON.parse(text);
      return isObject(v) ? { ok: true, value: v } : { ok: false, reason: `${method} answered no object` };
    } catch {
      return { ok: false, reason: `${method} answered no JSON` };
    }
  };
  return {
    async downloadUrl(key) {
      const a = await call('GetCacheEntryDownloadURL', { key, restore_keys: [], version: VERSION });
      if (!a.ok) throw new Error(a.reason);
      // The service matches a primary key by prefix too: only exactly this key is an answer.
      if (a.value['ok'] !== true || member(a.value, 'matchedKey', 'matched_key') !== key) return null;
      return member(a.value, 'signedDownloadUrl', 'signed_download_url');
    },
    async download(url) {
      const r = await fetch(url, { signal: AbortSignal.timeout(300_000) });
      if (r.status !== 200 || r.body === null) throw new Error(`the archive's download answered ${r.status}`);
      // Read within the limit, whatever the length the answer announces.
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of r.body) {
        size += chunk.length;
        if (size > MAX_ARCHIVE_BYTES) throw new Error(`the archive is larger than ${MAX_ARCHIVE_BYTES} bytes`);
        chunks.push(Buffer.from(chunk));
      }
      return Buffer.concat(chunks);
    },
    async upload(key, bytes) {
      const created = await call('CreateCacheEntry', { key, version: VERSION });
      if (!created.ok) throw new Error(created.reason);
      const url = member(created.value, 'signedUploadUrl', 'signed_upload_url');
      if (created.value['ok'] !== true || url === null) throw new Error(`the cache service refused the key ${key}`);
      const put = await fetch(url, {
        method: 'PUT',
        headers: { 'x-ms-blob-type': 'BlockBlob', 'content-type': 'application/octet-stream' },
        body: bytes,
        signal: AbortSignal.timeout(300_000),
      });
      if (put.status < 200 || put.status >= 300) throw new Error(`the archive's upload answered ${put.status}`);
      const done = await call('FinalizeCacheEntryUpload', { key, size_bytes: String(bytes.length), version: VERSION });
      if (!done.ok || done.value['ok'] !== true) throw new Error(`the cache service did not finalize ${key}`);
    },
  };
}
