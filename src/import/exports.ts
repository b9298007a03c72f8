/**
 * Provider export files → located JSON entries, with the gate's strict reader and limits: gzip
 * (streaming exports) decompressed up to max-file-size, strict UTF-8 and JSON, an array, one object,
 * an object with a list member (Slack's `{"entries": [...]}`), or NDJSON. Never a network call.
 */
import { gunzipSync } from 'node:zlib';
import { isObject, type JsonObject } from '../core/json.js';
import { LineIndex, parseStrict, pathKey } from '../read/strict-json.js';
import { decodeUtf8, byteLocation } from '../read/utf8.js';
import { blank, lines } from '../read/lines.js';
import type { ReadLimits } from '../settings.js';

export interface Entry {
  readonly value: JsonObject;
  /** file:line:column, for messages. */
  readonly at: string;
}

export interface ExportRead {
  readonly entries: readonly Entry[];
  readonly errors: readonly string[];
}

const isGzip = (b: Uint8Array): boolean => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;

/**
 * @param listKey the member of a top-level object that holds the entries (Slack: "entries")
 */
export function readExport(name: string, raw: Uint8Array, limits: ReadLimits, listKey?: string): ExportRead {
  const errors: string[] = [];
  let bytes = raw;
  if (isGzip(raw)) {
    try {
      bytes = gunzipSync(raw, { maxOutputLength: limits.maxFileBytes });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const why =
        code === 'ERR_BUFFER_TOO_LARGE' ? `decompresses to more than ${limits.maxFileBytes} bytes (max-file-size; a gzip bomb?)` : 'is not a valid gzip stream';
      return { entries: [], errors: [`${name}:1:1: ${why}`] };
    }
  }
  if (bytes.length > limits.maxFileBytes)
    return { entries: [], errors: [`${name}:1:1: ${bytes.length} bytes, over the ${limits.maxFileBytes}-byte limit (max-file-size)`] };
  const d = decodeUtf8(bytes);
  if (!d.ok) {
    const { line, column } = byteLocation(bytes, d.offset);
    return { entries: [], errors: [`${name}:${line}:${column}: invalid UTF-8`] };
  }
  const text = d.text;
  const index = new LineIndex(text);
  const at = (offset: number): string => {
    const { line, column } = index.locate(offset);
    return `${name}:${line}:${column}`;
  };
  const opts = { maxDepth: limits.maxDepth, maxKeys: limits.maxKeys, collect: [[], ...(listKey ? [[listKey]] : [])] };
  const entries: Entry[] = [];
  const take = (value: unknown, offset: number): void => {
    if (isObject(value)) entries.push({ value, at: at(offset) });
    else errors.push(`${at(offset)}: an entry is not a JSON object`);
  };
  const whole = parseStrict(text, opts);
  if (whole.ok) {
    const v = whole.value;
    const list = Array.isArray(v) ? v : listKey && isObject(v) && Array.isArray(v[listKey]) ? (v[listKey] as unknown[]) : null;
    const offsets = whole.elements.get(pathKey(Array.isArray(v) ? [] : [listKey ?? ''])) ?? [];
    if (list) {
      for (let i = 0; i < list.length; i++) take(list[i], offsets[i] ?? 0);
    } else take(v, 0);
    return { entries, errors };
  }
  // Not one JSON value: JSON lines (streaming exports) when it has more than one non-blank line;
  // otherwise the whole file's first problem is the error.
  const docs = [...lines(text)].filter(({ start, end }) => !blank(text, start, end));
  if (docs.length < 2) return { entries: [], errors: [`${at(whole.offset)}: ${whole.message}`] };
  for (const { start, end } of docs) {
    if (end - start > limits.maxLineBytes) {
      errors.push(`${at(start)}: line over the ${limits.maxLineBytes}-byte limit (max-line-size)`);
      continue;
    }
    const r = parseStrict(text, opts, start, end);
    if (r.ok) take(r.value, start);
    else errors.push(`${at(r.offset)}: ${r.message}`);
  }
  return { entries, errors };
}
