// The provider's side of the platform's rate limit, one rule per test: pacing, adapting after a
// 429, the time budget for 429s, Retry-After and its cap. Observed through the emulator's request
// log, with the emulator enforcing the documented limit (20/s, burst 5) unless a test says why not.
import * as assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { AxiosError, AxiosHeaders } from "axios";
import { AuthenticationError, RateLimitError, ServerError } from "../../provider";
import { MAX_RETRY_DELAY_MS, type PlatformClient, retryDelayMs } from "../../provider/client/http";
import { Pacer } from "../../provider/client/pacing";
import { listLinkedAccounts } from "../../provider/client/linkedAccounts";
import { PROCESS_CONNECTION } from "../../provider/connection";
import { clientFor, rejection, useProviderAgainstEmulator } from "../support/provider";

describe("Rate limits: the client paces itself and waits out 429s", () => {
  const ctx = useProviderAgainstEmulator();
  const client = (extra: Record<string, string> = {}) => clientFor(ctx.emulator, extra);
  const calls = () => ctx.emulator.requests.list().filter((r) => r.path.startsWith("/api/v2/public/linked-account"));
  const spanMs = (log: { time: string }[]) => Date.parse(log[log.length - 1].time) - Date.parse(log[0].time);
  /** N distinct reads at once (distinct, so that identical reads in flight are not shared). */
  const burst = (c: PlatformClient, n: number) =>
    Promise.all(Array.from({ length: n }, (_, i) => listLinkedAccounts(c, { search: `n${i}` })));

  // The clients here share the process connection's pacer (clientFor); each test starts from a freshly configured one.
  const pacer = PROCESS_CONNECTION.pacer;
  afterEach(() => pacer.configure(0));

  it("paces 30 calls fired at once to the documented limit: the emulator's default limit answers none of them 429", async () => {
    await burst(client(), 30);
    const log = calls();
    assert.equal(log.length, 30);
    assert.deepEqual(
      log.filter((r) => r.status !== 200),
      [],
    );
    // 1 token at start, then one every 50 ms: 29 × 50 ms.
    assert.ok(spanMs(log) >= 1_300, `30 calls at 20/s must span about 1.45 s; they spanned ${spanMs(log)} ms`);
  });

  it("sends no faster than integration-platform:requestsPerSecond", async () => {
    // Limit off, though the platform has one (20/s, burst 5): this test measures the client's own
    // pacing, and an emulator limit would slow the calls itself; the tests around it keep the limit on.
    ctx.emulator.rateLimit.set({ rateLimit: "off" });
    await burst(client({ INTEGRATION_PLATFORM_REQUESTS_PER_SECOND: "5" }), 10);
    assert.ok(spanMs(calls()) >= 1_700, `10 calls at 5/s must span about 1.8 s; they spanned ${spanMs(calls())} ms`);
  });

  it("slows down when 429s come anyway (the key is shared), and every call still succeeds", async () => {
    // The platform allows 4/s, the client believes 20/s: as when another job spends the same key.
    ctx.emulator.rateLimit.set({ rateLimit: "4/1" });
    const results = await burst(client(), 16);
    assert.equal(results.length, 16);
    const log = calls();
    const limited = log.filter((r) => r.status === 429).length;
    assert.ok(limited > 0, "the shared key's limit was met");
    assert.equal(log.filter((r) => r.status === 200).length, 16);
    assert.ok(
      pacer.cutCount >= 1 && pacer.currentRate < 20,
      `the pacer slowed down (rate ${pacer.currentRate}, cuts ${pacer.cutCount})`,
    );
    assert.ok(limited < 16, `fewer 429s than calls once slowed down; got ${limited}`);
  });

  it("retries 429s for the time budget, not maxRetries, then fails naming the operation, the wait and the settings", async () => {
    ctx.emulator.faults.add([{ path: "^/api/v2/public/linked-account", action: { status: 429 } }]);
    const started = Date.now();
    const error = await rejection(
      listLinkedAccounts(
        client({
          INTEGRATION_PLATFORM_MAX_RETRIES: "0",
          INTEGRATION_PLATFORM_RATE_LIMIT_BUDGET_MS: "1500",
        }),
        {},
      ),
    );
    assert.ok(error instanceof RateLimitError);
    assert.ok(Date.now() - started >= 1_500, "kept trying for the whole budget");
    const attempts = calls().length;
    assert.ok(attempts >= 3, `maxRetries 0 does not stop 429 retries; made ${attempts} attempts`);
    assert.match(
      error.message,
      new RegExp(
        `^429 from GET /linked-account: .*held this call for 1\\.\\d s over ${attempts} attempts \\(the budget is 1500 ms\\)`,
      ),
    );
    assert.match(error.message, /integration-platform:requestsPerSecond/);
    assert.match(
      error.message,
      /`integration-platform:rateLimitBudgetMs` \(INTEGRATION_PLATFORM_RATE_LIMIT_BUDGET_MS\)/,
    );
    assert.match(error.message, /run the same command again/);
    assert.doesNotMatch(error.message, new RegExp(ctx.emulator.apiKey));
  });

  it('waits out the limit answered as 403 "Rate Limit Hit" (the platform\'s older form) like a 429, and every call succeeds', async () => {
    // The emulator answers its limit the older way; the client believes 20/s where 4/s is allowed.
    ctx.emulator.rateLimit.set({ rateLimit: "4/1", status: 403 });
    const results = await burst(client(), 12);
    assert.equal(results.length, 12);
    const log = calls();
    const limited = log.filter((r) => r.status === 403);
    assert.ok(limited.length > 0 && limited.every((r) => r.rateLimited), "the limit was met, and answered 403");
    assert.equal(log.filter((r) => r.status === 200).length, 12);
    assert.ok(pacer.cutCount >= 1, 'a 403 "Rate Limit Hit" slows the pacer as a 429 does');
  });

  it('fails a 403 "Rate Limit Hit" past the budget with the rate-limit advice naming 403, and any other 403 at once with the credentials\' advice', async () => {
    ctx.emulator.faults.add([
      { path: "^/api/v2/public/linked-account", action: { status: 403, message: "Rate Limit Hit" } },
    ]);
    const limited = await rejection(
      listLinkedAccounts(client({ INTEGRATION_PLATFORM_RATE_LIMIT_BUDGET_MS: "1000" }), {}),
    );
    assert.ok(limited instanceof RateLimitError, limited.message);
    assert.match(
      limited.message,
      /^403 from GET \/linked-account: Rate Limit Hit \(the platform's rate limit, answered as 403 "Rate Limit Hit"\): .*held this call for 1\.\d s over \d+ attempts \(the budget is 1000 ms\)/,
    );
    assert.ok(calls().length >= 3, `retried within the budget; made ${calls().length} attempts`);

    ctx.emulator.faults.clear();
    ctx.emulator.requests.clear();
    ctx.emulator.faults.add([
      { path: "^/api/v2/public/linked-account", action: { status: 403, message: "Forbidden" } },
    ]);
    const refused = await rejection(listLinkedAccounts(client(), {}));
    assert.ok(refused instanceof AuthenticationError, refused.message);
    assert.match(
      refused.message,
      /^403 from GET \/linked-account: Forbidden: the API key was refused; check `integration-platform:apiKey`/,
    );
    assert.equal(calls().length, 1, "a plain 403 is not retried");
  });

  it("keeps maxRetries for 5xx: a 500 is tried maxRetries + 1 times", async () => {
    ctx.emulator.faults.add([{ path: "^/api/v2/public/linked-account", action: { status: 500 } }]);
    const error = await rejection(listLinkedAccounts(client({ INTEGRATION_PLATFORM_MAX_RETRIES: "1" }), {}));
    assert.ok(error instanceof ServerError);
    assert.match(error.message, /\(after 2 attempts\)/);
    assert.equal(calls().length, 2);
  });

  it("waits the Retry-After that the platform sends with a 429", async () => {
    ctx.emulator.rateLimit.set({ rateLimit: "1/1", retryAfter: true });
    const c = client();
    await listLinkedAccounts(c, { search: "a" });
    await listLinkedAccounts(c, { search: "b" });
    const log = calls();
    assert.deepEqual(
      log.map((r) => r.status),
      [200, 429, 200],
    );
    const waited = Date.parse(log[2].time) - Date.parse(log[1].time);
    assert.ok(waited >= 950, `waited ${waited} ms after "Retry-After: 1"`);
  });

  it("caps a Retry-After at 20 s, so one answer cannot stall a deployment", () => {
    const tooLong = new AxiosError("429", "ERR_BAD_REQUEST", undefined, undefined, {
      status: 429,
      statusText: "Too Many Requests",
      headers: { "retry-after": "3600" },
      config: { headers: new AxiosHeaders() },
      data: {},
    });
    assert.equal(retryDelayMs(tooLong, 120_000), MAX_RETRY_DELAY_MS);
    const short = new AxiosError("429", "ERR_BAD_REQUEST", undefined, undefined, {
      ...tooLong.response!,
      headers: { "retry-after": "2" },
    });
    const delay = retryDelayMs(short, 120_000);
    assert.ok(delay >= 2_000 && delay <= 2_400, `Retry-After: 2 waits 2 s plus jitter; got ${delay}`);
  });
});

describe("Pacer", () => {
  // Short times, so that one cut and one full recovery fit in a fraction of a second.
  const quick = { decrease: 0.5, cooldownMs: 100, recoveryPerSecond: 10, minimumRate: 1, recoveryTickMs: 10 };

  it("halves the rate on a 429, once per overload, and never below the minimum", () => {
    const p = new Pacer({ ...quick, recoveryTickMs: 60_000 });
    p.configure(20);
    p.rateLimited();
    assert.equal(p.currentRate, 10);
    p.rateLimited();
    assert.equal(p.currentRate, 10, "429s within the cooldown are the same overload");
    assert.equal(p.cutCount, 1);
    const floor = new Pacer({ ...quick, cooldownMs: 0, recoveryTickMs: 60_000 });
    floor.configure(2);
    for (let i = 0; i < 5; i++) floor.rateLimited();
    assert.equal(floor.currentRate, 1);
  });

  it("recovers to the configured rate once 429s stop", async () => {
    const p = new Pacer(quick);
    p.configure(20);
    p.rateLimited();
    assert.equal(p.currentRate, 10);
    await sleep(500);
    assert.equal(p.currentRate, 20);
  });

  it("is off at 0 requests per second, and a new rate starts afresh", async () => {
    const p = new Pacer(quick);
    p.configure(0);
    const started = Date.now();
    for (let i = 0; i < 50; i++) await p.turn();
    assert.ok(Date.now() - started < 200, "no pacing when off");
    p.rateLimited();
    assert.equal(p.currentRate, 0);
    p.configure(20);
    p.rateLimited();
    p.configure(30);
    assert.equal(p.currentRate, 30);
    assert.equal(p.cutCount, 0);
  });
});
