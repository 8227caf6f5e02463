// The transport of the whole API: auth headers, timeouts, retries, error mapping, pages and
// response validation live here and nowhere else. The operations are the platform objects' own, each
// in its file beside its response schemas (client/configs.ts, client/envVariables.ts, …), sent
// through `read`, `write` and `list` (docs/design/client.md).
import { API_PREFIX } from "../../contract/api";
import axios, { AxiosError, AxiosInstance, InternalAxiosRequestConfig } from "axios";
import axiosRetry, { exponentialDelay, isNetworkError, retryAfter } from "axios-retry";
import { z } from "zod";
import { SETTINGS, settingHint, settingName, type ConnectionSettings, type SettingTerms } from "../settingNames";
import { sendableId } from "./ids";
import { apiErrorFrom, isRateLimitAnswer, ResponseValidationError, SettingsError } from "./errors";
import type { Pacer } from "./pacing"; // its rate is set where a client is opened (connection.ts)
import { PageList, type PageQuery, type PageResult } from "./pagination";

/** Retry n waits this × 2^n (n counts from 1: 500 ms, 1 s, 2 s, ...), plus up to 20% jitter. */
const RETRY_BASE_DELAY_MS = 250;
/**
 * The n-th 429 of a call waits this × 2^n (200 ms, 400 ms, ...) before it queues at the pacer
 * again, up to RATE_LIMIT_MAX_DELAY_MS: the pacer, slowed by the 429, does the rest of the spacing.
 */
const RATE_LIMIT_BASE_DELAY_MS = 100;
/** The longest wait between two tries of a rate-limited call without a `Retry-After`. */
const RATE_LIMIT_MAX_DELAY_MS = 5_000;
/** A `Retry-After` longer than this is cut short, so one answer cannot stall a deployment. */
export const MAX_RETRY_DELAY_MS = 20_000;

/** Which credential an operation takes: the spec allows a bearer token only on env and audit operations. */
export type Auth = "apiKey" | "tokenOrApiKey";

/** A request's query; parameters left undefined are not sent. */
export type Query = Record<string, string | number | undefined>;

/** One read of an operation, as its platform object's file describes it. */
export interface Read<T extends z.ZodType> {
  /** Path below /api/v2/public, ids already inserted (`segment`). */
  path: string;
  auth: Auth;
  /** The answer's documented shape: a body without it fails with a ResponseValidationError. */
  response: T;
  query?: Query;
  /** Header-bound ids, checked as path ones are; undefined ones are not sent. */
  headers?: Record<string, string | undefined>;
}

/** One write of an operation: a read's parts, its method and its body. */
export interface Write<T extends z.ZodType> extends Read<T> {
  method: "PUT" | "PATCH" | "POST" | "DELETE";
  body?: unknown;
}

/** What is sent: a read is a GET. */
type Call<T extends z.ZodType> = Write<T> | (Read<T> & { method: "GET"; body?: undefined });

/** The largest answer accepted: the API's largest, a page of 100 listed values, is far smaller. */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** Whether the platform's rate limit answered: a 429, or its older form, 403 "Rate Limit Hit" (errors.ts). */
function isRateLimited(error: AxiosError): boolean {
  return isRateLimitAnswer(error.response?.status, error.response?.data);
}

/** Retries the rate limit, 5xx, 408 and every failure without an answer (reset, refused, timeout). */
function isRetryable(error: AxiosError): boolean {
  // ERR_CANCELED: the attempt's whole-answer timeout (the request interceptor's signal) fired.
  if (!error.response)
    return isNetworkError(error) || ["ECONNABORTED", "ETIMEDOUT", "ERR_CANCELED"].includes(error.code ?? "");
  const status = error.response.status;
  return status === 408 || isRateLimited(error) || status >= 500;
}

/** Where a request's own retry bookkeeping rides on its axios config (axios copies it onto each retry). */
const RETRY_STATE = "integration-platform-retry";

/**
 * One call's retries: a 429 is retried within a time budget (`rateLimitBudgetMs`, our own pacer's
 * queue not counted), anything else `maxRetries` times (docs/guides/rate-limits.md).
 */
interface RetryState {
  /** 429s answered so far. */
  rateLimited: number;
  /** Retries of anything else so far. */
  otherRetries: number;
  /** When the first 429 came back (performance.now()). */
  firstRateLimitedAt?: number;
  /** Milliseconds spent waiting for the pacer since the first 429. */
  pacedSinceRateLimited: number;
}

function retryState(config: InternalAxiosRequestConfig | undefined): RetryState {
  const holder = (config ?? {}) as Record<string, unknown>;
  const state = (holder[RETRY_STATE] as RetryState | undefined) ?? {
    rateLimited: 0,
    otherRetries: 0,
    pacedSinceRateLimited: 0,
  };
  holder[RETRY_STATE] = state;
  return state;
}

/**
 * How long to wait before the next try. A 429 backs off from 200 ms, since the pacer (slowed by
 * that 429) does the rest of the spacing; anything else backs off from 500 ms. Either waits at
 * least the `Retry-After` the platform named, but never more than MAX_RETRY_DELAY_MS, so one
 * answer cannot stall a deployment. A 429's wait also ends with the budget, for one last try.
 */
export function retryDelayMs(error: AxiosError, rateLimitBudgetMs: number): number {
  const state = retryState(error.config);
  if (!isRateLimited(error))
    return Math.min(exponentialDelay(state.otherRetries, error, RETRY_BASE_DELAY_MS), MAX_RETRY_DELAY_MS);
  const backoff = Math.min(
    exponentialDelay(state.rateLimited, error, RATE_LIMIT_BASE_DELAY_MS),
    Math.max(RATE_LIMIT_MAX_DELAY_MS, retryAfter(error)),
  );
  return Math.max(0, Math.min(backoff, MAX_RETRY_DELAY_MS, rateLimitBudgetMs - rateLimitedFor(state)));
}

/** Milliseconds the platform's rate limit has held this call so far. */
function rateLimitedFor(state: RetryState): number {
  return state.firstRateLimitedAt === undefined
    ? 0
    : performance.now() - state.firstRateLimitedAt - state.pacedSinceRateLimited;
}

/**
 * The read-only part of a client, which lookups and `import` are handed: a write takes the whole
 * PlatformClient, which only the session holds (docs/design/session.md).
 */
export type PlatformReader = Pick<PlatformClient, "settings" | "calls" | "read" | "list">;

/** The platform's API as one connection sends to it: every operation's request goes through here. */
export class PlatformClient {
  private readonly http: AxiosInstance;
  /**
   * GETs in flight, by URL and credential. Identical reads that overlap in time share one
   * request: a refresh reads the same config for every field and toggle in it, all at once.
   * Only requests already in flight are shared, so a read never sees an answer older than itself.
   */
  private readonly inFlight = new Map<string, Promise<unknown>>();
  /** Operations called so far (each page one; shared reads and retries not counted apart), for progress reports. */
  private callCount = 0;

  /** How this client's messages name the settings. */
  private get terms(): SettingTerms {
    return this.settings.terms ?? "stack";
  }

  /** A client for `settings`, waiting its turns at `pacer`, which the clients of one connection share. */
  constructor(
    readonly settings: ConnectionSettings,
    pacer: Pacer,
  ) {
    this.http = axios.create({
      baseURL: settings.baseUrl + API_PREFIX,
      timeout: settings.timeoutMs,
      headers: { "content-type": "application/json", accept: "application/json" },
      // No redirect is followed: the API key goes to the configured host and nowhere else, and a
      // 307 would resend a body holding an env value. A 3xx fails with advice (errors.ts).
      maxRedirects: 0,
      maxContentLength: MAX_RESPONSE_BYTES,
    });
    // Every attempt, retries included, waits for its turn: axios-retry sends a retry through the
    // instance again, and so through this interceptor.
    this.http.interceptors.request.use(async (config) => {
      const state = retryState(config);
      const started = performance.now();
      await pacer.turn();
      if (state.firstRateLimitedAt !== undefined) state.pacedSinceRateLimited += performance.now() - started;
      // `timeout` only bounds silence on the socket; this bounds the whole answer of each attempt.
      config.signal = AbortSignal.timeout(settings.timeoutMs);
      return config;
    });
    axiosRetry(this.http, {
      // The real limits are in retryCondition: a count for failures, a time budget for 429s.
      retries: Number.MAX_SAFE_INTEGER,
      // Every operation used here is idempotent: PUTs, the env upsert, and a DELETE whose 404 the
      // callers treat as success. So every method may be retried.
      retryCondition: (error) => {
        if (!isRetryable(error)) return false;
        const state = retryState(error.config);
        if (isRateLimited(error)) {
          pacer.rateLimited();
          state.rateLimited++;
          state.firstRateLimitedAt ??= performance.now();
          return rateLimitedFor(state) < settings.rateLimitBudgetMs;
        }
        if (state.otherRetries >= settings.maxRetries) return false;
        state.otherRetries++;
        return true;
      },
      retryDelay: (_count, error) => retryDelayMs(error, settings.rateLimitBudgetMs),
      // Each attempt gets the full timeout, otherwise one slow answer would eat the retries' budget.
      shouldResetTimeout: true,
      // The last attempt's signal must not cut the backoff short; the next attempt gets its own.
      onRetry: (_count, _error, config) => {
        config.signal = undefined;
      },
    });
  }

  private headersFor(auth: Auth, operation: string): { headers: Record<string, string>; used: "apiKey" | "token" } {
    if (auth === "tokenOrApiKey" && this.settings.token) {
      return { headers: { authorization: `Bearer ${this.settings.token}` }, used: "token" };
    }
    if (!this.settings.apiKey) {
      throw new SettingsError(
        `${operation} needs an API key, and only a bearer token is configured: ` +
          `set ${settingName(SETTINGS.apiKey, this.terms)}: ${settingHint(SETTINGS.apiKey, this.terms)}`,
      );
    }
    return { headers: { "x-api-key": this.settings.apiKey }, used: "apiKey" };
  }

  /** Operations called so far: each page one, retries not counted. */
  get calls(): number {
    return this.callCount;
  }

  /** Sends a GET, or joins the identical one in flight; resolves to the answer checked against `response`. */
  read<T extends z.ZodType>(read: Read<T>): Promise<z.infer<T>> {
    this.callCount++;
    const key = JSON.stringify([read.path, read.query, read.headers, read.auth]);
    let pending = this.inFlight.get(key) as Promise<z.infer<T>> | undefined;
    if (!pending) {
      pending = this.send({ ...read, method: "GET" }).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  /** Sends a write; resolves to the answer checked against `response`. */
  write<T extends z.ZodType>(write: Write<T>): Promise<z.infer<T>> {
    this.callCount++;
    return this.send(write);
  }

  private async send<T extends z.ZodType>(call: Call<T>): Promise<z.infer<T>> {
    const operation = `${call.method} ${call.path}`;
    const auth = this.headersFor(call.auth, operation);
    const headers: Record<string, string> = { ...auth.headers };
    // Header-bound ids are checked like path ones: a client strips what a header cannot carry.
    for (const [name, value] of Object.entries(call.headers ?? {}))
      if (value !== undefined) headers[name] = sendableId(name, value);
    const params = Object.fromEntries(Object.entries(call.query ?? {}).filter(([, v]) => v !== undefined));

    let body: unknown;
    let status: number;
    try {
      const response = await this.http.request({
        method: call.method,
        url: call.path,
        params,
        headers,
        data: call.body,
      });
      status = response.status;
      body = response.data;
    } catch (e) {
      // A fresh error is built from the status, the platform's body and the transport code only:
      // the AxiosError itself carries the request headers, so it must go no further.
      const error = e as AxiosError;
      const state = retryState(error.config);
      const tooLarge = /maxContentLength/.test(error.message);
      throw apiErrorFrom({
        operation,
        auth: auth.used,
        status: error.response?.status,
        body: error.response?.data,
        transportCode: tooLarge ? "ERR_RESPONSE_TOO_LARGE" : error.code,
        attempts: state.rateLimited + state.otherRetries + (isRateLimited(error) ? 0 : 1),
        rateLimitedMs: rateLimitedFor(state),
        rateLimitBudgetMs: this.settings.rateLimitBudgetMs,
        terms: this.terms,
      });
    }
    const parsed = call.response.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue.path.length ? issue.path.join(".") : "(the whole body)";
      throw new ResponseValidationError(
        `${operation} answered ${status} with a body that does not have the documented shape: \`${where}\`: ` +
          `${issue.message}. The platform's API may have changed; report this with the package version.`,
        { operation, status },
      );
    }
    return parsed.data;
  }

  /** A list operation's pages, each a read of `read` with the filters of `query` (client/pagination.ts). */
  list<T extends z.ZodType<PageResult<unknown>>>(
    read: Read<T>,
    query: PageQuery & object = {},
  ): PageList<z.output<T>["docs"][number]> {
    // The filters stay, `page` and `limit` vary; each operation types its own filters (client/<object>.ts).
    const { page, limit, ...filter } = query;
    return new PageList((p, l) => this.read({ ...read, query: { ...(filter as Query), page: p, limit: l } }), {
      page,
      limit,
    });
  }
}
