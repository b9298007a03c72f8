/**
 * The third job of the bundle reader: events.ndjson, every event's envelope, sequence and content
 * hash, the run root; the decisions of its surface events through the same classifier as plain files.
 */
import { createHash } from 'node:crypto';
import { jcs, sha256Digest } from '../../core/binding.js';
import { isObject } from '../../core/json.js';
import type { DecisionInput } from '../../core/model.js';
import { RECORD_SCHEMA } from '../../core/model.js';
import { quote } from '../../core/text.js';
import { autoSi, compareInstants, type Instant, parseRfc3339 } from '../../core/time.js';
import { classify } from '../classify.js';
import { lines, overBytes } from '../lines.js';
import { ReadError } from '../read-error.js';
import { parseStrict, pathKey } from '../strict-json.js';
import { RunDecisions, readSurface } from '../surface.js';
import { decodeUtf8 } from '../utf8.js';
import type { BundleLimits } from './limits.js';
import type { Manifest } from './manifest.js';

const STRINGS = ['type', 'datacontenttype', 'assayproducer', 'assayproducerversion', 'assaygit'] as const;

export interface Events {
  readonly decisions: DecisionInput[];
  /** Events of other kinds, by kind. */
  readonly skipped: ReadonlyMap<string, number>;
  /** The earliest and latest event time, in UTC (chrono's AutoSi form, as upstream writes them). */
  readonly window: { readonly start: string; readonly end: string } | null;
}

export function readEvents(bytes: Buffer, m: Manifest, file: string, limits: BundleLimits): Events {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    throw new ReadError('events', 'events.ndjson starts with a byte-order mark');
  const d = decodeUtf8(bytes);
  if (!d.ok) throw new ReadError('events', `events.ndjson is not valid UTF-8 (byte ${d.reason})`);
  const text = d.value;
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
    if (end === start) throw new ReadError('events', `${where} is blank`);
    if (overBytes(text, start, end, limits.maxLineBytes))
      throw new ReadError('events', `${where} is over the ${limits.maxLineBytes}-byte line limit`);
    if (seq >= limits.maxEvents) throw new ReadError('events', `more than ${limits.maxEvents} events`);
    const r = parseStrict(text, opts, start, end);
    if (!r.ok) throw new ReadError('events', `${where} is not strict JSON: ${r.reason.message}`);
    const e = r.value.json;
    if (!isObject(e)) throw new ReadError('events', `${where} is not a JSON object`);
    if (e['specversion'] !== '1.0') throw new ReadError('events', `${where}: specversion must be "1.0"`);
    for (const k of STRINGS) if (typeof e[k] !== 'string') throw new ReadError('events', `${where}: ${k} must be a string`);
    const src = e['source'];
    if (typeof src !== 'string' || !src.includes(':') || src.startsWith(':'))
      throw new ReadError('events', `${where}: source must be a string containing ':' and not starting with it`);
    if (source !== undefined && src !== source) throw new ReadError('events', `${where}: source differs from the first event's`);
    source = src;
    if (e['assayrunid'] !== m.runId) throw new ReadError('events', `${where}: assayrunid does not equal the manifest run_id`);
    if (e['assayseq'] !== seq) throw new ReadError('events', `${where}: assayseq must be ${seq} (sequence starts at 0 and increases by 1)`);
    if (e['id'] !== `${m.runId}:${seq}`) throw new ReadError('events', `${where}: id must be "${m.runId}:${seq}"`);
    if (typeof e['time'] !== 'string') throw new ReadError('events', `${where}: time is not an RFC 3339 timestamp (not a string)`);
    const time = parseRfc3339(e['time']);
    if (!time.ok)
      throw new ReadError('events', `${where}: time is not an RFC 3339 timestamp: ${JSON.stringify(quote(e['time'], 40))} ${time.reason}`);
    const at = time.value;
    if (!earliest || compareInstants(at, earliest) < 0) earliest = at;
    if (!latest || compareInstants(latest, at) < 0) latest = at;
    if (typeof e['assaypii'] !== 'boolean' || typeof e['assaysecrets'] !== 'boolean')
      throw new ReadError('events', `${where}: assaypii and assaysecrets must be booleans`);
    const subject = e['subject'];
    if (subject !== undefined && subject !== null && typeof subject !== 'string')
      throw new ReadError('events', `${where}: subject must be a string`);
    const covered: { [k: string]: unknown } = {
      specversion: e['specversion'],
      type: e['type'],
      datacontenttype: e['datacontenttype'],
      data: e['data'],
    };
    if (typeof subject === 'string') covered['subject'] = subject;
    const c = jcs(covered);
    if (!c.ok) throw new ReadError('events', `${where}: event cannot be canonicalized (${c.reason})`);
    const contentHash = sha256Digest(c.text);
    if (e['assaycontenthash'] !== contentHash)
      throw new ReadError('events', `${where}: assaycontenthash does not match the event content (recomputed ${contentHash})`);
    root.update(contentHash + '\n');
    // The same classifier as plain files and NDJSON logs: they cannot disagree about an event.
    const k = classify(e);
    if (k.kind === 'error') throw new ReadError('events', `${where}: ${k.reason}`);
    if (k.kind === 'surface') {
      const offsets = r.value.elements.get(surfacePath) ?? [];
      const locate = (j: number | null) => ({
        file,
        line,
        column: (j === null ? start : (offsets[j] ?? start)) - start + 1,
        member: 'events.ndjson',
      });
      readSurface(k.payload, 'event', locate, run, (_at, message) => {
        throw new ReadError('events', `${where}: ${message}`);
      });
    } else {
      const name =
        k.kind === 'record' ? `${RECORD_SCHEMA} (an audit record among the runs)` : k.kind === 'other' ? k.name : 'a server tracing line';
      skipped.set(name, (skipped.get(name) ?? 0) + 1);
    }
    seq++;
  }
  if (seq === 0) throw new ReadError('events', 'events.ndjson holds no events (a bundle needs at least one)');
  if (seq !== m.eventCount) throw new ReadError('events', `manifest event_count is ${m.eventCount} but events.ndjson holds ${seq} events`);
  const runRoot = `sha256:${root.digest('hex')}`;
  if (runRoot !== m.runRoot) throw new ReadError('events', `run root recomputes to ${runRoot} but the manifest run_root says ${m.runRoot}`);
  if (m.bundleId !== m.runRoot) throw new ReadError('events', 'manifest bundle_id does not equal the run root');
  return { decisions: run.decisions, skipped, window: earliest && latest ? { start: autoSi(earliest), end: autoSi(latest) } : null };
}
