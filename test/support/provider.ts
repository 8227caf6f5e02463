// The resources' own providers, in-process against an in-process emulator: the unit level under
// the e2e suites (the runtime subpath serves them wrapped: test/unit/host.test.ts).
import axios from "axios";
import type { RunningEmulator } from "../../emulator";
import type { PlatformClient } from "../../provider/client/http";
import { openClient, PROCESS_CONNECTION } from "../../provider/connection";
import { resolveSettings } from "../../provider/settings";
import { resourceProviders as providers } from "../../provider/dynamic/host";
import type { ResourceType } from "../../provider/resources";
import { useResetEmulator } from "./emulator";

/** Stack config as the engine hands it to `configure()`. */
export type StackConfig = Record<string, string>;

/**
 * Starts a new run of the provider against the emulator, as each `pulumi` command does: a new
 * connection, with no memory of earlier runs. Fast retries keep failing cases quick.
 */
export function startRun(emulator: RunningEmulator, overrides: StackConfig = {}): void {
  const config: StackConfig = {
    "integration-platform:baseUrl": emulator.url,
    "integration-platform:apiKey": emulator.apiKey,
    "integration-platform:timeoutMs": "2000",
    "integration-platform:maxRetries": "2",
    ...overrides,
  };
  PROCESS_CONNECTION.newSession();
  PROCESS_CONNECTION.useStackConfig({ get: (key) => config[key] });
}

/** The provider object of a resource type, typed loosely as the engine calls it. */
export function provider(type: ResourceType) {
  // Every method is present on our providers; the non-null assertions state that.
  const p = providers[type];
  return {
    check: (olds: object, news: object) => p.check!(olds, news),
    diff: (id: string, olds: object, news: object) => p.diff!(id, olds, news),
    create: (inputs: object) => p.create(inputs),
    read: (id: string, props: object) => p.read!(id, props),
    update: (id: string, olds: object, news: object) => p.update!(id, olds, news),
    delete: (id: string, props: object) => p.delete!(id, props),
  };
}

/**
 * An emulator per describe block, reset before each test (see useResetEmulator), and the
 * provider connected to it afresh.
 */
export function useProviderAgainstEmulator(): Readonly<{ emulator: RunningEmulator }> {
  return useResetEmulator({}, { beforeEach: (emulator) => startRun(emulator) });
}

/**
 * Reads a config through the public API, the way users observe it. The read shares the API key's
 * rate limit with the provider under test, so it waits for a turn at the same pacer (the process connection's).
 */
export async function getConfig(
  emulator: RunningEmulator,
  linkedAccountId: string,
  slug: string,
  configId = linkedAccountId,
) {
  await PROCESS_CONNECTION.pacer.turn();
  const response = await axios.get(`${emulator.url}/api/v2/public/slug/${slug}/config/${configId}`, {
    headers: { "x-api-key": emulator.apiKey, linked_account_id: linkedAccountId },
  });
  return response.data as {
    fields: { id: string; name: string; options: unknown[]; labels: unknown[] }[];
    workflows: {
      id: string;
      enabled: boolean;
      fields: { id: string; name: string; options: unknown[]; labels: unknown[] }[];
    }[];
  };
}

/** Write requests (anything but GET) in the emulator's log. */
export function writes(emulator: RunningEmulator) {
  return emulator.requests.list().filter((r) => r.method !== "GET");
}

/** Asserts that a promise rejects, and returns the error for further checks. */
export async function rejection(promise: PromiseLike<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection, but the promise resolved");
}

/**
 * A client of its own, configured from environment variables (as in CI) pointing at the emulator; `env` adds or
 * overrides settings. It waits its turns at the provider's pacer (the process connection's), as they share the key.
 */
export function clientFor(emulator: RunningEmulator, env: Record<string, string> = {}): PlatformClient {
  return openClient(
    resolveSettings(undefined, {
      INTEGRATION_PLATFORM_BASE_URL: emulator.url,
      INTEGRATION_PLATFORM_API_KEY: emulator.apiKey,
      ...env,
    }),
    PROCESS_CONNECTION.pacer,
  );
}
