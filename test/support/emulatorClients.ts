// The emulator suites' view of the emulator: its HTTP API through axios clients, one per kind of
// credential, that never throw on a status, so tests assert the platform's answers themselves.
import axios, { type AxiosInstance, type AxiosResponse } from "axios";
import { strict as assert } from "node:assert";
import type { EmulatorOptions, RunningEmulator } from "../../emulator";
import { useResetEmulator } from "./emulator";

/** A running emulator with clients: API key, bearer token, no credentials, control plane. */
export interface EmulatorClients {
  emulator: RunningEmulator;
  api: AxiosInstance;
  bearer: AxiosInstance;
  anonymous: AxiosInstance;
  control: AxiosInstance;
}

/**
 * An emulator per describe block with its clients, reset before each test (state, faults,
 * request log, rate limit and its buckets: see useResetEmulator).
 */
export function useEmulatorClients(options: EmulatorOptions = {}): Readonly<EmulatorClients> {
  return useResetEmulator(options, {
    started: (emulator) => ({
      api: client(emulator, { "x-api-key": emulator.apiKey }),
      bearer: client(emulator, { authorization: `Bearer ${emulator.token}` }),
      anonymous: client(emulator, {}),
      control: axios.create({ baseURL: `${emulator.url}/_emulator`, validateStatus: () => true }),
    }),
  });
}

/**
 * Gives every credential its full burst of 5 again. For tests that send more requests in quick
 * succession than the platform's burst because they check something else, one case per request;
 * the limit itself is checked in rateLimit.test.ts.
 */
export function refillRateLimit(h: Readonly<EmulatorClients>): void {
  h.emulator.rateLimit.reset();
}

/** An axios client for the public API that never throws on a status. */
export function client(emulator: RunningEmulator, headers: Record<string, string>): AxiosInstance {
  return axios.create({ baseURL: `${emulator.url}/api/v2/public`, headers, validateStatus: () => true });
}

/** Asserts the platform's error body with the status, the internal code and a message fragment. */
export function assertError(res: AxiosResponse, status: number, code: string, messagePart?: string | RegExp): void {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.data)}`);
  assert.equal(res.data.status_code, status);
  assert.equal(typeof res.data.http_error_type, "string");
  const codeKey = "error_code" in res.data ? "error_code" : "error";
  assert.equal(res.data[codeKey], code);
  if (messagePart instanceof RegExp) assert.match(res.data.message, messagePart);
  else if (messagePart !== undefined)
    assert.ok(res.data.message.includes(messagePart), `message "${res.data.message}" lacks "${messagePart}"`);
}

/** Asserts a 200 and returns the body. */
export function ok<T = any>(res: AxiosResponse): T {
  assert.equal(res.status, 200, `expected 200, got ${res.status}: ${JSON.stringify(res.data)}`);
  return res.data as T;
}
