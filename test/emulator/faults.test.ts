import { describe, it } from "mocha";
import axios from "axios";
import { strict as assert } from "node:assert";
import { FaultRules } from "../../emulator/faults";
import { assertError, ok, refillRateLimit, useEmulatorClients } from "../support/emulatorClients";

const ENV = "^/api/v2/public/env/";

describe("emulator: fault rules", () => {
  const h = useEmulatorClients();
  const addRules = async (rules: unknown[]) => ok(await h.control.post("/faults", { rules })).rules;
  const statuses = async (n: number, path = "/env/definitions") => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await h.api.get(path)).status);
    return out;
  };

  it("answers with a status, the error body and Retry-After, and logs fault 'status'", async () => {
    await addRules([{ path: ENV, action: { status: 429, retryAfter: 2, message: "Rate limit exceeded" } }]);
    const res = await h.api.get("/env/definitions");
    assertError(res, 429, "RATE_LIMIT_EXCEEDED", "Rate limit exceeded");
    assert.equal(res.data.http_error_type, "TOO_MANY_REQUESTS");
    assert.equal(res.headers["retry-after"], "2");
    const [entry] = h.emulator.requests.list();
    assert.deepEqual([entry.status, entry.fault], [429, "status"]);
    // Other paths are untouched.
    ok(await h.api.get("/linked-account"));
  });

  it("uses SERVER_ERROR / SERVICE_UNAVAILABLE and a default message for 5xx", async () => {
    await addRules([
      { path: "linked-account", action: { status: 503 } },
      { path: "audit", action: { status: 500 } },
    ]);
    const unavailable = await h.api.get("/linked-account");
    assertError(unavailable, 503, "SERVICE_UNAVAILABLE", "Fault injected by the emulator");
    assert.equal(unavailable.data.http_error_type, "SERVICE_UNAVAILABLE");
    assert.equal(unavailable.headers["retry-after"], undefined);
    assertError(await h.api.get("/audit/event-received"), 500, "SERVER_ERROR");
  });

  it("reset destroys the connection without a response and logs status 0", async () => {
    await addRules([{ path: ENV, action: { reset: true } }]);
    const err = await h.api.get("/env/definitions").then(
      () => assert.fail("expected the connection to be reset"),
      (e: { code?: string; message: string }) => e,
    );
    assert.ok(err.code === "ECONNRESET" || /socket hang up/.test(err.message), `${err.code} ${err.message}`);
    const [entry] = h.emulator.requests.list();
    assert.deepEqual([entry.status, entry.fault, entry.path], [0, "reset", "/api/v2/public/env/definitions"]);
    // The emulator keeps serving.
    ok(await h.api.get("/linked-account"));
  });

  it("delay holds the request, then processes it normally", async () => {
    await addRules([{ method: "GET", path: ENV, action: { delayMs: 150 } }]);
    const started = Date.now();
    ok(await h.api.get("/env/definitions"));
    assert.ok(Date.now() - started >= 140, `took ${Date.now() - started} ms`);
    const [entry] = h.emulator.requests.list();
    assert.deepEqual([entry.status, entry.fault], [200, "delay"]);
    assert.ok(entry.durationMs >= 140);
  });

  it("times: fires for the next N matches, then the rule is spent", async () => {
    await addRules([{ path: ENV, action: { status: 503 }, times: 2 }]);
    assert.deepEqual(await statuses(3), [503, 503, 200]);
    const [rule] = ok(await h.control.get("/faults")).rules;
    assert.deepEqual([rule.times, rule.remaining, rule.fired], [2, 0, 2]);
  });

  it("probability 0 never fires and 1 always fires", async () => {
    await addRules([{ path: "linked-account", action: { status: 500 }, probability: 0 }]);
    await addRules([{ path: ENV, action: { status: 502 }, probability: 1 }]);
    assert.deepEqual(await statuses(5, "/linked-account"), [200, 200, 200, 200, 200]);
    refillRateLimit(h);
    assert.deepEqual(await statuses(5), [502, 502, 502, 502, 502]);
  });

  it("probability 0.5 fires for roughly half the requests", async () => {
    await addRules([{ path: ENV, action: { status: 503 }, probability: 0.5 }]);
    // Rate limit off: this test needs 200 requests at once to measure a probability, not the limit;
    // rateLimit.test.ts covers the limit. useEmulatorClients puts the limit back before the next test.
    h.emulator.rateLimit.set({ rateLimit: "off" });
    const results = await Promise.all(Array.from({ length: 200 }, () => h.api.get("/env/definitions")));
    const fired = results.filter((r) => r.status === 503).length;
    assert.ok(fired > 60 && fired < 140, `fired ${fired} of 200`);
  });

  it("the first matching non-spent rule wins, and only the method it names is affected", async () => {
    await addRules([
      { method: "post", path: ENV, action: { status: 500 } },
      { path: ENV, action: { status: 503 }, times: 1 },
      { path: ENV, action: { status: 429 } },
    ]);
    assert.deepEqual(await statuses(3), [503, 429, 429]);
    assertError(await h.api.post("/env/values", {}), 500, "SERVER_ERROR");
  });

  it("a lost probability roll lets the next rule fire", async () => {
    await addRules([
      { path: ENV, action: { status: 500 }, probability: 0 },
      { path: ENV, action: { status: 429 } },
    ]);
    assert.deepEqual(await statuses(2), [429, 429]);
  });

  it("faults hit before authentication, also on /session-token, never on the control plane", async () => {
    await addRules([{ path: ".*", action: { status: 503 } }]);
    assert.equal((await h.anonymous.get("/env/definitions")).status, 503);
    assert.equal((await h.control.post(`${h.emulator.url}/session-token/refresh`)).status, 503);
    ok(await h.control.get("/health"));
  });

  it("POST appends and returns all rules, GET lists them, DELETE clears them", async () => {
    await addRules([{ path: ENV, action: { status: 503 } }]);
    const rules = await addRules([{ path: "audit", action: { delayMs: 1 }, probability: 0.25 }]);
    const id = rules[0].id;
    assert.deepEqual(rules, [
      { id, method: "*", path: ENV, action: { status: 503 }, fired: 0 },
      { id: id + 1, method: "*", path: "audit", action: { delayMs: 1 }, probability: 0.25, fired: 0 },
    ]);
    assert.deepEqual(ok(await h.control.get("/faults")).rules, rules);
    assert.deepEqual(ok(await h.control.delete("/faults")), { rules: [] });
    ok(await h.api.get("/env/definitions"));
  });

  it("400 naming the bad property of a rule", async () => {
    const post = (rules: unknown) => h.control.post("/faults", { rules });
    assertError(
      await post([{ path: "(", action: { status: 500 } }]),
      400,
      "VALIDATION_ERROR",
      "rules[0].path: must be a valid regular expression",
    );
    assertError(
      await post([{ path: "x", action: { status: 500 }, times: 1, probability: 0.5 }]),
      400,
      "VALIDATION_ERROR",
      "rules[0].times",
    );
    assertError(await post([{ path: "x", action: { explode: true } }]), 400, "VALIDATION_ERROR", "rules[0].action");
    assertError(await post([{ path: "x", action: { status: 200 } }]), 400, "VALIDATION_ERROR", "rules[0].action");
    assertError(
      await post([{ path: "x", action: { status: 500 }, probability: 2 }]),
      400,
      "VALIDATION_ERROR",
      "rules[0].probability",
    );
    assertError(await h.control.post("/faults", {}), 400, "VALIDATION_ERROR", "rules: required");
    assert.deepEqual(ok(await h.control.get("/faults")).rules, []);
  });

  it("in-process: emulator.faults.add takes the same rules", async () => {
    h.emulator.faults.add([{ path: ENV, action: { status: 503 }, times: 1 }]);
    assert.deepEqual(await statuses(2), [503, 200]);
    assert.throws(() => h.emulator.faults.add([{ path: "(", action: { reset: true } }]), /rules\[0\]\.path/);
  });

  it("closes promptly even while a delay fault holds a request", async () => {
    const { startEmulator } = await import("../../emulator");
    const other = await startEmulator({ quiet: true });
    other.faults.add([{ path: ".*", action: { delayMs: 60_000 } }]);
    const pending = axios.get(`${other.url}/api/v2/public/env/definitions`).catch((e: Error) => e);
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await other.close();
    assert.ok(Date.now() - started < 2_000);
    assert.ok((await pending) instanceof Error);
  });
});

describe("emulator: FaultRules evaluation", () => {
  it("rolls each matching probability rule in order with the injected random source", () => {
    const rolls = [0.9, 0.1];
    const rules = new FaultRules(() => rolls.shift() ?? 0);
    rules.add([
      { path: "/a", action: { status: 500 }, probability: 0.5 },
      { path: "/a", action: { status: 503 }, probability: 0.5 },
    ]);
    const fired = rules.match("GET", "/a");
    assert.deepEqual([fired?.ruleId, fired?.kind], [2, "status"]);
    assert.equal(rules.match("GET", "/b"), null);
  });
});
