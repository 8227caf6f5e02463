import { afterEach, beforeEach, describe, it } from "mocha";
import { strict as assert } from "node:assert";
import { setTimeout as sleep } from "node:timers/promises";
import type { AxiosInstance, AxiosResponse } from "axios";
import { EmulatorConfigError, parseRateLimit, startEmulator } from "../../emulator";
import { assertError, client, ok, useEmulatorClients } from "../support/emulatorClients";

const atOnce = (api: AxiosInstance, n: number, path = "/linked-account") =>
  Promise.all(Array.from({ length: n }, () => api.get(path)));
const count = (responses: AxiosResponse[], status: number) => responses.filter((r) => r.status === status).length;
const limited = (responses: AxiosResponse[]) => responses.filter((r) => r.status === 429);

/**
 * Stops the clock the token buckets read (limiter reads `performance.now()`) during each test, so
 * that no token comes back while a test counts, however slow the machine; `advance` moves it on.
 */
function useFrozenClock(): { advance(ms: number): void } {
  let now = 0;
  beforeEach(() => {
    now = performance.now();
    performance.now = () => now;
  });
  // Deleting the own property uncovers the real method on the prototype.
  afterEach(() => delete (performance as Partial<typeof performance>).now);
  return { advance: (ms) => (now += ms) };
}

const DOCUMENTED_429 = {
  status_code: 429,
  http_error_type: "TOO_MANY_REQUESTS",
  error: "RATE_LIMIT_EXCEEDED",
  message: "Rate limit exceeded: 20 requests per second with a burst of 5",
};

describe("emulator: rate limit (default 20 requests/s, burst 5, per credential)", () => {
  const h = useEmulatorClients();
  const clock = useFrozenClock();

  it("lets a burst of 5 through, then answers 429 in the platform's error body with no rate-limit headers", async () => {
    const responses = await atOnce(h.api, 6);
    assert.equal(count(responses, 200), 5);
    const [refused] = limited(responses);
    assert.deepEqual(refused.data, DOCUMENTED_429);
    assert.equal(refused.headers["retry-after"], undefined);
    assert.deepEqual(
      Object.keys(refused.headers).filter((name) => /ratelimit/i.test(name)),
      [],
    );
  });

  it("refills at 20 per second: 100 ms later exactly two more requests pass", async () => {
    assert.equal(count(await atOnce(h.api, 6), 429), 1);
    clock.advance(100);
    assert.deepEqual((await atOnce(h.api, 3)).map((r) => r.status).sort(), [200, 200, 429]);
  });

  it("keeps one bucket per valid credential, and one that every caller without a valid credential shares", async () => {
    // Limited before auth, as a gateway does: the sixth wrong-key request is a 429, not a 401.
    const wrongKey = await atOnce(client(h.emulator, { "x-api-key": "tk_wrong" }), 6);
    assert.deepEqual([count(wrongKey, 401), count(wrongKey, 429)], [5, 1]);
    // No credential, or another wrong key, draws on the same bucket: a flood of made-up keys cannot grow the buckets.
    assertError(await h.anonymous.get("/linked-account"), 429, "RATE_LIMIT_EXCEEDED");
    assertError(
      await client(h.emulator, { "x-api-key": "tk_other" }).get("/linked-account"),
      429,
      "RATE_LIMIT_EXCEEDED",
    );

    // They did not drain the valid credentials.
    const apiKey = await atOnce(h.api, 6);
    assert.deepEqual([count(apiKey, 200), count(apiKey, 429)], [5, 1]);
    const bearer = await atOnce(h.bearer, 6, "/audit/event-received");
    assert.deepEqual([count(bearer, 200), count(bearer, 429)], [5, 1]);
  });

  it("never limits the control plane: 50 GET /_emulator/health at once all answer 200, and the API keeps its burst", async () => {
    const health = await Promise.all(Array.from({ length: 50 }, () => h.control.get("/health")));
    assert.equal(count(health, 200), 50);
    assert.deepEqual(ok(await h.control.get("/rate-limit")).rateLimit, "20/5");
    assert.equal(count(await atOnce(h.api, 5), 200), 5);
  });

  it("is checked before fault rules: a limited request is not faulted, and the log tells the two 429s apart", async () => {
    ok(await h.control.post("/faults", { rules: [{ path: "linked-account", action: { status: 429 }, times: 1 }] }));
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await h.api.get("/linked-account")).status);
    // The fault spent a token too: the gateway counted the request before the fault answered it.
    assert.deepEqual(statuses, [429, 200, 200, 200, 200, 429]);
    const log = ok(await h.control.get("/requests"));
    assert.deepEqual(
      log.map((e: { status: number; fault?: string; rateLimited?: boolean }) => [e.status, e.fault, e.rateLimited]),
      [[429, "status", undefined], ...Array(4).fill([200, undefined, undefined]), [429, undefined, true]],
    );

    // A rule that matches every request does not see the ones over the limit.
    h.emulator.rateLimit.reset();
    ok(await h.control.post("/faults", { rules: [{ path: "audit", action: { status: 503 } }] }));
    const audit = await atOnce(h.api, 6, "/audit/event-received");
    assert.deepEqual([count(audit, 503), count(audit, 429)], [5, 1]);
    assert.equal(ok(await h.control.get("/faults")).rules[1].fired, 5);
  });

  it("reset refills every bucket and keeps the limit; POST /_emulator/reset does too", async () => {
    assert.equal(count(await atOnce(h.api, 6), 429), 1);
    h.emulator.rateLimit.reset();
    assert.equal(count(await atOnce(h.api, 5), 200), 5);

    h.emulator.rateLimit.set({ rateLimit: "2/2" });
    // A new limit hands out no tokens: the bucket is as empty as it was.
    assert.equal(count(await atOnce(h.api, 3), 429), 3);
    assert.deepEqual(ok(await h.control.post("/reset")), { status: "ok" });
    assert.equal(ok(await h.control.get("/rate-limit")).rateLimit, "2/2");
    assert.deepEqual((await atOnce(h.api, 3)).map((r) => r.status).sort(), [200, 200, 429]);
  });

  it("does not charge its own pause to the callers: requests read together after a 500 ms pause pass, as many as the limit allowed in it", async () => {
    // The buckets' clock is stopped here, so no token comes back: only the pause's credit can let a request through.
    assert.equal(count(await atOnce(h.api, 6), 429), 1, "the burst is spent");
    await sleep(60); // the emulator's pause clock ticks
    const started = Date.now();
    const sent = atOnce(h.api, 14);
    // The process stops, as in a long garbage collection of the test runner that hosts the emulator.
    const paused = Date.now();
    while (Date.now() - paused < 500);
    const after = await sent;
    const ms = Date.now() - started;
    const passed = count(after, 200);
    // 20 per second for the pause: about 10 of the 14 (the pause is counted from when the clock's tick was due).
    assert.ok(passed >= 8 && passed <= 11, `${passed} of 14 passed after a 500 ms pause (${ms.toFixed(0)} ms in all)`);
    assert.equal(count(after, 429), 14 - passed);
    assert.equal(count(await atOnce(h.api, 3), 429), 3, "the credit is spent: the limit holds again");
  });
});

describe("emulator: rate limit control route /_emulator/rate-limit", () => {
  const h = useEmulatorClients();
  const put = (body: unknown) => h.control.put("/rate-limit", body);
  useFrozenClock();

  it("GET reports the limit, the same as emulator.rateLimit.get()", async () => {
    const expected = { rateLimit: "20/5", requestsPerSecond: 20, burst: 5, retryAfter: false, status: 429 };
    assert.deepEqual(ok(await h.control.get("/rate-limit")), expected);
    assert.deepEqual(h.emulator.rateLimit.get(), expected);
  });

  it("PUT changes the limit at run time, for a credential already seen too, and returns the new setting", async () => {
    ok(await h.api.get("/linked-account")); // the API key's bucket now exists, with 4 tokens left
    assert.deepEqual(ok(await put({ rateLimit: "2/2" })), {
      rateLimit: "2/2",
      requestsPerSecond: 2,
      burst: 2,
      retryAfter: false,
      status: 429,
    });
    const responses = await atOnce(h.api, 3);
    assert.equal(count(responses, 200), 2);
    assert.equal(limited(responses)[0].data.message, "Rate limit exceeded: 2 requests per second with a burst of 2");

    // Leaving rateLimit out keeps it; decimals are allowed for the rate.
    assert.deepEqual(ok(await put({ retryAfter: true })), {
      rateLimit: "2/2",
      requestsPerSecond: 2,
      burst: 2,
      retryAfter: true,
      status: 429,
    });
    assert.deepEqual(ok(await put({ rateLimit: "0.5/1" })), {
      rateLimit: "0.5/1",
      requestsPerSecond: 0.5,
      burst: 1,
      retryAfter: true,
      status: 429,
    });
    assert.deepEqual(ok(await put({})), h.emulator.rateLimit.get());
  });

  it('PUT {rateLimit: "off"} lets everything through, and a new limit starts every credential with a full burst', async () => {
    // Limit off on purpose, though the platform always has one: this test is about the emulator's
    // off switch itself (what `--rate-limit off` gives users' CI), and turns a limit back on.
    assert.equal(count(await atOnce(h.api, 6), 429), 1);
    assert.deepEqual(ok(await put({ rateLimit: "off" })), {
      rateLimit: "off",
      requestsPerSecond: null,
      burst: null,
      retryAfter: false,
      status: 429,
    });
    assert.equal(count(await atOnce(h.api, 30), 200), 30);
    ok(await put({ rateLimit: "20/5" }));
    assert.equal(count(await atOnce(h.api, 6), 200), 5);
  });

  it('PUT {status: 403} answers the limit with 403 "Rate Limit Hit", logged as the limiter\'s; {status: 429} puts it back', async () => {
    assert.equal(ok(await put({ status: 403 })).status, 403);
    const [refused] = (await atOnce(h.api, 6)).filter((r) => r.status !== 200);
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.data, {
      status_code: 403,
      http_error_type: "FORBIDDEN",
      error: "RATE_LIMIT_HIT",
      message: "Rate Limit Hit",
    });
    assert.deepEqual(
      h.emulator.requests
        .list()
        .filter((r) => r.status === 403)
        .map((r) => r.rateLimited),
      [true],
    );
    assert.equal(ok(await put({ status: 429 })).status, 429);
    h.emulator.rateLimit.reset();
    assert.equal(limited(await atOnce(h.api, 6)).length, 1);
  });

  it("PUT refuses a bad body with 400 naming the property, and leaves the limit as it was", async () => {
    assertError(
      await put({ rateLimit: "fast" }),
      400,
      "VALIDATION_ERROR",
      /^rateLimit: must be "RPS\/BURST" .* or "off"; got "fast"$/,
    );
    assertError(await put({ rateLimit: "20/0" }), 400, "VALIDATION_ERROR", 'got "20/0"');
    assertError(
      await put({ rateLimit: { requestsPerSecond: 1, burst: 1 } }),
      400,
      "VALIDATION_ERROR",
      "rateLimit: expected string, received object",
    );
    assertError(
      await put({ retryAfter: "yes" }),
      400,
      "VALIDATION_ERROR",
      "retryAfter: expected boolean, received string",
    );
    assertError(await put({ status: 401 }), 400, "VALIDATION_ERROR", "status");
    assertError(await put({ rateLimit: "1/1", limit: "1/1" }), 400, "VALIDATION_ERROR", "limit");
    assertError(await h.control.put("/rate-limit"), 400, "VALIDATION_ERROR", "body: required");
    assert.deepEqual(ok(await h.control.get("/rate-limit")), {
      rateLimit: "20/5",
      requestsPerSecond: 20,
      burst: 5,
      retryAfter: false,
      status: 429,
    });
  });
});

describe("emulator: rate limit with retryAfter", () => {
  const h = useEmulatorClients({ retryAfter: true });
  useFrozenClock();

  it("adds Retry-After in whole seconds, at least 1, to the limiter's 429s only", async () => {
    const [refused] = limited(await atOnce(h.api, 6));
    // At 20/s the next token is 50 ms away: rounded up to the whole second.
    assert.equal(refused.headers["retry-after"], "1");
    assert.deepEqual(refused.data, DOCUMENTED_429);

    h.emulator.rateLimit.set({ rateLimit: "0.5/1" });
    h.emulator.rateLimit.reset();
    const slow = await atOnce(h.api, 2);
    // At 0.5/s the next token is 2 s away.
    assert.equal(limited(slow)[0].headers["retry-after"], "2");

    h.emulator.rateLimit.set({ retryAfter: false });
    assert.equal(limited(await atOnce(h.api, 1))[0].headers["retry-after"], undefined);
  });

  it('adds it to the limit\'s 403 "Rate Limit Hit" as well, under status 403', async () => {
    h.emulator.rateLimit.set({ status: 403 });
    const refused = (await atOnce(h.api, 6)).filter((r) => r.status !== 200);
    assert.deepEqual(
      refused.map((r) => [r.status, r.headers["retry-after"], r.data.message]),
      [[403, "1", "Rate Limit Hit"]],
    );
  });
});

describe("emulator: rate limit on the real clock", () => {
  const h = useEmulatorClients();

  it("gives tokens back as time passes: after a burst and 100 ms, two more requests pass", async () => {
    await atOnce(h.api, 6);
    await sleep(100);
    for (let i = 0; i < 2; i++) ok(await h.api.get("/linked-account"));
  });
});

describe('emulator: rateLimit "off"', () => {
  // Limit off on purpose, though the platform always has one: these tests are about the emulator's
  // off switch itself; every other suite runs at the platform's documented 20/s, burst 5.
  const h = useEmulatorClients({ rateLimit: "off" });

  it("lets any number of requests through and reports off", async () => {
    assert.equal(count(await atOnce(h.api, 40), 200), 40);
    assert.deepEqual(h.emulator.rateLimit.get(), {
      rateLimit: "off",
      requestsPerSecond: null,
      burst: null,
      retryAfter: false,
      status: 429,
    });
    assert.ok(h.emulator.requests.list().every((e) => !("rateLimited" in e)));
  });
});

describe("emulator: rate limit settings (parseRateLimit)", () => {
  it('accepts "RPS/BURST" with a decimal rate, "off" and {requestsPerSecond, burst}', () => {
    assert.deepEqual(parseRateLimit("20/5", "rateLimit"), { requestsPerSecond: 20, burst: 5 });
    assert.deepEqual(parseRateLimit("0.5/1", "rateLimit"), { requestsPerSecond: 0.5, burst: 1 });
    assert.deepEqual(parseRateLimit("1000/250", "--rate-limit"), { requestsPerSecond: 1000, burst: 250 });
    assert.equal(parseRateLimit("off", "rateLimit"), null);
    assert.deepEqual(parseRateLimit({ requestsPerSecond: 2.5, burst: 3 }, "rateLimit"), {
      requestsPerSecond: 2.5,
      burst: 3,
    });
  });

  it("refuses anything else, naming the option and the accepted forms", () => {
    for (const bad of [
      "",
      "20",
      "20/",
      "/5",
      "0/5",
      "20/0",
      "20/1.5",
      "-1/5",
      "20/-5",
      "fast",
      "20/5/1",
      " 20/5",
      "OFF",
      "1e3/5",
      "20 / 5",
    ]) {
      assert.throws(
        () => parseRateLimit(bad, "--rate-limit"),
        (err: Error) => {
          assert.ok(err instanceof RangeError);
          assert.equal(
            err.message,
            `--rate-limit must be "RPS/BURST" (RPS > 0, decimals allowed; BURST a whole number >= 1; e.g. "20/5" or "0.5/1") or "off"; got ${JSON.stringify(bad)}`,
          );
          return true;
        },
        bad,
      );
    }
    for (const bad of [
      { requestsPerSecond: 0, burst: 1 },
      { requestsPerSecond: 1, burst: 0.5 },
      { requestsPerSecond: Infinity, burst: 1 },
      { burst: 1 },
      20,
      null,
    ]) {
      assert.throws(
        () => parseRateLimit(bad, "rateLimit"),
        /^RangeError: rateLimit must be "RPS\/BURST" .*, "off" or \{requestsPerSecond, burst\}; got /,
        JSON.stringify(bad),
      );
    }
  });

  it("startEmulator refuses a bad rateLimit with EmulatorConfigError, and set() with a RangeError that leaves the limit alone", async () => {
    await assert.rejects(startEmulator({ quiet: true, rateLimit: "fast" }), (err: Error) => {
      assert.ok(err instanceof EmulatorConfigError);
      assert.match(err.message, /^rateLimit must be .*; got "fast"$/);
      return true;
    });
    const emulator = await startEmulator({ quiet: true, rateLimit: { requestsPerSecond: 4, burst: 2 } });
    try {
      assert.deepEqual(emulator.rateLimit.get(), {
        rateLimit: "4/2",
        requestsPerSecond: 4,
        burst: 2,
        retryAfter: false,
        status: 429,
      });
      assert.throws(() => emulator.rateLimit.set({ rateLimit: "4", retryAfter: true }), RangeError);
      assert.deepEqual(emulator.rateLimit.get(), {
        rateLimit: "4/2",
        requestsPerSecond: 4,
        burst: 2,
        retryAfter: false,
        status: 429,
      });
    } finally {
      await emulator.close();
    }
  });
});
