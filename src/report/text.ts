/** Making untrusted text safe to print (control characters escaped, length bounded), and the sentences every reporter shares. */

import type { Finding } from '../core/findings.js';
import type { CallReport, Report, Totals } from '../core/report.js';
import { clip, visible } from '../core/text.js';

export { visible };

import { LEVELS_DESCENDING, RECORD_OUTCOME_NAMES } from '../core/vocabulary.js';

/** "4 verified, 1 observed_confirmed, 4 asserted, 0 no_effect": the totals sentence of every reporter. */
export const levelCounts = (t: Totals): string => [...LEVELS_DESCENDING.map((l) => `${t[l]} ${l}`), `${t.no_effect} no_effect`].join(', ');

/** "weakest rung: observed_confirmed" (§9), or that nothing asserts a side effect. */
export const weakestRung = (t: Totals): string =>
  t.weakest_level === null ? 'weakest rung: none (no call asserts a side effect)' : `weakest rung: ${t.weakest_level}`;

/** A level for people: the rung, or "—" for a call that asserts no side effect. */
export const rung = (l: string | null): string => l ?? '—';

/** "4 bound, 0 unmatched, 0 inconsistent, 0 untrusted, 0 duplicate", from the outcome table. */
export const recordCounts = (t: Totals): string => RECORD_OUTCOME_NAMES.map((o) => `${t[o]} ${o}`).join(', ');

/**
 * Which runs a producer attested (§10), or null when no run names a producer and no trusted
 * producers are configured: "2 of 3 run(s) attested by a trusted producer; 1 signed, not checked".
 */
export function producerLine(r: Report): string | null {
  const trusted = r.policy.trusted_producers.length > 0;
  const checked = r.runs.filter((x) => x.producer?.checked).length;
  const unchecked = r.runs.filter((x) => x.producer && !x.producer.checked).length;
  if (!trusted && unchecked === 0) return null;
  if (!trusted) return `${unchecked} of ${r.runs.length} run(s) carry a producer attestation, not checked: no trusted producers`;
  return `${checked} of ${r.runs.length} run(s) attested by a trusted producer`;
}

/** Each run's producer, for people: "attested by sha256:646d6be49d9f…", "signed by sha256:… (not checked)", "not attested". */
export function runProducer(p: Report['runs'][number]['producer']): string {
  if (!p) return 'not attested';
  const signer = p.identity ? `${p.identity.identity} (${p.identity.source_ref})` : `${(p.key_id ?? '').slice(0, 19)}…`;
  const who = `${signer}${p.name ? ` (${p.name}${p.version ? ` ${p.version}` : ''})` : ''}`;
  return p.checked ? `attested by ${who}` : `signed by ${who}, not checked`;
}

/** "0 error(s), 0 warning(s), 2 notice(s)" */
export const findingCounts = (t: Totals): string => `${t.errors} error(s), ${t.warnings} warning(s), ${t.notices} notice(s)`;

/**
 * Text a command prints with every runner command made inert: a line that starts a workflow command
 * after any white space (`::error::`, `::add-mask::`) has its first character escaped as \uXXXX, and
 * `##[` (the runner finds that form anywhere in a line) becomes `\u0023#[`. The CLI's output carries
 * names from the evidence (a class, a path, a tool) and runs in a workflow's `run:` step, whose
 * output the runner reads for commands. The runner trims what .NET calls white space, which is
 * JavaScript's plus U+0085 (a red team: `\u0085::stop-commands::` passed as inert).
 */
export const inert = (text: string): string =>
  text.replace(/^([\s\u0085]*)::/gm, (_, ws: string) => `${ws}\\u003a:`).replaceAll('##[', '\\u0023#[');

/** Where a location points, for people: file:line:column, or file!member:line:column inside a bundle. */
export function where(l: { file: string; line: number; column?: number; member?: string }): string {
  const col = l.column !== undefined ? `:${l.column}` : '';
  return l.member ? `${l.file}!${l.member}:${l.line}${col}` : `${l.file}:${l.line}${col}`;
}

/** A finding on one line: where (file:line:column, or the input as given), then its message. */
export const located = (f: Finding): string => `${findingPlace(f)}: ${visible(f.message)}`;

/** Where a finding is, for people: file:line:column, or the input as given (never an invented place). */
export const findingPlace = (f: Finding): string => visible(f.input !== undefined ? f.input : where(f));

const MARKER = ' … [trimmed by receipt-gate]';

/** At most `max` UTF-8 bytes, cut on a character boundary with a visible marker. */
export function clipBytes(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text;
  const room = max - Buffer.byteLength(MARKER);
  let lo = 0;
  let hi = Math.min(text.length, room);
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (Buffer.byteLength(clip(text, mid, '')) <= room) lo = mid;
    else hi = mid - 1;
  }
  return clip(text, lo, '') + MARKER;
}

/** Calls in the order a reader needs them: below their required level first, then with other failures, then the rest (report order within each). */
export function failingFirst(calls: readonly CallReport[]): { readonly call: CallReport; readonly fails: boolean }[] {
  const rank = (c: CallReport): number => (c.below_required ? 0 : c.findings.some((f) => f.severity === 'error') ? 1 : 2);
  return calls
    .map((call, i) => ({ call, i, r: rank(call) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map(({ call, r }) => ({ call, fails: r < 2 }));
}

/**
 * A repository path as a URI path: every segment percent-encoded, `(`, `)`, `!`, `*` and `'` too
 * (a pull request controls file names: a `)` must not end a Markdown link, a `#` or `?` must not
 * start a fragment or a query, a `%` must not decode to another file).
 */
export const uriPath = (path: string): string =>
  path
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/[()!*']/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');
