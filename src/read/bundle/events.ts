/**
 * The third job of the bundle reader: events.ndjson, every event's envelope, sequence and content
 * hash, the run root; the decisions of its surface events through the same classifier as plain files.
 */
import { createHash } from 'node:crypto';
import { jcs, sha256Digest } from '../../core/binding.js';
import { isObject } from '../../core/json.js';
import type { DecisionInput } from '../../core/model.js';
import { RECORD_SCHEMA } from '../../core/model.js';
import { classify } from '../classify.js';
import { lines, overBytes } from '../lines.js';
import { ReadError } from '../read-error.js';
import { parseStrict, pathKey } from '../strict-json.js';
import { RunDecisions, readSurface } from '../surface.js';
import { decodeUtf8 } from '../utf8.js';
import type { BundleLimits } from './limits.js';
import type { Manifest } from './manifest.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

const STRINGS = ['type', 'datacontenttype', 'assayproducer', 'assayproducerversion', 'assaygit'] as const;

export interface Events {
  readonly decisions: DecisionInput[];
  /** Events of other kinds, by kind. */
  readonly skipped: ReadonlyMap<string, number>;
  /** The earliest and latest event time, in UTC (chrono's AutoSi form, as upstream writes them). */
  readonly window: { readonly start: string; readonly end: string } | null;
}

/** An RFC 3339 time as [UTC seconds since the epoch, nanoseconds], or null. */
function utcNanos(t: string): [number, number] | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/.exec(t);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]));
  const offset = m[8] ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 3600 + Number(m[11]) * 60);
  const seconds = Date.UTC(y as number, (mo as number) - 1, d, h, mi, s) / 1000 - offset;
  const nanos = Number(((m[7] ?? '') + '000000000').slice(0, 9));
  return [seconds, nanos];
}

/** [seconds, nanos] in UTC as RFC 3339 with Z and 0, 3, 6 or 9 fraction digits: the fewest that show every non-zero digit. */
function autoSi([seconds, nanos]: [number, number]): string {
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  if (nanos === 0) return `${base}Z`;
  const digits = nanos % 1_000_000 === 0 ? 3 : nanos % 1000 === 0 ? 6 : 9;
  return `${base}.${String(nanos).padStart(9, '0').slice(0, digits)}Z`;
}

export function readEvents(bytes: Buffer, m: Manifest, file: string, limits: BundleLimits): Events {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    throw new ReadError('events', 'events.ndjson starts with a byte-order mark');
  const d = decodeUtf8(bytes);
  if (!d.ok) throw new ReadError('events', `events.ndjson is not valid UTF-8 (byte ${d.offset})`);
  const text = d.text;
  const root = createHash('sha256');
  const run = new RunDecisions(limits.maxDecisions);
  const skipped = new Map<string, number>();
  let seq = 0;
  let source: string | undefined;
  let earliest: [number, number] | null = null;
  let latest: [number, number] | null = null;
  const before = (a: [number, number], b: [number, number]): boolean => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
  const surfacePath = pathKey(['data', 'observed_tool_decisions']);
  const opts = { maxDepth: limits.maxDepth, collect: [['data', 'observed_tool_decisions']] };
  for (const { line, start, end } of lines(text)) {
    const where = `events.ndjson line ${line}`;
    if (end === start) throw new ReadError('events', `${where} is blank`);
    if (overBytes(text, start, end, limits.maxLineBytes))
      throw new ReadError('events', `${where} is over the ${limits.maxLineBytes}-byte line limit`);
    if (seq >= limits.maxEvents) throw new ReadError('events', `more than ${limits.maxEvents} events`);
    const r = parseStrict(text, opts, start, end);
    if (!r.ok) throw new ReadError('events', `${where} is not strict JSON: ${r.message}`);
    const e = r.value;
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
    if (typeof e['time'] !== 'string' || !RFC3339.test(e['time']))
      throw new ReadError('events', `${where}: time is not an RFC 3339 timestamp`);
    const at = utcNanos(e['time']);
    if (at) {
      if (!earliest || before(at, earliest)) earliest = at;
      if (!latest || before(latest, at)) latest = at;
    }
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
      const offsets = r.elements.get(surfacePath) ?? [];
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
