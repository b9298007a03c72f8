/**
 * `receipt-gate import <kind>`: export files → records, offline. Each file is read with the gate's
 * strict readers and limits; each entry becomes a record, a counted skip, or a located error.
 * Identical entries under one record id (at-least-once streaming) are one record; two different
 * entries under one id are an error naming it. Output: NDJSON, one record per line in record-id
 * order, canonical JSON, signed with --sign-key when given. Any error: nothing is written.
 */
import path from 'node:path';
import { jcs } from '../../core/binding.js';
import { type Finding, finding, placeOf } from '../../core/findings.js';
import type { JsonObject } from '../../core/json.js';
import type { Location } from '../../core/location.js';
import { COVERAGE_SCHEMA } from '../../core/model.js';
import type { Result } from '../../core/result.js';
import type { ReadLimits } from '../../read/limits.js';
import { EXPORT_KINDS, EXPORT_SHAPES, exportKindOf } from '../../read/provider-exports.js';
import { COVERAGE_PAYLOAD_TYPE } from '../../read/signature.js';
import type { ToolInput } from '../input.js';
import { type SigningKey, signedLine } from '../signing.js';
import { readExport } from './exports.js';
import { type ImportOptions, importer } from './kinds.js';
import { idText, type Mapper, makeRecord } from './mapping.js';
import type { ImportKind } from './names.js';
import { outOfScope, type ScopeFilter, type ScopeNote, ScopeTally, UNTIMED } from './scope.js';

/** What an export whose entries are not of `kind` looks like, for the refusal. */
function wrongKind(kind: ImportKind, sample: JsonObject | null): string {
  const other = exportKindOf(sample);
  return other && other !== kind
    ? `no entry has the shape of ${EXPORT_KINDS[kind]}: this looks like ${EXPORT_KINDS[other]}: try import ${other}`
    : `no entry has the shape of ${EXPORT_KINDS[kind]} (is this the right export for import ${kind}?)`;
}

export interface ImportSettings {
  readonly kind: ImportKind;
  readonly inputs: readonly ToolInput[];
  readonly limits: ReadLimits;
  readonly options: ImportOptions;
  readonly sign: { readonly key: SigningKey; readonly signedAt: string } | null;
  /** Which entries are the agent's (actor, repository, time window) (all null keeps every entry). */
  readonly scope: ScopeFilter;
  /** With both bounds of the window: what the statements say was covered (docs/coverage.md §1); null: no statement. */
  readonly coverage: CoverageScope | null;
  /**
   * Who vouches for each input before it is read (CloudTrail's signed digests): the words its
   * records' non_claims carry and the bytes that were vouched for (read as they are), or why the
   * file is refused (a located error; the file is not read). Null: no one is asked.
   */
  readonly vouch: ((input: ToolInput) => Result<{ readonly words: string; readonly bytes: Uint8Array }>) | null;
}

/** The scope a coverage statement names, as the user gave it. */
export interface CoverageScope {
  /** `--actor` values exactly as given. */
  readonly actors: readonly string[];
  /** `--repo` values (lower-cased for GitHub), or null. */
  readonly repos: readonly string[] | null;
  /** `--owner` as given, or null. */
  readonly owner: string | null;
  /** The bounds in UTC, with the precision written. */
  readonly since: string;
  readonly until: string;
  /** The import's clock (RFC 3339 UTC): when the export was turned into this statement. */
  readonly exportedAt: string;
}

/** The statements of an import, one per provider, each its own line (signed like the records when they are). */
function statementLines(s: ImportSettings, c: CoverageScope, entries: number, perProvider: ReadonlyMap<string, number>): string[] {
  return [...importer(s.kind).actions(s.options)]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([provider, actions]) => {
      const statement = jcs({
        schema: COVERAGE_SCHEMA,
        provider,
        export: s.kind,
        actors: c.actors,
        repos: c.repos,
        owner: c.owner,
        actions,
        since: c.since,
        until: c.until,
        entries_read: entries,
        records: perProvider.get(provider) ?? 0,
        exported_at: c.exportedAt,
      });
      if (!statement.ok) throw new Error(`a coverage statement cannot be canonicalized: ${statement.reason}`); // strings and numbers only
      return s.sign ? signedLine(statement.text, s.sign.key, s.sign.signedAt, COVERAGE_PAYLOAD_TYPE) : statement.text;
    });
}

/** What an import wrote; `records` and `statements` 0: there is nothing to write (a quiet night without a window), and no file should be. */
export interface Imported {
  readonly ndjson: string;
  readonly records: number;
  /** Coverage statements written first (one per provider; with both window bounds only). */
  readonly statements: number;
  /** What the scope's flags dropped, when a given value is a near miss of what the entries named (a typo), or when they dropped every entry that mapped to a record. */
  readonly scope: ScopeNote | null;
  readonly entries: number;
  readonly summary: string;
}

/** Why an import wrote nothing: located findings, and the counts so far. */
export interface ImportFailure {
  readonly findings: readonly Finding[];
  readonly summary: string;
}

export function runImport(s: ImportSettings): Result<Imported, ImportFailure> {
  const { source, listKeys, mapper: mapperOf, isEntry } = importer(s.kind);
  const mapper: Mapper = mapperOf(s.options);
  const errors: Finding[] = [];
  const skipped = new Map<string, number>();
  const skip = (reason: string): void => {
    skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
  };
  const byId = new Map<string, { line: string; mapping: string; loc: Location; provider: string }>();
  /** Ids whose event did not take effect, or whose entry fell outside the scope: another entry under one of them that makes a record contradicts it (an id vouches for one entry only). */
  const notWritten = new Map<string, { readonly loc: Location; readonly why: string }>();
  /** Ids an entry completes (a record, a refusal, one it cannot name), and the in-scope stages that wait for one. */
  const completed = new Set<string>();
  const waiting = new Map<string, Location>();
  const contradicts = (id: string, loc: Location, other: Location, why: string): void => {
    errors.push(
      finding(
        'invalid_artifact',
        loc,
        `two entries with record id ${idText(id)} say different things (the other at ${placeOf(other, true)}: ${why}): an id vouches for one entry only`,
      ),
    );
  };
  let entries = 0;
  let merged = 0;
  /** What the scope dropped of the entries that map to records (what names a near miss of a value given). */
  const tally = new ScopeTally(s.scope);
  for (const input of s.inputs) {
    const file = path.basename(input.name);
    const vouched = s.vouch ? s.vouch(input) : null;
    if (vouched && !vouched.ok) {
      errors.push(finding('invalid_artifact', { file: input.name, line: 1, column: 1 }, vouched.reason));
      continue;
    }
    const read = readExport(input.name, vouched?.ok ? vouched.value.bytes : input.bytes, s.limits, listKeys);
    // Each file is of the kind or it is not: one of another kind beside a real export maps to
    // nothing, quietly (a red team: an Okta page among GitHub's counted as "other action").
    let ofKind = 0;
    let sample: { value: JsonObject; loc: Location } | null = null;
    const before = errors.length;
    for (const e of read.entries) {
      entries++;
      if (EXPORT_SHAPES[s.kind](e.value)) ofKind++;
      else {
        sample ??= e;
        // Under a window, an object that is no entry of the export (an API error body a paging script
        // appended, a page of another shape) says the export is not what it claims to be: never a
        // skip beside a statement of completeness (a red team: Okta's rate-limit body after page 1
        // passed as "other event type").
        if (s.coverage && !isEntry(e.value)) {
          errors.push(
            finding(
              'invalid_artifact',
              e.loc,
              `not an entry of ${EXPORT_KINDS[s.kind]} (an API error body, a page of another shape?): an export holding it cannot be claimed complete for the window; export again, or give only the entries`,
            ),
          );
          continue;
        }
      }
      const m = mapper(e.value);
      if (m.kind === 'skip') {
        skip(m.reason);
        const ev = m.event;
        if (ev?.kind === 'partial') {
          const out = ev.scope ? outOfScope(s.scope, ev.scope) : UNTIMED;
          if (s.coverage && (out === null || out === UNTIMED) && !waiting.has(ev.recordId)) waiting.set(ev.recordId, e.loc);
        } else if (ev) {
          if (ev.recordId !== null) completed.add(ev.recordId);
          if (ev.kind === 'refused') {
            const written = byId.get(ev.recordId);
            if (written) contradicts(ev.recordId, e.loc, written.loc, 'a record written');
            else if (!notWritten.has(ev.recordId)) notWritten.set(ev.recordId, { loc: e.loc, why: m.reason });
          }
          // An entry of the scope that took effect on something it does not name: a statement beside it would claim a window it did not read whole (docs/coverage.md §6).
          const out = ev.scope ? outOfScope(s.scope, ev.scope) : UNTIMED;
          if (ev.kind === 'uncertain' && s.coverage && (out === null || out === UNTIMED))
            errors.push(
              finding(
                'invalid_artifact',
                e.loc,
                `an entry of the scope that does not say whether or what it changed (${m.reason}): the window cannot be claimed complete`,
              ),
            );
        }
        continue;
      }
      if (m.kind === 'error') {
        errors.push(finding('invalid_artifact', e.loc, m.message));
        continue;
      }
      completed.add(m.recordId);
      const out = tally.judge(m.scope);
      // An entry of the scope that cannot be placed in time may be inside the window: a statement
      // written beside it would claim completeness over an entry it did not count (docs/coverage.md §6).
      if (out === UNTIMED && s.coverage) {
        errors.push(
          finding(
            'invalid_artifact',
            e.loc,
            'an entry of the scope without a time: whether it falls in the window cannot be said, so the window cannot be claimed complete',
          ),
        );
        continue;
      }
      // Another actor, repository or tenant under one id is another entry; another time is not (a webhook's redeliveries share their guid).
      if (out !== null && out !== 'outside the window' && out !== UNTIMED) {
        const written = byId.get(m.recordId);
        if (written) contradicts(m.recordId, e.loc, written.loc, 'a record written');
        else if (!notWritten.has(m.recordId)) notWritten.set(m.recordId, { loc: e.loc, why: out });
      }
      if (out !== null) {
        skip(out);
        continue;
      }
      // Entries (or deliveries: one guid for every delivery of an event) under one id that map to
      // the same record are one record; only different mappings under one id are an error.
      const canon = jcs({ provider: m.provider, subject: m.subject });
      const mapping = canon.ok ? canon.text : '';
      const refused = notWritten.get(m.recordId);
      if (refused) {
        contradicts(m.recordId, e.loc, refused.loc, refused.why);
        continue;
      }
      const seen = byId.get(m.recordId);
      if (seen) {
        if (seen.mapping === mapping) merged++;
        else {
          const why = `two entries with record id ${idText(m.recordId)} map to different records (the other at ${placeOf(seen.loc, true)}): an id vouches for one entry only`;
          errors.push(finding('invalid_artifact', e.loc, why));
        }
        continue;
      }
      const record = makeRecord(m, `${source} (${file})`, vouched?.ok ? [vouched.value.words] : []);
      const payload = jcs(record);
      if (!payload.ok) {
        errors.push(finding('invalid_artifact', e.loc, `the record cannot be canonicalized (${payload.reason})`));
        continue;
      }
      const line = s.sign ? signedLine(payload.text, s.sign.key, s.sign.signedAt) : payload.text;
      byId.set(m.recordId, { line, mapping, loc: e.loc, provider: m.provider });
    }
    // Complete only now: the entries are read one page at a time.
    for (const f of read.findings) errors.push(f);
    // Each file's listing read to its end: a statement needs every listing whole, and a page of one
    // file (another listing's last page) never ends another's.
    if (s.coverage && read.paging.open !== null)
      errors.push(
        finding(
          'invalid_artifact',
          read.paging.open,
          'this page says more pages follow (its next cursor is set) and it is the last page of its file: the listing stopped early, so the window cannot be claimed complete; export every page of a listing into one file (a page of another file cannot continue it: a page does not name its own cursor)',
        ),
      );
    // An export of another kind maps to nothing, quietly, every night: refuse it (docs/importers.md).
    if (ofKind === 0 && sample && errors.length === before)
      errors.push(finding('invalid_artifact', sample.loc, wrongKind(s.kind, sample.value)));
  }
  for (const [id, loc] of waiting)
    if (!completed.has(id))
      errors.push(
        finding(
          'invalid_artifact',
          loc,
          `a request of the scope (record id ${idText(id)}) whose completing entry the export does not hold: whether it took effect cannot be said, so the window cannot be claimed complete; export until the request completes`,
        ),
      );
  const skips = [...skipped.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  const skipText =
    skips.length === 0 ? '0 skipped' : `${skips.reduce((n, [, k]) => n + k, 0)} skipped (${skips.map(([r, k]) => `${k} ${r}`).join(', ')})`;
  const summary = `${entries} ${entries === 1 ? 'entry' : 'entries'} read, ${errors.length > 0 ? 0 : byId.size} record(s) written, ${skipText}, ${merged} duplicate(s) merged`;
  const scope = tally.note(byId.size === 0);
  if (errors.length > 0) return { ok: false, reason: { findings: errors, summary } };
  const lines = [...byId.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v.line);
  const perProvider = new Map<string, number>();
  for (const v of byId.values()) perProvider.set(v.provider, (perProvider.get(v.provider) ?? 0) + 1);
  // The statements first: a reader sees what the export covered before what it found.
  const statements = s.coverage ? statementLines(s, s.coverage, entries, perProvider) : [];
  const all = [...statements, ...lines];
  return {
    ok: true,
    value: {
      ndjson: all.length > 0 ? `${all.join('\n')}\n` : '',
      records: lines.length,
      statements: statements.length,
      entries,
      summary,
      scope,
    },
  };
}
