// What the server, its routes and the control plane share. A module of its own, so that the
// routes depend on it and not on server.ts, which imports them.
import type { Credentials } from "./auth";
import type { FaultRules } from "./faults";
import type { RateLimiter } from "./rateLimit";
import type { RequestLog } from "./requestLog";
import type { EmulatorStore } from "./store";

/** Everything the routes share: state, accepted credentials, rate limit, fault rules, request log. */
export interface EmulatorContext {
  store: EmulatorStore;
  credentials: Credentials;
  rateLimit: RateLimiter;
  faults: FaultRules;
  requests: RequestLog;
  /** Reports problems the client cannot see (persistence failures, internal errors). */
  warn(message: string): void;
}
