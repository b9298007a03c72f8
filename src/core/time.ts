/**
 * The one RFC 3339 parser (docs/importers.md, "Scope"): every time the project reads (scope bounds,
 * bundle event times, `signed_at`, entry times) is read here, exactly, at any precision it is
 * written with, and refused where RFC 3339 refuses it: an impossible date, hour 24, minute or second
 * 60 (a leap second `:60` only in UTC's last minute of a day: `23:59:60Z`, `15:59:60-08:00`), an
 * offset beyond ±23:59. Nothing is rolled over: a leap second is the last second of its own UTC day,
 * never the next day's first.
 */
import type { Result } from './result.js';

/** An instant: whole UTC seconds since the epoch, and the fraction of a second as decimal digits (no trailing zeros). */
export interface Instant {
  readonly seconds: number;
  readonly fraction: string;
  /**
   * In a leap second (23:59:60 UTC, its fraction in `fraction`): `seconds` is its day's 23:59:59, and
   * the instant is after every instant of that second, at any number of digits, and before the next
   * midnight. (Read as 23:59:59 and nine nines, a 23:59:59 written with ten digits came after it: a
   * red team's read begun before a write confirmed it.) A number of seconds after it is that many
   * seconds after its 23:59:59, its fraction kept: 23:59:60.5 and one second is 00:00:00.5.
   */
  readonly leap?: true;
}

const SHAPE = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

const leap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (y: number, m: number): number => [31, leap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] ?? 0;
const trimZeros = (digits: string): string => digits.replace(/0+$/, '');

/** Why a calendar date is impossible, or null. */
function badDate(y: number, m: number, d: number): string | null {
  if (m < 1 || m > 12) return `month ${m} does not exist`;
  if (d < 1 || d > daysIn(y, m)) return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')} has no day ${d}`;
  return null;
}

export interface TimeOptions {
  /** Only `Z` (or `z`) is accepted as the offset: a UTC time. */
  readonly utc?: boolean;
}

/** An RFC 3339 date-time, or why it is not one. */
export function parseRfc3339(text: string, options: TimeOptions = {}): Result<Instant> {
  const match = SHAPE.exec(text);
  if (!match) return { ok: false, reason: 'is not an RFC 3339 date-time (YYYY-MM-DDThh:mm:ss[.fraction](Z|±hh:mm))' };
  // Each field read directly (no array per parse: every record's signed_at and every event's time come through here).
  const y = Number(match[1]);
  const mo = Number(match[2]);
  const d = Number(match[3]);
  const h = Number(match[4]);
  const mi = Number(match[5]);
  const s = Number(match[6]);
  const date = badDate(y, mo, d);
  if (date) return { ok: false, reason: `is not a calendar date: ${date}` };
  if (h > 23) return { ok: false, reason: `has hour ${h}, which does not exist (00 to 23)` };
  if (mi > 59) return { ok: false, reason: `has minute ${mi}, which does not exist (00 to 59)` };
  if (s > 60) return { ok: false, reason: `has second ${s}, which does not exist (00 to 59; 60 only for a leap second)` };
  if (options.utc && !match[8]) return { ok: false, reason: 'is not a UTC time (it must end in Z)' };
  let offset = 0;
  if (!match[8]) {
    const [oh, om] = [Number(match[10]), Number(match[11])];
    if (oh > 23 || om > 59) return { ok: false, reason: `has offset ${match[9]}${match[10]}:${match[11]}, beyond ±23:59` };
    offset = (match[9] === '-' ? -1 : 1) * (oh * 3600 + om * 60);
  }
  // A leap second is inserted at the end of a UTC day: its local minute is UTC's 23:59 (RFC 3339 §5.7: 15:59:60-08:00).
  if (s === 60 && (((h * 60 + mi - offset / 60) % 1440) + 1440) % 1440 !== 1439)
    return { ok: false, reason: 'has second 60 where none is (a leap second is only in the last minute of a UTC day: 23:59:60Z)' };
  const seconds = daysFromCivil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + Math.min(s, 59) - offset;
  // A leap second (23:59:60) is its day's last second, its own after 23:59:59: inside a window that ends at the next midnight.
  if (s === 60) return { ok: true, value: { seconds, fraction: trimZeros(match[7] ?? ''), leap: true } };
  return { ok: true, value: { seconds, fraction: trimZeros(match[7] ?? '') } };
}

/** Days since 1970-01-01 of a proleptic Gregorian date (any year; no Date object, no two-digit-year rule). */
function daysFromCivil(year: number, m: number, d: number): number {
  const y = m <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** A calendar date (YYYY-MM-DD) as its midnight UTC, or why it is not one. */
export function parseDay(text: string): Result<Instant> | null {
  const match = DAY.exec(text);
  if (!match) return null;
  const [y, mo, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const bad = badDate(y, mo, d);
  if (bad) return { ok: false, reason: `is not a calendar date: ${bad}` };
  return parseRfc3339(`${match[1]}-${match[2]}-${match[3]}T00:00:00Z`);
}

/**
 * A number of seconds (scale 0) or milliseconds (scale 3) since the epoch, read exactly from its
 * decimal form; null for a value that is not finite or is written with an exponent.
 */
export function fromEpochNumber(v: number, scale: 0 | 3): Instant | null {
  if (!Number.isFinite(v)) return null;
  const text = String(v);
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  const digits = `${match[2]}${match[3] ?? ''}`;
  const point = (match[2] as string).length - scale;
  const whole = point > 0 ? digits.slice(0, point) : '0';
  const frac = point > 0 ? digits.slice(point) : '0'.repeat(-point) + digits;
  const seconds = Number(whole);
  if (match[1] === '-') {
    const file = trimZeros(frac);
    if (file === '') return { seconds: -seconds, fraction: '' };
    // −s.f = −(s+1) + (1 − 0.f)
    const complement = (BigInt(`1${'0'.repeat(file.length)}`) - BigInt(file)).toString().padStart(file.length, '0');
    return { seconds: -seconds - 1, fraction: trimZeros(complement) };
  }
  return { seconds, fraction: trimZeros(frac) };
}

/**
 * Order of two instants, exact at any precision: the second, a leap second after its 23:59:59, then
 * the fraction's digits (a missing digit is 0). Nothing is made per call: the ladder compares a
 * run's times pairwise.
 */
export function compareInstants(left: Instant, right: Instant): number {
  if (left.seconds !== right.seconds) return left.seconds < right.seconds ? -1 : 1;
  if (left.leap !== right.leap) return left.leap ? 1 : -1;
  const a = left.fraction;
  const b = right.fraction;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = i < a.length ? a.charCodeAt(i) : 48;
    const y = i < b.length ? b.charCodeAt(i) : 48;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** YYYY-MM-DDThh:mm:ss of an instant in UTC; a leap second's second is 60. */
function utcSecond(instant: Instant): string {
  const base = new Date(instant.seconds * 1000).toISOString().slice(0, 19);
  return instant.leap ? `${base.slice(0, 17)}60` : base;
}

/**
 * UTC, RFC 3339 with Z and 0, 3, 6 or 9 fraction digits: the fewest that show every non-zero digit of
 * the nanoseconds (chrono's AutoSi). A leap second is written without a second 60, as its day's last
 * nanosecond (a bundle's window, as it always was).
 */
export function autoSi(instant: Instant): string {
  const base = new Date(instant.seconds * 1000).toISOString().slice(0, 19);
  const nanos = instant.leap ? '999999999' : instant.fraction.slice(0, 9).padEnd(9, '0');
  if (/^0+$/.test(nanos)) return `${base}Z`;
  const digits = nanos.endsWith('000000') ? 3 : nanos.endsWith('000') ? 6 : 9;
  return `${base}.${nanos.slice(0, digits)}Z`;
}

/**
 * A time as given (RFC 3339 at any offset, or YYYY-MM-DD for its midnight), written in UTC with the
 * fraction digits it was written with (`2026-11-30` → `2026-11-30T00:00:00Z`, `…T01:00:00.50+01:00`
 * → `…T00:00:00.50Z`): what a statement says its window was. A leap second is written as itself
 * (`15:59:60-08:00` → `23:59:60Z`), the instant it is read as and filtered on: written `23:59:59Z`
 * (or any 23:59:59), a statement's `since` would claim time before it, whose entries were skipped
 * as outside the window (a red team).
 */
export function utcAsWritten(text: string): Result<string> {
  const day = parseDay(text);
  if (day) return day.ok ? { ok: true, value: rfc3339(day.value) } : day;
  const parsed = parseRfc3339(text);
  if (!parsed.ok) return parsed;
  const digits = SHAPE.exec(text)?.[7];
  const base = utcSecond(parsed.value);
  return { ok: true, value: digits === undefined ? `${base}Z` : `${base}.${digits}Z` };
}

/** An instant as RFC 3339 UTC, with its fraction when it has one (a leap second as 23:59:60). */
export function rfc3339(instant: Instant): string {
  const base = utcSecond(instant);
  return instant.fraction === '' ? `${base}Z` : `${base}.${instant.fraction}Z`;
}

/** The instant of a JavaScript Date (whole milliseconds). */
export function instantOf(date: Date): Instant {
  const ms = date.getTime();
  const seconds = Math.floor(ms / 1000);
  return {
    seconds,
    fraction: String(ms - seconds * 1000)
      .padStart(3, '0')
      .replace(/0+$/, ''),
  };
}

/** The latest instant an epoch count may name: 9999-12-31T23:59:59Z (RFC 3339 has four-digit years). */
const MAX_EPOCH_SECONDS = 253_402_300_799;

/**
 * OpenTelemetry's time: nanoseconds since the epoch, a decimal string (OTLP JSON writes 64-bit
 * integers so) or a whole number; null for anything else, 0 (unset) and years past 9999.
 */
export function fromEpochNanos(given: unknown): Instant | null {
  // A bare number past 2^53 has lost its last nanoseconds already; its whole part is still the time.
  const text =
    typeof given === 'string'
      ? given
      : typeof given === 'number' && Number.isInteger(given) && given > 0 && given < 1e21
        ? BigInt(given).toString()
        : '';
  if (!/^[1-9]\d{0,20}$/.test(text)) return null;
  const padded = text.padStart(10, '0');
  const seconds = Number(padded.slice(0, -9));
  if (seconds > MAX_EPOCH_SECONDS) return null;
  return { seconds, fraction: trimZeros(padded.slice(-9)) };
}
