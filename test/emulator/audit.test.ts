import { describe, it } from "mocha";
import { strict as assert } from "node:assert";
import { FIXTURE } from "../../harness/fixture";
import { assertError, ok, refillRateLimit, useEmulatorClients } from "../support/emulatorClients";

describe("emulator: GET /audit/event-received", () => {
  const h = useEmulatorClients();

  it("starts empty and lists entries newest first, with the emulator's item shape", async () => {
    assert.equal(ok(await h.api.get("/audit/event-received")).totalDocs, 0);
    ok(await h.api.put(`/application/event/${FIXTURE.events[0]}`, { name: "a", response: {} }));
    ok(await h.api.delete(`/env/values/${FIXTURE.values.apiBaseUrl}`));
    const page = ok(await h.bearer.get("/audit/event-received"));
    assert.deepEqual(
      page.docs.map((d: { event_type: string }) => d.event_type),
      ["ENV_VALUE_DELETED", "APPLICATION_EVENT_UPDATED"],
    );
    assert.deepEqual(Object.keys(page.docs[0]), [
      "_id",
      "event_type",
      "linked_account_id",
      "slug",
      "config_id",
      "workflow_id",
      "resource_id",
      "auth",
      "createdAt",
    ]);
    assert.ok(!Number.isNaN(Date.parse(page.docs[0].createdAt)));
  });

  it("paginates", async () => {
    for (let i = 0; i < 5; i++) {
      ok(
        await h.api.put(
          "/slug/hubspot/config/acme/workflows/wf_hs_deal_alerts",
          { enabled: i % 2 === 0 },
          { headers: { linked_account_id: "acme" } },
        ),
      );
    }
    refillRateLimit(h);
    const page = ok(await h.api.get("/audit/event-received", { params: { limit: 2, page: 3 } }));
    assert.deepEqual(
      [page.totalDocs, page.totalPages, page.docs.length, page.pagingCounter, page.hasNextPage],
      [5, 3, 1, 5, false],
    );
    assert.equal(page.docs[0].event_type, "WORKFLOW_ENABLED");
    assertError(
      await h.api.get("/audit/event-received", { params: { limit: 500 } }),
      400,
      "VALIDATION_ERROR",
      "limit:",
    );
  });
});

describe("emulator: POST /session-token/refresh", () => {
  const h = useEmulatorClients();

  for (const path of ["/session-token/refresh", "/api/v2/public/session-token/refresh"]) {
    it(`410 GONE at ${path}, with or without credentials`, async () => {
      for (const headers of [{}, { "x-api-key": h.emulator.apiKey }]) {
        const res = await h.control.post(`${h.emulator.url}${path}`, {}, { headers });
        assertError(res, 410, "OPERATION_DECOMMISSIONED", "v3.4.16");
        assert.equal(res.data.http_error_type, "GONE");
        assert.match(res.data.message, /decommissioned/);
      }
    });
  }
});

describe("emulator: framework errors use the platform's error body", () => {
  const h = useEmulatorClients();

  it("404 RESOURCE_NOT_FOUND for an unknown route or method", async () => {
    assertError(
      await h.api.get("/no/such/operation"),
      404,
      "RESOURCE_NOT_FOUND",
      "GET /api/v2/public/no/such/operation",
    );
    assertError(await h.api.delete("/linked-account"), 404, "RESOURCE_NOT_FOUND");
  });

  it("logs unknown API routes in the request log", async () => {
    await h.api.get("/no/such/operation");
    assert.deepEqual(
      h.emulator.requests.list().map((r) => [r.path, r.status]),
      [["/api/v2/public/no/such/operation", 404]],
    );
  });
});
