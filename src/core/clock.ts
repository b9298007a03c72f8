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
 */
import { compareInstants, type Instant } from './time.js';

/** How long a verification's judgements hold, as its clocks noted. */
export type HeldUntil =
  | { readonly kind: 'always' }
  | { readonly kind: 'until'; readonly at: Instant }
  /** A judgement prints the verification time: no other time gives the same report. */
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

/** `seconds` after `t`, its fraction kept (a leap second's flag is not: the comparisons made so before the Clock). */
export const plus = (t: Instant, seconds: number): Instant => ({ seconds: t.seconds + seconds, fraction: t.fraction });

/** The whole second at or before `t` (a noted change is never later than the exact one). */
const floorSecond = (t: Instant): Instant => ({ seconds: t.seconds, fraction: '' });

export class Clock {
  constructor(
    /** The verification time; null (a caller of the core that judges no time): nothing is pending or from the future. */
    private readonly now: Instant | null,
    private readonly validity: Validity,
  ) {}

  /**
   * Whether `t` is more than `graceSeconds` after the verification time (false with no time). True
   * until the time reaches `t` − grace.
   */
  isAfterNow(t: Instant, graceSeconds: number): boolean {
    if (this.now === null || compareInstants(t, plus(this.now, graceSeconds)) <= 0) return false;
    this.validity.note(floorSecond(plus(t, -graceSeconds)));
    return true;
  }

  /** Whether the verification time is before `t` (false with no time). True until the time reaches `t`. */
  isBefore(t: Instant): boolean {
    if (this.now === null || compareInstants(this.now, t) >= 0) return false;
    this.validity.note(floorSecond(t));
    return true;
  }

  /**
   * Whether `t`'s whole second is at most `seconds` after the verification time's (false with no
   * time). False until the time's second reaches `t`'s less `seconds`.
   */
  isWithinSeconds(t: Instant, seconds: number): boolean {
    if (this.now === null) return false;
    if (t.seconds - this.now.seconds <= seconds) return true;
    this.validity.note({ seconds: t.seconds - seconds, fraction: '' });
    return false;
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
