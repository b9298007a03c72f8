/**
 * The one RFC 3339 parser: exact at any precision, and refusing what RFC 3339 refuses (an impossible
 * date, hour 24, minute or second 60 but a leap second in UTC's last minute, an offset beyond ±23:59), where
 * Date.parse rolls over or truncates.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { autoSi, compareInstants, fromEpochNumber, parseDay, parseRfc3339, rfc3339, utcAsWritten } from '../../src/core/time.js';

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
    expect(compareInstants(ok('2016-12-31T23:59:60Z'), ok('2016-12-31T23:59:59.999999999Z'))).toBe(1);
    expect(compareInstants(ok('2016-12-31T23:59:60.25Z'), ok('2016-12-31T23:59:59.9999999Z'))).toBe(1);
    expect(compareInstants(ok('2016-12-31T23:59:60.0000000000001Z'), ok('2016-12-31T23:59:59.99999999999Z'))).toBe(1);
    // A red team's: read as 23:59:59 and nine nines, a leap second came before a 23:59:59 written with ten digits.
    expect(compareInstants(ok('2016-12-31T23:59:59.9999999991Z'), ok('2016-12-31T23:59:60Z'))).toBe(-1);
    expect(compareInstants(ok('2016-12-31T23:59:60.5Z'), ok('2016-12-31T23:59:59.99999999999999999999Z'))).toBe(1);
    // Inside the leap second, its fraction orders; the same instant however written.
    expect(compareInstants(ok('2016-12-31T23:59:60.2Z'), ok('2016-12-31T23:59:60.7Z'))).toBe(-1);
    expect(compareInstants(ok('2016-12-31T23:59:60.50Z'), ok('2016-12-31T15:59:60.5-08:00'))).toBe(0);
    expect(compareInstants(ok('2016-12-31T23:59:60.999999999999Z'), ok('2017-01-01T00:00:00Z'))).toBe(-1);
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

  it('a window bound as a statement writes it: in UTC with the digits written; a leap second as itself, never a time before it', () => {
    expect(utcAsWritten('2026-11-30')).toEqual({ ok: true, value: '2026-11-30T00:00:00Z' });
    expect(utcAsWritten('2026-11-30T01:00:00.50+01:00')).toEqual({ ok: true, value: '2026-11-30T00:00:00.50Z' });
    // Written 23:59:59Z, a statement's since would claim [23:59:59, 23:59:60), whose entries the window's filter skipped (a red team).
    for (const [given, read] of [
      ['2026-12-31T23:59:60Z', '2026-12-31T23:59:60Z'],
      ['2026-12-31T23:59:60.50Z', '2026-12-31T23:59:60.50Z'],
      ['2026-12-31T15:59:60-08:00', '2026-12-31T23:59:60Z'],
      ['2027-01-01T05:29:60.1234567891+05:30', '2026-12-31T23:59:60.1234567891Z'],
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

  it('a leap second is written back as itself (a report, an imported run), and read back as the same instant', () => {
    expect(rfc3339(ok('2016-12-31T23:59:60Z'))).toBe('2016-12-31T23:59:60Z');
    expect(rfc3339(ok('2017-01-01T05:29:60.1234567891+05:30'))).toBe('2016-12-31T23:59:60.1234567891Z');
    expect(rfc3339(ok('2016-12-31T23:59:59.9999999991Z'))).toBe('2016-12-31T23:59:59.9999999991Z');
  });

  it('order agrees with a reference order (UTC minute, then second with 60 after 59, then the fraction as a decimal) on times around leap seconds at any precision (property)', () => {
    // Two UTC times on one day or the next, mostly in its last minute (leap seconds are only in 23:59),
    // at any offset, with 0 to 20 fraction digits (many of them nines).
    const digits = (of: string, most: number) =>
      fc.array(fc.constantFrom(...of), { minLength: 1, maxLength: most }).map((ds) => ds.join(''));
    const arbTimeOn = (day: number) =>
      fc
        .record({
          day: fc.constantFrom(day, day, day + 1),
          minute: fc.oneof(fc.constant(1439), fc.constant(1439), fc.constant(0), fc.integer({ min: 0, max: 1439 })),
          second: fc.oneof(fc.constantFrom(59, 60), fc.integer({ min: 0, max: 60 })),
          fraction: fc.oneof(
            fc.constant(''),
            fc.tuple(fc.integer({ min: 8, max: 11 }), digits('0123456789', 3)).map(([n, tail]) => '9'.repeat(n) + tail),
            digits('059', 20),
            digits('0123456789', 20),
          ),
          offset: fc.oneof(fc.constant(0), fc.constant(-480), fc.constant(330), fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 })),
          zulu: fc.boolean(),
        })
        .map((t) => ({ ...t, second: t.minute === 1439 ? t.second : Math.min(t.second, 59) }));
    const arbPair = fc
      .integer({ min: Date.UTC(1, 0, 1) / 86_400_000, max: Date.UTC(9999, 11, 29) / 86_400_000 })
      .chain((day) => fc.tuple(arbTimeOn(day), arbTimeOn(day)));
    const text = (t: { day: number; minute: number; second: number; fraction: string; offset: number; zulu: boolean }): string => {
      const local = new Date((t.day * 1440 + t.minute + t.offset) * 60_000).toISOString().slice(0, 16);
      const abs = Math.abs(t.offset);
      const zone =
        t.zulu && t.offset === 0
          ? 'Z'
          : `${t.offset < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
      return `${local}:${String(t.second).padStart(2, '0')}${t.fraction === '' ? '' : `.${t.fraction}`}${zone}`;
    };
    const reference = (a: { day: number; minute: number; second: number; fraction: string }, b: typeof a): number => {
      const key = (t: typeof a) => [t.day * 1440 + t.minute, t.second] as const;
      const [ma, sa] = key(a);
      const [mb, sb] = key(b);
      if (ma !== mb) return ma < mb ? -1 : 1;
      if (sa !== sb) return sa < sb ? -1 : 1;
      const fa = a.fraction.padEnd(20, '0');
      const fb = b.fraction.padEnd(20, '0');
      return fa < fb ? -1 : fa > fb ? 1 : 0;
    };
    fc.assert(
      fc.property(arbPair, ([a, b]) => {
        const [ta, tb] = [text(a), text(b)];
        if (!/^\d{4}/.test(ta) || !/^\d{4}/.test(tb) || ta.startsWith('0000') || tb.startsWith('0000')) return;
        const [ia, ib] = [ok(ta), ok(tb)];
        expect(compareInstants(ia, ib), `${ta} vs ${tb}`).toBe(reference(a, b));
        expect(compareInstants(ib, ia), `${tb} vs ${ta}`).toBe(-reference(a, b) || 0);
        // Written back and read again, the same instant.
        expect(compareInstants(ok(rfc3339(ia)), ia), ta).toBe(0);
        const written = utcAsWritten(ta);
        expect(written.ok && compareInstants(ok(written.value), ia), ta).toBe(0);
      }),
      { numRuns: 1000, seed: 11 },
    );
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
