/**
 * Provider export files → located JSON entries, through the gate's one document pipeline
 * (read/documents.ts): gzip (streaming exports) decompressed up to max-file-size, strict UTF-8 and
 * JSON, and every shape the export routes write: one array, pages written one after another
 * (`gh api --paginate`: `[…][…]`), an array of pages (`--slurp`: `[[…],[…]]`, or page objects such as
 * CloudTrail's `[{"Records": […]}, …]`, each page's cursor read), one entry per line
 * (`--jq '.[]'`), one object, or an object with a list member (Slack's `{"entries": [...]}`). An
 * empty page is no entries. Every entry keeps its own file:line:column. Never a network call.
 */
import { type Finding, finding } from '../../core/findings.js';
import { isObject, type JsonObject } from '../../core/json.js';
import type { Location } from '../../core/location.js';
import { type DocSink, decode, documents, LocatingSink } from '../../read/documents.js';
import { firstValueEnd, pathKey } from '../../read/json/scanner.js';
import { parseStrict } from '../../read/json/strict.js';
import type { ReadLimits } from '../../read/limits.js';

interface Entry {
  readonly value: JsonObject;
  readonly loc: Location;
}

export interface ExportRead {
  /** The entries, one page at a time (a generator: a page's parsed entries are dropped once taken). */
  readonly entries: Iterable<Entry>;
  /** Every problem, complete once `entries` has been read to its end. */
  readonly findings: readonly Finding[];
  /** Whether the file's listing ends, as its pages' own cursors tell (complete once `entries` has been read to its end). */
  readonly paging: Paging;
}

/**
 * A paged listing's word on its completeness (Slack's `response_metadata.next_cursor`, CloudTrail
 * lookup-events' `NextToken`), for one file: where its last page was when that page says more pages
 * follow, else null. A file is one listing read to its end (the recipes write every page of a
 * listing into one file, one after another): a page continues into the page after it in the file,
 * and the file's last page must end the listing. A page does not name its own cursor, so nothing
 * links a page in one file to a page in another, and a page given elsewhere (another listing's last
 * page, another query's) never ends this one. A listing whose last page says more follow stopped
 * early: it may not claim a window (docs/coverage.md §6). A page left out between two given ones
 * cannot be told: the statement then claims an entry it did not count, which can only make a call
 * red (`effect_not_logged`), never green.
 */
interface Paging {
  open: Location | null;
}

/** Whether a page object says more pages follow (a cursor that is not empty, or not text). */
function continues(page: JsonObject): boolean {
  const meta = page['response_metadata'];
  const cursor = isObject(meta) ? meta['next_cursor'] : undefined;
  return [cursor, page['NextToken']].some((x) => x !== undefined && x !== null && x !== '');
}

/**
 * @param listKeys the members of a top-level object that may hold the entries (Slack: "entries"; CloudTrail: "Records", "Events")
 */
export function readExport(name: string, raw: Uint8Array, given: ReadLimits, listKeys: readonly string[] = []): ExportRead {
  // A .json export is one document, often on one line (the UI's export, gh api without --jq): the
  // line limit is for JSON lines, so it is held to the file limit only. NDJSON keeps the line limit.
  const lines = /\.(ndjson|jsonl)(\.gz)?$/i.test(name);
  const limits: ReadLimits = lines ? given : { ...given, maxLineBytes: Math.max(given.maxLineBytes, given.maxFileBytes) };
  const sink = new LocatingSink(name);
  const findings = sink.findings;
  const at = (offset: number): Location => sink.at(offset);
  const paging: Paging = { open: null };
  const decoded = decode(raw, limits, sink, { gzip: true });
  if (!decoded) return { entries: [], findings, paging };
  sink.lines = decoded.lines;
  const { text } = decoded;
  // A failed download must not become "the provider logged nothing" (docs/coverage.md §6): `[]` is a quiet page, nothing at all is not.
  if (text.trim() === '') {
    findings.push(
      finding(
        'invalid_artifact',
        at(0),
        `the export is empty (${raw.length === 0 ? '0 bytes' : 'white space only'}): an empty download is not an empty log; export again (a quiet window is [] or a page with no entries)`,
      ),
    );
    return { entries: [], findings, paging };
  }
  if (looksLikeCsv(name, text)) {
    findings.push(
      finding(
        'invalid_artifact',
        at(0),
        'this is a CSV export: the importer reads the JSON export (GitHub: the audit log\'s "Export JSON" or GET /orgs/ORG/audit-log; Slack: the Audit Logs API), which carries every field a record needs',
      ),
    );
    return { entries: [], findings, paging };
  }
  return { entries: pages(text, limits, listKeys, at, sink, findings, paging), findings, paging };
}

/** A .csv name, or a first line of comma-separated bare words (a header row) where JSON would start with [ or {. */
function looksLikeCsv(name: string, text: string): boolean {
  if (/\.csv(\.gz)?$/i.test(name)) return true;
  const first = (text.split('\n', 1)[0] ?? '').trim();
  return /^[A-Za-z_@"][\w.@" -]*(,[\w.@" -]*)+$/.test(first);
}

function* pages(
  text: string,
  limits: ReadLimits,
  listKeys: readonly string[],
  at: (offset: number) => Location,
  sink: DocSink,
  findings: Finding[],
  paging: Paging,
): Generator<Entry> {
  let entries: Entry[] = [];
  const take = (value: unknown, offset: number): void => {
    if (isObject(value)) entries.push({ value, loc: at(offset) });
    else findings.push(finding('invalid_artifact', at(offset), 'an entry is not a JSON object'));
  };
  /** The offsets of the elements at `path` in the value that starts at `offset` (its own slice parsed again). */
  const elementsAt = (offset: number, path: readonly string[]): readonly number[] => {
    const o = { maxDepth: limits.maxDepth, maxKeys: limits.maxKeys, collect: [path] };
    const end = firstValueEnd(text, o, offset);
    const inner = end.ok ? parseStrict(text, o, offset, end.value) : null;
    return inner?.ok ? (inner.value.elements.get(pathKey(path)) ?? []) : [];
  };
  /** A page object's entries (its one list member) and its word on the pages that follow. */
  const pageObject = (given: JsonObject, offset: number, offsets: (key: string) => readonly number[]): void => {
    // The list member that holds the entries: a page has one; two (CloudTrail's Records and Events) are refused, never one of them read.
    const keys = listKeys.filter((k) => Array.isArray(given[k]));
    const [key] = keys;
    if (keys.length > 1 || key === undefined)
      findings.push(
        finding(
          'invalid_artifact',
          at(offset),
          `a page holding entries under ${keys.join(' and ')}: which list is the export cannot be said`,
        ),
      );
    else page(given[key] as unknown[], offsets(key), false);
    // A page that says no more follow, or names no cursor at all (CloudTrail leaves NextToken out of
    // its last page, and so may a Slack page), ends the listing; one that says more follow is
    // continued only by a page after it in this file.
    paging.open = continues(given) ? at(offset) : null;
  };
  const isPage = (value: unknown): value is JsonObject => isObject(value) && listKeys.some((k) => Array.isArray(value[k]));
  /** The entries of one array (a page); a page of pages (--slurp: arrays, or page objects such as CloudTrail's) is read page by page. */
  const page = (list: readonly unknown[], offsets: readonly number[], nested: boolean): void => {
    list.forEach((item, i) => {
      const offset = offsets[i] ?? 0;
      if (nested && Array.isArray(item)) page(item, elementsAt(offset, []), false);
      else if (nested && isPage(item)) pageObject(item, offset, (key) => elementsAt(offset, [key]));
      else take(item, offset);
    });
  };
  const collect = [[], ...listKeys.map((k) => [k])];
  for (const doc of documents(text, 'values', { limits, collect }, sink)) {
    const given = doc.value;
    if (Array.isArray(given))
      page(
        given,
        doc.elements.get(pathKey([])) ?? [],
        given.some((x) => Array.isArray(x) || isPage(x)),
      );
    else if (isPage(given)) pageObject(given, doc.start, (key) => doc.elements.get(pathKey([key])) ?? []);
    else take(given, doc.start);
    yield* entries;
    entries = [];
  }
}
