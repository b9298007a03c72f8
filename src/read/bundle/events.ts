/**
 * The third job of the bundle reader: events.ndjson, every event's envelope, sequence and content
 * hash, the run root; the decisions of its surface events through the same classifier as plain files.
 */
import { createHash } from 'node:crypto';
import { jcs, sha256Digest } from '../../core/binding.js';
import { isObject, type JsonObject } from '../../core/json.js';
import type { DecisionInput } from '../../core/model.js';
import { COVERAGE_SCHEMA, RECORD_SCHEMA } from '../../core/model.js';
import { quote } from '../../core/text.js';
import { autoSi, compareInstants, type Instant, parseRfc3339 } from '../../core/time.js';
import { classify } from '../classify.js';
import { pathKey } from '../json/scanner.js';
import { parseStrict } from '../json/strict.js';
import type { BundleLimits } from '../limits.js';
import { lines, overBytes } from '../lines.js';
import { ReadError } from '../read-error.js';
import { RunDecisions, readSurface } from '../surface.js';
import { decodeUtf8 } from '../utf8.js';
import type { Manifest } from './manifest.js';

const STRINGS = ['type', 'datacontenttype', 'assayproducer', 'assayproducerversion', 'assaygit'] as const;

export interface Events {
  readonly decisions: DecisionInput[];
  /** Events of other kinds, by kind. */
  readonly skipped: ReadonlyMap<string, number>;
  /** The earliest and latest event time, in UTC (chrono's AutoSi form, as upstream writes them). */
  readonly window: { readonly start: string; readonly end: string } | null;
}

const fail = (message: string): never => {
  throw new ReadError('events', message);
};

/** One event's CloudEvents envelope and Assay extensions (§ "Events"): its time and content hash, or a ReadError. */
function checkEnvelope(
  entry: JsonObject,
  where: string,
  manifest: Manifest,
  seq: number,
  source: string | undefined,
): { time: Instant; contentHash: string } {
  if (entry['specversion'] !== '1.0') fail(`${where}: specversion must be "1.0"`);
  for (const k of STRINGS) if (typeof entry[k] !== 'string') fail(`${where}: ${k} must be a string`);
  const src = entry['source'];
  if (typeof src !== 'string' || !src.includes(':') || src.startsWith(':'))
    fail(`${where}: source must be a string containing ':' and not starting with it`);
  if (source !== undefined && src !== source) fail(`${where}: source differs from the first event's`);
  if (entry['assayrunid'] !== manifest.runId) fail(`${where}: assayrunid does not equal the manifest run_id`);
  if (entry['assayseq'] !== seq) fail(`${where}: assayseq must be ${seq} (sequence starts at 0 and increases by 1)`);
  if (entry['id'] !== `${manifest.runId}:${seq}`) fail(`${where}: id must be "${manifest.runId}:${seq}"`);
  const t = entry['time'];
  if (typeof t !== 'string') return fail(`${where}: time is not an RFC 3339 timestamp (not a string)`);
  const time = parseRfc3339(t);
  if (!time.ok) return fail(`${where}: time is not an RFC 3339 timestamp: ${JSON.stringify(quote(t, 40))} ${time.reason}`);
  if (typeof entry['assaypii'] !== 'boolean' || typeof entry['assaysecrets'] !== 'boolean')
    fail(`${where}: assaypii and assaysecrets must be booleans`);
  const subject = entry['subject'];
  if (subject !== undefined && subject !== null && typeof subject !== 'string') fail(`${where}: subject must be a string`);
  const covered: { [key: string]: unknown } = {
    specversion: entry['specversion'],
    type: entry['type'],
    datacontenttype: entry['datacontenttype'],
    data: entry['data'],
  };
  if (typeof subject === 'string') covered['subject'] = subject;
  const canonical = jcs(covered);
  if (!canonical.ok) return fail(`${where}: event cannot be canonicalized (${canonical.reason})`);
  const contentHash = sha256Digest(canonical.text);
  if (entry['assaycontenthash'] !== contentHash)
    fail(`${where}: assaycontenthash does not match the event content (recomputed ${contentHash})`);
  return { time: time.value, contentHash };
}

export function readEvents(bytes: Buffer, manifest: Manifest, file: string, limits: BundleLimits): Events {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) fail('events.ndjson starts with a byte-order mark');
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) return fail(`events.ndjson is not valid UTF-8 (byte ${decoded.reason})`);
  const text = decoded.value;
  const root = createHash('sha256');
  const run = new RunDecisions(limits.maxDecisions);
  const skipped = new Map<string, number>();
  let seq = 0;
  let source: string | undefined;
  let earliest: Instant | null = null;
  let latest: Instant | null = null;
  const surfacePath = pathKey(['data', 'observed_tool_decisions']);
  const opts = { maxDepth: limits.maxDepth, collect: [['data', 'observed_tool_decisions']] };
  for (const { line, start, end } of lines(text)) {
    const where = `events.ndjson line ${line}`;
    if (end === start) fail(`${where} is blank`);
    if (overBytes(text, start, end, limits.maxLineBytes)) fail(`${where} is over the ${limits.maxLineBytes}-byte line limit`);
    if (seq >= limits.maxEvents) fail(`more than ${limits.maxEvents} events`);
    const parsed = parseStrict(text, opts, start, end);
    if (!parsed.ok) return fail(`${where} is not strict JSON: ${parsed.reason.message}`);
    const thrown = parsed.value.json;
    if (!isObject(thrown)) return fail(`${where} is not a JSON object`);
    const { time, contentHash } = checkEnvelope(thrown, where, manifest, seq, source);
    source = thrown['source'] as string;
    if (!earliest || compareInstants(time, earliest) < 0) earliest = time;
    if (!latest || compareInstants(latest, time) < 0) latest = time;
    root.update(`${contentHash}\n`);
    // The same classifier as plain files and NDJSON logs: they cannot disagree about an event.
    const kind = classify(thrown);
    if (kind.kind === 'error') fail(`${where}: ${kind.reason}`);
    else if (kind.kind === 'surface') {
      const offsets = parsed.value.elements.get(surfacePath) ?? [];
      const locate = (j: number | null) => ({
        file,
        line,
        column: (j === null ? start : (offsets[j] ?? start)) - start + 1,
        member: 'events.ndjson',
      });
      readSurface(kind.payload, 'event', locate, run, (_at, message) => fail(`${where}: ${message}`), time);
    } else if (kind.kind === 'record' || kind.kind === 'coverage') {
      // A bundle is a run: no audit input reads it, so a record or statement in it would be judged by no
      // one (a red team: an attested bundle carried a failing record past the gate with a notice).
      fail(
        `${where}: ${kind.kind === 'record' ? `an audit record (${RECORD_SCHEMA})` : `a coverage statement (${COVERAGE_SCHEMA})`} in a bundle, where no audit input reads it: a bundle holds a run; commit the provider's records and statements as an audit export (receipt-gate import)`,
      );
    } else {
      const name = kind.kind === 'other' ? kind.name : 'a server tracing line';
      skipped.set(name, (skipped.get(name) ?? 0) + 1);
    }
    seq++;
  }
  if (seq === 0) fail('events.ndjson holds no events (a bundle needs at least one)');
  if (seq !== manifest.eventCount) fail(`manifest event_count is ${manifest.eventCount} but events.ndjson holds ${seq} events`);
  const runRoot = `sha256:${root.digest('hex')}`;
  if (runRoot !== manifest.runRoot) fail(`run root recomputes to ${runRoot} but the manifest run_root says ${manifest.runRoot}`);
  if (manifest.bundleId !== manifest.runRoot) fail('manifest bundle_id does not equal the run root');
  return { decisions: run.decisions, skipped, window: earliest && latest ? { start: autoSi(earliest), end: autoSi(latest) } : null };
}
