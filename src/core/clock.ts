/**
 * The verification time as `verify()` reads it, and how long what it decided holds
 * (design/incremental-verification.md, "The verification time"). Every comparison of the
 * verification time inside `verify()` is a method here: a call from the future, a call or record
 * pending, an exception live, expired or expiring. Each such answer is monotone in the time (a call
 * that is no longer from the future never is again; an expired exception stays expired), so each
 * method notes the earliest instant after the verification time at which its answer would change,
 * and the earliest of those bounds every answer: a verification of the same evidence at any time
 * from `now` up to, not including, `Validity.until()` decides the same, and its report differs only
 * in `verified_at`. A judgement that prints the time itself pins the verification to its instant.
 * This is `verify()`'s own use of the time only: what the gate decides from it before (a policy's
 * exceptions more than 366 days out, the shipped trusted root's age) is decided again on every run.
 */
import { compareInstants, type Instant } from './time.js';

/** How long a verification's judgements hold, as its clocks noted. */
export type HeldUntil =
  | { readonly kind: 'always' }
  | { readonly kind: 'until'; readonly at: Instant }
  /**
   * No later time is known to give the same report: a judgement prints the verification time, an
   * answer changes within the verification time's own second, or there is no verification time.
   */
  | { readonly kind: 'this_instant' };

/** What one verification's clocks noted. */
export class Validity {
  private earliest: Instant | null = null;
  private pinned = false;

  /** An answer changes at `at` (whole seconds, never later than the exact instant). */
  note(at: Instant): void {
    if (this.earliest === null || compareInstants(at, this.earliest) < 0) this.earliest = at;
  }

  pin(): void {
    this.pinned = true;
  }

  until(): HeldUntil {
    if (this.pinned) return { kind: 'this_instant' };
    return this.earliest === null ? { kind: 'always' } : { kind: 'until', at: this.earliest };
  }
}

/** `seconds` after `t`, its fraction kept and a leap second's flag dropped (as coverage.ts compared before the clock). */
export const plus = (t: Instant, seconds: number): Instant => ({ seconds: t.seconds + seconds, fraction: t.fraction });

/** The whole second at or before `t` (a noted change is never later than the exact one). */
const floorSecond = (t: Instant): Instant => ({ seconds: t.seconds, fraction: '' });

const DAY = 86_400;
/** The second of its UTC day an instant is in (a leap second: its day's 23:59:59). */
const secondOfDay = (t: Instant): number => ((t.seconds % DAY) + DAY) % DAY;

export class Clock {
  /** The verification time plus the last grace asked for (every call asks with the same one: made once, not once per call). */
  private shifted: { readonly grace: number; readonly at: Instant } | null = null;
  /** Whether the verification time is in a UTC day's last second, not itself a leap second (a leap second may follow). */
  private readonly beforeLeap: boolean;

  constructor(
    /** The verification time; null (a caller of the core that judges no time): nothing is pending or from the future. */
    private readonly now: Instant | null,
    private readonly validity: Validity,
  ) {
    this.beforeLeap = now !== null && !now.leap && secondOfDay(now) === DAY - 1;
  }

  /** The verification time plus `grace` seconds. */
  private plusGrace(now: Instant, grace: number): Instant {
    if (this.shifted?.grace !== grace) this.shifted = { grace, at: plus(now, grace) };
    return this.shifted.at;
  }

  /**
   * Whether `t` is more than `graceSeconds` after the verification time (false with no time). True
   * until the time reaches `t` − grace.
   */
  isAfterNow(t: Instant, graceSeconds: number): boolean {
    const now = this.now;
    if (now === null) return false;
    if (compareInstants(t, this.plusGrace(now, graceSeconds)) > 0) {
      this.note(now, floorSecond(plus(t, -graceSeconds)));
      return true;
    }
    // `plus` drops a leap second's flag, so across one the answer is not monotone: after a time in a
    // UTC day's last second comes 23:59:60 (read on any day), where the sum starts that second over
    // (a red team's call became one from the future there). If it would be true there, it changes there.
    if (this.beforeLeap && compareInstants(t, plus(floorSecond(now), graceSeconds)) > 0)
      this.note(now, { seconds: now.seconds, fraction: '', leap: true });
    return false;
  }

  /** Whether the verification time is before `t` (false with no time). True until the time reaches `t`. */
  isBefore(t: Instant): boolean {
    const now = this.now;
    if (now === null || compareInstants(now, t) >= 0) return false;
    this.note(now, floorSecond(t));
    return true;
  }

  /**
   * Whether `t`'s whole second is at most `seconds` after the verification time's (false with no
   * time). False until the time's second reaches `t`'s less `seconds`.
   */
  isWithinSeconds(t: Instant, seconds: number): boolean {
    if (this.now === null) return false;
    if (t.seconds - this.now.seconds <= seconds) return true;
    this.note(this.now, { seconds: t.seconds - seconds, fraction: '' });
    return false;
  }

  /** An answer changes at `at`; one floored to the verification time's own second or before holds for no later time. */
  private note(now: Instant, at: Instant): void {
    if (compareInstants(at, now) > 0) this.validity.note(at);
    else this.validity.pin();
  }

  /** Whether there is a verification time at all (a caller of the core may judge none). */
  hasTime(): boolean {
    return this.now !== null;
  }

  /** A judgement prints the verification time. */
  printed(): void {
    this.validity.pin();
  }
}
