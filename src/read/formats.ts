/**
 * The artifact file types the gate reads, by name: the one list of extensions. A directory input
 * means every file with one of these beneath it (a server log only under the run inputs); a file
 * ending `.intoto.jsonl` (DSSE) or `.sigstore.json` (a Sigstore bundle) is an attestation, found
 * beside its artifact and never read as a run or an export.
 */
import { evidenceLine, isEvidence, jsonValue } from './classify.js';

export type Format = 'json' | 'ndjson' | 'log' | 'bundle' | 'attestation';

const EXTENSIONS: readonly { readonly ext: string; readonly format: Format }[] = [
  // First: a DSSE sidecar also ends in .jsonl, a Sigstore bundle in .json.
  { ext: '.intoto.jsonl', format: 'attestation' },
  { ext: '.sigstore.json', format: 'attestation' },
  { ext: '.json', format: 'json' },
  { ext: '.jsonl', format: 'ndjson' },
  { ext: '.ndjson', format: 'ndjson' },
  { ext: '.log', format: 'log' },
  { ext: '.tar.gz', format: 'bundle' },
];

/** ".json, .jsonl, .ndjson, .log or .tar.gz" (what a run input may hold). */
export const EXTENSION_LIST = '.json, .jsonl, .ndjson, .log or .tar.gz';

/** The format of a file by its name (case-insensitive), or null when the gate does not read it. */
export function formatOf(file: string): Format | null {
  const lower = file.toLowerCase();
  for (const { ext, format } of EXTENSIONS) if (lower.endsWith(ext)) return format;
  return null;
}

/** The ends of a checksum, signature, certificate or licence file beside evidence (`x.json.sha256`, `x.json.sigstore`). */
const SIDECAR =
  /\.(sha1|sha224|sha256|sha384|sha512|md5|b2|(sha1|sha256|sha384|sha512|md5|b2)sums?|sig|asc|gpg|p7s|minisig|pem|crt|cert|cer|der|bundle|sigstore|sigstore\.json|license|licence)$/i;

/**
 * A file among the inputs that looks like evidence but is not read by this role: a run or export
 * compressed on its own (`.log.gz` from log rotation, `.ndjson.gz`), an archive under another name
 * than `.tar.gz` (`.tgz`, `.zip`), a rotated or renamed copy (`.log.1`, `.json.bak`), a server log
 * among audit exports. Never read and never skipped in
 * silence (the same file under its name could fail the gate). Null when it is not one.
 */
export function unreadText(file: string, role: 'runs' | 'audit' = 'runs', exists: (file: string) => boolean = () => true): string | null {
  const match = /\.(json|jsonl|ndjson|log)\.gz$/i.exec(file);
  if (match)
    return `a gzip-compressed .${(match[1] ?? '').toLowerCase()} file: receipt-gate reads runs and exports as text (and evidence bundles as .tar.gz); decompress it (gunzip) and commit the text, or move it out of the input`;
  const archive = /\.(tgz|tar|zip|gz|bz2|xz|zst|7z)$/i.exec(file);
  if (archive && formatOf(file) === null)
    return `a .${(archive[1] ?? '').toLowerCase()} file: receipt-gate reads evidence bundles as .tar.gz only (and runs and exports as text); rename a bundle to .tar.gz, or move the file out of the input`;
  // A sidecar beside evidence (a checksum, a signature, a certificate, a licence) is not a copy of it;
  // one whose file is not beside it, named for evidence (`agent.log.sig`, `x.log.bak.sig`), may be that evidence renamed.
  if (sidecarNamed(file)) {
    const of = sidecarOfWhat(file);
    if (exists(of) || (formatOf(of) === null && unreadText(of, role, exists) === null)) return null;
    return `named like a checksum, signature or certificate of ${baseName(of)}, which is not beside it: receipt-gate reads a file by its extension, so the evidence it names is not read; keep a sidecar beside its file, give evidence its own name, or move the file out of the input`;
  }
  // A rotated, backed-up or renamed copy (`agent.log.1`, `x.json.bak`, `x.ndjson.txt`, `x.json~`).
  const renamed = /\.(json|jsonl|ndjson|log|tar\.gz)([.~_-][^/\\]*)$/i.exec(file);
  if (renamed && formatOf(file) === null)
    return `a .${(renamed[1] ?? '').toLowerCase()} file under another name (…${renamed[2] ?? ''}): receipt-gate reads a file by its extension; rename it to end in .${(renamed[1] ?? '').toLowerCase()}, or move it out of the input`;
  if (role === 'audit' && formatOf(file) === 'log')
    return 'a .log file among the audit exports: exports are read as .json, .jsonl or .ndjson (a server log is a run: give it with the runs); rename it, or move it out of the input';
  return null;
}

/** The most of a file named like a sidecar that is read to tell it from evidence renamed (64 MiB: far past any checksum list, signature, certificate, licence or attestation). */
export const SIDECAR_MAX_BYTES = 64 * 1024 * 1024;

/** Whether a file is named like a checksum, signature, certificate or licence of another file (`x.json.sha256`). */
export const sidecarNamed = (file: string): boolean => SIDECAR.test(file) && formatOf(file) === null;

/** The file a sidecar-named file names (`x.json` for `x.json.sha256`). */
export const sidecarOfWhat = (file: string): string => file.slice(0, SIDECAR.exec(file)?.index ?? file.length);

/** What bytes the gate does not read by their name hold that a reader would take (a sidecar's, any unread file's, an archive member's). */
export type EvidenceIn =
  | { readonly kind: 'nothing' }
  /** Evidence whatever the file beside it holds: gzip bytes (a bundle), or too large to tell. */
  | { readonly kind: 'evidence'; readonly why: string }
  /** A JSON document a reader takes, as its text (a copy of the file beside it holds nothing unread). */
  | { readonly kind: 'document'; readonly text: string }
  /** The lines a reader takes, trimmed, each with its number (lines of the file beside it hold nothing unread: a clear-signed log). */
  | { readonly kind: 'lines'; readonly lines: readonly { readonly line: number; readonly text: string }[] };

/**
 * What a file the gate does not read by its name holds that a reader would take (`size`: its whole
 * size; `capped`, for a sidecar's name: past SIDECAR_MAX_BYTES it is evidence, as no sidecar is so large; otherwise only its first
 * SIDECAR_MAX_BYTES are looked at, as for a recording beside the runs). A run,
 * an export or a bundle renamed `x.json.sha256` beside `x.json` is not read, and a failing run so
 * renamed passed in silence. A checksum, a signature, a certificate, a licence, a Sigstore or cosign
 * bundle or a DSSE envelope holds none of it; a clear-signed copy of the file beside it holds only its
 * lines (the caller compares them).
 */
export function evidenceIn(bytes: Uint8Array, size: number, capped = true): EvidenceIn {
  if (capped && size > SIDECAR_MAX_BYTES)
    return { kind: 'evidence', why: `${size} bytes, more than any checksum, signature, certificate or licence (${SIDECAR_MAX_BYTES})` };
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return { kind: 'evidence', why: 'gzip bytes (an evidence bundle?)' };
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  const whole = /^\s*[{[]/.test(text) ? jsonValue(text) : undefined;
  if (isEvidence(whole) || (Array.isArray(whole) && whole.some(isEvidence))) return { kind: 'document', text };
  const lines: { line: number; text: string }[] = [];
  text.split('\n').forEach((line, i) => {
    if (evidenceLine(line)) lines.push({ line: i + 1, text: line.trim() });
  });
  return lines.length > 0 ? { kind: 'lines', lines } : { kind: 'nothing' };
}

/** A path's last part, whichever separator it uses. */
const baseName = (file: string): string => file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);

/** Whether a directory or glob input of this role picks the file up. */
export function discoverable(file: string, role: 'runs' | 'audit'): boolean {
  const format = formatOf(file);
  return format !== null && format !== 'attestation' && (format !== 'log' || role === 'runs');
}

/** The sidecar of a bundle: `<bundle file name>.intoto.jsonl` beside it. */
export const sidecarOf = (bundle: string): string => `${bundle}.intoto.jsonl`;

/** The Sigstore bundle file of an artifact: `<artifact file name>.sigstore.json` beside it. */
export const sigstoreOf = (artifact: string): string => `${artifact}.sigstore.json`;

/** The artifact an attestation file is about: its name without `.intoto.jsonl` / `.sigstore.json` (null: not an attestation). */
export function attestedBy(attestation: string): string | null {
  const match = /\.(intoto\.jsonl|sigstore\.json)$/i.exec(attestation);
  return match ? attestation.slice(0, match.index) : null;
}
