import type { AddressInfo } from "node:net";
import { FaultRules } from "./faults";
import { RequestLog } from "./requestLog";
import { buildServer } from "./server";
import { defaultFixturePath, EmulatorStore } from "./store";

export { ApiError, type ErrorBody } from "./errors";
export { FaultRules, type FaultAction, type FaultKind, type FaultRule, type FaultRuleInput } from "./faults";
export * from "./model";
export type { Page } from "./pagination";
export { RequestLog, type RequestLogEntry } from "./requestLog";
export { CONTROL_PREFIX } from "./control";
export { API_PREFIX } from "./routes/shared";
export { defaultFixturePath, EmulatorConfigError, EmulatorStore, type ConfigKey, type EnvValueInput } from "./store";
export type { AuthKind, AuthPolicy } from "./auth";

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
  /** Fault rules, the same list `/_emulator/faults` manages. */
  faults: FaultRules;
  /** API request log, the same one `/_emulator/requests` serves. */
  requests: RequestLog;
  /** Stops listening and waits until the state is on disk. */
  close(): Promise<void>;
}

/** Starts an emulator on 127.0.0.1 and resolves once it accepts connections. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const store = await EmulatorStore.open({ fixtures: options.fixtures ?? defaultFixturePath(), data: options.data });
  const credentials = { apiKey: options.apiKey ?? "tk_emulator", token: options.token ?? "emulator_token" };
  const faults = new FaultRules();
  const requests = new RequestLog();
  const warn = options.quiet ? () => {} : (message: string) => process.stderr.write(`emulator: ${message}\n`);
  const app = buildServer({ store, credentials, faults, requests, warn });
  await app.listen({ port: options.port ?? 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    ...credentials,
    store,
    faults,
    requests,
    close: () =>
      (closing ??= (async () => {
        await app.close();
        await store.flush();
      })()),
  };
}
