// The emulator's own pauses. A process that hosts the emulator (a test runner in a long garbage
// collection, a loaded CI machine) can stop its event loop for hundreds of milliseconds; requests
// that arrived on time meanwhile are then all read at once, and a token bucket capped at the burst
// would answer them 429 although the platform, which never paused, would not. The rate limiter asks
// this clock how long the loop was paused, and lets through what the limit allowed in that time
// (docs/emulator.md, "Rate limit").

/** How often the clock notes that the loop runs. */
const TICK_MS = 20;
/**
 * Lateness below this is timer jitter or a short pause, which the burst absorbs (5 tokens are a
 * quarter of a second at 20 per second).
 */
const PAUSE_MS = 200;

/**
 * Milliseconds of the process's monotonic clock. Not `performance.now()`, which the token buckets
 * read and tests stop: a pause is real time the loop did not run, whatever the buckets are told.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
/** With no request for this long, the clock stops ticking (an idle emulator costs no wake-ups). */
const IDLE_MS = 2_000;

/** Notices the event loop's pauses from a timer that should fire every TICK_MS. */
export class PauseClock {
  private timer: NodeJS.Timeout | undefined;
  private lastTick = 0;
  private lastUse = 0;
  /** Up to when pauses have been counted, so that one pause is counted once. */
  private countedUntil = 0;
  private paused = 0;
  private latestMs = 0;
  private latestEnd = Number.NEGATIVE_INFINITY;

  /**
   * The loop's paused milliseconds so far, a total that only grows: the caller compares it with
   * what it read before. Starts the clock on first use; a pause before that is not seen.
   */
  pausedMs(now = monotonicMs()): number {
    this.lastUse = now;
    if (!this.timer) {
      this.lastTick = this.countedUntil = now;
      this.timer = setInterval(() => this.tick(), TICK_MS);
      // The clock must never keep a finished process alive.
      this.timer.unref();
      return this.paused;
    }
    // The tick may not have run yet after a pause (requests are read before timers fire).
    this.notice(now);
    return this.paused;
  }

  /** The latest pause: how long it was, and when it was noticed to have ended. */
  get latest(): { ms: number; end: number } {
    return { ms: this.latestMs, end: this.latestEnd };
  }

  /** Stops the clock (the emulator is closing). */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    const now = monotonicMs();
    this.notice(now);
    this.lastTick = now;
    if (now - this.lastUse > IDLE_MS) this.stop();
  }

  private notice(now: number): void {
    const due = this.lastTick + TICK_MS;
    if (now - due < PAUSE_MS) return;
    const from = Math.max(this.countedUntil, due);
    if (now <= from) return;
    this.paused += now - from;
    // Noticed twice (by a request, then by the late tick), it is still one pause.
    this.latestMs = from - this.latestEnd <= 2 * TICK_MS ? this.latestMs + now - from : now - from;
    this.latestEnd = this.countedUntil = now;
  }
}
