/** The second job of the bundle reader: manifest.json, or the other kind of archive it announces. */
import { DIGEST_PATTERN as DIGEST } from '../../core/binding.js';
import { isObject } from '../../core/json.js';
import { quote } from '../../core/text.js';
import { classify } from '../classify.js';
import { parseStrict } from '../json/strict.js';
import type { BundleLimits } from '../limits.js';
import { ReadError } from '../read-error.js';
import { decodeUtf8 } from '../utf8.js';

/** A manifest `schema` of another kind is a skip (its kind's name); a near miss of ours is an error, never a skip. */
function announcedKind(schema: string): string {
  const kind = classify({ schema });
  if (kind.kind === 'other') return kind.name;
  throw new ReadError(
    'manifest',
    kind.kind === 'error'
      ? `the archive's manifest names ${JSON.stringify(quote(schema, 120))}: ${kind.reason}`
      : `the archive's manifest names ${schema}, which is not an archive`,
  );
}

/** A first member that is JSON with a `schema` names the archive's kind (null: it names none, so it is not a bundle). */
export function otherArchive(bytes: Buffer, limits: BundleLimits): string | null {
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) return null;
  const parsed = parseStrict(decoded.value, { maxDepth: limits.maxDepth });
  const value = parsed.ok ? parsed.value.json : null;
  return isObject(value) && typeof value['schema'] === 'string' ? announcedKind(value['schema']) : null;
}

export interface Manifest {
  /** producer.name / .version / .git when they are strings (an attestation names them). */
  readonly producer: { readonly name: string | null; readonly version: string | null; readonly git: string | null };
  readonly runId: string;
  readonly eventCount: number;
  readonly runRoot: string;
  readonly bundleId: string;
  readonly eventsSha256: string;
  readonly eventsBytes: number;
}

/** The manifest, or the name of the other kind of archive it announces. */
export function readManifest(bytes: Buffer, limits: BundleLimits): Manifest | { readonly other: string } {
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) throw new ReadError('manifest', `manifest.json is not valid UTF-8 (byte ${decoded.reason})`);
  const parsed = parseStrict(decoded.value, { maxDepth: limits.maxDepth });
  if (!parsed.ok)
    throw new ReadError('manifest', `manifest.json is not strict JSON: ${parsed.reason.message} (offset ${parsed.reason.offset})`);
  const m = parsed.value.json;
  if (!isObject(m)) throw new ReadError('manifest', 'manifest.json is not a JSON object');
  if (typeof m['schema'] === 'string' && !('schema_version' in m)) return { other: announcedKind(m['schema']) };
  if (m['schema_version'] !== 1)
    throw new ReadError('manifest', `manifest schema_version must be 1, found ${JSON.stringify(m['schema_version'])}`);
  const runId = m['run_id'];
  const eventCount = m['event_count'];
  const runRoot = m['run_root'];
  const bundleId = m['bundle_id'];
  if (typeof runId !== 'string') throw new ReadError('manifest', 'manifest run_id is not a string');
  if (runId.includes(':')) throw new ReadError('manifest', 'manifest run_id contains ":" (event ids are run_id:seq)');
  if (typeof eventCount !== 'number' || !Number.isSafeInteger(eventCount) || eventCount < 0)
    throw new ReadError('manifest', 'manifest event_count is not a non-negative integer');
  if (typeof runRoot !== 'string' || !DIGEST.test(runRoot))
    throw new ReadError('manifest', 'manifest run_root is not a sha256:<hex> digest');
  if (typeof bundleId !== 'string' || !DIGEST.test(bundleId))
    throw new ReadError('manifest', 'manifest bundle_id is not a sha256:<hex> digest');
  const files = m['files'];
  const ev = isObject(files) ? files['events.ndjson'] : undefined;
  if (!isObject(ev)) throw new ReadError('manifest', 'manifest files["events.ndjson"] is missing or not an object');
  const sha = ev['sha256'];
  const size = ev['bytes'];
  if (typeof ev['path'] !== 'string') throw new ReadError('manifest', 'manifest files["events.ndjson"].path is not a string');
  if (typeof sha !== 'string') throw new ReadError('manifest', 'manifest files["events.ndjson"].sha256 is not a string');
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0)
    throw new ReadError('manifest', 'manifest files["events.ndjson"].bytes is not a non-negative integer');
  const eventsSha256 = (sha.startsWith('sha256:') ? sha : `sha256:${sha}`).toLowerCase();
  const parsed2 = isObject(m['producer']) ? m['producer'] : {};
  const text = (k: string): string | null => (typeof parsed2[k] === 'string' ? (parsed2[k] as string) : null);
  return {
    producer: { name: text('name'), version: text('version'), git: text('git') },
    runId,
    eventCount,
    runRoot,
    bundleId,
    eventsSha256,
    eventsBytes: size,
  };
}
