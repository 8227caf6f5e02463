// The emulator as a library (`pulumi-integration-platform/emulator`): `startEmulator` wires the store,
// the rate limit, faults, runs and webhooks into a server, and what users may import is exported here.
import type { AddressInfo } from "node:net";
import { FaultRules } from "./faults";
import {
  RateLimiter,
  type RateLimitAnswerStatus,
  type RateLimitChange,
  type RateLimitSetting,
  type RateLimitStatus,
} from "./rateLimit";
import { RequestLog } from "./requestLog";
import { WorkflowRuns } from "./runs";
import { buildServer } from "./server";
import { Snapshots } from "./snapshots";
import { EmulatorConfigError, EmulatorStore } from "./store";
import { WebhookDispatcher, type WebhookSettings } from "./webhooks";

export { ApiError, type ErrorBody } from "./errors";
export { FaultRules, type FaultAction, type FaultKind, type FaultRule, type FaultRuleInput } from "./faults";
export * from "./model";
export type { Page } from "./pagination";
export {
  DEFAULT_RATE_LIMIT,
  parseRateLimit,
  parseRateLimitStatus,
  type RateLimitAnswerStatus,
  type RateLimitChange,
  type RateLimitSetting,
  type RateLimitSpec,
  type RateLimitStatus,
} from "./rateLimit";
export { RequestLog, type RequestLogEntry } from "./requestLog";
export { Snapshots, snapshotNameSchema, type SnapshotInfo } from "./snapshots";
export { CONTROL_PREFIX } from "./control";
export { defaultFixturePath, EmulatorConfigError, EmulatorStore, type ConfigKey, type EnvValueInput } from "./store";
export type { AuthKind, AuthPolicy } from "./auth";
export { WorkflowRuns, MAX_RUN_DELAY_MS, type RunRequest, type RunStatus, type WorkflowRun } from "./runs";
export {
  WebhookDispatcher,
  DEFAULT_WEBHOOK_BACKOFF_MS,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  type Delivery,
  type DeliveryAttempt,
  type DeliveryState,
  type WebhookReceiver,
  type WebhookSettings,
} from "./webhooks";
export type { WebhookReceiverInput } from "./webhookReceivers";
export { WEBHOOK_RETRIES } from "../contract/webhooks";
export { API_PREFIX } from "../contract/api";

/** Options of `startEmulator`. */
export interface EmulatorOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to bind; only loopback is supported so the emulator is never reachable from outside. */
  host?: "127.0.0.1";
  /** The API key accepted in `x-api-key` (default "tk_emulator"). */
  apiKey?: string;
  /** The bearer token accepted in `Authorization: Bearer` (default "emulator_token"). */
  token?: string;
  /** Fixture file to seed from (default: the package's emulator/fixtures/default.json). */
  fixtures?: string;
  /** State file: loaded when it exists, written (atomically) after every change. */
  data?: string;
  /** Silences warnings (persistence failures, internal errors) on stderr. */
  quiet?: boolean;
  /**
   * Per-credential limit, "RPS/BURST", "off" or {requestsPerSecond, burst} (default "20/5", the
   * platform's documented limit).
   */
  rateLimit?: RateLimitSetting;
  /**
   * Adds `Retry-After` (whole seconds) to the rate limiter's answers (429, or 403 with
   * `rateLimitStatus: 403`); off by default, as the platform documents none.
   */
  retryAfter?: boolean;
  /** The status the rate limit answers with: 429 (default), or 403 "Rate Limit Hit", the platform's older form. */
  rateLimitStatus?: RateLimitAnswerStatus;
  /** Webhook receivers registered from the start, and the deliveries' timing (docs/emulator.md, "Webhooks"). */
  webhooks?: WebhookSettings;
  /** A folder that keeps each snapshot as `<name>.json` too, for a later emulator to restore (default: memory only). */
  snapshots?: string;
}

/** The rate limit of a running emulator, the same one `/_emulator/rate-limit` manages. */
export interface RunningRateLimit {
  /** The current limit and whether `Retry-After` is sent. */
  get(): RateLimitStatus;
  /**
   * Changes the limit, `Retry-After` and/or the status answered at run time, for credentials
   * already seen too; returns the new status.
   */
  set(change: RateLimitChange): RateLimitStatus;
  /** Refills every credential's bucket (forgets them all); the configured limit stays. */
  reset(): void;
  /** How many buckets are kept: one per valid credential seen, and one for every caller without one. */
  readonly bucketCount: number;
}

/** A started emulator. */
export interface RunningEmulator {
  /** Base URL, e.g. http://127.0.0.1:4010; public operations live under `${url}/api/v2/public`. */
  url: string;
  /** The port actually bound. */
  port: number;
  /** The API key it accepts. */
  apiKey: string;
  /** The bearer token it accepts. */
  token: string;
  /** Live state with typed finders and mutators, for reading and changing state out of band. */
  store: EmulatorStore;
  /** Per-credential rate limit, the same one `/_emulator/rate-limit` manages. */
  rateLimit: RunningRateLimit;
  /** Fault rules, the same list `/_emulator/faults` manages. */
  faults: FaultRules;
  /** API request log, the same one `/_emulator/requests` serves. */
  requests: RequestLog;
  /** Workflow runs, the same ones `/_emulator/workflow-runs` starts and stops. */
  runs: WorkflowRuns;
  /** Webhook receivers and deliveries, the same ones `/_emulator/webhooks` manages. */
  webhooks: WebhookDispatcher;
  /** The state saved under names, the same ones `/_emulator/snapshots` manages. */
  snapshots: Snapshots;
  /** Cancels pending runs and deliveries, stops listening, and waits until the state is on disk. */
  close(): Promise<void>;
}

/** Starts an emulator on 127.0.0.1 and resolves once it accepts connections. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  // Checked before the store is opened, so a bad setting fails fast like a bad fixture does.
  const rateLimit = newRateLimiter(options);
  const store = await EmulatorStore.open({ fixtures: options.fixtures, data: options.data });
  const credentials = { apiKey: options.apiKey ?? "tk_emulator", token: options.token ?? "emulator_token" };
  const faults = new FaultRules();
  const requests = new RequestLog();
  const warn = options.quiet ? () => {} : (message: string) => process.stderr.write(`emulator: ${message}\n`);
  const webhooks = newWebhookDispatcher(credentials.apiKey, options.webhooks, warn);
  const runs = new WorkflowRuns(store, webhooks, warn);
  const snapshots = new Snapshots(store, options.snapshots);
  const app = buildServer({ store, credentials, rateLimit, faults, requests, runs, webhooks, snapshots, warn });
  await app.listen({ port: options.port ?? 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    ...credentials,
    store,
    rateLimit,
    faults,
    requests,
    runs,
    webhooks,
    snapshots,
    close: () =>
      (closing ??= (async () => {
        runs.close();
        rateLimit.close();
        await webhooks.close();
        await app.close();
        await store.flush();
      })()),
  };
}

// A bad limit is a configuration error, like a bad fixture: the command line exits 2 for it.
function newRateLimiter({ rateLimit, retryAfter, rateLimitStatus }: EmulatorOptions): RateLimiter {
  try {
    return new RateLimiter({ rateLimit, retryAfter, status: rateLimitStatus });
  } catch (err) {
    throw new EmulatorConfigError((err as Error).message);
  }
}

// A bad receiver or timing is a configuration error too.
function newWebhookDispatcher(
  signingKey: string,
  settings: WebhookSettings | undefined,
  warn: (message: string) => void,
): WebhookDispatcher {
  try {
    return new WebhookDispatcher(signingKey, settings, warn);
  } catch (err) {
    throw new EmulatorConfigError((err as Error).message);
  }
}
