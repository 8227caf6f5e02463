import { describe, it } from "mocha";
import { strict as assert } from "node:assert";
import { FIXTURE } from "../../harness/fixture";
import { assertError, ok, refillRateLimit, useEmulatorClients } from "../support/emulatorClients";

const D = FIXTURE.definitions;
const V = FIXTURE.values;
const DEFINITION_KEYS = [
  "_id",
  "org_id",
  "name",
  "description",
  "scope",
  "var_format",
  "encrypted",
  "created_by",
  "updated_by",
  "createdAt",
  "updatedAt",
];

describe("emulator: env definitions", () => {
  const h = useEmulatorClients();

  it("lists every definition in the paginated envelope", async () => {
    const page = ok(await h.api.get("/env/definitions"));
    assert.equal(page.totalDocs, 8);
    assert.equal(page.docs.length, 8);
    assert.deepEqual(Object.keys(page.docs[0]), DEFINITION_KEYS);
    assert.deepEqual(
      { ...page, docs: undefined },
      {
        docs: undefined,
        totalDocs: 8,
        limit: 10,
        page: 1,
        totalPages: 1,
        pagingCounter: 1,
        hasPrevPage: false,
        hasNextPage: false,
        prevPage: null,
        nextPage: null,
      },
    );
  });

  it("filters by scope, var_format and a case-insensitive name substring", async () => {
    const names = async (params: Record<string, string>) =>
      ok(await h.api.get("/env/definitions", { params })).docs.map((d: { name: string }) => d.name);
    assert.deepEqual(await names({ scope: "linked_account" }), ["CRM_API_TOKEN", "ACCOUNT_TIER", "ACCOUNT_QUOTA"]);
    assert.deepEqual(await names({ var_format: "url" }), ["API_BASE_URL", "WEBHOOK_URL"]);
    assert.deepEqual(await names({ name: "account" }), ["ACCOUNT_TIER", "ACCOUNT_QUOTA"]);
    assert.deepEqual(await names({ scope: "workflow", var_format: "number" }), ["BATCH_SIZE"]);
  });

  it("400 naming scope or var_format for an invalid filter", async () => {
    assertError(
      await h.api.get("/env/definitions", { params: { scope: "galaxy" } }),
      400,
      "VALIDATION_ERROR",
      "scope: expected one of",
    );
    assertError(
      await h.api.get("/env/definitions", { params: { var_format: "json" } }),
      400,
      "VALIDATION_ERROR",
      "var_format: expected one of",
    );
  });

  it("returns one definition as {definition}", async () => {
    const res = ok(await h.api.get(`/env/definitions/${D.crmApiToken}`));
    assert.deepEqual(Object.keys(res), ["definition"]);
    assert.equal(res.definition.name, "CRM_API_TOKEN");
    assert.equal(res.definition.encrypted, true);
    assert.deepEqual(Object.keys(res.definition), DEFINITION_KEYS);
  });

  it("404 'Variable definition not found' for an unknown id", async () => {
    assertError(await h.api.get("/env/definitions/nope"), 404, "RESOURCE_NOT_FOUND", "Variable definition not found");
  });
});

describe("emulator: GET /env/values/:scope", () => {
  const h = useEmulatorClients();
  const list = (scope: string, params: Record<string, string> = {}) => h.api.get(`/env/values/${scope}`, { params });

  it("lists org values with the populated definition", async () => {
    const res = ok(await list("org"));
    assert.equal(res.status, "success");
    assert.equal(res.totalDocs, 2);
    assert.deepEqual(res.docs[0], {
      _id: V.apiBaseUrl,
      variable_definition_id: { _id: D.apiBaseUrl, name: "API_BASE_URL", scope: "org", encrypted: false },
      value: "https://api.example.com",
      linked_account_id: null,
      workflow_id: null,
      updatedAt: "2024-01-01T00:00:00.000Z",
    });
    for (const key of [
      "limit",
      "page",
      "totalPages",
      "pagingCounter",
      "hasPrevPage",
      "hasNextPage",
      "prevPage",
      "nextPage",
    ]) {
      assert.ok(key in res, key);
    }
  });

  it("filters linked_account values by account and redacts encrypted ones", async () => {
    const res = ok(await list("linked_account", { linked_account_id: "acme" }));
    assert.deepEqual(
      res.docs.map((d: { variable_definition_id: { name: string }; value: string }) => [
        d.variable_definition_id.name,
        d.value,
      ]),
      [
        ["CRM_API_TOKEN", "[REDACTED]"],
        ["ACCOUNT_TIER", "enterprise"],
      ],
    );
    const tiers = ok(
      await list("linked_account", { linked_account_id: "globex", variable_definition_id: D.accountTier }),
    );
    assert.deepEqual(
      tiers.docs.map((d: { value: string }) => d.value),
      ["growth"],
    );
  });

  it("filters workflow values by workflow and optionally by linked account", async () => {
    assert.equal(ok(await list("workflow", { workflow_id: "wf_hs_contact_sync" })).totalDocs, 2);
    const acme = ok(await list("workflow", { workflow_id: "wf_hs_contact_sync", linked_account_id: "acme" }));
    assert.deepEqual(
      acme.docs.map((d: { _id: string }) => d._id),
      [V.batchSizeAcmeContactSync],
    );
  });

  it("400 when the scope's required id is missing", async () => {
    const la = await list("linked_account");
    assertError(la, 400, "VALIDATION_ERROR");
    assert.equal(la.data.message, "linked_account_id is required for linked_account scope");
    const wf = await list("workflow");
    assert.equal(wf.data.message, "workflow_id is required for workflow scope");
  });

  it("400 naming scope for an unknown scope, and limit above 100", async () => {
    assertError(await list("galaxy"), 400, "VALIDATION_ERROR", "scope: expected one of");
    assertError(await list("org", { limit: "101" }), 400, "VALIDATION_ERROR", "limit:");
  });
});

describe("emulator: GET /env/value/:definition_id", () => {
  const h = useEmulatorClients();
  const get = (definitionId: string, params: Record<string, string> = {}) =>
    h.api.get(`/env/value/${definitionId}`, { params });

  it("returns the value of an org definition", async () => {
    assert.deepEqual(ok(await get(D.maxRetries)), {
      value: "3",
      encrypted: false,
      name: "MAX_RETRIES",
      scope: "org",
      variable_definition_id: D.maxRetries,
    });
  });

  it("returns a linked account's value, redacted when encrypted", async () => {
    assert.equal(ok(await get(D.accountTier, { linked_account_id: "globex" })).value, "growth");
    const secret = ok(await get(D.crmApiToken, { linked_account_id: "acme" }));
    assert.equal(secret.value, "[REDACTED]");
    assert.equal(secret.encrypted, true);
  });

  it("matches (linked account, workflow) exactly", async () => {
    assert.equal(
      ok(await get(D.batchSize, { workflow_id: "wf_hs_contact_sync", linked_account_id: "acme" })).value,
      "50",
    );
    assertError(
      await get(D.batchSize, { workflow_id: "wf_hs_contact_sync" }),
      404,
      "RESOURCE_NOT_FOUND",
      "Variable value not found",
    );
  });

  it("404 for an unknown definition or a missing value", async () => {
    assertError(await get("nope"), 404, "RESOURCE_NOT_FOUND", "Variable definition not found");
    assertError(
      await get(D.accountQuota, { linked_account_id: "acme" }),
      404,
      "RESOURCE_NOT_FOUND",
      "Variable value not found",
    );
  });

  it("400 when the ids do not fit the definition's scope", async () => {
    assertError(
      await get(D.accountTier),
      400,
      "VALIDATION_ERROR",
      "linked_account_id is required for linked_account scope",
    );
    assertError(
      await get(D.maxRetries, { workflow_id: "wf_hs_contact_sync" }),
      400,
      "VALIDATION_ERROR",
      "workflow_id is not allowed for org scope",
    );
  });
});

describe("emulator: POST /env/values", () => {
  const h = useEmulatorClients();
  const set = (body: Record<string, unknown>) => h.api.post("/env/values", body);

  it("creates a value and returns the full record", async () => {
    const res = ok(await set({ variable_definition_id: D.accountQuota, value: "1000", linked_account_id: "globex" }));
    assert.deepEqual(Object.keys(res), [
      "_id",
      "variable_definition_id",
      "org_id",
      "environment",
      "linked_account_id",
      "workflow_id",
      "value",
      "created_by",
      "updated_by",
      "createdAt",
      "updatedAt",
    ]);
    assert.match(res._id, /^[0-9a-f]{24}$/);
    assert.deepEqual(
      [res.variable_definition_id, res.linked_account_id, res.workflow_id, res.value, res.environment],
      [D.accountQuota, "globex", null, "1000", "test"],
    );
    assert.equal(h.emulator.store.envVariables.value(res._id)!.value, "1000");
  });

  it("upserts: a second POST for the same (definition, account, workflow) updates in place", async () => {
    const first = ok(await set({ variable_definition_id: D.accountQuota, value: "1", linked_account_id: "initech" }));
    await new Promise((r) => setTimeout(r, 5));
    const second = ok(await set({ variable_definition_id: D.accountQuota, value: "2", linked_account_id: "initech" }));
    assert.equal(second._id, first._id);
    assert.equal(second.value, "2");
    assert.equal(second.createdAt, first.createdAt);
    assert.notEqual(second.updatedAt, first.updatedAt);
    const existing = ok(await set({ variable_definition_id: D.maxRetries, value: "9" }));
    assert.equal(existing._id, V.maxRetries);
    assert.equal(h.emulator.store.state.envValues.filter((v) => v.variable_definition_id === D.accountQuota).length, 1);
  });

  it("accepts a workflow value with and without a linked account", async () => {
    ok(
      await set({
        variable_definition_id: D.webhookUrl,
        value: "https://hooks.example.com/deals",
        workflow_id: "wf_hs_deal_alerts",
      }),
    );
    ok(
      await set({
        variable_definition_id: D.batchSize,
        value: "10",
        workflow_id: "wf_slack_notify",
        linked_account_id: "globex",
      }),
    );
    const values = ok(await h.api.get("/env/values/workflow", { params: { workflow_id: "wf_slack_notify" } }));
    assert.equal(values.docs[0].linked_account_id, "globex");
  });

  it("stores an encrypted value but answers [REDACTED]", async () => {
    const res = ok(
      await set({ variable_definition_id: D.crmApiToken, value: "s3cret-globex", linked_account_id: "globex" }),
    );
    assert.equal(res.value, "[REDACTED]");
    assert.equal(h.emulator.store.envVariables.value(res._id)!.value, "s3cret-globex");
    const audit = JSON.stringify(ok(await h.api.get("/audit/event-received")));
    assert.ok(!audit.includes("s3cret-globex"));
  });

  it("records the credential kind in created_by and the audit entry", async () => {
    const res = ok(
      await h.bearer.post("/env/values", {
        variable_definition_id: D.accountQuota,
        value: "5",
        linked_account_id: "acme",
      }),
    );
    assert.equal(res.created_by, "bearer");
    const [entry] = ok(await h.bearer.get("/audit/event-received")).docs;
    assert.deepEqual(
      [entry.event_type, entry.auth, entry.resource_id, entry.linked_account_id],
      ["ENV_VALUE_SET", "bearer", res._id, "acme"],
    );
  });

  it("400 when ids do not fit the definition's scope", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { variable_definition_id: D.maxRetries, value: "1", linked_account_id: "acme" },
        "linked_account_id is not allowed for org scope",
      ],
      [
        { variable_definition_id: D.workspaceRegion, value: "x", workflow_id: "wf_slack_notify" },
        "workflow_id is not allowed for workspace scope",
      ],
      [{ variable_definition_id: D.accountTier, value: "x" }, "linked_account_id is required for linked_account scope"],
      [
        {
          variable_definition_id: D.accountTier,
          value: "x",
          linked_account_id: "acme",
          workflow_id: "wf_slack_notify",
        },
        "workflow_id is not allowed for linked_account scope",
      ],
      [
        { variable_definition_id: D.batchSize, value: "1", linked_account_id: "acme" },
        "workflow_id is required for workflow scope",
      ],
    ];
    for (const [body, message] of cases) assertError(await set(body), 400, "VALIDATION_ERROR", message);
  });

  it("400 when the value does not match var_format", async () => {
    for (const [definition, value, format] of [
      [D.maxRetries, "three", "number"],
      [D.maxRetries, "", "number"],
      [D.maxRetries, "Infinity", "number"],
      [D.apiBaseUrl, "ftp://example.com", "url"],
      [D.apiBaseUrl, "example.com", "url"],
    ]) {
      const res = await set({ variable_definition_id: definition, value });
      assertError(res, 400, "VALIDATION_ERROR", "value does not match the variable format");
      assert.ok(res.data.message.includes(format), res.data.message);
    }
    refillRateLimit(h);
    ok(await set({ variable_definition_id: D.maxRetries, value: "-2.5e3" }));
  });

  it("404 for an unknown definition, linked account or workflow", async () => {
    assertError(
      await set({ variable_definition_id: "nope", value: "1" }),
      404,
      "RESOURCE_NOT_FOUND",
      "Variable definition not found",
    );
    assertError(
      await set({ variable_definition_id: D.accountTier, value: "x", linked_account_id: "nobody" }),
      404,
      "RESOURCE_NOT_FOUND",
      "Linked account nobody not found",
    );
    assertError(
      await set({ variable_definition_id: D.batchSize, value: "1", workflow_id: "wf_nope" }),
      404,
      "RESOURCE_NOT_FOUND",
      "Workflow wf_nope not found",
    );
  });

  it("400 WORKFLOW_NOT_PUBLISHED for a draft workflow", async () => {
    assertError(
      await set({ variable_definition_id: D.batchSize, value: "1", workflow_id: "wf_slack_digest" }),
      400,
      "WORKFLOW_NOT_PUBLISHED",
    );
  });

  it("400 naming the field for wrong types and missing fields", async () => {
    assertError(
      await set({ variable_definition_id: D.maxRetries, value: 3 }),
      400,
      "VALIDATION_ERROR",
      "value: expected string, received number",
    );
    assertError(await set({ value: "3" }), 400, "VALIDATION_ERROR", "variable_definition_id: required");
    assertError(
      await set({ variable_definition_id: D.accountTier, value: "x", linked_account_id: 7 }),
      400,
      "VALIDATION_ERROR",
      "linked_account_id:",
    );
  });
});

describe("emulator: DELETE /env/values/:value_id", () => {
  const h = useEmulatorClients();

  it("deletes a value, audits it, and then 404s", async () => {
    assert.deepEqual(ok(await h.api.delete(`/env/values/${V.accountTierAcme}`)), {
      status: "success",
      message: "Variable value deleted",
    });
    assert.equal(h.emulator.store.envVariables.value(V.accountTierAcme), undefined);
    const [entry] = ok(await h.api.get("/audit/event-received")).docs;
    assert.deepEqual(
      [entry.event_type, entry.resource_id, entry.linked_account_id],
      ["ENV_VALUE_DELETED", V.accountTierAcme, "acme"],
    );
    assertError(
      await h.api.delete(`/env/values/${V.accountTierAcme}`),
      404,
      "RESOURCE_NOT_FOUND",
      "Variable value not found",
    );
  });

  it("accepts an empty body with a JSON content type", async () => {
    const res = await h.api.delete(`/env/values/${V.apiBaseUrl}`, {
      headers: { "content-type": "application/json" },
      transformRequest: [() => ""],
    });
    ok(res);
  });
});
