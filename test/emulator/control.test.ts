import { describe, it } from "mocha";
import { strict as assert } from "node:assert";
import { FIXTURE } from "../../harness/fixture";
import { client, ok, useEmulatorClients } from "../support/emulatorClients";

describe("emulator: control plane /_emulator", () => {
  const h = useEmulatorClients();

  it("GET health answers ok without credentials", async () => {
    assert.deepEqual(ok(await h.control.get("/health")), { status: "ok" });
  });

  it("GET state shows the full state, encrypted values in clear", async () => {
    const state = ok(await h.control.get("/state"));
    assert.deepEqual(Object.keys(state), [
      "org",
      "apps",
      "linkedAccounts",
      "configs",
      "events",
      "envDefinitions",
      "envValues",
      "audit",
    ]);
    const secret = state.envValues.find((v: { _id: string }) => v._id === FIXTURE.values.crmApiTokenAcme);
    assert.equal(secret.value, "crm-secret-acme");
  });

  it("POST reset puts the fixture back", async () => {
    ok(await h.api.delete(`/env/values/${FIXTURE.values.apiBaseUrl}`));
    ok(await h.api.put(`/application/event/${FIXTURE.events[0]}`, { name: "renamed", response: {} }));
    assert.deepEqual(ok(await h.control.post("/reset")), { status: "ok" });
    const state = ok(await h.control.get("/state"));
    assert.ok(state.envValues.some((v: { _id: string }) => v._id === FIXTURE.values.apiBaseUrl));
    assert.equal(state.events[0].name, "contact.created");
    assert.deepEqual(state.audit, []);
    // The store object itself is refilled, so references held by tests stay live.
    assert.equal(h.emulator.store.state.events[0].name, "contact.created");
  });

  it("GET requests logs each API request once with method, path, query, status, auth and duration", async () => {
    await h.api.get("/linked-account", { params: { search: "acme" } });
    await h.bearer.get("/audit/event-received");
    await h.anonymous.get("/env/definitions");
    await client(h.emulator, { "x-api-key": "wrong" }).get("/env/definitions");
    await h.control.get("/health");
    const log = ok(await h.control.get("/requests"));
    assert.equal(log.length, 4);
    assert.deepEqual(
      log.map((r: { method: string; path: string; status: number; auth: string }) => [
        r.method,
        r.path,
        r.status,
        r.auth,
      ]),
      [
        ["GET", "/api/v2/public/linked-account", 200, "api_key"],
        ["GET", "/api/v2/public/audit/event-received", 200, "bearer"],
        ["GET", "/api/v2/public/env/definitions", 401, "none"],
        ["GET", "/api/v2/public/env/definitions", 401, "invalid"],
      ],
    );
    assert.deepEqual(log[0].query, { search: "acme" });
    assert.deepEqual(
      log.map((r: { seq: number }) => r.seq),
      [log[0].seq, log[0].seq + 1, log[0].seq + 2, log[0].seq + 3],
    );
    for (const entry of log) {
      assert.equal(typeof entry.durationMs, "number");
      assert.ok(!Number.isNaN(Date.parse(entry.time)));
      assert.ok(!("fault" in entry));
    }
  });

  it("GET requests?since=<seq> returns only later entries, and DELETE clears without reusing numbers", async () => {
    for (let i = 0; i < 3; i++) await h.api.get("/env/definitions");
    const all = ok(await h.control.get("/requests"));
    const since = ok(await h.control.get("/requests", { params: { since: all[0].seq } }));
    assert.deepEqual(
      since.map((r: { seq: number }) => r.seq),
      [all[1].seq, all[2].seq],
    );
    assert.deepEqual(ok(await h.control.get("/requests", { params: { since: all[2].seq } })), []);
    assert.deepEqual(ok(await h.control.delete("/requests")), { cleared: 3 });
    assert.deepEqual(ok(await h.control.get("/requests")), []);
    await h.api.get("/env/definitions");
    assert.equal(ok(await h.control.get("/requests"))[0].seq, all[2].seq + 1);
    assert.equal((await h.control.get("/requests", { params: { since: "x" } })).status, 400);
  });

  it("is not under the API's auth: a bearer or missing key does not matter", async () => {
    ok(await h.control.get("/faults"));
    ok(await h.control.get("/state", { headers: { "x-api-key": "wrong" } }));
  });
});

describe("emulator: request log ring", () => {
  it("keeps only the newest entries and keeps sequence numbers", async () => {
    const { RequestLog } = await import("../../emulator/requestLog");
    const log = new RequestLog(3);
    for (let i = 0; i < 5; i++) {
      log.record({ time: "", method: "GET", path: `/${i}`, query: {}, status: 200, auth: "api_key", durationMs: 0 });
    }
    assert.deepEqual(
      log.list().map((e) => [e.seq, e.path]),
      [
        [3, "/2"],
        [4, "/3"],
        [5, "/4"],
      ],
    );
    assert.deepEqual(
      log.list(4).map((e) => e.seq),
      [5],
    );
    assert.deepEqual(
      log.list(1).map((e) => e.seq),
      [3, 4, 5],
    );
  });
});
