// Every request of a connection (connection.ts) waits its turn at one limiter, sized to the
// platform's documented limit, and adapting as TCP does when another job spends the same key
// (docs/guides/rate-limits.md).
import { TokenBucket } from "limiter";

/** How the pacer reacts to 429s; the defaults suit the documented limit, tests shorten them. */
export interface AdaptOptions {
  /** A 429 multiplies the rate by this. */
  decrease: number;
  /**
   * 429s this soon after a cut belong to the same overload (requests already sent when the first
   * 429 came back) and do not cut again.
   */
  cooldownMs: number;
  /** Share of the configured rate regained per second without a 429: 0.05 is back to full in 10 s from half. */
  recoveryPerSecond: number;
  /** Never slower than this many requests per second, so every call keeps getting turns. */
  minimumRate: number;
  /** How often the rate is raised while it recovers. */
  recoveryTickMs: number;
}

/** The defaults for the platform's documented limit. */
export const DEFAULT_ADAPT: AdaptOptions = {
  decrease: 0.5,
  cooldownMs: 1_000,
  recoveryPerSecond: 0.05,
  minimumRate: 0.5,
  recoveryTickMs: 250,
};

/**
 * Tokens the pacer's own bucket holds. One would space requests exactly evenly, but a timer that
 * fires late would then lose the time it overslept; two keep it, and stay well inside the
 * platform's burst of 5, which is left for network jitter and for other users of the key.
 */
const BUCKET_SIZE = 2;

/**
 * Below this rate a process is one of several sharing the key (a shard's part): its bucket holds
 * one token, so that several such processes resuming together add up to less of a burst.
 */
const SHARE_RATE = 8;

/** A pacer in another process that grants turns (rateBroker.ts): shards on one machine share one. */
export interface SharedPacer {
  /** Resolves true when a turn is granted, false once the shared pacer cannot be reached. */
  turn(): Promise<boolean>;
  /** Reports a 429, so that every process sharing it slows down. */
  rateLimited(): void;
}

/** One limiter for every request of a connection: paces to the configured rate, slows down on 429s, recovers. */
export class Pacer {
  private bucket: TokenBucket | undefined;
  private configured = 0;
  private rate = 0;
  private lastCut = Number.NEGATIVE_INFINITY;
  private recovery: NodeJS.Timeout | undefined;
  private cuts = 0;
  private shared: SharedPacer | undefined;

  /** `adapt` tunes the reaction to 429s (tests shorten the times). */
  constructor(private readonly adapt: AdaptOptions = DEFAULT_ADAPT) {}

  /**
   * Sets the configured rate in requests per second; 0 turns pacing off. Setting the rate it
   * already has changes nothing, so a new client in the same process keeps what was learned.
   */
  configure(requestsPerSecond: number): void {
    if (requestsPerSecond === this.configured && (this.bucket !== undefined) === requestsPerSecond > 0) return;
    this.configured = requestsPerSecond;
    this.stopRecovery();
    this.lastCut = Number.NEGATIVE_INFINITY;
    this.cuts = 0;
    if (requestsPerSecond <= 0) {
      this.bucket = undefined;
      this.rate = 0;
      return;
    }
    this.rate = requestsPerSecond;
    this.bucket = new TokenBucket({
      bucketSize: requestsPerSecond < SHARE_RATE ? 1 : BUCKET_SIZE,
      tokensPerInterval: requestsPerSecond,
      interval: "second",
    });
    // A random part of a token: processes started at the same moment (shards in a CI matrix) send
    // their first requests at different moments instead of all at once.
    this.bucket.content = Math.random();
  }

  /**
   * Takes turns at `shared` instead of this process's own bucket, while it answers (undefined: alone
   * again). The configured rate stays the fallback.
   */
  share(shared: SharedPacer | undefined): void {
    this.shared = shared;
  }

  /** Resolves when this request may go out. Turns are granted in arrival order. */
  async turn(): Promise<void> {
    if (this.shared && this.bucket && (await this.shared.turn())) return;
    if (this.bucket) await this.bucket.removeTokens(1);
  }

  /** Records a 429: the rate is cut, once per overload, and then recovers while no 429 comes. */
  rateLimited(): void {
    if (!this.bucket) return;
    this.shared?.rateLimited();
    const now = performance.now();
    if (now - this.lastCut < this.adapt.cooldownMs) return;
    this.lastCut = now;
    this.cuts++;
    this.setRate(Math.max(this.adapt.minimumRate, this.rate * this.adapt.decrease));
    this.startRecovery();
  }

  /** The rate in force now, in requests per second (0 when pacing is off). */
  get currentRate(): number {
    return this.rate;
  }

  /** How many times a 429 has cut the rate since the pacer was configured. */
  get cutCount(): number {
    return this.cuts;
  }

  private setRate(rate: number): void {
    this.rate = rate;
    // limiter re-reads the rate before every wait, so requests already queued follow it too.
    this.bucket!.tokensPerInterval = rate;
  }

  // A timer, not a step per request: requests already queued must speed up again as well.
  private startRecovery(): void {
    if (this.recovery) return;
    const step = this.configured * this.adapt.recoveryPerSecond * (this.adapt.recoveryTickMs / 1000);
    this.recovery = setInterval(() => {
      if (performance.now() - this.lastCut < this.adapt.cooldownMs) return;
      this.setRate(Math.min(this.configured, this.rate + step));
      if (this.rate >= this.configured) this.stopRecovery();
    }, this.adapt.recoveryTickMs);
    // Recovery must never keep a finished process alive.
    this.recovery.unref();
  }

  private stopRecovery(): void {
    if (this.recovery) clearInterval(this.recovery);
    this.recovery = undefined;
  }
}
