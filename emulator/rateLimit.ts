// The platform's per-credential rate limit (docs/design/contract.md#rate-limits), a token bucket per
// credential, changeable at run time and tolerant of the emulator's own pauses (pauses.ts).
import type { IncomingHttpHeaders } from "node:http";
import { TokenBucket } from "limiter";
import { bearerToken, type AuthKind } from "./auth";
import { ApiError, defaultErrorCode } from "./errors";
import { monotonicMs, PauseClock, type Pause } from "./pauses";

/** A token-bucket limit: sustained requests per second, and how many may come at once (the bucket size). */
export interface RateLimitSpec {
  requestsPerSecond: number;
  burst: number;
}

/** A rate limit as configured: "RPS/BURST" (e.g. "20/5"), "off", or the object form. */
export type RateLimitSetting = string | RateLimitSpec;

/** The current rate limit, as `rateLimit.get()` and `GET /_emulator/rate-limit` report it. */
export interface RateLimitStatus {
  /** "RPS/BURST", e.g. "20/5", or "off". */
  rateLimit: string;
  requestsPerSecond: number | null;
  burst: number | null;
  /** Whether the limiter's answer (429 or 403) carries `Retry-After`. */
  retryAfter: boolean;
  /**
   * The status the limit answers with: 429, or 403 "Rate Limit Hit", the older form
   * (docs/design/contract.md#conflicts).
   */
  status: RateLimitAnswerStatus;
}

/** The statuses the limit may answer with. */
export const RATE_LIMIT_STATUSES = [429, 403] as const;
/** 429 (in use), or 403 "Rate Limit Hit", as one older page of the platform's docs describes it. */
export type RateLimitAnswerStatus = (typeof RATE_LIMIT_STATUSES)[number];

/** A run-time change of the rate limit; what is left out stays as it is. */
export interface RateLimitChange {
  rateLimit?: RateLimitSetting;
  retryAfter?: boolean;
  /** Answer the limit with 429 (the default) or 403 "Rate Limit Hit". */
  status?: RateLimitAnswerStatus;
}

/** Checks a rate-limit status given by a user; `option` names the setting in the error. */
export function parseRateLimitStatus(setting: unknown, option: string): RateLimitAnswerStatus {
  const value = typeof setting === "string" && /^\d+$/.test(setting) ? Number(setting) : setting;
  if (value === 429 || value === 403) return value;
  throw new RangeError(`${option} must be 429 or 403; got ${shown(setting)}`);
}

/** The platform's documented limit: 20 requests per second with a burst of 5, per credential. */
export const DEFAULT_RATE_LIMIT = "20/5";

const SETTING_PATTERN = /^(\d+(?:\.\d+)?)\/(\d+)$/;
const RPS_BURST = `"RPS/BURST" (RPS > 0, decimals allowed; BURST a whole number >= 1; e.g. "20/5" or "0.5/1")`;
const STRING_FORMS = `${RPS_BURST} or "off"`;

/**
 * Parses a rate limit setting; null means "off". `option` names the setting in the error, e.g.
 * `--rate-limit` or `rateLimit`. Throws a RangeError naming the option and the accepted forms.
 */
export function parseRateLimit(setting: unknown, option: string): RateLimitSpec | null {
  const result = checkSetting(setting);
  if (result.ok) return result.value;
  // Command-line flags (`--name`) take text only, so only the library offers the object form.
  const forms = option.startsWith("--") ? STRING_FORMS : `${RPS_BURST}, "off" or {requestsPerSecond, burst}`;
  throw new RangeError(`${option} must be ${forms}; got ${shown(setting)}`);
}

/** What is wrong with a textual setting ("must be ... ; got ..."), or undefined when it is "RPS/BURST" or "off". */
export function rateLimitTextProblem(setting: string): string | undefined {
  return checkSetting(setting).ok ? undefined : `must be ${STRING_FORMS}; got ${shown(setting)}`;
}

/** How long after a pause of the emulator's own process its credit may be spent: the backlog's reading. */
const PAUSE_CREDIT_MS = 250;

/** What a credential may still send beyond its bucket, for a pause of the emulator's own (pauses.ts). */
interface PauseCredit {
  /** The end of the pause this credit is for. */
  pauseEnd: number;
  tokens: number;
  until: number;
}

/**
 * The platform's per-credential rate limit: one token bucket per credential, checked before
 * anything else looks at the request, as the platform's gateway does.
 */
export class RateLimiter {
  private limit: RateLimitSpec | null;
  private retryAfter: boolean;
  private status: RateLimitAnswerStatus;
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly credits = new Map<string, PauseCredit>();
  private readonly pauses = new PauseClock();

  /** Starts with `rateLimit` (default "20/5") and without `Retry-After` unless `retryAfter` is set. */
  constructor({ rateLimit = DEFAULT_RATE_LIMIT, retryAfter = false, status = 429 }: RateLimitChange = {}) {
    this.limit = parseRateLimit(rateLimit, "rateLimit");
    this.retryAfter = retryAfter;
    this.status = parseRateLimitStatus(status, "rateLimitStatus");
  }

  /** The current limit and whether `Retry-After` is sent. */
  get(): RateLimitStatus {
    const { limit } = this;
    return {
      rateLimit: limit ? `${limit.requestsPerSecond}/${limit.burst}` : "off",
      requestsPerSecond: limit?.requestsPerSecond ?? null,
      burst: limit?.burst ?? null,
      retryAfter: this.retryAfter,
      status: this.status,
    };
  }

  /** Changes the limit at run time; it applies at once, to credentials already seen too. Returns the new status. */
  set(change: RateLimitChange): RateLimitStatus {
    // Validate everything before changing anything, so a bad change leaves the limit as it was.
    const limit = change.rateLimit === undefined ? this.limit : parseRateLimit(change.rateLimit, "rateLimit");
    const status = change.status === undefined ? this.status : parseRateLimitStatus(change.status, "status");
    if (change.retryAfter !== undefined) this.retryAfter = change.retryAfter;
    this.status = status;
    if (limit !== this.limit) {
      if (limit) for (const bucket of this.buckets.values()) retune(bucket, limit);
      // While off no bucket is charged, so the ones kept would be stale: start afresh when it comes back.
      else this.reset();
      this.limit = limit;
    }
    return this.get();
  }

  /** How many buckets are kept: one per valid credential seen, and one for every caller without one. */
  get bucketCount(): number {
    return this.buckets.size;
  }

  /** Refills every credential's bucket by forgetting them all; the configured limit stays. */
  reset(): void {
    this.buckets.clear();
    this.credits.clear();
  }

  /** Stops the clock that notices the emulator's own pauses (the emulator is closing). */
  close(): void {
    this.pauses.stop();
  }

  /**
   * Takes one token from the request's credential; returns the 429 to answer with when none is
   * left. `auth` is what the credential is (auth.ts): callers without a valid one share one bucket,
   * so a flood of made-up keys cannot grow the buckets without bound, nor drain a valid key's.
   */
  check(headers: IncomingHttpHeaders, auth: AuthKind): ApiError | null {
    const { limit } = this;
    if (!limit) return null;
    const key = auth === "api_key" || auth === "bearer" ? credentialKey(headers) : "unauthenticated";
    // Every request keeps the pause clock running and lets it notice a pause that just ended.
    const pause = this.pauses.latestPause();
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = new TokenBucket({
        bucketSize: limit.burst,
        tokensPerInterval: limit.requestsPerSecond,
        interval: "second",
      });
      // A new credential may send its whole burst at once; limiter's buckets start empty.
      bucket.content = bucket.bucketSize;
      this.buckets.set(key, bucket);
      this.credits.set(key, { pauseEnd: pause.end, tokens: 0, until: 0 });
    }
    if (bucket.tryRemoveTokens(1)) return null;
    // Requests that came on time while this process was paused are read together: the platform,
    // which did not pause, would have let them through (pauses.ts).
    if (this.spendPauseCredit(key, limit, pause)) return null;
    // Whole seconds, and never 0, which a client would read as "retry at once".
    const retryAfter = this.retryAfter
      ? { "retry-after": String(Math.max(1, Math.ceil(bucket.getWaitTime(1) / 1000))) }
      : undefined;
    if (this.status === 403) return new ApiError(403, "RATE_LIMIT_HIT", "Rate Limit Hit", "error", retryAfter);
    return new ApiError(
      429,
      defaultErrorCode(429),
      `Rate limit exceeded: ${limit.requestsPerSecond} requests per second with a burst of ${limit.burst}`,
      "error",
      retryAfter,
    );
  }

  /**
   * Takes one of the credential's tokens for the latest pause: what the limit allowed during it,
   * spent soon after its end.
   */
  private spendPauseCredit(key: string, limit: RateLimitSpec, pause: Pause): boolean {
    const credit = this.credits.get(key)!;
    if (pause.end > credit.pauseEnd) {
      credit.pauseEnd = pause.end;
      credit.tokens = (limit.requestsPerSecond * pause.ms) / 1000;
      credit.until = pause.end + PAUSE_CREDIT_MS;
    }
    if (credit.tokens < 1 || monotonicMs() > credit.until) return false;
    credit.tokens--;
    return true;
  }
}

/** The valid credential a request is limited by: the `x-api-key` value, else the bearer token. */
function credentialKey(headers: IncomingHttpHeaders): string {
  // Prefixed so that an API key and a bearer token with the same text stay separate credentials.
  const apiKey = headers["x-api-key"];
  if (apiKey !== undefined) return `x-api-key:${String(apiKey)}`;
  const authorization = headers.authorization;
  if (authorization !== undefined) {
    const token = bearerToken(authorization);
    return token === undefined ? `authorization:${authorization}` : `bearer:${token}`;
  }
  return "none";
}

function retune(bucket: TokenBucket, limit: RateLimitSpec): void {
  // Settle the tokens earned at the old rate before the new one takes over.
  bucket.drip();
  bucket.bucketSize = limit.burst;
  bucket.tokensPerInterval = limit.requestsPerSecond;
  bucket.content = Math.min(bucket.content, limit.burst);
}

function checkSetting(setting: unknown): { ok: true; value: RateLimitSpec | null } | { ok: false } {
  if (setting === "off") return { ok: true, value: null };
  let spec: RateLimitSpec | undefined;
  if (typeof setting === "string") {
    const match = SETTING_PATTERN.exec(setting);
    if (match) spec = { requestsPerSecond: Number(match[1]), burst: Number(match[2]) };
  } else if (typeof setting === "object" && setting !== null) {
    const { requestsPerSecond, burst } = setting as Partial<Record<keyof RateLimitSpec, unknown>>;
    if (typeof requestsPerSecond === "number" && typeof burst === "number") spec = { requestsPerSecond, burst };
  }
  if (!spec) return { ok: false };
  const { requestsPerSecond, burst } = spec;
  // limiter refuses token counts above MAX_SAFE_INTEGER; refusing them here gives the clearer message.
  const rpsOk =
    Number.isFinite(requestsPerSecond) && requestsPerSecond > 0 && requestsPerSecond <= Number.MAX_SAFE_INTEGER;
  const burstOk = Number.isSafeInteger(burst) && burst >= 1;
  return rpsOk && burstOk ? { ok: true, value: spec } : { ok: false };
}

function shown(setting: unknown): string {
  if (setting === undefined) return "nothing";
  return JSON.stringify(setting) ?? String(setting);
}
