import { describe, it } from "mocha";
import { strict as assert } from "node:assert";
import type { AxiosInstance } from "axios";
import { FIXTURE } from "../../harness/fixture";
import { assertError, client, ok, useEmulatorClients } from "../support/emulatorClients";

interface Operation {
  name: string;
  method: "get" | "put" | "patch" | "post" | "delete";
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

const configHeaders = { linked_account_id: "acme", slug: "hubspot" };

// One representative call per public operation, each valid apart from its credentials.
const API_KEY_ONLY: Operation[] = [
  {
    name: "update config field",
    method: "put",
    path: "/config/field/hs_sync_limit",
    body: { value: 5 },
    headers: configHeaders,
  },
  { name: "get config", method: "get", path: "/slug/hubspot/config/acme", headers: configHeaders },
  { name: "upsert config", method: "post", path: "/config", body: { slug: "hubspot" }, headers: configHeaders },
  {
    name: "update application event",
    method: "put",
    path: `/application/event/${FIXTURE.events[0]}`,
    body: { name: "x", response: { a: 1 } },
  },
  {
    name: "toggle workflow (PUT)",
    method: "put",
    path: "/slug/hubspot/config/acme/workflows/wf_hs_deal_alerts",
    body: { enabled: true },
    headers: configHeaders,
  },
  {
    name: "toggle workflow (PATCH)",
    method: "patch",
    path: "/slug/hubspot/config/acme/workflows/wf_hs_deal_alerts",
    body: { enabled: true },
    headers: configHeaders,
  },
  { name: "list env definitions", method: "get", path: "/env/definitions" },
  { name: "list linked accounts", method: "get", path: "/linked-account" },
];

const API_KEY_OR_BEARER: Operation[] = [
  { name: "get env definition", method: "get", path: `/env/definitions/${FIXTURE.definitions.maxRetries}` },
  { name: "list env values", method: "get", path: "/env/values/org" },
  { name: "get env value", method: "get", path: `/env/value/${FIXTURE.definitions.maxRetries}` },
  {
    name: "set env value",
    method: "post",
    path: "/env/values",
    body: { variable_definition_id: FIXTURE.definitions.maxRetries, value: "4" },
  },
  { name: "delete env value", method: "delete", path: `/env/values/${FIXTURE.values.apiBaseUrl}` },
  { name: "list audit events", method: "get", path: "/audit/event-received" },
];

function call(http: AxiosInstance, op: Operation) {
  return http.request({ method: op.method, url: op.path, data: op.body, headers: op.headers });
}

describe("emulator: authentication", () => {
  const h = useEmulatorClients();

  for (const op of [...API_KEY_ONLY, ...API_KEY_OR_BEARER]) {
    it(`${op.name}: 401 Invalid Credentials without credentials`, async () => {
      const res = await call(h.anonymous, op);
      assertError(res, 401, "SERVER_ERROR", "Invalid Credentials");
      assert.equal(res.data.http_error_type, "UNAUTHORIZED");
    });

    it(`${op.name}: 401 with a wrong API key, which is never echoed`, async () => {
      const res = await call(client(h.emulator, { "x-api-key": "tk_wrong_secret" }), op);
      assertError(res, 401, "SERVER_ERROR", "Invalid Credentials");
      assert.ok(!JSON.stringify(res.data).includes("tk_wrong_secret"));
      const logged = JSON.stringify(h.emulator.requests.list());
      assert.ok(!logged.includes("tk_wrong_secret"));
      assert.equal(h.emulator.requests.list()[0].auth, "invalid");
    });

    it(`${op.name}: accepted with the API key`, async () => {
      const res = await call(h.api, op);
      assert.equal(res.status, 200, JSON.stringify(res.data));
      assert.equal(h.emulator.requests.list()[0].auth, "api_key");
    });
  }

  for (const op of API_KEY_ONLY) {
    it(`${op.name}: 401 for a valid bearer token, pointing at x-api-key`, async () => {
      const res = await call(h.bearer, op);
      assertError(res, 401, "BEARER_TOKEN_NOT_ACCEPTED", "x-api-key");
      assert.match(res.data.message, /[Bb]earer tokens are not accepted/);
      assert.ok(!JSON.stringify(res.data).includes(h.emulator.token));
    });
  }

  for (const op of API_KEY_OR_BEARER) {
    it(`${op.name}: accepted with the bearer token`, async () => {
      ok(await call(h.bearer, op));
      assert.equal(h.emulator.requests.list()[0].auth, "bearer");
    });
  }

  it("refuses a wrong bearer token as invalid credentials and logs auth 'invalid'", async () => {
    const res = await client(h.emulator, { authorization: "Bearer not_the_token" }).get("/audit/event-received");
    assertError(res, 401, "SERVER_ERROR", "Invalid Credentials");
    assert.ok(!JSON.stringify(h.emulator.requests.list()).includes("not_the_token"));
    assert.equal(h.emulator.requests.list()[0].auth, "invalid");
  });

  it("lets a wrong x-api-key win over a valid bearer token", async () => {
    const res = await client(h.emulator, {
      "x-api-key": "tk_wrong",
      authorization: `Bearer ${h.emulator.token}`,
    }).get("/audit/event-received");
    assertError(res, 401, "SERVER_ERROR", "Invalid Credentials");
  });

  it("logs auth 'none' for a request without credentials", async () => {
    await h.anonymous.get("/env/definitions");
    assert.deepEqual(
      h.emulator.requests.list().map((r) => [r.auth, r.status]),
      [["none", 401]],
    );
  });

  it("defaults to the API key tk_emulator and the token emulator_token", () => {
    assert.equal(h.emulator.apiKey, "tk_emulator");
    assert.equal(h.emulator.token, "emulator_token");
  });
});

describe("emulator: custom credentials", () => {
  const h = useEmulatorClients({ apiKey: "tk_custom", token: "custom_token" });

  it("accepts only the configured API key and token", async () => {
    ok(await client(h.emulator, { "x-api-key": "tk_custom" }).get("/env/definitions"));
    ok(await client(h.emulator, { authorization: "Bearer custom_token" }).get("/audit/event-received"));
    assertError(await client(h.emulator, { "x-api-key": "tk_emulator" }).get("/env/definitions"), 401, "SERVER_ERROR");
    assertError(
      await client(h.emulator, { authorization: "Bearer emulator_token" }).get("/audit/event-received"),
      401,
      "SERVER_ERROR",
    );
  });
});
