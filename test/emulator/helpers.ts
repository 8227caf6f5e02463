import { after, before, beforeEach } from "mocha";
import axios, { type AxiosInstance, type AxiosResponse } from "axios";
import { strict as assert } from "node:assert";
import { DEFAULT_RATE_LIMIT, startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";

/** Ids from emulator/fixtures/default.json that the tests rely on. */
export const FIXTURE = {
  definitions: {
    apiBaseUrl: "64f0000000000000000000d1",
    maxRetries: "64f0000000000000000000d2",
    workspaceRegion: "64f0000000000000000000d3",
    crmApiToken: "64f0000000000000000000d4",
    accountTier: "64f0000000000000000000d5",
    accountQuota: "64f0000000000000000000d6",
    webhookUrl: "64f0000000000000000000d7",
    batchSize: "64f0000000000000000000d8",
  },
  values: {
    apiBaseUrl: "64f0000000000000000000f1",
    maxRetries: "64f0000000000000000000f2",
    crmApiTokenAcme: "64f0000000000000000000f4",
    accountTierAcme: "64f0000000000000000000f5",
    webhookUrlContactSync: "64f0000000000000000000f8",
    batchSizeAcmeContactSync: "64f0000000000000000000f9",
  },
  events: ["64f0000000000000000000e1", "64f0000000000000000000e2", "64f0000000000000000000e3"],
};

/** A running emulator with clients: API key, bearer token, no credentials, control plane. */
export interface Harness {
  emulator: RunningEmulator;
  api: AxiosInstance;
  bearer: AxiosInstance;
  anonymous: AxiosInstance;
  control: AxiosInstance;
}

/** An emulator per test file, reset (state, faults, request log, rate limit and its buckets) before each test. */
export function useEmulator(options: EmulatorOptions = {}): Readonly<Harness> {
  const ctx = {} as Harness;
  before(async () => {
    ctx.emulator = await startEmulator({ quiet: true, ...options });
    ctx.api = client(ctx.emulator, { "x-api-key": ctx.emulator.apiKey });
    ctx.bearer = client(ctx.emulator, { authorization: `Bearer ${ctx.emulator.token}` });
    ctx.anonymous = client(ctx.emulator, {});
    ctx.control = axios.create({ baseURL: `${ctx.emulator.url}/_emulator`, validateStatus: () => true });
  });
  beforeEach(async () => {
    await ctx.emulator.store.reset();
    ctx.emulator.faults.clear();
    ctx.emulator.requests.clear();
    // A test may change the limit at run time; the next one starts with the file's own setting.
    ctx.emulator.rateLimit.set({ rateLimit: options.rateLimit ?? DEFAULT_RATE_LIMIT, retryAfter: options.retryAfter ?? false });
    ctx.emulator.rateLimit.reset();
  });
  after(async () => ctx.emulator?.close());
  return ctx;
}

/**
 * Gives every credential its full burst of 5 again. For tests that send more requests in quick
 * succession than the platform's burst because they check something else, one case per request;
 * the limit itself is checked in rateLimit.test.ts.
 */
export function refillRateLimit(h: Readonly<Harness>): void {
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
  else if (messagePart !== undefined) assert.ok(res.data.message.includes(messagePart), `message "${res.data.message}" lacks "${messagePart}"`);
}

/** Asserts a 200 and returns the body. */
export function ok<T = any>(res: AxiosResponse): T {
  assert.equal(res.status, 200, `expected 200, got ${res.status}: ${JSON.stringify(res.data)}`);
  return res.data as T;
}
