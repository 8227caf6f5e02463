// What the server, its routes and the control plane share. A module of its own, so that the
// routes depend on it and not on server.ts, which imports them.
import type { Credentials } from "./auth";
import type { FaultRules } from "./faults";
import type { RateLimiter } from "./rateLimit";
import type { RequestLog } from "./requestLog";
import type { Snapshots } from "./snapshots";
import type { WorkflowRuns } from "./runs";
import type { EmulatorStore } from "./store";
import type { WebhookDispatcher } from "./webhooks";

/** Everything the routes share: state, credentials, rate limit, faults, request log, runs, webhooks, snapshots. */
export interface EmulatorContext {
  store: EmulatorStore;
  credentials: Credentials;
  rateLimit: RateLimiter;
  faults: FaultRules;
  requests: RequestLog;
  /** Workflow runs asked for on the control plane. */
  runs: WorkflowRuns;
  /** Receivers of workflow events, and the delivery log. */
  webhooks: WebhookDispatcher;
  /** The state saved under names, to restore between test cases. */
  snapshots: Snapshots;
  /** Reports problems the client cannot see (persistence failures, internal errors). */
  warn(message: string): void;
}
