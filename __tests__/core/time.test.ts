/**
 * The one RFC 3339 parser: exact at any precision, and refusing what RFC 3339 refuses (an impossible
 * date, hour 24, minute or second 60 but a leap second in UTC's last minute, an offset beyond ±23:59), where
 * Date.parse rolls over or truncates.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { autoSi, compareInstants, fromEpochNumber, parseDay, parseRfc3339, utcAsWritten } from '../../src/core/time.js';

const ok = (t: string) => {
  const r = parseRfc3339(t);
  if (!r.ok) throw new Error(`${t}: ${r.reason}`);
  return r.value;
};
const refused = (t: string) => {
  const r = parseRfc3339(t);
  return r.ok ? '(accepted)' : r.reason;
};

describe('RFC 3339 times', () => {
  it.each([
    ['2026-02-30T00:00:00Z', /2026-02 has no day 30/],
    ['2025-02-29T00:00:00Z', /2025-02 has no day 29/],
    ['2026-13-01T00:00:00Z', /month 13 does not exist/],
    ['2026-11-30T24:00:00Z', /has hour 24, which does not exist/],
    ['2026-11-30T12:60:00Z', /has minute 60, which does not exist/],
    ['2026-11-30T12:00:60Z', /has second 60 where none is/],
    ['2026-11-30T12:00:00+25:00', /has offset \+25:00, beyond ±23:59/],
    ['2026-11-30T12:00:00+05:60', /has offset \+05:60, beyond ±23:59/],
    ['2026-11-30 12:00:00Z', /is not an RFC 3339 date-time/],
    ['2026-11-30T12:00:00', /is not an RFC 3339 date-time/],
  ])('%s is refused (Date.parse rolls it over or accepts it)', (t, why) => {
    expect(refused(t)).toMatch(why);
  });

  it('a leap second at 23:59 is its own day’s last instant, never the next day’s first; 2024-02-29 exists', () => {
    // A window that ends at the next midnight holds it (a call stamped so escaped such a window).
    expect(compareInstants(ok('2016-12-31T23:59:60Z'), ok('2017-01-01T00:00:00Z'))).toBe(-1);
    expect(compareInstants(ok('2016-12-31T23:59:60.5Z'), ok('2017-01-01T00:00:00Z'))).toBe(-1);
    expect(compareInstants(ok('2016-12-31T23:59:60Z'), ok('2016-12-31T23:59:59.999999999Z'))).toBe(0);
    expect(compareInstants(ok('2016-12-31T23:59:60.25Z'), ok('2016-12-31T23:59:59.9999999Z'))).toBe(1);
    expect(compareInstants(ok('2016-12-31T23:59:60.0000000000001Z'), ok('2016-12-31T23:59:59.99999999999Z'))).toBe(1);
    // Written back (a verdict's verified_at, a report's times) as RFC 3339 without a second 60.
    expect(autoSi(ok('9999-12-31T23:59:60Z'))).toBe('9999-12-31T23:59:59.999999999Z');
    // With an offset, the leap second is in UTC's last minute (RFC 3339 §5.7's own example); 23:59:60+01:00 is 22:59:60Z, which does not exist.
    expect(autoSi(ok('1990-12-31T15:59:60-08:00'))).toBe('1990-12-31T23:59:59.999999999Z');
    expect(autoSi(ok('2017-01-01T05:29:60+05:30'))).toBe('2016-12-31T23:59:59.999999999Z');
    expect(refused('2016-12-31T23:59:60+01:00')).toMatch(
      /has second 60 where none is \(a leap second is only in the last minute of a UTC day/,
    );
    expect(refused('2016-12-31T23:59:60-00:30')).toMatch(/has second 60 where none is/);
    expect(ok('2024-02-29T00:00:00Z').seconds).toBe(Date.UTC(2024, 1, 29) / 1000);
  });

  it('a window bound as a statement writes it: in UTC with the digits written; a leap second as the instant it is read as, never the second before it', () => {
    expect(utcAsWritten('2026-11-30')).toEqual({ ok: true, value: '2026-11-30T00:00:00Z' });
    expect(utcAsWritten('2026-11-30T01:00:00.50+01:00')).toEqual({ ok: true, value: '2026-11-30T00:00:00.50Z' });
    // Written 23:59:59Z, a statement's since would claim [23:59:59, 23:59:60), whose entries the window's filter skipped (a red team).
    for (const [given, read] of [
      ['2026-12-31T23:59:60Z', '2026-12-31T23:59:59.999999999Z'],
      ['2026-12-31T23:59:60.5Z', '2026-12-31T23:59:59.999999999Z'],
      ['2026-12-31T15:59:60-08:00', '2026-12-31T23:59:59.999999999Z'],
      ['2026-12-31T23:59:60.1234567891Z', '2026-12-31T23:59:59.9999999999Z'],
    ]) {
      const written = utcAsWritten(given as string);
      expect(written, given).toEqual({ ok: true, value: read });
      // The statement's bound, read back, is the bound the import filtered on.
      expect(written.ok && compareInstants(ok(written.value), ok(given as string)), given).toBe(0);
    }
    expect(utcAsWritten('2026-12-31T23:59:60+01:00')).toMatchObject({ ok: false });
  });

  it('offsets are applied, fractions kept exactly at any precision', () => {
    expect(compareInstants(ok('2026-11-30T13:30:00+01:30'), ok('2026-11-30T12:00:00Z'))).toBe(0);
    expect(compareInstants(ok('2026-11-30T00:00:00.0005Z'), ok('2026-11-30T00:00:00.000Z'))).toBe(1);
    expect(compareInstants(ok('2026-11-30T00:00:00.00050Z'), ok('2026-11-30T00:00:00.0005Z'))).toBe(0);
    expect(compareInstants(ok('2026-11-30T00:00:00.000000000001Z'), ok('2026-11-30T00:00:00Z'))).toBe(1);
  });

  it('epoch numbers are read exactly (GitHub: milliseconds; Slack: seconds)', () => {
    expect(fromEpochNumber(1700000000123, 3)).toEqual({ seconds: 1700000000, fraction: '123' });
    expect(fromEpochNumber(1700000000.5, 0)).toEqual({ seconds: 1700000000, fraction: '5' });
    expect(fromEpochNumber(Number.NaN, 0)).toBeNull();
  });

  it('a calendar day is midnight UTC; an impossible one is refused', () => {
    expect(parseDay('2026-11-30')).toEqual({ ok: true, value: ok('2026-11-30T00:00:00Z') });
    expect(parseDay('2026-02-30')).toMatchObject({ ok: false, reason: expect.stringMatching(/no day 30/) });
    expect(parseDay('2026-11-30T00:00:00Z')).toBeNull();
  });

  it('autoSi writes the fewest of 0, 3, 6 or 9 fraction digits (chrono)', () => {
    expect(autoSi(ok('2026-11-20T09:00:00Z'))).toBe('2026-11-20T09:00:00Z');
    expect(autoSi(ok('2026-11-20T09:00:00.12Z'))).toBe('2026-11-20T09:00:00.120Z');
    expect(autoSi(ok('2026-11-20T10:00:00.000001+01:00'))).toBe('2026-11-20T09:00:00.000001Z');
  });

  it('every valid date-time agrees with Date.UTC to the millisecond (property)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date(Date.UTC(1, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true }),
        fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }),
        (d, offsetMinutes) => {
          const local = new Date(d.getTime() + offsetMinutes * 60_000);
          const sign = offsetMinutes < 0 ? '-' : '+';
          const abs = Math.abs(offsetMinutes);
          const text = `${local.toISOString().slice(0, 23)}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
          if (local.getUTCFullYear() < 1 || local.getUTCFullYear() > 9999) return;
          const i = ok(text);
          expect(i.seconds * 1000 + Number(i.fraction.padEnd(3, '0').slice(0, 3))).toBe(d.getTime());
        },
      ),
      { numRuns: 500, seed: 7 },
    );
  });
});
