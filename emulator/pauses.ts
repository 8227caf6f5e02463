// The emulator's own pauses. A process that hosts the emulator (a test runner in a long garbage
// collection, a loaded CI machine) can stop its event loop for hundreds of milliseconds; requests
// that arrived on time meanwhile are then all read at once, and a token bucket capped at the burst
// would answer them 429 although the platform, which never paused, would not. The rate limiter asks
// this clock for the latest pause, and lets through what the limit allowed in it
// (docs/emulator.md, "Rate limit").

/** How often the clock notes that the loop runs. */
const TICK_MS = 20;
/**
 * Lateness below this is timer jitter or a short pause, which the burst absorbs (5 tokens are a
 * quarter of a second at 20 per second).
 */
const PAUSE_MS = 200;
/** With no request for this long, the clock stops ticking (an idle emulator costs no wake-ups). */
const IDLE_MS = 2_000;

/**
 * Milliseconds of the process's monotonic clock. Not `performance.now()`, which the token buckets
 * read and tests stop: a pause is real time the loop did not run, whatever the buckets are told.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** A pause of the event loop: how long it was, and when it was noticed to have ended. */
export interface Pause {
  ms: number;
  end: number;
}

/** Notices the event loop's pauses from a timer that should fire every TICK_MS. */
export class PauseClock {
  private timer: NodeJS.Timeout | undefined;
  private lastTick = 0;
  private lastUse = 0;
  /** Up to when the loop's time has been looked at, so that one pause is counted once. */
  private countedUntil = 0;
  private latest: Pause = { ms: 0, end: Number.NEGATIVE_INFINITY };

  /** The latest pause, up to `now`. Starts the clock on first use; a pause before that is not seen. */
  latestPause(now = monotonicMs()): Pause {
    this.lastUse = now;
    if (!this.timer) {
      this.lastTick = this.countedUntil = now;
      this.timer = setInterval(() => this.tick(), TICK_MS);
      // The clock must never keep a finished process alive.
      this.timer.unref();
    } else {
      // The tick may not have run yet after a pause (requests are read before timers fire).
      this.notice(now);
    }
    return this.latest;
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
    // From when the tick was due, or from where a request already counted this pause up to.
    const from = Math.max(this.countedUntil, this.lastTick + TICK_MS);
    if (now - from < PAUSE_MS) return;
    this.latest = { ms: now - from, end: now };
    this.countedUntil = now;
  }
}
